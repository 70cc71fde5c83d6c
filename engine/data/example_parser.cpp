// parseExample / parseSingleExample over the wire bytes (example_wire.h), as TensorFlow's fast
// parser reads them, and parseSingleSequenceExample over the protobuf SequenceExample message.
#include "data/example_parser.h"

#include "core/try.h"
#include "data/example_wire.h"
#include "proto/example.pb.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace tstudio::data {
namespace {

namespace tf = tensorflow;
using tf::Feature;

DataType featureDtype(const Feature& f)
{
    switch (f.kind_case()) {
    case Feature::kBytesList: return tf::DT_STRING;
    case Feature::kFloatList: return tf::DT_FLOAT;
    case Feature::kInt64List: return tf::DT_INT64;
    default: return tf::DT_INVALID;
    }
}

std::int64_t featureSize(const Feature& f)
{
    switch (f.kind_case()) {
    case Feature::kBytesList: return f.bytes_list().value_size();
    case Feature::kFloatList: return f.float_list().value_size();
    case Feature::kInt64List: return f.int64_list().value_size();
    default: return 0;
    }
}

/// "float" / "int64" / "bytes" as TensorFlow names the lists in size errors.
std::string listWord(DataType dtype)
{
    return dtype == tf::DT_STRING ? "bytes" : dataTypeString(dtype);
}

/// Copies the feature's values (dtype already checked) into out's elements from `offset`.
void copyFeature(const Feature& f, Tensor& out, std::int64_t offset)
{
    const auto o = static_cast<std::size_t>(offset);
    switch (f.kind_case()) {
    case Feature::kBytesList:
        std::copy(f.bytes_list().value().begin(), f.bytes_list().value().end(), out.values<std::string>().begin() + o);
        break;
    case Feature::kFloatList:
        std::copy(f.float_list().value().begin(), f.float_list().value().end(), out.values<float>().begin() + o);
        break;
    case Feature::kInt64List:
        std::copy(f.int64_list().value().begin(), f.int64_list().value().end(), out.values<std::int64_t>().begin() + o);
        break;
    default: break;
    }
}

/// Copies all of `src` into `dst` from element `offset` (same dtype).
void copyTensor(const Tensor& src, Tensor& dst, std::int64_t offset)
{
    const auto o = static_cast<std::size_t>(offset);
    if (src.dtype() == tf::DT_STRING) {
        std::copy(src.strings().begin(), src.strings().end(), dst.strings().begin() + o);
    } else if (src.dtype() == tf::DT_FLOAT) {
        std::copy(src.values<float>().begin(), src.values<float>().end(), dst.values<float>().begin() + o);
    } else {
        std::copy(src.values<std::int64_t>().begin(), src.values<std::int64_t>().end(),
                  dst.values<std::int64_t>().begin() + o);
    }
}

Status checkConfigDtype(DataType dtype)
{
    if (dtype == tf::DT_INT64 || dtype == tf::DT_FLOAT || dtype == tf::DT_STRING)
        return Status::ok();
    return invalidArgumentError("Invalid config dtype: " + dataTypeString(dtype));
}

/// Validates a FixedLen spec: dtype, fully defined shape, default of that size and dtype.
Expected<std::int64_t> checkDenseSpec(const std::string& key, DataType dtype, const TensorShape& shape,
                                      const std::optional<Tensor>& defaultValue)
{
    if (Status s = checkConfigDtype(dtype); !s.isOk())
        return unexpected(s);
    auto n = shape.numElements();
    if (!n)
        return unexpected(
            invalidArgumentError("feature '" + key + "': shape " + shape.toString() + " must be fully defined"));
    if (defaultValue) {
        if (defaultValue->dtype() != dtype)
            return unexpected(invalidArgumentError("feature '" + key + "': default_value has dtype " +
                                                   dataTypeString(defaultValue->dtype()) + ", expected " +
                                                   dataTypeString(dtype)));
        if (defaultValue->numElements() != *n)
            return unexpected(invalidArgumentError("feature '" + key + "': default_value has " +
                                                   std::to_string(defaultValue->numElements()) + " elements, shape " +
                                                   shape.toString() + " needs " + std::to_string(*n)));
    }
    return *n;
}

/// Values of one VarLen feature across a batch (or across the time steps of a feature list).
struct SparseCollector {
    DataType dtype;
    std::vector<const Feature*> rows; ///< null for a missing row

