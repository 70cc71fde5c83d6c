// ScalarChart: QtCharts drawing of one scalar tag with TensorBoard's smoothing, zoom, tooltip and downloads.
#include "scalar_chart.h"
#include "dashboard/scalar_chart_internal.h"

#include "dashboard/raw_curve_item.h"
#include "dashboard/scalar_export.h"
#include "dashboard/scalar_math.h"
#include "io/atomic_file.h"

#include <QBuffer>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QPointer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QRubberBand>
#include <QScreen>
#include <QSignalBlocker>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <span>
#include <utility>

namespace tstudio::dashboard {

using namespace detail;

/// The chart view: rubber-band zoom, double-click reset, hover and context menu, reported by callbacks.
class ScalarChartView : public QChartView {
public:
    std::function<void(const QRect&)> onZoomRect;
    std::function<void()> onReset;
    std::function<void(const QPoint&)> onHover;
    std::function<void()> onLeave;
    std::function<void(const QPoint&, const QPoint&)> onMenu;

    explicit ScalarChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent)
    {
        setRenderHint(QPainter::Antialiasing);
        setMouseTracking(true);
        setRubberBand(QChartView::NoRubberBand);
        setFrameShape(QFrame::NoFrame);
    }

protected:
    void mousePressEvent(QMouseEvent* e) override
    {
        if (e->button() == Qt::LeftButton && chart()->plotArea().contains(e->position())) {
            m_origin = e->position().toPoint();
            if (!m_band)
                m_band = new QRubberBand(QRubberBand::Rectangle, this);
            m_band->setGeometry(QRect(m_origin, QSize()));
            m_band->show();
            m_dragging = true;
            if (onLeave)
                onLeave();
            e->accept();
            return;
        }
        QChartView::mousePressEvent(e);
    }
    void mouseMoveEvent(QMouseEvent* e) override
    {
        if (m_dragging) {
            m_band->setGeometry(QRect(m_origin, e->position().toPoint()).normalized());
        } else if (onHover) {
            onHover(e->position().toPoint());
        }
        QChartView::mouseMoveEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override
    {
        if (m_dragging && e->button() == Qt::LeftButton) {
            m_dragging = false;
            m_band->hide();
            const QRect r = QRect(m_origin, e->position().toPoint()).normalized();
            if (r.width() > 4 && r.height() > 4 && onZoomRect)
                onZoomRect(r);
            e->accept();
            return;
        }
        QChartView::mouseReleaseEvent(e);
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override
    {
        if (e->button() == Qt::LeftButton && onReset) {
            onReset();
            e->accept();
            return;
        }
        QChartView::mouseDoubleClickEvent(e);
    }
    void leaveEvent(QEvent* e) override
    {
        if (onLeave)
            onLeave();
        QChartView::leaveEvent(e);
    }
    void contextMenuEvent(QContextMenuEvent* e) override
    {
        if (onMenu)
            onMenu(e->globalPos(), e->pos());
    }

private:
    QRubberBand* m_band = nullptr;
    QPoint m_origin;
    bool m_dragging = false;
};

namespace {

/// The charts waiting to redraw, drained a slice of time per event-loop turn: a dashboard update
/// touches every chart at once, and redrawing dozens of them (axes relayout in Qt Charts costs
/// milliseconds each) in one turn would stall the window. Charts that go away are skipped.
class RedrawQueue : public QObject {
public:
    static RedrawQueue& instance()
    {
        static QPointer<RedrawQueue> queue;
        if (!queue)
            queue = new RedrawQueue(QCoreApplication::instance());
        return *queue;
    }

    void add(QObject* owner, std::function<void()> redraw)
    {
        m_waiting.push_back({QPointer<QObject>(owner), std::move(redraw)});
        schedule();
    }

private:
    explicit RedrawQueue(QObject* parent) : QObject(parent) {}

    void schedule()
    {
        if (m_scheduled)
            return;
        m_scheduled = true;
        // 1 ms, not 0: a zero timer is a posted event, and Qt delivers the events posted while it
        // delivers posted events in the same pass, so the slices would run back to back.
        QTimer::singleShot(1, this, [this] { drain(); });
    }

    void drain()
    {
        m_scheduled = false;
        constexpr qint64 kSliceNs = 8'000'000;
        QElapsedTimer slice;
        slice.start();
        while (!m_waiting.empty()) {
            if (slice.nsecsElapsed() > kSliceNs) {
                schedule();
                return;
            }
            auto [owner, redraw] = std::move(m_waiting.front());
            m_waiting.pop_front();
            if (owner)
                redraw();
        }
    }

    std::deque<std::pair<QPointer<QObject>, std::function<void()>>> m_waiting;
    bool m_scheduled = false;
};


constexpr int kRawAlpha = 64; // 25% opacity
constexpr int kEnvelopeAlpha = 38; // 15% opacity
constexpr int kDimmedAlpha = 56; // a run that is not highlighted while others are


// A series with this few points drawn gets a marker on each: one point draws no line at all, and a
// handful of points joined by lines hide where the samples are.
constexpr qsizetype kMarkerMaxPoints = 30;
constexpr qreal kMarkerSize = 7;

QString relativeAxisLabel(double seconds)
{
    // "1h 30m 0s" -> "1h 30m": axis ticks are round, trailing zero units say nothing.
    QString s = QString::fromStdString(formatRelative(seconds));
    while (s.contains(' ') && (s.endsWith(QLatin1String(" 0s")) || s.endsWith(QLatin1String(" 0m")) || s.endsWith(QLatin1String(" 0h"))))
        s.chop(3);
    return s;
}

void setCategories(QCategoryAxis* axis, double lo, double hi, const std::vector<double>& ticks,
                   const std::function<QString(double)>& label);

/// Value ticks labelled with as many digits as keep the labels apart (tickLabels); `values` are what the
/// labels show (10^tick on a log axis), `ticks` where they go.
void setValueCategories(QCategoryAxis* axis, double lo, double hi, const std::vector<double>& ticks,
                        const std::vector<double>& values)
{
    std::vector<double> shownTicks, shownValues;
    for (std::size_t i = 0; i < ticks.size(); ++i)
        if (ticks[i] >= lo && ticks[i] <= hi) {
            shownTicks.push_back(ticks[i]);
            shownValues.push_back(values[i]);
        }
    const std::vector<std::string> labels = tickLabels(shownValues);
    std::size_t next = 0;
    setCategories(axis, lo, hi, shownTicks, [&](double) { return QString::fromStdString(labels[next++]); });
}

void setCategories(QCategoryAxis* axis, double lo, double hi, const std::vector<double>& ticks,
                   const std::function<QString(double)>& label)
{
    for (const QString& l : axis->categoriesLabels())
        axis->remove(l);
    axis->setStartValue(lo);
    QStringList used;
    for (double t : ticks) {
        if (t < lo || t > hi)
            continue;
        QString text = label(t);
        while (used.contains(text))
            text += QChar(0x200b); // category labels must be unique
        used << text;
        axis->append(text, t);
    }
    axis->setRange(lo, hi);
}

} // namespace

ScalarChart::ScalarChart(QWidget* parent) : QWidget(parent)
{
    m_chart = new QChart();
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 12, 4));
    m_chart->setBackgroundRoundness(0);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_axisX = new QCategoryAxis(m_chart);
    m_axisY = new QCategoryAxis(m_chart);
    for (QCategoryAxis* axis : {m_axisX, m_axisY}) {
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        QFont f = font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() * 0.85));
        axis->setLabelsFont(f);
        axis->setGridLineColor(QColor(0xe0, 0xe0, 0xe0));
        axis->setLinePenColor(QColor(0x9e, 0x9e, 0x9e));
        axis->setLabelsColor(QColor(0x42, 0x42, 0x42));
    }
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);

    m_view = new ScalarChartView(m_chart, this);
    m_view->onZoomRect = [this](const QRect& r) {
        if (m_data.empty() || !m_chart->plotArea().isValid())
            return;
        const QRectF area = m_chart->plotArea();
        auto toX = [&](double px) { return m_xRange.first + (px - area.left()) / area.width() * (m_xRange.second - m_xRange.first); };
        auto toY = [&](double py) { return m_yRange.first + (area.bottom() - py) / area.height() * (m_yRange.second - m_yRange.first); };
        const QRectF clipped = QRectF(r).intersected(area);
        if (clipped.isEmpty())
            return;
        zoomTo(QRectF(QPointF(toX(clipped.left()), toY(clipped.bottom())), QPointF(toX(clipped.right()), toY(clipped.top()))));
    };
    m_view->onReset = [this] { resetZoom(); };
    m_view->onHover = [this](const QPoint& p) { showTooltip(p); };
    m_view->onLeave = [this] { hideTooltip(); };
    m_view->onMenu = [this](const QPoint& global, const QPoint& local) { contextMenu(global, local); };

    auto makeButton = [this](const QString& text) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        QFont f = b->font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() * 0.85));
        b->setFont(f);
        return b;
    };
    m_resetButton = makeButton(QString());
    m_csvButton = makeButton(QString());
    m_jsonButton = makeButton(QString());
    m_imageButton = makeButton(QString());
    m_pinButton = makeButton(QString());
    m_enlargeButton = makeButton(QString());
    for (QToolButton* b : {m_pinButton, m_enlargeButton})
        b->setCheckable(true);
    connect(m_pinButton, &QToolButton::toggled, this, [this](bool on) {
        retranslateUi();
        emit pinToggled(on);
    });
    connect(m_enlargeButton, &QToolButton::toggled, this, [this](bool on) {
        retranslateUi();
        emit enlargeToggled(on);
    });
    for (QToolButton* b : {m_csvButton, m_jsonButton, m_imageButton}) {
        b->setPopupMode(QToolButton::InstantPopup);
        b->setMenu(new QMenu(b));
    }
    connect(m_csvButton->menu(), &QMenu::aboutToShow, this, [this] {
        m_csvButton->menu()->clear();
        fillDownloadMenu(m_csvButton->menu(), false, m_tooltipRun);
    });
    connect(m_jsonButton->menu(), &QMenu::aboutToShow, this, [this] {
        m_jsonButton->menu()->clear();
        fillDownloadMenu(m_jsonButton->menu(), true, m_tooltipRun);
    });
    connect(m_imageButton->menu(), &QMenu::aboutToShow, this, [this] {
        QMenu* m = m_imageButton->menu();
        m->clear();
        m->addAction(tr("Save Image as PNG…"), this, [this] { imageDialog(false); });
        m->addAction(tr("Save Image as SVG…"), this, [this] { imageDialog(true); });
    });
    connect(m_resetButton, &QToolButton::clicked, this, [this] { resetZoom(); });

    m_emptyLabel = new QLabel(this);
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setStyleSheet(QStringLiteral("color: #757575;"));

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(0);
    buttons->addStretch(1);
    for (QToolButton* b : {m_resetButton, m_csvButton, m_jsonButton, m_imageButton, m_pinButton, m_enlargeButton})
        buttons->addWidget(b);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_emptyLabel);
    m_emptyLabel->hide();
    setMinimumSize(260, 200);
    retranslateUi();
}

