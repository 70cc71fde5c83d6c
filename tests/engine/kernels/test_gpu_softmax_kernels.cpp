// GPU Softmax, LogSoftmax, SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits and
// BiasAddGrad against their CPU twins on random inputs (warp-per-row and block-per-row paths,
// broadcast labels, both layouts); out-of-range sparse labels give NaN rows as TensorFlow's GPU
// kernel; registrations are checked on any machine.
#include "devices/gpu_devices.h"
#include "framework/kernel_registry.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"
#include "kernel_harness.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;

namespace {

std::string typed(const std::string& op, DataType type)
{
    return "op: '" + op + "' attr { key: 'T' value { type: " + tensorflow::DataType_Name(type) + " } }";
}

std::string sparseNode(DataType type, DataType labels)
{
    return typed("SparseSoftmaxCrossEntropyWithLogits", type) +
           " attr { key: 'Tlabels' value { type: " + tensorflow::DataType_Name(labels) + " } }";
}

std::string biasGradNode(DataType type, const std::string& format)
{
    return typed("BiasAddGrad", type) + " attr { key: 'data_format' value { s: '" + format + "' } }";
}

/// Float tolerances by dtype: the CPU and GPU exp/log differ in the last bits, half is rounded.
double rtolFor(DataType type)
{
    return type == DT_DOUBLE ? 1e-12 : type == DT_HALF ? 1e-2 : 2e-5;
}
double atolFor(DataType type)
{
    return type == DT_DOUBLE ? 1e-14 : type == DT_HALF ? 2e-3 : 1e-6;
}

/// Class indices in [0, classes) of `type`.
Tensor labelTensor(Allocator& allocator, DataType type, std::int64_t rows, std::int64_t classes, std::mt19937& random)
{
    return randomTensor(allocator, type, TensorShape{rows}, random, 0, static_cast<double>(classes - 1));
}

} // namespace

