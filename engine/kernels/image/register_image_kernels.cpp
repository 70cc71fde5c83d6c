// registerImageCpuKernels: the image family's CPU kernels (explicit calls, no static initialisers).
#include "kernels/kernels.h"

#include "kernels/image/image_kernels.h"
#include "kernels/image/image_resize.h"

namespace tstudio {

Status registerImageCpuKernels(KernelRegistry& registry)
{
    for (auto group : {image::registerResizeBilinearCpuKernels, image::registerResizeNearestNeighborCpuKernels,
                       image::registerResizeBicubicCpuKernels, image::registerResizeAreaCpuKernels,
                       image::registerDecodeImageCpuKernels, image::registerEncodeImageCpuKernels,
                       image::registerAdjustContrastCpuKernels, image::registerAdjustHueCpuKernels,
                       image::registerAdjustSaturationCpuKernels, image::registerColorspaceCpuKernels,
                       image::registerResamplerCpuKernels}) {
        if (Status s = group(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
