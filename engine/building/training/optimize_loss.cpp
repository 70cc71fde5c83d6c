// optimizeLoss: tf.contrib.layers.optimize_loss (see optimize_loss.h).
#include "training/optimize_loss.h"

#include "builder/clip_ops.h"
#include "builder/collections.h"
#include "builder/cond.h"
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "summary/summary.h"
#include "training/adagrad.h"
#include "training/adam.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/momentum.h"
#include "training/rmsprop.h"

#include <algorithm>
#include <cstdio>

namespace tstudio::training {

namespace {

const std::vector<std::string> kSummaries{"learning_rate", "loss", "gradients", "gradient_norm",
                                          "global_gradient_norm"};
const std::vector<std::string> kOptimizerNames{"Adagrad", "Adam", "Ftrl", "Momentum", "RMSProp", "SGD"};

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

bool has(const std::vector<std::string>& items, const std::string& item)
{
    return std::find(items.begin(), items.end(), item) != items.end();
}

/// Python's str() of a float, as TensorFlow's messages print it ("-1.0", "0.5").
std::string pythonFloat(double v)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    std::string s = text;
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(text, sizeof text, "%.*g", precision, v);
        if (std::strtod(text, nullptr) == v) {
            s = text;
            break;
        }
    }
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

/// OPTIMIZER_CLS_NAMES[name](learning_rate=lr).
Expected<std::unique_ptr<Optimizer>> optimizerNamed(const std::string& name, const Output& lr)
{
    if (name == "Adagrad") {
        auto adagrad = AdagradOptimizer::create(lr);
        if (!adagrad)
            return unexpected(adagrad.error());
        return std::unique_ptr<Optimizer>(std::move(*adagrad));
    }
    if (name == "Adam")
        return std::unique_ptr<Optimizer>(std::make_unique<AdamOptimizer>(lr));
    if (name == "Momentum")
        return std::unique_ptr<Optimizer>(std::make_unique<MomentumOptimizer>(lr, 0.9));
    if (name == "RMSProp")
        return std::unique_ptr<Optimizer>(std::make_unique<RMSPropOptimizer>(lr));
    if (name == "SGD")
        return std::unique_ptr<Optimizer>(std::make_unique<GradientDescentOptimizer>(lr));
    return unexpected(unimplementedError("optimizer 'Ftrl': FtrlOptimizer is not available in this build"));
}

/// The values of a gradient (an IndexedSlices' values).
Output valuesOf(const Gradient& g)
{
    return g.isSparse() ? g.sparse().values : g.dense();
}

std::vector<std::optional<Output>> gradientValues(const std::vector<SparseGradAndVar>& grads)
{
    std::vector<std::optional<Output>> values;
    for (const auto& [g, v] : grads)
        values.push_back(g ? std::optional<Output>(valuesOf(*g)) : std::nullopt);
    return values;
}

/// A gradient with its values replaced (an IndexedSlices keeps its indices).
Gradient withValues(const Gradient& g, const Output& values)
{
    if (!g.isSparse())
        return Gradient(values);
    IndexedSlices s = g.sparse();
    s.values = values;
    return Gradient(std::move(s));
}

} // namespace

