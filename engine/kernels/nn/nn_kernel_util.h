// Shared pieces of the NN CPU kernels: a kernel base that keeps attr errors, dtype lists, image
// layouts (NHWC/NCHW), windowed-dimension geometry and TensorFlow's common error texts.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "framework/tensor.h"
#include "ops/nn_shape_fns.h"

#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace Eigen {
struct ThreadPoolDevice;
}

namespace tstudio::nn {

/// Base of the NN kernels. TensorFlow rejects bad attrs when the kernel is constructed
/// (OP_REQUIRES in the constructor); constructors here call require()/read(), and addKernel
/// turns a recorded error into a failed kernel creation.
class NnKernel : public OpKernel {
public:
    using OpKernel::OpKernel;
    const Status& constructionStatus() const { return m_constructionStatus; }

protected:
    /// Records `status` if it is the first error; returns whether it is ok.
    bool require(const Status& status)
    {
        if (!status.isOk() && m_constructionStatus.isOk())
            m_constructionStatus = status;
        return status.isOk();
    }
    /// Stores the value of `value` in `out`, or records its error.
    template <typename V, typename Out> bool read(const Expected<V>& value, Out& out)
    {
        if (!value)
            return require(value.error());
        out = *value;
        return true;
    }

private:
    Status m_constructionStatus;
};

/// Registers kernel class K (constructed from OpKernelConstruction&) for `def`; creation fails
/// with the error K's constructor recorded.
template <typename K> Status addKernel(KernelRegistry& registry, KernelDef def)
{
    return registry.registerKernel(std::move(def), [](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        auto kernel = std::make_unique<K>(c);
        if (!kernel->constructionStatus().isOk())
            return unexpected(kernel->constructionStatus());
        return std::unique_ptr<OpKernel>(std::move(kernel));
    });
}

/// A CPU KernelDef with one constraint on attr `attr` (usually "T").
KernelDef cpuKernelDef(std::string op, std::vector<DataType> types, std::string attr = "T");

/// Registers kernels one after another and keeps the first error.
class KernelAdder {
public:
    explicit KernelAdder(KernelRegistry& registry) : m_registry(registry) {}

