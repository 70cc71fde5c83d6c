// Initializer: TensorFlow 1.x's variable initializers (tf.*_initializer), building the ops TF builds.
#pragma once

#include "builder/output.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

class GraphBuilder;

/// A recipe for a variable's initial value, as TensorFlow 1.15's init_ops classes (the v1 forms).
/// A value type: the GUI can show, edit and store it. build() adds the ops under the current name
/// scope (a variable's "x/Initializer/") with TensorFlow's node names, ops and attrs:
///   constant        "Const" (tf.constant with the initializer's values, broadcast as TF does)
///   zeros / ones    "zeros" / "ones" Const below 1000 elements, else Fill with "zeros/shape_as_tensor"
///                   and "zeros/Const"
///   random_normal   "random_normal/{shape,mean,stddev,RandomStandardNormal,mul}" + Add "random_normal"
///   truncated_normal  the same with TruncatedNormal
///   random_uniform  "random_uniform/{shape,min,max,RandomUniform,sub,mul}" + Add "random_uniform"
///                   (RandomUniformInt for integer dtypes, which need a maxval)
///   variance_scaling  one of the three above: scale /= max(1, fan), fan from the shape as TF's
///                   _compute_fans (2-D: fan_in = rows, fan_out = cols; conv kernels: receptive
///                   field x channels); truncated_normal stddev = sqrt(scale) / .87962566103423978,
///                   untruncated_normal stddev = sqrt(scale), uniform limit = sqrt(3 * scale)
///   glorot (xavier) uniform/normal = variance_scaling(1, fan_avg, uniform / truncated_normal);
///   he = (2, fan_in), lecun = (1, fan_in)
///   identity, orthogonal, uniform_unit_scaling: see below.
/// Random initializers take their seed attrs from GraphBuilder::seedsFor(seed) (tf.get_seed).
class Initializer {
public:
    enum class Kind {
        kConstant,
        kZeros,
        kOnes,
        kIdentity,
        kRandomNormal,
        kTruncatedNormal,
        kRandomUniform,
        kVarianceScaling,
        kOrthogonal,
        kUniformUnitScaling
    };
    enum class FanMode { kFanIn, kFanOut, kFanAvg };
    enum class Distribution { kTruncatedNormal, kUntruncatedNormal, kUniform };

