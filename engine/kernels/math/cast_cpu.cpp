// CPU kernel of Cast: every pair of numeric dtypes (bool, the integers, half, bfloat16, float,
// double, complex64, complex128; quantized dtypes as their storage integers), with Truncate.
#define EIGEN_USE_THREADS
#include "kernels/math/cast_cpu.h"
#include "kernels/math/cast_attrs.h"
#include "kernels/math/cwise_cpu.h"
#include "kernels/math/math_cpu_kernels.h"

namespace tstudio {

namespace {

/// The dtype whose values a quantized dtype stores, as TensorFlow's CastOpBase maps them.
DataType castStorageType(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_QUINT8: return tensorflow::DT_UINT8;
    case tensorflow::DT_QINT8: return tensorflow::DT_INT8;
    case tensorflow::DT_QINT32: return tensorflow::DT_INT32;
    case tensorflow::DT_QINT16: return tensorflow::DT_INT16;
    case tensorflow::DT_QUINT16: return tensorflow::DT_UINT16;
    default: return dtype;
    }
}

CastFunction castFunction(DataType from, DataType to)
{
    CastFunction function = nullptr;
    (void)dispatchDataType<CastTypes>(from, [&](auto tag) {
        using From = typename decltype(tag)::type;
        function = castFunctionFrom<From>(to);
    });
    return function;
}

class CastKernel final : public OpKernel {
public:
    /// `function` nullptr: SrcT == DstT, the output is the input.
    CastKernel(OpKernelConstruction& construction, CastFunction function, bool truncate)
        : OpKernel(construction), m_function(function), m_truncate(truncate)
    {
    }

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        const Tensor& in = context.input(0);
        if (m_function == nullptr)
            return context.setOutput(0, in);
        auto device = cwise::cpuDevice(context);
        if (!device)
            return device.error();
        auto out = context.allocateOutput(0, in.shape());
        if (!out)
            return out.error();
        m_function(**device, in, **out, m_truncate);
        return Status::ok();
    }

private:
    CastFunction m_function;
    bool m_truncate;
};

Expected<std::unique_ptr<OpKernel>> makeCastKernel(OpKernelConstruction& construction)
{
    auto attrs = castAttrs(construction.node());
    if (!attrs)
        return unexpected(attrs.error());
    CastFunction function = nullptr;
    if (attrs->src != attrs->dst) {
        function = castFunction(castStorageType(attrs->src), castStorageType(attrs->dst));
        if (function == nullptr) {
            return unexpected(unimplementedError("Cast " + dataTypeString(attrs->src) + " to " +
                                                 dataTypeString(attrs->dst) + " is not supported"));
        }
    }
    return std::unique_ptr<OpKernel>(std::make_unique<CastKernel>(construction, function, attrs->truncate));
}

} // namespace

Expected<CastAttrs> castAttrs(const tensorflow::NodeDef& node)
{
    CastAttrs attrs;
    auto src = attrType(node, "SrcT");
    if (!src)
        return unexpected(src.error());
    attrs.src = *src;
    auto dst = attrType(node, "DstT");
    if (!dst)
        return unexpected(dst.error());
    attrs.dst = *dst;
    attrs.truncate = attrBool(node, "Truncate").value_or(false);
    return attrs;
}

Status math_kernels::registerCastCpuKernels(KernelRegistry& registry)
{
    // One kernel for every SrcT/DstT pair; unsupported pairs fail when the kernel is built.
    return registry.registerKernel(KernelDef{"Cast", "CPU", {}, {}}, makeCastKernel);
}

} // namespace tstudio
