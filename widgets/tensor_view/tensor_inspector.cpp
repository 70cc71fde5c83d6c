// The debugger's tensor inspector (see tensor_inspector.h).
#include "tensor_view/tensor_inspector.h"

#include "tensor_view/tensor_heat_map.h"
#include "tensor_view/tensor_histogram_chart.h"
#include "tensor_view/tensor_image_grid.h"
#include "tensor_view/tensor_real_values.h"
#include "tensor_view/tensor_table_model.h"
#include "tensor_view/tensor_value_text.h"
#include "tensor_view/value_histogram.h"
#include "framework/tensor_statistics.h"
#include "io/npy.h"
#include "profiler/profile_table_model.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>

namespace tstudio::debugger_ui {

namespace {

enum HealthField { kNaN, kNegInf, kNegative, kZero, kPositive, kPosInf, kMin, kMax, kMean, kStd, kHealthFields };

constexpr std::array<const char*, kHealthFields> kHealthObjectNames = {
    "healthNaN", "healthNegInf", "healthNegative", "healthZero", "healthPositive",
    "healthPosInf", "healthMin", "healthMax", "healthMean", "healthStd"};

const QColor kAlarmText(0xc6, 0x28, 0x28);

/// Colours table cells by TensorTableModel::CellStateRole (the model holds no colours).
class TensorCellDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        using State = TensorTableModel::CellState;
        switch (static_cast<State>(index.data(TensorTableModel::CellStateRole).toInt())) {
        case State::kHighlighted: option->backgroundBrush = QColor(0xff, 0xe0, 0x82); break;
        case State::kNaN:
            option->backgroundBrush = QColor(0xff, 0xcd, 0xd2);
            option->palette.setColor(QPalette::Text, QColor(0xb7, 0x1c, 0x1c));
            option->font.setBold(true);
            break;
        case State::kInfinite:
            option->backgroundBrush = QColor(0xff, 0xe0, 0xb2);
            option->palette.setColor(QPalette::Text, QColor(0xe6, 0x51, 0x00));
            option->font.setBold(true);
            break;
        case State::kNormal: break;
        }
    }
};

int tabIndex(TensorInspector::View view)
{
    return static_cast<int>(view);
}

QString dtypeText(DataType dtype)
{
    return QString::fromStdString(dataTypeName(dtype));
}

QString statusText(const Status& status)
{
    return QString::fromStdString(status.message());
}

} // namespace

TensorInspector::TensorInspector(QWidget* parent)
    : QWidget(parent)
    , m_allocator(std::make_unique<CpuAllocator>())
{
    buildUi();
    retranslateUi();
    clear();
}

TensorInspector::~TensorInspector()
{
    // The children hold tensors from m_allocator and are deleted by ~QWidget, after it: let go first.
    m_tableModel->clear();
    m_heatMap->clear();
    m_images->clear();
}