    std::int64_t total() const
    {
        std::int64_t t = 0;
        for (const Feature* f : rows)
            t += f ? featureSize(*f) : 0;
        return t;
    }

    /// indices [n, rank] with rank 2 (row, position), or rank 1 (position only, one row).
    Expected<SparseTensor> finish(Allocator& allocator, bool rankOne) const
    {
        const std::int64_t n = total();
        std::int64_t longest = 0;
        for (const Feature* f : rows)
            longest = std::max(longest, f ? featureSize(*f) : 0);
        const std::int64_t rank = rankOne ? 1 : 2;
        auto indices = Tensor::allocate(allocator, tf::DT_INT64, TensorShape{n, rank});
        auto values = Tensor::allocate(allocator, dtype, TensorShape{n});
        auto shape = Tensor::allocate(allocator, tf::DT_INT64, TensorShape{rank});
        if (!indices || !values || !shape)
            return unexpected(!indices ? indices.error() : !values ? values.error() : shape.error());
        auto ix = indices->values<std::int64_t>();
        std::int64_t at = 0;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            if (!rows[r])
                continue;
            const std::int64_t size = featureSize(*rows[r]);
            copyFeature(*rows[r], *values, at);
            for (std::int64_t j = 0; j < size; ++j, ++at) {
                if (rankOne) {
                    ix[static_cast<std::size_t>(at)] = j;
                } else {
                    ix[static_cast<std::size_t>(2 * at)] = static_cast<std::int64_t>(r);
                    ix[static_cast<std::size_t>(2 * at + 1)] = j;
                }
            }
        }
        auto dims = shape->values<std::int64_t>();
        if (rankOne) {
            dims[0] = n;
        } else {
            dims[0] = static_cast<std::int64_t>(rows.size());
            dims[1] = longest;
        }
        return SparseTensor{*indices, *values, *shape};
    }
};

const Feature* findFeature(const tf::Features& features, const std::string& key)
{
    auto it = features.feature().find(key);
    return it == features.feature().end() ? nullptr : &it->second;
}

std::string featureText(const Feature& f)
{
    std::string text;
    google::protobuf::TextFormat::PrintToString(f, &text);
    return text;
}

/// A FixedLenFeature's layout: values per example (per step for variable length) and the shape
/// after the first dimension when that one is variable.
struct DenseLayout {
    std::int64_t stride = 0;
    bool variable = false;
    TensorShape inner;
};

/// TensorFlow's GetDenseShapes and the default checks of the parse kernels: inner dimensions known,
/// a default of the shape's size (or one padding element for a variable-length feature).
Expected<DenseLayout> denseLayout(const FixedLenFeature& d)
{
    if (Status s = checkConfigDtype(d.dtype); !s.isOk())
        return unexpected(s);
    const TensorShape& shape = d.shape;
    bool known = shape.rank() >= 0;
    for (int i = 1; known && i < shape.rank(); ++i)
        known = shape.dim(i) >= 0;
    if (!known)
        return unexpected(invalidArgumentError("feature '" + d.key + "': shape " + shape.toString() +
                                               " has unknown rank or unknown inner dimensions"));
    DenseLayout layout;
    layout.variable = shape.rank() > 0 && shape.dim(0) < 0;
    layout.inner =
        layout.variable ? TensorShape(std::vector<std::int64_t>(shape.dims().begin() + 1, shape.dims().end())) : shape;
    auto stride = layout.inner.numElements();
    if (!stride)
        return unexpected(stride.error());
    layout.stride = *stride;
    if (!layout.variable) {
        if (auto n = checkDenseSpec(d.key, d.dtype, d.shape, d.defaultValue); !n)
            return unexpected(n.error());
        return layout;
    }
    if (d.defaultValue) {
        if (d.defaultValue->dtype() != d.dtype)
            return unexpected(invalidArgumentError("feature '" + d.key + "': default_value has dtype " +
                                                   dataTypeString(d.defaultValue->dtype()) + ", expected " +
                                                   dataTypeString(d.dtype)));
        if (d.defaultValue->numElements() != 1)
            return unexpected(invalidArgumentError(
                "feature '" + d.key + "': shape " + shape.toString() +
                " is variable-length, so default_value must hold one element (the padding) but has " +
                std::to_string(d.defaultValue->numElements())));
    }
    return layout;
}

