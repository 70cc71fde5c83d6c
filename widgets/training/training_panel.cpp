// TrainingPanel: the Training dock's documents and their forms, starting, checking, pausing, stopping and
// profiling runs; its widgets are in training_panel_ui.cpp, its status line and progress in training_panel_status.cpp.
#include "training/training_panel.h"
#include "training/training_panel_internal.h"

#include "project/run/checkpoint_match.h"
#include "common/background_run.h"
#include "devices/gpu_probe.h"
#include "project/run/log_directory.h"
#include "project/format/project_relocation.h"
#include "registries/default_registries.h"
#include "project/run/eval_metrics.h"
#include "io/checkpoint/checkpoint_state.h"
#include "training/data_folders_section.h"
#include "training/distributed_run.h"
#include "training/evaluation_section.h"
#include "training/training_advice.h"
#include "training/training_run.h"
#include "common/empty_state.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <filesystem>
#include <set>

namespace tstudio::training_panel {

using namespace detail;

namespace {

bool isRelative(const std::string& path)
{
    return path.empty() || !std::filesystem::path(path).is_absolute();
}

/// What each source of `p` reads from the data folder (data.dir), one line each, or an empty
/// list when nothing needs it: MNIST or CIFAR-10 without its own folder, an image folder given by a relative
/// path (or none), and files given by relative paths in a document that has no file of its own
/// to be relative to.
QStringList dataFolderNeeds(const project::Project& p)
{
    // data.dir itself is what the field edits: a project that has one still shows it.
    QStringList needs;
    const bool unsaved = p.location.empty();
    for (const project::DataSource& s : p.sources) {
        if (const auto* mnist = std::get_if<project::MnistParams>(&s.params)) {
            if (!mnist->dir)
                needs << QCoreApplication::translate("tstudio::training_panel::TrainingPanel",
                                                     "%1-images-idx3-ubyte(.gz) and %1-labels-idx1-ubyte(.gz)")
                             .arg(QString::fromStdString(mnist->set));
        } else if (const auto* cifar = std::get_if<project::Cifar10Params>(&s.params)) {
            // CIFAR-10's batch files, read from the data folder when the source names none of its own.
            QStringList relative;
            for (const std::string& f : cifar->files)
                if (isRelative(f))
                    relative << QString::fromStdString(f);
            if (!cifar->dir && !relative.isEmpty())
                needs << relative.join(QStringLiteral(", "));
        } else if (const auto* images = std::get_if<project::ImageFolderParams>(&s.params)) {
            if (images->dir.empty() || (unsaved && isRelative(images->dir)))
                needs << QCoreApplication::translate("tstudio::training_panel::TrainingPanel",
                                                     "one subfolder of images per class%1")
                             .arg(images->dir.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(images->dir)));
        } else if (const auto* words = std::get_if<project::WordTextParams>(&s.params);
                   words && isRelative(words->file) && (p.dataDir || unsaved)) {
            // A text file read from data.dir (PTB's ptb.train.txt in data/ptb): the folder is settable.
            needs << QString::fromStdString(words->file);
        } else if (const auto* pairs = std::get_if<project::SkipGramParams>(&s.params);
                   pairs && isRelative(pairs->file) && (p.dataDir || unsaved)) {
            needs << QString::fromStdString(pairs->file); // word2vec's text, as word_text's
        } else if (unsaved) {
            std::vector<std::string> files;
            if (const auto* numpy = std::get_if<project::NumpyParams>(&s.params))
                files = numpy->files;
            else if (const auto* csv = std::get_if<project::CsvParams>(&s.params))
                files = csv->files;
            else if (const auto* records = std::get_if<project::TfRecordParams>(&s.params))
                files = records->files;
            QStringList relative;
            for (const std::string& f : files)
                if (isRelative(f))
                    relative << QString::fromStdString(f);
            if (!relative.isEmpty())
                needs << relative.join(QStringLiteral(", "));
        }
    }
    needs.removeDuplicates();
    return needs;
}

bool needsDataFolder(const project::Project& p)
{
    return !dataFolderNeeds(p).isEmpty();
}

/// True when every source reading the data folder is an MNIST one.
bool onlyMnistInDataFolder(const project::Project& p)
{
    for (const project::DataSource& s : p.sources)
        if (!std::holds_alternative<project::MnistParams>(s.params) &&
            !std::holds_alternative<project::TwoSpiralsParams>(s.params))
            return false;
    return true;
}

/// The global step of a checkpoint prefix ("…/model.ckpt-60" -> 60), or -1.
std::int64_t checkpointStep(const std::filesystem::path& prefix)
{
    const std::string name = prefix.filename().string();
    const auto dash = name.rfind('-');
    if (dash == std::string::npos || dash + 1 >= name.size())
        return -1;
    std::int64_t step = 0;
    for (std::size_t i = dash + 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        step = step * 10 + (name[i] - '0');
    }
    return step;
}

/// "a, b, c and 4 more": the first names of a list, for a status line.
QString shortNames(const std::vector<std::string>& names)
{
    constexpr std::size_t kShown = 3;
    QStringList shown;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
        shown << QString::fromStdString(names[i]);
    const QString list = shown.join(QStringLiteral(", "));
    if (names.size() <= kShown)
        return list;
    return QCoreApplication::translate("tstudio::training_panel::TrainingPanel", "%1 and %n more", nullptr,
                                       static_cast<int>(names.size() - kShown))
        .arg(list);
}

/// The project's graph (null when it cannot be read: the run's own error will say why).
std::shared_ptr<const tensorflow::GraphDef> projectGraph(const project::Project& p)
{
    auto graph = project::readProjectGraph(p);
    return graph ? std::make_shared<const tensorflow::GraphDef>(std::move(*graph)) : nullptr;
}

QStringList graphNodeNames(const tensorflow::GraphDef* graph)
{
    QStringList names;
    if (graph)
        for (const tensorflow::NodeDef& n : graph->node())
            names << QString::fromStdString(n.name());
    return names;
}

/// The first quoted name in `message` ('x', 'x:0', [[node x]]) that is a node of the graph.
QString nodeNamedIn(const QString& message, const QStringList& nodes)
{
    static const QRegularExpression quoted(QStringLiteral("(?:'([^'\\s]+)'|\\[\\[node ([^\\s\\]]+))"));
    const std::set<QString> known(nodes.begin(), nodes.end());
    for (auto it = quoted.globalMatch(message); it.hasNext();) {
        const auto m = it.next();
        QString name = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        name = name.section(QLatin1Char(':'), 0, 0);
        if (name.startsWith(QLatin1Char('^')))
            name.remove(0, 1);
        if (known.count(name))
            return name;
    }
    return {};
}

} // namespace

