// The learning-rate schedules with TensorFlow 1.15's formulas, dtypes and node names (learning_rate_schedule.py).
#include "training/learning_rate_decay.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "framework/op_registry.h"

#include <numbers>
#include <variant>

namespace tstudio::training {
namespace {

constexpr DataType kFloat = tensorflow::DT_FLOAT;

/// math_ops.cast(python number, dtype): the number becomes "Cast/x" (int32 for an int, float32 for
/// a float) and a Cast named "Cast" follows only when that is not already `dtype`.
Expected<Output> castNumber(GraphBuilder& b, std::variant<std::int64_t, double> number, DataType dtype)
{
    auto scope = b.nameScope("Cast");
    if (!scope)
        return unexpected(scope.error());
    Expected<Output> x =
        std::holds_alternative<std::int64_t>(number)
            ? ops::constantInts(b, {std::get<std::int64_t>(number)}, TensorShape::scalar(), tensorflow::DT_INT32, "x")
            : ops::constant(b, std::get<double>(number), kFloat, "x");
    if (!x || x->baseDtype() == dtype)
        return x;
    return py::genOp(b, "Cast", {*x}, {{"DstT", attr::type(dtype)}, {"Truncate", attr::b(false)}}, scope->name());
}

Status checkStep(const Output& step, std::string_view schedule)
{
    if (step.isValid())
        return Status::ok();
    return invalidArgumentError("global_step is required for " + std::string(schedule) + ".");
}

/// The common start of the schedules: the scope, "initial_learning_rate".
struct Start {
    ScopeGuard scope;
    Output initial;
};

Expected<Start> start(GraphBuilder& b, double learningRate, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto initial = ops::constant(b, learningRate, kFloat, "initial_learning_rate");
    if (!initial)
        return unexpected(initial.error());
    return Start{std::move(*scope), *initial};
}

/// step / decay_steps, floored when `staircase`: the shared middle of exponential and inverse time.
Expected<Output> decayExponent(GraphBuilder& b, const Output& step, const Output& decaySteps, bool staircase)
{
    TSTUDIO_AD_TRY(p, py::binary(b, py::Operator::kTrueDiv, step, decaySteps));
    if (!staircase)
        return p;
    return py::genOp(b, "Floor", {p});
}

} // namespace

Expected<Output> exponentialDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                  std::int64_t decaySteps, double decayRate, bool staircase, std::string_view name)
{
    TSTUDIO_AD_CHECK(checkStep(globalStep, "exponential_decay"));
    TSTUDIO_AD_TRY(s, start(b, learningRate, name));
    TSTUDIO_AD_TRY(steps, castNumber(b, decaySteps, kFloat));
    TSTUDIO_AD_TRY(rate, castNumber(b, decayRate, kFloat));
    TSTUDIO_AD_TRY(step, py::cast(b, globalStep, kFloat));
    TSTUDIO_AD_TRY(p, decayExponent(b, step, steps, staircase));
    TSTUDIO_AD_TRY(pow, py::genOp(b, "Pow", {rate, p}));
    return py::genOp(b, "Mul", {s.initial, pow}, {}, s.scope.name());
}

Expected<Output> piecewiseConstant(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& boundaries,
                                   const std::vector<double>& values, std::string_view name)
{
    if (!x.isValid())
        return unexpected(invalidArgumentError("piecewise_constant needs a step tensor"));
    if (boundaries.size() + 1 != values.size() || boundaries.empty())
        return unexpected(invalidArgumentError("The length of boundaries should be 1 less than the length of values"));
    // convert_to_tensor of each boundary and value, outside the schedule's scope, then the casts.
    std::vector<Output> bounds;
    std::vector<Output> vals;
    for (std::int64_t boundary : boundaries) {
        TSTUDIO_AD_TRY(c, ops::constantInts(b, {boundary}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));
        bounds.push_back(c);
    }
    for (double value : values) {
        TSTUDIO_AD_TRY(c, ops::constant(b, value, kFloat, "Const"));
        vals.push_back(c);
    }
    for (Output& bound : bounds) {
        TSTUDIO_AD_TRY(c, py::cast(b, bound, x.baseDtype()));
        bound = c;
    }
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<std::pair<Output, Output>> pairs; // (predicate, value) in TensorFlow's order
    TSTUDIO_AD_TRY(first, py::genOp(b, "LessEqual", {x, bounds.front()}));
    pairs.emplace_back(first, vals.front());
    TSTUDIO_AD_TRY(last, py::genOp(b, "Greater", {x, bounds.back()}));
    pairs.emplace_back(last, vals.back());
    for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
        TSTUDIO_AD_TRY(above, py::genOp(b, "Greater", {x, bounds[i]}));
        TSTUDIO_AD_TRY(below, py::genOp(b, "LessEqual", {x, bounds[i + 1]}));
        TSTUDIO_AD_TRY(both, py::genOp(b, "LogicalAnd", {above, below}));
        pairs.emplace_back(both, vals[i + 1]);
    }
    // The predicates are exclusive and exhaustive: select from the last to the first, default values[0].
    Output result = vals.front();
    for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
        TSTUDIO_AD_TRY(picked, py::where(b, it->first, it->second, result));
        result = picked;
    }
    return result;
}

