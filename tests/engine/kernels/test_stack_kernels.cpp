// Tests for the stack kernels (StackV2, StackPushV2, StackPopV2, StackCloseV2): last in first out,
// the pushed value as output, max_size, an empty stack, a closed stack, a wrong elem_type.
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "graph_run.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

using namespace tstudio;
using testing::runGraph;
namespace tf = tensorflow;

class TestStackKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    /// A stack of floats with max_size `maxSize`, and `values` pushed in order (each push after the
    /// previous one). Returns the handle and the last push.
    std::pair<Output, Operation> pushAll(GraphBuilder& b, const std::vector<float>& values, int maxSize = -1,
                                         tf::DataType elemType = tf::DT_FLOAT)
    {
        auto size = ops::constantInts(b, {maxSize}, TensorShape::scalar(), tf::DT_INT32, "max_size");
        auto stack = b.op("StackV2", {*size}, {{"elem_type", attr::type(elemType)}, {"stack_name", attr::s("s")}});
        Operation last;
        for (float v : values) {
            auto c = ops::constant(b, v, tf::DT_FLOAT);
            std::optional<ScopeGuard> after;
            if (last.isValid())
                after.emplace(b.controlDependencies({last}));
            auto push = b.op("StackPushV2", {stack->output(0), *c});
            last = *push;
        }
        return {stack->output(0), last};
    }

    /// A StackPopV2 of a float from `handle` that runs after `after`.
    static Expected<Operation> popAfter(GraphBuilder& b, const Output& handle, const Operation& after)
    {
        auto deps = b.controlDependencies({after});
        return b.op("StackPopV2", {handle}, {{"elem_type", attr::type(tf::DT_FLOAT)}});
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void lastInFirstOut()
    {
        GraphBuilder b(m_registries->ops);
        auto [handle, lastPush] = pushAll(b, {1.0f, 2.0f, 3.0f});
        QCOMPARE(b.findNode("StackV2")->op(), std::string("StackV2"));
        auto pop1 = popAfter(b, handle, lastPush);
        QVERIFY(pop1);
        auto pop2 = popAfter(b, handle, *pop1);
        QVERIFY(pop2);
        auto values =
            runGraph(*m_registries, b, {}, {pop1->output(0).name(), pop2->output(0).name(), lastPush.output(0).name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).values<float>()[0], 3.0f);
        QCOMPARE(values->at(1).values<float>()[0], 2.0f);
        QCOMPARE(values->at(2).values<float>()[0], 3.0f); // the push outputs what it pushed
    }

    void popOfEmptyStackFails()
    {
        GraphBuilder b(m_registries->ops);
        auto [handle, lastPush] = pushAll(b, {1.0f});
        auto pop1 = popAfter(b, handle, lastPush);
        QVERIFY(pop1);
        auto pop2 = popAfter(b, handle, *pop1);
        QVERIFY(pop2);
        auto values = runGraph(*m_registries, b, {}, {pop2->output(0).name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("] is empty.") != std::string::npos, values.error().toString().c_str());
        QVERIFY2(values.error().message().find("Stack[s_") != std::string::npos, values.error().toString().c_str());
    }

    void maxSizeIsEnforced()
    {
        GraphBuilder b(m_registries->ops);
        auto [handle, lastPush] = pushAll(b, {1.0f, 2.0f, 3.0f}, 2);
        auto values = runGraph(*m_registries, b, {}, {lastPush.output(0).name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("overflowed its max_size (2)") != std::string::npos,
                 values.error().toString().c_str());
    }

    void closedStackRefusesUse()
    {
        GraphBuilder b(m_registries->ops);
        auto [handle, lastPush] = pushAll(b, {1.0f});
        auto deps = b.controlDependencies({lastPush});
        auto close = b.op("StackCloseV2", {handle});
        deps.close();
        QVERIFY(close);
        auto pop = popAfter(b, handle, *close);
        QVERIFY(pop);
        auto values = runGraph(*m_registries, b, {}, {pop->output(0).name()});
        QVERIFY(!values);
        // As in TensorFlow, the closed stack stays in the step's container until the step ends.
        QVERIFY2(values.error().message().find("has already been closed") != std::string::npos,
                 values.error().toString().c_str());
    }

    void wrongElementTypeFails()
    {
        GraphBuilder b(m_registries->ops);
        auto [handle, lastPush] = pushAll(b, {1.0f}, -1, tf::DT_INT32);
        auto values = runGraph(*m_registries, b, {}, {lastPush.output(0).name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("must have type int32 but got float") != std::string::npos,
                 values.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestStackKernels)
#include "test_stack_kernels.moc"
