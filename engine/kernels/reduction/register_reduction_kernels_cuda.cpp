// GPU kernels of Sum, Mean, Prod, Max, Min, All, Any, ArgMax and ArgMin, registered for the dtypes
// and host-memory arguments of TensorFlow 1.15's GPU kernels.
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"
#include "kernels/reduction/arg_min_max.h"
#include "kernels/reduction/reduce_runs_cuda.h"
#include "kernels/reduction/reduction_helper.h"
#include "kernels/reduction/reduction_kernels.h"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace tstudio {

namespace {

using cuda::ReduceOp;

/// input: T (GPU memory), reduction_indices: Tidx (host memory) -> output: T (GPU memory).
/// Checks and collapsing as the CPU kernel (ReductionHelper); only size-1 dimensions reduced is a
/// copy, an empty input gives the empty reduction's value, the rest runs reduceRunsGpu.
template <typename T> class ReductionGpuOp : public OpKernel {
public:
    ReductionGpuOp(OpKernelConstruction& construction, ReduceOp op, bool mean)
        : OpKernel(construction), m_op(op), m_mean(mean), m_attrs(construction.node())
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        const Tensor& data = ctx.input(0);
        reduction::ReductionHelper helper;
        if (Status s = m_attrs.plan(data.shape(), ctx.input(1), helper); !s.isOk())
            return s;
        auto out = Tensor::allocateUninitialized(ctx.allocator(), data.dtype(), helper.outShape());
        if (!out)
            return out.error();
        if (out->numElements() == 0)
            return ctx.setOutput(0, std::move(*out));

        using D = cuda::DeviceType<T>;
        const cudaStream_t stream = (*gpu)->computeStream();
        D* result = reinterpret_cast<D*>(out->template data<T>());
        if (helper.ndims() == 0 || (helper.ndims() == 1 && !helper.reduceFirstAxis())) {
            // Only size-1 dimensions are reduced: the values are the input's.
            const cudaError_t error =
                cudaMemcpyAsync(result, data.data<T>(), data.totalBytes(), cudaMemcpyDeviceToDevice, stream);
            if (Status s = cuda::cudaStatus(error, "cudaMemcpyAsync"); !s.isOk())
                return s;
        } else if (data.numElements() == 0) {
            const cudaError_t error = cuda::launchReduceIdentity<D>(m_op, m_mean, result, out->numElements(), stream);
            if (Status s = cuda::cudaStatus(error, op() + " identity kernel launch"); !s.isOk())
                return s;
        } else {
            const D* input = reinterpret_cast<const D*>(data.data<T>());
            if (Status s = cuda::reduceRunsGpu<D>(m_op, m_mean, input, result, helper.dataReshape(),
                                                  helper.reduceFirstAxis(), ctx.allocator(), stream, op().c_str());
                !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }

private:
    ReduceOp m_op;
    bool m_mean;
    reduction::ReductionAttrs m_attrs;
};

/// Sum, Max and Min of int32 with every argument in host memory, computed on the host, as
/// TensorFlow registers them for GPUs (shapes and indices stay on the host).
class HostInt32ReductionOp : public OpKernel {
public:
    HostInt32ReductionOp(OpKernelConstruction& construction, ReduceOp op)
        : OpKernel(construction), m_op(op), m_attrs(construction.node())
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& data = ctx.input(0);
        reduction::ReductionHelper helper;
        if (Status s = m_attrs.plan(data.shape(), ctx.input(1), helper); !s.isOk())
            return s;
        auto out = ctx.allocateOutput(0, helper.outShape()); // host memory: the output is a host-memory arg
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        switch (m_op) {
        case ReduceOp::kMax:
            reduce(helper, data, **out, std::numeric_limits<std::int32_t>::lowest(),
                   [](std::int32_t a, std::int32_t b) { return std::max(a, b); });
            break;
        case ReduceOp::kMin:
            reduce(helper, data, **out, std::numeric_limits<std::int32_t>::max(),
                   [](std::int32_t a, std::int32_t b) { return std::min(a, b); });
            break;
        default: // kSum, wrapping around on overflow as the CPU kernel's int32 adds do
            reduce(helper, data, **out, 0, [](std::int32_t a, std::int32_t b) {
                return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
            });
            break;
        }
        return Status::ok();
    }

private:
    /// Walks the input once in order, folding each element into its output element (the collapsed
    /// runs of the helper: reduced runs have no output stride).
    template <typename Combine>
    static void reduce(const reduction::ReductionHelper& helper, const Tensor& data, Tensor& out, std::int32_t identity,
                       Combine combine)
    {
        std::int32_t* o = out.data<std::int32_t>();
        std::fill(o, o + out.numElements(), identity);
        const std::int32_t* in = data.data<std::int32_t>();
        const std::vector<std::int64_t>& dims = helper.dataReshape();
        if (dims.empty()) { // every dimension is 1: one element
            o[0] = combine(o[0], in[0]);
            return;
        }
        const std::size_t n = dims.size();
        std::vector<std::int64_t> outStride(n, 0), index(n, 0);
        std::int64_t stride = 1;
        for (std::size_t d = n; d-- > 0;) {
            const bool reducedRun = (d % 2 == 0) == helper.reduceFirstAxis();
            if (!reducedRun) {
                outStride[d] = stride;
                stride *= dims[d];
            }
        }
        std::int64_t at = 0;
        for (std::int64_t e = 0; e < data.numElements(); ++e) {
            o[at] = combine(o[at], in[e]);
            for (std::size_t d = n; d-- > 0;) {
                at += outStride[d];
                if (++index[d] < dims[d])
                    break;
                at -= outStride[d] * dims[d];
                index[d] = 0;
            }
        }
    }

    ReduceOp m_op;
    reduction::ReductionAttrs m_attrs;
};

/// input: T (GPU memory), dimension: int32 (host memory) -> output: output_type (GPU memory).
template <typename T, bool kMax> class ArgMinMaxGpuOp : public OpKernel {
public:
    explicit ArgMinMaxGpuOp(OpKernelConstruction& construction) : OpKernel(construction)
    {
        auto outputType = reduction::argMinMaxOutputType(construction.node());
        if (outputType)
            m_outputType = *outputType;
        else
            m_attrStatus = outputType.error();
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (!m_attrStatus.isOk())
            return m_attrStatus;
        const Tensor& input = ctx.input(0);
        auto shape = reduction::argMinMaxShape(input.shape(), ctx.input(1));
        if (!shape)
            return shape.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), m_outputType, shape->output);
        if (!out)
            return out.error();
        if (out->numElements() == 0)
            return ctx.setOutput(0, std::move(*out));
        const auto* in = reinterpret_cast<const cuda::DeviceType<T>*>(input.data<T>());
        const cudaStream_t stream = (*gpu)->computeStream();
        const cudaError_t error = m_outputType == tensorflow::DT_INT32
                                      ? cuda::launchArgMinMax(kMax, in, out->template data<std::int32_t>(),
                                                              shape->outer, shape->axisSize, shape->inner, stream)
                                      : cuda::launchArgMinMax(kMax, in, out->template data<std::int64_t>(),
                                                              shape->outer, shape->axisSize, shape->inner, stream);
        if (Status s = cuda::cudaStatus(error, op() + " kernel launch"); !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*out));
    }

