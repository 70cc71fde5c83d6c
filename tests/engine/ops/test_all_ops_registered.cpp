// Every registered op has its parts in place: a definition (registered), a shape function, a
// category for the GUI, and a CPU kernel (except the listed, known gaps); registrations succeed.
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <QTest>

#include <set>

using namespace tstudio;

namespace {

/// Ops defined (so graphs that use them load, validate and show) whose CPU kernels do not exist
/// yet. The test fails when an op is missing a kernel without being listed here, and when a listed
/// op gains one, so this list stays exactly the set of gaps.
const std::set<std::string> kOpsWithoutCpuKernelYet = {
};

} // namespace

class TestAllOpsRegistered : public QObject {
    Q_OBJECT
private slots:
    void everyOpIsComplete()
    {
        OpRegistry ops;
        QVERIFY2(registerAllOps(ops).isOk(), "registerAllOps failed");
        KernelRegistry kernels;
        const Status s = registerCpuKernels(kernels);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QStringList problems;
        for (const std::string& name : ops.opNames()) {
            const OpRegistration* r = ops.find(name);
            if (!r->shapeFunction)
                problems << QString::fromStdString(name) + ": no shape function";
            if (r->category.empty())
                problems << QString::fromStdString(name) + ": no category";
            const bool listed = kOpsWithoutCpuKernelYet.count(name) > 0;
            if (!kernels.hasKernelFor(name, "CPU") && !listed)
                problems << QString::fromStdString(name) + ": no CPU kernel";
            if (kernels.hasKernelFor(name, "CPU") && listed)
                problems << QString::fromStdString(name) + ": has a CPU kernel now; remove it from kOpsWithoutCpuKernelYet";
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        QVERIFY(ops.size() >= 200);  // 61 math, 47 array, 92 nn/state/control-flow/random/training
    }

    void everyKernelHasAnOp()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        KernelRegistry kernels;
        QVERIFY(registerCpuKernels(kernels).isOk());
        for (const std::string& name : ops.opNames())
            for (const KernelDef& def : kernels.kernelsFor(name))
                QCOMPARE(def.op, name);
    }
};

QTEST_GUILESS_MAIN(TestAllOpsRegistered)
#include "test_all_ops_registered.moc"
