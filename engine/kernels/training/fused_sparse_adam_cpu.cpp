// The fused sparse Adam update on the CPU (see fused_sparse_adam_cpu.h).
#define EIGEN_USE_THREADS

#include "kernels/training/fused_sparse_adam_cpu.h"

#include "devices/cpu/cpu_parallel.h"
#include "framework/node_attrs.h"
#include "kernels/state/ref_inputs.h"
#include "kernels/math/unary_functors.h"
#include "kernels/state/scatter_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tstudio::training {
namespace {

/// One hyperparameter as the element-wise ops would see it against the variable's shape: one
/// value, or (rarely) a tensor broadcast into that shape, expanded to one value per element.
template <typename T> class Hyper {
public:
    static Expected<Hyper> of(const Tensor& t, const TensorShape& target, const char* what)
    {
        Hyper h;
        if (t.numElements() == 1 && t.rank() <= target.rank()) {
            h.m_value = t.values<T>()[0];
            return h;
        }
        // Right-aligned, each dimension 1 or the target's: the result keeps the target's shape,
        // as Assign and AssignSub require of the element-wise ops' results.
        const int offset = target.rank() - t.rank();
        bool fits = offset >= 0;
        for (int d = 0; fits && d < t.rank(); ++d)
            fits = t.shape().dim(d) == 1 || t.shape().dim(d) == target.dim(d + offset);
        if (!fits)
            return unexpected(invalidArgumentError(std::string("Incompatible shapes: ") + target.toString() + " vs. " +
                                                   t.shape().toString() + " (" + what + ")"));
        const std::int64_t n = target.numElements().value_or(0);
        h.m_values.resize(static_cast<std::size_t>(n));
        std::vector<std::int64_t> strides(static_cast<std::size_t>(target.rank()), 0);
        std::int64_t stride = 1;
        for (int d = t.rank() - 1; d >= 0; --d) {
            if (t.shape().dim(d) != 1)
                strides[static_cast<std::size_t>(d + offset)] = stride;
            stride *= t.shape().dim(d);
        }
        const auto source = t.values<T>();
        std::vector<std::int64_t> index(static_cast<std::size_t>(target.rank()), 0);
        for (std::int64_t e = 0; e < n; ++e) {
            std::int64_t at = 0;
            for (std::size_t d = 0; d < index.size(); ++d)
                at += index[d] * strides[d];
            h.m_values[static_cast<std::size_t>(e)] = source[static_cast<std::size_t>(at)];
            for (int d = target.rank() - 1; d >= 0; --d) {
                if (++index[static_cast<std::size_t>(d)] < target.dim(d))
                    break;
                index[static_cast<std::size_t>(d)] = 0;
            }
        }
        return h;
    }
    bool single() const { return m_values.empty(); }
    T operator[](std::int64_t e) const { return m_values.empty() ? m_value : m_values[static_cast<std::size_t>(e)]; }

private:
    T m_value{};
    std::vector<T> m_values;
};

template <typename T> class FusedSparseAdamKernel : public OpKernel {
public:
    explicit FusedSparseAdamKernel(OpKernelConstruction& c) : OpKernel(c)
    {
        auto locking = attrBool(c.node(), "use_locking");
        auto scatter = attrString(c.node(), "_scatter_m");
        if (!locking || !scatter) {
            m_init = !locking ? locking.error() : scatter.error();
            return;
        }
        m_useLocking = *locking;
        m_scatterName = *scatter;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto refs = RefInputs::resolve(ctx, {kFusedVar, kFusedM, kFusedV}, m_useLocking);
        if (!refs)
            return refs.error();
        if (Status s = refs->checkInitialized(*this); !s.isOk())
            return s;
        Tensor& var = (*refs)[0];
        Tensor& m = (*refs)[1];
        Tensor& v = (*refs)[2];
        if (var.rank() < 1 || m.shape() != var.shape() || v.shape() != var.shape())
            return invalidArgumentError("var, m and v must have one shape of rank 1 or more, got " +
                                        var.shape().toString() + ", " + m.shape().toString() + " and " +
                                        v.shape().toString());
        const Tensor& indices = ctx.input(kFusedIndices);
        const Tensor& mUpdates = ctx.input(kFusedMUpdates);
        const Tensor& vUpdates = ctx.input(kFusedVUpdates);
        auto beta1 = Hyper<T>::of(ctx.input(kFusedBeta1), var.shape(), "beta1");
        auto beta2 = Hyper<T>::of(ctx.input(kFusedBeta2), var.shape(), "beta2");
        auto lr = Hyper<T>::of(ctx.input(kFusedLr), var.shape(), "lr");
        auto epsilon = Hyper<T>::of(ctx.input(kFusedEpsilon), var.shape(), "epsilon");
        for (const auto* h : {&beta1, &beta2, &lr, &epsilon})
            if (!*h)
                return h->error();
        Status shapes = checkScatterUpdatesShape(m, indices, mUpdates);
        if (shapes.isOk())
            shapes = checkScatterUpdatesShape(v, indices, vUpdates);
        Expected<std::vector<std::int64_t>> picked = unexpected(shapes);
        if (shapes.isOk())
            picked = checkedScatterIndices(indices, var.shape().dim(0));
        if (!picked) {
            // The Assigns that decay m and v do not depend on the indices: they ran before ScatterAdd failed.
            decayOnly(ctx, m, v, *beta1, *beta2);
            return picked.error().withContext("ScatterAdd '" + m_scatterName + "'");
        }
        update(ctx, var, m, v, *picked, mUpdates, vUpdates, *beta1, *beta2, *lr, *epsilon);
        if (Status s = refs->forwardRef(ctx, 0, 0); !s.isOk())
            return s;
        if (Status s = refs->forwardRef(ctx, 1, 1); !s.isOk())
            return s;
        return refs->forwardRef(ctx, 2, 2);
    }

private:
    /// m = m * b1, v = v * b2, var = var - (lr * m) / (sqrt(v) + eps) over n elements, in packets
    /// where Eigen has them for T. Each step is the element-wise op's own IEEE operation in the same
    /// order (multiplication, exact square root, addition, division, subtraction; no fused
    /// multiply-add), so every element is the op-by-op result bit for bit.
    static void decayAndMove(T* var, T* m, T* v, std::int64_t n, T b1, T b2, T lr, T eps)
    {
        namespace ei = Eigen::internal;
        using Packet = typename ei::packet_traits<T>::type;
        constexpr std::int64_t kSize = ei::packet_traits<T>::size;
        std::int64_t j = 0;
        if constexpr (kSize > 1 && (!std::is_same_v<T, float> || functor::kExactFloatSqrtPackets)) {
            const Packet pb1 = ei::pset1<Packet>(b1), pb2 = ei::pset1<Packet>(b2);
            const Packet plr = ei::pset1<Packet>(lr), peps = ei::pset1<Packet>(eps);
            for (; j + kSize <= n; j += kSize) {
                const Packet mj = ei::pmul(ei::ploadu<Packet>(m + j), pb1);
                const Packet vj = ei::pmul(ei::ploadu<Packet>(v + j), pb2);
                ei::pstoreu(m + j, mj);
                ei::pstoreu(v + j, vj);
                const Packet step = ei::pdiv(ei::pmul(plr, mj), ei::padd(functor::exactSqrt(vj), peps));
                ei::pstoreu(var + j, ei::psub(ei::ploadu<Packet>(var + j), step));
            }
        }
        for (; j < n; ++j) {
            const T mj = m[j] * b1;
            const T vj = v[j] * b2;
            m[j] = mj;
            v[j] = vj;
            var[j] = var[j] - (lr * mj) / (std::sqrt(vj) + eps);
        }
    }

    static void decayOnly(OpKernelContext& ctx, Tensor& m, Tensor& v, const Hyper<T>& beta1, const Hyper<T>& beta2)
    {
        T* mp = m.values<T>().data();
        T* vp = v.values<T>().data();
        const Eigen::TensorOpCost cost(2 * sizeof(T), 2 * sizeof(T), 2);
        cpuParallelFor(*ctx.device().eigenCpuDevice(), static_cast<Eigen::Index>(m.numElements()), cost,
                       [&](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index e = first; e < last; ++e) {
                               mp[e] = mp[e] * beta1[e];
                               vp[e] = vp[e] * beta2[e];
                           }
                       });
    }

