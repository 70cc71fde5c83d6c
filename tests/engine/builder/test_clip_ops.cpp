// Gradient clipping (engine/training/clip_ops.h): values against closed forms, TensorFlow 1.15's node
// names, NaN and infinity as TensorFlow treats them, and the shape error.
#include "builder/ops_sugar.h"
#include "model_test_support.h"
#include "builder/clip_ops.h"
#include "training_test_support.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

std::vector<double> run(const GraphBuilder& g, const Output& t)
{
    auto session = TrainingRegistries::get().session(g);
    return fetchValues(*session, t.name());
}

bool near(const std::vector<double>& a, const std::vector<double>& b, double tol = 1e-6)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(b[i]) ? !std::isnan(a[i]) : !(std::abs(a[i] - b[i]) <= tol * (1 + std::abs(b[i]))))
            return false;
    }
    return true;
}

QByteArray show(const std::vector<double>& v)
{
    QStringList parts;
    for (double x : v)
        parts << QString::number(x, 'g', 9);
    return ("[" + parts.join(", ") + "]").toUtf8();
}

} // namespace

class TestClipOps : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { TrainingRegistries::get(); }

    void clipByValue()
    {
        GraphBuilder g(TrainingRegistries::get().ops);
        auto t = ops::constant(g, std::vector<double>{-2.0, 0.5, 3.0, kNan}, {4}, tf::DT_FLOAT, "t");
        auto clipped = training::clipByValue(g, *t, -1.0, 1.0);
        QVERIFY2(clipped, err(clipped));
        QCOMPARE(clipped->node(), std::string("clip_by_value"));
        QCOMPARE(opOf(g, "clip_by_value"), std::string("Maximum"));
        QCOMPARE(inputsOf(g, "clip_by_value"), (std::vector<std::string>{"clip_by_value/Minimum", "clip_by_value/y"}));
        QCOMPARE(inputsOf(g, "clip_by_value/Minimum"), (std::vector<std::string>{"t", "clip_by_value/Minimum/y"}));
        const auto values = run(g, *clipped);
        QVERIFY2(near(values, {-1.0, 0.5, 1.0, kNan}), show(values));

        // A bound that would broadcast the result to another shape is refused.
        auto wide = ops::constant(g, std::vector<double>{1.0}, {2, 4}, tf::DT_FLOAT, "wide");
        auto bad = training::clipByValue(g, *t, -1.0, *wide);
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error().message()), QString("Shapes (4,) and (2, 4) are not compatible"));
    }

    void clipByNorm()
    {
        GraphBuilder g(TrainingRegistries::get().ops);
        auto t = ops::constant(g, std::vector<double>{3.0, 4.0, 0.3, 0.4}, {2, 2}, tf::DT_FLOAT, "t");
        auto all = training::clipByNorm(g, *t, 2.5);
        QVERIFY2(all, err(all));
        QCOMPARE(all->node(), std::string("clip_by_norm"));
        QCOMPARE(opOf(g, "clip_by_norm"), std::string("Identity"));
        for (const auto& [name, op] :
             std::vector<std::pair<std::string, std::string>>{{"clip_by_norm/mul", "Mul"},
                                                              {"clip_by_norm/Const", "Const"},
                                                              {"clip_by_norm/Sum", "Sum"},
                                                              {"clip_by_norm/Greater", "Greater"},
                                                              {"clip_by_norm/ones_like", "Fill"},
                                                              {"clip_by_norm/Select", "Select"},
                                                              {"clip_by_norm/Sqrt", "Sqrt"},
                                                              {"clip_by_norm/Select_1", "Select"},
                                                              {"clip_by_norm/mul_1", "Mul"},
                                                              {"clip_by_norm/Maximum", "Maximum"},
                                                              {"clip_by_norm/truediv", "RealDiv"}})
            QVERIFY2(opOf(g, name) == op, (name + " is " + opOf(g, name)).c_str());
        // Norm sqrt(25.25) over every element.
        const double scale = 2.5 / std::sqrt(25.25);
        auto values = run(g, *all);
        QVERIFY2(near(values, {3.0 * scale, 4.0 * scale, 0.3 * scale, 0.4 * scale}), show(values));

        // Per row: the first row (norm 5) is scaled to 2.5, the second (norm 0.5) kept.
        auto rows = training::clipByNorm(g, *t, 2.5, {1});
        QVERIFY2(rows, err(rows));
        QCOMPARE(rows->node(), std::string("clip_by_norm_1"));
        QCOMPARE(opOf(g, "clip_by_norm_1/Sum/reduction_indices"), std::string("Const"));
        values = run(g, *rows);
        QVERIFY2(near(values, {1.5, 2.0, 0.3, 0.4}), show(values));

        // A zero tensor stays zero (no 0/0), an infinite element makes NaN as in TensorFlow.
        auto zero = ops::constant(g, std::vector<double>{0.0, 0.0}, {2}, tf::DT_FLOAT, "zero");
        auto zeroClipped = training::clipByNorm(g, *zero, 1.0);
        values = run(g, *zeroClipped);
        QVERIFY2(near(values, {0.0, 0.0}), show(values));
        auto inf = ops::constant(g, std::vector<double>{kInf, 1.0}, {2}, tf::DT_FLOAT, "inf");
        auto infClipped = training::clipByNorm(g, *inf, 1.0);
        values = run(g, *infClipped);
        QVERIFY2(near(values, {kNan, 0.0}), show(values));
    }

    void clipByGlobalNorm()
    {
        GraphBuilder g(TrainingRegistries::get().ops);
        auto a = ops::constant(g, std::vector<double>{3.0, 4.0}, {2}, tf::DT_FLOAT, "a");
        auto c = ops::constant(g, std::vector<double>{12.0}, {1}, tf::DT_FLOAT, "c");
        auto result = training::clipByGlobalNorm(g, {*a, std::nullopt, *c}, 6.5);
        QVERIFY2(result, err(result));
        const auto& [clipped, norm] = *result;
        QCOMPARE(clipped.size(), std::size_t(3));
        QVERIFY(!clipped[1]);
        QCOMPARE(norm.node(), std::string("global_norm/global_norm"));
        QCOMPARE(clipped[0]->node(), std::string("clip_by_global_norm/clip_by_global_norm/_0"));
        QCOMPARE(clipped[2]->node(), std::string("clip_by_global_norm/clip_by_global_norm/_2"));
        QCOMPARE(opOf(g, "global_norm/L2Loss"), std::string("L2Loss"));
        QCOMPARE(opOf(g, "global_norm/L2Loss_1"), std::string("L2Loss"));
        QCOMPARE(classOf(g, "global_norm/L2Loss_1"), (std::vector<std::string>{"loc:@c"}));
        QCOMPARE(inputsOf(g, "global_norm/stack"),
                 (std::vector<std::string>{"global_norm/L2Loss", "global_norm/L2Loss_1"}));
        QCOMPARE(inputsOf(g, "clip_by_global_norm/truediv"),
                 (std::vector<std::string>{"clip_by_global_norm/truediv/x", "global_norm/global_norm"}));
        QCOMPARE(inputsOf(g, "clip_by_global_norm/mul"),
                 (std::vector<std::string>{"clip_by_global_norm/mul/x", "clip_by_global_norm/Minimum"}));
        QCOMPARE(inputsOf(g, "clip_by_global_norm/Select"),
                 (std::vector<std::string>{"clip_by_global_norm/IsFinite", "clip_by_global_norm/mul",
                                           "clip_by_global_norm/Const_1"}));
        QCOMPARE(inputsOf(g, "clip_by_global_norm/mul_1"),
                 (std::vector<std::string>{"a", "clip_by_global_norm/Select"}));
        QCOMPARE(classOf(g, "clip_by_global_norm/clip_by_global_norm/_2"), (std::vector<std::string>{"loc:@c"}));
        QCOMPARE(run(g, norm), std::vector<double>{13.0});
        auto values = run(g, *clipped[0]);
        QVERIFY2(near(values, {1.5, 2.0}), show(values));
        values = run(g, *clipped[2]);
        QVERIFY2(near(values, {6.0}), show(values));

        // Below the bound nothing changes; an infinite norm makes every tensor NaN.
        auto small = training::clipByGlobalNorm(g, {*a}, 100.0);
        QVERIFY2(small, err(small));
        values = run(g, *small->first[0]);
        QVERIFY2(near(values, {3.0, 4.0}), show(values));
        auto inf = ops::constant(g, std::vector<double>{kInf, 1.0}, {2}, tf::DT_FLOAT, "inf");
        auto infinite = training::clipByGlobalNorm(g, {*inf, *a}, 1.0);
        QVERIFY2(infinite, err(infinite));
        values = run(g, *infinite->first[1]);
        QVERIFY2(near(values, {kNan, kNan}), show(values));
        QCOMPARE(run(g, infinite->second), std::vector<double>{kInf});
        auto nanNorm = ops::constant(g, kNan, tf::DT_FLOAT, "nan_norm");
        auto withNanNorm = training::clipByGlobalNorm(g, {*a}, 1.0, *nanNorm);
        QVERIFY2(withNanNorm, err(withNanNorm));
        values = run(g, *withNanNorm->first[0]);
        QVERIFY2(near(values, {kNan, kNan}), show(values));

        auto empty = training::clipByGlobalNorm(g, {std::nullopt}, 1.0);
        QVERIFY(!empty);
    }
};

QTEST_GUILESS_MAIN(TestClipOps)
#include "test_clip_ops.moc"
