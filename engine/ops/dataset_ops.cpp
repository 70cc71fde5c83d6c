// The tf.data ops of TensorFlow 1.15's dataset_ops (and the V2/V3/V4 forms later versions write):
// dataset sources and transformations, each outputting a dataset as a scalar variant, and the
// iterator ops that turn a dataset into elements. Names, inputs, attrs and defaults are
// TensorFlow's; the `metadata` attr later versions add to every dataset op is not defined (1.15
// graphs have none).
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

#include <vector>

namespace tstudio {
namespace {

constexpr const char* kTypes = "output_types: list(type) >= 1";
constexpr const char* kShapes = "output_shapes: list(shape) >= 1";

struct DatasetOpSpec {
    const char* name;
    const char* summary;
    std::vector<const char*> inputs;
    std::vector<const char*> outputs;
    std::vector<const char*> attrs;
    bool stateful = false;
    ShapeFunction shape;
};

/// Output 0 (and every other output) is a scalar after the listed inputs are checked to be scalars.
ShapeFunction scalarsAfterScalarInputs(std::vector<int> scalarInputs)
{
    return [scalarInputs](ShapeInferenceContext& c) -> Status {
        for (int i : scalarInputs)
            if (i < c.numInputs())
                if (auto s = c.withRank(i, 0); !s)
                    return s.error();
        for (int i = 0; i < c.numOutputs(); ++i)
            c.setOutput(i, TensorShape::scalar());
        return Status::ok();
    };
}

/// PaddedBatchDataset(V2): batch_size and drop_remainder (the last input of V2) are scalars.
Status paddedBatchShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(1, 0); !s)
        return s.error();
    if (c.opDef().name() == "PaddedBatchDatasetV2")
        if (auto s = c.withRank(c.numInputs() - 1, 0); !s)
            return s.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// Sources of records read from files: `filenames` is a scalar or a vector, the rest scalars.
Status fileDatasetShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRankAtMost(0, 1); !s)
        return s.error();
    for (int i = 1; i < c.numInputs(); ++i)
        if (auto s = c.withRank(i, 0); !s)
            return s.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// IteratorGetNext, IteratorGetNextSync, DatasetToSingleElement: the outputs are output_shapes.
Status iteratorGetNextShape(ShapeInferenceContext& c)
{
    auto shapes = c.attrShapeList("output_shapes");
    if (!shapes)
        return shapes.error();
    if (static_cast<int>(shapes->size()) != c.numOutputs())
        return invalidArgumentError("output_shapes lists " + std::to_string(shapes->size()) + " shapes but there are " +
                                    std::to_string(c.numOutputs()) + " output_types");
    for (int i = 0; i < c.numOutputs(); ++i)
        c.setOutput(i, (*shapes)[static_cast<std::size_t>(i)]);
    return Status::ok();
}

const ShapeFunction kScalar = scalarShape;
const ShapeFunction kNoOutputs = noOutputs;

