// Activation functors (Relu, Relu6, Elu, Selu, LeakyRelu, Softplus, Softsign) and their gradients,
// written once as Eigen expressions for any Eigen device, with TensorFlow 1.15's formulas.
#pragma once

#include "framework/tensor.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <type_traits>

namespace tstudio::nn {

/// The fixed constants of Selu (Klambauer et al.), as TensorFlow writes them.
inline constexpr double kSeluScale = 1.0507009873554804934193349852946;
inline constexpr double kSeluScaleAlpha = 1.7580993408473768599402175208123;

// Forward functors: features -> activations, any shape (flat views), same size.

/// max(x, 0); NaN stays NaN (TensorFlow's later PropagateNaN; 1.15 left NaN unspecified).
template <typename Device, typename T> struct ReluFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        y.device(d) = x.template cwiseMax<Eigen::PropagateNaN>(T(0));
    }
};

/// min(max(x, 0), 6).
template <typename Device, typename T> struct Relu6Functor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        y.device(d) = x.template cwiseMax<Eigen::PropagateNaN>(T(0)).template cwiseMin<Eigen::PropagateNaN>(T(6));
    }
};

/// exp(x) - 1 below zero (not expm1, as TensorFlow), x elsewhere.
template <typename Device, typename T> struct EluFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        y.device(d) = (x < T(0)).select(x.exp() - x.constant(T(1)), x);
    }
};

/// scale_alpha * (exp(x) - 1) below zero, scale * x elsewhere.
template <typename Device, typename T> struct SeluFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        const T scale(kSeluScale);
        const T scaleAlpha(kSeluScaleAlpha);
        y.device(d) = (x < T(0)).select(scaleAlpha * (x.exp() - x.constant(T(1))), scale * x);
    }
};

/// x where x > 0, alpha * x elsewhere (alpha may be > 1 or negative, so no max()).
template <typename Device, typename T> struct LeakyReluFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, T alpha, FlatTensor<T> y) const
    {
        y.device(d) = (x > T(0)).select(x, x * alpha);
    }
};

/// log(exp(x) + 1), TensorFlow's stable form: with threshold = log(epsilon) + 2 (in T), x above
/// -threshold, exp(x) below threshold, log1p(exp(x)) between.
template <typename Device, typename T> struct SoftplusFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        const T threshold = T(Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2));
        auto tooLarge = x > x.constant(-threshold);
        auto tooSmall = x < x.constant(threshold);
        auto e = x.exp();
        y.device(d) = tooLarge.select(x, tooSmall.select(e, e.log1p()));
    }
};

/// x / (|x| + 1).
template <typename Device, typename T> struct SoftsignFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> x, FlatTensor<T> y) const
    {
        y.device(d) = x / (x.abs() + x.constant(T(1)));
    }
};

// Gradient functors: (gradients, forward input or output) -> backprops.

/// out[i] = g[i] * (x[i] > 0 ? 1 : 0) for i < n: ReluGradFunctor's arithmetic on Eigen's packets
/// (a compare, a mask of 1s and a product). Eigen's own expression casts the boolean comparison
/// one element at a time, and GCC does not vectorise the plain loop at -O2. out may be g or x
/// itself, not a partial overlap.
template <typename T> inline void reluGradLoop(const T* g, const T* x, T* out, Eigen::Index n)
{
    namespace ei = Eigen::internal;
    using Packet = typename ei::packet_traits<T>::type;
    constexpr Eigen::Index kSize = ei::packet_traits<T>::size;
    const Packet zero = ei::pset1<Packet>(T(0));
    const Packet one = ei::pset1<Packet>(T(1));
    Eigen::Index i = 0;
    for (; i + kSize <= n; i += kSize) {
        const Packet positive = ei::pcmp_lt(zero, ei::ploadu<Packet>(x + i));
        ei::pstoreu(out + i, ei::pmul(ei::ploadu<Packet>(g + i), ei::pand(positive, one)));
    }
    for (; i < n; ++i)
        out[i] = g[i] * (x[i] > T(0) ? T(1) : T(0));
}

/// g where the Relu's input (or output) is > 0, else 0 (g * 0 elsewhere, so NaN and infinite
/// gradients give NaN there, as TensorFlow's product does).
template <typename Device, typename T> struct ReluGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> x, FlatTensor<T> out) const
    {
        if constexpr (std::is_same_v<Device, Eigen::ThreadPoolDevice> &&
                      (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
            const Eigen::TensorOpCost cost(double(2 * sizeof(T)), double(sizeof(T)), 2.0);
            cpuParallelFor(d, g.size(), cost, [&](Eigen::Index begin, Eigen::Index end) {
                reluGradLoop(g.data() + begin, x.data() + begin, out.data() + begin, end - begin);
            });
        } else {
            out.device(d) = g * (x > T(0)).template cast<T>();
        }
    }
};

/// g where 0 < x < 6, else 0.
template <typename Device, typename T> struct Relu6GradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> x, FlatTensor<T> out) const
    {
        out.device(d) = g * ((x > T(0)) && (x < T(6))).template cast<T>();
    }
};

/// From the Elu's outputs a: (a + 1) * g below zero, g elsewhere.
template <typename Device, typename T> struct EluGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> a, FlatTensor<T> out) const
    {
        out.device(d) = (a < T(0)).select((a + a.constant(T(1))) * g, g);
    }
};

/// From the Selu's outputs a: g * (a + scale_alpha) below zero, g * scale elsewhere.
template <typename Device, typename T> struct SeluGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> a, FlatTensor<T> out) const
    {
        const T scale(kSeluScale);
        const T scaleAlpha(kSeluScaleAlpha);
        out.device(d) = (a < T(0)).select(g * (a + a.constant(scaleAlpha)), g * scale);
    }
};

/// g where x > 0, alpha * g elsewhere.
template <typename Device, typename T> struct LeakyReluGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> x, T alpha, FlatTensor<T> out) const
    {
        out.device(d) = (x > T(0)).select(g, g * alpha);
    }
};

/// g / (exp(-x) + 1), i.e. g * sigmoid(x).
template <typename Device, typename T> struct SoftplusGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> x, FlatTensor<T> out) const
    {
        out.device(d) = g / ((-x).exp() + x.constant(T(1)));
    }
};

/// g / (1 + |x|)^2.
template <typename Device, typename T> struct SoftsignGradFunctor {
    void operator()(const Device& d, ConstFlatTensor<T> g, ConstFlatTensor<T> x, FlatTensor<T> out) const
    {
        out.device(d) = g / (x.abs() + x.constant(T(1))).square();
    }
};

} // namespace tstudio::nn
