// MaxPoolGrad's disjoint-window float loop built for the avx2 instruction set (see max_pool_grad_rows_impl.h).
#define TSTUDIO_ISA_UNIT_AVX2
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_max_pool_grad_avx2
#include "kernels/nn/max_pool_grad_rows_impl.h"
