// reduceRunsGpu: queues the passes of a GPU reduction (planReduction) with their temporaries.
#include "kernels/reduction/reduce_runs_cuda.h"

#include "devices/cuda/cuda_error.h"
#include "framework/tensor.h"
#include "kernels/reduction/reduce_plan.h"

#include <string>
#include <type_traits>

namespace tstudio::cuda {

namespace {

template <typename T> using Acc = std::conditional_t<std::is_same_v<T, __half>, float, T>;

template <typename T> constexpr DataType deviceDataType()
{
    if constexpr (std::is_same_v<T, float>)
        return tensorflow::DT_FLOAT;
    else if constexpr (std::is_same_v<T, double>)
        return tensorflow::DT_DOUBLE;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return tensorflow::DT_INT32;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return tensorflow::DT_INT64;
    else
        return tensorflow::DT_BOOL;
}

/// One launch with the element types of its input and output chosen at run time (T or Acc<T>).
template <typename T>
cudaError_t launchTyped(ReduceOp op, const void* in, bool inAcc, void* out, bool outAcc, std::int64_t outer,
                        std::int64_t R, std::int64_t inner, std::int64_t chunks, double divisor, cudaStream_t stream)
{
    using A = Acc<T>;
    if constexpr (std::is_same_v<T, A>) {
        return launchReducePass<A, T, T>(op, static_cast<const T*>(in), static_cast<T*>(out), outer, R, inner, chunks,
                                         divisor, stream);
    } else {
        if (!inAcc && !outAcc)
            return launchReducePass<A, T, T>(op, static_cast<const T*>(in), static_cast<T*>(out), outer, R, inner,
                                             chunks, divisor, stream);
        if (!inAcc)
            return launchReducePass<A, T, A>(op, static_cast<const T*>(in), static_cast<A*>(out), outer, R, inner,
                                             chunks, divisor, stream);
        if (!outAcc)
            return launchReducePass<A, A, T>(op, static_cast<const A*>(in), static_cast<T*>(out), outer, R, inner,
                                             chunks, divisor, stream);
        return launchReducePass<A, A, A>(op, static_cast<const A*>(in), static_cast<A*>(out), outer, R, inner, chunks,
                                         divisor, stream);
    }
}

} // namespace

template <typename T>
Status reduceRunsGpu(ReduceOp op, bool mean, const T* in, T* out, std::vector<std::int64_t> runs, bool reduceFirst,
                     Allocator& allocator, cudaStream_t stream, const char* opName)
{
    const reduction::ReducePlan plan = reduction::planReduction(std::move(runs), reduceFirst);
    if (plan.passes.empty())
        return internalError(std::string(opName) + ": a reduction without a reduced dimension reached the GPU");
    std::vector<Tensor> temporaries; // alive until every pass is queued; stream order protects reuse
    for (const std::int64_t elements : plan.temporaries) {
        auto t = Tensor::allocateUninitialized(allocator, deviceDataType<Acc<T>>(), TensorShape{elements});
        if (!t)
            return t.error();
        temporaries.push_back(std::move(*t));
    }
    auto buffer = [&](int index) -> void* {
        if (index == reduction::ReducePass::kOutput)
            return out;
        if (index == reduction::ReducePass::kInput)
            return const_cast<T*>(in);
        return temporaries[static_cast<std::size_t>(index)].tensorData().data();
    };
    for (const reduction::ReducePass& pass : plan.passes) {
        // Temporaries hold accumulators; the input and the output hold T.
        const double divisor = pass.last && mean ? static_cast<double>(plan.reducedElements) : 0.0;
        const cudaError_t error =
            launchTyped<T>(op, buffer(pass.source), pass.source >= 0, buffer(pass.target), pass.target >= 0, pass.outer,
                           pass.R, pass.inner, pass.chunks, divisor, stream);
        if (Status s = cudaStatus(error, std::string(opName) + " reduction kernel launch"); !s.isOk())
            return s;
    }
    return Status::ok();
}

#define TSTUDIO_REDUCE_RUNS(T)                                                                                         \
    template Status reduceRunsGpu<T>(ReduceOp, bool, const T*, T*, std::vector<std::int64_t>, bool, Allocator&,        \
                                     cudaStream_t, const char*)
TSTUDIO_REDUCE_RUNS(float);
TSTUDIO_REDUCE_RUNS(double);
TSTUDIO_REDUCE_RUNS(__half);
TSTUDIO_REDUCE_RUNS(std::int32_t);
TSTUDIO_REDUCE_RUNS(std::int64_t);
TSTUDIO_REDUCE_RUNS(bool);
#undef TSTUDIO_REDUCE_RUNS

} // namespace tstudio::cuda
