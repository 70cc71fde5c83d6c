// Softmax cross-entropy rows built for the avx512 instruction set (see xent_rows_impl.h).
#define TSTUDIO_ISA_UNIT_AVX512
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_avx512
#include "kernels/nn/xent_rows_impl.h"
