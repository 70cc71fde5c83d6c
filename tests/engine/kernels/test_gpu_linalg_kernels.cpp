// GPU MatMul, BatchMatMul and BatchMatMulV2 (cuBLAS) against their CPU twins on random inputs:
// every transpose, odd and empty sizes, and each batch layout (strided, broadcast single matrix,
// pointer arrays, one call per matrix); their registrations are checked on any machine.
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
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;

namespace {

std::string matMulNode(DataType type, bool transposeA, bool transposeB)
{
    return "op: 'MatMul' attr { key: 'T' value { type: " + tensorflow::DataType_Name(type) +
           " } } attr { key: 'transpose_a' value { b: " + (transposeA ? "true" : "false") +
           " } } attr { key: 'transpose_b' value { b: " + (transposeB ? "true" : "false") + " } }";
}

std::string batchNode(const std::string& op, DataType type, bool adjX, bool adjY)
{
    return "op: '" + op + "' attr { key: 'T' value { type: " + tensorflow::DataType_Name(type) +
           " } } attr { key: 'adj_x' value { b: " + (adjX ? "true" : "false") +
           " } } attr { key: 'adj_y' value { b: " + (adjY ? "true" : "false") + " } }";
}

/// Tolerances against the CPU: cuBLAS and Eigen sum in different orders; the CPU multiplies
/// halves in half, the GPU accumulates them in float.
struct Tolerance {
    double rtol, atol;
};
Tolerance tolerance(DataType type, std::int64_t k)
{
    const double depth = static_cast<double>(k);
    if (type == DT_DOUBLE)
        return {1e-10, 1e-12 * depth};
    if (type == DT_HALF)
        return {2e-2, 1e-2 + 2e-3 * depth};
    return {1e-4, 1e-5 * (1.0 + std::sqrt(depth))};
}

std::vector<std::int64_t> withMatrix(std::vector<std::int64_t> batch, std::int64_t rows, std::int64_t cols)
{
    batch.push_back(rows);
    batch.push_back(cols);
    return batch;
}

} // namespace

