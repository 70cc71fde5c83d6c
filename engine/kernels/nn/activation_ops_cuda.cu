// Device code of the activations and their gradients: scalar functors with the formulas of
// activation_functors.h (TensorFlow 1.15's, in the same order of operations, in T), applied by the
// element-wise launchers of kernels/math/cwise_cuda.cuh.
#include "kernels/nn/activation_ops_cuda.h"

#include "kernels/math/cwise_cuda.cuh"

namespace tstudio::nn::gpu {

namespace {

using tstudio::gpu::FlatBinaryLauncher;
using tstudio::gpu::UnaryLauncher;

/// Selu's constants as activation_functors.h spells them (kSeluScale, kSeluScaleAlpha).
constexpr double kScale = 1.0507009873554804934193349852946;
constexpr double kScaleAlpha = 1.7580993408473768599402175208123;

// Forward: x -> y.

/// max(x, 0), NaN stays NaN.
template <typename T> struct Relu {
    __host__ __device__ T operator()(const T& x) const { return (Eigen::numext::isnan)(x) ? x : (x < T(0) ? T(0) : x); }
};
/// min(max(x, 0), 6), NaN stays NaN.
template <typename T> struct Relu6 {
    __host__ __device__ T operator()(const T& x) const
    {
        if ((Eigen::numext::isnan)(x))
            return x;
        const T positive = x < T(0) ? T(0) : x;
        return T(6) < positive ? T(6) : positive;
    }
};
/// exp(x) - 1 below zero, x elsewhere.
template <typename T> struct Elu {
    __host__ __device__ T operator()(const T& x) const { return x < T(0) ? T(Eigen::numext::exp(x) - T(1)) : x; }
};
/// scale_alpha * (exp(x) - 1) below zero, scale * x elsewhere.
template <typename T> struct Selu {
    __host__ __device__ T operator()(const T& x) const
    {
        return x < T(0) ? T(T(kScaleAlpha) * T(Eigen::numext::exp(x) - T(1))) : T(T(kScale) * x);
    }
};
/// x above zero, alpha * x elsewhere.
template <typename T> struct LeakyRelu {
    T alpha;
    __host__ __device__ T operator()(const T& x) const { return x > T(0) ? x : T(x * alpha); }
};
/// log(exp(x) + 1) in TensorFlow's stable form; threshold = log(epsilon) + 2 in T.
template <typename T> struct Softplus {
    T threshold;
    __host__ __device__ T operator()(const T& x) const
    {
        if (x > T(-threshold))
            return x;
        const T e = Eigen::numext::exp(x);
        return x < threshold ? e : T(Eigen::numext::log1p(e));
    }
};
/// x / (|x| + 1).
template <typename T> struct Softsign {
    __host__ __device__ T operator()(const T& x) const { return x / T(Eigen::numext::abs(x) + T(1)); }
};

// Gradients: (g, x) -> backprops, x being the forward features (outputs for Elu and Selu).

/// g * (x > 0 ? 1 : 0): a product, so a NaN or infinite g gives NaN where x <= 0.
template <typename T> struct ReluGrad {
    __host__ __device__ T operator()(const T& g, const T& x) const { return g * (x > T(0) ? T(1) : T(0)); }
};
template <typename T> struct Relu6Grad {
    __host__ __device__ T operator()(const T& g, const T& x) const
    {
        return g * ((x > T(0) && x < T(6)) ? T(1) : T(0));
    }
};
template <typename T> struct EluGrad {
    __host__ __device__ T operator()(const T& g, const T& a) const { return a < T(0) ? T((a + T(1)) * g) : g; }
};
template <typename T> struct SeluGrad {
    __host__ __device__ T operator()(const T& g, const T& a) const
    {
        return a < T(0) ? T(g * T(a + T(kScaleAlpha))) : T(g * T(kScale));
    }
};
template <typename T> struct LeakyReluGrad {
    T alpha;
    __host__ __device__ T operator()(const T& g, const T& x) const { return x > T(0) ? g : T(g * alpha); }
};
/// g / (exp(-x) + 1).
template <typename T> struct SoftplusGrad {
    __host__ __device__ T operator()(const T& g, const T& x) const { return g / T(Eigen::numext::exp(-x) + T(1)); }
};
/// g / (|x| + 1)^2.
template <typename T> struct SoftsignGrad {
    __host__ __device__ T operator()(const T& g, const T& x) const
    {
        const T d = Eigen::numext::abs(x) + T(1);
        return g / T(d * d);
    }
};

template <typename T> T softplusThreshold()
{
    return T(Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2));
}

} // namespace

template <typename T>
void launchActivation(cudaStream_t stream, Activation activation, T* out, const T* x, std::int64_t n, float alpha)
{
    switch (activation) {
    case Activation::kRelu: UnaryLauncher<Relu<T>, T>::launch(stream, {}, out, x, n); break;
    case Activation::kRelu6: UnaryLauncher<Relu6<T>, T>::launch(stream, {}, out, x, n); break;
    case Activation::kElu: UnaryLauncher<Elu<T>, T>::launch(stream, {}, out, x, n); break;
    case Activation::kSelu: UnaryLauncher<Selu<T>, T>::launch(stream, {}, out, x, n); break;
    case Activation::kLeakyRelu: UnaryLauncher<LeakyRelu<T>, T>::launch(stream, {T(alpha)}, out, x, n); break;
    case Activation::kSoftplus:
        UnaryLauncher<Softplus<T>, T>::launch(stream, {softplusThreshold<T>()}, out, x, n);
        break;
    case Activation::kSoftsign: UnaryLauncher<Softsign<T>, T>::launch(stream, {}, out, x, n); break;
    }
}

template <typename T>
void launchActivationGrad(cudaStream_t stream, Activation activation, T* out, const T* gradients, const T* x,
                          std::int64_t n, float alpha)
{
    switch (activation) {
    case Activation::kRelu: FlatBinaryLauncher<ReluGrad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    case Activation::kRelu6: FlatBinaryLauncher<Relu6Grad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    case Activation::kElu: FlatBinaryLauncher<EluGrad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    case Activation::kSelu: FlatBinaryLauncher<SeluGrad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    case Activation::kLeakyRelu:
        FlatBinaryLauncher<LeakyReluGrad<T>, T>::launch(stream, {T(alpha)}, out, gradients, x, n);
        break;
    case Activation::kSoftplus: FlatBinaryLauncher<SoftplusGrad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    case Activation::kSoftsign: FlatBinaryLauncher<SoftsignGrad<T>, T>::launch(stream, {}, out, gradients, x, n); break;
    }
}

#define TSTUDIO_ACTIVATION_GPU(T)                                                                                      \
    template void launchActivation<T>(cudaStream_t, Activation, T*, const T*, std::int64_t, float);                    \
    template void launchActivationGrad<T>(cudaStream_t, Activation, T*, const T*, const T*, std::int64_t, float);
TSTUDIO_ACTIVATION_GPU(Eigen::half)
TSTUDIO_ACTIVATION_GPU(float)
TSTUDIO_ACTIVATION_GPU(double)
#undef TSTUDIO_ACTIVATION_GPU

} // namespace tstudio::nn::gpu
