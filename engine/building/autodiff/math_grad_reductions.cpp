// The math family's gradients of reductions (Sum, Mean, Max, Min) and matrix products (MatMul,
// BatchMatMul, BatchMatMulV2), emitting the ops and names of TensorFlow 1.15's math_grad.py.
#include "autodiff/math_grad_internal.h"

#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

#include <algorithm>

namespace tstudio::math_grad {
namespace {

using py::Operator;

/// An integer tensor's value known while building: its elements and rank.
struct IntValue {
    std::vector<std::int64_t> values;
    int rank = 0;
};

std::optional<IntValue> intsOf(const Tensor* value)
{
    if (value == nullptr)
        return std::nullopt;
    IntValue out;
    out.rank = value->rank();
    if (value->dtype() == tensorflow::DT_INT32) {
        for (std::int32_t v : value->values<std::int32_t>())
            out.values.push_back(v);
    } else if (value->dtype() == tensorflow::DT_INT64) {
        for (std::int64_t v : value->values<std::int64_t>())
            out.values.push_back(v);
    } else {
        return std::nullopt;
    }
    return out;
}

/// tensor_util.constant_value for integer tensors, as far as TensorFlow 1.15 folds them: Const,
/// Shape/Size/Rank of known shapes (the builder knows those), and through Identity, StopGradient,
/// integer Cast, Pack of scalars, ConcatV2 of vectors, Range and Fill. nullopt otherwise.
std::optional<IntValue> constantValue(const GraphBuilder& b, const Output& t, int depth = 0)
{
    const tensorflow::NodeDef* node = b.findNode(t.node());
    if (node == nullptr || depth > 64)
        return std::nullopt;
    const std::string& op = node->op();
    auto input = [&](int i) -> std::optional<IntValue> {
        if (i >= node->input_size() || node->input(i).starts_with('^'))
            return std::nullopt;
        auto in = b.tensor(node->input(i));
        return in ? constantValue(b, *in, depth + 1) : std::nullopt;
    };
    auto scalar = [](const std::optional<IntValue>& v) { return v && v->rank == 0 && v->values.size() == 1; };
    if (op == "Const" || op == "Shape" || op == "Size" || op == "Rank")
        return intsOf(b.constantValue(t));
    if (op == "Identity" || op == "StopGradient" || op == "Cast")
        return isInteger(t.baseDtype()) ? input(0) : std::nullopt;
    if (op == "Pack") {
        IntValue out;
        out.rank = 1;
        for (int i = 0; i < node->input_size() && !node->input(i).starts_with('^'); ++i) {
            auto v = input(i);
            if (!scalar(v))
                return std::nullopt;
            out.values.push_back(v->values.front());
        }
        return out;
    }
    if (op == "ConcatV2") {
        IntValue out;
        out.rank = 1;
        int n = 0;
        while (n < node->input_size() && !node->input(n).starts_with('^'))
            ++n;
        for (int i = 0; i + 1 < n; ++i) {
            auto v = input(i);
            if (!v || v->rank != 1)
                return std::nullopt;
            out.values.insert(out.values.end(), v->values.begin(), v->values.end());
        }
        return out;
    }
    if (op == "Range") {
        auto start = input(0);
        auto limit = input(1);
        auto delta = input(2);
        if (!scalar(start) || !scalar(limit) || !scalar(delta) || delta->values.front() == 0)
            return std::nullopt;
        IntValue out;
        out.rank = 1;
        const std::int64_t step = delta->values.front();
        for (std::int64_t v = start->values.front(); step > 0 ? v < limit->values.front() : v > limit->values.front();
             v += step) {
            out.values.push_back(v);
            if (out.values.size() > 4096)
                return std::nullopt;
        }
        return out;
    }
    if (op == "Fill") {
        auto dims = input(0);
        auto value = input(1);
        if (!dims || dims->rank != 1 || !scalar(value))
            return std::nullopt;
        std::int64_t count = 1;
        for (std::int64_t d : dims->values) {
            if (d < 0 || (d > 0 && count > 4096 / d))
                return std::nullopt;
            count *= d;
        }
        IntValue out;
        out.rank = static_cast<int>(dims->values.size());
        out.values.assign(static_cast<std::size_t>(count), value->values.front());
        return out;
    }
    return std::nullopt;
}

/// A Python tuple converted inside math_ops.cast(tuple, int32): scope "Cast", Const "Cast/x" of
/// `dtype`, and a Cast op named after the scope when `dtype` is not int32.
Expected<Output> castTuple(GraphBuilder& b, const std::vector<std::int64_t>& values, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(x, ops::constantInts(b, values, TensorShape{static_cast<std::int64_t>(values.size())}, dtype, "x"));
    if (dtype == tensorflow::DT_INT32)
        return x;
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(tensorflow::DT_INT32)}}, scope.name());
}

