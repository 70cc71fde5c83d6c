// The math family's gradients as TensorFlow 1.15's math_grad.py defines them: element-wise unary
// (trigonometry included) and broadcasting binary ops, AddN, Cast, Select; comparisons and logic
// are not differentiable.
// Every function emits the ops (and node names) the Python function emits, so the gradient graphs
// match TensorFlow's; the reductions and matrix products are in math_grad_reductions.cpp.
#include "autodiff/gradients_registry.h"
#include "autodiff/math_grad_internal.h"
#include "builder/ops_sugar.h"

namespace tstudio {
namespace math_grad {

Expected<ScopeGuard> controlDependenciesOn(GraphBuilder& b, const Output& t)
{
    TSTUDIO_AD_TRY(op, py::producer(b, t));
    return b.controlDependencies({op});
}

bool shapesFullySpecifiedAndEqual(const Output& x, const Output& y, const Output& grad)
{
    return x.shape().isFullyDefined() && x.shape() == y.shape() && x.shape() == grad.shape();
}

} // namespace math_grad

namespace {

using math_grad::controlDependenciesOn;
using py::Operator;

// --- Broadcasting binary ops -------------------------------------------------------------------------

/// sx = shape(x), sy = shape(y), rx, ry = broadcast_gradient_args(sx, sy).
struct Broadcast {
    Output sx, sy, rx, ry;
};

Expected<Broadcast> broadcastArgs(GraphBuilder& b, const Output& x, const Output& y)
{
    TSTUDIO_AD_TRY(sx, py::shape(b, x));
    TSTUDIO_AD_TRY(sy, py::shape(b, y));
    TSTUDIO_AD_TRY(args, py::broadcastGradientArgs(b, sx, sy));
    return Broadcast{sx, sy, args.output(0), args.output(1)};
}

/// reshape(reduce_sum(g, r), s): the gradient of a broadcast input.
Expected<Output> sumTo(GraphBuilder& b, const Output& g, const Output& r, const Output& s)
{
    TSTUDIO_AD_TRY(sum, py::reduceSum(b, g, r));
    return py::reshape(b, sum, s);
}

Status setBoth(GradientContext& ctx, const Output& gx, const Output& gy)
{
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, gx));
    return ctx.setInputGradient(1, gy);
}

