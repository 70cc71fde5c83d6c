// EvaluationSection: the Training panel's "Evaluate while training" section, the project's "eval"
// section as a form: which data (a held-out split of a training source, the same kind of source
// reading another file, folder or seed, or the training data), which metrics and how often.
#pragma once

#include "core/status.h"
#include "project/run/evaluation_form.h"
#include "project/format/project_file.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace tstudio {
struct Registries;
}

namespace tstudio::training_panel {

/// Filled from a project (fillFrom) and applied to one (applyTo): the panel applies it to what
/// Start trains and, through the document's edit route, to the project the document saves. Eval
/// settings the form has no field for (every_secs, steps, batch_size, best, early_stopping, metrics
/// it cannot fill in, sources it did not make) are kept as the project has them.
class EvaluationSection : public QWidget {
    Q_OBJECT
public:
    /// `registries` (not owned, may be null: no classifier metrics) reads the graph's ops to find
    /// the logits and labels the accuracy metrics take.
    explicit EvaluationSection(const Registries* registries, QWidget* parent = nullptr);

    /// Shows `p`'s eval section (or the defaults to turn one on with); hidden when `p` has no data
    /// source to evaluate on.
    void fillFrom(const project::Project& p);
    /// Writes the form into p.eval (the box unticked: no eval section). FailedPrecondition in the
    /// panel's words when the form is not complete ("Evaluation: choose the folder to evaluate on
    /// (Browse…)", "Evaluation: tick at least one metric"); p is then unchanged.
    Status applyTo(project::Project& p) const;

    // For tests: the form's widgets.
    QGroupBox* enabledBox() const { return m_box; }
    QComboBox* sourceBox() const { return m_source; }
    QComboBox* modeBox() const { return m_mode; }
    QSpinBox* skipBox() const { return m_skip; }
    QSpinBox* takeBox() const { return m_take; }
    QLineEdit* otherEdit() const { return m_other; }
    QSpinBox* everyStepsBox() const { return m_every; }
    QSpinBox* topKBox() const { return m_k; }
    /// The metric tick box of `kind` (null when the form offers none for this project).
    QCheckBox* metricBox(const std::string& kind) const;

signals:
    /// The user changed the form: the project should get applyTo.
    void edited();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    /// The mode list and the fields of the chosen source and mode.
    void refreshModes();
    void refreshFields();
    void browse();
    project::EvalDataChoice choice() const;
    void rebuildMetrics(const std::vector<std::string>& kinds, const std::vector<project::EvalMetricSpec>& current);

    const Registries* m_registries;
    project::Project m_project;                   ///< the project the form was filled from
    std::optional<project::ClassifierTensors> m_classifier;
    bool m_keepSources = false;                   ///< the project's eval sources are not the form's: "as in the project"
    bool m_filling = false;
    bool m_filled = false;                        ///< fillFrom has run once

    QGroupBox* m_box = nullptr;
    QWidget* m_fields = nullptr; ///< shown while m_box is ticked
    QLabel* m_dataLabel = nullptr;
    QComboBox* m_source = nullptr;
    QComboBox* m_mode = nullptr;
    QLabel* m_skipLabel = nullptr;
    QSpinBox* m_skip = nullptr;
    QLabel* m_takeLabel = nullptr;
    QSpinBox* m_take = nullptr;
    QLabel* m_otherLabel = nullptr;
    QLineEdit* m_other = nullptr;
    QPushButton* m_browse = nullptr;
    QLabel* m_metricsLabel = nullptr;
    QWidget* m_metricsRow = nullptr;
    std::vector<std::pair<std::string, QCheckBox*>> m_metrics; ///< kind -> tick box, the form's kinds
    QSpinBox* m_k = nullptr;
    QLabel* m_kept = nullptr;                                 ///< the project's other metrics, kept
    QLabel* m_everyLabel = nullptr;
    QSpinBox* m_every = nullptr;
    QLabel* m_everySuffix = nullptr;
};

} // namespace tstudio::training_panel
