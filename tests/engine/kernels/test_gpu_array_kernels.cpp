// Tests for the array family's GPU kernels (Identity, Snapshot, Shape*, Reshape, ExpandDims, Squeeze,
// Fill, ZerosLike, OnesLike, Const, Transpose, Tile, Concat*, Pack, Unpack, Split*, Slice,
// StridedSlice(Grad), Pad*, Gather*, OneHot): each registered (op, dtype) against its CPU twin on
// random inputs of several shapes (scalars, odd and large sizes, empty tensors, more concat inputs
// than one launch takes) and on bad inputs both must reject; Gather's out-of-range indices give
// zeros on the GPU, as in TensorFlow. Skipped where there is no GPU; the registration table (ops,
// dtypes, host-memory arguments) is checked everywhere a CUDA build runs.
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"
#include "gpu_registration_table.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <algorithm>
#include <complex>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

using tensorflow::DT_BFLOAT16;
using tensorflow::DT_BOOL;
using tensorflow::DT_COMPLEX128;
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT16;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;
using tensorflow::DT_INT8;
using tensorflow::DT_UINT16;
using tensorflow::DT_UINT32;
using tensorflow::DT_UINT8;

using Types = std::vector<DataType>;
const Types kNumberNoInt32 = {DT_HALF,  DT_BFLOAT16, DT_FLOAT,  DT_DOUBLE,    DT_INT64,     DT_UINT8,
                              DT_INT16, DT_INT8,     DT_UINT16, DT_COMPLEX64, DT_COMPLEX128};
Types with(Types types, std::initializer_list<DataType> more)
{
    types.insert(types.end(), more);
    return types;
}
const Types kNumberNoInt32AndBool = with(kNumberNoInt32, {DT_BOOL});
const Types kPod = with(kNumberNoInt32AndBool, {DT_INT32});
const Types kGpuAll = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128};
const Types kFill = {DT_HALF,  DT_BFLOAT16, DT_FLOAT,  DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128,
                     DT_UINT8, DT_INT8,     DT_UINT16, DT_INT16,  DT_INT64,     DT_BOOL};
const Types kLike = {DT_BOOL, DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
const Types kTile = {DT_BOOL, DT_FLOAT, DT_DOUBLE, DT_INT16, DT_INT32, DT_INT64, DT_HALF, DT_COMPLEX64, DT_COMPLEX128};
const Types kConcat = with(kGpuAll, {DT_BFLOAT16, DT_INT64});
const Types kPack = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BFLOAT16, DT_INT64, DT_BOOL};
const Types kUnpack = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BFLOAT16};
const Types kSplit = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BFLOAT16, DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
const Types kSlice = {DT_HALF,       DT_FLOAT, DT_DOUBLE, DT_BFLOAT16, DT_COMPLEX64,
                      DT_COMPLEX128, DT_BOOL,  DT_INT8,   DT_INT64};
const Types kStrided = with(kGpuAll, {DT_INT64});
const Types kPad = with(kGpuAll, {DT_INT8, DT_UINT8});
const Types kGather = with(kGpuAll, {DT_INT64});
const Types kOneHot = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_INT32, DT_INT64};
const Types kInt32 = {DT_INT32};

