// Opens a translation unit compiled for one x86-64 instruction set with its own copy of Eigen:
// included first by the <kernel>_<isa>.cpp units of kernels that pick a build at run time (the
// GEMM tiles, the softmax cross-entropy rows). Close the unit with isa_unit_end.h.
//
// Before including, define exactly one of TSTUDIO_ISA_UNIT_BASELINE, TSTUDIO_ISA_UNIT_AVX2 or
// TSTUDIO_ISA_UNIT_AVX512, and TSTUDIO_ISA_UNIT_EIGEN: a namespace name for Eigen unique to the
// unit. Afterwards TSTUDIO_ISA_UNIT_NAME is "baseline", "avx2" or "avx512" and
// TSTUDIO_ISA_UNIT_FUNCTION(f) names the unit's exported function (fBaseline, fAvx2, fAvx512); where the unit cannot
// be built for its set (not x86-64, or not GCC, whose pragma this uses) TSTUDIO_ISA_UNIT_UNAVAILABLE
// is defined instead, Eigen is not included, and the unit should answer with its baseline build.
//
// How one source gives three builds of Eigen's code without special compiler flags:
// 1. Every standard header Eigen/Core uses is included first, so those functions are compiled for
//    the baseline target whatever follows.
// 2. `#pragma GCC target` switches the instruction set for the code after it, and the matching
//    __AVX2__/__FMA__/__AVX512F__... macros are defined by hand (GCC's C++ front end does not
//    define them for a pragma), so Eigen selects its AVX2 or AVX-512 packet code.
// 3. `#define Eigen <unique name>` renames Eigen's namespace in this unit. Its templates therefore
//    get their own symbol names and the linker can never merge an AVX-512 instantiation with the
//    baseline one that the rest of the engine uses (an ODR violation that would run AVX-512 code
//    on any CPU). Only the unit's own plain functions should be visible outside.

#if defined(TSTUDIO_ISA_UNIT_AVX512) && defined(__GNUC__) && !defined(__clang__)
// GCC 12 warns about the deliberately undefined registers inside its own AVX-512 intrinsics
// (_mm512_undefined_*, GCC bug 105593) wherever they are inlined; the diagnostics point into
// avx512fintrin.h, so they are silenced for the whole unit, before that header is read.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if !defined(TSTUDIO_ISA_UNIT_EIGEN)
#error "define TSTUDIO_ISA_UNIT_EIGEN (a namespace name for this unit's Eigen) before isa_unit_begin.h"
#endif

#if (!defined(__x86_64__) || !defined(__GNUC__) || defined(__clang__)) &&                                              \
    (defined(TSTUDIO_ISA_UNIT_AVX512) || defined(TSTUDIO_ISA_UNIT_AVX2))
#define TSTUDIO_ISA_UNIT_UNAVAILABLE
#elif defined(TSTUDIO_ISA_UNIT_AVX512) || defined(TSTUDIO_ISA_UNIT_AVX2)
#pragma GCC push_options
#if defined(TSTUDIO_ISA_UNIT_AVX512)
#define TSTUDIO_ISA_UNIT_NAME "avx512"
#define TSTUDIO_ISA_UNIT_SUFFIX Avx512
#pragma GCC target("avx512f,avx512vl,avx512dq,avx512bw,avx512cd,avx2,fma,f16c,avx,sse4.2,sse4.1,ssse3,sse3,popcnt")
#ifndef __AVX512F__
#define __AVX512F__ 1
#define __AVX512VL__ 1
#define __AVX512DQ__ 1
#define __AVX512BW__ 1
#define __AVX512CD__ 1
#endif
#else
#define TSTUDIO_ISA_UNIT_NAME "avx2"
#define TSTUDIO_ISA_UNIT_SUFFIX Avx2
#pragma GCC target("avx2,fma,f16c,avx,sse4.2,sse4.1,ssse3,sse3,popcnt")
#endif
#ifndef __AVX2__
#define __SSE3__ 1
#define __SSSE3__ 1
#define __SSE4_1__ 1
#define __SSE4_2__ 1
#define __AVX__ 1
#define __AVX2__ 1
#define __FMA__ 1
#define __F16C__ 1
#endif
#elif defined(TSTUDIO_ISA_UNIT_BASELINE)
#define TSTUDIO_ISA_UNIT_NAME "baseline"
#define TSTUDIO_ISA_UNIT_SUFFIX Baseline
#else
#error "define one of TSTUDIO_ISA_UNIT_BASELINE, TSTUDIO_ISA_UNIT_AVX2, TSTUDIO_ISA_UNIT_AVX512"
#endif

/// TSTUDIO_ISA_UNIT_FUNCTION(name): name with the unit's set appended (nameAvx2 ...), the one
/// function a unit exports; in an unavailable unit it still names the unit's own set.
#define TSTUDIO_ISA_UNIT_CONCAT_(a, b) a##b
#define TSTUDIO_ISA_UNIT_CONCAT(a, b) TSTUDIO_ISA_UNIT_CONCAT_(a, b)
#if defined(TSTUDIO_ISA_UNIT_UNAVAILABLE) && defined(TSTUDIO_ISA_UNIT_AVX512)
#define TSTUDIO_ISA_UNIT_FUNCTION(name) name##Avx512
#elif defined(TSTUDIO_ISA_UNIT_UNAVAILABLE)
#define TSTUDIO_ISA_UNIT_FUNCTION(name) name##Avx2
#else
#define TSTUDIO_ISA_UNIT_FUNCTION(name) TSTUDIO_ISA_UNIT_CONCAT(name, TSTUDIO_ISA_UNIT_SUFFIX)
#endif

#ifndef TSTUDIO_ISA_UNIT_UNAVAILABLE
#define Eigen TSTUDIO_ISA_UNIT_EIGEN
#endif
