// The registration functions of the op families declared outside ops/ops.h (each defined in its
// ops/<family>_ops.cpp); registries/register_all_ops.h calls them all.
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;

/// UnsortedSegmentSum (ops/segment_ops.cpp) and MirrorPadGrad (ops/mirror_pad_grad_op.cpp).
Status registerSegmentOps(OpRegistry& registry);
Status registerMirrorPadGradOps(OpRegistry& registry);
/// Assert (ops/logging_ops.cpp).
Status registerLoggingOps(OpRegistry& registry);
/// ScalarSummary, HistogramSummary, ImageSummary, AudioSummary(V2), TensorSummary(V2), MergeSummary.
Status registerSummaryOps(OpRegistry& registry);
/// StackV2, StackPushV2, StackPopV2, StackCloseV2 (ops/data_flow_ops.cpp).
Status registerDataFlowOps(OpRegistry& registry);
/// ResizeBilinear, ResizeNearestNeighbor and their *Grad ops (ops/image_ops.cpp).
Status registerImageOps(OpRegistry& registry);
/// The sparse ops (ops/sparse_ops.cpp: SparseToDense, SparseReshape, SparseAdd, ...) and the sparse segment
/// reductions with SegmentSum (ops/sparse_segment_ops.cpp).
Status registerSparseOps(OpRegistry& registry);
/// PartitionedCall, StatefulPartitionedCall (ops/function_ops.cpp).
Status registerFunctionOps(OpRegistry& registry);
/// tf.data: dataset sources and transformations, iterators (ops/dataset_ops.cpp).
Status registerDatasetOps(OpRegistry& registry);
/// TensorFlow's list ops: EmptyTensorList, TensorListReserve, TensorListFromTensor, TensorListGetItem,
/// TensorListSetItem, TensorListStack, ... (ops/list_ops.cpp).
Status registerListOps(OpRegistry& registry);
/// RegexFullMatch, StaticRegexFullMatch, RegexReplace, StaticRegexReplace, StringFormat, ReduceJoin
/// (ops/string_ops.cpp).
Status registerStringOps(OpRegistry& registry);
/// The lookup tables and their initializers: HashTable(V2), MutableHashTable(V2), MutableDenseHashTable(V2),
/// LookupTableFind/Insert/Size/Export/Import(V2), LookupTableRemoveV2, InitializeTable(FromTextFile)(V2)
/// (ops/lookup_ops.cpp).
Status registerLookupOps(OpRegistry& registry);
/// StringToHashBucket(Fast/Strong), Bucketize, BucketizeWithInputBoundaries (ops/hash_bucket_ops.cpp).
Status registerHashBucketOps(OpRegistry& registry);

} // namespace tstudio
