// Tests for the math kernels: NumPy golden cases (tools/golden/math.py, trigonometry included), the
// broadcasting plan, thread-count independence, bfloat16 and string kernels, dtype checks and buffer forwarding.
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "kernels/math/broadcast.h"
#include "ops/ops.h"

#include "kernel_harness.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    QString err;
    auto h = KernelHarness::create({registerMathOps}, {registerMathCpuKernels}, &err);
    if (!h)
        qWarning("%s", qPrintable(err));
    return h;
}

/// "op: 'Add' attr { key: 'T' value { type: DT_FLOAT } }" and friends.
std::string nodeText(const std::string& op, const std::vector<std::pair<std::string, std::string>>& typeAttrs = {},
                     const std::string& extra = "")
{
    std::string text = "op: '" + op + "'";
    for (const auto& [key, type] : typeAttrs)
        text += " attr { key: '" + key + "' value { type: " + type + " } }";
    return text + " " + extra;
}

/// Same dtype, shape and bytes.
bool sameBits(const Tensor& a, const Tensor& b)
{
    const auto x = a.tensorData(), y = b.tensorData();
    return a.dtype() == b.dtype() && a.shape() == b.shape() && x.size() == y.size() &&
           std::memcmp(x.data(), y.data(), x.size()) == 0;
}

/// Row-major strides of `dims`.
std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& dims)
{
    std::vector<std::int64_t> strides(dims.size(), 1);
    for (std::size_t k = dims.size(); k-- > 1;)
        strides[k - 1] = strides[k] * dims[k];
    return strides;
}

/// A naive broadcasting reference, element by element with full index arithmetic (independent of
/// BroadcastPlan): out[i] = f(x[index in x], y[index in y]).
template <typename T, typename Out, typename F>
std::vector<Out> naiveBroadcast(const std::vector<std::int64_t>& outDims, const std::vector<std::int64_t>& xDims,
                                const std::vector<T>& x, const std::vector<std::int64_t>& yDims,
                                const std::vector<T>& y, F f)
{
    std::int64_t n = 1;
    for (std::int64_t d : outDims)
        n *= d;
    const auto xs = stridesOf(xDims), ys = stridesOf(yDims), os = stridesOf(outDims);
    std::vector<Out> out(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t xi = 0, yi = 0;
        for (std::size_t k = 0; k < outDims.size(); ++k) {
            const std::int64_t idx = (i / os[k]) % outDims[k];
            const std::size_t kx = k + xDims.size() - outDims.size(), ky = k + yDims.size() - outDims.size();
            if (k + xDims.size() >= outDims.size() && xDims[kx] != 1)
                xi += idx * xs[kx];
            if (k + yDims.size() >= outDims.size() && yDims[ky] != 1)
                yi += idx * ys[ky];
        }
        out[static_cast<std::size_t>(i)] = f(x[static_cast<std::size_t>(xi)], y[static_cast<std::size_t>(yi)]);
    }
    return out;
}

template <typename T> std::vector<T> ramp(std::int64_t n, double scale, double offset = 0.0)
{
    std::vector<T> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = static_cast<T>(std::fmod(double(i) * scale, 17.0) - 8.0 + offset);
    return v;
}

/// Bit-level float -> bfloat16, round to nearest even (NaN stays NaN); an independent reference.
std::uint16_t bfloat16Bits(float f, bool truncate = false)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f))
        return static_cast<std::uint16_t>((u >> 16) | 0x40);
    if (!truncate)
        u += 0x7fff + ((u >> 16) & 1);
    return static_cast<std::uint16_t>(u >> 16);
}

float bfloat16Value(std::uint16_t bits)
{
    const std::uint32_t u = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

Tensor bfloat16Tensor(Allocator& allocator, const TensorShape& shape, const std::vector<float>& values)
{
    std::vector<Eigen::bfloat16> v;
    for (float f : values)
        v.push_back(Eigen::numext::bit_cast<Eigen::bfloat16>(bfloat16Bits(f)));
    return tensor(allocator, shape, v);
}

std::vector<float> bfloat16Floats(const Tensor& t)
{
    std::vector<float> out;
    for (Eigen::bfloat16 b : t.values<Eigen::bfloat16>())
        out.push_back(bfloat16Value(Eigen::numext::bit_cast<std::uint16_t>(b)));
    return out;
}

} // namespace

