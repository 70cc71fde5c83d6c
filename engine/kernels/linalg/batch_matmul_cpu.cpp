// BatchMatMul (equal batch dimensions) and BatchMatMulV2 (broadcast batch dimensions) CPU kernels.
#define EIGEN_USE_THREADS
#include "framework/kernel_registry.h"
#include "devices/cpu/cpu_parallel.h"
#include "framework/op_kernel.h"
#include "kernels/linalg/batch_matmul.h"
#include "kernels/linalg/matmul.h"
#include "kernels/linalg/matmul_cpu.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::linalg {

namespace {

/// MatMulBCast of the batch dimensions of x and y (all but their last two), or nothing.
std::optional<BatchBroadcast> broadcastBatches(const TensorShape& x, const TensorShape& y)
{
    BatchBroadcast b;
    const int xr = x.rank() - 2;
    const int yr = y.rank() - 2;
    const int rank = std::max(xr, yr);
    b.xDims.assign(static_cast<std::size_t>(rank), 1);
    b.yDims.assign(static_cast<std::size_t>(rank), 1);
    for (int i = 0; i < xr; ++i)
        b.xDims[static_cast<std::size_t>(rank - xr + i)] = x.dim(i);
    for (int i = 0; i < yr; ++i)
        b.yDims[static_cast<std::size_t>(rank - yr + i)] = y.dim(i);
    for (std::size_t i = 0; i < static_cast<std::size_t>(rank); ++i) {
        const std::int64_t a = b.xDims[i];
        const std::int64_t c = b.yDims[i];
        if (a != c && a != 1 && c != 1)
            return std::nullopt;
        b.outputDims.push_back(a == 1 ? c : a);
        b.batch *= b.outputDims.back();
        b.xBatch *= a;
        b.yBatch *= c;
    }
    // Output matrix i -> (x matrix, y matrix), walking the output's batch index like an odometer.
    b.xIndex.reserve(static_cast<std::size_t>(b.batch));
    b.yIndex.reserve(static_cast<std::size_t>(b.batch));
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
    for (std::int64_t i = 0; i < b.batch; ++i) {
        std::int64_t xi = 0, yi = 0;
        for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) {
            xi = xi * b.xDims[d] + (b.xDims[d] == 1 ? 0 : index[d]);
            yi = yi * b.yDims[d] + (b.yDims[d] == 1 ? 0 : index[d]);
        }
        b.xIndex.push_back(xi);
        b.yIndex.push_back(yi);
        for (int d = rank - 1; d >= 0; --d) {
            const auto u = static_cast<std::size_t>(d);
            if (++index[u] < b.outputDims[u])
                break;
            index[u] = 0;
        }
    }
    return b;
}

Status validateRanks(const TensorShape& x, const TensorShape& y, bool v2)
{
    if (v2) {
        if (x.rank() < 2)
            return invalidArgumentError("In[0] ndims must be >= 2: " + std::to_string(x.rank()));
        if (y.rank() < 2)
            return invalidArgumentError("In[1] ndims must be >= 2: " + std::to_string(y.rank()));
        return Status::ok();
    }
    if (x.rank() != y.rank())
        return invalidArgumentError("In[0] and In[1] has different ndims: " + x.toString() + " vs. " + y.toString());
    if (x.rank() < 2)
        return invalidArgumentError("In[0] and In[1] ndims must be >= 2: " + std::to_string(x.rank()));
    for (int i = 0; i < x.rank() - 2; ++i) {
        if (x.dim(i) != y.dim(i)) {
            const std::string d = std::to_string(i);
            return invalidArgumentError("In[0].dim(" + d + ") and In[1].dim(" + d +
                                        ") must be the same: " + x.toString() + " vs " + y.toString());
        }
    }
    return Status::ok();
}

} // namespace

