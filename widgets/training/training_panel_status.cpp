// TrainingPanel's status: the status line, the progress bar and its text, the latest evaluation,
// the buttons' states and the debugger's pause.
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

/// A duration as h:mm:ss or m:ss ("–" for none).
QString duration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("–");
    const auto total = static_cast<long long>(std::llround(seconds));
    const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
    return h > 0 ? QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'))
                 : QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

} // namespace

void TrainingPanel::showDebuggerPause(const QString& node)
{
    if (!m_run || !m_run->isRunning())
        return;
    m_pausedNode = node;
    if (node.isEmpty())
        showRunStatus(tr("Training; checkpoints and event files go to %1").arg(runState().runLogdir), false);
    else
        showRunStatus(tr("Paused at %1 (step %2): step, continue or stop in the Debugger tab")
                          .arg(node)
                          .arg(runState().last.step + 1),
                      false);
}

QString TrainingPanel::statusText() const
{
    return m_status->text();
}

void TrainingPanel::showStatus(const QString& text, bool error, bool html)
{
    DocumentTrainingState& state = shown();
    state.status = text;
    state.statusIsError = error;
    state.statusHtml = html;
    state.statusFromSource = false;
    drawStatus(state);
}

void TrainingPanel::showRunStatus(const QString& text, bool error, bool html)
{
    DocumentTrainingState& state = runState();
    state.status = text;
    state.statusIsError = error;
    state.statusHtml = html;
    state.statusFromSource = false;
    if (runShown())
        drawStatus(state);
}

void TrainingPanel::drawStatus(const DocumentTrainingState& state)
{
    m_status->setStyleSheet(state.statusIsError ? QStringLiteral("color: #c62828;") : QString());
    m_status->setTextFormat(state.statusHtml ? Qt::RichText : Qt::PlainText);
    m_status->setText(state.status);
    m_status->setVisible(!state.status.isEmpty()); // no blank line below the controls of a short dock
}

void TrainingPanel::setRunProgressFormat(const QString& format)
{
    DocumentTrainingState& state = runState();
    state.progressFormat = format;
    if (runShown())
        drawProgress(state);
}

void TrainingPanel::showProgress(const project::TrainProgress& progress)
{
    DocumentTrainingState& state = runState();
    state.last = progress;
    state.hasProgress = true;
    state.progressFormat.clear();
    if (runShown())
        drawProgress(state);
}

void TrainingPanel::drawProgress(const DocumentTrainingState& state)
{
    if (!state.hasProgress) {
        m_progress->setValue(0);
        m_progress->setFormat(state.progressFormat.isEmpty() ? tr("Not started") : state.progressFormat);
        m_figures->clear();
        m_figures->hide();
        return;
    }
    const project::TrainProgress& p = state.last;
    const std::int64_t span = std::max<std::int64_t>(p.lastStep - p.firstStep, 1);
    m_progress->setValue(static_cast<int>(1000.0 * static_cast<double>(p.step - p.firstStep) / static_cast<double>(span)));
    const QLocale locale;
    m_progress->setFormat(tr("Step %1 of %2").arg(locale.toString(static_cast<qlonglong>(p.step)),
                                                  locale.toString(static_cast<qlonglong>(p.lastStep))));
    QStringList parts;
    if (p.stepsPerSecond > 0) {
        parts << tr("%1 steps/s").arg(locale.toString(p.stepsPerSecond, 'f', p.stepsPerSecond < 10 ? 1 : 0));
        parts << tr("ETA %1").arg(duration(static_cast<double>(p.lastStep - p.step) / p.stepsPerSecond));
    }
    if (p.adaptingThreads && p.intraOpThreads > 0)
        parts << tr("intra-op threads: %1 (automatic)").arg(p.intraOpThreads);
    parts << tr("elapsed %1").arg(duration(p.seconds));
    if (p.loss)
        parts << tr("loss %1").arg(locale.toString(*p.loss, 'g', 5));
    if (p.accuracy)
        parts << tr("accuracy %1").arg(locale.toString(*p.accuracy, 'g', 4));
    m_figures->setText(parts.join(QStringLiteral("  ·  ")));
    m_figures->show();
    if (!state.progressFormat.isEmpty())
        m_progress->setFormat(state.progressFormat);
}

void TrainingPanel::showEvaluation(const project::EvalResult& result)
{
    const QLocale locale;
    QStringList parts;
    for (const auto& [name, value] : result.metrics)
        parts << tr("%1 %2").arg(QString::fromStdString(name), locale.toString(value, 'g', 4));
    QString text = tr("Eval at step %1: %2")
                       .arg(locale.toString(static_cast<qlonglong>(result.step)), parts.join(QStringLiteral("  ·  ")));
    if (m_evalSettings && m_evalSettings->best) {
        const std::string metric = m_evalSettings->best->metric;
        auto value = result.metric(metric);
        if (value && (!m_bestEval || project::evalImproves(project::evalMetricMode(*m_evalSettings, metric,
                                                                                    m_evalSettings->best->mode),
                                                           *value, m_bestEval->second))) {
            m_bestEval = std::make_pair(result.step, *value);
        }
        if (m_bestEval)
            text += QStringLiteral("  ·  ") +
                    tr("best %1 %2 at step %3")
                        .arg(QString::fromStdString(metric), locale.toString(m_bestEval->second, 'g', 4),
                             locale.toString(static_cast<qlonglong>(m_bestEval->first)));
    }
    runState().evalFigures = text;
    if (runShown()) {
        m_evalFigures->setText(text);
        m_evalFigures->show();
    }
    emit evaluated(result);
}

void TrainingPanel::updateButtons()
{
    const bool running = isRunning();
    // This document's run: its controls. Another document's run leaves this form editable and
    // Start enabled (pressing it says which run is going).
    const bool runningHere = running && runShown();
    // Under mpirun the ranks are other processes: Stop ends them; pausing, saving and tracing are
    // the in-process runner's.
    const bool inProcess = m_run && m_run->isRunning() && runShown();
    m_start->setEnabled(!runningHere && m_source != nullptr);
    m_distributed->setEnabled(!running && m_source != nullptr);
    m_pause->setEnabled(inProcess);
    m_stop->setEnabled(inProcess || (runningHere && m_mpi && m_mpi->isRunning() && !m_mpi->stopRequested()));
    m_checkpoint->setEnabled(inProcess);
    // Running: trace the next step. Stopped: two more steps from the last run's checkpoint, the second traced.
    m_profile->setEnabled(inProcess || (!running && m_source != nullptr && !shown().runLogdir.isEmpty()));
    m_debug->setEnabled(!runningHere);
    for (QWidget* w : std::initializer_list<QWidget*>{m_device, m_steps, m_logdir, m_browseLogdir, m_dataDir, m_browseData,
                                                      m_resume, m_warmFrom, m_warmVars, m_browseWarm, m_profileAt})
        w->setEnabled(!runningHere);
    m_profileStep->setEnabled(!runningHere && m_profileAt->isChecked());
    m_folders->setEnabled(!runningHere);
    m_evaluation->setEnabled(!runningHere);
}

} // namespace tstudio::training_panel
