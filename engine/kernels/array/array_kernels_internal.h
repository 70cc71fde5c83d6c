// The groups of the array family's CPU kernels (register_array_kernels.cpp calls them in order),
// and the kernels the CPU and GPU registrations share, built on a device's Movement.
#pragma once

#include "core/expected.h"
#include "framework/kernel_registry.h"

namespace tstudio {
class Allocator;
class KernelRegistry;
class OpKernelConstruction;
class Tensor;
} // namespace tstudio

namespace tstudio::array {

Status registerSourceKernels(KernelRegistry& registry);    ///< Const, Placeholder*, Identity*, Snapshot, ...
Status registerShapeKernels(KernelRegistry& registry);     ///< Shape, ShapeN, Size, Rank, Reshape, ExpandDims, Squeeze
Status registerTransposeKernels(KernelRegistry& registry); ///< Transpose, InvertPermutation
Status registerConcatKernels(KernelRegistry& registry);    ///< Concat, ConcatV2, ConcatOffset, Pack
Status registerSplitKernels(KernelRegistry& registry);     ///< Split, SplitV, Unpack
Status registerTileKernels(KernelRegistry& registry);      ///< Tile, BroadcastTo
Status registerPadKernels(KernelRegistry& registry);       ///< Pad, PadV2, MirrorPad
Status registerReverseKernels(KernelRegistry& registry);   ///< ReverseV2
Status registerReverseSequenceKernels(KernelRegistry& registry); ///< ReverseSequence
Status registerSliceKernels(KernelRegistry& registry);     ///< Slice, StridedSlice, StridedSliceGrad
Status registerGatherKernels(KernelRegistry& registry);    ///< Gather, GatherV2, OneHot
Status registerFillKernels(KernelRegistry& registry);      ///< Fill, ZerosLike, OnesLike
Status registerBroadcastArgsKernels(KernelRegistry& registry); ///< BroadcastArgs, BroadcastGradientArgs
Status registerStitchKernels(KernelRegistry& registry);        ///< DynamicStitch, ParallelDynamicStitch
Status registerDynamicPartitionKernels(KernelRegistry& registry); ///< DynamicPartition
/// int32 DynamicStitch and ParallelDynamicStitch on GPU devices as TensorFlow 1.15 registers them:
/// the CPU kernel with indices, data and merged in host memory (reduced_shape in gradients).
Status registerInt32StitchHostKernelsOnGpu(KernelRegistry& registry);
Status registerWhereUniqueKernels(KernelRegistry& registry);   ///< Where, Unique, ListDiff
Status registerScanKernels(KernelRegistry& registry);          ///< Cumsum, Cumprod
Status registerDiagKernels(KernelRegistry& registry);          ///< Diag, DiagPart, MatrixDiag(Part), MatrixSetDiag

// --- Kernels shared by every device --------------------------------------------------------------
// Each factory builds the kernel the CPU registers for the op(s) named, on `movement` (which must
// outlive the registry). Their checks and error texts are the CPU kernels'; only the element
// movement differs per device. Kernels without a Movement read no element data at all.

class Movement;

KernelFactory identityKernel();                         ///< Identity, StopGradient, PreventGradient, ...
KernelFactory snapshotKernel(const Movement& movement); ///< Snapshot
KernelFactory shapeKernel();                            ///< Shape (writes its output on the host)
KernelFactory shapeNKernel();                           ///< ShapeN
KernelFactory sizeKernel();                             ///< Size
KernelFactory rankKernel();                             ///< Rank
KernelFactory reshapeKernel();
KernelFactory expandDimsKernel();
KernelFactory squeezeKernel();
KernelFactory transposeKernel(const Movement& movement);
/// Concat (`axisFirst`, the concat_dim input first) or ConcatV2 (the axis input last).
KernelFactory concatKernel(const Movement& movement, bool axisFirst);
KernelFactory packKernel(const Movement& movement);
KernelFactory splitKernel(const Movement& movement);
KernelFactory splitVKernel(const Movement& movement);
KernelFactory unpackKernel(const Movement& movement);
KernelFactory sliceKernel(const Movement& movement);
KernelFactory stridedSliceKernel(const Movement& movement);
KernelFactory stridedSliceGradKernel(const Movement& movement);
KernelFactory tileKernel(const Movement& movement);
KernelFactory padKernel(const Movement& movement);  ///< Pad and PadV2 (the constant through fill)
KernelFactory fillKernel(const Movement& movement); ///< Fill (the value through fill)
KernelFactory zerosLikeKernel();                    ///< ZerosLike: a zero-filled allocation

/// Const's `value` attr decoded into `allocator` (host memory), with TensorFlow's checks: "attr
/// 'value' is missing or not a tensor", "Cannot parse tensor from proto: ...", "Type mismatch between
/// value (int32) and dtype (float)".
Expected<Tensor> constValue(const OpKernelConstruction& construction, Allocator& allocator);

} // namespace tstudio::array
