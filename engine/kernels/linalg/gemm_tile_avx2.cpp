// Matrix-product tiles built for the avx2 instruction set (see gemm_tile_impl.h).
#define TSTUDIO_ISA_UNIT_AVX2
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_avx2
#include "kernels/linalg/gemm_tile_impl.h"
