// TrainingPanel's widgets: the form, its sections and buttons, their signals and texts.
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

void TrainingPanel::buildUi()
{
    setObjectName(QStringLiteral("trainingPanel"));
    m_projectLabel = new QLabel(this);
    m_projectLabel->setObjectName(QStringLiteral("trainingProject"));
    QFont bold = m_projectLabel->font();
    bold.setBold(true);
    m_projectLabel->setFont(bold);

    m_deviceLabel = new QLabel(this);
    m_device = new QComboBox(this);
    m_device->addItem(QString(), QStringLiteral("cpu"));
    m_device->addItem(QString(), QStringLiteral("gpu"));
    m_stepsLabel = new QLabel(this);
    m_steps = new QSpinBox(this);
    m_steps->setObjectName(QStringLiteral("trainingSteps"));
    m_steps->setRange(1, 2000000000);
    m_steps->setGroupSeparatorShown(true);
    m_logdirLabel = new QLabel(this);
    m_logdir = new QLineEdit(this);
    m_logdir->setObjectName(QStringLiteral("trainingLogdir"));
    m_browseLogdir = new QPushButton(this);
    m_dataLabel = new QLabel(this);
    m_dataDir = new QLineEdit(this);
    m_dataDir->setObjectName(QStringLiteral("trainingDataFolder"));
    m_dataDir->setText(QSettings().value(QLatin1String(kDataDirSetting)).toString());
    m_browseData = new QPushButton(this);
    m_resume = new QCheckBox(this);
    m_warmLabel = new QLabel(this);
    m_warmFrom = new QLineEdit(this);
    m_warmFrom->setObjectName(QStringLiteral("trainingWarmStart"));
    m_warmVars = new QLineEdit(this);
    m_warmVars->setObjectName(QStringLiteral("trainingWarmStartVars"));
    m_browseWarm = new QPushButton(this);
    m_profileAt = new QCheckBox(this);
    m_profileAt->setObjectName(QStringLiteral("trainingProfileAt"));
    m_profileStep = new QSpinBox(this);
    m_profileStep->setObjectName(QStringLiteral("trainingProfileStep"));
    m_profileStep->setRange(0, 2000000000);
    m_profileStep->setValue(10);
    m_profileStep->setEnabled(false);
    connect(m_profileAt, &QCheckBox::toggled, m_profileStep, &QWidget::setEnabled);

    auto* form = new QGridLayout;
    form->addWidget(m_deviceLabel, 0, 0);
    auto* deviceRow = new QHBoxLayout;
    deviceRow->addWidget(m_device);
    deviceRow->addSpacing(12);
    deviceRow->addWidget(m_stepsLabel);
    deviceRow->addWidget(m_steps);
    deviceRow->addStretch(1);
    form->addLayout(deviceRow, 0, 1, 1, 2);
    form->addWidget(m_logdirLabel, 1, 0);
    form->addWidget(m_logdir, 1, 1);
    form->addWidget(m_browseLogdir, 1, 2);
    form->addWidget(m_dataLabel, 2, 0);
    form->addWidget(m_dataDir, 2, 1);
    form->addWidget(m_browseData, 2, 2);
    // The data folder row (its label says what it is for) only once a project needs one.
    m_dataLabel->hide();
    m_dataDir->hide();
    m_browseData->hide();
    form->addWidget(m_resume, 3, 1, 1, 2);
    // Warm start (tf.estimator.WarmStartSettings): the checkpoint, and which variables.
    form->addWidget(m_warmLabel, 4, 0);
    auto* warmRow = new QHBoxLayout;
    warmRow->addWidget(m_warmFrom, 3);
    warmRow->addWidget(m_warmVars, 1);
    form->addLayout(warmRow, 4, 1);
    form->addWidget(m_browseWarm, 4, 2);
    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profileAt);
    profileRow->addWidget(m_profileStep);
    profileRow->addStretch(1);
    form->addLayout(profileRow, 5, 1, 1, 2);
    // The folders the sources name themselves, and "Evaluate while training": both edit the
    // document's project as the fields above do.
    m_folders = new DataFoldersSection(this);
    form->addWidget(m_folders, 6, 0, 1, 3);
    m_folders->alignColumnsWith(form); // its rows' fields and Browse… under the rows above
    m_evaluation = new EvaluationSection(m_registries, this);
    form->addWidget(m_evaluation, 7, 0, 1, 3);
    connect(m_folders, &DataFoldersSection::edited, this,
            [this] { editProject([this](project::Project& p) { m_folders->applyTo(p); }); });
    connect(m_evaluation, &EvaluationSection::edited, this, [this] {
        // An unfinished form (no folder chosen yet) leaves the project as it was; Start says why.
        editProject([this](project::Project& p) { (void)m_evaluation->applyTo(p); });
    });
    form->setColumnStretch(1, 1);

    m_start = new QPushButton(this);
    m_start->setObjectName(QStringLiteral("trainingStart"));
    m_distributed = new QPushButton(this);
    m_distributed->setObjectName(QStringLiteral("trainingDistributed"));
    m_pause = new QPushButton(this);
    m_pause->setObjectName(QStringLiteral("trainingPause"));
    m_stop = new QPushButton(this);
    m_stop->setObjectName(QStringLiteral("trainingStop"));
    m_checkpoint = new QPushButton(this);
    m_checkpoint->setObjectName(QStringLiteral("trainingCheckpoint"));
    m_profile = new QPushButton(this);
    m_profile->setObjectName(QStringLiteral("trainingProfile"));
    m_debug = new QPushButton(this);
    m_debug->setObjectName(QStringLiteral("trainingDebug"));
    m_debug->setCheckable(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_distributed);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_checkpoint);
    buttons->addWidget(m_profile);
    buttons->addWidget(m_debug);
    buttons->addStretch(1);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("trainingProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_figures = new QLabel(this);
    m_figures->setObjectName(QStringLiteral("trainingFigures"));
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->hide(); // until a run has figures; an empty line would take a short dock's room
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_status->hide(); // until there is something to say (drawStatus)
    connect(m_status, &QLabel::linkActivated, this, [this](const QString&) {
        if (!shown().errorNode.isEmpty())
            emit showNodeRequested(shown().errorNode);
    });

    // Only the settings scroll (so that a short dock never forces the window taller): the project's name
    // above them and the run controls, progress and status below stay in view at any dock height, so
    // that the sections the form has grown never push Start (F5) out of sight.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("trainingSettingsScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    // Its own minimum (scroll bars' room) would keep the Console, tabbed with this dock, tall as well.
    scroll->setMinimumHeight(fontMetrics().height() * 2);
    auto* content = new QWidget(scroll);
    m_content = content;
    scroll->setWidget(content);
    auto* settings = new QVBoxLayout(content);
    settings->setContentsMargins(0, 0, 0, 0);
    settings->addLayout(form);
    settings->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_projectLabel);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    m_empty = EmptyState::cover(this, QStringLiteral("training"));
    // The latest evaluation on the figures' line, beside the loss, where a short dock still shows it.
    m_evalFigures = new QLabel(this);
    m_evalFigures->setObjectName(QStringLiteral("trainingEvalFigures"));
    m_evalFigures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_evalFigures->setStyleSheet(QStringLiteral("color: #1565c0;"));
    m_evalFigures->hide();
    auto* figures = new QHBoxLayout;
    figures->addWidget(m_figures);
    figures->addSpacing(24);
    figures->addWidget(m_evalFigures, 1);
    layout->addLayout(figures);
    layout->addWidget(m_status);

    // The status line can be long (an error with its node): it wraps instead of widening the dock.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    connectControls();
}