bool isMultiple(std::int64_t count, std::int64_t stride)
{
    return stride == 0 ? count == 0 : count % stride == 0;
}

/// The values of one variable-length feature across a batch, and how many each example has.
struct VarLenValues {
    wire::ValueList values;
    std::vector<std::int64_t> counts; ///< per example

    std::int64_t longest() const { return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end()); }
};

/// Sets every element of `out` to the single element of `pad` (same dtype).
void fillWith(Tensor& out, const Tensor& pad)
{
    if (out.dtype() == tf::DT_STRING)
        std::fill(out.strings().begin(), out.strings().end(), pad.strings()[0]);
    else if (out.dtype() == tf::DT_FLOAT)
        std::fill(out.values<float>().begin(), out.values<float>().end(), pad.values<float>()[0]);
    else
        std::fill(out.values<std::int64_t>().begin(), out.values<std::int64_t>().end(), pad.values<std::int64_t>()[0]);
}

/// A variable-length dense output: [batch, longest / stride] + inner (padded), or for one example
/// [count / stride] + inner.
Expected<Tensor> finishVarLenDense(const FixedLenFeature& c, const DenseLayout& layout, const VarLenValues& v,
                                   Allocator& allocator, bool single)
{
    const std::int64_t batch = static_cast<std::int64_t>(v.counts.size());
    const std::int64_t rows = layout.stride == 0 ? 0 : v.longest() / layout.stride;
    const TensorShape shape =
        single ? TensorShape{rows}.concatenate(layout.inner) : TensorShape{batch, rows}.concatenate(layout.inner);
    TSTUDIO_TRY(out, Tensor::allocate(allocator, c.dtype, shape));
    if (c.defaultValue && out.numElements() > 0)
        fillWith(out, *c.defaultValue);
    std::size_t begin = 0;
    for (std::int64_t e = 0; e < batch; ++e) {
        const auto n = static_cast<std::size_t>(v.counts[static_cast<std::size_t>(e)]);
        v.values.copyTo(begin, n, out, e * rows * layout.stride);
        begin += n;
    }
    return out;
}

/// A VarLen output: indices [n, 2] (example, position) and dense_shape [batch, longest], or for one
/// example indices [n, 1] and dense_shape [n].
Expected<SparseTensor> finishSparse(const VarLenValues& v, Allocator& allocator, bool single)
{
    const auto n = static_cast<std::int64_t>(v.values.size());
    const std::int64_t rank = single ? 1 : 2;
    TSTUDIO_TRY(indices, Tensor::allocate(allocator, tf::DT_INT64, TensorShape{n, rank}));
    TSTUDIO_TRY(values, Tensor::allocate(allocator, v.values.dtype(), TensorShape{n}));
    TSTUDIO_TRY(denseShape, Tensor::allocate(allocator, tf::DT_INT64, TensorShape{rank}));
    v.values.copyTo(0, v.values.size(), values, 0);
    auto ix = indices.values<std::int64_t>();
    std::size_t at = 0;
    for (std::size_t e = 0; e < v.counts.size(); ++e) {
        for (std::int64_t j = 0; j < v.counts[e]; ++j) {
            if (!single)
                ix[at++] = static_cast<std::int64_t>(e);
            ix[at++] = j;
        }
    }
    auto dims = denseShape.values<std::int64_t>();
    if (single) {
        dims[0] = n;
    } else {
        dims[0] = static_cast<std::int64_t>(v.counts.size());
        dims[1] = v.longest();
    }
    return SparseTensor{indices, values, denseShape};
}

