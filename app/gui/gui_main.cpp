// tensorstudio: the desktop program's entry point (command line, settings, theme, language).
#include "app_settings.h"
#include "language_manager.h"
#include "dashboard_bench.h"
#include "hparams_bench.h"
#include "projector_bench.h"
#include "event_wait.h"
#include "train_bench.h"
#include "profiler_bench.h"
#include "editor_bench.h"
#include "gpu_status_text.h"
#include "guarded_application.h"
#include "layout_bench.h"
#include "main_window.h"
#include "man_page.h"
#include "single_instance.h"
#include "screenshot.h"
#include "theme.h"
#include "ui_map.h"

#include "core/build_info.h"
#include "core/log.h"
#include "devices/gpu_probe.h"
#include "graph_viewer/graph_viewer.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QSettings>
#include <QSaveFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string_view>
#include <memory>
#include <optional>

using namespace tstudio;

namespace {

/// In screenshot mode the user's settings are read but never written: they are copied into a
/// throw-away INI file first.
std::unique_ptr<QSettings> openSettings(bool readOnlyCopy, QTemporaryDir& scratch)
{
    auto user = std::make_unique<QSettings>();
    if (!readOnlyCopy)
        return user;
    auto copy = std::make_unique<QSettings>(scratch.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    for (const QString& key : user->allKeys())
        copy->setValue(key, user->value(key));
    return copy;
}

void logStartup()
{
    logInfo("app", "TensorStudio " + std::string(engineVersion()) + " with Qt " + qVersion());
    // A sentence a person understands first; the CUDA error or the devices as the details.
    const GpuProbeReport gpus = probeGpus();
    const std::string headline = gpuHeadline(gpus).toStdString();
    const std::string details = gpuDetails(gpus).toStdString();
    const std::string text =
        details.empty() ? headline
                        : QCoreApplication::translate("GpuStatus", "%1 (details: %2)")
                              .arg(QString::fromStdString(headline), QString::fromStdString(details))
                              .toStdString();
    if (gpuIsBroken(gpus))
        logWarning("gpu", text); // a failure, unlike having no GPU
    else
        logInfo("gpu", text);
}

/// --graph-image: the graph viewer's drawing of `graphFile` (its Export image: the whole graph, no
/// window around it) written to `output` (.png or .svg); the welcome page's pictures are made so.
int writeGraphImage(MainWindow& window, const QString& graphFile, const QString& output, bool leftToRight)
{
    window.setPersistLayout(false);
    window.setOpenErrorDialogs(false);
    window.show();
    QElapsedTimer timer;
    timer.start();
    auto waitFor = [&timer](const std::function<bool()>& done) {
        return processEventsUntil(done, static_cast<int>(std::max<qint64>(0, 120000 - timer.elapsed())));
    };
    window.openPath(graphFile);
    graph_viewer::GraphViewer* viewer = nullptr;
    waitFor([&] {
        viewer = qobject_cast<graph_viewer::GraphViewer*>(window.documents()->currentWidget());
        return window.pendingOpens() == 0 && (!viewer || !viewer->isLoading());
    });
    if (!viewer || !viewer->isReady()) {
        std::fprintf(stderr, "tensorstudio: --graph-image: %s does not open in the graph viewer%s%s\n", qPrintable(graphFile),
                     viewer ? ": " : "", viewer ? qPrintable(viewer->errorText()) : "");
        return 1;
    }
    if (leftToRight) {
        int layouts = 0;
        QObject::connect(viewer, &graph_viewer::GraphViewer::layoutFinished, viewer, [&layouts] { ++layouts; });
        viewer->setDirection(graph_viewer::LayoutDirection::kLeftToRight);
        if (!waitFor([&] { return layouts > 0 && !viewer->layoutPending(); })) {
            std::fprintf(stderr, "tensorstudio: --graph-image: timed out laying out %s\n", qPrintable(graphFile));
            return 1;
        }
    }
    QString error;
    if (!viewer->exportImage(output, &error)) {
        std::fprintf(stderr, "tensorstudio: --graph-image: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s\n", qPrintable(output));
    return 0;
}

/// tensorstudio's command-line options (their texts translated into the run's language).
struct GuiOptions {
    QCommandLineOption screenshotOption;
    QCommandLineOption panelOption;
    QCommandLineOption languageOption;
    QCommandLineOption themeOption;
    QCommandLineOption sizeOption;
    QCommandLineOption exampleOption;
    QCommandLineOption expandOption;
    QCommandLineOption colourOption;
    QCommandLineOption selectOption;
    QCommandLineOption findOption;
    QCommandLineOption leftToRightOption;
    QCommandLineOption evaluateOption;
    QCommandLineOption importGraphOption;
    QCommandLineOption trainStepsOption;
    QCommandLineOption captureStepOption;
    QCommandLineOption processesOption;
    QCommandLineOption distributedDialogOption;
    QCommandLineOption dataOption;
    QCommandLineOption tabOption;
    QCommandLineOption dashboardViewOption;
    QCommandLineOption graphImageOption;
    QCommandLineOption benchLayoutOption;
    QCommandLineOption benchEditorOption;
    QCommandLineOption benchChartOption;
    QCommandLineOption benchProjectorOption;
    QCommandLineOption benchHParamsOption;
    QCommandLineOption benchDashboardOption;
    QCommandLineOption benchLiveOption;
    QCommandLineOption benchTrainOption;
    QCommandLineOption benchStepsOption;
    QCommandLineOption benchDataOption;
    QCommandLineOption benchProfilerOption;
    QCommandLineOption manOption;
    QCommandLineOption newInstanceOption;
};

/// Adds tensorstudio's options, help, version and positional arguments to `parser`.
GuiOptions addGuiOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QCoreApplication::translate("CommandLine", "TensorStudio: an IDE for TensorFlow 1.x dataflow graphs."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("CommandLine", "Render the window to FILE.png offscreen and exit."),
                                        QStringLiteral("FILE.png"));
    QCommandLineOption panelOption(QStringLiteral("panel"),
                                   QCoreApplication::translate(
                                       "CommandLine",
                                       "Show panel NAME (console, training, start or welcome, document, graph, editor, "
                                       "dashboard, profiler, debugger, records, diff (File > Compare of the two files "
                                       "given), value (the values of --select NODE or checkpoint tensor of the file), settings, "
                                       "about, help (the guide: --select PAGE, --find TEXT), shortcuts (--find TEXT))."),
                                   QStringLiteral("NAME"));
    QCommandLineOption languageOption(QStringLiteral("language"),
                                      QCoreApplication::translate("CommandLine", "UI language for this run: en or zh_CN (not saved)."),
                                      QStringLiteral("CODE"));
    QCommandLineOption themeOption(QStringLiteral("theme"), QCoreApplication::translate("CommandLine", "Theme for this run: light or dark (not saved)."),
                                   QStringLiteral("THEME"));
    QCommandLineOption sizeOption(QStringLiteral("size"), QCoreApplication::translate("CommandLine", "Window size for --screenshot (default 1280x800)."),
                                  QStringLiteral("WxH"));
    QCommandLineOption exampleOption(QStringLiteral("example"), QCoreApplication::translate("CommandLine", "Open the spirals example project in the node editor (F5 trains it)."));
    QCommandLineOption expandOption(QStringLiteral("expand"),
                                    QCoreApplication::translate("CommandLine", "With --panel graph: expand these name scopes (comma-separated)."),
                                    QStringLiteral("SCOPES"));
    QCommandLineOption colourOption(QStringLiteral("colour-by"),
                                    QCoreApplication::translate("CommandLine", "With --panel graph: structure, device, placed, time, memory or runnable."),
                                    QStringLiteral("MODE"));
    QCommandLineOption selectOption(QStringLiteral("select"),
                                    QCoreApplication::translate("CommandLine", "With --panel graph, editor or profiler: select this node; with --panel debugger: the breakpoint to pause at (default op:MatMul); with --panel value: the Const node or checkpoint tensor to show."),
                                    QStringLiteral("NODE"));
    QCommandLineOption findOption(QStringLiteral("find"),
                                  QCoreApplication::translate("CommandLine", "With --panel graph: find nodes whose name contains TEXT; with --panel debugger: the tensor to inspect; with --panel value: a NumPy slice of it."),
                                  QStringLiteral("TEXT"));
    QCommandLineOption leftToRightOption(QStringLiteral("left-to-right"),
                                         QCoreApplication::translate("CommandLine", "With --panel graph: lay out from left to right."));
    QCommandLineOption evaluateOption(QStringLiteral("evaluate"),
                                      QCoreApplication::translate("CommandLine", "With --panel editor and --select: capture the Evaluate dialog of that node."));
    parser.addOption(evaluateOption);
    QCommandLineOption importGraphOption(
        QStringLiteral("import-graph"),
        QCoreApplication::translate("CommandLine", "With --panel editor: capture Edit ▸ Import Graph… for FILE over "
                                                   "the editor's graph (--find PLACEHOLDER=TENSOR wires one input)."),
        QStringLiteral("FILE"));
    parser.addOption(importGraphOption);
    QCommandLineOption trainStepsOption(QStringLiteral("train-steps"),
                                        QCoreApplication::translate("CommandLine", "With --panel training, profiler or debugger: train the open project to step N "
                                                                                   "(into a temporary log directory; profiler: step 3 is profiled) before capturing."),
                                        QStringLiteral("N"));
    parser.addOption(trainStepsOption);
    QCommandLineOption captureStepOption(QStringLiteral("capture-step"),
                                         QCoreApplication::translate("CommandLine", "With --panel training and --train-steps: capture while the run "
                                                                                    "trains, once it passes step N (the dashboard that follows it "
                                                                                    "on --tab), then stop it."),
                                         QStringLiteral("N"));
    parser.addOption(captureStepOption);
    QCommandLineOption processesOption(
        QStringLiteral("processes"),
        QCoreApplication::translate("CommandLine",
                                    "With --panel training and --train-steps: train on N processes "
                                    "under mpirun on this machine (Run on N processes) instead of in "
                                    "this process; with --distributed-dialog: the number the dialog shows."),
        QStringLiteral("N"));
    parser.addOption(processesOption);
    QCommandLineOption distributedDialogOption(
        QStringLiteral("distributed-dialog"),
        QCoreApplication::translate("CommandLine", "With --panel training: capture the Run on N processes dialog."));
    parser.addOption(distributedDialogOption);
    QCommandLineOption dataOption(QStringLiteral("data"),
                                  QCoreApplication::translate("CommandLine", "With --train-steps or --panel debugger: the MNIST folder of a project "
                                                                             "whose Dataset node reads one."),
                                  QStringLiteral("DIR"));
    parser.addOption(dataOption);
    QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QCoreApplication::translate("CommandLine",
                                    "With --panel dashboard: show this tab (scalars, images, graphs, distributions, "
                                    "histograms, text, audio, pr_curves, hparams, custom_scalars, projector); "
                                    "with --panel profiler: timeline, ops, scopes, nodes, "
                                    "advice or tfprof; with --panel debugger or value: the inspector's table, histogram, "
                                    "heatmap or images; with --panel graph: metagraph (the MetaGraph tab)."),
        QStringLiteral("TAB"));
    parser.addOption(tabOption);
    QCommandLineOption dashboardViewOption(
        QStringLiteral("dashboard-view"),
        QCoreApplication::translate("CommandLine",
                                    "With --panel dashboard: view settings, comma-separated: ema:WEIGHT or mean:N "
                                    "(smoothing), envelope, pin:TAG, enlarge:TAG, link-images; for the projector "
                                    "perplexity:N, tsne (run to its end), 3d (PCA), no-images, search:PATTERN, "
                                    "point:N; for the hparams hparams:table|parallel|scatter, colour:COLUMN, "
                                    "hide:COLUMN, log:COLUMN, session:N, brush:COLUMN:LOW:HIGH; for custom "
                                    "scalars chart:CATEGORY:TITLE:REGEX (a new chart)."),
        QStringLiteral("SPEC"));
    parser.addOption(dashboardViewOption);
    QCommandLineOption graphImageOption(QStringLiteral("graph-image"),
                                        QCoreApplication::translate("CommandLine", "Draw the graph file given (with --left-to-right: "
                                                                                   "laid out left to right) to FILE (.png or .svg) as the "
                                                                                   "graph viewer's Export image does, and exit."),
                                        QStringLiteral("FILE"));
    parser.addOption(graphImageOption);
    QCommandLineOption benchLayoutOption(QStringLiteral("bench-layout"),
                                         QCoreApplication::translate("CommandLine", "Load and lay out FILE without a window and print timings."),
                                         QStringLiteral("FILE"));
    QCommandLineOption benchEditorOption(QStringLiteral("bench-editor"),
                                         QCoreApplication::translate("CommandLine", "Edit an N-node graph in the node editor without a window and print timings."),
                                         QStringLiteral("N"));
    parser.addOption(benchEditorOption);
    QCommandLineOption benchChartOption(QStringLiteral("bench-chart"),
                                        QCoreApplication::translate("CommandLine", "Redraw an N-point scalar chart with smoothing and print timings."),
                                        QStringLiteral("N"));
    QCommandLineOption benchProjectorOption(
        QStringLiteral("bench-projector"),
        QCoreApplication::translate("CommandLine",
                                    "Open N points of 200 dimensions in the Projector tab and print the load and frame times."),
        QStringLiteral("N"));
    QCommandLineOption benchHParamsOption(
        QStringLiteral("bench-hparams"),
        QCoreApplication::translate("CommandLine",
                                    "Open N hyperparameter sessions in the HParams tab and print the load and frame times."),
        QStringLiteral("N"));
    QCommandLineOption benchDashboardOption(QStringLiteral("bench-dashboard"),
                                            QCoreApplication::translate("CommandLine", "Open LOGDIR in a dashboard and print the time to the first chart."),
                                            QStringLiteral("LOGDIR"));
    QCommandLineOption benchLiveOption(QStringLiteral("bench-live"),
                                       QCoreApplication::translate("CommandLine", "Train PROJECT from the Training panel with the dashboard following "
                                                                                  "and print the GUI thread's stalls."),
                                       QStringLiteral("PROJECT"));
    QCommandLineOption benchTrainOption(QStringLiteral("bench-train"),
                                        QCoreApplication::translate("CommandLine", "Train PROJECT with tstudio train and from the Training panel "
                                                                                   "with the dashboard following, and print both speeds."),
                                        QStringLiteral("PROJECT"));
    QCommandLineOption benchStepsOption(QStringLiteral("bench-steps"),
                                        QCoreApplication::translate("CommandLine", "With --bench-live or --bench-train: steps to train (default 2000)."),
                                        QStringLiteral("N"), QStringLiteral("2000"));
    QCommandLineOption benchDataOption(QStringLiteral("bench-data"),
                                       QCoreApplication::translate("CommandLine", "With --bench-live or --bench-train: the MNIST folder, when the project needs one."),
                                       QStringLiteral("DIR"));
    QCommandLineOption benchProfilerOption(QStringLiteral("bench-profiler"),
                                           QCoreApplication::translate("CommandLine", "Open TRACE in the profiler and print the time to the first "
                                                                                      "timeline and the frame times of pans and zooms."),
                                           QStringLiteral("TRACE"));
    parser.addOptions({benchChartOption, benchProjectorOption, benchHParamsOption,
                       benchDashboardOption, benchLiveOption, benchTrainOption, benchStepsOption,
                       benchDataOption, benchProfilerOption});
    parser.addOptions({screenshotOption, panelOption, languageOption, themeOption, sizeOption, exampleOption, expandOption,
                       colourOption, selectOption, findOption, leftToRightOption, benchLayoutOption});
    QCommandLineOption manOption(QStringLiteral("man"),
                                 QCoreApplication::translate("CommandLine", "Write tensorstudio's manual page (groff's man macros, made from these options) to FILE ('-': standard output) and exit."),
                                 QStringLiteral("FILE"));
    parser.addOption(manOption);
    QCommandLineOption newInstanceOption(QStringLiteral("new-instance"),
                                         QCoreApplication::translate("CommandLine", "Open a new window even when TensorStudio is already running (otherwise the files go to the running one)."));
    parser.addOption(newInstanceOption);
    parser.addPositionalArgument(QStringLiteral("files"), QCoreApplication::translate("CommandLine", "Files or folders to open."),
                                 QStringLiteral("[FILES...]"));
    return GuiOptions{screenshotOption, panelOption, languageOption, themeOption, sizeOption, exampleOption,
                      expandOption, colourOption, selectOption, findOption, leftToRightOption, evaluateOption,
                      importGraphOption,
                      trainStepsOption, captureStepOption, processesOption, distributedDialogOption, dataOption,
                      tabOption, dashboardViewOption, graphImageOption, benchLayoutOption, benchEditorOption,
                      benchChartOption, benchProjectorOption, benchHParamsOption,
                      benchDashboardOption, benchLiveOption, benchTrainOption, benchStepsOption, benchDataOption,
                      benchProfilerOption, manOption, newInstanceOption};
}

/// --man FILE: the manual page made from the options' help, to FILE or ('-') standard output.
int writeManPage(const QCommandLineParser& parser, const GuiOptions& o)
{
    const QByteArray page =
        manPageFromHelp(parser.helpText(), QStringLiteral("tensorstudio ") + QCoreApplication::applicationVersion()).toUtf8();
    const QString path = parser.value(o.manOption);
    if (path == QLatin1String("-")) {
        std::fwrite(page.constData(), 1, static_cast<std::size_t>(page.size()), stdout);
        return 0;
    }
    QSaveFile file(path); // a temporary file, renamed over FILE once complete
    if (!file.open(QIODevice::WriteOnly) || file.write(page) != page.size() || !file.commit()) {
        std::fprintf(stderr, "tensorstudio: --man: cannot write '%s': %s\n", qPrintable(path), qPrintable(file.errorString()));
        return 1;
    }
    return 0;
}

/// The --bench-* options: the benchmark's exit code, or nothing when none is given.
std::optional<int> runBenchmark(const QCommandLineParser& parser, const GuiOptions& o)
{
    if (parser.isSet(o.benchLayoutOption))
        return runLayoutBench(parser.value(o.benchLayoutOption));
    if (parser.isSet(o.benchChartOption)) {
        const int points = parser.value(o.benchChartOption).toInt();
        if (points < 2 || points > 100000000) {
            std::fprintf(stderr, "tensorstudio: --bench-chart needs N between 2 and 100000000\n");
            return 2;
        }
        return runChartBench(points);
    }
    if (parser.isSet(o.benchProjectorOption)) {
        const int points = parser.value(o.benchProjectorOption).toInt();
        if (points < 2 || points > 1000000) {
            std::fprintf(stderr, "tensorstudio: --bench-projector needs N between 2 and 1000000\n");
            return 2;
        }
        return runProjectorBench(points);
    }
    if (parser.isSet(o.benchHParamsOption)) {
        const int sessions = parser.value(o.benchHParamsOption).toInt();
        if (sessions < 1 || sessions > 100000) {
            std::fprintf(stderr, "tensorstudio: --bench-hparams needs N between 1 and 100000\n");
            return 2;
        }
        return runHParamsBench(sessions);
    }
    if (parser.isSet(o.benchDashboardOption))
        return runDashboardBench(parser.value(o.benchDashboardOption));
    if (parser.isSet(o.benchProfilerOption))
        return runProfilerBench(parser.value(o.benchProfilerOption));
    if (parser.isSet(o.benchLiveOption) || parser.isSet(o.benchTrainOption)) {
        const int steps = parser.value(o.benchStepsOption).toInt();
        if (steps < 1) {
            std::fprintf(stderr, "tensorstudio: --bench-steps needs a positive number\n");
            return 2;
        }
        if (parser.isSet(o.benchTrainOption))
            return runTrainBench(parser.value(o.benchTrainOption), steps, parser.value(o.benchDataOption));
        return runLiveBench(parser.value(o.benchLiveOption), steps, parser.value(o.benchDataOption));
    }
    if (parser.isSet(o.benchEditorOption)) {
        const int nodes = parser.value(o.benchEditorOption).toInt();
        if (nodes < 2 || nodes > 100000) {
            std::fprintf(stderr, "tensorstudio: --bench-editor needs N between 2 and 100000\n");
            return 2;
        }
        return runEditorBench(nodes);
    }
    return std::nullopt;
}

/// --screenshot: the request the options make (2 for a bad one), taken of `window`.
int screenshotFromOptions(MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o)
{
    ScreenshotRequest request;
    request.outputFile = parser.value(o.screenshotOption);
    request.panel = parser.value(o.panelOption);
    request.files = parser.positionalArguments();
    request.openExample = parser.isSet(o.exampleOption);
    if (parser.isSet(o.expandOption))
        request.expand = parser.value(o.expandOption).split(QLatin1Char(','), Qt::SkipEmptyParts);
    request.colourBy = parser.value(o.colourOption);
    request.select = parser.value(o.selectOption);
    request.find = parser.value(o.findOption);
    request.leftToRight = parser.isSet(o.leftToRightOption);
    request.evaluate = parser.isSet(o.evaluateOption);
    request.importGraph = parser.value(o.importGraphOption);
    request.dashboardTab = parser.value(o.tabOption);
    request.dashboardView = parser.value(o.dashboardViewOption);
    request.dataDir = parser.value(o.dataOption);
    if (parser.isSet(o.trainStepsOption)) {
        bool ok = false;
        request.trainSteps = parser.value(o.trainStepsOption).toInt(&ok);
        if (!ok || request.trainSteps < 1) {
            std::fprintf(stderr, "tensorstudio: --train-steps needs a positive number\n");
            return 2;
        }
    }
    if (parser.isSet(o.captureStepOption)) {
        bool ok = false;
        request.captureStep = parser.value(o.captureStepOption).toInt(&ok);
        if (!ok || request.captureStep < 1 || request.trainSteps < 1) {
            std::fprintf(stderr, "tensorstudio: --capture-step needs a positive number and --train-steps\n");
            return 2;
        }
    }
    request.distributedDialog = parser.isSet(o.distributedDialogOption);
    if (parser.isSet(o.processesOption)) {
        bool ok = false;
        request.processes = parser.value(o.processesOption).toInt(&ok);
        if (!ok || request.processes < 1 || (request.trainSteps < 1 && !request.distributedDialog)) {
            std::fprintf(
                stderr,
                "tensorstudio: --processes needs a positive number and --train-steps or --distributed-dialog\n");
            return 2;
        }
    }
    if (parser.isSet(o.sizeOption)) {
        const QStringList parts = parser.value(o.sizeOption).split(QLatin1Char('x'));
        const int w = parts.value(0).toInt(), h = parts.value(1).toInt();
        if (parts.size() != 2 || w < 200 || h < 150 || w > 8192 || h > 8192) {
            std::fprintf(stderr, "tensorstudio: --size must be WxH between 200x150 and 8192x8192\n");
            return 2;
        }
        request.size = QSize(w, h);
    }
    return takeScreenshot(window, request);
}

} // namespace

