// ScalarsView: the Scalars tab (controls, tag sections, lazily created chart grids).
#include "scalars_view.h"

#include "dashboard/scalar_math.h"
#include "dashboard/scalar_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

namespace {

constexpr int kChartWidth = 440;   // the narrowest card: two per row at 1280 px, three at 1400 px
constexpr int kGridSpacing = 8;    // between cards, inside a section and between sections
// Cards are as wide as the columns make them and a little over 3:5 as tall, within these bounds.
constexpr int kMinChartHeight = 280;
constexpr int kMaxChartHeight = 460;
constexpr int kExpandedSections = 3;
// An enlarged card takes a whole row, this much taller than the others (within the bounds).
constexpr int kMaxEnlargedHeight = 760;
// The Pinned section's key: no tag's section (the text before its first '/') can be this.
const QString kPinnedKey = QStringLiteral("\x01pinned");

} // namespace

ScalarsView::ScalarsView(QWidget* parent) : QWidget(parent)
{
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setClearButtonEnabled(true);
    m_smoothingLabel = new QLabel(this);
    m_smoothingSlider = new QSlider(Qt::Horizontal, this);
    m_smoothingSlider->setRange(0, 999);
    m_smoothingSlider->setValue(600);
    m_smoothingSlider->setMinimumWidth(120);
    m_smoothingSlider->setMaximumWidth(360);
    m_smoothingBox = new QDoubleSpinBox(this);
    m_smoothingBox->setRange(0, kMaxSmoothingWeight);
    m_smoothingBox->setDecimals(3);
    m_smoothingBox->setSingleStep(0.01);
    m_smoothingBox->setValue(0.6);
    m_smoothingKindBox = new QComboBox(this);
    m_smoothingKindBox->addItems({QString(), QString()});
    m_windowBox = new QSpinBox(this);
    m_windowBox->setRange(1, static_cast<int>(kMaxSmoothingWindow));
    m_windowBox->setValue(m_window);
    m_envelopeBox = new QCheckBox(this);
    m_xAxisLabel = new QLabel(this);
    m_xAxisBox = new QComboBox(this);
    m_xAxisBox->addItems({QString(), QString(), QString()});
    m_logBox = new QCheckBox(this);
    m_outlierBox = new QCheckBox(this);
    m_outlierBox->setChecked(true);

    // Two rows: the filter and the axes, then the smoothing (its kind, weight or window, envelope).
    auto* axes = new QHBoxLayout;
    axes->addWidget(m_filterEdit, 1);
    axes->addSpacing(12);
    axes->addWidget(m_xAxisLabel);
    axes->addWidget(m_xAxisBox);
    axes->addSpacing(12);
    axes->addWidget(m_logBox);
    axes->addWidget(m_outlierBox);
    auto* smoothing = new QHBoxLayout;
    smoothing->addWidget(m_smoothingLabel);
    smoothing->addWidget(m_smoothingKindBox);
    smoothing->addWidget(m_smoothingSlider, 1);
    smoothing->addWidget(m_smoothingBox);
    smoothing->addWidget(m_windowBox);
    smoothing->addSpacing(12);
    smoothing->addWidget(m_envelopeBox);
    smoothing->addStretch(1);
    auto* controls = new QVBoxLayout;
    controls->setSpacing(2);
    controls->addLayout(axes);
    controls->addLayout(smoothing);

    m_content = new QWidget;
    m_sectionsLayout = new QVBoxLayout(m_content);
    m_sectionsLayout->setContentsMargins(4, 4, 4, 4);
    m_sectionsLayout->setSpacing(6);
    m_emptyLabel = new QLabel(m_content);
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setStyleSheet(QStringLiteral("color: #757575; padding: 40px;"));
    m_sectionsLayout->addWidget(m_emptyLabel);
    m_sectionsLayout->addStretch(1);
    // Sections are packed into one grid, so that sections of one or two charts share a row.
    m_sectionsHost = new QWidget(m_content);
    m_sectionsGrid = new QGridLayout(m_sectionsHost);
    m_sectionsGrid->setContentsMargins(0, 0, 0, 0);
    m_sectionsGrid->setHorizontalSpacing(kGridSpacing);
    m_sectionsGrid->setVerticalSpacing(6);
    m_sectionsGrid->setAlignment(Qt::AlignTop);
    m_sectionsLayout->insertWidget(m_sectionsLayout->count() - 1, m_sectionsHost);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(m_content);
    m_scroll->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_scroll, 1);

    connect(m_filterEdit, &QLineEdit::textChanged, this, &ScalarsView::setTagFilter);
    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 1000.0); });
    connect(m_smoothingBox, &QDoubleSpinBox::valueChanged, this, [this](double v) { setSmoothing(v); });
    connect(m_smoothingKindBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        setSmoothingKind(i == 1 ? SmoothingKind::MovingAverage : SmoothingKind::Exponential);
    });
    connect(m_windowBox, &QSpinBox::valueChanged, this, &ScalarsView::setSmoothingWindow);
    connect(m_envelopeBox, &QCheckBox::toggled, this, &ScalarsView::setEnvelope);
    connect(m_xAxisBox, &QComboBox::currentIndexChanged, this, [this](int i) { setXAxis(static_cast<XAxis>(std::clamp(i, 0, 2))); });
    connect(m_logBox, &QCheckBox::toggled, this, &ScalarsView::setLogY);
    connect(m_outlierBox, &QCheckBox::toggled, this, &ScalarsView::setIgnoreOutliers);
    retranslateUi();
    updateSmoothingControls();
    updateEmptyState();
}

