// ScalarChart's exports and menus: CSV and JSON of a run, the download and image dialogs, the context
// menu, and the tooltip's text.
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

QString ScalarChart::tooltipHtml(const QPoint& pos, QString* nearestRun) const
{
    const QRectF area = m_chart->plotArea();
    if (!area.isValid() || !area.adjusted(-4, -4, 4, 4).contains(pos))
        return {};
    const double xv = m_xRange.first + (pos.x() - area.left()) / area.width() * (m_xRange.second - m_xRange.first);
    const QList<RunStyle> runs = visibleRunsWithData();
    QString rows;
    double bestDistance = INFINITY;
    for (const RunStyle& r : runs) {
        const RunData& d = *m_data.at(r.run);
        const std::span<const double> xs = d.drawX();
        if (xs.empty())
            continue;
        // The sample nearest the cursor's x, as TensorBoard's findClosestPoint.
        std::size_t k = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), xv) - xs.begin());
        if (k == xs.size())
            --k;
        else if (k > 0 && std::fabs(xs[k - 1] - xv) < std::fabs(xs[k] - xv))
            --k;
        const std::size_t si = d.sorted ? d.order[k] : k;
        const events::ScalarSample& s = (*d.samples)[si];
        const double smoothed = d.smoothed[si];
        const double plottedY = m_logY ? (smoothed > 0 ? std::log10(smoothed) : NAN) : smoothed;
        const double py = area.bottom() - (plottedY - m_yRange.first) / (m_yRange.second - m_yRange.first) * area.height();
        const double px = area.left() + (xs[k] - m_xRange.first) / (m_xRange.second - m_xRange.first) * area.width();
        const double distance = std::hypot(px - pos.x(), std::isfinite(py) ? py - pos.y() : 1e6);
        if (distance < bestDistance) {
            bestDistance = distance;
            if (nearestRun)
                *nearestRun = r.run;
        }
        const bool distant = xv < d.xMin || xv > d.xMax || std::isnan(smoothed);
        const double firstWall = d.samples->front().wallTime;
        rows += QStringLiteral("<tr style=\"color:%1\"><td><span style=\"background-color:%2\">&nbsp;&nbsp;&nbsp;</span></td>"
                               "<td>%3</td><td align=right>%4</td><td align=right>%5</td><td align=right>%6</td><td>%7</td><td>%8</td></tr>")
                    .arg(distant ? QStringLiteral("#9e9e9e") : QStringLiteral("#212121"), r.colour.name(), htmlEscape(r.run),
                         QString::fromStdString(formatValue(smoothed, 4)), QString::fromStdString(formatValue(s.value, 4)),
                         QString::fromStdString(formatStep(static_cast<double>(s.step))),
                         QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(s.wallTime * 1000))).toString(QStringLiteral("ddd MMM d, HH:mm:ss")),
                         QString::fromStdString(formatRelative(s.wallTime - firstWall)));
    }
    if (rows.isEmpty())
        return {};
    return QStringLiteral("<table cellspacing=0 cellpadding=2><tr style=\"color:#616161\"><th></th><th align=left>%1</th><th>%2</th>"
                          "<th>%3</th><th>%4</th><th align=left>%5</th><th align=left>%6</th></tr>%7</table>")
        .arg(tr("Name"), tr("Smoothed"), tr("Value"), tr("Step"), tr("Time"), tr("Relative"), rows);
}

void ScalarChart::hideTooltip()
{
    if (m_tooltip)
        m_tooltip->hide();
}

ScalarChart::Samples ScalarChart::samples(const QString& run) const
{
    auto it = m_data.find(run);
    return it == m_data.end() ? nullptr : it->second->samples;
}

QString ScalarChart::csv(const QString& run) const
{
    auto it = m_data.find(run);
    return it == m_data.end() ? QString() : QString::fromStdString(scalarsCsv(*it->second->samples));
}

QString ScalarChart::json(const QString& run) const
{
    auto it = m_data.find(run);
    return it == m_data.end() ? QString() : QString::fromStdString(scalarsJson(*it->second->samples));
}

Status ScalarChart::saveCsv(const QString& run, const QString& path) const
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return notFoundError("no scalar data of run '" + run.toStdString() + "' for tag '" + m_tag.toStdString() + "'");
    const std::string text = scalarsCsv(*it->second->samples);
    return writeFileAtomically(path.toStdString(), text);
}

Status ScalarChart::saveJson(const QString& run, const QString& path) const
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return notFoundError("no scalar data of run '" + run.toStdString() + "' for tag '" + m_tag.toStdString() + "'");
    const std::string text = scalarsJson(*it->second->samples);
    return writeFileAtomically(path.toStdString(), text);
}

void ScalarChart::fillDownloadMenu(QMenu* menu, bool json, const QString& preferredRun)
{
    const QList<RunStyle> runs = visibleRunsWithData();
    if (runs.isEmpty()) {
        menu->addAction(tr("No data to download"))->setEnabled(false);
        return;
    }
    QList<RunStyle> ordered = runs;
    // The run under the tooltip comes first.
    std::stable_partition(ordered.begin(), ordered.end(), [&](const RunStyle& r) { return r.run == preferredRun; });
    for (const RunStyle& r : ordered) {
        QPixmap swatch(10, 10);
        swatch.fill(r.colour);
        menu->addAction(QIcon(swatch), r.run, this, [this, run = r.run, json] { downloadDialog(run, json); });
    }
}

