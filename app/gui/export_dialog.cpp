// ExportDialog: the fields of an export, the graph's placeholders and tensors to choose from, and
// project::exportProject run on a worker with its outcome shown in the dialog.
#include "export_dialog.h"

#include "common/background_run.h"
#include "registries/default_registries.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <filesystem>

namespace tstudio {
namespace {

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

/// A line edit with a "Browse…" button beside it.
QWidget* withBrowse(QLineEdit* edit, QPushButton* button)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(button);
    return row;
}

} // namespace

ExportDialog::ExportDialog(const Registries* registries, project::Project project, QWidget* parent)
    : QDialog(parent), m_registries(registries), m_project(std::move(project))
{
    buildUi();
    fillChoices();
    retranslateUi();
}

ExportDialog::~ExportDialog()
{
    // The worker reads the registries and the project: wait for it.
    if (m_watcher)
        m_watcher->waitForFinished();
}

void ExportDialog::buildUi()
{
    setObjectName(QStringLiteral("exportDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    m_checkpoint = new QLineEdit(this);
    m_checkpoint->setObjectName(QStringLiteral("checkpoint"));
    auto* browseCheckpoint = new QPushButton(tr("Browse…"), this);
    connect(browseCheckpoint, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose a Checkpoint"),
                                                          fromStd(m_project.resolve(m_project.logdir).string()),
                                                          tr("Checkpoint index (*.index);;All files (*)"));
        if (!file.isEmpty())
            m_checkpoint->setText(file.endsWith(QStringLiteral(".index")) ? file.chopped(6) : file);
    });
    form->addRow(tr("Checkpoint:"), withBrowse(m_checkpoint, browseCheckpoint));

    auto* outputsBox = new QWidget(this);
    auto* outputsLayout = new QVBoxLayout(outputsBox);
    outputsLayout->setContentsMargins(0, 0, 0, 0);
    m_outputFilter = new QLineEdit(this);
    m_outputFilter->setObjectName(QStringLiteral("outputFilter"));
    m_outputFilter->setClearButtonEnabled(true);
    m_outputs = new QListWidget(this);
    m_outputs->setObjectName(QStringLiteral("outputs"));
    m_outputs->setMinimumHeight(200);
    outputsLayout->addWidget(m_outputFilter);
    outputsLayout->addWidget(m_outputs);
    connect(m_outputFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (int i = 0; i < m_outputs->count(); ++i) {
            QListWidgetItem* item = m_outputs->item(i);
            item->setHidden(item->checkState() != Qt::Checked && !item->text().contains(text, Qt::CaseInsensitive));
        }
    });
    connect(m_outputs, &QListWidget::itemChanged, this, [this] {
        if (!m_filling && !m_inputsEdited)
            applyDefaultInputs();
    });
    form->addRow(tr("Outputs:"), outputsBox);

    m_inputs = new QListWidget(this);
    m_inputs->setObjectName(QStringLiteral("inputs"));
    // A few placeholders at most: the room goes to the outputs' list.
    m_inputs->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    m_inputs->setMaximumHeight(96);
    connect(m_inputs, &QListWidget::itemChanged, this, [this] {
        if (!m_filling)
            m_inputsEdited = true;
    });
    form->addRow(tr("Inputs:"), m_inputs);

    m_writeSavedModel = new QCheckBox(tr("SavedModel directory:"), this);
    m_writeSavedModel->setObjectName(QStringLiteral("writeSavedModel"));
    m_savedModelDir = new QLineEdit(this);
    m_savedModelDir->setObjectName(QStringLiteral("savedModelDir"));
    auto* browseDir = new QPushButton(tr("Browse…"), this);
    connect(browseDir, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose the Folder for the SavedModel"));
        if (!dir.isEmpty())
            m_savedModelDir->setText(QDir(dir).filePath(QStringLiteral("saved_model")));
    });
    form->addRow(m_writeSavedModel, withBrowse(m_savedModelDir, browseDir));

    m_writeFrozen = new QCheckBox(tr("Frozen graph (.pb):"), this);
    m_writeFrozen->setObjectName(QStringLiteral("writeFrozen"));
    m_frozenPath = new QLineEdit(this);
    m_frozenPath->setObjectName(QStringLiteral("frozenPath"));
    auto* browseFile = new QPushButton(tr("Browse…"), this);
    connect(browseFile, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Save the Frozen Graph"), m_frozenPath->text(),
                                                          tr("Binary GraphDef (*.pb)"));
        if (!file.isEmpty())
            m_frozenPath->setText(file);
    });
    form->addRow(m_writeFrozen, withBrowse(m_frozenPath, browseFile));
    connect(m_writeSavedModel, &QCheckBox::toggled, m_savedModelDir, &QWidget::setEnabled);
    connect(m_writeFrozen, &QCheckBox::toggled, m_frozenPath, &QWidget::setEnabled);

    m_movingAverage = new QCheckBox(tr("Use the moving averages of the weights (ExponentialMovingAverage)"), this);
    m_movingAverage->setObjectName(QStringLiteral("movingAverage"));
    form->addRow(QString(), m_movingAverage);
    layout->addLayout(form);

    auto* note = new QLabel(tr("Both are written in evaluation mode: the learning phase (batch normalisation, dropout) "
                               "is the constant false. Nothing in the log directory is changed."),
                            this);
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(note);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    layout->addWidget(m_message);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* exportButton = m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    exportButton->setObjectName(QStringLiteral("exportButton"));
    exportButton->setDefault(true);
    connect(exportButton, &QPushButton::clicked, this, &ExportDialog::startExport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    resize(760, 640);
}

