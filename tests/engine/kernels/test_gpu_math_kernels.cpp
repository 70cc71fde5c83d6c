// Tests for the element-wise GPU kernels (math family: arithmetic, comparisons, unary ops, Cast,
// Select, AddN; NN family: activations and BiasAdd): each registered (op, dtype) against its CPU twin
// on random inputs of several shapes (scalars, broadcasting pairs, odd and large sizes, empty
// tensors) and on bad inputs that both must reject. Skipped where there is no GPU; the registration
// table (which ops and dtypes, which arguments in host memory) is checked everywhere.
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

constexpr DataType kF = tensorflow::DT_FLOAT;
constexpr DataType kD = tensorflow::DT_DOUBLE;
constexpr DataType kH = tensorflow::DT_HALF;
constexpr DataType kI32 = tensorflow::DT_INT32;
constexpr DataType kI64 = tensorflow::DT_INT64;
constexpr DataType kU8 = tensorflow::DT_UINT8;
constexpr DataType kI8 = tensorflow::DT_INT8;
constexpr DataType kU16 = tensorflow::DT_UINT16;
constexpr DataType kI16 = tensorflow::DT_INT16;
constexpr DataType kB = tensorflow::DT_BOOL;

const std::vector<DataType> kFloats{kF, kD, kH};

/// Per-dtype tolerances: float types close (transcendental functions differ by ulps between Eigen's
/// CPU code and CUDA's), integers and bool exact.
struct Tolerance {
    double rtol = 0;
    double atol = 0;
};
Tolerance tolerance(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_FLOAT: return {2e-5, 1e-6};
    case tensorflow::DT_DOUBLE: return {1e-12, 1e-14};
    case tensorflow::DT_HALF: return {1e-2, 1e-3};
    default: return {0, 0};
    }
}

std::string typeAttr(DataType dtype, const char* attr = "T")
{
    return std::string("attr { key: '") + attr + "' value { type: " + tensorflow::DataType_Name(dtype) + " } }";
}

std::string node(const std::string& op, DataType dtype, const std::string& extra = {})
{
    return "op: '" + op + "' " + typeAttr(dtype) + " " + extra;
}

/// A tensor with integral values in [lo, hi] of any numeric dtype or bool (nonzero = true), so
/// that comparisons meet equal elements and integer ops meet the values they are tested with.
template <typename T> void fillIntegral(Tensor& t, std::mt19937& random, int lo, int hi)
{
    std::uniform_int_distribution<int> draw(lo, hi);
    for (auto& v : t.values<T>()) {
        const int value = draw(random);
        if constexpr (std::is_same_v<T, bool>)
            v = value != 0;
        else if constexpr (std::is_integral_v<T>)
            v = static_cast<T>(value);
        else
            v = static_cast<T>(static_cast<float>(value));
    }
}

/// Values with NaN, infinities, signed zeros, halves and large magnitudes, cycled to `n` elements.
const std::vector<double> kSpecialValues{std::numeric_limits<double>::quiet_NaN(),
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity(),
                                         0.0,
                                         -0.0,
                                         0.5,
                                         -0.5,
                                         1.5,
                                         2.5,
                                         -2.5,
                                         3.75,
                                         -7.25,
                                         6.0,
                                         100.0,
                                         -1e4};

class Checker {
public:
    explicit Checker(GpuKernelHarness& h) : m_h(h) {}

    Allocator& allocator() { return m_h.allocator(); }

    Tensor random(DataType dtype, const TensorShape& shape, double lo = -1.0, double hi = 1.0)
    {
        if (dtype == kI16 || dtype == kU16)
            return integral(dtype, shape, static_cast<int>(lo), static_cast<int>(hi));
        return randomTensor(m_h.allocator(), dtype, shape, m_random, lo, hi);
    }

    Tensor integral(DataType dtype, const TensorShape& shape, int lo, int hi)
    {
        auto made = Tensor::allocate(m_h.allocator(), dtype, shape);
        if (!made)
            qFatal("%s", made.error().toString().c_str());
        Tensor t = std::move(*made);
        Status s = dispatchDataType<TypeList<float, double, Eigen::half, std::int8_t, std::int16_t, std::int32_t,
                                             std::int64_t, std::uint8_t, std::uint16_t, bool>>(
            dtype, [&](auto tag) { fillIntegral<typename decltype(tag)::type>(t, m_random, lo, hi); });
        if (!s.isOk())
            qFatal("%s", s.toString().c_str());
        return t;
    }

