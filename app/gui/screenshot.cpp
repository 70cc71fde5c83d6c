// Screenshot mode: waits for detection to finish, then grabs the widget tree offscreen.
#include "screenshot.h"

#include "event_wait.h"

#include "about_dialog.h"
#include "main_window.h"

#include "diff/model_diff_view.h"
#include "help_browser.h"
#include "settings_dialog.h"
#include "shortcuts_dialog.h"

#include "dashboard/custom_scalars_view.h"
#include "dashboard/dashboard_view.h"
#include "dashboard/hparams_parallel_view.h"
#include "dashboard/hparams_view.h"
#include "dashboard/images_view.h"
#include "dashboard/projector_view.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalars_view.h"
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "tensor_view/tensor_inspector.h"
#include "profiler/profile_tables_view.h"
#include "profiler/profiler_view.h"
#include "profiler/timeline_view.h"
#include "records/record_viewer.h"
#include "example_gallery.h"
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/node_properties_panel.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "node_editor/evaluate_dialog.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "training/distributed_dialog.h"
#include "training/training_panel.h"
#include "graph_viewer/meta_graph_view.h"
#include "node_editor/import_graph_dialog.h"
#include "node_editor/session_console.h"
#include "io/formats/graph_file.h"

#include <QComboBox>
#include <QFileInfo>
#include "registries/default_registries.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QImageWriter>
#include <QLineEdit>
#include <QPixmap>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <map>

#include <optional>

