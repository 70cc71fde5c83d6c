// buildBookMnist: mnist_inference.py's inference() and mnist_train.py's training graph.
#include "book_mnist.h"
#include "core/try.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "losses/nn_losses.h"
#include "losses/regularizers.h"
#include "training/gradient_descent.h"
#include "training/learning_rate_decay.h"
#include "training/moving_averages.h"

namespace tstudio::examples {
namespace {

constexpr std::int64_t kInputNode = 784;
constexpr std::int64_t kOutputNode = 10;

/// get_weight_variable(shape, regularizer): truncated_normal(stddev 0.1) "weights", its L2 penalty
/// added to the "losses" collection.
Expected<Variable> weightVariable(GraphBuilder& b, const TensorShape& shape, const Regularizer& regularizer)
{
    TSTUDIO_TRY(weights, getVariable(b, "weights", shape, tensorflow::DT_FLOAT,
                                        Initializer::truncatedNormal(0.0, 0.1)));
    TSTUDIO_TRY(penalty, regularizer(b, weights.value()));
    b.collections().add("losses", penalty);
    return weights;
}

/// matmul(x, w) + b in the current scope.
Expected<Output> affine(GraphBuilder& b, const Output& x, const Output& w, const Output& bias)
{
    TSTUDIO_TRY(product, ops::matMul(b, x, w));
    return ops::add(b, product, bias, "add");
}

/// One layer of inference(): inside tf.variable_scope(scope), the variables (weights with their
/// penalty, zero biases) and matmul + bias, with ReLU when `relu`.
Expected<Output> layer(GraphBuilder& b, std::string_view scope, const Output& x, std::int64_t in, std::int64_t out,
                       bool relu, const Regularizer& regularizer, std::vector<Variable>& params)
{
    TSTUDIO_TRY(guard, variableScope(b, scope));
    TSTUDIO_TRY(weights, weightVariable(b, TensorShape({in, out}), regularizer));
    TSTUDIO_TRY(biases, getVariable(b, "biases", TensorShape({out}), tensorflow::DT_FLOAT, Initializer::constant(0.0)));
    params.push_back(weights);
    params.push_back(biases);
    TSTUDIO_TRY(pre, affine(b, x, weights.value(), biases.value()));
    return relu ? ops::relu(b, pre) : pre;
}

/// inference() again on other values of the weights (the moving averages), under `scope`.
Expected<Output> inferenceWith(GraphBuilder& b, std::string_view scope, const Output& x, const std::vector<Output>& params)
{
    TSTUDIO_TRY(guard, b.nameScope(scope));
    TSTUDIO_TRY(pre1, affine(b, x, params[0], params[1]));
    TSTUDIO_TRY(hidden, ops::relu(b, pre1));
    return affine(b, hidden, params[2], params[3]);
}

/// mean(cast(equal(argmax(logits, 1), argmax(labels, 1)), float32)).
Expected<Output> accuracyOf(GraphBuilder& b, const Output& logits, const Output& oneHot, std::string_view scope)
{
    TSTUDIO_TRY(guard, b.nameScope(scope));
    TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "dimension"));
    TSTUDIO_TRY(predicted, ops::firstOutput(b.op("ArgMax", {logits, axis}, {}, "ArgMax")));
    TSTUDIO_TRY(axis1, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "dimension"));
    TSTUDIO_TRY(expected, ops::firstOutput(b.op("ArgMax", {oneHot, axis1}, {}, "ArgMax")));
    TSTUDIO_TRY(equal, ops::firstOutput(b.op("Equal", {predicted, expected})));
    TSTUDIO_TRY(asFloat, ops::firstOutput(b.op("Cast", {equal}, {{"DstT", attr::type(tensorflow::DT_FLOAT)}})));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
    return ops::firstOutput(b.op("Mean", {asFloat, axes}, {}, "Mean"));
}

} // namespace

