// CPU kernels of the SparseApply* optimizer updates (ref variables) and their ResourceSparseApply*
// forms: the dense Apply* formula applied to the rows named by indices, one index after the other
// in the order given, so a repeated index is updated once per occurrence (as TensorFlow's kernels
// do; the optimizers sum duplicates first). The checks come first, in TensorFlow's words; every
// index is checked before anything is written.
#define EIGEN_USE_THREADS

#include "kernels/training/sparse_apply_kernels.h"

#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_op_cpu.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tstudio {
namespace {

using training::requireSameShape;
using training::requireScalar;

/// The checks every SparseApply* kernel makes on var, grad and indices, and the rows they name.
Expected<std::vector<std::int64_t>> checkSparse(const Tensor& var, const Tensor& grad, const Tensor& indices)
{
    if (var.rank() < 1)
        return unexpected(invalidArgumentError("var must be at least 1 dimensional"));
    if (indices.rank() != 1)
        return unexpected(invalidArgumentError("indices must be one-dimensional"));
    for (int d = 1; d < var.rank(); ++d) {
        if (grad.rank() != var.rank() || var.shape().dim(d) != grad.shape().dim(d))
            return unexpected(invalidArgumentError("var and grad must match in dimension " + std::to_string(d) +
                                                   ": var " + var.shape().toString() + ", grad " +
                                                   grad.shape().toString()));
    }
    if (grad.rank() < 1 || grad.shape().dim(0) != indices.shape().dim(0))
        return unexpected(invalidArgumentError("grad must be the same size as indices in the first dimension."));
    const std::int64_t rows = var.shape().dim(0);
    std::vector<std::int64_t> out(static_cast<std::size_t>(indices.numElements()));
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = indices.dtype() == tensorflow::DT_INT64 ? indices.values<std::int64_t>()[i]
                                                         : indices.values<std::int32_t>()[i];
        if (out[i] < 0 || out[i] >= rows)
            return unexpected(invalidArgumentError("Index " + std::to_string(out[i]) + " at offset " +
                                                   std::to_string(i) + " in indices is out of range"));
    }
    return out;
}

/// The arithmetic type: float for half (as Eigen evaluates half expressions), T otherwise.
template <typename T> using Acc = std::conditional_t<std::is_same_v<T, Eigen::half>, float, T>;

template <typename T> Acc<T> scalarOf(const Tensor& t)
{
    return static_cast<Acc<T>>(t.values<T>()[0]);
}

