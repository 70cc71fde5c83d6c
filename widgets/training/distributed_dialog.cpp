// The "Run on N processes…" dialog of the Training panel.
#include "training/distributed_dialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::training_panel {
namespace {

constexpr char kProcessesKey[] = "training/distributed/processes";
constexpr char kHostsKey[] = "training/distributed/hosts";
constexpr char kHostfileKey[] = "training/distributed/hostfile";
constexpr char kScaleKey[] = "training/distributed/scaleLearningRate";
constexpr int kMaxProcesses = 4096;

} // namespace

DistributedChoices DistributedChoices::load(const QSettings& settings)
{
    DistributedChoices c;
    c.processes = std::clamp(settings.value(QLatin1String(kProcessesKey), 2).toInt(), 1, kMaxProcesses);
    c.useHostfile = settings.value(QLatin1String(kHostsKey)).toString() == QLatin1String("hostfile");
    c.hostfile = settings.value(QLatin1String(kHostfileKey)).toString();
    c.scaleLearningRate = settings.value(QLatin1String(kScaleKey), false).toBool();
    return c;
}

void DistributedChoices::save(QSettings& settings) const
{
    settings.setValue(QLatin1String(kProcessesKey), processes);
    settings.setValue(QLatin1String(kHostsKey), useHostfile ? QStringLiteral("hostfile") : QStringLiteral("local"));
    settings.setValue(QLatin1String(kHostfileKey), hostfile);
    settings.setValue(QLatin1String(kScaleKey), scaleLearningRate);
}

DistributedDialog::DistributedDialog(const DistributedChoices& initial,
                                     std::function<DistributedPreview(const DistributedChoices&)> preview,
                                     QWidget* parent)
    : QDialog(parent), m_preview(std::move(preview))
{
    buildUi();
    setChoices(initial);
    retranslateUi();
    refresh();
}

void DistributedDialog::buildUi()
{
    setObjectName(QStringLiteral("distributedDialog"));
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_processesLabel = new QLabel(this);
    m_processes = new QSpinBox(this);
    m_processes->setObjectName(QStringLiteral("distributedProcesses"));
    m_processes->setRange(1, kMaxProcesses);
    m_processes->setMinimumWidth(m_processes->fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 40);
    m_whereLabel = new QLabel(this);
    m_local = new QRadioButton(this);
    m_local->setObjectName(QStringLiteral("distributedThisMachine"));
    m_useHostfile = new QRadioButton(this);
    m_useHostfile->setObjectName(QStringLiteral("distributedUseHostfile"));
    auto* group = new QButtonGroup(this);
    group->addButton(m_local);
    group->addButton(m_useHostfile);
    m_hostfile = new QLineEdit(this);
    m_hostfile->setObjectName(QStringLiteral("distributedHostfile"));
    m_browseHostfile = new QPushButton(this);
    m_scale = new QCheckBox(this);
    m_scale->setObjectName(QStringLiteral("distributedScaleLr"));
    m_replicationLabel = new QLabel(this);
    m_replication = new QComboBox(this);
    m_replication->setObjectName(QStringLiteral("distributedReplication"));
    m_replication->addItem(QString(), false);
    m_replication->addItem(QString(), true);
    m_psTasksLabel = new QLabel(this);
    m_psTasks = new QSpinBox(this);
    m_psTasks->setObjectName(QStringLiteral("distributedPsTasks"));
    m_psTasks->setRange(1, kMaxProcesses - 1);
    m_psTasks->setMinimumWidth(m_processes->minimumWidth());
    m_logdirLabel = new QLabel(this);
    m_logdir = new QLineEdit(this);
    m_logdir->setObjectName(QStringLiteral("distributedLogdir"));
    m_browseLogdir = new QPushButton(this);
    m_previewLabel = new QLabel(this);
    m_previewText = new QPlainTextEdit(this);
    m_previewText->setObjectName(QStringLiteral("distributedPreview"));
    m_previewText->setReadOnly(true);
    m_previewText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_previewText->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_previewText->setFixedHeight(m_previewText->fontMetrics().lineSpacing() * 5 + 12);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("distributedProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* form = new QGridLayout;
    form->addWidget(m_processesLabel, 0, 0);
    auto* processesRow = new QHBoxLayout;
    processesRow->addWidget(m_processes);
    processesRow->addStretch(1);
    form->addLayout(processesRow, 0, 1, 1, 2);
    form->addWidget(m_whereLabel, 1, 0);
    form->addWidget(m_local, 1, 1, 1, 2);
    form->addWidget(m_useHostfile, 2, 1, 1, 2);
    auto* hostfileRow = new QHBoxLayout;
    hostfileRow->addSpacing(24);
    hostfileRow->addWidget(m_hostfile, 1);
    form->addLayout(hostfileRow, 3, 1);
    form->addWidget(m_browseHostfile, 3, 2);
    form->addWidget(m_replicationLabel, 4, 0);
    form->addWidget(m_replication, 4, 1, 1, 2);
    form->addWidget(m_psTasksLabel, 5, 0);
    auto* psRow = new QHBoxLayout;
    psRow->addWidget(m_psTasks);
    psRow->addStretch(1);
    form->addLayout(psRow, 5, 1, 1, 2);
    form->addWidget(m_scale, 6, 1, 1, 2);
    form->addWidget(m_logdirLabel, 7, 0);
    form->addWidget(m_logdir, 7, 1);
    form->addWidget(m_browseLogdir, 7, 2);
    form->setColumnStretch(1, 1);

    auto* buttons = new QDialogButtonBox(this);
    m_run = buttons->addButton(QString(), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("distributedRun"));
    m_run->setDefault(true);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addSpacing(4);
    layout->addLayout(form);
    layout->addSpacing(4);
    layout->addWidget(m_previewLabel);
    layout->addWidget(m_previewText);
    layout->addWidget(m_problem);
    layout->addWidget(m_note);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(600);

    connect(m_processes, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(m_local, &QRadioButton::toggled, this, [this] { refresh(); });
    connect(m_hostfile, &QLineEdit::textChanged, this, [this] { refresh(); });
    connect(m_scale, &QCheckBox::toggled, this, [this] { refresh(); });
    connect(m_replication, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_psTasks, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(m_logdir, &QLineEdit::textChanged, this, [this] { refresh(); });
    connect(m_browseHostfile, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Open MPI Hostfile"), m_hostfile->text());
        if (!file.isEmpty()) {
            m_hostfile->setText(file);
            m_useHostfile->setChecked(true);
        }
    });
    connect(m_browseLogdir, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Log Directory"), m_logdir->text());
        if (!dir.isEmpty())
            m_logdir->setText(dir);
    });
}

void DistributedDialog::retranslateUi()
{
    setWindowTitle(tr("Run on Several Processes"));
    m_intro->setText(tr("Trains the project with Open MPI: every process trains on its own batches of the "
                        "project's batch size, their gradients averaged at each step (synchronous) or applied by "
                        "parameter servers as they come (asynchronous). Rank 0 writes the checkpoints and event "
                        "files, and the dashboard follows them."));
    m_processesLabel->setText(tr("Processes:"));
    m_processes->setToolTip(tr("The number of ranks (mpirun -np)"));
    m_whereLabel->setText(tr("Where:"));
    m_local->setText(tr("This machine (more processes than cores allowed)"));
    m_useHostfile->setText(tr("The hosts of an Open MPI hostfile:"));
    m_hostfile->setPlaceholderText(tr("A file of lines \"host slots=N\""));
    m_browseHostfile->setText(tr("Browse…"));
    m_replicationLabel->setText(tr("Replication:"));
    m_replication->setItemText(0, tr("Synchronous: gradients averaged at each step (Horovod)"));
    m_replication->setItemText(1, tr("Asynchronous: parameter servers; workers do not wait"));
    m_replication->setToolTip(tr("The project's distributed.replication. Asynchronous is TensorFlow's between-graph "
                                 "replication: the last processes hold the variables and apply each worker's "
                                 "gradients as they come; the staleness of each update is logged"));
    m_psTasksLabel->setText(tr("Parameter servers:"));
    m_psTasks->setToolTip(tr("How many of the processes hold the variables (the project's distributed.ps_tasks); "
                             "the others are workers"));
    m_scale->setText(tr("Scale the learning rate by the number of processes"));
    m_scale->setToolTip(tr("The effective batch is N times the project's batch size; a learning rate N times larger "
                           "often keeps the same progress per example (--scale-lr)"));
    m_logdirLabel->setText(tr("Log directory:"));
    m_logdir->setPlaceholderText(tr("Where rank 0 writes checkpoints and event files"));
    m_browseLogdir->setText(tr("Browse…"));
    m_previewLabel->setText(tr("Command line:"));
    m_note->setText(
        tr("Ranks 1 and up write their event files to worker_1, worker_2, … in the log directory. With a "
           "hostfile, tstudio, the project and the log directory must be at the same paths on every host."));
    m_run->setText(tr("Run"));
}

void DistributedDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        refresh();
    }
    QDialog::changeEvent(event);
}

