// _FusedMatMulSum on the CPU: the uses' rows gathered into two matrices, one transposed product, then
// the AddN's other inputs added (see matmul_sum_cpu.h).
#define EIGEN_USE_THREADS
#include "kernels/linalg/matmul_sum_cpu.h"

#include "framework/node_attrs.h"
#include "kernels/linalg/matmul.h"
#include "kernels/linalg/matmul_cpu.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace tstudio::linalg {

namespace {

const tensorflow::OpDef& matMulSumOpDef()
{
    static const tensorflow::OpDef def = [] {
        tensorflow::OpDef d;
        d.set_name(kFusedMatMulSumOp);
        return d;
    }();
    return def;
}

template <typename T> class MatMulSumKernel final : public OpKernel {
public:
    MatMulSumKernel(OpKernelConstruction& construction, int products, std::vector<std::string> names,
                    std::vector<std::int64_t> slots)
        : OpKernel(construction), m_products(products), m_names(std::move(names)), m_slots(std::move(slots))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        std::int64_t p = -1, q = -1, rows = 0;
        for (int i = 0; i < m_products; ++i) {
            const TensorShape& a = ctx.input(2 * i).shape();
            const TensorShape& b = ctx.input(2 * i + 1).shape();
            auto dims = matMulDims(a, b, true, false);
            if (!dims)
                return Status(dims.error().code(), "MatMul " + m_names[static_cast<std::size_t>(i)] + ": " +
                                                       dims.error().message());
            if (i > 0 && (dims->m != p || dims->n != q))
                return addNShapeError(0, TensorShape{p, q}, i, TensorShape{dims->m, dims->n});
            p = dims->m;
            q = dims->n;
            rows += dims->k;
        }
        const TensorShape shape{p, q};
        for (int e = 2 * m_products; e < ctx.numInputs(); ++e)
            if (ctx.input(e).shape() != shape)
                return addNShapeError(0, shape, e - m_products, ctx.input(e).shape());
        auto out = ctx.allocateOutput(0, shape);
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        T* result = (*out)->template data<T>();
        const Eigen::ThreadPoolDevice* device = ctx.device().eigenCpuDevice();
        if (rows == 0) {
            std::fill(result, result + p * q, T(0));
        } else {
            // The uses' rows one after the other: [rows, p] and [rows, q].
            auto a = Tensor::allocateUninitialized(ctx.allocator(), kDataTypeOf<T>, TensorShape{rows, p});
            auto b = Tensor::allocateUninitialized(ctx.allocator(), kDataTypeOf<T>, TensorShape{rows, q});
            if (!a)
                return a.error();
            if (!b)
                return b.error();
            T* aAt = a->template data<T>();
            T* bAt = b->template data<T>();
            for (int i = 0; i < m_products; ++i) {
                const Tensor& ai = ctx.input(2 * i);
                const Tensor& bi = ctx.input(2 * i + 1);
                if (ai.numElements() > 0)
                    std::memcpy(aAt, ai.template data<T>(), static_cast<std::size_t>(ai.numElements()) * sizeof(T));
                if (bi.numElements() > 0)
                    std::memcpy(bAt, bi.template data<T>(), static_cast<std::size_t>(bi.numElements()) * sizeof(T));
                aAt += ai.numElements();
                bAt += bi.numElements();
            }
            matMulCpu<T>(device, a->template data<T>(), b->template data<T>(), result, p, q, rows, true, false, false,
                         false);
        }
        // The AddN's other inputs, in their order.
        for (int e = 2 * m_products; e < ctx.numInputs(); ++e) {
            const T* extra = ctx.input(e).template data<T>();
            for (std::int64_t j = 0; j < p * q; ++j)
                result[j] += extra[j];
        }
        return Status::ok();
    }

private:
    /// AddN's check of its inputs' shapes, as TensorFlow words it, with the AddN's input numbers of
    /// the fused inputs `first` and `other` (products first, then the further inputs).
    Status addNShapeError(int first, const TensorShape& a, int other, const TensorShape& b) const
    {
        return invalidArgumentError("Inputs to operation " + name() + " of type AddN must have the same size and "
                                    "shape.  Input " + std::to_string(m_slots[static_cast<std::size_t>(first)]) + ": " +
                                    a.toString() + " != input " +
                                    std::to_string(m_slots[static_cast<std::size_t>(other)]) + ": " + b.toString());
    }

    int m_products;
    std::vector<std::string> m_names;
    std::vector<std::int64_t> m_slots; ///< the AddN's input number of each product, then of each further input
};

} // namespace

Expected<std::unique_ptr<OpKernel>> makeMatMulSumKernel(const tensorflow::NodeDef& def, Device& device)
{
    auto t = attrType(def, "T");
    if (!t)
        return unexpected(t.error());
    auto products = attrInt(def, "N");
    if (!products)
        return unexpected(products.error());
    auto names = attrStringList(def, "_products");
    if (!names)
        return unexpected(names.error());
    auto slots = attrIntList(def, "_slots");
    if (!slots)
        return unexpected(slots.error());
    const int inputs = def.input_size();
    if (*products < 2 || 2 * *products > inputs || static_cast<std::int64_t>(names->size()) != *products ||
        static_cast<std::int64_t>(slots->size()) != inputs - *products)
        return unexpected(invalidArgumentError("_FusedMatMulSum " + def.name() + ": N = " + std::to_string(*products) +
                                               " products with " + std::to_string(names->size()) + " names, " +
                                               std::to_string(slots->size()) + " AddN slots and " +
                                               std::to_string(inputs) + " inputs"));
    std::vector<DataType> inputTypes(static_cast<std::size_t>(inputs), *t);
    OpKernelConstruction construction(def, matMulSumOpDef(), device, std::move(inputTypes), {*t});
    const int n = static_cast<int>(*products);
    if (*t == tensorflow::DT_FLOAT)
        return std::unique_ptr<OpKernel>(std::make_unique<MatMulSumKernel<float>>(construction, n, std::move(*names),
                                                                                  std::move(*slots)));
    if (*t == tensorflow::DT_DOUBLE)
        return std::unique_ptr<OpKernel>(std::make_unique<MatMulSumKernel<double>>(construction, n, std::move(*names),
                                                                                   std::move(*slots)));
    return unexpected(invalidArgumentError("_FusedMatMulSum " + def.name() + " is for float or double products"));
}

} // namespace tstudio::linalg