TrainingPanel::TrainingPanel(const Registries* registries, QWidget* parent)
    : QWidget(parent), m_registries(registries)
{
    qRegisterMetaType<project::TrainProgress>();
    qRegisterMetaType<project::TrainRunResult>();
    qRegisterMetaType<project::EvalResult>();
    buildUi();
    retranslateUi();
    updateButtons();
}

TrainingPanel::~TrainingPanel()
{
    // A check before a run reads the registries, which may go with the window: it ends first.
    if (m_check)
        m_check->waitForFinished();
    // A finished graph read is taken through the future's lock before the future goes, so that the
    // hand-off of its result is one ThreadSanitizer sees (the future's reference count lives in
    // libQt6Core); a read still running finishes on its own, its thread dropping the last reference.
    if (m_graphRead.isValid() && m_graphRead.isFinished())
        m_graph = m_graphRead.result();
}

void TrainingPanel::setProjectSource(std::function<Expected<project::Project>()> source, const QString& title,
                                     const QObject* owner, ProjectEdit edit)
{
    // The form in front belongs to the document shown until now: kept in its state.
    if (m_source)
        storeForm();
    // A null owner is a new document on every call (unless its run is the one going).
    if (!owner && !(isRunning() && !m_runOwnerClosed && m_runOwner == nullptr))
        m_states.erase(nullptr);
    if (owner && !m_states.count(owner))
        connect(owner, &QObject::destroyed, this, [this, owner] { forgetDocument(owner); });
    m_source = std::move(source);
    m_edit = std::move(edit);
    m_title = title;
    m_owner = owner;
    m_states[owner]; // the document's state exists from here on
    refreshForm();
    retranslateUi();
    updateButtons();
}