ScalarsView::~ScalarsView() = default;

void ScalarsView::retranslateUi()
{
    m_filterEdit->setPlaceholderText(tr("Filter tags (regular expressions supported)"));
    if (m_filterValid)
        m_filterEdit->setToolTip(m_filterEdit->placeholderText());
    m_smoothingLabel->setText(tr("Smoothing"));
    m_smoothingKindBox->setItemText(0, tr("Exponential"));
    m_smoothingKindBox->setItemText(1, tr("Moving average"));
    m_smoothingKindBox->setToolTip(tr("Exponential: TensorBoard's debiased exponential moving average, by its weight. "
                                      "Moving average: the mean of the last N samples."));
    m_windowBox->setSuffix(tr(" samples"));
    m_windowBox->setToolTip(tr("Samples in the moving average's window and the envelope's"));
    m_envelopeBox->setText(tr("Min/max envelope"));
    m_envelopeBox->setToolTip(tr("Shade the range between the least and the greatest value of each window"));
    m_xAxisLabel->setText(tr("Horizontal axis"));
    m_xAxisBox->setItemText(0, tr("Step"));
    m_xAxisBox->setItemText(1, tr("Relative"));
    m_xAxisBox->setItemText(2, tr("Wall"));
    m_logBox->setText(tr("Log scale"));
    m_outlierBox->setText(tr("Ignore outliers in chart scaling"));
    m_emptyLabel->setText(tr("No scalar data. Scalars appear here when a run writes tf.summary.scalar."));
    for (auto& [name, section] : m_sections)
        updateHeader(section);
}

void ScalarsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QString ScalarsView::sectionOf(const QString& tag)
{
    const qsizetype slash = tag.indexOf(QLatin1Char('/'));
    return slash < 0 ? tag : tag.left(slash);
}

void ScalarsView::configure(ScalarChart* chart) const
{
    chart->setRuns(m_runs);
    chart->setHighlightedRuns(m_highlighted);
    chart->setSmoothing(m_smoothing);
    chart->setSmoothingKind(m_smoothingKind);
    chart->setSmoothingWindow(m_window);
    chart->setEnvelope(m_envelope);
    chart->setXAxis(m_xAxis);
    chart->setLogY(m_logY);
    chart->setIgnoreOutliers(m_ignoreOutliers);
}

ScalarsView::Section& ScalarsView::sectionFor(const QString& tag)
{
    return section(sectionOf(tag), tag);
}

ScalarsView::Section& ScalarsView::pinnedSection()
{
    return section(kPinnedKey, QString());
}