Status addGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& x = ctx.input(0);
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(grad, ctx.grad());
    if (math_grad::shapesFullySpecifiedAndEqual(x, y, grad))
        return setBoth(ctx, grad, grad);
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, x, y));
    TSTUDIO_AD_TRY(gx, sumTo(b, grad, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(gy, sumTo(b, grad, bc.ry, bc.sy));
    return setBoth(ctx, gx, gy);
}

Status subGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& x = ctx.input(0);
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(grad, ctx.grad());
    if (math_grad::shapesFullySpecifiedAndEqual(x, y, grad)) {
        TSTUDIO_AD_TRY(negated, py::neg(b, grad));
        return setBoth(ctx, grad, negated);
    }
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, x, y));
    TSTUDIO_AD_TRY(gx, sumTo(b, grad, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(sumY, py::reduceSum(b, grad, bc.ry));
    TSTUDIO_AD_TRY(negY, py::neg(b, sumY));
    TSTUDIO_AD_TRY(gy, py::reshape(b, negY, bc.sy));
    return setBoth(ctx, gx, gy);
}

Status mulGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& x0 = ctx.input(0);
    const Output& y0 = ctx.input(1);
    const DataType t = grad.baseDtype();
    if (math_grad::shapesFullySpecifiedAndEqual(x0, y0, grad) &&
        (t == tensorflow::DT_INT32 || t == tensorflow::DT_FLOAT)) {
        TSTUDIO_AD_TRY(gx, py::genOp(b, "Mul", {grad, y0}));
        TSTUDIO_AD_TRY(gy, py::genOp(b, "Mul", {grad, x0}));
        return setBoth(ctx, gx, gy);
    }
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, x0, y0));
    TSTUDIO_AD_TRY(x, py::conj(b, x0));
    TSTUDIO_AD_TRY(y, py::conj(b, y0));
    TSTUDIO_AD_TRY(gxFull, py::binary(b, Operator::kMul, grad, y));
    TSTUDIO_AD_TRY(gx, sumTo(b, gxFull, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(gyFull, py::binary(b, Operator::kMul, x, grad));
    TSTUDIO_AD_TRY(gy, sumTo(b, gyFull, bc.ry, bc.sy));
    return setBoth(ctx, gx, gy);
}

/// Div and RealDiv: grad / y and grad * (-x / y / y), with `divide` emitting the quotients
/// (math_ops.divide, i.e. truediv, for Div; gen_math_ops.real_div for RealDiv).
template <typename Divide> Status divGrad(GradientContext& ctx, Divide divide)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, ctx.input(0), ctx.input(1)));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(y, py::conj(b, ctx.input(1)));
    TSTUDIO_AD_TRY(q, divide(b, grad, y));
    TSTUDIO_AD_TRY(gx, sumTo(b, q, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(negX, py::neg(b, x));
    TSTUDIO_AD_TRY(q1, divide(b, negX, y));
    TSTUDIO_AD_TRY(q2, divide(b, q1, y));
    TSTUDIO_AD_TRY(gyFull, py::binary(b, Operator::kMul, grad, q2));
    TSTUDIO_AD_TRY(gy, sumTo(b, gyFull, bc.ry, bc.sy));
    return setBoth(ctx, gx, gy);
}

Status divOpGrad(GradientContext& ctx)
{
    return divGrad(
        ctx, [](GraphBuilder& b, const Output& p, const Output& q) { return py::binary(b, Operator::kTrueDiv, p, q); });
}

Status realDivGrad(GradientContext& ctx)
{
    return divGrad(ctx, [](GraphBuilder& b, const Output& p, const Output& q) {
        return py::genOp(b, "RealDiv", {p, q});
    });
}

/// DivNoNan: RealDiv's gradient with every quotient a div_no_nan (math_ops.div_no_nan names the node
/// after its scope, "div_no_nan"), so y == 0 contributes 0 to both gradients.
Status divNoNanGrad(GradientContext& ctx)
{
    return divGrad(ctx, [](GraphBuilder& b, const Output& p, const Output& q) {
        return py::genOp(b, "DivNoNan", {p, q}, {}, "div_no_nan");
    });
}

Status floorModGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(y, py::conj(b, ctx.input(1)));
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, x, y));
    TSTUDIO_AD_TRY(floorXY, py::genOp(b, "FloorDiv", {x, y}));
    TSTUDIO_AD_TRY(gx, sumTo(b, grad, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(negFloor, py::neg(b, floorXY));
    TSTUDIO_AD_TRY(gyFull, py::binary(b, Operator::kMul, grad, negFloor));
    TSTUDIO_AD_TRY(gy, sumTo(b, gyFull, bc.ry, bc.sy));
    return setBoth(ctx, gx, gy);
}

/// d(x^y) = (grad * y * x^(y-1), grad * z * log(x)), with log(x) taken as 0 where x <= 0.
Status powGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, ctx.input(0), ctx.input(1)));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(y, py::conj(b, ctx.input(1)));
    TSTUDIO_AD_TRY(z, py::conj(b, ctx.output(0)));
    TSTUDIO_AD_TRY(gradY, py::binary(b, Operator::kMul, grad, y));
    TSTUDIO_AD_TRY(yMinusOne, py::binary(b, Operator::kSub, y, 1.0));
    TSTUDIO_AD_TRY(power, py::genOp(b, "Pow", {x, yMinusOne}));
    TSTUDIO_AD_TRY(gxFull, py::binary(b, Operator::kMul, gradY, power));
    TSTUDIO_AD_TRY(gx, sumTo(b, gxFull, bc.rx, bc.sx));
    // There is no sensible real value for x < 0, so the log is taken as 0 there (x > 0 mask).
    TSTUDIO_AD_TRY(mask, py::genOpScalarY(b, "Greater", x, 0.0));
    TSTUDIO_AD_TRY(ones, py::onesLike(b, x));
    TSTUDIO_AD_TRY(safeX, py::where(b, mask, x, ones));
    TSTUDIO_AD_TRY(logSafe, py::genOp(b, "Log", {safeX}));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, x));
    TSTUDIO_AD_TRY(logX, py::where(b, mask, logSafe, zeros));
    TSTUDIO_AD_TRY(gradZ, py::binary(b, Operator::kMul, grad, z));
    TSTUDIO_AD_TRY(gyFull, py::binary(b, Operator::kMul, gradZ, logX));
    TSTUDIO_AD_TRY(gy, sumTo(b, gyFull, bc.ry, bc.sy));
    return setBoth(ctx, gx, gy);
}

