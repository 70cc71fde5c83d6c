// Tests for the state kernels: VariableV2 state in the ResourceManager, Assign / AssignAdd / AssignSub on
// refs, IsVariableInitialized, temporary variables, locking and TensorFlow's error texts.
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "kernel_harness.h"
#include "ref_kernel_runner.h"

#include <QTest>

#include <complex>
#include <thread>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    QString err;
    auto h = KernelHarness::create({registerStateOps}, {registerStateCpuKernels}, &err);
    if (!h)
        qWarning("%s", qPrintable(err));
    return h;
}

std::string variableNode(const char* dtype, const std::string& extra = "")
{
    return std::string("op: 'VariableV2' attr { key: 'dtype' value { type: ") + dtype +
           " } } attr { key: 'shape' value { shape { dim { size: 2 } } } } " + extra;
}

std::string typed(const char* op, const char* dtype, const std::string& extra = "")
{
    return std::string("op: '") + op + "' attr { key: 'T' value { type: " + dtype + " } } " + extra;
}

template <typename T> Tensor vec(KernelHarness& h, std::vector<T> values)
{
    const auto n = static_cast<std::int64_t>(values.size());
    return *Tensor::fromVector<T>(h.allocator(), TensorShape{n}, values);
}

/// The variable a VariableV2 run outputs: its tensor and mutex.
struct VarRef {
    Tensor* tensor = nullptr;
    std::mutex* mutex = nullptr;
    TensorValue value() const { return refTo(tensor, mutex); }
};

VarRef runVariable(RefKernelRunner& variable)
{
    auto r = variable.run({});
    if (!r.status.isOk() || !r.set[0])
        return {};
    return {r.outputs[0].ref, r.outputs[0].refMutex};
}

} // namespace

class TestStateKernels : public QObject {
    Q_OBJECT
private slots:
    void variableStartsUninitializedAndKeepsItsValue()
    {
        auto h = makeHarness();
        QVERIFY(h);
        RefKernelRunner variable(*h, variableNode("DT_FLOAT"), 0, "v");
        QVERIFY2(variable.error().isEmpty(), qPrintable(variable.error()));
        const VarRef v = runVariable(variable);
        QVERIFY(v.tensor && v.mutex);
        QVERIFY(!v.tensor->isInitialized());
        QCOMPARE(h->resources().size(), std::size_t(1));

        RefKernelRunner isInit(*h, "op: 'IsVariableInitialized' attr { key: 'dtype' value { type: DT_FLOAT } }", 1);
        auto before = isInit.run({v.value()});
        QVERIFY(before.status.isOk());
        QCOMPARE(before.outputs[0].get().scalar<bool>(), false);

        RefKernelRunner assign(*h, typed("Assign", "DT_FLOAT"), 2);
        auto assigned = assign.run({v.value(), TensorValue{vec<float>(*h, {1.5f, -2.0f})}});
        QVERIFY2(assigned.status.isOk(), assigned.status.toString().c_str());
        QCOMPARE(assigned.outputs[0].ref, v.tensor); // output_ref is the variable itself
        QCOMPARE(isInit.run({v.value()}).outputs[0].get().scalar<bool>(), true);

        // Another kernel of the same node (a later step, or a new session on the same resources)
        // finds the same variable with its value.
        RefKernelRunner again(*h, variableNode("DT_FLOAT"), 0, "v");
        const VarRef v2 = runVariable(again);
        QCOMPARE(v2.tensor, v.tensor);
        QCOMPARE(v2.tensor->values<float>()[1], -2.0f);
        // A different node name is a different variable; shared_name overrides the node name.
        RefKernelRunner other(*h, variableNode("DT_FLOAT"), 0, "w");
        QVERIFY(runVariable(other).tensor != v.tensor);
        RefKernelRunner shared(*h, variableNode("DT_FLOAT", "attr { key: 'shared_name' value { s: 'v' } }"), 0, "x");
        QCOMPARE(runVariable(shared).tensor, v.tensor);
        RefKernelRunner container(*h, variableNode("DT_FLOAT", "attr { key: 'container' value { s: 'c' } }"), 0, "v");
        QVERIFY(runVariable(container).tensor != v.tensor);
        // Same name, other dtype: an error rather than a reinterpreted buffer.
        RefKernelRunner wrongType(*h, variableNode("DT_INT32", "attr { key: 'shared_name' value { s: 'v' } }"), 0, "y");
        QVERIFY(!wrongType.run({}).status.isOk());
    }

