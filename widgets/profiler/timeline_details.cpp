// TimelineDetails: HTML for the selected execution, the box selection's totals and a step comparison.
#include "profiler/timeline_details.h"

#include "profiler/timeline_geometry.h"

#include "framework/data_type.h"

#include <QEvent>
#include <QUrl>

#include <cmath>

namespace tstudio::profiler::timeline {

namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString duration(double ns)
{
    return QString::fromStdString(formatDuration(ns));
}

QString bytes(std::int64_t value)
{
    if (std::llabs(value) < 1024)
        return QString::fromStdString(formatBytes(value));
    return QStringLiteral("%1 (%2 B)").arg(QString::fromStdString(formatBytes(value))).arg(value);
}

QString shapeText(const ProfileTrace& trace, std::uint32_t shape)
{
    if (shape >= trace.shapes.size())
        return QStringLiteral("?");
    QStringList dims;
    for (std::int64_t d : trace.shapes[shape])
        dims << (d < 0 ? QStringLiteral("?") : QString::number(d));
    return QLatin1Char('[') + dims.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString row(const QString& name, const QString& value)
{
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name, value);
}

QString signedDuration(std::int64_t ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + duration(double(ns));
}

} // namespace

TimelineDetails::TimelineDetails(QWidget* parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QString target = url.toString();
        if (target.startsWith(QLatin1String("event:"))) {
            bool ok = false;
            const std::uint32_t event = target.mid(6).toUInt(&ok);
            if (ok)
                emit eventLinkActivated(event);
        } else if (target.startsWith(QLatin1String("graph:"))) {
            emit nodeLinkActivated(QUrl::fromPercentEncoding(target.mid(6).toUtf8()));
        }
    });
    rebuild();
}

void TimelineDetails::setIndex(std::shared_ptr<const TimelineIndex> index)
{
    m_index = std::move(index);
    m_event = kNoIndex;
    m_producers.clear();
    m_consumers.clear();
    m_totals.reset();
    m_stepA = m_stepB = kNoIndex;
    m_changes.clear();
    rebuild();
}

void TimelineDetails::setEvent(std::uint32_t event, const std::vector<DependencyLink>& producers,
                               const std::vector<DependencyLink>& consumers)
{
    m_event = m_index && event < m_index->trace().events.size() ? event : kNoIndex;
    m_producers = producers;
    m_consumers = consumers;
    rebuild();
}

void TimelineDetails::setSelectionTotals(std::optional<SelectionTotals> totals)
{
    m_totals = std::move(totals);
    rebuild();
}

void TimelineDetails::setComparison(std::uint32_t a, std::uint32_t b)
{
    const bool valid = m_index && a < m_index->trace().steps.size() && b < m_index->trace().steps.size();
    m_stepA = valid ? a : kNoIndex;
    m_stepB = valid ? b : kNoIndex;
    m_changes = valid ? m_index->compareSteps(a, b) : std::vector<OpTypeChange>{};
    rebuild();
}

void TimelineDetails::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QTextBrowser::changeEvent(event);
}

void TimelineDetails::rebuild()
{
    QString html;
    if (m_event != kNoIndex)
        html += eventHtml();
    else if (m_totals)
        html += totalsHtml();
    else if (m_index && !m_index->trace().events.empty())
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("Click an op to see its details; drag over lanes to total the ops in a box; "
                            "W/S zoom, A/D pan, 1-4 pick a tool."));
    else
        html += QStringLiteral("<p>%1</p>").arg(tr("No trace."));
    if (m_stepA != kNoIndex)
        html += comparisonHtml();
    setHtml(html);
}