Expected<Output> polynomialDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                 std::int64_t decaySteps, double endLearningRate, double power, bool cycle,
                                 std::string_view name)
{
    TSTUDIO_AD_CHECK(checkStep(globalStep, "polynomial_decay"));
    TSTUDIO_AD_TRY(s, start(b, learningRate, name));
    TSTUDIO_AD_TRY(end, castNumber(b, endLearningRate, kFloat));
    TSTUDIO_AD_TRY(exponent, castNumber(b, power, kFloat));
    TSTUDIO_AD_TRY(step, py::cast(b, globalStep, kFloat));
    TSTUDIO_AD_TRY(steps, castNumber(b, decaySteps, kFloat));
    if (cycle) {
        TSTUDIO_AD_TRY(atZero, py::genOpScalarY(b, "Equal", step, 0.0));
        TSTUDIO_AD_TRY(ratio, py::binary(b, py::Operator::kTrueDiv, step, static_cast<double>(decaySteps)));
        TSTUDIO_AD_TRY(up, py::genOp(b, "Ceil", {ratio}));
        TSTUDIO_AD_TRY(one, ops::constant(b, 1.0, kFloat, "Const"));
        TSTUDIO_AD_TRY(multiplier, py::where(b, atZero, one, up));
        TSTUDIO_AD_TRY(cycled, py::genOp(b, "Mul", {steps, multiplier}));
        steps = cycled;
    } else {
        TSTUDIO_AD_TRY(clamped, py::genOp(b, "Minimum", {step, steps}));
        step = clamped;
    }
    TSTUDIO_AD_TRY(p, py::binary(b, py::Operator::kTrueDiv, step, steps));
    TSTUDIO_AD_TRY(span, py::binary(b, py::Operator::kSub, s.initial, end));
    TSTUDIO_AD_TRY(remaining, py::binary(b, py::Operator::kSub, 1.0, p));
    TSTUDIO_AD_TRY(pow, py::genOp(b, "Pow", {remaining, exponent}));
    TSTUDIO_AD_TRY(scaled, py::genOp(b, "Mul", {span, pow}));
    return py::genOp(b, "Add", {scaled, end}, {}, s.scope.name());
}

Expected<Output> inverseTimeDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                  std::int64_t decaySteps, double decayRate, bool staircase, std::string_view name)
{
    TSTUDIO_AD_CHECK(checkStep(globalStep, "inverse_time_decay"));
    TSTUDIO_AD_TRY(s, start(b, learningRate, name));
    TSTUDIO_AD_TRY(steps, castNumber(b, decaySteps, kFloat));
    TSTUDIO_AD_TRY(rate, castNumber(b, decayRate, kFloat));
    TSTUDIO_AD_TRY(step, py::cast(b, globalStep, kFloat));
    TSTUDIO_AD_TRY(p, decayExponent(b, step, steps, staircase));
    TSTUDIO_AD_TRY(oneInt, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));
    TSTUDIO_AD_TRY(one, py::cast(b, oneInt, kFloat));
    TSTUDIO_AD_TRY(product, py::genOp(b, "Mul", {rate, p}));
    TSTUDIO_AD_TRY(denominator, py::genOp(b, "Add", {one, product}));
    return py::genOp(b, "RealDiv", {s.initial, denominator}, {}, s.scope.name());
}

Expected<Output> cosineDecay(GraphBuilder& b, double learningRate, const Output& globalStep, std::int64_t decaySteps,
                             double alpha, std::string_view name)
{
    TSTUDIO_AD_CHECK(checkStep(globalStep, "cosine_decay"));
    if (!b.registry().find("Cos"))
        return unexpected(unimplementedError("cosine_decay needs the op Cos, which is not registered"));
    TSTUDIO_AD_TRY(s, start(b, learningRate, name));
    TSTUDIO_AD_TRY(steps, castNumber(b, decaySteps, kFloat));
    TSTUDIO_AD_TRY(step, py::cast(b, globalStep, kFloat));
    TSTUDIO_AD_TRY(clamped, py::genOp(b, "Minimum", {step, steps}));
    TSTUDIO_AD_TRY(fraction, py::binary(b, py::Operator::kTrueDiv, clamped, steps));
    TSTUDIO_AD_TRY(pi, ops::constant(b, std::numbers::pi, kFloat, "Const"));
    TSTUDIO_AD_TRY(angle, py::binary(b, py::Operator::kMul, pi, fraction));
    TSTUDIO_AD_TRY(cosine, py::genOp(b, "Cos", {angle}));
    TSTUDIO_AD_TRY(shifted, py::binary(b, py::Operator::kAdd, 1.0, cosine));
    TSTUDIO_AD_TRY(cosineDecayed, py::binary(b, py::Operator::kMul, 0.5, shifted));
    TSTUDIO_AD_TRY(weighted, py::binary(b, py::Operator::kMul, 1.0 - alpha, cosineDecayed));
    TSTUDIO_AD_TRY(decayed, py::binary(b, py::Operator::kAdd, weighted, alpha));
    return py::genOp(b, "Mul", {s.initial, decayed});
}

} // namespace tstudio::training
