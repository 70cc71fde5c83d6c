// Tests for in-place element-wise kernels (TensorFlow's forward_input_or_allocate_output): an output
// takes over the buffer of an input that nothing else holds, which a traced step shows as a node
// that allocated nothing. Inputs that something else still reads (another consumer, a fetch, a feed,
// a constant, a variable) are never overwritten, outputs of another dtype or shape are allocated,
// and a run with an observer (the debugger) sees every node's inputs as they were.
#include "runtime_test_support.h"

#include "kernels/kernels.h"
#include "runtime/execution_observer.h"

#include <QTest>

#include <map>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

struct Fixture : CpuKernelFixture {
    Fixture() : CpuKernelFixture({registerArrayCpuKernels, registerMathCpuKernels, registerStateCpuKernels}) {}
};

/// x: a fed float [2, 3].
const std::string kX = "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                       " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n";

const std::vector<float> kXValues{1, -2, 3, 0.5f, 4, -6};

/// A traced run: the fetched values, and per node the bytes its outputs newly allocated (what the
/// step stats' AllocatorMemoryUsed.total_bytes reports; zero for an output in an input's buffer).
struct TracedRun {
    std::vector<Tensor> out;
    std::map<std::string, std::int64_t> allocated;
};

TracedRun tracedRun(Session& session, const std::vector<std::pair<std::string, Tensor>>& feeds,
                    const std::vector<std::string>& fetches)
{
    tensorflow::RunOptions options;
    options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    tensorflow::RunMetadata metadata;
    TracedRun run;
    const Status s = session.run(options, feeds, fetches, {}, &run.out, &metadata);
    if (!s.isOk())
        qFatal("run: %s", s.toString().c_str());
    for (const auto& device : metadata.step_stats().dev_stats())
        for (const auto& node : device.node_stats())
            if (node.memory_size() > 0)
                run.allocated[node.node_name()] = node.memory(0).total_bytes();
    return run;
}

std::vector<float> valuesOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

std::vector<float> mapped(const std::vector<float>& in, float (*f)(float))
{
    std::vector<float> out;
    for (float v : in)
        out.push_back(f(v));
    return out;
}

/// Remembers the first input of `node` as it is after the node ran.
class InputRecorder : public ExecutionObserver {
public:
    explicit InputRecorder(std::string node) : m_node(std::move(node)) {}
    ObserverAction beforeNode(const NodeExecution&) override { return ObserverAction::kContinue; }
    ObserverAction afterNode(const NodeExecution& execution) override
    {
        if (execution.node->name() == m_node)
            inputAfter = valuesOf(execution.inputs->at(0).get());
        return ObserverAction::kContinue;
    }
    std::vector<float> inputAfter;

private:
    std::string m_node;
};

} // namespace

class TestInputForwarding : public QObject {
    Q_OBJECT

private slots:
    void outputsTakeOverInputsNothingElseHolds()
    {
        Fixture f;
        std::string error;
        // a = x + x (x is the caller's feed: allocated); b = a * 2 and n = -b take over a's buffer.
        auto session = f.session(kX + constNode("two", 2) + binaryNode("a", "Add", "x", "x") +
                                     binaryNode("b", "Mul", "a", "two") + unaryNode("n", "Neg", "b"),
                                 &error);
        QVERIFY2(session, error.c_str());
        const Tensor x = floatTensor({2, 3}, kXValues);
        const TracedRun run = tracedRun(*session, {{"x", x}}, {"n"});
        QCOMPARE(valuesOf(run.out.at(0)), mapped(kXValues, [](float v) { return -(v + v) * 2; }));
        QCOMPARE(run.allocated.at("a"), std::int64_t{24});
        QCOMPARE(run.allocated.at("b"), std::int64_t{0});
        QCOMPARE(run.allocated.at("n"), std::int64_t{0});
        QCOMPARE(valuesOf(x), kXValues); // the feed is the caller's: never written
    }