ScalarsView::Section& ScalarsView::section(const QString& name, const QString& firstTag)
{
    auto [it, added] = m_sections.try_emplace(name);
    Section& s = it->second;
    if (added) {
        s.name = name;
        s.frame = new QWidget(m_sectionsHost);
        auto* frameLayout = new QVBoxLayout(s.frame);
        frameLayout->setContentsMargins(0, 0, 0, 0);
        frameLayout->setSpacing(2);
        s.header = new QToolButton(s.frame);
        s.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        s.header->setAutoRaise(true);
        s.header->setCheckable(true);
        QFont f = s.header->font();
        f.setBold(true);
        s.header->setFont(f);
        // One height for every header, so that sections sharing a row align their charts (a size hint
        // grows with some characters, an underscore's descent among them).
        s.header->setFixedHeight(std::max(s.header->iconSize().height(), QFontMetrics(f).height()) + 8);
        s.body = new QWidget(s.frame);
        s.grid = new QGridLayout(s.body);
        s.grid->setContentsMargins(0, 0, 0, 0);
        s.grid->setHorizontalSpacing(kGridSpacing);
        s.grid->setVerticalSpacing(kGridSpacing);
        frameLayout->addWidget(s.header);
        frameLayout->addWidget(s.body);
        // Sections are shown losses first, rates last, else by name (scalarTagLess); the first few start
        // expanded, and the Pinned section always. The new section's tag is not in it yet: its rank
        // is the tag's.
        if (name == kPinnedKey) {
            s.expanded = true;
        } else {
            s.tags.append(firstTag);
            const QStringList order = sections();
            s.tags.clear();
            s.expanded = order.indexOf(name) < kExpandedSections;
        }
        connect(s.header, &QToolButton::toggled, this, [this, name](bool on) { setSectionExpanded(name, on); });
    }
    return s;
}

void ScalarsView::updateHeader(Section& section)
{
    int shown = 0;
    for (const QString& t : section.tags)
        shown += passes(t) ? 1 : 0;
    const QString count = shown == section.tags.size() ? QString::number(section.tags.size())
                                                       : tr("%1 of %2").arg(shown).arg(section.tags.size());
    section.header->setText(
        QStringLiteral("%1  (%2)").arg(section.name == kPinnedKey ? tr("Pinned") : section.name, count));
    section.header->setArrowType(section.expanded ? Qt::DownArrow : Qt::RightArrow);
    const QSignalBlocker block(section.header);
    section.header->setChecked(section.expanded);
}

int ScalarsView::columns() const
{
    const int width = m_scroll->viewport()->width() - 16;
    return std::max(1, (width + kGridSpacing) / (kChartWidth + kGridSpacing));
}

int ScalarsView::chartHeight() const
{
    const int cols = std::max(1, m_columns);
    const int width = (m_scroll->viewport()->width() - 16 - (cols - 1) * kGridSpacing) / cols;
    return std::clamp(width * 5 / 8, kMinChartHeight, kMaxChartHeight);
}

int ScalarsView::heightOf(const QString& tag) const
{
    const int height = chartHeight();
    if (!m_enlarged.contains(tag))
        return height;
    // As wide as the row and 3:8 as tall, at least the usual cards' height.
    const int width = m_scroll->viewport()->width() - 16;
    return std::clamp(width * 3 / 8, height, std::max(height, kMaxEnlargedHeight));
}

void ScalarsView::packSections()
{
    while (QLayoutItem* item = m_sectionsGrid->takeAt(0))
        delete item;
    const int cols = std::max(1, m_columns);
    int row = 0, column = 0;
    for (const QString& name : sections()) {
        const Section& section = m_sections.at(name);
        if (section.frame->isHidden())
            continue;
        // An expanded section takes as many columns as it shows charts; a collapsed one, or one with
        // an enlarged chart, a whole row.
        const int span = section.expanded && !section.hasEnlarged ? std::clamp(section.shownCharts, 1, cols) : cols;
        if (column + span > cols) {
            ++row;
            column = 0;
        }
        m_sectionsGrid->addWidget(section.frame, row, column, 1, span, Qt::AlignTop);
        column += span;
        if (column >= cols) {
            ++row;
            column = 0;
        }
    }
    for (int c = 0; c < std::max(cols, m_sectionsGrid->columnCount()); ++c)
        m_sectionsGrid->setColumnStretch(c, c < cols ? 1 : 0);
}

