// The examples' tf.layers classifiers: the benchmark MLP (784-500-10), LeNet-5 and the two-spirals
// network, each with a sparse softmax cross-entropy loss, an optimizer and an accuracy.
#pragma once

#include "classifier_graph.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

enum class OptimizerKind { kGradientDescent, kMomentum, kAdam };

struct LayerNetworkOptions {
    OptimizerKind optimizer = OptimizerKind::kGradientDescent;
    double learningRate = 0.01;
    /// tf.set_random_seed (nullopt: none).
    std::optional<std::int64_t> seed = 1;
};

/// inputs [?,784] -> dense(500, relu) -> dense(10) logits; tf.losses.sparse_softmax_cross_entropy
/// with int64 labels [?]; the optimizer's minimize with get_or_create_global_step. What `tstudio
/// bench mlp` trains (GradientDescent, batch 100).
Expected<ClassifierGraph> buildMlp(const OpRegistry& ops, const LayerNetworkOptions& options = {});

/// LeNet-5 as the issue describes it: inputs [?,784] reshaped to [-1,28,28,1] -> conv2d(32, 5x5,
/// same, relu) -> max_pooling2d(2, 2) -> conv2d(64, 5x5, same, relu) -> max_pooling2d(2, 2) ->
/// flatten -> dense(512, relu) -> dense(10).
Expected<ClassifierGraph> buildLeNet5(const OpRegistry& ops, const LayerNetworkOptions& options = {});

/// ResNet-20 for 32x32 colour images (He et al.'s CIFAR network): inputs [?,3072] reshaped to
/// [-1,32,32,3] -> conv 3x3x16 + batch norm + relu -> three stages of three residual blocks (16,
/// 32, 64 filters; the first block of the second and third stage with stride 2 and a 1x1
/// projection shortcut), each block conv-bn-relu-conv-bn + shortcut, relu -> global average pool ->
/// dense(10). Batch norm in training mode, its moving averages updated with every step. Variable
/// scopes "stem", "stage1".."stage3" / "block1".."block3" and "classifier". What `tstudio bench
/// resnet` trains (batch 256) and examples/projects/resnet20.tsproj's network.
Expected<ClassifierGraph> buildResNet20(const OpRegistry& ops, const LayerNetworkOptions& options = {});

/// ResNet-50 v1.5 for 224x224 colour images (He et al.'s ImageNet network, the layout of TensorFlow's
/// official model): inputs [?,150528] reshaped to [-1,224,224,3] -> conv 7x7/2 x 64 + batch norm +
/// relu -> max pool 3x3/2 (same) -> four stages of 3, 4, 6 and 3 bottleneck blocks (1x1 x f, 3x3 x f
/// with the stage's stride of 1, 2, 2, 2 on the first block, 1x1 x 4f, each followed by batch norm;
/// a 1x1 projection shortcut with batch norm on each stage's first block; relu after the sum),
/// f = 64, 128, 256, 512 -> global average pool -> dense(1000). Convolutions without biases ('same'
/// padding), so the trainable parameters are 25,557,032 as in the published network. Batch norm in
/// training mode. What `tstudio bench resnet50` trains (the compute time of docs/scaling.md).
Expected<ClassifierGraph> buildResNet50(const OpRegistry& ops, const LayerNetworkOptions& options = {});

/// inputs [?,2] -> dense(hidden, relu) -> dense(hidden, relu) -> dense(2), for the two-spirals data.
/// (ReLU: with tf.layers' glorot-uniform kernels and zero biases, tanh units stay near the plateau of
/// a linear classifier for thousands of Adam steps on this problem; PyTorch's defaults differ.)
Expected<ClassifierGraph> buildSpiralsNetwork(const OpRegistry& ops, std::int64_t hidden = 64,
                                              const LayerNetworkOptions& options = {});

} // namespace tstudio::examples