/// The sources and the datasets that apply functions to elements.
std::vector<DatasetOpSpec> sourceAndFunctionSpecs()
{
    return {
        // Sources: stateful, as in TensorFlow, so that nothing folds or merges them.
        {"TensorDataset",
         "A dataset of one element: `components`.",
         {"components: Toutput_types"},
         {"handle: variant"},
         {"Toutput_types: list(type) >= 1", kShapes},
         true,
         kScalar},
        {"TensorSliceDataset",
         "A dataset of the dimension-0 slices of `components` (one element per row).",
         {"components: Toutput_types"},
         {"handle: variant"},
         {"Toutput_types: list(type) >= 1", kShapes},
         true,
         kScalar},
        {"RangeDataset",
         "A dataset of start, start + step, ... up to but excluding stop.",
         {"start: int64", "stop: int64", "step: int64"},
         {"handle: variant"},
         {kTypes, kShapes},
         true,
         scalarsAfterScalarInputs({0, 1, 2})},
        {"TFRecordDataset",
         "A dataset of the records of TFRecord files (compression_type \"\", \"ZLIB\" or \"GZIP\").",
         {"filenames: string", "compression_type: string", "buffer_size: int64"},
         {"handle: variant"},
         {},
         true,
         fileDatasetShape},
        {"TextLineDataset",
         "A dataset of the lines of text files, without their line ends.",
         {"filenames: string", "compression_type: string", "buffer_size: int64"},
         {"handle: variant"},
         {},
         true,
         fileDatasetShape},
        {"FixedLengthRecordDataset",
         "A dataset of the fixed-length records between a header and a footer of files.",
         {"filenames: string", "header_bytes: int64", "record_bytes: int64", "footer_bytes: int64",
          "buffer_size: int64"},
         {"handle: variant"},
         {},
         true,
         fileDatasetShape},
        {"FixedLengthRecordDatasetV2",
         "FixedLengthRecordDataset of files that may be ZLIB or GZIP compressed.",
         {"filenames: string", "header_bytes: int64", "record_bytes: int64", "footer_bytes: int64",
          "buffer_size: int64", "compression_type: string"},
         {"handle: variant"},
         {},
         true,
         fileDatasetShape},
        // Functions of elements.
        {"MapDataset",
         "Applies `f` to each element of `input_dataset`.",
         {"input_dataset: variant", "other_arguments: Targuments"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes, "use_inter_op_parallelism: bool = true",
          "preserve_cardinality: bool = false"},
         false,
         kScalar},
        {"ParallelMapDataset",
         "Applies `f` to up to num_parallel_calls elements at once; the results keep the "
         "input order.",
         {"input_dataset: variant", "other_arguments: Targuments", "num_parallel_calls: int32"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes, "use_inter_op_parallelism: bool = true",
          "sloppy: bool = false", "preserve_cardinality: bool = false"},
         false,
         kScalar},
        {"ParallelMapDatasetV2",
         "ParallelMapDataset with an int64 num_parallel_calls (-1: AUTOTUNE).",
         {"input_dataset: variant", "other_arguments: Targuments", "num_parallel_calls: int64"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes, "use_inter_op_parallelism: bool = true",
          "deterministic: string = 'default'", "preserve_cardinality: bool = false"},
         false,
         kScalar},
        {"FilterDataset",
         "The elements of `input_dataset` for which `predicate` returns true.",
         {"input_dataset: variant", "other_arguments: Targuments"},
         {"handle: variant"},
         {"predicate: func", "Targuments: list(type) >= 0", kTypes, kShapes},
         false,
         kScalar},
        {"FlatMapDataset",
         "The elements of the datasets `f` returns for each element, one dataset after the other.",
         {"input_dataset: variant", "other_arguments: Targuments"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes},
         false,
         kScalar},
        {"InterleaveDataset",
         "Interleaves block_length elements at a time of cycle_length datasets `f` returns.",
         {"input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64", "block_length: int64"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes},
         false,
         kScalar},
        {"ParallelInterleaveDatasetV2",
         "InterleaveDataset producing the open datasets on threads of their own.",
         {"input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64", "block_length: int64",
          "num_parallel_calls: int64"},
         {"handle: variant"},
         {"f: func", "Targuments: list(type) >= 0", kTypes, kShapes, "sloppy: bool = false"},
         false,
         kScalar},
        {"ParallelInterleaveDatasetV3",
         "ParallelInterleaveDatasetV2 with `deterministic` instead of `sloppy`.",
         {"input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64", "block_length: int64",
          "num_parallel_calls: int64"},
         {"handle: variant"},
         {"f: func", "deterministic: string = 'default'", "Targuments: list(type) >= 0", kTypes, kShapes},
         false,
         kScalar},
        {"ParallelInterleaveDatasetV4",
         "ParallelInterleaveDatasetV3 with buffer_output_elements and "
         "prefetch_input_elements.",
         {"input_dataset: variant", "other_arguments: Targuments", "cycle_length: int64", "block_length: int64",
          "buffer_output_elements: int64", "prefetch_input_elements: int64", "num_parallel_calls: int64"},
         {"handle: variant"},
         {"f: func", "deterministic: string = 'default'", "Targuments: list(type) >= 0", kTypes, kShapes},
         false,
         kScalar},
    };
}

