// CPU kernel of AddN: N same-shaped inputs summed element-wise (add_n.h).
#define EIGEN_USE_THREADS
#include "kernels/math/add_n.h"
#include "kernels/math/binary_functors.h"
#include "kernels/math/cwise_cpu.h"
#include "kernels/math/cwise_shape_checks.h"
#include "kernels/math/math_cpu_kernels.h"

#include <complex>
#include <cstdint>

namespace tstudio {

/// Each thread takes a range of elements and adds the inputs into it one after the other, so the
/// range stays in cache while N inputs stream through.
template <typename T> struct AddNFunctor<CpuDevice, T> {
    void operator()(const CpuDevice& device, T* out, const std::vector<const T*>& inputs, std::int64_t n) const
    {
        const functor::AddOp<T> add;
        const Eigen::TensorOpCost cost(double(inputs.size() * sizeof(T)), double(sizeof(T)),
                                       double(inputs.size()) *
                                           double(Eigen::internal::functor_traits<functor::AddOp<T>>::Cost));
        cwise::parallelRanges(device, n, cost, [&](Eigen::Index first, Eigen::Index last) {
            const Eigen::Index length = last - first;
            cwise::rowVV(add, out + first, inputs[0] + first, inputs[1] + first, length);
            for (std::size_t k = 2; k < inputs.size(); ++k)
                cwise::rowVV(add, out + first, out + first, inputs[k] + first, length);
        });
    }
};

namespace {

template <typename T> class AddNKernel final : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        auto device = cwise::cpuDevice(context);
        if (!device)
            return device.error();
        if (Status s = checkSameShapes(*this, context); !s.isOk())
            return s;
        const Tensor& first = context.input(0);
        if (context.numInputs() == 1)
            return context.setOutput(0, first); // as TensorFlow: the input itself
        auto out = context.allocateOutput(0, first.shape());
        if (!out)
            return out.error();
        if (first.numElements() == 0)
            return Status::ok();
        std::vector<const T*> inputs;
        for (int i = 0; i < context.numInputs(); ++i)
            inputs.push_back(context.input(i).data<T>());
        AddNFunctor<CpuDevice, T>()(**device, (*out)->data<T>(), inputs, first.numElements());
        return Status::ok();
    }
};

template <typename... Ts> Status registerAddN(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk() ? addCpuKernel<AddNKernel<Ts>>(registry, "AddN", kDataTypeOf<Ts>) : status), ...);
    return status;
}

} // namespace

Status math_kernels::registerAddNCpuKernels(KernelRegistry& registry)
{
    // TensorFlow's number types (but the quantized ones); variant AddN is not supported.
    return registerAddN(
        registry, TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t,
                           std::int64_t, std::uint8_t, std::uint16_t, std::complex<float>, std::complex<double>>{});
}

} // namespace tstudio
