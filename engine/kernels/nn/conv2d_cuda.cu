// Device code moving data around cuDNN's convolutions: image layout changes with padding or
// cropping, and 4-D permutations of filters. Bits are moved as 2-, 4- or 8-byte words.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/nn/conv2d_cuda.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace tstudio::gpu {

namespace {

template <typename Word>
__global__ void imageCopyKernel(ImageCopy p, std::int64_t total, const Word* __restrict__ src, Word* __restrict__ dst)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < total; i += gridStride<std::int64_t>()) {
        std::int64_t n, c, h, w, t;
        if (p.dstNchw) {
            w = i % p.dstCols;
            t = i / p.dstCols;
            h = t % p.dstRows;
            t /= p.dstRows;
            c = t % p.channels;
            n = t / p.channels;
        } else {
            c = i % p.channels;
            t = i / p.channels;
            w = t % p.dstCols;
            t /= p.dstCols;
            h = t % p.dstRows;
            n = t / p.dstRows;
        }
        const std::int64_t sh = h + p.rowOffset;
        const std::int64_t sw = w + p.colOffset;
        Word value = 0;
        if (sh >= 0 && sh < p.srcRows && sw >= 0 && sw < p.srcCols) {
            const std::int64_t s = p.srcNchw ? ((n * p.channels + c) * p.srcRows + sh) * p.srcCols + sw
                                             : ((n * p.srcRows + sh) * p.srcCols + sw) * p.channels + c;
            value = src[s];
        }
        dst[i] = value;
    }
}

/// dst element i has the row-major index (j0..j3) over dstDims and reads src at sum of j_k * srcStrides[k].
struct Permutation {
    std::int64_t dstDims[4];
    std::int64_t srcStrides[4];
};

template <typename Word>
__global__ void permute4Kernel(Permutation p, std::int64_t total, const Word* __restrict__ src, Word* __restrict__ dst)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < total; i += gridStride<std::int64_t>()) {
        std::int64_t rest = i;
        std::int64_t offset = 0;
#pragma unroll
        for (int k = 3; k >= 0; --k) {
            const std::int64_t coordinate = rest % p.dstDims[k];
            rest /= p.dstDims[k];
            offset += coordinate * p.srcStrides[k];
        }
        dst[i] = src[offset];
    }
}

template <typename Word>
void queueImageCopy(cudaStream_t stream, const ImageCopy& copy, std::int64_t total, const void* src, void* dst)
{
    imageCopyKernel<Word><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(copy, total, static_cast<const Word*>(src),
                                                                             static_cast<Word*>(dst));
}

template <typename Word>
void queuePermute(cudaStream_t stream, const Permutation& p, std::int64_t total, const void* src, void* dst)
{
    permute4Kernel<Word><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(p, total, static_cast<const Word*>(src),
                                                                            static_cast<Word*>(dst));
}

} // namespace

bool launchImageCopy(cudaStream_t stream, const ImageCopy& copy, std::size_t elementBytes, const void* src, void* dst)
{
    const std::int64_t total = copy.batch * copy.channels * copy.dstRows * copy.dstCols;
    if (total <= 0)
        return false;
    switch (elementBytes) {
    case 2: queueImageCopy<std::uint16_t>(stream, copy, total, src, dst); return true;
    case 4: queueImageCopy<std::uint32_t>(stream, copy, total, src, dst); return true;
    case 8: queueImageCopy<std::uint64_t>(stream, copy, total, src, dst); return true;
    default: return false;
    }
}

bool launchPermute4(cudaStream_t stream, const std::int64_t (&srcDims)[4], const int (&perm)[4],
                    std::size_t elementBytes, const void* src, void* dst)
{
    bool seen[4] = {false, false, false, false};
    for (int p : perm) {
        if (p < 0 || p > 3 || seen[p])
            return false;
        seen[p] = true;
    }
    const std::int64_t strides[4] = {srcDims[1] * srcDims[2] * srcDims[3], srcDims[2] * srcDims[3], srcDims[3], 1};
    Permutation permutation{};
    std::int64_t total = 1;
    for (int k = 0; k < 4; ++k) {
        permutation.dstDims[k] = srcDims[perm[k]];
        permutation.srcStrides[k] = strides[perm[k]];
        total *= srcDims[k];
    }
    if (total <= 0)
        return false;
    switch (elementBytes) {
    case 2: queuePermute<std::uint16_t>(stream, permutation, total, src, dst); return true;
    case 4: queuePermute<std::uint32_t>(stream, permutation, total, src, dst); return true;
    case 8: queuePermute<std::uint64_t>(stream, permutation, total, src, dst); return true;
    default: return false;
    }
}

} // namespace tstudio::gpu
