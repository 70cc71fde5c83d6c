// TrainingPanel: trains the open project (the node editor's document or a .tsproj) with the built-in
// project runner: Start, Pause/Resume, Stop, Save checkpoint now, device, steps, log directory and data
// folder, a progress bar with step, steps/s, ETA and the current loss; "Run on N processes…" trains the
// same project under mpirun (`tstudio train --distributed`) and follows rank 0 the same way.
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "proto/graph.pb.h"
#include "training/distributed_dialog.h" // DistributedChoices, and a signal's pointer type (moc needs it whole)
#include "training/training_run.h"       // the metatypes of the signals

#include <QFuture>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
template <typename T> class QFutureWatcher;
class QWidget;

namespace tstudio {
class EmptyState;
struct Registries;
}

namespace tstudio::training_panel {

class DataFoldersSection;
class DistributedRun;
class EvaluationSection;

/// What the panel keeps for one document (a node editor tab): its form, the session toggles
/// (Debug, Continue; not saved in the project) and its last run's progress and status. The panel
/// shows the state of the document in front only; another document's run updates its own state.
struct DocumentTrainingState {
    bool formFilled = false; ///< the form was filled from the document's project once
    QString untitled;        ///< "untitled-N": the run folder of a document without a project file
    // The form.
    int steps = 1000;
    QString device = QStringLiteral("cpu");
    QString logdir;
    bool logdirChosen = false; ///< typed or browsed by the user (else it follows the project)
    QString dataDir;
    bool resume = false;
    bool debug = false;
    QString warmFrom;
    QString warmVars;
    bool profileAt = false;
    int profileStep = 10;
    // The last run.
    QString runLogdir;
    project::TrainProgress last;
    bool hasProgress = false;
    QString progressFormat; ///< the bar's text when it is not "Step N of M" (Preparing…, Not started)
    QString evalFigures;
    QString status;
    bool statusIsError = false;
    bool statusHtml = false;
    QString errorNode;             ///< the node the status's error names ("Show node")
    bool statusFromSource = false; ///< the status is the project's error (cleared once it builds)
};

/// The panel trains what its project source gives at the moment Start is pressed, so edits made
/// since the last save are trained too. Only one run at a time.
class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPanel(const Registries* registries, QWidget* parent = nullptr);
    ~TrainingPanel() override;
    /// What the settings, buttons and status need without scrolling (only the settings scroll: the run
    /// controls, progress and status below them stay in view at any height).
    QSize sizeHint() const override;

    /// Applies an edit to the document's project (marking the document modified), so that what
    /// the form trains is what saving the document writes.
    using ProjectEdit = std::function<void(const std::function<void(project::Project&)>& edit)>;

    /// What Start trains: `source` gives the project (errors are shown, in the engine's words);
    /// `title` names it in the panel ("mnist.tsproj"). Each `owner` (the document) has its own
    /// DocumentTrainingState: the form is filled from its project the first time, then shows what
    /// the user set for that document (its log directory following the project, e.g. after Save
    /// As, until the user chooses one); a null owner is a new document on every call. The user's
    /// edits of steps, device, log directory and data folder go to `edit` (none: kept in the form
    /// only). When the owner is destroyed its state goes; if it was in front the panel shows its
    /// empty state, and its run, if one is going, is stopped (a final checkpoint is saved). An
    /// empty source: nothing to train.
    void setProjectSource(std::function<Expected<project::Project>()> source, const QString& title,
                          const QObject* owner = nullptr, ProjectEdit edit = {});

    /// Start with the panel's settings; false (with the reason shown) when it cannot. With Continue
    /// ticked the latest checkpoint is first compared with the graph off the GUI thread (the status
    /// says "Checking the checkpoint…"): true is then returned at once, and a checkpoint of another
    /// graph is refused before anything runs (the status and runFinished(false) say why).
    bool start();
    /// Intra-op threads of the runs start() begins (0, the default: one per core or one fewer,
    /// whichever the run measures faster, TrainRunOptions::adaptThreads); `tensorstudio
    /// --bench-train` compares the choices.
    void setIntraOpThreads(int threads) { m_intraOpThreads = threads < 0 ? 0 : threads; }
    int intraOpThreads() const { return m_intraOpThreads; }
    void pause();
    void resume();
    void stop();
    void saveCheckpointNow();
    /// Traces the next `steps` steps of the running training; profiled delivers them. With no run
    /// going, trains two more steps from the last run's latest checkpoint and traces the second, the
    /// first being a warm-up (false, with the reason shown, when there is no such checkpoint).
    bool profileNextStep(int steps = 1);
    /// "Profile step N", armed before Start: the run traces the step at global step N once (the
    /// first step when it starts past N). 0 disarms.
    void setProfileAtStep(std::int64_t step);
    /// The debugger paused the run at `node` (empty: it runs again): the status line says so.
    void showDebuggerPause(const QString& node);
    /// Brings the panel's Start button forward with the settings to check (Train in the editor).
    void prepareToStart();
    /// Runs started from now on attach the debugger (the Debug button): debugging() hands it out.
    void setDebugging(bool on);
    bool isDebugging() const;

