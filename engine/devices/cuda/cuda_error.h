// CUDA, cuBLAS and cuDNN result codes as Status values.
#pragma once

#include "core/status.h"

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <string_view>

namespace tstudio::cuda {

/// OK for cudaSuccess; otherwise a Status naming the call and the error, e.g.
/// "cudaMemcpyAsync failed: cudaErrorIllegalAddress: an illegal memory access was encountered".
/// Out-of-memory codes become ResourceExhausted, launch-configuration and value errors
/// InvalidArgument, no device Unavailable, the rest Internal. The executor adds the node.
Status cudaStatus(cudaError_t error, std::string_view call);
/// The same for cuBLAS ("cublasSgemm failed: CUBLAS_STATUS_EXECUTION_FAILED: ...").
Status cublasStatus(cublasStatus_t status, std::string_view call);
/// The same for cuDNN ("cudnnConvolutionForward failed: CUDNN_STATUS_BAD_PARAM: ...").
Status cudnnStatus(cudnnStatus_t status, std::string_view call);

/// The error of the last kernel launch on this thread (cudaGetLastError), as cudaStatus.
Status lastLaunchStatus(std::string_view kernel);

} // namespace tstudio::cuda
