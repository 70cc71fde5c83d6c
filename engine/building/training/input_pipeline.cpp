// Input pipelines as tf.train builds them (input.py of TensorFlow 1.15): epochs limited by
// CountUpTo, producers and batchers over queues, each with its QueueRunnerDef and fill summary, and
// the file list of match_filenames_once.
#include "training/input_pipeline.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "summary/summary.h"

#include <variant>

namespace tstudio::input {
namespace {

tensorflow::AttrValue shapesAttr(const std::vector<TensorShape>& shapes)
{
    tensorflow::AttrValue value;
    value.mutable_list();
    for (const TensorShape& shape : shapes)
        *value.mutable_list()->add_shape() = shape.toProto();
    return value;
}

TensorShape withoutFirst(const TensorShape& shape)
{
    std::vector<std::int64_t> dims(shape.dims().begin() + 1, shape.dims().end());
    return TensorShape(std::move(dims));
}

/// The last path component of a node name (QueueBase._name).
std::string baseName(const std::string& node)
{
    const auto slash = node.rfind('/');
    return slash == std::string::npos ? node : node.substr(slash + 1);
}

/// The QueueRunnerDef of `queue` with `enqueue` run by `threads` threads; builds the close and
/// cancel ops as QueueRunner's constructor does ("<queue>_Close", "<queue>_Close_1").
Status addQueueRunner(GraphBuilder& b, QueueRunnerDefs& runners, const Output& queue, const std::string& enqueue,
                      int threads)
{
    const std::string base = baseName(queue.node());
    auto close = b.op("QueueCloseV2", {queue}, {{"cancel_pending_enqueues", attr::b(false)}}, base + "_Close");
    if (!close)
        return close.error();
    auto cancel = b.op("QueueCloseV2", {queue}, {{"cancel_pending_enqueues", attr::b(true)}}, base + "_Close");
    if (!cancel)
        return cancel.error();
    tensorflow::QueueRunnerDef def;
    def.set_queue_name(queue.node()); // the op name, as QueueBase.name
    for (int i = 0; i < threads; ++i)
        def.add_enqueue_op_name(enqueue);
    def.set_close_op_name(close->name());
    def.set_cancel_op_name(cancel->name());
    runners.push_back(std::move(def));
    return Status::ok();
}

/// summary.scalar(name, cast(size(queue), float) * (1 / capacity)) with an optional
/// maximum(0, size - minAfter) first (shuffle_batch's "fraction_over_..." form).
Status addFillSummary(GraphBuilder& b, const Output& queue, const std::string& name, std::int64_t capacity,
                      std::optional<std::int64_t> minAfter = std::nullopt)
{
    auto size = b.op("QueueSizeV2", {queue}, {}, baseName(queue.node()) + "_Size");
    if (!size)
        return size.error();
    Output value = size->output(0);
    double scale = 1.0 / static_cast<double>(capacity);
    if (minAfter) {
        auto min = ops::constantInts(b, {*minAfter}, TensorShape::scalar(), tensorflow::DT_INT32, "sub/y");
        if (!min)
            return min.error();
        auto sub = ops::sub(b, value, *min, "sub");
        if (!sub)
            return sub.error();
        auto zero = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "Maximum/x");
        if (!zero)
            return zero.error();
        auto max = b.op("Maximum", {*zero, *sub}, {}, "Maximum");
        if (!max)
            return max.error();
        value = max->output(0);
        scale = 1.0 / static_cast<double>(capacity - *minAfter);
    }
    auto cast = b.op("Cast", {value}, {{"DstT", attr::type(tensorflow::DT_FLOAT)}}, "Cast");
    if (!cast)
        return cast.error();
    auto factor = ops::constant(b, scale, tensorflow::DT_FLOAT, "mul/y");
    if (!factor)
        return factor.error();
    auto product = ops::mul(b, cast->output(0), *factor, "mul");
    if (!product)
        return product.error();
    auto summary = summary::scalar(b, name, *product);
    if (!summary)
        return summary.error();
    return Status::ok();
}

/// The element shapes and dtypes of `tensors` for a batching queue (BatchOptions::shapes wins).
Status elementSpec(const std::vector<Output>& tensors, const BatchOptions& options, std::vector<DataType>* dtypes,
                   std::vector<TensorShape>* shapes)
{
    if (tensors.empty())
        return invalidArgumentError("Expected at least one tensor in batch().");
    if (!options.shapes.empty() && options.shapes.size() != tensors.size())
        return invalidArgumentError("batch(): " + std::to_string(options.shapes.size()) + " shapes for " +
                                    std::to_string(tensors.size()) + " tensors");
    if (options.batchSize < 0)
        return invalidArgumentError("batch_size must be >= 0, got " + std::to_string(options.batchSize));
    if (options.numThreads < 1)
        return invalidArgumentError("num_threads must be >= 1, got " + std::to_string(options.numThreads));
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        dtypes->push_back(tensors[i].baseDtype());
        TensorShape shape = tensors[i].shape();
        if (options.enqueueMany) {
            if (shape.rank() == 0)
                return invalidArgumentError("Cannot enqueue_many a scalar: tensor " + tensors[i].name() +
                                            " has shape ()");
            shape = shape.isUnknownRank() ? shape : withoutFirst(shape);
        }
        if (!options.shapes.empty())
            shape = options.shapes[i];
        if (!options.dynamicPad && !shape.isFullyDefined())
            return invalidArgumentError("All shapes must be fully defined: tensor " + tensors[i].name() +
                                        " has element shape " + shape.toString());
        if (options.dynamicPad && shape.isUnknownRank())
            return invalidArgumentError("dynamic_pad needs a known rank: tensor " + tensors[i].name() +
                                        " has unknown rank");
        shapes->push_back(std::move(shape));
    }
    return Status::ok();
}

