// floatOps: tfprof's float-operation rules, one small function per family of ops.
#include "profiler/float_ops.h"

#include "framework/node_attrs.h"

#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

using Count = std::optional<std::int64_t>;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

/// a * b, saturating (shapes come from files; a bogus one must not overflow).
std::int64_t mul(std::int64_t a, std::int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a > kMax / b)
        return kMax;
    return a * b;
}

/// Elements of a fully known shape; nullopt when it or any dimension is unknown.
Count elements(ShapeRef shape)
{
    if (!shape)
        return std::nullopt;
    std::int64_t n = 1;
    for (std::int64_t d : *shape) {
        if (d < 0)
            return std::nullopt;
        n = mul(n, d);
    }
    return n;
}

/// Dimension `i` (negative counts from the end) when the rank and that dimension are known: the rules
/// need only the dimensions they read (TF asks for fully known shapes; a fed [?,784] placeholder then
/// costs a MatMul its count, where the batch is known from the MatMul's own output).
Count dim(ShapeRef shape, int i)
{
    if (!shape)
        return std::nullopt;
    const int rank = static_cast<int>(shape->size());
    const int at = i < 0 ? rank + i : i;
    if (at < 0 || at >= rank || (*shape)[static_cast<std::size_t>(at)] < 0)
        return std::nullopt;
    return (*shape)[static_cast<std::size_t>(at)];
}

ShapeRef input(const FloatOpsRequest& r, std::size_t i)
{
    return i < r.inputs.size() ? r.inputs[i] : nullptr;
}
ShapeRef output(const FloatOpsRequest& r, std::size_t i)
{
    return i < r.outputs.size() ? r.outputs[i] : nullptr;
}

/// The product of an int-list attr (ksize), or nullopt without the node or the attr.
Count listProduct(const FloatOpsRequest& r, std::string_view name)
{
    if (!r.node)
        return std::nullopt;
    auto values = attrIntList(*r.node, name);
    if (!values || values->empty())
        return std::nullopt;
    std::int64_t n = 1;
    for (std::int64_t v : *values) {
        if (v < 0)
            return std::nullopt;
        n = mul(n, v);
    }
    return n;
}

/// TF's flops of pooling and conv backprops are defined for NHWC only: another data_format raises in
/// TF, which tfprof takes as "no flops" (0, not incomplete). The attr's default is NHWC.
bool isNhwc(const FloatOpsRequest& r)
{
    if (!r.node)
        return true;
    const tensorflow::AttrValue* format = findAttr(*r.node, "data_format");
    return !format || format->s() == "NHWC";
}

/// stride_h * stride_w of an NHWC `strides` attr.
Count spatialStrides(const FloatOpsRequest& r)
{
    if (!r.node)
        return std::nullopt;
    auto strides = attrIntList(*r.node, "strides");
    if (!strides || strides->size() != 4 || (*strides)[1] <= 0 || (*strides)[2] <= 0)
        return std::nullopt;
    return mul((*strides)[1], (*strides)[2]);
}

Count unary(const FloatOpsRequest& r, std::int64_t perElement)
{
    const Count n = elements(input(r, 0));
    return n ? Count(mul(*n, perElement)) : std::nullopt;
}

Count binary(const FloatOpsRequest& r, std::int64_t perElement)
{
    const Count n = elements(output(r, 0));
    return n ? Count(mul(*n, perElement)) : std::nullopt;
}

Count l2Loss(const FloatOpsRequest& r)
{
    const Count n = elements(input(r, 0));
    return n ? Count(mul(*n, 3) - 1) : std::nullopt;
}

Count reduction(const FloatOpsRequest& r, std::int64_t finalize)
{
    const Count in = elements(input(r, 0));
    const Count out = elements(output(r, 0));
    if (!in || !out)
        return std::nullopt;
    return *in + mul(*out, finalize) - *out;
}

