// TimelineView: wires the tools, step boxes, search, canvases and details pane of the profiler's timeline.
#include "profiler/timeline_view.h"

#include "profiler/timeline_details.h"

#include "common/op_style.h"
#include "framework/op_registry.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace tstudio::profiler::timeline {

namespace {

/// Box colours per node from its op's registry category, looked up once per op type.
std::shared_ptr<const std::vector<QRgb>> nodeColours(const ProfileTrace& trace, const OpRegistry* ops)
{
    auto fills = std::make_shared<std::vector<QRgb>>(trace.nodes.size());
    std::unordered_map<std::string, QRgb> byOp;
    for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
        const std::string& op = trace.nodes[i].op;
        auto it = byOp.find(op);
        if (it == byOp.end()) {
            const OpRegistration* reg = ops ? ops->find(op) : nullptr;
            it = byOp.emplace(op, opCategoryColour(reg ? std::string_view(reg->category) : std::string_view{}).rgb())
                     .first;
        }
        (*fills)[i] = it->second;
    }
    return fills;
}

} // namespace

TimelineView::TimelineView(const OpRegistry* ops, QWidget* parent)
    : QWidget(parent), m_ops(ops), m_searchTimer(new QTimer(this))
{
    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(4, 4, 4, 2);
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->setExclusive(true);
    for (int i = 0; i < 4; ++i) {
        m_modeButtons[i] = new QToolButton(this);
        m_modeButtons[i]->setCheckable(true);
        m_modeButtons[i]->setAutoRaise(true);
        m_modeGroup->addButton(m_modeButtons[i], i + 1);
        tools->addWidget(m_modeButtons[i]);
    }
    m_modeButtons[0]->setChecked(true);
    tools->addSpacing(12);
    m_stepLabel = new QLabel(this);
    m_stepBox = new QComboBox(this);
    m_stepBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compareLabel = new QLabel(this);
    m_compareBox = new QComboBox(this);
    m_compareBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tools->addWidget(m_stepLabel);
    tools->addWidget(m_stepBox);
    tools->addWidget(m_compareLabel);
    tools->addWidget(m_compareBox);
    tools->addSpacing(12);
    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setClearButtonEnabled(true);
    m_searchEdit->setMinimumWidth(180);
    m_searchEdit->installEventFilter(this);
    m_regexButton = new QToolButton(this);
    m_regexButton->setCheckable(true);
    m_regexButton->setText(QStringLiteral(".*"));
    m_previousButton = new QToolButton(this);
    m_nextButton = new QToolButton(this);
    m_matchLabel = new QLabel(this);
    tools->addWidget(m_searchEdit, 1);
    tools->addWidget(m_regexButton);
    tools->addWidget(m_previousButton);
    tools->addWidget(m_nextButton);
    tools->addWidget(m_matchLabel);
    m_resetButton = new QToolButton(this);
    tools->addWidget(m_resetButton);

    m_canvas = new TimelineCanvas(this);
    m_compareCanvas = new TimelineCanvas(this);
    m_compareCanvas->hide();
    m_details = new TimelineDetails(this);
    m_canvasSplitter = new QSplitter(Qt::Vertical, this);
    m_canvasSplitter->addWidget(m_canvas);
    m_canvasSplitter->addWidget(m_compareCanvas);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_canvasSplitter);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({900, 320});
    m_details->setMinimumWidth(220);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(tools);
    layout->addWidget(m_splitter, 1);

    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) { setMode(static_cast<TimelineMode>(id)); });
    for (TimelineCanvas* canvas : {m_canvas, m_compareCanvas}) {
        connect(canvas, &TimelineCanvas::modeRequested, this, &TimelineView::setMode);
        // A click selects and shows the details; opening the graph takes a double click or "Show in graph"
        // (the details' link, the context menu), as in Chrome's trace viewer and TensorBoard's profiler.
        connect(canvas, &TimelineCanvas::eventClicked, this,
                [this, canvas](std::uint32_t event) { showSelection(event == kNoIndex ? nullptr : canvas, event); });
        connect(canvas, &TimelineCanvas::eventDoubleClicked, this, [this, canvas](std::uint32_t event) {
            showSelection(event == kNoIndex ? nullptr : canvas, event);
            showSelectedInGraph();
        });
        canvas->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(canvas, &QWidget::customContextMenuRequested, this,
                [this, canvas](const QPoint& pos) { showContextMenu(canvas, pos); });
        connect(canvas, &TimelineCanvas::boxSelectionChanged, this, [this, canvas] { onBoxSelection(canvas); });
    }
    // Compared steps share the horizontal zoom: both canvases start at their step's start.
    connect(m_canvas, &TimelineCanvas::windowChanged, this, [this](double start, double span) {
        if (m_compareCanvas->isVisibleTo(this))
            m_compareCanvas->setWindow(TimeWindow{start, span});
    });
    connect(m_compareCanvas, &TimelineCanvas::windowChanged, this, [this](double start, double span) {
        m_canvas->setWindow(TimeWindow{start, span});
    });
    // An input or consumer link moves the selection along the timeline; it asks for no graph.
    connect(m_details, &TimelineDetails::eventLinkActivated, this, &TimelineView::selectEvent);
    connect(m_details, &TimelineDetails::nodeLinkActivated, this, &TimelineView::nodeActivated);
    connect(m_stepBox, &QComboBox::activated, this, [this](int item) { setStep(item - 1); });
    connect(m_compareBox, &QComboBox::activated, this, [this](int item) { setCompareStep(item - 1); });
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(150);
    connect(m_searchTimer, &QTimer::timeout, this, &TimelineView::runSearch);
    connect(m_searchEdit, &QLineEdit::textChanged, this, [this] { m_searchTimer->start(); });
    connect(m_regexButton, &QToolButton::toggled, this, [this] { runSearch(); });
    connect(m_nextButton, &QToolButton::clicked, this, &TimelineView::findNext);
    connect(m_previousButton, &QToolButton::clicked, this, &TimelineView::findPrevious);
    connect(m_resetButton, &QToolButton::clicked, this, [this] {
        m_canvas->resetView();
        if (m_compareCanvas->isVisibleTo(this))
            m_compareCanvas->resetView();
    });

    retranslateUi();
    setTrace(nullptr);
}

