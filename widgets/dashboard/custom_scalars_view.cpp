#include "dashboard/custom_scalars_view.h"

#include "dashboard/custom_scalar_series.h"
#include "io/events/event_file_writer.h"
#include "proto/summary.pb.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tstudio::dashboard {
namespace {

constexpr int kCardWidth = 440;
constexpr int kSpacing = 8;
constexpr int kCardHeight = 320;

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

CustomScalarsView::CustomScalarsView(QWidget* parent) : QWidget(parent)
{
    m_content = new QWidget;
    m_list = new QVBoxLayout(m_content);
    m_list->setContentsMargins(4, 4, 4, 4);
    m_list->setSpacing(6);
    m_problemLabel = new QLabel(m_content);
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problemLabel->hide();
    m_empty = new QLabel(m_content);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setStyleSheet(QStringLiteral("color: #757575; padding: 40px;"));
    m_list->addWidget(m_problemLabel);
    m_list->addWidget(m_empty);
    m_list->addStretch(1);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(m_content);
    m_newChart = new QPushButton(this);
    m_save = new QPushButton(this);
    m_unsaved = new QLabel(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_newChart);
    bar->addWidget(m_save);
    bar->addWidget(m_unsaved);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_scroll);
    connect(m_newChart, &QPushButton::clicked, this, &CustomScalarsView::newChartDialog);
    connect(m_save, &QPushButton::clicked, this, [this] {
        if (Status s = saveLayout(); !s.isOk())
            QMessageBox::warning(this, tr("Save Layout"), q(s.message()));
    });
    retranslateUi();
    updateButtons();
}

void CustomScalarsView::retranslateUi()
{
    m_empty->setText(tr("No custom scalars layout. A run writes one with TensorBoard's "
                        "summary_lib.custom_scalar_pb or PyTorch's SummaryWriter.add_custom_scalars: "
                        "charts of several tags chosen by regular expressions, and margin charts."));
    m_problemLabel->setText(m_problems.join(QLatin1Char('\n')));
    m_newChart->setText(tr("New Chart…"));
    m_newChart->setToolTip(tr("Add a chart of several tags, or a margin chart, to this layout"));
    m_save->setText(tr("Save Layout"));
    updateButtons();
}

void CustomScalarsView::updateButtons()
{
    const int unsaved = unsavedCharts();
    m_save->setEnabled(unsaved > 0 && !m_saveDirectory.isEmpty());
    m_save->setToolTip(m_saveDirectory.isEmpty()
                           ? tr("No log directory to save in")
                           : tr("Write the layout into %1 as TensorBoard's custom scalars summary")
                                 .arg(m_saveDirectory));
    m_unsaved->setText(unsaved > 0 ? tr("%n chart(s) not saved", nullptr, unsaved) : QString());
}

void CustomScalarsView::setSaveDirectory(const QString& directory)
{
    m_saveDirectory = directory;
    updateButtons();
}

int CustomScalarsView::unsavedCharts() const
{
    int n = 0;
    for (const events::CustomCategory& c : m_added.categories)
        n += static_cast<int>(c.charts.size());
    return n;
}

Status CustomScalarsView::addChart(const QString& category, const events::CustomChart& chart)
{
    if (chart.margin ? chart.series.empty() : chart.tagPatterns.empty())
        return invalidArgumentError(chart.margin ? "a margin chart needs a series (value, lower and upper tags)"
                                                 : "a chart needs at least one tag pattern");
    for (const std::string& pattern : chart.tagPatterns)
        if (auto m = events::tagsMatching(pattern, {}); !m)
            return m.error();
    for (const events::MarginSeries& s : chart.series)
        if (s.value.empty() || s.lower.empty() || s.upper.empty())
            return invalidArgumentError("a margin series needs its value, lower and upper tags");
    events::CustomScalarsLayout one;
    one.categories.push_back({category.toStdString(), {chart}, false});
    m_added = events::mergeCustomScalarsLayouts({m_added, one});
    m_layoutDirty = true;
    updateButtons();
    refresh();
    return Status::ok();
}