/// 2 * k * |out| with k the contracted size, read from a (dimension -1, or -2 when transpose_a / adj_x)
/// or, where that dimension is unknown, from b (dimension -2, or -1 when transpose_b / adj_y): a fed
/// [?,784] x leaves k unknown in x^T * grad, and the gradient gives it. Without the node's attrs,
/// |a's last two dims| / rows(out), or |b's| / cols(out), which do not depend on the transposes.
Count matMul(const FloatOpsRequest& r, bool batched)
{
    ShapeRef a = input(r, 0);
    ShapeRef b = input(r, 1);
    ShapeRef out = output(r, 0);
    const Count outCount = elements(out);
    if (!outCount || !out || out->size() < 2 || (!batched && out->size() != 2))
        return std::nullopt;
    auto ranked = [&](ShapeRef s) { return s && s->size() >= 2 && (batched || s->size() == 2); };
    Count k;
    if (r.node) {
        auto flag = [&](const char* name) {
            const tensorflow::AttrValue* attr = findAttr(*r.node, name);
            return attr && attr->b();
        };
        if (ranked(a))
            k = dim(a, flag(batched ? "adj_x" : "transpose_a") ? -2 : -1);
        if (!k && ranked(b))
            k = dim(b, flag(batched ? "adj_y" : "transpose_b") ? -1 : -2);
    } else {
        auto contracted = [&](ShapeRef s, int outDim) -> Count {
            const Count n = dim(out, outDim);
            const Count d0 = dim(s, -2);
            const Count d1 = dim(s, -1);
            if (!ranked(s) || !n || !d0 || !d1)
                return std::nullopt;
            return *n > 0 ? mul(*d0, *d1) / *n : 0;
        };
        k = contracted(a, -2);
        if (!k)
            k = contracted(b, -1);
    }
    if (!k)
        return std::nullopt;
    return mul(mul(*k, *outCount), 2);
}

Count conv2d(const FloatOpsRequest& r, bool depthwise)
{
    ShapeRef filter = input(r, 1);
    const Count out = elements(output(r, 0));
    const Count kh = dim(filter, 0);
    const Count kw = dim(filter, 1);
    const Count inDepth = dim(filter, 2);
    if (!out || !kh || !kw || !inDepth)
        return std::nullopt;
    return mul(mul(mul(mul(*out, *kh), *kw), depthwise ? 1 : *inDepth), 2);
}

/// 2 * |image| * |filter| / (depth(image) * strides): image and filter are the two shapes the rule reads.
Count convBackprop(const FloatOpsRequest& r, ShapeRef image, ShapeRef filter)
{
    if (!isNhwc(r))
        return 0;
    const Count imageCount = elements(image);
    const Count filterCount = elements(filter);
    const Count depth = dim(image, -1);
    const Count strides = spatialStrides(r);
    if (!imageCount || !filterCount || !depth || !strides)
        return std::nullopt;
    if (*depth == 0)
        return 0;
    return mul(mul(*imageCount, *filterCount), 2) / mul(*depth, *strides);
}

Count pool(const FloatOpsRequest& r)
{
    if (!isNhwc(r))
        return 0;
    const Count out = elements(output(r, 0));
    const Count area = listProduct(r, "ksize");
    return out && area ? Count(mul(*area, *out)) : std::nullopt;
}

Count avgPoolGrad(const FloatOpsRequest& r)
{
    if (!isNhwc(r))
        return 0;
    const Count grad = elements(input(r, 1));
    const Count area = listProduct(r, "ksize");
    return grad && area ? Count(mul(mul(*area, *grad), 2)) : std::nullopt;
}

Count maxPoolGrad(const FloatOpsRequest& r)
{
    if (!isNhwc(r))
        return 0;
    const Count origOut = elements(input(r, 1));
    const Count area = listProduct(r, "ksize");
    return origOut && area ? Count(mul(*area, *origOut) + *origOut) : std::nullopt;
}

Count addN(const FloatOpsRequest& r)
{
    if (r.inputs.empty())
        return 0;
    const Count n = elements(input(r, 0));
    return n ? Count(mul(*n, static_cast<std::int64_t>(r.inputs.size()) - 1)) : std::nullopt;
}

