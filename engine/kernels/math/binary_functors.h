// Scalar math of the binary element-wise ops (Add ... LogicalOr), written once for every device.
//
// Each functor is an Eigen-style functor: `operator()(a, b)` on scalars and, where Eigen has the
// packet primitives, `packetOp(a, b)` on SIMD packets, with its cost and vectorisability in an
// Eigen::internal::functor_traits specialisation at the end of this file. The CPU kernels apply
// them through engine/kernels/math/cwise_cpu.h; a CUDA backend can apply the same functors.
// This header is C++17 (nvcc compiles it) and depends on Eigen only.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>

namespace tstudio::functor {

template <typename T> struct IsComplex : std::false_type {
};
template <typename T> struct IsComplex<std::complex<T>> : std::true_type {
};

/// Integers whose arithmetic wraps around (two's complement) instead of being undefined on
/// overflow, as TensorFlow's kernels behave in practice.
template <typename T> inline constexpr bool kIsWrappingInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

namespace detail {
/// The unsigned type the arithmetic of T is done in: at least `unsigned`, so that small types
/// are not promoted to (overflowing) int.
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
} // namespace detail

template <typename T> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T wrappingAdd(const T& a, const T& b)
{
    if constexpr (kIsWrappingInt<T>) {
        using W = detail::WrapType<T>;
        return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
    } else {
        return a + b;
    }
}

template <typename T> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T wrappingSub(const T& a, const T& b)
{
    if constexpr (kIsWrappingInt<T>) {
        using W = detail::WrapType<T>;
        return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
    } else {
        return a - b;
    }
}

template <typename T> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T wrappingMul(const T& a, const T& b)
{
    if constexpr (kIsWrappingInt<T>) {
        using W = detail::WrapType<T>;
        return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
    } else {
        return a * b;
    }
}

template <typename T> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T wrappingNeg(const T& a)
{
    if constexpr (kIsWrappingInt<T>) {
        using W = detail::WrapType<T>;
        return static_cast<T>(W(0) - static_cast<W>(a));
    } else {
        return -a;
    }
}

// --- Arithmetic ---------------------------------------------------------------------------------------

/// x + y (strings are concatenated, as TensorFlow's Add does).
template <typename T> struct AddOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const { return wrappingAdd(a, b); }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::padd(a, b);
    }
};

/// x - y.
template <typename T> struct SubOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const { return wrappingSub(a, b); }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::psub(a, b);
    }
};

/// x * y.
template <typename T> struct MulOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const { return wrappingMul(a, b); }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::pmul(a, b);
    }
};

/// x / y for floating-point and complex numbers (IEEE: x/0 is ±inf or NaN).
template <typename T> struct TrueDivOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const { return a / b; }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::pdiv(a, b);
    }
};

/// DivNoNan: x / y, and 0 wherever y == 0 (also for x = 0, inf or NaN); a NaN y still gives NaN.
template <typename T> struct DivNoNanOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        // Not `b != 0`: on a GPU, half's != is CUDA's ordered __hne, false for a NaN b.
        return b == T(0) ? T(0) : T(a / b);
    }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        const Packet isZero = Eigen::internal::pcmp_eq(b, Eigen::internal::pzero(b));
        return Eigen::internal::pandnot(Eigen::internal::pdiv(a, b), isZero);
    }
};

/// x / y for integers, rounding toward zero as C does. The kernel rejects a zero divisor before
/// computing ("Integer division by zero"); the functor still returns 0 for it and wraps
/// MIN / -1 to MIN, so that no input can trap.
template <typename T> struct TruncDivOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if (b == T(0))
            return T(0);
        if constexpr (std::is_signed_v<T>) {
            if (b == T(-1))
                return wrappingNeg(a);
        }
        return static_cast<T>(a / b);
    }
};

/// Div: true division for floating-point and complex numbers, truncating for integers.
template <typename T> using DivOp = std::conditional_t<std::is_integral_v<T>, TruncDivOp<T>, TrueDivOp<T>>;

