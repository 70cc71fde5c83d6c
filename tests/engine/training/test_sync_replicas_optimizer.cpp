// Tests for SyncReplicasOptimizer on a ps/worker graph (replica_device_setter): TensorFlow 1.15's
// node names and devices, one replica training as the plain optimizer under MonitoredTrainingSession,
// two replicas' gradients averaged (checked against a hand computation), stale gradients dropped,
// and the graph exported as a MetaGraphDef and imported again training the same.
#include "training/input_pipeline.h"
#include "builder/nn_functions.h"
#include "model/meta_graph.h"
#include "ps_worker_regression.h"
#include "training/gradient_descent.h"
#include "training/monitored_session.h"
#include "training/sync_replicas_optimizer.h"

#include <QTest>

#include <cmath>
#include <future>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

constexpr double kLearningRate = 0.05;

training::ReplicaDeviceSetterOptions twoPsTasks()
{
    training::ReplicaDeviceSetterOptions o;
    o.psTasks = 2;
    o.workerDevice = "/job:worker/task:0";
    return o;
}

/// The model with a SyncReplicasOptimizer over GradientDescent built in, and its train op.
struct SyncModel {
    PsWorkerRegression model;
    std::unique_ptr<training::GradientDescentOptimizer> inner;
    std::unique_ptr<training::SyncReplicasOptimizer> sync;
    std::string train;
};

SyncModel buildSyncModel(int replicas, int total)
{
    SyncModel m;
    auto model = buildPsWorkerRegression(twoPsTasks());
    if (!model)
        qFatal("%s", model.error().toString().c_str());
    m.model = std::move(*model);
    GraphBuilder& g = *m.model.graph;
    m.inner = std::make_unique<training::GradientDescentOptimizer>(kLearningRate);
    m.sync = std::make_unique<training::SyncReplicasOptimizer>(*m.inner, replicas, total);
    // The optimizer is built on the worker, as replica_device_setter's scope would have it.
    auto worker = g.device("/job:worker/task:0");
    if (!worker)
        qFatal("%s", worker.error().toString().c_str());
    auto train = m.sync->minimize(g, m.model.loss, m.model.globalStep);
    if (!train)
        qFatal("%s", train.error().toString().c_str());
    m.train = train->name();
    return m;
}

training::MonitoredTrainingSessionOptions sessionOptions(std::shared_ptr<training::SessionRunHook> hook)
{
    TrainingRegistries& r = TrainingRegistries::get();
    training::MonitoredTrainingSessionOptions o;
    o.session.ops = &r.ops;
    o.session.kernels = &r.kernels;
    (*o.session.config.mutable_device_count())["GPU"] = 0;
    o.hooks = {std::move(hook)};
    // The chief's queue runner waits in a take after the last step: close() gives it this long
    // before closing the session, which wakes it.
    o.stopGracePeriodSecs = 0.2;
    return o;
}

/// `steps` MonitoredTrainingSession runs of `train` fetching the loss, step k fed psWorkerBatch(k).
std::vector<float> monitoredLosses(GraphBuilder& g, const std::string& train, const std::string& loss,
                                   std::shared_ptr<training::SessionRunHook> hook, int steps)
{
    auto session = training::MonitoredTrainingSession::create(g, sessionOptions(std::move(hook)));
    if (!session)
        qFatal("%s", session.error().toString().c_str());
    std::vector<float> losses;
    for (int step = 0; step < steps; ++step) {
        auto out = (*session)->run({loss}, psWorkerBatch(step), {train});
        if (!out)
            qFatal("step %d: %s", step, out.error().toString().c_str());
        losses.push_back((*out)[0].scalar<float>());
    }
    if (Status s = (*session)->close(); !s.isOk())
        qFatal("%s", s.toString().c_str());
    return losses;
}

std::vector<float> plainLosses(int steps)
{
    auto model = buildPsWorkerRegression(twoPsTasks());
    if (!model)
        qFatal("%s", model.error().toString().c_str());
    training::GradientDescentOptimizer opt(kLearningRate);
    auto train = opt.minimize(*model->graph, model->loss, model->globalStep);
    if (!train)
        qFatal("%s", train.error().toString().c_str());
    return monitoredLosses(*model->graph, train->name(), model->loss.name(),
                           std::make_shared<training::SessionRunHook>(), steps);
}