QString TimelineDetails::eventHtml() const
{
    const ProfileTrace& trace = m_index->trace();
    const TraceEvent& e = trace.events[m_event];
    const TraceNode* node = e.node < trace.nodes.size() ? &trace.nodes[e.node] : nullptr;
    const TraceLane* lane = e.lane < trace.lanes.size() ? &trace.lanes[e.lane] : nullptr;
    const TraceDevice* device = lane && lane->device < trace.devices.size() ? &trace.devices[lane->device] : nullptr;
    const TraceStep* step = e.step < trace.steps.size() ? &trace.steps[e.step] : nullptr;

    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>")
                       .arg(node ? text(node->name) : tr("(unknown node)"));
    html += row(tr("Op"), node ? text(node->op) : QString());
    html += row(tr("Device"), device ? text(device->name) : tr("(no device)"));
    html += row(tr("Lane"), lane ? text(lane->name) : QString());
    // A node inside a tf.while_loop runs once per iteration: say which execution this is.
    if (e.frame < trace.frames.size()) {
        html += row(tr("Loop frame"), text(trace.frames[e.frame]));
        html += row(tr("Iteration"), QString::number(e.iteration));
    }
    if (step) {
        html += row(tr("Step"), QString::number(step->number));
        html += row(tr("Start"), tr("%1 after the step's start").arg(duration(double(e.startNs - step->startNs))));
    } else {
        html += row(tr("Start"), tr("%1 after the trace's start").arg(duration(double(e.startNs))));
    }
    html += row(tr("Duration"), duration(double(e.durationNs)));
    html += row(tr("Output bytes"), bytes(e.outputBytes));
    html += row(tr("Requested bytes"), bytes(e.requestedBytes));
    html += row(tr("Peak bytes"), bytes(e.peakBytes));
    html += row(tr("Residual bytes"), bytes(e.residualBytes));
    html += QStringLiteral("</table>");

    if (e.outputCount > 0) {
        html +=
            QStringLiteral(
                "<h4>%1</h4><table cellspacing='0' cellpadding='3'><tr><th align='left'>%2</th><th align='left'>%3</th>"
                "<th align='left'>%4</th><th align='left'>%5</th></tr>")
                .arg(tr("Outputs"), tr("Slot"), tr("Type"), tr("Shape"), tr("Bytes"));
        for (std::uint32_t i = 0; i < e.outputCount && std::size_t(e.firstOutput) + i < trace.outputs.size(); ++i) {
            const TraceOutput& out = trace.outputs[e.firstOutput + i];
            html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                        .arg(out.slot)
                        .arg(text(dataTypeName(static_cast<DataType>(out.dtype))), shapeText(trace, out.shape),
                             bytes(out.requestedBytes));
        }
        html += QStringLiteral("</table>");
    }

    auto linkList = [&](const std::vector<DependencyLink>& links, bool inputs) {
        QString list = QStringLiteral("<ul style='margin-left:-20px'>");
        for (const DependencyLink& link : links) {
            const QString name = inputs
                                     ? text(link.input)
                                     : (link.node < trace.nodes.size() ? text(trace.nodes[link.node].name) : QString());
            const QString suffix = link.control ? tr(" (control)") : QString();
            if (link.event < trace.events.size()) {
                const TraceEvent& other = trace.events[link.event];
                const QString when =
                    inputs ? tr("ended %1 before").arg(duration(double(e.startNs - (other.startNs + other.durationNs))))
                           : tr("started %1 after").arg(duration(double(other.startNs - (e.startNs + e.durationNs))));
                list += QStringLiteral("<li><a href='event:%1'>%2</a>%3 &mdash; %4</li>")
                            .arg(link.event)
                            .arg(name, suffix, when);
            } else {
                list += QStringLiteral("<li>%1%2 &mdash; %3</li>")
                            .arg(name, suffix,
                                 link.node == kNoIndex ? tr("not in the trace") : tr("did not run in this step"));
            }
        }
        return list + QStringLiteral("</ul>");
    };
    if (node && !m_producers.empty())
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Inputs")) + linkList(m_producers, true);
    if (!m_consumers.empty())
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Consumers")) + linkList(m_consumers, false);
    if (node)
        html += QStringLiteral("<p><a href='graph:%1'>%2</a></p>")
                    .arg(QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(node->name))),
                         tr("Show in graph"));
    return html;
}

QString TimelineDetails::totalsHtml() const
{
    const SelectionTotals& t = *m_totals;
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>").arg(tr("Selection"));
    html += row(tr("Ops"), QString::number(t.count));
    html += row(tr("Total duration"), duration(double(t.totalNs)));
    if (t.count > 0)
        html += row(tr("Wall time"), duration(double(t.lastEndNs - t.firstStartNs)));
    html += QStringLiteral("</table>");
    if (t.byOp.empty())
        return html;
    html += QStringLiteral("<table cellspacing='0' cellpadding='3'><tr><th align='left'>%1</th><th "
                           "align='right'>%2</th><th align='right'>%3</th>"
                           "<th align='right'>%4</th></tr>")
                .arg(tr("Op type"), tr("Count"), tr("Total"), tr("Share"));
    for (const OpTypeTotal& op : t.byOp)
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td>"
                               "<td align='right'>%4%</td></tr>")
                    .arg(text(op.op))
                    .arg(op.count)
                    .arg(duration(double(op.totalNs)))
                    .arg(t.totalNs > 0 ? 100.0 * double(op.totalNs) / double(t.totalNs) : 0.0, 0, 'f', 1);
    return html + QStringLiteral("</table>");
}

QString TimelineDetails::comparisonHtml() const
{
    const ProfileTrace& trace = m_index->trace();
    const TraceStep& a = trace.steps[m_stepA];
    const TraceStep& b = trace.steps[m_stepB];
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>")
                       .arg(tr("Step %1 (A) and step %2 (B)").arg(a.number).arg(b.number));
    html += row(tr("A"), duration(double(a.endNs - a.startNs)));
    html += row(tr("B"), duration(double(b.endNs - b.startNs)));
    html += row(tr("Change"), signedDuration((b.endNs - b.startNs) - (a.endNs - a.startNs)));
    html += QStringLiteral(
                "</table><table cellspacing='0' cellpadding='3'><tr><th align='left'>%1</th><th align='right'>%2</th>"
                "<th align='right'>%3</th><th align='right'>%4</th></tr>")
                .arg(tr("Op type"), tr("A"), tr("B"), tr("Change"));
    for (const OpTypeChange& c : m_changes) {
        const std::int64_t change = c.nsB - c.nsA;
        const QString percent = c.nsA > 0 ? QStringLiteral(" (%1%2%)")
                                                .arg(change > 0 ? QStringLiteral("+") : QString())
                                                .arg(100.0 * double(change) / double(c.nsA), 0, 'f', 1)
                                          : QString();
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td>"
                               "<td align='right'>%4%5</td></tr>")
                    .arg(text(c.op), duration(double(c.nsA)), duration(double(c.nsB)), signedDuration(change), percent);
    }
    return html + QStringLiteral("</table>");
}

} // namespace tstudio::profiler::timeline
