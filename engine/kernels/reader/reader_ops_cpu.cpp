// CPU kernels of the reader ops: the four reader handle ops create a Reader once per kernel;
// ReaderReadV2 / ReadUpToV2 / NumRecordsProducedV2 / NumWorkUnitsCompletedV2 / ResetV2 use it.
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "kernels/kernels.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"
#include "framework/resource_handle.h"
#include "kernels/queue/queue.h"
#include "kernels/queue/resource_naming.h"
#include "kernels/reader/reader.h"

#include <functional>
#include <optional>

namespace tstudio {
namespace {

using SourceFactory = std::function<Expected<std::unique_ptr<RecordSource>>(const tensorflow::NodeDef&)>;

Expected<data::Compression> compressionAttr(const tensorflow::NodeDef& node, const char* attr)
{
    auto name = attrString(node, attr);
    if (!name)
        return unexpected(name.error());
    return data::compressionFromName(*name);
}

/// TFRecordReaderV2, TextLineReaderV2, WholeFileReaderV2, FixedLengthRecordReaderV2.
class ReaderHandleOp : public OpKernel {
public:
    ReaderHandleOp(OpKernelConstruction& c, std::string kind, SourceFactory factory)
        : OpKernel(c), m_kind(std::move(kind)), m_factory(std::move(factory))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_name) {
            auto name = resourceNameFor(node());
            if (!name)
                return name.error();
            auto reader = ctx.resources().lookupOrCreate<Reader>(
                name->container, name->name, [&]() -> Expected<std::shared_ptr<Reader>> {
                    auto source = m_factory(node());
                    if (!source)
                        return unexpected(source.error());
                    return std::make_shared<Reader>(m_kind + " '" + this->name() + "'", std::move(*source));
                });
            if (!reader)
                return reader.error();
            m_name = *name;
        }
        return setHandleOutput(ctx, *m_name, Reader::kTypeName);
    }

private:
    const std::string m_kind;
    const SourceFactory m_factory;
    std::optional<ResourceName> m_name;
};

class TFRecordReaderOp : public ReaderHandleOp {
public:
    explicit TFRecordReaderOp(OpKernelConstruction& c)
        : ReaderHandleOp(c, "TFRecordReader", [](const tensorflow::NodeDef& node)
                                                  -> Expected<std::unique_ptr<RecordSource>> {
              auto compression = compressionAttr(node, "compression_type");
              if (!compression)
                  return unexpected(compression.error());
              return makeTFRecordSource(*compression);
          })
    {
    }
};

class TextLineReaderOp : public ReaderHandleOp {
public:
    explicit TextLineReaderOp(OpKernelConstruction& c)
        : ReaderHandleOp(c, "TextLineReader", [](const tensorflow::NodeDef& node)
                                                  -> Expected<std::unique_ptr<RecordSource>> {
              auto skip = attrInt(node, "skip_header_lines");
              if (!skip)
                  return unexpected(skip.error());
              if (*skip < 0)
                  return unexpected(
                      invalidArgumentError("skip_header_lines must be >= 0 not " + std::to_string(*skip)));
              return makeTextLineSource(*skip);
          })
    {
    }
};

class WholeFileReaderOp : public ReaderHandleOp {
public:
    explicit WholeFileReaderOp(OpKernelConstruction& c)
        : ReaderHandleOp(c, "WholeFileReader",
                         [](const tensorflow::NodeDef&) -> Expected<std::unique_ptr<RecordSource>> {
                             return makeWholeFileSource();
                         })
    {
    }
};

class FixedLengthRecordReaderOp : public ReaderHandleOp {
public:
    explicit FixedLengthRecordReaderOp(OpKernelConstruction& c)
        : ReaderHandleOp(c, "FixedLengthRecordReader", [](const tensorflow::NodeDef& node)
                                                           -> Expected<std::unique_ptr<RecordSource>> {
              std::int64_t values[4] = {};
              const char* names[4] = {"header_bytes", "record_bytes", "footer_bytes", "hop_bytes"};
              for (int i = 0; i < 4; ++i) {
                  auto v = attrInt(node, names[i]);
                  if (!v)
                      return unexpected(v.error());
                  values[i] = *v;
              }
              // TensorFlow's checks and words.
              if (values[0] < 0)
                  return unexpected(invalidArgumentError("header_bytes must be >= 0 not " + std::to_string(values[0])));
              if (values[2] < 0)
                  return unexpected(invalidArgumentError("footer_bytes must be >= 0 not " + std::to_string(values[2])));
              if (values[1] <= 0)
                  return unexpected(invalidArgumentError("record_bytes must be > 0 not " + std::to_string(values[1])));
              if (values[3] < 0)
                  return unexpected(invalidArgumentError("hop_bytes must be >= 0 not " + std::to_string(values[3])));
              auto encoding = compressionAttr(node, "encoding");
              if (!encoding)
                  return unexpected(encoding.error());
              return makeFixedLengthSource(values[0], values[1], values[2], values[3], *encoding);
          })
    {
    }
};

