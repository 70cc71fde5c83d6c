// The tf.summary kinds by name: their input checks and one building call for all of them.
#include "summary/summary_kinds.h"

#include <array>

namespace tstudio::summary {
namespace {

constexpr std::array<std::pair<Kind, std::string_view>, 5> kKinds{{{Kind::kScalar, "scalar"},
                                                                   {Kind::kHistogram, "histogram"},
                                                                   {Kind::kImage, "image"},
                                                                   {Kind::kAudio, "audio"},
                                                                   {Kind::kText, "text"}}};

/// TensorFlow's realnumbertype: what ScalarSummary and HistogramSummary take.
bool isRealNumber(DataType dtype)
{
    return isFloating(dtype) || isInteger(dtype);
}

std::string typed(DataType dtype, const TensorShape& shape)
{
    return dataTypeName(dtype) + " " + shape.toString();
}

} // namespace

std::string_view kindName(Kind kind)
{
    for (const auto& [k, name] : kKinds)
        if (k == kind)
            return name;
    return {};
}

std::optional<Kind> kindFromName(std::string_view name)
{
    for (const auto& [k, n] : kKinds)
        if (n == name)
            return k;
    return std::nullopt;
}

std::vector<std::string> kindNames()
{
    std::vector<std::string> names;
    for (const auto& [k, name] : kKinds)
        names.emplace_back(name);
    return names;
}

Status checkInput(Kind kind, DataType dtype, const TensorShape& shape)
{
    dtype = baseType(dtype);
    const int rank = shape.rank();
    const auto refuse = [&](const std::string& needs) {
        return invalidArgumentError(needs + ", got " + typed(dtype, shape));
    };
    switch (kind) {
    case Kind::kScalar:
        if (!isRealNumber(dtype) || rank > 0)
            return refuse("a scalar summary needs a real-number scalar (shape [])");
        return Status::ok();
    case Kind::kHistogram:
        if (!isRealNumber(dtype))
            return refuse("a histogram summary needs real numbers");
        return Status::ok();
    case Kind::kImage: {
        const bool dtypeOk = dtype == tensorflow::DT_UINT8 || dtype == tensorflow::DT_HALF ||
                             dtype == tensorflow::DT_FLOAT || dtype == tensorflow::DT_DOUBLE;
        const std::int64_t channels = rank == 4 ? shape.dim(3) : -1;
        if (!dtypeOk || (rank >= 0 && rank != 4) || (channels >= 0 && channels != 1 && channels != 3 && channels != 4))
            return refuse("an image summary needs uint8, float16, float32 or float64 [batch, height, width, "
                          "channels] with 1, 3 or 4 channels");
        return Status::ok();
    }
    case Kind::kAudio:
        if (dtype != tensorflow::DT_FLOAT || (rank >= 0 && rank != 2 && rank != 3))
            return refuse("an audio summary needs float32 [batch, frames] or [batch, frames, channels]");
        return Status::ok();
    case Kind::kText:
        if (dtype != tensorflow::DT_STRING)
            return refuse("a text summary needs strings");
        return Status::ok();
    }
    return Status::ok();
}

Expected<Output> addSummary(GraphBuilder& b, Kind kind, std::string_view name, const Output& tensor,
                            const KindOptions& options)
{
    if (Status s = checkInput(kind, tensor.dtype(), tensor.shape()); !s.isOk())
        return unexpected(s);
    SummaryOptions common;
    common.collections = options.collections;
    common.family = options.family;
    switch (kind) {
    case Kind::kScalar: return scalar(b, name, tensor, common);
    case Kind::kHistogram: return histogram(b, name, tensor, common);
    case Kind::kImage: return image(b, name, tensor, options.maxOutputs, common);
    case Kind::kAudio: return audio(b, name, tensor, options.sampleRate, options.maxOutputs, common);
    case Kind::kText:
        if (!options.family.empty())
            return unexpected(invalidArgumentError("tf.summary.text takes no family"));
        return text(b, name, tensor, options.collections);
    }
    return unexpected(internalError("unknown summary kind"));
}

} // namespace tstudio::summary
