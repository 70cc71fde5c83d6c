// ExportDialog: File ▸ Export… for the current project: a checkpoint, the inputs and outputs, a
// SavedModel directory and/or a frozen .pb, moving averages; runs project::exportProject on a worker.
#pragma once

#include "project/export/project_export.h"
#include "project/format/project_file.h"

#include <QDialog>
#include <QFutureWatcher>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace tstudio {

struct Registries;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `registries` must outlive the dialog. The project is copied; its graph is read at once (an
    /// error there is shown in the dialog, which then cannot export).
    ExportDialog(const Registries* registries, project::Project project, QWidget* parent = nullptr);
    ~ExportDialog() override;

    /// The options the fields describe now.
    project::ExportOptions options() const;
    /// Checks exactly these outputs (tensor names) and, unless the inputs were edited by hand, the
    /// default inputs for them. Names not offered are added to the list.
    void setOutputs(const QStringList& tensors);
    /// Checks exactly these placeholders as inputs (marks the inputs as edited by hand).
    void setInputs(const QStringList& placeholders);
    void setSavedModelDir(const QString& dir);
    void setFrozenGraphPath(const QString& path);
    void setMovingAverage(bool on);
    void setCheckpoint(const QString& checkpoint);

    /// Runs the export now (on a worker; returns when it ends) and shows the outcome in the dialog.
    Status exportNow();
    /// The text the dialog shows about the last export or error ("" before any).
    QString messageText() const;
    /// The last export's outcome (ok before any).
    const Status& lastStatus() const { return m_lastStatus; }

signals:
    /// An export finished: its SavedModel directory and frozen graph path ("" when not written).
    void exported(const QString& savedModelDir, const QString& frozenGraphPath);

private:
    void buildUi();
    void fillChoices();
    void applyDefaultInputs();
    void startExport();
    void finishExport(const Expected<project::ExportResult>& result);
    void showMessage(const QString& text, bool error);
    QStringList checkedNames(const QListWidget* list) const;
    void retranslateUi();

    const Registries* m_registries;
    project::Project m_project;
    std::optional<project::ExportCandidates> m_candidates;
    bool m_inputsEdited = false;
    bool m_filling = false;
    Status m_lastStatus;

    QLineEdit* m_checkpoint = nullptr;
    QLineEdit* m_outputFilter = nullptr;
    QListWidget* m_outputs = nullptr;
    QListWidget* m_inputs = nullptr;
    QCheckBox* m_writeSavedModel = nullptr;
    QLineEdit* m_savedModelDir = nullptr;
    QCheckBox* m_writeFrozen = nullptr;
    QLineEdit* m_frozenPath = nullptr;
    QCheckBox* m_movingAverage = nullptr;
    QLabel* m_message = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QFutureWatcher<Expected<project::ExportResult>>* m_watcher = nullptr;
};

} // namespace tstudio
