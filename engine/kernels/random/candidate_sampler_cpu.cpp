// CPU kernels of the candidate sampling ops (ops/candidate_sampling_ops.cpp): the three samplers
// over range_sampler.h with TensorFlow 1.15's checks in its words and its reservation of the
// op's Philox stream per run, and ComputeAccidentalHits.
#include "kernels/random/candidate_sampler.h"
#include "kernels/random/guarded_philox_random.h"
#include "kernels/random/range_sampler.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"

#include <algorithm>
#include <cfloat>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tstudio {

namespace {

/// The attrs every sampler reads, checked once when the kernel is built.
struct SamplerAttrs {
    std::int64_t numTrue = 0;
    std::int64_t numSampled = 0;
    bool unique = false;
    std::int64_t rangeMax = 0; ///< unused by AllCandidateSampler, whose range is num_sampled
};

Expected<SamplerAttrs> readSamplerAttrs(const tensorflow::NodeDef& node, bool hasRange)
{
    SamplerAttrs attrs;
    auto numTrue = attrInt(node, "num_true");
    if (!numTrue)
        return unexpected(numTrue.error());
    auto numSampled = attrInt(node, "num_sampled");
    if (!numSampled)
        return unexpected(numSampled.error());
    auto unique = attrBool(node, "unique");
    if (!unique)
        return unexpected(unique.error());
    attrs.numTrue = *numTrue;
    attrs.numSampled = *numSampled;
    attrs.unique = *unique;
    attrs.rangeMax = attrs.numSampled;
    if (hasRange) {
        auto rangeMax = attrInt(node, "range_max");
        if (!rangeMax)
            return unexpected(rangeMax.error());
        attrs.rangeMax = *rangeMax;
    }
    if (attrs.numTrue < 1 || attrs.numSampled < 1 || attrs.rangeMax < 1)
        return unexpected(invalidArgumentError("Node '" + node.name() +
                                               "': num_true, num_sampled and range_max must be at least 1"));
    return attrs;
}

/// TensorFlow's BaseCandidateSamplerOp: one sampler built from the attrs, a Philox stream seeded
/// from seed/seed2, and per run 2048 * num_sampled 32-bit samples reserved (rejection sampling for
/// unique classes may use more, which then reuses words of the next run's block, as TensorFlow's
/// does).
class CandidateSamplerOp : public OpKernel {
public:
    CandidateSamplerOp(OpKernelConstruction& c, bool hasRange) : OpKernel(c)
    {
        auto attrs = readSamplerAttrs(c.node(), hasRange);
        if (!attrs) {
            m_init = attrs.error();
            return;
        }
        m_attrs = *attrs;
        m_init = m_generator.init(c.node());
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& trueClasses = ctx.input(0);
        if (trueClasses.rank() != 2)
            return invalidArgumentError("true_classes must be a matrix");
        const std::int64_t batch = trueClasses.shape().dim(0);
        if (trueClasses.shape().dim(1) != m_attrs.numTrue)
            return invalidArgumentError("true_classes must have num_true columns, expected: " +
                                        std::to_string(trueClasses.shape().dim(1)) +
                                        " was: " + std::to_string(m_attrs.numTrue));
        if (m_attrs.unique && m_attrs.numSampled > m_sampler->range())
            return invalidArgumentError("Sampler's range is too small.");

        auto sampled = ctx.allocateOutput(0, TensorShape{m_attrs.numSampled});
        if (!sampled)
            return sampled.error();
        auto trueCount = ctx.allocateOutput(1, TensorShape{batch, m_attrs.numTrue});
        if (!trueCount)
            return trueCount.error();
        auto sampledCount = ctx.allocateOutput(2, TensorShape{m_attrs.numSampled});
        if (!sampledCount)
            return sampledCount.error();

        const std::int64_t samples32 = 2048 * m_attrs.numSampled;
        random::PhiloxRandom generator = m_generator.reserveSamples128((samples32 + 3) / 4);
        random::SimplePhilox rnd(&generator);
        const auto n = static_cast<std::size_t>(m_attrs.numSampled);
        const auto extras = static_cast<std::size_t>(batch * m_attrs.numTrue);
        m_sampler->sampleBatchGetExpectedCount(rnd, m_attrs.unique, {(*sampled)->data<std::int64_t>(), n},
                                               {(*sampledCount)->data<float>(), n},
                                               {trueClasses.data<std::int64_t>(), extras},
                                               {(*trueCount)->data<float>(), extras});
        return Status::ok();
    }

protected:
    SamplerAttrs m_attrs;
    Status m_init;
    std::unique_ptr<random::RangeSampler> m_sampler;

private:
    random::GuardedPhiloxRandom m_generator;
};

class UniformCandidateSamplerOp : public CandidateSamplerOp {
public:
    explicit UniformCandidateSamplerOp(OpKernelConstruction& c) : CandidateSamplerOp(c, true)
    {
        if (m_init.isOk())
            m_sampler = std::make_unique<random::UniformSampler>(m_attrs.rangeMax);
    }
};

class LogUniformCandidateSamplerOp : public CandidateSamplerOp {
public:
    explicit LogUniformCandidateSamplerOp(OpKernelConstruction& c) : CandidateSamplerOp(c, true)
    {
        if (m_init.isOk())
            m_sampler = std::make_unique<random::LogUniformSampler>(m_attrs.rangeMax);
    }
};

class AllCandidateSamplerOp : public CandidateSamplerOp {
public:
    explicit AllCandidateSamplerOp(OpKernelConstruction& c) : CandidateSamplerOp(c, false)
    {
        if (m_init.isOk())
            m_sampler = std::make_unique<random::AllSampler>(m_attrs.numSampled);
    }
};

/// ComputeAccidentalHits: for each row i and true class j of true_classes that is among
/// sampled_candidates, an entry (i, the candidate's position, -FLT_MAX) in row-major order; a class
/// sampled more than once is found at its last position.
class ComputeAccidentalHitsOp : public OpKernel {
public:
    explicit ComputeAccidentalHitsOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto numTrue = attrInt(c.node(), "num_true");
        if (numTrue)
            m_numTrue = *numTrue;
        else
            m_init = numTrue.error();
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& trueClasses = ctx.input(0);
        if (trueClasses.rank() != 2 || trueClasses.shape().dim(1) != m_numTrue)
            return invalidArgumentError("true_candidates must be a batch_size * num_true matrix");
        const Tensor& sampled = ctx.input(1);
        if (sampled.rank() != 1)
            return invalidArgumentError(
                "sampled_candidates must be a vector, which is typically an output from CandidateSampler");
        std::unordered_map<std::int64_t, std::int64_t> positionOf;
        const std::int64_t* candidates = sampled.data<std::int64_t>();
        for (std::int64_t i = 0; i < sampled.shape().dim(0); ++i)
            positionOf[candidates[i]] = i;

