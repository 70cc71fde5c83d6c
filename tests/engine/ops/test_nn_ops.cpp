// Tests of the NN op family: registrations, OpDefs against TensorFlow's (fixtures and TensorFlow
// 1.15 facts), and the shape functions one case per line (Conv2D and pooling with SAME, VALID and
// EXPLICIT padding, strides, dilations and NCHW; bias add; batch norm; losses; activations).
#include "framework/op_registry.h"
#include "ops/nn_shape_fns.h"
#include "ops/ops.h"

#include "fixture_ops.h"
#include "op_family_checks.h"
#include "shape_fn_testing.h"

#include <google/protobuf/text_format.h>

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestNnOps : public QObject {
    Q_OBJECT

private:
    OpRegistry m_registry;

private slots:
    void initTestCase() { QVERIFY(registerNnOps(m_registry).isOk()); }

    void everyOpIsRegisteredWithCategoryAndShapeFunction()
    {
        const std::vector<std::string> names = {"Relu",
                                                "Relu6",
                                                "Elu",
                                                "Selu",
                                                "LeakyRelu",
                                                "Softplus",
                                                "Softsign",
                                                "ReluGrad",
                                                "Relu6Grad",
                                                "EluGrad",
                                                "SeluGrad",
                                                "LeakyReluGrad",
                                                "SoftplusGrad",
                                                "SoftsignGrad",
                                                "Softmax",
                                                "LogSoftmax",
                                                "BiasAdd",
                                                "BiasAddV1",
                                                "BiasAddGrad",
                                                "FusedBatchNorm",
                                                "FusedBatchNormV2",
                                                "FusedBatchNormV3",
                                                "FusedBatchNormGrad",
                                                "FusedBatchNormGradV2",
                                                "FusedBatchNormGradV3",
                                                "LRN",
                                                "LRNGrad",
                                                "SoftmaxCrossEntropyWithLogits",
                                                "SparseSoftmaxCrossEntropyWithLogits",
                                                "L2Loss",
                                                "InTopK",
                                                "InTopKV2",
                                                "Conv2D",
                                                "Conv2DBackpropInput",
                                                "Conv2DBackpropFilter",
                                                "_FusedConv2D",
                                                "DepthwiseConv2dNative",
                                                "DepthwiseConv2dNativeBackpropInput",
                                                "DepthwiseConv2dNativeBackpropFilter",
                                                "MaxPool",
                                                "AvgPool",
                                                "MaxPoolGrad",
                                                "MaxPoolGradGrad",
                                                "AvgPoolGrad"};
        const QString problems = checkFamilyRegistrations(m_registry, names, op_category::kNN);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // Registering twice is refused, not silently duplicated.
        QCOMPARE(registerNnOps(m_registry).code(), StatusCode::kAlreadyExists);
    }

    void opDefsMatchTheFixtures()
    {
        std::set<std::string> compared;
        QString skipReason;
        const QString problems = compareWithFixtureOpDefs(m_registry, &compared, &skipReason);
        if (!skipReason.isEmpty())
            QSKIP(qPrintable(skipReason));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // The TF 1.3 MNIST model stores these four.
        for (const char* name : {"L2Loss", "Relu", "ReluGrad", "SparseSoftmaxCrossEntropyWithLogits"})
            QVERIFY2(compared.count(std::string(name) + " (1.3.0)") == 1, name);
    }

    void fixtureGraphNodesValidate()
    {
        std::set<std::string> seen;
        QString skipReason;
        const QString problems = validateFixtureNodes(m_registry, &seen, &skipReason);
        if (!skipReason.isEmpty())
            QSKIP(qPrintable(skipReason));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        for (const char* name : {"Relu", "BiasAdd", "ReluGrad", "L2Loss", "SparseSoftmaxCrossEntropyWithLogits"})
            QVERIFY2(seen.count(name) == 1, name);
    }

    void opDefsMatchTensorFlow115()
    {
        // TensorFlow 1.15's OpDefs as its ops_history records them.
        COMPARE_OPDEF(m_registry, R"pb(
            name: "Conv2D"
            input_arg { name: "input" type_attr: "T" }
            input_arg { name: "filter" type_attr: "T" }
            output_arg { name: "output" type_attr: "T" }
            attr { name: "T" type: "type" allowed_values { list { type: [ DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE ] } } }
            attr { name: "strides" type: "list(int)" }
            attr { name: "use_cudnn_on_gpu" type: "bool" default_value { b: true } }
            attr { name: "padding" type: "string" allowed_values { list { s: [ "SAME", "VALID", "EXPLICIT" ] } } }
            attr { name: "explicit_paddings" type: "list(int)" default_value { list {} } }
            attr {
              name: "data_format"
              type: "string"
              default_value { s: "NHWC" }
              allowed_values { list { s: [ "NHWC", "NCHW" ] } }
            }
            attr { name: "dilations" type: "list(int)" default_value { list { i: [ 1, 1, 1, 1 ] } } }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "FusedBatchNormV3"
            input_arg { name: "x" type_attr: "T" }
            input_arg { name: "scale" type_attr: "U" }
            input_arg { name: "offset" type_attr: "U" }
            input_arg { name: "mean" type_attr: "U" }
            input_arg { name: "variance" type_attr: "U" }
            output_arg { name: "y" type_attr: "T" }
            output_arg { name: "batch_mean" type_attr: "U" }
            output_arg { name: "batch_variance" type_attr: "U" }
            output_arg { name: "reserve_space_1" type_attr: "U" }
            output_arg { name: "reserve_space_2" type_attr: "U" }
            output_arg { name: "reserve_space_3" type_attr: "U" }
            attr { name: "T" type: "type" allowed_values { list { type: [ DT_HALF, DT_BFLOAT16, DT_FLOAT ] } } }
            attr { name: "U" type: "type" allowed_values { list { type: [ DT_FLOAT ] } } }
            attr { name: "epsilon" type: "float" default_value { f: 0.0001 } }
            attr {
              name: "data_format"
              type: "string"
              default_value { s: "NHWC" }
              allowed_values { list { s: [ "NHWC", "NCHW" ] } }
            }
            attr { name: "is_training" type: "bool" default_value { b: true } }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "MaxPool"
            input_arg { name: "input" type_attr: "T" }
            output_arg { name: "output" type_attr: "T" }
            attr {
              name: "T"
              type: "type"
              default_value { type: DT_FLOAT }
              allowed_values {
                list {
                  type: [ DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_INT16, DT_INT8,
                          DT_UINT16, DT_QINT8 ]
                }
              }
            }
            attr { name: "ksize" type: "list(int)" has_minimum: true minimum: 4 }
            attr { name: "strides" type: "list(int)" has_minimum: true minimum: 4 }
            attr { name: "padding" type: "string" allowed_values { list { s: [ "SAME", "VALID" ] } } }
            attr {
              name: "data_format"
              type: "string"
              default_value { s: "NHWC" }
              allowed_values { list { s: [ "NHWC", "NCHW", "NCHW_VECT_C" ] } }
            }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "Relu"
            input_arg { name: "features" type_attr: "T" }
            output_arg { name: "activations" type_attr: "T" }
            attr {
              name: "T"
              type: "type"
              allowed_values {
                list {
                  type: [ DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_BFLOAT16, DT_UINT16,
                          DT_HALF, DT_UINT32, DT_UINT64, DT_QINT8 ]
                }
              }
            }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "LeakyRelu"
            input_arg { name: "features" type_attr: "T" }
            output_arg { name: "activations" type_attr: "T" }
            attr { name: "alpha" type: "float" default_value { f: 0.2 } }
            attr {
              name: "T"
              type: "type"
              default_value { type: DT_FLOAT }
              allowed_values { list { type: [ DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE ] } }
            }
        )pb");
    }

    void windowedOutputSizeArithmetic()
    {
        // formats.md 7.3: VALID (in - k_eff + s) / s, SAME ceil(in / s), EXPLICIT adds the padding.
        QCOMPARE(*windowedOutputSize(5, 3, 1, 1, Padding::kValid), 3);
        QCOMPARE(*windowedOutputSize(5, 3, 1, 2, Padding::kValid), 2);
        QCOMPARE(*windowedOutputSize(7, 3, 1, 2, Padding::kValid), 3);
        QCOMPARE(*windowedOutputSize(7, 3, 2, 1, Padding::kValid), 3);
        QCOMPARE(*windowedOutputSize(5, 3, 1, 2, Padding::kSame), 3);
        QCOMPARE(*windowedOutputSize(6, 3, 1, 2, Padding::kSame), 3);
        QCOMPARE(*windowedOutputSize(5, 3, 1, 1, Padding::kExplicit, 1, 2), 6);
        QCOMPARE(*windowedOutputSize(-1, 3, 1, 1, Padding::kValid), -1);
        QCOMPARE(*windowedOutputSize(5, -1, 1, 1, Padding::kValid), -1);
        QCOMPARE(*windowedOutputSize(-1, 3, 1, 1, Padding::kSame), -1);
        QCOMPARE(windowedOutputSize(2, 3, 1, 1, Padding::kValid).error().message(),
                 std::string("Negative dimension size caused by subtracting 3 from 2"));
        QCOMPARE(windowedOutputSize(5, 3, 1, 0, Padding::kSame).error().message(),
                 std::string("Stride must be > 0, but got 0"));
        QCOMPARE(windowedOutputSize(5, 3, 0, 1, Padding::kValid).error().message(),
                 std::string("Dilation rate must be >= 1, but got 0"));
        QVERIFY(!paddingFromString("FULL"));
    }

    void conv2DShapes()
    {
        const OpRegistry& r = m_registry;
        const char* valid = "strides=[1,1,1,1];padding='VALID'";
        const char* same2 = "strides=[1,2,2,1];padding='SAME'";
        INFER_OK(r, "Conv2D", valid, "[1,5,5,3];[3,3,3,8]", "[1,3,3,8]");
        INFER_OK(r, "Conv2D", "strides=[1,2,2,1];padding='VALID'", "[1,5,5,3];[3,3,3,8]", "[1,2,2,8]");
        INFER_OK(r, "Conv2D", "strides=[1,2,2,1];padding='VALID'", "[1,7,6,3];[3,3,3,8]", "[1,3,2,8]");
        INFER_OK(r, "Conv2D", same2, "[1,5,5,3];[3,3,3,8]", "[1,3,3,8]");
        INFER_OK(r, "Conv2D", same2, "[1,6,7,3];[3,3,3,8]", "[1,3,4,8]");
        INFER_OK(r, "Conv2D", "strides=[1,1,2,1];padding='SAME'", "[1,5,5,3];[1,1,3,8]", "[1,5,3,8]");
        // Dilations widen the window to (k - 1) * d + 1 for VALID; SAME ignores the window.
        INFER_OK(r, "Conv2D", "strides=[1,1,1,1];padding='VALID';dilations=[1,2,2,1]", "[1,7,9,3];[3,3,3,8]",
                 "[1,3,5,8]");
        INFER_OK(r, "Conv2D", "strides=[1,1,1,1];padding='VALID';dilations=[1,2,3,1]", "[1,7,9,3];[3,3,3,8]",
                 "[1,3,3,8]");
        INFER_OK(r, "Conv2D", "strides=[1,2,2,1];padding='VALID';dilations=[1,2,2,1]", "[1,9,9,3];[3,3,3,8]",
                 "[1,3,3,8]");
        INFER_OK(r, "Conv2D", "strides=[1,1,1,1];padding='SAME';dilations=[1,2,2,1]", "[1,7,9,3];[3,3,3,8]",
                 "[1,7,9,8]");
        // NCHW: strides and dilations are indexed N, C, H, W too.
        INFER_OK(r, "Conv2D", "strides=[1,1,2,2];padding='VALID';data_format='NCHW'", "[1,3,5,5];[3,3,3,8]",
                 "[1,8,2,2]");
        INFER_OK(r, "Conv2D", "strides=[1,1,2,2];padding='SAME';data_format='NCHW'", "[4,3,5,6];[3,3,3,8]",
                 "[4,8,3,3]");
        INFER_OK(r, "Conv2D", "strides=[1,1,1,1];padding='VALID';data_format='NCHW';dilations=[1,1,2,2]",
                 "[1,3,7,7];[3,3,3,8]", "[1,8,3,3]");
        // EXPLICIT: pairs per dimension in data_format order.
        INFER_OK(r, "Conv2D", "strides=[1,1,1,1];padding='EXPLICIT';explicit_paddings=[0,0,1,2,3,4,0,0]",
                 "[1,5,5,3];[3,3,3,8]", "[1,6,10,8]");
        INFER_OK(r, "Conv2D",
                 "strides=[1,1,2,2];padding='EXPLICIT';explicit_paddings=[0,0,0,0,1,1,2,2];data_format='NCHW'",
                 "[1,3,5,5];[3,3,3,8]", "[1,8,3,4]");
        // Partial shapes.
        INFER_OK(r, "Conv2D", valid, "[?,5,?,3];[3,3,3,8]", "[?,3,?,8]");
        INFER_OK(r, "Conv2D", valid, "[1,5,5,3];?", "[1,?,?,?]");
        INFER_OK(r, "Conv2D", valid, "?;[3,3,3,8]", "[?,?,?,8]");
        INFER_OK(r, "Conv2D", valid, "[1,5,5,?];[3,?,3,8]", "[1,3,?,8]");
        // Grouped convolution: the input depth is a multiple of the filter's.
        INFER_OK(r, "Conv2D", valid, "[1,5,5,6];[3,3,3,8]", "[1,3,3,8]");

        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "Conv2D", valid, "[1,5,5];[3,3,3,8]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 5", "Conv2D", valid, "[1,5,5,3];[3,3,3,8,1]");
        INFER_ERROR(r, "Depth of input (3) is not a multiple of input depth of filter (4)", "Conv2D", valid,
                    "[1,5,5,3];[3,3,4,8]");
        INFER_ERROR(r, "Depth of output (8) is not a multiple of the number of groups (3)", "Conv2D", valid,
                    "[1,5,5,6];[3,3,2,8]");
        INFER_ERROR(r, "Negative dimension size caused by subtracting 3 from 2", "Conv2D", valid,
                    "[1,2,5,3];[3,3,3,8]");
        INFER_ERROR(r, "Negative dimension size caused by subtracting 5 from 4", "Conv2D",
                    "strides=[1,1,1,1];padding='VALID';dilations=[1,2,2,1]", "[1,4,9,3];[3,3,3,8]");
        // The kernel's arithmetic would give an empty output here (formats.md 7.3), but TensorFlow's
        // shape function subtracts first and rejects it.
        INFER_ERROR(r, "Negative dimension size caused by subtracting 3 from 1", "Conv2D",
                    "strides=[1,3,3,1];padding='VALID'", "[1,1,1,3];[3,3,3,8]");
        INFER_ERROR(r, "Conv2D on data format NHWC requires the stride attribute to contain 4 values, but got: 3",
                    "Conv2D", "strides=[1,1,1];padding='VALID'", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "Conv2D on data format NCHW requires the stride attribute to contain 4 values, but got: 5",
                    "Conv2D", "strides=[1,1,1,1,1];padding='VALID';data_format='NCHW'", "[1,3,5,5];[3,3,3,8]");
        INFER_ERROR(r, "Conv2D requires the dilation attribute to contain 4 values, but got: 2", "Conv2D",
                    "strides=[1,1,1,1];padding='VALID';dilations=[1,1]", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "Stride must be > 0, but got 0", "Conv2D", "strides=[1,0,1,1];padding='VALID'",
                    "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "Dilation rate must be >= 1, but got 0", "Conv2D",
                    "strides=[1,1,1,1];padding='VALID';dilations=[1,0,1,1]", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "explicit_paddings attribute must contain 8 values, but got: 2", "Conv2D",
                    "strides=[1,1,1,1];padding='EXPLICIT';explicit_paddings=[1,1]", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT", "Conv2D",
                    "strides=[1,1,1,1];padding='SAME';explicit_paddings=[0,0,1,1,1,1,0,0]", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "Nonzero explicit padding in the batch or depth dimensions is not supported", "Conv2D",
                    "strides=[1,1,1,1];padding='EXPLICIT';explicit_paddings=[0,0,1,1,1,1,0,1]", "[1,5,5,3];[3,3,3,8]");
        INFER_ERROR(r, "All explicit_paddings must be non-negative", "Conv2D",
                    "strides=[1,1,1,1];padding='EXPLICIT';explicit_paddings=[0,0,-1,1,1,1,0,0]", "[1,5,5,3];[3,3,3,8]");
    }

    void convBackpropShapes()
    {
        const OpRegistry& r = m_registry;
        const char* attrs = "strides=[1,1,1,1];padding='SAME'";
        INFER_OK(r, "Conv2DBackpropInput", attrs, "[4]={1,5,5,3};[3,3,3,8];[1,5,5,8]", "[1,5,5,3]");
        INFER_OK(r, "Conv2DBackpropInput", attrs, "[4];[3,3,3,8];[1,5,5,8]", "[?,?,?,?]");
        INFER_OK(r, "Conv2DBackpropInput", attrs, "[4]={-1,5,5,3};[3,3,3,8];[?,5,5,8]", "[?,5,5,3]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "Conv2DBackpropInput", attrs, "[3]={5,5,3};?;?");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 2", "Conv2DBackpropInput", attrs, "[1,4];?;?");
        INFER_OK(r, "Conv2DBackpropFilter", attrs, "[1,5,5,3];[4]={3,3,3,8};[1,5,5,8]", "[3,3,3,8]");
        INFER_OK(r, "Conv2DBackpropFilter", attrs, "?;?;?", "[?,?,?,?]");
        INFER_OK(r, "DepthwiseConv2dNativeBackpropInput", attrs, "[4]={1,5,5,3};[3,3,3,2];[1,5,5,6]", "[1,5,5,3]");
        INFER_OK(r, "DepthwiseConv2dNativeBackpropFilter", attrs, "[1,5,5,3];[4]={3,3,3,2};[1,5,5,6]", "[3,3,3,2]");
    }

    void depthwiseConv2DShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,1,1,1];padding='VALID'", "[1,5,5,3];[3,3,3,2]", "[1,3,3,6]");
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,2,2,1];padding='SAME'", "[1,5,5,3];[3,3,3,2]", "[1,3,3,6]");
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,1,2,2];padding='SAME';data_format='NCHW'",
                 "[1,3,5,5];[3,3,3,2]", "[1,6,3,3]");
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,1,1,1];padding='VALID'", "[1,5,5,?];[3,3,3,?]", "[1,3,3,?]");
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,1,1,1];padding='VALID'", "[1,5,5,?];[3,3,?,2]", "[1,3,3,?]");
        // As in TensorFlow 1.15, dilations do not enter the output size of this op.
        INFER_OK(r, "DepthwiseConv2dNative", "strides=[1,1,1,1];padding='VALID';dilations=[1,2,2,1]",
                 "[1,5,5,3];[3,3,3,2]", "[1,3,3,6]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "DepthwiseConv2dNative",
                    "strides=[1,1,1,1];padding='VALID'", "[1,5,5,3];[3,3,4,2]");
        INFER_ERROR(r, "DepthwiseConv2D requires the stride attribute to contain 4 values, but got: 2",
                    "DepthwiseConv2dNative", "strides=[1,1];padding='VALID'", "[1,5,5,3];[3,3,3,2]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 2", "DepthwiseConv2dNative",
                    "strides=[1,1,1,1];padding='VALID'", "[1,5,5,3];[3,3]");
    }

    void poolingShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "MaxPool", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[1,5,5,3]", "[1,2,2,3]");
        INFER_OK(r, "MaxPool", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='SAME'", "[1,5,5,3]", "[1,3,3,3]");
        INFER_OK(r, "MaxPool", "ksize=[1,3,3,1];strides=[1,1,1,1];padding='SAME'", "[2,5,7,3]", "[2,5,7,3]");
        INFER_OK(r, "MaxPool", "ksize=[1,3,3,1];strides=[1,2,1,1];padding='VALID'", "[2,8,7,3]", "[2,3,5,3]");
        INFER_OK(r, "MaxPool", "ksize=[1,1,2,2];strides=[1,1,2,2];padding='SAME';data_format='NCHW'", "[1,3,5,5]",
                 "[1,3,3,3]");
        // MaxPool windows the depth too.
        INFER_OK(r, "MaxPool", "ksize=[1,1,1,3];strides=[1,1,1,3];padding='VALID'", "[1,5,5,6]", "[1,5,5,2]");
        INFER_OK(r, "MaxPool", "ksize=[1,1,2,2];strides=[1,1,2,2];padding='VALID';data_format='NCHW_VECT_C'",
                 "[1,2,5,5,4]", "[1,2,2,2,4]");
        INFER_OK(r, "MaxPool", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "?", "[?,?,?,?]");
        INFER_OK(r, "MaxPool", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[?,5,?,3]", "[?,2,?,3]");
        INFER_ERROR(r, "Dimension must be 4 but is 3", "MaxPool",
                    "ksize=[1,1,2,2];strides=[1,1,2,2];padding='VALID';data_format='NCHW_VECT_C'", "[1,2,5,5,3]");
        INFER_ERROR(r, "MaxPool requires the ksize attribute to contain 4 values, but got: 5", "MaxPool",
                    "ksize=[1,2,2,1,1];strides=[1,2,2,1];padding='VALID'", "[1,5,5,3]");
        INFER_ERROR(r, "MaxPool requires the stride attribute to contain 4 values, but got: 5", "MaxPool",
                    "ksize=[1,2,2,1];strides=[1,2,2,1,1];padding='VALID'", "[1,5,5,3]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "MaxPool",
                    "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[5,5,3]");
        INFER_ERROR(r, "Negative dimension size caused by subtracting 3 from 2", "MaxPool",
                    "ksize=[1,3,3,1];strides=[1,1,1,1];padding='VALID'", "[1,2,5,3]");

        INFER_OK(r, "AvgPool", "ksize=[1,3,3,1];strides=[1,2,2,1];padding='VALID'", "[1,5,5,3]", "[1,2,2,3]");
        INFER_OK(r, "AvgPool", "ksize=[1,3,3,1];strides=[1,2,2,1];padding='SAME'", "[1,5,5,3]", "[1,3,3,3]");
        INFER_OK(r, "AvgPool", "ksize=[1,1,3,3];strides=[1,1,2,2];padding='VALID';data_format='NCHW'", "[1,3,7,5]",
                 "[1,3,3,2]");
        // AvgPool keeps the depth whatever ksize says about it.
        INFER_OK(r, "AvgPool", "ksize=[1,1,1,3];strides=[1,1,1,3];padding='VALID'", "[1,5,5,6]", "[1,5,5,6]");
        INFER_ERROR(r, "AvgPool requires the stride attribute to contain 4 values, but got: 5", "AvgPool",
                    "ksize=[1,2,2,1];strides=[1,2,2,1,1];padding='VALID'", "[1,5,5,3]");

        INFER_OK(r, "MaxPoolGrad", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[1,4,4,3];[1,2,2,3];[1,2,2,3]",
                 "[1,4,4,3]");
        INFER_OK(r, "MaxPoolGrad", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "?;?;?", "[?,?,?,?]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "MaxPoolGrad",
                    "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[4,4,3];?;?");
        INFER_OK(r, "AvgPoolGrad", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[4]={1,4,4,3};[1,2,2,3]",
                 "[1,4,4,3]");
        INFER_OK(r, "AvgPoolGrad", "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[4];[1,2,2,3]", "[?,?,?,?]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 2", "AvgPoolGrad",
                    "ksize=[1,2,2,1];strides=[1,2,2,1];padding='VALID'", "[2]={4,3};[1,2,2,3]");
    }

    void biasAddShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "BiasAdd", "", "[2,3];[3]", "[2,3]");
        INFER_OK(r, "BiasAdd", "", "[2,?];[3]", "[2,3]");
        INFER_OK(r, "BiasAdd", "", "[2,4,4,?];[?]", "[2,4,4,?]");
        INFER_OK(r, "BiasAdd", "", "?;[3]", "?");
        INFER_OK(r, "BiasAdd", "data_format='NCHW'", "[2,3,4,5];[3]", "[2,3,4,5]");
        INFER_OK(r, "BiasAdd", "data_format='NCHW'", "[2,?,4,5];[3]", "[2,3,4,5]");
        INFER_OK(r, "BiasAdd", "data_format='NCHW'", "[2,?,4];[3]", "[2,3,4]");
        INFER_OK(r, "BiasAdd", "data_format='NCHW'", "[2,?,4,5,6];[3]", "[2,3,4,5,6]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "BiasAdd", "", "[2,3];[4]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 5", "BiasAdd", "data_format='NCHW'", "[2,3,4,5];[5]");
        INFER_ERROR(r, "Shape must be at least rank 2 but is rank 1", "BiasAdd", "", "[3];[3]");
        INFER_ERROR(r, "Shape must be at least rank 3 but is rank 2", "BiasAdd", "data_format='NCHW'", "[2,3];[3]");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 2", "BiasAdd", "", "[2,3];[1,3]");
        INFER_OK(r, "BiasAddV1", "", "[2,?];[3]", "[2,3]");
        INFER_OK(r, "BiasAddGrad", "", "[2,3,4]", "[4]");
        INFER_OK(r, "BiasAddGrad", "data_format='NCHW'", "[2,3,4,5]", "[3]");
        INFER_OK(r, "BiasAddGrad", "", "?", "[?]");
        INFER_ERROR(r, "Shape must be at least rank 2 but is rank 1", "BiasAddGrad", "", "[4]");
    }

    void batchNormShapes()
    {
        const OpRegistry& r = m_registry;
        // Training: the population mean and variance inputs are not checked (they may be empty).
        INFER_OK(r, "FusedBatchNorm", "", "[2,4,4,3];[3];[3];[0];[0]", "[2,4,4,3];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNorm", "", "[2,4,4,?];[?];[3];[];[]", "[2,4,4,3];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNorm", "is_training=false", "[2,4,4,?];[?];[?];[?];[3]", "[2,4,4,3];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNorm", "data_format='NCHW'", "[2,3,4,4];[3];[3];[];[]", "[2,3,4,4];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNormV2", "", "?;[3];[3];?;?", "[?,?,?,3];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNormV3", "", "[2,4,4,3];[3];[3];[0];[0]", "[2,4,4,3];[3];[3];[3];[3];?");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 0", "FusedBatchNorm", "is_training=false",
                    "[2,4,4,3];[3];[3];[];[3]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "FusedBatchNorm", "", "[2,4,4,3];[4];[3];[];[]");
        INFER_ERROR(r, "Dimensions must be equal, but are 4 and 3", "FusedBatchNormV3", "data_format='NCHW'",
                    "[2,4,4,3];[3];[3];[];[]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "FusedBatchNorm", "", "[4,4,3];[3];[3];[];[]");

        INFER_OK(r, "FusedBatchNormGrad", "", "[2,4,4,3];[2,4,4,3];[3];[3];[3]", "[2,4,4,3];[3];[3];[0];[0]");
        INFER_OK(r, "FusedBatchNormGrad", "is_training=false", "[2,4,4,?];[2,4,4,3];[3];[3];[3]",
                 "[2,4,4,3];[3];[3];[3];[3]");
        INFER_OK(r, "FusedBatchNormGradV2", "data_format='NCHW'", "[2,?,4,4];?;[3];[?];[?]",
                 "[2,3,4,4];[3];[3];[0];[0]");
        INFER_OK(r, "FusedBatchNormGradV3", "", "[2,4,4,3];[2,4,4,3];[3];[3];[3];[7]", "[2,4,4,3];[3];[3];[0];[0]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 5", "FusedBatchNormGrad", "",
                    "[2,4,4,3];[2,4,4,5];[3];[3];[3]");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 2", "FusedBatchNormGradV2", "",
                    "[2,4,4,3];[2,4,4,3];[3];[3,1];[3]");
    }

    void lossShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "SoftmaxCrossEntropyWithLogits", "", "[2,3];[2,3]", "[2];[2,3]");
        INFER_OK(r, "SoftmaxCrossEntropyWithLogits", "", "[?,3];[2,?]", "[2];[2,3]");
        INFER_OK(r, "SoftmaxCrossEntropyWithLogits", "", "?;[2,3]", "[2];[2,3]");
        // Labels that broadcast against the logits.
        INFER_OK(r, "SoftmaxCrossEntropyWithLogits", "", "[2,3];[3]", "[2];[2,3]");
        INFER_OK(r, "SoftmaxCrossEntropyWithLogits", "", "[2,3];[1,3]", "[2];[2,3]");
        INFER_ERROR(r, "Shape must be broadcasted with rank 2, but is rank 1", "SoftmaxCrossEntropyWithLogits", "",
                    "[3];[3]");
        INFER_ERROR(r, "Shape must be broadcasted with rank 2, but is rank is unknown.",
                    "SoftmaxCrossEntropyWithLogits", "", "?;[3]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "SoftmaxCrossEntropyWithLogits", "", "[2,3];[2,4]");

        INFER_OK(r, "SparseSoftmaxCrossEntropyWithLogits", "", "[2,3];[2]", "[2];[2,3]");
        INFER_OK(r, "SparseSoftmaxCrossEntropyWithLogits", "", "[?,3];[2]", "[2];[2,3]");
        INFER_OK(r, "SparseSoftmaxCrossEntropyWithLogits", "", "?;?", "[?];[?,?]");
        INFER_ERROR(r, "Dimensions must be equal, but are 2 and 3", "SparseSoftmaxCrossEntropyWithLogits", "",
                    "[2,3];[3]");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 2", "SparseSoftmaxCrossEntropyWithLogits", "", "[2,3];[2,1]");
        INFER_ERROR(r, "Shape must be rank 2 but is rank 3", "SparseSoftmaxCrossEntropyWithLogits", "", "[2,3,4];[2]");

        INFER_OK(r, "L2Loss", "", "[2,3]", "[]");
        INFER_OK(r, "L2Loss", "", "?", "[]");

        INFER_OK(r, "InTopK", "k=1", "[4,10];[4]", "[4]");
        INFER_OK(r, "InTopK", "k=1", "[?,10];?", "[?]");
        INFER_ERROR(r, "Dimensions must be equal, but are 4 and 3", "InTopK", "k=1", "[4,10];[3]");
        INFER_ERROR(r, "Shape must be rank 2 but is rank 1", "InTopK", "k=1", "[4];[4]");
        INFER_OK(r, "InTopKV2", "", "[4,10];[?];[]", "[4]");
    }

    void activationAndNormalizationShapes()
    {
        const OpRegistry& r = m_registry;
        for (const char* op : {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign"}) {
            INFER_OK(r, op, "", "[2,?,3]", "[2,?,3]");
            INFER_OK(r, op, "", "?", "?");
        }
        for (const char* op :
             {"ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "LeakyReluGrad", "SoftplusGrad", "SoftsignGrad"}) {
            INFER_OK(r, op, "", "[2,?];[?,3]", "[2,3]");
            INFER_OK(r, op, "", "?;[4]", "[4]");
            INFER_ERROR(r, "Dimension 1 in both shapes must be equal, but are 3 and 4", op, "", "[2,3];[2,4]");
            INFER_ERROR(r, "Shapes must be equal rank, but are 2 and 1", op, "", "[2,3];[3]");
        }
        INFER_OK(r, "Softmax", "", "[2,3]", "[2,3]");
        INFER_OK(r, "LogSoftmax", "", "[5]", "[5]");
        INFER_ERROR(r, "Shape must be at least rank 1 but is rank 0", "Softmax", "", "[]");
        INFER_OK(r, "LRN", "", "[1,2,3,4]", "[1,2,3,4]");
        INFER_OK(r, "LRN", "", "?", "[?,?,?,?]");
        INFER_ERROR(r, "Shape must be rank 4 but is rank 3", "LRN", "", "[1,2,3]");
        INFER_OK(r, "LRNGrad", "", "[1,2,3,?];[1,2,?,4];[?,2,3,4]", "[1,2,3,4]");
        INFER_ERROR(r, "Dimension 3 in both shapes must be equal, but are 4 and 5", "LRNGrad", "",
                    "[1,2,3,4];[1,2,3,4];[1,2,3,5]");
    }
};

QTEST_GUILESS_MAIN(TestNnOps)
#include "test_nn_ops.moc"
