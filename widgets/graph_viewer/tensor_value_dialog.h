// TensorValueDialog: a window showing one stored tensor's values (a Const's value, a checkpoint tensor) read-only.
#pragma once

#include <QDialog>
#include <QString>

namespace tstudio {
class Tensor;
namespace debugger_ui {
class TensorInspector;
}
} // namespace tstudio

namespace tstudio::graph_viewer {

/// The debugger's TensorInspector (facts, health, table, histogram, heat map, images, Save .npy) in a
/// non-modal window, without what only a debugging session has (the Watch toggle; History stays disabled).
/// `source` says where the value comes from ("Const node", "checkpoint model.ckpt-1000") and goes into
/// the title. The inspector copies the tensor: the caller's may go away. Deletes itself when closed.
/// GUI thread only. Object name: "tensorValueDialog".
class TensorValueDialog : public QDialog {
    Q_OBJECT
public:
    TensorValueDialog(const QString& name, const QString& source, const Tensor& value, QWidget* parent = nullptr);
    ~TensorValueDialog() override;

    debugger_ui::TensorInspector* inspector() const { return m_inspector; }

private:
    debugger_ui::TensorInspector* m_inspector;
};

} // namespace tstudio::graph_viewer
