// Softmax and LogSoftmax along the last axis on the GPU: a warp or a block per row, the row max
// subtracted first, in float for half.
#include "kernels/nn/softmax_cuda.h"
#include "kernels/reduction/reduce_cuda.cuh"

namespace tstudio::nn {
namespace {

using namespace tstudio::cuda;

constexpr int kThreads = 256;

template <typename T, int kGroup>
__global__ void __launch_bounds__(kThreads) softmaxKernel(const T* __restrict__ logits, T* __restrict__ out,
                                                          std::int64_t rows, std::int64_t classes, bool logSpace)
{
    using Acc = AccumulatorT<T>;
    using Group = RowGroup<kGroup>;
    __shared__ Acc scratch[kThreads / kWarpSize];
    const int lane = Group::lane();
    for (std::int64_t r = Group::first(); r < rows; r += Group::stride()) {
        const T* x = logits + r * classes;
        T* y = out + r * classes;
        Acc max = negativeInfinity<Acc>();
        for (std::int64_t c = lane; c < classes; c += kGroup)
            max = MaxOp<Acc>::combine(max, convert<Acc>(x[c]));
        max = groupAllReduce<MaxOp<Acc>, kGroup>(max, scratch);
        Acc sum = 0;
        for (std::int64_t c = lane; c < classes; c += kGroup)
            sum += accExp(convert<Acc>(x[c]) - max);
        sum = groupAllReduce<SumOp<Acc>, kGroup>(sum, scratch);
        if (logSpace) {
            const Acc logSum = accLog(sum);
            for (std::int64_t c = lane; c < classes; c += kGroup)
                y[c] = convert<T>(convert<Acc>(x[c]) - max - logSum);
        } else {
            for (std::int64_t c = lane; c < classes; c += kGroup)
                y[c] = convert<T>(accExp(convert<Acc>(x[c]) - max) / sum);
        }
    }
}

} // namespace

template <typename T>
cudaError_t launchSoftmax(const T* logits, T* out, std::int64_t rows, std::int64_t classes, bool log,
                          cudaStream_t stream)
{
    if (classes <= kWarpRowLimit)
        softmaxKernel<T, kWarpSize>
            <<<gridFor(rows * kWarpSize, kThreads), kThreads, 0, stream>>>(logits, out, rows, classes, log);
    else
        softmaxKernel<T, kThreads>
            <<<gridFor(rows * kThreads, kThreads), kThreads, 0, stream>>>(logits, out, rows, classes, log);
    return cudaGetLastError();
}

template cudaError_t launchSoftmax<float>(const float*, float*, std::int64_t, std::int64_t, bool, cudaStream_t);
template cudaError_t launchSoftmax<double>(const double*, double*, std::int64_t, std::int64_t, bool, cudaStream_t);
template cudaError_t launchSoftmax<__half>(const __half*, __half*, std::int64_t, std::int64_t, bool, cudaStream_t);

} // namespace tstudio::nn
