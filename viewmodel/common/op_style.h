// Op style: the colour of each op category, shared by the graph viewer, the node editor and the profiler.
#pragma once

#include <QColor>
#include <QString>

#include <string_view>
#include <vector>

namespace tstudio {

/// Categories the views give ops beyond the registry's: tf.data pipelines (dataset and iterator ops) and
/// nodes that call a library function (a call by name, PartitionedCall's `f`, If's branches, While's body...).
inline constexpr std::string_view kDatasetCategory = "Dataset";
inline constexpr std::string_view kFunctionCallCategory = "Function call";

/// Fill colour for ops of `category` (an op_category:: spelling from the op registry; "" for ops the
/// registry does not classify or does not know).
QColor opCategoryColour(std::string_view category);

/// The categories in legend order, with "" (other) last.
const std::vector<std::string_view>& opCategoriesForLegend();

/// The translated name of a category ("" -> "Other").
QString opCategoryDisplayName(std::string_view category);

/// A distinct colour for the `index`-th item of a set (devices, runs), stable for a given index.
QColor paletteColour(int index);

/// Text colour readable on `fill` (black or white).
QColor textColourOn(const QColor& fill);

} // namespace tstudio
