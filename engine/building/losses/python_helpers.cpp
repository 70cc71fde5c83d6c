// The Python helpers of TensorFlow 1.15 that tf.losses and tf.metrics call, as GraphBuilder calls.
#include "losses/python_helpers.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "framework/op_registry.h"

#include <functional>
#include <span>
#include <string>

namespace tstudio::lossutil {
namespace {

/// A NumPy array of ints as str() prints it: "[2 3]".
std::string numpyInts(const TensorShape& shape)
{
    std::string s = "[";
    for (int i = 0; i < shape.rank(); ++i) {
        if (i > 0)
            s += ' ';
        s += std::to_string(shape.dim(i));
    }
    return s + "]";
}

const char* kBroadcastPrefix = "weights can not be broadcast to values.";

/// The "shape" and "rank" nodes assert_broadcastable makes for weights and for values.
struct ShapeAndRank {
    Output shape;
    Output rank;
};

/// The "shape" and "rank" nodes of a tensor inside its "weights" or "values" scope.
Expected<ShapeAndRank> shapeAndRank(GraphBuilder& b, const Output& t)
{
    ShapeAndRank out;
    const TensorShape& s = t.shape();
    if (s.isFullyDefined()) {
        TSTUDIO_AD_TRY(shapeT, ops::shapeTensor(b, s, "shape"));
        out.shape = shapeT;
    } else {
        TSTUDIO_AD_TRY(shapeT, py::genOp(b, "Shape", {t}, {{"out_type", attr::type(tensorflow::DT_INT32)}}, "shape"));
        out.shape = shapeT;
    }
    if (!s.isUnknownRank()) {
        TSTUDIO_AD_TRY(rankT, ops::constantInts(b, {s.rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "rank"));
        out.rank = rankT;
    } else {
        TSTUDIO_AD_TRY(rankT, py::genOp(b, "Rank", {t}, {}, "rank"));
        out.rank = rankT;
    }
    return out;
}

Expected<Output> stringConst(GraphBuilder& b, const std::string& value, std::string_view name)
{
    auto proto = makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&value, 1));
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, name);
}

/// n ones (int32) for a scalar int32 n: Fill(Reshape(n, [1]), 1).
Expected<Output> onesOfLength(GraphBuilder& b, const Output& n)
{
    TSTUDIO_AD_TRY(dims, py::reshape(b, n, std::vector<std::int64_t>{1}));
    return py::fill(b, dims, 1.0, tensorflow::DT_INT32);
}

