// CPU kernels of SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits and L2Loss.
#define EIGEN_USE_THREADS

#include "devices/cpu/cpu_parallel.h"
#include "kernels/nn/nn_kernels_internal.h"
#include "kernels/nn/xent.h"
#include "kernels/nn/xent_rows.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace tstudio::nn {

namespace {

using Device = Eigen::ThreadPoolDevice;
using Index = Eigen::Index;

/// One row as TensorFlow's XentEigenImpl / SparseXentEigenImpl compute it, in Acc: z = logit - max,
/// e = exp(z) (Eigen's vectorised exp, as TensorFlow's Eigen expressions use), returns sum(e).
template <typename T, typename Load>
AccumulatorT<T> shiftedRow(Index classes, Load logit, std::vector<AccumulatorT<T>>& z, std::vector<AccumulatorT<T>>& e)
{
    using Acc = AccumulatorT<T>;
    using Row = Eigen::Array<Acc, Eigen::Dynamic, 1>;
    Acc max = -std::numeric_limits<Acc>::infinity();
    for (Index j = 0; j < classes; ++j) {
        z[static_cast<std::size_t>(j)] = static_cast<Acc>(logit(j));
        max = std::max(max, z[static_cast<std::size_t>(j)]);
    }
    Eigen::Map<Row> zs(z.data(), classes);
    Eigen::Map<Row> es(e.data(), classes);
    zs -= max;
    es = zs.exp();
    return es.sum();
}

} // namespace

template <typename T>
void XentCpu<T>::dense(const Device& d, std::int64_t rows, std::int64_t classes, BroadcastMatrix<T> logits,
                       BroadcastMatrix<T> labels, T* loss, T* backprop)
{
    using Acc = AccumulatorT<T>;
    const Eigen::TensorOpCost cost(double(2 * classes * sizeof(T)), double(classes * sizeof(T)), double(classes * 30));
    cpuParallelFor(d, rows, cost, [&](Index begin, Index end) {
        std::vector<Acc> z(static_cast<std::size_t>(classes));
        std::vector<Acc> e(static_cast<std::size_t>(classes));
        for (Index i = begin; i < end; ++i) {
            const Acc sum = shiftedRow<T>(
                classes, [&](Index j) { return logits.at(i, j); }, z, e);
            const Acc logSum = std::log(sum);
            Acc rowLoss = 0;
            for (Index j = 0; j < classes; ++j) {
                const Acc label = static_cast<Acc>(labels.at(i, j));
                const auto u = static_cast<std::size_t>(j);
                rowLoss += label * (logSum - z[u]);
                backprop[i * classes + j] = static_cast<T>(e[u] / sum - label);
            }
            loss[i] = static_cast<T>(rowLoss);
        }
    });
}

template <typename T>
template <typename LabelIndex>
void XentCpu<T>::sparse(const Device& d, std::int64_t rows, std::int64_t classes, const T* logits,
                        const LabelIndex* labels, T* loss, T* backprop)
{
    using Acc = AccumulatorT<T>;
    const Eigen::TensorOpCost cost(double(classes * sizeof(T)), double(classes * sizeof(T)), double(classes * 30));
    if constexpr (std::is_same_v<T, float>) {
        // float rows in the build for this CPU's instruction set (xent_rows.h).
        const auto sparseRow = xentRowKernels().sparseRow;
        cpuParallelFor(d, rows, cost, [&](Index begin, Index end) {
            for (Index i = begin; i < end; ++i)
                loss[i] = sparseRow(logits + i * classes, classes, static_cast<std::int64_t>(labels[i]),
                                    backprop + i * classes);
        });
        return;
    }
    cpuParallelFor(d, rows, cost, [&](Index begin, Index end) {
        std::vector<Acc> z(static_cast<std::size_t>(classes));
        std::vector<Acc> e(static_cast<std::size_t>(classes));
        for (Index i = begin; i < end; ++i) {
            const T* row = logits + i * classes;
            const Acc sum = shiftedRow<T>(
                classes, [&](Index j) { return row[j]; }, z, e);
            const Index label = static_cast<Index>(labels[i]);
            T* out = backprop + i * classes;
            if constexpr (std::is_same_v<T, Acc>) {
                // exp(z) / sum as TensorFlow's SparseXentGradGenerator; the label's entry less 1.
                Eigen::Map<Eigen::Array<Acc, Eigen::Dynamic, 1>>(out, classes) =
                    Eigen::Map<const Eigen::Array<Acc, Eigen::Dynamic, 1>>(e.data(), classes) / sum;
            } else {
                for (Index j = 0; j < classes; ++j)
                    out[j] = static_cast<T>(e[static_cast<std::size_t>(j)] / sum);
            }
            out[label] = static_cast<T>(e[static_cast<std::size_t>(label)] / sum - Acc(1));
            loss[i] = static_cast<T>(std::log(sum) - z[static_cast<std::size_t>(label)]);
        }
    });
}