void TensorInspector::buildUi()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    m_hint = new QLabel(m_stack);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_hint);

    auto* page = new QWidget(m_stack);
    m_stack->addWidget(page);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);

    auto* header = new QHBoxLayout;
    m_nameLabel = new QLabel(page);
    m_nameLabel->setObjectName(QStringLiteral("tensorName"));
    m_nameLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_nameLabel->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    m_nameLabel->setFont(bold);
    header->addWidget(m_nameLabel, 1);
    m_watchButton = new QToolButton(page);
    m_watchButton->setCheckable(true);
    m_watchButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    header->addWidget(m_watchButton);
    m_saveButton = new QPushButton(page);
    header->addWidget(m_saveButton);
    layout->addLayout(header);

    m_factsLabel = new QLabel(page);
    m_factsLabel->setObjectName(QStringLiteral("tensorFacts"));
    m_factsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_factsLabel);

    m_healthBox = new QWidget(page);
    auto* grid = new QGridLayout(m_healthBox);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    for (int i = 0; i < kHealthFields; ++i) {
        auto* caption = new QLabel(m_healthBox);
        caption->setForegroundRole(QPalette::PlaceholderText);
        caption->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* value = new QLabel(m_healthBox);
        value->setObjectName(QString::fromLatin1(kHealthObjectNames[static_cast<std::size_t>(i)]));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // Room for the longest text a field can get, so the grid does not shift from tensor to tensor.
        value->setMinimumWidth(value->fontMetrics().horizontalAdvance(
            i < kMin ? QStringLiteral("8,888,888,888") : QStringLiteral("-8.8888888e-88")));
        // Counts on the first row, statistics on the second.
        const int row = i < kMin ? 0 : 1;
        const int column = (i < kMin ? i : i - kMin) * 2;
        grid->addWidget(caption, row, column);
        grid->addWidget(value, row, column + 1);
        m_healthCaptions[static_cast<std::size_t>(i)] = caption;
        m_healthValues[static_cast<std::size_t>(i)] = value;
    }
    grid->setColumnStretch(2 * 6, 1);
    layout->addWidget(m_healthBox);
    m_healthNote = new QLabel(page);
    m_healthNote->setObjectName(QStringLiteral("healthNote"));
    m_healthNote->setWordWrap(true);
    layout->addWidget(m_healthNote);

    auto* fields = new QHBoxLayout;
    m_sliceLabel = new QLabel(page);
    m_sliceEdit = new QLineEdit(page);
    m_sliceEdit->setObjectName(QStringLiteral("sliceEdit"));
    m_sliceEdit->setClearButtonEnabled(true);
    m_sliceLabel->setBuddy(m_sliceEdit);
    m_rangesLabel = new QLabel(page);
    m_rangesEdit = new QLineEdit(page);
    m_rangesEdit->setObjectName(QStringLiteral("rangesEdit"));
    m_rangesEdit->setClearButtonEnabled(true);
    m_rangesLabel->setBuddy(m_rangesEdit);
    fields->addWidget(m_sliceLabel);
    fields->addWidget(m_sliceEdit, 1);
    fields->addSpacing(8);
    fields->addWidget(m_rangesLabel);
    fields->addWidget(m_rangesEdit, 1);
    layout->addLayout(fields);
    m_messageLabel = new QLabel(page);
    m_messageLabel->setObjectName(QStringLiteral("inspectorMessage"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_messageLabel);

    m_tabs = new QTabWidget(page);
    m_tabs->setDocumentMode(true);
    m_table = new QTableView(m_tabs);
    m_tableModel = new TensorTableModel(m_table);
    m_table->setModel(m_tableModel);
    m_table->setItemDelegate(new TensorCellDelegate(m_table));
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_table->horizontalHeader()->setDefaultSectionSize(m_table->fontMetrics().horizontalAdvance(
                                                           QStringLiteral("-0.00000000000")) + 16);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_histogram = new TensorHistogramChart(m_tabs);
    m_heatMap = new TensorHeatMap(m_tabs);
    m_images = new TensorImageGrid(m_tabs);
    m_historyPage = new QWidget(m_tabs);
    auto* historyLayout = new QVBoxLayout(m_historyPage);
    historyLayout->setContentsMargins(0, 4, 0, 0);
    auto* runRow = new QHBoxLayout;
    m_historyRunLabel = new QLabel(m_historyPage);
    m_historyCombo = new QComboBox(m_historyPage);
    m_historyCombo->setObjectName(QStringLiteral("historyRun"));
    m_historyCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_historyRunLabel->setBuddy(m_historyCombo);
    runRow->addWidget(m_historyRunLabel);
    runRow->addWidget(m_historyCombo);
    runRow->addStretch(1);
    historyLayout->addLayout(runRow);
    m_historyChart = new ValueHistoryChart(m_historyPage);
    historyLayout->addWidget(m_historyChart, 1);
    for (QWidget* w : {static_cast<QWidget*>(m_table), static_cast<QWidget*>(m_histogram),
                       static_cast<QWidget*>(m_heatMap), static_cast<QWidget*>(m_images), m_historyPage})
        m_tabs->addTab(w, QString());
    layout->addWidget(m_tabs, 1);

    connect(m_watchButton, &QToolButton::toggled, this, [this](bool on) { emit watchToggled(m_name, on); });
    connect(m_saveButton, &QPushButton::clicked, this, &TensorInspector::saveWithDialog);
    connect(m_sliceEdit, &QLineEdit::editingFinished, this, [this] {
        if (m_sliceEdit->text() != m_sliceText)
            setSlice(m_sliceEdit->text());
    });
    connect(m_rangesEdit, &QLineEdit::editingFinished, this, [this] {
        if (m_rangesEdit->text() != m_rangesText)
            setHighlightRanges(m_rangesEdit->text());
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (!m_updatingTabs && index >= 0)
            m_preferredView = static_cast<View>(index);
    });
    connect(m_historyCombo, &QComboBox::currentIndexChanged, this, &TensorInspector::onHistoryComboChanged);
    connect(m_historyChart, &ValueHistoryChart::runClicked, this, [this](std::int64_t run) { showHistoryRun(run); });
}

