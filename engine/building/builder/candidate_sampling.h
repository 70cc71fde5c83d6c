// tf.nn's candidate samplers and compute_accidental_hits (TensorFlow 1.15's
// candidate_sampling_ops.py): the ops of ops/candidate_sampling_ops.cpp with their seeds taken as
// tf.get_seed takes them. The sampled losses (losses/sampled_losses.h) build on them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tstudio::nn {

/// What a candidate sampler returns (its three outputs): the sampled classes [num_sampled] int64,
/// the expected count of each true class [batch, num_true] and of each sampled class
/// [num_sampled], both float.
struct SampledValues {
    Output sampledCandidates;
    Output trueExpectedCount;
    Output sampledExpectedCount;
};

/// The arguments every sampler takes.
struct CandidateSamplerArgs {
    std::int64_t numTrue = 1;
    std::int64_t numSampled = 1;
    bool unique = true;
    std::int64_t rangeMax = 1; ///< not used by allCandidateSampler
    std::optional<std::int64_t> seed; ///< the op-level seed (tf.get_seed)
};

/// tf.nn.uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed,
/// name): the op UniformCandidateSampler named `name` (default its type). true_classes must be an
/// int64 matrix [batch, num_true] (the op's type and shape checks otherwise).
Expected<SampledValues> uniformCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                                const CandidateSamplerArgs& args, std::string_view name = {});
/// tf.nn.log_uniform_candidate_sampler: LogUniformCandidateSampler, P(k) = log((k+2)/(k+1)) /
/// log(range_max+1).
Expected<SampledValues> logUniformCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                                   const CandidateSamplerArgs& args, std::string_view name = {});
/// tf.nn.all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed): every class
/// 0 .. num_sampled - 1, expected counts 1 (AllCandidateSampler; rangeMax is not used).
Expected<SampledValues> allCandidateSampler(GraphBuilder& b, const Output& trueClasses,
                                            const CandidateSamplerArgs& args, std::string_view name = {});

/// What compute_accidental_hits returns: per hit, the row (int32), the position among the sampled
/// candidates (int64) and the weight -FLT_MAX (float), as vectors.
struct AccidentalHits {
    Output indices;
    Output ids;
    Output weights;
};

/// tf.nn.compute_accidental_hits(true_classes, sampled_candidates, num_true, seed, name): the op
/// ComputeAccidentalHits named `name` (default its type).
Expected<AccidentalHits> computeAccidentalHits(GraphBuilder& b, const Output& trueClasses,
                                               const Output& sampledCandidates, std::int64_t numTrue,
                                               std::optional<std::int64_t> seed = std::nullopt,
                                               std::string_view name = {});

} // namespace tstudio::nn