class TestGpuSoftmaxKernels : public QObject {
    Q_OBJECT
private slots:
    void registeredAsTensorFlow()
    {
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        if (!h->kernels().hasKernelFor("Softmax", "GPU"))
            QSKIP("this build has no GPU kernels (no CUDA support compiled in)");
        QStringList failures;
        auto expect = [&](const std::string& text, bool wanted) {
            tensorflow::NodeDef node;
            if (!google::protobuf::TextFormat::ParseFromString(text, &node))
                qFatal("bad node %s", text.c_str());
            node.set_name("n");
            auto found = h->kernels().find(node, "GPU");
            if (static_cast<bool>(found) != wanted)
                failures << QString::fromStdString((wanted ? "missing: " : "unexpected: ") + text);
            else if (found && !(*found)->def.hostMemoryArgs.empty())
                failures << QString::fromStdString("host-memory args on " + text);
        };
        for (DataType type : {DT_HALF, DT_FLOAT, DT_DOUBLE}) {
            expect(typed("Softmax", type), true);
            expect(typed("LogSoftmax", type), type != DT_DOUBLE); // TensorFlow 1.15 has no double LogSoftmax GPU kernel
            expect(typed("SoftmaxCrossEntropyWithLogits", type), true);
            for (DataType labels : {DT_INT32, DT_INT64})
                expect(sparseNode(type, labels), type != DT_DOUBLE); // nor a double sparse loss
            expect(biasGradNode(type, "NHWC"), true);
            expect(biasGradNode(type, "NCHW"), true);
        }
        expect(typed("BiasAddGrad", DT_INT32), false);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void softmaxMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(31);
        QStringList failures;
        // Warp rows, block rows (> 1024 classes), one huge row, several leading dimensions, empties.
        const std::vector<TensorShape> shapes{TensorShape{7},       TensorShape{1, 1},    TensorShape{5, 10},
                                              TensorShape{3, 1024}, TensorShape{3, 1025}, TensorShape{2, 3, 4},
                                              TensorShape{1000003}, TensorShape{4097, 3}, TensorShape{0, 5},
                                              TensorShape{5, 0}};
        for (const TensorShape& shape : shapes) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
                Tensor logits = randomTensor(h.allocator(), type, shape, random, -10, 10);
                for (const char* op : {"Softmax", "LogSoftmax"}) {
                    if (type == DT_DOUBLE && op == std::string("LogSoftmax"))
                        continue;
                    // Long rows: a tiny probability's relative error grows with the row's sum.
                    const double atol = atolFor(type) * (shape.rank() == 1 && shape.dim(0) > 100000 ? 10 : 1);
                    addFailure(failures, h.compareWithCpu(typed(op, type), {logits}, rtolFor(type), atol));
                }
            }
        }
        // -inf logits give probability 0; a NaN poisons its row on both devices.
        Tensor special = randomTensor(h.allocator(), DT_FLOAT, TensorShape{3, 6}, random, -3, 3);
        special.data<float>()[2] = -INFINITY;
        special.data<float>()[8] = NAN;
        for (const char* op : {"Softmax", "LogSoftmax"}) {
            addFailure(failures, h.compareWithCpu(typed(op, DT_FLOAT), {special}, 2e-5, 1e-6));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void crossEntropyMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(32);
        QStringList failures;
        struct Pair {
            TensorShape logits, labels;
        };
        const std::vector<Pair> pairs{
            {TensorShape{5, 10}, TensorShape{5, 10}},    {TensorShape{3, 2000}, TensorShape{3, 2000}},
            {TensorShape{5, 10}, TensorShape{1, 10}},    {TensorShape{10}, TensorShape{5, 10}},
            {TensorShape{5, 1}, TensorShape{5, 10}},     {TensorShape{1, 1}, TensorShape{1, 1}},
            {TensorShape{0, 4}, TensorShape{0, 4}},      {TensorShape{4, 0}, TensorShape{4, 0}},
            {TensorShape{1000, 7}, TensorShape{1000, 7}}};
        for (const Pair& p : pairs) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
                const Tensor logits = randomTensor(h.allocator(), type, p.logits, random, -5, 5);
                const Tensor labels = randomTensor(h.allocator(), type, p.labels, random, 0, 1);
                addFailure(failures, h.compareWithCpu(typed("SoftmaxCrossEntropyWithLogits", type), {logits, labels},
                                                      rtolFor(type) * 5, atolFor(type) * 10));
            }
        }
        const std::vector<std::pair<std::int64_t, std::int64_t>> sparseShapes{
            {5, 10}, {3, 1500}, {1, 1}, {0, 5}, {777, 3}};
        for (const auto& [rows, classes] : sparseShapes) {
            for (DataType type : {DT_FLOAT, DT_HALF}) {
                const Tensor logits = randomTensor(h.allocator(), type, TensorShape{rows, classes}, random, -5, 5);
                for (DataType index : {DT_INT32, DT_INT64}) {
                    const Tensor labels = labelTensor(h.allocator(), index, rows, classes, random);
                    addFailure(failures, h.compareWithCpu(sparseNode(type, index), {logits, labels}, rtolFor(type) * 5,
                                                          atolFor(type) * 10));
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void outOfRangeSparseLabelGivesNanRow()
    {
        // TensorFlow's GPU kernel does not check labels (the CPU one rejects them): the row of a
        // bad label is NaN, loss and backprop, and the other rows are as usual.
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(33);
        const Tensor logits = randomTensor(h.allocator(), DT_FLOAT, TensorShape{3, 4}, random, -2, 2);
        const Tensor bad = tensor<std::int32_t>(h.allocator(), TensorShape{3}, {1, 4, -1});
        const Tensor good = tensor<std::int32_t>(h.allocator(), TensorShape{3}, {1, 0, 0});
        const std::string node = sparseNode(DT_FLOAT, DT_INT32);
        QVERIFY(!h.runOnCpu(node, {logits, bad}));
        auto gpu = h.runOnGpu(node, {logits, bad});
        QVERIFY2(gpu, gpu ? "" : gpu.error().toString().c_str());
        auto cpu = h.runOnCpu(node, {logits, good});
        QVERIFY(cpu);
        const float* loss = (*gpu)[0].data<float>();
        const float* backprop = (*gpu)[1].data<float>();
        auto close = [](float a, float b) { return std::abs(a - b) <= 1e-5f * (1.0f + std::abs(b)); };
        QVERIFY(close(loss[0], (*cpu)[0].data<float>()[0]));
        for (int row : {1, 2}) {
            QVERIFY(std::isnan(loss[row]));
            for (int c = 0; c < 4; ++c)
                QVERIFY(std::isnan(backprop[row * 4 + c]));
        }
        for (int c = 0; c < 4; ++c)
            QVERIFY(close(backprop[c], (*cpu)[1].data<float>()[c]));
    }

    void biasAddGradMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(34);
        QStringList failures;
        const std::vector<TensorShape> shapes{
            TensorShape{2, 3},      TensorShape{7, 1},      TensorShape{2, 3, 4, 5},    TensorShape{4, 3, 2, 2, 2},
            TensorShape{100003, 3}, TensorShape{3, 100003}, TensorShape{128, 7, 7, 64}, TensorShape{0, 3},
            TensorShape{3, 0},      TensorShape{1, 5, 1}};
        for (const TensorShape& shape : shapes) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
                const Tensor backprop = randomTensor(h.allocator(), type, shape, random, -1, 1);
                for (const char* format : {"NHWC", "NCHW"}) {
                    const std::int64_t channels = shape.dim(format == std::string("NHWC") ? shape.rank() - 1 : 1);
                    const double count = static_cast<double>(*shape.numElements()) /
                                         static_cast<double>(std::max<std::int64_t>(1, channels));
                    if (type == DT_HALF && count > 2048)
                        continue; // each half input's rounding error adds up over long sums
                    const double atol = type == DT_DOUBLE ? 1e-10
                                        : type == DT_HALF ? 5e-2
                                                          : 1e-5 * std::sqrt(count) + 1e-5;
                    addFailure(failures, h.compareWithCpu(biasGradNode(type, format), {backprop},
                                                          type == DT_HALF ? 1e-2 : 1e-4, atol));
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void badInputsFailOnBothDevices()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(35);
        QStringList failures;
        auto t = [&](TensorShape shape) { return randomTensor(h.allocator(), DT_FLOAT, shape, random); };
        auto check = [&](const std::string& node, const std::vector<Tensor>& inputs) {
            addFailure(failures, h.compareWithCpu(node, inputs, 0, 0, /*sameErrorOk=*/true));
            if (h.runOnGpu(node, inputs))
                failures << QString::fromStdString("GPU accepted " + node);
        };
        check(typed("Softmax", DT_FLOAT), {t(TensorShape::scalar())});
        check(typed("SoftmaxCrossEntropyWithLogits", DT_FLOAT), {t(TensorShape{2, 3}), t(TensorShape{3, 2})});
        check(typed("SoftmaxCrossEntropyWithLogits", DT_FLOAT), {t(TensorShape{2, 3, 4}), t(TensorShape{2, 3, 4})});
        check(sparseNode(DT_FLOAT, DT_INT32),
              {t(TensorShape{2, 3}), tensor<std::int32_t>(h.allocator(), TensorShape{3}, {0, 1, 2})});
        check(sparseNode(DT_FLOAT, DT_INT32),
              {t(TensorShape{2, 0}), tensor<std::int32_t>(h.allocator(), TensorShape{2}, {0, 0})});
        check(sparseNode(DT_FLOAT, DT_INT32),
              {t(TensorShape{6}), tensor<std::int32_t>(h.allocator(), TensorShape{6}, {0, 0, 0, 0, 0, 0})});
        check(biasGradNode(DT_FLOAT, "NHWC"), {t(TensorShape{5})});
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestGpuSoftmaxKernels)
#include "test_gpu_softmax_kernels.moc"
