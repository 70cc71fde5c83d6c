// _FusedConv2D (kernels/nn/fused_conv2d.h), the op Grappler's remapper makes: NumPy's values for
// every epilogue (BiasAdd, FusedBatchNorm, then none, Relu, Relu6 or Elu) on float and double, and
// TensorFlow's errors (tools/golden/fused_ops.py); the oneDNN path (bias and Relu inside the
// primitive) and the im2col path give the same values; the OpDef's shape function.
#include "devices/cpu/cpu_device.h"
#include "framework/op_registry.h"
#include "kernels/kernels.h"
#include "kernels/nn/conv2d_dnnl.h"
#include "ops/ops.h"

#include "kernel_harness.h"
#include "random_values.h"

#include <QTest>

#include <vector>

using namespace tstudio;
using namespace tstudio::testing;


class TestFusedConv2D : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = KernelHarness::createOrWarn({registerNnOps}, {registerNnCpuKernels});
        const QString failures = goldenFailures(h.get(), "fused_ops.json", CaseCount::exactly(55));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    /// LeNet's second convolution with its bias and Relu: oneDNN's fused primitive and the
    /// im2col product with the bias and Relu passes after it agree (the same sums in another order).
    void dnnlAndIm2colAgree()
    {
        if (!nn::dnnlConvCompiledIn())
            QSKIP("this build has no oneDNN (the im2col path alone is covered by the golden cases)");
        auto h = KernelHarness::createOrWarn({registerNnOps}, {registerNnCpuKernels});
        QVERIFY(h);
        CpuAllocator allocator;
        const Tensor x = tensor<float>(allocator, TensorShape{4, 14, 14, 32}, randomFloats(4 * 14 * 14 * 32, 1));
        const Tensor w = tensor<float>(allocator, TensorShape{5, 5, 32, 64}, randomFloats(5 * 5 * 32 * 64, 2));
        const Tensor b = tensor<float>(allocator, TensorShape{64}, randomFloats(64, 3));
        const std::string node = "op: '_FusedConv2D' attr { key: 'T' value { type: DT_FLOAT } } "
                                 "attr { key: 'num_args' value { i: 1 } } "
                                 "attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } } "
                                 "attr { key: 'padding' value { s: 'SAME' } } "
                                 "attr { key: 'fused_ops' value { list { s: 'BiasAdd' s: 'Relu' } } }";
        auto fused = h->run(node, {x, w, b});
        QVERIFY2(fused, fused ? "" : fused.error().toString().c_str());
        nn::setDnnlConvEnabled(false);
        auto plain = h->run(node, {x, w, b});
        nn::setDnnlConvEnabled(true);
        QVERIFY2(plain, plain ? "" : plain.error().toString().c_str());
        const std::string difference = compareTensors((*fused)[0], (*plain)[0], 1e-4, 1e-4);
        QVERIFY2(difference.empty(), difference.c_str());
        // Relu ran: nothing negative, and some outputs are exactly zero.
        const auto values = (*fused)[0].values<float>();
        QVERIFY(std::none_of(values.begin(), values.end(), [](float v) { return v < 0; }));
        QVERIFY(std::any_of(values.begin(), values.end(), [](float v) { return v == 0; }));
    }

    /// The op is registered as TensorFlow 1.15 defines it, hidden from the palette (its name starts
    /// with '_'), with Conv2D's shape function.
    void opDefinition()
    {
        OpRegistry ops;
        QVERIFY(registerNnOps(ops).isOk());
        const OpRegistration* op = ops.find("_FusedConv2D");
        QVERIFY(op);
        QCOMPARE(op->opDef.input_arg_size(), 3);
        QCOMPARE(op->opDef.input_arg(2).number_attr(), std::string("num_args"));
        std::vector<std::string> attrs;
        for (const auto& a : op->opDef.attr())
            attrs.push_back(a.name());
        const std::vector<std::string> expected{"T", "num_args", "strides", "padding", "explicit_paddings",
                                                "data_format", "dilations", "use_cudnn_on_gpu", "fused_ops",
                                                "epsilon"};
        QCOMPARE(attrs, expected);
        QVERIFY(static_cast<bool>(op->shapeFunction));
    }
};

QTEST_GUILESS_MAIN(TestFusedConv2D)
#include "test_fused_conv2d.moc"