/// The statically known branch of _SumGrad: the reduced shape and the tile multiples are computed
/// from the shapes (TensorFlow builds the reduced_shape and _safe_shape_div nodes for tuples and
/// folds them with TF_TryEvaluateConstant; those nodes stay in the graph, unused, once per
/// (shape, axes) and gradients call). Returns (kept dims, multiples).
Expected<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>
staticReduction(GraphBuilder& b, GradientCallState& state, const std::vector<std::int64_t>& dims,
                const std::vector<std::int64_t>& axes, DataType axesType)
{
    const auto key = std::make_pair(dims, axes);
    if (auto it = state.reducedShapes.find(key); it != state.reducedShapes.end())
        return it->second;
    const auto rank = static_cast<std::int64_t>(dims.size());
    std::vector<std::int64_t> kept = dims;
    for (std::int64_t a : axes) {
        const std::int64_t axis = rank == 0 ? 0 : ((a % rank) + rank) % rank;
        if (axis < 0 || axis >= rank)
            return unexpected(invalidArgumentError("reduction axis " + std::to_string(a) +
                                                   " is out of range for rank " + std::to_string(rank)));
        kept[static_cast<std::size_t>(axis)] = 1;
    }
    std::vector<std::int64_t> multiples(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i)
        multiples[i] = dims[i] / std::max<std::int64_t>(kept[i], 1);

    TSTUDIO_AD_TRY(shapeT, castTuple(b, dims, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(axesT, castTuple(b, axes, axesType));
    TSTUDIO_AD_TRY(unusedKept, py::reducedShape(b, shapeT, axesT));
    (void)unusedKept;
    {
        // _safe_shape_div(tuple, tuple) = tuple // maximum(tuple, 1).
        TSTUDIO_AD_TRY(scope, b.nameScope("Maximum"));
        TSTUDIO_AD_TRY(mx, py::intVector(b, kept, "x"));
        TSTUDIO_AD_TRY(my, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "y"));
        TSTUDIO_AD_TRY(maximum, py::genOp(b, "Maximum", {mx, my}, {}, scope.name()));
        scope.close();
        // tuple // tensor is Tensor.__rfloordiv__: the tuple becomes "floordiv/x".
        TSTUDIO_AD_TRY(div, b.nameScope("floordiv"));
        TSTUDIO_AD_TRY(dx, py::intVector(b, dims, "x"));
        TSTUDIO_AD_TRY(unusedScaling, py::genOp(b, "FloorDiv", {dx, maximum}, {}, div.name()));
        (void)unusedScaling;
    }
    return state.reducedShapes[key] = {kept, multiples};
}

/// _SumGrad: the gradient of Sum's input (the reduction indices get none).
Expected<Output> sumInputGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& input = ctx.input(0);
    const TensorShape& shape = input.shape();
    if (auto known = constantValue(b, ctx.input(1)); known && shape.rank() >= 0) {
        const std::vector<std::int64_t>* axes = &known->values;
        const int axesRank = known->rank;
        const int rank = shape.rank();
        bool all = axesRank == 1 && static_cast<int>(axes->size()) == rank;
        for (int i = 0; all && i < rank; ++i)
            all = (*axes)[static_cast<std::size_t>(i)] == i;
        if (all) {
            // Reducing every axis: only a Reshape to [1,...] and a Tile.
            TSTUDIO_AD_TRY(reshaped,
                           py::reshape(b, grad, std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1)));
            Output inputShape;
            if (shape.isFullyDefined()) {
                TSTUDIO_AD_TRY(c,
                               py::intVector(b, std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end())));
                inputShape = c;
            } else {
                TSTUDIO_AD_TRY(s, py::shape(b, input));
                inputShape = s;
            }
            return py::tile(b, reshaped, inputShape);
        }
        if (shape.isFullyDefined()) {
            const std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
            TSTUDIO_AD_TRY(folded, staticReduction(b, ctx.callState(), dims, *axes, ctx.input(1).baseDtype()));
            TSTUDIO_AD_TRY(reshaped, py::reshape(b, grad, folded.first));
            return py::tile(b, reshaped, folded.second);
        }
    }
    TSTUDIO_AD_TRY(inputShape, py::shape(b, input));
    Output kept;
    Output scaling;
    {
        TSTUDIO_AD_TRY(shapeOp, py::producer(b, inputShape));
        auto colocation = b.colocateWith(shapeOp);
        TSTUDIO_AD_TRY(k, py::reducedShape(b, inputShape, ctx.input(1)));
        TSTUDIO_AD_TRY(s, py::safeShapeDiv(b, inputShape, k));
        kept = k;
        scaling = s;
    }
    TSTUDIO_AD_TRY(reshaped, py::reshape(b, grad, kept));
    return py::tile(b, reshaped, scaling);
}

