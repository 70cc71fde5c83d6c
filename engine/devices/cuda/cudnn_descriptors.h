// RAII owners of the cuDNN descriptors the convolution kernels use (tensor, filter, convolution),
// each created and set by one call that reports cuDNN's error as a Status.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"

#include <cudnn.h>

#include <cstdint>
#include <string_view>

namespace tstudio::cuda {

/// cuDNN's element type for `dtype`: half, float or double; InvalidArgument for the rest.
Expected<cudnnDataType_t> cudnnDataTypeOf(DataType dtype);

/// `value` as the int cuDNN's descriptors take; InvalidArgument naming `what` when it does not fit
/// (cuDNN's 4-D descriptors are limited to 32-bit sizes).
Expected<int> cudnnDim(std::int64_t value, std::string_view what);

/// A 4-D tensor descriptor: dims in NCHW order, elements in memory in `format` order (NCHW or NHWC,
/// fully packed). Move-only; destroyed with the object. Not thread-safe (one per call).
class CudnnTensorDescriptor {
public:
    CudnnTensorDescriptor() = default;
    ~CudnnTensorDescriptor();
    CudnnTensorDescriptor(CudnnTensorDescriptor&& other) noexcept;
    CudnnTensorDescriptor& operator=(CudnnTensorDescriptor&& other) noexcept;
    CudnnTensorDescriptor(const CudnnTensorDescriptor&) = delete;
    CudnnTensorDescriptor& operator=(const CudnnTensorDescriptor&) = delete;

    /// Creates the descriptor if needed and sets it; the cuDNN error otherwise.
    Status set(cudnnDataType_t type, cudnnTensorFormat_t format, int n, int c, int h, int w);
    cudnnTensorDescriptor_t get() const { return m_descriptor; }

private:
    cudnnTensorDescriptor_t m_descriptor = nullptr;
};

/// A 4-D filter descriptor: dims (out channels k, in channels c, rows h, cols w); memory KCRS for
/// CUDNN_TENSOR_NCHW, KRSC for CUDNN_TENSOR_NHWC.
class CudnnFilterDescriptor {
public:
    CudnnFilterDescriptor() = default;
    ~CudnnFilterDescriptor();
    CudnnFilterDescriptor(const CudnnFilterDescriptor&) = delete;
    CudnnFilterDescriptor& operator=(const CudnnFilterDescriptor&) = delete;

    Status set(cudnnDataType_t type, cudnnTensorFormat_t format, int k, int c, int h, int w);
    cudnnFilterDescriptor_t get() const { return m_descriptor; }

private:
    cudnnFilterDescriptor_t m_descriptor = nullptr;
};

/// A 2-D cross-correlation (TensorFlow's convolution) with symmetric padding, computing in
/// `computeType` with `mathType` (setMathType changes it per algorithm).
class CudnnConvolutionDescriptor {
public:
    CudnnConvolutionDescriptor() = default;
    ~CudnnConvolutionDescriptor();
    CudnnConvolutionDescriptor(const CudnnConvolutionDescriptor&) = delete;
    CudnnConvolutionDescriptor& operator=(const CudnnConvolutionDescriptor&) = delete;

    Status set(int padRows, int padCols, int strideRows, int strideCols, int dilationRows, int dilationCols,
               cudnnDataType_t computeType, cudnnMathType_t mathType);
    Status setMathType(cudnnMathType_t mathType);
    cudnnConvolutionDescriptor_t get() const { return m_descriptor; }

private:
    cudnnConvolutionDescriptor_t m_descriptor = nullptr;
};

} // namespace tstudio::cuda
