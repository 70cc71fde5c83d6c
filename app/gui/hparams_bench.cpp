#include "hparams_bench.h"

#include "event_wait.h"

#include "dashboard/hparams_parallel_view.h"
#include "dashboard/hparams_scatter_view.h"
#include "dashboard/hparams_view.h"
#include "io/events/event_file_writer.h"
#include "proto/hparams_plugin.pb.h"
#include "proto/summary.pb.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace tstudio {
namespace {

double milliseconds(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

tensorflow::Summary pluginSummary(const std::string& tag, const tensorboard::hparams::HParamsPluginData& data)
{
    tensorflow::Summary summary;
    auto* v = summary.add_value();
    v->set_tag(tag);
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("hparams");
    v->mutable_metadata()->mutable_plugin_data()->set_content(data.SerializeAsString());
    return summary;
}

} // namespace

int runHParamsBench(int sessions)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "tensorstudio: cannot make a temporary folder\n");
        return 1;
    }
    QElapsedTimer clock;
    clock.start();
    const char* optimizers[] = {"sgd", "adam", "rmsprop"};
    for (int i = 0; i < sessions; ++i) {
        auto writer = events::EventFileWriter::open(dir.filePath(QStringLiteral("trial_%1").arg(i)).toStdString());
        if (!writer) {
            std::fprintf(stderr, "tensorstudio: %s\n", writer.error().toString().c_str());
            return 1;
        }
        tensorboard::hparams::HParamsPluginData experiment;
        for (const char* metric : {"accuracy", "loss"})
            experiment.mutable_experiment()->add_metric_infos()->mutable_name()->set_tag(metric);
        tensorboard::hparams::HParamsPluginData start;
        auto& hparams = *start.mutable_session_start_info()->mutable_hparams();
        hparams["lr"].set_number_value(1e-4 * (1 + i % 97));
        hparams["batch"].set_number_value(double(16 << (i % 5)));
        hparams["dropout"].set_number_value(0.05 * (i % 10));
        hparams["optimizer"].set_string_value(optimizers[i % 3]);
        tensorflow::Summary metrics;
        metrics.add_value()->set_tag("accuracy");
        metrics.mutable_value(0)->set_simple_value(0.5f + 0.0004f * static_cast<float>((i * 37) % 1000));
        metrics.add_value()->set_tag("loss");
        metrics.mutable_value(1)->set_simple_value(1.0f / static_cast<float>(1 + i % 50));
        Status status = (*writer)->addSummary(pluginSummary("_hparams_/experiment", experiment), 0);
        if (status.isOk())
            status = (*writer)->addSummary(pluginSummary("_hparams_/session_start_info", start), 0);
        if (status.isOk())
            status = (*writer)->addSummary(metrics, 100);
        if (status.isOk())
            status = (*writer)->close();
        if (!status.isOk()) {
            std::fprintf(stderr, "tensorstudio: %s\n", status.toString().c_str());
            return 1;
        }
    }
    const double written = milliseconds(clock);
    dashboard::HParamsView view;
    view.resize(1400, 900);
    view.show();
    clock.start();
    view.setLogDirectories({dir.path()});
    view.reload();
    if (!processEventsUntil([&] { return !view.isBusy() && view.sessionCount() > 0; }, 600000)) {
        std::fprintf(stderr, "tensorstudio: the sessions were not read\n");
        return 1;
    }
    view.repaint();
    const double load = milliseconds(clock);
    QTableWidget* table = view.table();
    std::vector<double> frames;
    auto frame = [&](auto&& change) {
        QElapsedTimer t;
        t.start();
        change();
        view.repaint();
        frames.push_back(milliseconds(t));
    };
    for (int round = 0; round < 2; ++round)
        for (int c = 0; c < table->columnCount(); ++c)
            frame([&] { table->sortByColumn(c, round ? Qt::DescendingOrder : Qt::AscendingOrder); });
    auto* filter = view.findChild<QLineEdit*>(QStringLiteral("hparamsFilter"));
    for (const char* text : {"a", "ad", "adam", "", "sgd", ""})
        frame([&] {
            if (filter)
                filter->setText(QString::fromLatin1(text));
        });
    QScrollBar* scroll = table->verticalScrollBar();
    for (int step = 0; step <= 20; ++step)
        frame([&] { scroll->setValue(scroll->maximum() * step / 20); });
    std::sort(frames.begin(), frames.end());
    std::printf("hparams: %d sessions written in %.0f ms; read and the table filled in %.0f ms\n", view.sessionCount(),
                written, load);
    std::printf("hparams frame (sort by each column, filter, scroll; %zu frames, 1400x900): median %.2f ms, worst "
                "%.2f ms\n",
                frames.size(), frames[frames.size() / 2], frames.back());

    // The plots: a session chosen, the pointer moved over the lines or points (each move finds the
    // session under it and repaints), axis ranges brushed, the colouring changed.
    auto hover = [](QWidget* widget, int step) {
        const QPointF at(widget->width() * (0.1 + 0.08 * (step % 10)), widget->height() * (0.2 + 0.06 * (step % 10)));
        QMouseEvent move(QEvent::MouseMove, at, widget->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &move);
    };
    auto plotFrames = [&](dashboard::HParamsView::Page page, QWidget* plot, const char* what) {
        view.setPage(page);
        view.repaint();
        frames.clear();
        for (int i = 0; i < 10; ++i)
            frame([&] { view.selectSession(i * view.sessionCount() / 10); });
        for (int step = 0; step < 20; ++step)
            frame([&] { hover(plot, step); });
        for (double low : {0.0, 0.25, 0.5, 0.75})
            frame([&] {
                const dashboard::HParamsPlotState& state = view.plotState();
                const dashboard::AxisBrush brush{state.columns.back(), low, low + 0.25, dashboard::AxisScale::Linear};
                view.parallelView()->setBrushes({brush});
            });
        frame([&] { view.parallelView()->setBrushes({}); });
        for (const char* column : {"lr", "batch", "optimizer", "accuracy"})
            frame([&] { view.setColourColumn(QString::fromLatin1(column)); });
        std::sort(frames.begin(), frames.end());
        std::printf("hparams %s frame (choose, hover, brush, colour; %zu frames): median %.2f ms, worst %.2f ms\n",
                    what, frames.size(), frames[frames.size() / 2], frames.back());
    };
    plotFrames(dashboard::HParamsView::Page::ParallelCoordinates, view.parallelView(), "parallel coordinates");
    plotFrames(dashboard::HParamsView::Page::ScatterMatrix, view.scatterView(), "scatter-plot matrix");
    return 0;
}

} // namespace tstudio