void TrainingPanel::connectControls()
{
    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_distributed, &QPushButton::clicked, this, &TrainingPanel::openDistributedDialog);
    m_startPoll = new QTimer(this);
    m_startPoll->setInterval(500);
    connect(m_startPoll, &QTimer::timeout, this, &TrainingPanel::checkDistributedStarted);
    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (m_run && m_run->isPaused())
            resume();
        else
            pause();
    });
    connect(m_stop, &QPushButton::clicked, this, &TrainingPanel::stop);
    connect(m_checkpoint, &QPushButton::clicked, this, &TrainingPanel::saveCheckpointNow);
    connect(m_profile, &QPushButton::clicked, this, [this] { profileNextStep(); });
    connect(m_browseLogdir, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Log Directory"), m_logdir->text());
        if (!dir.isEmpty())
            chooseLogDirectory(dir);
    });
    connect(m_browseWarm, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Warm Start From"), m_warmFrom->text());
        if (!dir.isEmpty())
            m_warmFrom->setText(dir);
    });
    connect(m_browseData, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Data Folder"), m_dataDir->text());
        if (!dir.isEmpty()) {
            m_dataDir->setText(dir);
            emit m_dataDir->textEdited(dir);
        }
    });
    // The user's edits of the form go into the document's project, so that saving it writes what
    // the panel trains (the panel filling the form is no edit).
    connect(m_steps, &QSpinBox::valueChanged, this, [this](int steps) {
        if (!m_fillingForm)
            editProject([steps](project::Project& p) { p.steps = steps; });
    });
    connect(m_device, &QComboBox::activated, this, [this] {
        const std::string device = m_device->currentData().toString().toStdString();
        editProject([device](project::Project& p) { p.device = device; });
    });
    connect(m_logdir, &QLineEdit::textEdited, this, [this](const QString& text) { chooseLogDirectory(text); });
    connect(m_dataDir, &QLineEdit::textEdited, this, [this](const QString& text) {
        const QString dir = text.trimmed();
        editProject([dir](project::Project& p) {
            if (dir.isEmpty())
                p.dataDir.reset();
            else
                p.dataDir = dir.toStdString();
        });
    });

    if (probeGpus().devices.empty()) {
        // Kept in the list, disabled, so that the choice exists and says why it is not available
        // (retranslateUi sets the tooltip).
        if (auto* model = qobject_cast<QStandardItemModel*>(m_device->model()))
            if (QStandardItem* item = model->item(1))
                item->setEnabled(false);
    }
}