TimelineView::~TimelineView() = default;

void TimelineView::retranslateUi()
{
    const QString names[4] = {tr("Select"), tr("Pan"), tr("Zoom"), tr("Timing")};
    const QString tips[4] = {tr("Select ops; drag a box to total them (1)"), tr("Drag to pan (2)"),
                             tr("Drag up or down to zoom (3)"), tr("Drag to measure a time span (4)")};
    for (int i = 0; i < 4; ++i) {
        m_modeButtons[i]->setText(names[i]);
        m_modeButtons[i]->setToolTip(tips[i]);
    }
    m_stepLabel->setText(tr("Step:"));
    m_compareLabel->setText(tr("Compare with:"));
    m_searchEdit->setPlaceholderText(tr("Find node or op (Enter: next, Shift+Enter: previous)"));
    m_regexButton->setToolTip(tr("Regular expression"));
    m_previousButton->setText(tr("Previous"));
    m_nextButton->setText(tr("Next"));
    m_resetButton->setText(tr("Reset zoom"));
    m_resetButton->setToolTip(tr("Show everything (0)"));
    fillStepBoxes();
    updateMatchLabel();
    updateTitles();
}

void TimelineView::updateTitles()
{
    const int a = step();
    const int b = compareStep();
    if (!m_index || a < 0) {
        m_canvas->setTitle(QString());
        return;
    }
    if (b < 0) {
        m_canvas->setTitle(stepTitle(std::uint32_t(a)));
        return;
    }
    m_canvas->setTitle(tr("A: %1").arg(stepTitle(std::uint32_t(a))));
    m_compareCanvas->setTitle(tr("B: %1").arg(stepTitle(std::uint32_t(b))));
}

void TimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

bool TimelineView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_searchEdit && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & Qt::ShiftModifier)
                findPrevious();
            else
                findNext();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TimelineView::setTrace(std::shared_ptr<const ProfileTrace> trace)
{
    m_index = trace ? std::make_shared<const TimelineIndex>(std::move(trace)) : nullptr;
    const auto fills = nodeColours(m_index ? m_index->trace() : ProfileTrace{}, m_ops);
    m_canvas->setIndex(m_index, fills);
    m_compareCanvas->setIndex(m_index, fills);
    m_details->setIndex(m_index);
    m_selectedEvent = kNoIndex;
    m_search.clear();
    m_searchTimer->stop();
    const QSignalBlocker block(m_searchEdit);
    m_searchEdit->clear();
    fillStepBoxes();
    m_stepBox->setCurrentIndex(0);
    m_compareBox->setCurrentIndex(0);
    applySteps();
    updateMatchLabel();
    announceStep();
}

