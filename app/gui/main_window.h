// MainWindow: the application shell: document tabs, dockable panels, menus, file opening.
#pragma once

#include "app_settings.h"

#include "io/file_kind.h"

#include <QMainWindow>
#include <QHash>
#include <QMap>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace tensorflow {
class GraphDef;
}

namespace tstudio::diff_ui {
class ModelDiffView;
}

namespace tstudio {

struct ExampleLaunch;
struct Registries;
class EngineLogBridge;
class LanguageManager;
class LogModel;
class LogPanel;
class StartPage;
class HelpBrowser;
namespace profiler {
struct ProfileTrace;
class ProfilerView;
} // namespace profiler
namespace debugger_ui {
class DebuggingTab;
}
class DebugController;
namespace training_panel {
class TrainingPanel;
}
namespace node_editor {
class NodeEditor;
class SessionConsole;
}

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(AppSettings* settings, LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Detects the kind of `path` on a worker thread, then opens a document tab for it (or
    /// switches to the tab already showing it). Errors go to the console and the status bar.
    void openPath(const QString& path);
    /// Opens each path; see openPath.
    void openPaths(const QStringList& paths);
    /// Opens files still being detected.
    int pendingOpens() const { return m_pendingOpens; }
    /// File > Compare…: a tab comparing two graphs or two checkpoints (the comparison runs on a
    /// worker thread; the tab's ModelDiffView says when it is ready).
    diff_ui::ModelDiffView* compareFiles(const QString& first, const QString& second);

    /// Dock panels by stable name ("console"); a feature not built yet has no panel at all.
    QStringList panelNames() const { return m_panels.keys(); }
    QDockWidget* panel(const QString& name) const { return m_panels.value(name); }
    /// Shows and raises a panel. False for an unknown name.
    bool showPanel(const QString& name);

    AppSettings* settings() const { return m_settings; }
    LanguageManager* languages() const { return m_languages; }
    QTabWidget* documents() const { return m_documents; }
    LogModel* logModel() const { return m_logModel; }
    LogPanel* logPanel() const { return m_logPanel; }
    training_panel::TrainingPanel* trainingPanel() const { return m_trainingPanel; }
    /// The Session dock: an interactive session over the current editor's document.
    node_editor::SessionConsole* sessionConsole() const { return m_sessionConsole; }
    QMenu* fileMenu() const { return m_fileMenu; }
    /// The op and kernel registries the panels share; null when they could not be built (logged).
    const Registries* registries() const { return m_registries.get(); }
    QMenu* recentMenu() const { return m_recentMenu; }

    /// When false (screenshots, tests) the layout is not written back on close.
    void setPersistLayout(bool persist) { m_persistLayout = persist; }
    /// Files opened and saved also go to the desktop's recently used files (desktop_recent_files.h):
    /// on in an interactive launch (gui_main), off by default (tests, screenshots).
    void setDesktopRecentFiles(bool on) { m_desktopRecentFiles = on; }
    /// When false (screenshots) a failed open is only logged, with no dialog.
    void setOpenErrorDialogs(bool show) { m_openErrorDialogs = show; }
    /// Restores the panel layout saved by the last run, if any.
    void restoreLayout();
    /// Writes geometry and dock layout to the settings now.
    void saveLayout();
    /// Puts every panel back where it starts on a first run.
    void resetLayout();

    /// Opens an empty node editor tab.
    void newGraph();
    /// Opens `path` (a GraphDef or MetaGraphDef) in a node editor tab; false with the error logged.
    bool openInEditor(const QString& path);
    /// Opens a graph in memory in a node editor tab (the graph viewer's "Edit" action).
    void openGraphInEditor(const tensorflow::GraphDef& graph, const QString& title);
    /// Shows a graph in memory in a graph viewer tab (the node editor's "View in graph viewer").
    void viewGraph(const tensorflow::GraphDef& graph, const QString& title);
    /// Save (Ctrl+S): the current node editor tab to its own file, in that file's kind (a project
    /// stays a .tsproj, a .pb a binary GraphDef); a document without a file asks for one (Save As).
    /// False when nothing was saved (cancelled, or the error logged).
    bool saveCurrent();
    /// Save As (Ctrl+Shift+S): under a name chosen in a dialog whose type starts as the document's
    /// own kind (a project, or a graph opened from a .pb, stays that kind); a name typed without
    /// an extension gets the chosen type's. False when nothing was saved.
    bool saveCurrentAs();
    /// Replaces the file dialog of Save As (tests): gets the suggested path and the type filter
    /// chosen first, returns the path to save to ("" cancels).
    void setSaveFileChooser(std::function<QString(const QString& suggested, const QString& filter)> chooser)
    {
        m_saveFileChooser = std::move(chooser);
    }

    void showSettingsDialog();
    void showAboutDialog();
    /// Help ▸ Guide (F1): the guide window at `page` (a docs/guide id); empty: the page of the panel that
    /// has focus, else the walkthrough. The same window answers "help:<page>" URLs (QDesktopServices).
    void showGuide(const QString& page = QString());
    /// The guide window, made (and its pages read) on first use, not at startup.
    HelpBrowser* helpBrowser();
    /// A "help:<page>" URL (QDesktopServices' handler for "help"): the guide window at that page.
    Q_INVOKABLE void openHelpUrl(const QUrl& url);
    /// Help ▸ Keyboard Shortcuts: the list of the live actions' shortcuts and the canvases' gestures.
    void showShortcuts();
    /// Opens the spirals example project in a node editor tab (--example, scripts/run.sh): F5 then
    /// shows the Training panel with Start. False, logged, when the examples are not found; else the
    /// project is read on a worker as openExampleProject's is.
    bool openExample();
    /// Opens example `id` (example_gallery.h) in a node editor tab (File ▸ Open Example, a card's
    /// Open); false, logged, when its project is not there. The tab shows at once; the project is read
    /// on a worker and the open finishes with pathOpened (a failure is reported as any open's is).
    bool openExampleProject(const QString& id);
    /// A gallery card's Train: opens example `id` (with `dataFolder`, when it needs data) and starts
    /// its training in the Training panel, into a log directory without checkpoints; the dashboard
    /// follows the run. The data folder's check, the project's copy and its reading run on workers:
    /// returns "" when that has begun (exampleTrainingSettled then says how it ended), else why it
    /// cannot (the card shows both).
    QString trainExample(const QString& id, const QString& dataFolder = QString());
    /// Help ▸ Welcome: the welcome page in place of the documents (they stay open behind it).
    void showWelcome();
    StartPage* startPage() const { return m_startPage; }
    QMenu* examplesMenu() const { return m_examplesMenu; }

signals:
    void pathOpened(const QString& path, bool ok);
    /// The end of trainExample's launch of example `id`: `problem` is "" when its run started, else why
    /// it did not.
    void exampleTrainingSettled(const QString& id, const QString& problem);
    void allOpensFinished();

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// File > Open Recent and, when on, the desktop's list.
    void rememberRecentFile(const QString& path);
    void createActions();
    void createMenus();
    void createPanels();
    QDockWidget* addPanel(const QString& name, QWidget* content, Qt::DockWidgetArea area);
    void retranslateUi();
    void updateRecentMenu();
    /// File ▸ Open Example lists the example projects found (example_gallery.h), translated.
    void updateExamplesMenu();
    void updateCentralPage();
    /// The Edit menu lists the current tab's editing actions (with their shortcuts).
    void updateEditMenu();
    /// A dashboard tab following `roots` (log directories); an open one that follows a root which is
    /// `roots`' or its parent is reused and re-read.
    /// Follows `roots` in a dashboard tab (an existing one that follows them, else a new one), made
    /// the current tab unless `inFront` is false (a debugged run keeps the Debugger in front).
    void openDashboard(const QStringList& roots, bool inFront = true);
    /// Points the Training panel at the editor's document (the current tab when it is an editor).
    void bindTrainingPanel(node_editor::NodeEditor* editor);
    /// An editor's Embedding variable in the Projector tab of a dashboard on the project's log directory
    /// (the Training panel's); a status line when it has no checkpoint yet or none holds the variable.
    void openEmbeddingInProjector(node_editor::NodeEditor* editor, const QString& variable);
    void openFileDialog();
    void openFolderDialog();
    /// Closes a tab, asking about unsaved changes of a node editor; false when the user cancels.
    bool closeDocument(int index);
    /// The end of an editor open, read here or on a worker: on failure the tab closes and the
    /// failure is reported for `absolute`; else the tab is named and remembers its path. Whether it opened.
    bool settleEditorOpen(node_editor::NodeEditor* editor, const Status& opened, const QString& absolute);
    /// Opens `absolute` (a graph file or a project, detected as `kindName`) in a new editor tab,
    /// reading it on a worker thread; finishes the open (finishOpen) when it is shown or has failed,
    /// after calling `whenSettled` (when given) with the editor, or nullptr when the open failed.
    void openInEditorInBackground(const QString& absolute, const QString& kindName,
                                  std::function<void(node_editor::NodeEditor*)> whenSettled = {});
    /// trainExample's last steps in `editor`: the Training panel bound to it, set for `launch` and
    /// started; settles the launch.
    void startExampleTraining(node_editor::NodeEditor* editor, const QString& id, const ExampleLaunch& launch);
    void settleExampleTraining(const QString& id, const QString& problem);
    void finishOpen(const QString& path, bool ok);
    /// A file could not be opened: the console and the status bar say so, and (unless turned off
    /// by setOpenErrorDialogs) a non-blocking dialog names the file, the reason and what to do.
    void reportOpenFailure(const QString& absolute, const QString& reason);
    /// A tab whose title is made with tr(): `title` makes it again when the language changes (an
    /// empty result leaves the tab's text as it is, e.g. once an editor has a file name).
    void setTabTitle(QWidget* page, std::function<QString()> title);
    void retranslateTabTitles();
    void addDocument(QWidget* view, const QString& absolute);
    /// `report`: what openPath detected, handed on so the viewer does not sniff the file again.
    void openGraphViewer(const QString& absolute, const QString& kindName,
                         std::optional<FileKindReport> report = std::nullopt);
    /// A profiler tab reading a trace file (Chrome trace, RunMetadata .pb, event file).
    void openProfiler(const QString& absolute);
    /// A record viewer tab for a TFRecord file (records, features, images, statistics).
    void openRecordViewer(const QString& absolute, const QString& kindName);
    /// A profiler tab over a trace traced in the IDE.
    void showProfile(std::shared_ptr<const profiler::ProfileTrace> trace,
                     std::shared_ptr<const tensorflow::GraphDef> graph, const QString& title);
    profiler::ProfilerView* addProfilerTab(const QString& title);
    /// A profiler's op or row was activated: select the node in a graph viewer that has it (opening one
    /// on the profiler's graph, coloured by the trace's compute time, when none does).
    void showNodeInGraph(profiler::ProfilerView* profiler, const QString& nodeName);
    /// A graph viewer's "Show in Timeline": the first profiler tab whose trace has the node.
    void showNodeInProfiler(const QString& nodeName);
    /// Graph viewers offer "Show in Timeline" while a profiler tab exists.
    void updateTimelineLinks();
    /// The Debugger tab (the training graph beside the debugger panel) attached to a training run
    /// started with the Training panel's Debug on.
    void showDebugging(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                       const QString& title);
    /// A run of `document`'s interactive session under the debugger (the Session console's debug LINE).
    void showSessionDebugging(std::shared_ptr<DebugController> controller,
                              std::shared_ptr<const tensorflow::GraphDef> graph, node_editor::NodeEditor* document,
                              const QString& title);
    /// The Debugger tab (made on first use) for `document`, attached to `controller`.
    void attachDebugger(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                        node_editor::NodeEditor* document, const QString& title, const QString& graphTitle,
                        bool sessionRun);

    std::unique_ptr<Registries> m_registries;
    AppSettings* m_settings;
    LanguageManager* m_languages;
    LogModel* m_logModel;
    LogPanel* m_logPanel = nullptr;
    training_panel::TrainingPanel* m_trainingPanel = nullptr;
    node_editor::SessionConsole* m_sessionConsole = nullptr;
    QPointer<debugger_ui::DebuggingTab> m_debugging;
    bool m_debuggingSessionRun = false; ///< the Debugger tab's last run is one of the Session console's
    /// The editor whose document the Training panel trains (its project keeps the breakpoints).
    QPointer<node_editor::NodeEditor> m_trainingEditor;
    EngineLogBridge* m_logBridge = nullptr;
    QStackedWidget* m_central;
    StartPage* m_startPage;
    QTabWidget* m_documents;
    QMap<QString, QDockWidget*> m_panels;
    QHash<QWidget*, std::function<QString()>> m_tabTitles; ///< see setTabTitle
    QByteArray m_defaultState;
    bool m_persistLayout = true;
    bool m_desktopRecentFiles = false;
    bool m_openErrorDialogs = true;
    int m_pendingOpens = 0;
    bool m_exampleLaunching = false; ///< a trainExample launch has not settled yet

    QMenu* m_fileMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_panelsMenu = nullptr;
    QMenu* m_toolsMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_openTraceAction = nullptr;
    QAction* m_compareAction = nullptr;
    QMenu* m_examplesMenu = nullptr; ///< File ▸ Open Example: one entry per example project found
    QAction* m_welcomeAction = nullptr; ///< Help ▸ Welcome
    QAction* m_closeTabAction = nullptr;
    QAction* m_newGraphAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_exportAction = nullptr; ///< File ▸ Export…: the current editor's project (export_dialog.h)
    QAction* m_saveAction = nullptr;
    std::function<QString(const QString&, const QString&)> m_saveFileChooser;
    QAction* m_clearRecentAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_resetLayoutAction = nullptr;
    QAction* m_settingsAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_aboutQtAction = nullptr;
    QAction* m_guideAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    HelpBrowser* m_helpBrowser = nullptr; ///< the guide window, a child window; null until helpBrowser()
    QLabel* m_deviceLabel = nullptr;
};

} // namespace tstudio
