// MetaGraphDefs TensorFlow wrote (../shared/fixtures), read, imported and run through the engine's
// public API as `tstudio inspect`, `tstudio run` and `tstudio freeze` do: TensorFlow 0.8's softmax
// regression with its V1 checkpoint, an Estimator's graph with a tf.data pipeline inside and its V2
// checkpoint, and the CIFAR-10 tutorial's graph with queue runners and 44 cond contexts. Expected
// values are the fixtures README's (NumPy and interp.py on bundle.py's weights, an independent reader).
#include "builder/cond.h"
#include "builder/control_flow_contexts.h"
#include "builder/graph_builder.h"
#include "training/input_pipeline.h"
#include "io/formats/graph_file.h"
#include "io/file_kind_detector.h"
#include "model/freeze.h"
#include "model/meta_graph.h"
#include "model/saver.h"
#include "proto/control_flow.pb.h"
#include "proto/queue_runner.pb.h"
#include "runtime/session.h"

#include "model_test_support.h"
#include "shared_registries.h"
#include "fixture_paths.h"
#include "test_files.h"

#include <QTest>

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

SessionOptions sessionOptions()
{
    SessionOptions options;
    options.ops = &sharedRegistries().ops;
    options.kernels = &sharedRegistries().kernels;
    return options;
}

std::map<std::string, const tf::NodeDef*> nodesByName(const tf::GraphDef& graph)
{
    std::map<std::string, const tf::NodeDef*> out;
    for (const tf::NodeDef& node : graph.node())
        out[node.name()] = &node;
    return out;
}

/// Every element within 1e-6 relative (float32 results against the README's float64 figures,
/// printed to 7-8 significant digits).
bool closeTo(const Tensor& actual, const std::vector<double>& expected, QString* why)
{
    return floatsNear(actual, expected, 1e-6, 1e-6, why);
}

/// The README's one-hot softmax: each 1 exactly, each 0 as 0 or below 1e-38. NumPy gives 0; the
/// CPU kernel's Eigen (3.4) float exp clamps its argument at -88.72, so a logit thousands below the
/// row's maximum gives 2^-128 (2.9e-39) there. Overflow (NaN, inf) fails.
bool isOneHot(const Tensor& actual, const std::vector<float>& expected, QString* why)
{
    if (actual.dtype() != tf::DT_FLOAT || actual.numElements() != std::int64_t(expected.size())) {
        *why = QString("expected %1 floats, got %2")
                   .arg(expected.size())
                   .arg(QString::fromStdString(actual.debugString()));
        return false;
    }
    const auto a = actual.values<float>();
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const bool ok = expected[i] == 1.0f ? a[i] == 1.0f : (a[i] >= 0.0f && a[i] < 1e-38f);
        if (!ok) {
            *why = QString("element %1: %2, expected %3").arg(i).arg(a[i], 0, 'g', 9).arg(expected[i]);
            return false;
        }
    }
    return true;
}

} // namespace

class TestMetaGraphFixtures : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;

    Tensor floats(const TensorShape& shape, const std::vector<float>& values)
    {
        auto t = Tensor::fromVector(m_allocator, shape, values);
        return t ? *t : Tensor();
    }