namespace tstudio {
namespace {

void settle(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

int fail(const QString& message)
{
    std::fprintf(stderr, "tensorstudio: %s\n", qPrintable(message));
    return 1;
}

int save(const QPixmap& pixmap, const QString& file)
{
    if (pixmap.isNull())
        return fail(QStringLiteral("nothing was rendered"));
    QImageWriter writer(file, "png");
    if (!writer.write(pixmap.toImage()))
        return fail(QStringLiteral("cannot write %1: %2").arg(file, writer.errorString()));
    std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
    return 0;
}

/// The tensor inspector's views by their --tab names (debugger and value panels).
std::map<QString, debugger_ui::TensorInspector::View> inspectorViews()
{
    return {{QStringLiteral("table"), debugger_ui::TensorInspector::View::Table},
            {QStringLiteral("histogram"), debugger_ui::TensorInspector::View::Histogram},
            {QStringLiteral("heatmap"), debugger_ui::TensorInspector::View::HeatMap},
            {QStringLiteral("images"), debugger_ui::TensorInspector::View::Images}};
}

/// Prepares the graph viewer of the current tab as the request says; an error message or "".
QString prepareGraph(MainWindow& window, const ScreenshotRequest& request)
{
    auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(window.documents()->currentWidget());
    if (!viewer)
        return QStringLiteral("panel 'graph' needs a graph file to show");
    if (!processEventsUntil([viewer] { return !viewer->isLoading() && (!viewer->isReady() || viewer->factsReady()); }, 120000))
        return QStringLiteral("timed out waiting for the graph");
    if (!viewer->isReady())
        return viewer->errorText();
    static const QMap<QString, graph_viewer::ColourMode> modes = {
        {QStringLiteral("structure"), graph_viewer::ColourMode::kStructure},
        {QStringLiteral("device"), graph_viewer::ColourMode::kRequestedDevice},
        {QStringLiteral("placed"), graph_viewer::ColourMode::kPlacedDevice},
        {QStringLiteral("time"), graph_viewer::ColourMode::kComputeTime},
        {QStringLiteral("memory"), graph_viewer::ColourMode::kMemory},
        {QStringLiteral("runnable"), graph_viewer::ColourMode::kRunnable}};
    if (!request.colourBy.isEmpty()) {
        if (!modes.contains(request.colourBy))
            return QStringLiteral("unknown --colour-by '%1'; expected one of: %2").arg(request.colourBy, modes.keys().join(", "));
        viewer->setColourMode(modes.value(request.colourBy));
    }
    int layouts = 0;
    QObject::connect(viewer, &graph_viewer::GraphViewer::layoutFinished, viewer, [&layouts] { ++layouts; });
    int requested = 0;
    if (request.leftToRight) {
        viewer->setDirection(graph_viewer::LayoutDirection::kLeftToRight);
        ++requested;
    }
    for (const QString& scope : request.expand) {
        const int node = viewer->hierarchy()->find(scope.toStdString());
        if (node < 0)
            return QStringLiteral("--expand: no name scope '%1' in the graph").arg(scope);
        viewer->setExpanded(node, true);
        ++requested;
    }
    // Expansions queue into as few layout jobs as the worker takes; wait until the queue is drained.
    if (requested > 0 && !processEventsUntil([&] { return layouts > 0 && !viewer->layoutPending(); }, 60000))
        return QStringLiteral("timed out waiting for the layout");
    if (!request.select.isEmpty()) {
        if (!viewer->selectNodeNamed(request.select))
            return QStringLiteral("--select: no node '%1'").arg(request.select);
        processEventsUntil([viewer] { return !viewer->layoutPending(); }, 60000);
    }
    if (!request.find.isEmpty()) {
        viewer->find(request.find, graph_viewer::SearchMode::kName);
        processEventsUntil([viewer] { return !viewer->layoutPending(); }, 60000);
    }
    if (requested > 0 && request.select.isEmpty() && request.find.isEmpty())
        viewer->canvas()->zoomToFit();
    // --tab metagraph: the side panel's MetaGraph tab (collections, saver) in front.
    if (request.dashboardTab == QLatin1String("metagraph")) {
        if (!viewer->metaGraphView())
            return QStringLiteral("--tab metagraph: the file holds no MetaGraph");
        if (auto* tabs = qobject_cast<QTabWidget*>(viewer->metaGraphView()->parentWidget()->parentWidget()))
            tabs->setCurrentWidget(viewer->metaGraphView());
    }
    viewer->canvas()->settle(); // full quality, as a still view is drawn
    return {};
}

/// The profiler tab as the request says: a trace file opened in it, or (with --train-steps) the
/// open project trained from the Training panel with its Profile button pressed at step 3.
QString prepareProfiler(MainWindow& window, const ScreenshotRequest& request)
{
    auto currentProfiler = [&window] {
        for (int i = window.documents()->count() - 1; i >= 0; --i)
            if (auto* view = qobject_cast<profiler::ProfilerView*>(window.documents()->widget(i)))
                return view;
        return static_cast<profiler::ProfilerView*>(nullptr);
    };
    QTemporaryDir logs;
    if (request.trainSteps > 0) {
        training_panel::TrainingPanel* panel = window.trainingPanel();
        panel->logDirectoryEdit()->setText(logs.filePath(QStringLiteral("run")));
        panel->stepsBox()->setValue(request.trainSteps);
        if (!request.dataDir.isEmpty())
            panel->dataFolderEdit()->setText(request.dataDir);
        bool asked = false;
        QObject::connect(panel, &training_panel::TrainingPanel::progressed, panel,
                         [panel, &asked](const project::TrainProgress& p) {
                             if (!asked && p.step >= 3) {
                                 asked = true;
                                 panel->profileNextStep();
                             }
                         });
        if (!panel->start())
            return QStringLiteral("training did not start: %1").arg(panel->statusText());
        if (!processEventsUntil([panel] { return !panel->isRunning(); }, 600000))
            return QStringLiteral("timed out waiting for the training run");
        if (!processEventsUntil([&] { return currentProfiler() != nullptr; }, 10000))
            return QStringLiteral("the run ended before a step was profiled (give more --train-steps)");
    }
    profiler::ProfilerView* view = currentProfiler();
    if (!view)
        return QStringLiteral("panel 'profiler' needs a trace file or a project with --train-steps");
    window.documents()->setCurrentWidget(view);
    if (!processEventsUntil([view] { return !view->isLoading(); }, 120000))
        return QStringLiteral("timed out reading the trace");
    if (!view->errorText().isEmpty())
        return view->errorText();
    if (!processEventsUntil([view] { return !view->tables()->isBusy(); }, 120000))
        return QStringLiteral("timed out building the tables");
    for (const QString& name : window.panelNames())
        window.panel(name)->hide();
    const QString tab = request.dashboardTab;
    using Tab = profiler::tables::ProfileTablesView::Tab;
    const std::map<QString, Tab> tabs = {{QStringLiteral("ops"), Tab::kOpTypes}, {QStringLiteral("scopes"), Tab::kScopes},
                                         {QStringLiteral("nodes"), Tab::kNodes},
                                         {QStringLiteral("advice"), Tab::kAdvice},
                                         {QStringLiteral("tfprof"), Tab::kTfprof}};
    if (!tab.isEmpty() && tab != QLatin1String("timeline")) {
        const auto it = tabs.find(tab);
        if (it == tabs.end())
            return QStringLiteral("unknown --tab '%1'; expected timeline, ops, scopes, nodes, advice or tfprof")
                .arg(tab);
        view->tables()->setCurrentTab(it->second);
    }
    if (!request.select.isEmpty() && !view->showNode(request.select))
        return QStringLiteral("--select: the trace has no execution of '%1'").arg(request.select);
    return {};
}

/// Trains the open project with the debugger attached and a breakpoint (--select, default
/// "op:MatMul"), waits for the pause and opens a tensor in the inspector (--find, default the
/// paused node's first input) in the view --tab names (table, histogram, heatmap, images).
QString prepareDebugger(MainWindow& window, const ScreenshotRequest& request, const QTemporaryDir& logs)
{
    auto* editor = qobject_cast<node_editor::NodeEditor*>(window.documents()->currentWidget());
    if (!editor)
        return QStringLiteral("panel 'debugger' needs a project (.tsproj) or graph with training to open");
    const QString spec = request.select.isEmpty() ? QStringLiteral("op:MatMul") : request.select;
    auto breakpoint = debugger::parseBreakpoint(spec.toStdString());
    if (!breakpoint)
        return QStringLiteral("--select: %1").arg(QString::fromStdString(breakpoint.error().message()));
    const std::map<QString, debugger_ui::TensorInspector::View> views = inspectorViews();
    const QString viewName = request.dashboardTab.isEmpty() ? QStringLiteral("heatmap") : request.dashboardTab;
    if (!views.count(viewName))
        return QStringLiteral("unknown --tab '%1'; expected table, histogram, heatmap or images").arg(viewName);
    project::DebuggerSettings settings;
    settings.breakpoints.push_back(*breakpoint);
    editor->setDebuggerSettings(settings);
    training_panel::TrainingPanel* panel = window.trainingPanel();
    panel->logDirectoryEdit()->setText(logs.filePath(QStringLiteral("run")));
    panel->stepsBox()->setValue(request.trainSteps > 0 ? request.trainSteps : 100);
    if (!request.dataDir.isEmpty())
        panel->dataFolderEdit()->setText(request.dataDir);
    panel->setDebugging(true);
    emit editor->trainRequested(); // shows the panel with its settings; Start trains
    panel->start();
    if (!panel->isRunning())
        return QStringLiteral("training did not start: %1").arg(panel->statusText());
    debugger_ui::DebuggingTab* tab = nullptr;
    auto paused = [&] {
        for (int i = 0; i < window.documents()->count(); ++i)
            if (auto* d = qobject_cast<debugger_ui::DebuggingTab*>(window.documents()->widget(i)))
                if (d->debugger()->isPaused())
                    tab = d;
        return tab != nullptr || !panel->isRunning();
    };
    if (!processEventsUntil(paused, 600000) || !tab)
        return QStringLiteral("the run did not stop at '%1': %2").arg(spec, panel->statusText());
    debugger_ui::DebuggerView* view = tab->debugger();
    QString tensor = request.find;
    if (tensor.isEmpty() && !view->pausedTensors().isEmpty())
        tensor = view->pausedTensors().front();
    if (!tensor.isEmpty() && !view->showTensor(tensor))
        return QStringLiteral("--find: no value of '%1' to show").arg(tensor);
    view->inspector()->setView(views.at(viewName));
    for (const QString& name : window.panelNames())
        window.panel(name)->hide();
    window.documents()->setCurrentWidget(tab);
    processEventsUntil([tab] { return tab->graphViewer()->isReady() && !tab->graphViewer()->layoutPending(); }, 60000);
    return {};
}

/// The record viewer of the current tab, indexed, with its statistics, on the record of --select
/// (a number, default 0) and the tab of --tab (features or statistics); an error message or "".
QString prepareRecords(MainWindow& window, const ScreenshotRequest& request)
{
    auto* viewer = qobject_cast<records::RecordViewer*>(window.documents()->currentWidget());
    if (!viewer)
        return QStringLiteral("panel 'records' needs a TFRecord file to show");
    if (!viewer->model())
        return viewer->errorText();
    if (!processEventsUntil([viewer] { return !viewer->isIndexing() && viewer->statisticsReady(); }, 120000))
        return QStringLiteral("timed out indexing the records");
    bool ok = true;
    const quint64 record = request.select.isEmpty() ? 0 : request.select.toULongLong(&ok);
    if (!ok)
        return QStringLiteral("--select: '%1' is not a record number").arg(request.select);
    viewer->goToRecord(record);
    if (viewer->currentRecord() != qint64(record))
        return QStringLiteral("--select: %1").arg(viewer->statusText());
    if (request.dashboardTab == QLatin1String("statistics"))
        viewer->tabs()->setCurrentIndex(1);
    else if (!request.dashboardTab.isEmpty() && request.dashboardTab != QLatin1String("features"))
        return QStringLiteral("unknown --tab '%1'; expected features or statistics").arg(request.dashboardTab);
    // The records get the window's height, as one reads a table.
    for (const QString& name : window.panelNames())
        window.panel(name)->hide();
    return {};
}

} // namespace

QStringList screenshotPanelNames(const MainWindow& window)
{
    QStringList names = window.panelNames();
    names << QStringLiteral("start") << QStringLiteral("welcome") << QStringLiteral("document") << QStringLiteral("settings")
          << QStringLiteral("about") << QStringLiteral("graph") << QStringLiteral("editor") << QStringLiteral("dashboard")
          << QStringLiteral("profiler") << QStringLiteral("debugger") << QStringLiteral("records")
          << QStringLiteral("diff") << QStringLiteral("value");
    names << QStringLiteral("help") << QStringLiteral("shortcuts");
    return names;
}

namespace {

/// --panel editor --import-graph FILE: the Import Graph dialog over the editor's graph, with --find's
/// "PLACEHOLDER=TENSOR" chosen in its table.
int captureImportDialog(MainWindow& window, node_editor::NodeEditor& editor, const ScreenshotRequest& request)
{
    auto graph = readGraphFromFile(request.importGraph.toStdString());
    if (!graph)
        return fail(QString::fromStdString(graph.error().message()));
    node_editor::ImportGraphDialog dialog(editor.document(), window.registries(), std::move(graph->graph),
                                          QFileInfo(request.importGraph).fileName(), &window);
    if (const qsizetype eq = request.find.indexOf(QLatin1Char('=')); eq > 0) {
        QComboBox* box = dialog.mappingBox(request.find.left(eq).trimmed());
        const int item = box ? box->findText(request.find.mid(eq + 1).trimmed(), Qt::MatchStartsWith) : -1;
        if (item < 0)
            return fail(QStringLiteral("--find: no input or tensor '%1' in the Import Graph dialog").arg(request.find));
        box->setCurrentIndex(item);
    }
    dialog.show();
    settle(150);
    return save(dialog.grab(), request.outputFile);
}

/// --panel editor: the files (or the spirals example) in node editor tabs, --select'ed, --evaluate'd.
int captureEditor(MainWindow& window, const ScreenshotRequest& request)
{
    // Files open in node editor tabs instead of viewers.
    QStringList files = request.files;
    if (request.openExample) {
        const std::optional<GalleryExample> spirals = findGalleryExample(QStringLiteral("spirals"));
        const QString example = spirals ? exampleProjectPath(*spirals) : QString();
        if (example.isEmpty())
            return fail(QStringLiteral("the spirals example project was not found (set TSTUDIO_EXAMPLES_DIR)"));
        files.prepend(example);
    }
    if (files.isEmpty())
        window.newGraph();
    for (const QString& file : files)
        if (!window.openInEditor(file))
            return fail(QStringLiteral("cannot open %1 in the node editor").arg(file));
    settle(100);
    if (auto* editor = qobject_cast<node_editor::NodeEditor*>(window.documents()->currentWidget())) {
        editor->refreshFeedback();
        if (!request.importGraph.isEmpty())
            return captureImportDialog(window, *editor, request);
        if (!request.select.isEmpty()) {
            const DocNodeId id = editor->document()->findByName(request.select.toStdString());
            if (id == kNoNode)
                return fail(QStringLiteral("--select: no node '%1'").arg(request.select));
            editor->scene()->reveal(id); // inside collapsed name scopes: expand them
            editor->scene()->clearSelection();
            if (auto* item = editor->scene()->nodeItem(id))
                item->setSelected(true);
            if (request.evaluate) {
                node_editor::EvaluateDialog dialog(editor->document(), window.registries(), id, &window,
                                                   editor->interactiveSession());
                dialog.show();
                dialog.evaluate();
                settle(150);
                return save(dialog.grab(), request.outputFile);
            }
        }
        settle(50);
        editor->view()->zoomToFit(); // the side panel's width follows the selection's attributes
    }
    settle(150);
    return save(window.grab(), request.outputFile);
}

/// --panel settings, about, help or shortcuts: the dialog or the guide alone; nothing for other panels.
std::optional<int> captureDialog(MainWindow& window, const ScreenshotRequest& request)
{
    if (request.panel == QLatin1String("settings") || request.panel == QLatin1String("about")) {
        std::unique_ptr<QDialog> dialog;
        if (request.panel == QLatin1String("settings"))
            dialog = std::make_unique<SettingsDialog>(window.settings(), window.languages(), &window);
        else
            dialog = std::make_unique<AboutDialog>(&window);
        dialog->show();
        settle(150);
        return save(dialog->grab(), request.outputFile);
    }
    if (request.panel == QLatin1String("help")) {
        // The guide at --select PAGE (default: as F1 opens it), searched for --find TEXT.
        if (!request.select.isEmpty() && !window.helpBrowser()->pages().contains(request.select))
            return fail(QStringLiteral("--select: the guide has no page '%1'; it has: %2")
                            .arg(request.select, window.helpBrowser()->pages().join(", ")));
        window.showGuide(request.select);
        if (!request.find.isEmpty())
            window.helpBrowser()->search(request.find);
        window.helpBrowser()->resize(request.size.boundedTo(QSize(1100, 760)));
        settle(200);
        return save(window.helpBrowser()->grab(), request.outputFile);
    }
    if (request.panel == QLatin1String("shortcuts")) {
        ShortcutsDialog dialog(&window, window.registries(), &window);
        dialog.setFilter(request.find);
        dialog.show();
        settle(150);
        return save(dialog.grab(), request.outputFile);
    }
    return std::nullopt;
}

/// A document panel before it has anything to show: its empty state, at the window's size; nothing
/// for a panel that is not a document's.
std::optional<int> captureEmptyPanel(MainWindow& window, const ScreenshotRequest& request)
{
    std::unique_ptr<QWidget> empty;
    if (request.panel == QLatin1String("dashboard"))
        empty = std::make_unique<dashboard::DashboardView>();
    else if (request.panel == QLatin1String("profiler"))
        empty = std::make_unique<profiler::ProfilerView>(window.registries() ? &window.registries()->ops : nullptr);
    else if (request.panel == QLatin1String("debugger"))
        empty = std::make_unique<debugger_ui::DebuggerView>();
    else if (request.panel == QLatin1String("records"))
        empty = std::make_unique<records::RecordViewer>();
    else if (request.panel == QLatin1String("graph"))
        empty = std::make_unique<graph_viewer::GraphViewer>(window.registries());
    if (empty) {
        empty->resize(request.size);
        empty->show();
        settle(200);
        return save(empty->grab(), request.outputFile);
    }
    return std::nullopt;
}

/// brush:COLUMN:LOW:HIGH on the HParams tab: the range [LOW, HIGH] (positions in [0, 1] along the
/// column's axis) kept on a shown column. False when it cannot.
bool applyHParamsBrush(dashboard::HParamsView& hparams, const QString& spec)
{
    const QStringList parts = spec.split(QLatin1Char(':'));
    if (parts.size() < 3 || !hparams.plotState().matrix)
        return false;
    bool lowOk = false, highOk = false;
    const double low = parts[parts.size() - 2].toDouble(&lowOk), high = parts.back().toDouble(&highOk);
    const QString title = parts.mid(0, parts.size() - 2).join(QLatin1Char(':'));
    const dashboard::HParamsPlotState& state = hparams.plotState();
    for (std::size_t c : state.columns)
        if (QString::fromStdString(state.matrix->columns[c].title) == title && lowOk && highOk) {
            std::vector<dashboard::AxisBrush> brushes = hparams.parallelView()->brushes();
            brushes.push_back({c, low, high, state.scale(c)});
            hparams.parallelView()->setBrushes(std::move(brushes));
            return true;
        }
    return false;
}

/// --dashboard-view SPEC on a dashboard: each comma-separated setting applied. An error, or empty.
QString applyDashboardView(dashboard::DashboardView& view, const QString& spec)
{
    dashboard::ScalarsView* scalars = view.scalars();
    for (const QString& raw : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString item = raw.trimmed();
        const QString value = item.section(QLatin1Char(':'), 1);
        bool ok = true;
        if (item.startsWith(QLatin1String("ema:"))) {
            scalars->setSmoothingKind(dashboard::SmoothingKind::Exponential);
            scalars->setSmoothing(value.toDouble(&ok));
        } else if (item.startsWith(QLatin1String("mean:"))) {
            scalars->setSmoothingKind(dashboard::SmoothingKind::MovingAverage);
            scalars->setSmoothingWindow(value.toInt(&ok));
        } else if (item == QLatin1String("envelope")) {
            scalars->setEnvelope(true);
        } else if (item.startsWith(QLatin1String("pin:"))) {
            scalars->setPinned(value, true);
            ok = scalars->pinnedTags().contains(value);
        } else if (item.startsWith(QLatin1String("enlarge:"))) {
            scalars->setEnlarged(value, true);
            ok = scalars->isEnlarged(value);
        } else if (item == QLatin1String("link-images")) {
            view.images()->setStepsLinked(true);
        } else if (item.startsWith(QLatin1String("perplexity:"))) {
            view.projector()->setPerplexity(value.toInt(&ok));
        } else if (item == QLatin1String("no-images")) {
            view.projector()->setSpritesShown(false);
        } else if (item == QLatin1String("3d")) {
            view.projector()->setThreeD(true);
            ok = view.projector()->canvas()->is3D();
        } else if (item == QLatin1String("tsne")) {
            dashboard::ProjectorView* projector = view.projector();
            projector->setMethod(dashboard::ProjectorView::Method::Tsne);
            ok = processEventsUntil([projector] { return !projector->isTsneRunning(); }, 600000) &&
                 projector->tsneIterations() > 0;
        } else if (item.startsWith(QLatin1String("search:"))) {
            view.projector()->setSearch(value);
        } else if (item.startsWith(QLatin1String("hparams:"))) {
            const QStringList pages{QStringLiteral("table"), QStringLiteral("parallel"), QStringLiteral("scatter")};
            ok = pages.contains(value);
            if (ok)
                view.hparams()->setPage(static_cast<dashboard::HParamsView::Page>(pages.indexOf(value)));
        } else if (item.startsWith(QLatin1String("colour:"))) {
            ok = view.hparams()->setColourColumn(value);
        } else if (item.startsWith(QLatin1String("hide:"))) {
            ok = view.hparams()->setColumnShown(value, false);
        } else if (item.startsWith(QLatin1String("log:"))) {
            ok = view.hparams()->setLogScale(value, true);
        } else if (item.startsWith(QLatin1String("session:"))) {
            // Another tab shown (the scalars, to see the session's runs stand out): read the hparams.
            dashboard::HParamsView* hparams = view.hparams();
            if (!hparams->plotState().matrix) {
                hparams->reload();
                processEventsUntil([hparams] { return !hparams->isBusy() && hparams->plotState().matrix; }, 120000);
            }
            const int session = value.toInt(&ok);
            ok = ok && session >= 0 && session < view.hparams()->sessionCount();
            if (ok)
                view.hparams()->selectSession(session);
        } else if (item.startsWith(QLatin1String("brush:"))) {
            // brush:TITLE:LOW:HIGH, positions along the axis in [0, 1]
            ok = applyHParamsBrush(*view.hparams(), item.mid(6));
        } else if (item.startsWith(QLatin1String("chart:"))) {
            // chart:CATEGORY:TITLE:REGEX, a multi-line chart added to the Custom Scalars tab as New Chart… adds it
            const QStringList parts = item.mid(6).split(QLatin1Char(':'));
            ok = parts.size() >= 3;
            if (ok) {
                events::CustomChart chart;
                chart.title = parts[1].toStdString();
                chart.tagPatterns.push_back(parts.mid(2).join(QLatin1Char(':')).toStdString());
                ok = view.customScalars()->addChart(parts[0], chart).isOk();
                view.customScalars()->refresh();
            }
        } else if (item.startsWith(QLatin1String("point:"))) {
            const qulonglong point = value.toULongLong(&ok);
            ok = ok && view.projector()->values() && point < view.projector()->values()->rows;
            if (ok)
                view.projector()->selectPoint(point);
        } else {
            ok = false;
        }
        if (!ok)
            return QStringLiteral("--dashboard-view: cannot apply '%1' (ema:WEIGHT, mean:N, envelope, pin:TAG, "
                                  "enlarge:TAG, link-images, perplexity:N, tsne, 3d, no-images, search:PATTERN, "
                                  "point:N, hparams:table|parallel|scatter, colour:COLUMN, hide:COLUMN, log:COLUMN, "
                                  "session:N, brush:COLUMN:LOW:HIGH or chart:CATEGORY:TITLE:REGEX; a pinned or enlarged tag must have data, a point, "
                                  "session or column must exist)")
                .arg(item);
    }
    return {};
}

/// --panel dashboard: the log directory read, the tab shown, the charts given the window's height.
/// An error, or empty.
QString prepareDashboard(MainWindow& window, const ScreenshotRequest& request)
{
    auto* view = qobject_cast<dashboard::DashboardView*>(window.documents()->currentWidget());
    if (!view)
        return QStringLiteral("panel 'dashboard' needs a log directory to show");
    if (!processEventsUntil([view] { return view->pollCount() > 0 && !view->isPolling(); }, 120000))
        return QStringLiteral("timed out reading the log directory");
    if (!view->lastError().isEmpty())
        return view->lastError();
    view->setFollowing(false);
    // The dashboard gets the window's height, as one looks at charts.
    for (const QString& name : window.panelNames())
        window.panel(name)->hide();
    if (!request.dashboardTab.isEmpty()) {
        view->showTab(request.dashboardTab);
        if (view->currentTab() != request.dashboardTab)
            return QStringLiteral("unknown --tab '%1'; expected scalars, images, graphs, distributions, "
                                  "histograms, text, audio, pr_curves, hparams, custom_scalars or projector")
                .arg(request.dashboardTab);
    }
    if (request.dashboardTab == QLatin1String("hparams")) {
        dashboard::HParamsView* hparams = view->hparams();
        if (!processEventsUntil([hparams] { return !hparams->isBusy() && hparams->plotState().matrix; }, 120000))
            return QStringLiteral("timed out reading the hyperparameters");
    }
    if (request.dashboardTab == QLatin1String("projector")) {
        dashboard::ProjectorView* projector = view->projector();
        if (!processEventsUntil([projector] { return !projector->isLoading(); }, 120000))
            return QStringLiteral("timed out reading the embedding");
    }
    return applyDashboardView(*view, request.dashboardView);
}

/// --panel session: the Session dock over the editor's graph (a new one when none is open), each
/// line of --find (lines separated by " ;; ") entered in turn. An error, or empty.
QString prepareSession(MainWindow& window, const ScreenshotRequest& request)
{
    auto* editor = qobject_cast<node_editor::NodeEditor*>(window.documents()->currentWidget());
    if (!editor) {
        window.newGraph();
        editor = qobject_cast<node_editor::NodeEditor*>(window.documents()->currentWidget());
    }
    if (!editor)
        return QStringLiteral("panel 'session' needs a graph in the node editor");
    window.showPanel(QStringLiteral("session"));
    node_editor::SessionConsole* console = window.sessionConsole();
    console->setEditor(editor);
    for (const QString& line : request.find.split(QStringLiteral(" ;; "), Qt::SkipEmptyParts))
        console->submit(line.trimmed());
    return {};
}

/// --panel training with --distributed-dialog or --train-steps: the dialog, the dashboard while it
/// trains (--capture-step) or the window once the run is over; the window as it is otherwise. The
/// run's log directory goes into `logs`.
int captureTraining(MainWindow& window, const ScreenshotRequest& request, const QTemporaryDir& logs)
{
    if (request.panel == QLatin1String("training") && request.distributedDialog) {
        training_panel::TrainingPanel* panel = window.trainingPanel();
        panel->logDirectoryEdit()->setText(logs.filePath(QStringLiteral("run")));
        if (request.trainSteps > 0)
            panel->stepsBox()->setValue(request.trainSteps);
        training_panel::DistributedDialog* dialog = nullptr;
        QObject::connect(panel, &training_panel::TrainingPanel::distributedDialogOpened, panel,
                         [&dialog](training_panel::DistributedDialog* opened) { dialog = opened; });
        panel->openDistributedDialog();
        if (!dialog)
            return fail(QStringLiteral("the Run on N processes dialog did not open: %1").arg(panel->statusText()));
        if (request.processes > 0)
            dialog->processesBox()->setValue(request.processes);
        settle(150);
        return save(dialog->grab(), request.outputFile);
    }
    if (request.panel == QLatin1String("training") && request.trainSteps > 0) {
        training_panel::TrainingPanel* panel = window.trainingPanel();
        panel->logDirectoryEdit()->setText(logs.filePath(QStringLiteral("run")));
        panel->stepsBox()->setValue(request.trainSteps);
        if (!request.dataDir.isEmpty())
            panel->dataFolderEdit()->setText(request.dataDir);
        if (request.processes > 0) {
            // The settings are a throw-away copy in screenshot mode.
            training_panel::DistributedChoices choices = training_panel::DistributedChoices::load(QSettings());
            choices.processes = request.processes;
            choices.useHostfile = false;
            choices.logdir = logs.filePath(QStringLiteral("run"));
            if (!panel->startDistributed(choices))
                return fail(QStringLiteral("training did not start: %1").arg(panel->statusText()));
        } else if (!panel->start()) {
            return fail(QStringLiteral("training did not start: %1").arg(panel->statusText()));
        }
        if (request.captureStep > 0) {
            // While it trains: the followed dashboard, on the tab asked for, once the run is past the step.
            if (!processEventsUntil([&] { return panel->lastProgress().step >= request.captureStep || !panel->isRunning(); }, 600000))
                return fail(QStringLiteral("timed out waiting for step %1").arg(request.captureStep));
            auto* dashboard = qobject_cast<dashboard::DashboardView*>(window.documents()->currentWidget());
            if (!dashboard)
                return fail(QStringLiteral("no dashboard follows the run"));
            if (!request.dashboardTab.isEmpty())
                dashboard->showTab(request.dashboardTab);
            dashboard->reloadNow();
            processEventsUntil([dashboard] { return !dashboard->isPolling(); }, 20000);
            settle(1500);
            const QImage shot = window.grab().toImage();
            panel->stop();
            processEventsUntil([panel] { return !panel->isRunning(); }, 120000);
            return save(QPixmap::fromImage(shot), request.outputFile);
        }
        if (!processEventsUntil([panel] { return !panel->isRunning(); }, 600000))
            return fail(QStringLiteral("timed out waiting for the training run"));
        // The dashboard that follows the run reads its last events and draws the loss.
        if (auto* dashboard = qobject_cast<dashboard::DashboardView*>(window.documents()->currentWidget())) {
            dashboard->reloadNow();
            processEventsUntil([dashboard] {
                const dashboard::ScalarChart* chart = dashboard->scalars()->chart(QStringLiteral("loss"));
                return chart && !chart->seriesRuns().isEmpty() && chart->rawPoints(chart->seriesRuns().front()).size() >= 2;
            }, 20000);
        }
    }
    settle(150);
    return save(window.grab(), request.outputFile);
}

/// --panel value: the value window of a stored tensor of the current graph document, as a user opens it:
/// --select names a node with a "value" attr (a Const's "Show values…") or a tensor of the document's
/// checkpoint (the Checkpoint tab's "Show values…"); --tab the inspector's view (table, histogram, heatmap,
/// images; default table), --find a NumPy slice ("[0, :, ::2]").
int captureValueDialog(MainWindow& window, const ScreenshotRequest& request)
{
    auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(window.documents()->currentWidget());
    if (!viewer)
        return fail(QStringLiteral("panel 'value' needs a graph, MetaGraph, SavedModel or checkpoint to show"));
    if (request.select.isEmpty())
        return fail(QStringLiteral("panel 'value' needs --select NODE_OR_CHECKPOINT_TENSOR"));
    const std::map<QString, debugger_ui::TensorInspector::View> views = inspectorViews();
    const QString viewName = request.dashboardTab.isEmpty() ? QStringLiteral("table") : request.dashboardTab;
    if (!views.count(viewName))
        return fail(QStringLiteral("unknown --tab '%1'; expected table, histogram, heatmap or images").arg(viewName));
    if (!processEventsUntil([viewer] { return !viewer->isLoading() && (!viewer->isReady() || viewer->factsReady()); },
                            120000))
        return fail(QStringLiteral("timed out waiting for the graph"));
    if (!viewer->isReady())
        return fail(viewer->errorText());
    graph_viewer::TensorValueDialog* dialog = nullptr;
    bool isNode = false;
    if (const tensorflow::GraphDef* graph = viewer->graph())
        for (const tensorflow::NodeDef& node : graph->node())
            if (QString::fromStdString(node.name()) == request.select && node.attr().count("value"))
                isNode = true;
    QString error;
    if (isNode) {
        viewer->selectNodeNamed(request.select);
        dialog = viewer->properties()->showValues();
        if (!dialog)
            error = QStringLiteral("--select: node '%1' holds no tensor value").arg(request.select);
    } else if (graph_viewer::CheckpointVariablesView* checkpoint = viewer->checkpointView()) {
        QObject::connect(checkpoint, &graph_viewer::CheckpointVariablesView::valuesShown, checkpoint,
                         [&dialog](graph_viewer::TensorValueDialog* shown) { dialog = shown; });
        QObject::connect(checkpoint, &graph_viewer::CheckpointVariablesView::valuesFailed, checkpoint,
                         [&error](const QString& message) { error = message; });
        processEventsUntil([checkpoint] { return !checkpoint->isBusy(); }, 120000);
        checkpoint->showValues(request.select);
        if (!processEventsUntil([&] { return dialog || !error.isEmpty(); }, 120000))
            error = QStringLiteral("timed out reading '%1' from the checkpoint").arg(request.select);
    } else {
        error = QStringLiteral("--select: no node '%1' with a value, and no checkpoint beside the graph")
                    .arg(request.select);
    }
    if (!dialog)
        return fail(error);
    if (!request.find.isEmpty() && !dialog->inspector()->setSlice(request.find)) {
        dialog->close();
        return fail(QStringLiteral("--find: %1").arg(dialog->inspector()->message()));
    }
    dialog->inspector()->setView(views.at(viewName));
    if (!dialog->inspector()->isViewEnabled(views.at(viewName))) {
        dialog->close();
        return fail(QStringLiteral("--tab %1: %2")
                        .arg(viewName, dialog->inspector()->viewDisabledReason(views.at(viewName))));
    }
    dialog->resize(request.size.boundedTo(QSize(1000, 720)));
    settle(250);
    return save(dialog->grab(), request.outputFile);
}

} // namespace

int takeScreenshot(MainWindow& window, const ScreenshotRequest& request)
{
    const QStringList valid = screenshotPanelNames(window);
    if (!request.panel.isEmpty() && !valid.contains(request.panel))
        return fail(QStringLiteral("unknown panel '%1'; expected one of: %2").arg(request.panel, valid.join(", ")));

    window.setPersistLayout(false);
    window.resize(request.size);
    window.show();
    if (request.panel == QLatin1String("editor"))
        return captureEditor(window, request);
    if (request.panel == QLatin1String("diff")) {
        // --panel diff A B: File > Compare of the two files, once compared.
        if (request.files.size() != 2)
            return fail(QStringLiteral("panel 'diff' needs two files to compare, got %1").arg(request.files.size()));
        diff_ui::ModelDiffView* view = window.compareFiles(QFileInfo(request.files[0]).absoluteFilePath(),
                                                           QFileInfo(request.files[1]).absoluteFilePath());
        processEventsUntil([view] { return !view->isBusy(); }, 120000);
        if (view->isBusy())
            return fail(QStringLiteral("timed out comparing the two files"));
        if (!view->errorText().isEmpty())
            return fail(view->errorText());
        settle(200);
        return save(window.grab(), request.outputFile);
    }
    if (request.openExample)
        window.openExample();
    QStringList files = request.files;
    if (request.panel == QLatin1String("training") && request.trainSteps > 0) {
        // A GraphDef to train is a document of the node editor (what the Training panel trains);
        // projects open there anyway.
        for (const QString& file : request.files)
            if (file.endsWith(QStringLiteral(".pbtxt")) || file.endsWith(QStringLiteral(".pb"))) {
                if (!window.openInEditor(file))
                    return fail(QStringLiteral("cannot open %1 in the node editor").arg(file));
                files.removeAll(file);
            }
    }
    window.openPaths(files);
    if (window.pendingOpens() > 0) {
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::allOpensFinished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
        if (window.pendingOpens() > 0)
            return fail(QStringLiteral("timed out waiting for files to open"));
    }

    if (const std::optional<int> dialog = captureDialog(window, request))
        return *dialog;
    if (files.isEmpty() && !request.openExample && request.trainSteps == 0)
        if (const std::optional<int> empty = captureEmptyPanel(window, request))
            return *empty;
    if (request.panel == QLatin1String("start") || request.panel == QLatin1String("welcome")) {
        // The welcome page as Help > Welcome shows it (over any files opened), laid out at this size.
        window.showWelcome();
        settle(200);
        return save(window.grab(), request.outputFile);
    }
    if (request.panel == QLatin1String("document") && window.documents()->count() == 0)
        return fail(QStringLiteral("panel 'document' needs a file to show"));
    if (request.panel == QLatin1String("value"))
        return captureValueDialog(window, request);
    if (request.panel == QLatin1String("graph")) {
        const QString error = prepareGraph(window, request);
        if (!error.isEmpty())
            return fail(error);
    } else if (request.panel == QLatin1String("dashboard")) {
        const QString error = prepareDashboard(window, request);
        if (!error.isEmpty())
            return fail(error);
        settle(400);
    } else if (request.panel == QLatin1String("debugger")) {
        QTemporaryDir logs; // the run stays paused in it until the window closes
        const QString error = prepareDebugger(window, request, logs);
        if (!error.isEmpty())
            return fail(error);
        settle(400);
        return save(window.grab(), request.outputFile);
    } else if (request.panel == QLatin1String("profiler")) {
        const QString error = prepareProfiler(window, request);
        if (!error.isEmpty())
            return fail(error);
        settle(300);
        return save(window.grab(), request.outputFile);
    } else if (request.panel == QLatin1String("records")) {
        const QString error = prepareRecords(window, request);
        if (!error.isEmpty())
            return fail(error);
        settle(300);
        return save(window.grab(), request.outputFile);
    } else if (request.panel == QLatin1String("session")) {
        const QString error = prepareSession(window, request);
        if (!error.isEmpty())
            return fail(error);
        settle(300);
        return save(window.grab(), request.outputFile);
    } else if (!request.panel.isEmpty()) {
        window.showPanel(request.panel);
    }
    QTemporaryDir logs; // outlives the capture; removed on exit
    return captureTraining(window, request, logs);
}

} // namespace tstudio
