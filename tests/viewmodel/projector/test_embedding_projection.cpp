// Tests for the projector's PCA and nearest neighbours, against values worked out by hand.
#include "projector/embedding_projection.h"

#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::projector;

namespace {

events::EmbeddingValues make(std::size_t rows, std::size_t dims, std::vector<float> v)
{
    return events::EmbeddingValues{rows, dims, std::move(v)};
}

bool near(double a, double b, double tolerance = 1e-5) { return std::abs(a - b) <= tolerance; }

} // namespace

class TestEmbeddingProjection : public QObject {
    Q_OBJECT
private slots:
    void axesOfACrossAreItsArms()
    {
        // A cross centred on (1, 1): arms of half-length 2 along x and 1 along y. Covariance
        // diag(8, 2) / 3: the first component is x (80% of the variance), the second y (20%).
        const auto v = make(4, 2, {3, 1, 1, 2, -1, 1, 1, 0});
        auto p = principalComponents(v, 2, false);
        QVERIFY(p.has_value());
        QCOMPARE(p->components, 2);
        QVERIFY(near(p->varianceExplained[0], 0.8));
        QVERIFY(near(p->varianceExplained[1], 0.2));
        // Each component signed so that the first point off its zero is positive.
        const std::vector<float> expected{2, 0, 0, 1, -2, 0, 0, -1};
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(near(p->coordinates[i], expected[i]), qPrintable(QString::number(p->coordinates[i])));
    }

    void fewerPointsThanDimensionsGiveTheSameProjection()
    {
        // Three points in 5-D lying on a line through their mean: one component holds everything,
        // and the coordinates are the signed distances along the line (|(1,2,0,0,2)| = 3).
        const auto v = make(3, 5, {1, 2, 0, 0, 2, 0, 0, 0, 0, 0, -1, -2, 0, 0, -2});
        auto p = principalComponents(v, 2, false);
        QVERIFY(p.has_value());
        QCOMPARE(p->components, 2);
        QVERIFY(near(p->varianceExplained[0], 1.0));
        QVERIFY(near(p->coordinates[0], 3));
        QVERIFY(near(p->coordinates[2], 0));
        QVERIFY(near(p->coordinates[4], -3));
        QVERIFY(near(p->coordinates[1], 0, 1e-4)); // no variance left for the second component
    }

    void sphereizeScalesCentredPointsToUnitLength()
    {
        // After centring, (4, 0) and (-4, 0) and (0, 1), (0, -1): sphereized all have length 1, so
        // both axes then carry half the variance.
        const auto v = make(4, 2, {4, 0, -4, 0, 0, 1, 0, -1});
        auto plain = principalComponents(v, 2, false);
        auto sphere = principalComponents(v, 2, true);
        QVERIFY(plain && sphere);
        QVERIFY(plain->varianceExplained[0] > 0.9);
        QVERIFY(near(sphere->varianceExplained[0], 0.5));
        // Both components together keep each sphereized point's unit length.
        QVERIFY(near(std::hypot(sphere->coordinates[0], sphere->coordinates[1]), 1.0));
    }

    void badInputIsRefused()
    {
        QVERIFY(!principalComponents(make(1, 3, {1, 2, 3}), 2, false).has_value());
        auto nan = principalComponents(make(2, 2, {1, 2, std::nanf(""), 4}), 2, false);
        QVERIFY(!nan.has_value());
        QVERIFY(nan.error().message().find("point 1, dimension 0") != std::string::npos);
    }

    void neighboursByCosineAndEuclid()
    {
        // Point 0 = (1, 0). Point 1 = (10, 1) points almost the same way but is far; point 2 =
        // (0, 1) is near but at a right angle; point 3 = (-1, 0) is opposite.
        const auto v = make(4, 2, {1, 0, 10, 1, 0, 1, -1, 0});
        const auto cosine = nearestNeighbours(v, 0, 3, DistanceMetric::Cosine);
        QCOMPARE(cosine.size(), std::size_t{3});
        QCOMPARE(cosine[0].index, std::size_t{1});
        QVERIFY(near(cosine[0].distance, 1.0 - 10.0 / std::sqrt(101.0), 1e-12));
        QCOMPARE(cosine[1].index, std::size_t{2});
        QVERIFY(near(cosine[1].distance, 1.0, 1e-12));
        QCOMPARE(cosine[2].index, std::size_t{3});
        QVERIFY(near(cosine[2].distance, 2.0, 1e-12));
        const auto euclid = nearestNeighbours(v, 0, 2, DistanceMetric::Euclidean);
        QCOMPARE(euclid.size(), std::size_t{2});
        QCOMPARE(euclid[0].index, std::size_t{2});
        QVERIFY(near(euclid[0].distance, std::sqrt(2.0), 1e-12));
        QCOMPARE(euclid[1].index, std::size_t{3});
        QVERIFY(nearestNeighbours(v, 9, 3, DistanceMetric::Cosine).empty());
    }
};

QTEST_APPLESS_MAIN(TestEmbeddingProjection)
#include "test_embedding_projection.moc"
