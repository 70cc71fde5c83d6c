// The data sources' pipelines: each source's examples (source_examples.h) shuffled, repeated and
// batched, their components picked (or stacked) per fed placeholder.
#include "project/sources/data_sources.h"

#include "core/try.h"
#include "project/sources/source_examples.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace tstudio::project {
namespace {

/// The shuffle buffer of a tfrecord source without one.
constexpr std::int64_t kDefaultFileShuffleBuffer = 10000;

/// Stacks scalar components of one dtype into a vector [k].
Expected<Tensor> stackScalars(const data::Element& element, const std::vector<std::size_t>& indices, DataType dtype,
                              Allocator& allocator)
{
    auto out = Tensor::allocate(allocator, dtype, TensorShape({static_cast<std::int64_t>(indices.size())}));
    if (!out)
        return unexpected(out.error());
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const Tensor& t = element[indices[i]];
        if (dtype == tensorflow::DT_STRING) {
            out->strings()[i] = t.strings()[0];
        } else {
            const std::size_t size = dataTypeSize(dtype);
            std::memcpy(out->tensorData().data() + i * size, t.tensorData().data(), size);
        }
    }
    return out;
}

/// The number of values of a 1-D list (an example's variable-length component).
std::int64_t listLength(const Tensor& list)
{
    return list.rank() == 0 ? 1 : list.shape().dim(0);
}

/// Copies `count` values from `from` (starting at value 0) into `to` at value `at`.
void copyValues(const Tensor& from, Tensor& to, std::int64_t at, std::int64_t count)
{
    if (count == 0)
        return;
    if (from.dtype() == tensorflow::DT_STRING) {
        std::copy_n(from.strings().begin(), count, to.strings().begin() + at);
        return;
    }
    const std::size_t size = dataTypeSize(from.dtype());
    std::memcpy(to.tensorData().data() + static_cast<std::size_t>(at) * size, from.tensorData().data(),
                static_cast<std::size_t>(count) * size);
}

/// tf.data's shard(num_shards, index): elements index, index + num_shards, ... of the input.
class ShardIterator final : public data::DatasetIterator {
public:
    ShardIterator(std::unique_ptr<data::DatasetIterator> input, std::int64_t count, std::int64_t index)
        : m_input(std::move(input)), m_count(count), m_index(index)
    {
    }

protected:
    Expected<std::optional<data::Element>> next() override
    {
        for (;;) {
            auto element = m_input->getNext();
            if (!element || !*element)
                return element;
            const std::int64_t position = m_position++;
            if (position % m_count == m_index)
                return element;
        }
    }

private:
    std::unique_ptr<data::DatasetIterator> m_input;
    std::int64_t m_count;
    std::int64_t m_index;
    std::int64_t m_position = 0;
};

class ShardNode final : public data::DatasetNode {
public:
    ShardNode(data::Dataset input, std::int64_t count, std::int64_t index)
        : m_input(std::move(input)), m_count(count), m_index(index)
    {
    }
    std::unique_ptr<data::DatasetIterator> makeIterator() const override
    {
        return std::make_unique<ShardIterator>(m_input.makeIterator(), m_count, m_index);
    }
    std::string describe() const override
    {
        return m_input.describe() + " -> Shard(" + std::to_string(m_count) + ", " + std::to_string(m_index) + ")";
    }
    Status status() const override { return m_input.status(); }
    Allocator& allocator() const override { return m_input.node()->allocator(); }

private:
    data::Dataset m_input;
    std::int64_t m_count;
    std::int64_t m_index;
};

