// RunStyle: how the dashboard shows one run (its colour and whether it is shown), shared by every view.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>

namespace tstudio::dashboard {

/// One run of the dashboard: its name (the log directory's folder name for the directory itself, "train", "eval/x"), the
/// colour its curves and cards use, and whether it is shown.
struct RunStyle {
    QString run;
    QColor colour;
    bool visible = true;
    bool operator==(const RunStyle&) const = default;
};

/// The default colour of the run at `index` in the run list: a fixed palette of distinguishable
/// colours (TensorBoard's run palette in spirit), repeating after it runs out.
QColor defaultRunColour(int index);

/// The style of `run` in `runs`, or nullptr.
const RunStyle* findRunStyle(const QVector<RunStyle>& runs, const QString& run);

} // namespace tstudio::dashboard