    void assignShapes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        RefKernelRunner variable(*h, variableNode("DT_FLOAT"), 0, "v");
        const VarRef v = runVariable(variable);
        RefKernelRunner assign(*h, typed("Assign", "DT_FLOAT"), 2);
        QVERIFY(assign.run({v.value(), TensorValue{vec<float>(*h, {1, 2})}}).status.isOk());
        // validate_shape: TensorFlow's words.
        auto bad = assign.run({v.value(), TensorValue{vec<float>(*h, {1, 2, 3})}});
        QCOMPARE(bad.status.code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(bad.status.message()),
                 QStringLiteral("Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [3]"));
        // Same shape: the values are copied into the existing buffer, so an earlier read of the
        // variable that shares the buffer sees them (TensorFlow's in-place Assign).
        const Tensor earlier = *v.tensor;
        QVERIFY(assign.run({v.value(), TensorValue{vec<float>(*h, {7, 8})}}).status.isOk());
        QCOMPARE(earlier.values<float>()[0], 7.0f);
        QVERIFY(v.tensor->sharesBufferWith(earlier));
        // validate_shape=false: the variable takes the new shape.
        RefKernelRunner reshape(*h, typed("Assign", "DT_FLOAT", "attr { key: 'validate_shape' value { b: false } }"),
                                2);
        QVERIFY(reshape.run({v.value(), TensorValue{vec<float>(*h, {1, 2, 3})}}).status.isOk());
        QCOMPARE(v.tensor->shape(), TensorShape{3});
        QCOMPARE(v.tensor->values<float>()[2], 3.0f);
        // A new shape of the same size keeps the buffer, as TensorFlow reshapes it in place: work
        // recorded against its address (a captured CUDA graph) stays valid.
        const Tensor threeLong = *v.tensor;
        auto same = *Tensor::fromVector<float>(h->allocator(), TensorShape{3, 1}, {4, 5, 6});
        QVERIFY(reshape.run({v.value(), TensorValue{same}}).status.isOk());
        QCOMPARE(v.tensor->shape(), TensorShape({3, 1}));
        QVERIFY(v.tensor->sharesBufferWith(threeLong));
        QCOMPARE(threeLong.values<float>()[1], 5.0f);
        // Strings are assigned too.
        RefKernelRunner strings(*h, variableNode("DT_STRING"), 0, "s");
        const VarRef sv = runVariable(strings);
        RefKernelRunner assignString(*h, typed("Assign", "DT_STRING"), 2);
        auto text = *Tensor::allocate(h->allocator(), tensorflow::DT_STRING, TensorShape{2});
        text.strings()[0] = "a";
        text.strings()[1] = "bc";
        QVERIFY(assignString.run({sv.value(), TensorValue{text}}).status.isOk());
        QCOMPARE(sv.tensor->strings()[1], std::string("bc"));
    }

    void assignAddSub()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto check = [&](const char* dtype, auto tag) {
            using T = typename decltype(tag)::type;
            RefKernelRunner variable(*h, variableNode(dtype), 0, std::string("v_") + dtype);
            const VarRef v = runVariable(variable);
            RefKernelRunner assign(*h, typed("Assign", dtype), 2);
            QVERIFY(assign.run({v.value(), TensorValue{vec<T>(*h, {T(10), T(20)})}}).status.isOk());
            RefKernelRunner add(*h, typed("AssignAdd", dtype), 2);
            RefKernelRunner sub(*h, typed("AssignSub", dtype), 2);
            auto r = add.run({v.value(), TensorValue{vec<T>(*h, {T(1), T(2)})}});
            QVERIFY2(r.status.isOk(), r.status.toString().c_str());
            QCOMPARE(r.outputs[0].ref, v.tensor);
            QVERIFY(sub.run({v.value(), TensorValue{vec<T>(*h, {T(4), T(8)})}}).status.isOk());
            QVERIFY(v.tensor->values<T>()[0] == T(7));
            QVERIFY(v.tensor->values<T>()[1] == T(14));
        };
        check("DT_FLOAT", TypeTag<float>{});
        check("DT_DOUBLE", TypeTag<double>{});
        check("DT_HALF", TypeTag<Eigen::half>{});
        check("DT_BFLOAT16", TypeTag<Eigen::bfloat16>{});
        check("DT_INT32", TypeTag<std::int32_t>{});
        check("DT_INT64", TypeTag<std::int64_t>{});
        check("DT_UINT8", TypeTag<std::uint8_t>{});
        check("DT_COMPLEX64", TypeTag<std::complex<float>>{});

        // Uninitialized variable and size mismatch, in TensorFlow's words.
        RefKernelRunner variable(*h, variableNode("DT_FLOAT"), 0, "fresh");
        const VarRef v = runVariable(variable);
        RefKernelRunner add(*h, typed("AssignAdd", "DT_FLOAT"), 2);
        auto uninit = add.run({v.value(), TensorValue{vec<float>(*h, {1, 2})}});
        QCOMPARE(uninit.status.code(), StatusCode::kFailedPrecondition);
        QCOMPARE(QString::fromStdString(uninit.status.message()),
                 QStringLiteral("Attempting to use uninitialized parameters: input_0"));
        RefKernelRunner assign(*h, typed("Assign", "DT_FLOAT"), 2);
        QVERIFY(assign.run({v.value(), TensorValue{vec<float>(*h, {1, 2})}}).status.isOk());
        auto mismatch = add.run({v.value(), TensorValue{vec<float>(*h, {1, 2, 3})}});
        QCOMPARE(QString::fromStdString(mismatch.status.message()),
                 QStringLiteral("Parameters and update must be the same size"));
    }

    void lockedAssignAddFromManyThreads()
    {
        auto h = makeHarness();
        QVERIFY(h);
        RefKernelRunner variable(*h, variableNode("DT_INT64"), 0, "counter");
        const VarRef v = runVariable(variable);
        RefKernelRunner assign(*h, typed("Assign", "DT_INT64"), 2);
        QVERIFY(assign.run({v.value(), TensorValue{vec<std::int64_t>(*h, {0, 0})}}).status.isOk());
        const int threads = 8, steps = 300;
        std::vector<std::unique_ptr<RefKernelRunner>> kernels;
        for (int t = 0; t < threads; ++t)
            kernels.push_back(std::make_unique<RefKernelRunner>(
                *h, typed("AssignAdd", "DT_INT64", "attr { key: 'use_locking' value { b: true } }"), 2));
        const Tensor one = vec<std::int64_t>(*h, {1, 3});
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&, t] {
                for (int i = 0; i < steps; ++i)
                    (void)kernels[static_cast<std::size_t>(t)]->run({v.value(), TensorValue{one}});
            });
        }
        for (auto& t : pool)
            t.join();
        QCOMPARE(v.tensor->values<std::int64_t>()[0], std::int64_t(threads * steps));
        QCOMPARE(v.tensor->values<std::int64_t>()[1], std::int64_t(3 * threads * steps));
    }

    void temporaryVariable()
    {
        auto h = makeHarness();
        QVERIFY(h);
        RefKernelRunner tmp(*h,
                            "op: 'TemporaryVariable' attr { key: 'dtype' value { type: DT_INT32 } } "
                            "attr { key: 'shape' value { shape { dim { size: 3 } } } } "
                            "attr { key: 'var_name' value { s: 'acc' } }",
                            0);
        RefKernelRunner destroy(*h,
                                "op: 'DestroyTemporaryVariable' attr { key: 'T' value { type: DT_INT32 } } "
                                "attr { key: 'var_name' value { s: 'acc' } }",
                                1);
        RefKernelRunner add(*h, typed("AssignAdd", "DT_INT32"), 2);
        const std::int64_t step = 77;
        auto t = tmp.run({}, nullptr, step);
        QVERIFY2(t.status.isOk(), t.status.toString().c_str());
        Tensor* ref = t.outputs[0].ref;
        QVERIFY(ref && ref->isInitialized());
        QCOMPARE(ref->values<std::int32_t>()[2], 0);
        QVERIFY(add.run({t.outputs[0], TensorValue{vec<std::int32_t>(*h, {1, 2, 3})}}, nullptr, step).status.isOk());
        QCOMPARE(h->resources().size(), std::size_t(1));
        auto d = destroy.run({t.outputs[0]}, nullptr, step);
        QVERIFY2(d.status.isOk(), d.status.toString().c_str());
        QCOMPARE(d.outputs[0].get().values<std::int32_t>()[2], 3);
        QCOMPARE(h->resources().size(), std::size_t(0));
    }

    void plainInputAndNoOp()
    {
        // Through the harness (plain tensors, no refs): Assign returns the assigned value,
        // IsVariableInitialized sees an initialized tensor, NoOp has no outputs.
        auto h = makeHarness();
        QVERIFY(h);
        auto assigned = h->run(typed("Assign", "DT_FLOAT"), {vec<float>(*h, {0, 0}), vec<float>(*h, {3, 4})});
        QVERIFY(assigned);
        QCOMPARE((*assigned)[0].values<float>()[1], 4.0f);
        auto init =
            h->run("op: 'IsVariableInitialized' attr { key: 'dtype' value { type: DT_FLOAT } }", {vec<float>(*h, {1})});
        QVERIFY(init);
        QCOMPARE((*init)[0].scalar<bool>(), true);
        auto noop = h->run("op: 'NoOp'", {});
        QVERIFY(noop);
        QCOMPARE(noop->size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestStateKernels)
#include "test_state_kernels.moc"