private slots:
    /// tf08-v1-checkpoint: a MetaGraphDef of TensorFlow 0.8 (no version stamp, producer 8, `Variable`
    /// ops, a V1 saver of SaveSlices / RestoreSlice, Inv in its training half), restored whole through
    /// its own saver_def from the V1 table beside it and run, a training step included; also frozen
    /// with that table. add:0 and Softmax:0 are the README's
    /// (interp.py and NumPy); the logits are thousands apart, so a softmax that does not subtract the
    /// maximum overflows.
    void v1MetaGraphRunsWithItsV1Checkpoint()
    {
        const std::string path = fixturePath("tf08-v1-checkpoint/model.ckpt.meta");
        const std::string prefix = fixturePath("tf08-v1-checkpoint/model.ckpt");
        if (path.empty() || prefix.empty())
            QSKIP(missingFixture("tf08-v1-checkpoint"));

        auto report = detectFileKind(path);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(int(report->kind), int(FileKind::kMetaGraphDef));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(130));
        QCOMPARE(report->producerVersion.value_or(-1), 8);
        QCOMPARE(report->tensorflowVersion, std::string());

        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta.has_value(), err(meta));
        // The fixtures README says "no meta_info_def"; the file holds one with only stripped_op_list
        // (field 1 of the MetaGraphDef, read with a plain wire-format decoder), so no version.
        QCOMPARE(meta->meta_info_def().tensorflow_version(), std::string());
        QVERIFY(meta->meta_info_def().stripped_op_list().op_size() > 0);
        const tf::SaverDef& saver = meta->saver_def();
        QCOMPARE(saver.filename_tensor_name(), std::string("save/Const:0"));
        QCOMPARE(saver.save_tensor_name(), std::string("save/control_dependency:0"));
        QCOMPARE(saver.restore_op_name(), std::string("save/restore_all"));
        QCOMPARE(saver.max_to_keep(), 5);
        QCOMPARE(int(saver.version()), int(tf::SaverDef::LEGACY));

        MetaGraphImportOptions options;
        options.ops = &sharedRegistries().ops;
        auto imported = importMetaGraph(*meta, options);
        QVERIFY2(imported.has_value(), err(imported));
        QCOMPARE(imported->graph.node_size(), 130);
        const auto nodes = nodesByName(imported->graph);
        QCOMPARE(nodes.at("weights")->op(), std::string("Variable"));
        QCOMPARE(nodes.at("biases")->op(), std::string("Variable"));
        QCOMPARE(nodes.at("save/save")->op(), std::string("SaveSlices"));
        QCOMPARE(nodes.at("save/restore_slice")->op(), std::string("RestoreSlice"));
        QCOMPARE(nodes.at("Softmax")->input(0), std::string("add"));
        std::vector<std::string> variables;
        for (const tf::VariableDef& v : imported->variables())
            variables.push_back(v.variable_name());
        QCOMPARE(variables, (std::vector<std::string>{"weights:0", "biases:0"}));
        QCOMPARE(imported->variables("trainable_variables").size(), std::size_t(2));

        const Tensor x =
            floats({3, 6}, {1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0.001f, 0.002f, 0.003f, 0.004f, 0.005f, 0.006f});
        const std::vector<double> logits = {10001.534, -10001.534, -8339.665, 8339.665, 1641.0681, -1641.0681};
        const std::vector<float> softmax = {1, 0, 0, 1, 1, 0};

        // The whole graph, restored through its own V1 saver: its training half holds TensorFlow 0.8's
        // op Inv (Reciprocal's old name), in the gradient of Log.
        QCOMPARE(nodes.at("gradients/Log_grad/Inv")->op(), std::string("Inv"));
        Session session(sessionOptions());
        Status s = session.create(imported->graph);
        QVERIFY2(s.isOk(), err(s));
        auto restorer = Saver::fromSaverDef(*imported->saverDef);
        QVERIFY2(restorer.has_value(), err(restorer));
        s = restorer->restore(session, prefix);
        QVERIFY2(s.isOk(), err(s));
        std::vector<Tensor> out;
        s = session.run({}, {"weights/read:0", "biases/read:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QCOMPARE(out[0].values<float>()[10], 67222.75f);
        QCOMPARE(out[0].values<float>()[11], -67222.75f);
        QCOMPARE(out[1].values<float>()[0], 830.935f);
        // The Placeholder's `shape` attr is an empty TensorShapeProto: in a GraphDef of producer <= 21
        // TensorFlow reads that as an unknown shape (its Placeholder shape function), so [3, 6] feeds.
        s = session.run({{"Placeholder:0", x}}, {"add:0", "Softmax:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QString why;
        QVERIFY2(closeTo(out[0], logits, &why), qPrintable(why));
        QVERIFY2(isOneHot(out[1], softmax, &why), qPrintable(why));

        // The training half on the README's probabilities: the loss -sum(labels * log(clip(Softmax,
        // 1e-10, 1))) is -log(1) = 0 per row with the predicted labels and -log(1e-10) per row with the
        // other ones; Inv(clip) is 1 where the softmax is 1 and 1 / 1e-10 where it is 0.
        s = session.run({}, {"clip_by_value/y:0", "clip_by_value/Minimum/y:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QCOMPARE(out[0].values<float>()[0], 1e-10f);
        QCOMPARE(out[1].values<float>()[0], 1.0f);
        const double big = 1.0 / double(1e-10f);
        s = session.run({{"Placeholder:0", x}, {"Placeholder_1:0", floats({3, 2}, softmax)}},
                        {"Neg:0", "gradients/Log_grad/Inv:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QVERIFY2(closeTo(out[0], {0.0}, &why), qPrintable(why));
        QVERIFY2(closeTo(out[1], {1, big, big, 1, 1, big}, &why), qPrintable(why));
        s = session.run({{"Placeholder:0", x}, {"Placeholder_1:0", floats({3, 2}, {0, 1, 1, 0, 0, 1})}}, {"Neg:0"}, {},
                        &out);
        QVERIFY2(s.isOk(), err(s));
        QVERIFY2(closeTo(out[0], {-3.0 * std::log(double(1e-10f))}, &why), qPrintable(why));
        // A step of its GradientDescent: the softmax is saturated, so the gradient (0, or below 1e-38
        // where the softmax is) moves no weight by an ulp.
        s = session.run({{"Placeholder:0", x}, {"Placeholder_1:0", floats({3, 2}, {0, 1, 1, 0, 0, 1})}}, {},
                        {"GradientDescent"}, &out);
        QVERIFY2(s.isOk(), err(s));
        s = session.run({}, {"weights/read:0", "biases/read:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QCOMPARE(out[0].values<float>()[10], 67222.75f);
        QCOMPARE(out[1].values<float>()[0], 830.935f);

        // Frozen with the same V1 table (tstudio freeze): the same probabilities.
        auto frozen = freezeGraph(imported->graph, prefix, {"Softmax"});
        QVERIFY2(frozen.has_value(), err(frozen));
        QCOMPARE(std::set<std::string>(frozen->frozenVariables.begin(), frozen->frozenVariables.end()),
                 (std::set<std::string>{"weights", "biases"}));
        Session frozenSession(sessionOptions());
        s = frozenSession.create(frozen->graph);
        QVERIFY2(s.isOk(), err(s));
        s = frozenSession.run({{"Placeholder:0", x}}, {"add:0", "Softmax:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QVERIFY2(closeTo(out[0], logits, &why), qPrintable(why));
        QVERIFY2(isOneHot(out[1], softmax, &why), qPrintable(why));
    }

    /// tf1-estimator-tfdata/model: TensorFlow 1.14's Estimator graph (293 nodes, the same in the .meta
    /// and graph.pbtxt) whose input pipeline is inside it: IteratorV2 -> IteratorGetNext feeding
    /// dense/MatMul and sub, MakeIterator over TensorDataset -> FlatMapDataset -> BatchDatasetV2 ->
    /// RepeatDataset -> OptimizeDataset -> ModelDataset, the generator in PyFunc functions.
    void tfDataMetaGraphStructure()
    {
        const std::string path = fixturePath("tf1-estimator-tfdata/model/model.ckpt-2000.meta");
        const std::string text = fixturePath("tf1-estimator-tfdata/model/graph.pbtxt");
        if (path.empty() || text.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata/model"));

        auto report = detectFileKind(path);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(int(report->kind), int(FileKind::kMetaGraphDef));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(293));
        QCOMPARE(report->producerVersion.value_or(-1), 38);
        QCOMPARE(report->tensorflowVersion, std::string("1.14.0"));
        QCOMPARE(report->functionCount.value_or(-1), std::int64_t(4));

        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta.has_value(), err(meta));
        MetaGraphImportOptions options;
        options.ops = &sharedRegistries().ops;
        auto imported = importMetaGraph(*meta, options);
        QVERIFY2(imported.has_value(), err(imported));
        const tf::GraphDef& graph = imported->graph;
        QCOMPARE(graph.node_size(), 293);

        // graph.pbtxt, which the Estimator wrote beside it, holds the same nodes.
        auto textGraph = readGraphFromFile(text);
        QVERIFY2(textGraph.has_value(), err(textGraph));
        QCOMPARE(int(textGraph->kind), int(FileKind::kGraphDefText));
        QCOMPARE(textGraph->graph.node_size(), 293);
        for (int i = 0; i < 293; ++i)
            QCOMPARE(textGraph->graph.node(i).name(), meta->graph_def().node(i).name());

        const auto nodes = nodesByName(graph);
        auto inputsOf = [&](const char* name) {
            const tf::NodeDef* node = nodes.at(name);
            return std::vector<std::string>(node->input().begin(), node->input().end());
        };
        QCOMPARE(nodes.at("IteratorV2")->op(), std::string("IteratorV2"));
        QCOMPARE(inputsOf("IteratorGetNext"), std::vector<std::string>{"IteratorV2"});
        QCOMPARE(inputsOf("MakeIterator"), (std::vector<std::string>{"ModelDataset", "IteratorV2"}));
        QCOMPARE(inputsOf("IteratorToStringHandle"), std::vector<std::string>{"IteratorV2"});
        QCOMPARE(inputsOf("dense/MatMul").at(0), std::string("IteratorGetNext"));
        const auto sub = inputsOf("sub");
        QVERIFY(std::find(sub.begin(), sub.end(), "IteratorGetNext:1") != sub.end());
        const std::vector<std::pair<const char*, const char*>> chain = {{"ModelDataset", "OptimizeDataset"},
                                                                        {"OptimizeDataset", "RepeatDataset"},
                                                                        {"RepeatDataset", "BatchDatasetV2"},
                                                                        {"BatchDatasetV2", "FlatMapDataset"},
                                                                        {"FlatMapDataset", "TensorDataset"}};
        for (const auto& [node, input] : chain) {
            QCOMPARE(nodes.at(node)->op(), std::string(node));
            QCOMPARE(inputsOf(node).at(0), std::string(input));
        }
        const tf::AttrValue& f = nodes.at("FlatMapDataset")->attr().at("f");
        QCOMPARE(f.func().name(), std::string("__inference_Dataset_flat_map_flat_map_fn_43"));
        const tf::AttrValue& types = nodes.at("IteratorV2")->attr().at("output_types");
        QCOMPARE(types.list().type_size(), 2);
        const tf::AttrValue& shapes = nodes.at("IteratorV2")->attr().at("output_shapes");
        QCOMPARE(shapes.list().shape_size(), 2);
        QVERIFY(TensorShape::fromProto(shapes.list().shape(0)) == TensorShape({-1, 2}));
        QVERIFY(TensorShape::fromProto(shapes.list().shape(1)) == TensorShape({-1, 1}));

        // The iterators collection, and the four library functions that run the Python generator.
        const tf::CollectionDef& iterators = imported->collections.at("iterators").def;
        QCOMPARE(iterators.node_list().value_size(), 1);
        QCOMPARE(iterators.node_list().value(0), std::string("IteratorV2:0"));
        QCOMPARE(graph.library().function_size(), 4);
        int pyFuncs = 0;
        for (const tf::FunctionDef& function : graph.library().function())
            for (const tf::NodeDef& node : function.node_def())
                if (node.op() == "PyFunc")
                    ++pyFuncs;
        QVERIFY(pyFuncs > 0);
        for (const char* key : {"cond_context", "global_step", "savers", "summaries", "train_op"})
            QVERIFY2(imported->collections.count(key) == 1, key);
    }

    /// The same graph as `tstudio run model.ckpt-2000.meta --checkpoint model.ckpt-2000` runs it:
    /// the whole graph in a session, the V2 checkpoint restored through its saver_def. The dataset's
    /// generator is Python, so the iterator's output is fed; features [n, n] give the README's
    /// outputs of the model that learnt y = 2x (the exported SavedModel's, whose variables are equal).
    void tfDataMetaGraphRunsWithItsCheckpoint()
    {
        const std::string path = fixturePath("tf1-estimator-tfdata/model/model.ckpt-2000.meta");
        const std::string prefix = fixturePath("tf1-estimator-tfdata/model/model.ckpt-2000.index");
        if (path.empty() || prefix.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata/model"));
        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta.has_value(), err(meta));
        MetaGraphImportOptions options;
        options.ops = &sharedRegistries().ops;
        auto imported = importMetaGraph(*meta, options);
        QVERIFY2(imported.has_value(), err(imported));
        QVERIFY(imported->saverDef.has_value());

        Session session(sessionOptions());
        Status s = session.create(imported->graph);
        QVERIFY2(s.isOk(), err(s));
        auto saver = Saver::fromSaverDef(*imported->saverDef);
        QVERIFY2(saver.has_value(), err(saver));
        s = saver->restore(session, prefix.substr(0, prefix.size() - std::string(".index").size()));
        QVERIFY2(s.isOk(), err(s));

        const Tensor features = floats({3, 2}, {1, 1, 2.5f, 2.5f, -3, -3});
        std::vector<Tensor> out;
        s = session.run({{"IteratorGetNext:0", features}}, {"dense_1/BiasAdd:0", "global_step:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QString why;
        QVERIFY2(closeTo(out[0], {2.000062, 5.000061, -5.999934}, &why), qPrintable(why));
        QCOMPARE(out[1].values<std::int64_t>()[0], std::int64_t(2000));
    }

    /// tf1-queue-runners-cifar10: TensorFlow 1.7's CIFAR-10 training graph (1029 nodes). Its
    /// queue_runners collection, read as `tstudio train` reads it: string_input_producer's FIFO queue
    /// and shuffle_batch's RandomShuffleQueueV2 with 16 enqueue threads, both closed by OUT_OF_RANGE.
    void queueRunnerMetaGraph()
    {
        const std::string path = fixturePath("tf1-queue-runners-cifar10/cifar10_train/model.ckpt-92259.meta");
        if (path.empty())
            QSKIP(missingFixture("tf1-queue-runners-cifar10"));
        auto report = detectFileKind(path);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(int(report->kind), int(FileKind::kMetaGraphDef));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(1029));
        QCOMPARE(report->producerVersion.value_or(-1), 26);
        QCOMPARE(report->tensorflowVersion, std::string("1.7.0"));

        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta.has_value(), err(meta));
        QCOMPARE(meta->meta_info_def().stripped_op_list().op_size(), 91);
        const tf::SaverDef& saver = meta->saver_def();
        QCOMPARE(saver.filename_tensor_name(), std::string("save/Const:0"));
        QCOMPARE(saver.save_tensor_name(), std::string("save/Identity:0"));
        QCOMPARE(saver.restore_op_name(), std::string("save/restore_all"));
        QVERIFY(saver.sharded());
        QCOMPARE(int(saver.version()), int(tf::SaverDef::V2));

        MetaGraphImportOptions options;
        options.ops = &sharedRegistries().ops;
        auto imported = importMetaGraph(*meta, options);
        QVERIFY2(imported.has_value(), err(imported));
        QCOMPARE(imported->variables().size(), std::size_t(25));
        QCOMPARE(imported->variables("trainable_variables").size(), std::size_t(10));
        QCOMPARE(imported->variables("moving_average_variables").size(), std::size_t(10));
        QCOMPARE(imported->collections.at("summaries").def.node_list().value_size(), 42);

        auto runners =
            input::queueRunnersFromCollection(imported->collections.at(std::string(input::kQueueRunnersKey)).def);
        QVERIFY2(runners.has_value(), err(runners));
        QCOMPARE(runners->size(), std::size_t(2));
        const tf::QueueRunnerDef& producer = (*runners)[0];
        QCOMPARE(producer.queue_name(), std::string("input_producer"));
        QCOMPARE(producer.enqueue_op_name_size(), 1);
        QCOMPARE(producer.enqueue_op_name(0), std::string("input_producer/input_producer_EnqueueMany"));
        QCOMPARE(producer.close_op_name(), std::string("input_producer/input_producer_Close"));
        QCOMPARE(producer.cancel_op_name(), std::string("input_producer/input_producer_Close_1"));
        QCOMPARE(producer.queue_closed_exception_types_size(), 1);
        QCOMPARE(int(producer.queue_closed_exception_types(0)), int(StatusCode::kOutOfRange));
        const tf::QueueRunnerDef& batch = (*runners)[1];
        QCOMPARE(batch.queue_name(), std::string("shuffle_batch/random_shuffle_queue"));
        QCOMPARE(batch.enqueue_op_name_size(), 16);
        for (const std::string& op : batch.enqueue_op_name())
            QCOMPARE(op, std::string("shuffle_batch/random_shuffle_queue_enqueue"));
        QCOMPARE(batch.close_op_name(), std::string("shuffle_batch/random_shuffle_queue_Close"));
        QCOMPARE(batch.cancel_op_name(), std::string("shuffle_batch/random_shuffle_queue_Close_1"));
        QCOMPARE(int(batch.queue_closed_exception_types(0)), int(StatusCode::kOutOfRange));

        // Every op the runners name is in the graph; the queues are as the README describes them.
        const auto nodes = nodesByName(imported->graph);
        for (const tf::QueueRunnerDef& r : *runners) {
            QVERIFY2(nodes.count(r.queue_name()), r.queue_name().c_str());
            for (const std::string& op : r.enqueue_op_name())
                QVERIFY2(nodes.count(op), op.c_str());
            QVERIFY2(nodes.count(r.close_op_name()) && nodes.count(r.cancel_op_name()), r.queue_name().c_str());
        }
        QCOMPARE(nodes.at("input_producer")->op(), std::string("FIFOQueueV2"));
        const tf::NodeDef& queue = *nodes.at("shuffle_batch/random_shuffle_queue");
        QCOMPARE(queue.op(), std::string("RandomShuffleQueueV2"));
        QCOMPARE(queue.attr().at("capacity").i(), std::int64_t(20384));
        QCOMPARE(queue.attr().at("min_after_dequeue").i(), std::int64_t(20000));
        const auto& componentTypes = queue.attr().at("component_types").list();
        QCOMPARE(componentTypes.type_size(), 2);
        QCOMPARE(int(componentTypes.type(0)), int(tf::DT_FLOAT));
        QCOMPARE(int(componentTypes.type(1)), int(tf::DT_INT32));
        const auto& queueShapes = queue.attr().at("shapes").list();
        QCOMPARE(queueShapes.shape_size(), 2);
        QVERIFY(TensorShape::fromProto(queueShapes.shape(0)) == TensorShape({24, 24, 3}));
        QVERIFY(TensorShape::fromProto(queueShapes.shape(1)) == TensorShape({1}));
        QCOMPARE(nodes.at("shuffle_batch")->op(), std::string("QueueDequeueManyV2"));
        QCOMPARE(nodes.at("data_augmentation/FixedLengthRecordReaderV2")->attr().at("record_bytes").i(),
                 std::int64_t(3073));
    }

    /// The same graph's cond_context collection: 44 CondContextDefs (both branches of 22 tf.conds),
    /// rebuilt in a GraphBuilder as `tstudio train` rebuilds them (importControlFlowContexts), every
    /// node a context lists then belonging to that cond, and written back as TensorFlow wrote them.
    void condContextsOfARealMetaGraph()
    {
        const std::string path = fixturePath("tf1-queue-runners-cifar10/cifar10_train/model.ckpt-92259.meta");
        if (path.empty())
            QSKIP(missingFixture("tf1-queue-runners-cifar10"));
        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta.has_value(), err(meta));
        QVERIFY(meta->collection_def().count(std::string(kWhileContextCollection)) == 0);
        const tf::CollectionDef& stored = meta->collection_def().at(std::string(kCondContextCollection));
        QCOMPARE(stored.bytes_list().value_size(), 44);
        std::vector<tf::CondContextDef> defs(44);
        for (int i = 0; i < 44; ++i) {
            QVERIFY2(defs[std::size_t(i)].ParseFromString(stored.bytes_list().value(i)),
                     qPrintable(QString::number(i)));
            QVERIFY(defs[std::size_t(i)].branch() == 0 || defs[std::size_t(i)].branch() == 1);
        }
        QCOMPARE(defs[0].context_name(), std::string("data_augmentation/random_flip_left_right/cond_text"));
        QCOMPARE(defs[0].pred_name(), std::string("data_augmentation/random_flip_left_right/pred_id:0"));
        QCOMPARE(defs[0].pivot_name(), std::string("data_augmentation/random_flip_left_right/switch_t:0"));
        QCOMPARE(defs[0].branch(), 1);

        GraphBuilder b(sharedRegistries().ops);
        Status s = b.importGraphDef(meta->graph_def());
        QVERIFY2(s.isOk(), err(s));
        s = importControlFlowContexts(b, *meta);
        QVERIFY2(s.isOk(), err(s));
        for (const tf::CondContextDef& def : defs)
            for (const std::string& value : def.values_def().values()) {
                const std::string node = value.substr(0, value.rfind(':'));
                if (def.values_def().external_values().count(value))
                    continue; // a tensor from outside the cond, seen through its Switch
                ControlFlowContext* context = b.contextOf(node);
                QVERIFY2(context && context->condContext(), (def.context_name() + ": " + node).c_str());
            }

        // Exported again (export_meta_graph after import_meta_graph): the same 44 contexts.
        const auto again = controlFlowContextCollections(b);
        QVERIFY(again.count(std::string(kCondContextCollection)) == 1);
        const tf::CollectionDef& ours = again.at(std::string(kCondContextCollection));
        QCOMPARE(ours.bytes_list().value_size(), 44);
        for (int i = 0; i < 44; ++i) {
            tf::CondContextDef back;
            QVERIFY(back.ParseFromString(ours.bytes_list().value(i)));
            std::string difference;
            google::protobuf::util::MessageDifferencer differencer;
            differencer.ReportDifferencesToString(&difference);
            QVERIFY2(differencer.Compare(back, defs[std::size_t(i)]),
                     (defs[std::size_t(i)].context_name() + ": " + difference).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestMetaGraphFixtures)
#include "test_meta_graph_fixtures.moc"
