// The layer catalogue: layer node types, their parameters and checks, and their expansion into the
// ops TensorFlow 1.15's tf.layers, tf.nn, tf.losses and tf.train build (through layers/, losses/, training/).
#include "layers/layer_catalog.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "layers/activation.h"
#include "layers/batch_normalization.h"
#include "layers/cond_node.h"
#include "layers/conv2d.h"
#include "layers/conv2d_transpose.h"
#include "layers/data_source_nodes.h"
#include "layers/dense.h"
#include "layers/recurrent_nodes.h"
#include "layers/dropout.h"
#include "layers/flatten.h"
#include "layers/layer_scope.h"
#include "layers/loss_ports.h"
#include "layers/sampled_loss_nodes.h"
#include "layers/pooling.h"
#include "layers/summary_nodes.h"
#include "losses/losses.h"
#include "losses/regularizers.h"
#include "training/adagrad.h"
#include "training/adam.h"
#include "training/lazy_adam.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/learning_rate_decay.h"
#include "training/momentum.h"
#include "training/rmsprop.h"
#include "training/update_ops.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <optional>
#include <regex>

namespace tstudio::layers {
namespace {

using tensorflow::AttrValue;
using ParamMap = std::map<std::string, AttrValue>;

// --- Building the catalogue ----------------------------------------------------------------------------

AttrValue intsValue(std::initializer_list<std::int64_t> values)
{
    AttrValue v;
    auto* list = v.mutable_list();
    for (std::int64_t x : values)
        list->add_i(x);
    return v;
}

LayerParam param(std::string name, AttrValue value, std::string doc, std::vector<std::string> choices = {})
{
    return LayerParam{std::move(name), std::move(value), std::move(doc), std::move(choices)};
}

const std::vector<std::string> kActivations{"none",     "relu",     "relu6",   "elu",  "selu",
                                            "softplus", "softsign", "sigmoid", "tanh", "softmax"};
const std::vector<std::string> kInitializers{"glorot_uniform", "glorot_normal", "he_normal",        "he_uniform",
                                             "lecun_normal",   "lecun_uniform", "truncated_normal", "random_normal",
                                             "zeros",          "ones",          "constant",    "uniform_unit_scaling"};
const std::vector<std::string> kReductions{"none", "weighted_sum", "weighted_sum_over_batch_size", "weighted_mean",
                                           "weighted_sum_by_nonzero_weights"};

/// kernel_* and bias_* parameters shared by Dense and Conv2D.
void addWeightParams(std::vector<LayerParam>& params)
{
    params.push_back(param("activation", attr::s("none"), "Applied to the output (tf.nn.<name>).", kActivations));
    params.push_back(param("use_bias", attr::b(true), "Add a bias vector."));
    params.push_back(param("kernel_initializer", attr::s("glorot_uniform"),
                           "tf.get_variable's default glorot_uniform, or another init_ops initializer.",
                           kInitializers));
    params.push_back(param("kernel_init_stddev", attr::f(1.0f), "stddev of a (truncated_)normal kernel initializer."));
    params.push_back(param("kernel_init_value", attr::f(0.0f), "value of a constant kernel initializer."));
    params.push_back(param("bias_initializer", attr::s("zeros"), "Initializer of the bias.", kInitializers));
    params.push_back(param("bias_init_stddev", attr::f(1.0f), "stddev of a (truncated_)normal bias initializer."));
    params.push_back(param("bias_init_value", attr::f(0.0f), "value of a constant bias initializer."));
    params.push_back(param("kernel_regularizer_l2", attr::f(0.0f),
                           "scale of tf.contrib.layers.l2_regularizer on the kernel (0: none)."));
}

std::vector<LayerParam> poolParams()
{
    return {param("pool_size", intsValue({2, 2}), "Window (height, width); one int for both."),
            param("strides", intsValue({2, 2}), "Strides (height, width); one int for both."),
            param("padding", attr::s("valid"), "Padding.", {"valid", "same"}),
            param("data_format", attr::s("channels_last"), "NHWC or NCHW.", {"channels_last", "channels_first"})};
}

std::vector<LayerParam> lossParams()
{
    return {param("reduction", attr::s("weighted_sum_by_nonzero_weights"), "tf.losses.Reduction.", kReductions),
            param("total_loss", attr::b(true),
                  "Output tf.losses.get_total_loss(): all losses and regularization losses so far.")};
}

std::vector<LayerParam> optimizerParams(double learningRate, std::vector<LayerParam> extra)
{
    std::vector<LayerParam> params{param("learning_rate", attr::f(static_cast<float>(learningRate)), "Learning rate.")};
    params.insert(params.end(), extra.begin(), extra.end());
    params.push_back(param("global_step", attr::s("global_step"),
                           "global_step: tf.train.get_or_create_global_step(); Variable: tf.Variable(0, "
                           "trainable=False) as the book; none: no step.",
                           {"global_step", "Variable", "none"}));
    params.push_back(param("lr_decay", attr::s("none"), "tf.train.exponential_decay of the learning rate.",
                           {"none", "exponential"}));
    params.push_back(param("decay_steps", attr::i(1000), "exponential_decay's decay_steps."));
    params.push_back(param("decay_rate", attr::f(0.96f), "exponential_decay's decay_rate."));
    params.push_back(param("staircase", attr::b(false), "Floor step / decay_steps."));
    params.push_back(param("var_list", attr::s(""),
                           "Train only the trainable variables whose names match this regular expression from "
                           "the start (minimize(var_list=...)); empty: all of them."));
    return params;
}

LayerType makeType(std::string type, std::string category, std::string doc, int inputs, int outputs,
                   std::vector<LayerParam> params, std::vector<std::string> inputNames,
                   std::vector<std::string> outputNames)
{
    return LayerType{std::move(type), std::move(category), std::move(doc),        inputs,
                     outputs,         std::move(params),   std::move(inputNames), std::move(outputNames)};
}

LayerType activationType(std::string type, std::string doc, std::vector<LayerParam> params = {})
{
    return makeType(std::move(type), "Activations", std::move(doc), 1, 1, std::move(params), {"features"}, {"output"});
}

std::vector<LayerType> buildCatalog()
{
    std::vector<LayerType> c;
    LayerType input = makeType("Input", "Input", "tf.placeholder(dtype, shape): a tensor fed at run time.", 0, 1,
                               {param("dtype", attr::type(tensorflow::DT_FLOAT), "Element type."),
                                param("shape", attr::shape(TensorShape::unknown()), "Shape; -1 for a free dimension.")},
                               {}, {"output"});
    input.bindingNames = {"data"}; // fed from a data-source node's component when connected
    c.push_back(std::move(input));
    c.push_back(
        makeType("Dataset", "Input",
                 "MNIST examples fed by the runner from a project data source: placeholders "
                 "<name>/images and <name>/labels.",
                 0, 2,
                 {param("source", attr::s("mnist"), "The data source kind.", {"mnist"}),
                  param("labels", attr::s("sparse"), "int64 class ids or float32 one-hot rows.", {"sparse", "one_hot"}),
                  param("scale", attr::b(true), "float32 pixels in [0, 1] (false: uint8).")},
                 {}, {"images", "labels"}));
    for (LayerType& source : dataSourceLayerTypes()) // MnistSource, ..., TfRecordSource (data_source_nodes.h)
        c.push_back(std::move(source));

    std::vector<LayerParam> dense{param("units", attr::i(10), "Output size.")};
    addWeightParams(dense);
    dense.push_back(param("kernel_name", attr::s("kernel"), "Variable name of the kernel (the book: weights)."));
    dense.push_back(param("bias_name", attr::s("bias"), "Variable name of the bias (the book: biases)."));
    dense.push_back(
        param("bias_op", attr::s("BiasAdd"), "BiasAdd as tf.layers, or Add as `x + b`.", {"BiasAdd", "Add"}));
    dense.push_back(param("scope", attr::s("layer"),
                          "layer: tf.layers.dense; variable_scope: tf.variable_scope + tf.get_variable as the book.",
                          {"layer", "variable_scope"}));
    c.push_back(makeType("Dense", "Layers", "tf.layers.dense: activation(inputs . kernel + bias).", 1, 1,
                         std::move(dense), {"inputs"}, {"output"}));
    for (LayerType& recurrent : recurrentLayerTypes()) // Embedding, RNN (recurrent_nodes.h)
        c.push_back(std::move(recurrent));

    std::vector<LayerParam> conv{
        param("filters", attr::i(32), "Output channels."),
        param("kernel_size", intsValue({3, 3}), "Window (height, width); one int for both."),
        param("strides", intsValue({1, 1}), "Strides (height, width); one int for both."),
        param("padding", attr::s("valid"), "Padding.", {"valid", "same"}),
        param("data_format", attr::s("channels_last"), "NHWC or NCHW.", {"channels_last", "channels_first"})};
    addWeightParams(conv);
    std::vector<LayerParam> deconv = conv; // tf.layers.conv2d_transpose takes conv2d's arguments and defaults
    c.push_back(makeType("Conv2D", "Layers", "tf.layers.conv2d: a 2-D convolution with bias and activation.", 1, 1,
                         std::move(conv), {"inputs"}, {"output"}));
    c.push_back(makeType("Conv2DTranspose", "Layers",
                         "tf.layers.conv2d_transpose: a transposed 2-D convolution (upsampling by the strides) with "
                         "bias and activation.",
                         1, 1, std::move(deconv), {"inputs"}, {"output"}));
    c.push_back(makeType("MaxPool", "Layers", "tf.layers.max_pooling2d.", 1, 1, poolParams(), {"inputs"}, {"output"}));
    c.push_back(
        makeType("AvgPool", "Layers", "tf.layers.average_pooling2d.", 1, 1, poolParams(), {"inputs"}, {"output"}));
    c.push_back(makeType("BatchNorm", "Layers", "tf.layers.batch_normalization with moving statistics.", 1, 1,
                         {param("axis", attr::i(-1), "The feature axis."),
                          param("momentum", attr::f(0.99f), "Of the moving averages."),
                          param("epsilon", attr::f(1e-3f), "Added to the variance."),
                          param("center", attr::b(true), "Learn beta."), param("scale", attr::b(true), "Learn gamma."),
                          param("learning_phase", attr::b(true),
                                "Train or infer as the graph's learning_phase tensor says: training unless "
                                "evaluation, export or freeze feed it false (off: the fixed 'training' value)."),
                          param("training", attr::b(false),
                                "Normalise with the batch's statistics and update the "
                                "moving ones (UPDATE_OPS).")},
                         {"inputs"}, {"output"}));
    c.push_back(makeType("Dropout", "Layers", "tf.layers.dropout: inverted dropout while training.", 1, 1,
                         {param("rate", attr::f(0.5f), "Fraction dropped, in [0, 1)."),
                          param("learning_phase", attr::b(true),
                                "Drop while the graph's learning_phase tensor says training, pass through when "
                                "evaluation, export or freeze feed it false (off: the fixed 'training' value)."),
                          param("training", attr::b(false), "Drop (true) or pass through (false).")},
                         {"inputs"}, {"output"}));
    c.push_back(makeType("Flatten", "Layers", "tf.layers.flatten: [batch, ...] -> [batch, n].", 1, 1,
                         {param("data_format", attr::s("channels_last"), "channels_first moves channels last first.",
                                {"channels_last", "channels_first"})},
                         {"inputs"}, {"output"}));
    c.push_back(makeType("Reshape", "Layers", "tf.reshape(tensor, shape).", 1, 1,
                         {param("shape", intsValue({-1}), "The new shape; one -1 is inferred.")}, {"tensor"},
                         {"output"}));
    c.push_back(makeType("Concat", "Layers", "tf.concat(values, axis) of two or more tensors.", -1, 1,
                         {param("axis", attr::i(-1), "The axis joined along; negative counts from the end.")},
                         {"values"}, {"output"}));
    c.push_back(makeType("Add", "Layers", "tf.add_n(inputs), or tf.add(x, y).", -1, 1,
                         {param("op", attr::s("AddN"), "AddN of any number, or Add of exactly two.", {"AddN", "Add"})},
                         {"inputs"}, {"sum"}));
    c.push_back(condLayerType()); // tf.cond of two values (layers/cond_node.h)

    c.push_back(activationType("Relu", "tf.nn.relu: max(x, 0)."));
    c.push_back(activationType("Relu6", "tf.nn.relu6: min(max(x, 0), 6)."));
    c.push_back(activationType("Elu", "tf.nn.elu: exp(x) - 1 below zero, x above."));
    c.push_back(activationType("Sigmoid", "tf.sigmoid: 1 / (1 + exp(-x))."));
    c.push_back(activationType("Tanh", "tf.tanh."));
    c.push_back(activationType("Softmax", "tf.nn.softmax over the last axis."));
    c.push_back(activationType("LeakyRelu", "tf.nn.leaky_relu: x above zero, alpha * x below.",
                               {param("alpha", attr::f(0.2f), "Slope below zero.")}));

    std::vector<LayerParam> xent{
        param("sparse", attr::b(false), "Labels are class ids (sparse_softmax_cross_entropy)."),
        param("label_smoothing", attr::f(0.0f), "Smooth one-hot labels (not with sparse).")};
    for (LayerParam& p : lossParams())
        xent.push_back(std::move(p));
    c.push_back(makeType("SoftmaxCrossEntropy", "Losses", "tf.losses.softmax_cross_entropy(onehot_labels, logits).", 2,
                         1, std::move(xent), {"labels", "logits"}, {"loss"}));
    c.push_back(makeType("SparseSoftmaxCrossEntropy", "Losses",
                         "tf.losses.sparse_softmax_cross_entropy(labels, logits): int32/int64 class ids.", 2, 1,
                         lossParams(), {"labels", "logits"}, {"loss"}));
    c.push_back(makeType("MeanSquaredError", "Losses", "tf.losses.mean_squared_error(labels, predictions).", 2, 1,
                         lossParams(), {"labels", "predictions"}, {"loss"}));
    for (LayerType& loss : sampledLossLayerTypes()) // NCELoss, SampledSoftmaxLoss, SequenceLoss
        c.push_back(std::move(loss));

    c.push_back(makeType("GradientDescent", "Training", "tf.train.GradientDescentOptimizer(...).minimize(loss).", 1, 0,
                         optimizerParams(0.01, {}), {"loss"}, {}));
    c.push_back(makeType("Momentum", "Training", "tf.train.MomentumOptimizer(...).minimize(loss).", 1, 0,
                         optimizerParams(0.01, {param("momentum", attr::f(0.9f), "Momentum."),
                                                param("use_nesterov", attr::b(false), "Nesterov momentum.")}),
                         {"loss"}, {}));
    c.push_back(makeType("Adam", "Training", "tf.train.AdamOptimizer(...).minimize(loss).", 1, 0,
                         optimizerParams(0.001, {param("beta1", attr::f(0.9f), "Decay of the first moment."),
                                                 param("beta2", attr::f(0.999f), "Decay of the second moment."),
                                                 param("epsilon", attr::f(1e-8f), "Added to the denominator.")}),
                         {"loss"}, {}));
    c.push_back(makeType("LazyAdam", "Training",
                         "tf.contrib.opt.LazyAdamOptimizer(...).minimize(loss): Adam whose embedding updates "
                         "move only the rows a step looks up.",
                         1, 0,
                         optimizerParams(0.001, {param("beta1", attr::f(0.9f), "Decay of the first moment."),
                                                 param("beta2", attr::f(0.999f), "Decay of the second moment."),
                                                 param("epsilon", attr::f(1e-8f), "Added to the denominator.")}),
                         {"loss"}, {}));
    c.push_back(makeType("RMSProp", "Training", "tf.train.RMSPropOptimizer(...).minimize(loss).", 1, 0,
                         optimizerParams(0.001, {param("decay", attr::f(0.9f), "Discount of the gradient history."),
                                                 param("momentum", attr::f(0.0f), "Momentum."),
                                                 param("epsilon", attr::f(1e-10f), "Added to the denominator.")}),
                         {"loss"}, {}));
    c.push_back(makeType("Adagrad", "Training", "tf.train.AdagradOptimizer(...).minimize(loss).", 1, 0,
                         optimizerParams(0.01, {param("initial_accumulator_value", attr::f(0.1f),
                                                      "Starting value of the accumulators (positive).")}),
                         {"loss"}, {}));
    for (LayerType& summary : summaryLayerTypes()) // ScalarSummary, ..., TextSummary (summary_nodes.h)
        c.push_back(std::move(summary));
    addLayerSummaryParam(c); // "summaries" on the layers with weights
    return c;
}

// --- Parameters ----------------------------------------------------------------------------------------

std::string kindName(AttrValue::ValueCase kind)
{
    switch (kind) {
    case AttrValue::kS: return "a string";
    case AttrValue::kI: return "an int";
    case AttrValue::kF: return "a float";
    case AttrValue::kB: return "a bool";
    case AttrValue::kType: return "a dtype";
    case AttrValue::kShape: return "a shape";
    case AttrValue::kList: return "a list of ints";
    default: return "no value";
    }
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

/// A float as Python prints a short one ("0.5", "1", "1e-08").
std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string layerLabel(std::string_view type, std::string_view name)
{
    return name.empty() ? "layer (" + std::string(type) + ")"
                        : "layer '" + std::string(name) + "' (" + std::string(type) + ")";
}

/// A list param that is a 2-D window: one int, or a list of 1 or 2 ints.
bool isPairParam(std::string_view name)
{
    return name == "kernel_size" || name == "strides" || name == "pool_size";
}

/// The params of one node, each given or defaulted; validate() has accepted them.
class Params {
public:
    Params(const LayerType& type, std::string label, const ParamMap& given)
        : m_type(type), m_label(std::move(label)), m_given(given)
    {
    }

    const std::string& label() const { return m_label; }

    Status error(std::string_view name, const std::string& what) const
    {
        return invalidArgumentError(m_label + ": param '" + std::string(name) + "' " + what);
    }

    const AttrValue& at(std::string_view name) const
    {
        if (auto it = m_given.find(std::string(name)); it != m_given.end())
            return it->second;
        for (const LayerParam& p : m_type.params)
            if (p.name == name)
                return p.defaultValue;
        static const AttrValue none;
        return none; // names are the catalogue's own; not reached
    }
    std::int64_t i(std::string_view name) const { return at(name).i(); }
    double f(std::string_view name) const
    {
        const AttrValue& v = at(name);
        return v.value_case() == AttrValue::kI ? static_cast<double>(v.i()) : static_cast<double>(v.f());
    }
    bool b(std::string_view name) const { return at(name).b(); }
    const std::string& s(std::string_view name) const { return at(name).s(); }
    std::vector<std::int64_t> ints(std::string_view name) const
    {
        const AttrValue& v = at(name);
        if (v.value_case() == AttrValue::kI)
            return {v.i()};
        return {v.list().i().begin(), v.list().i().end()};
    }
    std::array<std::int64_t, 2> pair(std::string_view name) const
    {
        const std::vector<std::int64_t> v = ints(name);
        return v.size() == 1 ? std::array<std::int64_t, 2>{v[0], v[0]} : std::array<std::int64_t, 2>{v[0], v[1]};
    }

    /// Unknown names, kinds, choices and ranges.
    Status validate() const
    {
        for (const auto& [name, value] : m_given) {
            // [&name = name]: clang before 16 (the fuzz build) cannot capture a structured binding.
            auto it = std::find_if(m_type.params.begin(), m_type.params.end(),
                                   [&name = name](const LayerParam& p) { return p.name == name; });
            if (it == m_type.params.end()) {
                std::vector<std::string> names;
                for (const LayerParam& p : m_type.params)
                    names.push_back(p.name);
                return invalidArgumentError(m_label + ": unknown param '" + name + "'; expected " +
                                            (names.empty() ? "none" : "one of " + joined(names)));
            }
            const auto want = it->defaultValue.value_case();
            const auto got = value.value_case();
            const bool ok = got == want || (want == AttrValue::kF && got == AttrValue::kI) ||
                            (want == AttrValue::kList && got == AttrValue::kI);
            if (!ok)
                return error(name, "expects " + kindName(want) + ", got " + kindName(got));
            if (got == AttrValue::kList && (value.list().s_size() || value.list().f_size() || value.list().b_size() ||
                                            value.list().type_size() || value.list().shape_size()))
                return error(name, "expects a list of ints");
            if (!it->choices.empty() &&
                std::find(it->choices.begin(), it->choices.end(), value.s()) == it->choices.end())
                return error(name, "must be one of " + joined(it->choices) + "; got '" + value.s() + "'");
        }
        for (const LayerParam& p : m_type.params) {
            const std::string& n = p.name;
            if ((n == "units" || n == "filters" || n == "decay_steps" || n == "vocab_size" || n == "dim" ||
                 n == "layers") &&
                i(n) <= 0)
                return error(n, "must be positive, got " + std::to_string(i(n)));
            if (isPairParam(n)) {
                const std::vector<std::int64_t> v = ints(n);
                if (v.empty() || v.size() > 2)
                    return error(n, "must be one int or a list of 2 ints, got " + std::to_string(v.size()) + " ints");
                for (std::int64_t x : v)
                    if (x <= 0)
                        return error(n, "must hold positive ints, got " + std::to_string(x));
            }
            if (n == "rate" && (f(n) < 0.0 || f(n) >= 1.0))
                return error(n, "must be in [0, 1), got " + number(f(n)));
            if ((n == "kernel_regularizer_l2" || n == "label_smoothing") && f(n) < 0.0)
                return error(n, "must not be negative, got " + number(f(n)));
            if ((n == "initial_accumulator_value" || n == "init_scale") && f(n) <= 0.0)
                return error(n, "must be positive, got " + number(f(n)));
            if ((n == "kernel_name" || n == "bias_name") && s(n).empty())
                return error(n, "must not be empty");
            if (n == "dtype" && at(n).type() == tensorflow::DT_INVALID)
                return error(n, "must be a dtype");
            if (n == "shape") {
                if (at(n).value_case() == AttrValue::kShape) {
                    if (auto shape = TensorShape::fromProto(at(n).shape()); !shape)
                        return error(n, "is not a valid shape: " + shape.error().message());
                } else {
                    const std::vector<std::int64_t> v = ints(n);
                    if (std::count(v.begin(), v.end(), -1) > 1)
                        return error(n, "may hold one -1 at most");
                    for (std::int64_t x : v)
                        if (x < -1)
                            return error(n, "must hold sizes >= -1, got " + std::to_string(x));
                }
            }
        }
        return {};
    }

private:
    const LayerType& m_type;
    std::string m_label;
    const ParamMap& m_given;
};

/// What one expansion works with.
struct Context {
    GraphBuilder& b;
    const Params& p;
    std::string name; ///< as given ("" = the call's default)
    const std::vector<Output>& in;

    std::string nameOr(std::string_view fallback) const { return name.empty() ? std::string(fallback) : name; }
};

Activation activationOf(const std::string& name)
{
    static const std::map<std::string, Activation> kByName{
        {"none", Activation::kNone},         {"relu", Activation::kRelu},       {"relu6", Activation::kRelu6},
        {"elu", Activation::kElu},           {"selu", Activation::kSelu},       {"softplus", Activation::kSoftplus},
        {"softsign", Activation::kSoftsign}, {"sigmoid", Activation::kSigmoid}, {"tanh", Activation::kTanh},
        {"softmax", Activation::kSoftmax}};
    return kByName.at(name); // validated against kActivations
}

/// The initializer `<prefix>_initializer` names, with its stddev / value.
Initializer initializerOf(const Params& p, const std::string& prefix)
{
    const std::string& kind = p.s(prefix + "_initializer");
    const double stddev = p.f(prefix + "_init_stddev");
    if (kind == "glorot_normal")
        return Initializer::glorotNormal();
    if (kind == "he_normal")
        return Initializer::heNormal();
    if (kind == "he_uniform")
        return Initializer::heUniform();
    if (kind == "lecun_normal")
        return Initializer::lecunNormal();
    if (kind == "lecun_uniform")
        return Initializer::lecunUniform();
    if (kind == "truncated_normal")
        return Initializer::truncatedNormal(0.0, stddev);
    if (kind == "random_normal")
        return Initializer::randomNormal(0.0, stddev);
    if (kind == "zeros")
        return Initializer::zeros();
    if (kind == "ones")
        return Initializer::ones();
    if (kind == "constant")
        return Initializer::constant(p.f(prefix + "_init_value"));
    if (kind == "uniform_unit_scaling")
        return Initializer::uniformUnitScaling();
    return Initializer::glorotUniform();
}

Regularizer kernelRegularizerOf(const Params& p)
{
    const double scale = p.f("kernel_regularizer_l2");
    return scale > 0.0 ? l2Regularizer(scale) : Regularizer{};
}

LayerExpansion single(Output out)
{
    return LayerExpansion{{std::move(out)}, {}};
}

// --- Expansions ----------------------------------------------------------------------------------------

Expected<LayerExpansion> expandInput(Context& c)
{
    TSTUDIO_TRY(shape, TensorShape::fromProto(c.p.at("shape").shape()));
    TSTUDIO_TRY(x, ops::placeholder(c.b, c.p.at("dtype").type(), shape, c.nameOr("Placeholder")));
    return single(x);
}

/// A data-source node (data_source_nodes.h): its placeholders, from the params as given.
Expected<LayerExpansion> expandSourceNode(GraphBuilder& b, const LayerType& type, std::string_view name,
                                          const ParamMap& params)
{
    TSTUDIO_TRY(outputs, expandDataSource(b, type.type, name, params));
    return LayerExpansion{std::move(outputs), {}};
}

Expected<LayerExpansion> expandDataset(Context& c)
{
    TSTUDIO_TRY(scope, c.b.nameScope(c.nameOr("dataset")));
    const DataType imageType = c.p.b("scale") ? tensorflow::DT_FLOAT : tensorflow::DT_UINT8;
    TSTUDIO_TRY(images, ops::placeholder(c.b, imageType, TensorShape{-1, 784}, "images"));
    const bool oneHot = c.p.s("labels") == "one_hot";
    TSTUDIO_TRY(labels, ops::placeholder(c.b, oneHot ? tensorflow::DT_FLOAT : tensorflow::DT_INT64,
                                         oneHot ? TensorShape{-1, 10} : TensorShape{-1}, "labels"));
    return LayerExpansion{{images, labels}, {}};
}

/// matmul + bias op + activation of a rank-2 input with the variables already made.
Expected<Output> affine(Context& c, const Output& x, const Variable& kernel, const std::optional<Variable>& bias)
{
    TSTUDIO_TRY(product, ops::matMul(c.b, x, kernel.value()));
    Output y = product;
    if (bias) {
        if (c.p.s("bias_op") == "Add") {
            TSTUDIO_TRY(sum, ops::add(c.b, y, bias->value(), "add"));
            y = sum;
        } else {
            TSTUDIO_TRY(sum, ops::firstOutput(c.b.op("BiasAdd", {y, bias->value()}, {}, "BiasAdd")));
            y = sum;
        }
    }
    return applyActivation(c.b, y, activationOf(c.p.s("activation")));
}

Expected<LayerExpansion> expandDense(Context& c)
{
    const Params& p = c.p;
    const Output& x = c.in[0];
    const bool tfNames = p.s("kernel_name") == "kernel" && p.s("bias_name") == "bias" && p.s("bias_op") == "BiasAdd";
    if (p.s("scope") == "layer" && tfNames) {
        DenseOptions o;
        o.units = p.i("units");
        o.activation = activationOf(p.s("activation"));
        o.useBias = p.b("use_bias");
        o.kernelInitializer = initializerOf(p, "kernel");
        o.biasInitializer = initializerOf(p, "bias");
        o.kernelRegularizer = kernelRegularizerOf(p);
        o.name = c.name;
        TSTUDIO_TRY(y, dense(c.b, x, o));
        return single(y);
    }
    if (x.shape().rank() != 2 || x.shape().dim(1) < 0)
        return unexpected(invalidArgumentError(
            "renamed variables, bias_op Add and scope variable_scope need a rank-2 input with a known last "
            "dimension; got " +
            pythonShapeList(x.shape())));
    if (!isFloating(x.baseDtype()))
        return unexpected(
            invalidArgumentError("Dense needs a floating-point input, got " + dataTypeName(x.baseDtype())));
    const TensorShape kernelShape{x.shape().dim(1), p.i("units")};
    const TensorShape biasShape{p.i("units")};
    std::optional<Variable> bias;
    if (p.s("scope") == "variable_scope") {
        // mnist_inference.py: tf.variable_scope(name) with get_variable, the penalty in the scope.
        TSTUDIO_TRY(guard, variableScope(c.b, c.nameOr("dense")));
        TSTUDIO_TRY(kernel,
                    getVariable(c.b, p.s("kernel_name"), kernelShape, x.baseDtype(), initializerOf(p, "kernel")));
        if (const Regularizer regularizer = kernelRegularizerOf(p)) {
            TSTUDIO_TRY(penalty, regularizer(c.b, kernel.value()));
            c.b.collections().add(graph_keys::kLosses, penalty);
        }
        if (p.b("use_bias")) {
            TSTUDIO_TRY(made, getVariable(c.b, p.s("bias_name"), biasShape, x.baseDtype(), initializerOf(p, "bias")));
            bias = made;
        }
        TSTUDIO_TRY(y, affine(c, x, kernel, bias));
        return single(y);
    }
    TSTUDIO_TRY(layer, LayerScope::enter(c.b, "dense", c.name, Reuse::kFalse));
    TSTUDIO_TRY(kernel, addWeight(c.b, p.s("kernel_name"), kernelShape, x.baseDtype(), initializerOf(p, "kernel"),
                                  kernelRegularizerOf(p), true));
    if (p.b("use_bias")) {
        TSTUDIO_TRY(made, addWeight(c.b, p.s("bias_name"), biasShape, x.baseDtype(), initializerOf(p, "bias"),
                                    Regularizer{}, true));
        bias = made;
    }
    TSTUDIO_TRY(y, affine(c, x, kernel, bias));
    return single(y);
}

/// The params tf.layers.conv2d and conv2d_transpose share, from the node's params.
template <typename ConvOptions>
ConvOptions convOptions(const Context& c)
{
    const Params& p = c.p;
    ConvOptions o;
    o.filters = p.i("filters");
    o.kernelSize = p.pair("kernel_size");
    o.strides = p.pair("strides");
    o.padding = p.s("padding");
    o.dataFormat = p.s("data_format");
    o.activation = activationOf(p.s("activation"));
    o.useBias = p.b("use_bias");
    o.kernelInitializer = initializerOf(p, "kernel");
    o.biasInitializer = initializerOf(p, "bias");
    o.kernelRegularizer = kernelRegularizerOf(p);
    o.name = c.name;
    return o;
}

Expected<LayerExpansion> expandConv2D(Context& c)
{
    TSTUDIO_TRY(y, conv2d(c.b, c.in[0], convOptions<Conv2DOptions>(c)));
    return single(y);
}

Expected<LayerExpansion> expandConv2DTranspose(Context& c)
{
    TSTUDIO_TRY(y, conv2dTranspose(c.b, c.in[0], convOptions<Conv2DTransposeOptions>(c)));
    return single(y);
}

Expected<LayerExpansion> expandPool(Context& c, bool max)
{
    Pooling2DOptions o;
    o.poolSize = c.p.pair("pool_size");
    o.strides = c.p.pair("strides");
    o.padding = c.p.s("padding");
    o.dataFormat = c.p.s("data_format");
    o.name = c.name;
    TSTUDIO_TRY(y, max ? maxPooling2d(c.b, c.in[0], o) : averagePooling2d(c.b, c.in[0], o));
    return single(y);
}

Expected<LayerExpansion> expandBatchNorm(Context& c)
{
    BatchNormalizationOptions o;
    o.axis = {static_cast<int>(c.p.i("axis"))};
    o.momentum = c.p.f("momentum");
    o.epsilon = c.p.f("epsilon");
    o.center = c.p.b("center");
    o.scale = c.p.b("scale");
    o.name = c.name;
    // Documents saved before the param existed follow the learning phase too (its default).
    if (c.p.b("learning_phase")) {
        TSTUDIO_TRY(phase, learningPhase(c.b));
        TSTUDIO_TRY(y, batchNormalization(c.b, c.in[0], o, phase));
        return single(y);
    }
    TSTUDIO_TRY(y, batchNormalization(c.b, c.in[0], o, c.p.b("training")));
    return single(y);
}

Expected<LayerExpansion> expandDropout(Context& c)
{
    DropoutOptions o;
    o.rate = c.p.f("rate");
    o.name = c.name;
    if (c.p.b("learning_phase")) {
        TSTUDIO_TRY(phase, learningPhase(c.b));
        TSTUDIO_TRY(y, dropout(c.b, c.in[0], o, phase));
        return single(y);
    }
    TSTUDIO_TRY(y, dropout(c.b, c.in[0], o, c.p.b("training")));
    return single(y);
}

Expected<LayerExpansion> expandFlatten(Context& c)
{
    FlattenOptions o;
    o.dataFormat = c.p.s("data_format");
    o.name = c.name;
    TSTUDIO_TRY(y, flatten(c.b, c.in[0], o));
    return single(y);
}

Expected<LayerExpansion> expandReshape(Context& c)
{
    const std::vector<std::int64_t> shape = c.p.ints("shape");
    TSTUDIO_TRY(scope, c.b.nameScope(c.nameOr("Reshape")));
    TSTUDIO_TRY(target, ops::constantInts(c.b, shape, TensorShape{static_cast<std::int64_t>(shape.size())},
                                          tensorflow::DT_INT32, "shape"));
    TSTUDIO_TRY(y, ops::reshape(c.b, c.in[0], target, scope.name()));
    return single(y);
}

Expected<LayerExpansion> expandConcat(Context& c)
{
    if (c.in.size() < 2)
        return unexpected(invalidArgumentError("expected at least 2 inputs, got " + std::to_string(c.in.size())));
    TSTUDIO_TRY(scope, c.b.nameScope(c.nameOr("concat")));
    TSTUDIO_TRY(axis, ops::constantInts(c.b, {c.p.i("axis")}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    TSTUDIO_TRY(y, ops::firstOutput(c.b.op("ConcatV2", {OpInput(c.in), axis}, {}, scope.name())));
    return single(y);
}

Expected<LayerExpansion> expandAdd(Context& c)
{
    if (c.p.s("op") == "Add") {
        if (c.in.size() != 2)
            return unexpected(
                invalidArgumentError("op Add expects exactly 2 inputs, got " + std::to_string(c.in.size())));
        TSTUDIO_TRY(y, ops::add(c.b, c.in[0], c.in[1], c.nameOr("Add")));
        return single(y);
    }
    if (c.in.size() == 1) {
        // tf.add_n([x]) is x itself; with a name, an Identity of that name.
        if (c.name.empty())
            return single(c.in[0]);
        TSTUDIO_TRY(y, ops::identity(c.b, c.in[0], c.name));
        return single(y);
    }
    TSTUDIO_TRY(y, ops::firstOutput(c.b.op("AddN", {OpInput(c.in)}, {}, c.nameOr("AddN"))));
    return single(y);
}

Expected<LayerExpansion> expandActivation(Context& c, const std::string& type)
{
    AttrMap attrs;
    if (type == "LeakyRelu")
        attrs["alpha"] = attr::f(static_cast<float>(c.p.f("alpha")));
    TSTUDIO_TRY(y, ops::firstOutput(c.b.op(type, {c.in[0]}, std::move(attrs), c.nameOr(type))));
    return single(y);
}

losses::Reduction reductionOf(const std::string& name)
{
    static const std::map<std::string, losses::Reduction> kByName{
        {"none", losses::Reduction::kNone},
        {"weighted_sum", losses::Reduction::kSum},
        {"weighted_sum_over_batch_size", losses::Reduction::kSumOverBatchSize},
        {"weighted_mean", losses::Reduction::kMean},
        {"weighted_sum_by_nonzero_weights", losses::Reduction::kSumByNonzeroWeights}};
    return kByName.at(name); // validated against kReductions
}

/// SoftmaxCrossEntropy (its `sparse` param kept for old documents), SparseSoftmaxCrossEntropy and
/// MeanSquaredError, their ports checked first (loss_ports.h).
Expected<LayerExpansion> expandLoss(Context& c, const std::string& type)
{
    const bool regression = type == "MeanSquaredError";
    const bool sparse = type == "SparseSoftmaxCrossEntropy" || (type == "SoftmaxCrossEntropy" && c.p.b("sparse"));
    if (type == "SoftmaxCrossEntropy" && sparse && c.p.f("label_smoothing") != 0.0)
        return unexpected(
            c.p.error("label_smoothing", "is not available with sparse labels (tf.losses has none for them)"));
    const LossPorts kind = regression ? LossPorts::kRegression : sparse ? LossPorts::kClassIds : LossPorts::kOneHot;
    if (Status s = checkLossPorts(c.b, kind, c.in[0], c.in[1], regression ? "predictions" : "logits",
                                  type == "SoftmaxCrossEntropy" ? "SoftmaxCrossEntropy with sparse off"
                                                                : "SoftmaxCrossEntropy");
        !s.isOk())
        return unexpected(s);
    losses::LossOptions o;
    o.scope = c.name;
    o.reduction = reductionOf(c.p.s("reduction"));
    Expected<Output> loss = [&]() -> Expected<Output> {
        if (regression)
            return losses::meanSquaredError(c.b, c.in[0], c.in[1], o);
        if (!sparse)
            return losses::softmaxCrossEntropy(c.b, c.in[0], c.in[1], c.p.f("label_smoothing"), o);
        return losses::sparseSoftmaxCrossEntropy(c.b, c.in[0], c.in[1], o);
    }();
    if (!loss)
        return unexpected(loss.error());
    if (!c.p.b("total_loss"))
        return single(*loss);
    TSTUDIO_TRY(total, losses::getTotalLoss(c.b));
    return single(total);
}

Expected<LayerExpansion> expandOptimizer(Context& c, const std::string& type)
{
    const Params& p = c.p;
    std::optional<Variable> step;
    if (p.s("global_step") == "global_step") {
        TSTUDIO_TRY(made, training::getOrCreateGlobalStep(c.b));
        step = made;
    } else if (p.s("global_step") == "Variable") {
        TSTUDIO_TRY(zero,
                    makeTensorProtoFromInts(tensorflow::DT_INT32, TensorShape::scalar(), std::vector<std::int64_t>{0}));
        TSTUDIO_TRY(made, variable(c.b, zero, "Variable", /*trainable=*/false));
        step = made;
    }
    training::Hyper lr = p.f("learning_rate");
    if (p.s("lr_decay") == "exponential") {
        if (!step)
            return unexpected(p.error("lr_decay", "'exponential' needs a global step; global_step is 'none'"));
        TSTUDIO_TRY(decayed, training::exponentialDecay(c.b, p.f("learning_rate"), step->value(), p.i("decay_steps"),
                                                        p.f("decay_rate"), p.b("staircase")));
        lr = decayed;
    }
    const std::string name = c.nameOr(type);
    std::unique_ptr<training::Optimizer> optimizer;
    if (type == "GradientDescent") {
        optimizer = std::make_unique<training::GradientDescentOptimizer>(lr, false, name);
    } else if (type == "Momentum") {
        optimizer =
            std::make_unique<training::MomentumOptimizer>(lr, p.f("momentum"), false, name, p.b("use_nesterov"));
    } else if (type == "Adam") {
        optimizer =
            std::make_unique<training::AdamOptimizer>(lr, p.f("beta1"), p.f("beta2"), p.f("epsilon"), false, name);
    } else if (type == "LazyAdam") {
        optimizer = std::make_unique<training::LazyAdamOptimizer>(lr, p.f("beta1"), p.f("beta2"), p.f("epsilon"),
                                                                  false, name);
    } else if (type == "RMSProp") {
        optimizer = std::make_unique<training::RMSPropOptimizer>(lr, p.f("decay"), p.f("momentum"), p.f("epsilon"),
                                                                 false, false, name);
    } else {
        TSTUDIO_TRY(made, training::AdagradOptimizer::create(lr, p.f("initial_accumulator_value"), false, name));
        optimizer = std::move(made);
    }
    // As TensorFlow 1.x code trains: with tf.control_dependencies(tf.get_collection(UPDATE_OPS)), so
    // that the batch-norm layers before this node update their moving statistics every step.
    std::optional<std::vector<Variable>> varList;
    if (const std::string pattern = p.s("var_list"); !pattern.empty()) {
        std::regex regex;
        try {
            regex = std::regex(pattern);
        } catch (const std::regex_error& e) {
            return unexpected(p.error("var_list", "'" + pattern + "' is not a regular expression: " + e.what()));
        }
        std::string names;
        varList.emplace();
        for (const Variable& v : trainableVariables(c.b)) {
            names += (names.empty() ? "" : ", ") + v.name();
            if (std::regex_search(v.name(), regex, std::regex_constants::match_continuous))
                varList->push_back(v);
        }
        if (varList->empty())
            return unexpected(p.error("var_list", "'" + pattern + "' matches none of the trainable variables (" + names + ")"));
    }
    auto afterUpdates = training::afterUpdateOps(c.b);
    TSTUDIO_TRY(train, optimizer->minimize(c.b, c.in[0], step, varList));
    return LayerExpansion{{}, {train}};
}

Expected<LayerExpansion> expand(Context& c, const std::string& type)
{
    if (type == "Input")
        return expandInput(c);
    if (type == "Dataset")
        return expandDataset(c);
    if (type == "Dense")
        return expandDense(c);
    if (type == "Conv2D")
        return expandConv2D(c);
    if (type == "Conv2DTranspose")
        return expandConv2DTranspose(c);
    if (type == "MaxPool" || type == "AvgPool")
        return expandPool(c, type == "MaxPool");
    if (type == "BatchNorm")
        return expandBatchNorm(c);
    if (type == "Dropout")
        return expandDropout(c);
    if (type == "Flatten")
        return expandFlatten(c);
    if (type == "Reshape")
        return expandReshape(c);
    if (type == "Concat")
        return expandConcat(c);
    if (type == "Add")
        return expandAdd(c);
    if (type == "SoftmaxCrossEntropy" || type == "SparseSoftmaxCrossEntropy" || type == "MeanSquaredError")
        return expandLoss(c, type);
    if (type == "GradientDescent" || type == "Momentum" || type == "Adam" || type == "LazyAdam" || type == "RMSProp" ||
        type == "Adagrad")
        return expandOptimizer(c, type);
    return expandActivation(c, type); // the Activations category
}

} // namespace

const std::vector<LayerType>& layerCatalog()
{
    static const std::vector<LayerType> catalog = buildCatalog();
    return catalog;
}

const AttrValue& paramOrDefault(const LayerType& type, const std::map<std::string, AttrValue>& params, const std::string& name)
{
    if (auto it = params.find(name); it != params.end())
        return it->second;
    for (const LayerParam& p : type.params)
        if (p.name == name)
            return p.defaultValue;
    static const AttrValue none;
    return none;
}

const LayerType* findLayerType(std::string_view type)
{
    for (const LayerType& t : layerCatalog())
        if (t.type == type)
            return &t;
    return nullptr;
}

Status validateLayerParams(std::string_view type, std::string_view name, const ParamMap& params)
{
    const LayerType* t = findLayerType(type);
    if (!t)
        return notFoundError("unknown layer type '" + std::string(type) + "'");
    if (Status s = Params(*t, layerLabel(type, name), params).validate(); !s.isOk())
        return s;
    if (isSummaryType(t->type))
        return checkSummaryParams(type, name, params);
    if (!isDataSourceType(t->type))
        return Status::ok();
    auto components = dataSourceComponents(type, name, params); // the component lists' syntax
    return components ? Status::ok() : components.error();
}

Expected<LayerExpansion> expandLayerNode(GraphBuilder& b, std::string_view type, std::string_view name,
                                         const ParamMap& params, const std::vector<Output>& inputs)
{
    const LayerType* t = findLayerType(type);
    if (!t)
        return unexpected(notFoundError("unknown layer type '" + std::string(type) + "'"));
    const std::string label = layerLabel(type, name);
    const Params p(*t, label, params);
    if (Status s = p.validate(); !s.isOk())
        return unexpected(s);
    const std::size_t count = inputs.size();
    if (t->inputs >= 0 && count != static_cast<std::size_t>(t->inputs))
        return unexpected(invalidArgumentError(label + ": expected " + std::to_string(t->inputs) +
                                               (t->inputs == 1 ? " input" : " inputs") + ", got " +
                                               std::to_string(count)));
    if (t->inputs < 0 && count == 0)
        return unexpected(invalidArgumentError(label + ": expected at least 1 input, got 0"));
    for (std::size_t i = 0; i < count; ++i)
        if (!inputs[i].isValid() || !b.findNode(inputs[i].node()))
            return unexpected(invalidArgumentError(label + ": input " + std::to_string(i) + " ('" + inputs[i].name() +
                                                   "') is not a tensor of this graph"));
    Context context{b, p, std::string(name), inputs};
    Expected<LayerExpansion> result =
        isDataSourceType(t->type) ? expandSourceNode(b, *t, name, params)
        : isSummaryType(t->type)  ? expandSummaryNode(b, t->type, name, params, inputs)
        : t->type == "Cond"       ? expandCondNode(b, name, inputs)
        : isRecurrentType(t->type) ? expandRecurrentNode(b, *t, name, params, inputs)
        : isSampledLossType(t->type) ? expandSampledLossNode(b, *t, name, params, inputs)
                                  : expandWithLayerSummaries(b, *t, params, [&] { return expand(context, t->type); });
    if (!result) {
        const Status& e = result.error();
        if (e.message().rfind(label, 0) == 0)
            return unexpected(e);
        return unexpected(e.withContext(label));
    }
    return result;
}

Expected<std::vector<Output>> expandLayer(GraphBuilder& b, std::string_view type, std::string_view name,
                                          const ParamMap& params, const std::vector<Output>& inputs)
{
    TSTUDIO_TRY(expansion, expandLayerNode(b, type, name, params, inputs));
    return std::move(expansion.outputs);
}

} // namespace tstudio::layers
