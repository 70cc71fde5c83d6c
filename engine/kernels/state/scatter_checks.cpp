// The checks of the Scatter* kernels (see scatter_checks.h).
#include "kernels/state/scatter_checks.h"

#include <string>

namespace tstudio {

Expected<std::vector<std::int64_t>> checkedScatterIndices(const Tensor& indices, std::int64_t rows)
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(indices.numElements()));
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = indices.dtype() == tensorflow::DT_INT64 ? indices.values<std::int64_t>()[i]
                                                         : indices.values<std::int32_t>()[i];
        if (out[i] < 0 || out[i] >= rows)
            return unexpected(invalidArgumentError("indices[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                                                   " is not in [0, " + std::to_string(rows) + ")"));
    }
    return out;
}

Status checkScatterUpdatesShape(const Tensor& params, const Tensor& indices, const Tensor& updates)
{
    if (params.rank() < 1)
        return invalidArgumentError("params must be at least 1-D, got " + params.shape().toString());
    std::vector<std::int64_t> expected(indices.shape().dims().begin(), indices.shape().dims().end());
    for (int d = 1; d < params.rank(); ++d)
        expected.push_back(params.shape().dim(d));
    if (updates.rank() != 0 && updates.shape() != TensorShape(expected))
        return invalidArgumentError("Must have updates.shape = indices.shape + params.shape[1:] or "
                                    "updates.shape = [], got updates.shape " +
                                    updates.shape().toString() + ", indices.shape " + indices.shape().toString() +
                                    ", params.shape " + params.shape().toString());
    return Status::ok();
}

} // namespace tstudio
