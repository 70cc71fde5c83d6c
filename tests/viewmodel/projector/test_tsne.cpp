// Tests for the projector's t-SNE: the perplexity calibration against its definition, and the
// embedding of well-separated clusters (each cluster's points closer to each other than to any
// other cluster's), made by the test.
#include "projector/tsne.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace tstudio;
using namespace tstudio::projector;

class TestTsne : public QObject {
    Q_OBJECT
private slots:
    void perplexityIsCalibrated()
    {
        std::vector<double> d2;
        for (int j = 1; j <= 90; ++j)
            d2.push_back(0.1 * j * j);
        for (double perplexity : {5.0, 30.0}) {
            const std::vector<double> p = conditionalProbabilities(d2, perplexity);
            double sum = 0, entropy = 0;
            for (double v : p) {
                sum += v;
                if (v > 0)
                    entropy -= v * std::log(v);
            }
            QVERIFY(std::abs(sum - 1) < 1e-12);
            QVERIFY2(std::abs(std::exp(entropy) - perplexity) < 1e-3 * perplexity,
                     qPrintable(QString::number(std::exp(entropy))));
            // Nearer points are likelier.
            for (std::size_t j = 1; j < p.size(); ++j)
                QVERIFY(p[j] <= p[j - 1]);
        }
    }

    void separatedClustersStaySeparated_data()
    {
        QTest::addColumn<int>("dimensions");
        QTest::newRow("2-D (quadtree)") << 2;
        QTest::newRow("3-D (octree)") << 3;
    }
    void separatedClustersStaySeparated()
    {
        QFETCH(int, dimensions);
        const auto dims = static_cast<std::size_t>(dimensions);
        // Three clusters of 40 points in 10-D, centres 20 apart, spread 1.
        std::mt19937 rng(3);
        std::normal_distribution<float> noise(0, 1);
        events::EmbeddingValues v;
        v.rows = 120;
        v.dims = 10;
        for (std::size_t i = 0; i < v.rows; ++i)
            for (std::size_t d = 0; d < v.dims; ++d)
                v.values.push_back((d == i % 3 ? 20.0f : 0.0f) + noise(rng));
        TsneOptions options;
        options.perplexity = 10;
        options.dimensions = dimensions;
        auto tsne = Tsne::create(v, options);
        QVERIFY2(tsne.has_value(), tsne ? "" : tsne.error().message().c_str());
        QCOMPARE(tsne->dimensions(), dimensions);
        for (int it = 0; it < 500; ++it)
            tsne->step();
        QCOMPARE(tsne->iteration(), 500);
        const std::vector<double>& y = tsne->positions();
        QCOMPARE(y.size(), dims * v.rows);
        for (double c : y)
            QVERIFY(std::isfinite(c));
        // Centred on 0 along every axis.
        for (std::size_t d = 0; d < dims; ++d) {
            double mean = 0;
            for (std::size_t i = 0; i < v.rows; ++i)
                mean += y[dims * i + d];
            QVERIFY(std::abs(mean / double(v.rows)) < 1e-9);
        }
        // The largest distance inside a cluster is below the smallest between clusters, and in 3-D
        // the third axis is used (the points do not stay in a plane).
        double inside = 0, between = INFINITY, depth = 0;
        for (std::size_t i = 0; i < v.rows; ++i) {
            if (dims == 3)
                depth = std::max(depth, std::abs(y[3 * i + 2]));
            for (std::size_t j = i + 1; j < v.rows; ++j) {
                double d2 = 0;
                for (std::size_t d = 0; d < dims; ++d)
                    d2 += (y[dims * i + d] - y[dims * j + d]) * (y[dims * i + d] - y[dims * j + d]);
                if (i % 3 == j % 3)
                    inside = std::max(inside, std::sqrt(d2));
                else
                    between = std::min(between, std::sqrt(d2));
            }
        }
        QVERIFY2(inside < between, qPrintable(QStringLiteral("inside %1, between %2").arg(inside).arg(between)));
        if (dims == 3)
            QVERIFY2(depth > 0.1 * inside, qPrintable(QStringLiteral("depth %1").arg(depth)));
    }

    void badInputIsRefused()
    {
        events::EmbeddingValues few{3, 2, {0, 0, 1, 1, 2, 2}};
        QVERIFY(!Tsne::create(few, {}).has_value());
        events::EmbeddingValues small{20, 1, std::vector<float>(20, 1.0f)};
        auto perplexity = Tsne::create(small, {});
        QVERIFY(!perplexity.has_value()); // perplexity 30 needs more than 90 points
        QVERIFY(perplexity.error().message().find("perplexity") != std::string::npos);
        TsneOptions four;
        four.dimensions = 4;
        events::EmbeddingValues enough{100, 2, std::vector<float>(200, 1.0f)};
        auto dimensions = Tsne::create(enough, four);
        QVERIFY(!dimensions.has_value());
        QCOMPARE(dimensions.error().message(), std::string("t-SNE embeds in 2 or 3 dimensions, not 4"));
    }
};

QTEST_APPLESS_MAIN(TestTsne)
#include "test_tsne.moc"
