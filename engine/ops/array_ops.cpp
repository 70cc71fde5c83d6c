// The array op family: definitions (TensorFlow 1.15's OpDefs) and their shape functions.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "ops/array_shape_fns.h"
#include "ops/common_shape_fns.h"
#include "ops/ops.h"

#include <utility>
#include <vector>

namespace tstudio {

namespace {

OpDefBuilder op(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kArray);
    return builder;
}

/// ReverseSequence: the input's shape with the batch dimension merged with seq_lengths' length;
/// "batch_dim must be < input rank: 4 vs. 3", "seq_dim must be < input rank: 4 vs. 3". Negative dims
/// count from the end, as TensorFlow's InferenceContext::Dim does (the kernel rejects them).
Status reverseSequenceShape(ShapeInferenceContext& c)
{
    auto lengths = c.withRank(1, 1);
    if (!lengths)
        return lengths.error();
    auto seqDim = c.attrInt("seq_dim");
    if (!seqDim)
        return seqDim.error();
    auto batchDim = c.attrInt("batch_dim");
    if (!batchDim)
        return batchDim.error();
    const TensorShape& input = c.input(0);
    if (input.isUnknownRank()) {
        c.setOutput(0, TensorShape::unknown());
        return Status::ok();
    }
    const std::int64_t rank = input.rank();
    if (*batchDim >= rank)
        return invalidArgumentError("batch_dim must be < input rank: " + std::to_string(*batchDim) + " vs. " +
                                    std::to_string(rank));
    if (*seqDim >= rank)
        return invalidArgumentError("seq_dim must be < input rank: " + std::to_string(*seqDim) + " vs. " +
                                    std::to_string(rank));
    const std::int64_t batch = *batchDim < 0 ? *batchDim + rank : *batchDim;
    if (batch < 0)
        return invalidArgumentError("batch_dim must be >= -input rank: " + std::to_string(*batchDim) + " vs. " +
                                    std::to_string(rank));
    auto merged = ShapeInferenceContext::mergeDim(input.dim(static_cast<int>(batch)), lengths->dim(0));
    if (!merged)
        return merged.error();
    auto output = ShapeInferenceContext::replaceDim(input, batch, *merged);
    if (!output)
        return output.error();
    c.setOutput(0, std::move(*output));
    return Status::ok();
}

/// The index dtypes of the shape, size and axis attrs: int32 or int64, int32 by default.
const std::string kIndexTypes = "{int32, int64} = DT_INT32";

/// Sources, identities, shapes and reshaping.
void addSourceShapeAndReshapeOps(std::vector<OpDefBuilder>& ops)
{
    // --- Sources --------------------------------------------------------------------------------
    ops.push_back(op("Const", "Produces the tensor stored in its `value` attr.")
                      .output("output: dtype")
                      .attr("value: tensor")
                      .attr("dtype: type"));
    ops.push_back(op("Placeholder", "Stands for a tensor that must be fed when the graph runs.")
                      .output("output: dtype")
                      .attr("dtype: type")
                      .attr("shape: shape = { unknown_rank: true }"));
    ops.push_back(op("PlaceholderV2", "Stands for a fed tensor; an older form of Placeholder.")
                      .output("output: dtype")
                      .attr("dtype: type")
                      .attr("shape: shape")
                      .deprecated(23, "Placeholder now behaves the same as PlaceholderV2."));
    ops.push_back(op("PlaceholderWithDefault", "Passes its input through unless a value is fed in its place.")
                      .input("input: dtype")
                      .output("output: dtype")
                      .attr("dtype: type")
                      .attr("shape: shape"));

    // --- Identities -------------------------------------------------------------------------------
    ops.push_back(op("Identity", "Returns its input unchanged.").input("input: T").output("output: T").attr("T: type"));
    ops.push_back(op("IdentityN", "Returns each of a list of tensors unchanged.")
                      .input("input: T")
                      .output("output: T")
                      .attr("T: list(type)"));
    ops.push_back(op("Snapshot", "Returns a copy of its input.").input("input: T").output("output: T").attr("T: type"));
    ops.push_back(op("StopGradient", "Returns its input; gradients do not flow back through it.")
                      .input("input: T")
                      .output("output: T")
                      .attr("T: type"));
    ops.push_back(op("PreventGradient", "Returns its input; asking for its gradient is an error.")
                      .input("input: T")
                      .output("output: T")
                      .attr("T: type")
                      .attr("message: string = ''"));

    // --- Shapes -------------------------------------------------------------------------------------
    ops.push_back(op("Shape", "Returns the shape of a tensor as a 1-D integer tensor.")
                      .input("input: T")
                      .output("output: out_type")
                      .attr("T: type")
                      .attr("out_type: " + kIndexTypes));
    ops.push_back(op("ShapeN", "Returns the shapes of N tensors.")
                      .input("input: N * T")
                      .output("output: N * out_type")
                      .attr("N: int")
                      .attr("T: type")
                      .attr("out_type: " + kIndexTypes));
    ops.push_back(op("Size", "Returns the number of elements of a tensor.")
                      .input("input: T")
                      .output("output: out_type")
                      .attr("T: type")
                      .attr("out_type: " + kIndexTypes));
    ops.push_back(op("Rank", "Returns the number of dimensions of a tensor.")
                      .input("input: T")
                      .output("output: int32")
                      .attr("T: type"));

    // --- Reshaping ----------------------------------------------------------------------------------
    ops.push_back(op("Reshape", "Gives a tensor a new shape with the same number of elements.")
                      .input("tensor: T")
                      .input("shape: Tshape")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tshape: " + kIndexTypes));
    ops.push_back(op("ExpandDims", "Inserts a dimension of size 1 at index `dim`.")
                      .input("input: T")
                      .input("dim: Tdim")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tdim: " + kIndexTypes));
    ops.push_back(op("Squeeze", "Removes dimensions of size 1.")
                      .input("input: T")
                      .output("output: T")
                      .attr("T: type")
                      .attr("squeeze_dims: list(int) >= 0 = []"));
    ops.push_back(op("Transpose", "Permutes the dimensions of a tensor.")
                      .input("x: T")
                      .input("perm: Tperm")
                      .output("y: T")
                      .attr("T: type")
                      .attr("Tperm: " + kIndexTypes));
    ops.push_back(op("InvertPermutation", "Computes the inverse of a permutation vector.")
                      .input("x: T")
                      .output("y: T")
                      .attr("T: " + kIndexTypes));

}

/// Joining, splitting, slicing and gathering.
void addJoinSplitAndSliceOps(std::vector<OpDefBuilder>& ops)
{
    // --- Joining and splitting ----------------------------------------------------------------------
    ops.push_back(op("Concat", "Joins tensors along one dimension (the axis comes first).")
                      .input("concat_dim: int32")
                      .input("values: N * T")
                      .output("output: T")
                      .attr("N: int >= 2")
                      .attr("T: type"));
    ops.push_back(op("ConcatV2", "Joins tensors along one dimension.")
                      .input("values: N * T")
                      .input("axis: Tidx")
                      .output("output: T")
                      .attr("N: int >= 2")
                      .attr("T: type")
                      .attr("Tidx: " + kIndexTypes));
    ops.push_back(op("ConcatOffset", "Computes where each input of a concatenation starts in the output.")
                      .input("concat_dim: int32")
                      .input("shape: N * int32")
                      .output("offset: N * int32")
                      .attr("N: int >= 2"));
    ops.push_back(op("Split", "Cuts a tensor into equal pieces along one dimension.")
                      .input("split_dim: int32")
                      .input("value: T")
                      .output("output: num_split * T")
                      .attr("num_split: int >= 1")
                      .attr("T: type"));
    ops.push_back(op("SplitV", "Cuts a tensor into pieces of given sizes along one dimension.")
                      .input("value: T")
                      .input("size_splits: Tlen")
                      .input("split_dim: int32")
                      .output("output: num_split * T")
                      .attr("num_split: int >= 1")
                      .attr("T: type")
                      .attr("Tlen: {int32, int64} = DT_INT64"));
    ops.push_back(op("Pack", "Stacks N tensors of one shape into a tensor one rank higher.")
                      .input("values: N * T")
                      .output("output: T")
                      .attr("N: int >= 1")
                      .attr("T: type")
                      .attr("axis: int = 0"));
    ops.push_back(op("Unpack", "Unstacks a tensor along one dimension into tensors one rank lower.")
                      .input("value: T")
                      .output("output: num * T")
                      .attr("num: int >= 0")
                      .attr("T: type")
                      .attr("axis: int = 0"));
    ops.push_back(op("Tile", "Repeats a tensor `multiples[i]` times along each dimension i.")
                      .input("input: T")
                      .input("multiples: Tmultiples")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tmultiples: " + kIndexTypes));
    ops.push_back(op("Pad", "Pads a tensor with zeros.")
                      .input("input: T")
                      .input("paddings: Tpaddings")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tpaddings: " + kIndexTypes));
    ops.push_back(op("PadV2", "Pads a tensor with a given constant.")
                      .input("input: T")
                      .input("paddings: Tpaddings")
                      .input("constant_values: T")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tpaddings: " + kIndexTypes));
    ops.push_back(op("MirrorPad", "Pads a tensor with mirrored copies of its border.")
                      .input("input: T")
                      .input("paddings: Tpaddings")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tpaddings: " + kIndexTypes)
                      .attr("mode: {'REFLECT', 'SYMMETRIC'}"));
    ops.push_back(op("ReverseV2", "Reverses the order of elements along the given axes.")
                      .input("tensor: T")
                      .input("axis: Tidx")
                      .output("output: T")
                      .attr("Tidx: " + kIndexTypes)
                      .attr("T: {uint8, int8, uint16, int16, int32, int64, bool, bfloat16, half, float, double, "
                            "complex64, complex128, string}"));
    ops.push_back(op("ReverseSequence", "Reverses the first `seq_lengths[i]` elements along `seq_dim` of each slice "
                                        "`i` along `batch_dim`; the elements past the length stay in place.")
                      .input("input: T")
                      .input("seq_lengths: Tlen")
                      .output("output: T")
                      .attr("seq_dim: int")
                      .attr("batch_dim: int = 0")
                      .attr("T: type")
                      .attr("Tlen: {int32, int64} = DT_INT64"));

    // --- Slicing and gathering ----------------------------------------------------------------------
    ops.push_back(op("Slice", "Extracts a block of `size` elements starting at `begin`.")
                      .input("input: T")
                      .input("begin: Index")
                      .input("size: Index")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Index: {int32,int64}"));
    const char* const kMasks[] = {"begin_mask: int = 0", "end_mask: int = 0", "ellipsis_mask: int = 0",
                                  "new_axis_mask: int = 0", "shrink_axis_mask: int = 0"};
    OpDefBuilder stridedSlice = op("StridedSlice", "Extracts a strided slice, as Python's `x[b:e:s, ...]` indexing.")
                                    .input("input: T")
                                    .input("begin: Index")
                                    .input("end: Index")
                                    .input("strides: Index")
                                    .output("output: T")
                                    .attr("T: type")
                                    .attr("Index: {int32, int64}");
    OpDefBuilder stridedSliceGrad = op("StridedSliceGrad", "Scatters the gradient of a StridedSlice into its input.")
                                        .input("shape: Index")
                                        .input("begin: Index")
                                        .input("end: Index")
                                        .input("strides: Index")
                                        .input("dy: T")
                                        .output("output: T")
                                        .attr("T: type")
                                        .attr("Index: {int32, int64}");
    for (const char* mask : kMasks) {
        stridedSlice.attr(mask);
        stridedSliceGrad.attr(mask);
    }
    ops.push_back(std::move(stridedSlice));
    ops.push_back(std::move(stridedSliceGrad));
    ops.push_back(op("Gather", "Gathers slices along the first dimension at the given indices.")
                      .input("params: Tparams")
                      .input("indices: Tindices")
                      .attr("validate_indices: bool = true")
                      .output("output: Tparams")
                      .attr("Tparams: type")
                      .attr("Tindices: {int32,int64}"));
    ops.push_back(op("GatherV2", "Gathers slices along dimension `axis` at the given indices.")
                      .input("params: Tparams")
                      .input("indices: Tindices")
                      .input("axis: Taxis")
                      .attr("batch_dims: int = 0")
                      .output("output: Tparams")
                      .attr("Tparams: type")
                      .attr("Tindices: {int32,int64}")
                      .attr("Taxis: {int32,int64}"));
    ops.push_back(op("OneHot", "Expands indices into one-hot vectors of length `depth`.")
                      .input("indices: TI")
                      .input("depth: int32")
                      .input("on_value: T")
                      .input("off_value: T")
                      .attr("axis: int = -1")
                      .output("output: T")
                      .attr("T: type")
                      .attr("TI: {uint8, int32, int64} = DT_INT64"));

}

/// Filling, broadcasting and the data-dependent ops.
void addFillBroadcastAndDataDependentOps(std::vector<OpDefBuilder>& ops)
{
    // --- Filling --------------------------------------------------------------------------------------
    ops.push_back(op("Fill", "Creates a tensor of shape `dims` filled with one scalar value.")
                      .input("dims: index_type")
                      .input("value: T")
                      .output("output: T")
                      .attr("T: type")
                      .attr("index_type: " + kIndexTypes));
    ops.push_back(op("ZerosLike", "Returns zeros with the shape and type of its input.")
                      .input("x: T")
                      .output("y: T")
                      .attr("T: type"));
    ops.push_back(op("OnesLike", "Returns ones with the shape and type of its input.")
                      .input("x: T")
                      .output("y: T")
                      .attr("T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, int64, complex64, "
                            "complex128, bool}"));

    // --- Broadcasting ---------------------------------------------------------------------------------
    ops.push_back(op("BroadcastTo", "Broadcasts a tensor to a given shape.")
                      .input("input: T")
                      .input("shape: Tidx")
                      .output("output: T")
                      .attr("T: type")
                      .attr("Tidx: " + kIndexTypes));
    ops.push_back(op("BroadcastArgs", "Computes the broadcast of two shapes.")
                      .input("s0: T")
                      .input("s1: T")
                      .output("r0: T")
                      .attr("T: " + kIndexTypes));
    ops.push_back(op("BroadcastGradientArgs", "Finds the axes to sum a broadcast op's gradients over.")
                      .input("s0: T")
                      .input("s1: T")
                      .output("r0: T")
                      .output("r1: T")
                      .attr("T: " + kIndexTypes));

    // --- Data-dependent -------------------------------------------------------------------------------
    ops.push_back(op("DynamicStitch", "Interleaves values from N tensors into one tensor by index.")
                      .input("indices: N * int32")
                      .input("data: N * T")
                      .output("merged: T")
                      .attr("N : int >= 1")
                      .attr("T : type"));
    ops.push_back(op("ParallelDynamicStitch", "Interleaves values from N tensors by index, in no fixed order.")
                      .input("indices: N * int32")
                      .input("data: N * T")
                      .output("merged: T")
                      .attr("N : int >= 1")
                      .attr("T : type"));
    ops.push_back(op("Where", "Returns the coordinates of the true (non-zero) elements.")
                      .input("input: T")
                      .attr("T: {numbertype, bool} = DT_BOOL")
                      .output("index: int64"));
    ops.push_back(op("Unique", "Finds the distinct elements of a vector and where each element went.")
                      .input("x: T")
                      .output("y: T")
                      .output("idx: out_idx")
                      .attr("T: type")
                      .attr("out_idx: " + kIndexTypes));
    ops.push_back(op("ListDiff", "Finds the elements of x that are not in y (tf.setdiff1d), in x's order, and their "
                                 "positions in x.")
                      .input("x: T")
                      .input("y: T")
                      .output("out: T")
                      .output("idx: out_idx")
                      .attr("T: type")
                      .attr("out_idx: " + kIndexTypes));
    ops.push_back(op("Cumsum", "Computes running sums along one axis.")
                      .input("x: T")
                      .input("axis: Tidx")
                      .attr("exclusive: bool = false")
                      .attr("reverse: bool = false")
                      .output("out: T")
                      .attr("T: numbertype")
                      .attr("Tidx: " + kIndexTypes));
    ops.push_back(op("Cumprod", "Computes running products along one axis.")
                      .input("x: T")
                      .input("axis: Tidx")
                      .attr("exclusive: bool = false")
                      .attr("reverse: bool = false")
                      .output("out: T")
                      .attr("T: numbertype")
                      .attr("Tidx: " + kIndexTypes));
}

/// The op definitions, in the order of TensorFlow's array_ops.cc where the ops live there.
std::vector<OpDefBuilder> arrayOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    addSourceShapeAndReshapeOps(ops);
    addJoinSplitAndSliceOps(ops);
    addFillBroadcastAndDataDependentOps(ops);
    return ops;
}

/// The shape function of every op above.
std::vector<std::pair<const char*, ShapeFunction>> arrayShapeFunctions()
{
    return {
        {"Const", constShape},
        {"Placeholder", placeholderShape},
        {"PlaceholderV2", explicitShape},
        {"PlaceholderWithDefault", placeholderWithDefaultShape},
        {"Identity", unchangedShape},
        {"IdentityN", identityNShape},
        {"Snapshot", unchangedShape},
        {"StopGradient", unchangedShape},
        {"PreventGradient", unchangedShape},
        {"Shape", shapeOfInputsShape},
        {"ShapeN", shapeOfInputsShape},
        {"Size", scalarShape},
        {"Rank", scalarShape},
        {"Reshape", reshapeShape},
        {"ExpandDims", expandDimsShape},
        {"Squeeze", squeezeShape},
        {"Transpose", transposeShape},
        {"InvertPermutation", invertPermutationShape},
        {"Concat", concatShape},
        {"ConcatV2", concatV2Shape},
        {"ConcatOffset", concatOffsetShape},
        {"Split", splitShape},
        {"SplitV", splitVShape},
        {"Pack", packShape},
        {"Unpack", unpackShape},
        {"Tile", tileShape},
        {"Pad", padShape},
        {"PadV2", padShape},
        {"MirrorPad", padShape},
        {"ReverseV2", reverseV2Shape},
        {"ReverseSequence", reverseSequenceShape},
        {"Slice", sliceShape},
        {"StridedSlice", stridedSliceShape},
        {"StridedSliceGrad", stridedSliceGradShape},
        {"Gather", gatherShape},
        {"GatherV2", gatherV2Shape},
        {"OneHot", oneHotShape},
        {"Fill", fillShape},
        {"ZerosLike", unchangedShape},
        {"OnesLike", unchangedShape},
        {"BroadcastTo", broadcastToShape},
        {"BroadcastArgs", broadcastArgsShape},
        {"BroadcastGradientArgs", broadcastGradientArgsShape},
        {"DynamicStitch", dynamicStitchShape},
        {"ParallelDynamicStitch", dynamicStitchShape},
        {"Where", whereShape},
        {"Unique", uniqueShape},
        {"ListDiff", listDiffShape},
        {"Cumsum", unchangedShape},
        {"Cumprod", unchangedShape},
    };
}

} // namespace

Status registerArrayOps(OpRegistry& registry)
{
    for (const OpDefBuilder& builder : arrayOpDefinitions()) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    for (auto& [name, function] : arrayShapeFunctions()) {
        if (Status status = registry.setShapeFunction(name, std::move(function)); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