Expected<ClassifierGraph> buildBookMnist(const OpRegistry& ops, const BookMnistOptions& options)
{
    if (options.batchSize < 1 || options.trainingExamples < options.batchSize || options.layer1Units < 1)
        return unexpected(invalidArgumentError("book MNIST network: need layer1Units >= 1 and trainingExamples >= batchSize >= 1"));
    GraphBuilder b(ops);
    b.setRandomSeed(options.seed);
    TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, kInputNode}), "x-input"));
    TSTUDIO_TRY(yOneHot, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, kOutputNode}), "y-input"));

    const Regularizer regularizer = l2Regularizer(options.regularizationRate);
    std::vector<Variable> params;
    TSTUDIO_TRY(hidden, layer(b, "layer1", x, kInputNode, options.layer1Units, true, regularizer, params));
    TSTUDIO_TRY(y, layer(b, "layer2", hidden, options.layer1Units, kOutputNode, false, regularizer, params));

    // global_step = tf.Variable(0, trainable=False)
    TSTUDIO_TRY(stepValue, makeTensorProtoFromInts(tensorflow::DT_INT32, TensorShape::scalar(), std::vector<std::int64_t>{0}));
    TSTUDIO_TRY(globalStep, variable(b, stepValue, "Variable", /*trainable=*/false));

    training::ExponentialMovingAverage averages(options.movingAverageDecay, globalStep.value());
    TSTUDIO_TRY(averagesOp, averages.apply(b, trainableVariables(b)));

    TSTUDIO_TRY(labelAxis, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "ArgMax/dimension"));
    TSTUDIO_TRY(labels, ops::firstOutput(b.op("ArgMax", {yOneHot, labelAxis}, {}, "ArgMax")));
    TSTUDIO_TRY(crossEntropy, nn::sparseSoftmaxCrossEntropyWithLogits(b, labels, y));
    TSTUDIO_TRY(meanAxes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
    TSTUDIO_TRY(crossEntropyMean, ops::firstOutput(b.op("Mean", {crossEntropy, meanAxes}, {}, "Mean")));
    std::vector<Output> penalties;
    for (const CollectionItem& item : b.collections().get("losses"))
        if (const auto* t = std::get_if<Output>(&item))
            penalties.push_back(*t);
    TSTUDIO_TRY(penalty, ops::firstOutput(b.op("AddN", {penalties}, {}, "AddN")));
    TSTUDIO_TRY(loss, ops::add(b, crossEntropyMean, penalty, "add"));

    TSTUDIO_TRY(learningRate, training::exponentialDecay(b, options.learningRateBase, globalStep.value(),
                                                           options.trainingExamples / options.batchSize,
                                                           options.learningRateDecay, /*staircase=*/true));
    training::GradientDescentOptimizer optimizer(learningRate);
    TSTUDIO_TRY(trainStep, optimizer.minimize(b, loss, globalStep));
    Operation train;
    {
        ScopeGuard deps = b.controlDependencies({trainStep, averagesOp});
        TSTUDIO_TRY(noOp, ops::noOp(b, "train"));
        train = noOp;
    }

    TSTUDIO_TRY(accuracy, accuracyOf(b, y, yOneHot, "accuracy"));
    std::vector<Output> averaged;
    for (const Variable& v : params) {
        std::optional<Variable> shadow = averages.average(v);
        if (!shadow)
            return unexpected(internalError("book MNIST network: no moving average for " + v.name()));
        averaged.push_back(shadow->value());
    }
    TSTUDIO_TRY(averageY, inferenceWith(b, "average_inference", x, averaged));
    TSTUDIO_TRY(evalAccuracy, accuracyOf(b, averageY, yOneHot, "average_accuracy"));
    TSTUDIO_TRY(init, globalVariablesInitializer(b));

    ClassifierGraph out;
    out.graph = b.toGraphDef();
    out.inputs = x.name();
    out.labels = yOneHot.name();
    out.labelDepth = kOutputNode;
    out.train = train.name();
    out.init = init.name();
    out.loss = loss.name();
    out.accuracy = accuracy.name();
    out.evalAccuracy = evalAccuracy.name();
    out.globalStep = globalStep.value().name();
    return out;
}

} // namespace tstudio::examples
