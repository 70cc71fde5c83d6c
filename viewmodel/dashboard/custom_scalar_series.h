// The series of a custom scalars chart without Qt: which (run, tag)s a layout chart draws, and a
// margin chart's bounds lined up with its value's samples.
#pragma once

#include "io/events/custom_scalars.h"
#include "io/events/event_accumulator.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::dashboard {

/// One line of a custom scalars chart.
struct CustomSeries {
    std::string key; ///< the line's name in the chart: "tag (run)", or "tag" where runs are not named
    std::string run;
    std::string tag;                ///< multiline: a matching tag; margin: the value tag
    std::string lowerTag, upperTag; ///< margin only
};

/// A run's scalar tags (any order).
using RunTags = std::pair<std::string, std::vector<std::string>>;

/// The lines `chart` draws over `runs` (in the order given): a multiline chart gets, per run, every
/// tag that some pattern matches from its start (each tag once, in tag order); a margin chart, per
/// run, each series whose value tag the run has (its bounds need not exist: missing bounds are
/// drawn as none). Invalid patterns match nothing and are named in `patternErrors`. `nameRuns`:
/// keys name the run (off where the log directory has one run).
std::vector<CustomSeries> customChartSeries(const events::CustomChart& chart, const std::vector<RunTags>& runs,
                                            bool nameRuns, std::vector<std::string>* patternErrors = nullptr);

/// A bound's values lined up with the value's samples by step, as TensorBoard's margin chart pairs
/// them: for each value sample the bound's value at the same step (the last written at that step),
/// NaN where the bound has none.
std::vector<double> alignByStep(std::span<const events::ScalarSample> value,
                                std::span<const events::ScalarSample> bound);

} // namespace tstudio::dashboard