Status sumGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(g, sumInputGrad(ctx));
    return ctx.setInputGradient(0, g);
}

Status meanGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(sumGradient, sumInputGrad(ctx));
    const TensorShape& in = ctx.input(0).shape();
    const TensorShape& out = ctx.output(0).shape();
    Output factor;
    if (in.isFullyDefined() && out.isFullyDefined()) {
        TSTUDIO_AD_TRY(inSize, in.numElements());
        TSTUDIO_AD_TRY(outSize, out.numElements());
        TSTUDIO_AD_TRY(c, py::constant(b, static_cast<double>(inSize / std::max<std::int64_t>(outSize, 1)),
                                       sumGradient.baseDtype()));
        factor = c;
    } else {
        TSTUDIO_AD_TRY(inShape, py::shape(b, ctx.input(0)));
        TSTUDIO_AD_TRY(outShape, py::shape(b, ctx.output(0)));
        TSTUDIO_AD_TRY(inProd, py::reduceProdAll(b, inShape));
        TSTUDIO_AD_TRY(outProd, py::reduceProdAll(b, outShape));
        TSTUDIO_AD_TRY(f, py::safeShapeDiv(b, inProd, outProd));
        factor = f;
    }
    TSTUDIO_AD_TRY(castFactor, py::cast(b, factor, sumGradient.baseDtype()));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kTrueDiv, sumGradient, castFactor));
    return ctx.setInputGradient(0, g);
}

/// Max and Min: the gradient is shared equally by the elements equal to the extreme value.
Status minOrMaxGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& input = ctx.input(0);
    TSTUDIO_AD_TRY(inputShape, py::shape(b, input));
    TSTUDIO_AD_TRY(kept, py::reducedShape(b, inputShape, ctx.input(1)));
    TSTUDIO_AD_TRY(y, py::reshape(b, ctx.output(0), kept));
    TSTUDIO_AD_TRY(g, py::reshape(b, grad, kept));
    TSTUDIO_AD_TRY(equal, py::genOp(b, "Equal", {y, input}));
    TSTUDIO_AD_TRY(indicators, py::cast(b, equal, g.baseDtype()));
    TSTUDIO_AD_TRY(count, py::reduceSum(b, indicators, ctx.input(1)));
    TSTUDIO_AD_TRY(numSelected, py::reshape(b, count, kept));
    TSTUDIO_AD_TRY(share, py::binary(b, Operator::kTrueDiv, indicators, numSelected));
    TSTUDIO_AD_TRY(result, py::binary(b, Operator::kMul, share, g));
    return ctx.setInputGradient(0, result);
}