Expected<Output> optimizeLoss(GraphBuilder& b, const Output& lossIn, const OptimizeLossOptions& o)
{
    const TensorShape& lossShape = lossIn.shape();
    if (!lossShape.isUnknownRank() && lossShape.rank() != 0)
        return unexpected(invalidArgumentError("Expected scalar shape for " + lossIn.name() +
                                               ", saw shape: " + lossShape.toString() + "."));
    std::optional<Variable> globalStep = o.globalStep;
    if (!globalStep) {
        auto found = getGlobalStep(b);
        if (!found)
            return unexpected(found.error());
        globalStep = *found;
    }
    auto scope = o.name.empty() ? variableScopeWithDefaultName(b, "OptimizeLoss") : variableScope(b, o.name);
    if (!scope)
        return unexpected(scope.error());

    Output loss = lossIn;
    std::vector<Operation> updateOps;
    if (o.updateOps) {
        updateOps = *o.updateOps;
    } else {
        for (const CollectionItem& item : b.collections().get(graph_keys::kUpdateOps))
            if (const auto* op = std::get_if<Operation>(&item))
                updateOps.push_back(*op);
    }
    if (!updateOps.empty()) {
        auto after = withDependencies(b, updateOps, loss);
        if (!after)
            return unexpected(after.error());
        loss = *after;
    }

    std::optional<Output> lr;
    if (const double* value = std::get_if<double>(&o.learningRate)) {
        if (*value < 0.0)
            return unexpected(invalidArgumentError("Invalid learning_rate " + pythonFloat(*value) + "."));
        auto variable = getVariable(b, "learning_rate", TensorShape::scalar(), tensorflow::DT_FLOAT,
                                    Initializer::constant(*value), false);
        if (!variable)
            return unexpected(variable.error());
        lr = variable->value();
    } else if (const Output* tensor = std::get_if<Output>(&o.learningRate)) {
        if (tensor->shape().isUnknownRank() || tensor->shape().rank() != 0)
            return unexpected(invalidArgumentError("Learning rate should be 0d Tensor or float. Got " +
                                                   tensor->name() + " of shape " + tensor->shape().toString()));
        lr = *tensor;
    }
    const std::vector<std::string> summaries =
        o.summaries ? *o.summaries : std::vector<std::string>{"loss", "learning_rate", "global_gradient_norm"};
    for (const std::string& s : summaries)
        if (!has(kSummaries, s))
            return unexpected(invalidArgumentError("Summaries should be one of [" + joined(kSummaries) +
                                                   "], you provided " + s + "."));
    if (lr && o.learningRateDecay) {
        if (!globalStep)
            return unexpected(invalidArgumentError("global_step is required for learning_rate_decay_fn."));
        auto decayed = o.learningRateDecay(b, *lr, globalStep->value());
        if (!decayed)
            return unexpected(decayed.error());
        lr = *decayed;
        if (has(summaries, "learning_rate") && !summary::scalar(b, "learning_rate", *lr))
            return unexpected(internalError("the learning_rate summary could not be made"));
    }

    std::unique_ptr<Optimizer> optimizer;
    if (o.makeOptimizer) {
        auto made = o.makeOptimizer(lr);
        if (!made)
            return unexpected(made.error());
        optimizer = std::move(*made);
    } else {
        if (!lr)
            return unexpected(invalidArgumentError(
                "Learning rate is None, but should be specified if optimizer is string (" + o.optimizer + ")."));
        if (!has(kOptimizerNames, o.optimizer))
            return unexpected(invalidArgumentError("Optimizer name should be one of [" + joined(kOptimizerNames) +
                                                   "], you provided " + o.optimizer + "."));
        auto made = optimizerNamed(o.optimizer, *lr);
        if (!made)
            return unexpected(made.error());
        optimizer = std::move(*made);
    }

    auto computed = optimizer->computeGradientsWithSlices(b, loss, o.variables, GateGradients::kOp,
                                                          o.colocateGradientsWithOps);
    if (!computed)
        return unexpected(computed.error());
    std::vector<SparseGradAndVar> grads = std::move(*computed);

    if (o.gradientNoiseScale) {
        for (auto& [g, v] : grads) {
            if (!g)
                continue;
            const Output values = valuesOf(*g);
            auto noise = ops::truncatedNormal(b, values.shape(), 0.0, 1.0, values.dtype());
            auto scaled = noise ? py::binary(b, py::Operator::kMul, *noise, *o.gradientNoiseScale) : noise;
            auto noisy = scaled ? py::binary(b, py::Operator::kAdd, values, *scaled) : scaled;
            if (!noisy)
                return unexpected(noisy.error());
            g = withValues(*g, *noisy);
        }
    }
    if (!o.gradientMultipliers.empty()) {
        for (auto& [g, v] : grads) {
            auto it = o.gradientMultipliers.find(v.name());
            if (it == o.gradientMultipliers.end())
                it = o.gradientMultipliers.find(v.name() + ":0");
            if (!g || it == o.gradientMultipliers.end())
                continue;
            const Output values = valuesOf(*g);
            auto multiplied = py::binary(b, py::Operator::kMul, values, it->second);
            if (!multiplied)
                return unexpected(multiplied.error());
            g = withValues(*g, *multiplied);
        }
        if (grads.empty())
            return unexpected(invalidArgumentError(
                "Empty list of (gradient, var) pairs encountered. This is most likely to be caused by an improper "
                "value of gradient_multipliers."));
    }
    const bool norms = has(summaries, "global_gradient_norm") || has(summaries, "gradient_norm");
    if (norms) {
        auto norm = globalNorm(b, gradientValues(grads));
        if (!norm || !summary::scalar(b, "global_norm/gradient_norm", *norm))
            return unexpected(norm ? internalError("the gradient norm summary could not be made") : norm.error());
    }
    if (o.clipGradients) {
        std::vector<std::optional<Gradient>> list;
        for (const auto& [g, v] : grads)
            list.push_back(g);
        auto clipped = clipByGlobalNormWithSlices(b, list, *o.clipGradients);
        if (!clipped)
            return unexpected(clipped.error());
        for (std::size_t i = 0; i < grads.size(); ++i)
            grads[i].first = clipped->first[i];
    }
    if (has(summaries, "loss")) {
        if (auto s = summary::scalar(b, "loss", loss); !s)
            return unexpected(s.error());
    }
    for (const auto& [g, v] : grads) {
        if (!g)
            continue;
        const Output values = valuesOf(*g);
        const std::string varName = v.name() + "_0"; // variable.name with ':' replaced
        if (has(summaries, "gradients")) {
            if (auto s = summary::histogram(b, "gradients/" + varName, values); !s)
                return unexpected(s.error());
        }
        if (has(summaries, "gradient_norm")) {
            auto norm = globalNorm(b, {values});
            if (!norm)
                return unexpected(norm.error());
            if (auto s = summary::scalar(b, "gradient_norm/" + varName, *norm); !s)
                return unexpected(s.error());
        }
    }
    if (o.clipGradients && norms) {
        auto norm = globalNorm(b, gradientValues(grads));
        if (!norm)
            return unexpected(norm.error());
        if (auto s = summary::scalar(b, "global_norm/clipped_gradient_norm", *norm); !s)
            return unexpected(s.error());
    }
    auto train = optimizer->applyGradientsWithSlices(b, grads, o.incrementGlobalStep ? globalStep : std::nullopt,
                                                     "train");
    if (!train)
        return unexpected(train.error());
    return withDependencies(b, {*train}, loss);
}

} // namespace tstudio::training
