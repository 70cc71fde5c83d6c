// Decoding of kept summary values: protobuf parse of one Summary.Value and the tensor layouts of TF 2 plugins.
#include "io/events/summary_values.h"

#include "proto/summary.pb.h"
#include "proto/tensor.pb.h"
#include "proto/types.pb.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace tstudio::events {
namespace {

Expected<tensorflow::Summary::Value> parseValue(const std::string& bytes, const std::string& tag)
{
    tensorflow::Summary::Value value;
    if (!value.ParseFromString(bytes))
        return unexpected(invalidArgumentError("summary value of tag '" + tag + "' is not a valid Summary.Value"));
    return value;
}

std::int64_t elementCount(const tensorflow::TensorProto& tensor)
{
    std::int64_t n = 1;
    for (const auto& dim : tensor.tensor_shape().dim())
        n *= dim.size() < 0 ? 0 : dim.size();
    return n;
}

/// The values of a float or double tensor as doubles; nullopt for other dtypes or a size mismatch.
std::optional<std::vector<double>> floatValues(const tensorflow::TensorProto& tensor)
{
    const std::int64_t n = elementCount(tensor);
    if (n < 0 || n > (std::int64_t(1) << 28))
        return std::nullopt;
    std::vector<double> out(static_cast<std::size_t>(n));
    const std::string& content = tensor.tensor_content();
    if (tensor.dtype() == tensorflow::DT_DOUBLE) {
        if (!content.empty()) {
            if (content.size() != out.size() * 8)
                return std::nullopt;
            std::memcpy(out.data(), content.data(), content.size());
        } else if (tensor.double_val_size() == n) {
            for (int i = 0; i < n; ++i)
                out[std::size_t(i)] = tensor.double_val(i);
        } else if (tensor.double_val_size() == 1) {
            std::fill(out.begin(), out.end(), tensor.double_val(0));
        } else if (n != 0) {
            return std::nullopt;
        }
        return out;
    }
    if (tensor.dtype() == tensorflow::DT_FLOAT) {
        if (!content.empty()) {
            if (content.size() != out.size() * 4)
                return std::nullopt;
            for (std::size_t i = 0; i < out.size(); ++i) {
                float f;
                std::memcpy(&f, content.data() + 4 * i, 4);
                out[i] = f;
            }
        } else if (tensor.float_val_size() == n) {
            for (int i = 0; i < n; ++i)
                out[std::size_t(i)] = tensor.float_val(i);
        } else if (tensor.float_val_size() == 1) {
            std::fill(out.begin(), out.end(), double(tensor.float_val(0)));
        } else if (n != 0) {
            return std::nullopt;
        }
        return out;
    }
    return std::nullopt;
}

Status wrongTensor(const std::string& tag, const std::string& what)
{
    return invalidArgumentError("summary value of tag '" + tag + "': expected " + what);
}

} // namespace

Expected<Histogram> decodeHistogram(const std::string& serializedValue, const std::string& tag)
{
    auto value = parseValue(serializedValue, tag);
    if (!value)
        return unexpected(value.error());
    Histogram out;
    if (value->has_histo()) {
        const tensorflow::HistogramProto& h = value->histo();
        if (h.bucket_limit_size() != h.bucket_size())
            return unexpected(wrongTensor(tag, "as many bucket limits as buckets in the histogram, found " +
                                                   std::to_string(h.bucket_limit_size()) + " and " +
                                                   std::to_string(h.bucket_size())));
        for (int i = 0; i < h.bucket_size(); ++i) {
            HistogramBucket b;
            b.left = i == 0 ? h.min() : h.bucket_limit(i - 1);
            b.right = i + 1 == h.bucket_size() ? h.max() : h.bucket_limit(i);
            b.count = h.bucket(i);
            out.buckets.push_back(b);
        }
        return out;
    }
    if (!value->has_tensor())
        return unexpected(wrongTensor(tag, "a histogram (histo or a tensor), found neither"));
    const tensorflow::TensorProto& t = value->tensor();
    const auto& dims = t.tensor_shape().dim();
    const bool empty = dims.size() == 1 && dims[0].size() == 0;
    if (!empty && (dims.size() != 2 || dims[1].size() != 3))
        return unexpected(wrongTensor(tag, "a histogram tensor of shape [k, 3]"));
    const auto v = floatValues(t);
    if (!v)
        return unexpected(wrongTensor(tag, "a float or double histogram tensor with one value per element"));
    for (std::size_t i = 0; i + 2 < v->size(); i += 3)
        out.buckets.push_back({(*v)[i], (*v)[i + 1], (*v)[i + 2]});
    return out;
}