int main(int argc, char** argv)
{
    // The layout benchmark needs no display: render offscreen unless a platform was chosen.
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).starts_with("--bench-") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    GuardedApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TensorStudio"));
    QApplication::setApplicationName(QStringLiteral("TensorStudio"));
    QApplication::setApplicationVersion(QString::fromLatin1(engineVersion().data(), qsizetype(engineVersion().size())));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tensorstudio.svg")));
    // The desktop entry installed with the program (packaging/): window managers and Wayland
    // compositors match the running window to it, its name and icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.tensorstudio.TensorStudio"));

    // The language must be known before the command-line help is built, so that it is translated.
    const QStringList arguments = QApplication::arguments();
    const bool screenshotMode = arguments.contains(QStringLiteral("--screenshot")) ||
                                std::any_of(arguments.begin(), arguments.end(),
                                            [](const QString& a) { return a.startsWith(QStringLiteral("--screenshot=")); });
    QTemporaryDir scratch;
    // --graph-image opens a file too, which would otherwise be added to the recent files.
    const bool graphImageMode = std::any_of(arguments.begin(), arguments.end(),
                                            [](const QString& a) { return a.startsWith(QStringLiteral("--graph-image")); });
    // --man writes the manual page (at build time too): the user's settings are neither read nor touched.
    const bool manMode = std::any_of(arguments.begin(), arguments.end(),
                                     [](const QString& a) { return a == QLatin1String("--man") || a.startsWith(QStringLiteral("--man=")); });
    std::unique_ptr<QSettings> qsettings = openSettings(screenshotMode || graphImageMode || manMode, scratch);
    AppSettings settings(qsettings.get());
    QString language = settings.language();
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--language") && i + 1 < arguments.size())
            language = arguments[i + 1];
        else if (arguments[i].startsWith(QStringLiteral("--language=")))
            language = arguments[i].mid(11);
    }
    LanguageManager languages;
    if (!languages.setLanguage(language)) {
        std::fprintf(stderr, "tensorstudio: unknown or unavailable language '%s' (use en or zh_CN)\n",
                     qPrintable(language));
        return 2;
    }

    QCommandLineParser parser;
    const GuiOptions o = addGuiOptions(parser);
    parser.process(app);

    if (parser.isSet(o.manOption))
        return writeManPage(parser, o);

    if (const std::optional<int> bench = runBenchmark(parser, o))
        return *bench;

    const QString theme = parser.isSet(o.themeOption) ? parser.value(o.themeOption) : AppSettings::themeId(settings.theme());
    if (theme != QLatin1String("light") && theme != QLatin1String("dark")) {
        std::fprintf(stderr, "tensorstudio: --theme must be light or dark, not '%s'\n", qPrintable(theme));
        return 2;
    }
    applyTheme(AppSettings::themeFromId(theme));

    // One TensorStudio per user and display: a second launch hands its files to the running window
    // and exits (single_instance.h); --new-instance opts out.
    std::unique_ptr<SingleInstance> instance;
    if (!screenshotMode && !graphImageMode && !parser.isSet(o.newInstanceOption) &&
        SingleInstance::enabledFor(QGuiApplication::platformName())) {
        switch (SingleInstance::forward(parser.positionalArguments())) {
        case SingleInstance::Forwarded::kYes:
            std::fprintf(stderr, "tensorstudio: handed %lld file(s) to the running TensorStudio\n",
                         static_cast<long long>(parser.positionalArguments().size()));
            return 0;
        case SingleInstance::Forwarded::kNoAnswer:
            std::fprintf(stderr, "tensorstudio: the running TensorStudio did not answer; opening another window\n");
            break;
        case SingleInstance::Forwarded::kNoInstance: {
            instance = std::make_unique<SingleInstance>();
            QString error;
            if (!instance->listen(&error)) {
                std::fprintf(stderr, "tensorstudio: later launches will open their own windows: %s\n", qPrintable(error));
                instance.reset();
            }
            break;
        }
        }
    }

    MainWindow window(&settings, &languages);
    logStartup();
    if (instance) {
        QObject::connect(instance.get(), &SingleInstance::filesReceived, &window, [&window](const QStringList& paths) {
            std::fprintf(stderr, "tensorstudio: opening %lld file(s) from another launch:%s\n",
                         static_cast<long long>(paths.size()), qPrintable(QLatin1Char(' ') + paths.join(QLatin1Char(' '))));
            window.openPaths(paths);
            if (window.isMinimized())
                window.showNormal();
            window.raise();
            window.activateWindow();
        });
    }
    if (parser.isSet(o.graphImageOption)) {
        if (parser.positionalArguments().size() != 1) {
            std::fprintf(stderr, "tensorstudio: --graph-image needs exactly one graph file\n");
            return 2;
        }
        return writeGraphImage(window, parser.positionalArguments().front(), parser.value(o.graphImageOption),
                               parser.isSet(o.leftToRightOption));
    }

    if (screenshotMode)
        return screenshotFromOptions(window, parser, o);

    window.restoreLayout();
    // Opened and saved files join the desktop's recent list, except for offscreen runs (tests).
    window.setDesktopRecentFiles(QGuiApplication::platformName() != QLatin1String("offscreen") &&
                                 qgetenv("TSTUDIO_DESKTOP_RECENT") != "0");
    window.show();
    // A test driving this window from outside (tests/app/gui/window_walkthrough.sh) reads where
    // the widgets are from this file.
    std::unique_ptr<UiMap> uiMap;
    if (const QString mapPath = qEnvironmentVariable("TSTUDIO_UI_MAP"); !mapPath.isEmpty())
        uiMap = std::make_unique<UiMap>(&window, mapPath);
    const QString panel = parser.value(o.panelOption);
    const bool welcome = panel == QLatin1String("start") || panel == QLatin1String("welcome");
    if (parser.isSet(o.panelOption) && !welcome && !window.showPanel(panel))
        std::fprintf(stderr, "tensorstudio: unknown panel '%s'\n", qPrintable(panel));
    if (parser.isSet(o.exampleOption))
        window.openExample();
    window.openPaths(parser.positionalArguments());
    if (welcome)
        window.showWelcome();
    return QApplication::exec();
}