void compareRelative(const std::vector<float>& got, const std::vector<float>& want, double tolerance)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double scale = std::max(1e-12, std::abs(double(want[i])));
        QVERIFY2(std::abs(double(got[i]) - double(want[i])) / scale <= tolerance,
                 qPrintable(QString("step %1: %2 vs %3").arg(i).arg(got[i], 0, 'g', 9).arg(want[i], 0, 'g', 9)));
    }
}

std::vector<float> fetchFloats(Session& s, const std::string& tensor)
{
    std::vector<Tensor> out;
    if (Status st = s.run({}, {tensor}, {}, &out); !st.isOk())
        qFatal("%s", st.toString().c_str());
    auto v = out[0].values<float>();
    return {v.begin(), v.end()};
}

std::int64_t fetchStep(Session& s)
{
    auto step = training::fetchInt64(s, "global_step/read:0");
    if (!step)
        qFatal("%s", step.error().toString().c_str());
    return *step;
}

/// Waits (up to 10 s) until the global step is `step`.
bool waitForStep(Session& s, std::int64_t step)
{
    for (int i = 0; i < 1000; ++i) {
        if (fetchStep(s) == step)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

/// An embedding model whose gradient is IndexedSlices: pred = sum(embedding_lookup(emb, ids), 1),
/// loss = mean((pred - y)^2), ids ("ids:0", int32 [4], with repeats) and y ("y:0", [4]) fed; emb
/// [6,2] on the ps. With `sync`, SyncReplicasOptimizer(1, 1) around GradientDescent; else plain.
std::vector<float> embeddingLosses(bool sync, int steps)
{
    TrainingRegistries& r = TrainingRegistries::get();
    GraphBuilder g(r.ops);
    Output loss;
    Variable step;
    Variable emb;
    {
        auto worker = g.device("/job:worker/task:0");
        auto ids = ops::placeholder(g, tensorflow::DT_INT32, TensorShape({4}), "ids");
        auto y = ops::placeholder(g, tensorflow::DT_FLOAT, TensorShape({4}), "y");
        {
            auto ps = g.device("/job:ps/task:0");
            auto made =
                getVariable(g, "emb", TensorShape({6, 2}), tensorflow::DT_FLOAT,
                            Initializer::constant({0.1, -0.2, 0.3, 0.05, -0.4, 0.2, 0.15, 0.1, -0.1, 0.25, 0.3, -0.3}));
            auto global = training::getOrCreateGlobalStep(g);
            if (!made || !global)
                qFatal("embedding variables");
            emb = *made;
            step = *global;
        }
        auto h = nn::embeddingLookup(g, emb.value(), *ids);
        if (!h)
            qFatal("%s", h.error().toString().c_str());
        auto axis = ops::constantInts(g, {1}, TensorShape::scalar());
        auto pred = g.op("Sum", {*h, *axis}, {}, "pred");
        auto diff = ops::sub(g, pred->output(0), *y);
        auto sq = ops::square(g, *diff);
        auto axes = ops::constantInts(g, {0}, TensorShape({1}));
        auto mean = g.op("Mean", {*sq, *axes}, {}, "loss");
        if (!mean)
            qFatal("%s", mean.error().toString().c_str());
        loss = mean->output(0);
    }
    training::GradientDescentOptimizer inner(0.2);
    training::SyncReplicasOptimizer syncOpt(inner, 1, 1);
    std::string train;
    std::shared_ptr<training::SessionRunHook> hook = std::make_shared<training::SessionRunHook>();
    if (sync) {
        auto grads = syncOpt.computeGradients(g, loss);
        if (!grads || grads->size() != 1 || !grads->front().first || !grads->front().first->isSparse())
            qFatal("expected one IndexedSlices gradient");
        auto op = syncOpt.applyGradients(g, *grads, step);
        if (!op)
            qFatal("%s", op.error().toString().c_str());
        train = op->name();
        if (!g.findNode("sync_replicas/sparse_conditional_accumulator"))
            qFatal("no SparseConditionalAccumulator");
        hook = *syncOpt.makeSessionRunHook(true, 0);
    } else {
        auto op = inner.minimize(g, loss, step);
        if (!op)
            qFatal("%s", op.error().toString().c_str());
        train = op->name();
    }
    auto session = training::MonitoredTrainingSession::create(g, sessionOptions(hook));
    if (!session)
        qFatal("%s", session.error().toString().c_str());
    static CpuAllocator allocator;
    std::vector<float> losses;
    for (int k = 0; k < steps; ++k) {
        const std::vector<std::int32_t> ids = {k % 6, (k + 3) % 6, k % 6, (2 * k + 1) % 6};
        const std::vector<float> y = {1.0f, -0.5f, 0.25f * float(k % 3), 0.5f};
        training::Feeds feeds = {{"ids:0", *Tensor::fromVector<std::int32_t>(allocator, TensorShape({4}), ids)},
                                 {"y:0", *Tensor::fromVector<float>(allocator, TensorShape({4}), y)}};
        auto out = (*session)->run({loss.name()}, feeds, {train});
        if (!out)
            qFatal("step %d: %s", k, out.error().toString().c_str());
        losses.push_back((*out)[0].scalar<float>());
    }
    if (Status s = (*session)->close(); !s.isOk())
        qFatal("%s", s.toString().c_str());
    return losses;
}
} // namespace

class TestSyncReplicasOptimizer : public QObject {
    Q_OBJECT

private slots:
    void buildsTensorFlowsGraph()
    {
        SyncModel m = buildSyncModel(2, 3);
        GraphBuilder& g = *m.model.graph;
        auto node = [&](const char* name) { return g.findNode(name); };
        QCOMPARE(m.train, std::string("Assign_1"));
        QVERIFY(node("sync_rep_local_step"));
        QCOMPARE(node("Assign")->input(0), std::string("sync_rep_local_step"));
        QCOMPARE(node("Assign")->input(1), std::string("global_step/read"));
        const tensorflow::NodeDef* acc = node("sync_replicas/conditional_accumulator");
        QVERIFY(acc);
        QCOMPARE(acc->op(), std::string("ResourceConditionalAccumulator"));
        QCOMPARE(acc->attr().at("shared_name").s(), std::string("w:0/grad_accum"));
        QCOMPARE(acc->attr().at("reduction_type").s(), std::string("MEAN"));
        QCOMPARE(acc->device(), std::string("/job:ps/task:0"));
        QCOMPARE(node("sync_replicas/conditional_accumulator_1")->device(), std::string("/job:ps/task:1"));
        QCOMPARE(node("sync_replicas/conditional_accumulator_1")->attr().at("shared_name").s(),
                 std::string("b:0/grad_accum"));
        QCOMPARE(node("sync_replicas/ResourceAccumulatorApplyGradient")->input(1),
                 std::string("sync_rep_local_step/read"));
        const tensorflow::NodeDef* take = node("sync_replicas/ResourceAccumulatorTakeGradient");
        QVERIFY(take);
        QCOMPARE(take->input(1), std::string("sync_replicas/ResourceAccumulatorTakeGradient/num_required"));
        QCOMPARE(node("sync_token_q")->op(), std::string("FIFOQueueV2"));
        QCOMPARE(node("sync_token_q")->attr().at("shared_name").s(), std::string("sync_token_q"));
        QCOMPARE(node("dummy_queue")->attr().at("capacity").i(), std::int64_t{1});
        QCOMPARE(node("sync_token_q_Dequeue")->op(), std::string("QueueDequeueV2"));
        QCOMPARE(node("Assign_1")->input(1), std::string("sync_token_q_Dequeue"));
        // tokens_per_step = max(total_num_replicas, replicas_to_aggregate) = 3.
        QCOMPARE(node("sync_token_q_EnqueueMany")->input(1), std::string("Fill"));
        QCOMPARE(node("sync_replicas/SetGlobalStep")->op(), std::string("ResourceAccumulatorSetGlobalStep"));
        QVERIFY(node("sync_replicas/SetGlobalStep_1"));
        QVERIFY(node("sync_replicas/group_deps"));
        auto graph = m.sync->graph();
        QVERIFY(graph);
        QCOMPARE(graph->chiefQueueRunner.queue_name(), std::string("dummy_queue"));
        QCOMPARE(graph->chiefQueueRunner.enqueue_op_name(0), std::string("sync_token_q_EnqueueMany"));
        QCOMPARE(graph->chiefQueueRunner.close_op_name(), std::string("dummy_queue_Close"));
        QCOMPARE(graph->chiefQueueRunner.cancel_op_name(), std::string("dummy_queue_Close_1"));
        QCOMPARE(graph->localStepInitOp, std::string("Assign"));
        QCOMPARE(graph->chiefInitOp, std::string("sync_replicas/group_deps"));
        // Init tokens: replicas_to_aggregate by default; too few is TensorFlow's ValueError.
        auto tokens = training::initTokensOp(g, *graph);
        QVERIFY(tokens);
        QCOMPARE(tokens->name(), std::string("sync_token_q_EnqueueMany_1"));
        auto few =
            training::initTokensOp(g, training::SyncReplicasGraph{.replicasToAggregate = 3, .totalNumReplicas = 1}, 1);
        QVERIFY(!few);
        QVERIFY2(few.error().message().find("Too few tokens to finish the first step: 1 (given) vs 2 (needed)") !=
                     std::string::npos,
                 few.error().toString().c_str());
        QVERIFY(!m.sync->applyGradients(g, {}, m.model.globalStep));
    }

    void oneReplicaTrainsAsThePlainOptimizer()
    {
        constexpr int kSteps = 25;
        SyncModel m = buildSyncModel(1, 1);
        auto hook = m.sync->makeSessionRunHook(true, 0);
        QVERIFY(hook);
        const std::vector<float> sync = monitoredLosses(*m.model.graph, m.train, m.model.loss.name(), *hook, kSteps);
        const std::vector<float> plain = plainLosses(kSteps);
        compareRelative(sync, plain, 1e-6);
        QVERIFY(plain.back() < 0.2f * plain.front());
    }

    void twoReplicasApplyTheMeanAndDropStaleGradients()
    {
        SyncModel m = buildSyncModel(2, 2);
        GraphBuilder& g = *m.model.graph;
        auto count = g.op("ResourceAccumulatorNumAccumulated", {*g.tensor("sync_replicas/conditional_accumulator")}, {},
                          "w_count");
        QVERIFY(count);
        auto hook = m.sync->makeSessionRunHook(true);
        QVERIFY(hook);
        auto session = training::MonitoredTrainingSession::create(g, sessionOptions(*hook));
        QVERIFY2(session, session ? "" : session.error().toString().c_str());
        Session& raw = (*session)->rawSession();
        const std::vector<float> w0 = fetchFloats(raw, "w/read:0");
        const std::vector<float> b0 = fetchFloats(raw, "b/read:0");
        // Each TensorFlow worker process has its own sync_rep_local_step; the two replicas here share one
        // graph, so each keeps its own local step and feeds it to the local step's read, and keeps the
        // token its train op dequeued (what its Assign_1 writes) as its next local step.
        std::int64_t localStep[2] = {0, 0};
        auto round = [&](int step) {
            auto run = [&](int replica) {
                static CpuAllocator allocator;
                training::Feeds feeds = psWorkerBatch(step, replica);
                feeds.emplace_back(
                    "sync_rep_local_step/read:0",
                    *Tensor::fromVector<std::int64_t>(allocator, TensorShape::scalar(), {localStep[replica]}));
                std::vector<Tensor> out;
                Status st = raw.run(feeds, {"sync_token_q_Dequeue:0"}, {m.train}, &out);
                if (st.isOk())
                    localStep[replica] = out[0].scalar<std::int64_t>();
                return st;
            };
            auto a = std::async(std::launch::async, run, 0);
            auto c = std::async(std::launch::async, run, 1);
            const Status sa = a.get();
            const Status sc = c.get();
            return sa.isOk() ? sc : sa;
        };
        // Round 1: both replicas' gradients (of step 0's batches, at the initial values) are averaged.
        Status s = round(0);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(waitForStep(raw, 1));
        double gw[2] = {0, 0};
        double gb = 0;
        for (int replica = 0; replica < 2; ++replica) {
            const training::Feeds batch = psWorkerBatch(0, replica);
            const auto x = batch[0].second.values<float>();
            const auto y = batch[1].second.values<float>();
            for (int i = 0; i < 4; ++i) {
                const double pred = double(x[2 * i]) * w0[0] + double(x[2 * i + 1]) * w0[1] + b0[0];
                const double r = 2.0 / 4.0 * (pred - y[i]); // d mean((pred - y)^2) / d pred_i
                gw[0] += 0.5 * r * x[2 * i];
                gw[1] += 0.5 * r * x[2 * i + 1];
                gb += 0.5 * r;
            }
        }
        const std::vector<float> w1 = fetchFloats(raw, "w/read:0");
        const std::vector<float> b1 = fetchFloats(raw, "b/read:0");
        for (int k = 0; k < 2; ++k)
            QVERIFY2(std::abs(w1[k] - (w0[k] - kLearningRate * gw[k])) < 1e-6,
                     qPrintable(QString("w[%1] %2 vs %3").arg(k).arg(w1[k]).arg(w0[k] - kLearningRate * gw[k])));
        QVERIFY(std::abs(b1[0] - (b0[0] - kLearningRate * gb)) < 1e-6);

        // Round 2: the replicas' local step is still 0 (the initial tokens): their gradients are stale.
        s = round(1);
        QVERIFY2(s.isOk(), s.toString().c_str());
        std::vector<Tensor> out;
        QVERIFY(raw.run({}, {"w_count:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int32_t>(), 0);
        QCOMPARE(fetchStep(raw), std::int64_t{1});
        QCOMPARE(fetchFloats(raw, "w/read:0"), w1);

        QCOMPARE(localStep[0], std::int64_t{1});
        QCOMPARE(localStep[1], std::int64_t{1});
        // Round 3: with the tokens of update 1 the replicas are current again.
        s = round(2);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(waitForStep(raw, 2));
        QVERIFY(fetchFloats(raw, "w/read:0") != w1);
        QVERIFY((*session)->close().isOk());
    }

    void embeddingGradientsGoThroughASparseAccumulator()
    {
        constexpr int kSteps = 15;
        compareRelative(embeddingLosses(true, kSteps), embeddingLosses(false, kSteps), 1e-6);
    }

    void reimportedMetaGraphTrainsTheSame()
    {
        constexpr int kSteps = 12;
        SyncModel m = buildSyncModel(1, 1);
        auto graph = m.sync->graph();
        QVERIFY(graph);
        MetaGraphExportOptions exportOptions;
        exportOptions.extraCollections[std::string(input::kQueueRunnersKey)] =
            input::queueRunnersCollection({graph->chiefQueueRunner});
        auto meta = exportMetaGraph(*m.model.graph, exportOptions);
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        auto hook = m.sync->makeSessionRunHook(true, 0);
        QVERIFY(hook);
        const std::vector<float> original =
            monitoredLosses(*m.model.graph, m.train, m.model.loss.name(), *hook, kSteps);

        MetaGraphImportOptions importOptions;
        importOptions.ops = &TrainingRegistries::get().ops;
        auto imported = importMetaGraph(*meta, importOptions);
        QVERIFY2(imported, imported ? "" : imported.error().toString().c_str());
        GraphBuilder again(TrainingRegistries::get().ops);
        QVERIFY(again.importGraphDef(imported->graph).isOk());
        for (const auto& [key, collection] : imported->collections)
            for (const tensorflow::VariableDef& def : collection.variables) {
                auto v = importedVariable(again, def);
                QVERIFY2(v, v ? "" : v.error().toString().c_str());
                again.collections().add(key, *v);
            }
        const auto runners =
            input::queueRunnersFromCollection(imported->collections.at(std::string(input::kQueueRunnersKey)).def);
        QVERIFY(runners);
        QCOMPARE(runners->size(), std::size_t{1});
        auto found = training::findSyncReplicasGraph(again, 1, 1, *runners, graph->readyForLocalInitOp);
        QVERIFY2(found, found ? "" : found.error().toString().c_str());
        QCOMPARE(found->localStepInitOp, graph->localStepInitOp);
        QCOMPARE(found->globalStep, std::string("global_step"));
        QCOMPARE(found->chiefQueueRunner.enqueue_op_name(0), std::string("sync_token_q_EnqueueMany"));
        const std::vector<float> reimported = monitoredLosses(again, m.train, m.model.loss.name(),
                                                              training::makeSyncReplicasHook(*found, true, 0), kSteps);
        compareRelative(reimported, original, 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestSyncReplicasOptimizer)
#include "test_sync_replicas_optimizer.moc"
