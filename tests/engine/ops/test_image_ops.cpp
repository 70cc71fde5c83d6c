// Tests of the image op family (ResizeBilinear, ResizeNearestNeighbor and their *Grad ops, ResizeBicubic, ResizeArea):
// registrations, OpDefs against TensorFlow 1.15's, and the shape functions one case per line.
#include "framework/op_registry.h"
#include "registries/register_all_ops.h"

#include "op_family_checks.h"
#include "shape_fn_testing.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestImageOps : public QObject {
    Q_OBJECT

private:
    OpRegistry m_registry;

private slots:
    void initTestCase() { QVERIFY(registerImageOps(m_registry).isOk()); }

    void everyOpIsRegisteredWithCategoryAndShapeFunction()
    {
        const QString problems = checkFamilyRegistrations(
            m_registry,
            {"ResizeBilinear", "ResizeBilinearGrad", "ResizeNearestNeighbor", "ResizeNearestNeighborGrad", "ResizeBicubic",
             "ResizeArea", "Resampler", "ResamplerGrad"},
            op_category::kNN);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QCOMPARE(registerImageOps(m_registry).code(), StatusCode::kAlreadyExists);
    }

    void opDefsMatchTensorFlow115()
    {
        // TensorFlow 1.15's OpDefs (core/ops/image_ops.cc).
        const std::string flags = "attr { name: 'align_corners' type: 'bool' default_value { b: false } } "
                                  "attr { name: 'half_pixel_centers' type: 'bool' default_value { b: false } }";
        COMPARE_OPDEF(m_registry, "name: 'ResizeBilinear' input_arg { name: 'images' type_attr: 'T' } "
                                  "input_arg { name: 'size' type: DT_INT32 } "
                                  "output_arg { name: 'resized_images' type: DT_FLOAT } "
                                  "attr { name: 'T' type: 'type' allowed_values { list { type: [DT_INT8, DT_UINT8, "
                                  "DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_BFLOAT16, DT_HALF, DT_FLOAT, "
                                  "DT_DOUBLE] } } } " +
                                      flags);
        COMPARE_OPDEF(m_registry, "name: 'ResizeBilinearGrad' input_arg { name: 'grads' type: DT_FLOAT } "
                                  "input_arg { name: 'original_image' type_attr: 'T' } "
                                  "output_arg { name: 'output' type_attr: 'T' } "
                                  "attr { name: 'T' type: 'type' allowed_values { list { type: [DT_FLOAT, "
                                  "DT_BFLOAT16, DT_HALF, DT_DOUBLE] } } } " +
                                      flags);
        COMPARE_OPDEF(m_registry, "name: 'ResizeNearestNeighbor' input_arg { name: 'images' type_attr: 'T' } "
                                  "input_arg { name: 'size' type: DT_INT32 } "
                                  "output_arg { name: 'resized_images' type_attr: 'T' } "
                                  "attr { name: 'T' type: 'type' allowed_values { list { type: [DT_INT8, DT_UINT8, "
                                  "DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_HALF, DT_FLOAT, DT_DOUBLE] } } } " +
                                      flags);
        COMPARE_OPDEF(m_registry, "name: 'ResizeNearestNeighborGrad' input_arg { name: 'grads' type_attr: 'T' } "
                                  "input_arg { name: 'size' type: DT_INT32 } "
                                  "output_arg { name: 'output' type_attr: 'T' } "
                                  "attr { name: 'T' type: 'type' allowed_values { list { type: [DT_UINT8, DT_INT8, "
                                  "DT_INT32, DT_HALF, DT_FLOAT, DT_DOUBLE] } } } " +
                                      flags);
    }

    void resizeShapes()
    {
        for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
            INFER_OK(m_registry, op, "", "[2,3,4,5];[2]={7,9}", "[2,7,9,5]");
            INFER_OK(m_registry, op, "", "[2,3,4,5];[2]", "[2,?,?,5]");
            INFER_OK(m_registry, op, "", "[?,3,4,?];?", "[?,?,?,?]");
            INFER_OK(m_registry, op, "", "?;[2]={1,1}", "[?,1,1,?]");
            INFER_ERROR(m_registry, "Shape must be rank 4 but is rank 3", op, "", "[3,4,5];[2]");
            INFER_ERROR(m_registry, "Shape must be rank 1 but is rank 2", op, "", "[1,3,4,5];[1,2]");
            INFER_ERROR(m_registry, "must be 2", op, "", "[1,3,4,5];[3]");
        }
        INFER_OK(m_registry, "ResizeNearestNeighborGrad", "", "[2,7,9,5];[2]={3,4}", "[2,3,4,5]");
        INFER_OK(m_registry, "ResizeNearestNeighborGrad", "", "[2,7,9,5];[2]", "[2,?,?,5]");
        INFER_ERROR(m_registry, "Shape must be rank 4 but is rank 2", "ResizeNearestNeighborGrad", "", "[7,9];[2]");
        INFER_OK(m_registry, "ResizeBilinearGrad", "", "[2,7,9,5];[2,3,4,5]", "[2,3,4,5]");
        INFER_OK(m_registry, "ResizeBilinearGrad", "", "[2,7,9,5];?", "?");
    }
};

QTEST_GUILESS_MAIN(TestImageOps)
#include "test_image_ops.moc"
