// ClassifierGraph: what the example networks hand to a training loop (the graph and the names of
// its inputs, train op, loss and accuracy).
#pragma once

#include "proto/graph.pb.h"

#include <cstdint>
#include <string>

namespace tstudio::examples {

/// A built classifier: feed `inputs` (float32 [batch, ...]) and `labels` (class indices, int64
/// [batch], or one-hot float32 [batch, labelDepth] when labelDepth > 0); run `train` to take one step; fetch `loss` (float32 scalar) and `accuracy` (the
/// fraction of the batch classified right, float32 scalar) for a batch. `evalAccuracy` is the
/// accuracy the trained model is judged by (e.g. with the moving averages of the weights); it
/// equals `accuracy` when the network has no separate evaluation path. Tensor names are "node:0".
struct ClassifierGraph {
    tensorflow::GraphDef graph;
    std::string inputs;
    std::string labels;
    std::int64_t labelDepth = 0;
    std::string train;
    std::string init;
    std::string loss;
    std::string accuracy;
    std::string evalAccuracy;
    std::string globalStep;
    /// Elements of the trainable variables (tf.trainable_variables()): what one step's gradients
    /// hold, the bytes a data-parallel step allreduces (x 4 for float32).
    std::int64_t trainableParameters = 0;
};

} // namespace tstudio::examples
