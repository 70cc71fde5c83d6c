// TensorValueDialog: the debugger's tensor inspector reused read-only for values stored in files.
#include "graph_viewer/tensor_value_dialog.h"

#include "tensor_view/tensor_inspector.h"
#include "framework/tensor.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace tstudio::graph_viewer {

TensorValueDialog::TensorValueDialog(const QString& name, const QString& source, const Tensor& value, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("tensorValueDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 — %2").arg(name, source));
    auto* layout = new QVBoxLayout(this);
    m_inspector = new debugger_ui::TensorInspector(this);
    m_inspector->setTensor(name, value);
    // Watching means following a value across session runs: a stored tensor has none.
    for (QToolButton* button : m_inspector->findChildren<QToolButton*>())
        if (button->isCheckable())
            button->hide();
    layout->addWidget(m_inspector, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(buttons);
    resize(720, 560);
}

TensorValueDialog::~TensorValueDialog() = default;

} // namespace tstudio::graph_viewer
