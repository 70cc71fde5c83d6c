// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits on the GPU: a warp or a
// block per row computes the shifted logits' log-sum-exp, then the loss and the backprop row.
#include "kernels/nn/softmax_cuda.h"
#include "kernels/reduction/reduce_cuda.cuh"

namespace tstudio::nn {
namespace {

using namespace tstudio::cuda;

constexpr int kThreads = 256;

/// The row's max and log(sum(exp(x - max))) over the values load(c), c < classes, shared by the group.
template <typename Acc, int kGroup, typename Load>
__device__ __forceinline__ void rowLogSumExp(Load load, std::int64_t classes, int lane, Acc* scratch, Acc& max,
                                             Acc& logSum)
{
    max = negativeInfinity<Acc>();
    for (std::int64_t c = lane; c < classes; c += kGroup)
        max = MaxOp<Acc>::combine(max, load(c));
    max = groupAllReduce<MaxOp<Acc>, kGroup>(max, scratch);
    Acc sum = 0;
    for (std::int64_t c = lane; c < classes; c += kGroup)
        sum += accExp(load(c) - max);
    logSum = accLog(groupAllReduce<SumOp<Acc>, kGroup>(sum, scratch));
}

template <typename T, int kGroup>
__global__ void __launch_bounds__(kThreads)
    xentKernel(StridedMatrix<T> logits, StridedMatrix<T> labels, T* __restrict__ loss, T* __restrict__ backprop,
               std::int64_t rows, std::int64_t classes)
{
    using Acc = AccumulatorT<T>;
    using Group = RowGroup<kGroup>;
    __shared__ Acc scratch[kThreads / kWarpSize];
    const int lane = Group::lane();
    for (std::int64_t r = Group::first(); r < rows; r += Group::stride()) {
        const auto logit = [&](std::int64_t c) { return convert<Acc>(logits.data[r * logits.row + c * logits.col]); };
        Acc max, logSum;
        rowLogSumExp<Acc, kGroup>(logit, classes, lane, scratch, max, logSum);
        Acc rowLoss = 0;
        for (std::int64_t c = lane; c < classes; c += kGroup) {
            const Acc label = convert<Acc>(labels.data[r * labels.row + c * labels.col]);
            const Acc z = logit(c) - max;
            rowLoss += label * (logSum - z);
            backprop[r * classes + c] = convert<T>(accExp(z - logSum) - label);
        }
        rowLoss = groupAllReduce<SumOp<Acc>, kGroup>(rowLoss, scratch);
        if (lane == 0)
            loss[r] = convert<T>(rowLoss);
    }
}

template <typename T, typename Index, int kGroup>
__global__ void __launch_bounds__(kThreads)
    sparseXentKernel(const T* __restrict__ logits, const Index* __restrict__ labels, T* __restrict__ loss,
                     T* __restrict__ backprop, std::int64_t rows, std::int64_t classes)
{
    using Acc = AccumulatorT<T>;
    using Group = RowGroup<kGroup>;
    __shared__ Acc scratch[kThreads / kWarpSize];
    const int lane = Group::lane();
    for (std::int64_t r = Group::first(); r < rows; r += Group::stride()) {
        const T* row = logits + r * classes;
        const auto logit = [&](std::int64_t c) { return convert<Acc>(row[c]); };
        Acc max, logSum;
        rowLogSumExp<Acc, kGroup>(logit, classes, lane, scratch, max, logSum);
        const auto label = static_cast<std::int64_t>(labels[r]);
        T* gradient = backprop + r * classes;
        if (label < 0 || label >= classes) {
            // TensorFlow's GPU kernel does not check labels: an out-of-range one makes the row NaN.
            const T nan = convert<T>(std::numeric_limits<Acc>::quiet_NaN());
            for (std::int64_t c = lane; c < classes; c += kGroup)
                gradient[c] = nan;
            if (lane == 0)
                loss[r] = nan;
            continue;
        }
        for (std::int64_t c = lane; c < classes; c += kGroup)
            gradient[c] = convert<T>(accExp(logit(c) - max - logSum) - (c == label ? Acc(1) : Acc(0)));
        if (lane == 0)
            loss[r] = convert<T>(logSum - (logit(label) - max));
    }
}

} // namespace

template <typename T>
cudaError_t launchXent(StridedMatrix<T> logits, StridedMatrix<T> labels, T* loss, T* backprop, std::int64_t rows,
                       std::int64_t classes, cudaStream_t stream)
{
    if (classes <= kWarpRowLimit)
        xentKernel<T, kWarpSize><<<gridFor(rows * kWarpSize, kThreads), kThreads, 0, stream>>>(logits, labels, loss,
                                                                                               backprop, rows, classes);
    else
        xentKernel<T, kThreads><<<gridFor(rows * kThreads, kThreads), kThreads, 0, stream>>>(logits, labels, loss,
                                                                                             backprop, rows, classes);
    return cudaGetLastError();
}

template <typename T, typename Index>
cudaError_t launchSparseXent(const T* logits, const Index* labels, T* loss, T* backprop, std::int64_t rows,
                             std::int64_t classes, cudaStream_t stream)
{
    if (classes <= kWarpRowLimit)
        sparseXentKernel<T, Index, kWarpSize><<<gridFor(rows * kWarpSize, kThreads), kThreads, 0, stream>>>(
            logits, labels, loss, backprop, rows, classes);
    else
        sparseXentKernel<T, Index, kThreads><<<gridFor(rows * kThreads, kThreads), kThreads, 0, stream>>>(
            logits, labels, loss, backprop, rows, classes);
    return cudaGetLastError();
}

#define TSTUDIO_XENT(T)                                                                                                \
    template cudaError_t launchXent<T>(StridedMatrix<T>, StridedMatrix<T>, T*, T*, std::int64_t, std::int64_t,         \
                                       cudaStream_t)
TSTUDIO_XENT(float);
TSTUDIO_XENT(double);
TSTUDIO_XENT(__half);
#undef TSTUDIO_XENT

#define TSTUDIO_SPARSE_XENT(T, Index)                                                                                  \
    template cudaError_t launchSparseXent<T, Index>(const T*, const Index*, T*, T*, std::int64_t, std::int64_t,        \
                                                    cudaStream_t)
TSTUDIO_SPARSE_XENT(float, std::int32_t);
TSTUDIO_SPARSE_XENT(float, std::int64_t);
TSTUDIO_SPARSE_XENT(__half, std::int32_t);
TSTUDIO_SPARSE_XENT(__half, std::int64_t);
#undef TSTUDIO_SPARSE_XENT

} // namespace tstudio::nn
