// CPU kernel of Multinomial: TensorFlow 1.15's checks in its words, its reservation of the op's
// Philox stream per run, and its per-row sampling (multinomial.h) spread over the thread pool.
#define EIGEN_USE_THREADS

#include "kernels/random/multinomial.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/kernel_registry.h"
#include "kernels/random/guarded_philox_random.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <string>
#include <vector>

namespace tstudio::random {

// TensorFlow's kernel splits the batch into shards with Shard() and starts each shard's stream at
// Skip(start_row * (num_samples + 3) / 4), while each row consumes num_samples / 2 Philox calls; so
// its values depend on how many shards its thread pool makes (and shards can reuse each other's
// numbers). For a batch run as one shard - what TensorFlow does with one intra-op thread, and
// whenever its cost estimate is small (batch * 50 * (num_samples * log2(classes) + classes) below
// Eigen's threshold of about 100,000 cycles) - the rows simply follow each other in the stream. That
// single-shard stream is what is reproduced here, for any thread count: each row finds its own
// position in it, so rows can be sampled in parallel.
template <typename T, typename Out>
void MultinomialFunctor<Eigen::ThreadPoolDevice, T, Out>::operator()(const Eigen::ThreadPoolDevice& d, const T* logits,
                                                                     std::int64_t batch, std::int64_t classes,
                                                                     std::int64_t samples, const PhiloxRandom& gen,
                                                                     Out* out) const
{
    const Eigen::TensorOpCost cost(double(classes * sizeof(T)), double(samples * sizeof(Out)),
                                   double(5 * classes + samples * (20 + 4 * std::log2(double(classes) + 1))));
    cpuParallelFor(d, Eigen::Index(batch), cost, [&](Eigen::Index begin, Eigen::Index end) {
        std::vector<double> cdf(static_cast<std::size_t>(classes));
        for (Eigen::Index b = begin; b < end; ++b) {
            int drop = 0;
            PhiloxRandom rowGen = multinomialRowGenerator(gen, b, samples, &drop);
            SingleSampleAdapter<PhiloxRandom> words(&rowGen);
            for (int i = 0; i < drop; ++i)
                words();
            sampleMultinomialRow(logits + b * classes, classes, samples, words, cdf.data(), out + b * samples);
        }
    });
}

template struct MultinomialFunctor<Eigen::ThreadPoolDevice, Eigen::half, std::int32_t>;
template struct MultinomialFunctor<Eigen::ThreadPoolDevice, Eigen::half, std::int64_t>;
template struct MultinomialFunctor<Eigen::ThreadPoolDevice, float, std::int32_t>;
template struct MultinomialFunctor<Eigen::ThreadPoolDevice, float, std::int64_t>;
template struct MultinomialFunctor<Eigen::ThreadPoolDevice, double, std::int32_t>;
template struct MultinomialFunctor<Eigen::ThreadPoolDevice, double, std::int64_t>;

namespace {

/// TensorFlow 1.15 registers Multinomial on CPU for half, float and double logits.
using LogitTypes = TypeList<Eigen::half, float, double>;
using IndexTypes = TypeList<std::int32_t, std::int64_t>;

/// Multinomial (TensorFlow's StatefulMultinomialOp): a generator seeded from seed/seed2 when the
/// kernel is built, a block of its stream reserved per run.
class MultinomialOp : public OpKernel {
public:
    explicit MultinomialOp(OpKernelConstruction& c) : OpKernel(c) { m_init = m_generator.init(c.node()); }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& logits = ctx.input(0);
        const Tensor& numSamples = ctx.input(1);
        if (logits.rank() != 2)
            return invalidArgumentError("logits should be a matrix, got shape " + logits.shape().toString());
        if (numSamples.rank() != 0) {
            return invalidArgumentError("num_samples should be a scalar, got shape " + numSamples.shape().toString());
        }
        const std::int32_t samples = numSamples.scalar<std::int32_t>();
        if (samples < 0)
            return invalidArgumentError("num_samples should be nonnegative, got " + std::to_string(samples));
        for (int i = 0; i < 2; ++i) {
            const std::int64_t dim = logits.shape().dim(i);
            if (dim != static_cast<std::int64_t>(static_cast<std::int32_t>(dim)))
                return invalidArgumentError("logits.shape = " + logits.shape().toString() + " too large for int");
        }
        const std::int64_t batch = logits.shape().dim(0);
        const std::int64_t classes = logits.shape().dim(1);
        if (classes <= 0)
            return invalidArgumentError("num_classes should be positive, got " + std::to_string(classes));
        auto out = ctx.allocateOutput(0, TensorShape{batch, samples});
        if (!out)
            return out.error();
        Tensor& output = **out;
        // As in TensorFlow, an empty output draws nothing and leaves the stream where it was.
        if (output.numElements() == 0)
            return Status::ok();
        const PhiloxRandom gen = m_generator.reserveRandomOutputs(multinomialReservedOutputs(batch, samples), 256);
        const Eigen::ThreadPoolDevice& device = *ctx.device().eigenCpuDevice();
        return dispatchDataType<LogitTypes>(logits.dtype(), [&](auto logitTag) {
            using T = typename decltype(logitTag)::type;
            return dispatchDataType<IndexTypes>(output.dtype(), [&](auto indexTag) {
                using Out = typename decltype(indexTag)::type;
                MultinomialFunctor<Eigen::ThreadPoolDevice, T, Out>()(device, logits.data<T>(), batch, classes, samples,
                                                                      gen, output.data<Out>());
            });
        });
    }

private:
    GuardedPhiloxRandom m_generator;
    Status m_init;
};

} // namespace

Status registerMultinomialKernels(KernelRegistry& registry)
{
    KernelDef def;
    def.op = "Multinomial";
    def.deviceType = "CPU";
    def.typeConstraints = {{"T", {tensorflow::DT_HALF, tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE}},
                           {"output_dtype", {tensorflow::DT_INT32, tensorflow::DT_INT64}}};
    return registry.add<MultinomialOp>(std::move(def));
}

} // namespace tstudio::random