    /// "Run on N processes…": the dialog (choices remembered in the settings; the log directory is
    /// the form's), then startDistributed with what it gives. Does not block (the dialog is modal).
    void openDistributedDialog();
    /// Trains what Start would train, as `tstudio train --distributed` under mpirun with `choices`:
    /// off the GUI thread first, what the ranks would fail on at their start is checked
    /// (project::checkTrainingStarts, settings problems with the panel's remedies), with Continue the
    /// checkpoint against the graph, and a hostfile's hosts; then the project (the form applied) is
    /// written to <logdir>/distributed_project.tsproj and mpirun runs as a child process whose output
    /// (every rank's, tagged; a settings problem's command-line remedy replaced by the panel's) goes
    /// to processOutput. The panel follows rank 0's progress line and log
    /// directory as it does an in-process run. False (with the reason shown) when it cannot start.
    bool startDistributed(const DistributedChoices& choices);
    /// The command line startDistributed(choices) would run, or the problem that keeps it from
    /// running (mpirun or tstudio missing, no hostfile, no log directory).
    DistributedPreview distributedPreview(const DistributedChoices& choices) const;
    /// The tstudio that the ranks run; empty (the default): the one next to the running program.
    void setTstudioExecutable(const QString& path) { m_tstudioOverride = path; }
    /// The processes of the distributed run going now (0: none, or an in-process run).
    int distributedProcesses() const;
    /// How long Stop waits after SIGTERM before it kills mpirun (default 5000 ms).
    void setStopGraceMs(int milliseconds) { m_stopGraceMs = milliseconds; }

    /// A run (of any document) is going.
    bool isRunning() const;
    /// The document whose run is going (null: none, or its document was closed).
    const QObject* runningDocument() const { return isRunning() && !m_runOwnerClosed ? m_runOwner : nullptr; }
    /// The log directory of the shown document's current or last run (empty before the first).
    QString logDirectory() const { return shown().runLogdir; }
    /// The text of the status line (what tests read).
    QString statusText() const;
    /// The latest progress (step, loss, ...) of the shown document's run.
    const project::TrainProgress& lastProgress() const { return shown().last; }
    /// The shown document's state (form as last stored, status, progress); tests read it.
    const DocumentTrainingState& shownState() const { return shown(); }

