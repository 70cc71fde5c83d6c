// CPU kernels of Scatter* (ref variables) and ResourceScatter* (resource variables): the rows of the
// variable named by indices are updated in index order, so repeated indices accumulate (Add, Sub,
// Mul, Div) or the last one wins (Update), as TensorFlow's CPU scatter functors do. Every index is
// checked before anything is written, so a bad index leaves the variable unchanged.
#define EIGEN_USE_THREADS

#include "kernels/state/scatter_kernels.h"

#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_op_cpu.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tstudio {
namespace {

enum class ScatterOp { kUpdate, kAdd, kSub, kMul, kDiv };

/// The row numbers of `indices` (int32 or int64), each checked against [0, rows): InvalidArgument
/// "indices[3] = 1000 is not in [0, 1000)" for the first bad one.
Expected<std::vector<std::int64_t>> checkedIndices(const Tensor& indices, std::int64_t rows)
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

template <typename T, ScatterOp kOp> Status applyOne(T& p, T u)
{
    if constexpr (kOp == ScatterOp::kUpdate)
        p = u;
    else if constexpr (kOp == ScatterOp::kAdd)
        p = p + u;
    else if constexpr (kOp == ScatterOp::kSub)
        p = p - u;
    else if constexpr (kOp == ScatterOp::kMul)
        p = p * u;
    else {
        if constexpr (std::is_integral_v<T>) {
            if (u == T(0))
                return invalidArgumentError("Integer division by zero in a scatter division");
        }
        p = p / u;
    }
    return Status::ok();
}

template <typename T, ScatterOp kOp> struct ScatterKernel {
    template <template <typename> class Form> class Kernel : public Form<T> {
    public:
        using Form<T>::Form;

        Status compute(OpKernelContext& ctx) override
        {
            return this->run(ctx, {0}, [&](auto& vars) -> Status {
                Tensor& params = vars[0];
                const Tensor& indices = ctx.input(1);
                const Tensor& updates = ctx.input(2);
                if (params.rank() < 1)
                    return invalidArgumentError("params must be at least 1-D, got " + params.shape().toString());
                std::vector<std::int64_t> expected(indices.shape().dims().begin(), indices.shape().dims().end());
                for (int d = 1; d < params.rank(); ++d)
                    expected.push_back(params.shape().dim(d));
                const bool scalar = updates.rank() == 0;
                if (!scalar && updates.shape() != TensorShape(expected))
                    return invalidArgumentError("Must have updates.shape = indices.shape + params.shape[1:] or "
                                                "updates.shape = [], got updates.shape " +
                                                updates.shape().toString() + ", indices.shape " +
                                                indices.shape().toString() + ", params.shape " +
                                                params.shape().toString());
                const std::int64_t rows = params.shape().dim(0);
                auto picked = checkedIndices(indices, rows);
                if (!picked)
                    return picked.error();
                const std::int64_t rowSize = rows == 0 ? 0 : params.numElements() / rows;
                auto p = params.values<T>();
                auto u = updates.values<T>();
                for (std::size_t i = 0; i < picked->size(); ++i) {
                    T* row = p.data() + (*picked)[i] * rowSize;
                    for (std::int64_t j = 0; j < rowSize; ++j) {
                        const T value = scalar ? u[0] : u[i * static_cast<std::size_t>(rowSize) + static_cast<std::size_t>(j)];
                        if (Status s = applyOne<T, kOp>(row[j], value); !s.isOk())
                            return s;
                    }
                }
                return Status::ok();
            });
        }
    };
};

template <typename T> using CpuRef = training::RefApplyKernel<T, training::CpuApplyDevice>;
template <typename T> using CpuResource = training::ResourceApplyKernel<T, training::CpuApplyDevice>;

template <ScatterOp kOp, typename T> Status addScatter(KernelRegistry& registry, const std::string& name)
{
    for (DataType indexType : {tensorflow::DT_INT32, tensorflow::DT_INT64}) {
        Status s = registry.add<typename ScatterKernel<T, kOp>::template Kernel<CpuRef>>(
            KernelDef{"Scatter" + name, "CPU", {{"T", {kDataTypeOf<T>}}, {"Tindices", {indexType}}}, {}});
        if (s.isOk())
            s = registry.add<typename ScatterKernel<T, kOp>::template Kernel<CpuResource>>(KernelDef{
                "ResourceScatter" + name, "CPU", {{"dtype", {kDataTypeOf<T>}}, {"Tindices", {indexType}}}, {"resource"}});
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

template <ScatterOp kOp> Status addScatterTypes(KernelRegistry& registry, const std::string& name)
{
    Status s = addScatter<kOp, Eigen::half>(registry, name);
    if (s.isOk())
        s = addScatter<kOp, float>(registry, name);
    if (s.isOk())
        s = addScatter<kOp, double>(registry, name);
    if (s.isOk())
        s = addScatter<kOp, std::int32_t>(registry, name);
    if (s.isOk())
        s = addScatter<kOp, std::int64_t>(registry, name);
    return s;
}

} // namespace

Status registerScatterKernels(KernelRegistry& registry)
{
    Status s = addScatterTypes<ScatterOp::kUpdate>(registry, "Update");
    if (s.isOk())
        s = addScatterTypes<ScatterOp::kAdd>(registry, "Add");
    if (s.isOk())
        s = addScatterTypes<ScatterOp::kSub>(registry, "Sub");
    if (s.isOk())
        s = addScatterTypes<ScatterOp::kMul>(registry, "Mul");
    if (s.isOk())
        s = addScatterTypes<ScatterOp::kDiv>(registry, "Div");
    return s;
}

} // namespace tstudio