DocumentTrainingState& TrainingPanel::shown()
{
    return m_states[m_owner];
}

const DocumentTrainingState& TrainingPanel::shown() const
{
    static const DocumentTrainingState none;
    const auto it = m_states.find(m_owner);
    return it == m_states.end() ? none : it->second;
}

DocumentTrainingState& TrainingPanel::runState()
{
    return m_runOwnerClosed ? m_closedRunState : m_states[m_runOwner];
}

void TrainingPanel::forgetDocument(const QObject* owner)
{
    if (isRunning() && !m_runOwnerClosed && m_runOwner == owner) {
        // Nothing would show or stop this run any more: it stops, with its final checkpoint.
        m_closedRunState = m_states[owner];
        m_runOwnerClosed = true;
        emit message(tr("The tab of %1 was closed: its training stops after the current step").arg(m_runTitle));
        stop();
    }
    m_states.erase(owner);
    if (owner != m_owner)
        return;
    m_source = nullptr;
    m_edit = nullptr;
    m_title.clear();
    m_owner = nullptr;
    if (!(isRunning() && !m_runOwnerClosed && m_runOwner == nullptr))
        m_states[nullptr] = DocumentTrainingState{};
    refreshForm();
    retranslateUi();
    updateButtons();
}

void TrainingPanel::storeForm()
{
    DocumentTrainingState& state = shown();
    state.steps = m_steps->value();
    state.device = m_device->currentData().toString();
    // A log directory other than the one the panel put there was set by someone else: it stays.
    if (m_logdir->text() != state.logdir)
        state.logdirChosen = true;
    state.logdir = m_logdir->text();
    state.dataDir = m_dataDir->text();
    state.resume = m_resume->isChecked();
    state.debug = m_debug->isChecked();
    state.warmFrom = m_warmFrom->text();
    state.warmVars = m_warmVars->text();
    state.profileAt = m_profileAt->isChecked();
    state.profileStep = m_profileStep->value();
}

void TrainingPanel::showState()
{
    const DocumentTrainingState& state = shown();
    m_fillingForm = true;
    m_steps->setValue(std::min(state.steps, m_steps->maximum()));
    m_device->setCurrentIndex(state.device == QLatin1String("gpu") ? 1 : 0);
    // Only what differs: setText moves the cursor of a field the user is typing in.
    if (m_logdir->text() != state.logdir)
        m_logdir->setText(state.logdir);
    if (m_dataDir->text() != state.dataDir)
        m_dataDir->setText(state.dataDir);
    m_resume->setChecked(state.resume);
    m_debug->setChecked(state.debug);
    m_warmFrom->setText(state.warmFrom);
    m_warmVars->setText(state.warmVars);
    m_profileAt->setChecked(state.profileAt);
    m_profileStep->setValue(state.profileStep);
    m_fillingForm = false;
    drawProgress(state);
    m_evalFigures->setText(state.evalFigures);
    m_evalFigures->setVisible(!state.evalFigures.isEmpty());
    drawStatus(state);
}

void TrainingPanel::editProject(const std::function<void(project::Project&)>& edit)
{
    if (m_edit && !m_fillingForm)
        m_edit(edit);
}

void TrainingPanel::chooseLogDirectory(const QString& dir)
{
    if (m_logdir->text() != dir)
        m_logdir->setText(dir);
    shown().logdir = dir;
    shown().logdirChosen = true;
    const QString trimmed = dir.trimmed();
    if (trimmed.isEmpty())
        return; // Start says to choose one; the project keeps its own meanwhile
    const std::string absolute = QDir::cleanPath(QFileInfo(trimmed).absoluteFilePath()).toStdString();
    editProject([absolute](project::Project& p) { p.logdir = project::storedLogDirectory(p, absolute); });
}

void TrainingPanel::refreshDataField(const project::Project& p)
{
    const QStringList needs = dataFolderNeeds(p);
    const bool data = !needs.isEmpty();
    m_dataLabel->setVisible(data);
    m_dataDir->setVisible(data);
    m_browseData->setVisible(data);
    if (!data)
        return;
    m_dataLabel->setText(onlyMnistInDataFolder(p) ? tr("MNIST folder:") : tr("Data folder:"));
    m_dataDir->setPlaceholderText(tr("Folder with %1").arg(needs.join(tr("; and "))));
    m_dataDir->setToolTip(m_dataDir->placeholderText());
}