    /// kSpecialValues in a floating-point dtype, repeated to `n` elements.
    Tensor special(DataType dtype, std::int64_t n)
    {
        Tensor t = random(dtype, TensorShape{n});
        (void)dispatchDataType<TypeList<float, double, Eigen::half>>(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            auto values = t.values<T>();
            for (std::size_t i = 0; i < values.size(); ++i) {
                const double v = kSpecialValues[i % kSpecialValues.size()];
                if constexpr (std::is_same_v<T, double>)
                    values[i] = v;
                else
                    values[i] = static_cast<T>(static_cast<float>(v));
            }
        });
        return t;
    }

    /// GPU against CPU; a difference is recorded as a failure.
    void same(const std::string& nodeText, const std::vector<Tensor>& inputs, Tolerance tol)
    {
        const std::string difference = m_h.compareWithCpu(nodeText, inputs, tol.rtol, tol.atol);
        if (!difference.empty())
            m_failures.push_back(difference);
    }
    void same(const std::string& nodeText, const std::vector<Tensor>& inputs, DataType dtype)
    {
        same(nodeText, inputs, tolerance(dtype));
    }

    /// Both devices must reject the inputs, with the same error code.
    void bothFail(const std::string& nodeText, const std::vector<Tensor>& inputs)
    {
        auto gpu = m_h.runOnGpu(nodeText, inputs);
        if (gpu) {
            m_failures.push_back("[" + nodeText + "] the GPU kernel accepted inputs it should reject");
            return;
        }
        const std::string difference = m_h.compareWithCpu(nodeText, inputs, 0, 0, /*sameErrorOk=*/true);
        if (!difference.empty())
            m_failures.push_back(difference);
    }

    /// QVERIFY2-ready text of all failures.
    QByteArray report() const
    {
        std::string text;
        for (const std::string& f : m_failures)
            text += f + "\n";
        return QByteArray::fromStdString(text);
    }
    bool ok() const { return m_failures.empty(); }
    std::size_t count() const { return m_failures.size(); }

private:
    GpuKernelHarness& m_h;
    std::mt19937 m_random{20240917};
    std::vector<std::string> m_failures;
};

/// Shape pairs every binary op is run on: scalars, broadcasting in every pattern the collapsed
/// layout produces (flat, scalar against tensor, general up to rank 5), odd and large sizes, empty.
const std::vector<std::pair<TensorShape, TensorShape>> kBinaryShapes{
    {TensorShape::scalar(), TensorShape::scalar()},
    {TensorShape::scalar(), TensorShape{7}},
    {TensorShape{7}, TensorShape::scalar()},
    {TensorShape{1}, TensorShape{1}},
    {TensorShape{4099}, TensorShape{4099}},
    {TensorShape{3, 1, 5}, TensorShape{1, 4, 5}},
    {TensorShape{2, 3, 4}, TensorShape{4}},
    {TensorShape{37, 1}, TensorShape{1, 53}},
    {TensorShape{4, 3}, TensorShape{2, 4, 3}},
    {TensorShape{2, 1, 3, 1, 2}, TensorShape{1, 4, 1, 5, 1}},
    {TensorShape{0, 3}, TensorShape{3}},
    {TensorShape{2, 0}, TensorShape::scalar()},
};
/// One large case per op (a million and three elements, with a broadcast operand).
const std::pair<TensorShape, TensorShape> kLargeBinary{TensorShape{1000003}, TensorShape::scalar()};
const std::pair<TensorShape, TensorShape> kLargeBroadcast{TensorShape{1009, 1, 991}, TensorShape{1, 2, 991}};

const std::vector<TensorShape> kUnaryShapes{TensorShape::scalar(), TensorShape{1},    TensorShape{7},
                                            TensorShape{3, 4, 5},  TensorShape{4099}, TensorShape{0},
                                            TensorShape{2, 0}};

/// The dtypes the element-wise ops are registered for on GPU (TensorFlow 1.15's GPU registrations,
/// complex types aside), and which of their arguments stay in host memory.
struct Registration {
    std::vector<DataType> device; ///< in GPU memory
    std::vector<DataType> host;   ///< in host memory (all of `hostArgs`)
    std::vector<std::string> hostArgs;
};

std::map<std::string, Registration> expectedRegistrations()
{
    const std::vector<std::string> binaryArgs{"x", "y", "z"};
    const std::vector<std::string> unaryArgs{"x", "y"};
    auto with = [](std::vector<DataType> a, std::vector<DataType> b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    std::map<std::string, Registration> r;
    for (const char* op : {"Add", "AddV2", "Sub", "Maximum", "Minimum", "SquaredDifference"})
        r[op] = {with(kFloats, {kI64}), {kI32}, binaryArgs};
    r["Mul"] = {with(kFloats, {kU8, kI8, kU16, kI16, kI64}), {kI32}, binaryArgs};
    r["Div"] = {with(kFloats, {kU8, kU16, kI16, kI64}), {kI32}, binaryArgs};
    r["FloorDiv"] = {with(kFloats, {kU8, kU16, kI16, kI64}), {kI32}, binaryArgs};
    r["FloorMod"] = {{}, {kI32}, binaryArgs};
    r["RealDiv"] = {kFloats, {}, {}};
    r["DivNoNan"] = {kFloats, {}, {}};
    r["Pow"] = {with(kFloats, {kI64}), {}, {}};
    for (const char* op : {"Less", "LessEqual", "Greater", "GreaterEqual"})
        r[op] = {with(kFloats, {kI64, kU8, kI8, kI16}), {kI32}, binaryArgs};
    for (const char* op : {"Equal", "NotEqual"})
        r[op] = {with(kFloats, {kU8, kI8, kI16, kI64, kB}), {kI32}, binaryArgs};
    for (const char* op : {"Neg", "Abs", "Sign", "Square"})
        r[op] = {with(kFloats, {kI64}), {kI32}, unaryArgs};
    for (const char* op : {"Sqrt",         "Rsqrt",        "Exp",         "Log",       "Log1p",     "Tanh",
                           "Sigmoid",      "Reciprocal",   "Floor",       "Ceil",      "IsNan",     "IsInf",
                           "IsFinite",     "TanhGrad",     "SigmoidGrad", "RsqrtGrad", "SqrtGrad",  "ReciprocalGrad",
                           "Relu",         "Relu6",        "Elu",         "Selu",      "LeakyRelu", "Softplus",
                           "Softsign",     "ReluGrad",     "Relu6Grad",   "EluGrad",   "SeluGrad",  "LeakyReluGrad",
                           "SoftplusGrad", "SoftsignGrad", "BiasAdd",     "BiasAddV1"})
        r[op] = {kFloats, {}, {}};
    r["Round"] = {with(kFloats, {kI32, kI64}), {}, {}};
    for (const char* op : {"Select", "SelectV2"})
        r[op] = {with(kFloats, {kB, kI32, kI64}), {}, {}};
    r["AddN"] = {with(kFloats, {kI64}), {kI32}, {"inputs", "sum"}};
    return r;
}

std::string typesText(const std::set<DataType>& types)
{
    std::string text;
    for (DataType t : types)
        text += (text.empty() ? "" : ",") + std::string(dataTypeName(t));
    return "[" + text + "]";
}

} // namespace

