// CPU kernels of Select (TensorFlow 1's rules: same shapes, a scalar condition, or a condition
// vector over the first dimension) and SelectV2 (condition, t and e broadcast together).
#define EIGEN_USE_THREADS
#include "kernels/math/cwise_cpu.h"
#include "kernels/math/cwise_shape_checks.h"
#include "kernels/math/math_cpu_kernels.h"
#include "kernels/math/select.h"

#include <complex>
#include <cstdint>
#include <string>

namespace tstudio {

template <typename T> struct SelectFunctor<CpuDevice, T> {
    void operator()(const CpuDevice& device, const BroadcastPlan& plan, T* out, const bool* cond, const T* t,
                    const T* e) const
    {
        if (plan.dims().empty()) {
            out[0] = cond[0] ? t[0] : e[0];
            return;
        }
        const std::int64_t inner = plan.dims().back();
        const std::int64_t cStep = plan.strides(0).back();
        const std::int64_t tStep = plan.strides(1).back();
        const std::int64_t eStep = plan.strides(2).back();
        const Eigen::TensorOpCost cost(double(1 + 2 * sizeof(T)), double(sizeof(T)), cwise::kEigenScalar<T> ? 2 : 100);
        cwise::parallelRanges(device, plan.numElements(), cost, [&](Eigen::Index first, Eigen::Index last) {
            BroadcastRowCursor cursor(plan, first / inner);
            std::int64_t column = first % inner;
            for (std::int64_t pos = first; pos < last; column = 0, cursor.next()) {
                const std::int64_t length = std::min(inner - column, last - pos);
                const bool* c = cond + cursor.offset(0) + column * cStep;
                const T* a = t + cursor.offset(1) + column * tStep;
                const T* b = e + cursor.offset(2) + column * eStep;
                T* o = out + pos;
                if (cStep != 0 && tStep != 0 && eStep != 0) {
                    for (std::int64_t j = 0; j < length; ++j)
                        o[j] = c[j] ? a[j] : b[j];
                } else {
                    for (std::int64_t j = 0; j < length; ++j)
                        o[j] = c[j * cStep] ? a[j * tStep] : b[j * eStep];
                }
                pos += length;
            }
        });
    }
};

namespace {

/// Allocates the output of `shapes` and fills it.
template <typename T> Status runSelect(OpKernelContext& context, const SelectShapes& shapes)
{
    auto device = cwise::cpuDevice(context);
    if (!device)
        return device.error();
    auto out = context.allocateOutput(0, shapes.output);
    if (!out)
        return out.error();
    if (shapes.plan.numElements() > 0) {
        SelectFunctor<CpuDevice, T>()(**device, shapes.plan, (*out)->template data<T>(), context.input(0).data<bool>(),
                                      context.input(1).data<T>(), context.input(2).data<T>());
    }
    return Status::ok();
}

template <typename T> class SelectKernel final : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        const Tensor& cond = context.input(0);
        auto shapes = selectShapes(*this, cond.shape(), context.input(1).shape(), context.input(2).shape());
        if (!shapes)
            return shapes.error();
        // A scalar condition picks one of the two tensors as a whole.
        if (shapes->scalarCondition)
            return context.setOutput(0, cond.scalar<bool>() ? context.input(1) : context.input(2));
        return runSelect<T>(context, *shapes);
    }
};

template <typename T> class SelectV2Kernel final : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        auto shapes = selectV2Shapes(context.input(0).shape(), context.input(1).shape(), context.input(2).shape());
        if (!shapes)
            return shapes.error();
        return runSelect<T>(context, *shapes);
    }
};

template <typename... Ts> Status registerSelect(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk() ? addCpuKernel<SelectKernel<Ts>>(registry, "Select", kDataTypeOf<Ts>) : status), ...);
    ((status = status.isOk() ? addCpuKernel<SelectV2Kernel<Ts>>(registry, "SelectV2", kDataTypeOf<Ts>) : status), ...);
    return status;
}

} // namespace

Status math_kernels::registerSelectCpuKernels(KernelRegistry& registry)
{
    // TensorFlow's TF_CALL_ALL_TYPES.
    return registerSelect(registry,
                          TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t,
                                   std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, bool,
                                   std::complex<float>, std::complex<double>, std::string>{});
}

} // namespace tstudio
