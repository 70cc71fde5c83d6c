// TensorBoard's custom scalars plugin: the layout a run writes (categories of charts: lines of
// every tag matching some regular expressions, or margin charts of a value between two bounds),
// read, merged across runs and written as TensorBoard's plugin reads and writes it. Qt-free.
#pragma once

#include "core/expected.h"

#include <string>
#include <vector>

namespace tensorflow {
class Summary;
}

namespace tstudio::events {

/// The layout's summary tag and plugin name.
inline constexpr const char* kCustomScalarsTag = "custom_scalars__config__";
inline constexpr const char* kCustomScalarsPlugin = "custom_scalars";

/// A margin chart's series: exact tags of the value and of its lower and upper bounds.
struct MarginSeries {
    std::string value, lower, upper;
    bool operator==(const MarginSeries&) const = default;
};

struct CustomChart {
    std::string title; ///< as written ("" shows as the patterns or "untitled")
    bool margin = false;
    std::vector<std::string> tagPatterns; ///< multiline: regular expressions matched from a tag's start
    std::vector<MarginSeries> series;     ///< margin
    bool operator==(const CustomChart&) const = default;
};

struct CustomCategory {
    std::string title;
    std::vector<CustomChart> charts;
    bool closed = false; ///< shown collapsed at first
};

struct CustomScalarsLayout {
    std::vector<CustomCategory> categories;
    bool empty() const { return categories.empty(); }
};

/// The layout in one kept sample of the layout tag (a serialized Summary.Value holding a DT_STRING
/// scalar with a serialized tensorboard.Layout). InvalidArgument naming `run` when the value holds
/// no string tensor or the bytes are no Layout; a version other than 0 is refused as TensorBoard's
/// only version is 0.
Expected<CustomScalarsLayout> decodeCustomScalarsLayout(const std::string& serializedValue, const std::string& run);

/// The layouts of several runs as TensorBoard merges them (pass them in run-name order): the first
/// as it is, then each category appended, or, where one of that title exists, its charts appended
/// except those equal to one already there.
CustomScalarsLayout mergeCustomScalarsLayouts(const std::vector<CustomScalarsLayout>& layouts);

/// The tags (in the order given) that `pattern` matches from their first character on, as the
/// plugin's Python re.match does (ECMAScript syntax here). InvalidArgument for an empty or invalid
/// pattern, saying which.
Expected<std::vector<std::string>> tagsMatching(const std::string& pattern, const std::vector<std::string>& tags);

/// The title a chart shows: its own, else its patterns (multiline, joined by ", ") or its series'
/// value tags (margin), else "untitled".
std::string customChartTitle(const CustomChart& chart);

/// The summary TensorBoard's summary_lib.custom_scalar_pb writes: one value tagged
/// kCustomScalarsTag, plugin kCustomScalarsPlugin, a DT_STRING scalar holding the Layout's bytes.
tensorflow::Summary customScalarsSummary(const CustomScalarsLayout& layout);

} // namespace tstudio::events
