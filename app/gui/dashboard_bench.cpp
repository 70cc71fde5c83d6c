// The dashboard's benchmarks: chart redraw, time to the first chart, GUI stalls while training.
#include "dashboard_bench.h"

#include "app_settings.h"
#include "event_wait.h"
#include "example_gallery.h"
#include "language_manager.h"
#include "main_window.h"

#include "dashboard/dashboard_view.h"
#include "dashboard/runs_panel.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalars_view.h"
#include "node_editor/node_editor.h"
#include "training/training_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace tstudio {
namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

} // namespace

int runChartBench(int points)
{
    const dashboard::ChartBenchResult r = dashboard::benchRedraw(points);
    std::printf("chart: %d points, %zu drawn; per redraw (median of 21): smoothing %.2f ms, y domain %.2f ms, "
                "decimation %.2f ms, points handed over %.2f ms, render of the chart view %dx%d %.2f ms\n",
                points, r.drawnPoints, r.smooth, r.domain, r.decimate, r.replace, r.viewSize.width(),
                r.viewSize.height(), r.render);
    std::printf("chart redraw: %.2f ms\n", r.total);
    return 0;
}

int runDashboardBench(const QString& logdir)
{
    dashboard::DashboardView view;
    view.resize(1400, 900);
    view.show();
    QElapsedTimer clock;
    clock.start();
    view.setLogDirectories({logdir});
    if (!processEventsUntil([&] { return view.firstDataMilliseconds() >= 0 || !view.lastError().isEmpty(); }, 600000)) {
        std::fprintf(stderr, "tensorstudio: no data in %s after 10 minutes\n", qPrintable(logdir));
        return 1;
    }
    if (!view.lastError().isEmpty()) {
        std::fprintf(stderr, "tensorstudio: %s\n", qPrintable(view.lastError()));
        return 1;
    }
    const double data = view.firstDataMilliseconds();
    view.setFollowing(false);
    view.repaint(); // paints the tab with its first charts now
    const double painted = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::printf("dashboard: %d run(s), %d scalar tag(s); read and handed to the views in %.0f ms\n",
                static_cast<int>(view.runsPanel()->runs().size()), static_cast<int>(view.scalars()->tags().size()), data);
    std::printf("first chart: %.0f ms\n", painted);
    return 0;
}

QString benchProjectPath(const QString& project)
{
    if (QFileInfo::exists(project))
        return project;
    if (auto example = findGalleryExample(project))
        return exampleProjectPath(*example);
    return project;
}

Expected<PanelTrainingFigures> trainInPanel(const QString& projectArgument, int steps, const QString& dataDir, int threads)
{
    const QString project = benchProjectPath(projectArgument);
    QTemporaryDir scratch;
    QSettings qsettings(scratch.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    AppSettings settings(&qsettings);
    LanguageManager languages;
    MainWindow window(&settings, &languages);
    window.setPersistLayout(false);
    window.resize(1400, 900);
    window.show();
    if (!window.openInEditor(project))
        return unexpected(invalidArgumentError("cannot open " + project.toStdString() + " in the node editor"));
    training_panel::TrainingPanel* panel = window.trainingPanel();
    panel->logDirectoryEdit()->setText(scratch.filePath(QStringLiteral("run")));
    panel->dataFolderEdit()->setText(dataDir);
    panel->stepsBox()->setValue(steps);
    panel->setIntraOpThreads(threads);

    // The GUI thread's stalls: gaps between ticks of a 5 ms timer beyond its period.
    std::vector<double> gaps;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(5);
    ticker.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        gaps.push_back(static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    int updates = 0;
    QMetaObject::Connection counting;
    QElapsedTimer running;
    if (!panel->start())
        return unexpected(failedPreconditionError(panel->statusText().toStdString()));
    // The dashboard tab opens when the run's session exists; count its updates from then on.
    if (!processEventsUntil([&] { return qobject_cast<dashboard::DashboardView*>(window.documents()->currentWidget()) || !panel->isRunning(); }, 600000))
        return unexpected(unavailableError("the run's dashboard did not open within 10 minutes"));
    if (auto* view = qobject_cast<dashboard::DashboardView*>(window.documents()->currentWidget()))
        counting = QObject::connect(view, &dashboard::DashboardView::updated, [&] { ++updates; });
    running.start();
    sinceTick.start();
    ticker.start();
    processEventsUntil([&] { return !panel->isRunning(); }, 3600000);
    ticker.stop();
    PanelTrainingFigures figures;
    figures.seconds = static_cast<double>(running.nsecsElapsed()) / 1e9;
    QObject::disconnect(counting);
    if (!panel->statusText().contains(QStringLiteral("Finished")))
        return unexpected(failedPreconditionError(panel->statusText().toStdString()));
    const project::TrainProgress& last = panel->lastProgress();
    figures.steps = last.step - last.firstStep;
    figures.stepsPerSecond = last.seconds > 0 ? static_cast<double>(figures.steps) / last.seconds : 0.0;
    figures.loss = last.loss.value_or(0.0);
    figures.dashboardUpdates = updates;
    for (double g : gaps)
        figures.stalls.push_back(std::max(0.0, g - 5.0));
    return figures;
}

double stallPercentile(const std::vector<double>& stalls, double p)
{
    return percentile(stalls, p);
}

int runLiveBench(const QString& project, int steps, const QString& dataDir)
{
    auto run = trainInPanel(project, steps, dataDir, 0);
    if (!run) {
        std::fprintf(stderr, "tensorstudio: %s\n", run.error().message().c_str());
        return 1;
    }
    const std::vector<double>& stalls = run->stalls;
    std::printf("training: %d steps at %.1f steps/s, loss %.4f; dashboard updates %d in %.1f s (%.1f per second)\n",
                steps, run->stepsPerSecond, run->loss, run->dashboardUpdates, run->seconds,
                run->dashboardUpdates / std::max(run->seconds, 1e-9));
    std::printf("gui stalls: median %.1f ms, p99 %.1f ms, max %.1f ms over %zu ticks\n", percentile(stalls, 0.5),
                percentile(stalls, 0.99), stalls.empty() ? 0.0 : *std::max_element(stalls.begin(), stalls.end()),
                stalls.size());
    return 0;
}

} // namespace tstudio