ScalarChart::~ScalarChart()
{
    if (m_tooltip)
        delete m_tooltip;
}

void ScalarChart::retranslateUi()
{
    m_resetButton->setText(tr("Fit"));
    m_resetButton->setToolTip(tr("Reset the zoom (or double-click the chart)"));
    m_csvButton->setText(tr("CSV"));
    m_csvButton->setToolTip(tr("Download CSV…"));
    m_jsonButton->setText(tr("JSON"));
    m_jsonButton->setToolTip(tr("Download JSON…"));
    m_imageButton->setText(tr("Image"));
    m_imageButton->setToolTip(tr("Save the chart as an image"));
    m_pinButton->setText(m_pinButton->isChecked() ? tr("Unpin") : tr("Pin"));
    m_pinButton->setToolTip(m_pinButton->isChecked() ? tr("Take this chart out of the Pinned section")
                                                     : tr("Show this chart again in the Pinned section at the top"));
    m_enlargeButton->setText(m_enlargeButton->isChecked() ? tr("Shrink") : tr("Enlarge"));
    m_enlargeButton->setToolTip(m_enlargeButton->isChecked() ? tr("Back to the card's usual size")
                                                             : tr("Show this chart across the whole width"));
    m_emptyLabel->setText(tr("No data for the visible runs."));
}

void ScalarChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ScalarChart::setTag(const QString& tag)
{
    m_tag = tag;
    m_chart->setTitle(htmlEscape(tag));
}

void ScalarChart::setRuns(const QVector<RunStyle>& runs)
{
    if (runs == m_runs)
        return;
    auto visibleNames = [this] {
        QStringList names;
        for (const RunStyle& r : visibleRunsWithData())
            names << r.run;
        names.sort();
        return names;
    };
    const QStringList before = visibleNames();
    m_runs = runs;
    m_seriesDirty = true;
    // Colours and order do not change the domain; which runs are drawn does.
    if (visibleNames() != before)
        m_domainDirty = true;
    scheduleRedraw();
}

void ScalarChart::setHighlightedRuns(const QStringList& runs)
{
    if (runs == m_highlighted)
        return;
    m_highlighted = runs;
    m_seriesDirty = true;
    scheduleRedraw();
}

void ScalarChart::prepareX(RunData& d) const
{
    const std::vector<events::ScalarSample>& s = *d.samples;
    d.x.resize(s.size());
    const double firstWall = s.empty() ? 0 : s.front().wallTime;
    for (std::size_t i = 0; i < s.size(); ++i)
        d.x[i] = m_xAxis == XAxis::Step       ? static_cast<double>(s[i].step)
                 : m_xAxis == XAxis::Relative ? s[i].wallTime - firstWall
                                              : s[i].wallTime;
    d.order.clear();
    // Drawing needs finite x in ascending order: otherwise draw through a sorted index of the
    // samples whose x is finite (a corrupt wall time cannot be placed on the axis).
    const bool allFinite = std::all_of(d.x.begin(), d.x.end(), [](double v) { return std::isfinite(v); });
    if (!allFinite || !std::is_sorted(d.x.begin(), d.x.end())) {
        d.order.reserve(d.x.size());
        for (std::size_t i = 0; i < d.x.size(); ++i)
            if (std::isfinite(d.x[i]))
                d.order.push_back(static_cast<std::uint32_t>(i));
        std::stable_sort(d.order.begin(), d.order.end(), [&](std::uint32_t a, std::uint32_t b) { return d.x[a] < d.x[b]; });
        d.sortedX.resize(d.order.size());
        for (std::size_t i = 0; i < d.order.size(); ++i)
            d.sortedX[i] = d.x[d.order[i]];
    }
    d.sorted = !d.order.empty() || !allFinite;
    d.xMin = d.drawX().empty() ? 0 : d.drawX().front();
    d.xMax = d.drawX().empty() ? 0 : d.drawX().back();
}

