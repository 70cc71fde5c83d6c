// DistributedDialog: "Run on N processes…" — how many ranks, where they run (this machine or a
// hostfile), whether the learning rate scales with them, the log directory, and the exact mpirun
// command line that will run.
#pragma once

#include <QDialog>
#include <QString>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace tstudio::training_panel {

/// The dialog's choices. All but the log directory and the replication (which belong to the project:
/// its "distributed" settings) are remembered in the settings under training/distributed/
/// (processes, hosts "local" or "hostfile", hostfile, scaleLearningRate).
struct DistributedChoices {
    int processes = 2;
    bool useHostfile = false; ///< false: this machine, oversubscribed
    QString hostfile;
    bool scaleLearningRate = false;
    QString logdir;
    /// The project's distributed.replication "async": the last psTasks processes are parameter servers.
    bool asynchronous = false;
    int psTasks = 1;

    static DistributedChoices load(const QSettings& settings);
    void save(QSettings& settings) const;
    bool operator==(const DistributedChoices&) const = default;
};

/// What the dialog shows below the choices: the command line, or why it cannot run (then Run is
/// disabled).
struct DistributedPreview {
    QString commandLine;
    QString problem;
};

class DistributedDialog : public QDialog {
    Q_OBJECT
public:
    /// `preview` is asked again after every change of the choices (on the GUI thread; keep it quick).
    DistributedDialog(const DistributedChoices& initial,
                      std::function<DistributedPreview(const DistributedChoices&)> preview, QWidget* parent = nullptr);

    DistributedChoices choices() const;
    void setChoices(const DistributedChoices& choices);

    // For tests and screenshots.
    QSpinBox* processesBox() const { return m_processes; }
    QRadioButton* thisMachineButton() const { return m_local; }
    QRadioButton* hostfileButton() const { return m_useHostfile; }
    QLineEdit* hostfileEdit() const { return m_hostfile; }
    QCheckBox* scaleLearningRateBox() const { return m_scale; }
    QComboBox* replicationBox() const { return m_replication; }
    QSpinBox* psTasksBox() const { return m_psTasks; }
    QLineEdit* logDirectoryEdit() const { return m_logdir; }
    QString previewText() const;
    QString problemText() const;
    QPushButton* runButton() const { return m_run; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    void refresh();

    std::function<DistributedPreview(const DistributedChoices&)> m_preview;
    QLabel* m_intro = nullptr;
    QLabel* m_processesLabel = nullptr;
    QSpinBox* m_processes = nullptr;
    QLabel* m_whereLabel = nullptr;
    QRadioButton* m_local = nullptr;
    QRadioButton* m_useHostfile = nullptr;
    QLineEdit* m_hostfile = nullptr;
    QPushButton* m_browseHostfile = nullptr;
    QCheckBox* m_scale = nullptr;
    QLabel* m_replicationLabel = nullptr;
    QComboBox* m_replication = nullptr;
    QLabel* m_psTasksLabel = nullptr;
    QSpinBox* m_psTasks = nullptr;
    QLabel* m_logdirLabel = nullptr;
    QLineEdit* m_logdir = nullptr;
    QPushButton* m_browseLogdir = nullptr;
    QLabel* m_previewLabel = nullptr;
    QPlainTextEdit* m_previewText = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace tstudio::training_panel
