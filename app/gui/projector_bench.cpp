#include "projector_bench.h"

#include "event_wait.h"

#include "dashboard/projector_view.h"
#include "projector/tsne.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace tstudio {
namespace {

constexpr int kDims = 200;
constexpr int kClusters = 12;

double milliseconds(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

std::pair<double, double> medianAndMax(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.back()};
}

} // namespace

int runProjectorBench(int points)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "tensorstudio: cannot make a temporary folder\n");
        return 1;
    }
    {
        std::mt19937 rng(7);
        std::normal_distribution<float> noise(0.0f, 1.0f);
        std::vector<std::vector<float>> centres(kClusters, std::vector<float>(kDims));
        for (auto& c : centres)
            for (float& v : c)
                v = 4.0f * noise(rng);
        std::ofstream tsv(dir.filePath(QStringLiteral("points.tsv")).toStdString());
        std::ofstream meta(dir.filePath(QStringLiteral("meta.tsv")).toStdString());
        meta << "label\tcluster\n";
        for (int i = 0; i < points; ++i) {
            const int cluster = i % kClusters;
            const std::vector<float>& centre = centres[static_cast<std::size_t>(cluster)];
            for (int d = 0; d < kDims; ++d)
                tsv << (d ? "\t" : "") << centre[static_cast<std::size_t>(d)] + noise(rng);
            tsv << '\n';
            meta << "point" << i << '\t' << "c" << cluster << '\n';
        }
        // A sprite as tf's images_to_sprite lays one out: a square grid of 28 x 28 images, each a
        // disc whose size and shade follow its point's cluster.
        const int perRow = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(points))));
        QImage sprite(perRow * 28, perRow * 28, QImage::Format_RGB32);
        sprite.fill(Qt::black);
        {
            QPainter painter(&sprite);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setPen(Qt::NoPen);
            for (int i = 0; i < points; ++i) {
                const int cluster = i % kClusters;
                painter.setBrush(QColor::fromHsv((36 * cluster) % 360, 60, 255));
                const double r = 4.0 + cluster % 9;
                painter.drawEllipse(QPointF((i % perRow) * 28 + 14.0, (i / perRow) * 28 + 14.0), r, r);
            }
        }
        if (!sprite.save(dir.filePath(QStringLiteral("sprite.png")))) {
            std::fprintf(stderr, "tensorstudio: cannot write the sprite\n");
            return 1;
        }
        std::ofstream(dir.filePath(QStringLiteral("projector_config.pbtxt")).toStdString())
            << "embeddings { tensor_name: \"bench\" tensor_path: \"points.tsv\" metadata_path: \"meta.tsv\"\n"
               "  sprite { image_path: \"sprite.png\" single_image_dim: 28 single_image_dim: 28 } }\n";
    }
    dashboard::ProjectorView view;
    view.resize(1400, 900);
    view.show();
    QElapsedTimer clock;
    clock.start();
    view.setLogDirectories({dir.path()});
    if (!processEventsUntil([&] { return view.projection() != nullptr && !view.isLoading(); }, 600000) ||
        !view.error().isEmpty()) {
        std::fprintf(stderr, "tensorstudio: the embedding did not load: %s\n", qPrintable(view.error()));
        return 1;
    }
    const double load = milliseconds(clock);
    dashboard::ProjectorCanvas* canvas = view.canvas();
    const bool sprites = view.spritesShown();
    // Alternately zoom in and out at the centre and pan a little: what a user's wheel and drag do.
    auto zoomFrames = [&] {
        canvas->repaint();
        std::vector<double> frames;
        for (int round = 0; round < 41; ++round) {
            QElapsedTimer t;
            t.start();
            const QPointF at(canvas->width() / 2.0 + (round % 5) * 7, canvas->height() / 2.0);
            QWheelEvent wheel(at, canvas->mapToGlobal(at), QPoint(), QPoint(0, round % 2 ? -120 : 120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(canvas, &wheel);
            canvas->repaint();
            frames.push_back(milliseconds(t));
        }
        return frames;
    };
    const std::vector<double> spriteFrames = zoomFrames();
    view.setSpritesShown(false);
    const std::vector<double> frames = zoomFrames();
    // PCA in 3-D: the cloud turned a little each frame, as a drag does.
    view.setThreeD(true);
    std::vector<double> turnFrames;
    for (int round = 0; round < 41; ++round) {
        QElapsedTimer t;
        t.start();
        canvas->setRotation(canvas->yaw() + 0.03, canvas->pitch() + (round % 2 ? 0.01 : -0.01));
        canvas->repaint();
        turnFrames.push_back(milliseconds(t));
    }
    const bool turned = canvas->is3D();
    view.setThreeD(false);
    QElapsedTimer t;
    t.start();
    view.setSearch(QStringLiteral("^point1"));
    canvas->repaint();
    const double search = milliseconds(t);
    t.start();
    view.selectPoint(static_cast<std::size_t>(points / 2));
    canvas->repaint();
    const double neighbours = milliseconds(t);
    // t-SNE on the same points: the input similarities (PCA to 50 dimensions, exact neighbours),
    // then the time of an iteration (Barnes-Hut) over 20 of them.
    t.start();
    auto tsne = projector::Tsne::create(*view.values(), {});
    const double tsneSetup = milliseconds(t);
    double tsneIteration = 0;
    if (tsne) {
        t.start();
        for (int i = 0; i < 20; ++i)
            tsne->step();
        tsneIteration = milliseconds(t) / 20;
    }
    // The same in three dimensions (an octree).
    projector::TsneOptions threeD;
    threeD.dimensions = 3;
    auto tsne3 = projector::Tsne::create(*view.values(), threeD);
    double tsne3Iteration = 0;
    if (tsne3) {
        t.start();
        for (int i = 0; i < 20; ++i)
            tsne3->step();
        tsne3Iteration = milliseconds(t) / 20;
    }
    const auto [median, worst] = medianAndMax(frames);
    const auto [spriteMedian, spriteWorst] = medianAndMax(spriteFrames);
    std::printf("projector: %d points x %d dimensions and a %d x 28 px sprite; read, thumbnails and PCA on the "
                "worker %.0f ms\n",
                points, kDims, points, load);
    std::printf("projector frame (zoom/pan, 41 frames, 1400x900 view): median %.2f ms, worst %.2f ms\n", median, worst);
    if (sprites)
        std::printf("projector frame with every point drawn as its image: median %.2f ms, worst %.2f ms\n",
                    spriteMedian, spriteWorst);
    if (turned) {
        const auto [turnMedian, turnWorst] = medianAndMax(turnFrames);
        std::printf("projector 3-D frame (PCA turned, depth-sorted, 41 frames): median %.2f ms, worst %.2f ms\n",
                    turnMedian, turnWorst);
    }
    else
        std::printf("projector: the sprite was not shown: %s\n", qPrintable(view.statusText()));
    std::printf("projector search (%d matches) %.2f ms, point's 20 neighbours %.2f ms\n", view.matchCount(), search,
                neighbours);
    if (tsne)
        std::printf("t-SNE (perplexity 30): similarities %.0f ms, then %.1f ms an iteration (1,000 iterations: "
                    "%.1f s)\n",
                    tsneSetup, tsneIteration, tsneIteration);
    else
        std::printf("t-SNE: %s\n", tsne.error().message().c_str());
    if (tsne3)
        std::printf("t-SNE in 3-D: %.1f ms an iteration\n", tsne3Iteration);
    return 0;
}

} // namespace tstudio
