// permuteDims: an odometer walk over the output, parallel over contiguous output ranges.
#define EIGEN_USE_THREADS
#include "kernels/reduction/permute_dims.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstring>

namespace tstudio::reduction {

namespace {

struct alignas(8) Bytes16 {
    unsigned char b[16];
};

template <typename E>
void permuteRange(const E* in, E* out, const std::vector<std::int64_t>& outDims,
                  const std::vector<std::int64_t>& inStrides, std::int64_t first, std::int64_t last)
{
    const int rank = static_cast<int>(outDims.size());
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
    std::int64_t offset = 0;
    std::int64_t rest = first;
    for (int d = rank - 1; d >= 0; --d) {
        const auto u = static_cast<std::size_t>(d);
        index[u] = rest % outDims[u];
        rest /= outDims[u];
        offset += index[u] * inStrides[u];
    }
    for (std::int64_t i = first; i < last; ++i) {
        std::memcpy(out + i, in + offset, sizeof(E)); // memcpy: the buffer's real type may differ from E
        for (int d = rank - 1; d >= 0; --d) {
            const auto u = static_cast<std::size_t>(d);
            offset += inStrides[u];
            if (++index[u] < outDims[u])
                break;
            offset -= index[u] * inStrides[u];
            index[u] = 0;
        }
    }
}

template <typename E>
void permuteTyped(const Eigen::ThreadPoolDevice* device, const void* in, void* out,
                  const std::vector<std::int64_t>& dims, const std::vector<int>& perm)
{
    const std::size_t rank = dims.size();
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t d = rank; d-- > 1;)
        strides[d - 1] = strides[d] * dims[d];
    std::vector<std::int64_t> outDims(rank), inStrides(rank);
    std::int64_t total = 1;
    for (std::size_t i = 0; i < rank; ++i) {
        outDims[i] = dims[static_cast<std::size_t>(perm[i])];
        inStrides[i] = strides[static_cast<std::size_t>(perm[i])];
        total *= outDims[i];
    }
    const auto* src = static_cast<const E*>(in);
    auto* dst = static_cast<E*>(out);
    if (device == nullptr || total < 4096) {
        permuteRange(src, dst, outDims, inStrides, 0, total);
        return;
    }
    const Eigen::TensorOpCost cost(sizeof(E), sizeof(E), 4 * static_cast<double>(rank));
    cpuParallelFor(*device, total, cost, [&](Eigen::Index first, Eigen::Index last) {
        permuteRange(src, dst, outDims, inStrides, first, last);
    });
}

} // namespace

void permuteDims(const Eigen::ThreadPoolDevice* device, const void* in, void* out, std::size_t elementSize,
                 const std::vector<std::int64_t>& dims, const std::vector<int>& perm)
{
    switch (elementSize) {
    case 1: permuteTyped<std::uint8_t>(device, in, out, dims, perm); break;
    case 2: permuteTyped<std::uint16_t>(device, in, out, dims, perm); break;
    case 4: permuteTyped<std::uint32_t>(device, in, out, dims, perm); break;
    case 8: permuteTyped<std::uint64_t>(device, in, out, dims, perm); break;
    case 16: permuteTyped<Bytes16>(device, in, out, dims, perm); break;
    default: break; // every dtype a reduction kernel accepts has one of these sizes
    }
}

} // namespace tstudio::reduction