Expected<std::array<std::int64_t, 2>> xentShape(const TensorShape& logits, const TensorShape& labels)
{
    // TensorFlow's BCast of the two shapes (NumPy rules) when they differ.
    std::vector<std::int64_t> shape(logits.dims().begin(), logits.dims().end());
    if (!(logits == labels)) {
        const int rank = std::max(logits.rank(), labels.rank());
        shape.assign(static_cast<std::size_t>(rank), 1);
        for (int i = 0; i < rank; ++i) {
            const int ia = logits.rank() - rank + i;
            const int ib = labels.rank() - rank + i;
            const std::int64_t da = ia >= 0 ? logits.dim(ia) : 1;
            const std::int64_t db = ib >= 0 ? labels.dim(ib) : 1;
            if (da != db && da != 1 && db != 1) {
                return unexpected(invalidArgumentError("logits and labels must be broadcastable: logits_size=" +
                                                       logits.toString() + " labels_size=" + labels.toString()));
            }
            shape[static_cast<std::size_t>(i)] = da == 1 ? db : da;
        }
    }
    if (shape.size() != 2) {
        return unexpected(
            invalidArgumentError("logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional"));
    }
    return std::array<std::int64_t, 2>{shape[0], shape[1]};
}

BroadcastStrides broadcastStrides(const TensorShape& shape)
{
    const std::int64_t r = shape.rank() == 2 ? shape.dim(0) : 1;
    const std::int64_t c = shape.rank() >= 1 ? shape.dim(shape.rank() - 1) : 1;
    return {r == 1 ? 0 : c, c == 1 ? 0 : 1};
}

Status validateSparseXent(const TensorShape& logits, const TensorShape& labels)
{
    if (logits.rank() != 2)
        return invalidArgumentError("logits must be 2-D, but got shape " + logits.toString());
    if (labels.rank() != 1)
        return invalidArgumentError("labels must be 1-D, but got shape " + labels.toString());
    if (logits.dim(0) != labels.dim(0)) {
        return invalidArgumentError("logits and labels must have the same first dimension, got logits shape " +
                                    logits.toString() + " and labels shape " + labels.toString());
    }
    if (logits.dim(1) <= 0)
        return invalidArgumentError("Must have at least one class, but got logits shape " + logits.toString());
    return Status::ok();
}

namespace {

using XentTypes = HalfFloatDouble;

/// The [rows, classes] view of `t` (rank <= 2) broadcast to that shape.
template <typename T> BroadcastMatrix<T> broadcastView(const Tensor& t)
{
    const BroadcastStrides strides = broadcastStrides(t.shape());
    return {t.data<T>(), strides.row, strides.col};
}

class SoftmaxXentOp : public NnKernel {
public:
    using NnKernel::NnKernel;

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& logits = ctx.input(0);
        const Tensor& labels = ctx.input(1);
        auto shape = xentShape(logits.shape(), labels.shape());
        if (!shape)
            return shape.error();
        const std::int64_t rows = (*shape)[0];
        const std::int64_t classes = (*shape)[1];
        auto loss = ctx.allocateOutput(0, TensorShape{rows});
        if (!loss)
            return loss.error();
        auto backprop = ctx.allocateOutput(1, TensorShape{rows, classes});
        if (!backprop)
            return backprop.error();
        if (rows == 0 || classes == 0) {
            return (*loss)->setZero(); // no rows, or rows of zero loss
        }
        return dispatchDataType<XentTypes>(logits.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            XentCpu<T>::dense(cpuDevice(ctx), rows, classes, broadcastView<T>(logits), broadcastView<T>(labels),
                              (*loss)->template data<T>(), (*backprop)->template data<T>());
        });
    }
};