template <typename T> struct SparseKernels {
    template <template <typename> class Form> class Momentum : public Form<T> {
    public:
        explicit Momentum(OpKernelConstruction& c) : Form<T>(c), m_nesterov(this->boolAttr(c, "use_nesterov")) {}
        Status compute(OpKernelContext& ctx) override
        {
            return this->run(ctx, {0, 1}, [&](auto& vars) -> Status {
                Tensor& var = vars[0];
                Tensor& accum = vars[1];
                const Tensor& lr = ctx.input(2);
                const Tensor& grad = ctx.input(3);
                const Tensor& indices = ctx.input(4);
                const Tensor& momentum = ctx.input(5);
                if (Status s = requireSameShape(var, accum, "accum"); !s.isOk())
                    return s;
                if (Status s = requireScalar(lr, "lr"); !s.isOk())
                    return s;
                if (Status s = requireScalar(momentum, "momentum"); !s.isOk())
                    return s;
                auto picked = checkSparse(var, grad, indices);
                if (!picked)
                    return picked.error();
                const Acc<T> a = scalarOf<T>(lr);
                const Acc<T> mu = scalarOf<T>(momentum);
                T* pVar = var.values<T>().data();
                T* pAccum = accum.values<T>().data();
                const T* pGrad = grad.values<T>().data();
                forRows(var, grad, *picked, [&](std::int64_t row, std::int64_t i, std::int64_t j) {
                    T& v = pVar[row + j];
                    T& m = pAccum[row + j];
                    const Acc<T> g = static_cast<Acc<T>>(pGrad[i + j]);
                    const Acc<T> newAccum = static_cast<Acc<T>>(m) * mu + g;
                    m = static_cast<T>(newAccum);
                    if (m_nesterov)
                        v = static_cast<T>(static_cast<Acc<T>>(v) - (g * a + static_cast<Acc<T>>(m) * mu * a));
                    else
                        v = static_cast<T>(static_cast<Acc<T>>(v) - static_cast<Acc<T>>(m) * a);
                });
                return Status::ok();
            });
        }

    private:
        bool m_nesterov;
    };

    template <template <typename> class Form> class Adagrad : public Form<T> {
    public:
        explicit Adagrad(OpKernelConstruction& c) : Form<T>(c), m_updateSlots(this->boolAttr(c, "update_slots")) {}
        Status compute(OpKernelContext& ctx) override
        {
            return this->run(ctx, {0, 1}, [&](auto& vars) -> Status {
                Tensor& var = vars[0];
                Tensor& accum = vars[1];
                const Tensor& lr = ctx.input(2);
                const Tensor& grad = ctx.input(3);
                const Tensor& indices = ctx.input(4);
                if (Status s = requireSameShape(var, accum, "accum"); !s.isOk())
                    return s;
                if (Status s = requireScalar(lr, "lr"); !s.isOk())
                    return s;
                auto picked = checkSparse(var, grad, indices);
                if (!picked)
                    return picked.error();
                const Acc<T> a = scalarOf<T>(lr);
                T* pVar = var.values<T>().data();
                T* pAccum = accum.values<T>().data();
                const T* pGrad = grad.values<T>().data();
                forRows(var, grad, *picked, [&](std::int64_t row, std::int64_t i, std::int64_t j) {
                    T& v = pVar[row + j];
                    T& acc = pAccum[row + j];
                    const Acc<T> g = static_cast<Acc<T>>(pGrad[i + j]);
                    if (m_updateSlots)
                        acc = static_cast<T>(static_cast<Acc<T>>(acc) + g * g);
                    v = static_cast<T>(static_cast<Acc<T>>(v) - a * g / std::sqrt(static_cast<Acc<T>>(acc)));
                });
                return Status::ok();
            });
        }

    private:
        bool m_updateSlots;
    };

    /// RMSProp and, with kCentered, CenteredRMSProp: the same update except that the centered form
    /// also tracks the mean gradient mg (its slot comes before ms, shifting every later input by one)
    /// and subtracts its square from ms under the root.
    template <template <typename> class Form, bool kCentered> class RMSPropKernel : public Form<T> {
    public:
        using Form<T>::Form;
        Status compute(OpKernelContext& ctx) override
        {
            if constexpr (kCentered)
                return this->run(ctx, {0, 1, 2, 3},
                                 [&](auto& vars) { return update(ctx, vars[0], &vars[1], vars[2], vars[3]); });
            else
                return this->run(ctx, {0, 1, 2},
                                 [&](auto& vars) { return update(ctx, vars[0], nullptr, vars[1], vars[2]); });
        }

    private:
        /// The inputs after the variables: lr, rho, momentum, epsilon, grad, indices.
        static constexpr int kLr = kCentered ? 4 : 3;

        static Status update(OpKernelContext& ctx, Tensor& var, Tensor* mg, Tensor& ms, Tensor& mom)
        {
            const Tensor& grad = ctx.input(kLr + 4);
            const Tensor& indices = ctx.input(kLr + 5);
            for (auto [i, name] :
                 {std::pair{kLr, "lr"}, {kLr + 1, "rho"}, {kLr + 2, "momentum"}, {kLr + 3, "epsilon"}}) {
                if (Status s = requireScalar(ctx.input(i), name); !s.isOk())
                    return s;
            }
            for (auto [t, name] : {std::pair<Tensor*, const char*>{mg, "mg"}, {&ms, "ms"}, {&mom, "mom"}}) {
                if (t == nullptr) // no mg without kCentered
                    continue;
                if (Status s = requireSameShape(var, *t, name); !s.isOk())
                    return s;
            }
            auto picked = checkSparse(var, grad, indices);
            if (!picked)
                return picked.error();
            const Acc<T> lr = scalarOf<T>(ctx.input(kLr));
            const Acc<T> rho = scalarOf<T>(ctx.input(kLr + 1));
            const Acc<T> momentum = scalarOf<T>(ctx.input(kLr + 2));
            const Acc<T> epsilon = scalarOf<T>(ctx.input(kLr + 3));
            T* pVar = var.values<T>().data();
            const T* pGrad = grad.values<T>().data();
            T* pMs = ms.values<T>().data();
            T* pMom = mom.values<T>().data();
            T* pMg = mg != nullptr ? mg->values<T>().data() : nullptr;
            forRows(var, grad, *picked, [&](std::int64_t row, std::int64_t i, std::int64_t j) {
                T& v = pVar[row + j];
                T& s = pMs[row + j];
                T& m = pMom[row + j];
                const Acc<T> g = static_cast<Acc<T>>(pGrad[i + j]);
                const Acc<T> one(1);
                s = static_cast<T>(static_cast<Acc<T>>(s) * rho + g * g * (one - rho));
                Acc<T> denom;
                if constexpr (kCentered) {
                    T& g1 = pMg[row + j];
                    g1 = static_cast<T>(static_cast<Acc<T>>(g1) * rho + g * (one - rho));
                    denom = static_cast<Acc<T>>(s) - static_cast<Acc<T>>(g1) * static_cast<Acc<T>>(g1) + epsilon;
                } else {
                    denom = static_cast<Acc<T>>(s) + epsilon;
                }
                m = static_cast<T>(static_cast<Acc<T>>(m) * momentum + lr * g / std::sqrt(denom));
                v = static_cast<T>(static_cast<Acc<T>>(v) - static_cast<Acc<T>>(m));
            });
            return Status::ok();
        }
    };
    template <template <typename> class Form> using RMSProp = RMSPropKernel<Form, false>;
    template <template <typename> class Form> using CenteredRMSProp = RMSPropKernel<Form, true>;

    /// Calls body(first element of var's row, first element of grad's row, j) for every element j of
    /// every row named, in index order.
    template <typename Body>
    static void forRows(const Tensor& var, const Tensor& grad, const std::vector<std::int64_t>& picked, Body&& body)
    {
        (void)grad;
        const std::int64_t rows = var.shape().dim(0);
        const std::int64_t rowSize = rows == 0 ? 0 : var.numElements() / rows;
        for (std::size_t i = 0; i < picked.size(); ++i) {
            const std::int64_t row = picked[i] * rowSize;
            const std::int64_t gradRow = static_cast<std::int64_t>(i) * rowSize;
            for (std::int64_t j = 0; j < rowSize; ++j)
                body(row, gradRow, j);
        }
    }
};

