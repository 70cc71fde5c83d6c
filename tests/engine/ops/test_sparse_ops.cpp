// Tests of the sparse op family: the registered set with each op's category, SparseToDense's OpDef
// against TensorFlow 1.15's, and its shape function one case per line.
#include "framework/op_registry.h"
#include "registries/register_all_ops.h"

#include "op_family_checks.h"
#include "shape_fn_testing.h"

#include <QTest>

#include <map>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

class TestSparseOps : public QObject {
    Q_OBJECT

private:
    OpRegistry m_registry;

private slots:
    void initTestCase() { QVERIFY(registerSparseOps(m_registry).isOk()); }

    void registrationAndOpDef()
    {
        const std::vector<std::string> arrayOps = {
            "SparseToDense", "SparseReshape",   "SparseReorder",       "SparseConcat",
            "SparseSlice",   "SparseSliceGrad", "SparseFillEmptyRows", "SparseFillEmptyRowsGrad"};
        const std::vector<std::string> mathOps = {"SparseAdd",
                                                  "SparseAddGrad",
                                                  "SparseTensorDenseAdd",
                                                  "SparseTensorDenseMatMul",
                                                  "SparseSegmentSum",
                                                  "SparseSegmentSumWithNumSegments",
                                                  "SparseSegmentMean",
                                                  "SparseSegmentMeanWithNumSegments",
                                                  "SparseSegmentMeanGrad",
                                                  "SparseSegmentSqrtN",
                                                  "SparseSegmentSqrtNWithNumSegments",
                                                  "SparseSegmentSqrtNGrad",
                                                  "SegmentSum"};
        std::vector<std::string> names = arrayOps;
        std::map<std::string, std::string> mathCategory;
        for (const std::string& name : mathOps) {
            names.push_back(name);
            mathCategory[name] = op_category::kMath;
        }
        const QString problems = checkFamilyRegistrations(m_registry, names, op_category::kArray, mathCategory);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // TensorFlow 1.15's OpDef (core/ops/sparse_ops.cc).
        COMPARE_OPDEF(m_registry, R"pb(
            name: "SparseToDense"
            input_arg { name: "sparse_indices" type_attr: "Tindices" }
            input_arg { name: "output_shape" type_attr: "Tindices" }
            input_arg { name: "sparse_values" type_attr: "T" }
            input_arg { name: "default_value" type_attr: "T" }
            output_arg { name: "dense" type_attr: "T" }
            attr { name: "validate_indices" type: "bool" default_value { b: true } }
            attr { name: "T" type: "type" }
            attr { name: "Tindices" type: "type" allowed_values { list { type: [ DT_INT32, DT_INT64 ] } } }
        )pb");
    }

    void shapes()
    {
        INFER_OK(m_registry, "SparseToDense", "", "[3,2];[2]={4,5};[3];[]", "[4,5]");
        INFER_OK(m_registry, "SparseToDense", "", "[3,2];[2];[3];[]", "[?,?]");
        INFER_OK(m_registry, "SparseToDense", "", "[3];[1]={7};[];[]", "[7]");
        INFER_OK(m_registry, "SparseToDense", "", "?;?;?;?", "?");
        INFER_ERROR(m_registry, "Shape must be rank 1 but is rank 2", "SparseToDense", "", "[3,2];[2,2];[3];[]");
    }
};

QTEST_GUILESS_MAIN(TestSparseOps)
#include "test_sparse_ops.moc"
