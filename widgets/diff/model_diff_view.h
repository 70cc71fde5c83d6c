// ModelDiffView: two graphs or two checkpoints side by side, what changed between them as a tree
// (File > Compare…, `tensorstudio --screenshot --panel diff A B`).
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTreeWidget;

namespace tstudio::diff {
struct ModelDiff;
}

namespace tstudio::diff_ui {

/// The comparison of two files (engine: diff::diffModels, on a worker thread). Graphs: groups
/// "Removed", "Added", "Renamed" and "Changed" (a changed node's children: what changed, before,
/// after); checkpoints: "Removed", "Added", "Changed" (dtype, shape, max |Δ|, relative change,
/// changed elements) and "Unchanged". Groups start expanded up to 200 rows; the filter field keeps
/// rows whose name holds its text. Errors are shown in the header line.
///
/// Object names: "diffHeader", "diffFilter", "diffTree". GUI thread only.
class ModelDiffView : public QWidget {
    Q_OBJECT
public:
    explicit ModelDiffView(QWidget* parent = nullptr);
    ~ModelDiffView() override;

    /// Compares `first` with `second` (replacing any earlier comparison); ready() follows.
    void compare(const QString& first, const QString& second);
    bool isBusy() const { return m_busy; }
    /// The error of the last comparison, empty when it succeeded.
    QString errorText() const { return m_error; }
    QTreeWidget* tree() const { return m_tree; }
    QString title() const;

signals:
    /// The comparison is shown (ok false: it failed, errorText() says why).
    void ready(bool ok);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void showDiff(const diff::ModelDiff& diff);
    void applyFilter();

    QString m_first;
    QString m_second;
    QString m_error;
    bool m_busy = false;
    std::shared_ptr<const diff::ModelDiff> m_diff;
    QLabel* m_header;
    QLineEdit* m_filter;
    QTreeWidget* m_tree;
    QFutureWatcher<std::shared_ptr<const diff::ModelDiff>>* m_watcher = nullptr;
};

} // namespace tstudio::diff_ui
