// The TensorFlow Python API calls of gradient functions, as GraphBuilder calls with Python's names.
#include "builder/python_ops.h"

#include "builder/array_ops_helpers.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"

#include <array>

namespace tstudio::py {
namespace {

struct OperatorInfo {
    const char* name; ///< the Python operator's name scope
    const char* type; ///< the op it emits for numbers
};

OperatorInfo info(Operator op)
{
    switch (op) {
    case Operator::kAdd: return {"add", "AddV2"};
    case Operator::kSub: return {"sub", "Sub"};
    case Operator::kMul: return {"mul", "Mul"};
    case Operator::kTrueDiv: return {"truediv", "RealDiv"};
    case Operator::kFloorDiv: return {"floordiv", "FloorDiv"};
    case Operator::kMod: return {"mod", "FloorMod"};
    }
    return {"", ""};
}

/// Python 3's truediv: integers are cast to a floating type first (math_ops._TRUEDIV_TABLE).
DataType trueDivType(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_UINT8:
    case tensorflow::DT_INT8:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_INT16: return tensorflow::DT_FLOAT;
    case tensorflow::DT_INT32:
    case tensorflow::DT_INT64: return tensorflow::DT_DOUBLE;
    default: return tensorflow::DT_INVALID;
    }
}

/// The op of a Tensor operator inside its name scope `scopeName` ("mul/"), operands ready.
Expected<Output> operatorOp(GraphBuilder& b, Operator op, Output x, Output y, const std::string& scopeName)
{
    const DataType dtype = x.baseDtype();
    if (op == Operator::kTrueDiv) {
        if (dtype != y.baseDtype())
            return unexpected(invalidArgumentError("x and y must have the same dtype, got " + dataTypeName(dtype) +
                                                   " != " + dataTypeName(y.baseDtype())));
        if (const DataType to = trueDivType(dtype); to != tensorflow::DT_INVALID) {
            TSTUDIO_AD_TRY(cx, cast(b, x, to));
            TSTUDIO_AD_TRY(cy, cast(b, y, to));
            x = cx;
            y = cy;
        }
    }
    const char* type = info(op).type;
    if (op == Operator::kAdd && dtype == tensorflow::DT_STRING)
        type = "Add";
    return genOp(b, type, {x, y}, {}, scopeName);
}

} // namespace

Expected<Operation> producer(GraphBuilder& b, const Output& t)
{
    return b.operation(t.node());
}

Expected<Output> genOp(GraphBuilder& b, std::string_view type, std::vector<OpInput> inputs, AttrMap attrs,
                       std::string_view name)
{
    return ops::firstOutput(b.op(type, std::move(inputs), std::move(attrs), name.empty() ? type : name));
}

Expected<Output> genOpScalarY(GraphBuilder& b, std::string_view type, const Output& x, double y)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(type));
    TSTUDIO_AD_TRY(yT, constant(b, y, x.baseDtype(), "y"));
    return genOp(b, type, {x, yT}, {}, scope.name());
}

// --- Constants ---------------------------------------------------------------------------------------

Expected<Output> constant(GraphBuilder& b, double value, DataType dtype, std::string_view name)
{
    return ops::constant(b, value, baseType(dtype), name);
}

Expected<Output> intVector(GraphBuilder& b, const std::vector<std::int64_t>& values, std::string_view name)
{
    bool wide = false;
    for (std::int64_t v : values)
        wide = wide || v < INT32_MIN || v > INT32_MAX;
    return ops::constantInts(b, values, TensorShape{static_cast<std::int64_t>(values.size())},
                             wide ? tensorflow::DT_INT64 : tensorflow::DT_INT32, name);
}

// --- array_ops ---------------------------------------------------------------------------------------

Expected<Output> shape(GraphBuilder& b, const Output& x, bool optimize)
{
    if (optimize && x.shape().isFullyDefined())
        return ops::shapeTensor(b, x.shape(), "Shape");
    return genOp(b, "Shape", {x}, {{"out_type", attr::type(tensorflow::DT_INT32)}});
}