Expected<Images> decodeImages(const std::string& serializedValue, const std::string& tag)
{
    auto value = parseValue(serializedValue, tag);
    if (!value)
        return unexpected(value.error());
    Images out;
    if (value->has_image()) {
        out.width = value->image().width();
        out.height = value->image().height();
        out.encoded.push_back(value->image().encoded_image_string());
        return out;
    }
    const tensorflow::TensorProto& t = value->tensor();
    if (!value->has_tensor() || t.dtype() != tensorflow::DT_STRING || t.string_val_size() < 2)
        return unexpected(wrongTensor(tag, "an image or a string tensor [width, height, image...]"));
    out.width = std::atoi(t.string_val(0).c_str());
    out.height = std::atoi(t.string_val(1).c_str());
    for (int i = 2; i < t.string_val_size(); ++i)
        out.encoded.push_back(t.string_val(i));
    return out;
}

Expected<AudioClips> decodeAudio(const std::string& serializedValue, const std::string& tag)
{
    auto value = parseValue(serializedValue, tag);
    if (!value)
        return unexpected(value.error());
    AudioClips out;
    if (value->has_audio()) {
        out.sampleRate = value->audio().sample_rate();
        out.contentType = value->audio().content_type();
        out.encoded.push_back(value->audio().encoded_audio_string());
        return out;
    }
    const tensorflow::TensorProto& t = value->tensor();
    const auto& dims = t.tensor_shape().dim();
    if (!value->has_tensor() || t.dtype() != tensorflow::DT_STRING || dims.size() != 2 || dims[1].size() != 2 ||
        t.string_val_size() != 2 * dims[0].size())
        return unexpected(wrongTensor(tag, "audio or a string tensor [k, 2] of clips and labels"));
    for (int i = 0; i < t.string_val_size(); i += 2)
        out.encoded.push_back(t.string_val(i));
    out.contentType = "audio/wav";
    return out;
}

Expected<std::vector<std::string>> decodeText(const std::string& serializedValue, const std::string& tag)
{
    auto value = parseValue(serializedValue, tag);
    if (!value)
        return unexpected(value.error());
    const tensorflow::TensorProto& t = value->tensor();
    if (!value->has_tensor() || t.dtype() != tensorflow::DT_STRING)
        return unexpected(wrongTensor(tag, "a string tensor"));
    const std::int64_t n = elementCount(t);
    std::vector<std::string> out(t.string_val().begin(), t.string_val().end());
    if (out.size() == 1 && n > 1)
        out.assign(static_cast<std::size_t>(n), out[0]);
    return out;
}

Expected<PrCurve> decodePrCurve(const std::string& serializedValue, const std::string& tag)
{
    auto value = parseValue(serializedValue, tag);
    if (!value)
        return unexpected(value.error());
    const tensorflow::TensorProto& t = value->tensor();
    if (!value->has_tensor() || t.tensor_shape().dim_size() != 2 || t.tensor_shape().dim(0).size() != 6 ||
        t.tensor_shape().dim(1).size() < 1)
        return unexpected(wrongTensor(tag, "a pr_curves tensor of shape [6, num_thresholds]"));
    auto values = floatValues(t);
    if (!values)
        return unexpected(wrongTensor(tag, "a float or double pr_curves tensor"));
    const auto n = static_cast<std::ptrdiff_t>(t.tensor_shape().dim(1).size());
    PrCurve curve;
    std::vector<double>* rows[] = {&curve.truePositives,  &curve.falsePositives, &curve.trueNegatives,
                                   &curve.falseNegatives, &curve.precision,      &curve.recall};
    for (std::ptrdiff_t r = 0; r < 6; ++r)
        rows[r]->assign(values->begin() + r * n, values->begin() + (r + 1) * n);
    return curve;
}

} // namespace tstudio::events