DistributedChoices DistributedDialog::choices() const
{
    DistributedChoices c;
    c.processes = m_processes->value();
    c.useHostfile = m_useHostfile->isChecked();
    c.hostfile = m_hostfile->text().trimmed();
    c.scaleLearningRate = m_scale->isChecked();
    c.logdir = m_logdir->text().trimmed();
    c.asynchronous = m_replication->currentData().toBool();
    c.psTasks = m_psTasks->value();
    return c;
}

void DistributedDialog::setChoices(const DistributedChoices& c)
{
    m_processes->setValue(c.processes);
    (c.useHostfile ? m_useHostfile : m_local)->setChecked(true);
    m_hostfile->setText(c.hostfile);
    m_scale->setChecked(c.scaleLearningRate);
    m_logdir->setText(c.logdir);
    m_replication->setCurrentIndex(c.asynchronous ? 1 : 0);
    m_psTasks->setValue(c.psTasks);
    refresh();
}

QString DistributedDialog::previewText() const
{
    return m_previewText->toPlainText();
}

QString DistributedDialog::problemText() const
{
    return m_problem->text();
}

void DistributedDialog::refresh()
{
    if (!m_run)
        return;
    m_hostfile->setEnabled(m_useHostfile->isChecked());
    m_browseHostfile->setEnabled(true);
    const bool asynchronous = m_replication->currentData().toBool();
    m_psTasks->setEnabled(asynchronous);
    m_psTasksLabel->setEnabled(asynchronous);
    // Horovod's advice: an asynchronous step is one worker's batch.
    m_scale->setEnabled(!asynchronous);
    const DistributedPreview preview = m_preview ? m_preview(choices()) : DistributedPreview{};
    m_previewText->setPlainText(preview.commandLine);
    m_problem->setText(preview.problem);
    m_problem->setVisible(!preview.problem.isEmpty());
    m_run->setEnabled(preview.problem.isEmpty());
}

} // namespace tstudio::training_panel
