// GPU kernels of Conv2D (and backprops), the pooling ops and FusedBatchNorm (and gradients)
// against their CPU twins on random inputs (skipped without a GPU); without a GPU: their
// registrations, and the per-element arithmetic of the pooling and batch-norm kernels run on the
// host against the CPU kernels.
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "kernels/kernels.h"
#include "kernels/nn/fused_batch_norm.h"
#include "kernels/nn/fused_batch_norm_cuda_math.h"
#include "kernels/nn/pool_shape.h"
#include "kernels/nn/pooling.h"
#include "kernels/nn/pooling_cuda_math.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;

namespace {

// --- Node text -------------------------------------------------------------------------------------

std::string typeAttr(const char* key, DataType t)
{
    return std::string("attr { key: '") + key + "' value { type: " + tensorflow::DataType_Name(t) + " } } ";
}

std::string listAttr(const char* key, const std::vector<int>& values)
{
    std::string text = std::string("attr { key: '") + key + "' value { list { ";
    for (int v : values)
        text += "i: " + std::to_string(v) + " ";
    return text + "} } } ";
}

std::string stringAttr(const char* key, const std::string& value)
{
    return std::string("attr { key: '") + key + "' value { s: '" + value + "' } } ";
}

std::string boolAttr(const char* key, bool value)
{
    return std::string("attr { key: '") + key + "' value { b: " + (value ? "true" : "false") + " } } ";
}

std::string floatAttr(const char* key, float value)
{
    return std::string("attr { key: '") + key + "' value { f: " + std::to_string(value) + " } } ";
}

/// A 4-element list with `rows` and `cols` at the spatial positions of the format.
std::vector<int> spatial(bool nchw, int rows, int cols)
{
    return nchw ? std::vector<int>{1, 1, rows, cols} : std::vector<int>{1, rows, cols, 1};
}

TensorShape image(bool nchw, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c)
{
    return nchw ? TensorShape{n, c, h, w} : TensorShape{n, h, w, c};
}

Tensor sizesTensor(Allocator& allocator, const TensorShape& shape)
{
    std::vector<std::int32_t> dims;
    for (int i = 0; i < shape.rank(); ++i)
        dims.push_back(static_cast<std::int32_t>(shape.dim(i)));
    return tensor<std::int32_t>(allocator, TensorShape{static_cast<std::int64_t>(dims.size())}, dims);
}

/// Random values that are small integers (many ties, exact in every float type).
Tensor integerValued(Allocator& allocator, DataType dtype, const TensorShape& shape, std::mt19937& random)
{
    Tensor t = randomTensor(allocator, DT_INT32, shape, random, -2, 2);
    auto made = Tensor::allocate(allocator, dtype, shape);
    if (!made)
        qFatal("%s", made.error().toString().c_str());
    const auto ints = t.values<std::int32_t>();
    for (std::size_t i = 0; i < ints.size(); ++i) {
        switch (dtype) {
        case DT_FLOAT: made->values<float>()[i] = static_cast<float>(ints[i]); break;
        case DT_DOUBLE: made->values<double>()[i] = static_cast<double>(ints[i]); break;
        case DT_HALF: made->values<Eigen::half>()[i] = Eigen::half(static_cast<float>(ints[i])); break;
        default: qFatal("integerValued: unsupported dtype");
        }
    }
    return *made;
}

struct Tolerance {
    double rtol;
    double atol;
};

void record(std::vector<std::string>& failures, const std::string& difference)
{
    if (!difference.empty())
        failures.push_back(difference);
}

std::string joined(const std::vector<std::string>& failures)
{
    std::string text = std::to_string(failures.size()) + " failure(s):";
    for (std::size_t i = 0; i < failures.size() && i < 20; ++i)
        text += "\n" + failures[i];
    return text;
}

// --- Convolution ----------------------------------------------------------------------------------

struct ConvCase {
    std::int64_t n, h, w, c, r, s, k;
    int strideRows, strideCols;
    int dilationRows, dilationCols;
    std::string padding;
    std::vector<int> explicitRowsCols; ///< EXPLICIT: top, bottom, left, right
};

std::string convNode(const std::string& op, DataType dtype, bool nchw, const ConvCase& c)
{
    std::string text = "op: '" + op + "' " + typeAttr("T", dtype) + stringAttr("padding", c.padding) +
                       listAttr("strides", spatial(nchw, c.strideRows, c.strideCols)) +
                       listAttr("dilations", spatial(nchw, c.dilationRows, c.dilationCols)) +
                       stringAttr("data_format", nchw ? "NCHW" : "NHWC");
    if (c.padding == "EXPLICIT") {
        const auto& p = c.explicitRowsCols;
        text += listAttr("explicit_paddings", nchw ? std::vector<int>{0, 0, 0, 0, p[0], p[1], p[2], p[3]}
                                                   : std::vector<int>{0, 0, p[0], p[1], p[2], p[3], 0, 0});
    }
    return text;
}

const std::vector<ConvCase>& convCases()
{
    static const std::vector<ConvCase> cases = {
        {2, 7, 5, 3, 3, 3, 4, 1, 1, 1, 1, "SAME", {}},
        {2, 6, 6, 3, 3, 3, 4, 2, 2, 1, 1, "SAME", {}},   // odd total padding: one more row/col at the end
        {1, 8, 9, 2, 4, 4, 3, 1, 1, 1, 1, "SAME", {}},   // even filter: pads 1 before, 2 after
        {2, 9, 11, 3, 3, 2, 5, 2, 3, 2, 1, "VALID", {}}, // strides and dilations
        {3, 5, 4, 7, 1, 1, 8, 1, 1, 1, 1, "VALID", {}},  // pointwise
        {1, 6, 7, 2, 3, 3, 2, 1, 2, 1, 1, "EXPLICIT", {0, 2, 3, 1}},
        {1, 17, 13, 16, 3, 3, 32, 1, 1, 1, 1, "SAME", {}},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "VALID", {}}, // one element
        {0, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, "SAME", {}},  // empty batch
        {2, 5, 5, 3, 3, 3, 0, 1, 1, 1, 1, "SAME", {}},  // no output channels
    };
    return cases;
}

