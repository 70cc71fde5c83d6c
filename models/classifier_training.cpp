// trainClassifier and friends: one Session, batches from a Dataset, accuracy on held-out data.
#include "classifier_training.h"

#include "runtime/session.h"

#include <chrono>
#include <cstring>

namespace tstudio::examples {
namespace {

/// Rows [begin, end) of a tensor of plain numbers (a copy).
Expected<Tensor> rows(const Tensor& t, std::int64_t begin, std::int64_t end, Allocator& allocator)
{
    std::vector<std::int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    dims[0] = end - begin;
    auto out = Tensor::allocate(allocator, t.dtype(), TensorShape(dims));
    if (!out)
        return unexpected(out.error());
    const std::size_t rowBytes = t.shape().dim(0) == 0 ? 0 : t.tensorData().size() / static_cast<std::size_t>(t.shape().dim(0));
    std::memcpy(out->tensorData().data(), t.tensorData().data() + static_cast<std::size_t>(begin) * rowBytes,
                static_cast<std::size_t>(end - begin) * rowBytes);
    return std::move(*out);
}

Expected<Tensor> labelsFeed(const ClassifierGraph& graph, const Tensor& labels, Allocator& allocator)
{
    if (graph.labelDepth > 0)
        return oneHotLabels(labels, graph.labelDepth, allocator);
    return labels;
}

float scalarOf(const Tensor& t)
{
    return t.values<float>()[0];
}

} // namespace

Expected<Tensor> oneHotLabels(const Tensor& labels, std::int64_t depth, Allocator& allocator)
{
    if (labels.dtype() != tensorflow::DT_INT64 || labels.rank() != 1)
        return unexpected(invalidArgumentError("labels: expected int64 class indices of shape [N], got " +
                                    dataTypeString(labels.dtype()) + " " + labels.shape().toString()));
    auto out = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({labels.shape().dim(0), depth}));
    if (!out)
        return unexpected(out.error());
    auto values = out->values<float>();
    std::fill(values.begin(), values.end(), 0.0f);
    const auto indices = labels.values<std::int64_t>();
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] < 0 || indices[i] >= depth)
            return unexpected(invalidArgumentError("labels: label " + std::to_string(indices[i]) + " of example " +
                                        std::to_string(i) + " is outside [0, " + std::to_string(depth) + ")"));
        values[i * static_cast<std::size_t>(depth) + static_cast<std::size_t>(indices[i])] = 1.0f;
    }
    return std::move(*out);
}

Expected<std::unique_ptr<Session>> startClassifierSession(const ClassifierGraph& graph, const Registries& registries,
                                                          int threads, bool gpu, bool cudaGraphs, bool remapping)
{
    SessionOptions options;
    options.captureGraphs = cudaGraphs;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    options.config.set_intra_op_parallelism_threads(threads);
    options.config.set_inter_op_parallelism_threads(1);
    (*options.config.mutable_device_count())["GPU"] = gpu ? 1 : 0;
    options.config.set_allow_soft_placement(gpu);
    if (!remapping)
        options.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
            tensorflow::RewriterConfig::OFF);
    auto session = std::make_unique<Session>(options);
    if (Status s = session->create(graph.graph); !s.isOk())
        return unexpected(s);
    std::vector<Tensor> none;
    if (Status s = session->run({}, {}, {graph.init}, &none); !s.isOk())
        return unexpected(s);
    return session;
}

Expected<double> evaluateAccuracy(Session& session, const ClassifierGraph& graph, const Tensor& inputs,
                                  const Tensor& labels, std::int64_t batch, Allocator& allocator)
{
    const std::int64_t n = inputs.rank() >= 1 ? inputs.shape().dim(0) : 0;
    if (n == 0 || labels.rank() != 1 || labels.shape().dim(0) != n)
        return unexpected(invalidArgumentError("evaluation: need inputs and labels with the same, non-zero number of examples, got " +
                                    inputs.shape().toString() + " and " + labels.shape().toString()));
    if (batch < 1)
        return unexpected(invalidArgumentError("evaluation: the batch size must be at least 1"));
    double correct = 0;
    for (std::int64_t begin = 0; begin < n; begin += batch) {
        const std::int64_t end = std::min(n, begin + batch);
        auto x = rows(inputs, begin, end, allocator);
        if (!x)
            return unexpected(x.error());
        auto y = rows(labels, begin, end, allocator);
        if (!y)
            return unexpected(y.error());
        auto feed = labelsFeed(graph, *y, allocator);
        if (!feed)
            return unexpected(feed.error());
        std::vector<Tensor> out;
        if (Status s = session.run({{graph.inputs, *x}, {graph.labels, *feed}}, {graph.evalAccuracy}, {}, &out); !s.isOk())
            return unexpected(s);
        correct += static_cast<double>(scalarOf(out[0])) * static_cast<double>(end - begin);
    }
    return correct / static_cast<double>(n);
}

Expected<ClassifierTrainingResult> trainClassifier(const ClassifierGraph& graph, const Registries& registries,
                                                   const data::Dataset& batches,
                                                   const ClassifierTrainingOptions& options, const Tensor* evalInputs,
                                                   const Tensor* evalLabels,
                                                   const std::function<void(const TrainingProgress&)>& progress)
{
    if (Status s = batches.status(); !s.isOk())
        return unexpected(s);
    auto session = startClassifierSession(graph, registries, options.threads, options.gpu, options.cudaGraphs);
    if (!session)
        return unexpected(session.error());
    CpuAllocator allocator;
    auto iterator = batches.makeIterator();
    ClassifierTrainingResult result;
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t step = 1; step <= options.steps; ++step) {
        auto element = iterator->getNext();
        if (!element)
            return unexpected(element.error());
        if (!*element)
            return unexpected(outOfRangeError("the input pipeline ended after " + std::to_string(step - 1) + " steps of " +
                                   std::to_string(options.steps)));
        const data::Element& batch = **element;
        if (batch.size() != 2)
            return unexpected(invalidArgumentError("the input pipeline must give {inputs, labels}, got " +
                                        std::to_string(batch.size()) + " components"));
        auto labels = labelsFeed(graph, batch[1], allocator);
        if (!labels)
            return unexpected(labels.error());
        const bool report = step == options.steps || (options.reportEvery > 0 && step % options.reportEvery == 0);
        std::vector<Tensor> out;
        std::vector<std::string> fetches;
        if (report)
            fetches = {graph.loss, graph.accuracy, graph.globalStep};
        if (Status s = (*session)->run({{graph.inputs, batch[0]}, {graph.labels, *labels}}, fetches, {graph.train}, &out);
            !s.isOk())
            return unexpected(s);
        if (report) {
            result.last.step = step;
            result.last.loss = scalarOf(out[0]);
            result.last.batchAccuracy = scalarOf(out[1]);
            result.last.globalStep = out[2].dtype() == tensorflow::DT_INT64 ? out[2].values<std::int64_t>()[0]
                                                                             : out[2].values<std::int32_t>()[0];
            result.last.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (progress)
                progress(result.last);
        }
    }
    result.stepsPerSecond = result.last.seconds > 0 ? static_cast<double>(options.steps) / result.last.seconds : 0;
    if (evalInputs && evalLabels) {
        auto accuracy = evaluateAccuracy(**session, graph, *evalInputs, *evalLabels, options.evalBatch, allocator);
        if (!accuracy)
            return unexpected(accuracy.error());
        result.evalAccuracy = *accuracy;
    }
    return result;
}

} // namespace tstudio::examples