    void anInputWithAnotherReaderIsNotOverwritten()
    {
        Fixture f;
        std::string error;
        // a has two consumers: the first to run must leave a for the other; the last may take it.
        auto session = f.session(kX + constNode("two", 2) + binaryNode("a", "Add", "x", "x") +
                                     binaryNode("b", "Mul", "a", "two") + unaryNode("c", "Neg", "a"),
                                 &error);
        QVERIFY2(session, error.c_str());
        const TracedRun run = tracedRun(*session, {{"x", floatTensor({2, 3}, kXValues)}}, {"b", "c"});
        QCOMPARE(valuesOf(run.out.at(0)), mapped(kXValues, [](float v) { return (v + v) * 2; }));
        QCOMPARE(valuesOf(run.out.at(1)), mapped(kXValues, [](float v) { return -(v + v); }));
        QCOMPARE((run.allocated.at("b") == 0) + (run.allocated.at("c") == 0), 1);

        // Fetched as well, a is held by the fetch: neither consumer takes it.
        const TracedRun fetched = tracedRun(*session, {{"x", floatTensor({2, 3}, kXValues)}}, {"a", "b", "c"});
        QCOMPARE(valuesOf(fetched.out.at(0)), mapped(kXValues, [](float v) { return v + v; }));
        QCOMPARE(valuesOf(fetched.out.at(1)), mapped(kXValues, [](float v) { return (v + v) * 2; }));
        QCOMPARE(fetched.allocated.at("b"), std::int64_t{24});
        QCOMPARE(fetched.allocated.at("c"), std::int64_t{24});
    }

    void constantsAndVariablesKeepTheirValues()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            floatConstNode("k", {2, 3}, "1, 2, 3, 4, 5, 6") + constNode("two", 2) + binaryNode("m", "Mul", "k", "two") +
            "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
            "node { name: 'v/Assign' op: 'Assign' input: 'v' input: 'k' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            unaryNode("v/read", "Identity", "v") + binaryNode("r", "Mul", "v/read", "two");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"v/Assign"}, &out).isOk());
        const std::vector<float> doubled{2, 4, 6, 8, 10, 12};
        for (int step = 0; step < 3; ++step) {
            const TracedRun run = tracedRun(*session, {}, {"m", "r", "v/read"});
            QCOMPARE(valuesOf(run.out.at(0)), doubled);
            QCOMPARE(valuesOf(run.out.at(1)), doubled);
            QCOMPARE(valuesOf(run.out.at(2)), (std::vector<float>{1, 2, 3, 4, 5, 6}));
            QCOMPARE(run.allocated.at("m"), std::int64_t{24});
            QCOMPARE(run.allocated.at("r"), std::int64_t{24});
        }
    }

    void onlyAnInputOfTheOutputsShapeAndDtypeIsTaken()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            kX + floatConstNode("row", {3}, "1, 10, 100") + floatConstNode("col", {2, 1}, "2, 3") +
            binaryNode("a", "Add", "x", "x") + binaryNode("row2", "Add", "row", "row") +
            binaryNode("col2", "Add", "col", "col") +
            // [3] * [2, 3]: the second operand has the output's shape.
            binaryNode("b", "Mul", "row2", "a") +
            // [2, 1] * [3]: neither has the output's shape [2, 3].
            binaryNode("outer", "Mul", "col2", "row") +
            // float in, bool out.
            binaryNode("less", "Less", "b", "row");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const TracedRun run = tracedRun(*session, {{"x", floatTensor({2, 3}, kXValues)}}, {"less", "outer"});
        QCOMPARE(run.allocated.at("b"), std::int64_t{0});
        QCOMPARE(run.allocated.at("outer"), std::int64_t{24});
        QCOMPARE(run.allocated.at("less"), std::int64_t{6});
        QCOMPARE(valuesOf(run.out.at(1)), (std::vector<float>{4, 40, 400, 6, 60, 600}));
        // b = 2 * row * 2x = 4 * {1, 10, 100} * x, compared with row.
        const std::vector<float> row{1, 10, 100};
        const auto less = run.out.at(0).values<bool>();
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(less[i], 4 * row[i % 3] * kXValues[i] < row[i % 3]);
    }

    void anObservedRunSeesInputsAsTheyWere()
    {
        Fixture f;
        std::string error;
        auto session =
            f.session(kX + constNode("two", 2) + binaryNode("a", "Add", "x", "x") + binaryNode("b", "Mul", "a", "two"),
                      &error);
        QVERIFY2(session, error.c_str());
        InputRecorder recorder("b");
        std::vector<Tensor> out;
        const Status s = session->run({{"x", floatTensor({2, 3}, kXValues)}}, {"b"}, {}, &out, &recorder);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(valuesOf(out.at(0)), mapped(kXValues, [](float v) { return (v + v) * 2; }));
        QCOMPARE(recorder.inputAfter, mapped(kXValues, [](float v) { return v + v; }));
    }
};

QTEST_GUILESS_MAIN(TestInputForwarding)
#include "test_input_forwarding.moc"
