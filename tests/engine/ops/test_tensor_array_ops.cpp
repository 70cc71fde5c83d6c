// Tests of the TensorArray op family: registrations, OpDefs against TensorFlow 1.15's (written here
// from its data_flow_ops.cc, as no fixture stores them), and the shape functions one case per line.
#include "framework/op_registry.h"
#include "ops/ops.h"

#include "op_family_checks.h"
#include "shape_fn_testing.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestTensorArrayOps : public QObject {
    Q_OBJECT

private:
    OpRegistry m_registry;

private slots:
    void initTestCase() { QVERIFY(registerTensorArrayOps(m_registry).isOk()); }

    void everyOpIsRegisteredWithCategoryAndShapeFunction()
    {
        const QString problems = checkFamilyRegistrations(
            m_registry,
            {"TensorArrayV3", "TensorArrayGradV3", "TensorArrayGradWithShape", "TensorArrayWriteV3",
             "TensorArrayReadV3", "TensorArrayGatherV3", "TensorArrayScatterV3", "TensorArrayConcatV3",
             "TensorArraySplitV3", "TensorArraySizeV3", "TensorArrayCloseV3"},
            op_category::kState);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void opDefsAreTensorFlows()
    {
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayV3"
            input_arg { name: "size" type: DT_INT32 }
            output_arg { name: "handle" type: DT_RESOURCE }
            output_arg { name: "flow" type: DT_FLOAT }
            attr { name: "dtype" type: "type" }
            attr { name: "element_shape" type: "shape" default_value { shape { unknown_rank: true } } }
            attr { name: "dynamic_size" type: "bool" default_value { b: false } }
            attr { name: "clear_after_read" type: "bool" default_value { b: true } }
            attr { name: "identical_element_shapes" type: "bool" default_value { b: false } }
            attr { name: "tensor_array_name" type: "string" default_value { s: "" } }
            is_stateful: true
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayGradV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "grad_handle" type: DT_RESOURCE }
            output_arg { name: "flow_out" type: DT_FLOAT }
            attr { name: "source" type: "string" }
            is_stateful: true
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayGradWithShape"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "flow_in" type: DT_FLOAT }
            input_arg { name: "shape_to_prepend" type: DT_INT32 }
            output_arg { name: "grad_handle" type: DT_RESOURCE }
            output_arg { name: "flow_out" type: DT_FLOAT }
            attr { name: "source" type: "string" }
            is_stateful: true
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayWriteV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "index" type: DT_INT32 }
            input_arg { name: "value" type_attr: "T" }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "flow_out" type: DT_FLOAT }
            attr { name: "T" type: "type" }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayReadV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "index" type: DT_INT32 }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "value" type_attr: "dtype" }
            attr { name: "dtype" type: "type" }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayGatherV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "indices" type: DT_INT32 }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "value" type_attr: "dtype" }
            attr { name: "dtype" type: "type" }
            attr { name: "element_shape" type: "shape" default_value { shape { unknown_rank: true } } }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayScatterV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "indices" type: DT_INT32 }
            input_arg { name: "value" type_attr: "T" }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "flow_out" type: DT_FLOAT }
            attr { name: "T" type: "type" }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayConcatV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "value" type_attr: "dtype" }
            output_arg { name: "lengths" type: DT_INT64 }
            attr { name: "dtype" type: "type" }
            attr {
                name: "element_shape_except0"
                type: "shape"
                default_value { shape { unknown_rank: true } }
            }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArraySplitV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "value" type_attr: "T" }
            input_arg { name: "lengths" type: DT_INT64 }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "flow_out" type: DT_FLOAT }
            attr { name: "T" type: "type" }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArraySizeV3"
            input_arg { name: "handle" type: DT_RESOURCE }
            input_arg { name: "flow_in" type: DT_FLOAT }
            output_arg { name: "size" type: DT_INT32 }
        )pb");
        COMPARE_OPDEF(m_registry, R"pb(
            name: "TensorArrayCloseV3"
            input_arg { name: "handle" type: DT_RESOURCE }
        )pb");
    }

    void creationShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "TensorArrayV3", "dtype=float", "[]", "[2];[]");
        INFER_OK(r, "TensorArrayV3", "dtype=float;element_shape=[2,?]", "?", "[2];[]");
        INFER_ERROR(r, "Shape must be rank 0 but is rank 1", "TensorArrayV3", "dtype=float", "[3]");
        INFER_OK(r, "TensorArrayGradV3", "source='gradients'", "[2];[]", "[2];[]");
        INFER_OK(r, "TensorArrayGradV3", "source='gradients'", "?;?", "[2];[]");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 0", "TensorArrayGradV3", "source='gradients'", "[];[]");
        INFER_ERROR(r, "Dimension must be 2 but is 3", "TensorArrayGradV3", "source='gradients'", "[3];[]");
        INFER_OK(r, "TensorArrayGradWithShape", "source='gradients'", "[2];[];[1]", "[2];[]");
    }

    void accessShapes()
    {
        const OpRegistry& r = m_registry;
        INFER_OK(r, "TensorArrayWriteV3", "T=float", "[2];[];[3,4];[]", "[]");
        INFER_ERROR(r, "Shape must be rank 0 but is rank 1", "TensorArrayWriteV3", "T=float", "[2];[1];[3];[]");
        INFER_ERROR(r, "Shape must be rank 0 but is rank 1", "TensorArrayWriteV3", "T=float", "[2];[];[3];[1]");
        INFER_ERROR(r, "Dimension must be 2 but is 1", "TensorArrayWriteV3", "T=float", "[1];[];[3];[]");
        INFER_OK(r, "TensorArrayReadV3", "dtype=float", "[2];[];[]", "?");
        INFER_ERROR(r, "Shape must be rank 0 but is rank 1", "TensorArrayReadV3", "dtype=float", "[2];[2];[]");
        // Gather: [len(indices)] + element_shape.
        INFER_OK(r, "TensorArrayGatherV3", "dtype=float;element_shape=[3,?]", "[2];[5];[]", "[5,3,?]");
        INFER_OK(r, "TensorArrayGatherV3", "dtype=float", "[2];[?];[]", "?");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 0", "TensorArrayGatherV3", "dtype=float", "[2];[];[]");
        // Scatter: value's first dimension must be len(indices).
        INFER_OK(r, "TensorArrayScatterV3", "T=float", "[2];[4];[4,3];[]", "[]");
        INFER_OK(r, "TensorArrayScatterV3", "T=float", "[2];[?];?;[]", "[]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "TensorArrayScatterV3", "T=float",
                    "[2];[4];[3,3];[]");
        INFER_OK(r, "TensorArrayConcatV3", "dtype=float", "[2];[]", "?;[?]");
        INFER_OK(r, "TensorArraySplitV3", "T=float", "[2];[6,2];[3];[]", "[]");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 0", "TensorArraySplitV3", "T=float", "[2];[6,2];[];[]");
        INFER_OK(r, "TensorArraySizeV3", "", "[2];[]", "[]");
        INFER_OK(r, "TensorArrayCloseV3", "", "[2]", "");
        INFER_ERROR(r, "Dimension must be 2 but is 4", "TensorArrayCloseV3", "", "[4]");
    }
};

QTEST_GUILESS_MAIN(TestTensorArrayOps)
#include "test_tensor_array_ops.moc"
