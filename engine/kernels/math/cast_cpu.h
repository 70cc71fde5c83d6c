// Cast on the CPU: the CpuDevice CastFunctor and the per-source-type tables of conversion
// functions, instantiated in cast_from_*_cpu.cpp so that the 225 type pairs compile in parallel.
#pragma once

#ifndef EIGEN_USE_THREADS
#error "define EIGEN_USE_THREADS before the first include of a file that includes kernels/math/cast_cpu.h"
#endif

#include "framework/data_type.h"
#include "devices/cpu/cpu_parallel.h"
#include "framework/tensor.h"
#include "kernels/math/cast.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tstudio {

/// The dtypes Cast converts between (quantized dtypes travel as their storage integers).
using CastTypes =
    TypeList<bool, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t, std::int16_t, std::int32_t,
             std::int64_t, Eigen::half, Eigen::bfloat16, float, double, std::complex<float>, std::complex<double>>;

/// Whether From -> To is a plain static_cast that the compiler converts a vector at a time: two
/// built-in numbers other than bool, no Truncate bits, and not floating to integer (castValue
/// saturates that one, and NaN becomes 0, where a vector conversion is undefined).
template <typename From, typename To>
inline constexpr bool kVectorCast =
    std::is_arithmetic_v<From>&& std::is_arithmetic_v<To> && !std::is_same_v<From, bool> && !std::is_same_v<To, bool> &&
    functor::kTruncatedBits<From, To> == 0 && !(std::is_integral_v<To> && std::is_floating_point_v<From>);

/// Whether a vector cast from a byte integer to a 4-byte type goes through int16 lanes first:
/// every int8 and uint8 value is an int16, and int16 -> To gives what int8/uint8 -> To gives (sign
/// or zero extension, then the same conversion), so the values are static_cast's. (8-byte targets
/// stay element-wise either way with GCC 12 at -O2, so they keep the direct conversion.)
template <typename From, typename To>
inline constexpr bool kWidenThroughInt16 = kVectorCast<From, To>&& std::is_integral_v<From> && sizeof(From) == 1 &&
                                           sizeof(To) == 4;

/// A GCC/Clang vector of 16 T (vector_size does not apply to a dependent alias, only to a typedef).
template <typename T> struct VectorOf16 {
    typedef T type __attribute__((vector_size(16 * sizeof(T))));
};

template <typename From, typename To> struct CastFunctor<Eigen::ThreadPoolDevice, From, To> {
    void operator()(const Eigen::ThreadPoolDevice& device, To* out, const From* in, std::int64_t n, bool truncate) const
    {
        const functor::CastOp<From, To> op{truncate};
        cpuParallelFor(device, n, Eigen::TensorOpCost(double(sizeof(From)), double(sizeof(To)), 2.0),
                           [&](Eigen::Index first, Eigen::Index last) {
                               Eigen::Index i = first;
                               if constexpr (kVectorCast<From, To>) {
                                   // 16 elements per step through the compiler's vector conversion
                                   // (SSE on every x86-64): -O2 leaves the plain loop scalar, which
                                   // costs one conversion instruction per element. Same values:
                                   // each element converts as static_cast does (castValue here).
                                   using FromVector = typename VectorOf16<From>::type;
                                   using ToVector = typename VectorOf16<To>::type;
                                   for (; i + 16 <= last; i += 16) {
                                       FromVector a;
                                       std::memcpy(&a, in + i, sizeof a);
                                       ToVector b;
                                       if constexpr (kWidenThroughInt16<From, To>) {
                                           // GCC 12 converts bytes to 32-bit lanes one element at
                                           // a time (uint8 -> float: ~1 ns per element, 7x the
                                           // two steps); bytes to int16 and int16 to 32 bits are
                                           // vector unpacks.
                                           using Int16Vector = typename VectorOf16<std::int16_t>::type;
                                           b = __builtin_convertvector(__builtin_convertvector(a, Int16Vector),
                                                                       ToVector);
                                       } else {
                                           b = __builtin_convertvector(a, ToVector);
                                       }
                                       std::memcpy(out + i, &b, sizeof b);
                                   }
                               }
                               for (; i < last; ++i)
                                   out[i] = op(in[i]);
                           });
    }
};

/// Converts every element of `in` into `out` (same number of elements; dtypes whose storage types
/// are From and To).
using CastFunction = void (*)(const Eigen::ThreadPoolDevice& device, const Tensor& in, Tensor& out, bool truncate);

template <typename From, typename To>
void castTensor(const Eigen::ThreadPoolDevice& device, const Tensor& in, Tensor& out, bool truncate)
{
    if (in.numElements() > 0)
        CastFunctor<Eigen::ThreadPoolDevice, From, To>()(device, out.data<To>(), in.data<From>(), in.numElements(),
                                                         truncate);
}

/// The conversion from From to the dtype `to` (a storage dtype of CastTypes), or nullptr.
template <typename From> CastFunction castFunctionFrom(DataType to)
{
    CastFunction function = nullptr;
    (void)dispatchDataType<CastTypes>(to, [&](auto tag) {
        using To = typename decltype(tag)::type;
        function = &castTensor<From, To>;
    });
    return function;
}

// Instantiated in cast_from_float_cpu.cpp, cast_from_int_cpu.cpp and cast_from_other_cpu.cpp.
#define TSTUDIO_CAST_FROM(From) extern template CastFunction castFunctionFrom<From>(DataType to);
TSTUDIO_CAST_FROM(bool)
TSTUDIO_CAST_FROM(std::uint8_t)
TSTUDIO_CAST_FROM(std::uint16_t)
TSTUDIO_CAST_FROM(std::uint32_t)
TSTUDIO_CAST_FROM(std::uint64_t)
TSTUDIO_CAST_FROM(std::int8_t)
TSTUDIO_CAST_FROM(std::int16_t)
TSTUDIO_CAST_FROM(std::int32_t)
TSTUDIO_CAST_FROM(std::int64_t)
TSTUDIO_CAST_FROM(Eigen::half)
TSTUDIO_CAST_FROM(Eigen::bfloat16)
TSTUDIO_CAST_FROM(float)
TSTUDIO_CAST_FROM(double)
TSTUDIO_CAST_FROM(std::complex<float>)
TSTUDIO_CAST_FROM(std::complex<double>)
#undef TSTUDIO_CAST_FROM

} // namespace tstudio
