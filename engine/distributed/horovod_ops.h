// Horovod's graph ops (HorovodAllreduce, HorovodBroadcast): their definitions and CPU kernels, so
// graphs built with Horovod for TensorFlow 1.x import and run. Registered only in builds with MPI.
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;
class KernelRegistry;

/// HorovodAllreduce and HorovodBroadcast as Horovod 0.16-0.18 defines them (register_all_ops.cpp
/// calls it). Without MPI in the build: ok, nothing registered.
///   HorovodAllreduce(tensor: T) -> sum: T, T in {int32, int64, float16, float32, float64}: the sum
///     over every rank (no reduce_op attr: the average is the caller's, as Horovod 0.1x's
///     allreduce(average=True) and DistributedOptimizer divide by size()).
///   HorovodBroadcast(tensor: T) -> output: T, attr root_rank: int, T in {uint8, int8, uint16,
///     int16, int32, int64, float16, float32, float64, bool}: rank root_rank's value on every rank.
/// Their gradients are the autodiff's (registerHorovodGradients, autodiff/gradients_registry.h).
Status registerHorovodOps(OpRegistry& registry);

/// Their CPU kernels over distributed::MpiContext (register_cpu_kernels.cpp calls it). Without
/// MPI in the build: ok, nothing registered.
Status registerHorovodCpuKernels(KernelRegistry& registry);

} // namespace tstudio
