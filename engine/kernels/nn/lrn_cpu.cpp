// CPU kernels of LRN and LRNGrad (4-D NHWC input; the window runs over the last dimension).
#define EIGEN_USE_THREADS

#include "kernels/nn/lrn.h"
#include "devices/cpu/cpu_parallel.h"
#include "kernels/nn/nn_kernels_internal.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tstudio::nn {

namespace {

using Index = Eigen::Index;
using Device = Eigen::ThreadPoolDevice;
using LrnTypes = TypeList<Eigen::half, float>;

/// N^-beta with TensorFlow's special cases for beta 1 and 0.5.
float negativePower(float n, float beta)
{
    if (beta == 1.0f)
        return 1.0f / n;
    if (beta == 0.5f)
        return 1.0f / std::sqrt(n);
    return std::exp(std::log(n) * -beta);
}

/// bias + alpha * sum of squares over the window of each depth of one row.
void norms(const LrnParams& p, const float* x, Index depth, float* norm)
{
    for (Index k = 0; k < depth; ++k) {
        const Index begin = std::max<Index>(0, k - p.depthRadius);
        const Index end = std::min<Index>(depth, k + p.depthRadius + 1);
        float sum = 0;
        for (Index j = begin; j < end; ++j)
            sum += x[j] * x[j];
        norm[k] = p.bias + p.alpha * sum;
    }
}

Expected<LrnParams> lrnParams(const tensorflow::NodeDef& node)
{
    LrnParams p;
    auto radius = attrInt(node, "depth_radius");
    if (!radius)
        return unexpected(radius.error());
    if (*radius < 0 || *radius >= std::numeric_limits<int>::max())
        return unexpected(invalidArgumentError("depth_radius = " + std::to_string(*radius) + " larger than int max"));
    p.depthRadius = *radius;
    for (auto [name, value] : {std::pair{"bias", &p.bias}, std::pair{"alpha", &p.alpha}, std::pair{"beta", &p.beta}}) {
        auto v = attrFloat(node, name);
        if (!v)
            return unexpected(v.error());
        *value = *v;
    }
    return p;
}

} // namespace

template <typename T>
void LrnCpu<T>::forward(const Device& d, const LrnParams& p, std::int64_t rows, std::int64_t depth, const T* input,
                        T* output)
{
    const double window = double(std::min<std::int64_t>(depth, 2 * p.depthRadius + 1));
    const Eigen::TensorOpCost cost(double(depth * sizeof(T)), double(depth * sizeof(T)), double(depth) * (window + 8));
    cpuParallelFor(d, rows, cost, [&](Index begin, Index end) {
        std::vector<float> x(static_cast<std::size_t>(depth));
        std::vector<float> norm(static_cast<std::size_t>(depth));
        for (Index r = begin; r < end; ++r) {
            const T* in = input + r * depth;
            for (Index k = 0; k < depth; ++k)
                x[static_cast<std::size_t>(k)] = float(in[k]);
            norms(p, x.data(), depth, norm.data());
            T* out = output + r * depth;
            for (Index k = 0; k < depth; ++k) {
                const auto i = static_cast<std::size_t>(k);
                out[k] = T(x[i] * negativePower(norm[i], p.beta));
            }
        }
    });
}

template <typename T>
void LrnCpu<T>::backward(const Device& d, const LrnParams& p, std::int64_t rows, std::int64_t depth, const T* grads,
                         const T* input, const T* activations, T* output)
{
    const float alphaBeta2 = -2.0f * p.alpha * p.beta;
    const double window = double(std::min<std::int64_t>(depth, 2 * p.depthRadius + 1));
    const Eigen::TensorOpCost cost(double(3 * depth * sizeof(T)), double(depth * sizeof(T)),
                                   double(depth) * window * 4);
    cpuParallelFor(d, rows, cost, [&](Index begin, Index end) {
        std::vector<float> x(static_cast<std::size_t>(depth));
        std::vector<float> norm(static_cast<std::size_t>(depth));
        std::vector<float> acc(static_cast<std::size_t>(depth));
        for (Index r = begin; r < end; ++r) {
            const Index base = r * depth;
            for (Index k = 0; k < depth; ++k)
                x[static_cast<std::size_t>(k)] = float(input[base + k]);
            norms(p, x.data(), depth, norm.data());
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (Index j = 0; j < depth; ++j) {
                const float gs = float(grads[base + j]);
                if (gs == 0.0f)
                    continue;
                const float n = norm[static_cast<std::size_t>(j)];
                const float activationsAb2 = alphaBeta2 * float(activations[base + j]);
                const Index kBegin = std::max<Index>(0, j - p.depthRadius);
                const Index kEnd = std::min<Index>(depth, j + p.depthRadius + 1);
                for (Index k = kBegin; k < kEnd; ++k) {
                    float dyi = x[static_cast<std::size_t>(k)] * activationsAb2 / n;
                    if (k == j)
                        dyi += negativePower(n, p.beta);
                    acc[static_cast<std::size_t>(k)] += dyi * gs;
                }
            }
            for (Index k = 0; k < depth; ++k)
                output[base + k] = T(acc[static_cast<std::size_t>(k)]);
        }
    });
}

template struct LrnCpu<float>;
template struct LrnCpu<Eigen::half>;

namespace {

class LrnOp : public NnKernel {
public:
    explicit LrnOp(OpKernelConstruction& c) : NnKernel(c) { read(lrnParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        if (input.rank() != 4)
            return invalidArgumentError("in must be 4-dimensional");
        auto out = ctx.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        const std::int64_t depth = input.shape().dim(3);
        if (input.numElements() == 0)
            return Status::ok();
        return dispatchDataType<LrnTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            LrnCpu<T>::forward(cpuDevice(ctx), m_params, input.numElements() / depth, depth, input.data<T>(),
                               (*out)->template data<T>());
        });
    }

private:
    LrnParams m_params;
};

class LrnGradOp : public NnKernel {
public:
    explicit LrnGradOp(OpKernelConstruction& c) : NnKernel(c) { read(lrnParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& grads = ctx.input(0);
        const Tensor& image = ctx.input(1);
        const Tensor& activations = ctx.input(2);
        if (grads.rank() != 4 || image.rank() != 4)
            return invalidArgumentError("inputs must be 4-dimensional");
        if (!(image.shape() == grads.shape()) || !(activations.shape() == grads.shape()))
            return invalidArgumentError("input_grads, input_image, and out_image should have the same shape");
        auto out = ctx.allocateOutput(0, grads.shape());
        if (!out)
            return out.error();
        const std::int64_t depth = grads.shape().dim(3);
        if (grads.numElements() == 0)
            return Status::ok();
        return dispatchDataType<LrnTypes>(grads.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            LrnCpu<T>::backward(cpuDevice(ctx), m_params, grads.numElements() / depth, depth, grads.data<T>(),
                                image.data<T>(), activations.data<T>(), (*out)->template data<T>());
        });
    }

private:
    LrnParams m_params;
};

} // namespace

Status registerLrnKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers float and half on CPU.
    const auto types = dataTypes(LrnTypes{});
    KernelAdder r(registry);
    r.add<LrnOp>("LRN", types).add<LrnGradOp>("LRNGrad", types);
    return r.status();
}

} // namespace tstudio::nn