Expected<Output> size(GraphBuilder& b, const Output& x)
{
    const TensorShape& s = x.shape();
    if (s.isFullyDefined()) {
        TSTUDIO_AD_TRY(n, s.numElements());
        return ops::constantInts(b, {n}, TensorShape::scalar(), tensorflow::DT_INT32, "Size");
    }
    for (std::int64_t d : s.dims()) {
        if (d == 0)
            return ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "Size");
    }
    return genOp(b, "Size", {x}, {{"out_type", attr::type(tensorflow::DT_INT32)}});
}

Expected<Output> reshape(GraphBuilder& b, const Output& x, const Output& shape)
{
    return genOp(b, "Reshape", {x, shape});
}

Expected<Output> reshape(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& shape)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Reshape"));
    TSTUDIO_AD_TRY(shapeT, intVector(b, shape, "shape"));
    return genOp(b, "Reshape", {x, shapeT}, {}, scope.name());
}

Expected<Output> tile(GraphBuilder& b, const Output& x, const Output& multiples)
{
    return genOp(b, "Tile", {x, multiples});
}

Expected<Output> tile(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& multiples)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Tile"));
    TSTUDIO_AD_TRY(m, intVector(b, multiples, "multiples"));
    return genOp(b, "Tile", {x, m}, {}, scope.name());
}

Expected<Operation> broadcastGradientArgs(GraphBuilder& b, const Output& sx, const Output& sy)
{
    return b.op("BroadcastGradientArgs", {sx, sy});
}

Expected<Output> fill(GraphBuilder& b, const Output& dims, double value, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Fill"));
    TSTUDIO_AD_TRY(v, constant(b, value, dtype, "value"));
    return genOp(b, "Fill", {dims, v}, {}, scope.name());
}

Expected<Output> zeros(GraphBuilder& b, const Output& shape, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("zeros"));
    TSTUDIO_AD_TRY(zero, constant(b, 0.0, dtype));
    return genOp(b, "Fill", {shape, zero}, {}, scope.name());
}

Expected<Output> zerosLike(GraphBuilder& b, const Output& x, bool optimize)
{
    if (optimize && x.shape().isFullyDefined())
        return ops::zeros(b, x.shape(), x.baseDtype(), "zeros_like");
    return genOp(b, "ZerosLike", {x}, {}, "zeros_like");
}

Expected<Output> onesLike(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("ones_like"));
    TSTUDIO_AD_TRY(dims, shape(b, x));
    TSTUDIO_AD_TRY(one, constant(b, 1.0, x.baseDtype()));
    return genOp(b, "Fill", {dims, one}, {}, scope.name());
}

Expected<Output> where(GraphBuilder& b, const Output& c, const Output& x, const Output& y)
{
    return genOp(b, "Select", {c, x, y});
}

Expected<Output> whereV2(GraphBuilder& b, const Output& c, const Output& x, const Output& y)
{
    return genOp(b, "SelectV2", {c, x, y});
}

Expected<Output> sliceTo(GraphBuilder& b, const Output& x, std::int64_t end)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(begin, intVector(b, {0}, "stack"));
    TSTUDIO_AD_TRY(endT, intVector(b, {end}, "stack_1"));
    TSTUDIO_AD_TRY(strides, intVector(b, {1}, "stack_2"));
    return genOp(b, "StridedSlice", {x, begin, endT, strides},
                 {{"begin_mask", attr::i(1)},
                  {"end_mask", attr::i(0)},
                  {"ellipsis_mask", attr::i(0)},
                  {"new_axis_mask", attr::i(0)},
                  {"shrink_axis_mask", attr::i(0)}},
                 scope.name());
}

Expected<Output> expandDims(GraphBuilder& b, const Output& x, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("ExpandDims"));
    TSTUDIO_AD_TRY(dim, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "dim"));
    return genOp(b, "ExpandDims", {x, dim}, {}, scope.name());
}

// --- math_ops ----------------------------------------------------------------------------------------

Expected<Output> binary(GraphBuilder& b, Operator op, const Output& x, const Output& y)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(info(op).name));
    return operatorOp(b, op, x, y, scope.name());
}

Expected<Output> binary(GraphBuilder& b, Operator op, const Output& x, double y)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(info(op).name));
    TSTUDIO_AD_TRY(yT, constant(b, y, x.baseDtype(), "y"));
    return operatorOp(b, op, x, yT, scope.name());
}