/// Maximum (selector GreaterEqual) and Minimum (LessEqual): the gradient goes to x where the
/// selector holds, else to y.
Status maximumMinimumGrad(GradientContext& ctx, std::string_view selector)
{
    GraphBuilder& b = ctx.builder();
    const Output& x = ctx.input(0);
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(sx, py::shape(b, x));
    TSTUDIO_AD_TRY(sy, py::shape(b, y));
    TSTUDIO_AD_TRY(gradShape, py::shape(b, grad));
    TSTUDIO_AD_TRY(zeros, py::zeros(b, gradShape, grad.baseDtype()));
    TSTUDIO_AD_TRY(xmask, py::genOp(b, selector, {x, y}));
    TSTUDIO_AD_TRY(args, py::broadcastGradientArgs(b, sx, sy));
    TSTUDIO_AD_TRY(xgrad, py::where(b, xmask, grad, zeros));
    TSTUDIO_AD_TRY(ygrad, py::where(b, xmask, zeros, grad));
    TSTUDIO_AD_TRY(gx, sumTo(b, xgrad, args.output(0), sx));
    TSTUDIO_AD_TRY(gy, sumTo(b, ygrad, args.output(1), sy));
    return setBoth(ctx, gx, gy);
}

Status squaredDifferenceGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& x = ctx.input(0);
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(bc, broadcastArgs(b, x, y));
    Output xGrad;
    {
        TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
        // math_ops.scalar_mul(2.0, grad): the scalar is a Const "scalar", the product a gen Mul.
        TSTUDIO_AD_TRY(two, py::constant(b, 2.0, grad.baseDtype(), "scalar"));
        TSTUDIO_AD_TRY(twice, py::genOp(b, "Mul", {two, grad}));
        TSTUDIO_AD_TRY(diff, py::binary(b, Operator::kSub, x, y));
        TSTUDIO_AD_TRY(product, py::binary(b, Operator::kMul, twice, diff));
        xGrad = product;
    }
    TSTUDIO_AD_TRY(gx, sumTo(b, xGrad, bc.rx, bc.sx));
    TSTUDIO_AD_TRY(gyPos, sumTo(b, xGrad, bc.ry, bc.sy));
    TSTUDIO_AD_TRY(gy, py::neg(b, gyPos));
    return setBoth(ctx, gx, gy);
}

// --- Unary ops -----------------------------------------------------------------------------------------

Status negGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::neg(ctx.builder(), grad));
    return ctx.setInputGradient(0, g);
}

Status absGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(sign, py::genOp(b, "Sign", {ctx.input(0)}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, sign));
    return ctx.setInputGradient(0, g);
}

/// Sign's gradient is zero everywhere (TensorFlow returns explicit zeros, not None).
Status signGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& x = ctx.input(0);
    TSTUDIO_AD_TRY(dims, py::shape(b, x));
    TSTUDIO_AD_TRY(g, py::zeros(b, dims, x.baseDtype()));
    return ctx.setInputGradient(0, g);
}

Status squareGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    // The control dependency keeps 2 * x from being computed before the gradient is needed.
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(two, py::constant(b, 2.0, x.baseDtype()));
    TSTUDIO_AD_TRY(twiceX, py::genOp(b, "Mul", {x, two}));
    TSTUDIO_AD_TRY(g, py::genOp(b, "Mul", {grad, twiceX}));
    return ctx.setInputGradient(0, g);
}

/// Sqrt, Rsqrt, Reciprocal: the gradient op of the output and the incoming gradient.
Status outputGradOp(GradientContext& ctx, std::string_view gradOp, bool controlOnGrad)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    std::optional<ScopeGuard> control;
    if (controlOnGrad) {
        TSTUDIO_AD_TRY(guard, controlDependenciesOn(b, grad));
        control.emplace(std::move(guard));
    }
    TSTUDIO_AD_TRY(y, py::conj(b, ctx.output(0)));
    TSTUDIO_AD_TRY(g, py::genOp(b, gradOp, {y, grad}));
    return ctx.setInputGradient(0, g);
}

Status expGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(y, py::conj(b, ctx.output(0)));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, y));
    return ctx.setInputGradient(0, g);
}