    template <typename K> KernelAdder& add(KernelDef def)
    {
        if (m_status.isOk())
            m_status = addKernel<K>(m_registry, std::move(def));
        return *this;
    }
    /// K for `op` on CPU with "T" in `types`.
    template <typename K> KernelAdder& add(std::string op, std::vector<DataType> types)
    {
        return add<K>(cpuKernelDef(std::move(op), std::move(types)));
    }
    const Status& status() const { return m_status; }

private:
    KernelRegistry& m_registry;
    Status m_status;
};

// --- dtype sets, as TensorFlow 1.15 registers its CPU kernels -------------------------------------

using HalfFloatDouble = TypeList<Eigen::half, float, double>;
using FloatTypes = TypeList<Eigen::half, Eigen::bfloat16, float, double>; ///< TF_CALL_FLOAT_TYPES
/// TF_CALL_REAL_NUMBER_TYPES of TensorFlow 1.15 (no uint32/uint64).
using RealTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int32_t, std::int64_t, std::int16_t,
                           std::int8_t, std::uint8_t, std::uint16_t>;
/// TF_CALL_NUMBER_TYPES of TensorFlow 1.15: the real types and the two complex types.
using NumberTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int32_t, std::int64_t, std::int16_t,
                             std::int8_t, std::uint8_t, std::uint16_t, std::complex<float>, std::complex<double>>;

/// The dtypes of a TypeList, for KernelDefs.
template <typename... Ts> std::vector<DataType> dataTypes(TypeList<Ts...>)
{
    return {kDataTypeOf<Ts>...};
}

/// The type reductions accumulate in: float for the 16-bit floats (as TensorFlow's
/// AccumulatorType), the type itself otherwise.
template <typename T> struct Accumulator {
    using type = T;
};
template <> struct Accumulator<Eigen::half> {
    using type = float;
};
template <> struct Accumulator<Eigen::bfloat16> {
    using type = float;
};
template <typename T> using AccumulatorT = typename Accumulator<T>::type;

/// The context's multi-threaded Eigen device (every CPU device has one).
const Eigen::ThreadPoolDevice& cpuDevice(const OpKernelContext& context);

/// TensorFlow's OpKernelContext::ValidateInputsAreSameShape text: "Inputs to operation x of type
/// ReluGrad must have the same size and shape.  Input 0: [2,3] != input 1: [3]".
Status sameShapeError(const OpKernel& kernel, const TensorShape& a, const TensorShape& b);

/// An allocated temporary of the context's device, or the allocator's error.
Expected<Tensor> allocateTemp(OpKernelContext& context, DataType dtype, const TensorShape& shape);

// --- Image layouts ----------------------------------------------------------------------------------

enum class DataFormat { kNhwc, kNchw };

/// The node's `data_format` (NHWC when the op has none, as BiasAddV1); InvalidArgument "Invalid
/// data format" for anything but NHWC and NCHW.
Expected<DataFormat> dataFormatAttr(const tensorflow::NodeDef& node);

/// Where N, H, W and C sit in a 4-D tensor (and in 4-element strides/ksize/dilations lists).
struct FormatIndex {
    int n, h, w, c;
};
inline FormatIndex formatIndex(DataFormat format)
{
    return format == DataFormat::kNhwc ? FormatIndex{0, 1, 2, 3} : FormatIndex{0, 2, 3, 1};
}

/// A value of rank >= 2 in `format` viewed as [outer, channels, inner] (NHWC: channels last,
/// inner = 1; NCHW: channels at dimension 1, outer = batch), as BiasAdd and BiasAddGrad use it.
std::array<std::int64_t, 3> biasDims(const TensorShape& shape, DataFormat format);

/// BiasAdd's checks in TensorFlow's words ("Input tensor must be at least 2D: [3]", "Biases must be
/// 1D: [2,2]", "Must provide as many biases as the last dimension of the input tensor: [3] vs.
/// [2,4]"); returns value's biasDims. The CPU and GPU kernels share it.
Expected<std::array<std::int64_t, 3>> checkBiasAddInputs(const Tensor& value, const Tensor& bias, DataFormat format);

/// BiasAddGrad's check of out_backprop ("Input tensor must be at least 2D: [3]"); returns its
/// biasDims. The CPU and GPU kernels share it.
Expected<std::array<std::int64_t, 3>> checkBiasAddGradInput(const Tensor& outBackprop, DataFormat format);

/// A 4-D shape in `format` from its parts.
TensorShape imageShape(DataFormat format, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c);

/// Copies a 4-D NCHW tensor into a new NHWC one, or (toNchw) an NHWC one into a new NCHW one.
Expected<Tensor> transposeImage(OpKernelContext& context, const Tensor& input, bool toNchw);

/// What computeInNhwc hands its computation: memory it overwrites in full (a forward op), or zeros
/// it accumulates into (the backprops that add each window's share).
enum class NhwcOutput { kOverwritten, kZeroed };

/// Sets output 0 (of `outputShape`, in `format`) to `compute(nhwcImages, nhwcOutput)`, where
/// compute works on NHWC tensors: for NCHW the 4-D `images` are transposed to NHWC first and the
/// result back to NCHW. compute receives a std::vector<const Tensor*> and a Tensor& that is zeroed
/// when `output` is kZeroed and uninitialised otherwise.
template <typename Compute>
Status computeInNhwc(OpKernelContext& ctx, DataFormat format, const std::vector<const Tensor*>& images,
                     const TensorShape& outputShape, NhwcOutput output, Compute compute)
{
    if (format == DataFormat::kNhwc) {
        auto out = output == NhwcOutput::kZeroed ? ctx.allocateZeroedOutput(0, outputShape)
                                                 : ctx.allocateOutput(0, outputShape);
        if (!out)
            return out.error();
        return compute(images, **out);
    }
    std::vector<Tensor> transposed;
    for (const Tensor* t : images) {
        auto moved = transposeImage(ctx, *t, false);
        if (!moved)
            return moved.error();
        transposed.push_back(std::move(*moved));
    }
    std::vector<const Tensor*> nhwc;
    for (const Tensor& t : transposed)
        nhwc.push_back(&t);
    const TensorShape& s = outputShape;
    auto result = allocateTemp(ctx, ctx.kernel().outputTypes()[0], TensorShape{s.dim(0), s.dim(2), s.dim(3), s.dim(1)});
    if (!result)
        return result.error();
    if (Status status = compute(nhwc, *result); !status.isOk())
        return status;
    auto back = transposeImage(ctx, *result, true);
    if (!back)
        return back.error();
    return ctx.setOutput(0, std::move(*back));
}

// --- Windowed dimensions (convolution and pooling) -----------------------------------------------

/// One spatial dimension of a convolution or pooling window: sizes, stride, dilation, the output
/// size and the padding before it, with TensorFlow's arithmetic (formats.md section 7.3).
struct WindowDim {
    std::int64_t input = 0;
    std::int64_t filter = 0;
    std::int64_t dilation = 1;
    std::int64_t stride = 1;
    std::int64_t output = 0;
    std::int64_t padBefore = 0;
    std::int64_t padAfter = 0;
    std::int64_t effectiveFilter() const { return (filter - 1) * dilation + 1; }
};

/// The output size and padding of one dimension (windowedOutputSize does the size arithmetic);
/// a negative size is TensorFlow's kernel error "Computed output size would be negative: -1
/// [input_size: 3, effective_filter_size: 5, stride: 1]".
Expected<WindowDim> windowDim(std::int64_t input, std::int64_t filter, std::int64_t dilation, std::int64_t stride,
                              Padding padding, std::int64_t explicitBefore = 0, std::int64_t explicitAfter = 0);

/// "[1,2,3]" for an int list, as TensorFlow prints vectors in messages.
std::string listText(const std::vector<std::int64_t>& values);

} // namespace tstudio::nn
