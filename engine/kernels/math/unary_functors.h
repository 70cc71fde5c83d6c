// Scalar math of the unary element-wise ops (Neg ... IsInf, Sin ... Atan) and of the gradient helpers
// (TanhGrad ... ReciprocalGrad), written once for every device.
//
// Where TensorFlow uses one of Eigen's functors (scalar_exp_op, scalar_logistic_op, ...) this
// header names the same one, so the numbers are Eigen's, as in TensorFlow. The others are
// Eigen-style functors with `operator()` and, where vectorised, `packetOp`; their costs are the
// functor_traits at the end. C++17 (nvcc compiles it); depends on Eigen only.
#pragma once

#include "kernels/math/binary_functors.h"

#include <Eigen/Core>

#include <cmath>
#include <complex>
#include <type_traits>

namespace tstudio::functor {

// --- Eigen's own functors, as TensorFlow uses them ------------------------------------------------------

/// 1 / sqrt(x) (Eigen's vectorised rsqrt for float).
template <typename T> using RsqrtOp = Eigen::internal::scalar_rsqrt_op<T>;
template <typename T> using ExpOp = Eigen::internal::scalar_exp_op<T>;
template <typename T> using LogOp = Eigen::internal::scalar_log_op<T>;
template <typename T> using Log1pOp = Eigen::internal::scalar_log1p_op<T>;
template <typename T> using TanhOp = Eigen::internal::scalar_tanh_op<T>;
/// 1 / (1 + exp(-x)) (Eigen's logistic function; a rational approximation for float).
template <typename T> using SigmoidOp = Eigen::internal::scalar_logistic_op<T>;
template <typename T> using FloorOp = Eigen::internal::scalar_floor_op<T>;
template <typename T> using CeilOp = Eigen::internal::scalar_ceil_op<T>;
/// 1 / x.
template <typename T> using ReciprocalOp = Eigen::internal::scalar_inverse_op<T>;
/// Trigonometric functions in radians (float sin and cos vectorised by Eigen, with its careful
/// reduction of huge arguments; the others call the C library element by element).
template <typename T> using SinOp = Eigen::internal::scalar_sin_op<T>;
template <typename T> using CosOp = Eigen::internal::scalar_cos_op<T>;
template <typename T> using TanOp = Eigen::internal::scalar_tan_op<T>;
template <typename T> using AsinOp = Eigen::internal::scalar_asin_op<T>;
template <typename T> using AcosOp = Eigen::internal::scalar_acos_op<T>;
template <typename T> using AtanOp = Eigen::internal::scalar_atan_op<T>;

// --- Functors of our own ------------------------------------------------------------------------------

/// Exact square roots of packets: the x86 vector instructions (sqrtps, vsqrtps) for float packets,
/// IEEE square roots correctly rounded as the scalar one; Eigen's psqrt otherwise (exact for double
/// packets; for float packets under EIGEN_FAST_MATH an approximation, so none is used for those).
#if defined(EIGEN_VECTORIZE_SSE) && !defined(EIGEN_GPU_COMPILE_PHASE)
inline constexpr bool kExactFloatSqrtPackets = true;
inline Eigen::internal::Packet4f exactSqrt(const Eigen::internal::Packet4f& a)
{
    return _mm_sqrt_ps(a);
}
#if defined(EIGEN_VECTORIZE_AVX)
inline Eigen::internal::Packet8f exactSqrt(const Eigen::internal::Packet8f& a)
{
    return _mm256_sqrt_ps(a);
}
#endif
#if defined(EIGEN_VECTORIZE_AVX512)
inline Eigen::internal::Packet16f exactSqrt(const Eigen::internal::Packet16f& a)
{
    return _mm512_sqrt_ps(a);
}
#endif
#else
inline constexpr bool kExactFloatSqrtPackets = false;
#endif
template <typename Packet> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet exactSqrt(const Packet& a)
{
    return Eigen::internal::psqrt(a);
}

/// sqrt(x), correctly rounded. Not Eigen's scalar_sqrt_op: under EIGEN_FAST_MATH (Eigen's default)
/// its SSE float packets use an rsqrt approximation that loses 1-2 bits, flushes denormals and
/// turns +inf into NaN. Vectorised with exactSqrt: element for element the scalar result.
template <typename T> struct SqrtOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a) const { return Eigen::numext::sqrt(a); }
    template <typename Packet> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a) const
    {
        return exactSqrt(a);
    }
};

/// -x (integers wrap: -MIN is MIN).
template <typename T> struct NegOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a) const { return wrappingNeg(a); }
    template <typename Packet> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a) const
    {
        return Eigen::internal::pnegate(a);
    }
};

/// |x| (integers wrap: |MIN| is MIN).
template <typename T> struct AbsOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a) const
    {
        if constexpr (kIsWrappingInt<T>)
            return a < T(0) ? wrappingNeg(a) : a;
        else
            return Eigen::numext::abs(a);
    }
    template <typename Packet> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a) const
    {
        return Eigen::internal::pabs(a);
    }
};

