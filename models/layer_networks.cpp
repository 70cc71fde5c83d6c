// The tf.layers classifiers of the examples: a shared head (loss, optimizer, accuracy) over three bodies.
#include "layer_networks.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "layers/batch_normalization.h"
#include "layers/conv2d.h"
#include "layers/dense.h"
#include "layers/flatten.h"
#include "layers/pooling.h"
#include "losses/losses.h"
#include "training/adam.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/momentum.h"
#include "training/update_ops.h"

#include <functional>
#include <memory>

namespace tstudio::examples {
namespace {

using Body = std::function<Expected<Output>(GraphBuilder&, const Output& inputs)>;

std::unique_ptr<training::Optimizer> makeOptimizer(const LayerNetworkOptions& options)
{
    switch (options.optimizer) {
    case OptimizerKind::kMomentum:
        return std::make_unique<training::MomentumOptimizer>(options.learningRate, 0.9);
    case OptimizerKind::kAdam:
        return std::make_unique<training::AdamOptimizer>(options.learningRate);
    case OptimizerKind::kGradientDescent:
        break;
    }
    return std::make_unique<training::GradientDescentOptimizer>(options.learningRate);
}

/// Placeholders "inputs" [?, features] and "labels" [?] (int64), logits from `body`, then the head:
/// tf.losses.sparse_softmax_cross_entropy, optimizer.minimize(loss, global_step), accuracy.
Expected<ClassifierGraph> buildClassifier(const OpRegistry& ops, std::int64_t features, const Body& body, const LayerNetworkOptions& options)
{
    GraphBuilder b(ops);
    b.setRandomSeed(options.seed);
    TSTUDIO_TRY(inputs, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, features}), "inputs"));
    TSTUDIO_TRY(labels, ops::placeholder(b, tensorflow::DT_INT64, TensorShape({-1}), "labels"));
    TSTUDIO_TRY(logits, body(b, inputs));
    TSTUDIO_TRY(loss, losses::sparseSoftmaxCrossEntropy(b, labels, logits));
    TSTUDIO_TRY(globalStep, training::getOrCreateGlobalStep(b));
    std::unique_ptr<training::Optimizer> optimizer = makeOptimizer(options);
    // The batch-norm moving averages (UPDATE_OPS) run with every step, as TensorFlow's models do
    // with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)).
    Operation train;
    {
        auto afterUpdates = training::afterUpdateOps(b);
        TSTUDIO_TRY(minimized, optimizer->minimize(b, loss, globalStep));
        train = minimized;
    }

    Output accuracy;
    {
        TSTUDIO_TRY(scope, b.nameScope("accuracy"));
        TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "ArgMax/dimension"));
        TSTUDIO_TRY(predicted, ops::firstOutput(b.op("ArgMax", {logits, axis}, {}, "ArgMax")));
        TSTUDIO_TRY(equal, ops::firstOutput(b.op("Equal", {predicted, labels})));
        TSTUDIO_TRY(asFloat, ops::firstOutput(b.op("Cast", {equal}, {{"DstT", attr::type(tensorflow::DT_FLOAT)}})));
        TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
        TSTUDIO_TRY(mean, ops::firstOutput(b.op("Mean", {asFloat, axes}, {}, "Mean")));
        accuracy = mean;
    }
    TSTUDIO_TRY(init, globalVariablesInitializer(b));

    ClassifierGraph out;
    out.graph = b.toGraphDef();
    out.inputs = inputs.name();
    out.labels = labels.name();
    out.train = train.name();
    out.init = init.name();
    out.loss = loss.name();
    out.accuracy = accuracy.name();
    out.evalAccuracy = accuracy.name();
    out.globalStep = globalStep.value().name();
    for (const Variable& variable : trainableVariables(b)) {
        TSTUDIO_TRY(elements, variable.shape().numElements());
        out.trainableParameters += elements;
    }
    return out;
}

layers::DenseOptions denseLayer(std::int64_t units, layers::Activation activation)
{
    layers::DenseOptions options;
    options.units = units;
    options.activation = activation;
    return options;
}

} // namespace

