// The node editor's "Evaluate…" dialog.
#include "node_editor/evaluate_dialog.h"

#include "framework/allocator.h"
#include "node_editor/interactive_session.h"
#include "node_editor/node_evaluation.h"
#include "registries/default_registries.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace tstudio::node_editor {

EvaluateDialog::EvaluateDialog(const GraphDocument* document, const Registries* registries, DocNodeId id,
                               QWidget* parent, InteractiveSession* session)
    : QDialog(parent), m_document(document), m_registries(registries), m_id(id), m_session(session)
{
    setObjectName(QStringLiteral("evaluateDialog"));
    const DocNode* node = document->node(id);
    setWindowTitle(tr("Evaluate %1").arg(node ? QString::fromStdString(node->name) : QString()));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);
    auto feeds = evaluationFeeds(*document, *registries, id);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    if (!feeds) {
        m_error->setText(QString::fromStdString(feeds.error().message()));
    } else {
        for (const FeedSpec& spec : *feeds) {
            Row row;
            row.name = QString::fromStdString(spec.name);
            row.dtype = static_cast<int>(spec.dtype);
            QStringList dims;
            for (std::int64_t d : spec.shape.dims())
                dims << QString::number(d < 0 ? 1 : d); // an unknown batch size becomes 1
            row.shape = new QLineEdit(QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", "))), this);
            row.value = new QLineEdit(QStringLiteral("random"), this);
            row.value->setObjectName(QStringLiteral("feed_") + row.name);
            row.value->setToolTip(tr("zeros, ones, random, a .npy file, or numbers separated by commas"));
            auto* line = new QHBoxLayout;
            line->addWidget(row.shape, 1);
            line->addWidget(row.value, 2);
            form->addRow(QStringLiteral("%1 (%2)").arg(row.name, QString::fromStdString(dataTypeName(spec.dtype))), line);
            m_rows.push_back(row);
        }
        if (m_rows.empty())
            form->addRow(new QLabel(tr("This node needs no feeds."), this));
    }
    layout->addWidget(m_error);
    m_output = new QComboBox(this);
    m_output->hide();
    connect(m_output, &QComboBox::activated, this, &EvaluateDialog::showResult);
    layout->addWidget(m_output);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("evaluateTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_table, 1);
    m_image = new QLabel(this);
    m_image->setObjectName(QStringLiteral("evaluateImage"));
    m_image->hide();
    layout->addWidget(m_image, 0, Qt::AlignHCenter);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* run = buttons->addButton(tr("Evaluate"), QDialogButtonBox::ActionRole);
    run->setDefault(true);
    run->setEnabled(feeds.has_value());
    connect(run, &QPushButton::clicked, this, &EvaluateDialog::evaluate);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 480);
}

EvaluateDialog::~EvaluateDialog() = default;

QLineEdit* EvaluateDialog::valueEdit(const QString& name) const
{
    for (const Row& row : m_rows)
        if (row.name == name)
            return row.value;
    return nullptr;
}

bool EvaluateDialog::evaluate()
{
    CpuAllocator allocator;
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const Row& row : m_rows) {
        auto shape = parseFeedShape(row.shape->text().toStdString());
        if (!shape) {
            m_error->setText(tr("%1: %2").arg(row.name, QString::fromStdString(shape.error().message())));
            return false;
        }
        auto tensor = parseFeedText(row.value->text().toStdString(), static_cast<DataType>(row.dtype), *shape, allocator);
        if (!tensor) {
            m_error->setText(tr("%1: %2").arg(row.name, QString::fromStdString(tensor.error().message())));
            return false;
        }
        feeds.emplace_back(row.name.toStdString(), std::move(*tensor));
    }
    auto out = m_session ? m_session->evaluate(*m_document, m_id, feeds)
                         : evaluateNode(*m_document, *m_registries, m_id, feeds);
    if (!out) {
        m_error->setText(QString::fromStdString(out.error().message()));
        return false;
    }
    m_error->clear();
    m_results = std::move(*out);
    m_output->clear();
    for (std::size_t i = 0; i < m_results.size(); ++i)
        m_output->addItem(tr("Output %1: %2 %3").arg(i).arg(QString::fromStdString(dataTypeName(m_results[i].dtype())),
                                                           QString::fromStdString(m_results[i].shape().toString())));
    m_output->setVisible(!m_results.empty());
    showResult(0);
    return true;
}

void EvaluateDialog::showResult(int output)
{
    m_table->clear();
    m_image->hide();
    if (output < 0 || static_cast<std::size_t>(output) >= m_results.size())
        return;
    const Tensor& t = m_results[static_cast<std::size_t>(output)];
    const auto& dims = t.shape().dims();
    const std::int64_t columns = dims.empty() ? 1 : dims.back();
    const std::int64_t rows = columns > 0 ? t.numElements() / columns : 0;
    // Large tensors: the first 200 rows and 64 columns (the dialog is a preview; export is the CLI's).
    const int shownRows = static_cast<int>(std::min<std::int64_t>(rows, 200));
    const int shownColumns = static_cast<int>(std::min<std::int64_t>(columns, 64));
    m_table->setRowCount(shownRows);
    m_table->setColumnCount(shownColumns);
    // Indices from 0, as NumPy and TensorFlow count.
    QStringList rowLabels, columnLabels;
    for (int r = 0; r < shownRows; ++r)
        rowLabels << QString::number(r);
    for (int c = 0; c < shownColumns; ++c)
        columnLabels << QString::number(c);
    m_table->setVerticalHeaderLabels(rowLabels);
    m_table->setHorizontalHeaderLabels(columnLabels);
    for (int r = 0; r < shownRows; ++r)
        for (int c = 0; c < shownColumns; ++c)
            m_table->setItem(r, c, new QTableWidgetItem(QString::number(tensorValueAt(t, r * columns + c), 'g', 6)));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Images: [N, H, W, 1 or 3] or [N, 784] (MNIST rows): the first one, scaled to its range.
    int h = 0, w = 0, channels = 1;
    if (dims.size() == 4 && (dims[3] == 1 || dims[3] == 3)) {
        h = static_cast<int>(dims[1]);
        w = static_cast<int>(dims[2]);
        channels = static_cast<int>(dims[3]);
    } else if (dims.size() == 2 && dims[1] == 784) {
        h = w = 28;
    }
    if (h > 0 && w > 0 && h <= 1024 && w <= 1024) {
        double lo = 1e300, hi = -1e300;
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(h) * w * channels; ++i) {
            const double v = tensorValueAt(t, i);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QImage image(w, h, QImage::Format_RGB32);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                int rgb[3];
                for (int c = 0; c < 3; ++c) {
                    const double v = tensorValueAt(t, (static_cast<std::int64_t>(y) * w + x) * channels + (channels == 3 ? c : 0));
                    rgb[c] = hi > lo ? static_cast<int>(std::lround(255 * (v - lo) / (hi - lo))) : 0;
                }
                image.setPixel(x, y, qRgb(rgb[0], rgb[1], rgb[2]));
            }
        m_image->setPixmap(QPixmap::fromImage(image.scaled(w * std::max(1, 112 / w), h * std::max(1, 112 / h))));
        m_image->show();
    }
}

} // namespace tstudio::node_editor
