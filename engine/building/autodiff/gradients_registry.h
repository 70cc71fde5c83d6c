// The gradient registrations of the op families: one registerXxxGradients per family, and
// registerAllGradients calling them all.
#pragma once

#include "core/status.h"
#include "framework/op_registry.h"

#include <initializer_list>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio {

/// The gradient functions of one part of a family, by op name.
using GradientTable = std::vector<std::pair<std::string_view, GradientFunction>>;

/// Registers every table's gradients, then `notDifferentiable` (the body every family function
/// shares); the first error is returned.
Status registerGradientTables(OpRegistry& registry, std::initializer_list<GradientTable> tables,
                              std::span<const std::string_view> notDifferentiable = {});

/// What the autodiff core itself needs (core_grad.cpp): Identity (a variable's read passes its
/// gradient to the variable), StopGradient (not differentiable) and PreventGradient (an error naming
/// its message). The array family must not register these again.
Status registerCoreGradients(OpRegistry& registry);
/// The math family (math_grad.cpp): element-wise ops, AddN, Cast, Select, reductions, matrix
/// products; comparisons, logic and Range as not differentiable.
Status registerMathGradients(OpRegistry& registry);
/// The array family (array_grad*.cpp): reshapes, concat/split, slicing, padding, tiling, gathers,
/// stitches, the diagonal ops, Fill, Cumsum; shape queries and the like as not differentiable.
Status registerArrayGradients(OpRegistry& registry);
/// The nn family (nn_grad.cpp, nn_grad_conv_pool_norm.cpp): activations and their *Grad ops, softmax,
/// bias add, losses, convolutions, pooling, LRN, fused batch norm; InTopK as not differentiable.
Status registerNnGradients(OpRegistry& registry);
/// The nn family's gradients of gradient ops (nn_grad_second_order.cpp): MaxPoolGrad, MaxPoolGradGrad,
/// FusedBatchNormGrad V1/V2/V3, and SoftsignGrad and LRNGrad (which TensorFlow 1.15 lacks).
Status registerNnSecondOrderGradients(OpRegistry& registry);

/// Products (prod_grad.cpp): Prod (TensorFlow's Cumprod/ListDiff form) and Cumprod.
Status registerProdGradients(OpRegistry& registry);
/// tf.cond's control flow (control_flow_grad.cpp): Switch, RefSwitch, Merge, RefMerge; LoopCond.
Status registerControlFlowGradients(OpRegistry& registry);
/// The state family (state_grad.cpp): ReadVariableOp; Assign, AssignAdd, AssignSub and
/// VarIsInitializedOp as not differentiable.
Status registerStateGradients(OpRegistry& registry);
/// The random family (random_grad.cpp): the float samplers and Multinomial as not differentiable.
Status registerRandomGradients(OpRegistry& registry);
/// The io family (io_grad.cpp): StringJoin as not differentiable.
Status registerIoGradients(OpRegistry& registry);

/// The ops TensorFlow leaves unregistered (sources, sinks, optimizer updates, checkpoint I/O,
/// integer/boolean/string outputs, Unique, ListDiff, RandomShuffle) as not differentiable
/// (no_gradient_ops.cpp).
Status registerOpsWithoutGradients(OpRegistry& registry);

/// The linear-algebra family (linalg_grad.cpp): MatrixBandPart, MatrixTriangularSolve, Qr.
Status registerLinalgGradients(OpRegistry& registry);

/// The image family (image_grad.cpp): ResizeBilinear, ResizeNearestNeighbor and their *Grad ops;
/// SparseToDense as not differentiable.
Status registerImageGradients(OpRegistry& registry);

/// The function family (function_grad.cpp): PartitionedCall and StatefulPartitionedCall to
/// SymbolicGradient, If and StatelessIf to an If over the branches' gradients, While and
/// StatelessWhile to a SymbolicGradient of the loop (no resource loop variables: Unimplemented,
/// naming the node). Calls by name get SymbolicGradient from the driver (they have no registration).
Status registerFunctionGradients(OpRegistry& registry);

/// The TensorArray ops (tensor_array_grad.cpp): Read/Write, Gather/Scatter and Concat/Split through
/// the gradient array of TensorArrayGradV3; TensorArrayV3, its gradient ops, Size and Close as not
/// differentiable.
Status registerTensorArrayGradients(OpRegistry& registry);

/// The sparse ops (sparse_grad.cpp): SparseTensorDenseMatMul, SparseAdd, SparseTensorDenseAdd,
/// SparseFillEmptyRows, SparseReorder, SparseSlice, the sparse segment reductions and SegmentSum;
/// SparseAddGrad, SparseConcat, SparseReshape and the sparse *Grad ops as not differentiable.
Status registerSparseGradients(OpRegistry& registry);

/// Horovod's ops (horovod_grad.cpp), when registered (builds with MPI): an allreduce's gradient is
/// the allreduce of the gradient; a broadcast's the allreduce of the gradient on the root rank,
/// zeros elsewhere (the rank this process has when the gradient graph is built).
Status registerHorovodGradients(OpRegistry& registry);

/// Every family above, into a registry that registerAllOps filled, and SymbolicGradient's function
/// differentiation (differentiateFunctionBody). The first error is returned
/// (NotFound for an op that is not registered, AlreadyExists for a second registration).
Status registerAllGradients(OpRegistry& registry);

} // namespace tstudio