class TestGpuMathKernels : public QObject {
    Q_OBJECT

private slots:
    void registrationsAreTensorFlows();
    void sharedShapeChecksKeepTensorFlowsTexts();
    void binaryArithmetic();
    void integerArithmetic();
    void comparisonsAndLogic();
    void int32RunsOnTheHost();
    void unaryOps();
    void gradientHelpers();
    void cast();
    void select();
    void addN();
    void activations();
    void biasAdd();
    void badInputs();
};

// Needs no GPU: the registry is filled the same way with or without one.
void TestGpuMathKernels::registrationsAreTensorFlows()
{
    if (!probeGpus().compiledIn)
        QSKIP("GPU kernels are registered only in builds with CUDA support (this build has none)");
    QString error;
    auto harness = registrationHarness(&error);
    QVERIFY2(harness, qPrintable(error));
    QStringList failures;
    for (const auto& [op, expected] : expectedRegistrations()) {
        std::set<DataType> device, host;
        for (const KernelDef& def : harness->kernels().kernelsFor(op)) {
            if (def.deviceType != "GPU")
                continue;
            if (def.typeConstraints.size() != 1 || def.typeConstraints[0].first != "T") {
                failures << QString::fromStdString(op + ": unexpected constraints " + def.toString());
                continue;
            }
            for (DataType dtype : def.typeConstraints[0].second) {
                std::set<DataType>& kind = def.hostMemoryArgs.empty() ? device : host;
                if (!kind.insert(dtype).second)
                    failures << QString::fromStdString(op + ": two GPU kernels for " + dataTypeName(dtype));
            }
            if (!def.hostMemoryArgs.empty() && def.hostMemoryArgs != expected.hostArgs)
                failures << QString::fromStdString(op + ": host-memory arguments of " + def.toString());
        }
        const std::set<DataType> wantDevice(expected.device.begin(), expected.device.end());
        const std::set<DataType> wantHost(expected.host.begin(), expected.host.end());
        if (device != wantDevice)
            failures << QString::fromStdString(op + ": GPU-memory kernels for " + typesText(device) + ", expected " +
                                               typesText(wantDevice));
        if (host != wantHost)
            failures << QString::fromStdString(op + ": host-memory kernels for " + typesText(host) + ", expected " +
                                               typesText(wantHost));
    }
    // The ops without a type attr: one unconstrained kernel each, in GPU memory.
    for (const char* op : {"LogicalAnd", "LogicalOr", "LogicalNot"}) {
        int count = 0;
        for (const KernelDef& def : harness->kernels().kernelsFor(op)) {
            if (def.deviceType == "GPU" && def.typeConstraints.empty() && def.hostMemoryArgs.empty())
                ++count;
        }
        if (count != 1)
            failures << QStringLiteral("%1: %2 GPU kernels, expected 1").arg(op).arg(count);
    }
    // Cast: one kernel over the pairs of bool, int32, int64, half, float and double.
    const std::set<DataType> castTypes{kB, kI32, kI64, kH, kF, kD};
    int casts = 0;
    for (const KernelDef& def : harness->kernels().kernelsFor("Cast")) {
        if (def.deviceType != "GPU")
            continue;
        ++casts;
        bool ok = def.typeConstraints.size() == 2 && def.hostMemoryArgs.empty();
        for (const auto& [attr, types] : def.typeConstraints)
            ok =
                ok && (attr == "SrcT" || attr == "DstT") && std::set<DataType>(types.begin(), types.end()) == castTypes;
        if (!ok)
            failures << QString::fromStdString("Cast: " + def.toString());
    }
    if (casts != 1)
        failures << QStringLiteral("Cast: %1 GPU kernels, expected 1").arg(casts);
    // A node the GPU cannot take: int32 Pow has no GPU kernel in TensorFlow 1.15 (it runs on the CPU).
    tensorflow::NodeDef pow;
    pow.set_op("Pow");
    (*pow.mutable_attr())["T"].set_type(kI32);
    QVERIFY(!harness->kernels().supports(pow, "GPU"));
    QVERIFY(harness->kernels().supports(pow, "CPU"));
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
}