    static void update(OpKernelContext& ctx, Tensor& var, Tensor& m, Tensor& v, const std::vector<std::int64_t>& picked,
                       const Tensor& mUpdates, const Tensor& vUpdates, const Hyper<T>& beta1, const Hyper<T>& beta2,
                       const Hyper<T>& lr, const Hyper<T>& epsilon)
    {
        const std::int64_t rows = var.shape().dim(0);
        const std::int64_t rowSize = rows == 0 ? 0 : var.numElements() / rows;
        // The scatter's entries by row, each row's in index order (ScatterAdd adds them in that order).
        std::vector<std::pair<std::int64_t, std::size_t>> byRow;
        byRow.reserve(picked.size());
        for (std::size_t i = 0; i < picked.size(); ++i)
            byRow.emplace_back(picked[i], i);
        std::stable_sort(byRow.begin(), byRow.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        T* varp = var.values<T>().data();
        T* mp = m.values<T>().data();
        T* vp = v.values<T>().data();
        const T* mu = mUpdates.values<T>().data();
        const T* vu = vUpdates.values<T>().data();
        const bool mScalar = mUpdates.rank() == 0;
        const bool vScalar = vUpdates.rank() == 0;
        const bool single = beta1.single() && beta2.single() && lr.single() && epsilon.single();
        const T b1 = beta1[0], b2 = beta2[0], step = lr[0], eps = epsilon[0];
        const Eigen::TensorOpCost cost(3 * sizeof(T) * static_cast<double>(rowSize),
                                       3 * sizeof(T) * static_cast<double>(rowSize), 12.0 * static_cast<double>(rowSize));
        cpuParallelFor(*ctx.device().eigenCpuDevice(), static_cast<Eigen::Index>(rows), cost,
                       [&](Eigen::Index firstRow, Eigen::Index lastRow) {
            auto entry = std::lower_bound(byRow.begin(), byRow.end(), static_cast<std::int64_t>(firstRow),
                                          [](const auto& a, std::int64_t row) { return a.first < row; });
            for (Eigen::Index r = firstRow; r < lastRow; ++r) {
                const std::int64_t base = r * rowSize;
                T* mr = mp + base;
                T* vr = vp + base;
                T* varr = varp + base;
                const bool named = entry != byRow.end() && entry->first == r;
                if (single && !named) {
                    // The common row: decay and move in one pass.
                    decayAndMove(varr, mr, vr, rowSize, b1, b2, step, eps);
                    continue;
                }
                for (std::int64_t j = 0; j < rowSize; ++j) {
                    mr[j] = mr[j] * beta1[base + j];
                    vr[j] = vr[j] * beta2[base + j];
                }
                for (; entry != byRow.end() && entry->first == r; ++entry) {
                    const std::int64_t u = static_cast<std::int64_t>(entry->second) * rowSize;
                    for (std::int64_t j = 0; j < rowSize; ++j) {
                        mr[j] = mr[j] + (mScalar ? mu[0] : mu[u + j]);
                        vr[j] = vr[j] + (vScalar ? vu[0] : vu[u + j]);
                    }
                }
                for (std::int64_t j = 0; j < rowSize; ++j)
                    varr[j] = varr[j] - (lr[base + j] * mr[j]) / (std::sqrt(vr[j]) + epsilon[base + j]);
            }
        });
    }

    Status m_init;
    bool m_useLocking = false;
    std::string m_scatterName;
};

const tensorflow::OpDef& fusedOpDef()
{
    static const tensorflow::OpDef def = [] {
        tensorflow::OpDef d;
        d.set_name(kFusedSparseAdamOp);
        return d;
    }();
    return def;
}

} // namespace