/// Batching, shuffling (with its seed generators) and rearranging.
std::vector<DatasetOpSpec> batchShuffleAndRearrangeSpecs()
{
    return {
        // Batching.
        {"BatchDataset",
         "Stacks batch_size consecutive elements along a new dimension 0.",
         {"input_dataset: variant", "batch_size: int64"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1})},
        {"BatchDatasetV2",
         "BatchDataset; drop_remainder drops a last, smaller batch.",
         {"input_dataset: variant", "batch_size: int64", "drop_remainder: bool"},
         {"handle: variant"},
         {"parallel_copy: bool = false", kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1, 2})},
        {"PaddedBatchDataset",
         "Batches elements padded to padded_shapes (-1: the batch's largest size) with "
         "padding_values.",
         {"input_dataset: variant", "batch_size: int64", "padded_shapes: N * int64", "padding_values: Toutput_types"},
         {"handle: variant"},
         {"Toutput_types: list(type) >= 1", kShapes, "N: int >= 1"},
         false,
         paddedBatchShape},
        {"PaddedBatchDatasetV2",
         "PaddedBatchDataset; drop_remainder drops a last, smaller batch.",
         {"input_dataset: variant", "batch_size: int64", "padded_shapes: N * int64", "padding_values: Toutput_types",
          "drop_remainder: bool"},
         {"handle: variant"},
         {"parallel_copy: bool = false", "Toutput_types: list(type) >= 1", kShapes, "N: int >= 1"},
         false,
         paddedBatchShape},
        // Shuffling and its seed generators.
        {"ShuffleDataset",
         "Hands out a random element of a buffer of buffer_size elements (seed == seed2 == 0: "
         "a nondeterministic order).",
         {"input_dataset: variant", "buffer_size: int64", "seed: int64", "seed2: int64"},
         {"handle: variant"},
         {"reshuffle_each_iteration: bool = true", kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1, 2, 3})},
        {"ShuffleDatasetV2",
         "ShuffleDataset whose seeds come from a seed generator resource.",
         {"input_dataset: variant", "buffer_size: int64", "seed_generator: resource"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1, 2})},
        {"ShuffleDatasetV3",
         "ShuffleDataset with seeds and a seed generator (a dummy one: the seeds are used).",
         {"input_dataset: variant", "buffer_size: int64", "seed: int64", "seed2: int64", "seed_generator: resource"},
         {"handle: variant"},
         {"reshuffle_each_iteration: bool = true", kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1, 2, 3, 4})},
        {"AnonymousSeedGenerator",
         "A new seed generator for ShuffleDatasetV2/V3.",
         {"seed: int64", "seed2: int64", "reshuffle: bool"},
         {"handle: resource", "deleter: variant"},
         {},
         true,
         scalarsAfterScalarInputs({})},
        {"AnonymousRandomSeedGenerator",
         "A new reshuffling seed generator (deprecated form).",
         {"seed: int64", "seed2: int64"},
         {"handle: resource", "deleter: variant"},
         {},
         true,
         scalarsAfterScalarInputs({})},
        {"DummySeedGenerator",
         "A placeholder seed generator: ShuffleDatasetV3 then uses its seed inputs.",
         {},
         {"handle: resource"},
         {},
         true,
         kScalar},
        {"DeleteSeedGenerator",
         "Deletes a seed generator.",
         {"handle: resource", "deleter: variant"},
         {},
         {},
         true,
         kNoOutputs},
        {"DeleteRandomSeedGenerator",
         "Deletes a seed generator (deprecated form).",
         {"handle: resource", "deleter: variant"},
         {},
         {},
         true,
         kNoOutputs},
        // Rearranging.
        {"RepeatDataset",
         "The elements of `input_dataset` `count` times (-1: forever).",
         {"input_dataset: variant", "count: int64"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1})},
        {"TakeDataset",
         "The first `count` elements (-1: all).",
         {"input_dataset: variant", "count: int64"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1})},
        {"SkipDataset",
         "The elements after the first `count` (-1: none).",
         {"input_dataset: variant", "count: int64"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1})},
        {"ZipDataset",
         "Elements made of one element of each input, until one of them ends.",
         {"input_datasets: N * variant"},
         {"handle: variant"},
         {kTypes, kShapes, "N: int >= 1"},
         false,
         kScalar},
        {"ConcatenateDataset",
         "The elements of `input_dataset`, then those of `another_dataset`.",
         {"input_dataset: variant", "another_dataset: variant"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         kScalar},
        {"CacheDataset",
         "Caches the elements of a complete pass in memory (filename \"\") or in files.",
         {"input_dataset: variant", "filename: string"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1})},
        {"CacheDatasetV2",
         "CacheDataset whose memory cache is a resource.",
         {"input_dataset: variant", "filename: string", "cache: resource"},
         {"handle: variant"},
         {kTypes, kShapes},
         false,
         scalarsAfterScalarInputs({1, 2})},
        {"AnonymousMemoryCache",
         "A new memory cache for CacheDatasetV2.",
         {},
         {"handle: resource", "deleter: variant"},
         {},
         true,
         scalarsAfterScalarInputs({})},
        {"DummyMemoryCache", "A placeholder memory cache.", {}, {"handle: resource"}, {}, true, kScalar},
        {"DeleteMemoryCache",
         "Deletes a memory cache.",
         {"handle: resource", "deleter: variant"},
         {},
         {},
         true,
         kNoOutputs},
        {"PrefetchDataset",
         "Produces up to buffer_size elements ahead on a background thread.",
         {"input_dataset: variant", "buffer_size: int64"},
         {"handle: variant"},
         {kTypes, kShapes, "slack_period: int = 0"},
         false,
         scalarsAfterScalarInputs({1})},
        {"OptimizeDataset",
         "The input dataset (TensorFlow rewrites it for speed; the elements are the same).",
         {"input_dataset: variant", "optimizations: string"},
         {"handle: variant"},
         {kTypes, kShapes, "optimization_configs: list(string) = []"},
         false,
         kScalar},
        {"ModelDataset",
         "The input dataset (TensorFlow autotunes it; the elements are the same).",
         {"input_dataset: variant"},
         {"handle: variant"},
         {"algorithm: int = 0", "cpu_budget: int = 0", kTypes, kShapes},
         false,
         kScalar},
    };
}