Status CustomScalarsView::saveLayout()
{
    if (m_saveDirectory.isEmpty())
        return failedPreconditionError("no log directory to save the custom scalars layout in");
    if (m_layout.empty())
        return failedPreconditionError("no custom scalars layout to save");
    const std::string directory = m_saveDirectory.toStdString();
    auto writer = events::EventFileWriter::open(directory);
    if (!writer)
        return writer.error().withContext("saving the custom scalars layout in '" + directory + "'");
    Status status = (*writer)->addSummary(events::customScalarsSummary(m_layout), 0);
    if (Status closed = (*writer)->close(); status.isOk())
        status = closed;
    if (!status.isOk())
        return status.withContext("saving the custom scalars layout in '" + directory + "'");
    m_added = {}; // now in a run's layout: it comes back with the next poll
    updateButtons();
    return Status::ok();
}

void CustomScalarsView::newChartDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("New Custom Scalars Chart"));
    auto* form = new QFormLayout;
    auto* category = new QComboBox(&dialog);
    category->setEditable(true);
    for (const events::CustomCategory& c : m_layout.categories)
        category->addItem(q(c.title));
    if (category->count() == 0)
        category->addItem(tr("custom"));
    auto* title = new QLineEdit(&dialog);
    auto* kind = new QComboBox(&dialog);
    kind->addItems({tr("Lines of several tags"), tr("Margin: a value between two bounds")});
    auto* pages = new QStackedWidget(&dialog);
    auto* patterns = new QPlainTextEdit(&dialog);
    patterns->setPlaceholderText(tr("One regular expression per line, matched from the start of each tag, "
                                    "e.g. loss.*"));
    auto* marginPage = new QWidget(&dialog);
    auto* marginForm = new QFormLayout(marginPage);
    auto* value = new QLineEdit(marginPage);
    auto* lower = new QLineEdit(marginPage);
    auto* upper = new QLineEdit(marginPage);
    marginForm->addRow(tr("Value tag"), value);
    marginForm->addRow(tr("Lower bound tag"), lower);
    marginForm->addRow(tr("Upper bound tag"), upper);
    pages->addWidget(patterns);
    pages->addWidget(marginPage);
    connect(kind, &QComboBox::currentIndexChanged, pages, &QStackedWidget::setCurrentIndex);
    form->addRow(tr("Category"), category);
    form->addRow(tr("Title"), title);
    form->addRow(tr("Kind"), kind);
    form->addRow(pages);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        events::CustomChart chart;
        chart.title = title->text().trimmed().toStdString();
        chart.margin = kind->currentIndex() == 1;
        if (chart.margin) {
            chart.series.push_back({value->text().trimmed().toStdString(), lower->text().trimmed().toStdString(),
                                    upper->text().trimmed().toStdString()});
        } else {
            for (const QString& line : patterns->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                if (!line.trimmed().isEmpty())
                    chart.tagPatterns.push_back(line.trimmed().toStdString());
        }
        if (Status s = addChart(category->currentText().trimmed(), chart); !s.isOk()) {
            QMessageBox::warning(&dialog, dialog.windowTitle(), q(s.message()));
            return;
        }
        dialog.accept();
    });
    dialog.exec();
}

void CustomScalarsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CustomScalarsView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (columns() != m_columns) {
        m_columns = columns();
        for (Category& c : m_categories)
            layoutCategory(c);
    }
}

int CustomScalarsView::columns() const
{
    const int width = m_scroll->viewport()->width() - 16;
    return std::max(1, (width + kSpacing) / (kCardWidth + kSpacing));
}

void CustomScalarsView::setRuns(const QVector<RunStyle>& runs)
{
    if (runs == m_runs)
        return;
    m_runs = runs;
    scheduleUpdate();
}

void CustomScalarsView::setScalars(const QString& run, const QString& tag, ScalarChart::Samples samples)
{
    if (!samples || samples->empty()) {
        auto it = m_scalars.find(run);
        if (it == m_scalars.end() || !it->second.erase(tag))
            return;
        if (it->second.empty())
            m_scalars.erase(it);
    } else {
        m_scalars[run][tag] = std::move(samples);
    }
    if (!m_categories.empty())
        scheduleUpdate();
}

void CustomScalarsView::setLayoutSamples(const QString& run, const std::vector<events::ValueSample>& samples)
{
    m_layoutErrors.erase(run);
    const auto latest =
        std::find_if(samples.rbegin(), samples.rend(), [](const auto& s) { return s.value != nullptr; });
    if (latest == samples.rend()) {
        m_runLayouts.erase(run);
    } else if (auto layout = events::decodeCustomScalarsLayout(*latest->value, run.toStdString())) {
        m_runLayouts[run] = std::move(*layout);
    } else {
        m_runLayouts.erase(run);
        m_layoutErrors[run] = q(layout.error().message());
    }
    m_layoutDirty = true;
    scheduleUpdate();
}