private:
    Status m_attrStatus;
    DataType m_outputType = tensorflow::DT_INT64;
};

using Constraints = std::vector<std::pair<std::string, std::vector<DataType>>>;

const std::vector<DataType> kIndexTypes{tensorflow::DT_INT32, tensorflow::DT_INT64};

/// Registers `def` with a factory that builds Kernel(construction, args...).
template <typename Kernel, typename... Args> Status addKernel(KernelRegistry& registry, KernelDef def, Args... args)
{
    return registry.registerKernel(std::move(def),
                                   [args...](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
                                       return std::unique_ptr<OpKernel>(std::make_unique<Kernel>(c, args...));
                                   });
}

/// Registers ReductionGpuOp<T> for `op` on "GPU" for each of Ts, both index types.
template <typename... Ts>
Status addReductions(KernelRegistry& registry, const std::string& op, ReduceOp reduce, bool mean, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (!status.isOk())
            return;
        KernelDef def{op, "GPU", Constraints{{"T", {kDataTypeOf<T>}}, {"Tidx", kIndexTypes}}, {"reduction_indices"}};
        status = addKernel<ReductionGpuOp<T>>(registry, std::move(def), reduce, mean);
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

Status addHostInt32Reduction(KernelRegistry& registry, const std::string& op, ReduceOp reduce)
{
    KernelDef def{op,
                  "GPU",
                  Constraints{{"T", {tensorflow::DT_INT32}}, {"Tidx", kIndexTypes}},
                  {"input", "reduction_indices", "output"}};
    return addKernel<HostInt32ReductionOp>(registry, std::move(def), reduce);
}

Status addBoolReduction(KernelRegistry& registry, const std::string& op, ReduceOp reduce)
{
    KernelDef def{op, "GPU", Constraints{{"Tidx", kIndexTypes}}, {"reduction_indices"}};
    return addKernel<ReductionGpuOp<bool>>(registry, std::move(def), reduce, false);
}

template <typename... Ts> Status addArgMinMax(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        // TensorFlow 1.15 registers its GPU ArgMax/ArgMin for an int32 `dimension` only.
        const Constraints constraints{{"T", {kDataTypeOf<T>}},
                                      {"Tidx", {tensorflow::DT_INT32}},
                                      {"output_type", {tensorflow::DT_INT32, tensorflow::DT_INT64}}};
        if (status.isOk())
            status = registry.add<ArgMinMaxGpuOp<T, true>>(KernelDef{"ArgMax", "GPU", constraints, {"dimension"}});
        if (status.isOk())
            status = registry.add<ArgMinMaxGpuOp<T, false>>(KernelDef{"ArgMin", "GPU", constraints, {"dimension"}});
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

Status registerReductionGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15's GPU registrations (reduction_ops_*.cc, argmax_op.cc). Prod's int32 kernel,
    // unlike Sum's, Max's and Min's, keeps its data in GPU memory; Max has an int64 kernel, Min
    // none. Not registered here: the complex64/complex128 Sum, Mean and Prod kernels (complex
    // reductions run on the CPU).
    using Floats = TypeList<Eigen::half, float, double>;
    using FloatsAndInt64 = TypeList<Eigen::half, float, double, std::int64_t>;
    const Status steps[] = {
        addReductions(registry, "Sum", ReduceOp::kSum, false, FloatsAndInt64{}),
        addHostInt32Reduction(registry, "Sum", ReduceOp::kSum),
        addReductions(registry, "Mean", ReduceOp::kSum, true, Floats{}),
        addReductions(registry, "Prod", ReduceOp::kProd, false, TypeList<Eigen::half, float, double, std::int32_t>{}),
        addReductions(registry, "Max", ReduceOp::kMax, false, FloatsAndInt64{}),
        addHostInt32Reduction(registry, "Max", ReduceOp::kMax),
        addReductions(registry, "Min", ReduceOp::kMin, false, Floats{}),
        addHostInt32Reduction(registry, "Min", ReduceOp::kMin),
        addBoolReduction(registry, "All", ReduceOp::kAll),
        addBoolReduction(registry, "Any", ReduceOp::kAny),
        addArgMinMax(registry, TypeList<Eigen::half, float, double, std::int32_t>{}),
        reduction::registerRangeHostKernelsOnGpu(registry),
    };
    for (const Status& s : steps) {
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
