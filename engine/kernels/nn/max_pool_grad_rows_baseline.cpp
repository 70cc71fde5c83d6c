// MaxPoolGrad's disjoint-window float loop built for the baseline instruction set (see max_pool_grad_rows_impl.h).
#define TSTUDIO_ISA_UNIT_BASELINE
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_max_pool_grad_baseline
#include "kernels/nn/max_pool_grad_rows_impl.h"
