// CPU kernel of ReverseV2: the input copied in output order, the chosen axes walked backwards, a
// contiguous block of the untouched inner axes at a time.
#define EIGEN_USE_THREADS
#include "kernels/array/array_kernel_util.h"
#include "core/cpu_features.h"
#include "devices/cpu/cpu_parallel.h"
#include "kernels/array/array_kernels_internal.h"

#include <unsupported/Eigen/CXX11/Tensor>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tstudio::array {

namespace {

/// Consecutive axes that are all reversed or all kept, merged: reversing two neighbouring axes
/// together is reversing their flattened product, and kept neighbours walk as one axis.
struct AxisGroup {
    std::int64_t size = 1;
    bool reversed = false;
};

/// The groups of `dims` (axes of size 1 dropped: reversing them changes nothing) and the elements
/// of the innermost kept group, which move as one block (1 when the last axis is reversed).
struct ReversePlan {
    std::vector<AxisGroup> groups; ///< outer groups, the last one reversed (empty: a plain copy)
    std::int64_t block = 1;
};

ReversePlan planReverse(const std::vector<std::int64_t>& dims, const std::vector<bool>& reversed)
{
    ReversePlan plan;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 1)
            continue;
        if (!plan.groups.empty() && plan.groups.back().reversed == reversed[d])
            plan.groups.back().size *= dims[d];
        else
            plan.groups.push_back(AxisGroup{dims[d], reversed[d]});
    }
    if (!plan.groups.empty() && !plan.groups.back().reversed) {
        plan.block = plan.groups.back().size;
        plan.groups.pop_back();
    }
    return plan;
}

/// One reversed run: `count` blocks of `block` elements, out block j = in block count - 1 - j.
/// Small blocks of plain data have a fixed size so the copy is a few moves, not a call.
template <typename E, int kFixed>
void reverseRunFixed(const E* in, E* out, std::int64_t count, std::int64_t block)
{
    const std::int64_t n = kFixed > 0 ? std::int64_t{kFixed} : block;
    const E* source = in + (count - 1) * n;
    for (std::int64_t j = 0; j < count; ++j, source -= n, out += n) {
        if constexpr (kFixed > 0) {
            for (int k = 0; k < kFixed; ++k)
                out[k] = source[k];
        } else {
            std::copy_n(source, n, out);
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/// A run of 3-byte blocks (the pixels of an RGB uint8 image flipped left-right) five at a time: the
/// 16 bytes ending with five source pixels are loaded and one byte shuffle puts the pixels in
/// reverse order; the 16th byte stored is the next group's first, which the next store (or the
/// tail) overwrites. Needs a sixth pixel after the group in the output and one byte before it in
/// the input, so the first and last pixels of the run go through the scalar tail.
__attribute__((target("ssse3"))) void reversePixels3(const std::uint8_t* in, std::uint8_t* out, std::int64_t count)
{
    const __m128i order = _mm_setr_epi8(13, 14, 15, 10, 11, 12, 7, 8, 9, 4, 5, 6, 1, 2, 3, -128);
    std::int64_t j = 0;
    for (; j + 6 <= count; j += 5) {
        const std::uint8_t* source = in + (count - 5 - j) * 3 - 1;
        const __m128i pixels = _mm_loadu_si128(reinterpret_cast<const __m128i*>(source));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j * 3), _mm_shuffle_epi8(pixels, order));
    }
    for (; j < count; ++j) {
        const std::uint8_t* source = in + (count - 1 - j) * 3;
        out[j * 3] = source[0];
        out[j * 3 + 1] = source[1];
        out[j * 3 + 2] = source[2];
    }
}

bool hasByteShuffle()
{
    static const bool has = cpuHasLevel(CpuLevel::kSse42);
    return has;
}
#endif

template <typename E> void reverseRun(const E* in, E* out, std::int64_t count, std::int64_t block)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (std::is_same_v<E, std::uint8_t>) {
        if (block == 3 && hasByteShuffle())
            return reversePixels3(in, out, count);
    }
#endif
    if constexpr (std::is_trivially_copyable_v<E>) {
        switch (block) {
        case 1: return reverseRunFixed<E, 1>(in, out, count, block);
        case 2: return reverseRunFixed<E, 2>(in, out, count, block);
        case 3: return reverseRunFixed<E, 3>(in, out, count, block);
        case 4: return reverseRunFixed<E, 4>(in, out, count, block);
        default: break;
        }
    }
    reverseRunFixed<E, 0>(in, out, count, block);
}

/// out = in with the plan's groups reversed. The output is written in order, one reversed run (the
/// last group) per row; rows are shared out over the device's threads.
template <typename E>
void reverseElements(const Eigen::ThreadPoolDevice& device, const ReversePlan& plan, const E* in, E* out,
                     std::int64_t total)
{
    if (plan.groups.empty()) {
        std::copy_n(in, total, out);
        return;
    }
    const std::int64_t count = plan.groups.back().size;
    const std::int64_t rowLength = count * plan.block;
    const std::int64_t rows = total / rowLength;
    const std::size_t outer = plan.groups.size() - 1;
    // Element strides of the outer groups in the (row-major) input.
    std::vector<std::int64_t> strides(outer);
    std::int64_t stride = rowLength;
    for (std::size_t g = outer; g-- > 0;) {
        strides[g] = stride;
        stride *= plan.groups[g].size;
    }
    const auto work = [&](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index row = first; row < last; ++row) {
            std::int64_t rest = row;
            std::int64_t offset = 0;
            for (std::size_t g = outer; g-- > 0;) {
                const std::int64_t size = plan.groups[g].size;
                const std::int64_t i = rest % size;
                rest /= size;
                offset += (plan.groups[g].reversed ? size - 1 - i : i) * strides[g];
            }
            reverseRun(in + offset, out + row * rowLength, count, plan.block);
        }
    };
    const double bytes = static_cast<double>(rowLength) * static_cast<double>(sizeof(E));
    cpuParallelFor(device, rows, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(rowLength)), work);
}

class ReverseV2Op : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& axisTensor = context.input(1);
        if (axisTensor.rank() != 1)
            return invalidArgumentError("'dims' must be 1-dimension, not " + std::to_string(axisTensor.rank()));
        const int rank = input.rank();
        const std::vector<std::int64_t> axes = indexValues(axisTensor);
        std::vector<bool> reversed(static_cast<std::size_t>(rank), false);
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const std::int64_t canonical = axes[i] < 0 ? rank + axes[i] : axes[i];
            if (canonical < 0 || canonical >= rank)
                return invalidArgumentError("'axis'[" + std::to_string(i) + "] = " + std::to_string(axes[i]) +
                                            " is out of valid range [0, " + std::to_string(rank - 1));
            if (reversed[static_cast<std::size_t>(canonical)])
                return invalidArgumentError("axis " + std::to_string(canonical) + " specified more than once.");
            reversed[static_cast<std::size_t>(canonical)] = true;
        }
        auto out = context.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        const std::int64_t total = input.numElements();
        if (total == 0)
            return Status::ok();
        const ReversePlan plan = planReverse(dimsOf(input.shape()), reversed);
        Tensor& output = **out;
        return dispatchByElementBytes(input.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            reverseElements(cpuDevice(context), plan, elementsAs<E>(input), mutableElementsAs<E>(output), total);
        });
    }
};

} // namespace

Status registerReverseKernels(KernelRegistry& registry)
{
    // ReverseV2's OpDef already lists its dtypes.
    return KernelAdder(registry).add<ReverseV2Op>(cpuDef("ReverseV2", {{"Tidx", indexDataTypes()}})).status();
}

} // namespace tstudio::array