void TensorInspector::retranslateUi()
{
    m_hint->setText(tr("Select a tensor (an input or output of an executed node) to inspect it."));
    m_watchButton->setText(tr("Watch"));
    m_watchButton->setToolTip(tr("Keep this tensor's value after every session run and chart its history"));
    m_saveButton->setText(tr("Save .npy..."));
    m_saveButton->setToolTip(tr("Save the whole tensor as a NumPy .npy file"));
    const std::array<QString, kHealthFields> captions = {tr("NaN"), tr("-Inf"), tr("negative"), tr("zero"),
                                                         tr("positive"), tr("+Inf"), tr("min"), tr("max"),
                                                         tr("mean"), tr("std")};
    for (std::size_t i = 0; i < captions.size(); ++i)
        m_healthCaptions[i]->setText(captions[i]);
    m_sliceLabel->setText(tr("&Slice"));
    m_sliceEdit->setPlaceholderText(tr("whole tensor; e.g. [::5, :2] or [0, ..., -1]"));
    m_sliceEdit->setToolTip(tr("A NumPy basic index applied to the table, the heat map and the images"));
    m_rangesLabel->setText(tr("&Highlight"));
    m_rangesEdit->setPlaceholderText(tr("e.g. [[-inf, -1], [1, inf]]"));
    m_rangesEdit->setToolTip(tr("Value ranges to highlight, as tfdbg's pt -r: [low, high] or a list of them"));
    m_tabs->setTabText(tabIndex(View::Table), tr("Table"));
    m_tabs->setTabText(tabIndex(View::Histogram), tr("Histogram"));
    m_tabs->setTabText(tabIndex(View::HeatMap), tr("Heat map"));
    m_tabs->setTabText(tabIndex(View::Images), tr("Images"));
    m_tabs->setTabText(tabIndex(View::History), tr("History"));
    m_historyRunLabel->setText(tr("&Show run:"));
    if (hasTensor()) {
        refreshFacts();
        refreshHealth();
        refreshHistory();
        refreshTabs();
    }
}

void TensorInspector::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

bool TensorInspector::hasTensor() const
{
    return !m_name.isEmpty();
}

void TensorInspector::clear()
{
    m_name.clear();
    m_current = m_shown = m_sliced = Tensor::uninitialized(tensorflow::DT_FLOAT);
    m_slice = {};
    m_sliceText.clear();
    m_history.clear();
    m_historyPoints.clear();
    m_historyRun.reset();
    showMessage({}, false);
    m_tableModel->clear();
    m_histogram->clear();
    m_heatMap->clear();
    m_images->clear();
    m_historyChart->setPoints({});
    {
        const QSignalBlocker block(m_watchButton);
        m_watchButton->setChecked(false);
    }
    m_stack->setCurrentIndex(0);
}

