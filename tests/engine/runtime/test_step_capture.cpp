// CUDA graph capture, the parts that need no GPU: the rules that decide whether a plan's steps may
// be captured (captureObstacle, checked with a CPU device standing in for the capturing device),
// the variable storage generation that invalidates captured graphs, and the private pool carved
// from a device's allocator. The captures themselves are tested in test_gpu_session.
#include "runtime_test_support.h"

#include "devices/cpu/cpu_device.h"
#include "framework/bfc_allocator.h"
#include "framework/carved_sub_allocator.h"
#include "framework/host_sub_allocator.h"
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "runtime/executor_plan.h"
#include "runtime/step_capture.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <deque>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

/// A plan of `graphText` for (feeds, fetches, targets) over two CPU devices: nodes whose device
/// says "/cpu:1" go to the second, all others to the first (the one the rules treat as capturing).
struct PlanFixture {
    explicit PlanFixture(const std::string& graphText)
    {
        setUp = registerAllOps(ops);
        if (setUp.isOk())
            setUp = registerCpuKernels(kernels);
        tensorflow::GraphDef def;
        if (setUp.isOk() && !google::protobuf::TextFormat::ParseFromString(graphText, &def))
            setUp = invalidArgumentError("the test graph does not parse");
        for (int i = 0; setUp.isOk() && i < def.node_size(); ++i) {
            auto op = ops.lookUp(def.node(i).op());
            if (!op) {
                setUp = op.error();
                break;
            }
            addDefaultAttrs((*op)->opDef, def.mutable_node(i));
        }
        if (setUp.isOk()) {
            auto built = Graph::fromGraphDef(def);
            if (built)
                graph.emplace(std::move(*built));
            else
                setUp = built.error();
        }
    }

    Expected<ExecutorPlan> plan(const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                                const std::vector<std::string>& feeds = {})
    {
        if (!setUp.isOk())
            return unexpected(setUp);
        std::vector<TensorRef> feedRefs, fetchRefs;
        std::vector<NodeId> fetchNodes, targetIds;
        for (const std::string& name : feeds)
            feedRefs.emplace_back(*graph->findNode(name), 0);
        for (const std::string& name : fetches) {
            fetchRefs.emplace_back(*graph->findNode(name), 0);
            fetchNodes.push_back(*graph->findNode(name));
        }
        for (const std::string& name : targets)
            targetIds.push_back(*graph->findNode(name));
        const std::vector<bool> needed = pruneForRun(*graph, feedRefs, fetchNodes, targetIds);
        auto lookup = [this](NodeId id) -> Expected<NodeRuntime> {
            const tensorflow::NodeDef& node = graph->node(id);
            auto op = ops.lookUp(node.op());
            if (!op)
                return unexpected(op.error());
            auto& state = states.emplace_back();
            auto in = inputTypesForNode((*op)->opDef, node);
            auto out = outputTypesForNode((*op)->opDef, node);
            if (!in || !out)
                return unexpected(!in ? in.error() : out.error());
            state.inputs = std::move(*in);
            state.outputs = std::move(*out);
            NodeRuntime runtime;
            runtime.deviceIndex = node.device() == "/cpu:1" ? 1 : 0;
            runtime.device = runtime.deviceIndex == 1 ? &cpu1 : &cpu0;
            if (primitiveKind(node.op()) == PrimitiveKind::kNone) {
                auto kernel = kernels.createKernel(node, ops, *runtime.device);
                if (!kernel)
                    return unexpected(kernel.error());
                state.kernel = std::move(*kernel);
            }
            runtime.kernel = state.kernel.get();
            runtime.kernelMutex = (*op)->opDef.is_stateful() ? &state.mutex : nullptr;
            runtime.inputTypes = &state.inputs;
            runtime.outputTypes = &state.outputs;
            return runtime;
        };
        return buildExecutorPlan(*graph, needed, feedRefs, fetchRefs, lookup);
    }

    struct NodeState {
        std::unique_ptr<OpKernel> kernel;
        std::mutex mutex;
        std::vector<DataType> inputs, outputs;
    };
    OpRegistry ops;
    KernelRegistry kernels;
    Status setUp;
    std::optional<Graph> graph;
    CpuDevice cpu0{0, 1};
    CpuDevice cpu1{1, 1};
    std::deque<NodeState> states;
};

std::string shapeAttr(const std::string& key, const std::string& dims)
{
    return "attr { key: '" + key + "' value { shape { " + dims + " } } }";
}