/// Iterators and their handles.
std::vector<DatasetOpSpec> iteratorSpecs()
{
    return {
        // Iterators.
        {"Iterator",
         "An iterator resource, to be initialised by MakeIterator.",
         {},
         {"handle: resource"},
         {"shared_name: string", "container: string", kTypes, kShapes},
         true,
         kScalar},
        {"IteratorV2",
         "An iterator resource, to be initialised by MakeIterator.",
         {},
         {"handle: resource"},
         {"shared_name: string", "container: string", kTypes, kShapes},
         true,
         kScalar},
        {"AnonymousIterator",
         "A new iterator resource per run.",
         {},
         {"handle: resource"},
         {kTypes, kShapes},
         true,
         kScalar},
        {"AnonymousIteratorV2",
         "A new iterator resource per run, with a deleter.",
         {},
         {"handle: resource", "deleter: variant"},
         {kTypes, kShapes},
         true,
         scalarsAfterScalarInputs({})},
        {"DeleteIterator",
         "Deletes an iterator resource.",
         {"handle: resource", "deleter: variant"},
         {},
         {},
         true,
         kNoOutputs},
        {"MakeIterator",
         "Starts `iterator` at the beginning of `dataset`.",
         {"dataset: variant", "iterator: resource"},
         {},
         {},
         true,
         kNoOutputs},
        {"OneShotIterator",
         "An iterator over the dataset `dataset_factory` returns, made on first use.",
         {},
         {"handle: resource"},
         {"dataset_factory: func", kTypes, kShapes, "container: string = ''", "shared_name: string = ''"},
         true,
         kScalar},
        {"IteratorGetNext",
         "The next element of `iterator`; OutOfRange \"End of sequence\" at the end.",
         {"iterator: resource"},
         {"components: output_types"},
         {kTypes, kShapes},
         true,
         iteratorGetNextShape},
        {"IteratorGetNextSync",
         "IteratorGetNext, computed synchronously.",
         {"iterator: resource"},
         {"components: output_types"},
         {kTypes, kShapes},
         true,
         iteratorGetNextShape},
        {"DatasetToSingleElement",
         "The one element of `dataset` (InvalidArgument when it has none or more).",
         {"dataset: variant"},
         {"components: output_types"},
         {kTypes, kShapes},
         true,
         iteratorGetNextShape},
        {"IteratorToStringHandle",
         "A string that names `resource_handle` (a serialized ResourceHandleProto).",
         {"resource_handle: resource"},
         {"string_handle: string"},
         {},
         true,
         kScalar},
        {"IteratorFromStringHandle",
         "The iterator a string handle names.",
         {"string_handle: string"},
         {"resource_handle: resource"},
         {"output_types: list(type) >= 0 = []", "output_shapes: list(shape) >= 0 = []"},
         true,
         kScalar},
        {"IteratorFromStringHandleV2",
         "The iterator a string handle names.",
         {"string_handle: string"},
         {"resource_handle: resource"},
         {"output_types: list(type) >= 0 = []", "output_shapes: list(shape) >= 0 = []"},
         true,
         kScalar},
    };
}

} // namespace

Status registerDatasetOps(OpRegistry& registry)
{
    std::vector<DatasetOpSpec> specs = sourceAndFunctionSpecs();
    for (auto group : {batchShuffleAndRearrangeSpecs(), iteratorSpecs()})
        specs.insert(specs.end(), group.begin(), group.end());
    for (const DatasetOpSpec& spec : specs) {
        OpDefBuilder op(spec.name);
        op.summary(spec.summary).category(op_category::kState);
        for (const char* input : spec.inputs)
            op.input(input);
        for (const char* output : spec.outputs)
            op.output(output);
        for (const char* attr : spec.attrs)
            op.attr(attr);
        if (spec.stateful)
            op.setIsStateful();
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(spec.name, spec.shape); !s.isOk())
            return s;
        // Datasets, handles and counters: TensorFlow registers no gradient for any of them.
        if (Status s = registry.setNotDifferentiable(spec.name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
