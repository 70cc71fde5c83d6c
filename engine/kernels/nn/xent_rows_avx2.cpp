// Softmax cross-entropy rows built for the avx2 instruction set (see xent_rows_impl.h).
#define TSTUDIO_ISA_UNIT_AVX2
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_avx2
#include "kernels/nn/xent_rows_impl.h"
