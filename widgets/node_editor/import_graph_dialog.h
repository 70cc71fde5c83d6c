// ImportGraphDialog: Edit ▸ Import Graph… in the node editor: the name scope the imported graph goes
// under and, for each of its placeholders, a document tensor to wire in its place
// (tf.import_graph_def's name and input_map).
#pragma once

#include "document/graph_document.h"
#include "node_editor/graph_import.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace tstudio {
struct Registries;
}

namespace tstudio::node_editor {

class ImportGraphDialog : public QDialog {
    Q_OBJECT
public:
    /// `graph` is the graph read from `fileName` (shown in the title).
    ImportGraphDialog(const GraphDocument* document, const Registries* registries, tensorflow::GraphDef graph,
                      const QString& fileName, QWidget* parent = nullptr);

    /// The prefix and the mapping as chosen.
    GraphImport request() const;
    const tensorflow::GraphDef& graph() const { return m_graph; }

    QLineEdit* prefixEdit() const { return m_prefix; }
    QTableWidget* inputTable() const { return m_inputs; }
    /// The mapping box of imported tensor `name` ("x:0"), or nullptr.
    QComboBox* mappingBox(const QString& name) const;

private:
    tensorflow::GraphDef m_graph;
    std::vector<ImportInput> m_importInputs;
    std::vector<DocumentTensor> m_documentTensors;
    QLineEdit* m_prefix = nullptr;
    QTableWidget* m_inputs = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace tstudio::node_editor
