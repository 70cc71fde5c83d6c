// registerArrayGpuKernels: the array family on the GPU. Most kernels are the CPU's classes built on
// gpuMovement() (same checks and words); Const, Gather, OneHot and OnesLike have GPU classes here.
// The dtypes and host-memory arguments are TensorFlow 1.15's GPU registrations; as there, int32
// kernels keep every argument in host memory and run on the host (hostMovement()).
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/gather_plan.h"
#include "kernels/array/movement.h"
#include "kernels/array/movement_cuda.h"
#include "kernels/gpu_kernels.h"

#include <complex>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using tensorflow::DT_BFLOAT16;
using tensorflow::DT_BOOL;
using tensorflow::DT_COMPLEX128;
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT16;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;
using tensorflow::DT_INT8;
using tensorflow::DT_RESOURCE;
using tensorflow::DT_STRING;
using tensorflow::DT_UINT16;
using tensorflow::DT_UINT8;
using Constraints = std::vector<std::pair<std::string, std::vector<DataType>>>;

KernelDef gpuDef(std::string op, Constraints constraints, std::vector<std::string> hostArgs = {})
{
    return KernelDef{std::move(op), "GPU", std::move(constraints), std::move(hostArgs)};
}

// --- TensorFlow's dtype sets on the GPU (register_types.h, 1.15) ----------------------------------

/// TF_CALL_NUMBER_TYPES_NO_INT32.
const std::vector<DataType> kNumberNoInt32 = {DT_HALF,  DT_BFLOAT16, DT_FLOAT,  DT_DOUBLE,    DT_INT64,     DT_UINT8,
                                              DT_INT16, DT_INT8,     DT_UINT16, DT_COMPLEX64, DT_COMPLEX128};
/// TF_CALL_NUMBER_TYPES_NO_INT32 and bool: the device-memory kernels of Identity, Reshape, Shape, ...
const std::vector<DataType> kNumberNoInt32AndBool = [] {
    auto types = kNumberNoInt32;
    types.push_back(DT_BOOL);
    return types;
}();
/// TF_CALL_POD_TYPES (Transpose, Snapshot: int32 stays in device memory).
const std::vector<DataType> kPod = [] {
    auto types = kNumberNoInt32AndBool;
    types.push_back(DT_INT32);
    return types;
}();
/// TF_CALL_GPU_ALL_TYPES.
const std::vector<DataType> kGpuAll = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128};
const std::vector<DataType> kIndex = {DT_INT32, DT_INT64};
const std::vector<DataType> kInt32 = {DT_INT32};

std::vector<DataType> plus(std::vector<DataType> types, std::initializer_list<DataType> more)
{
    types.insert(types.end(), more);
    return types;
}

// --- GPU classes ---------------------------------------------------------------------------------

/// Const: the value is decoded on the host and copied to the GPU once, when the kernel is built
/// (the copy is ordered before every later kernel); the int32 kernel keeps it in host memory.
class ConstGpuOp : public OpKernel {
public:
    ConstGpuOp(OpKernelConstruction& construction, Tensor value) : OpKernel(construction), m_value(std::move(value)) {}
    Status compute(OpKernelContext& context) override { return context.setOutput(0, m_value); }

    static Expected<std::unique_ptr<OpKernel>> create(OpKernelConstruction& construction)
    {
        auto host = array::constValue(construction, construction.device().hostAllocator());
        if (!host)
            return unexpected(host.error());
        const auto& hostOutputs = construction.hostMemoryOutputs();
        Tensor value = std::move(*host);
        if (hostOutputs.empty() || !hostOutputs[0]) {
            auto copied = construction.device().copyFromHost(value);
            if (!copied)
                return unexpected(copied.error());
            value = std::move(*copied);
        }
        return std::unique_ptr<OpKernel>(std::make_unique<ConstGpuOp>(construction, std::move(value)));
    }

private:
    Tensor m_value;
};

