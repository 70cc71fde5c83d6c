// Tests for tf.device(fn) (GraphBuilder::device with a DeviceFunction): the function sees each op
// with the device inner scopes gave it and replaces it, outer scopes fill the fields it leaves,
// innermost first; device(None) stops outer functions; colocation wins; replica_device_setter as a
// device function puts variables round-robin on the ps tasks and the rest on the worker, as
// TensorFlow 1.15 does; errors name the node. Also Graph.finalize.
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "graph_run.h"
#include "model_test_support.h"
#include "training/replica_device_setter.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestDeviceFunctions : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    std::string deviceOf(const GraphBuilder& b, const std::string& node)
    {
        const tf::NodeDef* def = b.findNode(node);
        return def ? def->device() : "<no node>";
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void functionsChooseByOpAndMergeWithScopes()
    {
        GraphBuilder b(m_registries->ops);
        std::vector<std::string> seen;
        // MatMul on GPU 1, anything else on the CPU; the job comes from the outer string scope.
        auto byOp = [&seen](const tf::NodeDef& node) -> Expected<std::string> {
            seen.push_back(node.name() + "@" + node.device());
            return node.op() == "MatMul" ? std::string("/device:GPU:1") : std::string("/cpu:0");
        };
        {
            auto job = b.device("/job:worker/task:3");
            QVERIFY(job);
            auto fn = b.device(byOp);
            auto x = ops::constant(b, {1.0, 2.0, 3.0, 4.0}, TensorShape{2, 2}, tf::DT_FLOAT, "x");
            QVERIFY(x);
            QVERIFY(ops::matMul(b, *x, *x, false, false, "mm"));
            {
                // An inner string scope runs first: the function sees its device and replaces it.
                auto inner = b.device("/device:GPU:0");
                QVERIFY(inner);
                QVERIFY(ops::add(b, *x, *x, "sum"));
            }
            {
                auto none = b.clearDevice(); // tf.device(None): no outer function, no outer scope
                QVERIFY(ops::add(b, *x, *x, "free"));
            }
            {
                auto colocated = b.colocateWith(*ops::noOp(b, "anchor"));
                QVERIFY(ops::add(b, *x, *x, "colocated"));
            }
        }
        QCOMPARE(deviceOf(b, "x"), std::string("/job:worker/task:3/device:CPU:0"));
        QCOMPARE(deviceOf(b, "mm"), std::string("/job:worker/task:3/device:GPU:1"));
        QCOMPARE(deviceOf(b, "sum"), std::string("/job:worker/task:3/device:CPU:0"));
        QCOMPARE(deviceOf(b, "free"), std::string());
        QCOMPARE(deviceOf(b, "colocated"), deviceOf(b, "anchor"));
        QVERIFY(std::find(seen.begin(), seen.end(), "sum@/device:GPU:0") != seen.end());
        QVERIFY(std::find(seen.begin(), seen.end(), "x@") != seen.end());
    }

    void replicaDeviceSetterAsADeviceFunction()
    {
        // with tf.device(tf.train.replica_device_setter(ps_tasks=2)): variables round-robin on the ps
        // tasks, their Assign and read colocated with them, every other op on /job:worker.
        GraphBuilder b(m_registries->ops);
        training::ReplicaDeviceSetterOptions options;
        options.psTasks = 2;
        auto setter = training::ReplicaDeviceSetter::create(options);
        QVERIFY2(setter && *setter, setter ? "no setter" : err(setter));
        {
            auto scope = b.device((*setter)->deviceFunction());
            for (const char* name : {"w1", "w2", "w3"}) {
                auto v = variable(b, *ops::zeros(b, TensorShape{2}), name);
                QVERIFY2(v, err(v));
            }
            QVERIFY(ops::add(b, *b.tensor("w1/read"), *b.tensor("w2/read"), "sum"));
        }
        QCOMPARE(deviceOf(b, "w1"), std::string("/job:ps/task:0"));
        QCOMPARE(deviceOf(b, "w2"), std::string("/job:ps/task:1"));
        QCOMPARE(deviceOf(b, "w3"), std::string("/job:ps/task:0"));
        QCOMPARE(deviceOf(b, "w2/read"), std::string("/job:ps/task:1"));
        QCOMPARE(deviceOf(b, "sum"), std::string("/job:worker"));
    }

    void errorsNameTheNode()
    {
        GraphBuilder b(m_registries->ops);
        auto fails = b.device([](const tf::NodeDef&) -> Expected<std::string> {
            return unexpected(invalidArgumentError("no device for you"));
        });
        auto x = ops::constant(b, 1.0, tf::DT_FLOAT, "x");
        QVERIFY(!x);
        QVERIFY2(x.error().message().find("node 'x'") != std::string::npos, x.error().toString().c_str());
        QVERIFY(x.error().message().find("no device for you") != std::string::npos);
        GraphBuilder c(m_registries->ops);
        auto bad = c.device([](const tf::NodeDef&) -> Expected<std::string> { return std::string("/gpu:zero"); });
        auto y = ops::constant(c, 1.0, tf::DT_FLOAT, "y");
        QVERIFY(!y);
        QVERIFY2(y.error().message().find("the device function returned '/gpu:zero'") != std::string::npos,
                 y.error().toString().c_str());
    }

    void finalizedGraphsRefuseChanges()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, 2.0, tf::DT_FLOAT, "x");
        QVERIFY(x);
        QVERIFY(!b.finalized());
        b.finalize();
        QVERIFY(b.finalized());
        auto y = ops::add(b, *x, *x, "y");
        QVERIFY(!y);
        QCOMPARE(y.error().code(), StatusCode::kFailedPrecondition);
        QCOMPARE(y.error().message(), std::string("Graph is finalized and cannot be modified."));
        tf::GraphDef other;
        QCOMPARE(b.importGraphDef(other, ImportGraphDefOptions{}).error().code(), StatusCode::kFailedPrecondition);
        QCOMPARE(b.addFunctions({}).code(), StatusCode::kFailedPrecondition);
        // What was built still runs.
        auto out = runGraph(*m_registries, b, {}, {"x:0"});
        QVERIFY2(out, err(out));
        b.unfinalize();
        QVERIFY(ops::add(b, *x, *x, "z"));
    }
};

QTEST_GUILESS_MAIN(TestDeviceFunctions)
#include "test_device_functions.moc"
