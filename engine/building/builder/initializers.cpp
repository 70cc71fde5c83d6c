// Initializer: the recipes and the ops each one builds (TensorFlow 1.15's init_ops, v1 forms).
#include "builder/initializers.h"

#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"

#include <algorithm>
#include <cmath>

namespace tstudio {
namespace {

/// The standard deviation of a standard normal truncated to (-2, 2) (scipy.stats.truncnorm.std).
constexpr double kTruncatedNormalStddev = .87962566103423978;

Status requireFloating(DataType dtype)
{
    if (isFloating(dtype))
        return Status::ok();
    return invalidArgumentError("Expected floating point type, got " + dataTypeName(dtype) + ".");
}

/// `gain * x` as Python writes it: a "mul" scope with the gain constant "mul/x" first.
Expected<Output> scaleBy(GraphBuilder& b, double gain, const Output& x)
{
    auto scope = b.nameScope("mul");
    if (!scope)
        return unexpected(scope.error());
    auto g = ops::constant(b, gain, x.baseDtype(), "x");
    if (!g)
        return unexpected(g.error());
    return ops::mul(b, *g, x, scope->name());
}

/// The first output of `op`, or its error.
Expected<Output> firstOutput(Expected<Operation> op)
{
    if (!op)
        return unexpected(op.error());
    return op->output(0);
}

/// linalg_ops.eye(rows, cols, dtype) as TensorFlow 1.15 builds it for static sizes, in scope
/// "eye": "ones" of the diagonal's length min(rows, cols), then MatrixDiag "diag" when square, else
/// MatrixSetDiag "set_diag" of "zeros" [rows, cols] (array_ops.matrix_diag / matrix_set_diag emit
/// the V1 ops in 1.15).
Expected<Output> eye(GraphBuilder& b, std::int64_t rows, std::int64_t cols, DataType dtype)
{
    auto scope = b.nameScope("eye");
    if (!scope)
        return unexpected(scope.error());
    auto ones = ops::ones(b, TensorShape{std::min(rows, cols)}, dtype);
    if (!ones)
        return unexpected(ones.error());
    if (rows == cols)
        return firstOutput(b.op("MatrixDiag", {*ones}, {}, "diag"));
    auto zeros = ops::zeros(b, TensorShape{rows, cols}, dtype);
    if (!zeros)
        return unexpected(zeros.error());
    return firstOutput(b.op("MatrixSetDiag", {*zeros, *ones}, {}, "set_diag"));
}

/// array_ops.matrix_transpose of a matrix: scopes "matrix_transpose/transpose", perm [1, 0].
Expected<Output> matrixTranspose(GraphBuilder& b, const Output& x)
{
    auto outer = b.nameScope("matrix_transpose");
    if (!outer)
        return unexpected(outer.error());
    auto inner = b.nameScope("transpose");
    if (!inner)
        return unexpected(inner.error());
    auto perm = ops::constantInts(b, {1, 0}, TensorShape{2}, tensorflow::DT_INT32, "perm");
    if (!perm)
        return unexpected(perm.error());
    return ops::transpose(b, x, *perm, inner->name());
}

/// init_ops.Orthogonal.__call__ of TensorFlow 1.15: A = random_normal of the flattened shape
/// (rows = prod(shape[:-1]), cols = shape[-1], transposed when wider than tall), q, r = Qr(A),
/// q *= Sign(DiagPart(r)) (so that Q is the factor whose R has a positive diagonal: Haar
/// distributed and independent of the QR implementation's sign convention), transposed back when
/// wide, reshaped to `shape` and scaled by the gain. Node names as TensorFlow's: "random_normal/...",
/// "Qr", "DiagPart", "Sign", "mul", ["matrix_transpose/transpose/perm", "matrix_transpose/transpose"],
/// "Reshape/shape", "Reshape", "mul_1/x", "mul_1".
Expected<Output> buildOrthogonal(GraphBuilder& b, const TensorShape& shape, DataType dtype, double gain,
                                 std::optional<std::int64_t> seed)
{
    if (shape.rank() < 2)
        return unexpected(invalidArgumentError("The tensor to initialize must be at least two-dimensional"));
    std::int64_t rows = 1;
    for (int i = 0; i + 1 < shape.rank(); ++i)
        rows *= shape.dim(i);
    const std::int64_t cols = shape.dim(shape.rank() - 1);
    const bool wide = rows < cols;
    auto a = ops::randomNormal(b, wide ? TensorShape{cols, rows} : TensorShape{rows, cols}, 0.0, 1.0, dtype, seed);
    if (!a)
        return unexpected(a.error());
    auto qr = b.op("Qr", {*a}, {{"full_matrices", attr::b(false)}});
    if (!qr)
        return unexpected(qr.error());
    auto d = firstOutput(b.op("DiagPart", {qr->output(1)}));
    if (!d)
        return unexpected(d.error());
    auto sign = firstOutput(b.op("Sign", {*d}));
    if (!sign)
        return unexpected(sign.error());
    Expected<Output> q = [&]() -> Expected<Output> {
        auto scope = b.nameScope("mul");
        if (!scope)
            return unexpected(scope.error());
        return ops::mul(b, qr->output(0), *sign, scope->name());
    }();
    if (!q)
        return unexpected(q.error());
    if (wide) {
        q = matrixTranspose(b, *q);
        if (!q)
            return unexpected(q.error());
    }
    Expected<Output> reshaped = [&]() -> Expected<Output> {
        auto scope = b.nameScope("Reshape");
        if (!scope)
            return unexpected(scope.error());
        auto target = ops::shapeTensor(b, shape);
        if (!target)
            return unexpected(target.error());
        return ops::reshape(b, *q, *target, scope->name());
    }();
    if (!reshaped)
        return unexpected(reshaped.error());
    return scaleBy(b, gain, *reshaped);
}

} // namespace

// --- Recipes -----------------------------------------------------------------------------------------

Initializer Initializer::constant(double value)
{
    return constant(std::vector<double>{value});
}

Initializer Initializer::constant(std::vector<double> values)
{
    Initializer i(Kind::kConstant, "constant");
    i.m_values = std::move(values);
    return i;
}

Initializer Initializer::zeros()
{
    return {Kind::kZeros, "zeros"};
}
Initializer Initializer::ones()
{
    return {Kind::kOnes, "ones"};
}

Initializer Initializer::identity(double gain)
{
    Initializer i(Kind::kIdentity, "identity");
    i.m_gain = gain;
    return i;
}

Initializer Initializer::randomNormal(double mean, double stddev, std::optional<std::int64_t> seed)
{
    Initializer i(Kind::kRandomNormal, "random_normal");
    i.m_mean = mean;
    i.m_stddev = stddev;
    i.m_seed = seed;
    return i;
}

Initializer Initializer::truncatedNormal(double mean, double stddev, std::optional<std::int64_t> seed)
{
    Initializer i(Kind::kTruncatedNormal, "truncated_normal");
    i.m_mean = mean;
    i.m_stddev = stddev;
    i.m_seed = seed;
    return i;
}

Initializer Initializer::randomUniform(double minval, std::optional<double> maxval, std::optional<std::int64_t> seed)
{
    Initializer i(Kind::kRandomUniform, "random_uniform");
    i.m_minval = minval;
    i.m_maxval = maxval;
    i.m_seed = seed;
    return i;
}

Initializer Initializer::uniformUnitScaling(double factor, std::optional<std::int64_t> seed)
{
    Initializer i(Kind::kUniformUnitScaling, "uniform_unit_scaling");
    i.m_scale = factor;
    i.m_seed = seed;
    return i;
}

Expected<Initializer> Initializer::varianceScaling(double scale, FanMode mode, Distribution distribution,
                                                   std::optional<std::int64_t> seed)
{
    if (!(scale > 0.0))
        return unexpected(invalidArgumentError("`scale` must be positive float."));
    Initializer i(Kind::kVarianceScaling, "variance_scaling");
    i.m_scale = scale;
    i.m_mode = mode;
    i.m_distribution = distribution;
    i.m_seed = seed;
    return i;
}

Initializer Initializer::glorotUniform(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(1.0, FanMode::kFanAvg, Distribution::kUniform, seed);
    i.m_name = "glorot_uniform";
    return i;
}

Initializer Initializer::glorotNormal(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(1.0, FanMode::kFanAvg, Distribution::kTruncatedNormal, seed);
    i.m_name = "glorot_normal";
    return i;
}

Initializer Initializer::heNormal(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(2.0, FanMode::kFanIn, Distribution::kTruncatedNormal, seed);
    i.m_name = "he_normal";
    return i;
}

Initializer Initializer::heUniform(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(2.0, FanMode::kFanIn, Distribution::kUniform, seed);
    i.m_name = "he_uniform";
    return i;
}

Initializer Initializer::lecunNormal(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(1.0, FanMode::kFanIn, Distribution::kTruncatedNormal, seed);
    i.m_name = "lecun_normal";
    return i;
}

Initializer Initializer::lecunUniform(std::optional<std::int64_t> seed)
{
    Initializer i = *varianceScaling(1.0, FanMode::kFanIn, Distribution::kUniform, seed);
    i.m_name = "lecun_uniform";
    return i;
}

Initializer Initializer::orthogonal(double gain, std::optional<std::int64_t> seed)
{
    Initializer i(Kind::kOrthogonal, "orthogonal");
    i.m_gain = gain;
    i.m_seed = seed;
    return i;
}

std::pair<double, double> Initializer::computeFans(const TensorShape& shape)
{
    const int rank = shape.rank();
    if (rank < 1)
        return {1.0, 1.0};
    if (rank == 1)
        return {static_cast<double>(shape.dim(0)), static_cast<double>(shape.dim(0))};
    if (rank == 2)
        return {static_cast<double>(shape.dim(0)), static_cast<double>(shape.dim(1))};
    double receptiveField = 1.0;
    for (int i = 0; i + 2 < rank; ++i)
        receptiveField *= static_cast<double>(shape.dim(i));
    // TensorFlow truncates both fans to integers.
    return {std::trunc(static_cast<double>(shape.dim(rank - 2)) * receptiveField),
            std::trunc(static_cast<double>(shape.dim(rank - 1)) * receptiveField)};
}

// --- Building ----------------------------------------------------------------------------------------

Expected<Output> Initializer::build(GraphBuilder& b, const TensorShape& shape, DataType dtype) const
{
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("The " + m_name + " initializer needs a fully defined shape, got " +
                                               shape.toString()));
    switch (m_kind) {
    case Kind::kConstant: {
        auto proto = makeTensorProto(dtype, shape, m_values);
        if (!proto)
            return unexpected(proto.error());
        return ops::constant(b, *proto);
    }
    case Kind::kZeros: return ops::zeros(b, shape, dtype);
    case Kind::kOnes: return ops::ones(b, shape, dtype);
    case Kind::kIdentity: {
        if (shape.rank() != 2)
            return unexpected(invalidArgumentError("Identity matrix initializer can only be used for 2D matrices."));
        if (Status s = requireFloating(dtype); !s.isOk())
            return unexpected(std::move(s));
        auto matrix = eye(b, shape.dim(0), shape.dim(1), dtype);
        if (!matrix)
            return unexpected(matrix.error());
        return scaleBy(b, m_gain, *matrix);
    }
    case Kind::kRandomNormal:
    case Kind::kTruncatedNormal: {
        if (Status s = requireFloating(dtype); !s.isOk())
            return unexpected(std::move(s));
        return m_kind == Kind::kRandomNormal ? ops::randomNormal(b, shape, m_mean, m_stddev, dtype, m_seed)
                                             : ops::truncatedNormal(b, shape, m_mean, m_stddev, dtype, m_seed);
    }
    case Kind::kRandomUniform:
        if (!isFloating(dtype) && !isInteger(dtype))
            return unexpected(invalidArgumentError("Invalid dtype " + dataTypeName(dtype) + " for random_uniform"));
        return ops::randomUniform(b, shape, m_minval, m_maxval, dtype, m_seed);
    case Kind::kVarianceScaling: {
        if (Status s = requireFloating(dtype); !s.isOk())
            return unexpected(std::move(s));
        const auto [fanIn, fanOut] = computeFans(shape);
        double scale = m_scale;
        switch (m_mode) {
        case FanMode::kFanIn: scale /= std::max(1.0, fanIn); break;
        case FanMode::kFanOut: scale /= std::max(1.0, fanOut); break;
        case FanMode::kFanAvg: scale /= std::max(1.0, (fanIn + fanOut) / 2.0); break;
        }
        switch (m_distribution) {
        case Distribution::kTruncatedNormal:
            return ops::truncatedNormal(b, shape, 0.0, std::sqrt(scale) / kTruncatedNormalStddev, dtype, m_seed);
        case Distribution::kUntruncatedNormal: return ops::randomNormal(b, shape, 0.0, std::sqrt(scale), dtype, m_seed);
        case Distribution::kUniform: {
            const double limit = std::sqrt(3.0 * scale);
            return ops::randomUniform(b, shape, -limit, limit, dtype, m_seed);
        }
        }
        break;
    }
    case Kind::kOrthogonal:
        if (Status s = requireFloating(dtype); !s.isOk())
            return unexpected(std::move(s));
        return buildOrthogonal(b, shape, dtype, m_gain, m_seed);
    case Kind::kUniformUnitScaling: {
        if (Status s = requireFloating(dtype); !s.isOk())
            return unexpected(std::move(s));
        // TensorFlow's estimate of the input size: every dimension but the last, at least 1.
        double inputSize = 1.0;
        for (int d = 0; d + 1 < shape.rank(); ++d)
            inputSize *= static_cast<double>(shape.dim(d));
        inputSize = std::max(inputSize, 1.0);
        const double maxVal = std::sqrt(3.0 / inputSize) * m_scale;
        return ops::randomUniform(b, shape, -maxVal, maxVal, dtype, m_seed);
    }
    }
    return unexpected(internalError("unknown initializer kind"));
}

} // namespace tstudio