Expected<std::shared_ptr<Reader>> readerFromHandle(OpKernelContext& ctx)
{
    const Tensor& t = ctx.input(0);
    if (t.dtype() != tensorflow::DT_RESOURCE || t.numElements() != 1)
        return unexpected(invalidArgumentError("the reader handle must be one resource handle, got a " +
                                               dataTypeString(t.dtype()) + " tensor of shape " + t.shape().toString()));
    const ResourceHandle& handle = t.values<ResourceHandle>()[0];
    if (handle.hashCode != resourceTypeHashCode(Reader::kTypeName))
        return unexpected(invalidArgumentError("Trying to access resource using the wrong type. Expected " +
                                               std::string(Reader::kTypeName) + " got " + handle.maybeTypeName));
    auto reader = ctx.resources().lookup<Reader>(handle.container, handle.name);
    if (!reader)
        return unexpected(notFoundError("Resource " + handle.container + "/" + handle.name + "/" +
                                        std::string(Reader::kTypeName) + " does not exist."));
    return reader;
}

Status setStringOutput(OpKernelContext& ctx, int i, const TensorShape& shape, const std::vector<std::string>& values)
{
    auto out = ctx.allocateOutput(i, shape);
    if (!out)
        return out.error();
    auto strings = (*out)->strings();
    for (std::size_t k = 0; k < values.size(); ++k)
        strings[k] = values[k];
    return Status::ok();
}

class ReaderReadOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto reader = readerFromHandle(ctx);
        if (!reader)
            return reader.error();
        auto queue = queueFromHandle(ctx, 1);
        if (!queue)
            return queue.error();
        auto record = (*reader)->read(ctx, **queue);
        if (!record)
            return record.error();
        if (Status s = setStringOutput(ctx, 0, TensorShape::scalar(), {record->first}); !s.isOk())
            return s;
        return setStringOutput(ctx, 1, TensorShape::scalar(), {record->second});
    }
};

class ReaderReadUpToOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto reader = readerFromHandle(ctx);
        if (!reader)
            return reader.error();
        auto queue = queueFromHandle(ctx, 1);
        if (!queue)
            return queue.error();
        const Tensor& n = ctx.input(2);
        if (n.rank() != 0)
            return invalidArgumentError("num_records must be a scalar, got shape " + n.shape().toString());
        auto records = (*reader)->readUpTo(ctx, **queue, n.scalar<std::int64_t>());
        if (!records)
            return records.error();
        std::vector<std::string> keys, values;
        for (auto& [key, value] : *records) {
            keys.push_back(std::move(key));
            values.push_back(std::move(value));
        }
        const TensorShape shape({static_cast<std::int64_t>(keys.size())});
        if (Status s = setStringOutput(ctx, 0, shape, keys); !s.isOk())
            return s;
        return setStringOutput(ctx, 1, shape, values);
    }
};

template <bool kRecords> class ReaderCountOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto reader = readerFromHandle(ctx);
        if (!reader)
            return reader.error();
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<std::int64_t>() = kRecords ? (*reader)->numRecordsProduced() : (*reader)->numWorkUnitsCompleted();
        return Status::ok();
    }
};

class ReaderResetOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto reader = readerFromHandle(ctx);
        if (!reader)
            return reader.error();
        (*reader)->reset();
        return Status::ok();
    }
};

} // namespace

Status registerReaderCpuKernels(KernelRegistry& registry)
{
    Status s = registry.add<TFRecordReaderOp>(KernelDef{"TFRecordReaderV2", "CPU", {}, {"reader_handle"}});
    if (s.isOk())
        s = registry.add<TextLineReaderOp>(KernelDef{"TextLineReaderV2", "CPU", {}, {"reader_handle"}});
    if (s.isOk())
        s = registry.add<WholeFileReaderOp>(KernelDef{"WholeFileReaderV2", "CPU", {}, {"reader_handle"}});
    if (s.isOk())
        s = registry.add<FixedLengthRecordReaderOp>(
            KernelDef{"FixedLengthRecordReaderV2", "CPU", {}, {"reader_handle"}});
    if (s.isOk())
        s = registry.add<ReaderReadOp>(KernelDef{"ReaderReadV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ReaderReadUpToOp>(KernelDef{"ReaderReadUpToV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ReaderCountOp<true>>(KernelDef{"ReaderNumRecordsProducedV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ReaderCountOp<false>>(KernelDef{"ReaderNumWorkUnitsCompletedV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ReaderResetOp>(KernelDef{"ReaderResetV2", "CPU", {}, {}});
    return s;
}

} // namespace tstudio