template <typename T> using CpuRef = training::RefApplyKernel<T, training::CpuApplyDevice>;
template <typename T> using CpuResource = training::ResourceApplyKernel<T, training::CpuApplyDevice>;

template <template <template <typename> class> class Kernel, typename T>
Status addBoth(KernelRegistry& registry, const std::string& name, const std::vector<std::string>& variables)
{
    for (DataType indexType : {tensorflow::DT_INT32, tensorflow::DT_INT64}) {
        Status s = registry.add<Kernel<CpuRef>>(
            KernelDef{"SparseApply" + name, "CPU", {{"T", {kDataTypeOf<T>}}, {"Tindices", {indexType}}}, {}});
        if (s.isOk())
            s = registry.add<Kernel<CpuResource>>(KernelDef{
                "ResourceSparseApply" + name, "CPU", {{"T", {kDataTypeOf<T>}}, {"Tindices", {indexType}}}, variables});
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

template <typename T> Status addForType(KernelRegistry& registry)
{
    using K = SparseKernels<T>;
    Status s = addBoth<K::template Momentum, T>(registry, "Momentum", {"var", "accum"});
    if (s.isOk())
        s = addBoth<K::template Adagrad, T>(registry, "Adagrad", {"var", "accum"});
    if (s.isOk())
        s = addBoth<K::template RMSProp, T>(registry, "RMSProp", {"var", "ms", "mom"});
    if (s.isOk())
        s = addBoth<K::template CenteredRMSProp, T>(registry, "CenteredRMSProp", {"var", "mg", "ms", "mom"});
    return s;
}

} // namespace

Status registerSparseApplyKernels(KernelRegistry& registry)
{
    Status s = addForType<Eigen::half>(registry);
    if (s.isOk())
        s = addForType<float>(registry);
    if (s.isOk())
        s = addForType<double>(registry);
    return s;
}

} // namespace tstudio