QString TrainingPanel::defaultLogDirectory(const project::Project& p)
{
    const std::filesystem::path userData =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation).toStdString();
    DocumentTrainingState& state = shown();
    if (p.location.empty() && state.untitled.isEmpty()) {
        // Numbered once per document and session, past any folder an earlier session left.
        int number = 0;
        state.untitled = QString::fromStdString(project::untitledRunName(userData, m_nextUntitled, &number));
        m_nextUntitled = number + 1;
    }
    return QString::fromStdString(
        project::defaultLogDirectory(p, userData, state.untitled.toStdString()).string());
}

void TrainingPanel::refreshForm()
{
    auto hideDataField = [this] {
        m_dataLabel->setVisible(false);
        m_dataDir->setVisible(false);
        m_browseData->setVisible(false);
        refreshSections(nullptr);
    };
    if (!m_source) {
        showState();
        hideDataField();
        return;
    }
    DocumentTrainingState& state = shown();
    auto p = m_source();
    if (!p) {
        // A graph that cannot train yet (a new one) still shows where it would train: as a graph
        // without a project file, until its project builds and says otherwise.
        if (!state.logdirChosen && state.logdir.isEmpty()) {
            project::Project unsaved;
            state.logdir = defaultLogDirectory(unsaved);
        }
        showState();
        if (!(isRunning() && runShown())) {
            showStatus(QString::fromStdString(p.error().message()), true);
            state.statusFromSource = true;
        }
        hideDataField();
        return;
    }
    if (state.statusFromSource)
        showStatus(QString(), false);
    if (!state.formFilled) {
        // The first time: the document's project, as its file has it.
        state.formFilled = true;
        state.steps = static_cast<int>(std::min<std::int64_t>(p->steps, m_steps->maximum()));
        state.device = QString::fromStdString(p->device);
        state.dataDir = p->dataDir ? QString::fromStdString(*p->dataDir)
                                   : QSettings().value(QLatin1String(kDataDirSetting)).toString();
        state.warmFrom =
            p->training.warmStart ? QString::fromStdString(p->training.warmStart->ckptToInitializeFrom) : QString();
        state.warmVars = p->training.warmStart && p->training.warmStart->varsToWarmStart != ".*"
                             ? QString::fromStdString(p->training.warmStart->varsToWarmStart)
                             : QString();
    }
    // Until the user chooses one, the log directory follows the project (Save As moves it).
    if (!state.logdirChosen)
        state.logdir = defaultLogDirectory(*p);
    showState();
    refreshDataField(*p);
    refreshSections(&*p);
}

void TrainingPanel::refreshSections(const project::Project* p)
{
    if (!p) {
        m_folders->hide();
        m_evaluation->hide();
        return;
    }
    m_folders->fillFrom(*p);
    m_evaluation->fillFrom(*p);
}

Expected<project::Project> TrainingPanel::preparedProject(QString* logdir) const
{
    if (!m_source)
        return unexpected(failedPreconditionError(
            tr("There is no project to train: open a .tsproj, or a graph in the node editor.").toStdString()));
    auto p = m_source();
    if (!p)
        return p;
    p->device = m_device->currentData().toString().toStdString();
    p->steps = m_steps->value();
    if (needsDataFolder(*p)) {
        if (m_dataDir->text().trimmed().isEmpty())
            return unexpected(failedPreconditionError(
                tr("Choose the data folder: the graph's data sources read their files from it (%1).")
                    .arg(m_dataDir->placeholderText())
                    .toStdString()));
        p->dataDir = m_dataDir->text().trimmed().toStdString();
    }
    m_folders->applyTo(*p);
    if (const QString missing = m_folders->missingFolders(); !missing.isEmpty())
        return unexpected(failedPreconditionError(missing.toStdString()));
    if (Status s = m_evaluation->applyTo(*p); !s.isOk())
        return unexpected(s);
    if (const QString from = m_warmFrom->text().trimmed(); from.isEmpty()) {
        p->training.warmStart.reset();
    } else {
        project::WarmStart warm = p->training.warmStart.value_or(project::WarmStart{});
        warm.ckptToInitializeFrom = from.toStdString();
        const QString vars = m_warmVars->text().trimmed();
        warm.varsToWarmStart = vars.isEmpty() ? std::string(".*") : vars.toStdString();
        p->training.warmStart = std::move(warm);
    }
    const QString dir = m_logdir->text().trimmed();
    if (dir.isEmpty())
        return unexpected(failedPreconditionError(tr("Choose a log directory for the checkpoints and event files.").toStdString()));
    if (!m_resume->isChecked()) {
        if (auto latest = latestCheckpoint(dir.toStdString()))
            return unexpected(failedPreconditionError(
                tr("%1 already holds checkpoints (latest %2): tick \"Continue from the latest checkpoint\" or "
                   "choose another log directory.")
                    .arg(dir, QFileInfo(QString::fromStdString(latest->string())).fileName())
                    .toStdString()));
    }
    *logdir = dir;
    return p;
}