/// TensorFlow 1.15's GPU registrations of the array ops, as the family must have made them.
Table expectedRegistrations()
{
    Table t;
    for (const char* op : {"Identity", "StopGradient", "PreventGradient"})
        t[op] = {{"T", kNumberNoInt32AndBool, {}},
                 {"T", {DT_INT32, tensorflow::DT_STRING, tensorflow::DT_RESOURCE}, {"input", "output"}}};
    t["PlaceholderWithDefault"] = {{"dtype", kNumberNoInt32AndBool, {}}, {"dtype", kInt32, {"input", "output"}}};
    t["Snapshot"] = {{"T", kPod, {}}};
    for (const char* op : {"Shape", "ShapeN", "Size", "Rank"})
        t[op] = {{"T", kNumberNoInt32AndBool, {"output"}}, {"T", kInt32, {"input", "output"}}};
    t["Reshape"] = {{"T", kNumberNoInt32AndBool, {"shape"}}, {"T", kInt32, {"tensor", "shape", "output"}}};
    t["ExpandDims"] = {{"T", kNumberNoInt32AndBool, {"dim"}}, {"T", kInt32, {"input", "dim", "output"}}};
    t["Squeeze"] = {{"T", kNumberNoInt32AndBool, {}}, {"T", kInt32, {"input", "output"}}};
    // int32 only, on the host (TensorFlow's DynamicStitchOpCPU on DEVICE_GPU): reduced_shape in
    // gradients stitches shapes, and the whole colocated shape computation stays on the GPU device.
    for (const char* op : {"DynamicStitch", "ParallelDynamicStitch"})
        t[op] = {{"T", kInt32, {"indices", "data", "merged"}}};
    t["Fill"] = {{"T", kFill, {"dims"}}, {"T", kInt32, {"dims", "value", "output"}}};
    t["ZerosLike"] = {{"T", kLike, {}}, {"T", kInt32, {"y"}}};
    t["OnesLike"] = {{"T", kLike, {}}, {"T", kInt32, {"y"}}};
    t["Const"] = {{"dtype", kFill, {}}, {"dtype", kInt32, {"output"}}};
    t["Transpose"] = {{"T", kPod, {"perm"}}};
    t["Tile"] = {{"T", kTile, {"multiples"}}};
    t["ConcatV2"] = {{"T", kConcat, {"axis"}}, {"T", kInt32, {"values", "axis", "output"}}};
    t["Concat"] = {{"T", kConcat, {"concat_dim"}}, {"T", kInt32, {"concat_dim", "values", "output"}}};
    t["Pack"] = {{"T", kPack, {}}, {"T", kInt32, {"values", "output"}}};
    t["Unpack"] = {{"T", kUnpack, {}}, {"T", {DT_INT32, DT_INT64}, {"value", "output"}}};
    t["Split"] = {{"T", kSplit, {"split_dim"}}, {"T", kInt32, {"split_dim", "value", "output"}}};
    t["SplitV"] = {{"T", kSplit, {"size_splits", "split_dim"}},
                   {"T", kInt32, {"value", "size_splits", "split_dim", "output"}}};
    t["Slice"] = {{"T", kSlice, {"begin", "size"}}, {"T", kInt32, {"input", "begin", "size", "output"}}};
    t["StridedSlice"] = {{"T", kStrided, {"begin", "end", "strides"}},
                         {"T", kInt32, {"input", "begin", "end", "strides", "output"}}};
    t["StridedSliceGrad"] = {{"T", kStrided, {"shape", "begin", "end", "strides"}},
                             {"T", kInt32, {"shape", "begin", "end", "strides", "dy", "output"}}};
    t["Pad"] = {{"T", kPad, {"paddings"}}, {"T", kInt32, {"input", "paddings", "output"}}};
    t["PadV2"] = {{"T", kPad, {"paddings"}}, {"T", kInt32, {"input", "paddings", "constant_values", "output"}}};
    t["Gather"] = {{"Tparams", kGather, {}}};
    t["GatherV2"] = {{"Tparams", kGather, {"axis"}}};
    t["OneHot"] = {{"T", kOneHot, {"depth"}}};
    return t;
}

// --- Node texts and inputs -------------------------------------------------------------------------

std::string typeAttr(DataType dtype, const char* attr = "T")
{
    return std::string(" attr { key: '") + attr + "' value { type: " + tensorflow::DataType_Name(dtype) + " } }";
}
std::string intAttr(const char* attr, std::int64_t value)
{
    return std::string(" attr { key: '") + attr + "' value { i: " + std::to_string(value) + " } }";
}
std::string intListAttr(const char* attr, const std::vector<std::int64_t>& values)
{
    std::string text = std::string(" attr { key: '") + attr + "' value { list {";
    for (std::int64_t v : values)
        text += " i: " + std::to_string(v);
    return text + " } } }";
}
std::string node(const std::string& op, DataType dtype, const std::string& extra = {}, const char* attr = "T")
{
    return "op: '" + op + "'" + typeAttr(dtype, attr) + extra;
}

