// Tests for the array kernels: NumPy golden cases (tests/data/golden/array.json, from
// tools/golden/array.py), string tensors (which .npy files cannot carry), kernel state and buffer
// sharing, and multi-threaded results equal to single-threaded ones.
#include "devices/cpu/cpu_device.h"
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "kernel_harness.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <cstring>
#include <random>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
}

/// A node text with type attrs, e.g. node("ConcatV2", {{"T", "DT_STRING"}}, "attr { key: 'N' value { i: 2 } }").
std::string node(const std::string& op, const std::vector<std::pair<std::string, std::string>>& types,
                 const std::string& extra = "")
{
    std::string text = "op: '" + op + "' ";
    for (const auto& [attr, dtype] : types)
        text += "attr { key: '" + attr + "' value { type: " + dtype + " } } ";
    return text + extra;
}

std::string intAttr(const std::string& name, std::int64_t value)
{
    return "attr { key: '" + name + "' value { i: " + std::to_string(value) + " } } ";
}

Tensor strings(KernelHarness& h, TensorShape shape, const std::vector<std::string>& values)
{
    return *Tensor::fromVector<std::string>(h.allocator(), shape, values);
}

template <typename T> Tensor tensor(KernelHarness& h, TensorShape shape, const std::vector<T>& values)
{
    return *Tensor::fromVector<T>(h.allocator(), shape, values);
}

Tensor ints(KernelHarness& h, const std::vector<std::int32_t>& values)
{
    return tensor<std::int32_t>(h, TensorShape{static_cast<std::int64_t>(values.size())}, values);
}

Tensor scalarInt(KernelHarness& h, std::int32_t v)
{
    return tensor<std::int32_t>(h, TensorShape::scalar(), {v});
}

std::vector<std::string> values(const Tensor& t)
{
    return std::vector<std::string>(t.strings().begin(), t.strings().end());
}

using Strings = std::vector<std::string>;

bool sameBytes(const Tensor& a, const Tensor& b)
{
    return a.dtype() == b.dtype() && a.shape() == b.shape() && a.tensorData().size() == b.tensorData().size() &&
           std::memcmp(a.tensorData().data(), b.tensorData().data(), a.tensorData().size()) == 0;
}

} // namespace