void TensorInspector::setTensor(const QString& name, const Tensor& value)
{
    const bool sameName = name == m_name;
    m_name = name;
    Tensor copy = value;
    if (value.isInitialized()) {
        // A private copy: the run may reuse or overwrite the buffer once it goes on.
        if (auto deep = value.deepCopy(*m_allocator))
            copy = std::move(*deep);
    }
    m_current = copy;
    m_historyRun.reset();
    if (!sameName) {
        m_slice = {};
        m_sliceText.clear();
        m_history.clear();
        m_historyPoints.clear();
        const QSignalBlocker block(m_watchButton);
        m_watchButton->setChecked(false);
    }
    m_shown = m_current;
    m_stack->setCurrentIndex(1);
    m_nameLabel->setText(name);
    m_nameLabel->setToolTip(name);
    refreshShown();
    refreshHistory();
    refreshTabs();
}

void TensorInspector::refreshShown()
{
    showMessage({}, false);
    refreshFacts();
    refreshHealth();
    m_histogram->setHistogram(computeValueHistogram(realValues(m_shown), !isFloating(baseType(m_shown.dtype()))),
                              m_shown.dtype());
    refreshSliced();
    if (m_ranges && !hasRealValues(m_shown.dtype()))
        showMessage(tr("Highlighting needs real numbers; %1 tensors have none.").arg(dtypeText(m_shown.dtype())), true);
    else if (!m_messageIsError)
        showMessage(rangesNote(), false);
}

QString TensorInspector::rangesNote() const
{
    if (!m_ranges || !hasTensor() || !m_shown.isInitialized())
        return {};
    const auto count = debugger::countInRanges(m_shown, *m_ranges);
    if (!count)
        return {};
    return tr("%1 of %2 values lie in the highlighted ranges.")
        .arg(QLocale().toString(static_cast<qlonglong>(*count)),
             QLocale().toString(static_cast<qlonglong>(m_shown.numElements())));
}

void TensorInspector::refreshFacts()
{
    QStringList parts;
    parts << dtypeText(m_shown.dtype());
    if (!m_shown.isInitialized()) {
        parts << tr("uninitialized");
    } else {
        parts << tr("shape %1").arg(QString::fromStdString(m_shown.shape().toString()));
        parts << tr("%Ln element(s)", "", static_cast<int>(std::min<std::int64_t>(m_shown.numElements(), INT_MAX)));
        parts << profiler::tables::ProfileTableModel::formatBytes(static_cast<qint64>(m_shown.totalBytes()));
    }
    if (m_historyRun)
        parts << tr("value of session run %1 (history)").arg(*m_historyRun);
    m_factsLabel->setText(parts.join(QStringLiteral("  \u00b7  ")));
}

void TensorInspector::refreshHealth()
{
    const auto stats = m_shown.isInitialized() ? computeTensorStatistics(m_shown)
                                               : Expected<TensorStatistics>(unexpected(Status()));
    m_healthBox->setVisible(stats.has_value());
    if (!stats) {
        const DataType dtype = m_shown.dtype();
        m_healthNote->setText(!m_shown.isInitialized()
                                  ? tr("The tensor holds no value yet (a variable before its first assignment).")
                                  : tr("No health summary: %1 tensors hold no real numbers.").arg(dtypeText(dtype)));
        m_healthNote->setVisible(true);
        return;
    }
    m_healthNote->setVisible(false);
    const QLocale locale;
    const std::array<std::int64_t, 6> counts = {stats->nanCount,  stats->negInfCount,   stats->negativeCount,
                                                stats->zeroCount, stats->positiveCount, stats->posInfCount};
    for (std::size_t i = 0; i < counts.size(); ++i) {
        QLabel* label = m_healthValues[i];
        label->setText(locale.toString(static_cast<qlonglong>(counts[i])));
        const bool alarm = (i == kNaN || i == kNegInf || i == kPosInf) && counts[i] > 0;
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, alarm ? kAlarmText : this->palette().color(QPalette::WindowText));
        label->setPalette(palette);
        QFont font = label->font();
        font.setBold(alarm);
        label->setFont(font);
    }
    const bool anyFinite = stats->min <= stats->max;
    const DataType dtype = m_shown.dtype();
    m_healthValues[kMin]->setText(anyFinite ? formatValueAs(stats->min, dtype) : QStringLiteral("-"));
    m_healthValues[kMax]->setText(anyFinite ? formatValueAs(stats->max, dtype) : QStringLiteral("-"));
    m_healthValues[kMean]->setText(anyFinite ? QString::number(stats->mean, 'g', 6) : QStringLiteral("-"));
    m_healthValues[kStd]->setText(anyFinite ? QString::number(stats->std, 'g', 6) : QStringLiteral("-"));
    m_healthValues[kMean]->setToolTip(anyFinite ? formatDouble(stats->mean) : QString());
    m_healthValues[kStd]->setToolTip(anyFinite ? formatDouble(stats->std) : QString());
    m_healthBox->setToolTip(tr("Over the whole tensor; min, max, mean and std (population) of the finite values"));
}