Expected<BatchMatMulShape> batchMatMulShape(const TensorShape& x, const TensorShape& y, bool adjX, bool adjY, bool v2)
{
    if (Status s = validateRanks(x, y, v2); !s.isOk())
        return unexpected(s);
    auto bcast = broadcastBatches(x, y);
    if (!bcast) {
        return unexpected(invalidArgumentError(
            "In[0] and In[1] must have compatible batch dimensions: " + x.toString() + " vs. " + y.toString()));
    }
    std::int64_t d0 = x.dim(x.rank() - 2), d1 = x.dim(x.rank() - 1);
    std::int64_t d2 = y.dim(y.rank() - 2), d3 = y.dim(y.rank() - 1);
    if (adjX)
        std::swap(d0, d1);
    if (adjY)
        std::swap(d2, d3);
    if (d1 != d2) {
        return unexpected(invalidArgumentError("In[0] mismatch In[1] shape: " + std::to_string(d1) + " vs. " +
                                               std::to_string(d2) + ": " + x.toString() + " " + y.toString() + " " +
                                               (adjX ? "1" : "0") + " " + (adjY ? "1" : "0")));
    }
    BatchMatMulShape shape;
    shape.m = d0;
    shape.k = d1;
    shape.n = d3;
    std::vector<std::int64_t> outDims = bcast->outputDims;
    outDims.push_back(d0);
    outDims.push_back(d3);
    shape.output = TensorShape(outDims);
    shape.bcast = std::move(*bcast);
    return shape;
}

namespace {

/// Batches whose single product is at least this many multiply-adds are computed one after the
/// other, each product using every thread; smaller ones are spread over the threads a batch each
/// (TensorFlow's LaunchBatchMatMul makes the same choice).
constexpr std::int64_t kInnerParallelMacs = 1 << 18;

/// BatchMatMul (kV2 = false) and BatchMatMulV2 (kV2 = true).
template <typename T, bool kV2> class BatchMatMulOp : public OpKernel {
public:
    explicit BatchMatMulOp(OpKernelConstruction& construction)
        : OpKernel(construction), m_attrs(productAttrs(construction.node(), "adj_x", "adj_y"))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_attrs.status.isOk())
            return m_attrs.status;
        const Tensor& x = ctx.input(0);
        const Tensor& y = ctx.input(1);
        auto shape = batchMatMulShape(x.shape(), y.shape(), m_attrs.first, m_attrs.second, kV2);
        if (!shape)
            return shape.error();
        const BatchBroadcast& bcast = shape->bcast;
        const std::int64_t d0 = shape->m, d1 = shape->k, d3 = shape->n;
        auto out = ctx.allocateOutput(0, shape->output);
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();

        const T* xData = x.data<T>();
        const T* yData = y.data<T>();
        T* outData = (*out)->template data<T>();
        const std::int64_t xStride = d0 * d1, yStride = d1 * d3, outStride = d0 * d3;
        auto one = [&](std::int64_t i, const Eigen::ThreadPoolDevice* device) {
            const auto u = static_cast<std::size_t>(i);
            matMulCpu<T>(device, xData + bcast.xIndex[u] * xStride, yData + bcast.yIndex[u] * yStride,
                         outData + i * outStride, d0, d3, d1, m_attrs.first, m_attrs.first, m_attrs.second,
                         m_attrs.second);
        };
        const Eigen::ThreadPoolDevice* device = ctx.device().eigenCpuDevice();
        const std::int64_t macs = d0 * d1 * d3;
        if (bcast.batch == 1 || macs >= kInnerParallelMacs || device == nullptr) {
            for (std::int64_t i = 0; i < bcast.batch; ++i)
                one(i, device);
        } else {
            const Eigen::TensorOpCost cost(static_cast<double>(d0 * d1 + d1 * d3) * sizeof(T),
                                           static_cast<double>(outStride) * sizeof(T), static_cast<double>(macs) * 2);
            cpuParallelFor(*device, bcast.batch, cost, [&](Eigen::Index first, Eigen::Index last) {
                for (Eigen::Index i = first; i < last; ++i)
                    one(i, nullptr);
            });
        }
        return Status::ok();
    }

private:
    ProductAttrs m_attrs;
};

template <typename... Ts> Status registerBatchMatMulTypes(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (status.isOk())
            status =
                registry.add<BatchMatMulOp<T, false>>(KernelDef{"BatchMatMul", "CPU", {{"T", {kDataTypeOf<T>}}}, {}});
        if (status.isOk())
            status =
                registry.add<BatchMatMulOp<T, true>>(KernelDef{"BatchMatMulV2", "CPU", {{"T", {kDataTypeOf<T>}}}, {}});
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

Status registerBatchMatMulCpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers float, double, half, int32, int64, complex64 and complex128
    // (batch_matmul_op_real.cc / _complex.cc); bfloat16 is added as for MatMul (computed in float).
    return registerBatchMatMulTypes(registry, TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int32_t,
                                                       std::int64_t, std::complex<float>, std::complex<double>>{});
}

} // namespace tstudio::linalg
