// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits GPU kernels (checks shared
// with the CPU kernels through xent.h).
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/nn/softmax_cuda.h"
#include "kernels/nn/xent.h"
#include "kernels/reduction/reduce_runs_cuda.h"

#include <string>
#include <vector>

namespace tstudio::nn {

namespace {

template <typename T> StridedMatrix<cuda::DeviceType<T>> stridedView(const Tensor& t)
{
    const BroadcastStrides strides = broadcastStrides(t.shape());
    return {reinterpret_cast<const cuda::DeviceType<T>*>(t.data<T>()), strides.row, strides.col};
}

/// Both losses' outputs, every element of which their kernels write: loss [rows] and backprop.
struct XentOutputs {
    Tensor loss;
    Tensor backprop;

    static Expected<XentOutputs> allocate(OpKernelContext& ctx, DataType dtype, const TensorShape& backpropShape)
    {
        auto loss = Tensor::allocateUninitialized(ctx.allocator(), dtype, TensorShape{backpropShape.dim(0)});
        if (!loss)
            return unexpected(loss.error());
        auto backprop = Tensor::allocateUninitialized(ctx.allocator(), dtype, backpropShape);
        if (!backprop)
            return unexpected(backprop.error());
        return XentOutputs{std::move(*loss), std::move(*backprop)};
    }

    template <typename T> cuda::DeviceType<T>* lossData()
    {
        return reinterpret_cast<cuda::DeviceType<T>*>(loss.data<T>());
    }
    template <typename T> cuda::DeviceType<T>* backpropData()
    {
        return reinterpret_cast<cuda::DeviceType<T>*>(backprop.data<T>());
    }

    Status setOutputs(OpKernelContext& ctx)
    {
        if (Status s = ctx.setOutput(0, std::move(loss)); !s.isOk())
            return s;
        return ctx.setOutput(1, std::move(backprop));
    }
};

/// logits, labels: T, broadcastable to [rows, classes] -> loss [rows], backprop [rows, classes].
template <typename T> class SoftmaxXentGpuOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        const Tensor& logits = ctx.input(0);
        const Tensor& labels = ctx.input(1);
        auto shape = xentShape(logits.shape(), labels.shape());
        if (!shape)
            return shape.error();
        const auto [rows, classes] = *shape;
        if (rows == 0 || classes == 0) {
            // No rows, or rows of zero loss: zero-filled outputs.
            auto loss = ctx.allocateZeroedOutput(0, TensorShape{rows});
            if (!loss)
                return loss.error();
            auto backprop = ctx.allocateZeroedOutput(1, TensorShape{rows, classes});
            return backprop ? Status::ok() : backprop.error();
        }
        auto out = XentOutputs::allocate(ctx, logits.dtype(), TensorShape{rows, classes});
        if (!out)
            return out.error();
        const cudaError_t error =
            launchXent<cuda::DeviceType<T>>(stridedView<T>(logits), stridedView<T>(labels), out->lossData<T>(),
                                            out->backpropData<T>(), rows, classes, (*gpu)->computeStream());
        if (Status s = cuda::cudaStatus(error, op() + " kernel launch"); !s.isOk())
            return s;
        return out->setOutputs(ctx);
    }
};

/// logits: T [rows, classes], labels: Index [rows] (GPU memory, not checked: see launchSparseXent)
/// -> loss [rows], backprop [rows, classes].
template <typename T, typename Index> class SparseSoftmaxXentGpuOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        const Tensor& logits = ctx.input(0);
        const Tensor& labels = ctx.input(1);
        if (Status s = validateSparseXent(logits.shape(), labels.shape()); !s.isOk())
            return s;
        const std::int64_t rows = logits.shape().dim(0);
        const std::int64_t classes = logits.shape().dim(1);
        auto out = XentOutputs::allocate(ctx, logits.dtype(), logits.shape());
        if (!out)
            return out.error();
        if (rows > 0) {
            using D = cuda::DeviceType<T>;
            const cudaError_t error = launchSparseXent<D, Index>(
                reinterpret_cast<const D*>(logits.data<T>()), labels.data<Index>(), out->lossData<T>(),
                out->backpropData<T>(), rows, classes, (*gpu)->computeStream());
            if (Status s = cuda::cudaStatus(error, op() + " kernel launch"); !s.isOk())
                return s;
        }
        return out->setOutputs(ctx);
    }
};

using Constraints = std::vector<std::pair<std::string, std::vector<DataType>>>;

template <typename T> Status addDense(KernelRegistry& registry)
{
    return registry.add<SoftmaxXentGpuOp<T>>(
        KernelDef{"SoftmaxCrossEntropyWithLogits", "GPU", Constraints{{"T", {kDataTypeOf<T>}}}, {}});
}

template <typename T, typename Index> Status addSparse(KernelRegistry& registry)
{
    return registry.add<SparseSoftmaxXentGpuOp<T, Index>>(
        KernelDef{"SparseSoftmaxCrossEntropyWithLogits",
                  "GPU",
                  Constraints{{"T", {kDataTypeOf<T>}}, {"Tlabels", {kDataTypeOf<Index>}}},
                  {}});
}

} // namespace

Status registerXentGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15: the dense loss for half, float and double (xent_op.cc); the sparse one for
    // half and float with int32 or int64 labels (sparse_xent_op.cc), labels in GPU memory.
    for (auto add :
         {addDense<Eigen::half>, addDense<float>, addDense<double>, addSparse<Eigen::half, std::int32_t>,
          addSparse<Eigen::half, std::int64_t>, addSparse<float, std::int32_t>, addSparse<float, std::int64_t>}) {
        if (Status s = add(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio::nn
