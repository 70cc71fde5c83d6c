// The CPU kernel of a fused sparse Adam update: the eleven ops TensorFlow 1.x's AdamOptimizer adds
// per variable for a sparse gradient (_apply_sparse_shared with scatter_add), in one pass over the
// variable and its slots. Only execution plans hold it (runtime/sparse_adam_fusion.h); a GraphDef
// never names its op.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"

#include <memory>

namespace tstudio::training {

/// The op name of the fused node in an execution plan (and so in step stats and timelines).
inline constexpr const char* kFusedSparseAdamOp = "_FusedSparseAdam";

/// The fused node's inputs, in order. Its outputs are the refs of var, m and v (the outputs of the
/// AssignSub and of the two ScatterAdds it replaces).
enum FusedSparseAdamInput : int {
    kFusedVar,      ///< var (ref): AssignSub's input 0
    kFusedM,        ///< m (ref)
    kFusedV,        ///< v (ref)
    kFusedIndices,  ///< the rows named (both ScatterAdds' input 1)
    kFusedMUpdates, ///< (1 - beta1) * g: ScatterAdd(m)'s input 2
    kFusedVUpdates, ///< (1 - beta2) * g * g: ScatterAdd(v)'s input 2
    kFusedBeta1,    ///< beta1, which m is multiplied by
    kFusedBeta2,
    kFusedLr,       ///< the step size lr_t * sqrt(1 - beta2^t) / (1 - beta1^t)
    kFusedEpsilon,
    kFusedInputCount
};

/// The kernel for `def` (op kFusedSparseAdam; attrs T (float or double), Tindices (int32 or
/// int64), use_locking, and `_scatter_m` naming the ScatterAdd whose errors it reports), computing
/// for every element, with the operations in the same order as the ops it replaces, so that every
/// value is the same bit for bit:
///   m = m * beta1, then m[indices[i]] += m_updates[i] for each i in order (ScatterAdd);
///   v likewise with beta2;
///   var = var - (lr * m) / (sqrt(v) + epsilon).
/// With use_locking, var, m and v are locked (in address order) for the whole update. A bad index
/// fails the node as ScatterAdd does, after m and v have decayed (the Assigns ran) and before var
/// moves. A hyperparameter that is not one element is broadcast as the element-wise ops would.
Expected<std::unique_ptr<OpKernel>> makeFusedSparseAdamKernel(const tensorflow::NodeDef& def, Device& device);

} // namespace tstudio::training
