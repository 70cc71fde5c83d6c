// EvaluateDialog: feeds for the placeholders a node needs, then the node's value as a table and, for images, a picture.
#pragma once

#include "document/graph_document.h"
#include "framework/tensor.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace tstudio {
struct Registries;
}

namespace tstudio::node_editor {

struct FeedSpec;
class InteractiveSession;

class EvaluateDialog : public QDialog {
    Q_OBJECT
public:
    /// With `session` (the editor's), the node is evaluated in it, seeing the variables' current values;
    /// without, in a session of its own that starts from their initial values.
    EvaluateDialog(const GraphDocument* document, const Registries* registries, DocNodeId id, QWidget* parent = nullptr,
                   InteractiveSession* session = nullptr);
    ~EvaluateDialog() override;

    /// Runs the node with the feeds as typed; false with the reason shown when it fails.
    bool evaluate();
    /// The value shown (after evaluate), or an empty vector.
    const std::vector<Tensor>& results() const { return m_results; }
    QTableWidget* table() const { return m_table; }
    QLabel* image() const { return m_image; }
    /// The value editor of placeholder `name`, or nullptr.
    QLineEdit* valueEdit(const QString& name) const;

private:
    void showResult(int output);

    const GraphDocument* m_document;
    const Registries* m_registries;
    DocNodeId m_id;
    InteractiveSession* m_session = nullptr;
    struct Row {
        QString name;
        int dtype = 0;
        QLineEdit* shape = nullptr;
        QLineEdit* value = nullptr;
    };
    std::vector<Row> m_rows;
    std::vector<Tensor> m_results;
    QLabel* m_error = nullptr;
    QComboBox* m_output = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_image = nullptr;
};

} // namespace tstudio::node_editor
