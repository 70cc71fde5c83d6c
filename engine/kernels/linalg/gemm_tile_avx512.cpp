// Matrix-product tiles built for the avx512 instruction set (see gemm_tile_impl.h).
#define TSTUDIO_ISA_UNIT_AVX512
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_avx512
#include "kernels/linalg/gemm_tile_impl.h"