// Needs no GPU: the shape rules both devices' Select, SelectV2 and AddN kernels share, through the CPU kernels.
void TestGpuMathKernels::sharedShapeChecksKeepTensorFlowsTexts()
{
    QString error;
    auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
    QVERIFY2(h, qPrintable(error));
    Allocator& a = h->allocator();
    auto vec = [&](std::vector<std::int64_t> dims) {
        const TensorShape shape{std::move(dims)};
        return tensor<float>(a, shape,
                             std::vector<float>(static_cast<std::size_t>(shape.numElements().value_or(0)), 1.0f));
    };
    auto cond = [&](TensorShape shape) {
        return tensor<bool>(a, shape,
                            std::vector<bool>(static_cast<std::size_t>(shape.numElements().value_or(0)), true));
    };
    struct Case {
        std::string node;
        std::vector<Tensor> inputs;
        std::string message;
    };
    const std::string addN3 = node("AddN", kF, "attr { key: 'N' value { i: 3 } }");
    const Case cases[] = {
        {node("Select", kF),
         {cond(TensorShape::scalar()), vec({2}), vec({3})},
         "'then' and 'else' must have the same size.  but received: [2] vs. [3]"},
        {node("Select", kF),
         {cond(TensorShape{2}), vec({2, 4}), vec({2, 5})},
         "'then' and 'else' must have the same size.  but received: [2,4] vs. [2,5]"},
        {node("Select", kF),
         {cond(TensorShape{3}), vec({2, 4}), vec({2, 4})},
         "Number of batches of 'then' must match size of 'cond', but saw: 2 vs. 3"},
        {node("Select", kF),
         {cond(TensorShape{2}), tensor<float>(a, TensorShape::scalar(), {1.0f}), vec({})},
         "'then' must be at least a vector, but saw shape: []"},
        {node("Select", kF),
         {cond(TensorShape{2, 3}), vec({2, 3}), vec({3, 2})},
         "Inputs to operation test_node of type Select must have the same size and shape.  Input 0: [2,3] != "
         "input 2: [3,2]"},
        {node("Select", kF),
         {cond(TensorShape{2, 3}), vec({6}), vec({2, 3})},
         "Inputs to operation test_node of type Select must have the same size and shape.  Input 0: [2,3] != "
         "input 1: [6]"},
        {node("SelectV2", kF),
         {cond(TensorShape{2}), vec({2}), vec({3})},
         "then [2] and else [3] must be broadcastable"},
        {node("SelectV2", kF),
         {cond(TensorShape{2}), vec({3}), vec({3})},
         "condition [2], then [3], and else [3] must be broadcastable"},
        {addN3,
         {vec({3}), vec({3}), vec({2})},
         "Inputs to operation test_node of type AddN must have the same size and shape.  Input 0: [3] != input 2: [2]"},
    };
    QStringList failures;
    for (const Case& c : cases) {
        auto result = h->run(c.node, c.inputs);
        if (result)
            failures << QString::fromStdString("[" + c.node + "] accepted bad inputs");
        else if (result.error().code() != StatusCode::kInvalidArgument || result.error().message() != c.message)
            failures << QString::fromStdString("[" + c.node + "] " + result.error().toString() +
                                               "\n    expected: " + c.message);
    }
    // And the good cases the rules let through: a scalar condition passes t or e through whole.
    auto picked = h->run(node("Select", kF), {cond(TensorShape::scalar()), vec({2}), vec({2})});
    QVERIFY2(picked, picked ? "" : picked.error().toString().c_str());
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
}

