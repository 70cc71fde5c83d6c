// checkpointDiff: per-tensor changes between two checkpoints.
#include "diff/checkpoint_diff.h"

#include "framework/allocator.h"
#include "framework/data_type.h"

#include <Eigen/Core>

#include <cmath>
#include <cstring>
#include <map>

namespace tstudio::diff {
namespace {

/// The elements of a real-number tensor as double; false for other dtypes.
bool asDoubles(const Tensor& t, std::vector<double>& out)
{
    const auto n = static_cast<std::size_t>(t.numElements());
    out.resize(n);
    auto copy = [&](auto tag) {
        using T = decltype(tag);
        const auto values = t.values<T>();
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<double>(values[i]);
        return true;
    };
    switch (t.dtype()) {
    case tensorflow::DT_FLOAT: return copy(float{});
    case tensorflow::DT_DOUBLE: return copy(double{});
    case tensorflow::DT_HALF: return copy(Eigen::half{});
    case tensorflow::DT_BFLOAT16: return copy(Eigen::bfloat16{});
    case tensorflow::DT_INT8: return copy(std::int8_t{});
    case tensorflow::DT_UINT8: return copy(std::uint8_t{});
    case tensorflow::DT_INT16: return copy(std::int16_t{});
    case tensorflow::DT_UINT16: return copy(std::uint16_t{});
    case tensorflow::DT_INT32: return copy(std::int32_t{});
    case tensorflow::DT_INT64: return copy(std::int64_t{});
    case tensorflow::DT_BOOL: return copy(bool{});
    default: return false;
    }
}

void compareValues(const Tensor& a, const Tensor& b, TensorChange& change)
{
    change.elements = a.numElements();
    std::vector<double> x, y;
    if (asDoubles(a, x) && asDoubles(b, y)) {
        double delta2 = 0, norm2 = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const bool nanX = std::isnan(x[i]), nanY = std::isnan(y[i]);
            if (nanX && nanY)
                continue;
            if (nanX != nanY) {
                ++change.changedElements;
                change.maxAbsDelta = std::nan("");
                continue;
            }
            if (x[i] != y[i])
                ++change.changedElements;
            const double d = std::isinf(x[i]) && x[i] == y[i] ? 0.0 : y[i] - x[i];
            if (!std::isnan(change.maxAbsDelta))
                change.maxAbsDelta = std::max(change.maxAbsDelta, std::abs(d));
            delta2 += d * d;
            norm2 += x[i] * x[i];
        }
        change.relativeChange = delta2 == 0 ? 0.0 : norm2 == 0 ? INFINITY : std::sqrt(delta2 / norm2);
        return;
    }
    if (a.dtype() == tensorflow::DT_STRING) {
        const auto sa = a.strings(), sb = b.strings();
        for (std::size_t i = 0; i < sa.size(); ++i)
            if (sa[i] != sb[i])
                ++change.changedElements;
    } else {
        const auto ba = a.tensorData(), bb = b.tensorData();
        change.changedElements = ba.size() == bb.size() && std::memcmp(ba.data(), bb.data(), ba.size()) == 0 ? 0 : 1;
    }
    change.maxAbsDelta = change.changedElements > 0 ? 1.0 : 0.0;
    change.relativeChange = change.maxAbsDelta;
}

} // namespace

bool TensorChange::changed() const
{
    return dtypeBefore != dtypeAfter || shapeBefore != shapeAfter || changedElements > 0;
}

bool CheckpointDiff::identical() const
{
    if (!added.empty() || !removed.empty())
        return false;
    for (const TensorChange& c : common)
        if (c.changed())
            return false;
    return true;
}

Expected<CheckpointDiff> checkpointDiff(const CheckpointReader& first, const CheckpointReader& second)
{
    std::map<std::string, BundleTensorInfo> a, b;
    for (BundleTensorInfo& info : first.tensors())
        a.emplace(info.name, std::move(info));
    for (BundleTensorInfo& info : second.tensors())
        b.emplace(info.name, std::move(info));
    CheckpointDiff diff;
    CpuAllocator allocator;
    for (const auto& [name, info] : a) {
        const auto other = b.find(name);
        if (other == b.end()) {
            diff.removed.push_back(name);
            continue;
        }
        TensorChange change;
        change.name = name;
        change.dtypeBefore = dataTypeString(info.dtype);
        change.dtypeAfter = dataTypeString(other->second.dtype);
        change.shapeBefore = info.shape.toString();
        change.shapeAfter = other->second.shape.toString();
        if (info.dtype == other->second.dtype && info.shape == other->second.shape) {
            auto x = first.read(name, allocator);
            if (!x)
                return unexpected(x.error().withContext("the first checkpoint's '" + name + "'"));
            auto y = second.read(name, allocator);
            if (!y)
                return unexpected(y.error().withContext("the second checkpoint's '" + name + "'"));
            change.compared = true;
            compareValues(*x, *y, change);
        }
        diff.common.push_back(std::move(change));
    }
    for (const auto& [name, info] : b)
        if (!a.count(name))
            diff.added.push_back(name);
    return diff;
}

} // namespace tstudio::diff
