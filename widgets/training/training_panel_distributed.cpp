// The Training panel's "Run on N processes…": the project trained by `tstudio train --distributed`
// under mpirun, its output in the console and rank 0's progress and log directory followed.
// First: hostfile.h names a field `slots`, which Qt's headers define away as a macro.
#include "core/affinity_cores.h"
#include "project/distributed/hostfile.h"

#include "training/distributed_dialog.h"
#include "training/distributed_run.h"
#include "training/training_advice.h"
#include "training/training_panel.h"

#include "io/checkpoint/checkpoint_state.h"
#include "project/distributed/mpi_launch.h"
#include "project/format/project_relocation.h"
#include "registries/default_registries.h"
#include "project/format/setting_advice.h"
#include "project/run/training_check.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

#include <thread>

namespace tstudio::training_panel {
namespace {

constexpr char kProjectFileName[] = "distributed_project.tsproj";

QString toQString(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

/// The global step of the latest checkpoint in `dir` ("model.ckpt-60" -> 60), or 0.
std::int64_t latestCheckpointStep(const QString& dir)
{
    auto latest = latestCheckpoint(dir.toStdString());
    if (!latest)
        return 0;
    const std::string name = latest->filename().string();
    const auto dash = name.rfind('-');
    try {
        return dash == std::string::npos ? 0 : std::stoll(name.substr(dash + 1));
    } catch (...) {
        return 0;
    }
}

/// `choices` as the launch they describe; `project` is the file the ranks train.
project::MpiLaunch launchOf(const DistributedChoices& choices, const std::filesystem::path& tstudio,
                            const QString& project, std::int64_t steps, bool resume)
{
    project::MpiLaunch launch;
    launch.processes = choices.processes;
    launch.hosts = choices.useHostfile ? project::MpiHosts::kHostfile : project::MpiHosts::kThisMachine;
    launch.hostfile = choices.hostfile.toStdString();
    launch.scaleLearningRate = choices.scaleLearningRate && !choices.asynchronous;
    launch.tstudio = tstudio;
    launch.project = project.toStdString();
    launch.logdir = choices.logdir.toStdString();
    launch.steps = steps;
    launch.resume = resume;
    // Ranks on this machine share its cores (each would otherwise start a thread per core).
    if (!choices.useHostfile)
        launch.threadsPerRank =
            project::threadsPerRankOnThisMachine(choices.processes, static_cast<unsigned>(schedulableCores()));
    return launch;
}

QString absoluteDirectory(const QString& dir)
{
    return dir.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
}

/// A rank's line in the panel's words. `tstudio train` ends a settings problem with the command
/// line's remedy (setting_advice.h: "...: data.dir: not set; ...; pass --set data.dir=DIR"), which a
/// user of this panel cannot act on: the panel's own remedy (training_advice.h) replaces it.
QString inPanelWords(const QString& line)
{
    const std::string text = line.toStdString();
    const auto field = project::problemField(text);
    if (!field)
        return line;
    const std::string cli = "; " + project::cliAdvice(*field, text);
    const std::size_t at = text.rfind(cli);
    if (at == std::string::npos)
        return line;
    return QString::fromStdString(text.substr(0, at)) + QStringLiteral("; ") + guiAdvice(*field, line) +
           QString::fromStdString(text.substr(at + cli.size()));
}

} // namespace

Expected<std::filesystem::path> TrainingPanel::tstudioExecutable() const
{
    if (!m_tstudioOverride.isEmpty())
        return std::filesystem::path(m_tstudioOverride.toStdString());
    return project::locateTstudio(QCoreApplication::applicationFilePath().toStdString());
}

void TrainingPanel::retranslateDistributedButton()
{
    const int n = DistributedChoices::load(QSettings()).processes;
    m_distributed->setText(tr("Run on %1 processes…").arg(n));
    m_distributed->setToolTip(tr("Train the project on several processes with Open MPI (mpirun): on this machine or "
                                 "on the hosts of a hostfile"));
}

int TrainingPanel::distributedProcesses() const
{
    return (m_mpi && m_mpi->isRunning()) || m_checkingHostfile ? m_mpiProcesses : 0;
}

DistributedPreview TrainingPanel::distributedPreview(const DistributedChoices& choices) const
{
    DistributedPreview preview;
    QStringList problems;
    const QString dir = absoluteDirectory(choices.logdir);
    auto tstudio = tstudioExecutable();
    auto mpirun = project::locateMpirun(qEnvironmentVariable("PATH").toStdString());
    DistributedChoices absolute = choices;
    absolute.logdir = dir;
    const project::MpiLaunch launch = launchOf(absolute, tstudio ? *tstudio : std::filesystem::path("tstudio"),
                                               dir.isEmpty() ? QString::fromLatin1(kProjectFileName)
                                                             : QDir(dir).filePath(QLatin1String(kProjectFileName)),
                                               m_steps->value(), m_resume->isChecked());
    if (auto args = project::mpirunArguments(launch))
        preview.commandLine =
            QString::fromStdString(project::shellCommandLine(mpirun ? mpirun->string() : std::string("mpirun"), *args));
    if (!mpirun)
        problems << tr("mpirun was not found on PATH: install Open MPI (the openmpi-bin package).");
    if (!tstudio)
        problems << QString::fromStdString(tstudio.error().message());
    if (choices.useHostfile && choices.hostfile.isEmpty())
        problems << tr("Choose the hostfile that lists the hosts and their slots.");
    if (dir.isEmpty())
        problems << tr("Choose a log directory for the checkpoints and event files.");
    if (choices.asynchronous && choices.psTasks >= choices.processes)
        problems << tr("%n parameter server(s) of %1 processes leave no worker: choose more processes or fewer "
                       "parameter servers.",
                       nullptr, choices.psTasks)
                        .arg(choices.processes);
    if (!m_source)
        problems << tr("There is no project to train: open a .tsproj, or a graph in the node editor.");
    preview.problem = problems.join(QLatin1Char('\n'));
    return preview;
}

void TrainingPanel::openDistributedDialog()
{
    if (isRunning())
        return;
    DistributedChoices choices = DistributedChoices::load(QSettings());
    choices.logdir = m_logdir->text().trimmed();
    // The replication is the project's setting.
    if (m_source)
        if (auto p = m_source()) {
            choices.asynchronous = p->distributed.asynchronous;
            choices.psTasks = static_cast<int>(p->distributed.psTasks);
        }
    auto* dialog = new DistributedDialog(
        choices, [this](const DistributedChoices& c) { return distributedPreview(c); }, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const DistributedChoices chosen = dialog->choices();
        QSettings settings;
        chosen.save(settings);
        if (chosen.logdir != m_logdir->text())
            chooseLogDirectory(chosen.logdir);
        retranslateDistributedButton();
        startDistributed(chosen);
    });
    dialog->open();
    emit distributedDialogOpened(dialog);
}

bool TrainingPanel::startDistributed(const DistributedChoices& choices)
{
    if (isRunning())
        return false;
    const DistributedPreview preview = distributedPreview(choices);
    if (!preview.problem.isEmpty()) {
        showStatus(preview.problem, true);
        return false;
    }
    if (choices.logdir != m_logdir->text())
        chooseLogDirectory(choices.logdir);
    QString dir;
    auto p = preparedProject(&dir);
    if (!p) {
        // A settings problem the project layer names by field gets the panel's remedy.
        showStatus(withGuiAdvice(QString::fromStdString(p.error().message())), true);
        return false;
    }
    dir = absoluteDirectory(dir);
    storeForm(); // Continue and Debug of this document, read again when the check is over
    m_runOwner = m_owner;
    m_runOwnerClosed = false;
    m_runTitle = m_title;
    m_mpiProcesses = choices.processes;
    m_checkingHostfile = true;
    // Before any process starts, off the GUI thread: what the ranks would fail on at their start
    // (the graph, the sources' folders and files, the eval section) in the panel's words, not
    // `tstudio train`'s flags; with Continue, the checkpoint against the graph; the hostfile's hosts
    // resolved (DNS may take seconds). mpirun starts once all pass.
    auto project = std::make_shared<project::Project>(std::move(*p));
    project::HostfileCheckOptions hostOptions{choices.processes, /*oversubscribe=*/false, /*resolve=*/true};
    hostOptions.tooFewSlotsAdvice =
        tr("choose fewer processes in this dialog, or give the hosts more slots in the hostfile").toStdString();
    const bool resume = m_resume->isChecked();
    checkThen(
        choices.useHostfile ? tr("Checking the project and the hostfile %1…").arg(choices.hostfile)
                            : tr("Checking the project…"),
        [project, registries = m_registries, dir, resume, choices, hostOptions]() -> QString {
            if (registries) {
                if (const Status s = project::checkTrainingStarts(*project, registries->ops); !s.isOk())
                    return withGuiAdvice(QString::fromStdString(s.message()));
                if (resume)
                    if (QString refusal = foreignCheckpointRefusal(*project, registries, dir); !refusal.isEmpty())
                        return refusal;
            }
            if (choices.useHostfile)
                if (const Status s = project::checkHostfile(choices.hostfile.toStdString(), hostOptions); !s.isOk())
                    return tr("The hostfile cannot run %1 processes: %2")
                        .arg(choices.processes)
                        .arg(QString::fromStdString(s.message()));
            return {};
        },
        [this, project, dir, choices] { launchDistributed(std::move(*project), dir, choices); });
    return true;
}

void TrainingPanel::launchDistributed(project::Project p, const QString& dir, const DistributedChoices& choices)
{
    auto fail = [this](const QString& text) {
        showRunStatus(text, true);
        updateButtons();
        emit runFinished(false, text);
    };
    auto tstudio = tstudioExecutable();
    auto mpirun = project::locateMpirun(qEnvironmentVariable("PATH").toStdString());
    if (!tstudio || !mpirun)
        return fail(QString::fromStdString((!mpirun ? mpirun.error() : tstudio.error()).message()));
    // What Start would train, form applied, in a file of its own that every rank reads: its
    // relative paths rewritten to hold from the log directory.
    if (!QDir().mkpath(dir))
        return fail(tr("Cannot create the log directory %1").arg(dir));
    const QString projectFile = QDir(dir).filePath(QLatin1String(kProjectFileName));
    const std::string name = p.name;
    project::Project written = project::relocatedProject(std::move(p), projectFile.toStdString());
    written.name = name;
    written.distributed.asynchronous = choices.asynchronous;
    written.distributed.psTasks = choices.asynchronous ? choices.psTasks : 1;
    if (const Status s = project::saveProject(written, projectFile.toStdString()); !s.isOk())
        return fail(tr("Cannot write %1: %2").arg(projectFile, QString::fromStdString(s.message())));

    // The form as it was when the run was asked for (another document may be in front by now).
    const bool resume = runState().resume;
    const std::int64_t steps = written.steps;
    DistributedChoices absolute = choices;
    absolute.logdir = dir;
    const auto args = project::mpirunArguments(launchOf(absolute, *tstudio, projectFile, steps, resume));
    if (!args)
        return fail(QString::fromStdString(args.error().message()));
    QStringList arguments;
    for (const std::string& a : *args)
        arguments << QString::fromStdString(a);

    m_graph.reset();
    m_evalSettings.reset();
    m_evalFigures->clear();
    m_evalFigures->hide();
    DocumentTrainingState& state = runState();
    state.evalFigures.clear();
    state.runLogdir = dir;
    state.last = {};
    state.last.firstStep = resume ? latestCheckpointStep(dir) : 0;
    state.last.step = state.last.firstStep;
    state.last.lastStep = steps;
    state.hasProgress = false;
    state.errorNode.clear();
    m_pausedNode.clear();
    m_mpiProcesses = choices.processes;
    m_mpiStartedSignalled = false;
    m_mpi = std::make_unique<DistributedRun>(toQString(*mpirun), arguments);
    m_mpi->setStopGraceMs(m_stopGraceMs);
    connect(m_mpi.get(), &DistributedRun::output, this, [this](int rank, bool error, const QString& text) {
        const QString source = rank < 0 ? QStringLiteral("mpirun") : tr("rank %1").arg(rank);
        emit processOutput(source, rank < 0 ? text : inPanelWords(text), error);
    });
    connect(m_mpi.get(), &DistributedRun::progressed, this, [this](const project::MpiProgress& mp) {
        project::TrainProgress progress = runState().last;
        progress.step = mp.step;
        progress.lastStep = mp.lastStep;
        progress.loss = mp.loss;
        progress.accuracy = mp.accuracy;
        progress.stepsPerSecond = mp.stepsPerSecond;
        progress.seconds = m_mpi ? m_mpi->elapsedSeconds() : 0.0;
        showProgress(progress);
        const QLocale locale;
        setRunProgressFormat(tr("Step %1 of %2 on %3 processes")
                                 .arg(locale.toString(static_cast<qlonglong>(progress.step)),
                                      locale.toString(static_cast<qlonglong>(progress.lastStep)))
                                 .arg(m_mpiProcesses));
        emit progressed(progress);
        checkDistributedStarted();
    });
    connect(m_mpi.get(), &DistributedRun::finished, this, &TrainingPanel::onDistributedFinished);
    emit message(tr("Running %1 on %2 processes: %3")
                     .arg(m_title)
                     .arg(choices.processes)
                     .arg(QString::fromStdString(project::shellCommandLine(mpirun->string(), *args))));
    setRunProgressFormat(tr("Starting %1 processes…").arg(choices.processes));
    showRunStatus(tr("Running on %1 processes; rank 0 writes checkpoints and event files to %2")
                      .arg(choices.processes)
                      .arg(dir),
                  false);
    m_mpi->start();
    m_startPoll->start();
    updateButtons();
}

void TrainingPanel::checkDistributedStarted()
{
    if (!m_mpi || m_mpiStartedSignalled) {
        m_startPoll->stop();
        return;
    }
    // Rank 0's log directory is the run's own (project::rankLogDirectory(dir, 0)); the workers'
    // folders below it are runs of the same dashboard.
    const DocumentTrainingState& state = runState();
    const QDir rank0(toQString(project::rankLogDirectory(state.runLogdir.toStdString(), 0)));
    if (rank0.entryList({QStringLiteral("*tfevents*")}, QDir::Files).isEmpty() && state.last.step == state.last.firstStep)
        return;
    m_mpiStartedSignalled = true;
    m_startPoll->stop();
    emit message(tr("Training %1 on %2 processes from step %3 to %4 in %5")
                     .arg(m_runTitle)
                     .arg(m_mpiProcesses)
                     .arg(state.last.firstStep)
                     .arg(state.last.lastStep)
                     .arg(state.runLogdir));
    emit runStarted(state.runLogdir);
}

void TrainingPanel::onDistributedFinished(bool ok, int exitCode, bool stopped, const QString& startError)
{
    m_startPoll->stop();
    const std::vector<project::MpiOutputLine> tail = m_mpi->tail();
    const double seconds = m_mpi->elapsedSeconds();
    // Deleted after this signal returns: it is the sender.
    m_mpi.release()->deleteLater();
    const int n = m_mpiProcesses;
    QString text;
    bool success = ok;
    const QString runLogdir = runState().runLogdir;
    if (ok || stopped) {
        project::TrainProgress p = runState().last;
        p.seconds = seconds;
        if (ok)
            p.step = std::max(p.step, p.lastStep);
        showProgress(p);
        QString checkpoint;
        if (auto latest = latestCheckpoint(runLogdir.toStdString()))
            checkpoint = QFileInfo(toQString(*latest)).fileName();
        if (ok) {
            text = tr("Finished on %1 processes at step %2; rank 0's checkpoints and event files are in %3")
                       .arg(n)
                       .arg(p.step)
                       .arg(runLogdir);
        } else {
            text = checkpoint.isEmpty()
                       ? tr("Stopped the %1 processes at step %2; no checkpoint was saved").arg(n).arg(p.step)
                       : tr("Stopped the %1 processes at step %2; the last checkpoint is %3")
                             .arg(n)
                             .arg(p.step)
                             .arg(checkpoint);
        }
        success = true;
        showRunStatus(text, false);
        emit message(text);
    } else {
        const QString headline = !startError.isEmpty()
                                     ? tr("mpirun could not be started: %1").arg(startError)
                                     : tr("Training on %1 processes failed (mpirun exit code %2)").arg(n).arg(exitCode);
        QStringList lines;
        for (const project::MpiOutputLine& line : project::mpiFailureLines(tail, 8)) {
            const QString body =
                line.rank < 0 ? QString::fromStdString(line.text) : inPanelWords(QString::fromStdString(line.text));
            lines << (line.rank < 0 ? body : tr("rank %1: %2").arg(line.rank).arg(body));
        }
        text = lines.isEmpty() ? headline : headline + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
        QString html = QStringLiteral("<b>%1</b>").arg(headline.toHtmlEscaped());
        if (!lines.isEmpty())
            html += QStringLiteral("<pre style=\"margin-top:4px\">%1</pre>")
                        .arg(lines.join(QLatin1Char('\n')).toHtmlEscaped());
        showRunStatus(html, true, true);
        if (runState().last.step == runState().last.firstStep)
            setRunProgressFormat(tr("Not started"));
    }
    m_mpiProcesses = 0;
    retranslateUi();
    updateButtons();
    emit runFinished(success, text);
}

} // namespace tstudio::training_panel
