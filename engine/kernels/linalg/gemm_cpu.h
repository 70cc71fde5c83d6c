// Multi-threaded row-major matrix products on the CPU, using the best instruction set the CPU has.
#pragma once

#include "kernels/linalg/gemm_tile.h"

namespace Eigen {
struct ThreadPoolDevice;
}

namespace tstudio::linalg {

/// Computes the whole product described by `args` (see GemmArgs) with Eigen's blocked GEMM built
/// for this CPU's instruction set (AVX-512, AVX2+FMA or the baseline; chosen once at first use),
/// or for float, where the build has oneDNN, with oneDNN's sgemm (except small-row products with
/// a transposed right-hand side, chosen by shape; see gemm_cpu.cpp),
/// splitting it into tiles that run on `device`'s threads and the calling thread (`device` may
/// be nullptr: then everything runs on the calling thread). T is float, double,
/// std::complex<float> or std::complex<double>.
///
/// Determinism: the product is cut into tiles (row bands at multiples of kGemmRowTile for tall
/// products, column bands for wide ones) at positions that depend only on the shape, on one
/// thread too; threads only share the tiles out. So the result is the same bits whatever the
/// number of threads, with either library (test_linalg_kernels checks every transposition).
template <typename T> void cpuGemm(const Eigen::ThreadPoolDevice* device, const GemmArgs<T>& args);

/// The granularity of the split (a multiple of every SIMD width Eigen uses: 16 floats in an
/// AVX-512 register): a row keeps its place modulo the SIMD width, so its micro-kernel path.
inline constexpr std::int64_t kGemmRowTile = 16;

/// The instruction set cpuGemm uses on this CPU: "avx512", "avx2" or "baseline".
const char* cpuGemmIsa();

/// The tile kernels cpuGemm uses on this CPU.
const GemmTileKernels& cpuGemmTileKernels();

} // namespace tstudio::linalg
