// The candidate sampler wrappers of candidate_sampling.h.
#include "builder/candidate_sampling.h"

#include "builder/attr_values.h"

#include <string>
#include <utility>

namespace tstudio::nn {

namespace {

Expected<SampledValues> sampler(GraphBuilder& b, std::string_view type, const Output& trueClasses,
                                const CandidateSamplerArgs& args, bool hasRange, std::string_view name)
{
    const RandomSeeds seeds = b.seedsFor(args.seed);
    AttrMap attrs = {{"num_true", attr::i(args.numTrue)},
                     {"num_sampled", attr::i(args.numSampled)},
                     {"unique", attr::b(args.unique)},
                     {"seed", attr::i(seeds.seed)},
                     {"seed2", attr::i(seeds.seed2)}};
    if (hasRange)
        attrs.emplace("range_max", attr::i(args.rangeMax));
    auto op = b.op(type, {trueClasses}, std::move(attrs), name.empty() ? type : name);
    if (!op)
        return unexpected(op.error());
    return SampledValues{op->output(0), op->output(1), op->output(2)};
}

} // namespace

Expected<SampledValues> uniformCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                                const CandidateSamplerArgs& args, std::string_view name)
{
    return sampler(b, "UniformCandidateSampler", trueClasses, args, true, name);
}

Expected<SampledValues> logUniformCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                                   const CandidateSamplerArgs& args, std::string_view name)
{
    return sampler(b, "LogUniformCandidateSampler", trueClasses, args, true, name);
}

Expected<SampledValues> allCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                            const CandidateSamplerArgs& args, std::string_view name)
{
    return sampler(b, "AllCandidateSampler", trueClasses, args, false, name);
}

Expected<AccidentalHits> computeAccidentalHits(GraphBuilder& b, const Output& trueClasses,
                                               const Output& sampledCandidates, std::int64_t numTrue,
                                               std::optional<std::int64_t> seed, std::string_view name)
{
    const RandomSeeds seeds = b.seedsFor(seed);
    auto op = b.op("ComputeAccidentalHits", {trueClasses, sampledCandidates},
                   {{"num_true", attr::i(numTrue)}, {"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}},
                   name.empty() ? std::string_view("ComputeAccidentalHits") : name);
    if (!op)
        return unexpected(op.error());
    return AccidentalHits{op->output(0), op->output(1), op->output(2)};
}

} // namespace tstudio::nn
