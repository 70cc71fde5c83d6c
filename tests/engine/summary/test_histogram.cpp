// summary::Histogram against TensorFlow's rules: the default bucket limits (count, ends, symmetry,
// growth), bucket membership at the limits, and encodeToProto compared with NumPy golden values.
#include "kernels/summary/histogram.h"
#include "summary_test_support.h"

#include <QtTest>

#include <cfloat>

using namespace tstudio;
using namespace tstudio::testing;

class TestHistogram : public QObject {
    Q_OBJECT

private slots:
    void defaultLimits()
    {
        const auto limits = summary::Histogram::defaultBucketLimits();
        const QJsonObject golden = summaryGolden().value("bucket_limits").toObject();
        QVERIFY(!golden.isEmpty());
        QCOMPARE(static_cast<qint64>(limits.size()), golden.value("count").toInteger());
        QCOMPARE(limits.size(), std::size_t{1551});
        QCOMPARE(limits.front(), -DBL_MAX);
        QCOMPARE(limits.back(), DBL_MAX);
        const std::size_t zero = static_cast<std::size_t>(golden.value("zero_index").toInteger());
        QCOMPARE(limits[zero], 0.0);
        QCOMPARE(limits[zero + 1], 1.0e-12);
        QCOMPARE(limits[limits.size() - 2], golden.value("largest_finite").toDouble());
        QVERIFY(limits[limits.size() - 2] < 1.0e20);
        for (std::size_t i = 0; i < zero; ++i)
            QCOMPARE(limits[i], -limits[limits.size() - 1 - i]);
        for (std::size_t i = 1; i < limits.size(); ++i)
            QVERIFY2(limits[i] > limits[i - 1], qPrintable(QString("limits not increasing at %1").arg(i)));
        // Each finite positive limit is the previous one times 1.1, in double arithmetic.
        for (std::size_t i = zero + 2; i < limits.size() - 1; ++i)
            QCOMPARE(limits[i], limits[i - 1] * 1.1);
    }

    void bucketMembershipAtLimits()
    {
        summary::Histogram h({-1.0, 0.0, 1.0, 2.0});
        h.add(-5.0); // below the first limit: bucket 0
        h.add(0.0);  // a value equal to a limit belongs above it: bucket 2
        h.add(1.0);  // bucket 3
        h.add(1.5);  // bucket 3
        const auto counts = h.bucketCounts();
        QCOMPARE(counts[0], 1.0);
        QCOMPARE(counts[1], 0.0);
        QCOMPARE(counts[2], 1.0);
        QCOMPARE(counts[3], 2.0);
        QCOMPARE(h.min(), -5.0);
        QCOMPARE(h.max(), 1.5);
        QCOMPARE(h.num(), 4.0);
        QCOMPARE(h.sum(), -2.5);
        QCOMPARE(h.sumSquares(), 25.0 + 0.0 + 1.0 + 2.25);
        // A value at or beyond the last limit is counted in the last bucket, never out of bounds.
        h.add(7.0);
        QCOMPARE(h.bucketCounts()[3], 3.0);
    }

    void encodeCollapsesEmptyRuns()
    {
        summary::Histogram h({1.0, 2.0, 3.0, 4.0, 5.0, 6.0});
        h.add(0.5);
        h.add(4.5);
        tensorflow::HistogramProto p;
        h.encodeToProto(&p, false);
        // Buckets: [1]=1, [2..4] empty -> one (limit 4, 0), [5]=1, [6] empty -> (6, 0).
        QCOMPARE(p.bucket_limit_size(), 4);
        QCOMPARE(p.bucket_limit(0), 1.0);
        QCOMPARE(p.bucket(0), 1.0);
        QCOMPARE(p.bucket_limit(1), 4.0);
        QCOMPARE(p.bucket(1), 0.0);
        QCOMPARE(p.bucket_limit(2), 5.0);
        QCOMPARE(p.bucket(2), 1.0);
        QCOMPARE(p.bucket_limit(3), 6.0);
        h.encodeToProto(&p, true);
        QCOMPARE(p.bucket_size(), 6);
        h.clear();
        h.encodeToProto(&p, false);
        QCOMPARE(p.bucket_size(), 1);
        QCOMPARE(p.bucket_limit(0), 6.0);
        QCOMPARE(p.min(), 6.0); // an empty histogram's min is the last limit, as TensorFlow's
        QCOMPARE(p.max(), -DBL_MAX);
    }

    void encodeMatchesNumPy_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = summaryGolden().value("histograms").toArray();
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases[i].toObject().value("name").toString())) << i;
    }

    void encodeMatchesNumPy()
    {
        QFETCH(int, index);
        const QJsonObject c = summaryGolden().value("histograms").toArray()[index].toObject();
        summary::Histogram h;
        for (double v : goldenNumbers(c.value("values")))
            h.add(v);
        tensorflow::HistogramProto p;
        h.encodeToProto(&p, false);
        const QJsonObject e = c.value("expected").toObject();
        const auto limits = goldenNumbers(e.value("bucket_limit"));
        const auto counts = goldenNumbers(e.value("bucket"));
        QCOMPARE(p.bucket_limit_size(), static_cast<int>(limits.size()));
        QCOMPARE(p.bucket_size(), static_cast<int>(counts.size()));
        for (int i = 0; i < p.bucket_size(); ++i) {
            QCOMPARE(p.bucket_limit(i), limits[static_cast<std::size_t>(i)]);
            QCOMPARE(p.bucket(i), counts[static_cast<std::size_t>(i)]);
        }
        QCOMPARE(p.min(), e.value("min").toDouble());
        QCOMPARE(p.max(), e.value("max").toDouble());
        QCOMPARE(p.num(), e.value("num").toDouble());
        QCOMPARE(p.sum(), e.value("sum").toDouble());
        QCOMPARE(p.sum_squares(), e.value("sum_squares").toDouble());
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "test_histogram.moc"