std::shared_ptr<const ProfileTrace> TimelineView::trace() const
{
    return m_index ? m_index->sharedTrace() : nullptr;
}

QString TimelineView::stepTitle(std::uint32_t step) const
{
    const TraceStep& s = m_index->trace().steps[step];
    return tr("Step %1 \u00b7 %2")
        .arg(s.number)
        .arg(QString::fromStdString(formatDuration(double(s.endNs - s.startNs))));
}

void TimelineView::fillStepBoxes()
{
    const int step = m_stepBox->currentIndex();
    const int compare = m_compareBox->currentIndex();
    m_stepBox->clear();
    m_compareBox->clear();
    m_stepBox->addItem(tr("All steps"));
    m_compareBox->addItem(tr("None"));
    if (m_index)
        for (std::uint32_t i = 0; i < m_index->trace().steps.size(); ++i) {
            m_stepBox->addItem(stepTitle(i));
            m_compareBox->addItem(stepTitle(i));
        }
    m_stepBox->setCurrentIndex(std::clamp(step, 0, m_stepBox->count() - 1));
    m_compareBox->setCurrentIndex(std::clamp(compare, 0, m_compareBox->count() - 1));
}

int TimelineView::step() const
{
    return m_stepBox->currentIndex() - 1;
}

int TimelineView::compareStep() const
{
    return m_compareBox->currentIndex() - 1;
}

void TimelineView::setStep(int step)
{
    const int steps = m_index ? int(m_index->trace().steps.size()) : 0;
    m_stepBox->setCurrentIndex(step >= 0 && step < steps ? step + 1 : 0);
    if (this->step() < 0)
        m_compareBox->setCurrentIndex(0);
    applySteps();
    announceStep();
}

void TimelineView::announceStep()
{
    if (step() == m_announcedStep)
        return;
    m_announcedStep = step();
    emit stepChanged(m_announcedStep);
}

void TimelineView::setCompareStep(int step)
{
    const int steps = m_index ? int(m_index->trace().steps.size()) : 0;
    m_compareBox->setCurrentIndex(step >= 0 && step < steps && this->step() >= 0 ? step + 1 : 0);
    applySteps();
}

void TimelineView::applySteps()
{
    if (!m_index)
        return;
    const ProfileTrace& trace = m_index->trace();
    const int a = step();
    const int b = compareStep();
    m_compareBox->setEnabled(a >= 0);
    if (a < 0) {
        m_canvas->setAnchor(0);
        m_canvas->clearClip();
        updateTitles();
        m_compareCanvas->hide();
        m_details->setComparison(kNoIndex, kNoIndex);
        m_canvas->resetView();
        return;
    }
    const TraceStep& stepA = trace.steps[std::size_t(a)];
    const double durationA = double(stepA.endNs - stepA.startNs);
    m_canvas->setAnchor(double(stepA.startNs));
    updateTitles();
    if (b < 0) {
        m_canvas->clearClip();
        m_compareCanvas->hide();
        m_details->setComparison(kNoIndex, kNoIndex);
        m_canvas->setWindow(framing(0, durationA, 0.02), true);
        return;
    }
    const TraceStep& stepB = trace.steps[std::size_t(b)];
    const double durationB = double(stepB.endNs - stepB.startNs);
    m_canvas->setClip(double(stepA.startNs), double(stepA.endNs), std::uint32_t(a));
    m_compareCanvas->setAnchor(double(stepB.startNs));
    m_compareCanvas->setClip(double(stepB.startNs), double(stepB.endNs), std::uint32_t(b));
    m_compareCanvas->setMode(m_canvas->mode());
    if (!m_compareCanvas->isVisibleTo(this)) {
        m_compareCanvas->show();
        const int half = std::max(1, m_canvasSplitter->height() / 2);
        m_canvasSplitter->setSizes({half, half});
    }
    const TimeWindow both = framing(0, std::max(durationA, durationB), 0.02);
    m_canvas->setWindow(both);
    m_compareCanvas->setWindow(both);
    m_details->setComparison(std::uint32_t(a), std::uint32_t(b));
    if (m_selectedEvent != kNoIndex && !canvasShowing(m_selectedEvent))
        showSelection(nullptr, kNoIndex);
}

