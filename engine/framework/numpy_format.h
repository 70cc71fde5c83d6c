// Tensor values printed as NumPy prints an array (str(ndarray)), as TensorFlow's inspect_checkpoint
// shows them.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <string>

namespace tstudio {

/// NumPy's print options (numpy.set_printoptions); the defaults are NumPy's.
struct NumpyPrintOptions {
    std::int64_t threshold = 1000; ///< more elements than this are summarised with "..."
    int edgeItems = 3;             ///< elements kept at each end of a summarised axis
    int lineWidth = 75;
};

/// str(array) for the tensor's values with NumPy's default formatting (NumPy >= 1.14, floatmode
/// "maxprec", precision 8): floats in positional or scientific notation chosen from the values
/// shown, padded to a common width; integers right-aligned; booleans " True"/"False"; strings as
/// Python bytes literals (b'...'); rows wrapped at `lineWidth`; nested brackets with blank lines
/// between blocks of rank >= 3. A scalar prints as NumPy prints the scalar ("3.5", "1e-05", "29001").
/// Quantized dtypes print as their integers. Unimplemented for resource and variant tensors.
Expected<std::string> formatLikeNumpy(const Tensor& tensor, const NumpyPrintOptions& options = {});

} // namespace tstudio
