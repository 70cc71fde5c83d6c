// CPU kernels of Scatter* (ref variables) and ResourceScatter* (resource variables): the rows of the
// variable named by indices are updated in index order, so repeated indices accumulate (Add, Sub,
// Mul, Div) or the last one wins (Update), as TensorFlow's CPU scatter functors do. Every index is
// checked before anything is written, so a bad index leaves the variable unchanged.
#define EIGEN_USE_THREADS

#include "kernels/state/scatter_kernels.h"

#include "kernels/state/scatter_checks.h"
#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_op_cpu.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tstudio {
namespace {

enum class ScatterOp { kUpdate, kAdd, kSub, kMul, kDiv };

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
                if (Status s = checkScatterUpdatesShape(params, indices, updates); !s.isOk())
                    return s;
                const bool scalar = updates.rank() == 0;
                const std::int64_t rows = params.shape().dim(0);
                auto picked = checkedScatterIndices(indices, rows);
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