void ScalarChart::setSeries(const QString& run, Samples samples)
{
    if (!samples || samples->empty()) {
        removeSeries(run);
        return;
    }
    auto& slot = m_data[run];
    const bool added = !slot;
    if (added)
        slot = std::make_unique<RunData>();
    RunData& d = *slot;
    d.samples = std::move(samples);
    d.raw.resize(d.samples->size());
    for (std::size_t i = 0; i < d.raw.size(); ++i)
        d.raw[i] = (*d.samples)[i].value;
    d.rawStats = valueStats(d.raw);
    ++d.valuesVersion;
    if (d.hasBand) { // kept in step with the samples until the owner gives the new bounds
        d.bandLo.resize(d.raw.size(), NAN);
        d.bandHi.resize(d.raw.size(), NAN);
    }
    prepareX(d);
    resmooth(d);
    m_seriesDirty = m_seriesDirty || added;
    m_domainDirty = true;
    scheduleRedraw();
}

void ScalarChart::removeSeries(const QString& run)
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return;
    for (QLineSeries* s : {it->second->rawSeries, it->second->smoothSeries})
        if (s) {
            m_chart->removeSeries(s);
            delete s;
        }
    delete it->second->rawCurve;
    delete it->second->smoothCurve;
    delete it->second->envelope;
    m_data.erase(it);
    m_seriesDirty = true;
    m_domainDirty = true;
    scheduleRedraw();
}

QStringList ScalarChart::seriesRuns() const
{
    QStringList out;
    for (const auto& [run, d] : m_data)
        out << run;
    return out;
}

void ScalarChart::setXAxis(XAxis axis)
{
    if (axis == m_xAxis)
        return;
    m_xAxis = axis;
    for (auto& [run, d] : m_data) {
        ++d->valuesVersion;
        prepareX(*d);
        resmooth(*d);
    }
    m_zoom.reset();
    m_domainDirty = true;
    scheduleRedraw();
}

void ScalarChart::setLogY(bool logY)
{
    if (logY == m_logY)
        return;
    m_logY = logY;
    for (auto& [run, d] : m_data)
        resmooth(*d);
    m_zoom.reset();
    m_domainDirty = true;
    scheduleRedraw();
}

void ScalarChart::setIgnoreOutliers(bool ignore)
{
    if (ignore == m_ignoreOutliers)
        return;
    m_ignoreOutliers = ignore;
    m_domainDirty = true;
    scheduleRedraw();
}

