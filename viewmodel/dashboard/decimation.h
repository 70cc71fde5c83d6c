// decimateForDrawing: the few points of a long series that draw the same pixels as all of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tstudio::dashboard {

/// Indices of the points to draw so that a polyline through them covers exactly the pixels the
/// polyline through all points covers: [xMin, xMax] is split into `columns` pixel columns and each
/// column keeps its first, lowest, highest and last point (in x order, each index once); the last
/// point before xMin and the first after xMax are kept so lines leave the plot edges correctly.
/// `x` must be sorted ascending (equal values allowed) and as long as `y`; points whose y is not
/// finite are skipped (and points whose x is infinite, at the ends; a NaN x breaks the ordering
/// and gives an unspecified, in-bounds result). Each column is an index range, found near the
/// previous column's length or by binary search, and reduced with a pass over y only (AVX2 where
/// avx2ScanAllowed()): O(columns log n + visible).
void decimateForDrawing(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                        std::vector<std::uint32_t>& indices);

} // namespace tstudio::dashboard