/// The enqueue (in the batch's name scope) and its queue runner, which batch() and shuffle_batch()
/// share (TensorFlow's _enqueue with keep_input True).
Status addEnqueue(GraphBuilder& b, QueueRunnerDefs& runners, const std::vector<Output>& tensors,
                  const BatchOptions& options, const Output& queue)
{
    const std::string base = baseName(queue.node());
    auto enqueue = b.op(options.enqueueMany ? "QueueEnqueueManyV2" : "QueueEnqueueV2", {queue, tensors}, {},
                        base + (options.enqueueMany ? "_EnqueueMany" : "_enqueue"));
    if (!enqueue)
        return enqueue.error();
    return addQueueRunner(b, runners, queue, enqueue->name(), options.numThreads);
}

/// The dequeue named after the scope, with TensorFlow's static shapes on its outputs.
Expected<std::vector<Output>> dequeueBatch(GraphBuilder& b, const Output& queue, const BatchOptions& options,
                                           const std::string& scope, const std::vector<DataType>& dtypes,
                                           const std::vector<TensorShape>& shapes)
{
    auto n = ops::constantInts(b, {options.batchSize}, TensorShape::scalar(), tensorflow::DT_INT32, "n");
    if (!n)
        return unexpected(n.error());
    auto dequeue = b.op(options.allowSmallerFinalBatch ? "QueueDequeueUpToV2" : "QueueDequeueManyV2", {queue, *n},
                        {{"component_types", attr::types(dtypes)}}, scope);
    if (!dequeue)
        return unexpected(dequeue.error());
    std::vector<Output> outputs;
    for (std::size_t i = 0; i < dtypes.size(); ++i) {
        Output out = dequeue->output(static_cast<int>(i));
        const TensorShape batched =
            TensorShape({options.allowSmallerFinalBatch ? -1 : options.batchSize}).concatenate(shapes[i]);
        if (Status s = b.setShape(out, batched); !s.isOk())
            return unexpected(s);
        auto refreshed = b.tensor(out.name());
        if (!refreshed)
            return unexpected(refreshed.error());
        outputs.push_back(*refreshed);
    }
    return outputs;
}

} // namespace

tensorflow::CollectionDef queueRunnersCollection(const QueueRunnerDefs& runners)
{
    tensorflow::CollectionDef collection;
    auto* list = collection.mutable_bytes_list();
    for (const tensorflow::QueueRunnerDef& runner : runners)
        list->add_value(runner.SerializeAsString());
    return collection;
}

Expected<QueueRunnerDefs> queueRunnersFromCollection(const tensorflow::CollectionDef& collection)
{
    QueueRunnerDefs runners;
    for (int i = 0; i < collection.bytes_list().value_size(); ++i) {
        tensorflow::QueueRunnerDef def;
        if (!def.ParseFromString(collection.bytes_list().value(i)) || def.queue_name().empty())
            return unexpected(invalidArgumentError("queue_runners entry " + std::to_string(i) +
                                                   " is not a QueueRunnerDef with a queue_name"));
        runners.push_back(std::move(def));
    }
    return runners;
}