void ScalarChart::zoomTo(const QRectF& plotted)
{
    const QRectF r = plotted.normalized();
    if (!(r.width() > 0) || !(r.height() > 0))
        return;
    m_zoom = r; // the data's domain stays as it is: zooming only changes the ranges shown
    scheduleRedraw();
}

void ScalarChart::resetZoom()
{
    if (!m_zoom)
        return;
    m_zoom.reset();
    scheduleRedraw();
}

void ScalarChart::scheduleRedraw()
{
    m_dirty = true;
    if (m_redrawQueued || !isVisible())
        return; // showEvent redraws a hidden chart
    m_redrawQueued = true;
    RedrawQueue::instance().add(this, [this] {
        m_redrawQueued = false;
        if (isVisible())
            redraw();
    });
}

void ScalarChart::refresh()
{
    if (m_dirty)
        redraw();
}

void ScalarChart::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Queued, not redrawn here: a section or tab showing dozens of charts at once would otherwise
    // relayout them all in one event.
    if (m_dirty)
        scheduleRedraw();
}

void ScalarChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    hideTooltip();
    m_dirty = true; // the number of pixel columns changed
    scheduleRedraw();
}

QList<RunStyle> ScalarChart::visibleRunsWithData() const
{
    QList<RunStyle> out;
    for (const RunStyle& r : m_runs)
        if (r.visible && m_data.count(r.run))
            out << r;
    // Runs with data but not (yet) in the run list are drawn in a default colour.
    int extra = static_cast<int>(m_runs.size());
    for (const auto& [run, d] : m_data)
        if (!findRunStyle(m_runs, run))
            out << RunStyle{run, defaultRunColour(extra++), true};
    return out;
}

void ScalarChart::rebuildSeries()
{
    // Series are added last run first, so the first run is painted on top (as TensorBoard).
    for (auto& [run, d] : m_data) {
        for (QLineSeries** s : {&d->rawSeries, &d->smoothSeries})
            if (*s) {
                m_chart->removeSeries(*s);
                delete *s;
                *s = nullptr;
            }
        delete d->rawCurve;
        d->rawCurve = nullptr;
        delete d->smoothCurve;
        d->smoothCurve = nullptr;
        delete d->envelope;
        d->envelope = nullptr;
    }
    for (auto& [run, d] : m_data)
        d->rawDrawn = d->smoothDrawn = d->envDrawn = {};
    QList<RunStyle> runs = visibleRunsWithData();
    // Highlighted runs first, so that they are painted over the others.
    std::stable_partition(runs.begin(), runs.end(),
                          [this](const RunStyle& r) { return m_highlighted.contains(r.run); });
    const bool smoothing = smoothingOn();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        RunData& d = *m_data.at(it->run);
        const bool highlighted = m_highlighted.contains(it->run);
        const bool dimmed = !m_highlighted.isEmpty() && !highlighted;
        QColor colour = it->colour;
        if (dimmed)
            colour.setAlpha(kDimmedAlpha);
        auto addSeries = [&](QColor colour, qreal width) {
            auto* s = new QLineSeries();
            s->setName(it->run);
            QPen pen(colour);
            pen.setWidthF(width);
            // Qt Charts draws a solid line segment by segment, so caps form the joints. Square caps
            // cover a joint as round ones do (they differ by a fraction of a pixel at the corners)
            // and keep the raster engine on its fast line path: a million-point chart's curves draw
            // in about a third of the time round caps take.
            pen.setCapStyle(Qt::SquareCap);
            pen.setJoinStyle(Qt::RoundJoin);
            s->setPen(pen);
            s->setPointsVisible(false);
            s->setMarkerSize(kMarkerSize);
            m_chart->addSeries(s);
            s->attachAxis(m_axisX);
            s->attachAxis(m_axisY);
            return s;
        };
        QColor faded = it->colour;
        faded.setAlpha(dimmed ? kRawAlpha / 3 : kRawAlpha);
        if (d.showsBand(m_envelope)) {
            // Under the curves, above the grid.
            d.envelope = new EnvelopeItem(m_chart);
            d.envelope->setZValue(3.4);
            QColor band = it->colour;
            band.setAlpha(dimmed ? kEnvelopeAlpha / 3 : kEnvelopeAlpha);
            d.envelope->setColour(band);
        }
        if (smoothing) {
            d.rawSeries = addSeries(faded, 1.0);
            // Above the grid and axes (Qt Charts' z 2 and 3), below every series (4).
            d.rawCurve = new RawCurveItem(m_chart);
            d.rawCurve->setZValue(3.5);
            d.rawCurve->setColour(faded);
        }
        d.smoothSeries = addSeries(colour, (smoothing ? 2.0 : 1.5) + (highlighted ? 1.5 : 0.0));
        // At the series' z, added after it: over this run's series, under the runs painted later.
        d.smoothCurve = new DenseLineItem(m_chart);
        d.smoothCurve->setZValue(4); // Qt Charts' z for line series
        d.smoothCurve->setPen(d.smoothSeries->pen());
    }
    m_seriesDirty = false;
}