void ExportDialog::retranslateUi()
{
    setWindowTitle(tr("Export %1").arg(m_project.name.empty() ? tr("Project") : fromStd(m_project.name)));
    m_checkpoint->setPlaceholderText(
        tr("Latest checkpoint of %1").arg(fromStd(m_project.resolve(m_project.logdir).lexically_normal().string())));
    m_outputFilter->setPlaceholderText(tr("Filter the graph's tensors"));
}

void ExportDialog::fillChoices()
{
    m_filling = true;
    const project::ExportOptions defaults = project::exportOptionsOf(m_project);
    const std::filesystem::path base =
        m_project.location.empty() ? std::filesystem::current_path() : m_project.location.parent_path();
    const std::string stem = m_project.location.empty() ? std::string("model") : m_project.location.stem().string();
    m_savedModelDir->setText(fromStd((defaults.savedModelDir.empty() ? base / "export" / (stem + "_saved_model")
                                                                     : defaults.savedModelDir)
                                         .lexically_normal()
                                         .string()));
    m_frozenPath->setText(fromStd(
        (defaults.frozenGraphPath.empty() ? base / "export" / (stem + "_frozen.pb") : defaults.frozenGraphPath)
            .lexically_normal()
            .string()));
    const bool anyPath = !defaults.savedModelDir.empty() || !defaults.frozenGraphPath.empty();
    m_writeSavedModel->setChecked(!anyPath || !defaults.savedModelDir.empty());
    m_writeFrozen->setChecked(!anyPath || !defaults.frozenGraphPath.empty());
    m_savedModelDir->setEnabled(m_writeSavedModel->isChecked());
    m_frozenPath->setEnabled(m_writeFrozen->isChecked());
    m_movingAverage->setChecked(defaults.movingAverage);

    auto candidates = m_registries ? project::exportCandidates(m_project, m_registries->ops)
                                   : Expected<project::ExportCandidates>(unexpected(internalError("no registries")));
    if (!candidates) {
        m_filling = false;
        showMessage(tr("Cannot read the project's graph: %1").arg(fromStd(candidates.error().message())), true);
        m_buttons->buttons().constFirst()->setEnabled(false);
        return;
    }
    m_candidates = std::move(*candidates);
    for (const auto& tensor : m_candidates->tensors) {
        auto* item = new QListWidgetItem(
            tensor.type.empty() ? tr("%1 — %2").arg(fromStd(tensor.name), fromStd(tensor.op))
                                : tr("%1 — %2, %3").arg(fromStd(tensor.name), fromStd(tensor.op), fromStd(tensor.type)),
            m_outputs);
        item->setData(Qt::UserRole, fromStd(tensor.name));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Unchecked);
    }
    for (const std::string& name : m_candidates->placeholders) {
        auto* item = new QListWidgetItem(m_candidates->fed.contains(name)
                                             ? tr("%1 (fed by a data source)").arg(fromStd(name))
                                             : fromStd(name),
                                         m_inputs);
        item->setData(Qt::UserRole, fromStd(name));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Unchecked);
    }
    m_filling = false;
    QStringList outputs;
    for (const std::string& o : defaults.outputs)
        outputs << fromStd(o);
    setOutputs(outputs);
    if (defaults.inputs) {
        QStringList inputs;
        for (const std::string& i : *defaults.inputs)
            inputs << fromStd(i);
        setInputs(inputs);
    }
}

QStringList ExportDialog::checkedNames(const QListWidget* list) const
{
    QStringList names;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            names << list->item(i)->data(Qt::UserRole).toString();
    return names;
}

void ExportDialog::applyDefaultInputs()
{
    if (!m_candidates)
        return;
    std::vector<std::string> outputs;
    for (const QString& o : checkedNames(m_outputs))
        outputs.push_back(o.toStdString());
    const auto defaults = project::defaultExportInputs(m_project, m_candidates->graph, outputs);
    m_filling = true;
    for (int i = 0; i < m_inputs->count(); ++i) {
        QListWidgetItem* item = m_inputs->item(i);
        const std::string name = item->data(Qt::UserRole).toString().toStdString();
        item->setCheckState(std::find(defaults.begin(), defaults.end(), name) != defaults.end() ? Qt::Checked
                                                                                                : Qt::Unchecked);
    }
    m_filling = false;
}