/// Host tensors for the cases: random values of any dtype the GPU kernels move (small integers,
/// complex: two of them, so every value is exact in its dtype) and index vectors.
class Inputs {
public:
    explicit Inputs(Allocator& allocator) : m_allocator(allocator) {}

    Tensor random(DataType dtype, const TensorShape& shape)
    {
        if (dtype == DT_INT16 || dtype == DT_UINT16 || dtype == DT_UINT32 || dtype == DT_COMPLEX64 ||
            dtype == DT_COMPLEX128) {
            auto made = Tensor::allocate(m_allocator, dtype, shape);
            if (!made)
                qFatal("%s", made.error().toString().c_str());
            std::uniform_int_distribution<int> draw(0, 200);
            (void)dispatchDataType<
                TypeList<std::int16_t, std::uint16_t, std::uint32_t, std::complex<float>, std::complex<double>>>(
                dtype, [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    for (auto& v : made->template values<T>()) {
                        if constexpr (std::is_integral_v<T>)
                            v = static_cast<T>(draw(m_random));
                        else
                            v = T(draw(m_random) - 100, draw(m_random) - 100);
                    }
                });
            return *made;
        }
        return randomTensor(m_allocator, dtype, shape, m_random, dtype == DT_UINT8 ? 0 : -100, 100);
    }
    Tensor ints(const std::vector<std::int64_t>& values, DataType dtype = DT_INT32)
    {
        return ints(values, TensorShape{static_cast<std::int64_t>(values.size())}, dtype);
    }
    Tensor ints(const std::vector<std::int64_t>& values, const TensorShape& shape, DataType dtype = DT_INT32)
    {
        if (dtype == DT_INT64)
            return tensor<std::int64_t>(m_allocator, shape, values);
        if (dtype == DT_UINT8)
            return tensor<std::uint8_t>(m_allocator, shape, std::vector<std::uint8_t>(values.begin(), values.end()));
        return tensor<std::int32_t>(m_allocator, shape, std::vector<std::int32_t>(values.begin(), values.end()));
    }
    Tensor scalar(std::int64_t value, DataType dtype = DT_INT32) { return ints({value}, TensorShape::scalar(), dtype); }

private:
    Allocator& m_allocator;
    std::mt19937 m_random{20240611};
};

/// One run of a node: a case both devices must compute alike, or (`bad`) reject alike.
struct Case {
    std::string node;
    std::vector<Tensor> inputs;
    bool bad = false;
};

class Cases {
public:
    void same(std::string node, std::vector<Tensor> inputs) { m_cases.push_back({std::move(node), std::move(inputs)}); }
    void bothFail(std::string node, std::vector<Tensor> inputs)
    {
        m_cases.push_back({std::move(node), std::move(inputs), true});
    }
    const std::vector<Case>& all() const { return m_cases; }

private:
    std::vector<Case> m_cases;
};

const std::vector<TensorShape> kShapes = {TensorShape::scalar(), TensorShape{1},    TensorShape{7},
                                          TensorShape{3, 5},     TensorShape{0, 4}, TensorShape{2, 1, 3, 1},
                                          TensorShape{1000003}};