ScalarChart* ScalarsView::createChart(Section& section, const QString& tag)
{
    auto* chart = new ScalarChart(section.body);
    chart->setTag(tag);
    chart->setFixedHeight(heightOf(tag));
    configure(chart);
    chart->setPinned(m_pinned.contains(tag));
    chart->setEnlarged(m_enlarged.contains(tag));
    // Queued: unpinning from the pinned copy deletes the chart that sent the signal.
    connect(chart, &ScalarChart::pinToggled, this, [this, tag](bool on) { setPinned(tag, on); }, Qt::QueuedConnection);
    connect(chart, &ScalarChart::enlargeToggled, this, [this, tag](bool on) { setEnlarged(tag, on); },
            Qt::QueuedConnection);
    auto it = m_data.find(tag);
    if (it != m_data.end())
        for (const auto& [run, samples] : it->second)
            chart->setSeries(run, samples);
    section.charts[tag] = chart;
    return chart;
}

void ScalarsView::layoutSection(Section& section, bool pack)
{
    // Take every chart out of the grid, then put the shown ones back in order, in as many columns as
    // the section spans (packSections).
    while (QLayoutItem* item = section.grid->takeAt(0))
        delete item;
    int shownCount = 0;
    section.hasEnlarged = false;
    for (const QString& tag : section.tags)
        if (section.expanded && passes(tag)) {
            ++shownCount;
            section.hasEnlarged = section.hasEnlarged || m_enlarged.contains(tag);
        }
    const int cols = section.hasEnlarged ? std::max(1, m_columns) : std::clamp(shownCount, 1, std::max(1, m_columns));
    int i = 0, row = 0, column = 0;
    for (const QString& tag : section.tags) {
        const bool show = section.expanded && passes(tag);
        auto it = section.charts.find(tag);
        ScalarChart* chart = it == section.charts.end() ? nullptr : it->second;
        if (show && !chart)
            chart = createChart(section, tag);
        if (!chart)
            continue;
        chart->setVisible(show);
        if (!show)
            continue;
        if (m_enlarged.contains(tag)) { // a row of its own
            if (column > 0)
                ++row, column = 0;
            section.grid->addWidget(chart, row++, 0, 1, cols, Qt::AlignTop);
        } else {
            section.grid->addWidget(chart, row, column, Qt::AlignTop);
            if (++column >= cols)
                ++row, column = 0;
        }
        ++i;
    }
    for (int c = 0; c < section.grid->columnCount(); ++c)
        section.grid->setColumnStretch(c, c < cols ? 1 : 0);
    section.shownCharts = i;
    section.body->setVisible(section.expanded && i > 0);
    bool any = false;
    for (const QString& t : section.tags)
        any = any || passes(t);
    section.frame->setVisible(any);
    updateHeader(section);
    if (pack)
        packSections();
}

void ScalarsView::relayoutAll()
{
    m_columns = columns();
    const int height = chartHeight();
    for (auto& [name, section] : m_sections) {
        for (auto& [tag, chart] : section.charts)
            chart->setFixedHeight(m_enlarged.contains(tag) ? heightOf(tag) : height);
        layoutSection(section, false);
    }
    packSections();
    updateEmptyState();
}

