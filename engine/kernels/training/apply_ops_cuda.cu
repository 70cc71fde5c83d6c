// The GPU optimizer updates: one element per loop step, each the expression of apply_functors.h in
// the same order of operations, in the element type's own arithmetic (half rounds after every
// operation, as Eigen's half does on the CPU). The hyper-parameters are read from GPU memory. No
// pointer is declared __restrict__: a resource form may pass one variable as two slots.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/training/apply_ops_cuda.h"

#include <Eigen/Core>

namespace tstudio::training::cuda {

namespace {

using gpu::firstIndex;
using gpu::gridStride;
using Index = std::int64_t;

template <typename T> __device__ inline T sqrtOf(const T& x)
{
    return Eigen::numext::sqrt(x);
}
template <typename T> __device__ inline T rsqrtOf(const T& x)
{
    return Eigen::numext::rsqrt(x);
}

template <typename T> __global__ void gradientDescentKernel(Index n, T* var, const T* lr, const T* grad)
{
    const T alpha = *lr;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>())
        var[i] = var[i] - grad[i] * alpha;
}

template <typename T>
__global__ void momentumKernel(Index n, T* var, T* accum, const T* lr, const T* grad, const T* momentum,
                               bool useNesterov)
{
    const T rate = *lr;
    const T mu = *momentum;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        const T a = accum[i] * mu + g;
        accum[i] = a;
        if (useNesterov)
            var[i] = var[i] - (g * rate + a * mu * rate);
        else
            var[i] = var[i] - a * rate;
    }
}

template <typename T>
__global__ void adamKernel(Index n, T* var, T* m, T* v, const T* beta1Power, const T* beta2Power, const T* lr,
                           const T* beta1, const T* beta2, const T* epsilon, const T* grad, bool useNesterov)
{
    const T one(1);
    const T b1 = *beta1;
    const T oneMinusBeta1 = T(one - b1);
    const T oneMinusBeta2 = T(one - *beta2);
    const T eps = *epsilon;
    const T alpha = *lr * sqrtOf(T(one - *beta2Power)) / T(one - *beta1Power);
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        const T mi = m[i] + (g - m[i]) * oneMinusBeta1;
        const T vi = v[i] + (g * g - v[i]) * oneMinusBeta2;
        m[i] = mi;
        v[i] = vi;
        if (useNesterov)
            var[i] = var[i] - ((g * oneMinusBeta1 + mi * b1) * alpha) / (sqrtOf(vi) + eps);
        else
            var[i] = var[i] - (mi * alpha) / (sqrtOf(vi) + eps);
    }
}

template <typename T>
__global__ void rmsPropKernel(Index n, T* var, T* ms, T* mom, const T* lr, const T* rho, const T* momentum,
                              const T* epsilon, const T* grad)
{
    const T rate = *lr;
    const T oneMinusRho = T(T(1) - *rho);
    const T mu = *momentum;
    const T eps = *epsilon;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        const T s = ms[i] + (g * g - ms[i]) * oneMinusRho;
        const T mo = mom[i] * mu + (g * rate) / sqrtOf(T(s + eps));
        ms[i] = s;
        mom[i] = mo;
        var[i] = var[i] - mo;
    }
}

template <typename T>
__global__ void centeredRmsPropKernel(Index n, T* var, T* mg, T* ms, T* mom, const T* lr, const T* rho,
                                      const T* momentum, const T* epsilon, const T* grad)
{
    const T rate = *lr;
    const T oneMinusRho = T(T(1) - *rho);
    const T mu = *momentum;
    const T eps = *epsilon;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        const T s = ms[i] + (g * g - ms[i]) * oneMinusRho;
        const T a = mg[i] + (g - mg[i]) * oneMinusRho;
        const T mo = mom[i] * mu + (g * rate) / sqrtOf(T((s - a * a) + eps));
        ms[i] = s;
        mg[i] = a;
        mom[i] = mo;
        var[i] = var[i] - mo;
    }
}

template <typename T>
__global__ void adagradKernel(Index n, T* var, T* accum, const T* lr, const T* grad, bool updateSlots)
{
    const T rate = *lr;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        T a = accum[i];
        if (updateSlots) {
            a = a + g * g;
            accum[i] = a;
        }
        var[i] = var[i] - g * rate * rsqrtOf(a);
    }
}