bool TrainingPanel::start()
{
    if (isRunning()) {
        if (!runShown()) {
            // Another document's run: one at a time. Said for a moment, then this document's status again.
            const DocumentTrainingState before = shown();
            const QString text = tr("Training %1 is under way: one run at a time. Stop it in its tab, or wait for it "
                                    "to finish.")
                                     .arg(m_runOwnerClosed ? tr("a closed graph") : m_runTitle);
            showStatus(text, true);
            const QObject* owner = m_owner;
            QTimer::singleShot(6000, this, [this, owner, text, before] {
                if (m_owner == owner && m_states.count(owner) && shown().status == text)
                    showStatus(before.status, before.statusIsError, before.statusHtml);
            });
        }
        return false;
    }
    QString dir;
    auto p = preparedProject(&dir);
    if (!p) {
        // A settings problem the project layer names by field gets the panel's remedy.
        showStatus(withGuiAdvice(QString::fromStdString(p.error().message())), true);
        return false;
    }
    if (!m_dataDir->text().trimmed().isEmpty() && needsDataFolder(*p))
        QSettings().setValue(QLatin1String(kDataDirSetting), m_dataDir->text().trimmed());
    // What is trained is the document's project (saving it writes this run's settings), whoever
    // filled the form; a default log directory is not written (it follows the project's file).
    storeForm();
    {
        const std::int64_t steps = p->steps;
        const std::string device = p->device;
        const std::optional<std::string> data = p->dataDir;
        const std::optional<std::string> chosen =
            shown().logdirChosen ? std::optional<std::string>(QDir::cleanPath(QFileInfo(dir).absoluteFilePath()).toStdString())
                                 : std::nullopt;
        editProject([=](project::Project& q) {
            q.steps = steps;
            q.device = device;
            if (data)
                q.dataDir = data;
            if (chosen)
                q.logdir = project::storedLogDirectory(q, *chosen);
        });
    }
    project::TrainRunOptions options;
    options.resume = m_resume->isChecked();
    options.threads = m_intraOpThreads;
    // No count set: every core or one fewer (the GUI thread's), whichever the run measures faster.
    options.adaptThreads = m_intraOpThreads == 0;
    if (m_profileAt->isChecked())
        options.traceAtStep = m_profileStep->value();
    m_runOwner = m_owner;
    m_runOwnerClosed = false;
    m_runTitle = m_title;
    if (!options.resume) {
        launch(std::move(*p), dir, std::move(options));
        return true;
    }
    // Continue: the checkpoint must be this graph's. Comparing builds the training graph, which
    // takes a while for a big one: off the GUI thread, the refusal still before anything runs.
    auto run = std::make_shared<project::Project>(std::move(*p));
    checkThen(
        tr("Checking the checkpoint…"),
        [run, registries = m_registries, dir] { return foreignCheckpointRefusal(*run, registries, dir); },
        [this, run, dir, options] { launch(std::move(*run), dir, options); });
    return true;
}