/// A ragged output: values [n] and row splits [batch + 1], or for one example empty splits [0].
Expected<RaggedTensor> finishRagged(const VarLenValues& v, DataType splitsDtype, Allocator& allocator, bool single)
{
    const auto n = static_cast<std::int64_t>(v.values.size());
    TSTUDIO_TRY(values, Tensor::allocate(allocator, v.values.dtype(), TensorShape{n}));
    v.values.copyTo(0, v.values.size(), values, 0);
    const std::int64_t splitCount = single ? 0 : static_cast<std::int64_t>(v.counts.size()) + 1;
    TSTUDIO_TRY(splits, Tensor::allocate(allocator, splitsDtype, TensorShape{splitCount}));
    std::int64_t end = 0;
    for (std::int64_t i = 0; i < splitCount; ++i) {
        if (i > 0)
            end += v.counts[static_cast<std::size_t>(i - 1)];
        if (splitsDtype == tf::DT_INT32)
            splits.values<std::int32_t>()[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(end);
        else
            splits.values<std::int64_t>()[static_cast<std::size_t>(i)] = end;
    }
    return RaggedTensor{values, splits, Tensor()};
}

enum class Kind { kDense, kSparse, kRagged };
struct Slot {
    Kind kind;
    std::size_t index;
};

/// The features a spec asks for, by key; "Duplicate feature key 'a'" when a key repeats.
Expected<std::unordered_map<std::string_view, Slot>> indexFeatures(const ExampleFeatures& spec)
{
    std::unordered_map<std::string_view, Slot> index;
    auto add = [&index](const std::string& key, Kind kind, std::size_t i) {
        return index.emplace(key, Slot{kind, i}).second;
    };
    for (std::size_t i = 0; i < spec.dense.size(); ++i)
        if (!add(spec.dense[i].key, Kind::kDense, i))
            return unexpected(invalidArgumentError("Duplicate feature key '" + spec.dense[i].key + "'"));
    for (std::size_t i = 0; i < spec.sparse.size(); ++i)
        if (!add(spec.sparse[i].key, Kind::kSparse, i))
            return unexpected(invalidArgumentError("Duplicate feature key '" + spec.sparse[i].key + "'"));
    for (std::size_t i = 0; i < spec.ragged.size(); ++i)
        if (!add(spec.ragged[i].key, Kind::kRagged, i))
            return unexpected(invalidArgumentError("Duplicate feature key '" + spec.ragged[i].key + "'"));
    return index;
}

/// Shared by parseExample (batched, FastParseExample) and parseSingleExample
/// (FastParseSingleExample); `single` selects the single-example shapes and error wording.
Expected<ParsedFeatures> parseExamples(std::span<const std::string_view> serialized, const ExampleFeatures& spec,
                                       Allocator& allocator, std::span<const std::string> names, bool single)
{
    if (!names.empty() && names.size() != serialized.size())
        return unexpected(
            invalidArgumentError("Expected len(names) == len(serialized), but got: " + std::to_string(names.size()) +
                                 " vs. " + std::to_string(serialized.size())));
    std::vector<DenseLayout> layouts;
    for (const FixedLenFeature& d : spec.dense) {
        TSTUDIO_TRY(layout, denseLayout(d));
        layouts.push_back(std::move(layout));
    }
    for (const VarLenFeature& s : spec.sparse)
        if (Status st = checkConfigDtype(s.dtype); !st.isOk())
            return unexpected(st);
    for (const RaggedFeature& r : spec.ragged) {
        if (Status st = checkConfigDtype(r.dtype); !st.isOk())
            return unexpected(st);
        if (r.splitsDtype != tf::DT_INT32 && r.splitsDtype != tf::DT_INT64)
            return unexpected(invalidArgumentError("Invalid ragged_split_type: " + dataTypeString(r.splitsDtype)));
    }
    TSTUDIO_TRY(index, indexFeatures(spec));

    const auto batch = static_cast<std::int64_t>(serialized.size());
    const std::size_t batchSize = serialized.size();
    std::vector<Tensor> fixed(spec.dense.size());
    std::vector<VarLenValues> varLen;
    for (std::size_t d = 0; d < spec.dense.size(); ++d) {
        varLen.push_back({wire::ValueList(spec.dense[d].dtype), std::vector<std::int64_t>(batchSize, 0)});
        if (layouts[d].variable)
            continue;
        TSTUDIO_TRY(
            t, Tensor::allocate(allocator, spec.dense[d].dtype,
                                single ? spec.dense[d].shape : TensorShape{batch}.concatenate(spec.dense[d].shape)));
        fixed[d] = t;
    }
    std::vector<VarLenValues> sparse;
    for (const VarLenFeature& s : spec.sparse)
        sparse.push_back({wire::ValueList(s.dtype), std::vector<std::int64_t>(batchSize, 0)});
    std::vector<VarLenValues> ragged;
    for (const RaggedFeature& r : spec.ragged)
        ragged.push_back({wire::ValueList(r.dtype), std::vector<std::int64_t>(batchSize, 0)});

    std::vector<wire::MapEntry> entries;
    for (std::size_t e = 0; e < batchSize; ++e) {
        entries.clear();
        if (!wire::splitExample(serialized[e], &entries))
            return unexpected(invalidArgumentError("Could not parse example input, value: '" +
                                                   std::string(serialized[e]) + "'"));
        const std::string_view name = names.empty() ? std::string_view("<unknown>") : std::string_view(names[e]);
        std::vector<char> denseSeen(spec.dense.size(), 0);
        std::vector<char> sparseSeen(spec.sparse.size(), 0);
        std::vector<char> raggedSeen(spec.ragged.size(), 0);
        // The last entry of a key wins, as in protobuf's map parsing: walk backwards, first one counts.
        for (std::size_t i = entries.size(); i-- > 0;) {
            const auto found = index.find(entries[i].key);
            if (found == index.end())
                continue;
            const Slot slot = found->second;
            // Words for an error only: built when one is reported, not for every feature read.
            const auto prefix = [&, key = entries[i].key] {
                return single ? "Key: " + std::string(key) + ".  "
                              : "Name: " + std::string(name) + ", Key: " + std::string(key) +
                                    ", Index: " + std::to_string(e) + ".  ";
            };
            const wire::FeatureBytes feature(entries[i].value);
            DataType kind = tf::DT_INVALID;
            if (feature.kind(&kind) != wire::FeatureError::kNone)
                return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
            if (kind == tf::DT_INVALID && (single || slot.kind == Kind::kDense))
                continue; // an empty Feature: missing
            if (slot.kind == Kind::kDense) {
                const FixedLenFeature& c = spec.dense[slot.index];
                const DenseLayout& layout = layouts[slot.index];
                if (denseSeen[slot.index])
                    continue;
                denseSeen[slot.index] = 1;
                if (kind != c.dtype)
                    return unexpected(
                        invalidArgumentError(prefix() + "Data types don't match. Data type: " + dataTypeString(kind) +
                                             " but expected type: " + dataTypeString(c.dtype)));
                if (!layout.variable) {
                    wire::ValueList values(c.dtype);
                    if (values.append(feature) != wire::FeatureError::kNone)
                        return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
                    const auto count = static_cast<std::int64_t>(values.size());
                    if (count != layout.stride) {
                        if (single)
                            return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
                        return unexpected(invalidArgumentError(
                            prefix() + "Number of " + listWord(c.dtype) + " values != expected.  Values size: " +
                            std::to_string(count) + " but output shape: " + c.shape.toString()));
                    }
                    values.copyTo(0, values.size(), fixed[slot.index],
                                  single ? 0 : static_cast<std::int64_t>(e) * layout.stride);
                    continue;
                }
                VarLenValues& buffer = varLen[slot.index];
                const std::size_t before = buffer.values.size();
                if (buffer.values.append(feature) != wire::FeatureError::kNone)
                    return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
                const auto count = static_cast<std::int64_t>(buffer.values.size() - before);
                if (!isMultiple(count, layout.stride)) {
                    if (single)
                        return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
                    return unexpected(invalidArgumentError(
                        prefix() + "Number of " + listWord(c.dtype) +
                        " values is not a multiple of stride length. Saw " + std::to_string(count) +
                        " values but output shape is: " + c.shape.toString()));
                }
                buffer.counts[e] = count;
                continue;
            }
            const bool isSparse = slot.kind == Kind::kSparse;
            std::vector<char>& seen = isSparse ? sparseSeen : raggedSeen;
            if (seen[slot.index])
                continue;
            seen[slot.index] = 1;
            if (kind == tf::DT_INVALID)
                continue;
            VarLenValues& buffer = isSparse ? sparse[slot.index] : ragged[slot.index];
            if (kind != buffer.values.dtype())
                return unexpected(invalidArgumentError(
                    prefix() + "Data types don't match. Expected type: " + dataTypeString(buffer.values.dtype()) +
                    ", Actual type: " + dataTypeString(kind)));
            const std::size_t before = buffer.values.size();
            if (buffer.values.append(feature) != wire::FeatureError::kNone)
                return unexpected(invalidArgumentError(prefix() + "Can't parse serialized Example."));
            buffer.counts[e] = static_cast<std::int64_t>(buffer.values.size() - before);
        }
        for (std::size_t d = 0; d < spec.dense.size(); ++d) {
            if (layouts[d].variable || denseSeen[d])
                continue;
            const FixedLenFeature& c = spec.dense[d];
            if (!c.defaultValue || c.defaultValue->numElements() == 0)
                return unexpected(invalidArgumentError((single ? "" : "Name: " + std::string(name) + ", ") +
                                                       "Feature: " + c.key +
                                                       " (data type: " + dataTypeString(c.dtype) + ")" +
                                                       " is required but could not be found."));
            copyTensor(*c.defaultValue, fixed[d], single ? 0 : static_cast<std::int64_t>(e) * layouts[d].stride);
        }
    }

    ParsedFeatures out;
    for (std::size_t d = 0; d < spec.dense.size(); ++d) {
        if (!layouts[d].variable) {
            out.dense[spec.dense[d].key] = fixed[d];
            continue;
        }
        TSTUDIO_TRY(t, finishVarLenDense(spec.dense[d], layouts[d], varLen[d], allocator, single));
        out.dense[spec.dense[d].key] = t;
    }
    for (std::size_t s = 0; s < spec.sparse.size(); ++s) {
        TSTUDIO_TRY(t, finishSparse(sparse[s], allocator, single));
        out.sparse[spec.sparse[s].key] = t;
    }
    for (std::size_t r = 0; r < spec.ragged.size(); ++r) {
        TSTUDIO_TRY(t, finishRagged(ragged[r], spec.ragged[r].splitsDtype, allocator, single));
        out.ragged[spec.ragged[r].key] = t;
    }
    return out;
}

} // namespace