template <typename T>
__global__ void adadeltaKernel(Index n, T* var, T* accum, T* accumUpdate, const T* lr, const T* rho, const T* epsilon,
                               const T* grad)
{
    const T rate = *lr;
    const T r = *rho;
    const T oneMinusRho = T(T(1) - r);
    const T eps = *epsilon;
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        const T g = grad[i];
        const T a = accum[i] * r + g * g * oneMinusRho;
        const T u = accumUpdate[i];
        const T update = sqrtOf(T(u + eps)) * rsqrtOf(T(a + eps)) * g;
        accum[i] = a;
        var[i] = var[i] - update * rate;
        accumUpdate[i] = u * r + update * update * oneMinusRho;
    }
}

/// Calls f(T{}) with the C++ type of `type`.
template <typename F> void byType(ApplyType type, F&& f)
{
    switch (type) {
    case ApplyType::kHalf: f(Eigen::half{}); break;
    case ApplyType::kFloat: f(float{}); break;
    case ApplyType::kDouble: f(double{}); break;
    }
}

/// One grid-stride launch of `kernel` over n elements on `stream`.
template <typename... Params, typename... Args>
void launchOn(cudaStream_t stream, void (*kernel)(Index, Params...), Index n, Args... args)
{
    kernel<<<gpu::blocksFor(n), gpu::kThreadsPerBlock, 0, stream>>>(n, args...);
}

template <typename T> T* typed(void* p)
{
    return static_cast<T*>(p);
}
template <typename T> const T* typed(const void* p)
{
    return static_cast<const T*>(p);
}

} // namespace

void launchApplyGradientDescent(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, const void* lr,
                                const void* grad)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, gradientDescentKernel<T>, n, typed<T>(var), typed<T>(lr), typed<T>(grad));
    });
}

void launchApplyMomentum(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, const void* lr,
                         const void* grad, const void* momentum, bool useNesterov)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, momentumKernel<T>, n, typed<T>(var), typed<T>(accum), typed<T>(lr), typed<T>(grad),
                 typed<T>(momentum), useNesterov);
    });
}

void launchApplyAdam(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* m, void* v,
                     const void* beta1Power, const void* beta2Power, const void* lr, const void* beta1,
                     const void* beta2, const void* epsilon, const void* grad, bool useNesterov)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, adamKernel<T>, n, typed<T>(var), typed<T>(m), typed<T>(v), typed<T>(beta1Power),
                 typed<T>(beta2Power), typed<T>(lr), typed<T>(beta1), typed<T>(beta2), typed<T>(epsilon),
                 typed<T>(grad), useNesterov);
    });
}

void launchApplyRmsProp(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* ms, void* mom,
                        const void* lr, const void* rho, const void* momentum, const void* epsilon, const void* grad)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, rmsPropKernel<T>, n, typed<T>(var), typed<T>(ms), typed<T>(mom), typed<T>(lr), typed<T>(rho),
                 typed<T>(momentum), typed<T>(epsilon), typed<T>(grad));
    });
}

void launchApplyCenteredRmsProp(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* mg, void* ms,
                                void* mom, const void* lr, const void* rho, const void* momentum, const void* epsilon,
                                const void* grad)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, centeredRmsPropKernel<T>, n, typed<T>(var), typed<T>(mg), typed<T>(ms), typed<T>(mom),
                 typed<T>(lr), typed<T>(rho), typed<T>(momentum), typed<T>(epsilon), typed<T>(grad));
    });
}

void launchApplyAdagrad(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, const void* lr,
                        const void* grad, bool updateSlots)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, adagradKernel<T>, n, typed<T>(var), typed<T>(accum), typed<T>(lr), typed<T>(grad),
                 updateSlots);
    });
}

void launchApplyAdadelta(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, void* accumUpdate,
                         const void* lr, const void* rho, const void* epsilon, const void* grad)
{
    byType(type, [&](auto tag) {
        using T = decltype(tag);
        launchOn(stream, adadeltaKernel<T>, n, typed<T>(var), typed<T>(accum), typed<T>(accumUpdate), typed<T>(lr),
                 typed<T>(rho), typed<T>(epsilon), typed<T>(grad));
    });
}

} // namespace tstudio::training::cuda