/// One step of gradient descent on w [2,2] with a constant batch: the shape of a training step.
std::string trainingGraph(const std::string& extra = "")
{
    return floatConstNode("x", {2, 2}, "1, 2, 3, 4") + floatConstNode("w_init", {2, 2}, "0.5, -0.5, 0.25, 1") +
           floatConstNode("lr", {}, "0.1") +
           "node { name: 'w' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } } " +
           shapeAttr("shape", "dim { size: 2 } dim { size: 2 }") + " }\n"
           "node { name: 'init' op: 'Assign' input: 'w' input: 'w_init' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'y' op: 'MatMul' input: 'x' input: 'w' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'grad' op: 'MatMul' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } }"
           " attr { key: 'transpose_a' value { b: true } } }\n"
           "node { name: 'train' op: 'ApplyGradientDescent' input: 'w' input: 'lr' input: 'grad'"
           " attr { key: 'T' value { type: DT_FLOAT } } }\n" +
           extra;
}

} // namespace

class TestStepCapture : public QObject {
    Q_OBJECT

private slots:
    /// Variables, MatMul and an Apply op, all on the capturing device: nothing stops a capture.
    void aStaticTrainingStepMayBeCaptured()
    {
        PlanFixture f(trainingGraph());
        auto plan = f.plan({"y"}, {"train"});
        QVERIFY2(plan, plan ? "" : plan.error().toString().c_str());
        const auto obstacle = captureObstacle(*plan, f.cpu0);
        QVERIFY2(!obstacle, obstacle ? obstacle->c_str() : "");
    }

