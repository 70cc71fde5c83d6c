// Matrix-product tiles built for the baseline instruction set (see gemm_tile_impl.h).
#define TSTUDIO_ISA_UNIT_BASELINE
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_gemm_baseline
#include "kernels/linalg/gemm_tile_impl.h"