void CustomScalarsView::removeRun(const QString& run)
{
    m_scalars.erase(run);
    if (m_runLayouts.erase(run) + m_layoutErrors.erase(run) > 0)
        m_layoutDirty = true;
    scheduleUpdate();
}

void CustomScalarsView::scheduleUpdate()
{
    if (m_updateQueued)
        return;
    m_updateQueued = true;
    QTimer::singleShot(0, this, [this] { refresh(); });
}

void CustomScalarsView::refresh()
{
    m_updateQueued = false;
    if (m_layoutDirty)
        rebuild();
    updateCharts();
}

QStringList CustomScalarsView::categories() const
{
    QStringList out;
    for (const events::CustomCategory& c : m_layout.categories)
        out << q(c.title);
    return out;
}

ScalarChart* CustomScalarsView::chart(int category, int index) const
{
    if (category < 0 || category >= static_cast<int>(m_categories.size()))
        return nullptr;
    const auto& cards = m_categories[static_cast<std::size_t>(category)].cards;
    if (index < 0 || index >= static_cast<int>(cards.size()))
        return nullptr;
    return cards[static_cast<std::size_t>(index)].chart;
}

bool CustomScalarsView::isCategoryExpanded(int category) const
{
    return category >= 0 && category < static_cast<int>(m_categories.size()) &&
           m_categories[static_cast<std::size_t>(category)].expanded;
}

void CustomScalarsView::setCategoryExpanded(int category, bool expanded)
{
    if (category < 0 || category >= static_cast<int>(m_categories.size()))
        return;
    Category& c = m_categories[static_cast<std::size_t>(category)];
    c.expanded = expanded;
    layoutCategory(c);
    updateCharts();
}

void CustomScalarsView::rebuild()
{
    m_layoutDirty = false;
    std::vector<events::CustomScalarsLayout> layouts; // in run-name order, as TensorBoard merges them
    for (const auto& [run, layout] : m_runLayouts)
        layouts.push_back(layout);
    layouts.push_back(m_added); // the user's charts last
    events::CustomScalarsLayout merged = events::mergeCustomScalarsLayouts(layouts);
    const bool same = events::customScalarsSummary(merged).SerializeAsString() ==
                      events::customScalarsSummary(m_layout).SerializeAsString();
    if (same && !m_categories.empty())
        return;
    for (Category& c : m_categories)
        delete c.frame;
    m_categories.clear();
    m_layout = std::move(merged);
    if (m_columns == 0)
        m_columns = columns();
    int at = m_list->indexOf(m_empty) + 1;
    for (std::size_t i = 0; i < m_layout.categories.size(); ++i) {
        const events::CustomCategory& source = m_layout.categories[i];
        Category c;
        c.expanded = !source.closed;
        c.frame = new QWidget(m_content);
        auto* frameLayout = new QVBoxLayout(c.frame);
        frameLayout->setContentsMargins(0, 0, 0, 0);
        frameLayout->setSpacing(2);
        c.header = new QToolButton(c.frame);
        c.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        c.header->setAutoRaise(true);
        c.header->setCheckable(true);
        QFont f = c.header->font();
        f.setBold(true);
        c.header->setFont(f);
        c.header->setText(QStringLiteral("%1  (%2)").arg(q(source.title)).arg(source.charts.size()));
        c.body = new QWidget(c.frame);
        c.grid = new QGridLayout(c.body);
        c.grid->setContentsMargins(0, 0, 0, 0);
        c.grid->setSpacing(kSpacing);
        frameLayout->addWidget(c.header);
        frameLayout->addWidget(c.body);
        c.cards.resize(source.charts.size());
        const int index = static_cast<int>(i);
        connect(c.header, &QToolButton::toggled, this, [this, index](bool on) { setCategoryExpanded(index, on); });
        m_list->insertWidget(at++, c.frame);
        m_categories.push_back(std::move(c));
        layoutCategory(m_categories.back());
    }
}

