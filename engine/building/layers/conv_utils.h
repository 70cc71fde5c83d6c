// The argument checks tf.layers' convolution and pooling layers share (keras conv_utils of TF 1.15).
#pragma once

#include "core/expected.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tstudio::layers {

/// conv_utils.normalize_padding: "valid" or "same" (any case) -> "VALID" / "SAME" as the ops take it.
/// InvalidArgument 'The `padding` argument must be one of "valid", "same" (or "causal", only for
/// `Conv1D). Received: x' ("causal" is refused the same way: it exists for Conv1D only).
Expected<std::string> normalizePadding(std::string_view padding);
/// conv_utils.normalize_data_format + convert_data_format for 4-D: "channels_last" -> "NHWC",
/// "channels_first" -> "NCHW". InvalidArgument 'The `data_format` argument must be one of
/// "channels_first", "channels_last". Received: x'.
Expected<std::string> normalizeDataFormat(std::string_view dataFormat);

/// The 4-element attr list of a 2-D window argument (`strides`, `ksize`): [1, h, w, 1] for NHWC,
/// [1, 1, h, w] for NCHW.
std::array<std::int64_t, 4> windowAttr(const std::array<std::int64_t, 2>& hw, std::string_view format);

/// InvalidArgument "The `<what>` argument must be a tuple of 2 positive integers. Received: (a, b)"
/// when an entry is not positive (conv_utils accepts any int; the op would fail later).
Status checkPositivePair(const std::array<std::int64_t, 2>& values, std::string_view what);

} // namespace tstudio::layers
