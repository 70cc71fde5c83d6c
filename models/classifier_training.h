// trainClassifier: the training loop the examples and `tstudio train` share: a Session over a
// ClassifierGraph, batches from an input pipeline, progress reports and a held-out evaluation.
#pragma once

#include "classifier_graph.h"
#include "core/expected.h"
#include "data/dataset.h"
#include "framework/tensor.h"
#include "registries/default_registries.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace tstudio {
class Session;
}

namespace tstudio::examples {

struct ClassifierTrainingOptions {
    std::int64_t steps = 1000;
    /// Intra-op threads of the CPU device (0: one per hardware thread).
    int threads = 0;
    /// Train on GPU:0 (ops with GPU kernels there, the rest on the CPU); false: no GPU device.
    bool gpu = false;
    /// On the GPU, capture the training step as a CUDA graph and replay it (SessionOptions::captureGraphs).
    bool cudaGraphs = true;
    /// Report progress every this many steps (0: never).
    std::int64_t reportEvery = 100;
    /// Examples per evaluation run.
    std::int64_t evalBatch = 1000;
};

struct TrainingProgress {
    std::int64_t step = 0;       ///< steps taken so far
    std::int64_t globalStep = 0; ///< the graph's global step after them
    float loss = 0;              ///< on the last batch
    float batchAccuracy = 0;     ///< on the last batch
    double seconds = 0;          ///< since training started
};

struct ClassifierTrainingResult {
    TrainingProgress last;
    /// evalAccuracy over the evaluation set (nullopt when none was given).
    std::optional<double> evalAccuracy;
    double stepsPerSecond = 0;
};

/// A session with the graph created and its init op run; with `gpu`, on GPU:0 as TensorFlow places
/// ops (soft placement for the rest), else on the CPU only. `cudaGraphs`: SessionOptions::captureGraphs.
/// `remapping` false turns Grappler's remapper off (RewriterConfig remapping OFF): no fused nodes.
Expected<std::unique_ptr<Session>> startClassifierSession(const ClassifierGraph& graph, const Registries& registries,
                                                          int threads, bool gpu = false, bool cudaGraphs = true,
                                                          bool remapping = true);

/// Runs `graph.train` options.steps times, each fed one element of `batches` ({inputs, labels},
/// labels as int64 class indices: one-hot encoded here when graph.labelDepth > 0), then measures
/// graph.evalAccuracy on `evalInputs`/`evalLabels` when given (in runs of evalBatch examples,
/// weighted by size). `progress` is called every reportEvery steps and after the last.
/// Errors: the session's (naming the node), OutOfRange "the input pipeline ended after N steps of
/// M" when `batches` runs dry, InvalidArgument for labels outside [0, labelDepth).
Expected<ClassifierTrainingResult> trainClassifier(const ClassifierGraph& graph, const Registries& registries,
                                                   const data::Dataset& batches,
                                                   const ClassifierTrainingOptions& options,
                                                   const Tensor* evalInputs = nullptr, const Tensor* evalLabels = nullptr,
                                                   const std::function<void(const TrainingProgress&)>& progress = {});

/// graph.evalAccuracy over all of `inputs` (first dimension = examples) and int64 `labels`, in
/// runs of `batch` examples.
Expected<double> evaluateAccuracy(Session& session, const ClassifierGraph& graph, const Tensor& inputs,
                                  const Tensor& labels, std::int64_t batch, Allocator& allocator);

/// int64 class indices [N] -> one-hot float32 [N, depth]; InvalidArgument naming the first label
/// outside [0, depth).
Expected<Tensor> oneHotLabels(const Tensor& labels, std::int64_t depth, Allocator& allocator);

} // namespace tstudio::examples