        std::vector<std::int32_t> indices;
        std::vector<std::int64_t> ids;
        const std::int64_t batch = trueClasses.shape().dim(0);
        const std::int64_t* classes = trueClasses.data<std::int64_t>();
        for (std::int64_t i = 0; i < batch; ++i) {
            for (std::int64_t j = 0; j < m_numTrue; ++j) {
                const auto found = positionOf.find(classes[i * m_numTrue + j]);
                if (found == positionOf.end())
                    continue;
                indices.push_back(static_cast<std::int32_t>(i));
                ids.push_back(found->second);
            }
        }
        const TensorShape shape{static_cast<std::int64_t>(ids.size())};
        auto outIndices = ctx.allocateOutput(0, shape);
        if (!outIndices)
            return outIndices.error();
        auto outIds = ctx.allocateOutput(1, shape);
        if (!outIds)
            return outIds.error();
        auto outWeights = ctx.allocateOutput(2, shape);
        if (!outWeights)
            return outWeights.error();
        std::copy(indices.begin(), indices.end(), (*outIndices)->data<std::int32_t>());
        std::copy(ids.begin(), ids.end(), (*outIds)->data<std::int64_t>());
        std::fill_n((*outWeights)->data<float>(), ids.size(), -FLT_MAX);
        return Status::ok();
    }

private:
    std::int64_t m_numTrue = 0;
    Status m_init;
};

} // namespace

Status registerCandidateSamplerKernels(KernelRegistry& registry)
{
    auto cpu = [](const char* op) {
        KernelDef def;
        def.op = op;
        def.deviceType = "CPU";
        return def;
    };
    if (Status s = registry.add<UniformCandidateSamplerOp>(cpu("UniformCandidateSampler")); !s.isOk())
        return s;
    if (Status s = registry.add<LogUniformCandidateSamplerOp>(cpu("LogUniformCandidateSampler")); !s.isOk())
        return s;
    if (Status s = registry.add<AllCandidateSamplerOp>(cpu("AllCandidateSampler")); !s.isOk())
        return s;
    return registry.add<ComputeAccidentalHitsOp>(cpu("ComputeAccidentalHits"));
}

} // namespace tstudio