class TestMathKernels : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        QVERIFY(h);
        int n = 0;
        const QStringList failures = runGoldenCases(*h, goldenDir() + "/math.json", &n);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QVERIFY2(n > 1000, qPrintable(QString::number(n)));
    }

    void broadcastPlanCollapsesDimensions()
    {
        // Same shapes: one dimension, no broadcasting.
        BroadcastPlan same{TensorShape{2, 3, 4}, TensorShape{2, 3, 4}};
        QVERIFY(same.valid() && same.noBroadcast());
        QCOMPARE(same.dims(), (std::vector<std::int64_t>{24}));
        QCOMPARE(same.strides(1), (std::vector<std::int64_t>{1}));
        // Scalar against a tensor: one dimension where the scalar does not move.
        BroadcastPlan scalar{TensorShape::scalar(), TensorShape{2, 3}};
        QCOMPARE(scalar.outputShape(), (TensorShape{2, 3}));
        QCOMPARE(scalar.dims(), (std::vector<std::int64_t>{6}));
        QCOMPARE(scalar.strides(0), (std::vector<std::int64_t>{0}));
        QVERIFY(!scalar.noBroadcast());
        // A bias over rows.
        BroadcastPlan bias{TensorShape{4, 2, 3}, TensorShape{3}};
        QCOMPARE(bias.dims(), (std::vector<std::int64_t>{8, 3}));
        QCOMPARE(bias.strides(0), (std::vector<std::int64_t>{3, 1}));
        QCOMPARE(bias.strides(1), (std::vector<std::int64_t>{0, 1}));
        // [2,1,4] vs [3,1]: every dimension differs in pattern.
        BroadcastPlan mixed{TensorShape{2, 1, 4}, TensorShape{3, 1}};
        QCOMPARE(mixed.outputShape(), (TensorShape{2, 3, 4}));
        QCOMPARE(mixed.dims(), (std::vector<std::int64_t>{2, 3, 4}));
        QCOMPARE(mixed.strides(0), (std::vector<std::int64_t>{4, 0, 1}));
        QCOMPARE(mixed.strides(1), (std::vector<std::int64_t>{0, 1, 0}));
        // Size-1 dimensions of the output vanish.
        BroadcastPlan ones{TensorShape{1, 5, 1}, TensorShape{1, 1}};
        QCOMPARE(ones.outputShape(), (TensorShape{1, 5, 1}));
        QCOMPARE(ones.dims(), (std::vector<std::int64_t>{5}));
        // Empty: 1 against 0 gives 0; 3 against 0 is invalid.
        BroadcastPlan empty{TensorShape{0, 3}, TensorShape{3}};
        QVERIFY(empty.valid());
        QCOMPARE(empty.numElements(), std::int64_t(0));
        QCOMPARE(empty.outputShape(), (TensorShape{0, 3}));
        QVERIFY(!(BroadcastPlan{TensorShape{0}, TensorShape{3}}.valid()));
        QVERIFY(!(BroadcastPlan{TensorShape{2, 3}, TensorShape{4}}.valid()));
        // Three inputs (SelectV2).
        BroadcastPlan three{TensorShape{2, 1}, TensorShape{1, 3}, TensorShape::scalar()};
        QCOMPARE(three.outputShape(), (TensorShape{2, 3}));
        QCOMPARE(three.strides(2), (std::vector<std::int64_t>{0, 0}));
        // The row cursor walks the outer dimensions.
        BroadcastRowCursor cursor(mixed, 4); // row (1, 1)
        QCOMPARE(cursor.offset(0), std::int64_t(4));
        QCOMPARE(cursor.offset(1), std::int64_t(1));
        cursor.next(); // row (1, 2)
        QCOMPARE(cursor.offset(0), std::int64_t(4));
        QCOMPARE(cursor.offset(1), std::int64_t(2));
        cursor.next(); // past the end: back to (0, 0)
        QCOMPARE(cursor.offset(0), std::int64_t(0));
        QCOMPARE(cursor.offset(1), std::int64_t(0));
    }

    void threadCountDoesNotChangeResults()
    {
        // Large tensors, split among 1, 3 and 8 threads at points that fall inside rows; every
        // thread count must give the same bits, and Add must equal a naive serial reference.
        auto h = makeHarness();
        QVERIFY(h);
        CpuDevice one(0, 1), three(0, 3), eight(0, 8);
        Allocator& a = h->allocator();
        const std::int64_t rows = 1237, cols = 1031;
        const auto x = ramp<float>(rows * cols, 0.37);
        const auto row = ramp<float>(cols, 1.91, 0.5);
        const auto column = ramp<float>(rows, 2.3, 0.25);
        const Tensor big = tensor(a, TensorShape{rows, cols}, x);
        const Tensor bias = tensor(a, TensorShape{cols}, row);
        const Tensor col = tensor(a, TensorShape{rows, 1}, column);
        const Tensor rowMatrix = tensor(a, TensorShape{1, cols}, row);
        const Tensor scalar = tensor(a, TensorShape::scalar(), std::vector<float>{1.25f});
        const Tensor cond = tensor(a, TensorShape{rows, 1}, std::vector<bool>(static_cast<std::size_t>(rows), true));
        std::vector<bool> condRow(static_cast<std::size_t>(cols));
        for (std::size_t i = 0; i < condRow.size(); ++i)
            condRow[i] = i % 3 == 0;
        const Tensor condCols = tensor(a, TensorShape{cols}, condRow);

        const std::string f = "DT_FLOAT";
        struct Case {
            std::string node;
            std::vector<Tensor> inputs;
        };
        const std::vector<Case> cases = {
            {nodeText("Add", {{"T", f}}), {big, bias}},
            {nodeText("Mul", {{"T", f}}), {col, rowMatrix}},
            {nodeText("Sub", {{"T", f}}), {scalar, big}},
            {nodeText("FloorMod", {{"T", f}}), {big, col}},
            {nodeText("Exp", {{"T", f}}), {big}},
            {nodeText("Tanh", {{"T", f}}), {big}},
            {nodeText("Sin", {{"T", f}}), {big}},
            {nodeText("Less", {{"T", f}}), {big, bias}},
            {nodeText("AddN", {{"T", f}}, "attr { key: 'N' value { i: 3 } }"), {big, big, big}},
            {nodeText("SelectV2", {{"T", f}}), {condCols, big, col}},
            {nodeText("Select", {{"T", f}}), {tensor(a, TensorShape{rows}, std::vector<bool>(rows, false)), big, big}},
            {nodeText("Cast", {{"SrcT", f}, {"DstT", "DT_INT32"}}), {big}},
            {nodeText("TanhGrad", {{"T", f}}), {big, big}},
        };
        for (const Case& c : cases) {
            auto r1 = h->runOn(one, c.node, c.inputs);
            auto r3 = h->runOn(three, c.node, c.inputs);
            auto r8 = h->runOn(eight, c.node, c.inputs);
            QVERIFY2(r1 && r3 && r8, c.node.c_str());
            QVERIFY2(sameBits((*r3)[0], (*r1)[0]), c.node.c_str());
            QVERIFY2(sameBits((*r8)[0], (*r1)[0]), c.node.c_str());
        }
        auto added = h->runOn(eight, nodeText("Add", {{"T", f}}), {big, bias});
        QVERIFY(added);
        const auto want = naiveBroadcast<float, float>({rows, cols}, {rows, cols}, x, {cols}, row,
                                                       [](float p, float q) { return p + q; });
        const auto got = (*added)[0].values<float>();
        QVERIFY(std::equal(got.begin(), got.end(), want.begin(), want.end()));
        auto outer = h->runOn(eight, nodeText("Mul", {{"T", f}}), {col, rowMatrix});
        QVERIFY(outer);
        const auto wantOuter = naiveBroadcast<float, float>({rows, cols}, {rows, 1}, column, {1, cols}, row,
                                                            [](float p, float q) { return p * q; });
        const auto gotOuter = (*outer)[0].values<float>();
        QVERIFY(std::equal(gotOuter.begin(), gotOuter.end(), wantOuter.begin(), wantOuter.end()));
    }

    void highRankBroadcastMatchesNaiveReference()
    {
        // Rank 7 with alternating broadcast dimensions (7 collapsed dimensions; TensorFlow stops at 5).
        auto h = makeHarness();
        QVERIFY(h);
        const std::vector<std::int64_t> xd{2, 1, 3, 1, 2, 1, 5}, yd{1, 4, 1, 3, 1, 2, 1};
        const std::vector<std::int64_t> od{2, 4, 3, 3, 2, 2, 5};
        const auto x = ramp<std::int32_t>(2 * 3 * 2 * 5, 1.0), y = ramp<std::int32_t>(4 * 3 * 2, 3.0);
        auto out = h->run(nodeText("SquaredDifference", {{"T", "DT_INT32"}}),
                          {tensor(h->allocator(), TensorShape(xd), x), tensor(h->allocator(), TensorShape(yd), y)});
        QVERIFY(out);
        QCOMPARE((*out)[0].shape(), TensorShape(od));
        const auto want = naiveBroadcast<std::int32_t, std::int32_t>(
            od, xd, x, yd, y, [](std::int32_t p, std::int32_t q) { return (p - q) * (p - q); });
        const auto got = (*out)[0].values<std::int32_t>();
        QVERIFY(std::equal(got.begin(), got.end(), want.begin(), want.end()));
    }

    void bfloat16Kernels()
    {
        // NumPy has no bfloat16: compare with float math rounded to bfloat16 by bit manipulation.
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const std::vector<float> xs{1.5f, -2.25f, 3.0f, 0.1f, 100.0f, -0.0f};
        const std::vector<float> ys{0.5f, 4.0f, -1.0f, 0.3f, 1e-3f, 2.0f};
        const Tensor x = bfloat16Tensor(a, TensorShape{2, 3}, xs);
        const Tensor y = bfloat16Tensor(a, TensorShape{2, 3}, ys);
        const std::vector<float> xb = bfloat16Floats(x), yb = bfloat16Floats(y);
        struct Binary {
            const char* op;
            std::function<float(float, float)> f;
        };
        for (const Binary& b : {Binary{"Add", std::plus<float>()}, Binary{"Mul", std::multiplies<float>()},
                                Binary{"RealDiv", std::divides<float>()},
                                Binary{"Maximum", [](float p, float q) { return std::max(p, q); }}}) {
            auto out = h->run(nodeText(b.op, {{"T", "DT_BFLOAT16"}}), {x, y});
            QVERIFY2(out, b.op);
            const auto got = bfloat16Floats((*out)[0]);
            for (std::size_t i = 0; i < got.size(); ++i)
                QCOMPARE(got[i], bfloat16Value(bfloat16Bits(b.f(xb[i], yb[i]))));
        }
        auto exp = h->run(nodeText("Exp", {{"T", "DT_BFLOAT16"}}), {x});
        QVERIFY(exp);
        const auto gotExp = bfloat16Floats((*exp)[0]);
        for (std::size_t i = 0; i < gotExp.size(); ++i) {
            const float want = std::exp(xb[i]); // exp(100) overflows to inf in bfloat16 as in float
            QVERIFY(std::isinf(want) ? gotExp[i] == want : std::fabs(gotExp[i] - want) <= 1e-2f * want);
        }
        // Trigonometry in bfloat16: float math rounded; Asin and Acos of 1.5 and 100 are NaN.
        struct Trig {
            const char* op;
            float (*f)(float);
        };
        for (const Trig& t :
             {Trig{"Sin", [](float v) { return std::sin(v); }}, Trig{"Cos", [](float v) { return std::cos(v); }},
              Trig{"Tan", [](float v) { return std::tan(v); }}, Trig{"Asin", [](float v) { return std::asin(v); }},
              Trig{"Acos", [](float v) { return std::acos(v); }}, Trig{"Atan", [](float v) { return std::atan(v); }}}) {
            auto out = h->run(nodeText(t.op, {{"T", "DT_BFLOAT16"}}), {x});
            QVERIFY2(out, t.op);
            const auto got = bfloat16Floats((*out)[0]);
            for (std::size_t i = 0; i < got.size(); ++i) {
                const float want = t.f(xb[i]);
                QVERIFY2(std::isnan(want) ? std::isnan(got[i])
                                          : std::fabs(got[i] - want) <= 1e-2f * std::max(1.0f, std::fabs(want)),
                         qPrintable(QString("%1(%2): %3, expected %4").arg(t.op).arg(xb[i]).arg(got[i]).arg(want)));
            }
        }
        auto less = h->run(nodeText("Less", {{"T", "DT_BFLOAT16"}}), {x, y});
        QVERIFY(less);
        for (std::size_t i = 0; i < xs.size(); ++i)
            QCOMPARE(bool((*less)[0].values<bool>()[i]), xb[i] < yb[i]);

        // Cast float -> bfloat16 rounds to nearest even; with Truncate it truncates.
        const std::vector<float> fs{
            1.0f + 1.0f / 256, 1.0f + 3.0f / 256, 0.1f, -0.1f, 3.3e38f, std::numeric_limits<float>::infinity(), 1e-40f,
            1.00390625f};
        const Tensor f = tensor(a, TensorShape{static_cast<std::int64_t>(fs.size())}, fs);
        for (bool truncate : {false, true}) {
            auto out = h->run(
                nodeText("Cast", {{"SrcT", "DT_FLOAT"}, {"DstT", "DT_BFLOAT16"}},
                         std::string("attr { key: 'Truncate' value { b: ") + (truncate ? "true" : "false") + " } }"),
                {f});
            QVERIFY(out);
            const auto got = (*out)[0].values<Eigen::bfloat16>();
            for (std::size_t i = 0; i < fs.size(); ++i)
                QCOMPARE(Eigen::numext::bit_cast<std::uint16_t>(got[i]), bfloat16Bits(fs[i], truncate));
        }
        // bfloat16 -> float is exact, -> int32 truncates, -> half rounds through float.
        auto toFloat = h->run(nodeText("Cast", {{"SrcT", "DT_BFLOAT16"}, {"DstT", "DT_FLOAT"}}), {x});
        QVERIFY(toFloat);
        QCOMPARE(std::vector<float>((*toFloat)[0].values<float>().begin(), (*toFloat)[0].values<float>().end()), xb);
        auto toInt = h->run(nodeText("Cast", {{"SrcT", "DT_BFLOAT16"}, {"DstT", "DT_INT32"}}), {x});
        QVERIFY(toInt);
        QCOMPARE((*toInt)[0].values<std::int32_t>()[1], -2);
        QCOMPARE((*toInt)[0].values<std::int32_t>()[4], 100);
        auto fromInt = h->run(nodeText("Cast", {{"SrcT", "DT_INT32"}, {"DstT", "DT_BFLOAT16"}}),
                              {tensor(a, TensorShape{3}, std::vector<std::int32_t>{257, -3, 1 << 20})});
        QVERIFY(fromInt);
        QCOMPARE(bfloat16Floats((*fromInt)[0]), (std::vector<float>{256.0f, -3.0f, 1048576.0f}));
    }

    void stringKernels()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const Tensor words = tensor(a, TensorShape{2, 2}, std::vector<std::string>{"a", "bb", "", "dd"});
        const Tensor suffix = tensor(a, TensorShape{2}, std::vector<std::string>{"!", "?"});
        auto sum = h->run(nodeText("Add", {{"T", "DT_STRING"}}), {words, suffix});
        QVERIFY(sum);
        const auto s = (*sum)[0].strings();
        QCOMPARE(std::vector<std::string>(s.begin(), s.end()), (std::vector<std::string>{"a!", "bb?", "!", "dd?"}));
        auto equal = h->run(nodeText("Equal", {{"T", "DT_STRING"}}),
                            {words, tensor(a, TensorShape::scalar(), std::vector<std::string>{"bb"})});
        QVERIFY(equal);
        const auto e = (*equal)[0].values<bool>();
        QCOMPARE(std::vector<bool>(e.begin(), e.end()), (std::vector<bool>{false, true, false, false}));
        auto select = h->run(nodeText("SelectV2", {{"T", "DT_STRING"}}),
                             {tensor(a, TensorShape{2}, std::vector<bool>{true, false}), words, suffix});
        QVERIFY(select);
        const auto sel = (*select)[0].strings();
        QCOMPARE(std::vector<std::string>(sel.begin(), sel.end()), (std::vector<std::string>{"a", "?", "", "?"}));
        auto cast = h->run(nodeText("Cast", {{"SrcT", "DT_STRING"}, {"DstT", "DT_FLOAT"}}), {words});
        QVERIFY(!cast);
        QCOMPARE(cast.error().code(), StatusCode::kUnimplemented);
        QVERIFY2(cast.error().message().find("Cast string to float is not supported") != std::string::npos,
                 cast.error().message().c_str());
    }

    void wrongInputDtypeIsAnError()
    {
        // A tensor whose dtype is not the node's T (a bad feed) must fail, not abort.
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor ints = tensor(h->allocator(), TensorShape{2}, std::vector<std::int32_t>{1, 2});
        for (const char* op : {"Add", "Exp", "TanhGrad"}) {
            std::vector<Tensor> inputs{ints};
            if (std::string(op) != "Exp")
                inputs.push_back(ints);
            auto out = h->run(nodeText(op, {{"T", "DT_FLOAT"}}), inputs);
            QVERIFY(!out);
            QCOMPARE(out.error().message(), std::string("Expected tensor of type float but got type int32"));
        }
    }

    void integerEdgeCasesDoNotTrap()
    {
        // MIN / -1 and MIN % -1 trap on x86 (TensorFlow crashes); here they wrap.
        auto h = makeHarness();
        QVERIFY(h);
        const std::int32_t min = std::numeric_limits<std::int32_t>::min();
        const Tensor x = tensor(h->allocator(), TensorShape{2}, std::vector<std::int32_t>{min, 7});
        const Tensor y = tensor(h->allocator(), TensorShape{2}, std::vector<std::int32_t>{-1, -1});
        const std::pair<const char*, std::vector<std::int32_t>> expected[] = {
            {"Div", {min, -7}}, {"FloorDiv", {min, -7}}, {"FloorMod", {0, 0}}};
        for (const auto& [op, want] : expected) {
            auto out = h->run(nodeText(op, {{"T", "DT_INT32"}}), {x, y});
            QVERIFY(out);
            const auto got = (*out)[0].values<std::int32_t>();
            QCOMPARE(std::vector<std::int32_t>(got.begin(), got.end()), want);
        }
    }

    void equalShapesAndScalarsMatchTheBroadcastReference()
    {
        // Equal shapes and a scalar against a tensor skip the broadcast plan: the results, their
        // shapes, the thread-count independence and the divisor checks are those of the general path.
        auto h = makeHarness();
        QVERIFY(h);
        CpuDevice one(0, 1), eight(0, 8);
        Allocator& a = h->allocator();
        const std::int64_t rows = 613, cols = 97;
        const auto x = ramp<float>(rows * cols, 0.41);
        const auto y = ramp<float>(rows * cols, 1.37, 0.3);
        const Tensor tx = tensor(a, TensorShape{rows, cols}, x);
        const Tensor ty = tensor(a, TensorShape{rows, cols}, y);
        const Tensor s = tensor(a, TensorShape::scalar(), std::vector<float>{-2.5f});
        const auto sub = [](float p, float q) { return p - q; };
        struct Case {
            std::vector<Tensor> inputs;
            std::vector<std::int64_t> xDims, yDims;
            std::vector<float> xs, ys;
        };
        const std::vector<Case> cases = {{{tx, ty}, {rows, cols}, {rows, cols}, x, y},
                                         {{s, ty}, {}, {rows, cols}, {-2.5f}, y},
                                         {{tx, s}, {rows, cols}, {}, x, {-2.5f}},
                                         {{s, s}, {}, {}, {-2.5f}, {-2.5f}}};
        for (const Case& c : cases) {
            const std::vector<std::int64_t> outDims = c.xDims.empty() ? c.yDims : c.xDims;
            const auto want = naiveBroadcast<float, float>(outDims, c.xDims, c.xs, c.yDims, c.ys, sub);
            auto r1 = h->runOn(one, nodeText("Sub", {{"T", "DT_FLOAT"}}), c.inputs);
            auto r8 = h->runOn(eight, nodeText("Sub", {{"T", "DT_FLOAT"}}), c.inputs);
            QVERIFY(r1 && r8);
            QCOMPARE((*r1)[0].shape(), TensorShape(outDims));
            const auto got = (*r1)[0].values<float>();
            QVERIFY(std::equal(got.begin(), got.end(), want.begin(), want.end()));
            QVERIFY(sameBits((*r8)[0], (*r1)[0]));
        }
        // A rank-1 single element is not a scalar: the output keeps its dimension.
        auto ranked = h->run(nodeText("Add", {{"T", "DT_FLOAT"}}),
                             {tensor(a, TensorShape{1}, std::vector<float>{1}), s});
        QVERIFY(ranked);
        QCOMPARE((*ranked)[0].shape(), TensorShape{1});
        QCOMPARE((*ranked)[0].values<float>()[0], -1.5f);
        // A scalar against an empty tensor is empty.
        auto empty =
            h->run(nodeText("Mul", {{"T", "DT_FLOAT"}}), {s, tensor(a, TensorShape{0, 3}, std::vector<float>{})});
        QVERIFY(empty);
        QCOMPARE((*empty)[0].shape(), (TensorShape{0, 3}));
        // Integer division checks every divisor, a scalar one and one among a tensor's.
        const Tensor ints = tensor(a, TensorShape{3}, std::vector<std::int32_t>{6, 7, 8});
        const Tensor zero = tensor(a, TensorShape::scalar(), std::vector<std::int32_t>{0});
        const Tensor withZero = tensor(a, TensorShape{3}, std::vector<std::int32_t>{1, 0, 2});
        for (const auto& inputs : {std::vector<Tensor>{ints, zero}, std::vector<Tensor>{zero, withZero},
                                   std::vector<Tensor>{ints, withZero}}) {
            auto out = h->run(nodeText("FloorDiv", {{"T", "DT_INT32"}}), inputs);
            QVERIFY(!out);
            QCOMPARE(out.error().message(), std::string("Integer division by zero"));
        }
        auto divided = h->run(nodeText("FloorDiv", {{"T", "DT_INT32"}}),
                              {ints, tensor(a, TensorShape::scalar(), std::vector<std::int32_t>{-4})});
        QVERIFY(divided);
        const auto quotients = (*divided)[0].values<std::int32_t>();
        QCOMPARE(std::vector<std::int32_t>(quotients.begin(), quotients.end()),
                 (std::vector<std::int32_t>{-2, -2, -2}));
        // Shapes that differ and do not broadcast are still an error.
        auto bad = h->run(nodeText("Add", {{"T", "DT_FLOAT"}}),
                          {tensor(a, TensorShape{2}, std::vector<float>{1, 2}),
                           tensor(a, TensorShape{3}, std::vector<float>{1, 2, 3})});
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("Incompatible shapes: [2] vs. [3]"));
    }

    void outputsForwardInputsWhereTensorFlowDoes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor x = tensor(h->allocator(), TensorShape{3}, std::vector<float>{1, 2, 3});
        const Tensor y = tensor(h->allocator(), TensorShape{3}, std::vector<float>{4, 5, 6});
        auto cast = h->run(nodeText("Cast", {{"SrcT", "DT_FLOAT"}, {"DstT", "DT_FLOAT"}}), {x});
        QVERIFY(cast && (*cast)[0].sharesBufferWith(x));
        auto addN = h->run(nodeText("AddN", {{"T", "DT_FLOAT"}}, "attr { key: 'N' value { i: 1 } }"), {x});
        QVERIFY(addN && (*addN)[0].sharesBufferWith(x));
        auto select = h->run(nodeText("Select", {{"T", "DT_FLOAT"}}),
                             {tensor(h->allocator(), TensorShape::scalar(), std::vector<bool>{false}), x, y});
        QVERIFY(select && (*select)[0].sharesBufferWith(y));
        // Element-wise results never alias their inputs.
        auto add = h->run(nodeText("Add", {{"T", "DT_FLOAT"}}), {x, y});
        QVERIFY(add && !(*add)[0].sharesBufferWith(x) && !(*add)[0].sharesBufferWith(y));
    }

    void castOfManyElementsMatchesCastOfEach()
    {
        // Cast converts 16 elements at a time where it can (kernels/math/cast_cpu.h); 37 elements
        // (two blocks and a tail) must give, byte for byte, what casting each element alone gives
        // (one element takes the plain loop), for every pair of built-in numeric dtypes. The values
        // cover signs, wrap-around to narrower and unsigned types, and float rounding.
        auto h = makeHarness();
        QVERIFY(h);
        const std::vector<std::pair<tensorflow::DataType, const char*>> dtypes{
            {tensorflow::DT_UINT8, "DT_UINT8"}, {tensorflow::DT_UINT16, "DT_UINT16"},
            {tensorflow::DT_UINT32, "DT_UINT32"}, {tensorflow::DT_UINT64, "DT_UINT64"},
            {tensorflow::DT_INT8, "DT_INT8"}, {tensorflow::DT_INT16, "DT_INT16"},
            {tensorflow::DT_INT32, "DT_INT32"}, {tensorflow::DT_INT64, "DT_INT64"},
            {tensorflow::DT_FLOAT, "DT_FLOAT"}, {tensorflow::DT_DOUBLE, "DT_DOUBLE"}};
        std::vector<double> seeds{0, 1, -1, 127, 128, 255, 256, -129, 65535, 70000.75, -3.5, 2.5, 16777217,
                                  4294967297.0, -2147483649.0, 1e15 + 1, 0.1, 1e-30, 9007199254740993.0};
        std::vector<double> values;
        for (int i = 0; values.size() < 37; ++i)
            values.push_back(seeds[static_cast<std::size_t>(i) % seeds.size()] * (i < 19 ? 1 : -1));
        const Tensor doubles = tensor(h->allocator(), TensorShape{37}, values);
        for (const auto& [from, fromName] : dtypes) {
            // The source values: the doubles cast to `from` (floating to integer saturates there).
            auto source = h->run(nodeText("Cast", {{"SrcT", "DT_DOUBLE"}, {"DstT", fromName}}), {doubles});
            QVERIFY(source);
            const Tensor in = (*source)[0];
            for (const auto& [to, toName] : dtypes) {
                const std::string node = nodeText("Cast", {{"SrcT", fromName}, {"DstT", toName}});
                auto whole = h->run(node, {in});
                QVERIFY(whole);
                const Tensor& out = (*whole)[0];
                const std::size_t width = out.tensorData().size() / 37;
                for (std::int64_t i = 0; i < 37; ++i) {
                    auto one = Tensor::allocate(h->allocator(), from, TensorShape{1});
                    QVERIFY(one);
                    const std::size_t inWidth = in.tensorData().size() / 37;
                    std::memcpy(one->tensorData().data(), in.tensorData().data() + i * inWidth, inWidth);
                    auto single = h->run(node, {*one});
                    QVERIFY(single);
                    QVERIFY2(std::memcmp((*single)[0].tensorData().data(), out.tensorData().data() + i * width,
                                         width) == 0,
                             qPrintable(QString("Cast %1 -> %2, element %3").arg(fromName).arg(toName).arg(i)));
                }
            }
        }
    }

    void castOfEveryByteMatchesStaticCast()
    {
        // Bytes to 4-byte types go through int16 lanes (kernels/math/cast_cpu.h): every uint8 and
        // int8 value, 16 blocks and a tail of 5, must give static_cast's value.
        auto h = makeHarness();
        QVERIFY(h);
        const auto check = [&](auto from, const char* fromName) {
            using From = decltype(from);
            std::vector<From> bytes;
            for (int i = 0; i < 261; ++i)
                bytes.push_back(static_cast<From>(i * 97 + (i >= 256 ? 3 : 0)));
            const Tensor in = tensor(h->allocator(), TensorShape{261}, bytes);
            const auto compare = [&](auto to, const char* toName) {
                using To = decltype(to);
                auto out = h->run(nodeText("Cast", {{"SrcT", fromName}, {"DstT", toName}}), {in});
                QVERIFY(out);
                const auto v = (*out)[0].values<To>();
                for (std::size_t i = 0; i < bytes.size(); ++i)
                    QVERIFY2(v[i] == static_cast<To>(bytes[i]),
                             qPrintable(QString("Cast %1 -> %2, element %3").arg(fromName).arg(toName).arg(i)));
            };
            compare(float{}, "DT_FLOAT");
            compare(std::int32_t{}, "DT_INT32");
            compare(std::uint32_t{}, "DT_UINT32");
            compare(double{}, "DT_DOUBLE");
        };
        check(std::uint8_t{}, "DT_UINT8");
        check(std::int8_t{}, "DT_INT8");
    }

    void quantizedCast()
    {
        // Quantized dtypes cast as their storage integers, as TensorFlow's CastOpBase.
        auto h = makeHarness();
        QVERIFY(h);
        auto q = Tensor::allocate(h->allocator(), tensorflow::DT_QINT8, TensorShape{3});
        QVERIFY(q);
        const std::int8_t raw[] = {-128, 5, 127};
        std::copy(std::begin(raw), std::end(raw), q->data<std::int8_t>());
        auto toFloat = h->run(nodeText("Cast", {{"SrcT", "DT_QINT8"}, {"DstT", "DT_FLOAT"}}), {*q});
        QVERIFY(toFloat);
        const auto f = (*toFloat)[0].values<float>();
        QCOMPARE(std::vector<float>(f.begin(), f.end()), (std::vector<float>{-128, 5, 127}));
        auto toQuint = h->run(nodeText("Cast", {{"SrcT", "DT_FLOAT"}, {"DstT", "DT_QUINT8"}}), {(*toFloat)[0]});
        QVERIFY(toQuint);
        QCOMPARE((*toQuint)[0].dtype(), tensorflow::DT_QUINT8);
        const auto u = (*toQuint)[0].values<std::uint8_t>();
        QCOMPARE(std::vector<std::uint8_t>(u.begin(), u.end()), (std::vector<std::uint8_t>{128, 5, 127}));
    }

    void oneKernelRunsManyShapes()
    {
        // Kernels keep no per-run state: one instance computes successive runs of different shapes.
        auto h = makeHarness();
        QVERIFY(h);
        tensorflow::NodeDef node;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(nodeText("Maximum", {{"T", "DT_INT64"}}), &node));
        node.set_name("max");
        node.add_input("a");
        node.add_input("b");
        auto kernel = h->kernels().createKernel(node, h->ops(), h->device());
        QVERIFY(kernel);
        Allocator& a = h->allocator();
        const std::vector<std::pair<std::vector<Tensor>, std::vector<std::int64_t>>> runs = {
            {{tensor(a, TensorShape{3}, std::vector<std::int64_t>{1, 5, -2}),
              tensor(a, TensorShape{3}, std::vector<std::int64_t>{4, 0, -3})},
             {4, 5, -2}},
            {{tensor(a, TensorShape{2, 1}, std::vector<std::int64_t>{1, 9}),
              tensor(a, TensorShape{2}, std::vector<std::int64_t>{3, 10})},
             {3, 10, 9, 10}},
            {{tensor(a, TensorShape::scalar(), std::vector<std::int64_t>{7}),
              tensor(a, TensorShape{0}, std::vector<std::int64_t>{})},
             {}},
        };
        for (const auto& [inputs, want] : runs) {
            std::vector<TensorValue> values{TensorValue{inputs[0]}, TensorValue{inputs[1]}};
            OpKernelContext ctx({kernel->get(), &h->device(), &values, &h->resources(), 1});
            QVERIFY((*kernel)->compute(ctx).isOk());
            const auto got = ctx.outputs()[0].get().values<std::int64_t>();
            QCOMPARE(std::vector<std::int64_t>(got.begin(), got.end()), want);
        }
    }

    /// Float Sqrt is vectorised with the processor's vector square root: every element, in the
    /// packet body and the tail alike, is the correctly rounded scalar result, bit for bit (Eigen's
    /// fast-math packet sqrt is not: an approximation, denormals flushed, +inf made NaN).
    void floatSqrtIsExactEverywhere()
    {
        auto h = makeHarness();
        QVERIFY(h);
        std::vector<float> xs{0.0f,
                              -0.0f,
                              -1.0f,
                              1e-40f, // denormal
                              std::numeric_limits<float>::denorm_min(),
                              std::numeric_limits<float>::min(),
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              2.0f,
                              3.0f};
        // Pseudo-random bit patterns of every exponent; 1,003 elements in all, so a tail shorter
        // than a packet is checked too.
        std::uint32_t bits = 0x3f800001u;
        while (xs.size() < 1003) {
            float v;
            std::memcpy(&v, &bits, sizeof v);
            xs.push_back(v);
            bits = bits * 1664525u + 1013904223u;
            bits &= 0x7fffffffu; // non-negative, any exponent (NaNs and infinities included)
        }
        const Tensor x = tensor(h->allocator(), TensorShape{static_cast<std::int64_t>(xs.size())}, xs);
        auto out = h->run(nodeText("Sqrt", {{"T", "DT_FLOAT"}}), {x});
        QVERIFY(out);
        const auto got = (*out)[0].values<float>();
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const float want = std::sqrt(xs[i]);
            std::uint32_t g, w;
            std::memcpy(&g, &got[i], sizeof g);
            std::memcpy(&w, &want, sizeof w);
            QVERIFY2(g == w || (std::isnan(got[i]) && std::isnan(want)),
                     qPrintable(QString("sqrt(%1) = %2, expected %3")
                                    .arg(double(xs[i]), 0, 'g', 9)
                                    .arg(double(got[i]), 0, 'g', 9)
                                    .arg(double(want), 0, 'g', 9)));
        }
    }

    void registeredDtypes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto supports = [&](const std::string& op, const std::string& type) {
            tensorflow::NodeDef node;
            google::protobuf::TextFormat::ParseFromString(nodeText(op, {{"T", type}}), &node);
            return h->kernels().supports(node, "CPU");
        };
        for (const char* op : {"Add",      "AddV2",     "Sub",     "Mul",          "Div",
                               "FloorDiv", "Maximum",   "Minimum", "Pow",          "SquaredDifference",
                               "Less",     "LessEqual", "Greater", "GreaterEqual", "Equal",
                               "NotEqual", "Neg",       "Abs",     "Sign",         "Square",
                               "Round",    "AddN",      "Select",  "SelectV2"}) {
            for (const char* type : {"DT_FLOAT", "DT_DOUBLE", "DT_INT32", "DT_INT64", "DT_HALF", "DT_BFLOAT16"})
                QVERIFY2(supports(op, type), (std::string(op) + " " + type).c_str());
        }
        for (const char* op :
             {"RealDiv", "FloorMod", "Sqrt",        "Rsqrt",     "Exp",        "Log",           "Log1p",
              "Tanh",    "Sigmoid",  "Floor",       "Ceil",      "Reciprocal", "IsNan",         "IsFinite",
              "IsInf",   "TanhGrad", "SigmoidGrad", "RsqrtGrad", "SqrtGrad",   "ReciprocalGrad"}) {
            for (const char* type : {"DT_FLOAT", "DT_DOUBLE", "DT_HALF", "DT_BFLOAT16"})
                QVERIFY2(supports(op, type), (std::string(op) + " " + type).c_str());
        }
        // Trigonometry: floating and complex kernels; the integers that the OpDefs of Tan, Asin, Acos
        // and Atan list have no kernel, as in TensorFlow.
        for (const char* op : {"Sin", "Cos", "Tan", "Asin", "Acos", "Atan"}) {
            for (const char* type :
                 {"DT_FLOAT", "DT_DOUBLE", "DT_HALF", "DT_BFLOAT16", "DT_COMPLEX64", "DT_COMPLEX128"})
                QVERIFY2(supports(op, type), (std::string(op) + " " + type).c_str());
            QVERIFY2(!supports(op, "DT_INT32") && !supports(op, "DT_INT64"), op);
        }
        // As in TensorFlow: no integer RealDiv or Reciprocal, no complex Round.
        QVERIFY(!supports("RealDiv", "DT_INT32"));
        QVERIFY(!supports("Reciprocal", "DT_INT32"));
        QVERIFY(!supports("Round", "DT_COMPLEX64"));
        for (const char* op : {"LogicalAnd", "LogicalOr", "LogicalNot", "Cast"})
            QVERIFY(h->kernels().hasKernelFor(op, "CPU"));
    }
};

QTEST_GUILESS_MAIN(TestMathKernels)
#include "test_math_kernels.moc"
