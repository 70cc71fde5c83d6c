# Optional CUDA: builds engine_cuda when nvcc, the CUDA runtime, cuBLAS and cuDNN are all found.
# Nothing here fails the build; without them the programs report "no GPU support compiled in".
option(TSTUDIO_ENABLE_CUDA "Build CUDA support when a toolkit and cuDNN are found" ON)
set(TSTUDIO_CUDA_ARCHITECTURES "90-real;90-virtual" CACHE STRING
    "CUDA architectures: SASS for sm_90 plus compute_90 PTX that newer GPUs JIT-compile")

set(TSTUDIO_WITH_CUDA OFF)
set(TSTUDIO_WITH_CUDA_TEXT "off (not requested)")
if(TSTUDIO_ENABLE_CUDA)
    if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
        set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
    endif()
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
        set(CMAKE_CUDA_ARCHITECTURES "${TSTUDIO_CUDA_ARCHITECTURES}")
        enable_language(CUDA)
        # CMake 3.25 predates nvcc's C++20 support: tell it the flag (nvcc 12+ accepts -std=c++20).
        if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
            set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
            set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
        endif()
        find_package(CUDAToolkit)
        find_path(TSTUDIO_CUDNN_INCLUDE_DIR cudnn.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}/include)
        find_library(TSTUDIO_CUDNN_LIBRARY cudnn
            HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib64 ${CUDAToolkit_LIBRARY_ROOT}/lib)
        if(CUDAToolkit_FOUND AND TARGET CUDA::cudart AND TARGET CUDA::cublas
           AND TSTUDIO_CUDNN_INCLUDE_DIR AND TSTUDIO_CUDNN_LIBRARY)
            set(TSTUDIO_WITH_CUDA ON)
            set(TSTUDIO_WITH_CUDA_TEXT "on (CUDA ${CUDAToolkit_VERSION}, cuDNN ${TSTUDIO_CUDNN_LIBRARY}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
        else()
            set(TSTUDIO_WITH_CUDA_TEXT "off (nvcc found but the CUDA toolkit libraries or cuDNN are missing)")
        endif()
    else()
        set(TSTUDIO_WITH_CUDA_TEXT "off (no nvcc found)")
    endif()
endif()