void CustomScalarsView::layoutCategory(Category& category)
{
    const auto index = static_cast<std::size_t>(&category - m_categories.data());
    const events::CustomCategory& source = m_layout.categories[index];
    {
        const QSignalBlocker block(category.header);
        category.header->setChecked(category.expanded);
    }
    category.header->setArrowType(category.expanded ? Qt::DownArrow : Qt::RightArrow);
    while (QLayoutItem* item = category.grid->takeAt(0))
        delete item;
    category.body->setVisible(category.expanded);
    if (!category.expanded)
        return;
    const int cols = std::max(1, m_columns);
    for (std::size_t k = 0; k < category.cards.size(); ++k) {
        Card& card = category.cards[k];
        if (!card.chart) { // made when first shown
            card.chart = new ScalarChart(category.body);
            card.chart->setTag(q(events::customChartTitle(source.charts[k])));
            card.chart->setFixedHeight(kCardHeight);
            card.chart->setPinAndEnlargeShown(false);
        }
        category.grid->addWidget(card.chart, static_cast<int>(k) / cols, static_cast<int>(k) % cols, Qt::AlignTop);
    }
    for (int c = 0; c < std::max(cols, category.grid->columnCount()); ++c)
        category.grid->setColumnStretch(c, c < cols ? 1 : 0);
}

void CustomScalarsView::updateCharts()
{
    // Visible runs with scalars, in the runs panel's order (runs it does not know yet: after them).
    std::vector<RunTags> runTags;
    std::set<QString> listed;
    auto add = [&](const QString& run) {
        auto it = m_scalars.find(run);
        if (it == m_scalars.end() || !listed.insert(run).second)
            return;
        RunTags entry{run.toStdString(), {}};
        for (const auto& [tag, samples] : it->second)
            entry.second.push_back(tag.toStdString());
        runTags.push_back(std::move(entry));
    };
    for (const RunStyle& style : m_runs)
        if (style.visible)
            add(style.run);
    for (const auto& [run, tags] : m_scalars)
        if (!findRunStyle(m_runs, run))
            add(run);

    QStringList problems;
    for (const auto& [run, error] : m_layoutErrors)
        problems << error;
    std::vector<std::string> patternErrors;
    for (std::size_t i = 0; i < m_categories.size(); ++i) {
        Category& category = m_categories[i];
        for (std::size_t k = 0; k < category.cards.size(); ++k) {
            const events::CustomChart& source = m_layout.categories[i].charts[k];
            const std::vector<CustomSeries> series =
                customChartSeries(source, runTags, m_scalars.size() > 1, &patternErrors);
            Card& card = category.cards[k];
            if (!card.chart)
                continue;
            QVector<RunStyle> styles;
            std::set<QString> keys;
            for (std::size_t s = 0; s < series.size(); ++s) {
                const CustomSeries& line = series[s];
                const QString key = q(line.key), run = q(line.run);
                keys.insert(key);
                // Margin lines take their run's colour; multi-line ones a colour each.
                const RunStyle* runStyle = findRunStyle(m_runs, run);
                const QColor colour =
                    source.margin && runStyle ? runStyle->colour : defaultRunColour(static_cast<int>(s));
                styles.push_back({key, colour, true});
                const auto& tags = m_scalars.at(run);
                auto samplesOf = [&](const std::string& tag) {
                    auto it = tags.find(q(tag));
                    return it == tags.end() ? ScalarChart::Samples() : it->second;
                };
                const auto now =
                    std::make_tuple(samplesOf(line.tag), samplesOf(line.lowerTag), samplesOf(line.upperTag));
                auto given = card.given.find(key);
                if (given != card.given.end() && given->second == now)
                    continue;
                card.given[key] = now;
                card.chart->setSeries(key, std::get<0>(now));
                if (source.margin) {
                    const auto& value = *std::get<0>(now);
                    const auto& lower = std::get<1>(now);
                    const auto& upper = std::get<2>(now);
                    const std::vector<events::ScalarSample> none;
                    card.chart->setSeriesBand(key, alignByStep(value, lower ? *lower : none),
                                              alignByStep(value, upper ? *upper : none));
                }
            }
            for (const QString& key : card.chart->seriesRuns())
                if (!keys.count(key)) {
                    card.chart->removeSeries(key);
                    card.given.erase(key);
                }
            card.chart->setRuns(styles);
        }
    }
    for (const std::string& e : patternErrors)
        problems << q(e);
    problems.removeDuplicates();
    m_problems = problems;
    m_problemLabel->setText(problems.join(QLatin1Char('\n')));
    m_problemLabel->setVisible(!problems.isEmpty());
    m_empty->setVisible(m_categories.empty());
}

} // namespace tstudio::dashboard
