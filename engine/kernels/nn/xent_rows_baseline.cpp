// Softmax cross-entropy rows built for the baseline instruction set (see xent_rows_impl.h).
#define TSTUDIO_ISA_UNIT_BASELINE
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_baseline
#include "kernels/nn/xent_rows_impl.h"