/// The plan's weight-gradient sum (runtime/matmul_sum_fusion.h): inputs a_1, b_1, ..., a_N, b_N
/// ([r_i, p] and [r_i, q]) and at most one further summand, output [p, q]: what the N MatMuls
/// (2 r_i |out| each) and their AddN ((N + further - 1) |out|) it replaces count.
Count matMulSum(const FloatOpsRequest& r)
{
    const Count out = elements(output(r, 0));
    if (!out)
        return std::nullopt;
    const std::size_t summands = r.inputs.size() / 2 + r.inputs.size() % 2;
    std::int64_t total = summands > 0 ? mul(*out, static_cast<std::int64_t>(summands) - 1) : 0;
    for (std::size_t i = 0; i + 1 < r.inputs.size(); i += 2) {
        Count rows = dim(input(r, i), 0);
        if (!rows)
            rows = dim(input(r, i + 1), 0);
        if (!rows)
            return std::nullopt;
        const std::int64_t product = mul(mul(2, *rows), *out);
        total = total > kMax - product ? kMax : total + product;
    }
    return total;
}

using Rule = Count (*)(const FloatOpsRequest&);

const std::unordered_map<std::string_view, Rule>& rules()
{
    static const std::unordered_map<std::string_view, Rule> table = {
        {"Reciprocal", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"Square", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"Rsqrt", [](const FloatOpsRequest& r) { return unary(r, 2); }},
        {"Log", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"Neg", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"AssignSub", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"AssignAdd", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        {"Softmax", [](const FloatOpsRequest& r) { return unary(r, 5); }},
        {"L2Loss", l2Loss},
        {"Add", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"AddV2", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Sub", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Mul", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"RealDiv", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Maximum", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Minimum", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Pow", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"RsqrtGrad", [](const FloatOpsRequest& r) { return binary(r, 4); }},
        {"GreaterEqual", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Greater", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"LessEqual", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Less", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"Equal", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"NotEqual", [](const FloatOpsRequest& r) { return binary(r, 1); }},
        {"SquaredDifference", [](const FloatOpsRequest& r) { return binary(r, 2); }},
        {"Mean", [](const FloatOpsRequest& r) { return reduction(r, 1); }},
        {"Sum", [](const FloatOpsRequest& r) { return reduction(r, 0); }},
        {"ArgMax", [](const FloatOpsRequest& r) { return reduction(r, 0); }},
        {"ArgMin", [](const FloatOpsRequest& r) { return reduction(r, 0); }},
        {"BiasAddGrad", [](const FloatOpsRequest& r) { return reduction(r, 0); }},
        {"AvgPool", pool},
        {"MaxPool", pool},
        {"AvgPoolGrad", avgPoolGrad},
        {"MaxPoolGrad", maxPoolGrad},
        {"Conv2DBackpropInput", [](const FloatOpsRequest& r) { return convBackprop(r, output(r, 0), input(r, 1)); }},
        {"Conv2DBackpropFilter", [](const FloatOpsRequest& r) { return convBackprop(r, input(r, 0), output(r, 0)); }},
        {"AddN", addN},
        {"MatMul", [](const FloatOpsRequest& r) { return matMul(r, false); }},
        {"_FusedMatMulSum", matMulSum},
        {"BatchMatMul", [](const FloatOpsRequest& r) { return matMul(r, true); }},
        {"BatchMatMulV2", [](const FloatOpsRequest& r) { return matMul(r, true); }},
        {"Conv2D", [](const FloatOpsRequest& r) { return conv2d(r, false); }},
        {"DepthwiseConv2dNative", [](const FloatOpsRequest& r) { return conv2d(r, true); }},
        {"Dilation2D", [](const FloatOpsRequest& r) { return conv2d(r, true); }},
        {"BiasAdd", [](const FloatOpsRequest& r) { return unary(r, 1); }},
        // Grappler's fused convolution: Conv2D's count plus BiasAdd's one per output element (the
        // activation, as Relu, counts none). tfprof has no rule: it counts the op the graph names.
        {"_FusedConv2D",
         [](const FloatOpsRequest& r) -> Count {
             const Count conv = conv2d(r, false);
             const Count out = elements(output(r, 0));
             return conv && out ? Count(*conv + *out) : std::nullopt;
         }},
    };
    return table;
}

} // namespace

bool hasFloatOpsRule(std::string_view op)
{
    return rules().count(op) != 0;
}

FloatOpsResult floatOps(const FloatOpsRequest& request)
{
    FloatOpsResult result;
    auto it = rules().find(request.op);
    if (it == rules().end())
        return result;
    result.counted = true;
    const Count value = it->second(request);
    if (value)
        result.floatOps = *value;
    else
        result.incomplete = true;
    return result;
}

} // namespace tstudio::profiler