void TimelineView::setMode(TimelineMode mode)
{
    m_canvas->setMode(mode);
    m_compareCanvas->setMode(mode);
    if (QAbstractButton* button = m_modeGroup->button(int(mode)))
        button->setChecked(true);
}

TimelineMode TimelineView::mode() const
{
    return m_canvas->mode();
}

void TimelineView::setWheelZooms(bool on)
{
    m_canvas->setWheelZooms(on);
    m_compareCanvas->setWheelZooms(on);
}

TimelineCanvas* TimelineView::canvasShowing(std::uint32_t event) const
{
    if (!m_index || event >= m_index->trace().events.size())
        return nullptr;
    const std::uint32_t step = m_index->trace().events[event].step;
    if (m_canvas->stepFilter() == kNoIndex || m_canvas->stepFilter() == step)
        return m_canvas;
    if (m_compareCanvas->isVisibleTo(this) && m_compareCanvas->stepFilter() == step)
        return m_compareCanvas;
    return nullptr;
}

void TimelineView::showSelection(TimelineCanvas* canvas, std::uint32_t event)
{
    m_selectedEvent = canvas ? event : kNoIndex;
    for (TimelineCanvas* c : {m_canvas, m_compareCanvas})
        c->setSelectedEvent(c == canvas ? m_selectedEvent : kNoIndex);
    if (canvas && m_selectedEvent != kNoIndex) {
        m_details->setEvent(m_selectedEvent, canvas->producerLinks(), canvas->consumerLinks());
        m_search.setCurrentEvent(m_selectedEvent);
    } else {
        m_details->setEvent(kNoIndex, {}, {});
    }
}

QString TimelineView::nodeOfEvent(std::uint32_t event) const
{
    if (!m_index || event >= m_index->trace().events.size())
        return {};
    const std::uint32_t node = m_index->trace().events[event].node;
    return node < m_index->trace().nodes.size() ? QString::fromStdString(m_index->trace().nodes[node].name) : QString();
}

bool TimelineView::showSelectedInGraph()
{
    const QString node = nodeOfEvent(m_selectedEvent);
    if (node.isEmpty())
        return false;
    emit nodeActivated(node);
    return true;
}

void TimelineView::showContextMenu(TimelineCanvas* canvas, QPoint pos)
{
    const std::uint32_t hit = canvas->eventAt(pos);
    if (hit == kNoIndex)
        return;
    // A right click selects what it is on, as in a file manager, so that the menu acts on what is shown.
    showSelection(canvas, hit);
    QMenu menu(this);
    QAction* show = menu.addAction(tr("Show in graph"), [this] { showSelectedInGraph(); });
    show->setEnabled(!nodeOfEvent(hit).isEmpty());
    menu.addAction(tr("Frame selection"), [canvas] { canvas->frameSelection(); });
    menu.exec(canvas->mapToGlobal(pos));
}

void TimelineView::onBoxSelection(TimelineCanvas* source)
{
    TimelineCanvas* other = source == m_canvas ? m_compareCanvas : m_canvas;
    other->clearBoxSelection();
    showSelection(nullptr, kNoIndex);
    if (!m_index || !source->hasBoxSelection()) {
        m_details->setSelectionTotals(std::nullopt);
        return;
    }
    const double anchor = source->anchorNs();
    m_details->setSelectionTotals(
        m_index->selectionTotals(source->boxLanes(), std::int64_t(std::floor(anchor + source->boxStartNs())),
                                 std::int64_t(std::ceil(anchor + source->boxEndNs())), source->stepFilter()));
}

void TimelineView::selectEvent(std::uint32_t event)
{
    TimelineCanvas* canvas = canvasShowing(event);
    showSelection(canvas, event);
    if (canvas)
        canvas->ensureVisible(event);
}