Expected<ClassifierGraph> buildMlp(const OpRegistry& ops, const LayerNetworkOptions& options)
{
    return buildClassifier(ops, 784, [](GraphBuilder& b, const Output& x) -> Expected<Output> {
        TSTUDIO_TRY(hidden, layers::dense(b, x, denseLayer(500, layers::Activation::kRelu)));
        return layers::dense(b, hidden, denseLayer(10, layers::Activation::kNone));
    }, options);
}

Expected<ClassifierGraph> buildLeNet5(const OpRegistry& ops, const LayerNetworkOptions& options)
{
    return buildClassifier(ops, 784, [](GraphBuilder& b, const Output& x) -> Expected<Output> {
        TSTUDIO_TRY(shape, ops::constantInts(b, {-1, 28, 28, 1}, TensorShape({4}), tensorflow::DT_INT32, "Reshape/shape"));
        TSTUDIO_TRY(images, ops::reshape(b, x, shape));
        Output h = images;
        for (std::int64_t filters : {32, 64}) {
            layers::Conv2DOptions conv;
            conv.filters = filters;
            conv.kernelSize = {5, 5};
            conv.padding = "same";
            conv.activation = layers::Activation::kRelu;
            TSTUDIO_TRY(convolved, layers::conv2d(b, h, conv));
            layers::Pooling2DOptions pool;
            pool.poolSize = {2, 2};
            pool.strides = {2, 2};
            TSTUDIO_TRY(pooled, layers::maxPooling2d(b, convolved, pool));
            h = pooled;
        }
        TSTUDIO_TRY(flat, layers::flatten(b, h));
        TSTUDIO_TRY(hidden, layers::dense(b, flat, denseLayer(512, layers::Activation::kRelu)));
        return layers::dense(b, hidden, denseLayer(10, layers::Activation::kNone));
    }, options);
}

Expected<ClassifierGraph> buildSpiralsNetwork(const OpRegistry& ops, std::int64_t hidden, const LayerNetworkOptions& options)
{
    if (hidden < 1)
        return unexpected(invalidArgumentError("spirals network: the hidden layers need at least 1 unit, got " + std::to_string(hidden)));
    return buildClassifier(ops, 2, [hidden](GraphBuilder& b, const Output& x) -> Expected<Output> {
        TSTUDIO_TRY(h1, layers::dense(b, x, denseLayer(hidden, layers::Activation::kRelu)));
        TSTUDIO_TRY(h2, layers::dense(b, h1, denseLayer(hidden, layers::Activation::kRelu)));
        return layers::dense(b, h2, denseLayer(2, layers::Activation::kNone));
    }, options);
}

namespace {

/// conv size x size (no bias, 'same') -> batch norm (training) [-> relu].
Expected<Output> convBn(GraphBuilder& b, const Output& x, std::int64_t filters, std::int64_t stride, bool relu,
                        std::int64_t size = 3)
{
    layers::Conv2DOptions conv;
    conv.filters = filters;
    conv.kernelSize = {size, size};
    conv.strides = {stride, stride};
    conv.padding = "same";
    conv.useBias = false;
    TSTUDIO_TRY(convolved, layers::conv2d(b, x, conv));
    TSTUDIO_TRY(normalised, layers::batchNormalization(b, convolved, {}, /*training=*/true));
    return relu ? ops::relu(b, normalised) : normalised;
}

} // namespace

