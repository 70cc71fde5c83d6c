// Tests for the HParams matrix: columns as the union of several experiments, numeric and
// categorical axes, linear and logarithmic positions against hand-computed values, brushes.
#include "dashboard/hparams_matrix.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

events::HParamsSession session(std::string run, double lr, std::string opt, std::optional<double> accuracy)
{
    events::HParamsSession s;
    s.run = std::move(run);
    s.status = "success";
    s.hparams["lr"] = lr;
    s.hparams["opt"] = std::move(opt);
    if (accuracy)
        s.metrics[0] = events::MetricReading{*accuracy, 10, 0};
    return s;
}

events::HParamsExperiment experiment()
{
    events::HParamsExperiment e;
    e.hparams.push_back({"lr", "learning rate", "float64", {}, std::nullopt});
    e.hparams.push_back(
        {"opt", "", "string", {std::string("sgd"), std::string("momentum"), std::string("adam")}, std::nullopt});
    e.metrics.push_back({"validation", "accuracy", ""});
    e.sessions.push_back(session("a", 0.001, "adam", 0.9));
    e.sessions.push_back(session("b", 0.1, "sgd", 0.5));
    e.sessions.push_back(session("c", 0.01, "rmsprop", std::nullopt)); // a value the domain lacks
    return e;
}

} // namespace

class TestHParamsMatrix : public QObject {
    Q_OBJECT
private slots:
    void columnsAndRows()
    {
        const HParamsMatrix m = buildHParamsMatrix({{"logs", experiment()}});
        QCOMPARE(m.columns.size(), std::size_t(3));
        QCOMPARE(m.columns[0].title, std::string("learning rate")); // display name first
        QCOMPARE(m.columns[1].title, std::string("opt"));
        QCOMPARE(m.columns[2].title, std::string("validation/accuracy"));
        QCOMPARE(m.columns[2].key, std::string("validation\naccuracy"));
        QCOMPARE(m.hparamColumns(), (std::vector<std::size_t>{0, 1}));
        QCOMPARE(m.metricColumns(), (std::vector<std::size_t>{2}));
        QCOMPARE(m.rows.size(), std::size_t(3));
        QCOMPARE(m.rows[0].run, std::string("a")); // one experiment: no prefix
        QVERIFY(m.columns[0].numeric);
        QCOMPARE(m.columns[0].min, 0.001);
        QCOMPARE(m.columns[0].max, 0.1);
        QVERIFY(m.columns[0].positive);
        QVERIFY(!m.columns[1].numeric);
        // The domain's order, then what it lacks.
        QCOMPARE(m.columns[1].categories, (std::vector<std::string>{"sgd", "momentum", "adam", "rmsprop"}));
        QVERIFY(m.columns[2].numeric);
        QCOMPARE(m.columns[2].min, 0.5);
        QCOMPARE(m.columns[2].max, 0.9);
    }

    void positions()
    {
        const HParamsMatrix m = buildHParamsMatrix({{"logs", experiment()}});
        // Linear: (0.01 - 0.001) / (0.1 - 0.001).
        QCOMPARE(*m.position(2, 0), (0.01 - 0.001) / 0.099);
        QCOMPARE(*m.position(0, 0), 0.0);
        QCOMPARE(*m.position(1, 0), 1.0);
        // Logarithmic: 0.01 lies half way between 0.001 and 0.1.
        QVERIFY(std::abs(*m.position(2, 0, AxisScale::Log) - 0.5) < 1e-12);
        QVERIFY(std::abs(m.valueAt(0, 0.5, AxisScale::Log) - 0.01) < 1e-12);
        QVERIFY(std::abs(m.valueAt(0, 0.25) - (0.001 + 0.25 * 0.099)) < 1e-15);
        // Categories at index / (count - 1): adam is the third of four.
        QCOMPARE(*m.position(0, 1), 2.0 / 3.0);
        QCOMPARE(*m.position(1, 1), 0.0);
        QCOMPARE(*m.position(2, 1), 1.0);
        // A missing metric has no position.
        QVERIFY(!m.position(2, 2).has_value());
        QCOMPARE(*m.position(0, 2), 1.0);
        // Out of range asks give nothing.
        QVERIFY(!m.position(7, 0).has_value());
        QVERIFY(!m.position(0, 9).has_value());
    }

