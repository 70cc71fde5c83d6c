// Tensor elements read as doubles: what the tensor inspector's table, heat map, images and histogram plot.
#pragma once

#include "framework/tensor.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tstudio::debugger_ui {

/// True for dtypes whose elements are real numbers the inspector can plot: the floating and integer
/// dtypes, the quantized ones (their stored integers) and bool (false 0, true 1). False for string,
/// complex, resource, variant and ref dtypes.
bool hasRealValues(DataType dtype);

/// Element `index` (row-major) of an initialized tensor with hasRealValues(dtype()), as a double;
/// nullopt for other dtypes and for an index out of range. int64 values beyond 2^53 are rounded.
std::optional<double> elementAsDouble(const Tensor& tensor, std::int64_t index);

/// What a colour scale needs of a tensor's values: the finite range and which non-finite kinds occur.
struct ValueSpread {
    double low = 0;      ///< the smallest finite value (0 when there is none)
    double high = 0;     ///< the largest finite value (0 when there is none)
    bool anyFinite = false;
    bool nan = false;
    bool posInf = false;
    bool negInf = false;
};
ValueSpread spreadOf(const std::vector<double>& values);

/// Every element as a double, row-major; empty for dtypes without real values.
std::vector<double> realValues(const Tensor& tensor);
/// Elements [begin, begin + count) as doubles (clipped to the tensor); empty for other dtypes.
std::vector<double> realValues(const Tensor& tensor, std::int64_t begin, std::int64_t count);

} // namespace tstudio::debugger_ui
