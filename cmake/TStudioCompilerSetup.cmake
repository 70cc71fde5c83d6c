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
