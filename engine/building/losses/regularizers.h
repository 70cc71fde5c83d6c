// Weight penalties as tf.contrib.layers builds them (l1/l2/l1_l2 regularizers) and their
// registration in REGULARIZATION_LOSSES, as tf.get_variable(regularizer=...) does.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <functional>

namespace tstudio {

/// A weight penalty builder: tf.contrib.layers.l1_regularizer(scale) and friends.
/// Called with the weights tensor, it adds its nodes under the builder's current name scope and
/// returns the scalar penalty. A regularizer made with scale 0 returns an invalid Output (TF's
/// None: no penalty, nothing built); callers must skip it.
using Regularizer = std::function<Expected<Output>(GraphBuilder&, const Output& weights)>;

/// tf.contrib.layers.l1_regularizer(scale): scope "l1_regularizer" holding the Const "scale",
/// Abs, Const, Sum and the Mul named after the scope: scale * sum(|w|). A negative scale makes a
/// regularizer that fails with InvalidArgument "Setting a scale less than 0 on a regularizer: -1"
/// (TF raises when the regularizer is made; here the error surfaces on first use); scale 0 gives
/// no penalty (see Regularizer).
Regularizer l1Regularizer(double scale);
/// tf.contrib.layers.l2_regularizer(scale): scope "l2_regularizer": Const "scale", L2Loss and the
/// Mul named after the scope: scale * sum(w^2) / 2. Scale rules as l1Regularizer; TF's error text
/// here ends with a period ("...: -0.5.").
Regularizer l2Regularizer(double scale);
/// tf.contrib.layers.l1_l2_regularizer(scaleL1, scaleL2): scope "l1_l2_regularizer" holding both
/// penalties and their sum (AddN named after the scope). Both 0: no penalty; one 0: just the other.
Regularizer l1l2Regularizer(double scaleL1, double scaleL2);

/// What tf.get_variable(regularizer=...) / tf.layers do: builds the penalty under the name scope
/// "<variable name>/Regularizer/" and adds it to REGULARIZATION_LOSSES; returns it.
/// A regularizer that gives no penalty (scale 0) adds nothing and returns an invalid Output.
Expected<Output> addRegularizationLoss(GraphBuilder& b, const Variable& variable, const Regularizer& regularizer);

} // namespace tstudio