void TestGpuMathKernels::binaryArithmetic()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    struct Op {
        const char* name;
        double xLo, xHi, yLo, yHi; ///< ranges that keep the results finite
    };
    const Op ops[] = {{"Add", -10, 10, -10, 10},    {"AddV2", -10, 10, -10, 10},   {"Sub", -10, 10, -10, 10},
                      {"Mul", -10, 10, -10, 10},    {"RealDiv", -10, 10, 0.5, 2},  {"Div", -10, 10, -2, -0.5},
                      {"DivNoNan", -10, 10, -1, 1}, {"FloorDiv", -10, 10, 0.5, 2}, {"Maximum", -1, 1, -1, 1},
                      {"Minimum", -1, 1, -1, 1},    {"Pow", 0.1, 2, -2, 2},        {"SquaredDifference", -5, 5, -5, 5}};
    for (const Op& op : ops) {
        for (DataType dtype : kFloats) {
            for (const auto& [xs, ys] : kBinaryShapes) {
                c.same(node(op.name, dtype), {c.random(dtype, xs, op.xLo, op.xHi), c.random(dtype, ys, op.yLo, op.yHi)},
                       dtype);
            }
        }
        for (const auto& [xs, ys] : {kLargeBinary, kLargeBroadcast})
            c.same(node(op.name, kF), {c.random(kF, xs, op.xLo, op.xHi), c.random(kF, ys, op.yLo, op.yHi)}, kF);
    }
    // NaN and infinities through the arithmetic (Maximum and Minimum propagate NaN).
    for (const char* op : {"Add", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference", "DivNoNan"}) {
        for (DataType dtype : kFloats) {
            Tensor x = c.special(dtype, 45);
            Tensor y = c.special(dtype, 45);
            c.same(node(op, dtype), {x, y}, dtype);
            c.same(node(op, dtype), {x, c.random(dtype, TensorShape::scalar(), -3, 3)}, dtype);
        }
    }
    // DivNoNan's zeros: exact zeros in y give 0 whatever x is.
    c.same(node("DivNoNan", kF), {c.special(kF, 45), c.integral(kF, TensorShape{45}, -1, 1)}, kF);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::integerArithmetic()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    // Integer types in GPU memory. Divisors avoid zero: the GPU kernels, like TensorFlow's, do not
    // check for it (the CPU kernels fail the op).
    const std::vector<std::pair<const char*, std::vector<DataType>>> ops{{"Add", {kI64}},
                                                                         {"AddV2", {kI64}},
                                                                         {"Sub", {kI64}},
                                                                         {"Mul", {kU8, kI8, kU16, kI16, kI64}},
                                                                         {"Maximum", {kI64}},
                                                                         {"Minimum", {kI64}},
                                                                         {"SquaredDifference", {kI64}}};
    for (const auto& [op, types] : ops) {
        for (DataType dtype : types) {
            for (const auto& [xs, ys] : kBinaryShapes)
                c.same(node(op, dtype), {c.integral(dtype, xs, -100, 100), c.integral(dtype, ys, -100, 100)}, dtype);
        }
    }
    for (const char* op : {"Div", "FloorDiv"}) {
        for (DataType dtype : {kU8, kU16, kI16, kI64}) {
            for (const auto& [xs, ys] : kBinaryShapes) {
                c.same(node(op, dtype), {c.integral(dtype, xs, -100, 100), c.integral(dtype, ys, 1, 9)}, dtype);
                if (dtype == kI16 || dtype == kI64) // negative divisors round differently in Div and FloorDiv
                    c.same(node(op, dtype), {c.integral(dtype, xs, -100, 100), c.integral(dtype, ys, -9, -1)}, dtype);
            }
        }
    }
    // Extremes wrap as two's complement on both devices: MIN / -1, -MIN, MIN * -1.
    const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
    const std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
    Tensor extremes = tensor<std::int64_t>(c.allocator(), {4}, {min64, max64, -1, 7});
    Tensor minusOne = tensor<std::int64_t>(c.allocator(), TensorShape::scalar(), {-1});
    for (const char* op : {"Div", "FloorDiv", "Mul", "Add", "Sub", "SquaredDifference"})
        c.same(node(op, kI64), {extremes, minusOne}, kI64);
    // Integer Pow: repeated squaring with wrap-around, non-negative exponents.
    for (const auto& [xs, ys] : kBinaryShapes)
        c.same(node("Pow", kI64), {c.integral(kI64, xs, -5, 5), c.integral(kI64, ys, 0, 9)}, kI64);
    c.same(node("Pow", kI64), {c.integral(kI64, TensorShape{64}, -3, 3), c.integral(kI64, TensorShape{64}, 30, 70)},
           kI64);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::comparisonsAndLogic()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    const std::vector<DataType> ordered{kF, kD, kH, kI64, kU8, kI8, kI16, kI32};
    for (const char* op : {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"}) {
        for (DataType dtype : ordered) {
            for (const auto& [xs, ys] : kBinaryShapes)
                c.same(node(op, dtype), {c.integral(dtype, xs, -3, 3), c.integral(dtype, ys, -3, 3)}, kB);
        }
        c.same(node(op, kF), {c.special(kF, 45), c.special(kF, 45)}, kB);
        c.same(node(op, kF), {c.special(kF, 45), c.random(kF, TensorShape::scalar())}, kB);
        for (const auto& [xs, ys] : {kLargeBinary, kLargeBroadcast})
            c.same(node(op, kF), {c.integral(kF, xs, -3, 3), c.integral(kF, ys, -3, 3)}, kB);
    }
    for (const char* op : {"Equal", "NotEqual"}) {
        for (const auto& [xs, ys] : kBinaryShapes)
            c.same(node(op, kB), {c.integral(kB, xs, 0, 1), c.integral(kB, ys, 0, 1)}, kB);
        // incompatible_shape_error = false: a scalar (false for Equal, true for NotEqual) on both devices.
        for (DataType dtype : {kF, kI32}) {
            c.same(node(op, dtype, "attr { key: 'incompatible_shape_error' value { b: false } }"),
                   {c.random(dtype, TensorShape{2, 3}), c.random(dtype, TensorShape{4})}, kB);
        }
    }
    for (const char* op : {"LogicalAnd", "LogicalOr"}) {
        for (const auto& [xs, ys] : kBinaryShapes)
            c.same(std::string("op: '") + op + "'", {c.integral(kB, xs, 0, 1), c.integral(kB, ys, 0, 1)}, kB);
        c.same(std::string("op: '") + op + "'",
               {c.integral(kB, kLargeBroadcast.first, 0, 1), c.integral(kB, kLargeBroadcast.second, 0, 1)}, kB);
    }
    for (const TensorShape& shape : kUnaryShapes)
        c.same("op: 'LogicalNot'", {c.integral(kB, shape, 0, 1)}, kB);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::int32RunsOnTheHost()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    for (const char* op : {"Add", "AddV2", "Sub", "Mul", "Maximum", "Minimum", "SquaredDifference"}) {
        for (const auto& [xs, ys] : kBinaryShapes)
            c.same(node(op, kI32), {c.integral(kI32, xs, -1000, 1000), c.integral(kI32, ys, -1000, 1000)}, kI32);
    }
    for (const char* op : {"Div", "FloorDiv", "FloorMod"}) {
        for (const auto& [xs, ys] : kBinaryShapes) {
            c.same(node(op, kI32), {c.integral(kI32, xs, -100, 100), c.integral(kI32, ys, 1, 9)}, kI32);
            c.same(node(op, kI32), {c.integral(kI32, xs, -100, 100), c.integral(kI32, ys, -9, -1)}, kI32);
        }
        // A zero divisor fails the op on the host kernel as on the CPU ("Integer division by zero").
        c.bothFail(node(op, kI32),
                   {c.integral(kI32, TensorShape{4}, 1, 5), tensor<std::int32_t>(c.allocator(), {4}, {1, 2, 0, 3})});
    }
    for (const char* op : {"Neg", "Abs", "Sign", "Square"}) {
        for (const TensorShape& shape : kUnaryShapes)
            c.same(node(op, kI32), {c.integral(kI32, shape, -1000, 1000)}, kI32);
    }
    // The int32 kernels keep their arguments in host memory: the kernel built for GPU:0 says so.
    for (const char* op : {"Add", "Neg", "AddN"}) {
        tensorflow::NodeDef def;
        def.set_op(op);
        (*def.mutable_attr())["T"].set_type(kI32);
        if (std::string(op) == "AddN")
            (*def.mutable_attr())["N"].set_i(2);
        auto kernel = h.cpu().kernels().createKernel(def, h.cpu().ops(), h.gpu());
        if (!kernel) {
            QFAIL(kernel.error().toString().c_str());
        }
        QVERIFY((*kernel)->inputInHostMemory(0));
        QVERIFY((*kernel)->outputInHostMemory(0));
    }
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::unaryOps()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    struct Op {
        const char* name;
        double lo, hi;
        bool withInt64;
    };
    const Op ops[] = {{"Neg", -10, 10, true},    {"Abs", -10, 10, true},      {"Sign", -2, 2, true},
                      {"Square", -10, 10, true}, {"Sqrt", 0, 100, false},     {"Rsqrt", 0.01, 100, false},
                      {"Exp", -20, 10, false},   {"Log", 0.001, 1000, false}, {"Log1p", -0.99, 10, false},
                      {"Tanh", -10, 10, false},  {"Sigmoid", -20, 20, false}, {"Reciprocal", 0.1, 10, false},
                      {"Floor", -10, 10, false}, {"Ceil", -10, 10, false},    {"Round", -10, 10, true},
                      {"IsNan", -1, 1, false},   {"IsInf", -1, 1, false},     {"IsFinite", -1, 1, false}};
    for (const Op& op : ops) {
        for (DataType dtype : kFloats) {
            for (const TensorShape& shape : kUnaryShapes)
                c.same(node(op.name, dtype), {c.random(dtype, shape, op.lo, op.hi)}, dtype);
            c.same(node(op.name, dtype), {c.special(dtype, 45)}, dtype);
        }
        c.same(node(op.name, kF), {c.random(kF, TensorShape{1000003}, op.lo, op.hi)}, kF);
        if (op.withInt64) {
            for (const TensorShape& shape : kUnaryShapes)
                c.same(node(op.name, kI64), {c.integral(kI64, shape, -1000, 1000)}, kI64);
        }
    }
    // Round's halves go to even on both devices; its int32 kernel is in GPU memory.
    for (DataType dtype : kFloats) {
        Tensor halves = c.integral(dtype, TensorShape{41}, -20, 20);
        (void)dispatchDataType<TypeList<float, double, Eigen::half>>(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (auto& v : halves.values<T>())
                v = static_cast<T>(static_cast<float>(v) * 0.5f);
        });
        c.same(node("Round", dtype), {halves}, dtype);
    }
    for (const TensorShape& shape : kUnaryShapes)
        c.same(node("Round", kI32), {c.integral(kI32, shape, -1000, 1000)}, kI32);
    // Integer wrap-around: -MIN and |MIN| are MIN.
    c.same(node("Neg", kI64), {tensor<std::int64_t>(c.allocator(), {2}, {std::numeric_limits<std::int64_t>::min(), 5})},
           kI64);
    c.same(node("Abs", kI64),
           {tensor<std::int64_t>(c.allocator(), {2}, {std::numeric_limits<std::int64_t>::min(), -5})}, kI64);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::gradientHelpers()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    for (const char* op : {"TanhGrad", "SigmoidGrad", "RsqrtGrad", "SqrtGrad", "ReciprocalGrad"}) {
        for (DataType dtype : kFloats) {
            for (const TensorShape& shape : kUnaryShapes)
                c.same(node(op, dtype), {c.random(dtype, shape, 0.1, 2), c.random(dtype, shape, -3, 3)}, dtype);
            c.same(node(op, dtype), {c.special(dtype, 45), c.random(dtype, TensorShape{45}, -3, 3)}, dtype);
        }
        c.same(node(op, kF), {c.random(kF, TensorShape{1000003}, 0.1, 2), c.random(kF, TensorShape{1000003}, -3, 3)},
               kF);
        // Same number of elements, other shapes: the output takes y's shape on both devices.
        c.same(node(op, kF), {c.random(kF, TensorShape{2, 6}, 0.1, 2), c.random(kF, TensorShape{3, 4}, -3, 3)}, kF);
    }
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::cast()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    const std::vector<DataType> types{kB, kI32, kI64, kH, kF, kD};
    for (DataType from : types) {
        for (DataType to : types) {
            const std::string castNode = "op: 'Cast' " + typeAttr(from, "SrcT") + " " + typeAttr(to, "DstT");
            const Tolerance tol{}; // the same functor on both devices: exactly the same values
            for (const TensorShape& shape : kUnaryShapes)
                c.same(castNode, {c.random(from, shape, -300, 300)}, tol);
            c.same(castNode, {c.random(from, TensorShape{1000003}, -70000, 70000)}, tol);
            if (from == kH || from == kF || from == kD) {
                // NaN, infinities and values beyond int32 convert as the CPU does (x86's rules).
                c.same(castNode, {c.special(from, 45)}, tol);
                c.same(castNode, {c.random(from, TensorShape{64}, -1e10, 1e10)}, tol);
            }
        }
    }
    // Truncate clears the bits that rounding would look at (double -> float/half, float -> half).
    for (const auto& [from, to] : {std::pair{kD, kF}, std::pair{kD, kH}, std::pair{kF, kH}}) {
        const std::string castNode = "op: 'Cast' " + typeAttr(from, "SrcT") + " " + typeAttr(to, "DstT") +
                                     " attr { key: 'Truncate' value { b: true } }";
        c.same(castNode, {c.random(from, TensorShape{4099}, -1000, 1000)}, Tolerance{});
        c.same(castNode, {c.special(from, 45)}, Tolerance{});
    }
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::select()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    struct Shapes {
        TensorShape condition, t, e;
    };
    // Select: scalar condition, a vector over the first dimension, the full shape; empty tensors.
    const Shapes v1[] = {{TensorShape::scalar(), TensorShape{5, 3}, TensorShape{5, 3}},
                         {TensorShape::scalar(), TensorShape::scalar(), TensorShape::scalar()},
                         {TensorShape{5}, TensorShape{5, 3, 2}, TensorShape{5, 3, 2}},
                         {TensorShape{4099}, TensorShape{4099}, TensorShape{4099}},
                         {TensorShape{2, 3}, TensorShape{2, 3}, TensorShape{2, 3}},
                         {TensorShape{0}, TensorShape{0, 4}, TensorShape{0, 4}}};
    // SelectV2: all three broadcast.
    const Shapes v2[] = {{TensorShape{3, 1}, TensorShape{1, 4}, TensorShape::scalar()},
                         {TensorShape::scalar(), TensorShape{7}, TensorShape{7}},
                         {TensorShape{2, 1, 3}, TensorShape{4, 1}, TensorShape{2, 4, 3}},
                         {TensorShape{1009, 1}, TensorShape{1, 991}, TensorShape{1009, 991}},
                         {TensorShape{0, 3}, TensorShape{3}, TensorShape{1, 3}}};
    for (DataType dtype : {kB, kH, kF, kD, kI32, kI64}) {
        for (const Shapes& s : v1)
            c.same(node("Select", dtype),
                   {c.integral(kB, s.condition, 0, 1), c.random(dtype, s.t, -5, 5), c.random(dtype, s.e, -5, 5)},
                   dtype);
        for (const Shapes& s : v2)
            c.same(node("SelectV2", dtype),
                   {c.integral(kB, s.condition, 0, 1), c.random(dtype, s.t, -5, 5), c.random(dtype, s.e, -5, 5)},
                   dtype);
    }
    // Both values of a scalar condition.
    for (bool value : {false, true})
        c.same(node("Select", kF),
               {tensor<bool>(c.allocator(), TensorShape::scalar(), {value}), c.random(kF, {3}), c.random(kF, {3})}, kF);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::addN()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    for (DataType dtype : {kH, kF, kD, kI64, kI32}) {
        for (int n : {1, 2, 3, 8, 9, 17}) {
            for (const TensorShape& shape :
                 {TensorShape::scalar(), TensorShape{7}, TensorShape{3, 4099}, TensorShape{0, 2}}) {
                std::vector<Tensor> inputs;
                for (int i = 0; i < n; ++i)
                    inputs.push_back(dtype == kI64 || dtype == kI32 ? c.integral(dtype, shape, -1000, 1000)
                                                                    : c.random(dtype, shape, -3, 3));
                // Half sums of many terms round at each step on both devices, in the same order.
                c.same(node("AddN", dtype, "attr { key: 'N' value { i: " + std::to_string(n) + " } }"), inputs, dtype);
            }
        }
    }
    std::vector<Tensor> large;
    for (int i = 0; i < 10; ++i)
        large.push_back(c.random(kF, TensorShape{1000003}));
    c.same(node("AddN", kF, "attr { key: 'N' value { i: 10 } }"), large, kF);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::activations()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    const std::string alpha = "attr { key: 'alpha' value { f: 0.3 } }";
    for (const char* op : {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign"}) {
        const std::string extra = std::string(op) == "LeakyRelu" ? alpha : "";
        const std::string grad = std::string(op) + "Grad";
        for (DataType dtype : kFloats) {
            for (const TensorShape& shape : kUnaryShapes) {
                // Softplus's three regimes need |x| beyond log(epsilon) + 2 (-13.9 for float, -5.6 for half).
                c.same(node(op, dtype, extra), {c.random(dtype, shape, -20, 20)}, dtype);
                c.same(node(grad, dtype, extra), {c.random(dtype, shape, -3, 3), c.random(dtype, shape, -20, 20)},
                       dtype);
            }
            c.same(node(op, dtype, extra), {c.special(dtype, 45)}, dtype);
            c.same(node(grad, dtype, extra), {c.special(dtype, 45), c.special(dtype, 45)}, dtype);
        }
        c.same(node(op, kF, extra), {c.random(kF, TensorShape{1000003}, -8, 8)}, kF);
        c.same(node(grad, kF, extra), {c.random(kF, TensorShape{1000003}), c.random(kF, TensorShape{1000003}, -8, 8)},
               kF);
    }
    // LeakyRelu's default alpha (0.2) and an alpha above 1.
    c.same(node("LeakyRelu", kF), {c.random(kF, TensorShape{99}, -5, 5)}, kF);
    c.same(node("LeakyRelu", kF, "attr { key: 'alpha' value { f: 2.5 } }"), {c.random(kF, TensorShape{99}, -5, 5)}, kF);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::biasAdd()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    const std::string nchw = "attr { key: 'data_format' value { s: 'NCHW' } }";
    for (DataType dtype : kFloats) {
        for (const TensorShape& shape : {TensorShape{2, 3, 4, 5}, TensorShape{7, 3}, TensorShape{2, 2, 2, 3, 5},
                                         TensorShape{64, 257}, TensorShape{0, 5}, TensorShape{3, 0}}) {
            const std::int64_t last = shape.dim(shape.rank() - 1);
            c.same(node("BiasAdd", dtype), {c.random(dtype, shape), c.random(dtype, TensorShape{last})}, dtype);
            c.same(node("BiasAddV1", dtype), {c.random(dtype, shape), c.random(dtype, TensorShape{last})}, dtype);
            c.same(node("BiasAdd", dtype, nchw), {c.random(dtype, shape), c.random(dtype, TensorShape{shape.dim(1)})},
                   dtype);
        }
    }
    c.same(node("BiasAdd", kF), {c.random(kF, TensorShape{32, 17, 17, 64}), c.random(kF, TensorShape{64})}, kF);
    c.same(node("BiasAdd", kF, nchw), {c.random(kF, TensorShape{32, 64, 17, 17}), c.random(kF, TensorShape{64})}, kF);
    QVERIFY2(c.ok(), c.report().constData());
}

void TestGpuMathKernels::badInputs()
{
    GPU_HARNESS_OR_SKIP(h);
    Checker c(h);
    // Shapes that do not broadcast ("Incompatible shapes: [2,3] vs. [4]"), device and host kernels.
    for (DataType dtype : {kF, kI64, kI32})
        c.bothFail(node("Add", dtype), {c.random(dtype, {2, 3}), c.random(dtype, {4})});
    c.bothFail(node("Less", kH), {c.random(kH, {2, 3}), c.random(kH, {2})});
    c.bothFail("op: 'LogicalAnd'", {c.integral(kB, {3}, 0, 1), c.integral(kB, {2}, 0, 1)});
    // The gradient helpers need inputs of the same size; the activation gradients the same shape.
    c.bothFail(node("TanhGrad", kF), {c.random(kF, {3}), c.random(kF, {4})});
    c.bothFail(node("ReluGrad", kF), {c.random(kF, {2, 3}), c.random(kF, {3, 2})});
    c.bothFail(node("LeakyReluGrad", kD), {c.random(kD, {3}), c.random(kD, {1, 3})});
    // AddN's inputs must all have one shape.
    c.bothFail(node("AddN", kF, "attr { key: 'N' value { i: 3 } }"),
               {c.random(kF, {3}), c.random(kF, {3}), c.random(kF, {2})});
    c.bothFail(node("AddN", kI32, "attr { key: 'N' value { i: 2 } }"),
               {c.integral(kI32, {3}, 0, 9), c.integral(kI32, {1}, 0, 9)});
    // Select's rules.
    c.bothFail(node("Select", kF), {c.integral(kB, TensorShape::scalar(), 0, 1), c.random(kF, {2}), c.random(kF, {3})});
    c.bothFail(node("Select", kF), {c.integral(kB, {3}, 0, 1), c.random(kF, {2, 4}), c.random(kF, {2, 4})});
    c.bothFail(node("Select", kF), {c.integral(kB, {2, 3}, 0, 1), c.random(kF, {2, 3}), c.random(kF, {3, 2})});
    c.bothFail(node("SelectV2", kF), {c.integral(kB, {2}, 0, 1), c.random(kF, {3}), c.random(kF, {3})});
    c.bothFail(node("SelectV2", kF), {c.integral(kB, {2}, 0, 1), c.random(kF, {2}), c.random(kF, {3})});
    // BiasAdd's ranks and channel count, in both layouts.
    c.bothFail(node("BiasAdd", kF), {c.random(kF, {4}), c.random(kF, {4})});
    c.bothFail(node("BiasAdd", kF), {c.random(kF, {2, 4}), c.random(kF, {1, 4})});
    c.bothFail(node("BiasAdd", kF), {c.random(kF, {2, 4}), c.random(kF, {2})});
    c.bothFail(node("BiasAdd", kF, "attr { key: 'data_format' value { s: 'NCHW' } }"),
               {c.random(kF, {2, 4, 3}), c.random(kF, {3})});
    // A wrong dtype for the node's T.
    c.bothFail(node("Mul", kF), {c.random(kF, {2}), c.random(kD, {2})});
    QVERIFY2(c.ok(), c.report().constData());
}

QTEST_GUILESS_MAIN(TestGpuMathKernels)
#include "test_gpu_math_kernels.moc"
