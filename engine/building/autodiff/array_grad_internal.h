// Shared pieces of the array family's gradient functions (array_grad*.cpp): their tables, and the
// array_ops calls (builder/array_ops_helpers.h) they make.
#pragma once

#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/array_ops_helpers.h"
#include "builder/python_ops.h"
#include "framework/op_registry.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tstudio::array_grad {

/// Reshape ... Fill, Cumsum, the Diag ops (array_grad.cpp).
GradientTable shapeAndValueGradients();
/// Concat, ConcatV2, Slice, StridedSlice, StridedSliceGrad, Pad, PadV2, MirrorPad, MirrorPadGrad,
/// Tile, BroadcastTo (array_grad_slicing.cpp).
GradientTable slicingGradients();
/// Gather, GatherV2, DynamicStitch, ParallelDynamicStitch, DynamicPartition, UnsortedSegmentSum
/// (array_grad_gather.cpp).
GradientTable gatherGradients();

// The array_ops calls of builder/array_ops_helpers.h, as the gradient functions name them.
using array_ops::ConcatValue;
using array_ops::ListElement;
using array_ops::concat;
using array_ops::gather;
using array_ops::packList;
using array_ops::range;
using array_ops::rank;
using array_ops::reduceSumAll;
using array_ops::shape;
using array_ops::slice;
using array_ops::stack;
using array_ops::stridedSlice1d;

} // namespace tstudio::array_grad