/// Log (1 / x) and Log1p (1 / (1 + x)).
Status logGrad(GradientContext& ctx, bool plusOne)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    Output denominator = x;
    if (plusOne) {
        TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, 1.0, x));
        denominator = sum;
    }
    TSTUDIO_AD_TRY(inverse, py::genOp(b, "Reciprocal", {denominator}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, inverse));
    return ctx.setInputGradient(0, g);
}

// --- Trigonometric functions: each gated on the incoming gradient, x conjugated first ----------

/// Sin: grad * cos(x).
Status sinGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(cosX, py::genOp(b, "Cos", {x}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, cosX));
    return ctx.setInputGradient(0, g);
}

/// Cos: -grad * sin(x) (the negation comes first, as Python evaluates the expression).
Status cosGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(negGrad, py::neg(b, grad));
    TSTUDIO_AD_TRY(sinX, py::genOp(b, "Sin", {x}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, negGrad, sinX));
    return ctx.setInputGradient(0, g);
}

/// Tan: sec(x)^2 * grad, with sec(x) = reciprocal(cos(x)).
Status tanGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(cosX, py::genOp(b, "Cos", {x}));
    TSTUDIO_AD_TRY(secX, py::genOp(b, "Reciprocal", {cosX}));
    TSTUDIO_AD_TRY(secX2, py::genOp(b, "Square", {secX}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, secX2, grad));
    return ctx.setInputGradient(0, g);
}

/// Asin: grad * reciprocal(sqrt(1 - x^2)); Acos: the same with -grad.
Status asinAcosGrad(GradientContext& ctx, bool acos)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(x2, py::genOp(b, "Square", {x}));
    TSTUDIO_AD_TRY(one, py::constant(b, 1.0, grad.baseDtype()));
    TSTUDIO_AD_TRY(oneMinusX2, py::genOp(b, "Sub", {one, x2}));
    TSTUDIO_AD_TRY(den, py::genOp(b, "Sqrt", {oneMinusX2}));
    TSTUDIO_AD_TRY(inv, py::genOp(b, "Reciprocal", {den}));
    Output factor = grad;
    if (acos) {
        TSTUDIO_AD_TRY(negGrad, py::neg(b, grad));
        factor = negGrad;
    }
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, factor, inv));
    return ctx.setInputGradient(0, g);
}

/// Atan: grad * reciprocal(1 + x^2), the sum a generated Add (math_ops.add), not the + operator.
Status atanGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(b, grad));
    TSTUDIO_AD_TRY(x, py::conj(b, ctx.input(0)));
    TSTUDIO_AD_TRY(x2, py::genOp(b, "Square", {x}));
    TSTUDIO_AD_TRY(one, py::constant(b, 1.0, grad.baseDtype()));
    TSTUDIO_AD_TRY(onePlusX2, py::genOp(b, "Add", {one, x2}));
    TSTUDIO_AD_TRY(inv, py::genOp(b, "Reciprocal", {onePlusX2}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, inv));
    return ctx.setInputGradient(0, g);
}

/// The gradient of no input: Floor, Ceil, Round, FloorDiv, ArgMax, ArgMin return None for each.
Status noGradient(GradientContext&)
{
    return Status::ok();
}

// --- Second derivatives: the *Grad ops (inputs a = the forward output, b = its gradient) ---------

Status tanhGradGrad(GradientContext& ctx)
{
    GraphBuilder& bld = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(bld, grad));
    TSTUDIO_AD_TRY(a, py::conj(bld, ctx.input(0)));
    TSTUDIO_AD_TRY(b, py::conj(bld, ctx.input(1)));
    TSTUDIO_AD_TRY(m0, py::binary(bld, Operator::kMul, grad, -2.0));
    TSTUDIO_AD_TRY(m1, py::binary(bld, Operator::kMul, m0, b));
    TSTUDIO_AD_TRY(ga, py::binary(bld, Operator::kMul, m1, a));
    TSTUDIO_AD_TRY(gb, py::genOp(bld, "TanhGrad", {a, grad}));
    return setBoth(ctx, ga, gb);
}