/// The run-time half of assert_broadcastable, in the current "assert_broadcastable" scope.
///
/// TensorFlow decides is_valid_shape with nested tf.conds and a DenseToDenseSetOperation (each
/// weights dim minus {values dim, 1} must be empty); TensorStudio has no set op, so the same
/// decision is computed without conds: both shape vectors are padded with ones to one length
/// (rank(weights) + rank(values)), and
///   is_valid_shape = is_scalar or (rank(values) == rank(weights) and
///                                  all(w_dims == 1 or w_dims == v_dims)).
/// The Assert then takes TensorFlow's data list and message, unguarded (TensorFlow wraps it in the
/// tf.cond "AssertGuard" because a bool is among the data; the outcome is the same).
Expected<Operation> assertBroadcastableAtRunTime(GraphBuilder& b, const ShapeAndRank& w, const std::string& weightsName,
                                                 const ShapeAndRank& v, const std::string& valuesName)
{
    Output isScalar;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("is_scalar"));
        TSTUDIO_AD_TRY(zero, py::constant(b, 0, tensorflow::DT_INT32, "x"));
        TSTUDIO_AD_TRY(eq, py::genOp(b, "Equal", {zero, w.rank}, {}, scope.name()));
        isScalar = eq;
    }
    Output isValid;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("is_valid_shape"));
        TSTUDIO_AD_TRY(sameRank, py::genOp(b, "Equal", {v.rank, w.rank}, {}, "is_same_rank"));
        TSTUDIO_AD_TRY(wOnes, onesOfLength(b, v.rank));
        TSTUDIO_AD_TRY(vOnes, onesOfLength(b, w.rank));
        TSTUDIO_AD_TRY(axis, py::constant(b, 0, tensorflow::DT_INT32, "concat/axis"));
        TSTUDIO_AD_TRY(wDims,
                       py::genOp(b, "ConcatV2", {OpInput(std::vector<Output>{w.shape, wOnes}), axis}, {}, "concat"));
        TSTUDIO_AD_TRY(axis1, py::constant(b, 0, tensorflow::DT_INT32, "concat_1/axis"));
        TSTUDIO_AD_TRY(vDims,
                       py::genOp(b, "ConcatV2", {OpInput(std::vector<Output>{v.shape, vOnes}), axis1}, {}, "concat_1"));
        TSTUDIO_AD_TRY(isOne, py::genOpScalarY(b, "Equal", wDims, 1.0));
        TSTUDIO_AD_TRY(isSame, py::genOp(b, "Equal", {wDims, vDims}));
        TSTUDIO_AD_TRY(dimOk, py::genOp(b, "LogicalOr", {isOne, isSame}));
        TSTUDIO_AD_TRY(dimsOk, reduceAll(b, "All", dimOk, "has_valid_dims"));
        TSTUDIO_AD_TRY(nonScalarOk, py::genOp(b, "LogicalAnd", {sameRank, dimsOk}));
        TSTUDIO_AD_TRY(valid, py::genOp(b, "LogicalOr", {isScalar, nonScalarOk}, {}, scope.name()));
        isValid = valid;
    }
    TSTUDIO_AD_TRY(scope, b.nameScope("Assert"));
    // The Python strings of the data list become the Consts "data_<index>" of the Assert's scope.
    auto text = [&](int index, const std::string& value) {
        return stringConst(b, value, "data_" + std::to_string(index));
    };
    TSTUDIO_AD_TRY(prefix, text(0, kBroadcastPrefix));
    TSTUDIO_AD_TRY(weightsLabel, text(1, "weights.shape="));
    TSTUDIO_AD_TRY(weightsTensor, text(2, weightsName));
    TSTUDIO_AD_TRY(valuesLabel, text(4, "values.shape="));
    TSTUDIO_AD_TRY(valuesTensor, text(5, valuesName));
    TSTUDIO_AD_TRY(scalarLabel, text(7, "is_scalar="));
    std::vector<Output> data = {prefix,       weightsLabel, weightsTensor, w.shape, valuesLabel,
                                valuesTensor, v.shape,      scalarLabel,   isScalar};
    return b.op("Assert", {isValid, OpInput(std::move(data))}, {{"summarize", attr::i(3)}}, scope.name());
}

/// assert_broadcastable with the scopes "weights" and "values": the static checks when ranks (and
/// for non-scalar weights, shapes) are known, else the run-time Assert. `weightsNodes` makes the
/// weights tensor's nodes in the "weights" scope; `weightsShape` is its static shape.
Expected<Operation> assertBroadcastableImpl(GraphBuilder& b, const TensorShape& weightsShape,
                                            const std::string& weightsName, const Output& values,
                                            const std::function<Expected<ShapeAndRank>(GraphBuilder&)>& weightsNodes)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_broadcastable"));
    ShapeAndRank w;
    {
        TSTUDIO_AD_TRY(ws, b.nameScope("weights"));
        TSTUDIO_AD_TRY(made, weightsNodes(b));
        w = made;
    }
    ShapeAndRank v;
    {
        TSTUDIO_AD_TRY(vs, b.nameScope("values"));
        TSTUDIO_AD_TRY(made, shapeAndRank(b, values));
        v = made;
    }
    const TensorShape& vs = values.shape();
    if (weightsShape.isUnknownRank() || vs.isUnknownRank())
        return assertBroadcastableAtRunTime(b, w, weightsName, v, values.name());
    if (weightsShape.rank() == 0)
        return b.op("NoOp", {}, {}, "static_scalar_check_success");
    if (weightsShape.rank() != vs.rank())
        return unexpected(invalidArgumentError(
            std::string(kBroadcastPrefix) + " values.rank=" + std::to_string(vs.rank()) +
            ". weights.rank=" + std::to_string(weightsShape.rank()) + ". values.shape=" + pythonShapeString(vs) +
            ". weights.shape=" + pythonShapeString(weightsShape) + "."));
    if (!weightsShape.isFullyDefined() || !vs.isFullyDefined())
        return assertBroadcastableAtRunTime(b, w, weightsName, v, values.name());
    for (int i = 0; i < vs.rank(); ++i) {
        if (weightsShape.dim(i) != 1 && weightsShape.dim(i) != vs.dim(i))
            return unexpected(invalidArgumentError(std::string(kBroadcastPrefix) + " Mismatch at dim " +
                                                   std::to_string(i) + ". values.shape=" + numpyInts(vs) +
                                                   " weights.shape=" + numpyInts(weightsShape) + "."));
    }
    return b.op("NoOp", {}, {}, "static_dims_check_success");
}

} // namespace

