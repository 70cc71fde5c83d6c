// The CPU data-movement loops, instantiated once per element width (not once per dtype), and the
// host Movement built on them.
#define EIGEN_USE_THREADS

#include "kernels/array/movement.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/op_kernel.h"
#include "framework/tensor.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/index_map_copy.h"
#include "kernels/array/row_copy.h"

#include <utility>

namespace tstudio::array {

using CpuEigenDevice = Eigen::ThreadPoolDevice;

// dispatchByElementBytes only fails for dtypes a Tensor cannot hold, so its status is ignored.

void gatherElements(const CpuEigenDevice& device, IndexMap map, const Tensor& in, Tensor& out)
{
    map.simplify();
    if (map.numElements() == 0)
        return;
    (void)dispatchByElementBytes(in.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        IndexMapCopy<CpuEigenDevice, E>().gather(device, map, elementsAs<E>(in), mutableElementsAs<E>(out));
    });
}

void scatterElements(const CpuEigenDevice& device, IndexMap map, const Tensor& in, Tensor& out)
{
    map.simplify();
    if (map.numElements() == 0)
        return;
    (void)dispatchByElementBytes(in.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        IndexMapCopy<CpuEigenDevice, E>().scatter(device, map, elementsAs<E>(in), mutableElementsAs<E>(out));
    });
}

void concatRows(const CpuEigenDevice& device, std::int64_t rows, const std::vector<const Tensor*>& inputs, Tensor& out)
{
    if (rows == 0 || out.numElements() == 0)
        return;
    (void)dispatchByElementBytes(out.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        std::vector<RowBlock<const E>> parts;
        for (const Tensor* t : inputs) {
            if (t->numElements() > 0)
                parts.push_back({elementsAs<E>(*t), t->numElements() / rows});
        }
        RowCopy<CpuEigenDevice, E>().concat(device, rows, parts, mutableElementsAs<E>(out));
    });
}

void splitRows(const CpuEigenDevice& device, std::int64_t rows, const Tensor& in, const std::vector<Tensor*>& outs)
{
    if (rows == 0 || in.numElements() == 0)
        return;
    (void)dispatchByElementBytes(in.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        std::vector<RowBlock<E>> parts;
        for (Tensor* t : outs) {
            if (t->numElements() > 0)
                parts.push_back({mutableElementsAs<E>(*t), t->numElements() / rows});
        }
        RowCopy<CpuEigenDevice, E>().split(device, rows, elementsAs<E>(in), parts);
    });
}

void fillElements(const CpuEigenDevice& device, const Tensor& value, Tensor& out)
{
    if (out.numElements() == 0)
        return;
    (void)dispatchByElementBytes(out.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        const E v = *elementsAs<E>(value);
        E* o = mutableElementsAs<E>(out);
        const double bytes = static_cast<double>(sizeof(E));
        cpuParallelFor(device, out.numElements(), Eigen::TensorOpCost(0, bytes, 1),
                           [o, &v](Eigen::Index first, Eigen::Index last) { std::fill(o + first, o + last, v); });
    });
}

namespace {

/// Eigen's pool interface running every task on the caller: a ThreadPoolDevice over it with one
/// core never splits work (parallelFor calls the whole range inline).
class InlineThreadPool final : public Eigen::ThreadPoolInterface {
public:
    void Schedule(std::function<void()> fn) override { fn(); }
    int NumThreads() const override { return 1; }
    int CurrentThreadId() const override { return 0; }
};

/// The device a host-memory kernel runs its loops on: the CPU device's pool, or the inline one on
/// devices without a pool (a GPU).
const CpuEigenDevice& hostDevice(const OpKernelContext& context)
{
    if (const CpuEigenDevice* device = context.device().eigenCpuDevice())
        return *device;
    static InlineThreadPool pool;
    static const CpuEigenDevice inlineDevice(&pool, 1);
    return inlineDevice;
}

class HostMovement final : public Movement {
public:
    Status gather(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const override
    {
        gatherElements(hostDevice(context), std::move(map), in, out);
        return Status::ok();
    }
    Status scatter(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const override
    {
        scatterElements(hostDevice(context), std::move(map), in, out);
        return Status::ok();
    }
    Status concatRows(OpKernelContext& context, std::int64_t rows, const std::vector<const Tensor*>& inputs,
                      Tensor& out) const override
    {
        array::concatRows(hostDevice(context), rows, inputs, out);
        return Status::ok();
    }
    Status splitRows(OpKernelContext& context, std::int64_t rows, const Tensor& in,
                     const std::vector<Tensor*>& outs) const override
    {
        array::splitRows(hostDevice(context), rows, in, outs);
        return Status::ok();
    }
    Status fill(OpKernelContext& context, const Tensor& value, Tensor& out) const override
    {
        fillElements(hostDevice(context), value, out);
        return Status::ok();
    }
    Status copy(OpKernelContext& context, const Tensor& src, Tensor& dst) const override
    {
        copyElements(hostDevice(context), src, dst);
        return Status::ok();
    }
};

} // namespace

const Movement& hostMovement()
{
    static const HostMovement movement;
    return movement;
}

} // namespace tstudio::array