bool TimelineView::showNode(const QString& nodeName)
{
    if (!m_index)
        return false;
    const std::uint32_t node = m_index->findNode(nodeName.toStdString());
    if (node == kNoIndex)
        return false;
    const int shown = step();
    std::uint32_t event = m_index->firstExecution(node, shown >= 0 ? std::uint32_t(shown) : kNoIndex);
    if (event == kNoIndex && compareStep() < 0)
        event = m_index->firstExecution(node, kNoIndex); // ran only in other steps: they are on screen too
    if (event == kNoIndex)
        return false;
    selectEvent(event);
    return true;
}

void TimelineView::setSearchText(const QString& text, bool regex)
{
    {
        const QSignalBlocker blockEdit(m_searchEdit);
        const QSignalBlocker blockRegex(m_regexButton);
        m_searchEdit->setText(text);
        m_regexButton->setChecked(regex);
    }
    runSearch();
}

void TimelineView::runSearch()
{
    m_searchTimer->stop();
    m_search.run(m_index.get(), m_searchEdit->text(), m_regexButton->isChecked(),
                 m_compareCanvas->isVisibleTo(this) ? m_canvas->stepFilter() : kNoIndex);
    for (TimelineCanvas* c : {m_canvas, m_compareCanvas})
        c->setSearch(m_search.nodeMask(), kNoIndex);
    updateMatchLabel();
}

void TimelineView::afterSearchMove(std::uint32_t event)
{
    if (event != kNoIndex)
        selectEvent(event);
    for (TimelineCanvas* c : {m_canvas, m_compareCanvas})
        c->setSearch(m_search.nodeMask(), event);
    updateMatchLabel();
}

void TimelineView::findNext()
{
    if (m_searchTimer->isActive())
        runSearch();
    afterSearchMove(m_search.next());
}

void TimelineView::findPrevious()
{
    if (m_searchTimer->isActive())
        runSearch();
    afterSearchMove(m_search.previous());
}

void TimelineView::updateMatchLabel()
{
    if (!m_search.errorText().isEmpty())
        m_matchLabel->setText(tr("Invalid pattern: %1").arg(m_search.errorText()));
    else if (!m_search.active())
        m_matchLabel->clear();
    else if (m_search.current() < 0)
        m_matchLabel->setText(tr("%n match(es)", nullptr, int(m_search.matches().size())));
    else
        m_matchLabel->setText(tr("%1 of %2").arg(m_search.current() + 1).arg(m_search.matches().size()));
}

TimelineBenchStats TimelineView::benchFrames(int frames)
{
    TimelineBenchStats stats;
    if (frames <= 0)
        return stats;
    const TimeWindow saved = m_canvas->window();
    const QSize size(1600, 900);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    m_canvas->resetView();
    TimeWindow w = m_canvas->window();
    const TimeWindow full = w;
    std::vector<double> times;
    times.reserve(std::size_t(frames));
    double drawCalls = 0;
    for (int i = 0; i < frames; ++i) {
        // Thirty frames zooming in, thirty panning right, thirty zooming out: a user exploring the trace.
        const int phase = i % 90;
        if (phase < 30)
            w = zoomedAround(w, 0.8, w.startNs + 0.37 * w.spanNs, full.spanNs * 2);
        else if (phase < 60)
            w = panned(w, 0.04 * w.spanNs);
        else
            w = zoomedAround(w, 1.25, w.startNs + 0.5 * w.spanNs, full.spanNs * 2);
        m_canvas->setWindow(w);
        QElapsedTimer timer;
        timer.start();
        QPainter painter(&image);
        const FrameCounters counters = m_canvas->render(painter, size);
        painter.end();
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
        drawCalls += double(counters.drawCalls());
        stats.maxPieces = std::max(stats.maxPieces, counters.pieces);
    }
    m_canvas->setWindow(saved, true);
    stats.frames = frames;
    stats.meanMs = std::accumulate(times.begin(), times.end(), 0.0) / frames;
    stats.meanDrawCalls = drawCalls / frames;
    std::sort(times.begin(), times.end());
    stats.medianMs = times[times.size() / 2];
    stats.p95Ms = times[std::min(times.size() - 1, std::size_t(double(times.size()) * 0.95))];
    stats.maxMs = times.back();
    return stats;
}

} // namespace tstudio::profiler::timeline