/// Gather and GatherV2 on the GPU: the CPU kernel's checks (planGather), then one launch. An index
/// outside [0, params.shape[axis]) gives zeros in its output slice instead of an error, as in
/// TensorFlow's GPU kernel: the indices are in GPU memory and checking them would mean waiting.
class GatherGpuOp : public array::ArrayKernel {
public:
    explicit GatherGpuOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        if (findAttr(node(), "batch_dims") != nullptr)
            read(attrInt(node(), "batch_dims"), m_batchDims);
    }
    Status compute(OpKernelContext& context) override
    {
        auto gpu = cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        const Tensor& params = context.input(0);
        const Tensor& indices = context.input(1);
        auto plan =
            array::planGather(params, indices, context.numInputs() == 3 ? &context.input(2) : nullptr, m_batchDims);
        if (!plan)
            return plan.error();
        auto out = Tensor::allocateUninitialized(context.allocator(), outputTypes().at(0), plan->outputShape);
        if (!out)
            return out.error();
        if (out->numElements() > 0) {
            const array::GatherShape& s = plan->shape;
            const array::cuda::DeviceGatherShape shape{s.batch, s.outer, s.limit, s.count, s.inner};
            array::cuda::launchGather((*gpu)->computeStream(), static_cast<int>(dataTypeSize(params.dtype())),
                                      indices.dtype() == DT_INT64, shape, params.tensorData().data(),
                                      indices.tensorData().data(), out->tensorData().data());
            if (Status s = cuda::lastLaunchStatus("Gather"); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }

private:
    std::int64_t m_batchDims = 0;
};

/// OneHot on the GPU: the CPU kernel's checks (planOneHot, depth in host memory), then one launch
/// reading the indices, on_value and off_value in GPU memory.
class OneHotGpuOp : public array::ArrayKernel {
public:
    explicit OneHotGpuOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(attrInt(node(), "axis"), m_axis);
    }
    Status compute(OpKernelContext& context) override
    {
        auto gpu = cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        const Tensor& indices = context.input(0);
        const Tensor& on = context.input(2);
        const Tensor& off = context.input(3);
        auto plan = array::planOneHot(m_axis, indices, context.input(1), on, off);
        if (!plan)
            return plan.error();
        auto out = Tensor::allocateUninitialized(context.allocator(), outputTypes().at(0), plan->outputShape);
        if (!out)
            return out.error();
        if (out->numElements() > 0) {
            array::cuda::launchOneHot((*gpu)->computeStream(), static_cast<int>(dataTypeSize(on.dtype())),
                                      static_cast<int>(dataTypeSize(indices.dtype())), plan->prefix, plan->depth,
                                      plan->suffix, indices.tensorData().data(), on.tensorData().data(),
                                      off.tensorData().data(), out->tensorData().data());
            if (Status s = cuda::lastLaunchStatus("OneHot"); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }

private:
    std::int64_t m_axis = -1;
};

/// OnesLike: a fill with the dtype's one; the int32 kernel writes its host-memory output directly.
class OnesLikeGpuOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        auto gpu = cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        const DataType dtype = outputTypes().at(0);
        auto one = Tensor::allocate((*gpu)->hostAllocator(), dtype, TensorShape::scalar());
        if (!one)
            return one.error();
        if (Status s = dispatchDataType<PodTypes>(dtype,
                                                  [&](auto tag) {
                                                      using T = typename decltype(tag)::type;
                                                      one->scalar<T>() = T(1);
                                                  });
            !s.isOk())
            return s;
        const TensorShape& shape = context.input(0).shape();
        if (outputInHostMemory(0)) {
            auto out = context.allocateOutput(0, shape);
            if (!out)
                return out.error();
            return array::hostMovement().fill(context, *one, **out);
        }
        auto out = Tensor::allocateUninitialized(context.allocator(), dtype, shape);
        if (!out)
            return out.error();
        if (out->numElements() > 0) {
            array::cuda::launchFillWithValue((*gpu)->computeStream(), static_cast<int>(dataTypeSize(dtype)),
                                             one->tensorData().data(), out->tensorData().data(), out->numElements());
            if (Status s = cuda::lastLaunchStatus("OnesLike"); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }
};

// --- Registration ---------------------------------------------------------------------------------

Status registerSourceAndShapeKernels(array::KernelAdder& adder, const array::Movement& gpu,
                                     const array::Movement& /*host*/)
{
    const auto idx = kIndex;
    for (const char* op : {"Identity", "StopGradient", "PreventGradient"}) {
        // int32, strings and handles pass through host memory, as TensorFlow's host kernels.
        adder.addFactory(gpuDef(op, {{"T", kNumberNoInt32AndBool}}), array::identityKernel())
            .addFactory(gpuDef(op, {{"T", {DT_INT32, DT_STRING, DT_RESOURCE}}}, {"input", "output"}),
                        array::identityKernel());
    }
    adder.addFactory(gpuDef("PlaceholderWithDefault", {{"dtype", kNumberNoInt32AndBool}}), array::identityKernel())
        .addFactory(gpuDef("PlaceholderWithDefault", {{"dtype", kInt32}}, {"input", "output"}), array::identityKernel())
        .addFactory(gpuDef("Snapshot", {{"T", kPod}}), array::snapshotKernel(gpu));
    // Shape, ShapeN, Size and Rank read only the shape; their outputs are in host memory.
    for (auto [op, factory] : {std::pair{"Shape", array::shapeKernel()}, std::pair{"ShapeN", array::shapeNKernel()},
                               std::pair{"Size", array::sizeKernel()}}) {
        adder.addFactory(gpuDef(op, {{"T", kNumberNoInt32AndBool}, {"out_type", idx}}, {"output"}), factory)
            .addFactory(gpuDef(op, {{"T", kInt32}, {"out_type", idx}}, {"input", "output"}), factory);
    }
    adder.addFactory(gpuDef("Rank", {{"T", kNumberNoInt32AndBool}}, {"output"}), array::rankKernel())
        .addFactory(gpuDef("Rank", {{"T", kInt32}}, {"input", "output"}), array::rankKernel());
    adder
        .addFactory(gpuDef("Reshape", {{"T", kNumberNoInt32AndBool}, {"Tshape", idx}}, {"shape"}),
                    array::reshapeKernel())
        .addFactory(gpuDef("Reshape", {{"T", kInt32}, {"Tshape", idx}}, {"tensor", "shape", "output"}),
                    array::reshapeKernel())
        .addFactory(gpuDef("ExpandDims", {{"T", kNumberNoInt32AndBool}, {"Tdim", idx}}, {"dim"}),
                    array::expandDimsKernel())
        .addFactory(gpuDef("ExpandDims", {{"T", kInt32}, {"Tdim", idx}}, {"input", "dim", "output"}),
                    array::expandDimsKernel())
        .addFactory(gpuDef("Squeeze", {{"T", kNumberNoInt32AndBool}}), array::squeezeKernel())
        .addFactory(gpuDef("Squeeze", {{"T", kInt32}}, {"input", "output"}), array::squeezeKernel());
    return adder.status();
}

Status registerFillAndConstKernels(array::KernelAdder& adder, const array::Movement& gpu, const array::Movement& host)
{
    const std::vector<DataType> fillTypes = {DT_HALF,  DT_BFLOAT16, DT_FLOAT,  DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128,
                                             DT_UINT8, DT_INT8,     DT_UINT16, DT_INT16,  DT_INT64,     DT_BOOL};
    const std::vector<DataType> likeTypes = {DT_BOOL,   DT_HALF,      DT_BFLOAT16,   DT_FLOAT,
                                             DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
    adder.addFactory(gpuDef("Fill", {{"T", fillTypes}, {"index_type", kIndex}}, {"dims"}), array::fillKernel(gpu))
        .addFactory(gpuDef("Fill", {{"T", kInt32}, {"index_type", kIndex}}, {"dims", "value", "output"}),
                    array::fillKernel(host))
        .addFactory(gpuDef("ZerosLike", {{"T", likeTypes}}), array::zerosLikeKernel())
        .addFactory(gpuDef("ZerosLike", {{"T", kInt32}}, {"y"}), array::zerosLikeKernel())
        .add<OnesLikeGpuOp>(gpuDef("OnesLike", {{"T", likeTypes}}))
        .add<OnesLikeGpuOp>(gpuDef("OnesLike", {{"T", kInt32}}, {"y"}))
        .addFactory(gpuDef("Const", {{"dtype", fillTypes}}), ConstGpuOp::create)
        .addFactory(gpuDef("Const", {{"dtype", kInt32}}, {"output"}), ConstGpuOp::create);
    return adder.status();
}

Status registerMovementKernels(array::KernelAdder& adder, const array::Movement& gpu, const array::Movement& host)
{
    const auto idx = kIndex;
    // Transpose and Tile keep int32 in device memory, as TensorFlow's GPU kernels do.
    adder.addFactory(gpuDef("Transpose", {{"T", kPod}, {"Tperm", idx}}, {"perm"}), array::transposeKernel(gpu))
        .addFactory(gpuDef("Tile",
                           {{"T",
                             {DT_BOOL, DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64, DT_HALF, DT_COMPLEX64,
                              DT_COMPLEX128}},
                            {"Tmultiples", idx}},
                           {"multiples"}),
                    array::tileKernel(gpu));

    const auto concatTypes = plus(kGpuAll, {DT_BFLOAT16, DT_INT64});
    adder.addFactory(gpuDef("ConcatV2", {{"T", concatTypes}, {"Tidx", idx}}, {"axis"}), array::concatKernel(gpu, false))
        .addFactory(gpuDef("ConcatV2", {{"T", kInt32}, {"Tidx", idx}}, {"values", "axis", "output"}),
                    array::concatKernel(host, false))
        .addFactory(gpuDef("Concat", {{"T", concatTypes}}, {"concat_dim"}), array::concatKernel(gpu, true))
        .addFactory(gpuDef("Concat", {{"T", kInt32}}, {"concat_dim", "values", "output"}),
                    array::concatKernel(host, true));
    const std::vector<DataType> packTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BFLOAT16, DT_INT64, DT_BOOL};
    adder.addFactory(gpuDef("Pack", {{"T", packTypes}}), array::packKernel(gpu))
        .addFactory(gpuDef("Pack", {{"T", kInt32}}, {"values", "output"}), array::packKernel(host))
        .addFactory(gpuDef("Unpack", {{"T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BFLOAT16}}}), array::unpackKernel(gpu))
        .addFactory(gpuDef("Unpack", {{"T", {DT_INT32, DT_INT64}}}, {"value", "output"}), array::unpackKernel(host));

    const std::vector<DataType> splitTypes = {DT_HALF,      DT_FLOAT,      DT_DOUBLE, DT_BFLOAT16,
                                              DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
    adder.addFactory(gpuDef("Split", {{"T", splitTypes}}, {"split_dim"}), array::splitKernel(gpu))
        .addFactory(gpuDef("Split", {{"T", kInt32}}, {"split_dim", "value", "output"}), array::splitKernel(host))
        .addFactory(gpuDef("SplitV", {{"T", splitTypes}, {"Tlen", idx}}, {"size_splits", "split_dim"}),
                    array::splitVKernel(gpu))
        .addFactory(gpuDef("SplitV", {{"T", kInt32}, {"Tlen", idx}}, {"value", "size_splits", "split_dim", "output"}),
                    array::splitVKernel(host));

    const std::vector<DataType> sliceTypes = {DT_HALF,       DT_FLOAT, DT_DOUBLE, DT_BFLOAT16, DT_COMPLEX64,
                                              DT_COMPLEX128, DT_BOOL,  DT_INT8,   DT_INT64};
    const auto stridedTypes = plus(kGpuAll, {DT_INT64});
    adder.addFactory(gpuDef("Slice", {{"T", sliceTypes}, {"Index", idx}}, {"begin", "size"}), array::sliceKernel(gpu))
        .addFactory(gpuDef("Slice", {{"T", kInt32}, {"Index", idx}}, {"input", "begin", "size", "output"}),
                    array::sliceKernel(host))
        .addFactory(gpuDef("StridedSlice", {{"T", stridedTypes}, {"Index", idx}}, {"begin", "end", "strides"}),
                    array::stridedSliceKernel(gpu))
        .addFactory(
            gpuDef("StridedSlice", {{"T", kInt32}, {"Index", idx}}, {"input", "begin", "end", "strides", "output"}),
            array::stridedSliceKernel(host))
        .addFactory(
            gpuDef("StridedSliceGrad", {{"T", stridedTypes}, {"Index", idx}}, {"shape", "begin", "end", "strides"}),
            array::stridedSliceGradKernel(gpu))
        .addFactory(gpuDef("StridedSliceGrad", {{"T", kInt32}, {"Index", idx}},
                           {"shape", "begin", "end", "strides", "dy", "output"}),
                    array::stridedSliceGradKernel(host));

    const auto padTypes = plus(kGpuAll, {DT_INT8, DT_UINT8});
    adder.addFactory(gpuDef("Pad", {{"T", padTypes}, {"Tpaddings", idx}}, {"paddings"}), array::padKernel(gpu))
        .addFactory(gpuDef("Pad", {{"T", kInt32}, {"Tpaddings", idx}}, {"input", "paddings", "output"}),
                    array::padKernel(host))
        .addFactory(gpuDef("PadV2", {{"T", padTypes}, {"Tpaddings", idx}}, {"paddings"}), array::padKernel(gpu))
        .addFactory(
            gpuDef("PadV2", {{"T", kInt32}, {"Tpaddings", idx}}, {"input", "paddings", "constant_values", "output"}),
            array::padKernel(host));

    const auto gatherTypes = plus(kGpuAll, {DT_INT64});
    adder.add<GatherGpuOp>(gpuDef("Gather", {{"Tparams", gatherTypes}, {"Tindices", idx}}))
        .add<GatherGpuOp>(gpuDef("GatherV2", {{"Tparams", gatherTypes}, {"Tindices", idx}, {"Taxis", idx}}, {"axis"}))
        .add<OneHotGpuOp>(gpuDef("OneHot",
                                 {{"T", {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_INT32, DT_INT64}},
                                  {"TI", {DT_UINT8, DT_INT32, DT_INT64}}},
                                 {"depth"}));
    return adder.status();
}

} // namespace

Status registerArrayGpuKernels(KernelRegistry& registry)
{
    array::KernelAdder adder(registry);
    const array::Movement& gpu = array::gpuMovement();
    const array::Movement& host = array::hostMovement();
    for (auto group : {registerSourceAndShapeKernels, registerFillAndConstKernels, registerMovementKernels}) {
        if (Status s = group(adder, gpu, host); !s.isOk())
            return s;
    }
    return array::registerInt32StitchHostKernelsOnGpu(registry);
}

} // namespace tstudio
