// The TensorFlow 1.15 Python API calls that gradient functions make (array_ops.shape,
// math_ops.reduce_sum, Tensor.__mul__, ...), emitting the same ops with the same node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tstudio {

namespace autodiff_detail {
/// An error leaving a function that returns Status or Expected<T> (see TSTUDIO_AD_TRY).
struct PropagatedError {
    Status status;
    operator Status() const { return status; }
    template <typename T> operator Expected<T>() const { return unexpected(status); }
};
} // namespace autodiff_detail

} // namespace tstudio

/// `auto var = *expr;` or return expr's error (from a function returning Status or Expected<T>).
#define TSTUDIO_AD_TRY(var, expr)                                                                                      \
    auto var##_expected_ = (expr);                                                                                     \
    if (!var##_expected_)                                                                                              \
        return ::tstudio::autodiff_detail::PropagatedError{var##_expected_.error()};                                   \
    auto var = std::move(*var##_expected_)
/// Returns a Status expression's error (from a function returning Status or Expected<T>).
#define TSTUDIO_AD_CHECK(expr)                                                                                         \
    do {                                                                                                               \
        if (::tstudio::Status status_ = (expr); !status_.isOk())                                                       \
            return ::tstudio::autodiff_detail::PropagatedError{status_};                                               \
    } while (false)

/// Every function adds its nodes under the current name scope of `b` and names them as the Python
/// call does: a generated op wrapper (gen_math_ops.mul, ...) names the node after the op type
/// ("Mul") and its Python-number arguments "<Type>/<arg>" ("Maximum/y"); a Tensor operator names
/// the node after the operator ("mul", "add", "truediv", "floordiv", "mod", "sub") and a Python
/// number operand "<op>/y" (or "<op>/x" when the number is on the left); helpers with a name scope
/// use it ("zeros/Const" + "zeros"). Errors are GraphBuilder::op's.
namespace tstudio::py {

/// The Tensor operators.
enum class Operator { kAdd, kSub, kMul, kTrueDiv, kFloorDiv, kMod };

/// The op that produces `t`.
Expected<Operation> producer(GraphBuilder& b, const Output& t);
/// The first output of a node `type` with `inputs` and `attrs`, named `name` (default: the type).
Expected<Output> genOp(GraphBuilder& b, std::string_view type, std::vector<OpInput> inputs, AttrMap attrs = {},
                       std::string_view name = {});
/// A generated binary op whose second argument is a Python number: "<Type>/y" then "<Type>".
Expected<Output> genOpScalarY(GraphBuilder& b, std::string_view type, const Output& x, double y);

// --- Constants ---------------------------------------------------------------------------------------

/// constant_op.constant(value, dtype) named `name`.
Expected<Output> constant(GraphBuilder& b, double value, DataType dtype, std::string_view name = "Const");
/// constant_op.constant(list of ints, int32) named `name` (int64 when a value needs it).
Expected<Output> intVector(GraphBuilder& b, const std::vector<std::int64_t>& values, std::string_view name = "Const");

// --- array_ops ---------------------------------------------------------------------------------------

/// array_ops.shape(x) (int32): a Const "Shape" when x's shape is fully defined and `optimize`, else
/// a Shape op.
Expected<Output> shape(GraphBuilder& b, const Output& x, bool optimize = true);
/// array_ops.size(x): a Const "Size" when x's shape is fully defined (or has a zero dimension),
/// else a Size op.
Expected<Output> size(GraphBuilder& b, const Output& x);
/// array_ops.reshape(x, shape tensor) "Reshape".
Expected<Output> reshape(GraphBuilder& b, const Output& x, const Output& shape);
/// array_ops.reshape(x, [python ints]): "Reshape/shape" and "Reshape".
Expected<Output> reshape(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& shape);
/// array_ops.tile(x, multiples tensor) "Tile".
Expected<Output> tile(GraphBuilder& b, const Output& x, const Output& multiples);
/// array_ops.tile(x, [python ints]): "Tile/multiples" and "Tile".
Expected<Output> tile(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& multiples);
/// gen_array_ops.broadcast_gradient_args(sx, sy): "BroadcastGradientArgs" (outputs r0, r1).
Expected<Operation> broadcastGradientArgs(GraphBuilder& b, const Output& sx, const Output& sy);
/// array_ops.fill(dims, python number of `dtype`): "Fill/value" and "Fill".
Expected<Output> fill(GraphBuilder& b, const Output& dims, double value, DataType dtype);
/// array_ops.zeros(shape tensor, dtype): "zeros/Const" and the Fill "zeros".
Expected<Output> zeros(GraphBuilder& b, const Output& shape, DataType dtype);
/// array_ops.zeros_like(x): for a fully defined shape (and `optimize`) the constant "zeros_like"
/// (a Fill beyond 1000 elements), else a ZerosLike op "zeros_like".
Expected<Output> zerosLike(GraphBuilder& b, const Output& x, bool optimize = true);
/// array_ops.ones_like(x): "ones_like/Shape", "ones_like/Const" and the Fill "ones_like".
Expected<Output> onesLike(GraphBuilder& b, const Output& x);
/// array_ops.where(c, x, y) (TensorFlow 1.x: Select) and array_ops.where_v2 (SelectV2).
Expected<Output> where(GraphBuilder& b, const Output& c, const Output& x, const Output& y);
Expected<Output> whereV2(GraphBuilder& b, const Output& c, const Output& x, const Output& y);
/// x[:end] for a 1-D tensor (Tensor.__getitem__): "strided_slice/stack", "strided_slice/stack_1",
/// "strided_slice/stack_2" and the StridedSlice "strided_slice".
Expected<Output> sliceTo(GraphBuilder& b, const Output& x, std::int64_t end);
/// array_ops.expand_dims(x, python int): "ExpandDims/dim" and "ExpandDims".
Expected<Output> expandDims(GraphBuilder& b, const Output& x, std::int64_t axis);

// --- math_ops ----------------------------------------------------------------------------------------

/// A Tensor operator `x op y` (Tensor.__add__, ...). kAdd emits AddV2 (Add for strings), kTrueDiv
/// casts integer operands as Python 3's truediv does (RealDiv), kFloorDiv FloorDiv, kMod FloorMod.
Expected<Output> binary(GraphBuilder& b, Operator op, const Output& x, const Output& y);
/// `x op number`: the number becomes "<op>/y" of x's dtype.
Expected<Output> binary(GraphBuilder& b, Operator op, const Output& x, double y);
/// `number op y`: the number becomes "<op>/x" of y's dtype.
Expected<Output> binary(GraphBuilder& b, Operator op, double x, const Output& y);
/// -x (Tensor.__neg__): "Neg".
Expected<Output> neg(GraphBuilder& b, const Output& x);
/// math_ops.conj: x itself for real dtypes. Complex dtypes: Unimplemented (no Conj op yet).
Expected<Output> conj(GraphBuilder& b, const Output& x);
/// math_ops.cast(x, dtype): x itself when it already has that dtype, else a Cast "Cast".
Expected<Output> cast(GraphBuilder& b, const Output& x, DataType dtype);
/// math_ops.reduce_sum(x, axes tensor, keepdims) "Sum".
Expected<Output> reduceSum(GraphBuilder& b, const Output& x, const Output& axes, bool keepDims = false);
/// math_ops.reduce_prod(x) over every axis: the axes "Const" (Range over Rank when the rank is
/// unknown) and "Prod".
Expected<Output> reduceProdAll(GraphBuilder& b, const Output& x);
/// math_ops.reduced_shape(input_shape tensor, axes tensor): the int32 shape with the reduced axes
/// set to 1 (Cast, Size, add, mod, Shape, range, Fill, DynamicStitch).
Expected<Output> reducedShape(GraphBuilder& b, const Output& inputShape, const Output& axes);
/// _safe_shape_div(x, y) = x // maximum(y, 1): "Maximum/y", "Maximum", "floordiv".
Expected<Output> safeShapeDiv(GraphBuilder& b, const Output& x, const Output& y);
/// math_ops.matmul(a, b, transpose/adjoint flags) named "MatMul": MatMul for matrices, else
/// BatchMatMulV2 with adj_x/adj_y (TensorFlow 1.15's choice).
Expected<Output> matmul(GraphBuilder& b, const Output& a, const Output& x, bool transposeA, bool transposeB,
                        bool adjointA = false, bool adjointB = false);

} // namespace tstudio::py