class TestGpuLinalgKernels : public QObject {
    Q_OBJECT
private slots:
    void registeredAsTensorFlow()
    {
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        if (!h->kernels().hasKernelFor("MatMul", "GPU"))
            QSKIP("this build has no GPU kernels (no CUDA support compiled in)");
        QStringList failures;
        auto registered = [&](const std::string& text) {
            tensorflow::NodeDef node;
            if (!google::protobuf::TextFormat::ParseFromString(text, &node))
                qFatal("bad node %s", text.c_str());
            node.set_name("n");
            auto found = h->kernels().find(node, "GPU");
            if (found && !(*found)->def.hostMemoryArgs.empty())
                failures << QString::fromStdString("host-memory args on " + text);
            return static_cast<bool>(found);
        };
        for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
            if (!registered(matMulNode(type, false, true)))
                failures << "MatMul " + QString::fromStdString(tensorflow::DataType_Name(type));
            for (const char* op : {"BatchMatMul", "BatchMatMulV2"}) {
                if (!registered(batchNode(op, type, true, false)))
                    failures << QString(op) + " " + QString::fromStdString(tensorflow::DataType_Name(type));
            }
        }
        // Integer products and (here) complex ones stay on the CPU.
        for (DataType type : {DT_INT32, DT_COMPLEX64}) {
            if (registered(matMulNode(type, false, false)) ||
                registered(batchNode("BatchMatMulV2", type, false, false)))
                failures << "unexpected GPU kernel for " + QString::fromStdString(tensorflow::DataType_Name(type));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void matMulMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(21);
        QStringList failures;
        struct Dims {
            std::int64_t m, k, n;
        };
        const std::vector<Dims> sizes{{1, 1, 1},      {7, 13, 5}, {64, 128, 32}, {1000, 3, 2}, {3, 1000, 4},
                                      {257, 65, 129}, {0, 5, 3},  {4, 0, 3},     {5, 3, 0},    {1, 4096, 1}};
        for (const Dims& d : sizes) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
                if (type == DT_HALF && d.k > 128)
                    continue; // the CPU's half accumulation drifts too far from float over long sums
                const Tolerance tol = tolerance(type, d.k);
                for (bool ta : {false, true}) {
                    for (bool tb : {false, true}) {
                        const Tensor a = randomTensor(h.allocator(), type,
                                                      ta ? TensorShape{d.k, d.m} : TensorShape{d.m, d.k}, random);
                        const Tensor b = randomTensor(h.allocator(), type,
                                                      tb ? TensorShape{d.n, d.k} : TensorShape{d.k, d.n}, random);
                        addFailure(failures, h.compareWithCpu(matMulNode(type, ta, tb), {a, b}, tol.rtol, tol.atol));
                    }
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void batchMatMulMatchesCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(22);
        QStringList failures;
        struct Case {
            std::vector<std::int64_t> xBatch, yBatch;
            std::int64_t m, k, n;
            bool v2Only;
        };
        const std::vector<Case> cases{
            {{}, {}, 4, 5, 6, false},           // no batch dimensions: one product
            {{2, 3}, {2, 3}, 4, 5, 6, false},   // whole batches: strided
            {{0, 2}, {0, 2}, 3, 4, 5, false},   // empty batch
            {{3}, {3}, 7, 0, 2, false},         // empty sums: zeros
            {{5}, {5}, 1, 300, 1, false},       // long dot products
            {{}, {2, 3}, 4, 5, 6, true},        // x one matrix for all: stride 0
            {{2, 3}, {}, 4, 5, 6, true},        // y one matrix for all
            {{1}, {7}, 4, 5, 6, true},          // x broadcast along a size-1 dimension
            {{2, 1}, {1, 3}, 4, 5, 6, true},    // both broadcast: pointer arrays
            {{3, 1, 2}, {4, 1}, 3, 2, 5, true}, // mixed ranks: pointer arrays
            {{2, 1, 1, 1, 1, 1, 1, 1, 2}, {1, 2, 1, 1, 1, 1, 1, 1, 1}, 3, 4, 2, true}, // rank 9: one call each
        };
        for (const Case& c : cases) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF}) {
                const Tolerance tol = tolerance(type, c.k);
                for (bool adjX : {false, true}) {
                    for (bool adjY : {false, true}) {
                        const Tensor x =
                            randomTensor(h.allocator(), type,
                                         TensorShape(withMatrix(c.xBatch, adjX ? c.k : c.m, adjX ? c.m : c.k)), random);
                        const Tensor y =
                            randomTensor(h.allocator(), type,
                                         TensorShape(withMatrix(c.yBatch, adjY ? c.n : c.k, adjY ? c.k : c.n)), random);
                        for (const char* op : {"BatchMatMul", "BatchMatMulV2"}) {
                            if (c.v2Only && op == std::string("BatchMatMul"))
                                continue;
                            addFailure(failures,
                                       h.compareWithCpu(batchNode(op, type, adjX, adjY), {x, y}, tol.rtol, tol.atol));
                        }
                    }
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void badShapesFailOnBothDevices()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(23);
        QStringList failures;
        auto t = [&](std::vector<std::int64_t> dims) {
            return randomTensor(h.allocator(), DT_FLOAT, TensorShape(std::move(dims)), random);
        };
        auto check = [&](const std::string& node, const std::vector<Tensor>& inputs) {
            addFailure(failures, h.compareWithCpu(node, inputs, 0, 0, /*sameErrorOk=*/true));
            if (h.runOnGpu(node, inputs))
                failures << QString::fromStdString("GPU accepted " + node);
        };
        check(matMulNode(DT_FLOAT, false, false), {t({2, 3}), t({4, 5})});
        check(matMulNode(DT_FLOAT, true, false), {t({2, 3}), t({3, 2})}); // a^T is 3x2: 2 vs 3
        check(matMulNode(DT_FLOAT, false, false), {t({2, 3, 1}), t({3, 5})});
        check(batchNode("BatchMatMul", DT_FLOAT, false, false), {t({2, 3, 4}), t({4, 5})});
        check(batchNode("BatchMatMul", DT_FLOAT, false, false), {t({2, 3, 4}), t({3, 4, 5})});
        check(batchNode("BatchMatMulV2", DT_FLOAT, false, false), {t({2, 3, 4}), t({3, 4, 5})});
        check(batchNode("BatchMatMulV2", DT_FLOAT, false, true), {t({2, 3, 4}), t({2, 4, 5})});
        check(batchNode("BatchMatMulV2", DT_FLOAT, false, false), {t({4}), t({4, 5})});
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestGpuLinalgKernels)
#include "test_gpu_linalg_kernels.moc"