bool ScalarsView::eventFilter(QObject* watched, QEvent* event)
{
    // The viewport's width decides the columns and the cards' height (it is resized after this widget's
    // own resize event).
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        if (columns() != m_columns) {
            relayoutAll();
        } else {
            for (auto& [name, section] : m_sections)
                for (auto& [tag, chart] : section.charts)
                    if (const int height = heightOf(tag); chart->height() != height)
                        chart->setFixedHeight(height);
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ScalarsView::updateEmptyState() { m_emptyLabel->setVisible(m_data.empty()); }

bool ScalarsView::passes(const QString& tag) const
{
    if (m_filter.isEmpty() || !m_filterValid)
        return true;
    const QRegularExpression re(m_filter, QRegularExpression::CaseInsensitiveOption);
    return re.match(tag).hasMatch();
}

void ScalarsView::setRuns(const QVector<RunStyle>& runs)
{
    if (runs == m_runs)
        return;
    m_runs = runs;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setRuns(runs);
}

void ScalarsView::setHighlightedRuns(const QStringList& runs)
{
    if (runs == m_highlighted)
        return;
    m_highlighted = runs;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setHighlightedRuns(runs);
}

void ScalarsView::setScalars(const QString& run, const QString& tag, ScalarChart::Samples samples)
{
    if (!samples || samples->empty()) {
        auto it = m_data.find(tag);
        if (it == m_data.end() || !it->second.erase(run))
            return;
        Section& section = sectionFor(tag);
        if (auto c = section.charts.find(tag); c != section.charts.end())
            c->second->removeSeries(run);
        if (ScalarChart* pinned = pinnedChart(tag))
            pinned->removeSeries(run);
        if (it->second.empty()) {
            setPinned(tag, false);
            m_enlarged.remove(tag);
            m_data.erase(it);
            section.tags.removeAll(tag);
            if (auto c = section.charts.find(tag); c != section.charts.end()) {
                delete c->second;
                section.charts.erase(c);
            }
            if (section.tags.isEmpty()) {
                delete section.frame;
                m_sections.erase(sectionOf(tag));
                packSections();
            } else {
                layoutSection(section);
            }
            updateEmptyState();
        }
        return;
    }
    auto& runs = m_data[tag];
    const bool newTag = runs.empty();
    runs[run] = samples;
    Section& section = sectionFor(tag);
    if (newTag) {
        section.tags.append(tag);
        std::sort(section.tags.begin(), section.tags.end(), [](const QString& a, const QString& b) {
            return scalarTagLess(a.toStdString(), b.toStdString());
        });
        if (m_columns == 0)
            m_columns = columns();
        layoutSection(section); // creates the chart when shown, with all its data
        updateEmptyState();
        return;
    }
    if (ScalarChart* pinned = pinnedChart(tag))
        pinned->setSeries(run, samples);
    if (auto c = section.charts.find(tag); c != section.charts.end())
        c->second->setSeries(run, std::move(samples));
}

void ScalarsView::removeRun(const QString& run)
{
    QStringList affected;
    for (const auto& [tag, runs] : m_data)
        if (runs.count(run))
            affected << tag;
    for (const QString& tag : affected)
        setScalars(run, tag, nullptr);
}

QStringList ScalarsView::tags() const
{
    QStringList out;
    for (const auto& [tag, runs] : m_data)
        out << tag;
    return out;
}

ScalarChart* ScalarsView::chart(const QString& tag) const
{
    auto s = m_sections.find(sectionOf(tag));
    if (s == m_sections.end())
        return nullptr;
    auto c = s->second.charts.find(tag);
    return c == s->second.charts.end() ? nullptr : c->second;
}

ScalarChart* ScalarsView::pinnedChart(const QString& tag) const
{
    auto s = m_sections.find(kPinnedKey);
    if (s == m_sections.end())
        return nullptr;
    auto c = s->second.charts.find(tag);
    return c == s->second.charts.end() ? nullptr : c->second;
}

void ScalarsView::setPinned(const QString& tag, bool pinned)
{
    if (pinned == m_pinned.contains(tag) || (pinned && !m_data.count(tag)))
        return;
    Section& pins = pinnedSection();
    if (pinned) {
        m_pinned.append(tag);
    } else {
        m_pinned.removeAll(tag);
        if (auto c = pins.charts.find(tag); c != pins.charts.end()) {
            delete c->second;
            pins.charts.erase(c);
        }
    }
    pins.tags = m_pinned;
    if (ScalarChart* c = chart(tag))
        c->setPinned(pinned);
    layoutSection(pins); // creates the pinned copy (its button checked)
}

void ScalarsView::setEnlarged(const QString& tag, bool enlarged)
{
    if (enlarged == m_enlarged.contains(tag) || (enlarged && !m_data.count(tag)))
        return;
    if (enlarged)
        m_enlarged.insert(tag);
    else
        m_enlarged.remove(tag);
    for (ScalarChart* c : {chart(tag), pinnedChart(tag)})
        if (c) {
            c->setEnlarged(enlarged);
            c->setFixedHeight(heightOf(tag));
        }
    layoutSection(sectionFor(tag), false);
    if (m_pinned.contains(tag))
        layoutSection(pinnedSection(), false);
    packSections();
}

QStringList ScalarsView::sections() const
{
    // Each section by its first tag in dashboard order (losses first, rates last), then by name.
    std::vector<std::pair<int, QString>> ranked;
    for (const auto& [name, s] : m_sections) {
        int rank = s.tags.isEmpty() ? 1 : 2;
        for (const QString& tag : s.tags)
            rank = std::min(rank, scalarTagRank(tag.toStdString()));
        if (name == kPinnedKey)
            rank = -1;
        ranked.emplace_back(rank, name);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QStringList out;
    for (const auto& [rank, name] : ranked)
        out << name;
    return out;
}

bool ScalarsView::isSectionShown(const QString& section) const
{
    auto it = m_sections.find(section);
    return it != m_sections.end() && !it->second.frame->isHidden();
}

bool ScalarsView::isSectionExpanded(const QString& section) const
{
    auto it = m_sections.find(section);
    return it != m_sections.end() && it->second.expanded;
}

void ScalarsView::setSectionExpanded(const QString& section, bool expanded)
{
    auto it = m_sections.find(section);
    if (it == m_sections.end() || it->second.expanded == expanded)
        return;
    it->second.expanded = expanded;
    layoutSection(it->second);
}

void ScalarsView::setTagFilter(const QString& pattern)
{
    if (m_filterEdit->text() != pattern) {
        const QSignalBlocker block(m_filterEdit);
        m_filterEdit->setText(pattern);
    }
    m_filter = pattern;
    m_filterValid = QRegularExpression(pattern).isValid();
    m_filterEdit->setStyleSheet(m_filterValid ? QString() : QStringLiteral("QLineEdit { color: #d32f2f; }"));
    // While valid, the tooltip is the hint: the placeholder is elided when the row is narrow.
    m_filterEdit->setToolTip(m_filterValid
                                 ? m_filterEdit->placeholderText()
                                 : tr("Invalid regular expression: %1").arg(QRegularExpression(pattern).errorString()));
    relayoutAll();
}

void ScalarsView::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, kMaxSmoothingWeight) : 0.0;
    {
        const QSignalBlocker b1(m_smoothingSlider), b2(m_smoothingBox);
        m_smoothingSlider->setValue(static_cast<int>(std::lround(weight * 1000)));
        m_smoothingBox->setValue(weight);
    }
    if (weight == m_smoothing)
        return;
    m_smoothing = weight;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setSmoothing(weight);
}

void ScalarsView::setSmoothingKind(SmoothingKind kind)
{
    {
        const QSignalBlocker block(m_smoothingKindBox);
        m_smoothingKindBox->setCurrentIndex(kind == SmoothingKind::MovingAverage ? 1 : 0);
    }
    m_smoothingKind = kind;
    updateSmoothingControls();
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setSmoothingKind(kind);
}

void ScalarsView::setSmoothingWindow(int samples)
{
    samples = std::clamp(samples, 1, static_cast<int>(kMaxSmoothingWindow));
    {
        const QSignalBlocker block(m_windowBox);
        m_windowBox->setValue(samples);
    }
    m_window = samples;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setSmoothingWindow(samples);
}

void ScalarsView::setEnvelope(bool shown)
{
    {
        const QSignalBlocker block(m_envelopeBox);
        m_envelopeBox->setChecked(shown);
    }
    m_envelope = shown;
    updateSmoothingControls();
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setEnvelope(shown);
}

void ScalarsView::updateSmoothingControls()
{
    // The weight belongs to the exponential average; the window to the moving one and the envelope.
    const bool exponential = m_smoothingKind == SmoothingKind::Exponential;
    m_smoothingSlider->setVisible(exponential);
    m_smoothingBox->setVisible(exponential);
    m_windowBox->setVisible(!exponential || m_envelope);
}

void ScalarsView::setXAxis(XAxis axis)
{
    {
        const QSignalBlocker block(m_xAxisBox);
        m_xAxisBox->setCurrentIndex(static_cast<int>(axis));
    }
    m_xAxis = axis;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setXAxis(axis);
}

void ScalarsView::setLogY(bool logY)
{
    {
        const QSignalBlocker block(m_logBox);
        m_logBox->setChecked(logY);
    }
    m_logY = logY;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setLogY(logY);
}

void ScalarsView::setIgnoreOutliers(bool ignore)
{
    {
        const QSignalBlocker block(m_outlierBox);
        m_outlierBox->setChecked(ignore);
    }
    m_ignoreOutliers = ignore;
    for (auto& [name, section] : m_sections)
        for (auto& [tag, chart] : section.charts)
            chart->setIgnoreOutliers(ignore);
}

} // namespace tstudio::dashboard
