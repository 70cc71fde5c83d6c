// Tests for the initializers: graphs built by the builder and run in a Session after
// global_variables_initializer give values with each initializer's distribution and exact values
// for the deterministic ones; seeds reproduce values; bad arguments give TensorFlow's errors.
#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "model_test_support.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

using tstudio::testing::err;

struct Stats {
    double mean = 0;
    double stddev = 0;
    double min = 0;
    double max = 0;
};

Stats statsOf(const std::vector<double>& v)
{
    Stats s;
    s.min = s.max = v.front();
    for (double x : v) {
        s.mean += x;
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
    }
    s.mean /= static_cast<double>(v.size());
    for (double x : v)
        s.stddev += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(s.stddev / static_cast<double>(v.size()));
    return s;
}

/// (W^T W - I) or (W W^T - I), whichever is the smaller Gram matrix, as the largest absolute entry;
/// `w` is rows x cols row-major and `gain` scales the identity.
double orthogonalityError(const std::vector<double>& w, std::int64_t rows, std::int64_t cols, double gain)
{
    const bool tall = rows >= cols;
    const std::int64_t n = tall ? cols : rows;
    const std::int64_t k = tall ? rows : cols;
    auto at = [&](std::int64_t vec, std::int64_t i) {
        return tall ? w[static_cast<std::size_t>(i * cols + vec)] : w[static_cast<std::size_t>(vec * cols + i)];
    };
    double worst = 0;
    for (std::int64_t a = 0; a < n; ++a) {
        for (std::int64_t c = 0; c < n; ++c) {
            double dot = 0;
            for (std::int64_t i = 0; i < k; ++i)
                dot += at(a, i) * at(c, i);
            worst = std::max(worst, std::abs(dot - (a == c ? gain * gain : 0.0)));
        }
    }
    return worst;
}

} // namespace

