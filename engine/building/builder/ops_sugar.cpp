// Typed op helpers: thin calls of GraphBuilder::op with TensorFlow's Python naming.
#include "builder/ops_sugar.h"

#include "builder/tensor_proto_values.h"

#include <map>
#include <string>

namespace tstudio::ops {
namespace {


Expected<Output> unary(GraphBuilder& b, std::string_view type, const Output& x, std::string_view name)
{
    return firstOutput(b.op(type, {x}, {}, name));
}

Expected<Output> binary(GraphBuilder& b, std::string_view type, const Output& x, const Output& y, std::string_view name)
{
    return firstOutput(b.op(type, {x, y}, {}, name));
}

/// zeros and ones: TensorFlow's _constant_if_small, else Fill(shape_as_tensor, Const).
Expected<Output> filled(GraphBuilder& b, const TensorShape& shape, DataType dtype, double value, std::string_view name)
{
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("Cannot create a tensor of shape " + shape.toString() +
                                               ": the shape must be fully defined"));
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    // Strings fill with "" (TensorFlow's zero for them); makeTensorProto rejects other string values.
    auto proto = [&](const TensorShape& s) {
        return dtype == tensorflow::DT_STRING && value == 0.0
                   ? makeStringTensorProto(s, std::vector<std::string>{std::string()})
                   : makeTensorProto(dtype, s, std::vector<double>{value});
    };
    if (*count < 1000) {
        auto value = proto(shape);
        if (!value)
            return unexpected(value.error());
        return constant(b, *value, scope->name());
    }
    auto dims = shapeTensor(b, shape, "shape_as_tensor");
    if (!dims)
        return unexpected(dims.error());
    auto scalarValue = proto(TensorShape::scalar());
    if (!scalarValue)
        return unexpected(scalarValue.error());
    auto scalar = constant(b, *scalarValue);
    if (!scalar)
        return unexpected(scalar.error());
    return fill(b, *dims, *scalar, scope->name());
}

/// The parts random_normal and truncated_normal share: scope, shape, mean, stddev, the random op,
/// mul and the final Add.
Expected<Output> normal(GraphBuilder& b, std::string_view randomOp, const TensorShape& shape, double mean,
                        double stddev, DataType dtype, std::optional<std::int64_t> seed, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto shapeT = shapeTensor(b, shape);
    if (!shapeT)
        return unexpected(shapeT.error());
    auto meanT = constant(b, mean, dtype, "mean");
    if (!meanT)
        return unexpected(meanT.error());
    auto stddevT = constant(b, stddev, dtype, "stddev");
    if (!stddevT)
        return unexpected(stddevT.error());
    const RandomSeeds seeds = b.seedsFor(seed);
    auto rnd = firstOutput(
        b.op(randomOp, {*shapeT},
             {{"dtype", attr::type(dtype)}, {"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}}));
    if (!rnd)
        return unexpected(rnd.error());
    auto scaled = mul(b, *rnd, *stddevT, "mul");
    if (!scaled)
        return unexpected(scaled.error());
    return add(b, *scaled, *meanT, scope->name());
}

} // namespace

Expected<Output> firstOutput(Expected<Operation> op)
{
    if (!op)
        return unexpected(op.error());
    if (op->numOutputs() == 0)
        return unexpected(internalError("op '" + op->name() + "' has no outputs"));
    return op->output(0);
}

// --- Sources -----------------------------------------------------------------------------------------

Expected<Output> constant(GraphBuilder& b, const tensorflow::TensorProto& value, std::string_view name)
{
    return firstOutput(b.op("Const", {}, {{"value", attr::tensor(value)}, {"dtype", attr::type(value.dtype())}}, name));
}

Expected<Output> constant(GraphBuilder& b, double value, DataType dtype, std::string_view name)
{
    return constant(b, std::vector<double>{value}, TensorShape::scalar(), dtype, name);
}

Expected<Output> constant(GraphBuilder& b, const std::vector<double>& values, const TensorShape& shape, DataType dtype,
                          std::string_view name)
{
    auto proto = makeTensorProto(dtype, shape, values);
    if (!proto)
        return unexpected(proto.error());
    return constant(b, *proto, name);
}

Expected<Output> constantInts(GraphBuilder& b, const std::vector<std::int64_t>& values, const TensorShape& shape,
                              DataType dtype, std::string_view name)
{
    auto proto = makeTensorProtoFromInts(dtype, shape, values);
    if (!proto)
        return unexpected(proto.error());
    return constant(b, *proto, name);
}

Expected<Output> shapeTensor(GraphBuilder& b, const TensorShape& shape, std::string_view name)
{
    if (!shape.isFullyDefined())
        return unexpected(
            invalidArgumentError("Cannot convert a partially known shape " + shape.toString() + " to a tensor"));
    std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
    bool wide = false;
    for (std::int64_t d : dims)
        wide = wide || d >= (std::int64_t{1} << 31);
    return constantInts(b, dims, TensorShape{static_cast<std::int64_t>(dims.size())},
                        wide ? tensorflow::DT_INT64 : tensorflow::DT_INT32, name);
}

Expected<Output> placeholder(GraphBuilder& b, DataType dtype, const TensorShape& shape, std::string_view name)
{
    return firstOutput(b.op("Placeholder", {}, {{"dtype", attr::type(dtype)}, {"shape", attr::shape(shape)}}, name));
}

Expected<Output> zeros(GraphBuilder& b, const TensorShape& shape, DataType dtype, std::string_view name)
{
    return filled(b, shape, dtype, 0.0, name);
}

Expected<Output> ones(GraphBuilder& b, const TensorShape& shape, DataType dtype, std::string_view name)
{
    return filled(b, shape, dtype, 1.0, name);
}

Expected<Output> fill(GraphBuilder& b, const Output& dims, const Output& value, std::string_view name)
{
    return binary(b, "Fill", dims, value, name);
}

Expected<Output> range(GraphBuilder& b, std::int64_t start, std::int64_t limit, std::int64_t delta,
                       std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<Output> args;
    for (auto [value, argName] : {std::pair{start, "start"}, std::pair{limit, "limit"}, std::pair{delta, "delta"}}) {
        auto c = constantInts(b, {value}, TensorShape::scalar(), tensorflow::DT_INT32, argName);
        if (!c)
            return unexpected(c.error());
        args.push_back(*c);
    }
    return firstOutput(b.op("Range", {args[0], args[1], args[2]}, {}, scope->name()));
}

// --- Random ------------------------------------------------------------------------------------------

Expected<Output> randomNormal(GraphBuilder& b, const TensorShape& shape, double mean, double stddev, DataType dtype,
                              std::optional<std::int64_t> seed, std::string_view name)
{
    return normal(b, "RandomStandardNormal", shape, mean, stddev, dtype, seed, name);
}

Expected<Output> truncatedNormal(GraphBuilder& b, const TensorShape& shape, double mean, double stddev, DataType dtype,
                                 std::optional<std::int64_t> seed, std::string_view name)
{
    return normal(b, "TruncatedNormal", shape, mean, stddev, dtype, seed, name);
}

Expected<Output> randomUniform(GraphBuilder& b, const TensorShape& shape, double minval, std::optional<double> maxval,
                               DataType dtype, std::optional<std::int64_t> seed, std::string_view name)
{
    const bool integer = isInteger(dtype);
    if (!maxval) {
        if (integer)
            return unexpected(invalidArgumentError("Must specify maxval for integer dtype " + dataTypeName(dtype)));
        maxval = 1.0;
    }
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto shapeT = shapeTensor(b, shape);
    if (!shapeT)
        return unexpected(shapeT.error());
    auto minT = constant(b, minval, dtype, "min");
    if (!minT)
        return unexpected(minT.error());
    auto maxT = constant(b, *maxval, dtype, "max");
    if (!maxT)
        return unexpected(maxT.error());
    const RandomSeeds seeds = b.seedsFor(seed);
    const AttrMap seedAttrs = {{"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}};
    if (integer)
        return firstOutput(b.op("RandomUniformInt", {*shapeT, *minT, *maxT}, seedAttrs, scope->name()));
    AttrMap attrs = seedAttrs;
    attrs["dtype"] = attr::type(dtype);
    auto rnd = firstOutput(b.op("RandomUniform", {*shapeT}, std::move(attrs)));
    if (!rnd)
        return unexpected(rnd.error());
    auto width = sub(b, *maxT, *minT, "sub");
    if (!width)
        return unexpected(width.error());
    auto scaled = mul(b, *rnd, *width, "mul");
    if (!scaled)
        return unexpected(scaled.error());
    return add(b, *scaled, *minT, scope->name());
}

// --- Math --------------------------------------------------------------------------------------------

Expected<Output> identity(GraphBuilder& b, const Output& x, std::string_view name)
{
    return unary(b, "Identity", x, name);
}
Expected<Output> add(GraphBuilder& b, const Output& x, const Output& y, std::string_view name)
{
    return binary(b, "Add", x, y, name);
}
Expected<Output> sub(GraphBuilder& b, const Output& x, const Output& y, std::string_view name)
{
    return binary(b, "Sub", x, y, name);
}
Expected<Output> mul(GraphBuilder& b, const Output& x, const Output& y, std::string_view name)
{
    return binary(b, "Mul", x, y, name);
}
Expected<Output> realDiv(GraphBuilder& b, const Output& x, const Output& y, std::string_view name)
{
    return binary(b, "RealDiv", x, y, name);
}
Expected<Output> square(GraphBuilder& b, const Output& x, std::string_view name)
{
    return unary(b, "Square", x, name);
}
Expected<Output> sqrt(GraphBuilder& b, const Output& x, std::string_view name)
{
    return unary(b, "Sqrt", x, name);
}
Expected<Output> relu(GraphBuilder& b, const Output& x, std::string_view name)
{
    return unary(b, "Relu", x, name);
}

Expected<Output> matMul(GraphBuilder& b, const Output& a, const Output& x, bool transposeA, bool transposeB,
                        std::string_view name)
{
    return firstOutput(
        b.op("MatMul", {a, x}, {{"transpose_a", attr::b(transposeA)}, {"transpose_b", attr::b(transposeB)}}, name));
}

Expected<Output> sum(GraphBuilder& b, const Output& x, const Output& axes, bool keepDims, std::string_view name)
{
    return firstOutput(b.op("Sum", {x, axes}, {{"keep_dims", attr::b(keepDims)}}, name));
}

Expected<Output> reshape(GraphBuilder& b, const Output& x, const Output& shape, std::string_view name)
{
    return binary(b, "Reshape", x, shape, name);
}

Expected<Output> transpose(GraphBuilder& b, const Output& x, const Output& perm, std::string_view name)
{
    return binary(b, "Transpose", x, perm, name);
}

Expected<Output> oneHot(GraphBuilder& b, const Output& indices, std::int64_t depth, double onValue, double offValue,
                        DataType dtype, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto on = constant(b, onValue, dtype, "on_value");
    if (!on)
        return unexpected(on.error());
    auto off = constant(b, offValue, dtype, "off_value");
    if (!off)
        return unexpected(off.error());
    auto depthT = constantInts(b, {depth}, TensorShape::scalar(), tensorflow::DT_INT32, "depth");
    if (!depthT)
        return unexpected(depthT.error());
    return firstOutput(b.op("OneHot", {indices, *depthT, *on, *off}, {}, scope->name()));
}

// --- Control -----------------------------------------------------------------------------------------

Expected<Operation> noOp(GraphBuilder& b, std::string_view name)
{
    return b.op("NoOp", {}, {}, name);
}

Expected<Operation> group(GraphBuilder& b, const std::vector<Operation>& ops, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    if (ops.empty())
        return noOp(b, scope->name());
    std::map<std::string, std::vector<Operation>> byDevice; // sorted by device, as TensorFlow sorts them
    for (const Operation& op : ops)
        byDevice[op.device()].push_back(op);
    auto groupOn = [&](const std::string& device, const std::vector<Operation>& deps,
                       std::string_view nodeName) -> Expected<Operation> {
        auto control = b.controlDependencies(deps);
        auto placed = b.device(device);
        if (!placed)
            return unexpected(placed.error());
        return noOp(b, nodeName);
    };
    if (byDevice.size() == 1)
        return groupOn(byDevice.begin()->first, ops, scope->name());
    std::vector<Operation> perDevice;
    for (const auto& [device, deps] : byDevice) {
        auto op = groupOn(device, deps, "NoOp");
        if (!op)
            return unexpected(op.error());
        perDevice.push_back(*op);
    }
    auto control = b.controlDependencies(perDevice);
    return noOp(b, scope->name());
}

} // namespace tstudio::ops
