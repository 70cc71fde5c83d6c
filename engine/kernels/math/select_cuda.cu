// GPU instantiations of Select/SelectV2's launcher for the dtypes TensorFlow 1.15 registers on GPU.
#include "kernels/math/cwise_cuda.cuh"

#include <cstdint>

namespace tstudio::gpu {

template struct SelectLauncher<bool>;
template struct SelectLauncher<Eigen::half>;
template struct SelectLauncher<float>;
template struct SelectLauncher<double>;
template struct SelectLauncher<std::int32_t>;
template struct SelectLauncher<std::int64_t>;

} // namespace tstudio::gpu
