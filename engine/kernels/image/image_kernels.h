// The registration functions of the image family's kernels beyond resizing (image_resize.h has
// those): codecs, bicubic and area resizing, colour adjustments and colour spaces.
#pragma once

#include "core/status.h"

namespace tstudio {
class KernelRegistry;
}

namespace tstudio::image {

/// DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeImage, ExtractJpegShape (decode_image_cpu.cpp).
Status registerDecodeImageCpuKernels(KernelRegistry& registry);
/// EncodeJpeg, EncodePng (encode_image_cpu.cpp).
Status registerEncodeImageCpuKernels(KernelRegistry& registry);
/// ResizeBicubic (resize_bicubic_cpu.cpp).
Status registerResizeBicubicCpuKernels(KernelRegistry& registry);
/// ResizeArea (resize_area_cpu.cpp).
Status registerResizeAreaCpuKernels(KernelRegistry& registry);
/// AdjustContrastv2 (adjust_contrast_cpu.cpp).
Status registerAdjustContrastCpuKernels(KernelRegistry& registry);
/// AdjustHue (adjust_hue_cpu.cpp).
Status registerAdjustHueCpuKernels(KernelRegistry& registry);
/// AdjustSaturation (adjust_saturation_cpu.cpp).
Status registerAdjustSaturationCpuKernels(KernelRegistry& registry);
/// RGBToHSV, HSVToRGB (colorspace_cpu.cpp).
Status registerColorspaceCpuKernels(KernelRegistry& registry);
/// Resampler, ResamplerGrad (tf.contrib.resampler): resampler_cpu.cpp.
Status registerResamplerCpuKernels(KernelRegistry& registry);

} // namespace tstudio::image
