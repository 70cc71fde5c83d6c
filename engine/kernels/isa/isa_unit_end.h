// Closes a translation unit opened with isa_unit_begin.h: Eigen's name and the instruction set
// go back to the engine's.
#ifndef TSTUDIO_ISA_UNIT_UNAVAILABLE
#undef Eigen
#if defined(TSTUDIO_ISA_UNIT_AVX512) || defined(TSTUDIO_ISA_UNIT_AVX2)
#pragma GCC pop_options
#endif
#endif