/// FloorDiv: floor(x / y). Integers round the quotient toward negative infinity (TensorFlow's
/// google_floor_div, computed without its overflow); floating-point types compute floor(x / y)
/// in T, as TensorFlow's google_floor_div_real does (this differs from NumPy's floor_divide,
/// which is exact: 1.0 // 0.1 is 9 in NumPy and floor(1.0 / 0.1) = 10 in TensorFlow).
template <typename T> struct FloorDivOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if constexpr (std::is_integral_v<T>) {
            if (b == T(0))
                return T(0);
            if constexpr (std::is_signed_v<T>) {
                if (b == T(-1))
                    return wrappingNeg(a);
                const T q = static_cast<T>(a / b);
                const T r = static_cast<T>(a % b);
                return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? static_cast<T>(q - T(1)) : q;
            } else {
                return static_cast<T>(a / b);
            }
        } else {
            return Eigen::numext::floor(a / b);
        }
    }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::pfloor(Eigen::internal::pdiv(a, b));
    }
};

/// FloorMod: the remainder of flooring division; it has the sign of y (TensorFlow's
/// google_floor_mod / google_floor_fmod: the truncated remainder, plus y when the signs differ).
/// Integer zero divisors are rejected by the kernel; the functor returns 0 for them.
template <typename T> struct FloorModOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if constexpr (std::is_integral_v<T>) {
            if (b == T(0))
                return T(0);
            if constexpr (std::is_signed_v<T>) {
                if (b == T(-1))
                    return T(0); // MIN % -1 traps on x86; the remainder is 0 for every a
                const T r = static_cast<T>(a % b);
                return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? static_cast<T>(r + b) : r;
            } else {
                return static_cast<T>(a % b);
            }
        } else {
            const T r = Eigen::numext::fmod(a, b);
            return (r != T(0) && ((b < T(0)) != (r < T(0)))) ? T(r + b) : r;
        }
    }
};

/// max(x, y); NaN if either is NaN (NumPy's maximum; TensorFlow 1.15's result for NaN depended on
/// whether the element was vectorised).
template <typename T> struct MaximumOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if constexpr (!std::is_integral_v<T>) {
            if (Eigen::numext::isnan(a))
                return a;
            if (Eigen::numext::isnan(b))
                return b;
        }
        return a < b ? b : a;
    }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::pmax<Eigen::PropagateNaN>(a, b);
    }
};

/// min(x, y); NaN if either is NaN.
template <typename T> struct MinimumOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if constexpr (!std::is_integral_v<T>) {
            if (Eigen::numext::isnan(a))
                return a;
            if (Eigen::numext::isnan(b))
                return b;
        }
        return b < a ? b : a;
    }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        return Eigen::internal::pmin<Eigen::PropagateNaN>(a, b);
    }
};

/// x ** y: the C library's pow for floating-point and complex numbers (half and bfloat16 via
/// float); integers by repeated squaring, wrapping on overflow. Negative integer exponents are
/// rejected by the kernel ("Integers to negative integer powers are not allowed"); the functor
/// returns 0 for them.
template <typename T> struct PowOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        if constexpr (std::is_integral_v<T>) {
            if constexpr (std::is_signed_v<T>) {
                if (b < T(0))
                    return T(0);
            }
            using W = detail::WrapType<T>;
            W base = static_cast<W>(a);
            W result = 1;
            for (T e = b; e != T(0); e = static_cast<T>(e >> 1)) {
                if (e & T(1))
                    result = static_cast<W>(result * base);
                base = static_cast<W>(base * base);
            }
            return static_cast<T>(result);
        } else if constexpr (IsComplex<T>::value) {
            return std::pow(a, b);
        } else {
            return Eigen::numext::pow(a, b);
        }
    }
};