class TestInitializers : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    /// Runs the global initializer of `b` and returns each variable's value as doubles.
    std::vector<std::vector<double>> initialValues(GraphBuilder& b, const std::vector<Variable>& vars,
                                                   std::string* error)
    {
        auto init = globalVariablesInitializer(b);
        if (!init) {
            *error = init.error().toString();
            return {};
        }
        Session session(SessionOptions{tf::ConfigProto(), &m_registries->ops, &m_registries->kernels});
        if (Status s = session.create(b.toGraphDef()); !s.isOk()) {
            *error = s.toString();
            return {};
        }
        std::vector<Tensor> outputs;
        if (Status s = session.run({}, {}, {init->name()}, &outputs); !s.isOk()) {
            *error = s.toString();
            return {};
        }
        std::vector<std::string> fetches;
        for (const Variable& v : vars)
            fetches.push_back(v.value().name());
        if (Status s = session.run({}, fetches, {}, &outputs); !s.isOk()) {
            *error = s.toString();
            return {};
        }
        std::vector<std::vector<double>> values;
        for (const Tensor& t : outputs) {
            std::vector<double> v;
            switch (t.dtype()) {
            case tf::DT_FLOAT:
                for (float x : t.values<float>())
                    v.push_back(x);
                break;
            case tf::DT_DOUBLE:
                for (double x : t.values<double>())
                    v.push_back(x);
                break;
            case tf::DT_INT32:
                for (std::int32_t x : t.values<std::int32_t>())
                    v.push_back(x);
                break;
            case tf::DT_INT64:
                for (std::int64_t x : t.values<std::int64_t>())
                    v.push_back(static_cast<double>(x));
                break;
            default: *error = "unexpected dtype " + dataTypeName(t.dtype()); return {};
            }
            values.push_back(std::move(v));
        }
        return values;
    }

    /// One variable of `shape` made with `init`, initialized and read back.
    std::vector<double> valuesOf(const Initializer& init, const TensorShape& shape, std::string* error,
                                 DataType dtype = tf::DT_FLOAT, std::optional<std::int64_t> graphSeed = {})
    {
        GraphBuilder b(m_registries->ops);
        b.setRandomSeed(graphSeed);
        auto v = getVariable(b, "v", shape, dtype, init);
        if (!v) {
            *error = v.error().toString();
            return {};
        }
        auto values = initialValues(b, {*v}, error);
        return values.empty() ? std::vector<double>{} : values.front();
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void glorotUniformStaysWithinItsBound()
    {
        std::string error;
        const auto w = valuesOf(Initializer::glorotUniform(), {256, 256}, &error);
        QVERIFY2(!w.empty(), error.c_str());
        const double limit = std::sqrt(6.0 / (256 + 256));
        const Stats s = statsOf(w);
        QVERIFY2(s.min >= -limit && s.max <= limit, qPrintable(QString("range [%1, %2]").arg(s.min).arg(s.max)));
        QVERIFY2(s.max > 0.99 * limit && s.min < -0.99 * limit, "the draws do not reach the bounds");
        // Uniform on [-l, l]: std l / sqrt(3); the mean of 65536 draws is within 4 standard errors.
        QVERIFY2(std::abs(s.mean) < 4 * limit / std::sqrt(3.0) / 256, qPrintable(QString::number(s.mean)));
        QVERIFY2(std::abs(s.stddev / (limit / std::sqrt(3.0)) - 1) < 0.02, qPrintable(QString::number(s.stddev)));
    }

    void normalFamiliesHaveTheirVariance_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("expectedStd");
        QTest::addColumn<double>("truncation"); // |w| <= truncation (0: none)
        const double n = 256;
        const double t = .87962566103423978;
        QTest::newRow("glorot_normal") << 0 << std::sqrt(1 / n) << 2 * std::sqrt(1 / n) / t;
        QTest::newRow("he_normal") << 1 << std::sqrt(2 / n) << 2 * std::sqrt(2 / n) / t;
        QTest::newRow("lecun_normal") << 2 << std::sqrt(1 / n) << 2 * std::sqrt(1 / n) / t;
        QTest::newRow("variance_scaling untruncated fan_out scale 3") << 3 << std::sqrt(3 / n) << 0.0;
        QTest::newRow("truncated_normal stddev 0.1") << 4 << 0.1 * t << 0.2;
        QTest::newRow("random_normal stddev 2") << 5 << 2.0 << 0.0;
    }

    void normalFamiliesHaveTheirVariance()
    {
        QFETCH(int, kind);
        QFETCH(double, expectedStd);
        QFETCH(double, truncation);
        const Initializer inits[] = {
            Initializer::glorotNormal(),
            Initializer::heNormal(),
            Initializer::lecunNormal(),
            *Initializer::varianceScaling(3.0, Initializer::FanMode::kFanOut,
                                          Initializer::Distribution::kUntruncatedNormal),
            Initializer::truncatedNormal(0.0, 0.1),
            Initializer::randomNormal(0.0, 2.0),
        };
        std::string error;
        const auto w = valuesOf(inits[kind], {256, 256}, &error);
        QVERIFY2(!w.empty(), error.c_str());
        const Stats s = statsOf(w);
        QVERIFY2(std::abs(s.stddev / expectedStd - 1) < 0.02,
                 qPrintable(QString("std %1, expected %2").arg(s.stddev).arg(expectedStd)));
        QVERIFY2(std::abs(s.mean) < 4 * expectedStd / 256, qPrintable(QString::number(s.mean)));
        if (truncation > 0)
            QVERIFY2(s.max <= truncation * (1 + 1e-6) && s.min >= -truncation * (1 + 1e-6),
                     qPrintable(QString("range [%1, %2], truncation %3").arg(s.min).arg(s.max).arg(truncation)));
        else
            QVERIFY2(s.max > 3 * expectedStd, "an untruncated normal reaches past 3 standard deviations");
    }

    void uniformFamilies()
    {
        std::string error;
        // A 3x3x16x32 convolution kernel: fan_in = 3 * 3 * 16 = 144.
        const auto he = valuesOf(Initializer::heUniform(), {3, 3, 16, 32}, &error);
        QVERIFY2(!he.empty(), error.c_str());
        const double heLimit = std::sqrt(6.0 / 144);
        Stats s = statsOf(he);
        QVERIFY(s.min >= -heLimit && s.max <= heLimit && s.max > 0.98 * heLimit);

        const auto lecun = valuesOf(Initializer::lecunUniform(), {100, 300}, &error);
        s = statsOf(lecun);
        QVERIFY(s.max <= std::sqrt(3.0 / 100) && s.max > 0.98 * std::sqrt(3.0 / 100));

        const auto u = valuesOf(Initializer::randomUniform(-3.0, 5.0), {256, 256}, &error);
        s = statsOf(u);
        QVERIFY(s.min >= -3.0 && s.max < 5.0);
        QVERIFY2(std::abs(s.mean - 1.0) < 0.05, qPrintable(QString::number(s.mean)));
        QVERIFY2(std::abs(s.stddev / (8 / std::sqrt(12.0)) - 1) < 0.02, qPrintable(QString::number(s.stddev)));

        const auto ints = valuesOf(Initializer::randomUniform(2.0, 7.0), {1000}, &error, tf::DT_INT32);
        QVERIFY2(!ints.empty(), error.c_str());
        std::set<double> seen(ints.begin(), ints.end());
        QCOMPARE(seen, (std::set<double>{2, 3, 4, 5, 6}));
    }

    /// tf.uniform_unit_scaling_initializer(factor): uniform in [-m, m), m = sqrt(3 / input_size) *
    /// factor, input_size the product of every dimension but the last (1 for a vector); built as
    /// random_uniform with "random_uniform/min" = -m and "random_uniform/max" = m.
    void uniformUnitScaling()
    {
        std::string error;
        const auto conv = valuesOf(Initializer::uniformUnitScaling(1.5), {3, 3, 16, 32}, &error);
        QVERIFY2(!conv.empty(), error.c_str());
        const double convLimit = std::sqrt(3.0 / 144) * 1.5;
        Stats s = statsOf(conv);
        QVERIFY(s.min >= -convLimit && s.max < convLimit && s.max > 0.98 * convLimit && s.min < -0.98 * convLimit);
        const auto vector = valuesOf(Initializer::uniformUnitScaling(), {4000}, &error);
        s = statsOf(vector);
        QVERIFY2(s.max < std::sqrt(3.0) && s.max > 0.98 * std::sqrt(3.0), qPrintable(QString::number(s.max)));

        GraphBuilder b(m_registries->ops);
        auto v = getVariable(b, "w", {10, 4}, tf::DT_FLOAT, Initializer::uniformUnitScaling(2.0, 3));
        QVERIFY2(v, err(v));
        const tf::NodeDef* max = b.findNode("w/Initializer/random_uniform/max");
        const tf::NodeDef* min = b.findNode("w/Initializer/random_uniform/min");
        QVERIFY(max && min);
        QCOMPARE(max->attr().at("value").tensor().float_val(0), static_cast<float>(std::sqrt(3.0 / 10) * 2.0));
        QCOMPARE(min->attr().at("value").tensor().float_val(0), static_cast<float>(-std::sqrt(3.0 / 10) * 2.0));
        QCOMPARE(Initializer::uniformUnitScaling(2.0).name(), std::string("uniform_unit_scaling"));
        QCOMPARE(Initializer::uniformUnitScaling(2.0).factor(), 2.0);
    }

    void deterministicInitializersAreExact()
    {
        std::string error;
        // Fewer values than elements: the last one repeats (TensorFlow's constant_initializer).
        QCOMPARE(valuesOf(Initializer::constant({1, 2, 3, 4, 5}), {2, 4}, &error),
                 (std::vector<double>{1, 2, 3, 4, 5, 5, 5, 5}));
        QCOMPARE(valuesOf(Initializer::constant(7), {3}, &error, tf::DT_INT32), (std::vector<double>{7, 7, 7}));
        QCOMPARE(valuesOf(Initializer::zeros(), {3}, &error, tf::DT_INT64), (std::vector<double>{0, 0, 0}));
        const auto ones = valuesOf(Initializer::ones(), {40, 40}, &error); // 1600 elements: built with Fill
        QVERIFY2(!ones.empty(), error.c_str());
        QCOMPARE(ones, std::vector<double>(1600, 1.0));
        QCOMPARE(valuesOf(Initializer::identity(2.0), {3, 4}, &error),
                 (std::vector<double>{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0}));
        QCOMPARE(valuesOf(Initializer::identity(), {4, 2}, &error, tf::DT_DOUBLE),
                 (std::vector<double>{1, 0, 0, 1, 0, 0, 0, 0}));
        QVERIFY2(error.empty(), error.c_str());
        auto tooMany = valuesOf(Initializer::constant({1, 2, 3}), {2}, &error);
        QVERIFY(tooMany.empty());
        QVERIFY2(QString::fromStdString(error).contains("Too many elements provided. Needed at most 2, but received 3"),
                 error.c_str());
    }

    void orthogonalIsOrthogonal_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("dims");
        QTest::addColumn<double>("gain");
        QTest::newRow("256x256") << std::vector<std::int64_t>{256, 256} << 1.0;
        QTest::newRow("64x32 tall") << std::vector<std::int64_t>{64, 32} << 1.0;
        QTest::newRow("32x64 wide") << std::vector<std::int64_t>{32, 64} << 1.0;
        QTest::newRow("3x3x4x8 kernel, gain 2") << std::vector<std::int64_t>{3, 3, 4, 8} << 2.0;
    }

    void orthogonalIsOrthogonal()
    {
        QFETCH(std::vector<std::int64_t>, dims);
        QFETCH(double, gain);
        std::string error;
        const auto w = valuesOf(Initializer::orthogonal(gain), TensorShape(dims), &error);
        QVERIFY2(!w.empty(), error.c_str());
        std::int64_t rows = 1;
        for (std::size_t i = 0; i + 1 < dims.size(); ++i)
            rows *= dims[i];
        const double e = orthogonalityError(w, rows, dims.back(), gain);
        QVERIFY2(e < 1e-5 * gain * gain, qPrintable(QString("max |W^T W - gain^2 I| = %1").arg(e)));
    }

    void orthogonalBuildsTensorFlowsGraph_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("dims");
        QTest::addColumn<std::vector<std::int64_t>>("flat");
        QTest::newRow("3x5 wide: transposed back")
            << std::vector<std::int64_t>{3, 5} << std::vector<std::int64_t>{5, 3};
        QTest::newRow("2x2x3 tall") << std::vector<std::int64_t>{2, 2, 3} << std::vector<std::int64_t>{4, 3};
    }

    void orthogonalBuildsTensorFlowsGraph()
    {
        // The nodes TensorFlow 1.15's init_ops.Orthogonal adds under the variable's initializer scope.
        QFETCH(std::vector<std::int64_t>, dims);
        QFETCH(std::vector<std::int64_t>, flat);
        const bool wide = dims.back() > flat.back();
        GraphBuilder b(m_registries->ops);
        auto v = getVariable(b, "w", TensorShape(dims), tf::DT_FLOAT, Initializer::orthogonal(2.0, 3));
        QVERIFY2(v, err(v));
        std::vector<std::pair<std::string, std::string>> expected = {
            {"random_normal/shape", "Const"},
            {"random_normal/mean", "Const"},
            {"random_normal/stddev", "Const"},
            {"random_normal/RandomStandardNormal", "RandomStandardNormal"},
            {"random_normal/mul", "Mul"},
            {"random_normal", "Add"},
            {"Qr", "Qr"},
            {"DiagPart", "DiagPart"},
            {"Sign", "Sign"},
            {"mul", "Mul"}};
        if (wide) {
            expected.push_back({"matrix_transpose/transpose/perm", "Const"});
            expected.push_back({"matrix_transpose/transpose", "Transpose"});
        }
        for (auto [name, op] : std::vector<std::pair<std::string, std::string>>{
                 {"Reshape/shape", "Const"}, {"Reshape", "Reshape"}, {"mul_1/x", "Const"}, {"mul_1", "Mul"}})
            expected.push_back({name, op});
        std::vector<std::pair<std::string, std::string>> built;
        const std::string prefix = "w/Initializer/";
        for (const tf::NodeDef& node : b.graphDef().node())
            if (node.name().rfind(prefix, 0) == 0)
                built.push_back({node.name().substr(prefix.size()), node.op()});
        QCOMPARE(built, expected);
        QCOMPARE(v->initialValue().name(), std::string("w/Initializer/mul_1:0"));

        auto input = [&](const char* node, int i) { return b.findNode(prefix + node)->input(i); };
        QCOMPARE(input("Qr", 0), prefix + "random_normal");
        QCOMPARE(b.findNode(prefix + "Qr")->attr().at("full_matrices").b(), false);
        QCOMPARE(input("DiagPart", 0), prefix + "Qr:1");
        QCOMPARE(input("mul", 0), prefix + "Qr");
        QCOMPARE(input("mul", 1), prefix + "Sign");
        QCOMPARE(input("Reshape", 0), prefix + (wide ? "matrix_transpose/transpose" : "mul"));
        QCOMPARE(input("mul_1", 0), prefix + "mul_1/x");
        QCOMPARE(input("mul_1", 1), prefix + "Reshape");
        QCOMPARE(b.tensor(prefix + "random_normal")->shape(), TensorShape(flat));
        QCOMPARE(b.tensor(prefix + "Qr:0")->shape(), TensorShape(flat));
        QCOMPARE(b.tensor(prefix + "Qr:1")->shape(), (TensorShape{flat[1], flat[1]}));
        QCOMPARE(b.tensor(prefix + "mul_1")->shape(), TensorShape(dims));
    }

    void orthogonalIsTheSignFixedQOfItsRandomNormal_data() { orthogonalBuildsTensorFlowsGraph_data(); }

    void orthogonalIsTheSignFixedQOfItsRandomNormal()
    {
        // A full-rank A [m,n], m >= n, has exactly one factorization A = Q R with orthonormal Q and
        // R upper triangular with a positive diagonal; TensorFlow's q * sign(diag(r)) is that Q, so
        // the initial value must be it: Q^T Q = I, Q^T A upper triangular with a positive diagonal,
        // Q (Q^T A) = A. A and the value are fetched from the same run (the same draw).
        QFETCH(std::vector<std::int64_t>, dims);
        QFETCH(std::vector<std::int64_t>, flat);
        const double gain = 2.0;
        GraphBuilder b(m_registries->ops);
        auto v = getVariable(b, "w", TensorShape(dims), tf::DT_DOUBLE, Initializer::orthogonal(gain, 3));
        QVERIFY2(v, err(v));
        Session session(SessionOptions{tf::ConfigProto(), &m_registries->ops, &m_registries->kernels});
        QVERIFY(session.create(b.toGraphDef()).isOk());
        std::vector<Tensor> out;
        const Status s = session.run({}, {"w/Initializer/random_normal:0", v->initialValue().name()}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        const std::int64_t m = flat[0], n = flat[1];
        const auto a = out[0].values<double>();
        const auto w = out[1].values<double>();
        QCOMPARE(static_cast<std::int64_t>(a.size()), m * n);
        // Q [m,n]: the value flattened to (prod(dims[:-1]), dims[-1]) / gain, transposed when wide.
        const bool wide = dims.back() > n;
        auto q = [&](std::int64_t i, std::int64_t j) {
            return (wide ? w[static_cast<std::size_t>(j * m + i)] : w[static_cast<std::size_t>(i * n + j)]) / gain;
        };
        double orth = 0, lower = 0, reconstruction = 0, smallestDiagonal = 1e300;
        std::vector<double> r(static_cast<std::size_t>(n * n));
        for (std::int64_t i = 0; i < n; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
                double qq = 0, qa = 0;
                for (std::int64_t k = 0; k < m; ++k) {
                    qq += q(k, i) * q(k, j);
                    qa += q(k, i) * a[static_cast<std::size_t>(k * n + j)];
                }
                orth = std::max(orth, std::abs(qq - (i == j ? 1.0 : 0.0)));
                r[static_cast<std::size_t>(i * n + j)] = qa;
                if (i > j)
                    lower = std::max(lower, std::abs(qa));
                if (i == j)
                    smallestDiagonal = std::min(smallestDiagonal, qa);
            }
        }
        for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
                double sum = 0;
                for (std::int64_t k = 0; k < n; ++k)
                    sum += q(i, k) * r[static_cast<std::size_t>(k * n + j)];
                reconstruction = std::max(reconstruction, std::abs(sum - a[static_cast<std::size_t>(i * n + j)]));
            }
        }
        QVERIFY2(orth < 1e-12, qPrintable(QString("|Q^T Q - I| = %1").arg(orth)));
        QVERIFY2(lower < 1e-12, qPrintable(QString("Q^T A below the diagonal: %1").arg(lower)));
        QVERIFY2(smallestDiagonal > 1e-6, qPrintable(QString("smallest diagonal of Q^T A: %1").arg(smallestDiagonal)));
        QVERIFY2(reconstruction < 1e-12, qPrintable(QString("|Q Q^T A - A| = %1").arg(reconstruction)));
    }

    void identityBuildsTensorFlowsEye()
    {
        // linalg_ops.eye of TensorFlow 1.15: MatrixDiag of ones when square, else MatrixSetDiag of
        // ones into zeros; then the gain.
        GraphBuilder b(m_registries->ops);
        auto square = getVariable(b, "s", {3, 3}, tf::DT_FLOAT, Initializer::identity(0.5));
        auto wide = getVariable(b, "r", {2, 4}, tf::DT_FLOAT, Initializer::identity());
        QVERIFY2(square && wide, "getVariable failed");
        auto nodes = [&](const std::string& prefix) {
            std::vector<std::pair<std::string, std::string>> built;
            for (const tf::NodeDef& node : b.graphDef().node())
                if (node.name().rfind(prefix, 0) == 0)
                    built.push_back({node.name().substr(prefix.size()), node.op()});
            return built;
        };
        using Nodes = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(nodes("s/Initializer/"),
                 (Nodes{{"eye/ones", "Const"}, {"eye/diag", "MatrixDiag"}, {"mul/x", "Const"}, {"mul", "Mul"}}));
        QCOMPARE(nodes("r/Initializer/"), (Nodes{{"eye/ones", "Const"},
                                                 {"eye/zeros", "Const"},
                                                 {"eye/set_diag", "MatrixSetDiag"},
                                                 {"mul/x", "Const"},
                                                 {"mul", "Mul"}}));
        QCOMPARE(b.findNode("r/Initializer/eye/set_diag")->input(0), std::string("r/Initializer/eye/zeros"));
        QCOMPARE(b.findNode("r/Initializer/eye/set_diag")->input(1), std::string("r/Initializer/eye/ones"));
        QCOMPARE(b.tensor("r/Initializer/eye/ones")->shape(), (TensorShape{2}));
        std::string error;
        const auto values = initialValues(b, {*square, *wide}, &error);
        QVERIFY2(values.size() == 2, error.c_str());
        QCOMPARE(values[0], (std::vector<double>{0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5}));
        QCOMPARE(values[1], (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0}));
    }

    void seedsReproduceValues()
    {
        std::string error;
        const auto a = valuesOf(Initializer::glorotUniform(), {16, 16}, &error, tf::DT_FLOAT, 42);
        const auto b = valuesOf(Initializer::glorotUniform(), {16, 16}, &error, tf::DT_FLOAT, 42);
        const auto c = valuesOf(Initializer::glorotUniform(), {16, 16}, &error, tf::DT_FLOAT, 43);
        QVERIFY2(!a.empty(), error.c_str());
        QCOMPARE(a, b);
        QVERIFY(a != c);
        const auto d = valuesOf(Initializer::truncatedNormal(0, 1, 7), {16, 16}, &error);
        const auto e = valuesOf(Initializer::truncatedNormal(0, 1, 7), {16, 16}, &error);
        const auto f = valuesOf(Initializer::truncatedNormal(0, 1, 8), {16, 16}, &error);
        QCOMPARE(d, e);
        QVERIFY(d != f);
        const auto g = valuesOf(Initializer::orthogonal(1.0, 3), {8, 8}, &error);
        const auto h = valuesOf(Initializer::orthogonal(1.0, 3), {8, 8}, &error);
        QCOMPARE(g, h);
        // Unseeded initializers draw fresh values each session.
        QVERIFY(valuesOf(Initializer::randomNormal(), {16}, &error) !=
                valuesOf(Initializer::randomNormal(), {16}, &error));
    }

    void badArgumentsGiveTensorFlowsErrors()
    {
        auto scale = Initializer::varianceScaling(0.0);
        QVERIFY(!scale);
        QCOMPARE(scale.error().message(), std::string("`scale` must be positive float."));
        std::string error;
        QVERIFY(valuesOf(Initializer::identity(), {2, 2, 2}, &error).empty());
        QCOMPARE(error, std::string("InvalidArgument: Identity matrix initializer can only be used for 2D matrices."));
        error.clear();
        QVERIFY(valuesOf(Initializer::orthogonal(), {4}, &error).empty());
        QCOMPARE(error, std::string("InvalidArgument: The tensor to initialize must be at least two-dimensional"));
        error.clear();
        QVERIFY(valuesOf(Initializer::heNormal(), {4, 4}, &error, tf::DT_INT32).empty());
        QCOMPARE(error, std::string("InvalidArgument: Expected floating point type, got int32."));
        error.clear();
        QVERIFY(valuesOf(Initializer::randomUniform(), {4}, &error, tf::DT_INT32).empty());
        QCOMPARE(error, std::string("InvalidArgument: Must specify maxval for integer dtype int32"));
        QCOMPARE(Initializer::glorotUniform().name(), std::string("glorot_uniform"));
        QCOMPARE(Initializer::xavierNormal().name(), std::string("glorot_normal"));
        QCOMPARE(Initializer::computeFans({3, 3, 16, 32}), (std::pair<double, double>{144, 288}));
        QCOMPARE(Initializer::computeFans({7}), (std::pair<double, double>{7, 7}));
        QCOMPARE(Initializer::computeFans(TensorShape::scalar()), (std::pair<double, double>{1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestInitializers)
#include "test_initializers.moc"