void ScalarChart::downloadDialog(const QString& run, bool json)
{
    QString base = QString(m_tag).replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    QString runPart = QString(run).replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    const QString suggested = QStringLiteral("run-%1-tag-%2.%3").arg(runPart, base, json ? QStringLiteral("json") : QStringLiteral("csv"));
    const QString path = QFileDialog::getSaveFileName(this, json ? tr("Download JSON") : tr("Download CSV"), suggested,
                                                      json ? tr("JSON files (*.json)") : tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const Status st = json ? saveJson(run, path) : saveCsv(run, path);
    if (!st.isOk())
        QMessageBox::warning(this, tr("Download failed"), QString::fromStdString(st.message()));
}

void ScalarChart::imageDialog(bool svg)
{
    QString base = QString(m_tag).replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Save Image as SVG") : tr("Save Image as PNG"),
                                                      base + (svg ? QStringLiteral(".svg") : QStringLiteral(".png")),
                                                      svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const Status st = svg ? saveSvg(path) : savePng(path);
    if (!st.isOk())
        QMessageBox::warning(this, tr("Save failed"), QString::fromStdString(st.message()));
}

void ScalarChart::contextMenu(const QPoint& globalPos, const QPoint& viewPos)
{
    QString nearest = m_tooltipRun;
    tooltipHtml(viewPos, &nearest);
    hideTooltip();
    QMenu menu(this);
    QMenu* csvMenu = menu.addMenu(tr("Download CSV…"));
    fillDownloadMenu(csvMenu, false, nearest);
    QMenu* jsonMenu = menu.addMenu(tr("Download JSON…"));
    fillDownloadMenu(jsonMenu, true, nearest);
    menu.addSeparator();
    menu.addAction(tr("Save Image as PNG…"), this, [this] { imageDialog(false); });
    menu.addAction(tr("Save Image as SVG…"), this, [this] { imageDialog(true); });
    menu.addSeparator();
    QAction* reset = menu.addAction(tr("Reset Zoom"), this, [this] { resetZoom(); });
    reset->setEnabled(m_zoom.has_value());
    menu.exec(globalPos);
}

ChartBenchResult benchRedraw(int points)
{
    points = std::max(points, 1);
    auto samples = std::make_shared<std::vector<events::ScalarSample>>(static_cast<std::size_t>(points));
    QRandomGenerator rng(42);
    double walk = 0;
    for (int i = 0; i < points; ++i) {
        walk += rng.generateDouble() - 0.5;
        auto& s = (*samples)[static_cast<std::size_t>(i)];
        s.step = i;
        s.wallTime = 1.6e9 + i * 0.01;
        s.value = std::exp(-i / (points / 4.0)) + 0.05 * walk / std::sqrt(points / 1000.0 + 1) + 0.1 * rng.generateDouble();
    }
    ScalarChart chart;
    chart.setTag(QStringLiteral("loss"));
    chart.setRuns({RunStyle{QStringLiteral("train"), defaultRunColour(0), true}});
    chart.resize(800, 500);
    chart.setAttribute(Qt::WA_DontShowOnScreen);
    chart.show();
    chart.setSeries(QStringLiteral("train"), samples);
    chart.setSmoothing(0.6);
    chart.refresh();
    auto* view = chart.findChild<QChartView*>();
    QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
    constexpr int kRounds = 21;
    std::vector<double> total, smooth, domain, decimate, replace, render;
    for (int i = 0; i < kRounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        // Alternate the weight a hair so every round re-smooths and recomputes the domain.
        chart.setSmoothing(i % 2 ? 0.6 : 0.6001);
        chart.refresh();
        const qint64 beforeRender = timer.nsecsElapsed();
        image.fill(Qt::white);
        QPainter painter(&image);
        view->render(&painter);
        painter.end();
        const qint64 end = timer.nsecsElapsed();
        const ScalarChart::RedrawTimes t = chart.lastRedrawTimes();
        total.push_back(static_cast<double>(end) / 1e6);
        render.push_back(static_cast<double>(end - beforeRender) / 1e6);
        smooth.push_back(t.smooth);
        domain.push_back(t.domain);
        decimate.push_back(t.decimate);
        replace.push_back(t.replace);
    }
    auto median = [](std::vector<double>& v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    ChartBenchResult result;
    result.total = median(total);
    result.smooth = median(smooth);
    result.domain = median(domain);
    result.decimate = median(decimate);
    result.replace = median(replace);
    result.render = median(render);
    result.viewSize = view->size();
    result.drawnPoints = static_cast<std::size_t>(chart.rawPoints(QStringLiteral("train")).size() +
                                                  chart.smoothedPoints(QStringLiteral("train")).size());
    return result;
}

double benchRedrawMs(int points) { return benchRedraw(points).total; }

} // namespace tstudio::dashboard
