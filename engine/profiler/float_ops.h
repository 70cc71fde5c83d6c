// floatOps: the float operations of one op execution from its op type, shapes and attrs, counted by the
// rules tfprof uses (TensorFlow's RegisterStatistics("flops") functions); Qt-free.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tensorflow {
class NodeDef;
}

namespace tstudio::profiler {

/// A tensor's dimensions (-1 for an unknown one); a null pointer where the whole shape is unknown.
using ShapeRef = const std::vector<std::int64_t>*;

/// What one execution of a node looked like.
struct FloatOpsRequest {
    std::string_view op;
    /// Shapes of the data inputs in order (control inputs are not inputs); null where unknown.
    std::vector<ShapeRef> inputs;
    /// Shapes of the outputs by slot; null where unknown.
    std::vector<ShapeRef> outputs;
    /// The node's definition, for its attrs (ksize, strides, data_format, transpose_a, adj_x); may be
    /// null, then the rules that need an attr that shapes cannot replace are incomplete.
    const tensorflow::NodeDef* node = nullptr;
};

struct FloatOpsResult {
    std::int64_t floatOps = 0;
    /// TensorFlow counts this op type (it has a "flops" statistic).
    bool counted = false;
    /// The op is counted but a shape or attr the rule needs is unknown, so floatOps is 0 (where tfprof
    /// skips the node with "N ops no flops stats due to incomplete shapes").
    bool incomplete = false;
};

/// The float operations of one execution. The rules (TF's flops registry; n = elements):
///  - unary, on input 0: Reciprocal, Square, Log, Neg, AssignAdd, AssignSub n; Rsqrt 2n; Softmax 5n;
///    L2Loss 3n - 1;
///  - binary, on output 0: Add, AddV2, Sub, Mul, RealDiv, Maximum, Minimum, Pow, Greater, GreaterEqual,
///    Less, LessEqual, Equal, NotEqual n; SquaredDifference 2n; RsqrtGrad 4n;
///  - reductions, n_in * 1 + n_out * (finalize - 1): Mean (finalize 1), Sum, ArgMax, ArgMin, BiasAddGrad
///    (finalize 0);
///  - MatMul 2 * k * n_out, k the contracted size: a's last dimension, or the one before with transpose_a
///    (adj_x for BatchMatMul and BatchMatMulV2, the same over the last two dimensions), or b's where a's
///    is unknown; without the node, |a| / rows(out) or |b| / cols(out), the same whatever the transposes;
///  - Conv2D 2 * n_out * kh * kw * in_depth (filter = input 1); DepthwiseConv2dNative 2 * n_out * kh * kw;
///    Dilation2D 2 * n_out * kh * kw;
///  - NHWC only (NCHW counts 0 as in TF): Conv2DBackpropInput 2 * n_out * |filter| / (depth(out) *
///    stride_h * stride_w) and Conv2DBackpropFilter 2 * |input| * n_out / (depth(input) * stride_h *
///    stride_w), both truncated; MaxPool, AvgPool |ksize| * n_out; AvgPoolGrad 2 * |ksize| * |grad|;
///    MaxPoolGrad (|ksize| + 1) * |orig_output|;
///  - BiasAdd n of input 0; AddN n of input 0 * (data inputs - 1) (TF counted NodeDef.input, control
///    inputs included).
/// A rule needs only the dimensions it reads to be known (TF asks for fully known shapes, so a MatMul fed
/// by a [?,784] placeholder counts 0 there although its output gives the batch).
/// Everything else is not counted (0). AddV2 and BatchMatMul(V2) are counted as TensorFlow 2.x counts
/// them (adj_x read here; TF reads a transpose_a attr these ops lack): 1.15's registry had no rule for
/// them, so its totals dropped every tf.add of a 1.15 graph.
/// Pure; thread-safe.
FloatOpsResult floatOps(const FloatOpsRequest& request);

/// True when `op` has a rule above (its executions' shapes are worth looking up).
bool hasFloatOpsRule(std::string_view op);

} // namespace tstudio::profiler