/// (x - y) * conj(x - y).
template <typename T> struct SquaredDifferenceOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE T operator()(const T& a, const T& b) const
    {
        const T d = wrappingSub(a, b);
        if constexpr (IsComplex<T>::value)
            return d * std::conj(d);
        else
            return wrappingMul(d, d);
    }
    template <typename Packet>
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Packet packetOp(const Packet& a, const Packet& b) const
    {
        const Packet d = Eigen::internal::psub(a, b);
        return Eigen::internal::pmul(d, d);
    }
};

// --- Comparisons and logic (bool results) -------------------------------------------------------------

template <typename T> struct LessOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a < b; }
};
template <typename T> struct LessEqualOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a <= b; }
};
template <typename T> struct GreaterOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a > b; }
};
template <typename T> struct GreaterEqualOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a >= b; }
};
template <typename T> struct EqualOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a == b; }
};
template <typename T> struct NotEqualOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const T& a, const T& b) const { return a != b; }
};

template <typename T = bool> struct LogicalAndOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const bool& a, const bool& b) const { return a && b; }
};
template <typename T = bool> struct LogicalOrOp {
    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE bool operator()(const bool& a, const bool& b) const { return a || b; }
};

} // namespace tstudio::functor

// --- Costs and vectorisability for Eigen's evaluators ---------------------------------------------------

namespace Eigen::internal {

template <typename T> struct functor_traits<tstudio::functor::AddOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = packet_traits<T>::HasAdd };
};
template <typename T> struct functor_traits<tstudio::functor::SubOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = packet_traits<T>::HasSub };
};
template <typename T> struct functor_traits<tstudio::functor::MulOp<T>> {
    enum { Cost = NumTraits<T>::MulCost, PacketAccess = packet_traits<T>::HasMul };
};
template <typename T> struct functor_traits<tstudio::functor::TrueDivOp<T>> {
    enum {
        PacketAccess = packet_traits<T>::HasDiv,
        Cost = scalar_div_cost<T, PacketAccess>::value,
    };
};
template <typename T> struct functor_traits<tstudio::functor::DivNoNanOp<T>> {
    enum {
        // Packets only for float and double, whose pcmp_eq / pandnot are plain bit masks.
        PacketAccess = std::is_floating_point_v<T> && packet_traits<T>::HasDiv,
        Cost = scalar_div_cost<T, PacketAccess>::value + NumTraits<T>::AddCost,
    };
};
template <typename T> struct functor_traits<tstudio::functor::TruncDivOp<T>> {
    enum { Cost = scalar_div_cost<T, false>::value + 2 * NumTraits<T>::AddCost, PacketAccess = false };
};
template <typename T> struct functor_traits<tstudio::functor::FloorDivOp<T>> {
    enum {
        PacketAccess = !NumTraits<T>::IsInteger && packet_traits<T>::HasDiv && packet_traits<T>::HasFloor,
        Cost = 2 * scalar_div_cost<T, PacketAccess>::value + 2 * NumTraits<T>::AddCost,
    };
};
template <typename T> struct functor_traits<tstudio::functor::FloorModOp<T>> {
    enum { Cost = 2 * scalar_div_cost<T, false>::value + 2 * NumTraits<T>::AddCost, PacketAccess = false };
};
template <typename T> struct functor_traits<tstudio::functor::MaximumOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = !NumTraits<T>::IsInteger && packet_traits<T>::HasMax };
};
template <typename T> struct functor_traits<tstudio::functor::MinimumOp<T>> {
    enum { Cost = NumTraits<T>::AddCost, PacketAccess = !NumTraits<T>::IsInteger && packet_traits<T>::HasMin };
};
template <typename T> struct functor_traits<tstudio::functor::PowOp<T>> {
    enum { Cost = 5 * NumTraits<T>::MulCost + 20, PacketAccess = false };
};
template <typename T> struct functor_traits<tstudio::functor::SquaredDifferenceOp<T>> {
    enum {
        Cost = NumTraits<T>::AddCost + NumTraits<T>::MulCost,
        PacketAccess = !NumTraits<T>::IsComplex && packet_traits<T>::HasSub && packet_traits<T>::HasMul,
    };
};

} // namespace Eigen::internal