    // For tests and the command line: the fields of the form.
    QLineEdit* logDirectoryEdit() const { return m_logdir; }
    QLineEdit* dataFolderEdit() const { return m_dataDir; }
    QSpinBox* stepsBox() const { return m_steps; }
    QCheckBox* resumeBox() const { return m_resume; }
    QPushButton* debugButton() const { return m_debug; }
    QComboBox* deviceBox() const { return m_device; }
    /// The sources' own folders (Browse…) and the evaluation section (data_folders_section.h,
    /// evaluation_section.h): applied to what Start trains and, through the edit route, to the project.
    DataFoldersSection* sourceFoldersSection() const { return m_folders; }
    EvaluationSection* evaluationSection() const { return m_evaluation; }
    QCheckBox* profileAtStepBox() const { return m_profileAt; }
    QSpinBox* profileStepBox() const { return m_profileStep; }
    QLineEdit* warmStartEdit() const { return m_warmFrom; }
    QLineEdit* warmStartVarsEdit() const { return m_warmVars; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* distributedButton() const { return m_distributed; }
    /// The project Start trains: the form applied (device, steps, data folder, warm start), or the
    /// reason it cannot run; `logdir` gets the log directory.
    Expected<project::Project> preparedProject(QString* logdir) const;
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* profileButton() const { return m_profile; }

signals:
    /// A run's session exists: its log directory holds the graph and the first checkpoint (the
    /// dashboard follows it from here).
    void runStarted(const QString& logdir);
    void progressed(const tstudio::project::TrainProgress& progress);
    /// An evaluation of the running project's eval section finished.
    void evaluated(const tstudio::project::EvalResult& result);
    /// ok false: `message` says why (the engine's words).
    void runFinished(bool ok, const QString& message);
    /// "Show node" on an error that names a node of the graph.
    void showNodeRequested(const QString& nodeName);
    /// The steps asked for by profileNextStep, traced; `graph` is the project's (for parameter
    /// counts and node attributes; null when it could not be read).
    void profiled(std::shared_ptr<const tstudio::profiler::ProfileTrace> trace,
                  std::shared_ptr<const tensorflow::GraphDef> graph, const QString& title);
    /// A run with the debugger attached has its session: `controller` drives its steps (the
    /// project's saved breakpoints and watches already set), `graph` is what the session runs.
    void debugging(std::shared_ptr<tstudio::DebugController> controller,
                   std::shared_ptr<const tensorflow::GraphDef> graph, const QString& title);
    /// A line for the log panel (information; a failed run is runFinished with ok false).
    void message(const QString& text);
    /// A line of a distributed run's output: `source` says whose ("rank 1", "mpirun"); `error`:
    /// it came from a stderr.
    void processOutput(const QString& source, const QString& text, bool error);
    /// The "Run on N processes…" dialog is open (screenshots and tests reach it here).
    void distributedDialogOpened(tstudio::training_panel::DistributedDialog* dialog);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* m_content = nullptr; ///< the scrolled settings, buttons and status
    void buildUi();
    /// The run buttons, the browse buttons and the form's edits (into the document's project).
    void connectControls();
    void retranslateUi();
    void updateButtons();
    void refreshForm();
    /// The state of the document in front / of the run going or last run (map entries; the run's
    /// is a separate record once its document was closed).
    DocumentTrainingState& shown();
    const DocumentTrainingState& shown() const;
    DocumentTrainingState& runState();
    bool runShown() const { return !m_runOwnerClosed && m_runOwner == m_owner; }
    /// The form's widgets into the shown state, and back (with its progress and status).
    void storeForm();
    void showState();
    /// The run's status and progress: stored in its document's state, shown when it is in front.
    void showRunStatus(const QString& text, bool error, bool html = false);
    void setRunProgressFormat(const QString& format);
    /// The document `owner` is gone (its tab closed).
    void forgetDocument(const QObject* owner);
    /// A user edit of the form into the document's project (through m_edit).
    void editProject(const std::function<void(project::Project&)>& edit);
    /// Why a run of `p` that continues from the latest checkpoint in `dir` must not start: that
    /// checkpoint is not of `p`'s graph (project::matchLatestCheckpoint, which builds the training
    /// graph), naming the variables; empty when it is, when there is none, or when the comparison
    /// failed (the run reports that). Translated; any thread.
    static QString foreignCheckpointRefusal(const project::Project& p, const Registries* registries, const QString& dir);
    /// Runs `check` on a worker thread while the run's status says `checking` (the panel counts as
    /// running: Start is disabled), then on the GUI thread `then` when it answered an empty text;
    /// else its answer is the run's status (an error) and runFinished(false) says it, nothing runs.
    /// The run's document (m_runOwner) is set by the caller; when it is closed meanwhile, nothing runs.
    void checkThen(const QString& checking, std::function<QString()> check, std::function<void()> then);
    /// Shows the data folder field when a source of `p` needs one, saying what it must hold.
    void refreshDataField(const project::Project& p);
    /// Starts a TrainingRun of `p` into `dir` with `options` (logdir filled in here).
    void launch(project::Project p, const QString& dir, project::TrainRunOptions options);
    /// The running project's graph, once its reading (started by launch) is done; null if unreadable.
    std::shared_ptr<const tensorflow::GraphDef> runGraph();
    /// The shown document's status line.
    void showStatus(const QString& text, bool error, bool html = false);
    /// The run's progress (stored in its document's state, drawn when that is in front).
    void showProgress(const project::TrainProgress& p);
    void drawProgress(const DocumentTrainingState& state);
    void onFinished(bool ok, const QString& text, const project::TrainRunResult& result);
    /// The latest evaluation beside the loss: its metrics and the best so far by eval.best's metric.
    void showEvaluation(const project::EvalResult& result);
    /// project::defaultLogDirectory of `p` for the shown document (its untitled-N name given on first use).
    QString defaultLogDirectory(const project::Project& p);
    /// The user chose `dir` as the shown document's log directory (typed, browsed, in a dialog).
    void chooseLogDirectory(const QString& dir);
    void drawStatus(const DocumentTrainingState& state);
    /// Writes the project and starts mpirun (after the hostfile check).
    void launchDistributed(project::Project p, const QString& dir, const DistributedChoices& choices);
    void onDistributedFinished(bool ok, int exitCode, bool stopped, const QString& startError);
    /// Emits runStarted once rank 0's log directory has an event file (or a progress line came).
    void checkDistributedStarted();
    /// Where the ranks' program is: the override, else beside the running program.
    Expected<std::filesystem::path> tstudioExecutable() const;
    void retranslateDistributedButton();

    const Registries* m_registries;
    std::function<Expected<project::Project>()> m_source;
    ProjectEdit m_edit;
    QString m_title;
    const QObject* m_owner = nullptr; // compared only, never dereferenced
    std::map<const QObject*, DocumentTrainingState> m_states;
    const QObject* m_runOwner = nullptr; ///< the document whose run is going or went last
    bool m_runOwnerClosed = false;       ///< its tab was closed: the run's state is m_closedRunState
    DocumentTrainingState m_closedRunState;
    QString m_runTitle;
    int m_nextUntitled = 1;
    bool m_fillingForm = false; ///< the form is being filled by the panel, not edited by the user
    std::unique_ptr<TrainingRun> m_run;
    std::unique_ptr<DistributedRun> m_mpi;
    int m_mpiProcesses = 0; ///< of m_mpi, or of the hostfile being checked
    bool m_checkingHostfile = false;
    /// Profile was pressed during the run and no trace has come back yet: a run that ends first
    /// (Profile pressed as its last step finished) is profiled one step past its last checkpoint.
    /// The check before a run (checkThen) going on a worker thread; null: none.
    QFutureWatcher<QString>* m_check = nullptr;
    bool m_mpiStartedSignalled = false;
    bool m_resumedRun = false;
    QString m_tstudioOverride;
    int m_stopGraceMs = 5000;
    int m_intraOpThreads = 0; ///< setIntraOpThreads
    QTimer* m_startPoll = nullptr;
    std::shared_ptr<const tensorflow::GraphDef> m_graph; // of the running project (parameters, "Show node")
    QFuture<std::shared_ptr<const tensorflow::GraphDef>> m_graphRead; ///< m_graph being read (launch)
    QString m_pausedNode; // where the debugger holds the run; empty while it runs

    QLabel* m_projectLabel = nullptr;
    EmptyState* m_empty = nullptr; ///< over the form while no document is bound
    QLabel* m_deviceLabel = nullptr;
    QComboBox* m_device = nullptr;
    QLabel* m_stepsLabel = nullptr;
    QSpinBox* m_steps = nullptr;
    QLabel* m_logdirLabel = nullptr;
    QLineEdit* m_logdir = nullptr;
    QPushButton* m_browseLogdir = nullptr;
    QLabel* m_dataLabel = nullptr;
    QLineEdit* m_dataDir = nullptr;
    QPushButton* m_browseData = nullptr;
    QCheckBox* m_resume = nullptr;
    QLabel* m_warmLabel = nullptr;
    QLineEdit* m_warmFrom = nullptr;  ///< training.warm_start.ckpt_to_initialize_from; empty: none
    QLineEdit* m_warmVars = nullptr;  ///< training.warm_start.vars_to_warm_start
    QPushButton* m_browseWarm = nullptr;
    QCheckBox* m_profileAt = nullptr;
    DataFoldersSection* m_folders = nullptr;
    EvaluationSection* m_evaluation = nullptr;
    /// Fills the two sections from `p` (null: hides them).
    void refreshSections(const project::Project* p);
    QSpinBox* m_profileStep = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_distributed = nullptr; ///< "Run on N processes…"
    QPushButton* m_pause = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_checkpoint = nullptr;
    QPushButton* m_profile = nullptr;
    QPushButton* m_debug = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_figures = nullptr;
    QLabel* m_evalFigures = nullptr;
    /// The running project's eval section (nullopt without one) and the best (step, value) seen.
    std::optional<project::EvalSettings> m_evalSettings;
    std::optional<std::pair<std::int64_t, double>> m_bestEval;
    QLabel* m_status = nullptr;
};

} // namespace tstudio::training_panel
