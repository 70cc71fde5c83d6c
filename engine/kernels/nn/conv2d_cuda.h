// The data movement around cuDNN's convolutions (conv2d_cuda.cu): copying images between NHWC and
// NCHW with zero padding or cropping, and permuting filters between TensorFlow's HWIO and cuDNN's
// layouts. C++17 and free of engine headers: nvcc compiles it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tstudio::gpu {

/// A copy of a batch of images between two layouts and two spatial sizes:
///   dst(n, c, h, w) = src(n, c, h + rowOffset, w + colOffset) where that lies inside src, else 0,
/// for n < batch, c < channels, h < dstRows, w < dstCols. A negative offset pads the source
/// (zeros before it), a positive one crops it; the same sizes and offsets 0 only change the layout.
struct ImageCopy {
    std::int64_t batch = 0;
    std::int64_t channels = 0;
    std::int64_t srcRows = 0;
    std::int64_t srcCols = 0;
    bool srcNchw = false;
    std::int64_t dstRows = 0;
    std::int64_t dstCols = 0;
    bool dstNchw = false;
    std::int64_t rowOffset = 0;
    std::int64_t colOffset = 0;
};

/// Queues the copy on `stream` for elements of `elementBytes` bytes (2, 4 or 8; the bits are moved,
/// so any dtype of that size works). False, with nothing queued, for another element size or an
/// empty destination. The caller checks the launch with cuda::lastLaunchStatus.
bool launchImageCopy(cudaStream_t stream, const ImageCopy& copy, std::size_t elementBytes, const void* src, void* dst);

/// Queues dst = src with its four dimensions permuted: dst dimension j is src dimension perm[j]
/// (srcDims row-major; perm a permutation of 0..3). HWIO -> KRSC (cuDNN's NHWC filter) is
/// perm {3, 0, 1, 2}; HWIO -> KCRS (NCHW filter) is {3, 2, 0, 1}. False, with nothing queued, for
/// an element size other than 2, 4 or 8, a bad permutation or no elements.
bool launchPermute4(cudaStream_t stream, const std::int64_t (&srcDims)[4], const int (&perm)[4],
                    std::size_t elementBytes, const void* src, void* dst);

} // namespace tstudio::gpu