void TrainingPanel::checkThen(const QString& checking, std::function<QString()> check, std::function<void()> then)
{
    m_check = new QFutureWatcher<QString>(this);
    connect(m_check, &QFutureWatcher<QString>::finished, this, [this, then = std::move(then)] {
        const QString refusal = m_check->result();
        m_check->deleteLater();
        m_check = nullptr;
        m_checkingHostfile = false; // a distributed run's check (startDistributed) ends here too
        if (m_runOwnerClosed) {
            // The document went while its run was being checked: nothing is left to train.
            updateButtons();
            return;
        }
        if (!refusal.isEmpty()) {
            showRunStatus(refusal, true);
            updateButtons();
            emit runFinished(false, refusal);
            return;
        }
        then();
    });
    showRunStatus(checking, false);
    m_check->setFuture(runInBackground(std::move(check)));
    updateButtons();
}

QString TrainingPanel::foreignCheckpointRefusal(const project::Project& p, const Registries* registries, const QString& dir)
{
    if (!registries)
        return {};
    // Errors (a graph that does not prepare, a damaged checkpoint) are the run's to report.
    auto match = project::matchLatestCheckpoint(p, registries->ops, dir.toStdString());
    if (!match || !*match || (*match)->matches())
        return {};
    const project::CheckpointMatch& m = **match;
    QStringList parts;
    if (!m.missing.empty())
        parts << tr("%n variable(s) of the graph missing from it (%1)", nullptr, static_cast<int>(m.missing.size()))
                     .arg(shortNames(m.missing));
    if (!m.unexpected.empty())
        parts << tr("%n variable(s) that are not in the graph (%1)", nullptr, static_cast<int>(m.unexpected.size()))
                     .arg(shortNames(m.unexpected));
    if (!m.mismatched.empty()) {
        const project::VariableMismatch& first = m.mismatched.front();
        parts << tr("%n variable(s) of another shape or type (%1: %2 in the graph, %3 in the checkpoint)", nullptr,
                    static_cast<int>(m.mismatched.size()))
                     .arg(QString::fromStdString(first.name), QString::fromStdString(first.inGraph),
                          QString::fromStdString(first.inCheckpoint));
    }
    return tr("Not continued: the latest checkpoint in %1 (%2) is not of this graph: %3. Untick \"Continue from "
              "the latest checkpoint\" or choose another log directory.")
        .arg(dir, QFileInfo(QString::fromStdString(m.checkpoint)).fileName(), parts.join(QStringLiteral("; ")));
}

std::shared_ptr<const tensorflow::GraphDef> TrainingPanel::runGraph()
{
    if (m_graphRead.isValid()) {
        m_graph = m_graphRead.result(); // read while the run built its own graph: long done by now
        m_graphRead = {};
    }
    return m_graph;
}

void TrainingPanel::launch(project::Project p, const QString& dir, project::TrainRunOptions options)
{
    // The run's document (m_runOwner) was set by the caller: after a check it may be in the back.
    // Its graph (for "Show node" and the profiler) is read off the GUI thread: a big one takes a while.
    m_graph.reset();
    m_graphRead = runInBackground([project = p] { return projectGraph(project); });
    options.logdir = dir.toStdString();
    std::shared_ptr<DebugController> debugger;
    if (runShown() ? m_debug->isChecked() : runState().debug) {
        debugger = std::make_shared<DebugController>();
        // The project's breakpoints hold from the first step, before the Debugger tab attaches.
        if (auto set = debugger::BreakpointSet::create(p.debugger.breakpoints))
            debugger->setBreakpoints(std::move(*set));
        debugger->setWatched(p.debugger.watch);
    }
    m_evalSettings = p.eval;
    m_bestEval.reset();
    runState().evalFigures.clear();
    m_evalFigures->clear();
    m_evalFigures->hide();
    m_run = std::make_unique<TrainingRun>(m_registries, std::move(p), options);
    m_run->setDebugger(debugger);
    if (debugger) {
        connect(m_run.get(), &TrainingRun::sessionGraph, this,
                [this, debugger](std::shared_ptr<const tensorflow::GraphDef> graph) {
                    emit debugging(debugger, std::move(graph), m_runTitle);
                });
    }
    DocumentTrainingState& state = runState();
    state.runLogdir = QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    state.last = {};
    state.hasProgress = false;
    state.errorNode.clear();
    m_pausedNode.clear();
    connect(m_run.get(), &TrainingRun::started, this, [this](const project::TrainProgress& progress) {
        showProgress(progress);
        const QString logdir = runState().runLogdir;
        // The debugger may have paused the first step before this arrives: its status stays.
        if (m_pausedNode.isEmpty())
            showRunStatus(tr("Training; checkpoints and event files go to %1").arg(logdir), false);
        emit message(tr("Training %1 from step %2 to %3 in %4")
                         .arg(m_runTitle)
                         .arg(progress.firstStep)
                         .arg(progress.lastStep)
                         .arg(logdir));
        emit runStarted(logdir);
    });
    connect(m_run.get(), &TrainingRun::progressed, this, [this](const project::TrainProgress& progress) {
        showProgress(progress);
        emit progressed(progress);
    });
    connect(m_run.get(), &TrainingRun::checkpointSaved, this, [this](const QString& prefix) {
        showRunStatus(tr("Saved checkpoint %1").arg(prefix), false);
        emit message(tr("Saved checkpoint %1").arg(prefix));
    });
    connect(m_run.get(), &TrainingRun::evaluated, this, &TrainingPanel::showEvaluation);
    connect(m_run.get(), &TrainingRun::finished, this, &TrainingPanel::onFinished);
    connect(m_run.get(), &TrainingRun::profiled, this,
            [this](std::shared_ptr<const profiler::ProfileTrace> trace) {
                updateButtons();
                emit profiled(trace, runGraph(), m_runTitle);
            });
    setRunProgressFormat(tr("Preparing…"));
    showRunStatus(tr("Building the training graph…"), false);
    m_run->start();
    updateButtons();
}

