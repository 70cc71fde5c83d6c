// Padding / data-format normalisation and window attrs for the tf.layers convolution and pooling layers.
#include "layers/conv_utils.h"

#include <algorithm>
#include <cctype>

namespace tstudio::layers {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

Expected<std::string> normalizePadding(std::string_view padding)
{
    const std::string value = lower(padding);
    if (value == "valid")
        return std::string("VALID");
    if (value == "same")
        return std::string("SAME");
    return unexpected(invalidArgumentError(
        "The `padding` argument must be one of \"valid\", \"same\" (or \"causal\", only for `Conv1D). Received: " +
        std::string(padding)));
}

Expected<std::string> normalizeDataFormat(std::string_view dataFormat)
{
    const std::string value = lower(dataFormat);
    if (value == "channels_last")
        return std::string("NHWC");
    if (value == "channels_first")
        return std::string("NCHW");
    return unexpected(invalidArgumentError(
        "The `data_format` argument must be one of \"channels_first\", \"channels_last\". Received: " +
        std::string(dataFormat)));
}

std::array<std::int64_t, 4> windowAttr(const std::array<std::int64_t, 2>& hw, std::string_view format)
{
    if (format == "NCHW")
        return {1, 1, hw[0], hw[1]};
    return {1, hw[0], hw[1], 1};
}

Status checkPositivePair(const std::array<std::int64_t, 2>& values, std::string_view what)
{
    if (values[0] > 0 && values[1] > 0)
        return Status();
    return invalidArgumentError("The `" + std::string(what) +
                                "` argument must be a tuple of 2 positive integers. "
                                "Received: (" +
                                std::to_string(values[0]) + ", " + std::to_string(values[1]) + ")");
}

} // namespace tstudio::layers