Status sigmoidGradGrad(GradientContext& ctx)
{
    GraphBuilder& bld = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(control, controlDependenciesOn(bld, grad));
    TSTUDIO_AD_TRY(a, py::conj(bld, ctx.input(0)));
    TSTUDIO_AD_TRY(b, py::conj(bld, ctx.input(1)));
    TSTUDIO_AD_TRY(gb, py::binary(bld, Operator::kMul, grad, b));
    TSTUDIO_AD_TRY(twice, py::binary(bld, Operator::kMul, 2.0, gb));
    TSTUDIO_AD_TRY(twiceA, py::binary(bld, Operator::kMul, twice, a));
    TSTUDIO_AD_TRY(ga, py::binary(bld, Operator::kSub, gb, twiceA));
    TSTUDIO_AD_TRY(gbOut, py::genOp(bld, "SigmoidGrad", {a, grad}));
    return setBoth(ctx, ga, gbOut);
}

Status rsqrtGradGrad(GradientContext& ctx)
{
    GraphBuilder& bld = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& b = ctx.input(1);
    TSTUDIO_AD_TRY(control, controlDependenciesOn(bld, grad));
    TSTUDIO_AD_TRY(ca, py::conj(bld, ctx.input(0)));
    TSTUDIO_AD_TRY(cg, py::conj(bld, grad));
    TSTUDIO_AD_TRY(m0, py::binary(bld, Operator::kMul, -1.5, cg));
    TSTUDIO_AD_TRY(m1, py::binary(bld, Operator::kMul, m0, b));
    TSTUDIO_AD_TRY(squared, py::genOp(bld, "Square", {ca}));
    TSTUDIO_AD_TRY(ga, py::binary(bld, Operator::kMul, m1, squared));
    TSTUDIO_AD_TRY(gb, py::genOp(bld, "RsqrtGrad", {ca, grad}));
    return setBoth(ctx, ga, gb);
}

Status sqrtGradGrad(GradientContext& ctx)
{
    GraphBuilder& bld = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& a = ctx.input(0);
    const Output& y = ctx.output(0); // 0.5 * b / conj(a)
    TSTUDIO_AD_TRY(control, controlDependenciesOn(bld, grad));
    TSTUDIO_AD_TRY(ga, py::binary(bld, Operator::kTrueDiv, grad, a));
    TSTUDIO_AD_TRY(cga, py::conj(bld, ga));
    TSTUDIO_AD_TRY(negGa, py::neg(bld, cga));
    TSTUDIO_AD_TRY(gradA, py::binary(bld, Operator::kMul, negGa, y));
    TSTUDIO_AD_TRY(gradB, py::binary(bld, Operator::kMul, 0.5, ga));
    return setBoth(ctx, gradA, gradB);
}

Status reciprocalGradGrad(GradientContext& ctx)
{
    GraphBuilder& bld = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& b = ctx.input(1);
    TSTUDIO_AD_TRY(control, controlDependenciesOn(bld, grad));
    TSTUDIO_AD_TRY(ca, py::conj(bld, ctx.input(0)));
    TSTUDIO_AD_TRY(cg, py::conj(bld, grad));
    TSTUDIO_AD_TRY(m0, py::binary(bld, Operator::kMul, cg, -2.0));
    TSTUDIO_AD_TRY(m1, py::binary(bld, Operator::kMul, m0, b));
    TSTUDIO_AD_TRY(ga, py::binary(bld, Operator::kMul, m1, ca));
    TSTUDIO_AD_TRY(gb, py::genOp(bld, "ReciprocalGrad", {ca, grad}));
    return setBoth(ctx, ga, gb);
}

// --- AddN, Cast, Select --------------------------------------------------------------------------------

Status addNGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    for (int i = 0; i < ctx.numInputs(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(i, grad));
    return Status::ok();
}

/// Gradients pass through casts between floating and complex types only.
Status castGrad(GradientContext& ctx)
{
    auto differentiable = [](DataType t) { return isFloating(baseType(t)) || isComplex(baseType(t)); };
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const DataType src = ctx.input(0).baseDtype();
    if (!differentiable(src) || !differentiable(grad.baseDtype()))
        return Status::ok();
    TSTUDIO_AD_TRY(g, py::cast(ctx.builder(), grad, src));
    return ctx.setInputGradient(0, g);
}

Status selectGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& c = ctx.input(0);
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, ctx.input(1)));
    TSTUDIO_AD_TRY(gt, py::where(b, c, grad, zeros));
    TSTUDIO_AD_TRY(ge, py::where(b, c, zeros, grad));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, gt));
    return ctx.setInputGradient(2, ge);
}

