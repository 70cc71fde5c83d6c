// PhiloxKernel: what every stateful random kernel keeps, on every device: the generator seeded from
// the node's seed and seed2 attrs.
#pragma once

#include "framework/op_kernel.h"
#include "kernels/random/guarded_philox_random.h"

namespace tstudio::random {

/// Base of RandomUniform, RandomStandardNormal, TruncatedNormal and RandomUniformInt's CPU and GPU
/// kernels. A missing seed attr is kept in m_init; compute() returns it before anything else.
class PhiloxKernel : public OpKernel {
public:
    explicit PhiloxKernel(OpKernelConstruction& c) : OpKernel(c) { m_init = m_generator.init(c.node()); }

protected:
    GuardedPhiloxRandom m_generator;
    Status m_init;
};

} // namespace tstudio::random
