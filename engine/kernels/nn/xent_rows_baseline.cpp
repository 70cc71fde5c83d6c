// Softmax cross-entropy rows built for the baseline instruction set (see xent_rows_impl.h).
#define TSTUDIO_XENT_ROWS_BASELINE
#include "kernels/nn/xent_rows_impl.h"
