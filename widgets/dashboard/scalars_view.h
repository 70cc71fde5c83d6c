// ScalarsView: the dashboard's Scalars tab, TensorBoard's tag sections of scalar charts with shared controls.
#pragma once

#include "dashboard/scalar_chart.h"

#include <QSet>
#include <QStringList>
#include <QWidget>

#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QScrollArea;
class QSlider;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace tstudio::dashboard {

/// The Scalars tab. A control row (tag filter as a case-insensitive regular expression, shown in red
/// when invalid; smoothing: Exponential (TensorBoard's, a slider and number box, 0..0.999, default
/// 0.6) or Moving average (a window of samples, default 10), and a min/max envelope over the same
/// window; x axis Step / Relative /
/// Wall; log-scale y; ignore outliers, on by default) above the tags grouped into collapsible
/// sections by the text before their first '/' (a tag without '/' is its own section), each a grid
/// of ScalarCharts in a scroll area. The cards use the width: as many columns as fit cards of at
/// least 440 px (two at 1280 px, three at 1400 px), about 5:8 as tall as wide; sections are packed
/// into that grid, so sections of one chart share a row. Losses come first and rates
/// ("global_step/sec") last, sections and the charts inside them alike (scalarTagLess).
/// Charts are created only for tags in expanded sections that pass the filter; the first three
/// sections start expanded. Data setters replace one (run, tag) series and touch only that chart.
/// GUI thread only.
class ScalarsView : public QWidget {
    Q_OBJECT
public:
    explicit ScalarsView(QWidget* parent = nullptr);
    ~ScalarsView() override;

    void setRuns(const QVector<RunStyle>& runs);
    /// Every chart draws these runs over the others, which fade (ScalarChart::setHighlightedRuns).
    void setHighlightedRuns(const QStringList& runs);
    QStringList highlightedRuns() const { return m_highlighted; }
    /// Replaces the samples of (run, tag); null or empty removes them.
    void setScalars(const QString& run, const QString& tag, ScalarChart::Samples samples);
    /// Forgets every series of `run`; tags left without data disappear.
    void removeRun(const QString& run);

    /// All tags with data, sorted.
    QStringList tags() const;
    /// The chart of `tag`, or nullptr when it has not been created (collapsed section, filtered out).
    ScalarChart* chart(const QString& tag) const;
    /// The copy of a pinned tag's chart in the Pinned section, or nullptr.
    ScalarChart* pinnedChart(const QString& tag) const;

    /// Pins a tag's chart: a copy of it in the Pinned section at the top (the first section),
    /// in the order pinned; a chart's Pin / Unpin button does the same. Tags without data are not
    /// pinned; a tag whose data goes is unpinned.
    void setPinned(const QString& tag, bool pinned);
    QStringList pinnedTags() const { return m_pinned; }
    /// An enlarged chart takes a row of its own, the whole width, and is taller (its section then
    /// spans the width too); its Enlarge / Shrink button does the same.
    void setEnlarged(const QString& tag, bool enlarged);
    bool isEnlarged(const QString& tag) const { return m_enlarged.contains(tag); }
    /// Section names in display order (the Pinned section, where anything was pinned, under a key
    /// no tag can have; then losses first, rates last, else by name), and whether a section is
    /// shown (some tag passes the filter) and expanded.
    QStringList sections() const;
    bool isSectionShown(const QString& section) const;
    bool isSectionExpanded(const QString& section) const;
    void setSectionExpanded(const QString& section, bool expanded);

    void setTagFilter(const QString& pattern);
    bool tagFilterValid() const { return m_filterValid; }
    void setSmoothing(double weight);
    double smoothing() const { return m_smoothing; }
    void setSmoothingKind(SmoothingKind kind);
    SmoothingKind smoothingKind() const { return m_smoothingKind; }
    void setSmoothingWindow(int samples);
    int smoothingWindow() const { return m_window; }
    void setEnvelope(bool shown);
    bool envelopeShown() const { return m_envelope; }
    void setXAxis(XAxis axis);
    void setLogY(bool logY);
    void setIgnoreOutliers(bool ignore);

    /// The section a tag belongs to: the text before its first '/', or the whole tag.
    static QString sectionOf(const QString& tag);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Section {
        QString name;
        QStringList tags; ///< in display order (scalarTagLess)
        int shownCharts = 0; ///< charts laid out the last time
        bool hasEnlarged = false; ///< one of them is enlarged: the section takes the whole width
        QWidget* frame = nullptr;
        QToolButton* header = nullptr;
        QWidget* body = nullptr;
        QGridLayout* grid = nullptr;
        bool expanded = false;
        std::map<QString, ScalarChart*> charts;
    };

    Section& sectionFor(const QString& tag);
    Section& pinnedSection();
    /// The section `name`, made (empty) the first time; `firstTag` ranks a new tag section.
    Section& section(const QString& name, const QString& firstTag);
    /// A chart's height: the cards' usual one, more when enlarged.
    int heightOf(const QString& tag) const;
    /// Lays out the charts of one section; `pack`: then the sections' grid too.
    void layoutSection(Section& section, bool pack = true);
    void packSections();
    int chartHeight() const;
    void updateHeader(Section& section);
    void relayoutAll();
    void applyFilter();
    bool passes(const QString& tag) const;
    ScalarChart* createChart(Section& section, const QString& tag);
    void configure(ScalarChart* chart) const;
    void updateEmptyState();
    int columns() const;
    void retranslateUi();
    void updateSmoothingControls();

    std::map<QString, std::map<QString, ScalarChart::Samples>> m_data; ///< tag -> run -> samples
    std::map<QString, Section> m_sections;
    QVector<RunStyle> m_runs;
    QStringList m_highlighted;
    double m_smoothing = 0.6;
    SmoothingKind m_smoothingKind = SmoothingKind::Exponential;
    int m_window = 10;
    bool m_envelope = false;
    XAxis m_xAxis = XAxis::Step;
    bool m_logY = false;
    bool m_ignoreOutliers = true;
    QString m_filter;
    QStringList m_pinned;      ///< tags pinned, in the order pinned
    QSet<QString> m_enlarged;  ///< tags whose charts are enlarged
    bool m_filterValid = true;
    int m_columns = 0;

    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_smoothingLabel = nullptr;
    QSlider* m_smoothingSlider = nullptr;
    QDoubleSpinBox* m_smoothingBox = nullptr;
    QComboBox* m_smoothingKindBox = nullptr;
    QSpinBox* m_windowBox = nullptr;
    QCheckBox* m_envelopeBox = nullptr;
    QLabel* m_xAxisLabel = nullptr;
    QComboBox* m_xAxisBox = nullptr;
    QCheckBox* m_logBox = nullptr;
    QCheckBox* m_outlierBox = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_sectionsLayout = nullptr;
    QWidget* m_sectionsHost = nullptr;
    QGridLayout* m_sectionsGrid = nullptr;
    QLabel* m_emptyLabel = nullptr;
};

} // namespace tstudio::dashboard