QSize TrainingPanel::sizeHint() const
{
    // The settings unscrolled: the scroll area's own hint is a guess bounded by the font, not its content.
    QSize hint = QWidget::sizeHint();
    if (const auto* scroll = findChild<QScrollArea*>(QStringLiteral("trainingSettingsScroll")); scroll && m_content) {
        hint.rheight() += m_content->sizeHint().height() - scroll->sizeHint().height();
        hint.setWidth(qMax(hint.width(), m_content->sizeHint().width()));
    }
    return hint;
}

void TrainingPanel::retranslateUi()
{
    m_deviceLabel->setText(tr("Device:"));
    m_device->setItemText(0, tr("CPU"));
    m_device->setItemText(1, tr("GPU"));
    if (const GpuProbeReport gpus = probeGpus(); !gpus.brokenReason.empty())
        m_device->setItemData(1, tr("GPU present but unusable: %1").arg(QString::fromStdString(gpus.brokenReason)),
                              Qt::ToolTipRole);
    else if (gpus.devices.empty())
        m_device->setItemData(1, QString::fromStdString(gpus.unavailableReason), Qt::ToolTipRole);
    m_stepsLabel->setText(tr("Train to step:"));
    m_logdirLabel->setText(tr("Log directory:"));
    m_logdir->setPlaceholderText(tr("Where checkpoints and event files go"));
    m_browseLogdir->setText(tr("Browse…"));
    m_browseData->setText(tr("Browse…"));
    if (m_source && !isRunning() && !m_dataDir->isHidden())
        if (auto p = m_source())
            refreshDataField(*p); // the field's label and what it must hold, in the new language
    m_resume->setText(tr("Continue from the latest checkpoint in the log directory"));
    m_warmLabel->setText(tr("Warm start:"));
    m_warmFrom->setPlaceholderText(tr("Initialise variables from this checkpoint or log directory (empty: none)"));
    m_warmFrom->setToolTip(tr("As tf.estimator.WarmStartSettings: when the run starts without a checkpoint of its own, "
                              "the trainable variables chosen at the right are read from this checkpoint "
                              "(a prefix such as model.ckpt-100, or a folder: its latest)"));
    m_warmVars->setPlaceholderText(tr("Variables: .*"));
    m_warmVars->setToolTip(tr("A regular expression matched from the start of each trainable variable's name "
                              "(vars_to_warm_start); empty: all of them"));
    m_browseWarm->setText(tr("Browse…"));
    m_profileAt->setText(tr("Profile step"));
    m_profileAt->setToolTip(tr("Trace this global step (FULL_TRACE) while the run goes and open it in the profiler"));
    m_start->setText(tr("Start"));
    m_start->setToolTip(tr("Train the project with the built-in runner (F5 in the node editor)"));
    retranslateDistributedButton();
    m_pause->setText(m_run && m_run->isPaused() ? tr("Resume") : tr("Pause"));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop after the current step; a final checkpoint is saved"));
    m_checkpoint->setText(tr("Save checkpoint now"));
    m_profile->setText(tr("Profile"));
    m_profile->setToolTip(tr("Trace the next step (FULL_TRACE) and open it in the profiler: timeline and op tables. "
                             "After a run: train two more steps from its last checkpoint and trace the second (the first "
                             "step of a new session pays one-time costs)"));
    m_debug->setText(tr("Debug"));
    m_debug->setToolTip(tr("Attach the debugger to the next run: breakpoints, stepping through ops and every "
                           "tensor, in the Debugger tab"));
    m_empty->setVisible(!m_source);
    m_empty->setTitle(tr("No project to train"));
    m_empty->setText(tr("Open a .tsproj project, or compose a network in the node editor (File ▸ New Graph): this "
                        "panel trains the graph of the editor tab in front."));
    m_projectLabel->setText(m_title.isEmpty() ? tr("No project: open a .tsproj or a graph in the node editor")
                                              : tr("Project: %1").arg(m_title));
    if (!m_run && m_figures->text().isEmpty())
        m_progress->setFormat(tr("Not started"));
}

void TrainingPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::training_panel