/// batch(): the engine's batch, or - when some feed is a part of a variable-length feature - the
/// same gathering with batchPart per feed.
class FormsBatchIterator final : public data::DatasetIterator {
public:
    FormsBatchIterator(std::unique_ptr<data::DatasetIterator> input, std::size_t batchSize, bool dropRemainder,
                       std::vector<BatchComponent> slots, std::vector<Tensor> pads, Allocator& allocator)
        : m_input(std::move(input)), m_batchSize(batchSize), m_dropRemainder(dropRemainder), m_slots(std::move(slots)),
          m_pads(std::move(pads)), m_allocator(allocator)
    {
    }

protected:
    Expected<std::optional<data::Element>> next() override
    {
        std::vector<data::Element> elements;
        while (elements.size() < m_batchSize) {
            auto element = m_input->getNext();
            if (!element)
                return unexpected(element.error());
            if (!*element)
                break;
            elements.push_back(std::move(**element));
        }
        if (elements.empty() || (m_dropRemainder && elements.size() < m_batchSize))
            return std::optional<data::Element>();
        data::Element out;
        std::vector<Tensor> values(elements.size());
        for (std::size_t f = 0; f < m_slots.size(); ++f) {
            for (std::size_t e = 0; e < elements.size(); ++e)
                values[e] = elements[e][f];
            auto part = batchPart(values, m_slots[f], m_pads[f], m_allocator);
            if (!part)
                return unexpected(part.error());
            out.push_back(std::move(*part));
        }
        return std::optional<data::Element>(std::move(out));
    }

private:
    std::unique_ptr<data::DatasetIterator> m_input;
    std::size_t m_batchSize;
    bool m_dropRemainder;
    std::vector<BatchComponent> m_slots; ///< per element component; `element` is its own index
    std::vector<Tensor> m_pads;
    Allocator& m_allocator;
};

class FormsBatchNode final : public data::DatasetNode {
public:
    FormsBatchNode(data::Dataset input, std::int64_t batchSize, bool dropRemainder, std::vector<BatchComponent> slots,
                   std::vector<Tensor> pads)
        : m_input(std::move(input)), m_batchSize(batchSize), m_dropRemainder(dropRemainder), m_slots(std::move(slots)),
          m_pads(std::move(pads))
    {
    }
    std::unique_ptr<data::DatasetIterator> makeIterator() const override
    {
        return std::make_unique<FormsBatchIterator>(m_input.makeIterator(), static_cast<std::size_t>(m_batchSize),
                                                    m_dropRemainder, m_slots, m_pads, allocator());
    }
    std::string describe() const override
    {
        return m_input.describe() + " -> Batch(" + std::to_string(m_batchSize) + ", variable-length)";
    }
    Status status() const override
    {
        Status s = m_input.status();
        if (s.isOk() && m_batchSize <= 0)
            return invalidArgumentError("Batch size must be greater than zero.");
        return s;
    }
    Allocator& allocator() const override { return m_input.node()->allocator(); }

private:
    data::Dataset m_input;
    std::int64_t m_batchSize;
    bool m_dropRemainder;
    std::vector<BatchComponent> m_slots;
    std::vector<Tensor> m_pads;
};

} // namespace

TensorShape BatchComponent::batchShape() const
{
    switch (part) {
    case BatchPart::kIndices: return TensorShape({-1, 2});
    case BatchPart::kValues: return TensorShape({-1});
    case BatchPart::kDenseShape: return TensorShape({2});
    default: return TensorShape({-1}).concatenate(exampleShape);
    }
}

std::vector<BatchComponent> batchComponents(const SourceExamples& examples)
{
    std::vector<BatchComponent> out;
    for (std::size_t i = 0; i < examples.names.size(); ++i) {
        const std::string& name = examples.names[i];
        const DataType dtype = examples.dtypes[i];
        switch (examples.form(i)) {
        case BatchForm::kStacked: out.push_back({name, dtype, examples.shapes[i], i, BatchPart::kStacked}); break;
        case BatchForm::kSparse:
            out.push_back({name + ".indices", tensorflow::DT_INT64, TensorShape({2}), i, BatchPart::kIndices});
            out.push_back({name + ".values", dtype, TensorShape::scalar(), i, BatchPart::kValues});
            out.push_back({name + ".dense_shape", tensorflow::DT_INT64, TensorShape::scalar(), i, BatchPart::kDenseShape});
            break;
        case BatchForm::kPadded:
            out.push_back({name, dtype, TensorShape({-1}), i, BatchPart::kPadded});
            out.push_back({name + ".length", tensorflow::DT_INT64, TensorShape::scalar(), i, BatchPart::kLengths});
            break;
        }
    }
    return out;
}