Expected<Output> intListConst(GraphBuilder& b, const std::vector<std::int64_t>& values, std::string_view name)
{
    return py::intVector(b, values, name);
}

Expected<Output> reduceAll(GraphBuilder& b, std::string_view type, const Output& x, std::string_view name)
{
    Output axes;
    if (!x.shape().isUnknownRank()) {
        std::vector<std::int64_t> range;
        for (int i = 0; i < x.shape().rank(); ++i)
            range.push_back(i);
        TSTUDIO_AD_TRY(c, py::intVector(b, range, "Const"));
        axes = c;
    } else {
        TSTUDIO_AD_TRY(rank, py::genOp(b, "Rank", {x}));
        TSTUDIO_AD_TRY(scope, b.nameScope("range"));
        TSTUDIO_AD_TRY(start, py::constant(b, 0, tensorflow::DT_INT32, "start"));
        TSTUDIO_AD_TRY(delta, py::constant(b, 1, tensorflow::DT_INT32, "delta"));
        TSTUDIO_AD_TRY(r, py::genOp(b, "Range", {start, rank, delta}, {}, scope.name()));
        axes = r;
    }
    return py::genOp(b, type, {x, axes}, {{"keep_dims", attr::b(false)}}, name.empty() ? type : name);
}

Expected<Output> reduceAxis(GraphBuilder& b, std::string_view type, const Output& x, std::int64_t axis,
                            std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? type : name));
    TSTUDIO_AD_TRY(axes, py::constant(b, static_cast<double>(axis), tensorflow::DT_INT32, "reduction_indices"));
    return py::genOp(b, type, {x, axes}, {{"keep_dims", attr::b(false)}}, scope.name());
}

Expected<Output> divNoNan(GraphBuilder& b, const Output& x, const Output& y, std::string_view name)
{
    if (b.registry().find("DivNoNan") != nullptr)
        return py::genOp(b, "DivNoNan", {x, y}, {}, name);
    // Without the op: select(y == 0, 0, x / select(y == 0, 1, y)). The inner select keeps the
    // division (and its gradient) finite where the outer one discards it.
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(zero, py::zerosLike(b, y));
    TSTUDIO_AD_TRY(isZero, py::genOp(b, "Equal", {y, zero}));
    TSTUDIO_AD_TRY(one, py::onesLike(b, y));
    TSTUDIO_AD_TRY(safeY, py::genOp(b, "Select", {isZero, one, y}));
    TSTUDIO_AD_TRY(quotient, py::genOp(b, "RealDiv", {x, safeY}));
    TSTUDIO_AD_TRY(zeroOut, py::zerosLike(b, quotient));
    return py::genOp(b, "Select", {isZero, zeroOut, quotient}, {}, scope.name());
}

