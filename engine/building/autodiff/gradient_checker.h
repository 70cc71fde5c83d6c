// Numerical checks of symbolic gradients (tf.test.compute_gradient / compute_gradient_error).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tstudio {

class KernelRegistry;
class OpRegistry;

/// Builds y from the placeholders standing for the xs (one per value passed to computeGradient).
using GradientCheckGraph = std::function<Expected<Output>(GraphBuilder&, const std::vector<Output>& xs)>;

struct GradientCheckOptions {
    /// The central-difference step, applied in the xs' dtype (TensorFlow's default 1e-3).
    double delta = 1e-3;
};

/// The two Jacobians of y with respect to one x, row-major [x elements][y elements] (TensorFlow's
/// layout): d y[k] / d x[j] at (j, k).
struct Jacobians {
    std::int64_t xSize = 0;
    std::int64_t ySize = 0;
    std::vector<double> theoretical; ///< from the symbolic gradient, one backprop per y element
    std::vector<double> numerical;   ///< from central differences of y
    /// max |theoretical - numerical| (0 for empty Jacobians).
    double maxError() const;
};

/// Builds the graph x -> y with `build`, adds its gradients with addSymbolicGradients (grad_ys from
/// a placeholder), runs it in a Session and compares, for every x, the symbolic Jacobian (feeding
/// one-hot grad_ys) with central differences (y(x + delta e_j) - y(x - delta e_j)) / (2 delta).
/// An x with no gradient (unconnected) has a zero symbolic Jacobian. xs and y must be floating
/// (half, bfloat16, float, double), the xs non-empty.
/// Errors: the builder's, addSymbolicGradients', the Session's, InvalidArgument for other dtypes.
Expected<std::vector<Jacobians>> computeGradient(const OpRegistry& ops, const KernelRegistry& kernels,
                                                 const std::vector<Tensor>& xValues, const GradientCheckGraph& build,
                                                 const GradientCheckOptions& options = {});

/// The largest |theoretical - numerical| over every x (tf.test.compute_gradient_error).
Expected<double> computeGradientError(const OpRegistry& ops, const KernelRegistry& kernels,
                                      const std::vector<Tensor>& xValues, const GradientCheckGraph& build,
                                      const GradientCheckOptions& options = {});

} // namespace tstudio
