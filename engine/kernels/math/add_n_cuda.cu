// GPU instantiations of AddN's launcher for the dtypes TensorFlow 1.15 registers in GPU memory.
#include "kernels/math/cwise_cuda.cuh"

#include <cstdint>

namespace tstudio::gpu {

template struct AddNLauncher<Eigen::half>;
template struct AddNLauncher<float>;
template struct AddNLauncher<double>;
template struct AddNLauncher<std::int64_t>;

} // namespace tstudio::gpu