Expected<Output> squeeze(GraphBuilder& b, const Output& x, std::int64_t axis)
{
    return py::genOp(b, "Squeeze", {x}, {{"squeeze_dims", attr::ints({axis})}});
}

Expected<Output> expandDimsLast(GraphBuilder& b, const Output& x, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(dim, py::intVector(b, {-1}, "dim"));
    return py::genOp(b, "ExpandDims", {x, dim}, {}, scope.name());
}

Expected<Output> selectScalarElse(GraphBuilder& b, const Output& condition, const Output& x, double y,
                                  std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(e, py::constant(b, y, x.baseDtype(), "e"));
    return py::genOp(b, "Select", {condition, x, e}, {}, scope.name());
}

Status assertCompatible(const TensorShape& a, const TensorShape& b)
{
    if (a.isCompatibleWith(b))
        return Status::ok();
    return invalidArgumentError("Shapes " + pythonShapeString(a) + " and " + pythonShapeString(b) +
                                " are incompatible");
}

Expected<Operation> assertBroadcastable(GraphBuilder& b, const Output& weights, const Output& values)
{
    return assertBroadcastableImpl(b, weights.shape(), weights.name(), values,
                                   [&](GraphBuilder& g) { return shapeAndRank(g, weights); });
}

Expected<Operation> assertBroadcastableScalar(GraphBuilder& b, double weights, const Output& values)
{
    return assertBroadcastableImpl(
        b, TensorShape::scalar(), {}, values, [&](GraphBuilder& g) -> Expected<ShapeAndRank> {
            // convert_to_tensor(weights, name=<the "weights/" scope>): the
            // Const takes the scope's name.
            TSTUDIO_AD_TRY(w, py::constant(g, weights, tensorflow::DT_FLOAT, g.currentNameScope() + "/"));
            return shapeAndRank(g, w);
        });
}

Expected<Output> broadcastWeights(GraphBuilder& b, const Output& weights, const Output& values)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("broadcast_weights"));
    if (weights.baseDtype() != values.baseDtype())
        return unexpected(invalidArgumentError("broadcast_weights: weights of type " +
                                               dataTypeName(weights.baseDtype()) + " for values of type " +
                                               dataTypeName(values.baseDtype())));
    const TensorShape& ws = weights.shape();
    const TensorShape& vs = values.shape();
    if (ws.isFullyDefined() && vs.isFullyDefined() && ws.isCompatibleWith(vs))
        return weights;
    TSTUDIO_AD_TRY(check, assertBroadcastable(b, weights, values));
    ScopeGuard deps = b.controlDependencies({check});
    TSTUDIO_AD_TRY(ones, py::onesLike(b, values));
    return py::genOp(b, "Mul", {weights, ones}, {}, scope.name());
}

Status removeSqueezableDimensions(GraphBuilder& b, Output& labels, Output& predictions, std::int64_t expectedRankDiff)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("remove_squeezable_dimensions"));
    const TensorShape& ps = predictions.shape();
    const TensorShape& ls = labels.shape();
    if (ps.isUnknownRank() || ls.isUnknownRank())
        return unimplementedError("remove_squeezable_dimensions: the ranks of labels and predictions must be known "
                                  "while building (TensorFlow decides at run time with tf.cond)");
    const std::int64_t rankDiff = ps.rank() - ls.rank();
    auto lastIsOne = [](const TensorShape& s) {
        return s.rank() > 0 && (s.dim(s.rank() - 1) == 1 || s.dim(s.rank() - 1) < 0);
    };
    if (rankDiff == expectedRankDiff + 1 && lastIsOne(ps)) {
        TSTUDIO_AD_TRY(sq, squeeze(b, predictions, -1));
        predictions = sq;
    } else if (rankDiff == expectedRankDiff - 1 && lastIsOne(ls)) {
        TSTUDIO_AD_TRY(sq, squeeze(b, labels, -1));
        labels = sq;
    }
    return Status::ok();
}

} // namespace tstudio::lossutil
