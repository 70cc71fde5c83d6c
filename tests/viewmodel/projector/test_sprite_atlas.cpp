// Tests for cutting a projector sprite into thumbnails: a sprite the test paints (a distinct colour
// per cell) cut row by row as TensorBoard places them, scaled with the aspect kept; too few cells and
// unreadable files refused naming the file; PyTorch's add_embedding sprite from the fixtures.
#include "projector/sprite_atlas.h"

#include "fixture_paths.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tstudio;
using tstudio::testing::fixturePath;
using tstudio::testing::missingFixture;

namespace {

/// The colour of the cell at (column, row) of the test's sprite.
QColor cellColour(int column, int row)
{
    return QColor(40 * column + 20, 100 * row + 50, 200);
}

} // namespace

class TestSpriteAtlas : public QObject {
    Q_OBJECT
private slots:
    void cellsAreCutRowByRow()
    {
        QTemporaryDir dir;
        // 3 cells of 4x3 per row, 2 rows, and a strip to the right narrower than a cell (ignored).
        QImage sprite(3 * 4 + 2, 2 * 3, QImage::Format_RGB32);
        sprite.fill(Qt::black);
        for (int row = 0; row < 2; ++row)
            for (int column = 0; column < 3; ++column)
                for (int y = 0; y < 3; ++y)
                    for (int x = 0; x < 4; ++x)
                        sprite.setPixelColor(column * 4 + x, row * 3 + y, cellColour(column, row));
        const std::filesystem::path path = dir.filePath(QStringLiteral("sprite.png")).toStdString();
        QVERIFY(sprite.save(QString::fromStdString(path.string())));
        auto thumbnails = projector::spriteThumbnails(path, 4, 3, 5, 8);
        QVERIFY2(thumbnails, thumbnails ? "" : thumbnails.error().message().c_str());
        QCOMPARE(thumbnails->size(), std::size_t(5));
        QCOMPARE((*thumbnails)[0].size(), QSize(8, 6)); // 4x3 scaled into 8x8, aspect kept
        // Point 4 is the second cell of the second row.
        QCOMPARE((*thumbnails)[4].pixelColor(3, 3).rgb(), cellColour(1, 1).rgb());
        QCOMPARE((*thumbnails)[2].pixelColor(0, 0).rgb(), cellColour(2, 0).rgb());
        QCOMPARE((*thumbnails)[3].pixelColor(7, 5).rgb(), cellColour(0, 1).rgb());

        auto tooFew = projector::spriteThumbnails(path, 4, 3, 7, 8);
        QVERIFY(!tooFew);
        QVERIFY2(tooFew.error().message().find("holds 6 images of 4x3, the embedding has 7 points") !=
                     std::string::npos,
                 tooFew.error().message().c_str());
        QVERIFY(tooFew.error().message().find("sprite.png") != std::string::npos);
        QVERIFY(!projector::spriteThumbnails(path, 0, 3, 1, 8));

        const std::filesystem::path broken = dir.filePath(QStringLiteral("broken.png")).toStdString();
        std::ofstream(broken) << "not a png";
        auto unreadable = projector::spriteThumbnails(broken, 4, 3, 1, 8);
        QVERIFY(!unreadable);
        QVERIFY2(unreadable.error().message().find("broken.png': cannot be read") != std::string::npos,
                 unreadable.error().message().c_str());
    }

    /// PyTorch's SummaryWriter.add_embedding(label_img=...): 100 Fashion-MNIST images of 28x28.
    void pytorchSprite()
    {
        const std::string dir = fixturePath("events-pytorch-fashion-mnist");
        if (dir.empty())
            QSKIP(missingFixture("events-pytorch-fashion-mnist"));
        const std::filesystem::path sprite =
            std::filesystem::path(dir) / "runs/fashion_mnist_experiment_1/00000/default/sprite.png";
        auto thumbnails = projector::spriteThumbnails(sprite, 28, 28, 100, 28);
        QVERIFY2(thumbnails, thumbnails ? "" : thumbnails.error().message().c_str());
        QCOMPARE(thumbnails->size(), std::size_t(100));
        QCOMPARE(thumbnails->front().size(), QSize(28, 28));
        // A garment is drawn: some pixel of the first image is far from its corner's background.
        const QImage& first = thumbnails->front();
        const QRgb corner = first.pixel(0, 0);
        bool drawn = false;
        for (int y = 0; y < 28 && !drawn; ++y)
            for (int x = 0; x < 28 && !drawn; ++x)
                drawn = std::abs(qGray(first.pixel(x, y)) - qGray(corner)) > 100;
        QVERIFY(drawn);
    }
};

QTEST_GUILESS_MAIN(TestSpriteAtlas)
#include "test_sprite_atlas.moc"