void TensorInspector::refreshSliced()
{
    m_sliced = m_shown;
    if (m_shown.isInitialized() && !m_slice.items.empty()) {
        auto sliced = debugger::applyTensorSlice(m_shown, m_slice, *m_allocator);
        if (sliced) {
            m_sliced = std::move(*sliced);
        } else {
            // The slice of an earlier value does not fit this one: show the whole tensor and say why.
            showMessage(tr("Slice %1 does not fit this tensor (%2); showing the whole tensor.")
                            .arg(m_sliceText, statusText(sliced.error())),
                        true);
            m_slice = {};
            m_sliceText.clear();
        }
    }
    {
        const QSignalBlocker block(m_sliceEdit);
        m_sliceEdit->setText(m_sliceText);
    }
    m_sliceEdit->setEnabled(m_shown.isInitialized());
    std::optional<debugger::SliceOrigin> origin;
    if (m_shown.isInitialized() && !m_slice.items.empty())
        if (auto found = debugger::sliceOrigin(m_shown.shape(), m_slice))
            origin = std::move(*found);
    m_tableModel->setTensor(m_sliced, std::move(origin));
    // A single column (scalars, vectors, strings) takes the width; wider tables keep equal columns.
    m_table->horizontalHeader()->setStretchLastSection(m_tableModel->columnCount() == 1);
    m_tableModel->setHighlight(hasRealValues(m_shown.dtype()) ? m_ranges : std::nullopt);
    m_heatMap->setTensor(m_sliced);
    m_images->setTensor(m_sliced);
}

QString TensorInspector::viewDisabledReason(View view) const
{
    if (!hasTensor())
        return tr("No tensor is selected.");
    const DataType dtype = m_shown.dtype();
    const QString noReals = tr("%1 tensors hold no real numbers.").arg(dtypeText(dtype));
    if (view == View::History) {
        if (!hasRealValues(m_current.dtype()))
            return tr("History charts real numbers; %1 tensors hold none.").arg(dtypeText(m_current.dtype()));
        if (m_history.empty())
            return tr("No history yet: press Watch and run the session again to record this tensor after every run.");
        return {};
    }
    if (!m_shown.isInitialized())
        return tr("The tensor holds no value yet.");
    switch (view) {
    case View::Table:
        if (dtype == tensorflow::DT_RESOURCE || dtype == tensorflow::DT_VARIANT)
            return tr("%1 tensors have no values to list.").arg(dtypeText(dtype));
        return {};
    case View::Histogram:
        if (!hasRealValues(dtype))
            return noReals;
        if (m_histogram->histogram().bins.empty())
            return m_shown.numElements() == 0 ? tr("The tensor has no elements.") : tr("The tensor has no finite values.");
        return {};
    case View::HeatMap:
        if (!hasRealValues(dtype))
            return noReals;
        if (m_sliced.rank() != 2)
            return tr("A heat map needs a 2-D tensor; %1 is %2-D. Slice it to two axes, e.g. [0] or [..., 0].")
                .arg(m_sliceText.isEmpty() ? tr("the tensor") : tr("the slice"))
                .arg(m_sliced.rank());
        if (m_sliced.numElements() == 0)
            return tr("The slice has no elements.");
        return {};
    case View::Images: return TensorImageGrid::unsuitableReason(m_sliced);
    case View::History: break;
    }
    return {};
}

