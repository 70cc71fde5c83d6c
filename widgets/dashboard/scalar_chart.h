// ScalarChart: one scalar tag of several runs as TensorBoard draws it (faded raw curve, smoothed curve).
#pragma once

#include "core/status.h"
#include "dashboard/run_style.h"
#include "io/events/event_accumulator.h"

#include <QPointer>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QMenu;
class QToolButton;
QT_BEGIN_NAMESPACE
class QChart;
class QCategoryAxis;
class QLineSeries;
QT_END_NAMESPACE

namespace tstudio::dashboard {

class ScalarChartView;

/// TensorBoard's horizontal axis choices: the step, time since the run's first sample, wall time.
enum class XAxis { Step, Relative, WallTime };

/// How the full-colour curve smooths: TensorBoard's debiased exponential moving average (weight),
/// or a trailing moving average over a window of samples (scalar_window.h).
enum class SmoothingKind { Exponential, MovingAverage };

/// One tag, several runs overlaid. Per visible run: the raw values as a faded line (the run's colour
/// at 25% opacity) and the smoothed values as a 2 px line (only the raw line, at full colour, when
/// smoothing is off: weight 0, or a window of 1); optionally the min/max envelope of each smoothing
/// window as a band in the run's colour at 15% opacity. Only decimated points (scalar_math.h) go
/// into the QLineSeries, so a million samples draw as a few thousand points; they are recomputed on
/// resize, zoom and data.
/// Mouse: drag a rectangle to zoom, double-click to reset, hover for a tooltip listing every visible
/// run at the step nearest the cursor, right-click for downloads (CSV, JSON, PNG, SVG).
/// Data setters replace one run's samples; the redraw is coalesced and deferred while hidden, so
/// live updates stay cheap; a zoom stays where it is when data grows. GUI thread only.
class ScalarChart : public QWidget {
    Q_OBJECT
public:
    using Samples = std::shared_ptr<const std::vector<events::ScalarSample>>;

    explicit ScalarChart(QWidget* parent = nullptr);
    ~ScalarChart() override;

    void setTag(const QString& tag);
    QString tag() const { return m_tag; }
    /// Order (the first run is drawn on top), colours and visibility of the runs.
    void setRuns(const QVector<RunStyle>& runs);
    /// Replaces the samples of `run` (oldest first; null or empty removes the run's curve).
    void setSeries(const QString& run, Samples samples);
    void removeSeries(const QString& run);
    /// Gives `run` a band of its own, drawn as the envelope is (a custom scalars margin chart's
    /// lower and upper bounds): one value per sample of its series, NaN where there is none (shorter
    /// vectors are padded with NaN). Empty vectors take the band away. Call after setSeries, again
    /// when the samples change.
    void setSeriesBand(const QString& run, std::vector<double> lower, std::vector<double> upper);
    QStringList seriesRuns() const;
    /// Smoothing weight, clamped to [0, 0.999] (for SmoothingKind::Exponential).
    void setSmoothing(double weight);
    double smoothing() const { return m_smoothing; }
    void setSmoothingKind(SmoothingKind kind);
    SmoothingKind smoothingKind() const { return m_smoothingKind; }
    /// Samples in the moving average's window and the envelope's, clamped to [1, kMaxSmoothingWindow].
    void setSmoothingWindow(int samples);
    int smoothingWindow() const { return m_window; }
    /// Whether each visible run's min/max envelope over the window is drawn.
    void setEnvelope(bool shown);
    bool envelopeShown() const { return m_envelope; }
    /// Whether the full-colour curve is smoothed (weight above 0, or a window above 1).
    bool smoothingOn() const;
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_xAxis; }
    void setLogY(bool logY);
    bool logY() const { return m_logY; }
    void setIgnoreOutliers(bool ignore);
    bool ignoreOutliers() const { return m_ignoreOutliers; }

    /// Zooms to a rectangle in data coordinates (x as plotted: steps, seconds since the first
    /// sample, or Unix seconds; y as plotted: log10 of the value on a log axis).
    void zoomTo(const QRectF& plotted);
    void resetZoom();
    bool isZoomed() const { return m_zoom.has_value(); }
    /// The axis ranges shown (plotted coordinates).
    std::pair<double, double> xRange() const { return m_xRange; }
    std::pair<double, double> yRange() const { return m_yRange; }

    /// The Pin and Enlarge buttons' state (the owner decides what they do: ScalarsView). Setting it
    /// emits nothing.
    void setPinned(bool pinned);
    bool isPinned() const;
    void setEnlarged(bool enlarged);
    bool isEnlarged() const;
    /// Shows or hides the Pin and Enlarge buttons (an owner that does not pin or enlarge hides them).
    void setPinAndEnlargeShown(bool shown);
    /// Runs drawn over the others, thicker, while every other run fades (empty: none stands out);
    /// what choosing an HParams session does to its runs.
    void setHighlightedRuns(const QStringList& runs);
    QStringList highlightedRuns() const { return m_highlighted; }

    /// Redraws now if anything changed (normally done on the next event loop turn, or on show).
    void refresh();
    /// The y axis's tick labels as drawn, bottom to top (after a redraw).
    QStringList yAxisLabels() const;
    /// Whether the run's full-colour curve draws a marker on each point (series with few points).
    bool markersShown(const QString& run) const;
    /// The points in the run's drawn series (decimated; x and y as plotted); empty for hidden runs.
    QList<QPointF> rawPoints(const QString& run) const;
    QList<QPointF> smoothedPoints(const QString& run) const;
    /// The envelope's points as drawn (decimated; as plotted), each gap-free stretch's upper
    /// boundary then its lower one; empty when the envelope is off or the run hidden.
    QList<QPointF> envelopeUpper(const QString& run) const;
    QList<QPointF> envelopeLower(const QString& run) const;
    /// The rich text of the tooltip for the cursor at `pos` (chart view coordinates), and the run
    /// whose curve is nearest to it; empty when no visible run has data.
    QString tooltipHtml(const QPoint& pos, QString* nearestRun = nullptr) const;