void identityShapeAndReshapeCases(Inputs& in, Cases& c)
{
    for (DataType dtype : with(kNumberNoInt32AndBool, {DT_INT32})) {
        for (const TensorShape& shape : kShapes) {
            const Tensor x = in.random(dtype, shape);
            for (const char* op : {"Identity", "StopGradient", "PreventGradient", "Snapshot"})
                c.same(node(op, dtype), {x});
            for (DataType out : {DT_INT32, DT_INT64}) {
                c.same(node("Shape", dtype, typeAttr(out, "out_type")), {x});
                c.same(node("Size", dtype, typeAttr(out, "out_type")), {x});
                c.same(node("ShapeN", dtype, typeAttr(out, "out_type") + intAttr("N", 2)), {x, x});
            }
            c.same(node("Rank", dtype), {x});
            c.same(node("PlaceholderWithDefault", dtype, {}, "dtype") +
                       " attr { key: 'shape' value { shape { unknown_rank: true } } }",
                   {x});
        }
        const Tensor x = in.random(dtype, TensorShape{2, 3, 4});
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string reshape = node("Reshape", dtype, typeAttr(index, "Tshape"));
            c.same(reshape, {x, in.ints({4, -1}, index)});
            c.same(reshape, {x, in.ints({24}, index)});
            c.same(reshape, {in.random(dtype, TensorShape{0, 3}), in.ints({0, -1}, index)});
            c.bothFail(reshape, {x, in.ints({5, 5}, index)});
            c.bothFail(reshape, {x, in.ints({-1, -1}, index)});
            const std::string expand = node("ExpandDims", dtype, typeAttr(index, "Tdim"));
            for (std::int64_t dim : {0, 3, -1, -4})
                c.same(expand, {x, in.scalar(dim, index)});
            c.bothFail(expand, {x, in.scalar(5, index)});
        }
        const Tensor ones = in.random(dtype, TensorShape{1, 3, 1});
        c.same(node("Squeeze", dtype), {ones});
        c.same(node("Squeeze", dtype, intListAttr("squeeze_dims", {0})), {ones});
        c.same(node("Squeeze", dtype, intListAttr("squeeze_dims", {-1})), {ones});
        c.bothFail(node("Squeeze", dtype, intListAttr("squeeze_dims", {1})), {ones});
    }
}

/// A Const node whose value attr holds `value` (as tensor_content or typed values).
std::string constNode(DataType dtype, const Tensor& value, bool content)
{
    tensorflow::NodeDef def;
    def.set_op("Const");
    (*def.mutable_attr())["dtype"].set_type(dtype);
    value.toProto((*def.mutable_attr())["value"].mutable_tensor(), content);
    std::string text;
    google::protobuf::TextFormat::PrintToString(def, &text);
    return text;
}

void fillLikeAndConstCases(Inputs& in, Cases& c)
{
    for (DataType dtype : with(kFill, {DT_INT32})) {
        const Tensor value = in.random(dtype, TensorShape::scalar());
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string fill = node("Fill", dtype, typeAttr(index, "index_type"));
            for (const std::vector<std::int64_t>& dims :
                 std::vector<std::vector<std::int64_t>>{{3, 4}, {}, {0, 2}, {1000003}, {7}})
                c.same(fill, {in.ints(dims, index), value});
            c.bothFail(fill, {in.ints({2}, index), in.random(dtype, TensorShape{2})});
            c.bothFail(fill, {in.ints({2, -1}, index), value});
        }
        for (const TensorShape& shape : {TensorShape::scalar(), TensorShape{2, 3}, TensorShape{0}}) {
            c.same(constNode(dtype, in.random(dtype, shape), true), {});
            c.same(constNode(dtype, in.random(dtype, shape), false), {});
        }
        c.bothFail(constNode(dtype, in.random(dtype == DT_FLOAT ? DT_DOUBLE : DT_FLOAT, TensorShape{2}), false), {});
    }
    for (DataType dtype : with(kLike, {DT_INT32})) {
        for (const TensorShape& shape : kShapes) {
            const Tensor x = in.random(dtype, shape);
            c.same(node("ZerosLike", dtype), {x});
            c.same(node("OnesLike", dtype), {x});
        }
    }
}

