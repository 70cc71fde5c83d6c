// The layout benchmark: the same loader, layout and canvas the graph viewer uses, timed step by step.
#include "layout_bench.h"

#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_colouring.h"
#include "graph_viewer/graph_loader.h"
#include "graph_viewer/graph_viewer.h"
#include "registries/default_registries.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace tstudio {
namespace {

using namespace graph_viewer;

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

/// Renders frames of the canvas into an image while zooming and panning; prints median and worst.
void benchFrames(GraphCanvas& canvas, const char* what)
{
    QImage image(1280, 800, QImage::Format_ARGB32_Premultiplied);
    // A window's backing store is there before its first frame: the image's pages are touched
    // first, outside the timed frames.
    image.fill(canvas.palette().color(QPalette::Base));
    canvas.resize(image.size());
    canvas.zoomToFit();
    const double fitZoom = canvas.zoom();
    std::vector<double> times;
    const LayoutSnapshot* s = canvas.snapshot();
    // 30 frames zooming from the whole graph into its centre, then 30 frames panning across it.
    for (int i = 0; i < 60; ++i) {
        if (i < 30) {
            const double z = fitZoom * std::pow(1.25, i * 0.5);
            canvas.setView(z, QPointF(640, 400) - QPointF(s->size.width / 2, s->size.height / 2) * z);
        } else {
            const double z = std::max(fitZoom, 0.5);
            const double x = s->size.width * (i - 30) / 30.0;
            canvas.setView(z, QPointF(640, 400) - QPointF(x, s->size.height / 2) * z);
        }
        QElapsedTimer t;
        t.start();
        // What paintEvent does for one frame, into an image of the window's size.
        QPainter painter(&image);
        painter.fillRect(image.rect(), canvas.palette().color(QPalette::Base));
        painter.translate(canvas.offset());
        painter.scale(canvas.zoom(), canvas.zoom());
        const double filled = ms(t);
        canvas.renderScene(painter, canvas.visibleWorldRect(), canvas.zoom(), true);
        painter.end();
        if (std::getenv("TSTUDIO_BENCH_DEBUG"))
            std::printf("  frame %d: zoom %.3f fill %.1f ms total %.1f ms\n", i, canvas.zoom(), filled, ms(t));
        times.push_back(ms(t));
    }
    // One frame once the view has settled: edges antialiased.
    canvas.zoomToFit();
    canvas.settle();
    QElapsedTimer settled;
    settled.start();
    {
        QPainter painter(&image);
        painter.fillRect(image.rect(), canvas.palette().color(QPalette::Base));
        painter.translate(canvas.offset());
        painter.scale(canvas.zoom(), canvas.zoom());
        canvas.renderScene(painter, canvas.visibleWorldRect(), canvas.zoom(), true);
    }
    const double settledMs = ms(settled);
    std::sort(times.begin(), times.end());
    const double worst = times.back();
    std::printf("frames while panning and zooming (%s): median %.1f ms, worst %.1f ms (%.0f fps at worst); settled frame %.1f ms\n",
                what, times[times.size() / 2], worst, 1000.0 / std::max(worst, 0.001), settledMs);
}

} // namespace

int runLayoutBench(const QString& file)
{
    QFont labelFont;
    labelFont.setPixelSize(11);
    QFont boldFont = labelFont;
    boldFont.setBold(true);
    LabelMetrics metrics;
    metrics.charWidth = QFontMetricsF(labelFont).averageCharWidth();
    metrics.boldCharWidth = QFontMetricsF(boldFont).averageCharWidth();

    QElapsedTimer total;
    total.start();
    GraphLoadRequest request;
    request.path = file.toStdString();
    auto loaded = loadGraph(request);
    if (!loaded) {
        std::fprintf(stderr, "tensorstudio: %s\n", loaded.error().message().c_str());
        return 1;
    }
    auto layout = std::make_shared<GraphViewLayout>(loaded->hierarchy, viewerLayoutOptions(metrics, LayoutDirection::kTopToBottom));
    QElapsedTimer layoutTimer;
    layoutTimer.start();
    layout->update();
    const double layoutMs = ms(layoutTimer);
    const double first = ms(total);
    std::printf("layout: %.0f ms\n", first);
    std::printf("  %d GraphDef nodes; read %.0f ms, hierarchy %.0f ms, layout %.0f ms; first view: %zu boxes, %zu edges\n",
                loaded->graph->node_size(), loaded->readMilliseconds, loaded->hierarchyMilliseconds, layoutMs,
                layout->items().size(), layout->edges().size());

    // The group (or series) whose child count is nearest 500.
    const GraphHierarchy& h = *loaded->hierarchy;
    int best = -1;
    for (const auto& n : h.nodes())
        if (n.kind != HierarchyNodeKind::kOp && n.id != h.root() &&
            (best < 0 || std::abs(static_cast<long>(n.children.size()) - 500) <
                             std::abs(static_cast<long>(h.node(best).children.size()) - 500)))
            best = n.id;
    if (best >= 0) {
        if (h.node(best).parent != h.root()) {
            layout->expandTo(best);
            layout->update();
        }
        QElapsedTimer t;
        t.start();
        layout->setExpanded(best, true);
        layout->update();
        std::printf("expand: %.1f ms (group '%s', %zu children; %d structure(s) computed, %d group(s) placed)\n", ms(t),
                    h.node(best).name.c_str(), h.node(best).children.size(), layout->structuresComputedInLastUpdate(),
                    layout->groupsPlacedInLastUpdate());
        QElapsedTimer c;
        c.start();
        layout->setExpanded(best, false);
        layout->update();
        std::printf("collapse: %.1f ms\n", ms(c));
    }

    auto registries = makeDefaultRegistries();
    GraphCanvas canvas;
    canvas.setAttribute(Qt::WA_DontShowOnScreen);
    canvas.setHierarchy(loaded->hierarchy);
    auto colouring = std::make_shared<GraphColouring>(loaded->hierarchy.get(), loaded->graph.get(),
                                                      registries ? &(*registries)->ops : nullptr, nullptr, nullptr,
                                                      ColourMode::kStructure);
    canvas.setColouring(colouring);
    canvas.setSnapshot(snapshotOf(*layout, LayoutDirection::kTopToBottom, layoutMs));
    if (std::getenv("TSTUDIO_BENCH_DEBUG")) {
        std::size_t points = 0, most = 0;
        for (const auto& e : layout->edges()) {
            points += e.points.size();
            most = std::max(most, e.points.size());
        }
        std::printf("  size %.0f x %.0f, %zu edge points, longest %zu\n", layout->size().width, layout->size().height, points, most);
    }
    benchFrames(canvas, "first view");

    QElapsedTimer all;
    all.start();
    for (const auto& n : h.nodes())
        if (n.kind != HierarchyNodeKind::kOp && n.id != h.root())
            layout->setExpanded(n.id, true);
    layout->update();
    std::printf("expand all: %.0f ms (%zu boxes, %zu edges)\n", ms(all), layout->items().size(), layout->edges().size());
    canvas.setSnapshot(snapshotOf(*layout, LayoutDirection::kTopToBottom, 0));
    benchFrames(canvas, "everything expanded");
    return 0;
}

} // namespace tstudio