void ScalarChart::updateDomain()
{
    const QList<RunStyle> runs = visibleRunsWithData();
    double xMin = INFINITY, xMax = -INFINITY;
    for (const RunStyle& r : runs) {
        const RunData& d = *m_data.at(r.run);
        if (d.drawX().empty())
            continue;
        xMin = std::min(xMin, d.xMin);
        xMax = std::max(xMax, d.xMax);
    }
    if (!(xMax >= xMin))
        xMin = 0, xMax = 1;
    if (xMax == xMin) {
        const double pad = m_xAxis == XAxis::Step ? 1.0 : std::max(1.0, std::fabs(xMin) * 1e-9);
        xMin -= pad, xMax += pad;
    }
    m_dataX = {xMin, xMax};
    // TensorBoard's domain is computed on the values drawn in full colour: smoothed when smoothing is
    // on. The runs' arrays are read in place (no concatenation).
    std::vector<std::span<const double>> parts;
    ValueStats stats;
    // The envelope, where shown, is drawn in full too: its bounds join the values.
    const bool smoothing = smoothingOn();
    for (const RunStyle& r : runs) {
        const RunData& d = *m_data.at(r.run);
        if (m_logY) {
            parts.emplace_back(d.drawY(smoothing, true));
            if (d.showsBand(m_envelope)) {
                parts.emplace_back(d.drawEnvelope(false, true));
                parts.emplace_back(d.drawEnvelope(true, true));
            }
        } else {
            parts.emplace_back(smoothing ? d.smoothed : d.raw);
            stats.merge(smoothing ? d.smoothedStats : d.rawStats);
            if (d.showsBand(m_envelope)) {
                parts.emplace_back(d.envLo);
                parts.emplace_back(d.envHi);
                stats.merge(d.envStats);
            }
        }
    }
    if (m_logY) {
        const auto [lo, hi] = yDomainLogOfLogs(parts, m_ignoreOutliers);
        m_dataY = {std::log10(lo), std::log10(hi)};
    } else {
        m_dataY = yDomain(parts, m_ignoreOutliers, &stats);
    }
    m_domainDirty = false;
}

void ScalarChart::updateAxes()
{
    const QRectF area = m_chart->plotArea();
    const int xCount = std::max(2, static_cast<int>(area.width() / 90));
    const int yCount = std::max(2, static_cast<int>(area.height() / 45));
    const auto [x0, x1] = m_xRange;
    const auto [y0, y1] = m_yRange;
    if (m_xAxis == XAxis::Step) {
        std::vector<double> ticks = linearTicks(x0, x1, xCount);
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](double t) { return t != std::floor(t); }), ticks.end());
        setCategories(m_axisX, x0, x1, ticks, [](double v) { return QString::fromStdString(formatStep(v)); });
    } else if (m_xAxis == XAxis::Relative) {
        setCategories(m_axisX, x0, x1, timeTicks(x0, x1, xCount), relativeAxisLabel);
    } else {
        // Wall time ticks fall on local clock boundaries.
        const int offset = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(x0)).offsetFromUtc();
        std::vector<double> ticks = timeTicks(x0 + offset, x1 + offset, xCount);
        const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 60;
        for (double& t : ticks)
            t -= offset;
        const QString format = step < 60 ? QStringLiteral("HH:mm:ss") : step < 86400 ? QStringLiteral("HH:mm") : QStringLiteral("MMM d");
        setCategories(m_axisX, x0, x1, ticks, [format](double v) {
            return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(v * 1000))).toString(format);
        });
    }
    if (m_logY) {
        std::vector<double> ticks;
        const double span = y1 - y0;
        for (double k = std::ceil(y0); k <= y1; ++k) {
            ticks.push_back(k);
            if (span < 3)
                for (double m : {2.0, 5.0})
                    if (k + std::log10(m) <= y1)
                        ticks.push_back(k + std::log10(m));
        }
        if (span < 3)
            for (double m : {2.0, 5.0})
                if (std::floor(y0) + std::log10(m) >= y0)
                    ticks.push_back(std::floor(y0) + std::log10(m));
        std::sort(ticks.begin(), ticks.end());
        std::vector<double> values;
        for (double t : ticks)
            values.push_back(std::pow(10.0, t));
        setValueCategories(m_axisY, y0, y1, ticks, values);
    } else {
        const std::vector<double> ticks = linearTicks(y0, y1, yCount);
        setValueCategories(m_axisY, y0, y1, ticks, ticks);
    }
}

