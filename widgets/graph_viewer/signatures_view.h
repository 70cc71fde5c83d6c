// SignaturesView: the graph viewer's list of a SavedModel's signatures, their inputs and outputs and the tensors behind them.
#pragma once

#include "model/saved_model.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio::graph_viewer {

/// What `saved_model_cli show --all` prints, as a tree: one top-level item per signature ("serving_default"),
/// under it its method ("Method: tensorflow/serving/predict"), "Inputs (n)" and "Outputs (n)", and under those
/// one row per tensor: key, dtype and shape ("float32 [-1, 5]"), tensor name ("serving_default_x:0"; a sparse
/// tensor's three component tensors). Three columns, so that it reads in a narrow sidebar.
/// Tensor rows are links: a click (or Enter) emits nodeActivated with the graph node behind the tensor. Every
/// cell's full text is its tooltip; rows are selectable and Ctrl+C copies the selected row's tensor name.
///
/// Object names: "signaturesTree", "signaturesMessage" (shown instead of the tree when there are none).
/// GUI thread only.
class SignaturesView : public QWidget {
    Q_OBJECT
public:
    enum Column { kKey, kType, kTensor, kColumnCount };
    /// On tensor rows: the GraphDef node a click selects ("x" for "x:0"); empty elsewhere.
    static constexpr int kNodeNameRole = Qt::UserRole;

    explicit SignaturesView(QWidget* parent = nullptr);
    ~SignaturesView() override;

    /// Shows `signatures` (as signaturesOf sorts them); empty shows "This SavedModel has no signatures".
    void setSignatures(std::vector<SignatureInfo> signatures);
    const std::vector<SignatureInfo>& signatures() const { return m_signatures; }
    QTreeWidget* tree() const { return m_tree; }

signals:
    /// A tensor row was clicked: the node that produces its tensor.
    void nodeActivated(const QString& nodeName);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void rebuild();
    void onItemActivated(QTreeWidgetItem* item);

    std::vector<SignatureInfo> m_signatures;
    QTreeWidget* m_tree;
    QLabel* m_message;
};

} // namespace tstudio::graph_viewer