bool TensorInspector::isViewEnabled(View view) const
{
    return viewDisabledReason(view).isEmpty();
}

void TensorInspector::refreshTabs()
{
    m_updatingTabs = true;
    for (View v : {View::Table, View::Histogram, View::HeatMap, View::Images, View::History}) {
        const QString reason = viewDisabledReason(v);
        m_tabs->setTabEnabled(tabIndex(v), reason.isEmpty());
        m_tabs->setTabToolTip(tabIndex(v), reason);
    }
    View target = m_preferredView;
    if (!isViewEnabled(target))
        target = isViewEnabled(View::Table) ? View::Table : View::Histogram;
    if (isViewEnabled(target))
        m_tabs->setCurrentIndex(tabIndex(target));
    m_updatingTabs = false;
}

void TensorInspector::setView(View view)
{
    m_preferredView = view;
    if (isViewEnabled(view)) {
        m_updatingTabs = true;
        m_tabs->setCurrentIndex(tabIndex(view));
        m_updatingTabs = false;
    }
}

TensorInspector::View TensorInspector::view() const
{
    return static_cast<View>(std::max(0, m_tabs->currentIndex()));
}

bool TensorInspector::setSlice(const QString& text)
{
    const auto fail = [&](const QString& why) {
        showMessage(why, true);
        return false;
    };
    auto parsed = debugger::parseTensorSlice(text.trimmed().toStdString());
    if (!parsed)
        return fail(tr("Slice: %1").arg(statusText(parsed.error())));
    if (hasTensor() && m_shown.isInitialized() && !parsed->items.empty()) {
        const auto shape = debugger::slicedShape(m_shown.shape(), *parsed);
        if (!shape)
            return fail(tr("Slice: %1").arg(statusText(shape.error())));
    }
    m_slice = std::move(*parsed);
    m_sliceText = m_slice.items.empty() ? QString() : text.trimmed();
    showMessage(rangesNote(), false);
    if (hasTensor()) {
        refreshSliced();
        refreshTabs();
    }
    return true;
}

bool TensorInspector::setHighlightRanges(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        m_ranges.reset();
        m_rangesText.clear();
    } else {
        auto parsed = debugger::parseValueRanges(trimmed.toStdString());
        if (!parsed) {
            showMessage(tr("Highlight: %1").arg(statusText(parsed.error())), true);
            return false;
        }
        if (hasTensor() && !hasRealValues(m_shown.dtype())) {
            showMessage(tr("Highlighting needs real numbers; %1 tensors have none.").arg(dtypeText(m_shown.dtype())), true);
            return false;
        }
        m_ranges = std::move(*parsed);
        m_rangesText = trimmed;
    }
    {
        const QSignalBlocker block(m_rangesEdit);
        m_rangesEdit->setText(m_rangesText);
    }
    m_tableModel->setHighlight(m_ranges);
    m_histogram->setHighlight(m_ranges);
    showMessage(rangesNote(), false);
    return true;
}

void TensorInspector::showMessage(const QString& text, bool error)
{
    m_message = text;
    m_messageIsError = error && !text.isEmpty();
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
    QPalette palette = m_messageLabel->palette();
    palette.setColor(QPalette::WindowText, m_messageIsError ? kAlarmText : this->palette().color(QPalette::WindowText));
    m_messageLabel->setPalette(palette);
    // A red frame on the field the error is about.
    const bool sliceError = m_messageIsError && text.startsWith(tr("Slice"));
    const bool rangesError = m_messageIsError && text.startsWith(tr("Highlight"));
    m_sliceEdit->setStyleSheet(sliceError ? QStringLiteral("QLineEdit { border: 1px solid #c62828; }") : QString());
    m_rangesEdit->setStyleSheet(rangesError ? QStringLiteral("QLineEdit { border: 1px solid #c62828; }") : QString());
}

QString TensorInspector::message() const
{
    return m_message;
}

