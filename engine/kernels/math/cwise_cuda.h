// The element-wise GPU launchers shared by the math and NN kernel families: grid-stride kernels over a
// flat or broadcast element layout, declared here for the host code and defined in cwise_cuda.cuh,
// which the *_cuda.cu files instantiate for the (functor, dtype) pairs they register.
// C++17 and free of engine headers: nvcc compiles it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace tstudio::gpu {

/// The most collapsed dimensions a broadcast layout can hold. BroadcastPlan merges neighbouring
/// dimensions with the same broadcast pattern, so only inputs of rank > 8 with alternating
/// patterns exceed it (TensorFlow's GPU kernels stop at 5).
inline constexpr int kMaxBroadcastRank = 8;
/// Inputs of a layout: two for binary ops, three for Select.
inline constexpr int kMaxBroadcastInputs = 3;

/// How an element-wise op's inputs line up with its output: BroadcastPlan's collapsed view as a
/// value that is passed to a kernel by value.
///   rank 0: one output element, every input read at element 0;
///   rank 1: the flat layout, input k read at element i * strides[k][0] (stride 1 or 0);
///   rank >= 2: output element i has the row-major index (i_0, ..., i_{rank-1}) over dims, and
///   input k is read at sum over d of i_d * strides[k][d] (0 where input k is broadcast).
struct BroadcastLayout {
    std::int64_t numElements = 0;
    int rank = 0;
    std::int64_t dims[kMaxBroadcastRank] = {};
    std::int64_t strides[kMaxBroadcastInputs][kMaxBroadcastRank] = {};
};

/// The result type of functor F applied to arguments of types In.
template <typename F, typename... In> using ResultOf = std::decay_t<std::invoke_result_t<const F&, const In&...>>;

/// out[i] = f(in[i]) for i < n, queued on `stream`. n > 0; out and in hold n elements in GPU memory.
template <typename F, typename In> struct UnaryLauncher {
    using Out = ResultOf<F, In>;
    static void launch(cudaStream_t stream, const F& f, Out* out, const In* in, std::int64_t n);
};

/// out = f(x, y) over `layout` (inputs 0 and 1; at least one element), queued on `stream`.
template <typename F, typename In> struct BinaryLauncher {
    using Out = ResultOf<F, In, In>;
    static void launch(cudaStream_t stream, const F& f, const BroadcastLayout& layout, Out* out, const In* x,
                       const In* y);
};

/// out[i] = f(x[i], y[i]) for i < n: inputs of the same number of elements (the gradient helpers).
template <typename F, typename In> struct FlatBinaryLauncher {
    using Out = ResultOf<F, In, In>;
    static void launch(cudaStream_t stream, const F& f, Out* out, const In* x, const In* y, std::int64_t n);
};

/// out = condition ? t : e over `layout` (inputs: condition, t, e; at least one element).
template <typename T> struct SelectLauncher {
    static void launch(cudaStream_t stream, const BroadcastLayout& layout, T* out, const bool* condition, const T* t,
                       const T* e);
};

/// out[i] = ((inputs[0][i] + inputs[1][i]) + inputs[2][i]) + ... for i < n (at least two inputs,
/// each of n elements; `inputs` is a host array of GPU pointers, read before this returns).
template <typename T> struct AddNLauncher {
    static void launch(cudaStream_t stream, T* out, const T* const* inputs, int count, std::int64_t n);
};

} // namespace tstudio::gpu
