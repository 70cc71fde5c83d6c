// CUDA, cuBLAS and cuDNN result codes as Status values.
#include "devices/cuda/cuda_error.h"

#include <string>

namespace tstudio::cuda {

Status cudaStatus(cudaError_t error, std::string_view call)
{
    if (error == cudaSuccess)
        return Status::ok();
    std::string message = std::string(call) + " failed: " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
    switch (error) {
    case cudaErrorMemoryAllocation:
        return resourceExhaustedError(std::move(message));
    case cudaErrorInvalidValue:
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorInvalidResourceHandle:
        return invalidArgumentError(std::move(message));
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
        return unavailableError(std::move(message));
    default:
        return internalError(std::move(message));
    }
}

Status cublasStatus(cublasStatus_t status, std::string_view call)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return Status::ok();
    std::string message = std::string(call) + " failed: " + cublasGetStatusName(status) + ": " +
                          cublasGetStatusString(status);
    switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED:
        return resourceExhaustedError(std::move(message));
    case CUBLAS_STATUS_INVALID_VALUE:
    case CUBLAS_STATUS_NOT_SUPPORTED:
        return invalidArgumentError(std::move(message));
    case CUBLAS_STATUS_NOT_INITIALIZED:
        return unavailableError(std::move(message));
    default:
        return internalError(std::move(message));
    }
}

Status cudnnStatus(cudnnStatus_t status, std::string_view call)
{
    if (status == CUDNN_STATUS_SUCCESS)
        return Status::ok();
    // cudnnGetErrorString gives the code's name; the last error message (cuDNN 9) says why.
    std::string message = std::string(call) + " failed: " + cudnnGetErrorString(status);
    char detail[512] = {};
    cudnnGetLastErrorString(detail, sizeof detail);
    if (detail[0] != '\0')
        message += std::string(": ") + detail;
    if (status == CUDNN_STATUS_ALLOC_FAILED)
        return resourceExhaustedError(std::move(message));
    if (status == CUDNN_STATUS_BAD_PARAM || status == CUDNN_STATUS_NOT_SUPPORTED)
        return invalidArgumentError(std::move(message));
    if (status == CUDNN_STATUS_NOT_INITIALIZED)
        return unavailableError(std::move(message));
    return internalError(std::move(message));
}

Status lastLaunchStatus(std::string_view kernel)
{
    const cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess)
        return Status::ok();
    return cudaStatus(error, std::string("launch of ") + std::string(kernel));
}

} // namespace tstudio::cuda
