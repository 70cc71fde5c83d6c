// ImportGraphDialog (import_graph_dialog.h): a prefix field over a table of the imported graph's
// placeholders, each with a box of the document's tensors of its dtype.
#include "node_editor/import_graph_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tstudio::node_editor {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString describe(DataType dtype, const TensorShape& shape)
{
    return q(std::string(dataTypeName(dtype))) + QLatin1Char(' ') + q(shape.toString());
}

} // namespace

ImportGraphDialog::ImportGraphDialog(const GraphDocument* document, const Registries* registries,
                                     tensorflow::GraphDef graph, const QString& fileName, QWidget* parent)
    : QDialog(parent), m_graph(std::move(graph))
{
    setObjectName(QStringLiteral("importGraphDialog"));
    setWindowTitle(tr("Import %1").arg(fileName));
    m_importInputs = importInputs(m_graph);
    if (document && registries)
        m_documentTensors = documentTensors(*document, *registries);

    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("%n node(s) will be added to this graph under a name scope, as tf.import_graph_def "
                          "adds them. Wire any of its placeholders to a tensor of this graph instead (input_map).",
                          nullptr, m_graph.node_size()));
    layout->addWidget(m_summary);
    auto* form = new QFormLayout;
    m_prefix = new QLineEdit(QStringLiteral("import"), this);
    m_prefix->setObjectName(QStringLiteral("importPrefix"));
    m_prefix->setToolTip(tr("The name scope (tf.import_graph_def's name); made unique when taken, empty keeps the "
                            "names"));
    form->addRow(tr("Name scope:"), m_prefix);
    layout->addLayout(form);

    m_inputs = new QTableWidget(static_cast<int>(m_importInputs.size()), 3, this);
    m_inputs->setObjectName(QStringLiteral("importInputs"));
    m_inputs->setHorizontalHeaderLabels({tr("Placeholder"), tr("Type"), tr("Wire to")});
    m_inputs->verticalHeader()->hide();
    m_inputs->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_inputs->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_inputs->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_inputs->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < static_cast<int>(m_importInputs.size()); ++row) {
        const ImportInput& input = m_importInputs[static_cast<std::size_t>(row)];
        m_inputs->setItem(row, 0, new QTableWidgetItem(q(input.name)));
        m_inputs->setItem(row, 1, new QTableWidgetItem(describe(input.dtype, input.shape)));
        auto* box = new QComboBox(m_inputs);
        box->setObjectName(QStringLiteral("map_") + q(input.name));
        box->addItem(tr("(keep the placeholder)"), -1);
        for (std::size_t i = 0; i < m_documentTensors.size(); ++i) {
            const DocumentTensor& t = m_documentTensors[i];
            if (baseType(t.dtype) != input.dtype)
                continue; // input_map needs the dtype the imported input expects
            box->addItem(q(t.label) + QStringLiteral("  ") + describe(t.dtype, t.shape), static_cast<int>(i));
        }
        m_inputs->setCellWidget(row, 2, box);
    }
    if (m_importInputs.empty()) {
        m_inputs->hide();
        layout->addWidget(new QLabel(tr("The graph has no placeholders to wire."), this));
    }
    layout->addWidget(m_inputs, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(620, 420);
}

QComboBox* ImportGraphDialog::mappingBox(const QString& name) const
{
    for (int row = 0; row < m_inputs->rowCount(); ++row)
        if (m_inputs->item(row, 0)->text() == name)
            return qobject_cast<QComboBox*>(m_inputs->cellWidget(row, 2));
    return nullptr;
}

GraphImport ImportGraphDialog::request() const
{
    GraphImport request;
    request.prefix = m_prefix->text().trimmed().toStdString();
    for (int row = 0; row < m_inputs->rowCount(); ++row) {
        auto* box = qobject_cast<QComboBox*>(m_inputs->cellWidget(row, 2));
        const int index = box ? box->currentData().toInt() : -1;
        if (index < 0)
            continue;
        const DocumentTensor& t = m_documentTensors[static_cast<std::size_t>(index)];
        request.inputMap[m_importInputs[static_cast<std::size_t>(row)].name] = {t.node, t.output};
    }
    return request;
}

} // namespace tstudio::node_editor