void ScalarChart::redraw()
{
    m_dirty = false;
    RedrawTimes times = std::exchange(m_pendingTimes, RedrawTimes{});
    QElapsedTimer timer;
    auto lap = [&timer] { return static_cast<double>(timer.nsecsElapsed()) / 1e6; };
    if (m_seriesDirty)
        rebuildSeries();
    if (m_domainDirty) {
        timer.start();
        updateDomain();
        times.domain = lap();
    }
    const QList<RunStyle> runs = visibleRunsWithData();
    const bool empty = runs.isEmpty();
    m_emptyLabel->setVisible(empty && !m_data.empty());
    if (m_zoom) {
        m_xRange = {m_zoom->left(), m_zoom->right()};
        m_yRange = {m_zoom->top(), m_zoom->bottom()};
    } else {
        m_xRange = m_dataX;
        m_yRange = m_dataY;
    }
    // Axes first: their label widths decide the plot area, whose width decides the decimation.
    // Rebuilding the categories relayouts the chart, so it is skipped when nothing they show changed.
    const AxesKey key{m_xRange, m_yRange, m_xAxis, m_logY, m_chart->plotArea().size().toSize()};
    if (!(key == m_axesKey)) {
        updateAxes();
        m_chart->layout()->activate();
        m_axesKey = {m_xRange, m_yRange, m_xAxis, m_logY, m_chart->plotArea().size().toSize()};
    }
    const int columns = std::max(1, static_cast<int>(std::ceil(m_chart->plotArea().width())));
    std::vector<std::uint32_t> idx;
    QList<QPointF> points;
    for (const RunStyle& r : runs) {
        RunData& d = *m_data.at(r.run);
        const std::span<const double> xs = d.drawX();
        auto fill = [&](QLineSeries* series, RunData::Drawn& drawn, bool smooth) {
            if (!series)
                return;
            const RunData::Drawn now{d.valuesVersion, smooth ? d.smoothedVersion : 0, m_xRange.first, m_xRange.second,
                                     columns, m_logY, true};
            if (drawn == now)
                return;
            drawn = now;
            timer.start();
            const std::span<const double> ys = d.drawY(smooth, m_logY);
            decimateForDrawing(xs, ys, m_xRange.first, m_xRange.second, columns, idx);
            // A dense curve goes to its item: the faded raw one to its RawCurveItem (one rectangle
            // per pixel column), the full-colour one to its DenseLineItem (a stroke or two per
            // column); a sparse one to its antialiased Qt Charts series, with markers.
            PlotPointsItem* const item =
                series == d.rawSeries ? static_cast<PlotPointsItem*>(d.rawCurve) : d.smoothCurve;
            if (item && idx.size() >= static_cast<std::size_t>(columns)) {
                std::vector<QPointF> dense;
                dense.reserve(idx.size());
                for (std::uint32_t i : idx)
                    dense.emplace_back(xs[i], ys[i]);
                times.decimate += lap();
                timer.start();
                item->setPoints(std::move(dense));
                if (series->count() > 0)
                    series->clear();
                series->setPointsVisible(false);
                times.replace += lap();
                return;
            }
            points.clear();
            points.reserve(static_cast<qsizetype>(idx.size()));
            for (std::uint32_t i : idx)
                points.append(QPointF(xs[i], ys[i]));
            times.decimate += lap();
            timer.start();
            if (item)
                item->setPoints({});
            series->replace(points);
            times.replace += lap();
            // Markers on the full-colour curve only; the faded raw one under it would double them.
            // Runs faded behind highlighted ones have none.
            const bool markers = series == d.smoothSeries && points.size() <= kMarkerMaxPoints &&
                                 (m_highlighted.isEmpty() || m_highlighted.contains(series->name()));
            if (series->pointsVisible() != markers)
                series->setPointsVisible(markers);
        };
        fill(d.rawSeries, d.rawDrawn, false);
        fill(d.smoothSeries, d.smoothDrawn, smoothingOn());
        for (PlotPointsItem* item : std::initializer_list<PlotPointsItem*>{d.rawCurve, d.smoothCurve})
            if (item)
                item->setView(m_chart->plotArea(), m_xRange, m_yRange);
        if (d.envelope) {
            const RunData::Drawn now{d.valuesVersion, d.smoothedVersion, m_xRange.first, m_xRange.second,
                                     columns, m_logY, true};
            if (!(d.envDrawn == now)) {
                d.envDrawn = now;
                timer.start();
                d.envelope->setStretches(detail::envelopeStretches(xs, d.drawEnvelope(true, m_logY),
                                                           d.drawEnvelope(false, m_logY), m_xRange, columns));
                times.decimate += lap();
            }
            d.envelope->setView(m_chart->plotArea(), m_xRange, m_yRange);
        }
    }
    m_resetButton->setEnabled(m_zoom.has_value());
    m_lastTimes = times;
}

