// RAII owners of cuDNN descriptors.
#include "devices/cuda/cudnn_descriptors.h"

#include "devices/cuda/cuda_error.h"

#include <limits>
#include <string>
#include <utility>

namespace tstudio::cuda {

Expected<cudnnDataType_t> cudnnDataTypeOf(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_HALF: return CUDNN_DATA_HALF;
    case tensorflow::DT_FLOAT: return CUDNN_DATA_FLOAT;
    case tensorflow::DT_DOUBLE: return CUDNN_DATA_DOUBLE;
    default:
        return unexpected(invalidArgumentError("cuDNN does not compute on " + dataTypeString(dtype) +
                                               " (expected half, float or double)"));
    }
}

Expected<int> cudnnDim(std::int64_t value, std::string_view what)
{
    if (value < 0 || value > std::numeric_limits<int>::max()) {
        return unexpected(invalidArgumentError(std::string(what) + " is " + std::to_string(value) +
                                               ", which cuDNN cannot take (expected at most " +
                                               std::to_string(std::numeric_limits<int>::max()) + ")"));
    }
    return static_cast<int>(value);
}

// --- CudnnTensorDescriptor ------------------------------------------------------------------------

CudnnTensorDescriptor::~CudnnTensorDescriptor()
{
    if (m_descriptor)
        cudnnDestroyTensorDescriptor(m_descriptor);
}

CudnnTensorDescriptor::CudnnTensorDescriptor(CudnnTensorDescriptor&& other) noexcept
    : m_descriptor(std::exchange(other.m_descriptor, nullptr))
{
}

CudnnTensorDescriptor& CudnnTensorDescriptor::operator=(CudnnTensorDescriptor&& other) noexcept
{
    if (this != &other) {
        if (m_descriptor)
            cudnnDestroyTensorDescriptor(m_descriptor);
        m_descriptor = std::exchange(other.m_descriptor, nullptr);
    }
    return *this;
}

Status CudnnTensorDescriptor::set(cudnnDataType_t type, cudnnTensorFormat_t format, int n, int c, int h, int w)
{
    if (!m_descriptor) {
        if (Status s = cudnnStatus(cudnnCreateTensorDescriptor(&m_descriptor), "cudnnCreateTensorDescriptor");
            !s.isOk()) {
            m_descriptor = nullptr;
            return s;
        }
    }
    return cudnnStatus(cudnnSetTensor4dDescriptor(m_descriptor, format, type, n, c, h, w),
                       "cudnnSetTensor4dDescriptor");
}

// --- CudnnFilterDescriptor ------------------------------------------------------------------------

CudnnFilterDescriptor::~CudnnFilterDescriptor()
{
    if (m_descriptor)
        cudnnDestroyFilterDescriptor(m_descriptor);
}

Status CudnnFilterDescriptor::set(cudnnDataType_t type, cudnnTensorFormat_t format, int k, int c, int h, int w)
{
    if (!m_descriptor) {
        if (Status s = cudnnStatus(cudnnCreateFilterDescriptor(&m_descriptor), "cudnnCreateFilterDescriptor");
            !s.isOk()) {
            m_descriptor = nullptr;
            return s;
        }
    }
    return cudnnStatus(cudnnSetFilter4dDescriptor(m_descriptor, type, format, k, c, h, w),
                       "cudnnSetFilter4dDescriptor");
}

// --- CudnnConvolutionDescriptor -------------------------------------------------------------------

CudnnConvolutionDescriptor::~CudnnConvolutionDescriptor()
{
    if (m_descriptor)
        cudnnDestroyConvolutionDescriptor(m_descriptor);
}

Status CudnnConvolutionDescriptor::set(int padRows, int padCols, int strideRows, int strideCols, int dilationRows,
                                       int dilationCols, cudnnDataType_t computeType, cudnnMathType_t mathType)
{
    if (!m_descriptor) {
        if (Status s = cudnnStatus(cudnnCreateConvolutionDescriptor(&m_descriptor), "cudnnCreateConvolutionDescriptor");
            !s.isOk()) {
            m_descriptor = nullptr;
            return s;
        }
    }
    if (Status s = cudnnStatus(cudnnSetConvolution2dDescriptor(m_descriptor, padRows, padCols, strideRows, strideCols,
                                                               dilationRows, dilationCols, CUDNN_CROSS_CORRELATION,
                                                               computeType),
                               "cudnnSetConvolution2dDescriptor");
        !s.isOk())
        return s;
    return setMathType(mathType);
}

Status CudnnConvolutionDescriptor::setMathType(cudnnMathType_t mathType)
{
    return cudnnStatus(cudnnSetConvolutionMathType(m_descriptor, mathType), "cudnnSetConvolutionMathType");
}

} // namespace tstudio::cuda