Expected<ClassifierGraph> buildResNet20(const OpRegistry& ops, const LayerNetworkOptions& options)
{
    return buildClassifier(ops, 32 * 32 * 3, [](GraphBuilder& b, const Output& x) -> Expected<Output> {
        TSTUDIO_TRY(shape, ops::constantInts(b, {-1, 32, 32, 3}, TensorShape({4}), tensorflow::DT_INT32, "Reshape/shape"));
        TSTUDIO_TRY(images, ops::reshape(b, x, shape));
        // tf.variable_scope per stage and block ("stage2/block1/conv2d/kernel"): the viewer then draws
        // the network as a stem, three stages of three blocks and a classifier, rather than
        // twenty-one numbered conv2d layers side by side.
        Output h;
        {
            TSTUDIO_TRY(scope, variableScope(b, "stem"));
            TSTUDIO_TRY(stem, convBn(b, images, 16, 1, true));
            h = stem;
        }
        std::int64_t channels = 16;
        int stage = 0;
        for (const std::int64_t filters : {16, 32, 64}) {
            TSTUDIO_TRY(stageScope, variableScope(b, "stage" + std::to_string(++stage)));
            for (int block = 0; block < 3; ++block) {
                TSTUDIO_TRY(blockScope, variableScope(b, "block" + std::to_string(block + 1)));
                const std::int64_t stride = block == 0 && filters != 16 ? 2 : 1;
                TSTUDIO_TRY(a, convBn(b, h, filters, stride, true));
                TSTUDIO_TRY(c, convBn(b, a, filters, 1, false));
                Output shortcut = h;
                if (stride != 1 || channels != filters) {
                    // Projection shortcut: 1x1 convolution with the block's stride, then batch norm.
                    layers::Conv2DOptions projection;
                    projection.filters = filters;
                    projection.kernelSize = {1, 1};
                    projection.strides = {stride, stride};
                    projection.useBias = false;
                    TSTUDIO_TRY(projected, layers::conv2d(b, h, projection));
                    TSTUDIO_TRY(normalised, layers::batchNormalization(b, projected, {}, true));
                    shortcut = normalised;
                }
                TSTUDIO_TRY(sum, ops::add(b, c, shortcut));
                TSTUDIO_TRY(activated, ops::relu(b, sum));
                h = activated;
                channels = filters;
            }
        }
        // Global average pooling over height and width, then the classifier.
        TSTUDIO_TRY(axes, ops::constantInts(b, {1, 2}, TensorShape({2}), tensorflow::DT_INT32, "pool/axes"));
        TSTUDIO_TRY(pooled, ops::firstOutput(b.op("Mean", {h, axes}, {}, "pool")));
        TSTUDIO_TRY(classifier, variableScope(b, "classifier"));
        return layers::dense(b, pooled, denseLayer(10, layers::Activation::kNone));
    }, options);
}

Expected<ClassifierGraph> buildResNet50(const OpRegistry& ops, const LayerNetworkOptions& options)
{
    return buildClassifier(ops, 224 * 224 * 3, [](GraphBuilder& b, const Output& x) -> Expected<Output> {
        TSTUDIO_TRY(shape, ops::constantInts(b, {-1, 224, 224, 3}, TensorShape({4}), tensorflow::DT_INT32, "Reshape/shape"));
        TSTUDIO_TRY(images, ops::reshape(b, x, shape));
        TSTUDIO_TRY(stem, convBn(b, images, 64, 2, true, 7));
        layers::Pooling2DOptions pool;
        pool.poolSize = {3, 3};
        pool.strides = {2, 2};
        pool.padding = "same";
        TSTUDIO_TRY(pooled, layers::maxPooling2d(b, stem, pool));
        Output h = pooled;
        struct Stage {
            std::int64_t filters, blocks, stride;
        };
        for (const Stage& stage : {Stage{64, 3, 1}, Stage{128, 4, 2}, Stage{256, 6, 2}, Stage{512, 3, 2}}) {
            for (std::int64_t block = 0; block < stage.blocks; ++block) {
                const std::int64_t stride = block == 0 ? stage.stride : 1;
                TSTUDIO_TRY(reduced, convBn(b, h, stage.filters, 1, true, 1));
                TSTUDIO_TRY(spatial, convBn(b, reduced, stage.filters, stride, true, 3));
                TSTUDIO_TRY(expanded, convBn(b, spatial, 4 * stage.filters, 1, false, 1));
                Output shortcut = h;
                if (block == 0) {
                    // Projection shortcut: every stage's first block changes the channel count.
                    TSTUDIO_TRY(projected, convBn(b, h, 4 * stage.filters, stride, false, 1));
                    shortcut = projected;
                }
                TSTUDIO_TRY(sum, ops::add(b, expanded, shortcut));
                TSTUDIO_TRY(activated, ops::relu(b, sum));
                h = activated;
            }
        }
        TSTUDIO_TRY(axes, ops::constantInts(b, {1, 2}, TensorShape({2}), tensorflow::DT_INT32, "pool/axes"));
        TSTUDIO_TRY(averaged, ops::firstOutput(b.op("Mean", {h, axes}, {}, "pool")));
        return layers::dense(b, averaged, denseLayer(1000, layers::Activation::kNone));
    }, options);
}

} // namespace tstudio::examples
