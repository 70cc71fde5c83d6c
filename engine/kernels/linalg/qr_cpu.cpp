// Qr's CPU kernel: a batch of [M, N] matrices decomposed one by one with QrFunctor, the batch
// spread over the device's threads (TensorFlow's LinearAlgebraOp shards the same way).
#define EIGEN_USE_THREADS
#include "kernels/linalg/qr.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <complex>
#include <string>
#include <vector>

namespace tstudio::linalg {

namespace {

template <typename T> class QrOp : public OpKernel {
public:
    explicit QrOp(OpKernelConstruction& construction) : OpKernel(construction)
    {
        auto full = attrBool(node(), "full_matrices");
        m_attrStatus = full ? Status::ok() : full.error();
        m_fullMatrices = full.value_or(false);
    }

    Status compute(OpKernelContext& context) override
    {
        if (!m_attrStatus.isOk())
            return m_attrStatus;
        const Tensor& input = context.input(0);
        const int rank = input.rank();
        if (rank < 2)
            return invalidArgumentError("Input tensor 0 must have rank >= 2, got " + std::to_string(rank));
        const std::int64_t m = input.shape().dim(rank - 2);
        const std::int64_t n = input.shape().dim(rank - 1);
        const std::int64_t p = std::min(m, n);
        std::vector<std::int64_t> batchDims(input.shape().dims().begin(), input.shape().dims().end() - 2);
        std::int64_t batch = 1;
        for (std::int64_t d : batchDims)
            batch *= d;
        const std::int64_t qCols = m_fullMatrices ? m : p;
        const std::int64_t rRows = m_fullMatrices ? m : p;
        std::vector<std::int64_t> qDims = batchDims, rDims = batchDims;
        qDims.insert(qDims.end(), {m, qCols});
        rDims.insert(rDims.end(), {rRows, n});
        auto q = context.allocateOutput(0, TensorShape(qDims));
        if (!q)
            return q.error();
        auto r = context.allocateOutput(1, TensorShape(rDims));
        if (!r)
            return r.error();
        if (batch == 0)
            return Status::ok();

        const T* in = input.data<T>();
        T* qData = (*q)->template data<T>();
        T* rData = (*r)->template data<T>();
        const std::int64_t inStride = m * n;
        const std::int64_t qStride = m * qCols;
        const std::int64_t rStride = rRows * n;
        const bool full = m_fullMatrices;
        auto one = [&](std::int64_t i) {
            QrFunctor<T>()(in + i * inStride, m, n, full, qData + i * qStride, rData + i * rStride);
        };
        const Eigen::ThreadPoolDevice* device = context.device().eigenCpuDevice();
        if (batch == 1 || device == nullptr) {
            for (std::int64_t i = 0; i < batch; ++i)
                one(i);
            return Status::ok();
        }
        // TensorFlow's cost estimate of one decomposition: 2 max(m,n) p^2 - 2/3 p^3 flops.
        const double big = static_cast<double>(std::max(m, n));
        const double small = static_cast<double>(p);
        const Eigen::TensorOpCost cost(static_cast<double>(inStride) * sizeof(T),
                                       static_cast<double>(qStride + rStride) * sizeof(T),
                                       2 * big * small * small - 2 * small * small * small / 3.0);
        cpuParallelFor(*device, batch, cost, [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index i = first; i < last; ++i)
                one(i);
        });
        return Status::ok();
    }

private:
    Status m_attrStatus;
    bool m_fullMatrices = false;
};

} // namespace

Status registerQrCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    // TensorFlow 1.15 registers Qr's CPU kernel for these four types; half is GPU-only there.
    if (Status s = registry.add<QrOp<float>>({"Qr", "CPU", {{"T", {DT_FLOAT}}}, {}}); !s.isOk())
        return s;
    if (Status s = registry.add<QrOp<double>>({"Qr", "CPU", {{"T", {DT_DOUBLE}}}, {}}); !s.isOk())
        return s;
    if (Status s = registry.add<QrOp<std::complex<float>>>({"Qr", "CPU", {{"T", {DT_COMPLEX64}}}, {}}); !s.isOk())
        return s;
    return registry.add<QrOp<std::complex<double>>>({"Qr", "CPU", {{"T", {DT_COMPLEX128}}}, {}});
}

} // namespace tstudio::linalg