void transposeAndTileCases(Inputs& in, Cases& c)
{
    for (DataType dtype : kPod) {
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string transpose = node("Transpose", dtype, typeAttr(index, "Tperm"));
            c.same(transpose, {in.random(dtype, TensorShape{2, 3, 4}), in.ints({2, 0, 1}, index)});
            c.same(transpose, {in.random(dtype, TensorShape{1031, 977}), in.ints({1, 0}, index)});
            c.same(transpose, {in.random(dtype, TensorShape{2, 1, 3, 2, 1, 3}), in.ints({5, 3, 1, 0, 4, 2}, index)});
            c.same(transpose, {in.random(dtype, TensorShape::scalar()), in.ints({}, index)});
            c.same(transpose, {in.random(dtype, TensorShape{0, 5}), in.ints({1, 0}, index)});
            c.bothFail(transpose, {in.random(dtype, TensorShape{2, 3}), in.ints({0, 0}, index)});
            c.bothFail(transpose, {in.random(dtype, TensorShape{2, 3}), in.ints({0, 1, 2}, index)});
        }
    }
    for (DataType dtype : kTile) {
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string tile = node("Tile", dtype, typeAttr(index, "Tmultiples"));
            c.same(tile, {in.random(dtype, TensorShape{2, 3}), in.ints({2, 1}, index)});
            c.same(tile, {in.random(dtype, TensorShape{1, 7}), in.ints({3, 2}, index)});
            c.same(tile, {in.random(dtype, TensorShape{3, 1, 5}), in.ints({2, 4, 3}, index)});
            c.same(tile, {in.random(dtype, TensorShape{1009}), in.ints({997}, index)});
            c.same(tile, {in.random(dtype, TensorShape::scalar()), in.ints({}, index)});
            c.same(tile, {in.random(dtype, TensorShape{2, 3}), in.ints({0, 2}, index)});
            c.bothFail(tile, {in.random(dtype, TensorShape{2, 3}), in.ints({2, -1}, index)});
            c.bothFail(tile, {in.random(dtype, TensorShape{2, 3}), in.ints({2}, index)});
        }
    }
}

void concatPackSplitUnpackCases(Inputs& in, Cases& c)
{
    for (DataType dtype : with(kConcat, {DT_INT32})) {
        // 40 inputs: more than one GPU launch takes (32), so the column batches are exercised.
        for (int n : {2, 3, 40}) {
            std::vector<Tensor> values;
            for (int i = 0; i < n; ++i)
                values.push_back(in.random(dtype, TensorShape{3, 1 + i % 4, 2}));
            for (std::int64_t axis : {1, -2}) {
                std::vector<Tensor> v2 = values;
                v2.push_back(in.scalar(axis));
                c.same(node("ConcatV2", dtype, intAttr("N", n)), v2);
                std::vector<Tensor> v1 = {in.scalar(axis)};
                v1.insert(v1.end(), values.begin(), values.end());
                c.same(node("Concat", dtype, intAttr("N", n)), v1);
            }
        }
        c.same(node("ConcatV2", dtype, intAttr("N", 3) + typeAttr(DT_INT64, "Tidx")),
               {in.random(dtype, TensorShape{0, 2}), in.random(dtype, TensorShape{5, 2}),
                in.random(dtype, TensorShape{1000, 2}), in.scalar(0, DT_INT64)});
        c.bothFail(node("ConcatV2", dtype, intAttr("N", 2)),
                   {in.random(dtype, TensorShape{2, 3}), in.random(dtype, TensorShape{3, 3}), in.scalar(1)});
        c.bothFail(node("ConcatV2", dtype, intAttr("N", 2)),
                   {in.random(dtype, TensorShape{2, 3}), in.random(dtype, TensorShape{2, 3}), in.scalar(2)});
    }
    for (DataType dtype : with(kPack, {DT_INT32})) {
        for (std::int64_t axis : {0, 1, -1}) {
            std::vector<Tensor> values;
            for (int i = 0; i < 35; ++i)
                values.push_back(in.random(dtype, TensorShape{2, 3}));
            c.same(node("Pack", dtype, intAttr("N", 35) + intAttr("axis", axis)), values);
        }
        c.bothFail(node("Pack", dtype, intAttr("N", 2)),
                   {in.random(dtype, TensorShape{2}), in.random(dtype, TensorShape{3})});
    }
    for (DataType dtype : with(kUnpack, {DT_INT32, DT_INT64})) {
        const Tensor x = in.random(dtype, TensorShape{4, 3, 2});
        c.same(node("Unpack", dtype, intAttr("num", 4) + intAttr("axis", 0)), {x});
        c.same(node("Unpack", dtype, intAttr("num", 2) + intAttr("axis", -1)), {x});
        c.bothFail(node("Unpack", dtype, intAttr("num", 5) + intAttr("axis", 0)), {x});
    }
    for (DataType dtype : with(kSplit, {DT_INT32})) {
        const Tensor x = in.random(dtype, TensorShape{4, 9, 2});
        c.same(node("Split", dtype, intAttr("num_split", 3)), {in.scalar(1), x});
        c.same(node("Split", dtype, intAttr("num_split", 2)), {in.scalar(0), x});
        c.same(node("Split", dtype, intAttr("num_split", 1)), {in.scalar(-1), x});
        c.same(node("Split", dtype, intAttr("num_split", 40)), {in.scalar(0), in.random(dtype, TensorShape{40, 3})});
        c.bothFail(node("Split", dtype, intAttr("num_split", 2)), {in.scalar(1), x});
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string splitV = node("SplitV", dtype, typeAttr(index, "Tlen") + intAttr("num_split", 3));
            c.same(splitV, {x, in.ints({2, -1, 3}, index), in.scalar(1)});
            c.same(splitV, {x, in.ints({0, 4, 0}, index), in.scalar(0)});
            c.bothFail(splitV, {x, in.ints({2, 2, 2}, index), in.scalar(1)});
            c.bothFail(splitV, {x, in.ints({-1, -1, 3}, index), in.scalar(1)});
        }
    }
}