/// "1 7 2": the values of an int tensor, as TensorFlow's SummarizeValue.
template <typename Index> std::string valuesText(const Tensor& t)
{
    std::string text;
    for (Index v : t.values<Index>())
        text += (text.empty() ? "" : " ") + std::to_string(v);
    return text;
}

class SparseSoftmaxXentOp : public NnKernel {
public:
    using NnKernel::NnKernel;

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& logits = ctx.input(0);
        const Tensor& labels = ctx.input(1);
        if (Status s = validateSparseXent(logits.shape(), labels.shape()); !s.isOk())
            return s;
        const std::int64_t rows = logits.shape().dim(0);
        const std::int64_t classes = logits.shape().dim(1);
        auto loss = ctx.allocateOutput(0, TensorShape{rows});
        if (!loss)
            return loss.error();
        auto backprop = ctx.allocateOutput(1, logits.shape());
        if (!backprop)
            return backprop.error();
        if (rows == 0)
            return Status::ok();
        return dispatchDataType<TypeList<std::int32_t, std::int64_t>>(labels.dtype(), [&](auto indexTag) -> Status {
            using LabelIndex = typename decltype(indexTag)::type;
            const auto values = labels.values<LabelIndex>();
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            if (*lo < 0 || *hi >= classes) {
                const LabelIndex bad = *lo < 0 ? *lo : *hi;
                return invalidArgumentError("Received a label value of " + std::to_string(bad) +
                                            " which is outside the valid range of [0, " + std::to_string(classes) +
                                            ").  Label values: " + valuesText<LabelIndex>(labels));
            }
            return dispatchDataType<XentTypes>(logits.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                XentCpu<T>::sparse(cpuDevice(ctx), rows, classes, logits.data<T>(), labels.data<LabelIndex>(),
                                   (*loss)->template data<T>(), (*backprop)->template data<T>());
            });
        });
    }
};

/// sum(t^2) / 2 as TensorFlow's (t.square() * 0.5).sum(), accumulated in float for half.
class L2LossOp : public NnKernel {
public:
    using NnKernel::NnKernel;

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& t = ctx.input(0);
        auto out = ctx.allocateZeroedOutput(0, TensorShape::scalar()); // zero for an empty input
        if (!out)
            return out.error();
        if (t.numElements() == 0)
            return Status::ok();
        return dispatchDataType<XentTypes>(t.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using Acc = AccumulatorT<T>;
            Eigen::TensorMap<Eigen::Tensor<T, 0, Eigen::RowMajor>> result((*out)->template data<T>());
            result.device(cpuDevice(ctx)) =
                (t.flat<T>().template cast<Acc>().square() * Acc(0.5)).sum().template cast<T>();
        });
    }
};

} // namespace

template struct XentCpu<Eigen::half>;
template struct XentCpu<float>;
template struct XentCpu<double>;

Status registerLossKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers half, float and double on CPU for all three.
    const auto types = dataTypes(XentTypes{});
    KernelDef sparse = cpuKernelDef("SparseSoftmaxCrossEntropyWithLogits", types);
    sparse.typeConstraints.emplace_back("Tlabels", std::vector<DataType>{tensorflow::DT_INT32, tensorflow::DT_INT64});
    KernelAdder r(registry);
    r.add<SoftmaxXentOp>("SoftmaxCrossEntropyWithLogits", types)
        .add<SparseSoftmaxXentOp>(std::move(sparse))
        .add<L2LossOp>("L2Loss", types);
    return r.status();
}

} // namespace tstudio::nn