class TestArrayKernels : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        const QString failures = goldenFailures(h.get(), "array.json", CaseCount::atLeast(401));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    void stringIdentityAndShapes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor s = strings(*h, TensorShape{2, 2}, {"a", "bb", "", "dddd"});
        auto id = h->run(node("Identity", {{"T", "DT_STRING"}}), {s});
        QVERIFY(id);
        QVERIFY((*id)[0].sharesBufferWith(s));
        auto reshaped = h->run(node("Reshape", {{"T", "DT_STRING"}}), {s, ints(*h, {4, -1})});
        QVERIFY(reshaped);
        QCOMPARE((*reshaped)[0].shape(), (TensorShape{4, 1}));
        QCOMPARE(values((*reshaped)[0]), (Strings{"a", "bb", "", "dddd"}));
        auto expanded = h->run(node("ExpandDims", {{"T", "DT_STRING"}}), {s, scalarInt(*h, 1)});
        QVERIFY(expanded);
        QCOMPARE((*expanded)[0].shape(), (TensorShape{2, 1, 2}));
        auto squeezed = h->run(node("Squeeze", {{"T", "DT_STRING"}}), {(*expanded)[0]});
        QVERIFY(squeezed);
        QCOMPARE(values((*squeezed)[0]), values(s));
        auto shape = h->run(node("Shape", {{"T", "DT_STRING"}}), {s});
        QVERIFY(shape);
        QCOMPARE((*shape)[0].values<std::int32_t>()[1], 2);
        auto zeros = h->run(node("ZerosLike", {{"T", "DT_STRING"}}), {s});
        QVERIFY(zeros);
        QCOMPARE(values((*zeros)[0]), (Strings{"", "", "", ""}));
        auto fill =
            h->run(node("Fill", {{"T", "DT_STRING"}}), {ints(*h, {3}), strings(*h, TensorShape::scalar(), {"xyz"})});
        QVERIFY(fill);
        QCOMPARE(values((*fill)[0]), (Strings{"xyz", "xyz", "xyz"}));
    }

    void stringMovement()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor s = strings(*h, TensorShape{2, 3}, {"a", "b", "c", "d", "e", "f"});
        const std::string t = "DT_STRING";

        auto transposed = h->run(node("Transpose", {{"T", t}}), {s, ints(*h, {1, 0})});
        QVERIFY(transposed);
        QCOMPARE(values((*transposed)[0]), (Strings{"a", "d", "b", "e", "c", "f"}));

        auto concat = h->run(node("ConcatV2", {{"T", t}}, intAttr("N", 2)), {s, s, scalarInt(*h, 1)});
        QVERIFY(concat);
        QCOMPARE(values((*concat)[0]), (Strings{"a", "b", "c", "a", "b", "c", "d", "e", "f", "d", "e", "f"}));

        auto tiled = h->run(node("Tile", {{"T", t}}), {s, ints(*h, {2, 1})});
        QVERIFY(tiled);
        QCOMPARE(values((*tiled)[0]), (Strings{"a", "b", "c", "d", "e", "f", "a", "b", "c", "d", "e", "f"}));

        auto reversed = h->run(node("ReverseV2", {{"T", t}}), {s, ints(*h, {1})});
        QVERIFY(reversed);
        QCOMPARE(values((*reversed)[0]), (Strings{"c", "b", "a", "f", "e", "d"}));

        auto padded = h->run(node("Pad", {{"T", t}}), {s, tensor<std::int32_t>(*h, TensorShape{2, 2}, {0, 1, 1, 0})});
        QVERIFY(padded);
        QCOMPARE(values((*padded)[0]), (Strings{"", "a", "b", "c", "", "d", "e", "f", "", "", "", ""}));
        auto padV2 = h->run(node("PadV2", {{"T", t}}), {s, tensor<std::int32_t>(*h, TensorShape{2, 2}, {0, 0, 1, 0}),
                                                        strings(*h, TensorShape::scalar(), {"_"})});
        QVERIFY(padV2);
        QCOMPARE(values((*padV2)[0]), (Strings{"_", "a", "b", "c", "_", "d", "e", "f"}));
        auto mirrored = h->run(node("MirrorPad", {{"T", t}}, "attr { key: 'mode' value { s: 'REFLECT' } }"),
                               {s, tensor<std::int32_t>(*h, TensorShape{2, 2}, {0, 0, 2, 1})});
        QVERIFY(mirrored);
        QCOMPARE(values((*mirrored)[0]), (Strings{"c", "b", "a", "b", "c", "b", "f", "e", "d", "e", "f", "e"}));

        auto sliced =
            h->run(node("Slice", {{"T", t}, {"Index", "DT_INT32"}}), {s, ints(*h, {1, 1}), ints(*h, {1, -1})});
        QVERIFY(sliced);
        QCOMPARE(values((*sliced)[0]), (Strings{"e", "f"}));
        // s[:, ::-2]
        auto strided = h->run(
            node("StridedSlice", {{"T", t}, {"Index", "DT_INT32"}}, intAttr("begin_mask", 3) + intAttr("end_mask", 3)),
            {s, ints(*h, {0, 0}), ints(*h, {0, 0}), ints(*h, {1, -2})});
        QVERIFY(strided);
        QCOMPARE(values((*strided)[0]), (Strings{"c", "a", "f", "d"}));
        auto grad = h->run(node("StridedSliceGrad", {{"T", t}, {"Index", "DT_INT32"}},
                                intAttr("begin_mask", 3) + intAttr("end_mask", 3)),
                           {ints(*h, {2, 3}), ints(*h, {0, 0}), ints(*h, {0, 0}), ints(*h, {1, -2}), (*strided)[0]});
        QVERIFY(grad);
        QCOMPARE(values((*grad)[0]), (Strings{"a", "", "c", "d", "", "f"}));

        auto gathered = h->run(node("GatherV2", {{"Tparams", t}, {"Tindices", "DT_INT32"}, {"Taxis", "DT_INT32"}}),
                               {s, ints(*h, {2, 0, 2}), scalarInt(*h, 1)});
        QVERIFY(gathered);
        QCOMPARE(values((*gathered)[0]), (Strings{"c", "a", "c", "f", "d", "f"}));

        auto split = h->run(node("Split", {{"T", t}}, intAttr("num_split", 3)), {scalarInt(*h, 1), s});
        QVERIFY(split);
        QCOMPARE(values((*split)[2]), (Strings{"c", "f"}));
        auto splitV = h->run(node("SplitV", {{"T", t}, {"Tlen", "DT_INT32"}}, intAttr("num_split", 2)),
                             {s, ints(*h, {-1, 1}), scalarInt(*h, 1)});
        QVERIFY(splitV);
        QCOMPARE(values((*splitV)[0]), (Strings{"a", "b", "d", "e"}));
        QCOMPARE(values((*splitV)[1]), (Strings{"c", "f"}));

        auto packed = h->run(node("Pack", {{"T", t}}, intAttr("N", 2) + intAttr("axis", 1)), {s, (*reversed)[0]});
        QVERIFY(packed);
        QCOMPARE((*packed)[0].shape(), (TensorShape{2, 2, 3}));
        QCOMPARE(values((*packed)[0]), (Strings{"a", "b", "c", "c", "b", "a", "d", "e", "f", "f", "e", "d"}));
        auto unpacked = h->run(node("Unpack", {{"T", t}}, intAttr("num", 3) + intAttr("axis", 1)), {s});
        QVERIFY(unpacked);
        QCOMPARE(values((*unpacked)[1]), (Strings{"b", "e"}));

        auto broadcast =
            h->run(node("BroadcastTo", {{"T", t}}), {strings(*h, TensorShape{2, 1}, {"p", "q"}), ints(*h, {2, 2})});
        QVERIFY(broadcast);
        QCOMPARE(values((*broadcast)[0]), (Strings{"p", "p", "q", "q"}));
    }

    void stringDataDependentOps()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto unique =
            h->run(node("Unique", {{"T", "DT_STRING"}}), {strings(*h, TensorShape{5}, {"b", "a", "b", "", "a"})});
        QVERIFY(unique);
        QCOMPARE(values((*unique)[0]), (Strings{"b", "a", ""}));
        QCOMPARE(std::vector<std::int32_t>((*unique)[1].values<std::int32_t>().begin(),
                                           (*unique)[1].values<std::int32_t>().end()),
                 (std::vector<std::int32_t>{0, 1, 0, 2, 1}));

        auto stitched = h->run(node("DynamicStitch", {{"T", "DT_STRING"}}, intAttr("N", 2)),
                               {ints(*h, {2, 0}), ints(*h, {3}), strings(*h, TensorShape{2}, {"two", "zero"}),
                                strings(*h, TensorShape{1}, {"three"})});
        QVERIFY(stitched);
        QCOMPARE(values((*stitched)[0]), (Strings{"zero", "", "two", "three"}));

        auto oneHot = h->run(node("OneHot", {{"T", "DT_STRING"}, {"TI", "DT_INT32"}}),
                             {ints(*h, {1, 5}), scalarInt(*h, 2), strings(*h, TensorShape::scalar(), {"on"}),
                              strings(*h, TensorShape::scalar(), {"off"})});
        QVERIFY(oneHot);
        QCOMPARE(values((*oneHot)[0]), (Strings{"off", "on", "off", "off"}));

        // A string Const: string_val, the last value repeated.
        auto c = h->run("op: 'Const' attr { key: 'dtype' value { type: DT_STRING } } attr { key: 'value' value { "
                        "tensor { dtype: DT_STRING tensor_shape { dim { size: 3 } } string_val: 'x' string_val: 'yz' "
                        "} } }",
                        {});
        QVERIFY(c);
        QCOMPARE(values((*c)[0]), (Strings{"x", "yz", "yz"}));
    }

    void quantizedTypesMoveAsTheirStorage()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto params = Tensor::allocate(h->allocator(), tensorflow::DT_QUINT8, TensorShape{3, 2});
        QVERIFY(params);
        for (int i = 0; i < 6; ++i)
            params->values<std::uint8_t>()[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(250 + i);
        auto out =
            h->run(node("Gather", {{"Tparams", "DT_QUINT8"}, {"Tindices", "DT_INT32"}}), {*params, ints(*h, {2, 0})});
        QVERIFY2(out, out ? "" : out.error().message().c_str());
        QCOMPARE((*out)[0].dtype(), tensorflow::DT_QUINT8);
        const auto v = (*out)[0].values<std::uint8_t>();
        QCOMPARE(std::vector<int>(v.begin(), v.end()), (std::vector<int>{254, 255, 250, 251}));
    }

    void constMakesItsTensorOnce()
    {
        auto h = makeHarness();
        QVERIFY(h);
        tensorflow::NodeDef def;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            "name: 'c' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value { tensor "
            "{ dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 float_val: 2 } } }",
            &def));
        auto kernel = h->kernels().createKernel(def, h->ops(), h->device());
        QVERIFY(kernel);
        std::vector<Tensor> results;
        for (int step = 0; step < 2; ++step) {
            std::vector<TensorValue> none;
            OpKernelContext ctx({kernel->get(), &h->device(), &none, &h->resources(), step});
            QVERIFY((*kernel)->compute(ctx).isOk());
            results.push_back(ctx.outputs()[0].get());
        }
        QVERIFY(results[0].sharesBufferWith(results[1])); // the same tensor every run
        QCOMPARE(results[1].values<float>()[1], 2.0f);
    }

    void snapshotCopiesIdentitySharesAndPlaceholderWords()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor x = tensor<float>(*h, TensorShape{3}, {1, 2, 3});
        auto id = h->run(node("Identity", {{"T", "DT_FLOAT"}}), {x});
        auto snap = h->run(node("Snapshot", {{"T", "DT_FLOAT"}}), {x});
        QVERIFY(id && snap);
        QVERIFY((*id)[0].sharesBufferWith(x));
        QVERIFY(!(*snap)[0].sharesBufferWith(x));
        QCOMPARE((*snap)[0].values<float>()[2], 3.0f);

        // TensorFlow names the shape only when its rank is known and above 0.
        auto scalar = h->run("op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'shape' "
                             "value { shape { } } }",
                             {});
        QVERIFY(!scalar);
        QCOMPARE(QString::fromStdString(scalar.error().message()),
                 QStringLiteral("You must feed a value for placeholder tensor 'test_node' with dtype float"));
        QCOMPARE(scalar.error().code(), StatusCode::kInvalidArgument);
    }

    void reshapeExpandDimsAndSqueezeShareTheirInput()
    {
        // As TensorFlow's Tensor::CopyFrom: a new shape over the same buffer, nothing copied.
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor x = tensor<float>(*h, TensorShape{2, 1, 3}, {1, 2, 3, 4, 5, 6});
        auto reshaped = h->run(node("Reshape", {{"T", "DT_FLOAT"}, {"Tshape", "DT_INT32"}}), {x, ints(*h, {3, -1})});
        auto expanded = h->run(node("ExpandDims", {{"T", "DT_FLOAT"}, {"Tdim", "DT_INT32"}}), {x, scalarInt(*h, -1)});
        auto squeezed = h->run(node("Squeeze", {{"T", "DT_FLOAT"}}), {x});
        QVERIFY(reshaped && expanded && squeezed);
        QCOMPARE((*reshaped)[0].shape(), TensorShape({3, 2}));
        QCOMPARE((*expanded)[0].shape(), TensorShape({2, 1, 3, 1}));
        QCOMPARE((*squeezed)[0].shape(), TensorShape({2, 3}));
        for (const Tensor& out : {(*reshaped)[0], (*expanded)[0], (*squeezed)[0]}) {
            QVERIFY(out.sharesBufferWith(x));
            QCOMPARE(out.values<float>()[4], 5.0f);
        }
        // A count mismatch is still the kernel's own error, and nothing is produced.
        auto bad = h->run(node("Reshape", {{"T", "DT_FLOAT"}, {"Tshape", "DT_INT32"}}), {x, ints(*h, {4})});
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error().message()),
                 QStringLiteral("Input to reshape is a tensor with 6 values, but the requested shape has 4"));
    }

    void multiThreadedEqualsSingleThreaded()
    {
        auto h = makeHarness();
        QVERIFY(h);
        CpuDevice one(0, 1);
        CpuDevice four(1, 4);
        std::mt19937 random(7);
        std::uniform_real_distribution<float> uniform(-1, 1);
        auto randomFloats = [&](TensorShape shape) {
            std::vector<float> v(static_cast<std::size_t>(*shape.numElements()));
            for (float& x : v)
                x = uniform(random);
            return tensor<float>(*h, shape, v);
        };
        auto randomInts = [&](std::int64_t n, std::int32_t limit) {
            std::vector<std::int32_t> v(static_cast<std::size_t>(n));
            for (auto& x : v)
                x = static_cast<std::int32_t>(random() % static_cast<std::uint32_t>(limit));
            return tensor<std::int32_t>(*h, TensorShape{n}, v);
        };
        const Tensor big = randomFloats(TensorShape{300, 200, 7});
        const Tensor wide = randomFloats(TensorShape{500, 300});
        const std::string f = "DT_FLOAT";
        struct Case {
            std::string name;
            std::string node;
            std::vector<Tensor> inputs;
        };
        const std::vector<Case> cases = {
            {"Transpose", node("Transpose", {{"T", f}}), {big, ints(*h, {2, 0, 1})}},
            {"Gather",
             node("GatherV2", {{"Tparams", f}, {"Tindices", "DT_INT32"}, {"Taxis", "DT_INT32"}}),
             {wide, randomInts(4000, 500), scalarInt(*h, 0)}},
            {"ConcatV2", node("ConcatV2", {{"T", f}}, intAttr("N", 2)), {wide, wide, scalarInt(*h, 1)}},
            {"Tile", node("Tile", {{"T", f}}), {wide, ints(*h, {2, 3})}},
            {"Pad", node("Pad", {{"T", f}}), {big, tensor<std::int32_t>(*h, TensorShape{3, 2}, {1, 2, 0, 3, 2, 0})}},
            {"MirrorPad",
             node("MirrorPad", {{"T", f}}, "attr { key: 'mode' value { s: 'SYMMETRIC' } }"),
             {big, tensor<std::int32_t>(*h, TensorShape{3, 2}, {1, 2, 0, 3, 2, 0})}},
            {"ReverseV2", node("ReverseV2", {{"T", f}}), {big, ints(*h, {0, 2})}},
            {"StridedSlice",
             node("StridedSlice", {{"T", f}, {"Index", "DT_INT32"}}),
             {big, ints(*h, {299, 1, 0}), ints(*h, {0, 200, 7}), ints(*h, {-2, 3, 2})}},
            {"SplitV",
             node("SplitV", {{"T", f}, {"Tlen", "DT_INT32"}}, intAttr("num_split", 3)),
             {wide, ints(*h, {100, -1, 7}), scalarInt(*h, 1)}},
            {"Cumsum",
             node("Cumsum", {{"T", f}}, "attr { key: 'reverse' value { b: true } }"),
             {wide, scalarInt(*h, 0)}},
            {"OneHot",
             node("OneHot", {{"T", f}, {"TI", "DT_INT32"}}),
             {randomInts(3000, 120), scalarInt(*h, 100), tensor<float>(*h, TensorShape::scalar(), {1}),
              tensor<float>(*h, TensorShape::scalar(), {0})}},
            {"BroadcastTo",
             node("BroadcastTo", {{"T", f}}),
             {randomFloats(TensorShape{300, 1}), ints(*h, {4, 300, 500})}},
        };
        for (const Case& c : cases) {
            auto a = h->runOn(one, c.node, c.inputs);
            auto b = h->runOn(four, c.node, c.inputs);
            QVERIFY2(a && b, c.name.c_str());
            QCOMPARE(a->size(), b->size());
            for (std::size_t i = 0; i < a->size(); ++i)
                QVERIFY2(sameBytes((*a)[i], (*b)[i]), c.name.c_str());
        }

        // And the threaded transpose against a plain loop.
        auto t = h->runOn(four, cases[0].node, cases[0].inputs);
        QVERIFY(t);
        const auto in = big.values<float>();
        const auto out = (*t)[0].values<float>();
        QCOMPARE((*t)[0].shape(), (TensorShape{7, 300, 200}));
        bool equal = true;
        for (int k = 0; k < 7 && equal; ++k)
            for (int i = 0; i < 300 && equal; ++i)
                for (int j = 0; j < 200 && equal; ++j)
                    equal = out[static_cast<std::size_t>((k * 300 + i) * 200 + j)] ==
                            in[static_cast<std::size_t>((i * 200 + j) * 7 + k)];
        QVERIFY(equal);
    }
};

QTEST_GUILESS_MAIN(TestArrayKernels)
#include "test_array_kernels.moc"
