// registerListGradients: the gradients of TensorFlow's list ops (list_grad.cpp).
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;

/// The list ops' gradients as TensorFlow's list_ops.py registers them: Stack <-> FromTensor,
/// GetItem <-> SetItem, PushBack <-> PopBack, Gather <-> Scatter (and ScatterIntoExistingList),
/// Concat <-> Split, Resize; EmptyTensorList, TensorListReserve, TensorListLength,
/// TensorListElementShape and TensorListConcatLists as not differentiable. Gradients of lists are
/// lists (DT_VARIANT), summed by AddN and zeroed by ZerosLike on lists (kernels/tensor_list/).
/// Errors: NotFound when registerListOps has not run on `registry`, AlreadyExists when called twice.
Status registerListGradients(OpRegistry& registry);

} // namespace tstudio