Expected<Output> limitEpochs(GraphBuilder& b, const Output& tensor, std::optional<std::int64_t> numEpochs,
                             std::string_view name)
{
    if (!numEpochs)
        return tensor;
    if (*numEpochs <= 0)
        return unexpected(invalidArgumentError("num_epochs must be > 0 not " + std::to_string(*numEpochs) + "."));
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto zero = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT64, "Const");
    if (!zero)
        return unexpected(zero.error());
    auto epochs = variable(b, *zero, "epochs", false, std::vector<std::string>{std::string(graph_keys::kLocalVariables)});
    if (!epochs)
        return unexpected(epochs.error());
    auto counter = b.op("CountUpTo", {epochs->ref()}, {{"limit", attr::i(*numEpochs)}}, "CountUpTo");
    if (!counter)
        return unexpected(counter.error());
    auto deps = b.controlDependencies({*counter});
    std::string scopeName = scope->name();
    return ops::identity(b, tensor, scopeName);
}

Expected<Output> inputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const Output& input,
                               const InputProducerOptions& options)
{
    if (input.shape().rank() == 0)
        return unexpected(invalidArgumentError("Input tensor " + input.name() + " must be at least rank 1"));
    TensorShape element = input.shape().isUnknownRank() ? TensorShape::unknown() : withoutFirst(input.shape());
    if (options.elementShape) {
        auto merged = element.merge(*options.elementShape);
        if (!merged)
            return unexpected(invalidArgumentError("Shapes " + element.toString() + " and " +
                                                   options.elementShape->toString() + " are not compatible: the "
                                                   "elements of " + input.name() + " and element_shape"));
        element = std::move(*merged);
    }
    if (!element.isFullyDefined())
        return unexpected(invalidArgumentError("Either `input_tensor` must have a fully defined shape or "
                                               "`element_shape` must be specified: " +
                                               input.name() + " has elements of shape " + element.toString()));
    if (options.capacity <= 0)
        return unexpected(invalidArgumentError("capacity must be > 0, got " + std::to_string(options.capacity)));
    // string_input_producer enters the same scope again: a name ending in '/' is used as is.
    auto scope = b.nameScope(options.name);
    if (!scope)
        return unexpected(scope.error());
    const std::string scopeName = scope->name();
    Output value = input;
    if (options.shuffle) {
        const RandomSeeds seeds = b.seedsFor(options.seed);
        auto shuffled = b.op("RandomShuffle", {value}, {{"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}},
                             "RandomShuffle");
        if (!shuffled)
            return unexpected(shuffled.error());
        value = shuffled->output(0);
    }
    auto limited = limitEpochs(b, value, options.numEpochs);
    if (!limited)
        return unexpected(limited.error());
    auto queue = b.op("FIFOQueueV2", {},
                      {{"component_types", attr::types({input.baseDtype()})},
                       {"shapes", shapesAttr({element})},
                       {"capacity", attr::i(options.capacity)},
                       {"shared_name", attr::s(options.sharedName)}},
                      scopeName);
    if (!queue)
        return unexpected(queue.error());
    const Output handle = queue->output(0);
    const std::string base = baseName(handle.node());
    auto enqueue = b.op("QueueEnqueueManyV2", {handle, std::vector<Output>{*limited}}, {}, base + "_EnqueueMany");
    if (!enqueue)
        return unexpected(enqueue.error());
    if (Status s = addQueueRunner(b, runners, handle, enqueue->name(), 1); !s.isOk())
        return unexpected(s);
    if (options.summary)
        if (Status s = addFillSummary(b, handle, "fraction_of_" + std::to_string(options.capacity) + "_full",
                                      options.capacity);
            !s.isOk())
            return unexpected(s);
    return handle;
}

namespace {

/// match_filenames_once's nodes for a pattern given as a string (a Const made in the op's scope) or
/// as a tensor.
Expected<Variable> matchFilenames(GraphBuilder& b, const std::variant<std::string, Output>& pattern,
                                  std::string_view name)
{
    auto noControl = b.clearControlDependencies(); // the variable is made in TensorFlow's init_scope
    auto scope = b.nameScope(name.empty() ? std::string_view("matching_filenames") : name);
    if (!scope)
        return unexpected(scope.error());
    const std::string scopeName = scope->name(); // "matching_filenames/"
    Expected<Output> files = [&]() -> Expected<Output> {
        auto opScope = b.nameScope("MatchingFiles");
        if (!opScope)
            return unexpected(opScope.error());
        Output patternTensor;
        if (const auto* text = std::get_if<std::string>(&pattern)) {
            auto proto = makeStringTensorProto(TensorShape::scalar(), std::vector<std::string>{*text});
            if (!proto)
                return unexpected(proto.error());
            auto value = ops::constant(b, *proto, "pattern");
            if (!value)
                return value;
            patternTensor = *value;
        } else {
            patternTensor = std::get<Output>(pattern);
        }
        return ops::firstOutput(b.op("MatchingFiles", {patternTensor}, {}, opScope->name()));
    }();
    if (!files)
        return unexpected(files.error());
    // RefVariable with validate_shape=False: the variable's shape stays unknown, as the file count
    // is known only when the initializer runs.
    auto var = b.op("VariableV2", {},
                    {{"shape", attr::shape(TensorShape::unknown())}, {"dtype", attr::type(tensorflow::DT_STRING)}},
                    scopeName);
    if (!var)
        return unexpected(var.error());
    auto assign = b.op("Assign", {var->output(0), *files}, {{"validate_shape", attr::b(false)}}, "Assign");
    if (!assign)
        return unexpected(assign.error());
    Expected<Output> read = [&] {
        auto colocated = b.colocateWith(*var);
        return ops::identity(b, var->output(0), "read");
    }();
    if (!read)
        return unexpected(read.error());
    Variable result(var->output(0), *read, *files, *assign, false);
    b.collections().addToEach({std::string(graph_keys::kLocalVariables)}, result);
    return result;
}

/// string_input_producer's body in its name scope `scopeName`: the Assert that `value` is not
/// empty, then input_producer (in the same scope) over its scalar elements.
Expected<Output> producerOfStrings(GraphBuilder& b, QueueRunnerDefs& runners, const Output& value,
                                   const std::string& scopeName, const InputProducerOptions& options)
{
    // The Assert TensorFlow puts in front: size(strings) > 0.
    auto size = b.op("Size", {value}, {{"out_type", attr::type(tensorflow::DT_INT32)}}, "Size");
    if (!size)
        return unexpected(size.error());
    auto zero = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "Greater/y");
    if (!zero)
        return unexpected(zero.error());
    auto greater = b.op("Greater", {size->output(0), *zero}, {}, "Greater");
    if (!greater)
        return unexpected(greater.error());
    const std::string message = "string_input_producer requires a non-null input tensor";
    auto messageProto = makeStringTensorProto(TensorShape::scalar(), std::vector<std::string>{message});
    if (!messageProto)
        return unexpected(messageProto.error());
    auto assertScope = b.nameScope("Assert");
    if (!assertScope)
        return unexpected(assertScope.error());
    auto data = ops::constant(b, *messageProto, "Const");
    if (!data)
        return unexpected(data.error());
    auto check = b.op("Assert", {greater->output(0), std::vector<Output>{*data}}, {}, "Assert");
    if (!check)
        return unexpected(check.error());
    assertScope->close();
    Output checked;
    {
        auto deps = b.controlDependencies({*check});
        auto identity = ops::identity(b, value, "Identity");
        if (!identity)
            return unexpected(identity.error());
        checked = *identity;
    }
    InputProducerOptions inner = options;
    inner.name = scopeName; // the same scope, entered again as TensorFlow does
    inner.elementShape = TensorShape::scalar();
    return inputProducer(b, runners, checked, inner);
}

} // namespace

Expected<Output> stringInputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const std::vector<std::string>& strings,
                                     const InputProducerOptions& options)
{
    if (strings.empty())
        return unexpected(invalidArgumentError("string_input_producer requires a non-null input tensor"));
    auto scope = b.nameScope(options.name);
    if (!scope)
        return unexpected(scope.error());
    auto proto = makeStringTensorProto(TensorShape({static_cast<std::int64_t>(strings.size())}), strings);
    if (!proto)
        return unexpected(proto.error());
    auto value = ops::constant(b, *proto, "Const");
    if (!value)
        return unexpected(value.error());
    return producerOfStrings(b, runners, *value, scope->name(), options);
}