Status matMulGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(ta, attrBool(ctx.node(), "transpose_a"));
    TSTUDIO_AD_TRY(tb, attrBool(ctx.node(), "transpose_b"));
    TSTUDIO_AD_TRY(a, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(1)));
    auto mm = [&](const Output& p, const Output& q, bool tp, bool tq) {
        return py::genOp(b, "MatMul", {p, q}, {{"transpose_a", attr::b(tp)}, {"transpose_b", attr::b(tq)}});
    };
    Expected<Output> ga = unexpected(internalError("unset"));
    Expected<Output> gb = ga;
    if (!ta && !tb) {
        ga = mm(grad, x, false, true);
        gb = ga ? mm(a, grad, true, false) : ga;
    } else if (!ta && tb) {
        ga = mm(grad, x, false, false);
        gb = ga ? mm(grad, a, true, false) : ga;
    } else if (ta && !tb) {
        ga = mm(x, grad, false, true);
        gb = ga ? mm(a, grad, false, false) : ga;
    } else {
        ga = mm(x, grad, true, true);
        gb = ga ? mm(grad, a, true, true) : ga;
    }
    if (!ga)
        return ga.error();
    if (!gb)
        return gb.error();
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, *ga));
    return ctx.setInputGradient(1, *gb);
}

/// BatchMatMul and BatchMatMulV2 (math_ops.matmul with adjoints); V2 also sums the gradients over
/// broadcast batch dimensions unless both shapes are fully defined and equal.
Status batchMatMulGrad(GradientContext& ctx, bool v2)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& x = ctx.input(0);
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(adjX, attrBool(ctx.node(), "adj_x"));
    TSTUDIO_AD_TRY(adjY, attrBool(ctx.node(), "adj_y"));
    auto mm = [&](const Output& p, const Output& q, bool ap, bool aq) {
        return py::matmul(b, p, q, false, false, ap, aq);
    };
    Expected<Output> gx = unexpected(internalError("unset"));
    Expected<Output> gy = gx;
    if (!adjX && !adjY) {
        gx = mm(grad, y, false, true);
        gy = gx ? mm(x, grad, true, false) : gx;
    } else if (!adjX && adjY) {
        gx = mm(grad, y, false, false);
        gy = gx ? mm(grad, x, true, false) : gx;
    } else if (adjX && !adjY) {
        gx = mm(y, grad, false, true);
        gy = gx ? mm(x, grad, false, false) : gx;
    } else {
        gx = mm(y, grad, true, true);
        gy = gx ? mm(grad, x, true, true) : gx;
    }
    if (!gx)
        return gx.error();
    if (!gy)
        return gy.error();
    Output gradX = *gx;
    Output gradY = *gy;
    const TensorShape& sxStatic = x.shape();
    const TensorShape& syStatic = y.shape();
    if (v2 && !(sxStatic.isFullyDefined() && syStatic.isFullyDefined() && sxStatic == syStatic)) {
        TSTUDIO_AD_TRY(sx, py::shape(b, x));
        TSTUDIO_AD_TRY(sy, py::shape(b, y));
        TSTUDIO_AD_TRY(bx, py::sliceTo(b, sx, -2));
        TSTUDIO_AD_TRY(by, py::sliceTo(b, sy, -2));
        TSTUDIO_AD_TRY(args, py::broadcastGradientArgs(b, bx, by));
        TSTUDIO_AD_TRY(sumX, py::reduceSum(b, gradX, args.output(0)));
        TSTUDIO_AD_TRY(rx, py::reshape(b, sumX, sx));
        TSTUDIO_AD_TRY(sumY, py::reduceSum(b, gradY, args.output(1)));
        TSTUDIO_AD_TRY(ry, py::reshape(b, sumY, sy));
        gradX = rx;
        gradY = ry;
    }
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, gradX));
    return ctx.setInputGradient(1, gradY);
}

} // namespace

GradientTable reductionAndMatMulGradients()
{
    return {
        {"Sum", sumGrad},
        {"Mean", meanGrad},
        {"Max", minOrMaxGrad},
        {"Min", minOrMaxGrad},
        {"MatMul", matMulGrad},
        {"BatchMatMul", [](GradientContext& c) { return batchMatMulGrad(c, false); }},
        {"BatchMatMulV2", [](GradientContext& c) { return batchMatMulGrad(c, true); }},
    };
}

} // namespace tstudio::math_grad
