// TimelineView: the profiler's timeline panel (tools, step selector and step comparison, search, one or two
// timeline canvases and the details pane) over a ProfileTrace.
#pragma once

#include "profiler/timeline_canvas.h"
#include "profiler/timeline_search.h"

#include <QWidget>

#include <memory>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTimer;
class QToolButton;

namespace tstudio {
class OpRegistry;
}

namespace tstudio::profiler::timeline {

class TimelineDetails;

/// Per-frame rendering times of benchFrames.
struct TimelineBenchStats {
    int frames = 0;
    double meanMs = 0;
    double medianMs = 0;
    double p95Ms = 0;
    double maxMs = 0;
    double meanDrawCalls = 0;
    std::int64_t maxPieces = 0; ///< the most lane pieces one frame walked
};

/// GUI thread only. Box colours come from the op registry's categories (cached per op type); `ops` may be
/// null (every box then has the "other" colour) and must outlive the view.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(const OpRegistry* ops, QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows `trace` (null clears): builds its index, resets steps, search and selection, frames everything.
    void setTrace(std::shared_ptr<const ProfileTrace> trace);
    std::shared_ptr<const ProfileTrace> trace() const;
    const TimelineIndex* index() const { return m_index.get(); }

    TimelineCanvas* canvas() const { return m_canvas; }
    /// The second canvas, shown while two steps are compared.
    TimelineCanvas* compareCanvas() const { return m_compareCanvas; }
    TimelineDetails* details() const { return m_details; }

    /// Shows step `step` (an index into trace().steps; -1: all steps) and zooms to it.
    void setStep(int step);
    int step() const;
    /// Compares the shown step with step `step` (-1 ends the comparison); needs a shown step.
    void setCompareStep(int step);
    int compareStep() const;

    void setMode(TimelineMode mode);
    TimelineMode mode() const;
    /// The Chrome trace viewer's preference: the plain wheel zooms (Shift+wheel scrolls).
    void setWheelZooms(bool on);

    /// Searches node and op names (a substring, or a regular expression) at once.
    void setSearchText(const QString& text, bool regex = false);
    const TimelineSearch& search() const { return m_search; }
    /// Selects the next / previous match (wrapping) and brings it into view.
    void findNext();
    void findPrevious();

    std::uint32_t selectedEvent() const { return m_selectedEvent; }
    /// Selects an execution in the canvas that shows it and brings it into view; emits nothing.
    void selectEvent(std::uint32_t event);
    /// "Show in graph" (a double click on an op, the context menu): emits nodeActivated for the selected
    /// execution's node; false when nothing with a node is selected.
    bool showSelectedInGraph();

    /// Renders `frames` frames of a zoom-in, pan and zoom-out sequence at 1600x900 into an offscreen image and
    /// returns the per-frame times; the view is left as it was.
    TimelineBenchStats benchFrames(int frames);

public slots:
    /// Selects the node's first execution in the shown step (any step when all are shown) and brings it into
    /// view, without emitting nodeActivated. False when the trace has no execution of that node.
    bool showNode(const QString& nodeName);

signals:
    /// The user asked to see an op's node in the graph: a double click on it, "Show in graph" in the details
    /// pane or the context menu. A single click only selects the op and shows its details.
    void nodeActivated(const QString& nodeName);
    /// The shown step changed (an index into trace().steps; -1: all steps), by the step box, setStep or a
    /// new trace.
    void stepChanged(int step);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void fillStepBoxes();
    void applySteps();
    void updateTitles();
    void announceStep();
    void showContextMenu(TimelineCanvas* canvas, QPoint pos);
    /// The node name of execution `event`, or empty.
    QString nodeOfEvent(std::uint32_t event) const;
    void onBoxSelection(TimelineCanvas* source);
    void showSelection(TimelineCanvas* canvas, std::uint32_t event);
    void runSearch();
    void afterSearchMove(std::uint32_t event);
    void updateMatchLabel();
    QString stepTitle(std::uint32_t step) const;
    TimelineCanvas* canvasShowing(std::uint32_t event) const;

    const OpRegistry* m_ops;
    std::shared_ptr<const TimelineIndex> m_index;
    TimelineSearch m_search;
    std::uint32_t m_selectedEvent = kNoIndex;
    int m_announcedStep = -1; ///< the step stepChanged last told

    QButtonGroup* m_modeGroup = nullptr;
    QToolButton* m_modeButtons[4] = {};
    QLabel* m_stepLabel = nullptr;
    QComboBox* m_stepBox = nullptr;
    QLabel* m_compareLabel = nullptr;
    QComboBox* m_compareBox = nullptr;
    QLineEdit* m_searchEdit = nullptr;
    QToolButton* m_regexButton = nullptr;
    QToolButton* m_previousButton = nullptr;
    QToolButton* m_nextButton = nullptr;
    QLabel* m_matchLabel = nullptr;
    QToolButton* m_resetButton = nullptr;
    QTimer* m_searchTimer = nullptr;
    QSplitter* m_splitter = nullptr;
    QSplitter* m_canvasSplitter = nullptr;
    TimelineCanvas* m_canvas = nullptr;
    TimelineCanvas* m_compareCanvas = nullptr;
    TimelineDetails* m_details = nullptr;
};

} // namespace tstudio::profiler::timeline
