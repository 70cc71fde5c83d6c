// TSTUDIO_HOST_DEVICE: marks the per-element arithmetic that GPU kernels run on the device and CPU
// tests run on the host (__host__ __device__ under nvcc, nothing elsewhere). C++17, no engine headers.
#pragma once

#if defined(__CUDACC__)
#define TSTUDIO_HOST_DEVICE __host__ __device__
#else
#define TSTUDIO_HOST_DEVICE
#endif
