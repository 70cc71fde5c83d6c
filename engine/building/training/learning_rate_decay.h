// Learning-rate schedules of TensorFlow 1.x (tf.train.exponential_decay, piecewise_constant, ...), built as graph ops.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tstudio::training {

// Each function takes the global step as a tensor (a variable's value, e.g. global_step/read, of
// any integer or floating dtype), opens the name scope `name` (made unique) and returns a float32
// scalar; numbers are Python numbers (decay steps ints, rates floats) and become TensorFlow
// 1.15's Consts ("Cast/x" ...). Errors: InvalidArgument "global_step is required for
// exponential_decay." (and so on) for an invalid step tensor; the builder's.

/// tf.train.exponential_decay: lr * decay_rate ^ (step / decay_steps), the exponent floored when
/// `staircase`. Nodes under "ExponentialDecay/": "initial_learning_rate", "Cast/x" + "Cast"
/// (decay_steps), "Cast_1/x" (decay_rate), "Cast_2" (step), "truediv", ["Floor"], "Pow", and the
/// Mul "ExponentialDecay".
Expected<Output> exponentialDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                  std::int64_t decaySteps, double decayRate, bool staircase = false,
                                  std::string_view name = "ExponentialDecay");

/// tf.train.piecewise_constant(x, boundaries, values): values[0] while x <= boundaries[0],
/// values[i] while boundaries[i-1] < x <= boundaries[i], values.back() after the last boundary.
/// The boundaries (int32 Consts at the current scope, cast to x's dtype when it differs) and
/// values (float32 Consts) are made as TensorFlow makes them, then under "PiecewiseConstant/" the
/// predicates "LessEqual", "Greater", and per middle interval "Greater_<k>", "LessEqual_<k>",
/// "LogicalAnd[_k]". TensorFlow then selects with tf.case (a Switch/Merge conditional); here a
/// chain of Select ops picks the value, giving the same number but not the same nodes.
/// InvalidArgument "The length of boundaries should be 1 less than the length of values".
Expected<Output> piecewiseConstant(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& boundaries,
                                   const std::vector<double>& values, std::string_view name = "PiecewiseConstant");

/// tf.train.polynomial_decay: (lr - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end.
/// Nodes under "PolynomialDecay/": "initial_learning_rate", "Cast/x" (end), "Cast_1/x" (power),
/// "Cast_2" (step), "Cast_3/x" + "Cast_3" (decay_steps), "Minimum", "truediv", "sub",
/// "sub_1/x" + "sub_1", "Pow", "Mul" and the Add "PolynomialDecay". With `cycle` the decay steps
/// are multiplied by ceil(step / decay_steps) (1 at step 0): TensorFlow picks that with tf.cond,
/// here "Equal", "truediv", "Ceil", "Select" and "Mul" compute it (same numbers, other nodes).
Expected<Output> polynomialDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                 std::int64_t decaySteps, double endLearningRate = 0.0001, double power = 1.0,
                                 bool cycle = false, std::string_view name = "PolynomialDecay");

/// tf.train.inverse_time_decay: lr / (1 + decay_rate * step / decay_steps), the quotient floored
/// when `staircase`. Nodes under "InverseTimeDecay/": "initial_learning_rate", "Cast/x" + "Cast",
/// "Cast_1/x", "Cast_2", "truediv", ["Floor"], "Const" + "Cast_3" (the 1), "Mul", "Add" and the
/// RealDiv "InverseTimeDecay".
Expected<Output> inverseTimeDecay(GraphBuilder& b, double learningRate, const Output& globalStep,
                                  std::int64_t decaySteps, double decayRate, bool staircase = false,
                                  std::string_view name = "InverseTimeDecay");

/// tf.train.cosine_decay: lr * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) /
/// decay_steps)) + alpha). Nodes under "CosineDecay/": "initial_learning_rate", "Cast/x" + "Cast",
/// "Cast_1", "Minimum", "truediv", "Const" (pi), "mul", "Cos", "add/x" + "add", "mul_1/x" +
/// "mul_1", "mul_2/x" + "mul_2", "add_1/y" + "add_1", and the Mul "Mul_3" (names are unique
/// ignoring case, as TensorFlow's). Unimplemented "cosine_decay needs the op Cos, which is not
/// registered" (before adding any node) for a registry without Cos.
Expected<Output> cosineDecay(GraphBuilder& b, double learningRate, const Output& globalStep, std::int64_t decaySteps,
                             double alpha = 0.0, std::string_view name = "CosineDecay");

} // namespace tstudio::training