Expected<ParsedFeatures> parseExample(std::span<const std::string> serialized, const ExampleFeatures& features,
                                      Allocator& allocator, std::span<const std::string> names)
{
    const std::vector<std::string_view> views(serialized.begin(), serialized.end());
    return parseExamples(views, features, allocator, names, false);
}

Expected<ParsedFeatures> parseExample(std::span<const std::string_view> serialized, const ExampleFeatures& features,
                                      Allocator& allocator, std::span<const std::string> names)
{
    return parseExamples(serialized, features, allocator, names, false);
}

Expected<ParsedFeatures> parseSingleExample(const std::string& serialized, const ExampleFeatures& features,
                                            Allocator& allocator)
{
    const std::string_view view(serialized);
    return parseExamples(std::span<const std::string_view>(&view, 1), features, allocator, {}, true);
}

Expected<ParsedSequenceExample> parseSingleSequenceExample(const std::string& serialized, const SequenceFeatures& spec,
                                                           Allocator& allocator, const std::string& name)
{
    tf::SequenceExample ex;
    if (!ex.ParseFromString(serialized))
        return unexpected(invalidArgumentError("Could not parse example input, value: '" + serialized + "'"));
    ParsedSequenceExample out;

    // Context: one Example's worth of features, with the sequence parser's wording.
    for (const FixedLenFeature& c : spec.contextDense) {
        auto n = checkDenseSpec(c.key, c.dtype, c.shape, c.defaultValue);
        if (!n)
            return unexpected(n.error());
        auto t = Tensor::allocate(allocator, c.dtype, c.shape);
        if (!t)
            return unexpected(t.error());
        const Feature* f = findFeature(ex.context(), c.key);
        if (!f) {
            if (!c.defaultValue)
                return unexpected(invalidArgumentError("Name: " + name + ", Context feature '" + c.key +
                                                       "' is required but could not be found."));
            copyTensor(*c.defaultValue, *t, 0);
        } else {
            if (featureDtype(*f) != c.dtype)
                return unexpected(invalidArgumentError("Name: " + name + ", Context feature: " + c.key +
                                                       ".  Data types don't match. Expected type: " +
                                                       dataTypeString(c.dtype) + "  Feature is: " + featureText(*f)));
            if (featureSize(*f) != *n)
                return unexpected(invalidArgumentError(
                    "Name: " + name + ", Key: " + c.key + ", Index: 0.  Number of " + listWord(c.dtype) +
                    " values != expected.  values size: " + std::to_string(featureSize(*f)) +
                    " but output shape: " + c.shape.toString()));
            copyFeature(*f, *t, 0);
        }
        out.context.dense[c.key] = *t;
    }
    for (const VarLenFeature& c : spec.contextSparse) {
        if (Status s = checkConfigDtype(c.dtype); !s.isOk())
            return unexpected(s);
        const Feature* f = findFeature(ex.context(), c.key);
        if (f && featureDtype(*f) == tf::DT_INVALID)
            f = nullptr;
        if (f && featureDtype(*f) != c.dtype)
            return unexpected(invalidArgumentError("Name: " + name + ", Context feature: " + c.key +
                                                   ".  Data types don't match. Expected type: " +
                                                   dataTypeString(c.dtype) + "  Feature is: " + featureText(*f)));
        auto st = SparseCollector{c.dtype, {f}}.finish(allocator, true);
        if (!st)
            return unexpected(st.error());
        out.context.sparse[c.key] = *st;
    }

    const auto& lists = ex.feature_lists().feature_list();
    for (const FixedLenSequenceFeature& c : spec.sequenceDense) {
        auto n = checkDenseSpec(c.key, c.dtype, c.shape, std::nullopt);
        if (!n)
            return unexpected(n.error());
        auto it = lists.find(c.key);
        if (it == lists.end() && !c.allowMissing)
            return unexpected(
                invalidArgumentError("Name: " + name + ", Feature list '" + c.key +
                                     "' is required but could not be found.  Did you mean to include it in "
                                     "feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"));
        const int steps = it == lists.end() ? 0 : it->second.feature_size();
        auto t = Tensor::allocate(allocator, c.dtype, TensorShape{steps}.concatenate(c.shape));
        if (!t)
            return unexpected(t.error());
        for (int step = 0; step < steps; ++step) {
            const Feature& f = it->second.feature(step);
            if (featureDtype(f) != c.dtype)
                return unexpected(invalidArgumentError(
                    "Name: " + name + ", Feature list: " + c.key + ", Index: " + std::to_string(step) +
                    ".  Data types don't match. Expected type: " + dataTypeString(c.dtype) +
                    "  Feature is: " + featureText(f)));
            if (featureSize(f) != *n)
                return unexpected(invalidArgumentError(
                    "Name: " + name + ", Key: " + c.key + ", Index: " + std::to_string(step) + ".  Number of " +
                    listWord(c.dtype) + " values != expected.  values size: " + std::to_string(featureSize(f)) +
                    " but output shape: " + c.shape.toString()));
            copyFeature(f, *t, step * *n);
        }
        out.sequence.dense[c.key] = *t;
    }
    for (const VarLenFeature& c : spec.sequenceSparse) {
        if (Status s = checkConfigDtype(c.dtype); !s.isOk())
            return unexpected(s);
        SparseCollector collector{c.dtype, {}};
        if (auto it = lists.find(c.key); it != lists.end()) {
            for (int step = 0; step < it->second.feature_size(); ++step) {
                const Feature& f = it->second.feature(step);
                if (featureDtype(f) != c.dtype)
                    return unexpected(invalidArgumentError(
                        "Name: " + name + ", Feature List: " + c.key + ", Index: " + std::to_string(step) +
                        ".  Data types don't match. Expected type: " + dataTypeString(c.dtype) +
                        "  Feature is: " + featureText(f)));
                collector.rows.push_back(&f);
            }
        }
        auto st = collector.finish(allocator, false);
        if (!st)
            return unexpected(st.error());
        out.sequence.sparse[c.key] = *st;
    }
    return out;
}

} // namespace tstudio::data