Tolerance convTolerance(DataType dtype)
{
    switch (dtype) {
    case DT_DOUBLE: return {1e-10, 1e-10};
    case DT_HALF: return {1e-2, 1e-2};
    default: return {1e-4, 1e-4};
    }
}

std::string replaceOp(std::string node, const std::string& op)
{
    const std::size_t begin = node.find('\'') + 1;
    const std::size_t end = node.find('\'', begin);
    return node.replace(begin, end - begin, op);
}

// --- Pooling --------------------------------------------------------------------------------------

struct PoolCase {
    std::int64_t n, h, w, c;
    int windowRows, windowCols, strideRows, strideCols;
    std::string padding;
};

const std::vector<PoolCase>& poolCases()
{
    static const std::vector<PoolCase> cases = {
        {2, 7, 5, 3, 2, 2, 2, 2, "SAME"}, // odd sizes: one padded row and column at the end
        {2, 7, 5, 3, 3, 3, 2, 2, "VALID"},      {1, 6, 6, 4, 3, 3, 1, 1, "SAME"}, // overlapping windows
        {3, 8, 9, 5, 3, 2, 2, 3, "SAME"},       {1, 1, 1, 1, 1, 1, 1, 1, "VALID"},
        {1, 1000003, 1, 1, 3, 1, 2, 1, "SAME"}, {0, 4, 4, 2, 2, 2, 2, 2, "VALID"}, // empty batch
        {2, 16, 16, 32, 2, 2, 2, 2, "VALID"},
    };
    return cases;
}

std::string poolNode(const std::string& op, DataType dtype, bool nchw, const PoolCase& c)
{
    return "op: '" + op + "' " + typeAttr("T", dtype) + stringAttr("padding", c.padding) +
           listAttr("ksize", spatial(nchw, c.windowRows, c.windowCols)) +
           listAttr("strides", spatial(nchw, c.strideRows, c.strideCols)) +
           stringAttr("data_format", nchw ? "NCHW" : "NHWC");
}

Tolerance avgTolerance(DataType dtype)
{
    switch (dtype) {
    case DT_DOUBLE: return {1e-12, 1e-12};
    case DT_HALF: return {1e-3, 1e-3};
    default: return {1e-6, 1e-6};
    }
}

tensorflow::NodeDef parseNode(const std::string& text)
{
    tensorflow::NodeDef node;
    if (!google::protobuf::TextFormat::ParseFromString(text, &node))
        qFatal("bad node text: %s", text.c_str());
    return node;
}

// --- Batch norm -----------------------------------------------------------------------------------

struct BatchNormCase {
    std::int64_t n, h, w, c;
};

const std::vector<BatchNormCase>& batchNormCases()
{
    static const std::vector<BatchNormCase> cases = {
        {2, 5, 7, 3}, {1, 1, 1, 4}, {4, 8, 8, 16}, {8, 32, 32, 64}, {3, 1, 1, 1}, {0, 3, 3, 2}, {1, 33, 1, 70},
    };
    return cases;
}

std::string batchNormNode(const std::string& op, DataType dtype, bool nchw, bool training)
{
    std::string text = "op: '" + op + "' " + typeAttr("T", dtype) + floatAttr("epsilon", 0.001f) +
                       stringAttr("data_format", nchw ? "NCHW" : "NHWC") + boolAttr("is_training", training);
    if (op != "FusedBatchNorm" && op != "FusedBatchNormGrad")
        text += typeAttr("U", DT_FLOAT);
    return text;
}