namespace {

/// A curve's points as drawn: its item's when it is dense, otherwise its series'.
QList<QPointF> drawnPoints(const PlotPointsItem* item, const QLineSeries* series)
{
    if (item && !item->points().empty())
        return QList<QPointF>(item->points().begin(), item->points().end());
    return series ? series->points() : QList<QPointF>();
}

} // namespace

QList<QPointF> ScalarChart::rawPoints(const QString& run) const
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return {};
    const RunData& d = *it->second;
    return smoothingOn() ? drawnPoints(d.rawCurve, d.rawSeries) : drawnPoints(d.smoothCurve, d.smoothSeries);
}

QStringList ScalarChart::yAxisLabels() const
{
    return m_axisY->categoriesLabels();
}

bool ScalarChart::markersShown(const QString& run) const
{
    auto it = m_data.find(run);
    return it != m_data.end() && it->second->smoothSeries && it->second->smoothSeries->pointsVisible();
}

QList<QPointF> ScalarChart::smoothedPoints(const QString& run) const
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return {};
    return drawnPoints(it->second->smoothCurve, it->second->smoothSeries);
}

void ScalarChart::showTooltip(const QPoint& pos)
{
    QString nearest;
    const QString html = tooltipHtml(pos, &nearest);
    if (html.isEmpty()) {
        hideTooltip();
        return;
    }
    m_tooltipRun = nearest;
    if (!m_tooltip) {
        m_tooltip = new QLabel(nullptr, Qt::ToolTip | Qt::FramelessWindowHint);
        m_tooltip->setAttribute(Qt::WA_TransparentForMouseEvents);
        m_tooltip->setStyleSheet(QStringLiteral("QLabel { background: rgba(255,255,255,240); border: 1px solid #bdbdbd; padding: 4px; }"));
    }
    m_tooltip->setText(html);
    m_tooltip->adjustSize();
    QPoint global = m_view->mapToGlobal(pos) + QPoint(16, 16);
    if (const QScreen* screen = m_view->screen()) {
        const QRect avail = screen->availableGeometry();
        if (global.x() + m_tooltip->width() > avail.right())
            global.rx() = std::max(avail.left(), global.x() - m_tooltip->width() - 32);
        if (global.y() + m_tooltip->height() > avail.bottom())
            global.ry() = std::max(avail.top(), global.y() - m_tooltip->height() - 32);
    }
    m_tooltip->move(global);
    m_tooltip->show();
}

Status ScalarChart::savePng(const QString& path)
{
    refresh();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!m_view->grab().save(&buffer, "PNG"))
        return internalError("could not encode the chart of '" + m_tag.toStdString() + "' as PNG");
    return writeBytes(path, bytes);
}

Status ScalarChart::saveSvg(const QString& path)
{
    refresh();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(m_view->size());
    generator.setViewBox(QRect(QPoint(0, 0), m_view->size()));
    generator.setTitle(m_tag);
    QPainter painter;
    if (!painter.begin(&generator))
        return internalError("could not start the SVG of the chart of '" + m_tag.toStdString() + "'");
    m_view->render(&painter);
    painter.end();
    return writeBytes(path, bytes);
}

} // namespace tstudio::dashboard
