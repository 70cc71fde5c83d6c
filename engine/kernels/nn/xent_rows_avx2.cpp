// Softmax cross-entropy rows built for the avx2 instruction set (see xent_rows_impl.h).
#define TSTUDIO_XENT_ROWS_AVX2
#include "kernels/nn/xent_rows_impl.h"