Expected<Tensor> batchPart(const std::vector<Tensor>& values, const BatchComponent& c, const Tensor& padValue,
                           Allocator& allocator)
{
    const auto batch = static_cast<std::int64_t>(values.size());
    if (c.part == BatchPart::kStacked) {
        if (values.empty())
            return Tensor::allocate(allocator, c.dtype, TensorShape({0}).concatenate(c.exampleShape));
        std::vector<data::Element> elements;
        elements.reserve(values.size());
        for (const Tensor& v : values)
            elements.push_back({v});
        auto stacked = data::stackElements(elements, allocator);
        if (!stacked)
            return unexpected(stacked.error().withContext("component '" + c.name + "'"));
        return std::move(stacked->front());
    }
    std::int64_t total = 0;
    std::int64_t longest = 0;
    for (const Tensor& v : values) {
        total += listLength(v);
        longest = std::max(longest, listLength(v));
    }
    switch (c.part) {
    case BatchPart::kIndices: {
        // Row-major: example by example, positions in order (what parse_example gives).
        TSTUDIO_TRY(out, Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({total, 2})));
        auto dst = out.values<std::int64_t>();
        std::size_t k = 0;
        for (std::int64_t e = 0; e < batch; ++e)
            for (std::int64_t j = 0; j < listLength(values[static_cast<std::size_t>(e)]); ++j) {
                dst[k++] = e;
                dst[k++] = j;
            }
        return out;
    }
    case BatchPart::kValues: {
        TSTUDIO_TRY(out, Tensor::allocate(allocator, c.dtype, TensorShape({total})));
        std::int64_t at = 0;
        for (const Tensor& v : values) {
            copyValues(v, out, at, listLength(v));
            at += listLength(v);
        }
        return out;
    }
    case BatchPart::kDenseShape: {
        TSTUDIO_TRY(out, Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({2})));
        out.values<std::int64_t>()[0] = batch;
        out.values<std::int64_t>()[1] = longest;
        return out;
    }
    case BatchPart::kPadded: {
        TSTUDIO_TRY(out, Tensor::allocate(allocator, c.dtype, TensorShape({batch, longest})));
        for (std::int64_t e = 0; e < batch; ++e) {
            const Tensor& v = values[static_cast<std::size_t>(e)];
            copyValues(v, out, e * longest, listLength(v));
            for (std::int64_t j = listLength(v); j < longest; ++j)
                copyValues(padValue, out, e * longest + j, 1);
        }
        return out;
    }
    default: { // kLengths
        TSTUDIO_TRY(out, Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({batch})));
        for (std::int64_t e = 0; e < batch; ++e)
            out.values<std::int64_t>()[static_cast<std::size_t>(e)] = listLength(values[static_cast<std::size_t>(e)]);
        return out;
    }
    }
}

Expected<SourcePipeline> buildSourcePipeline(const Project& project, std::size_t index, Allocator& allocator,
                                             const SourceShard& shard)
{
    if (index >= project.sources.size())
        return unexpected(invalidArgumentError("the project has no data source " + std::to_string(index)));
    return buildSourcePipeline(project, project.sources[index], "data.sources[" + std::to_string(index) + "]",
                               project.batchSize, PipelineMode::kTraining, allocator, shard);
}

