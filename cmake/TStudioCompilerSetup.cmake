# Compiler launcher (ccache) and warning flags shared by every target.
find_program(TSTUDIO_CCACHE ccache)
if(TSTUDIO_CCACHE)
    set(CMAKE_C_COMPILER_LAUNCHER "${TSTUDIO_CCACHE}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${TSTUDIO_CCACHE}")
    set(CMAKE_CUDA_COMPILER_LAUNCHER "${TSTUDIO_CCACHE}")
    message(STATUS "ccache: ${TSTUDIO_CCACHE}")
endif()

# LLVM's lld (Debian's lld package) links C++ programs when the compiler can use it: the ~340 test
# executables each link the whole static engine, and lld does that about 3x faster than GNU ld.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" TSTUDIO_HAVE_LLD)
if(TSTUDIO_HAVE_LLD)
    add_link_options($<$<LINK_LANGUAGE:CXX>:-fuse-ld=lld>)
    message(STATUS "Linker: lld")
endif()

# RelWithDebInfo keeps line tables only (-g1): enough for backtraces and profilers, while full
# debug info of the kernels' template instantiations would multiply build time and binary size.
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "" FORCE)
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "" FORCE)

# Warnings for our own code; applied per target so generated protobuf code stays quiet.
function(tstudio_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>)
endfunction()

# ccache caches sources compiled with a precompiled header only when told that the header's macros
# and its fresh timestamp may be ignored (ccache's manual, "Precompiled headers").
function(tstudio_ccache_pch_sloppiness target)
    if(TSTUDIO_CCACHE)
        set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER env
            CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime "${TSTUDIO_CCACHE}")
    endif()
endfunction()

# Precompiled headers for the product's libraries and programs. Most of a source file's compile
# time was parsing the same headers: compiled without one (g++ 12, -O2 -g1, alone, 2026-11-26),
# kernels/nn/bias_add_cpu.cpp took 19.5 s, 11.3 of them with -fsyntax-only, and a file holding only
# #include "framework/kernel_registry.h" 4.0 s. What two compiles at once gain is less: README.md's
# build times.
# tstudio_precompile(TARGET HEADER...) precompiles HEADER... (angle brackets, found on TARGET's
# include path) once per target and includes it first in every C++ source of TARGET; sources named
# by TSTUDIO_PCH_SKIP_REGEX (per-instruction-set units, which define macros before their first
# include and are compiled with their own -m flags) are compiled without it. A header in the list
# must not change meaning with a macro a source defines before including it; Eigen's
# EIGEN_USE_THREADS is therefore defined for every engine target (engine/CMakeLists.txt).
# -DTSTUDIO_PCH=OFF compiles every source on its own, as a check that each includes what it uses.
option(TSTUDIO_PCH "Compile the product's libraries with precompiled headers" ON)
set(TSTUDIO_PCH_SKIP_REGEX "_(baseline|avx2|avx512)\\.cpp$")
function(tstudio_precompile target)
    if(NOT TSTUDIO_PCH)
        return()
    endif()
    target_precompile_headers(${target} PRIVATE ${ARGN})
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
        if(source MATCHES "${TSTUDIO_PCH_SKIP_REGEX}")
            set_source_files_properties("${source}" TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
        endif()
    endforeach()
    tstudio_ccache_pch_sloppiness(${target})
endfunction()
