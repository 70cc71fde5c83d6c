// ExponentialMovingAverage: shadow variables that track moving averages of variables
// (tf.train.ExponentialMovingAverage).
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::training {

/// The collection apply() adds the averaged variables to (tf.GraphKeys.MOVING_AVERAGE_VARIABLES).
inline constexpr std::string_view kMovingAverageVariables = "moving_average_variables";

/// tf.train.ExponentialMovingAverage(decay, num_updates, zero_debias=False, name) of TensorFlow
/// 1.15 for variables. apply(vars) makes, for each variable not yet averaged, the shadow
/// "<var>/ExponentialMovingAverage" (a slot: not trainable, in GLOBAL_VARIABLES, colocated with the
/// variable) and adds the variable to MOVING_AVERAGE_VARIABLES; then under the name scope `name`:
/// "decay", with num_updates the float32 Cast "num_updates", "add/x" + "add", "add_1/x" + "add_1",
/// "truediv", "Minimum" (decay = min(decay, (1 + n) / (10 + n))), and per variable
/// "AssignMovingAvg[_k]/{sub/x, sub, sub_1, mul}" and the AssignSub "AssignMovingAvg[_k]"
/// (shadow -= (shadow - var) * (1 - decay)), "sub_1", "mul" and the AssignSub colocated with the
/// shadow; it returns the NoOp `name` grouping them. The node names are the TF 1.3 fixture's
/// (tf1-mnist-book); TF 1.15 differs from 1.3 in writing Tensor "+" as AddV2 and in leaving
/// "sub/x" and "sub" uncolocated, and we follow 1.15.
///
/// Differences from TensorFlow, on purpose: a shadow's initial value is the variable's own initial
/// value (the tensor its "x/Assign" assigns) where TensorFlow builds var.initialized_value(), a
/// tf.cond that reads the variable when it is initialized already. The two agree whenever the
/// shadow is initialized together with the variable (global_variables_initializer). Averages of
/// plain tensors and zero_debias are not supported (Unimplemented).
class ExponentialMovingAverage {
public:
    /// `numUpdates`: a tensor (e.g. a step variable's value) of any real or integer dtype.
    explicit ExponentialMovingAverage(double decay, std::optional<Output> numUpdates = {}, bool zeroDebias = false,
                                      std::string name = "ExponentialMovingAverage");

    const std::string& name() const { return m_name; }

    /// ExponentialMovingAverage.apply(var_list): defaults to TRAINABLE_VARIABLES. InvalidArgument
    /// "The variables must be half, float, or double: x" for another dtype (nothing is added).
    Expected<Operation> apply(GraphBuilder& b, std::optional<std::vector<Variable>> varList = {});
    /// average(var): the shadow variable, or nullopt when `var` was not averaged.
    std::optional<Variable> average(const Variable& var) const;
    /// average_name(var): the shadow's name, or the name it would get ("<var>/<name>").
    std::string averageName(const Variable& var) const;
    /// variables_to_restore(): checkpoint name -> variable: "<var>/ExponentialMovingAverage" -> var
    /// for TRAINABLE_VARIABLES and MOVING_AVERAGE_VARIABLES (or `movingAvgVariables`), and every
    /// other global variable under its own name (a Saver made from it restores the averages into
    /// the variables).
    std::map<std::string, Variable>
    variablesToRestore(const GraphBuilder& b, std::optional<std::vector<Variable>> movingAvgVariables = {}) const;

private:
    double m_decay;
    std::optional<Output> m_numUpdates;
    bool m_zeroDebias;
    std::string m_name;
    std::map<std::string, Variable> m_averages; ///< by the averaged variable's name
};

} // namespace tstudio::training