Expected<SourcePipeline> buildSourcePipeline(const Project& project, const DataSource& source, const std::string& path,
                                             std::int64_t batchSize, PipelineMode mode, Allocator& allocator,
                                             const SourceShard& shard)
{
    if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
        return unexpected(invalidArgumentError("shard " + std::to_string(shard.index) + " of " +
                                               std::to_string(shard.count) + " does not exist"));
    const std::string where = projectLabel(project) + path + " (" + source.type() + ")";
    // A word_text source's examples depend on the batch size (ptb_producer's rows), and its steps
    // must come in order: never shuffled.
    const auto* wordText = std::get_if<WordTextParams>(&source.params);
    auto examples = wordText ? wordTextExamples(project, *wordText, where, batchSize, allocator)
                             : loadSourceExamples(project, source, path, allocator);
    if (!examples)
        return unexpected(examples.error());
    if (wordText && shard.count > 1)
        return unexpected(invalidArgumentError(where + ": a word_text source cannot be read in " +
                                               std::to_string(shard.count) +
                                               " shards (its batches are cut as ptb_producer cuts them, rows that "
                                               "carry state from step to step); train it in one process"));

    // Which batch component each feed takes (or which scalar ones it stacks), and what it gives.
    const std::vector<BatchComponent> components = batchComponents(*examples);
    std::vector<FeedSpec> feedSpecs;
    std::vector<std::vector<std::size_t>> picks; // example components per feed
    std::vector<BatchComponent> slots;           // how each feed is batched
    std::vector<Tensor> pads;
    bool ragged = false;
    for (const auto& [placeholder, names] : source.feeds) {
        std::vector<const BatchComponent*> parts;
        for (const std::string& n : names) {
            const auto it = std::find_if(components.begin(), components.end(),
                                         [&](const BatchComponent& c) { return c.name == n; });
            if (it == components.end()) // a project built in code, not read from JSON
                return unexpected(invalidArgumentError(projectLabel(project) + path + ".feeds." + placeholder +
                                                       ": the " + source.type() + " source has no component '" + n +
                                                       "'"));
            parts.push_back(&*it);
        }
        const BatchComponent& first = *parts.front();
        FeedSpec spec{placeholder, first.dtype, first.exampleShape, std::nullopt};
        if (first.part == BatchPart::kIndices || first.part == BatchPart::kValues ||
            first.part == BatchPart::kDenseShape)
            spec.batchShape = first.batchShape();
        std::vector<std::size_t> indices;
        for (const BatchComponent* c : parts)
            indices.push_back(c->element);
        if (parts.size() > 1) {
            const std::string feedPath = projectLabel(project) + path + ".feeds." + placeholder;
            for (const BatchComponent* c : parts) {
                if (c->part != BatchPart::kStacked)
                    return unexpected(invalidArgumentError(feedPath + ": only scalar components can be stacked; '" +
                                                           c->name + "' is part of a variable-length feature"));
                if (c->exampleShape.rank() != 0)
                    return unexpected(invalidArgumentError(feedPath + ": only scalar components can be stacked; '" +
                                                           c->name + "' is " + dataTypeString(c->dtype) + " " +
                                                           c->exampleShape.toString()));
                if (c->dtype != spec.dtype)
                    return unexpected(invalidArgumentError(
                        feedPath + ": stacked components must share a dtype; '" + c->name + "' is " +
                        dataTypeString(c->dtype) + " but '" + first.name + "' is " + dataTypeString(spec.dtype)));
            }
            spec.exampleShape = TensorShape({static_cast<std::int64_t>(indices.size())});
        }
        BatchComponent slot = parts.size() > 1 ? BatchComponent{placeholder, spec.dtype, spec.exampleShape, 0,
                                                                BatchPart::kStacked}
                                               : first;
        slot.element = slots.size();
        ragged = ragged || slot.part != BatchPart::kStacked;
        pads.push_back(slot.part == BatchPart::kPadded ? examples->padValues[first.element] : Tensor());
        slots.push_back(std::move(slot));
        feedSpecs.push_back(spec);
        picks.push_back(std::move(indices));
    }

    data::Dataset dataset =
        examples->stream ? *examples->stream : data::Dataset::fromTensorSlices(examples->tensors, allocator);
    std::int64_t buffer = source.shuffleBuffer.value_or(examples->stream ? kDefaultFileShuffleBuffer
                                                                         : examples->tensors.front().shape().dim(0));
    Allocator* alloc = &allocator;
    std::vector<DataType> dtypes;
    for (const FeedSpec& f : feedSpecs)
        dtypes.push_back(f.dtype);
    const bool training = mode == PipelineMode::kTraining;
    if (shard.count > 1)
        dataset = data::Dataset(std::make_shared<ShardNode>(dataset, shard.count, shard.index));
    if (training && !wordText)
        dataset = dataset.shuffle(buffer, static_cast<std::uint64_t>(source.shuffleSeed));
    if (training)
        dataset = dataset.repeat();
    dataset = dataset.map([picks, dtypes, alloc](data::Element element) -> Expected<data::Element> {
        data::Element feeds;
        for (std::size_t f = 0; f < picks.size(); ++f) {
            if (picks[f].size() == 1) {
                feeds.push_back(element[picks[f].front()]);
                continue;
            }
            auto stacked = stackScalars(element, picks[f], dtypes[f], *alloc);
            if (!stacked)
                return unexpected(stacked.error());
            feeds.push_back(std::move(*stacked));
        }
        return feeds;
    });
    // Variable-length features need their own batching; everything else takes the engine's.
    SourcePipeline out{std::move(feedSpecs),
                       ragged ? data::Dataset(std::make_shared<FormsBatchNode>(dataset, batchSize, training,
                                                                               std::move(slots), std::move(pads)))
                              : dataset.batch(batchSize, training)};
    if (Status s = out.batches.status(); !s.isOk())
        return unexpected(s.withContext(where));
    return out;
}

} // namespace tstudio::project