void ExportDialog::setOutputs(const QStringList& tensors)
{
    m_filling = true;
    QStringList wanted;
    for (const QString& t : tensors)
        wanted << (t.contains(QLatin1Char(':')) ? t : t + QStringLiteral(":0"));
    for (int i = 0; i < m_outputs->count(); ++i) {
        QListWidgetItem* item = m_outputs->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        item->setCheckState(wanted.contains(name) ? Qt::Checked : Qt::Unchecked);
        wanted.removeAll(name);
    }
    for (const QString& name : wanted) { // not offered (e.g. a name that is not in the graph): kept, to be reported
        auto* item = new QListWidgetItem(name, m_outputs);
        item->setData(Qt::UserRole, name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Checked);
    }
    m_filling = false;
    if (!m_inputsEdited)
        applyDefaultInputs();
    // Checked outputs first, so that the choice is visible without scrolling.
    for (int i = 0; i < m_outputs->count(); ++i)
        if (m_outputs->item(i)->checkState() == Qt::Checked) {
            m_outputs->scrollToItem(m_outputs->item(i), QAbstractItemView::PositionAtTop);
            break;
        }
}

void ExportDialog::setInputs(const QStringList& placeholders)
{
    m_filling = true;
    for (int i = 0; i < m_inputs->count(); ++i) {
        QListWidgetItem* item = m_inputs->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        item->setCheckState(placeholders.contains(name) || placeholders.contains(name + QStringLiteral(":0"))
                                ? Qt::Checked
                                : Qt::Unchecked);
    }
    m_filling = false;
    m_inputsEdited = true;
}

void ExportDialog::setSavedModelDir(const QString& dir)
{
    m_writeSavedModel->setChecked(!dir.isEmpty());
    if (!dir.isEmpty())
        m_savedModelDir->setText(dir);
}

void ExportDialog::setFrozenGraphPath(const QString& path)
{
    m_writeFrozen->setChecked(!path.isEmpty());
    if (!path.isEmpty())
        m_frozenPath->setText(path);
}

void ExportDialog::setMovingAverage(bool on)
{
    m_movingAverage->setChecked(on);
}

void ExportDialog::setCheckpoint(const QString& checkpoint)
{
    m_checkpoint->setText(checkpoint);
}

project::ExportOptions ExportDialog::options() const
{
    project::ExportOptions options;
    options.checkpoint = m_checkpoint->text().trimmed().toStdString();
    for (const QString& o : checkedNames(m_outputs))
        options.outputs.push_back(o.toStdString());
    // Unless edited by hand the inputs are the defaults, which exportProject computes itself.
    if (m_inputsEdited) {
        options.inputs.emplace();
        for (const QString& i : checkedNames(m_inputs))
            options.inputs->push_back(i.toStdString());
    }
    if (m_writeSavedModel->isChecked())
        options.savedModelDir = m_savedModelDir->text().trimmed().toStdString();
    if (m_writeFrozen->isChecked())
        options.frozenGraphPath = m_frozenPath->text().trimmed().toStdString();
    options.movingAverage = m_movingAverage->isChecked();
    return options;
}

void ExportDialog::startExport()
{
    if (m_watcher || !m_registries)
        return;
    project::ExportOptions options = this->options();
    m_buttons->setEnabled(false);
    showMessage(tr("Exporting…"), false);
    m_watcher = new QFutureWatcher<Expected<project::ExportResult>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        const Expected<project::ExportResult> result = m_watcher->result();
        m_watcher->deleteLater();
        m_watcher = nullptr;
        m_buttons->setEnabled(true);
        finishExport(result);
    });
    m_watcher->setFuture(runInBackground([registries = m_registries, project = m_project, options] {
        return project::exportProject(project, *registries, options);
    }));
}

void ExportDialog::finishExport(const Expected<project::ExportResult>& result)
{
    if (!result) {
        m_lastStatus = result.error();
        showMessage(tr("Export failed: %1").arg(fromStd(result.error().message())), true);
        return;
    }
    m_lastStatus = Status::ok();
    QStringList lines;
    lines << tr("Exported from %1.").arg(fromStd(result->checkpoint));
    if (!result->savedModelDir.empty())
        lines << tr("SavedModel: %1 (signature serving_default)").arg(fromStd(result->savedModelDir.string()));
    if (!result->frozenGraphPath.empty())
        lines << tr("Frozen graph: %1").arg(fromStd(result->frozenGraphPath.string()));
    if (m_movingAverage->isChecked())
        lines << tr("%n variable(s) from their moving average.", nullptr, static_cast<int>(result->averaged.size()));
    showMessage(lines.join(QLatin1Char('\n')), false);
    emit exported(fromStd(result->savedModelDir.string()), fromStd(result->frozenGraphPath.string()));
}

Status ExportDialog::exportNow()
{
    startExport();
    if (m_watcher) {
        QEventLoop loop;
        connect(m_watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit, Qt::QueuedConnection);
        loop.exec();
    }
    return m_lastStatus;
}

void ExportDialog::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    m_message->show();
}

QString ExportDialog::messageText() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

} // namespace tstudio