    /// A random op's counter advances on the host: a replay would draw the same numbers again.
    void aRandomOpIsAnObstacle()
    {
        PlanFixture f(trainingGraph(
            "node { name: 'shape' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value {"
            " tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [2, 2] } } } }\n"
            "node { name: 'noise' op: 'RandomUniform' input: 'shape' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'T' value { type: DT_INT32 } } }\n"
            "node { name: 'noisy' op: 'Mul' input: 'y' input: 'noise' attr { key: 'T' value { type: DT_FLOAT } } }\n"));
        auto plan = f.plan({"noisy"}, {"train"});
        QVERIFY2(plan, plan ? "" : plan.error().toString().c_str());
        const auto obstacle = captureObstacle(*plan, f.cpu0);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("node 'noise' (op 'RandomUniform')") != std::string::npos, obstacle->c_str());
        QVERIFY2(obstacle->find("state on the host") != std::string::npos, obstacle->c_str());
    }

    void controlFlowIsAnObstacle()
    {
        PlanFixture f(trainingGraph(boolPlaceholder("p") +
                                    "node { name: 'sw' op: 'Switch' input: 'y' input: 'p' "
                                    "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                                    "node { name: 'm' op: 'Merge' input: 'sw' input: 'sw:1' "
                                    "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'N' value { i: 2 } } }\n"));
        auto plan = f.plan({"m"}, {}, {"p"});
        QVERIFY2(plan, plan ? "" : plan.error().toString().c_str());
        const auto obstacle = captureObstacle(*plan, f.cpu0);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("is control flow") != std::string::npos, obstacle->c_str());

        PlanFixture loop(whileGraph(3));
        auto loopPlan = loop.plan({"result"}, {});
        QVERIFY2(loopPlan, loopPlan ? "" : loopPlan.error().toString().c_str());
        const auto loopObstacle = captureObstacle(*loopPlan, loop.cpu0);
        QVERIFY(loopObstacle);
        QVERIFY2(loopObstacle->find("while loop (while/while_context)") != std::string::npos, loopObstacle->c_str());
    }

    /// On the host (here the second CPU), a stateful node or a write through a reference would
    /// run only once, when the step is captured.
    void hostStateIsAnObstacle()
    {
        PlanFixture f(trainingGraph(
            "node { name: 'v' op: 'VariableV2' device: '/cpu:1' attr { key: 'dtype' value { type: DT_FLOAT } } " +
            shapeAttr("shape", "") + " }\n" + floatConstNode("one", {}, "1", "/cpu:1") +
            "node { name: 'count' op: 'AssignAdd' device: '/cpu:1' input: 'v' input: 'one' "
            "attr { key: 'T' value { type: DT_FLOAT } } }\n"));
        auto stateful = f.plan({}, {"train", "v"});
        QVERIFY2(stateful, stateful ? "" : stateful.error().toString().c_str());
        auto obstacle = captureObstacle(*stateful, f.cpu0);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("node 'v' (op 'VariableV2') is stateful and runs on the host") != std::string::npos,
                 obstacle->c_str());

        auto writer = f.plan({}, {"train", "count"});
        QVERIFY2(writer, writer ? "" : writer.error().toString().c_str());
        obstacle = captureObstacle(*writer, f.cpu0);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("on the host") != std::string::npos, obstacle->c_str());
    }

    /// A fed value read on the host would be frozen at its first value; on the capturing device
    /// in its memory, a replay copies each step's value first (checked on a GPU).
    void aFeedReadOnTheHostIsAnObstacle()
    {
        PlanFixture f(trainingGraph(
            "node { name: 'scale' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
            "node { name: 'scaled' op: 'Mul' input: 'y' input: 'scale' attr { key: 'T' value { type: DT_FLOAT } } }\n"));
        auto plan = f.plan({"scaled"}, {"train"}, {"scale"});
        QVERIFY2(plan, plan ? "" : plan.error().toString().c_str());
        const auto obstacle = captureObstacle(*plan, f.cpu0);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("input 1 of node 'scaled' (op 'Mul') is fed") != std::string::npos, obstacle->c_str());
    }

    /// Work on a device other than the capturing one is not in its graph.
    void anotherDevicesWorkIsNotCaptured()
    {
        PlanFixture f(trainingGraph());
        auto plan = f.plan({"y"}, {"train"});
        QVERIFY2(plan, plan ? "" : plan.error().toString().c_str());
        // Every node is on CPU:0; asking CPU:1 to capture leaves only stateless host work... and
        // the variable, which is stateful on the host from CPU:1's point of view.
        const auto obstacle = captureObstacle(*plan, f.cpu1);
        QVERIFY(obstacle);
        QVERIFY2(obstacle->find("node 'w' (op 'VariableV2') is stateful and runs on the host (/job:localhost/"
                                "replica:0/task:0/device:CPU:0)") != std::string::npos,
                 obstacle->c_str());
    }

    /// The generation moves when a variable gets a new buffer, and only then; it is the session's
    /// own, so another session's variables leave it alone.
    void variableStorageGenerationCountsNewBuffers()
    {
        AllKernelsFixture f; // the real Assign and VariableV2, on the CPU (no GPU device)
        std::string error;
        const std::string graph =
            "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } } " +
            shapeAttr("shape", "") + " }\n" + constNode("a", 1.0f) + constNode("b", 2.0f) +
            "node { name: 'set_a' op: 'Assign' input: 'v' input: 'a' attr { key: 'T' value { type: DT_FLOAT } } }\n"
            "node { name: 'set_b' op: 'Assign' input: 'v' input: 'b' attr { key: 'T' value { type: DT_FLOAT } } }\n";
        auto session = f.session(graph, &error);
        auto other = f.session(graph, &error);
        QVERIFY2(session && other, error.c_str());
        ResourceManager& resources = session->resources();
        std::vector<Tensor> out;
        const std::uint64_t before = resources.variableStorageGeneration();
        QVERIFY(session->run({}, {}, {"set_a"}, &out).isOk()); // first value: a new buffer
        const std::uint64_t afterFirst = resources.variableStorageGeneration();
        QVERIFY(afterFirst > before);
        QVERIFY(session->run({}, {}, {"set_b"}, &out).isOk()); // same shape: written in place
        QCOMPARE(resources.variableStorageGeneration(), afterFirst);
        QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
        QCOMPARE(out.at(0).values<float>()[0], 2.0f);

        // The other session's first value moves its own generation only.
        const std::uint64_t otherBefore = other->resources().variableStorageGeneration();
        QVERIFY(other->run({}, {}, {"set_a"}, &out).isOk());
        QVERIFY(other->resources().variableStorageGeneration() > otherBefore);
        QCOMPARE(resources.variableStorageGeneration(), afterFirst);

        // Removing resources (variables among them) moves it; an empty per-step container does not.
        resources.clearContainer("no_such_container");
        QCOMPARE(resources.variableStorageGeneration(), afterFirst);
        resources.clearContainer("");
        QVERIFY(resources.variableStorageGeneration() > afterFirst);
    }

    /// A pool carved from a parent allocator takes its regions from the parent and gives them
    /// back when it goes: the memory of a captured graph comes from its device's budget.
    void aCarvedPoolBorrowsFromItsParent()
    {
        BfcAllocator parent(std::make_unique<HostSubAllocator>(), "parent_bfc", "CPU", std::uint64_t(64) << 20,
                            /*allowGrowth=*/false);
        {
            BfcAllocator pool(std::make_unique<CarvedSubAllocator>(parent), "pool", "CPU", std::uint64_t(64) << 20,
                              /*allowGrowth=*/true);
            auto a = pool.allocate(1000);
            QVERIFY(a);
            // The pool's first region (1 MiB with growth) is one chunk of the parent.
            QCOMPARE(parent.bfcStats().chunksInUse, std::int64_t(1));
            QCOMPARE(parent.bfcStats().chunkBytesInUse, std::int64_t(1) << 20);
            auto b = pool.allocate(std::size_t(3) << 20); // needs a larger region
            QVERIFY(b);
            QCOMPARE(parent.bfcStats().chunksInUse, std::int64_t(2));
            pool.deallocate(*a, 1000);
            pool.deallocate(*b, std::size_t(3) << 20);
            QCOMPARE(parent.bfcStats().chunksInUse, std::int64_t(2)); // regions stay with the pool
            // More than the parent holds: refused by the parent, an OOM of the pool.
            auto huge = pool.allocate(std::size_t(80) << 20);
            QVERIFY(!huge);
            QCOMPARE(huge.error().code(), StatusCode::kResourceExhausted);
        }
        QCOMPARE(parent.bfcStats().chunksInUse, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestStepCapture)
#include "test_step_capture.moc"