void TensorInspector::setHistory(const std::vector<WatchedValue>& history)
{
    // Statistics of runs already summarised are kept (history grows by one value per run).
    std::vector<HistoryPoint> points;
    points.reserve(history.size());
    for (const WatchedValue& w : history) {
        const auto old = std::find_if(m_history.begin(), m_history.end(), [&](const WatchedValue& h) {
            return h.run == w.run && h.value.sharesBufferWith(w.value);
        });
        if (old != m_history.end()) {
            const auto index = static_cast<std::size_t>(old - m_history.begin());
            if (index < m_historyPoints.size() && m_historyPoints[index].run == w.run) {
                points.push_back(m_historyPoints[index]);
                continue;
            }
        }
        HistoryPoint point{w.run, std::nan(""), std::nan(""), std::nan("")};
        if (const auto stats = computeTensorStatistics(w.value); stats && stats->min <= stats->max) {
            point.min = stats->min;
            point.mean = stats->mean;
            point.max = stats->max;
        }
        points.push_back(point);
    }
    m_history = history;
    m_historyPoints = std::move(points);
    if (m_historyRun && std::none_of(m_history.begin(), m_history.end(),
                                     [&](const WatchedValue& w) { return w.run == *m_historyRun; }))
        showHistoryRun(std::nullopt);
    refreshHistory();
    refreshTabs();
}

void TensorInspector::refreshHistory()
{
    m_historyChart->setPoints(m_historyPoints);
    m_historyChart->setSelectedRun(m_historyRun);
    const QSignalBlocker block(m_historyCombo);
    m_historyCombo->clear();
    m_historyCombo->addItem(tr("Current value"), QVariant());
    for (auto it = m_history.rbegin(); it != m_history.rend(); ++it)
        m_historyCombo->addItem(tr("Session run %1").arg(it->run), QVariant::fromValue<qlonglong>(it->run));
    const int index = m_historyRun ? m_historyCombo->findData(QVariant::fromValue<qlonglong>(*m_historyRun)) : 0;
    m_historyCombo->setCurrentIndex(std::max(0, index));
}

bool TensorInspector::showHistoryRun(std::optional<std::int64_t> run)
{
    if (!hasTensor())
        return false;
    if (run) {
        const auto it = std::find_if(m_history.begin(), m_history.end(), [&](const WatchedValue& w) { return w.run == *run; });
        if (it == m_history.end())
            return false;
        m_shown = it->value;
    } else {
        m_shown = m_current;
    }
    m_historyRun = run;
    refreshShown();
    refreshHistory();
    refreshTabs();
    return true;
}

void TensorInspector::onHistoryComboChanged(int index)
{
    const QVariant data = m_historyCombo->itemData(index);
    showHistoryRun(data.isValid() ? std::optional<std::int64_t>(data.toLongLong()) : std::nullopt);
}

bool TensorInspector::saveNpy(const QString& path, QString* error)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        showMessage(why, true);
        return false;
    };
    if (!hasTensor() || !m_shown.isInitialized())
        return fail(tr("There is no tensor value to save."));
    if (m_shown.dtype() == tensorflow::DT_STRING || m_shown.dtype() == tensorflow::DT_RESOURCE)
        return fail(tr("Cannot save %1 tensors as .npy.").arg(dtypeText(m_shown.dtype())));
    const Status status = writeNpy(std::filesystem::path(path.toStdString()), m_shown);
    if (!status.isOk())
        return fail(tr("Could not save %1: %2").arg(path, statusText(status)));
    showMessage(tr("Saved %1").arg(path), false);
    return true;
}

void TensorInspector::saveWithDialog()
{
    QString suggested = m_name;
    suggested.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char(':'), QLatin1Char('_'));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save tensor as .npy"), suggested + QStringLiteral(".npy"),
                                                      tr("NumPy arrays (*.npy)"));
    if (!path.isEmpty())
        saveNpy(path);
}

void TensorInspector::setWatched(bool watched)
{
    const QSignalBlocker block(m_watchButton);
    m_watchButton->setChecked(watched);
}

bool TensorInspector::isWatched() const
{
    return m_watchButton->isChecked();
}

} // namespace tstudio::debugger_ui