Tolerance batchNormTolerance(DataType dtype)
{
    return dtype == DT_HALF ? Tolerance{1e-2, 1e-2} : Tolerance{1e-4, 1e-4};
}

} // namespace

class TestGpuConvPoolKernels : public QObject {
    Q_OBJECT

private slots:
    /// Every (op, dtype) TensorFlow 1.15 registers on the GPU is registered for "GPU" with the
    /// sizes in host memory. Needs no GPU, only a CUDA build.
    void registrations()
    {
        if (!probeGpus().compiledIn)
            QSKIP("GPU kernels are registered only in builds with CUDA support");
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        struct Expected {
            const char* op;
            std::set<DataType> types;
            std::vector<std::string> hostArgs;
            bool withU;
        };
        const std::set<DataType> hfd{DT_HALF, DT_FLOAT, DT_DOUBLE};
        const std::set<DataType> hf{DT_HALF, DT_FLOAT};
        const std::vector<Expected> expected = {
            {"Conv2D", hfd, {}, false},
            {"Conv2DBackpropInput", hfd, {"input_sizes"}, false},
            {"Conv2DBackpropFilter", hfd, {"filter_sizes"}, false},
            {"MaxPool", hfd, {}, false},
            {"MaxPoolGrad", hfd, {}, false},
            {"AvgPool", hfd, {}, false},
            {"AvgPoolGrad", hfd, {"orig_input_shape"}, false},
            {"FusedBatchNorm", {DT_FLOAT}, {}, false},
            {"FusedBatchNormV2", hf, {}, true},
            {"FusedBatchNormV3", hf, {}, true},
            {"FusedBatchNormGrad", {DT_FLOAT}, {}, false},
            {"FusedBatchNormGradV2", hf, {}, true},
            {"FusedBatchNormGradV3", hf, {}, true},
        };
        std::vector<std::string> failures;
        for (const Expected& e : expected) {
            std::vector<KernelDef> gpuDefs;
            for (const KernelDef& def : h->kernels().kernelsFor(e.op)) {
                if (def.deviceType == "GPU")
                    gpuDefs.push_back(def);
            }
            if (gpuDefs.size() != 1) {
                failures.push_back(std::string(e.op) + ": " + std::to_string(gpuDefs.size()) +
                                   " GPU kernels, expected 1");
                continue;
            }
            const KernelDef& def = gpuDefs.front();
            std::set<DataType> types;
            bool uFloat = false;
            for (const auto& [attr, allowed] : def.typeConstraints) {
                if (attr == "T")
                    types.insert(allowed.begin(), allowed.end());
                else if (attr == "U")
                    uFloat = allowed == std::vector<DataType>{DT_FLOAT};
            }
            if (types != e.types)
                failures.push_back(std::string(e.op) + ": " + def.toString());
            if (uFloat != e.withU)
                failures.push_back(std::string(e.op) + ": U constraint " + def.toString());
            if (def.hostMemoryArgs != e.hostArgs)
                failures.push_back(std::string(e.op) + ": host-memory args differ");
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    /// The pooling kernels' per-element functions, run on the host, give exactly what the CPU
    /// kernels give (float and double; NHWC and NCHW; ties route the gradient to the first maximum).
    void poolingArithmeticOnHost()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        std::mt19937 random(7);
        std::vector<std::string> failures;
        std::vector<PoolCase> cases(poolCases().begin(), poolCases().end());
        cases.erase(std::remove_if(cases.begin(), cases.end(), [](const PoolCase& c) { return c.h > 10000; }),
                    cases.end());
        for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
            for (bool nchw : {false, true}) {
                for (const PoolCase& c : cases) {
                    const std::string maxNode = poolNode("MaxPool", dtype, nchw, c);
                    const Tensor x = integerValued(h->allocator(), dtype, image(nchw, c.n, c.h, c.w, c.c), random);
                    auto params = nn::poolParams(parseNode(maxNode));
                    QVERIFY2(params, params ? "" : params.error().toString().c_str());
                    auto g = nn::poolGeometry(*params, x.shape());
                    QVERIFY(g);
                    const gpu::PoolShape s = nn::poolShapeOf(*g, nchw ? nn::DataFormat::kNchw : nn::DataFormat::kNhwc);
                    auto maxCpu = h->run(maxNode, {x});
                    auto avgCpu = h->run(replaceOp(maxNode, "AvgPool"), {x});
                    QVERIFY2(maxCpu && avgCpu, "CPU pooling failed");
                    const Tensor& pooled = (*maxCpu)[0];
                    const Tensor grad = randomTensor(h->allocator(), dtype, pooled.shape(), random);
                    auto maxGradCpu = h->run(replaceOp(maxNode, "MaxPoolGrad"), {x, pooled, grad});
                    auto avgGradCpu =
                        h->run(replaceOp(maxNode, "AvgPoolGrad"), {sizesTensor(h->allocator(), x.shape()), grad});
                    QVERIFY2(maxGradCpu && avgGradCpu, "CPU pooling gradient failed");
                    Tensor maxHost = *Tensor::allocate(h->allocator(), dtype, pooled.shape());
                    Tensor avgHost = *Tensor::allocate(h->allocator(), dtype, pooled.shape());
                    Tensor maxGradHost = *Tensor::allocate(h->allocator(), dtype, x.shape());
                    Tensor avgGradHost = *Tensor::allocate(h->allocator(), dtype, x.shape());
                    std::vector<std::int64_t> argmax(static_cast<std::size_t>(s.outputElements()));
                    auto runAll = [&](auto tag) {
                        using T = decltype(tag);
                        const T* in = x.data<T>();
                        for (std::int64_t i = 0; i < s.outputElements(); ++i) {
                            maxHost.data<T>()[i] = gpu::maxPoolAt<T, T>(s, in, i);
                            avgHost.data<T>()[i] = gpu::avgPoolAt<T, T>(s, in, i);
                            argmax[static_cast<std::size_t>(i)] = gpu::maxPoolArgmaxAt<T, T>(s, in, i);
                        }
                        for (std::int64_t j = 0; j < s.inputElements(); ++j) {
                            maxGradHost.data<T>()[j] = gpu::maxPoolGradAt<T, T>(s, argmax.data(), grad.data<T>(), j);
                            avgGradHost.data<T>()[j] = gpu::avgPoolGradAt<T, T>(s, grad.data<T>(), j);
                        }
                    };
                    if (dtype == DT_FLOAT)
                        runAll(float());
                    else
                        runAll(double());
                    const std::string where = "[" + maxNode + " " + x.shape().toString() + "] ";
                    struct Pair {
                        const char* name;
                        const Tensor* host;
                        const Tensor* cpu;
                    };
                    for (const Pair& p : {Pair{"MaxPool", &maxHost, &pooled}, Pair{"AvgPool", &avgHost, &(*avgCpu)[0]},
                                          Pair{"MaxPoolGrad", &maxGradHost, &(*maxGradCpu)[0]},
                                          Pair{"AvgPoolGrad", &avgGradHost, &(*avgGradCpu)[0]}}) {
                        const std::string difference = compareTensors(*p.host, *p.cpu, 0.0, 0.0);
                        if (!difference.empty())
                            failures.push_back(where + p.name + ": " + difference);
                    }
                }
            }
        }
        // Depthwise max pooling (windows over channels).
        {
            const PoolCase c{2, 3, 4, 6, 1, 1, 1, 1, "VALID"};
            std::string node = "op: 'MaxPool' " + typeAttr("T", DT_FLOAT) + stringAttr("padding", "VALID") +
                               listAttr("ksize", {1, 1, 1, 3}) + listAttr("strides", {1, 1, 1, 3});
            const Tensor x = randomTensor(h->allocator(), DT_FLOAT, image(false, c.n, c.h, c.w, c.c), random);
            auto cpu = h->run(node, {x});
            QVERIFY(cpu);
            auto params = nn::poolParams(parseNode(node));
            QVERIFY(params);
            auto g = nn::poolGeometry(*params, x.shape());
            QVERIFY(g);
            const gpu::PoolShape s = nn::poolShapeOf(*g, nn::DataFormat::kNhwc);
            Tensor host = *Tensor::allocate(h->allocator(), DT_FLOAT, (*cpu)[0].shape());
            for (std::int64_t i = 0; i < s.outputElements(); ++i)
                host.data<float>()[i] = gpu::maxPoolAt<float, float>(s, x.data<float>(), i);
            record(failures, compareTensors(host, (*cpu)[0], 0.0, 0.0));
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    /// The batch-norm kernels' reduction plan covers every row once within the grid's limits, and
    /// their formulas, run on the host with the plan's chunking, give the CPU kernels' results.
    void batchNormArithmeticOnHost()
    {
        for (const gpu::BnLayout& l : {gpu::BnLayout{1, 1, 1}, gpu::BnLayout{100000, 64, 1}, gpu::BnLayout{7, 3, 35},
                                       gpu::BnLayout{1, 1, 5000000}, gpu::BnLayout{std::int64_t(1) << 31, 2, 1},
                                       gpu::BnLayout{3000000, 4096, 1}, gpu::BnLayout{513, 1, 1}}) {
            const gpu::BnReductionPlan plan = gpu::bnReductionPlan(l);
            QVERIFY(plan.rowsPerChunk >= 1);
            QVERIFY(plan.chunks >= 1 && plan.chunks <= gpu::kBnMaxChunks);
            QVERIFY(plan.chunks * plan.rowsPerChunk >= l.outer);
            QVERIFY((plan.chunks - 1) * plan.rowsPerChunk < l.outer);
            QVERIFY(plan.chunks * l.channels <= std::max(gpu::kBnMaxPartials, l.channels));
        }

        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        std::mt19937 random(11);
        std::vector<std::string> failures;
        const float epsilon = 0.001f;
        for (bool nchw : {false, true}) {
            for (const BatchNormCase& c : batchNormCases()) {
                if (c.n == 0)
                    continue;
                const TensorShape shape = image(nchw, c.n, c.h, c.w, c.c);
                const Tensor x = randomTensor(h->allocator(), DT_FLOAT, shape, random, -2.0, 3.0);
                const Tensor dy = randomTensor(h->allocator(), DT_FLOAT, shape, random);
                const TensorShape channels{c.c};
                const Tensor scale = randomTensor(h->allocator(), DT_FLOAT, channels, random, 0.5, 1.5);
                const Tensor offset = randomTensor(h->allocator(), DT_FLOAT, channels, random);
                const Tensor none = *Tensor::allocate(h->allocator(), DT_FLOAT, TensorShape{0});
                const std::string node = batchNormNode("FusedBatchNorm", DT_FLOAT, nchw, true);
                auto cpu = h->run(node, {x, scale, offset, none, none});
                QVERIFY2(cpu, cpu ? "" : cpu.error().toString().c_str());
                auto cpuGrad = h->run(batchNormNode("FusedBatchNormGrad", DT_FLOAT, nchw, true),
                                      {dy, x, scale, (*cpu)[3], (*cpu)[4]});
                QVERIFY2(cpuGrad, cpuGrad ? "" : cpuGrad.error().toString().c_str());

                const nn::BatchNormLayout nl =
                    nn::batchNormLayout(shape, nchw ? nn::DataFormat::kNchw : nn::DataFormat::kNhwc);
                const gpu::BnLayout l{nl.outer, nl.channels, nl.inner};
                const gpu::BnReductionPlan plan = gpu::bnReductionPlan(l);
                const auto C = static_cast<std::size_t>(l.channels);
                // The sums as the kernels form them: per chunk of rows, then the chunks in order.
                auto channelSums = [&](auto value) {
                    std::vector<double> sums(C, 0.0);
                    for (std::int64_t k = 0; k < plan.chunks; ++k) {
                        const std::int64_t r1 = std::min(l.outer, (k + 1) * plan.rowsPerChunk);
                        for (std::int64_t ch = 0; ch < l.channels; ++ch) {
                            double partial = 0.0;
                            for (std::int64_t o = k * plan.rowsPerChunk; o < r1; ++o) {
                                for (std::int64_t i = 0; i < l.inner; ++i)
                                    partial += value((o * l.channels + ch) * l.inner + i, ch);
                            }
                            sums[static_cast<std::size_t>(ch)] += partial;
                        }
                    }
                    return sums;
                };
                const float* xs = x.data<float>();
                const float* dys = dy.data<float>();
                std::vector<double> meanD = channelSums([&](std::int64_t e, std::int64_t) { return double(xs[e]); });
                for (double& m : meanD)
                    m /= double(l.rest());
                const std::vector<double> squares = channelSums([&](std::int64_t e, std::int64_t ch) {
                    const double d = double(xs[e]) - meanD[static_cast<std::size_t>(ch)];
                    return d * d;
                });
                std::vector<Tensor> host;
                for (int i = 0; i < 5; ++i)
                    host.push_back(*Tensor::allocate(h->allocator(), DT_FLOAT, i == 0 ? shape : channels));
                std::vector<gpu::BnTrainingStats> stats;
                for (std::size_t ch = 0; ch < C; ++ch) {
                    stats.push_back(
                        gpu::bnTrainingStats(meanD[ch], squares[ch], l.rest(), scale.data<float>()[ch], epsilon));
                    host[1].data<float>()[ch] = stats[ch].mean;
                    host[2].data<float>()[ch] = stats[ch].batchVariance;
                    host[3].data<float>()[ch] = stats[ch].mean;
                    host[4].data<float>()[ch] = stats[ch].variance;
                }
                for (std::int64_t e = 0; e < l.elements(); ++e) {
                    const auto ch = static_cast<std::size_t>(gpu::bnChannel(l, e));
                    host[0].data<float>()[e] =
                        gpu::bnApply(xs[e], stats[ch].mean, stats[ch].factor, offset.data<float>()[ch]);
                }
                const std::string where = "[" + node + " " + shape.toString() + "] ";
                for (std::size_t i = 0; i < host.size(); ++i) {
                    const std::string difference = compareTensors(host[i], (*cpu)[i], 1e-6, 1e-6);
                    if (!difference.empty())
                        failures.push_back(where + "output " + std::to_string(i) + ": " + difference);
                }

                // The gradient from the forward's reserve spaces.
                const float* mean = (*cpu)[3].data<float>();
                const float* variance = (*cpu)[4].data<float>();
                const std::vector<double> sumDy =
                    channelSums([&](std::int64_t e, std::int64_t) { return double(dys[e]); });
                const std::vector<double> sumDyCentered = channelSums([&](std::int64_t e, std::int64_t ch) {
                    return double(dys[e]) * (double(xs[e]) - double(mean[ch]));
                });
                Tensor dx = *Tensor::allocate(h->allocator(), DT_FLOAT, shape);
                Tensor dScale = *Tensor::allocate(h->allocator(), DT_FLOAT, channels);
                Tensor dOffset = *Tensor::allocate(h->allocator(), DT_FLOAT, channels);
                std::vector<gpu::BnGradCoefficients> k;
                for (std::size_t ch = 0; ch < C; ++ch) {
                    k.push_back(gpu::bnGradCoefficients(sumDy[ch], sumDyCentered[ch], l.rest(), scale.data<float>()[ch],
                                                        variance[ch], epsilon));
                    dScale.data<float>()[ch] = k[ch].scaleBackprop;
                    dOffset.data<float>()[ch] = k[ch].offsetBackprop;
                }
                for (std::int64_t e = 0; e < l.elements(); ++e) {
                    const auto ch = static_cast<std::size_t>(gpu::bnChannel(l, e));
                    dx.data<float>()[e] =
                        gpu::bnGradApply(true, dys[e], xs[e], mean[ch], k[ch].k1, k[ch].k2, k[ch].dyMean);
                }
                const std::vector<std::pair<const char*, const Tensor*>> grads{
                    {"x_backprop", &dx}, {"scale_backprop", &dScale}, {"offset_backprop", &dOffset}};
                for (std::size_t i = 0; i < grads.size(); ++i) {
                    const std::string difference = compareTensors(*grads[i].second, (*cpuGrad)[i], 1e-5, 1e-5);
                    if (!difference.empty())
                        failures.push_back(where + grads[i].first + ": " + difference);
                }
            }
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void conv2DMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(1);
        std::vector<std::string> failures;
        for (DataType dtype : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
            const Tolerance tol = convTolerance(dtype);
            for (bool nchw : {false, true}) {
                for (const ConvCase& c : convCases()) {
                    const std::string node = convNode("Conv2D", dtype, nchw, c);
                    const Tensor x = randomTensor(h.allocator(), dtype, image(nchw, c.n, c.h, c.w, c.c), random);
                    const Tensor w = randomTensor(h.allocator(), dtype, TensorShape{c.r, c.s, c.c, c.k}, random);
                    record(failures, h.compareWithCpu(node, {x, w}, tol.rtol, tol.atol));
                    auto y = h.runOnCpu(node, {x, w});
                    if (!y) {
                        failures.push_back("[" + node + "] CPU: " + y.error().toString());
                        continue;
                    }
                    const Tensor dy = randomTensor(h.allocator(), dtype, (*y)[0].shape(), random);
                    record(failures,
                           h.compareWithCpu(replaceOp(node, "Conv2DBackpropInput"),
                                            {sizesTensor(h.allocator(), x.shape()), w, dy}, tol.rtol, tol.atol));
                    record(failures,
                           h.compareWithCpu(replaceOp(node, "Conv2DBackpropFilter"),
                                            {x, sizesTensor(h.allocator(), w.shape()), dy}, tol.rtol, tol.atol));
                }
            }
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    /// Inputs both devices reject, with the same error code.
    void conv2DBadInputs()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(2);
        std::vector<std::string> failures;
        const ConvCase c{1, 5, 5, 4, 3, 3, 2, 1, 1, 1, 1, "SAME", {}};
        const std::string node = convNode("Conv2D", DT_FLOAT, false, c);
        Allocator& a = h.allocator();
        const Tensor x = randomTensor(a, DT_FLOAT, TensorShape{1, 5, 5, 4}, random);
        const Tensor w = randomTensor(a, DT_FLOAT, TensorShape{3, 3, 4, 2}, random);
        const Tensor dy = randomTensor(a, DT_FLOAT, TensorShape{1, 5, 5, 2}, random);
        // A 3-D filter; a grouped convolution (depth 4 over filter depth 2); a filter of depth 3.
        record(failures,
               h.compareWithCpu(node, {x, randomTensor(a, DT_FLOAT, TensorShape{3, 3, 4}, random)}, 0, 0, true));
        record(failures,
               h.compareWithCpu(node, {x, randomTensor(a, DT_FLOAT, TensorShape{3, 3, 2, 2}, random)}, 0, 0, true));
        record(failures,
               h.compareWithCpu(node, {x, randomTensor(a, DT_FLOAT, TensorShape{3, 3, 3, 2}, random)}, 0, 0, true));
        // Backprops: sizes of 3 elements, a negative size, out_backprop of the wrong size.
        const std::string input = replaceOp(node, "Conv2DBackpropInput");
        const std::string filter = replaceOp(node, "Conv2DBackpropFilter");
        record(failures,
               h.compareWithCpu(input, {tensor<std::int32_t>(a, TensorShape{3}, {1, 5, 5}), w, dy}, 0, 0, true));
        record(failures,
               h.compareWithCpu(input, {tensor<std::int32_t>(a, TensorShape{4}, {1, -5, 5, 4}), w, dy}, 0, 0, true));
        record(failures, h.compareWithCpu(filter,
                                          {x, tensor<std::int32_t>(a, TensorShape{4}, {3, 3, 4, 2}),
                                           randomTensor(a, DT_FLOAT, TensorShape{1, 4, 5, 2}, random)},
                                          0, 0, true));
        // Bad attrs: strides in the batch dimension, data_format 'NCWH'.
        std::string batchStride = node;
        batchStride.replace(batchStride.find("i: 1 i: 1 i: 1 i: 1"), 19, "i: 2 i: 1 i: 1 i: 1");
        record(failures, h.compareWithCpu(batchStride, {x, w}, 0, 0, true));
        std::string format = node;
        format.replace(format.find("'NHWC'"), 6, "'NCWH'");
        record(failures, h.compareWithCpu(format, {x, w}, 0, 0, true));
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void poolingMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(3);
        std::vector<std::string> failures;
        for (DataType dtype : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
            const Tolerance avg = avgTolerance(dtype);
            for (bool nchw : {false, true}) {
                for (const PoolCase& c : poolCases()) {
                    const std::string maxNode = poolNode("MaxPool", dtype, nchw, c);
                    const std::string avgNode = replaceOp(maxNode, "AvgPool");
                    const TensorShape shape = image(nchw, c.n, c.h, c.w, c.c);
                    // Random values, and small integers whose many ties test the first-maximum rule.
                    for (const Tensor& x : {randomTensor(h.allocator(), dtype, shape, random),
                                            integerValued(h.allocator(), dtype, shape, random)}) {
                        record(failures, h.compareWithCpu(maxNode, {x}, 0.0, 0.0));
                        record(failures, h.compareWithCpu(avgNode, {x}, avg.rtol, avg.atol));
                        auto pooled = h.runOnCpu(maxNode, {x});
                        if (!pooled) {
                            failures.push_back("[" + maxNode + "] CPU: " + pooled.error().toString());
                            continue;
                        }
                        const Tensor grad = randomTensor(h.allocator(), dtype, (*pooled)[0].shape(), random);
                        record(failures, h.compareWithCpu(replaceOp(maxNode, "MaxPoolGrad"), {x, (*pooled)[0], grad},
                                                          avg.rtol, avg.atol));
                        record(failures,
                               h.compareWithCpu(replaceOp(maxNode, "AvgPoolGrad"),
                                                {sizesTensor(h.allocator(), shape), grad}, avg.rtol, avg.atol));
                    }
                }
            }
            // Depthwise max pooling: windows of 3 channels.
            const std::string depthwise = "op: 'MaxPool' " + typeAttr("T", dtype) + stringAttr("padding", "VALID") +
                                          listAttr("ksize", {1, 1, 1, 3}) + listAttr("strides", {1, 1, 1, 3});
            record(failures,
                   h.compareWithCpu(depthwise, {randomTensor(h.allocator(), dtype, TensorShape{2, 3, 4, 6}, random)},
                                    0.0, 0.0));
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void poolingBadInputs()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(4);
        std::vector<std::string> failures;
        Allocator& a = h.allocator();
        const PoolCase c{1, 6, 6, 2, 2, 2, 2, 2, "VALID"};
        const std::string maxNode = poolNode("MaxPool", DT_FLOAT, false, c);
        const Tensor x = randomTensor(a, DT_FLOAT, TensorShape{1, 6, 6, 2}, random);
        const Tensor pooled = randomTensor(a, DT_FLOAT, TensorShape{1, 3, 3, 2}, random);
        // A 3-D input; a window on the batch dimension; a depth window on AvgPool.
        record(failures,
               h.compareWithCpu(maxNode, {randomTensor(a, DT_FLOAT, TensorShape{6, 6, 2}, random)}, 0, 0, true));
        std::string batchWindow = maxNode;
        batchWindow.replace(batchWindow.find("i: 1 i: 2 i: 2 i: 1"), 19, "i: 2 i: 2 i: 2 i: 1");
        record(failures, h.compareWithCpu(batchWindow, {x}, 0, 0, true));
        const std::string avgDepth = "op: 'AvgPool' " + typeAttr("T", DT_FLOAT) + stringAttr("padding", "VALID") +
                                     listAttr("ksize", {1, 1, 1, 2}) + listAttr("strides", {1, 1, 1, 2});
        record(failures, h.compareWithCpu(avgDepth, {x}, 0, 0, true));
        // Gradients with the wrong grad or orig_output shapes, and a bad orig_input_shape.
        const Tensor wrong = randomTensor(a, DT_FLOAT, TensorShape{1, 2, 3, 2}, random);
        record(failures, h.compareWithCpu(replaceOp(maxNode, "MaxPoolGrad"), {x, pooled, wrong}, 0, 0, true));
        record(failures, h.compareWithCpu(replaceOp(maxNode, "MaxPoolGrad"), {x, wrong, pooled}, 0, 0, true));
        record(failures,
               h.compareWithCpu(replaceOp(maxNode, "AvgPoolGrad"), {sizesTensor(a, x.shape()), wrong}, 0, 0, true));
        record(failures, h.compareWithCpu(replaceOp(maxNode, "AvgPoolGrad"),
                                          {tensor<std::int32_t>(a, TensorShape{3}, {1, 6, 6}), pooled}, 0, 0, true));
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void fusedBatchNormMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(5);
        std::vector<std::string> failures;
        Allocator& a = h.allocator();
        for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"}) {
            const bool v1 = std::string(op) == "FusedBatchNorm";
            const bool v3 = std::string(op) == "FusedBatchNormV3";
            for (DataType dtype : v1 ? std::vector<DataType>{DT_FLOAT} : std::vector<DataType>{DT_FLOAT, DT_HALF}) {
                const Tolerance tol = batchNormTolerance(dtype);
                for (bool nchw : {false, true}) {
                    for (bool training : {true, false}) {
                        for (const BatchNormCase& c : batchNormCases()) {
                            const std::string node = batchNormNode(op, dtype, nchw, training);
                            // "FusedBatchNorm" + "Grad" + the version suffix.
                            const std::string grad =
                                batchNormNode(std::string(op).insert(14, "Grad"), dtype, nchw, training);
                            const TensorShape shape = image(nchw, c.n, c.h, c.w, c.c);
                            const TensorShape channels{c.c};
                            const Tensor x = randomTensor(a, dtype, shape, random, -2.0, 3.0);
                            const Tensor scale = randomTensor(a, DT_FLOAT, channels, random, 0.5, 1.5);
                            const Tensor offset = randomTensor(a, DT_FLOAT, channels, random);
                            const Tensor mean = randomTensor(a, DT_FLOAT, channels, random);
                            const Tensor variance = randomTensor(a, DT_FLOAT, channels, random, 0.5, 1.5);
                            record(failures,
                                   h.compareWithCpu(node, {x, scale, offset, mean, variance}, tol.rtol, tol.atol));
                            auto forward = h.runOnCpu(node, {x, scale, offset, mean, variance});
                            if (!forward) {
                                failures.push_back("[" + node + "] CPU: " + forward.error().toString());
                                continue;
                            }
                            // The gradient, from the forward's reserve spaces.
                            const Tensor dy = randomTensor(a, dtype, shape, random);
                            std::vector<Tensor> inputs{dy, x, scale, (*forward)[3], (*forward)[4]};
                            if (v3)
                                inputs.push_back((*forward)[5]);
                            record(failures, h.compareWithCpu(grad, inputs, tol.rtol, tol.atol));
                        }
                    }
                }
            }
        }
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }

    void fusedBatchNormBadInputs()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(6);
        std::vector<std::string> failures;
        Allocator& a = h.allocator();
        const Tensor x = randomTensor(a, DT_FLOAT, TensorShape{2, 3, 3, 4}, random);
        const Tensor four = randomTensor(a, DT_FLOAT, TensorShape{4}, random, 0.5, 1.5);
        const Tensor three = randomTensor(a, DT_FLOAT, TensorShape{3}, random, 0.5, 1.5);
        const std::string train = batchNormNode("FusedBatchNormV3", DT_FLOAT, false, true);
        const std::string infer = batchNormNode("FusedBatchNormV3", DT_FLOAT, false, false);
        const std::string grad = batchNormNode("FusedBatchNormGradV3", DT_FLOAT, false, true);
        // A 3-D x, a scale of 3 channels, an inference mean of 3 channels; gradient shape mismatches.
        record(failures, h.compareWithCpu(
                             train, {randomTensor(a, DT_FLOAT, TensorShape{3, 3, 4}, random), four, four, four, four},
                             0, 0, true));
        record(failures, h.compareWithCpu(train, {x, three, four, four, four}, 0, 0, true));
        record(failures, h.compareWithCpu(infer, {x, four, four, three, four}, 0, 0, true));
        const Tensor scalar = randomTensor(a, DT_FLOAT, TensorShape::scalar(), random);
        record(failures,
               h.compareWithCpu(
                   grad, {randomTensor(a, DT_FLOAT, TensorShape{2, 3, 3, 3}, random), x, four, four, four, scalar}, 0,
                   0, true));
        record(failures, h.compareWithCpu(grad, {x, x, four, three, four, scalar}, 0, 0, true));
        QVERIFY2(failures.empty(), joined(failures).c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuConvPoolKernels)
#include "test_gpu_conv_pool_kernels.moc"
