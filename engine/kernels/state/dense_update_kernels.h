// The registration of the in-place add/sub update kernels (the ref form AssignAdd/AssignSub and the
// resource form AssignAddVariableOp/AssignSubVariableOp) for a list of dtypes on one device, each
// kernel built around the device's update function.
#pragma once

#include "framework/kernel_registry.h"
#include "kernels/state/dense_update.h"

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tstudio {

/// params op= update on the kernel's device (T is the tensors' dtype; the kernel has checked the
/// shapes). The CPU's is CpuDenseUpdate<T, Op>::run (dense_update_cpu.h).
using DenseUpdateFn = Status (*)(OpKernelContext& ctx, Tensor& params, const Tensor& update);

/// TensorFlow's CPU number types for both forms' add/sub updates.
using DenseUpdateTypes =
    TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
             std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::complex<float>, std::complex<double>>;

/// Registers makeKernel(&Update<T, kAdd>::run) as `addOp` and makeKernel(&Update<T, kSub>::run) as
/// `subOp` on `deviceType` for each T of `types`, constrained by the type attr `typeAttr`, with
/// `hostArgs` in host memory.
template <template <typename, functor::DenseUpdateOp> class Update, typename... Ts>
Status addDenseUpdateKernels(KernelRegistry& registry, const std::string& deviceType, const std::string& addOp,
                             const std::string& subOp, const std::string& typeAttr,
                             const std::vector<std::string>& hostArgs,
                             const std::function<KernelFactory(DenseUpdateFn)>& makeKernel, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        const std::vector<std::pair<std::string, std::vector<DataType>>> constraint = {{typeAttr, {kDataTypeOf<T>}}};
        if (status.isOk())
            status = registry.registerKernel(KernelDef{addOp, deviceType, constraint, hostArgs},
                                             makeKernel(&Update<T, functor::DenseUpdateOp::kAdd>::run));
        if (status.isOk())
            status = registry.registerKernel(KernelDef{subOp, deviceType, constraint, hostArgs},
                                             makeKernel(&Update<T, functor::DenseUpdateOp::kSub>::run));
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace tstudio