void sliceCases(Inputs& in, Cases& c)
{
    for (DataType dtype : with(kSlice, {DT_INT32})) {
        const Tensor x = in.random(dtype, TensorShape{4, 5, 6});
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string slice = node("Slice", dtype, typeAttr(index, "Index"));
            c.same(slice, {x, in.ints({1, 0, 2}, index), in.ints({2, -1, 3}, index)});
            c.same(slice, {x, in.ints({0, 0, 0}, index), in.ints({4, 5, 6}, index)});
            c.same(slice, {x, in.ints({3, 4, 5}, index), in.ints({0, 1, 1}, index)});
            c.bothFail(slice, {x, in.ints({1, 0, 2}, index), in.ints({4, 1, 1}, index)});
            c.bothFail(slice, {x, in.ints({1, 0}, index), in.ints({1, 1}, index)});
        }
    }
    // StridedSlice on [4, 5, 6]: the spec, its masks, and the output shape (dy's shape for the gradient).
    struct Strided {
        std::vector<std::int64_t> begin, end, strides;
        std::string masks;
        TensorShape out;
    };
    const std::vector<Strided> specs = {
        {{1, 0, 2}, {3, 5, 6}, {1, 2, 1}, "", TensorShape{2, 3, 4}},
        {{3, 4, 5}, {0, 0, 0}, {-1, -2, -3}, "", TensorShape{3, 2, 2}},
        {{0, 1, 0}, {0, 4, 0}, {1, 1, 1}, intAttr("begin_mask", 5) + intAttr("end_mask", 5), TensorShape{4, 3, 6}},
        {{2, 0, 0}, {3, 0, 0}, {1, 1, 1}, intAttr("shrink_axis_mask", 1) + intAttr("end_mask", 6), TensorShape{5, 6}},
        {{0, 1}, {0, 3}, {1, 1}, intAttr("ellipsis_mask", 1), TensorShape{4, 5, 2}},
        {{0, 0, 1},
         {0, 0, 2},
         {1, 1, 1},
         intAttr("new_axis_mask", 2) + intAttr("begin_mask", 1) + intAttr("end_mask", 1),
         TensorShape{4, 1, 1, 6}},
    };
    for (DataType dtype : with(kStrided, {DT_INT32})) {
        const Tensor x = in.random(dtype, TensorShape{4, 5, 6});
        for (DataType index : {DT_INT32, DT_INT64}) {
            for (const Strided& s : specs) {
                const std::string extra = typeAttr(index, "Index") + s.masks;
                c.same(node("StridedSlice", dtype, extra),
                       {x, in.ints(s.begin, index), in.ints(s.end, index), in.ints(s.strides, index)});
                c.same(node("StridedSliceGrad", dtype, extra),
                       {in.ints({4, 5, 6}, index), in.ints(s.begin, index), in.ints(s.end, index),
                        in.ints(s.strides, index), in.random(dtype, s.out)});
                c.bothFail(node("StridedSliceGrad", dtype, extra),
                           {in.ints({4, 5, 6}, index), in.ints(s.begin, index), in.ints(s.end, index),
                            in.ints(s.strides, index), in.random(dtype, TensorShape{7})});
            }
            c.bothFail(node("StridedSlice", dtype, typeAttr(index, "Index")),
                       {x, in.ints({0, 0, 0}, index), in.ints({1, 1, 1}, index), in.ints({1, 0, 1}, index)});
        }
    }
}

