// ValueRanges: sets of closed intervals of values to highlight, in tfdbg's `pt -r` syntax
// ("[-inf, -1]", "[[-inf, -1], [1, inf]]"), for the terminal debugger and the tensor inspector.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::debugger {

/// A closed interval [low, high]; either end may be infinite.
struct ValueRange {
    double low = 0;
    double high = 0;
    bool contains(double v) const { return v >= low && v <= high; }
};

struct ValueRanges {
    std::vector<ValueRange> ranges;
    /// True when `v` lies in any range (NaN never does).
    bool contains(double v) const;
};

/// Parses one interval "[a, b]" or a list "[[a, b], [c, d]]"; numbers as Python writes them,
/// "inf", "-inf". InvalidArgument naming the column for malformed text and for a > b.
Expected<ValueRanges> parseValueRanges(std::string_view text);

/// "[[-inf, -1], [1, inf]]" (one interval prints without the outer brackets).
std::string formatValueRanges(const ValueRanges& ranges);

/// How many of the tensor's elements lie in the ranges. Number dtypes and bool (0/1); InvalidArgument
/// for string, complex and resource tensors.
Expected<std::int64_t> countInRanges(const Tensor& tensor, const ValueRanges& ranges);

} // namespace tstudio::debugger