/// -1, 0 or 1 by the sign of x; 0 for NaN and for ±0, as TensorFlow 1.x (whose Eigen computed
/// (x > 0) - (x < 0); NumPy and later TensorFlow give NaN for NaN). Complex: x / |x|, 0 for 0.
template <typename T> struct SignOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a) const
    {
        if constexpr (IsComplex<T>::value) {
            using R = typename T::value_type;
            R magnitude = std::abs(a);
            if (magnitude == R(0))
                return T(0);
            magnitude = R(1) / magnitude;
            return T(a.real() * magnitude, a.imag() * magnitude);
        } else {
            return T(static_cast<float>(static_cast<int>(a > T(0)) - static_cast<int>(a < T(0))));
        }
    }
};

/// x * x (integers wrap).
template <typename T> struct SquareOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a) const { return wrappingMul(a, a); }
    template <typename Packet> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a) const
    {
        return Eigen::internal::pmul(a, a);
    }
};

/// Rounds half to even (banker's rounding), exactly, as TensorFlow 1.x's scalar_round_op_google:
/// floor(x), then up when the fraction is above one half, or exactly one half and floor(x) odd.
/// Integers are unchanged.
template <typename T> struct RoundOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& x) const
    {
        if constexpr (std::is_integral_v<T>) {
            return x;
        } else {
            T rounded = Eigen::numext::floor(x);
            const T fraction = x - rounded;
            if (fraction > T(0.5)) {
                rounded = rounded + T(1);
            } else if (fraction == T(0.5)) {
                const T nearestEven = rounded - T(2) * Eigen::numext::floor(T(0.5) * x);
                if (nearestEven == T(1))
                    rounded = rounded + T(1);
            }
            return rounded;
        }
    }
};

template <typename T> struct IsNanOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a) const { return (Eigen::numext::isnan)(a); }
};
template <typename T> struct IsInfOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a) const { return (Eigen::numext::isinf)(a); }
};
template <typename T> struct IsFiniteOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a) const { return (Eigen::numext::isfinite)(a); }
};

template <typename T = bool> struct LogicalNotOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const bool& a) const { return !a; }
};

// --- Gradient helpers: f(y, dy) with y the forward op's output ------------------------------------------
// The formulas and their order of evaluation are TensorFlow's (core/kernels/cwise_ops_gradients.h).

template <typename T> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T conjugate(const T& a)
{
    if constexpr (IsComplex<T>::value)
        return std::conj(a);
    else
        return a;
}

/// dy * (1 - y * y).
template <typename T> struct TanhGradOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& y, const T& dy) const { return dy * (T(1) - y * y); }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& y, const Packet& dy) const
    {
        using namespace Eigen::internal;
        return pmul(dy, psub(pset1<Packet>(T(1)), pmul(y, y)));
    }
};

/// dy * y * (1 - y).
template <typename T> struct SigmoidGradOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& y, const T& dy) const { return dy * y * (T(1) - y); }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& y, const Packet& dy) const
    {
        using namespace Eigen::internal;
        return pmul(dy, pmul(y, psub(pset1<Packet>(T(1)), y)));
    }
};

/// -dy * conj(y) * conj(y).
template <typename T> struct ReciprocalGradOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& y, const T& dy) const
    {
        const T c = conjugate(y);
        return -dy * c * c;
    }
};

/// 0.5 * dy / conj(y).
template <typename T> struct SqrtGradOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& y, const T& dy) const
    {
        return T(0.5) * dy / conjugate(y);
    }
};

/// -0.5 * (dy * conj(y)) * (conj(y) * conj(y)).
template <typename T> struct RsqrtGradOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& y, const T& dy) const
    {
        const T c = conjugate(y);
        return T(-0.5) * (dy * c) * (c * c);
    }
};

} // namespace tstudio::functor

namespace Eigen::internal {

template <typename T> struct functor_traits<tstudio::functor::SqrtOp<T>> {
    enum {
        Cost = 5 * NumTraits<T>::MulCost,
        PacketAccess = (std::is_same_v<T, double> && packet_traits<T>::HasSqrt) ||
                       (std::is_same_v<T, float> && tstudio::functor::kExactFloatSqrtPackets)
    };
};
template <typename T> struct functor_traits<tstudio::functor::NegOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = packet_traits<T>::HasNegate };
};
template <typename T> struct functor_traits<tstudio::functor::AbsOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = !NumTraits<T>::IsInteger && packet_traits<T>::HasAbs };
};
template <typename T> struct functor_traits<tstudio::functor::SquareOp<T>> {
    enum { Cost = NumTraits<T>::MulCost, PacketAccess = packet_traits<T>::HasMul };
};
template <typename T> struct functor_traits<tstudio::functor::TanhGradOp<T>> {
    enum {
        Cost = NumTraits<T>::AddCost + 2 * NumTraits<T>::MulCost,
        PacketAccess = !NumTraits<T>::IsComplex && packet_traits<T>::HasSub && packet_traits<T>::HasMul,
    };
};
template <typename T> struct functor_traits<tstudio::functor::SigmoidGradOp<T>> {
    enum {
        Cost = NumTraits<T>::AddCost + 2 * NumTraits<T>::MulCost,
        PacketAccess = !NumTraits<T>::IsComplex && packet_traits<T>::HasSub && packet_traits<T>::HasMul,
    };
};

} // namespace Eigen::internal
