// SourcePreviewView: previewSource on a worker, shown as a component table and an image grid.
#include "node_editor/source_preview_view.h"

#include "common/background_run.h"
#include "tensor_view/tensor_image_grid.h"
#include "tensor_view/tensor_real_values.h"
#include "framework/allocator.h"
#include "framework/data_type.h"
#include "project/sources/source_preview.h"

#include <QEvent>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace tstudio::node_editor {

namespace {

/// The previews' memory: one allocator for the process, since the tensors shown (the image grid
/// keeps its own copy) may outlive the preview that read them.
Allocator& previewAllocator()
{
    static CpuAllocator* allocator = new CpuAllocator(); // never destroyed: tensors may be freed at exit
    return *allocator;
}

} // namespace

struct SourcePreviewView::Result {
    Expected<project::SourcePreview> preview = unexpected(Status(StatusCode::kCancelled, "not read"));
};

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// `t` ([n] + example shape) as images [n, h, w, c], or nothing when it is not image-like.
std::optional<Tensor> asImages(const Tensor& t)
{
    const TensorShape& s = t.shape();
    if (s.rank() == 4 && (s.dim(3) == 1 || s.dim(3) == 3 || s.dim(3) == 4))
        return t;
    if (s.rank() == 2 && s.dim(1) == 784) // MNIST's flat images
        if (auto view = t.reshapedView(TensorShape({s.dim(0), 28, 28, 1})))
            return *view;
    return std::nullopt;
}

/// The first values of example-major tensor `t`, as text ("7, 2, 1, 0, …").
QString firstValues(const Tensor& t, int count)
{
    if (t.dtype() == tensorflow::DT_STRING) {
        QStringList parts;
        const auto strings = t.strings();
        for (std::size_t i = 0; i < strings.size() && static_cast<int>(i) < count; ++i)
            parts << QStringLiteral("\"%1\"").arg(q(strings[i]).left(24));
        return parts.join(QStringLiteral(", ")) + (static_cast<int>(strings.size()) > count ? QStringLiteral(", …") : QString());
    }
    const std::int64_t n = std::min<std::int64_t>(t.numElements(), count);
    const std::vector<double> values = debugger_ui::realValues(t, 0, n);
    QStringList parts;
    for (double v : values)
        parts << QLocale::c().toString(v, 'g', 4);
    return parts.join(QStringLiteral(", ")) + (t.numElements() > n ? QStringLiteral(", …") : QString());
}

} // namespace

SourcePreviewView::SourcePreviewView(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("previewStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("previewTable"));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setWordWrap(false);
    m_images = new debugger_ui::TensorImageGrid(this);
    m_images->setObjectName(QStringLiteral("previewImages"));
    m_images->setMinimumHeight(120);
    m_images->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addWidget(m_table);
    layout->addWidget(m_images, 1);
    retranslateUi();
}

SourcePreviewView::~SourcePreviewView() = default;

void SourcePreviewView::retranslateUi()
{
    m_table->setHorizontalHeaderLabels({tr("Component"), tr("Type"), tr("Shape per example"), tr("First values")});
    m_title->setText(m_sourceTitle.isEmpty() ? tr("Data preview") : tr("Data preview: %1").arg(m_sourceTitle));
    if (m_loading)
        m_status->setText(tr("Reading the first %1 examples…").arg(kExamples));
    else if (m_shown)
        display(m_shown);
}

void SourcePreviewView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SourcePreviewView::setSource(project::Project project, std::size_t index, const QString& title)
{
    m_sourceTitle = title;
    m_loading = true;
    m_shown.reset();
    m_table->setRowCount(0);
    m_images->clear();
    m_images->hide();
    retranslateUi();
    const int generation = ++m_generation;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const Result>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer source replaced this one
        m_loading = false;
        display(watcher->result());
        emit ready();
    });
    watcher->setFuture(runInBackground([project = std::move(project), index]() -> std::shared_ptr<const Result> {
        auto result = std::make_shared<Result>();
        result->preview = project::previewSource(project, index, kExamples, previewAllocator());
        return result;
    }));
}

void SourcePreviewView::showMessage(const QString& message)
{
    ++m_generation;
    m_loading = false;
    m_shown.reset();
    m_sourceTitle.clear();
    m_table->setRowCount(0);
    m_images->clear();
    m_images->hide();
    retranslateUi();
    m_status->setText(message);
}

QString SourcePreviewView::statusText() const
{
    return m_status->text();
}

void SourcePreviewView::display(std::shared_ptr<const Result> result)
{
    m_shown = result;
    m_table->setRowCount(0);
    if (!result->preview) {
        m_status->setText(q(result->preview.error().message()));
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_images->hide();
        return;
    }
    m_status->setStyleSheet(QString());
    const project::SourcePreview& p = *result->preview;
    m_status->setText(tr("The first %n example(s), in the source's order (training shuffles them).", nullptr,
                         static_cast<int>(p.count)));
    m_table->setRowCount(static_cast<int>(p.components.size()));
    std::optional<Tensor> images;
    for (std::size_t i = 0; i < p.components.size(); ++i) {
        const int row = static_cast<int>(i);
        m_table->setItem(row, 0, new QTableWidgetItem(q(p.components[i])));
        m_table->setItem(row, 1, new QTableWidgetItem(q(dataTypeName(p.dtypes[i]))));
        m_table->setItem(row, 2, new QTableWidgetItem(q(p.exampleShapes[i].toString())));
        std::optional<Tensor> asImage = asImages(p.examples[i]);
        m_table->setItem(row, 3, new QTableWidgetItem(asImage ? tr("(images, below)") : firstValues(p.examples[i], 12)));
        if (!images && asImage)
            images = std::move(asImage);
    }
    m_table->resizeColumnsToContents();
    // The first values take what width is left (elided, whole in the tooltip) rather than scrolling.
    m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (QTableWidgetItem* item = m_table->item(row, 3))
            item->setToolTip(item->text());
    // As tall as its rows (a source has a few components), so that every one shows without scrolling.
    int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth();
    for (int row = 0; row < m_table->rowCount(); ++row)
        height += m_table->rowHeight(row);
    if (m_table->horizontalScrollBar()->isVisible() || m_table->horizontalHeader()->length() > m_table->viewport()->width())
        height += m_table->horizontalScrollBar()->sizeHint().height();
    m_table->setFixedHeight(std::min(height, 240));
    if (images && debugger_ui::TensorImageGrid::unsuitableReason(*images).isEmpty()) {
        m_images->setTensor(*images);
        m_images->show();
    } else {
        m_images->hide();
    }
}

} // namespace tstudio::node_editor