void padCases(Inputs& in, Cases& c)
{
    for (DataType dtype : with(kPad, {DT_INT32})) {
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string pad = node("Pad", dtype, typeAttr(index, "Tpaddings"));
            const std::string padV2 = node("PadV2", dtype, typeAttr(index, "Tpaddings"));
            const Tensor x = in.random(dtype, TensorShape{3, 4});
            const Tensor paddings = in.ints({1, 2, 0, 3}, TensorShape{2, 2}, index);
            c.same(pad, {x, paddings});
            c.same(padV2, {x, paddings, in.random(dtype, TensorShape::scalar())});
            c.same(pad, {in.random(dtype, TensorShape{1000003}), in.ints({0, 5}, TensorShape{1, 2}, index)});
            c.same(pad, {in.random(dtype, TensorShape{0, 2}), paddings});
            c.same(padV2, {in.random(dtype, TensorShape::scalar()), in.ints({}, TensorShape{0, 2}, index),
                           in.random(dtype, TensorShape::scalar())});
            c.bothFail(pad, {x, in.ints({1, -2, 0, 3}, TensorShape{2, 2}, index)});
            c.bothFail(padV2, {x, paddings, in.random(dtype, TensorShape{2})});
        }
    }
}

void gatherAndOneHotCases(Inputs& in, Cases& c)
{
    for (DataType dtype : kGather) {
        const Tensor params = in.random(dtype, TensorShape{10, 4, 3});
        for (DataType index : {DT_INT32, DT_INT64}) {
            const std::string gather = node("Gather", dtype, typeAttr(index, "Tindices"), "Tparams");
            const std::string gatherV2 =
                node("GatherV2", dtype, typeAttr(index, "Tindices") + typeAttr(index, "Taxis"), "Tparams");
            c.same(gather, {params, in.ints({9, 0, 3, 3, 7, 1}, TensorShape{3, 2}, index)});
            c.same(gather, {params, in.scalar(4, index)});
            c.same(gather, {params, in.ints({}, TensorShape{0}, index)});
            for (std::int64_t axis : {0, 1, -1})
                c.same(gatherV2, {params, in.ints({2, 0, 1, 2}, TensorShape{2, 2}, index), in.scalar(axis, index)});
            c.same(gatherV2 + intAttr("batch_dims", 1),
                   {in.random(dtype, TensorShape{2, 5, 3}), in.ints({4, 0, 1, 2}, TensorShape{2, 2}, index),
                    in.scalar(1, index)});
            c.bothFail(gatherV2, {params, in.ints({0}, index), in.scalar(3, index)});
            c.bothFail(gatherV2, {in.random(dtype, TensorShape::scalar()), in.ints({0}, index), in.scalar(0, index)});
        }
    }
    for (DataType dtype : kOneHot) {
        for (DataType index : {DT_UINT8, DT_INT32, DT_INT64}) {
            // Indices outside [0, depth) give rows of off_value on both devices.
            const std::vector<std::int64_t> values = index == DT_UINT8 ? std::vector<std::int64_t>{0, 3, 4, 200, 1, 2}
                                                                       : std::vector<std::int64_t>{0, 3, 4, -1, 1, 2};
            const Tensor indices = in.ints(values, TensorShape{2, 3}, index);
            const Tensor on = in.random(dtype, TensorShape::scalar());
            const Tensor off = in.random(dtype, TensorShape::scalar());
            const std::string oneHot = node("OneHot", dtype, typeAttr(index, "TI"));
            for (std::int64_t axis : {-1, 0, 1, 2})
                c.same(oneHot + intAttr("axis", axis), {indices, in.scalar(4), on, off});
            c.same(oneHot, {indices, in.scalar(0), on, off});
            c.same(oneHot, {in.ints({}, TensorShape{0}, index), in.scalar(3), on, off});
            c.bothFail(oneHot, {indices, in.scalar(-1), on, off});
            c.bothFail(oneHot + intAttr("axis", 3), {indices, in.scalar(4), on, off});
        }
    }
}

