// CustomScalarsView: the dashboard's Custom Scalars tab, TensorBoard's custom scalars plugin: the
// layout the runs wrote (categories of multi-line and margin charts) drawn with every run's scalars.
#pragma once

#include "dashboard/run_style.h"
#include "dashboard/scalar_chart.h"
#include "core/status.h"
#include "io/events/custom_scalars.h"

#include <QWidget>

#include <map>
#include <tuple>
#include <vector>

class QGridLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QToolButton;
class QVBoxLayout;

namespace tstudio::dashboard {

/// The layouts of every run (the latest of each), merged as TensorBoard merges them, one collapsible
/// section per category (closed ones start collapsed), a ScalarChart per chart: a multi-line chart
/// draws every (run, tag) a pattern matches, in the palette's colours, a margin chart each run's
/// value with its lower and upper bounds filled (paired by step). Hidden runs are left out. Charts
/// follow new data as the Scalars tab does. "New Chart…" adds a chart of the user's (a category,
/// a title, tag patterns or margin series) to the layout shown; "Save Layout" writes the charts added
/// so, with the runs' layout, into the first log directory as a new event file holding the
/// plugin's summary, so that TensorBoard (and this tab) read it back. GUI thread only.
class CustomScalarsView : public QWidget {
    Q_OBJECT
public:
    explicit CustomScalarsView(QWidget* parent = nullptr);

    void setRuns(const QVector<RunStyle>& runs);
    /// Replaces the samples of (run, tag); null or empty removes them.
    void setScalars(const QString& run, const QString& tag, ScalarChart::Samples samples);
    /// The kept samples of `run`'s layout tag (the last one counts); empty removes its layout.
    void setLayoutSamples(const QString& run, const std::vector<events::ValueSample>& samples);
    void removeRun(const QString& run);

    /// Where "Save Layout" writes (the dashboard's first log directory; empty: saving is off).
    void setSaveDirectory(const QString& directory);
    /// Adds a chart to `category` (made at the end when new) in the layout shown, unsaved.
    /// InvalidArgument when the chart has no pattern or series, or a pattern is no regular expression.
    Status addChart(const QString& category, const events::CustomChart& chart);
    /// Charts added and not saved yet.
    int unsavedCharts() const;
    /// Writes the layout shown (the runs' merged with the charts added) into the save directory:
    /// a new event file, the layout summary at step 0. The Status names the directory on failure.
    Status saveLayout();

    /// The merged layout shown.
    const events::CustomScalarsLayout& layout() const { return m_layout; }
    /// Category titles in order, and the chart of a category's chart (nullptr while collapsed).
    QStringList categories() const;
    ScalarChart* chart(int category, int index) const;
    bool isCategoryExpanded(int category) const;
    void setCategoryExpanded(int category, bool expanded);
    /// Problems met: layouts that do not decode, patterns that are no regular expressions.
    QStringList problems() const { return m_problems; }
    /// Redraws what changed now (normally on the next event-loop turn).
    void refresh();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Card {
        ScalarChart* chart = nullptr;
        /// What each line was given last: its samples and those of its bounds.
        std::map<QString, std::tuple<ScalarChart::Samples, ScalarChart::Samples, ScalarChart::Samples>> given;
    };
    struct Category {
        QWidget* frame = nullptr;
        QToolButton* header = nullptr;
        QWidget* body = nullptr;
        QGridLayout* grid = nullptr;
        bool expanded = true;
        std::vector<Card> cards;
    };

    void scheduleUpdate();
    void rebuild();
    void updateCharts();
    void layoutCategory(Category& category);
    int columns() const;
    void retranslateUi();
    void newChartDialog();
    void updateButtons();

    std::map<QString, std::map<QString, ScalarChart::Samples>> m_scalars; ///< run -> tag -> samples
    std::map<QString, events::CustomScalarsLayout> m_runLayouts;
    events::CustomScalarsLayout m_added; ///< charts the user made here, not saved yet
    QString m_saveDirectory;
    std::map<QString, QString> m_layoutErrors; ///< run -> why its layout was not read
    events::CustomScalarsLayout m_layout;
    QVector<RunStyle> m_runs;
    QStringList m_problems;
    std::vector<Category> m_categories;
    bool m_layoutDirty = false;
    bool m_updateQueued = false;
    int m_columns = 0;

    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_list = nullptr;
    QLabel* m_empty = nullptr;
    QLabel* m_problemLabel = nullptr;
    QPushButton* m_newChart = nullptr;
    QPushButton* m_save = nullptr;
    QLabel* m_unsaved = nullptr;
};

} // namespace tstudio::dashboard