    /// tf.constant_initializer(value): every element `value`.
    static Initializer constant(double value);
    /// tf.constant_initializer([...]): values in row-major order; fewer than the variable's
    /// elements repeat the last one, more is an error when building.
    static Initializer constant(std::vector<double> values);
    static Initializer zeros();
    static Initializer ones();
    /// tf.initializers.identity(gain): a 2-D identity matrix (eye(rows, cols)) times `gain`, built
    /// as TensorFlow 1.15's linalg_ops.eye: "eye/ones" (the min(rows, cols) ones), then
    /// MatrixDiag "eye/diag" when square, else MatrixSetDiag "eye/set_diag" of "eye/zeros";
    /// then "mul/x" * it = "mul". InvalidArgument from build() for a shape that is not 2-D:
    /// "Identity matrix initializer can only be used for 2D matrices."
    static Initializer identity(double gain = 1.0);
    static Initializer randomNormal(double mean = 0.0, double stddev = 1.0, std::optional<std::int64_t> seed = {});
    static Initializer truncatedNormal(double mean = 0.0, double stddev = 1.0, std::optional<std::int64_t> seed = {});
    /// tf.random_uniform_initializer(minval, maxval): maxval defaults to 1 for floating dtypes and
    /// is required for integer ones ("Must specify maxval for integer dtype int32").
    static Initializer randomUniform(double minval = 0.0, std::optional<double> maxval = {},
                                     std::optional<std::int64_t> seed = {});
    /// tf.variance_scaling_initializer. InvalidArgument "`scale` must be positive float." when
    /// scale <= 0.
    static Expected<Initializer> varianceScaling(double scale = 1.0, FanMode mode = FanMode::kFanIn,
                                                 Distribution distribution = Distribution::kTruncatedNormal,
                                                 std::optional<std::int64_t> seed = {});
    static Initializer glorotUniform(std::optional<std::int64_t> seed = {});
    static Initializer glorotNormal(std::optional<std::int64_t> seed = {});
    static Initializer xavierUniform(std::optional<std::int64_t> seed = {}) { return glorotUniform(seed); }
    static Initializer xavierNormal(std::optional<std::int64_t> seed = {}) { return glorotNormal(seed); }
    static Initializer heNormal(std::optional<std::int64_t> seed = {});
    static Initializer heUniform(std::optional<std::int64_t> seed = {});
    static Initializer lecunNormal(std::optional<std::int64_t> seed = {});
    static Initializer lecunUniform(std::optional<std::int64_t> seed = {});
    /// tf.orthogonal_initializer(gain): the variable flattened to a (prod(shape[:-1]), shape[-1])
    /// matrix has orthonormal columns (or rows, when wider than tall), times `gain`.
    /// Built as TensorFlow 1.15's init_ops.Orthogonal: A = "random_normal" of the flattened shape
    /// (transposed when wider than tall; same seeds as TensorFlow), "Qr" (full_matrices false),
    /// "mul" = q * "Sign"("DiagPart"(r)), "matrix_transpose/transpose" when wide, "Reshape" to the
    /// shape, "mul_1" by the gain. So the values are TensorFlow's for the same seeds (up to the
    /// rounding of the QR decomposition). InvalidArgument from build() for fewer than 2
    /// dimensions: "The tensor to initialize must be at least two-dimensional".
    static Initializer orthogonal(double gain = 1.0, std::optional<std::int64_t> seed = {});
    /// tf.uniform_unit_scaling_initializer(factor) (deprecated in TensorFlow 1.x for
    /// variance_scaling, still in its graphs): "random_uniform" in [-m, m) with
    /// m = sqrt(3 / input_size) * factor, input_size the product of every dimension but the last
    /// (at least 1). factor() holds `factor`.
    static Initializer uniformUnitScaling(double factor = 1.0, std::optional<std::int64_t> seed = {});

    Kind kind() const { return m_kind; }
    /// TensorFlow's name for the recipe: "glorot_uniform", "he_normal", "variance_scaling",
    /// "truncated_normal", "constant", ...
    const std::string& name() const { return m_name; }
    const std::vector<double>& values() const { return m_values; }
    double mean() const { return m_mean; }
    double stddev() const { return m_stddev; }
    double minval() const { return m_minval; }
    std::optional<double> maxval() const { return m_maxval; }
    double scale() const { return m_scale; }
    FanMode mode() const { return m_mode; }
    Distribution distribution() const { return m_distribution; }
    double gain() const { return m_gain; }
    /// uniform_unit_scaling's factor.
    double factor() const { return m_scale; }
    std::optional<std::int64_t> seed() const { return m_seed; }

    /// Adds the ops computing an initial value of `shape` (fully defined) and `dtype` under the
    /// current name scope of `b`, and returns it. InvalidArgument for a shape that is not fully
    /// defined, a random initializer given a non-floating dtype ("Expected floating point type,
    /// got int32."), and the initializer-specific errors above.
    Expected<Output> build(GraphBuilder& b, const TensorShape& shape, DataType dtype) const;

    /// TensorFlow's _compute_fans: (fan_in, fan_out) of a weight shape.
    static std::pair<double, double> computeFans(const TensorShape& shape);

private:
    Initializer(Kind kind, std::string name) : m_kind(kind), m_name(std::move(name)) {}

    Kind m_kind = Kind::kZeros;
    std::string m_name;
    std::vector<double> m_values;
    double m_mean = 0.0;
    double m_stddev = 1.0;
    double m_minval = 0.0;
    std::optional<double> m_maxval;
    double m_scale = 1.0;
    FanMode m_mode = FanMode::kFanIn;
    Distribution m_distribution = Distribution::kTruncatedNormal;
    double m_gain = 1.0;
    std::optional<std::int64_t> m_seed;
};

} // namespace tstudio