using CaseMaker = void (*)(Inputs&, Cases&);
const std::vector<std::pair<const char*, CaseMaker>> kCaseMakers = {
    {"identity, shape and reshape", identityShapeAndReshapeCases},
    {"fill, like and const", fillLikeAndConstCases},
    {"transpose and tile", transposeAndTileCases},
    {"concat, pack, split, unpack", concatPackSplitUnpackCases},
    {"slices", sliceCases},
    {"pads", padCases},
    {"gather and one-hot", gatherAndOneHotCases},
};

/// Every case against the GPU: results equal to the CPU's bit for bit (these kernels move values
/// without arithmetic), or rejected by both with the same code.
QStringList compareCases(GpuKernelHarness& h, CaseMaker make)
{
    Inputs in(h.allocator());
    Cases cases;
    make(in, cases);
    return gpuCaseFailures(h, cases.all(), [](const Case&) { return std::pair{0.0, 0.0}; });
}

} // namespace

class TestGpuArrayKernels : public QObject {
    Q_OBJECT

private slots:
    void registrationsMatchTensorFlow()
    {
        if (!probeGpus().compiledIn)
            QSKIP("no GPU support compiled in: no GPU kernels are registered");
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        const std::string problem = checkRegistrations(*h, expectedRegistrations());
        QVERIFY2(problem.empty(), problem.c_str());
    }

    /// Runs without a GPU: every case does on the CPU what the GPU tests assume (good cases run,
    /// bad ones fail), so the comparisons below test what they claim to.
    void casesBehaveOnTheCpu()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        QStringList failures;
        for (const auto& [name, make] : kCaseMakers) {
            Inputs in(h->allocator());
            Cases cases;
            make(in, cases);
            for (const QString& failure : cpuCaseFailures(*h, cases.all()))
                failures << QString(name) + ": " + failure;
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void identityShapeAndReshape()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, identityShapeAndReshapeCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void fillLikeAndConst()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, fillLikeAndConstCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void transposeAndTile()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, transposeAndTileCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void concatPackSplitUnpack()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, concatPackSplitUnpackCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void slices()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, sliceCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void pads()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = compareCases(h, padCases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
    void gatherAndOneHot()
    {
        GPU_HARNESS_OR_SKIP(h);
        QStringList failures = compareCases(h, gatherAndOneHotCases);
        // An index outside [0, params.shape[0]): zeros in its slice on the GPU (TensorFlow's GPU
        // kernel), an error on the CPU.
        Inputs in(h.allocator());
        for (DataType dtype : kGather) {
            const Tensor params = in.random(dtype, TensorShape{10, 4, 3});
            for (DataType index : {DT_INT32, DT_INT64}) {
                const std::string gather = node("Gather", dtype, typeAttr(index, "Tindices"), "Tparams");
                const Tensor bad = in.ints({1, 99, 2, -1}, index);
                auto gpu = h.runOnGpu(gather, {params, bad});
                auto rows = h.runOnCpu(gather, {params, in.ints({1, 1, 2, 2}, index)});
                if (!gpu || !rows || h.runOnCpu(gather, {params, bad})) {
                    failures << QString::fromStdString("[" + gather +
                                                       "] out of range: the GPU must succeed and "
                                                       "the CPU fail");
                    continue;
                }
                Tensor expected = (*rows)[0];
                auto bytes = expected.tensorData();
                const auto row = static_cast<std::ptrdiff_t>(bytes.size() / 4);
                std::fill(bytes.begin() + row, bytes.begin() + 2 * row, std::byte{0});
                std::fill(bytes.begin() + 3 * row, bytes.end(), std::byte{0});
                const std::string d = compareTensors((*gpu)[0], expected, 0, 0);
                if (!d.empty())
                    failures << QString::fromStdString("[" + gather + "] out of range: " + d);
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestGpuArrayKernels)
#include "test_gpu_array_kernels.moc"
