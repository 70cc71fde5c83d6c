// The candidate sampling ops of TensorFlow 1.15 (candidate_sampling_ops.cc) that tf.nn's sampled
// losses build on: UniformCandidateSampler, LogUniformCandidateSampler and AllCandidateSampler,
// which draw the negative classes of a batch and report each class's expected count, and
// ComputeAccidentalHits, which finds the sampled classes that are a row's true classes. The
// samplers are stateful (each run draws new classes) and take the seed/seed2 pair.
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using C = ShapeInferenceContext;

/// A candidate sampler's OpDef: one int64 input, the three outputs and the sampler attrs
/// (range_max for all but AllCandidateSampler, whose range is num_sampled).
OpDefBuilder samplerOp(const char* name, const char* summary, bool hasRange)
{
    OpDefBuilder op(name);
    op.summary(summary)
        .category(op_category::kRandom)
        .setIsStateful()
        .input("true_classes: int64")
        .output("sampled_candidates: int64")
        .output("true_expected_count: float")
        .output("sampled_expected_count: float")
        .attr("num_true: int >= 1")
        .attr("num_sampled: int >= 1")
        .attr("unique: bool");
    if (hasRange)
        op.attr("range_max: int >= 1");
    op.attr("seed: int = 0").attr("seed2: int = 0");
    return op;
}

std::vector<OpDefBuilder> candidateSamplingOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    ops.push_back(samplerOp("UniformCandidateSampler",
                            "num_sampled classes drawn uniformly from [0, range_max), with the expected count of "
                            "each true and sampled class.",
                            true));
    ops.push_back(samplerOp("LogUniformCandidateSampler",
                            "num_sampled classes drawn from the log-uniform (Zipfian) distribution over "
                            "[0, range_max), with the expected count of each true and sampled class.",
                            true));
    ops.push_back(samplerOp("AllCandidateSampler",
                            "Every class in [0, num_sampled) as the sampled candidates, each with expected count 1.",
                            false));
    {
        OpDefBuilder op("ComputeAccidentalHits");
        op.summary("The positions of sampled candidates that match a row's true classes (accidental hits), "
                   "with weight -FLT_MAX.")
            .category(op_category::kNN)
            .input("true_classes: int64")
            .input("sampled_candidates: int64")
            .output("indices: int32")
            .output("ids: int64")
            .output("weights: float")
            .attr("num_true: int")
            .attr("seed: int = 0")
            .attr("seed2: int = 0");
        ops.push_back(std::move(op));
    }
    return ops;
}

/// sampled_candidates and sampled_expected_count [num_sampled], true_expected_count
/// [batch, num_true] (TensorFlow's CandidateSamplerShapeFn).
Status candidateSamplerShape(C& c)
{
    auto numSampled = c.attrInt("num_sampled");
    if (!numSampled)
        return numSampled.error();
    auto numTrue = c.attrInt("num_true");
    if (!numTrue)
        return numTrue.error();
    auto trueClasses = c.withRank(0, 2);
    if (!trueClasses)
        return trueClasses.error();
    c.setOutput(0, TensorShape{*numSampled});
    c.setOutput(1, TensorShape{trueClasses->dim(0), *numTrue});
    c.setOutput(2, TensorShape{*numSampled});
    return Status::ok();
}

Status computeAccidentalHitsShape(C& c)
{
    auto numTrue = c.attrInt("num_true");
    if (!numTrue)
        return numTrue.error();
    auto trueClasses = c.withRank(0, 2);
    if (!trueClasses)
        return trueClasses.error();
    if (auto columns = C::withValue(trueClasses->dim(1), *numTrue); !columns)
        return columns.error();
    if (auto sampled = c.withRank(1, 1); !sampled)
        return sampled.error();
    for (int i = 0; i < 3; ++i)
        c.setOutput(i, TensorShape{-1});
    return Status::ok();
}

} // namespace

Status registerCandidateSamplingOps(OpRegistry& registry)
{
    for (const OpDefBuilder& builder : candidateSamplingOpDefinitions()) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    for (const char* name : {"UniformCandidateSampler", "LogUniformCandidateSampler", "AllCandidateSampler"}) {
        if (Status status = registry.setShapeFunction(name, candidateSamplerShape); !status.isOk())
            return status;
    }
    return registry.setShapeFunction("ComputeAccidentalHits", computeAccidentalHitsShape);
}

} // namespace tstudio
