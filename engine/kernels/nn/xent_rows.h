// The float rows of SparseSoftmaxCrossEntropyWithLogits, compiled once per x86 instruction set
// (xent_rows_<isa>.cpp, see kernels/isa/isa_unit_begin.h) and picked at run time: a 10,000-class
// row is mostly exp, which AVX2 with FMA runs about three times as fast as the engine's SSE2 build.
#pragma once

#include <cstdint>

namespace tstudio::nn {

struct XentRowKernels {
    const char* isa;
    /// One row as TensorFlow's SparseXentEigenImpl: with z = logits - max(logits) and
    /// s = sum(exp(z)), backprop[j] = exp(z[j]) / s, less 1 at `label` (in [0, classes)); returns
    /// the row's loss log(s) - z[label]. Single-threaded; `backprop` must not alias `logits`.
    float (*sparseRow)(const float* logits, std::int64_t classes, std::int64_t label, float* backprop);
};

const XentRowKernels& xentRowKernelsBaseline();
const XentRowKernels& xentRowKernelsAvx2();
const XentRowKernels& xentRowKernelsAvx512();

/// The build for this CPU (detectCpuIsa).
const XentRowKernels& xentRowKernels();

} // namespace tstudio::nn
