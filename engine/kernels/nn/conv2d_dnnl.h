// Conv2D and its two backprops on oneDNN (Debian's libdnnl-dev), for float32 NHWC buffers: the fast
// path of Conv2DCpu<float> (and of half, computed in float). Built only when CMake found oneDNN
// (TSTUDIO_HAVE_DNNL); otherwise every entry point declines and the im2col + GEMM path runs.
//
// Threads: Debian's oneDNN runs on OpenMP (DNNL_CPU_THREADING_RUNTIME = OMP), not on the engine's
// Eigen pool. The device's intra-op thread count is respected exactly: a batch of at least that
// many images is cut into one slice per pool thread, each run by oneDNN on one OpenMP thread (the
// calling pool thread itself, omp_set_num_threads(1)), so no OpenMP team is started; a smaller
// batch runs on an OpenMP team of the device's thread count (omp_set_num_threads(n) in the calling
// thread). `--threads 1` thus runs oneDNN on the calling thread alone. Primitives are cached per
// geometry and OpenMP thread count.
#pragma once

#include "kernels/nn/conv2d.h"

#include <optional>

namespace tstudio::nn {

/// True when this build has the oneDNN path.
bool dnnlConvCompiledIn();
/// True when the oneDNN path is compiled in and switched on (on by default).
bool dnnlConvEnabled();
/// Switches the oneDNN path on or off for the whole process (tests compare it with im2col).
void setDnnlConvEnabled(bool enabled);

/// The three convolutions on NHWC float buffers (filter HWIO), on the device's threads. Each
/// returns std::nullopt when oneDNN is not compiled in or does not take this geometry (the caller
/// then uses im2col), otherwise the outcome: ok, or an internal error naming oneDNN's message.
std::optional<Status> dnnlConvForward(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                      const float* input, const float* filter, float* output);
/// What oneDNN adds to a forward convolution's sums before it stores them (the epilogue of
/// _FusedConv2D): a bias per output channel, then optionally Relu (max(x, 0); NaN stays NaN).
enum class DnnlConvEpilogue { kNone, kBias, kBiasRelu };
/// dnnlConvForward with `epilogue`; `bias` holds outDepth floats (unused for kNone).
std::optional<Status> dnnlConvForwardFused(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                           const float* input, const float* filter, const float* bias,
                                           DnnlConvEpilogue epilogue, float* output);
std::optional<Status> dnnlConvBackpropInput(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                            const float* filter, const float* outBackprop, float* inputBackprop);
std::optional<Status> dnnlConvBackpropFilter(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                             const float* input, const float* outBackprop, float* filterBackprop);

} // namespace tstudio::nn