void TrainingPanel::pause()
{
    if (!m_run || !m_run->isRunning())
        return;
    m_run->setPaused(true);
    showRunStatus(tr("Paused at step %1").arg(runState().last.step), false);
    retranslateUi();
    updateButtons();
}

void TrainingPanel::resume()
{
    if (!m_run || !m_run->isRunning())
        return;
    m_run->setPaused(false);
    showRunStatus(tr("Training; checkpoints and event files go to %1").arg(runState().runLogdir), false);
    retranslateUi();
    updateButtons();
}

void TrainingPanel::stop()
{
    if (m_mpi && m_mpi->isRunning()) {
        m_mpi->setStopGraceMs(m_stopGraceMs);
        m_mpi->stop();
        showRunStatus(tr("Stopping the %1 processes…").arg(m_mpiProcesses), false);
        m_stop->setEnabled(false);
        return;
    }
    if (!m_run || !m_run->isRunning())
        return;
    m_run->requestStop();
    showRunStatus(tr("Stopping after the current step…"), false);
    m_stop->setEnabled(false);
}

void TrainingPanel::saveCheckpointNow()
{
    if (m_run && m_run->isRunning())
        m_run->requestCheckpoint();
}

bool TrainingPanel::profileNextStep(int steps)
{
    if (m_mpi || m_checkingHostfile)
        return false; // not under mpirun
    if (m_check)
        return false; // a run is being checked: nothing runs yet
    if (isRunning()) {
        if (!runShown())
            return false; // another document's run
        m_run->requestProfile(steps);
        m_profile->setEnabled(false);
        return true;
    }
    // After a run: two more steps from its last checkpoint, the second traced. The first step of a
    // new session pays one-time costs (kernels' first calls, oneDNN's code generation, the first
    // touch of new buffers: a spirals step of about 0.3 ms took 9 ms as the first of a new session
    // in the IDE and 170 ms as the first of a new process), so it warms up, as tstudio profile's
    // --warmup 1 does.
    std::int64_t step = -1;
    const QString runLogdir = shown().runLogdir;
    if (!runLogdir.isEmpty())
        if (auto latest = latestCheckpoint(runLogdir.toStdString()))
            step = checkpointStep(*latest);
    if (step < 0) {
        showStatus(tr("Nothing to profile yet: press Start, or arm \"Profile step\" before it."), true);
        return false;
    }
    if (!m_source)
        return false;
    auto p = m_source();
    if (!p) {
        showStatus(QString::fromStdString(p.error().message()), true);
        return false;
    }
    p->device = m_device->currentData().toString().toStdString();
    if (needsDataFolder(*p) && !m_dataDir->text().trimmed().isEmpty())
        p->dataDir = m_dataDir->text().trimmed().toStdString();
    m_folders->applyTo(*p);
    project::TrainRunOptions options;
    options.resume = true;
    options.steps = step + 2;
    options.traceAtStep = step + 1;
    m_runOwner = m_owner;
    m_runOwnerClosed = false;
    m_runTitle = m_title;
    // The graph may have been edited since that run: its checkpoint is checked first (off the GUI thread).
    auto run = std::make_shared<project::Project>(std::move(*p));
    checkThen(
        tr("Checking the checkpoint…"),
        [run, registries = m_registries, runLogdir] { return foreignCheckpointRefusal(*run, registries, runLogdir); },
        [this, run, runLogdir, options, step] {
            launch(std::move(*run), runLogdir, options);
            showRunStatus(tr("Profiling step %1, after a step to warm up, from %2").arg(step + 2).arg(runLogdir),
                          false);
        });
    return true;
}

