// tf.data pipelines with TensorFlow 1.15's node names: each step one dataset op and its Consts.
#include "builder/dataset.h"

#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"

namespace tstudio::dataset {
namespace {

tensorflow::AttrValue shapesAttr(const std::vector<TensorShape>& shapes)
{
    tensorflow::AttrValue value;
    value.mutable_list();
    for (const TensorShape& shape : shapes)
        *value.mutable_list()->add_shape() = shape.toProto();
    return value;
}

tensorflow::AttrValue funcAttr(const std::string& name)
{
    tensorflow::AttrValue value;
    value.mutable_func()->set_name(name);
    return value;
}

Expected<Output> int64Const(GraphBuilder& b, std::int64_t value, std::string_view name)
{
    return ops::constantInts(b, {value}, TensorShape::scalar(), tensorflow::DT_INT64, name);
}

Expected<Output> stringConst(GraphBuilder& b, const std::vector<std::string>& values, bool vector,
                             std::string_view name)
{
    tensorflow::TensorProto proto;
    proto.set_dtype(tensorflow::DT_STRING);
    proto.mutable_tensor_shape();
    if (vector)
        proto.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    for (const std::string& v : values)
        proto.add_string_val(v);
    return ops::constant(b, proto, name);
}

Expected<Output> boolConst(GraphBuilder& b, bool value, std::string_view name)
{
    tensorflow::TensorProto proto;
    proto.set_dtype(tensorflow::DT_BOOL);
    proto.mutable_tensor_shape();
    proto.add_bool_val(value);
    return ops::constant(b, proto, name);
}

/// One dataset op of `input`'s structure (or `types`/`shapes`), with `typesAttr` naming the dtypes.
Expected<DatasetOutput> datasetOp(GraphBuilder& b, std::string_view op, std::vector<OpInput> inputs,
                                  std::vector<DataType> types, std::vector<TensorShape> shapes, AttrMap attrs = {},
                                  const char* typesAttr = "output_types")
{
    if (typesAttr)
        attrs.emplace(typesAttr, attr::types(types));
    if (!types.empty())
        attrs.emplace("output_shapes", shapesAttr(shapes));
    auto node = b.op(op, std::move(inputs), std::move(attrs));
    if (!node)
        return unexpected(node.error());
    return DatasetOutput{node->output(0), std::move(types), std::move(shapes)};
}

Expected<DatasetOutput> countOp(GraphBuilder& b, std::string_view op, const DatasetOutput& input, std::int64_t count)
{
    auto c = int64Const(b, count, "count");
    if (!c)
        return unexpected(c.error());
    return datasetOp(b, op, {input.handle, *c}, input.types, input.shapes);
}

Expected<DatasetOutput> fileOp(GraphBuilder& b, std::string_view op, const std::vector<std::string>& files,
                               const std::string& compression, std::int64_t bufferSize)
{
    auto names = stringConst(b, files, true, "filenames");
    if (!names)
        return unexpected(names.error());
    auto kind = stringConst(b, {compression}, false, "compression_type");
    if (!kind)
        return unexpected(kind.error());
    auto buffer = int64Const(b, bufferSize, "buffer_size");
    if (!buffer)
        return unexpected(buffer.error());
    auto node = b.op(op, {*names, *kind, *buffer});
    if (!node)
        return unexpected(node.error());
    return DatasetOutput{node->output(0), {tensorflow::DT_STRING}, {TensorShape::scalar()}};
}

Expected<DatasetOutput> tensorsOp(GraphBuilder& b, std::string_view op, const std::vector<Output>& components,
                                  bool slices)
{
    std::vector<DataType> types;
    std::vector<TensorShape> shapes;
    for (const Output& c : components) {
        types.push_back(c.dtype());
        TensorShape shape = c.shape();
        if (slices && shape.rank() == 0)
            return unexpected(invalidArgumentError("from_tensor_slices needs components of rank >= 1, '" + c.name() +
                                                   "' is a scalar"));
        if (slices && shape.rank() > 0) {
            const auto dims = shape.dims().subspan(1);
            shape = TensorShape(std::vector<std::int64_t>(dims.begin(), dims.end()));
        }
        shapes.push_back(shape);
    }
    return datasetOp(b, op, {components}, std::move(types), std::move(shapes), {}, nullptr);
}

/// `x[0]` of a vector (Tensor.__getitem__): "strided_slice/stack", "stack_1", "stack_2" and the
/// StridedSlice "strided_slice" with shrink_axis_mask 1.
Expected<Output> firstElement(GraphBuilder& b, const Output& x)
{
    auto scope = b.nameScope("strided_slice");
    if (!scope)
        return unexpected(scope.error());
    const TensorShape one({1});
    auto begin = ops::constantInts(b, {0}, one, tensorflow::DT_INT32, "stack");
    auto end = begin ? ops::constantInts(b, {1}, one, tensorflow::DT_INT32, "stack_1") : begin;
    auto strides = end ? ops::constantInts(b, {1}, one, tensorflow::DT_INT32, "stack_2") : end;
    if (!strides)
        return unexpected(strides.error());
    return ops::firstOutput(b.op("StridedSlice", {x, *begin, *end, *strides},
                                 {{"begin_mask", attr::i(0)},
                                  {"end_mask", attr::i(0)},
                                  {"ellipsis_mask", attr::i(0)},
                                  {"new_axis_mask", attr::i(0)},
                                  {"shrink_axis_mask", attr::i(1)}},
                                 scope->name()));
}

/// array_ops.shape(x, out_type)[0]: "Shape" then the strided slice.
Expected<Output> lengthOf(GraphBuilder& b, const Output& x, DataType type)
{
    auto shape = ops::firstOutput(b.op("Shape", {x}, {{"out_type", attr::type(type)}}));
    if (!shape)
        return shape;
    return firstElement(b, *shape);
}

/// A generated binary op whose second argument is a Python number: "<name>/y", then "<name>".
Expected<Output> withScalarY(GraphBuilder& b, std::string_view op, const Output& x, std::int64_t y,
                             std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto value = ops::constantInts(b, {y}, TensorShape::scalar(), x.baseDtype(), "y");
    if (!value)
        return value;
    return ops::firstOutput(b.op(op, {x, *value}, {}, scope->name()));
}

/// string_ops.reduce_join(x, separator=", ") over every axis: the axes [rank - 1, ..., 0] as the
/// Const "Const" when the rank is known, else Range(Rank(x) - 1, -1, -1) ("Rank", "sub",
/// "range"); then "ReduceJoin".
Expected<Output> joinAll(GraphBuilder& b, const Output& x, const std::string& separator)
{
    Expected<Output> axes = unexpected(internalError("no axes"));
    if (!x.shape().isUnknownRank()) {
        std::vector<std::int64_t> all;
        for (int d = x.shape().rank() - 1; d >= 0; --d)
            all.push_back(d);
        axes = ops::constantInts(b, all, TensorShape({static_cast<std::int64_t>(all.size())}), tensorflow::DT_INT32,
                                 "Const");
    } else {
        auto rank = ops::firstOutput(b.op("Rank", {x}));
        auto last = rank ? withScalarY(b, "Sub", *rank, 1, "sub") : rank;
        if (!last)
            return last;
        auto scope = b.nameScope("range");
        if (!scope)
            return unexpected(scope.error());
        auto limit = ops::constantInts(b, {-1}, TensorShape::scalar(), tensorflow::DT_INT32, "limit");
        auto delta = limit ? ops::constantInts(b, {-1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta") : limit;
        if (!delta)
            return delta;
        axes = ops::firstOutput(b.op("Range", {*last, *limit, *delta}, {}, scope->name()));
    }
    if (!axes)
        return axes;
    return ops::firstOutput(
        b.op("ReduceJoin", {x, *axes}, {{"keep_dims", attr::b(false)}, {"separator", attr::s(separator)}}));
}

/// Dataset.list_files' body in its name scope, from the patterns tensor on.
Expected<DatasetOutput> listFilesIn(GraphBuilder& b, const Output& pattern, const ListFilesOptions& options)
{
    auto matching = ops::firstOutput(b.op("MatchingFiles", {pattern}));
    if (!matching)
        return unexpected(matching.error());
    // Raise an error when the patterns match no file: the Assert runs before the names are used.
    auto count = lengthOf(b, *matching, tensorflow::DT_INT32);
    auto condition = count ? withScalarY(b, "Greater", *count, 0, "match_not_empty") : count;
    auto joined = condition ? joinAll(b, pattern, ", ") : condition;
    if (!joined)
        return unexpected(joined.error());
    Expected<Output> message = [&]() -> Expected<Output> {
        auto scope = b.nameScope("message");
        if (!scope)
            return unexpected(scope.error());
        auto prefix = stringConst(b, {"No files matched pattern: "}, false, "x");
        if (!prefix)
            return prefix;
        return ops::firstOutput(b.op("Add", {*prefix, *joined}, {}, scope->name()));
    }();
    if (!message)
        return unexpected(message.error());
    auto check = assertThat(b, *condition, {*message}, 1, "assert_not_empty");
    if (!check)
        return unexpected(check.error());
    Expected<Output> names = [&] {
        auto deps = b.controlDependencies({*check});
        return ops::identity(b, *matching, "Identity");
    }();
    if (!names)
        return unexpected(names.error());
    auto dataset = fromTensorSlices(b, {*names});
    if (!dataset || !options.shuffle)
        return dataset;
    // The shuffle buffer holds every name; at least 1, as a buffer of 0 is refused.
    auto total = lengthOf(b, *matching, tensorflow::DT_INT64);
    auto buffer = total ? withScalarY(b, "Maximum", *total, 1, "Maximum") : total;
    if (!buffer)
        return unexpected(buffer.error());
    return shuffle(b, *dataset, *buffer, options.seed);
}

} // namespace

Expected<DatasetOutput> range(GraphBuilder& b, std::int64_t start, std::int64_t stop, std::int64_t step)
{
    auto a = int64Const(b, start, "start");
    auto z = a ? int64Const(b, stop, "stop") : Expected<Output>(unexpected(a.error()));
    auto s = z ? int64Const(b, step, "step") : Expected<Output>(unexpected(z.error()));
    if (!s)
        return unexpected(s.error());
    return datasetOp(b, "RangeDataset", {*a, *z, *s}, {tensorflow::DT_INT64}, {TensorShape::scalar()});
}

Expected<DatasetOutput> fromTensorSlices(GraphBuilder& b, const std::vector<Output>& components)
{
    return tensorsOp(b, "TensorSliceDataset", components, true);
}

Expected<DatasetOutput> fromTensors(GraphBuilder& b, const std::vector<Output>& components)
{
    return tensorsOp(b, "TensorDataset", components, false);
}

Expected<DatasetOutput> tfRecord(GraphBuilder& b, const std::vector<std::string>& files, const std::string& compression,
                                 std::int64_t bufferSize)
{
    return fileOp(b, "TFRecordDataset", files, compression, bufferSize);
}

Expected<DatasetOutput> textLine(GraphBuilder& b, const std::vector<std::string>& files, const std::string& compression,
                                 std::int64_t bufferSize)
{
    return fileOp(b, "TextLineDataset", files, compression, bufferSize);
}

Expected<DatasetOutput> map(GraphBuilder& b, const DatasetOutput& input, const std::string& fn,
                            std::vector<DataType> types, std::vector<TensorShape> shapes, const MapOptions& options)
{
    AttrMap attrs{{"f", funcAttr(fn)}};
    if (options.numParallelCalls == 0)
        return datasetOp(b, "MapDataset", {input.handle, options.captured}, std::move(types), std::move(shapes),
                         std::move(attrs));
    auto calls = ops::constantInts(b, {options.numParallelCalls}, TensorShape::scalar(), tensorflow::DT_INT32,
                                   "num_parallel_calls");
    if (!calls)
        return unexpected(calls.error());
    return datasetOp(b, "ParallelMapDataset", {input.handle, options.captured, *calls}, std::move(types),
                     std::move(shapes), std::move(attrs));
}

Expected<DatasetOutput> filter(GraphBuilder& b, const DatasetOutput& input, const std::string& predicate,
                               const std::vector<Output>& captured)
{
    return datasetOp(b, "FilterDataset", {input.handle, captured}, input.types, input.shapes,
                     {{"predicate", funcAttr(predicate)}});
}

Expected<DatasetOutput> batch(GraphBuilder& b, const DatasetOutput& input, std::int64_t batchSize, bool dropRemainder)
{
    auto size = int64Const(b, batchSize, "batch_size");
    if (!size)
        return unexpected(size.error());
    auto drop = boolConst(b, dropRemainder, "drop_remainder");
    if (!drop)
        return unexpected(drop.error());
    std::vector<TensorShape> shapes;
    for (const TensorShape& shape : input.shapes)
        shapes.push_back(TensorShape{dropRemainder ? batchSize : -1}.concatenate(shape));
    return datasetOp(b, "BatchDatasetV2", {input.handle, *size, *drop}, input.types, std::move(shapes));
}

Expected<DatasetOutput> shuffle(GraphBuilder& b, const DatasetOutput& input, std::int64_t bufferSize,
                                std::optional<std::int64_t> seed, bool reshuffleEachIteration)
{
    auto buffer = int64Const(b, bufferSize, "buffer_size");
    if (!buffer)
        return unexpected(buffer.error());
    return shuffle(b, input, *buffer, seed, reshuffleEachIteration);
}

Expected<DatasetOutput> shuffle(GraphBuilder& b, const DatasetOutput& input, const Output& bufferSize,
                                std::optional<std::int64_t> seed, bool reshuffleEachIteration)
{
    auto s1 = int64Const(b, seed.value_or(0), "seed");
    auto s2 = s1 ? int64Const(b, seed.value_or(0), "seed2") : Expected<Output>(unexpected(s1.error()));
    if (!s2)
        return unexpected(s2.error());
    return datasetOp(b, "ShuffleDataset", {input.handle, bufferSize, *s1, *s2}, input.types, input.shapes,
                     {{"reshuffle_each_iteration", attr::b(reshuffleEachIteration)}});
}

Expected<DatasetOutput> listFiles(GraphBuilder& b, const std::string& filePattern, const ListFilesOptions& options)
{
    auto scope = b.nameScope("list_files");
    if (!scope)
        return unexpected(scope.error());
    auto pattern = stringConst(b, {filePattern}, false, "file_pattern");
    if (!pattern)
        return unexpected(pattern.error());
    return listFilesIn(b, *pattern, options);
}

Expected<DatasetOutput> listFiles(GraphBuilder& b, const std::vector<std::string>& filePatterns,
                                  const ListFilesOptions& options)
{
    auto scope = b.nameScope("list_files");
    if (!scope)
        return unexpected(scope.error());
    auto pattern = stringConst(b, filePatterns, true, "file_pattern");
    if (!pattern)
        return unexpected(pattern.error());
    return listFilesIn(b, *pattern, options);
}

Expected<DatasetOutput> listFiles(GraphBuilder& b, const Output& filePattern, const ListFilesOptions& options)
{
    if (filePattern.baseDtype() != tensorflow::DT_STRING)
        return unexpected(invalidArgumentError("list_files needs string file patterns, '" + filePattern.name() +
                                               "' is " + dataTypeName(filePattern.baseDtype())));
    auto scope = b.nameScope("list_files");
    if (!scope)
        return unexpected(scope.error());
    return listFilesIn(b, filePattern, options);
}

Expected<DatasetOutput> repeat(GraphBuilder& b, const DatasetOutput& input, std::int64_t count)
{
    return countOp(b, "RepeatDataset", input, count);
}

Expected<DatasetOutput> take(GraphBuilder& b, const DatasetOutput& input, std::int64_t count)
{
    return countOp(b, "TakeDataset", input, count);
}

Expected<DatasetOutput> skip(GraphBuilder& b, const DatasetOutput& input, std::int64_t count)
{
    return countOp(b, "SkipDataset", input, count);
}

Expected<DatasetOutput> cache(GraphBuilder& b, const DatasetOutput& input, const std::string& filename)
{
    auto name = stringConst(b, {filename}, false, "filename");
    if (!name)
        return unexpected(name.error());
    return datasetOp(b, "CacheDataset", {input.handle, *name}, input.types, input.shapes);
}

Expected<DatasetOutput> prefetch(GraphBuilder& b, const DatasetOutput& input, std::int64_t bufferSize)
{
    auto buffer = int64Const(b, bufferSize, "buffer_size");
    if (!buffer)
        return unexpected(buffer.error());
    return datasetOp(b, "PrefetchDataset", {input.handle, *buffer}, input.types, input.shapes);
}

Expected<InitializableIterator> makeInitializableIterator(GraphBuilder& b, const DatasetOutput& dataset,
                                                          const std::string& sharedName)
{
    const AttrMap structure{{"output_types", attr::types(dataset.types)},
                            {"output_shapes", shapesAttr(dataset.shapes)}};
    AttrMap attrs = structure;
    attrs.emplace("shared_name", attr::s(sharedName));
    attrs.emplace("container", attr::s(""));
    auto handle = b.op("IteratorV2", {}, attrs);
    if (!handle)
        return unexpected(handle.error());
    auto make = b.op("MakeIterator", {dataset.handle, handle->output(0)});
    if (!make)
        return unexpected(make.error());
    auto next = b.op("IteratorGetNext", {handle->output(0)}, structure);
    if (!next)
        return unexpected(next.error());
    InitializableIterator out{handle->output(0), *make, {}};
    for (std::size_t i = 0; i < dataset.types.size(); ++i)
        out.next.push_back(next->output(static_cast<int>(i)));
    return out;
}

} // namespace tstudio::dataset