    /// The samples of `run` as given to setSeries (null when it has none).
    Samples samples(const QString& run) const;
    /// TensorBoard's CSV / JSON download of a run's samples (scalar_export.h).
    QString csv(const QString& run) const;
    QString json(const QString& run) const;
    /// Files are written atomically; the Status names the path on failure.
    Status saveCsv(const QString& run, const QString& path) const;
    Status saveJson(const QString& run, const QString& path) const;
    Status savePng(const QString& path);
    Status saveSvg(const QString& path);

    QSize sizeHint() const override { return {440, 320}; }

    /// Where the last redraw's time went, in milliseconds (for the benchmark): re-smoothing since
    /// the previous redraw, the y domain (0 when cached), decimation, handing points to the series.
    struct RedrawTimes {
        double smooth = 0, domain = 0, decimate = 0, replace = 0;
    };
    RedrawTimes lastRedrawTimes() const { return m_lastTimes; }

signals:
    /// The user pressed Pin / Unpin or Enlarge / Shrink.
    void pinToggled(bool pinned);
    void enlargeToggled(bool enlarged);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct RunData;

    void scheduleRedraw();
    void redraw();
    void rebuildSeries();
    void resmooth(RunData& d);
    /// After a smoothing setting changed: every run re-smoothed, series rebuilt where smoothing
    /// turned on or off (`wasOn`) or the envelope appeared or went (`envelopeWas`).
    void smoothingChanged(bool wasOn, bool envelopeWas);
    void prepareX(RunData& d) const;
    void updateDomain();
    void updateAxes();
    void showTooltip(const QPoint& pos);
    void hideTooltip();
    void contextMenu(const QPoint& globalPos, const QPoint& viewPos);
    void fillDownloadMenu(QMenu* menu, bool json, const QString& preferredRun);
    void downloadDialog(const QString& run, bool json);
    void imageDialog(bool svg);
    void retranslateUi();
    QList<RunStyle> visibleRunsWithData() const;

    QString m_tag;
    QVector<RunStyle> m_runs;
    QStringList m_highlighted;
    std::map<QString, std::unique_ptr<RunData>> m_data;
    double m_smoothing = 0.6;
    SmoothingKind m_smoothingKind = SmoothingKind::Exponential;
    int m_window = 10;
    bool m_envelope = false;
    XAxis m_xAxis = XAxis::Step;
    bool m_logY = false;
    bool m_ignoreOutliers = true;
    std::optional<QRectF> m_zoom;
    std::pair<double, double> m_xRange{0, 1};
    std::pair<double, double> m_yRange{0, 1};
    std::pair<double, double> m_dataX{0, 1};
    std::pair<double, double> m_dataY{0, 1};
    bool m_dirty = true;
    bool m_domainDirty = true;
    bool m_seriesDirty = true;
    bool m_redrawQueued = false;
    struct AxesKey {
        std::pair<double, double> x, y;
        XAxis axis = XAxis::Step;
        bool log = false;
        QSize plot;
        bool operator==(const AxesKey&) const = default;
    };
    AxesKey m_axesKey;
    RedrawTimes m_pendingTimes, m_lastTimes;

    QChart* m_chart = nullptr;
    ScalarChartView* m_view = nullptr;
    QCategoryAxis* m_axisX = nullptr;
    QCategoryAxis* m_axisY = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QToolButton* m_csvButton = nullptr;
    QToolButton* m_jsonButton = nullptr;
    QToolButton* m_imageButton = nullptr;
    QToolButton* m_resetButton = nullptr;
    QToolButton* m_pinButton = nullptr;
    QToolButton* m_enlargeButton = nullptr;
    QPointer<QLabel> m_tooltip;
    QString m_tooltipRun;
};

/// Medians of benchRedraw's rounds, in milliseconds: the whole round and its pieces.
struct ChartBenchResult {
    double total = 0;
    double smooth = 0, domain = 0, decimate = 0, replace = 0; ///< ScalarChart::RedrawTimes
    double render = 0;     ///< painting the chart view (what repaints when the smoothing changes) into an image
    QSize viewSize;        ///< that view's size
    std::size_t drawnPoints = 0; ///< points handed to the series or items (raw + smoothed)
};

/// Benchmark for `tensorstudio --bench-chart N` (not a test). One run of `points` noisy samples (a
/// decaying random walk) in an 800x500 chart, smoothing 0.6, outliers ignored. Each of 21 rounds
/// changes the smoothing weight (0.6 / 0.6001 alternately), so nothing cached can be reused: a round
/// is what a real redraw after new smoothing costs, the same as after new data minus copying the
/// samples in: re-smoothing every point, TensorBoard's y domain over every smoothed value
/// (quantiles), decimating the smoothed curve to the plot's pixel columns (the raw one is as it was
/// drawn), handing its points over, and rendering the chart view (axes, labels, curves: what
/// repaints; the toolbar above it does not) into an image with QWidget::render. The result is the
/// median of the rounds' wall-clock times. Needs a QApplication.
ChartBenchResult benchRedraw(int points);
/// benchRedraw(points).total.
double benchRedrawMs(int points);

} // namespace tstudio::dashboard