Expected<std::unique_ptr<OpKernel>> makeFusedSparseAdamKernel(const tensorflow::NodeDef& def, Device& device)
{
    auto t = attrType(def, "T");
    if (!t)
        return unexpected(t.error());
    auto tindices = attrType(def, "Tindices");
    if (!tindices)
        return unexpected(tindices.error());
    if (*tindices != tensorflow::DT_INT32 && *tindices != tensorflow::DT_INT64)
        return unexpected(invalidArgumentError("a fused sparse Adam update takes int32 or int64 indices"));
    std::vector<DataType> inputs(kFusedInputCount, *t);
    for (int i : {kFusedVar, kFusedM, kFusedV})
        inputs[static_cast<std::size_t>(i)] = makeRefType(*t);
    inputs[kFusedIndices] = *tindices;
    std::vector<DataType> outputs(3, makeRefType(*t));
    OpKernelConstruction construction(def, fusedOpDef(), device, std::move(inputs), std::move(outputs));
    if (*t == tensorflow::DT_FLOAT)
        return std::unique_ptr<OpKernel>(std::make_unique<FusedSparseAdamKernel<float>>(construction));
    if (*t == tensorflow::DT_DOUBLE)
        return std::unique_ptr<OpKernel>(std::make_unique<FusedSparseAdamKernel<double>>(construction));
    return unexpected(invalidArgumentError("a fused sparse Adam update is for float or double variables"));
}

} // namespace tstudio::training
