// What the resize kernels share (TensorFlow 1.15's image_resizer_state.h): the scale from an input
// size to an output size, the legacy and half-pixel source coordinates, and the checks and output
// of the forward ops and of ResizeBilinearGrad.
#pragma once

#include "core/expected.h"
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"

#include <cmath>
#include <cstdint>

namespace tstudio::image {

/// CalculateResizeScale: (in - 1) / (out - 1) with align_corners (and out > 1), else in / out, in
/// float as TensorFlow computes it.
inline float resizeScale(std::int64_t inSize, std::int64_t outSize, bool alignCorners)
{
    return (alignCorners && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                         : static_cast<float>(inSize) / static_cast<float>(outSize);
}

/// The source coordinate of output index `x`: legacy x * scale, or with half-pixel centers
/// (x + 0.5) * scale - 0.5 (bilinear) / (x + 0.5) * scale (nearest neighbor, which floors it).
inline float legacyCoordinate(std::int64_t x, float scale)
{
    return static_cast<float>(x) * scale;
}
inline float halfPixelCoordinate(std::int64_t x, float scale)
{
    return (static_cast<float>(x) + 0.5f) * scale - 0.5f;
}
inline float halfPixelCoordinateForNearest(std::int64_t x, float scale)
{
    return (static_cast<float>(x) + 0.5f) * scale;
}

/// The attrs every resize op has; read when the kernel is built.
struct ResizeAttrs {
    bool alignCorners = false;
    bool halfPixelCenters = false;
};
Expected<ResizeAttrs> readResizeAttrs(const tensorflow::NodeDef& node);

/// ImageResizerState::ValidateAndCalculateOutputSize for ResizeBilinear and ResizeNearestNeighbor:
/// the checks in TensorFlow's order and words ("If half_pixel_centers is True, align_corners must
/// be False.", "input must be 4-dimensional[2,3]", "shape_t must be 1-dimensional[2,1]", "shape_t
/// must have two elements[3]", "output dimensions must be positive", "image must have at least one
/// channel", "input image must be of non-zero size"), then the output [batch, h, w, channels]
/// allocated and the two scales.
struct ResizeState {
    std::int64_t batch = 0;
    std::int64_t inHeight = 0;
    std::int64_t inWidth = 0;
    std::int64_t outHeight = 0;
    std::int64_t outWidth = 0;
    std::int64_t channels = 0;
    float heightScale = 0.0f;
    float widthScale = 0.0f;
    Tensor* output = nullptr;
};
Expected<ResizeState> prepareResize(OpKernelContext& context, const ResizeAttrs& attrs);

/// Registers the ResizeBilinear and ResizeBilinearGrad CPU kernels (resize_bilinear_cpu.cpp).
Status registerResizeBilinearCpuKernels(KernelRegistry& registry);
/// Registers the ResizeNearestNeighbor and ResizeNearestNeighborGrad CPU kernels
/// (resize_nearest_neighbor_cpu.cpp).
Status registerResizeNearestNeighborCpuKernels(KernelRegistry& registry);

} // namespace tstudio::image