void TrainingPanel::setProfileAtStep(std::int64_t step)
{
    m_profileAt->setChecked(step > 0);
    if (step > 0)
        m_profileStep->setValue(static_cast<int>(std::min<std::int64_t>(step, m_profileStep->maximum())));
}

void TrainingPanel::prepareToStart()
{
    if (isRunning() && runShown())
        return;
    if (m_source && !shown().statusIsError) {
        if (auto p = m_source())
            showStatus(tr("Check the settings, then press Start."), false);
        else
            showStatus(QString::fromStdString(p.error().message()), true);
    }
    m_start->setFocus(Qt::OtherFocusReason);
}

void TrainingPanel::setDebugging(bool on)
{
    m_debug->setChecked(on);
}

bool TrainingPanel::isDebugging() const
{
    return m_debug->isChecked();
}

bool TrainingPanel::isRunning() const
{
    return (m_run && m_run->isRunning()) || (m_mpi && m_mpi->isRunning()) || m_checkingHostfile || m_check;
}

void TrainingPanel::onFinished(bool ok, const QString& text, const project::TrainRunResult& result)
{
    DocumentTrainingState& state = runState();
    if (ok) {
        project::TrainProgress p = state.last;
        p.step = result.lastStep;
        p.firstStep = result.firstStep;
        p.loss = result.finalLoss ? result.finalLoss : state.last.loss;
        p.seconds = result.seconds;
        p.stepsPerSecond = result.stepsPerSecond;
        if (p.lastStep == 0)
            p.lastStep = result.lastStep;
        showProgress(p);
        const QString summary =
            result.stoppedMidStep
                ? tr("Stopped in the debugger during step %1; that step was not saved, the last checkpoint is %2")
                      .arg(result.lastStep + 1)
                      .arg(QString::fromStdString(result.lastCheckpoint))
                : tr("Finished at step %1 (%2 steps/s); last checkpoint %3")
                      .arg(result.lastStep)
                      .arg(result.stepsPerSecond, 0, 'f', 1)
                      .arg(QString::fromStdString(result.lastCheckpoint));
        const QString said = result.earlyStopped.empty()
                                 ? summary
                                 : summary + QStringLiteral("; ") +
                                       tr("stopped early: %1").arg(QString::fromStdString(result.earlyStopped));
        showRunStatus(said, false);
        emit message(said);
    } else {
        state.errorNode = nodeNamedIn(text, graphNodeNames(runGraph().get()));
        QString said = withGuiAdvice(text).toHtmlEscaped();
        if (!state.errorNode.isEmpty())
            said += QStringLiteral(" <a href=\"node\">%1</a>").arg(tr("Show node %1").arg(state.errorNode.toHtmlEscaped()));
        showRunStatus(tr("Training failed: %1").arg(said), true, true);
        if (state.progressFormat == tr("Preparing…"))
            setRunProgressFormat(tr("Not started"));
    }
    // Profile pressed as the last step finished: the run ended before tracing a step, so the
    // request is served as after a run (more steps from the last checkpoint), not dropped.
    const bool profileNext = m_run && m_run->profileRequestUnserved() && ok && !result.stoppedMidStep;
    m_run.reset();
    retranslateUi();
    updateButtons();
    emit runFinished(ok, text);
    if (profileNext)
        QTimer::singleShot(0, this, [this] {
            if (!isRunning())
                profileNextStep();
        });
}

} // namespace tstudio::training_panel
