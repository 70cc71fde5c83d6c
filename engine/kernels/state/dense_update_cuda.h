// The launcher of the GPU add/sub update loop (dense_update_cuda.cu), callable from host code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::state::cuda {

enum class UpdateType { kHalf, kFloat, kDouble, kInt64 };

/// params[0, n) += update (or -= with `subtract`), elements of `type`; n > 0.
void launchDenseUpdate(cudaStream_t stream, UpdateType type, bool subtract, void* params, const void* update,
                       std::int64_t n);

} // namespace tstudio::state::cuda