Expected<Output> stringInputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const Output& strings,
                                     const InputProducerOptions& options)
{
    if (strings.baseDtype() != tensorflow::DT_STRING)
        return unexpected(invalidArgumentError("string_input_producer needs a string tensor, '" + strings.name() +
                                               "' is " + dataTypeName(strings.baseDtype())));
    auto scope = b.nameScope(options.name);
    if (!scope)
        return unexpected(scope.error());
    return producerOfStrings(b, runners, strings, scope->name(), options);
}

Expected<Variable> matchFilenamesOnce(GraphBuilder& b, const std::string& pattern, std::string_view name)
{
    return matchFilenames(b, pattern, name);
}

Expected<Variable> matchFilenamesOnce(GraphBuilder& b, const Output& pattern, std::string_view name)
{
    if (pattern.baseDtype() != tensorflow::DT_STRING)
        return unexpected(invalidArgumentError("match_filenames_once needs a string pattern, '" + pattern.name() +
                                               "' is " + dataTypeName(pattern.baseDtype())));
    return matchFilenames(b, pattern, name);
}

Expected<std::vector<Output>> batch(GraphBuilder& b, QueueRunnerDefs& runners, const std::vector<Output>& tensors,
                                    const BatchOptions& options)
{
    std::vector<DataType> dtypes;
    std::vector<TensorShape> shapes;
    if (Status s = elementSpec(tensors, options, &dtypes, &shapes); !s.isOk())
        return unexpected(s);
    auto scope = b.nameScope(options.name.empty() ? "batch" : options.name);
    if (!scope)
        return unexpected(scope.error());
    const std::string scopeName = scope->name();
    auto queue = b.op(options.dynamicPad ? "PaddingFIFOQueueV2" : "FIFOQueueV2", {},
                      {{"component_types", attr::types(dtypes)},
                       {"shapes", shapesAttr(shapes)},
                       {"capacity", attr::i(options.capacity)},
                       {"shared_name", attr::s(options.sharedName)}},
                      options.dynamicPad ? "padding_fifo_queue" : "fifo_queue");
    if (!queue)
        return unexpected(queue.error());
    if (Status s = addEnqueue(b, runners, tensors, options, queue->output(0)); !s.isOk())
        return unexpected(s);
    if (Status s = addFillSummary(b, queue->output(0), "fraction_of_" + std::to_string(options.capacity) + "_full",
                                  options.capacity);
        !s.isOk())
        return unexpected(s);
    return dequeueBatch(b, queue->output(0), options, scopeName, dtypes, shapes);
}