    void degenerateColumns()
    {
        events::HParamsExperiment e;
        e.hparams.push_back({"batch", "", "", {}, std::nullopt});
        e.hparams.push_back({"shuffle", "", "bool", {}, std::nullopt});
        e.hparams.push_back({"momentum", "", "", {}, std::nullopt});
        for (int i = 0; i < 2; ++i) {
            events::HParamsSession s;
            s.run = "r" + std::to_string(i);
            s.hparams["batch"] = 64.0;
            s.hparams["shuffle"] = i == 0;
            s.hparams["momentum"] = i == 0 ? -0.5 : std::numeric_limits<double>::quiet_NaN();
            e.sessions.push_back(s);
        }
        const HParamsMatrix m = buildHParamsMatrix({{"x", e}});
        QCOMPARE(*m.position(0, 0), 0.5); // one value: the middle
        QCOMPARE(*m.position(1, 0), 0.5);
        QVERIFY(!m.columns[1].numeric); // bools are categories, as text sorts
        QCOMPARE(m.columns[1].categories, (std::vector<std::string>{"false", "true"}));
        QCOMPARE(*m.position(0, 1), 1.0);
        QVERIFY(!m.columns[2].positive);                  // a negative value: no logarithmic axis
        QCOMPARE(*m.position(0, 2, AxisScale::Log), 0.5); // only one finite value; linear
        QVERIFY(!m.position(1, 2).has_value());           // NaN has no place
    }

    void severalExperiments()
    {
        events::HParamsExperiment other;
        other.hparams.push_back({"lr", "", "float64", {}, std::nullopt});
        other.hparams.push_back({"layers", "", "float64", {}, std::nullopt});
        other.metrics.push_back({"", "loss", ""});
        other.metrics.push_back({"validation", "accuracy", "acc"}); // the same metric as the first
        events::HParamsSession s;
        s.run = ".";
        s.hparams["lr"] = 1.0;
        s.hparams["layers"] = 3.0;
        s.metrics[0] = events::MetricReading{0.25, 5, 0};
        s.metrics[1] = events::MetricReading{0.75, 5, 0};
        other.sessions.push_back(s);
        const HParamsMatrix m = buildHParamsMatrix({{"one", experiment()}, {"two", other}});
        QCOMPARE(m.columns.size(), std::size_t(5)); // lr, opt, layers, then validation/accuracy, loss
        QCOMPARE(m.columns[2].key, std::string("layers"));
        QCOMPARE(m.columns[3].title, std::string("validation/accuracy"));
        QCOMPARE(m.columns[4].key, std::string("\nloss"));
        QCOMPARE(m.rows.size(), std::size_t(4));
        QCOMPARE(m.rows[0].run, std::string("one/a"));
        QCOMPARE(m.rows[3].run, std::string("two/."));
        QCOMPARE(std::get<double>(m.rows[3].values[3]), 0.75);
        QCOMPARE(std::get<double>(m.rows[3].values[4]), 0.25);
        QVERIFY(std::holds_alternative<std::monostate>(m.rows[3].values[1])); // no opt
        QCOMPARE(m.columns[0].max, 1.0);
    }

    void brushes()
    {
        const HParamsMatrix m = buildHParamsMatrix({{"logs", experiment()}});
        QVERIFY(insideBrushes(m, 0, {}));
        // lr in the upper half (linear): only b (0.1).
        const std::vector<AxisBrush> upper{{0, 0.5, 1.0, AxisScale::Linear}};
        QVERIFY(!insideBrushes(m, 0, upper));
        QVERIFY(insideBrushes(m, 1, upper));
        QVERIFY(!insideBrushes(m, 2, upper));
        // The same range on the log axis holds c (0.5) too; bounds may come reversed.
        const std::vector<AxisBrush> logUpper{{0, 1.0, 0.5, AxisScale::Log}};
        QVERIFY(insideBrushes(m, 2, logUpper));
        // A brushed axis on which a session has no value leaves it out.
        const std::vector<AxisBrush> accuracy{{2, 0.0, 1.0, AxisScale::Linear}};
        QVERIFY(insideBrushes(m, 0, accuracy));
        QVERIFY(!insideBrushes(m, 2, accuracy));
        // Every brush must hold.
        QVERIFY(!insideBrushes(m, 1, {{0, 0.5, 1.0, AxisScale::Linear}, {1, 0.5, 1.0, AxisScale::Linear}}));
    }
};

QTEST_GUILESS_MAIN(TestHParamsMatrix)
#include "test_hparams_matrix.moc"