Expected<Output> binary(GraphBuilder& b, Operator op, double x, const Output& y)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(info(op).name));
    TSTUDIO_AD_TRY(xT, constant(b, x, y.baseDtype(), "x"));
    return operatorOp(b, op, xT, y, scope.name());
}

Expected<Output> neg(GraphBuilder& b, const Output& x)
{
    return genOp(b, "Neg", {x});
}

Expected<Output> conj(GraphBuilder&, const Output& x)
{
    if (isComplex(x.baseDtype()))
        return unexpected(unimplementedError("the gradient needs conj() of the complex tensor '" + x.name() +
                                             "', and TensorStudio has no Conj op yet"));
    return x;
}

Expected<Output> cast(GraphBuilder& b, const Output& x, DataType dtype)
{
    if (x.baseDtype() == baseType(dtype))
        return x;
    return genOp(b, "Cast", {x}, {{"DstT", attr::type(baseType(dtype))}});
}

Expected<Output> reduceSum(GraphBuilder& b, const Output& x, const Output& axes, bool keepDims)
{
    return genOp(b, "Sum", {x, axes}, {{"keep_dims", attr::b(keepDims)}});
}

Expected<Output> reduceProdAll(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(axes, array_ops::allAxes(b, x));
    return genOp(b, "Prod", {x, axes}, {{"keep_dims", attr::b(false)}});
}

Expected<Output> reducedShape(GraphBuilder& b, const Output& inputShape, const Output& axesIn)
{
    TSTUDIO_AD_TRY(shape32, cast(b, inputShape, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(axes32, cast(b, axesIn, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(rank, size(b, shape32));
    TSTUDIO_AD_TRY(shifted, binary(b, Operator::kAdd, axes32, rank));
    TSTUDIO_AD_TRY(axes, binary(b, Operator::kMod, shifted, rank));
    TSTUDIO_AD_TRY(axesShape, shape(b, axes));
    Output indices;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("range"));
        TSTUDIO_AD_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "start"));
        TSTUDIO_AD_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta"));
        TSTUDIO_AD_TRY(r, genOp(b, "Range", {start, rank, delta}, {}, scope.name()));
        indices = r;
    }
    TSTUDIO_AD_TRY(ones, fill(b, axesShape, 1.0, tensorflow::DT_INT32));
    return genOp(b, "DynamicStitch", {std::vector<Output>{indices, axes}, std::vector<Output>{shape32, ones}});
}

Expected<Output> safeShapeDiv(GraphBuilder& b, const Output& x, const Output& y)
{
    TSTUDIO_AD_TRY(atLeastOne, genOpScalarY(b, "Maximum", y, 1.0));
    return binary(b, Operator::kFloorDiv, x, atLeastOne);
}

Expected<Output> matmul(GraphBuilder& b, const Output& a, const Output& x, bool transposeA, bool transposeB,
                        bool adjointA, bool adjointB)
{
    if ((transposeA && adjointA) || (transposeB && adjointB))
        return unexpected(invalidArgumentError("Only one of transpose and adjoint can be True."));
    const int rankA = a.shape().rank();
    const int rankB = x.shape().rank();
    TSTUDIO_AD_TRY(scope, b.nameScope("MatMul"));
    if (rankA < 0 || rankA > 2 || rankB < 0 || rankB > 2) {
        // BatchMatMulV2 has no transpose: conj + adjoint instead (conj is nothing for real types).
        TSTUDIO_AD_TRY(ca, transposeA ? conj(b, a) : Expected<Output>(a));
        TSTUDIO_AD_TRY(cb, transposeB ? conj(b, x) : Expected<Output>(x));
        return genOp(b, "BatchMatMulV2", {ca, cb},
                     {{"adj_x", attr::b(adjointA || transposeA)}, {"adj_y", attr::b(adjointB || transposeB)}},
                     scope.name());
    }
    TSTUDIO_AD_TRY(ca, adjointA ? conj(b, a) : Expected<Output>(a));
    TSTUDIO_AD_TRY(cb, adjointB ? conj(b, x) : Expected<Output>(x));
    return genOp(b, "MatMul", {ca, cb},
                 {{"transpose_a", attr::b(transposeA || adjointA)}, {"transpose_b", attr::b(transposeB || adjointB)}},
                 scope.name());
}

} // namespace tstudio::py