Expected<std::vector<Output>> shuffleBatch(GraphBuilder& b, QueueRunnerDefs& runners,
                                           const std::vector<Output>& tensors, const ShuffleBatchOptions& options)
{
    if (options.dynamicPad)
        return unexpected(invalidArgumentError("shuffle_batch has no dynamic_pad (use batch)"));
    if (options.minAfterDequeue < 0 || options.minAfterDequeue >= options.capacity)
        return unexpected(invalidArgumentError("shuffle_batch: min_after_dequeue (" +
                                               std::to_string(options.minAfterDequeue) +
                                               ") must be >= 0 and less than capacity (" +
                                               std::to_string(options.capacity) + ")"));
    std::vector<DataType> dtypes;
    std::vector<TensorShape> shapes;
    if (Status s = elementSpec(tensors, options, &dtypes, &shapes); !s.isOk())
        return unexpected(s);
    auto scope = b.nameScope(options.name.empty() ? "shuffle_batch" : options.name);
    if (!scope)
        return unexpected(scope.error());
    const std::string scopeName = scope->name();
    const RandomSeeds seeds = b.seedsFor(options.seed);
    auto queue = b.op("RandomShuffleQueueV2", {},
                      {{"component_types", attr::types(dtypes)},
                       {"shapes", shapesAttr(shapes)},
                       {"capacity", attr::i(options.capacity)},
                       {"min_after_dequeue", attr::i(options.minAfterDequeue)},
                       {"seed", attr::i(seeds.seed)},
                       {"seed2", attr::i(seeds.seed2)},
                       {"shared_name", attr::s(options.sharedName)}},
                      "random_shuffle_queue");
    if (!queue)
        return unexpected(queue.error());
    if (Status s = addEnqueue(b, runners, tensors, options, queue->output(0)); !s.isOk())
        return unexpected(s);
    const std::string summaryName = "fraction_over_" + std::to_string(options.minAfterDequeue) + "_of_" +
                                    std::to_string(options.capacity - options.minAfterDequeue) + "_full";
    if (Status s = addFillSummary(b, queue->output(0), summaryName, options.capacity, options.minAfterDequeue);
        !s.isOk())
        return unexpected(s);
    return dequeueBatch(b, queue->output(0), options, scopeName, dtypes, shapes);
}

} // namespace tstudio::input