/// SelectV2 broadcasts all three inputs, so each branch's gradient is summed back to its shape.
Status selectV2Grad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& c = ctx.input(0);
    TSTUDIO_AD_TRY(zero, ops::zeros(b, TensorShape::scalar(), grad.baseDtype()));
    std::vector<Output> grads;
    std::optional<Output> outShape; // shape(op.outputs[0]), made once after x's shape
    for (int i = 1; i <= 2; ++i) {
        TSTUDIO_AD_TRY(selected, i == 1 ? py::whereV2(b, c, grad, zero) : py::whereV2(b, c, zero, grad));
        TSTUDIO_AD_TRY(inShape, py::shape(b, ctx.input(i)));
        if (!outShape) {
            TSTUDIO_AD_TRY(s, py::shape(b, ctx.output(0)));
            outShape = s;
        }
        TSTUDIO_AD_TRY(args, py::broadcastGradientArgs(b, inShape, *outShape));
        TSTUDIO_AD_TRY(sum, py::reduceSum(b, selected, args.output(0), true));
        TSTUDIO_AD_TRY(g, py::reshape(b, sum, inShape));
        grads.push_back(g);
    }
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, grads[0]));
    return ctx.setInputGradient(2, grads[1]);
}

GradientTable elementwiseGradients()
{
    return {
        {"Add", addGrad},
        {"AddV2", addGrad},
        {"Sub", subGrad},
        {"Mul", mulGrad},
        {"Div", divOpGrad},
        {"RealDiv", realDivGrad},
        {"DivNoNan", divNoNanGrad},
        {"FloorDiv", noGradient},
        {"FloorMod", floorModGrad},
        {"Pow", powGrad},
        {"Maximum", [](GradientContext& c) { return maximumMinimumGrad(c, "GreaterEqual"); }},
        {"Minimum", [](GradientContext& c) { return maximumMinimumGrad(c, "LessEqual"); }},
        {"SquaredDifference", squaredDifferenceGrad},
        {"AddN", addNGrad},
        {"Neg", negGrad},
        {"Abs", absGrad},
        {"Sign", signGrad},
        {"Square", squareGrad},
        {"Sqrt", [](GradientContext& c) { return outputGradOp(c, "SqrtGrad", false); }},
        {"Rsqrt", [](GradientContext& c) { return outputGradOp(c, "RsqrtGrad", false); }},
        {"Reciprocal", [](GradientContext& c) { return outputGradOp(c, "ReciprocalGrad", false); }},
        // Inv (TensorFlow 0.x's Reciprocal): TensorFlow's _InvGrad also emits ReciprocalGrad.
        {"Inv", [](GradientContext& c) { return outputGradOp(c, "ReciprocalGrad", false); }},
        {"Tanh", [](GradientContext& c) { return outputGradOp(c, "TanhGrad", true); }},
        {"Sigmoid", [](GradientContext& c) { return outputGradOp(c, "SigmoidGrad", true); }},
        {"Exp", expGrad},
        {"Log", [](GradientContext& c) { return logGrad(c, false); }},
        {"Log1p", [](GradientContext& c) { return logGrad(c, true); }},
        {"Sin", sinGrad},
        {"Cos", cosGrad},
        {"Tan", tanGrad},
        {"Asin", [](GradientContext& c) { return asinAcosGrad(c, false); }},
        {"Acos", [](GradientContext& c) { return asinAcosGrad(c, true); }},
        {"Atan", atanGrad},
        {"Floor", noGradient},
        {"Ceil", noGradient},
        {"Round", noGradient},
        {"ArgMax", noGradient},
        {"ArgMin", noGradient},
        {"TanhGrad", tanhGradGrad},
        {"SigmoidGrad", sigmoidGradGrad},
        {"RsqrtGrad", rsqrtGradGrad},
        {"SqrtGrad", sqrtGradGrad},
        {"ReciprocalGrad", reciprocalGradGrad},
        {"InvGrad", reciprocalGradGrad},
        {"Cast", castGrad},
        {"Select", selectGrad},
        {"SelectV2", selectV2Grad},
    };
}

/// ops.NotDifferentiable in math_grad.py: comparisons, logic and Range.
constexpr std::string_view kNotDifferentiable[] = {"Less",     "LessEqual",  "Greater",   "GreaterEqual", "Equal",
                                                   "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot",   "Range"};

} // namespace

Status registerMathGradients(OpRegistry& registry)
{
    return registerGradientTables(registry, {elementwiseGradients(), math_grad::reductionAndMatMulGradients()},
                                  kNotDifferentiable);
}

} // namespace tstudio
