// The random family's gradient registrations, as TensorFlow 1.15's random_ops.py makes them: the
// samplers RandomStandardNormal, TruncatedNormal, RandomUniform and Multinomial are not
// differentiable. TensorFlow registers nothing for RandomShuffle (so a gradient through it is an
// error, "No gradient defined") nor for RandomUniformInt (integer output): they stay unregistered.
// The candidate samplers and ComputeAccidentalHits have no gradient in TensorFlow either; as their
// only inputs are int64 classes, tf.gradients never reaches them from a float tensor, so marking
// them not differentiable here gives the same graphs.
#include "autodiff/gradients_registry.h"
#include "framework/op_registry.h"

namespace tstudio {

Status registerRandomGradients(OpRegistry& registry)
{
    for (const char* name : {"RandomStandardNormal", "TruncatedNormal", "RandomUniform", "Multinomial",
                             "UniformCandidateSampler", "LogUniformCandidateSampler", "AllCandidateSampler",
                             "ComputeAccidentalHits"}) {
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
