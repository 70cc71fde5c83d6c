// MetaGraphDef export and import: what we export has TensorFlow's layout (OpDefs as TensorFlow 1.11
// stored them, VariableDefs, saver, shapes on every node); the TensorFlow-written .meta fixtures
// import, restore through their SaverDef and predict TensorFlow's number, under an import scope
// too; collections survive import and export byte for byte (with TensorFlow's pre-1.9 trainable
// rule); a model we build, save and export comes back identical in a fresh session; bad input
// fails with TensorFlow's messages.
#include "../../support/fixture_ops.h"
#include "../../support/model_test_support.h"
#include "../../support/test_files.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "model/freeze.h"
#include "model/meta_graph.h"
#include "model/saver.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

constexpr double kRegressionPred = 2.1193342; // pred:0 for X = [5.0], TensorFlow's value for this model
const char* const kRegressionMeta = "tf2onnx/regression/checkpoint/model.meta";
const char* const kRegressionPrefix = "tf2onnx/regression/checkpoint/model";
const char* const kMnistMeta = "tf1-mnist-book/mnist_model-29001.meta";

using tstudio::testing::err;

std::string fixture(const char* relative)
{
    return QDir(fixturesDir()).filePath(relative).toStdString();
}

/// pred = X . W + b with W [3,2] (glorot, seeded) and b [2] = 0.25, a "losses" collection, a saver.
struct SmallModel {
    std::unique_ptr<GraphBuilder> builder;
    std::optional<Saver> saver;
    std::string error;
};

SmallModel buildSmallModel(const OpRegistry& ops)
{
    SmallModel m;
    m.builder = std::make_unique<GraphBuilder>(ops);
    GraphBuilder& b = *m.builder;
    b.setRandomSeed(7);
    auto fail = [&](const Status& s) {
        m.error = s.toString();
        return std::move(m);
    };
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 3}), "X");
    if (!x)
        return fail(x.error());
    auto w = getVariable(b, "dense/kernel", TensorShape({3, 2}));
    auto bias = getVariable(b, "dense/bias", TensorShape({2}), tf::DT_FLOAT, Initializer::constant(0.25));
    if (!w || !bias)
        return fail(!w ? w.error() : bias.error());
    Expected<Output> mm = unexpected(internalError("not built"));
    {
        auto cpu = b.device("/cpu:0"); // one node with a device, for clear_devices
        if (!cpu)
            return fail(cpu.error());
        mm = ops::matMul(b, *x, w->value());
    }
    if (!mm)
        return fail(mm.error());
    auto pred = ops::add(b, *mm, bias->value(), "pred");
    if (!pred)
        return fail(pred.error());
    b.collections().add("losses", *pred);
    if (auto init = globalVariablesInitializer(b); !init)
        return fail(init.error());
    auto saver = Saver::create(b);
    if (!saver)
        return fail(saver.error());
    m.saver = std::move(*saver);
    return m;
}

std::unique_ptr<Session> newSession(const Registries& r)
{
    return std::make_unique<Session>(SessionOptions{{}, &r.ops, &r.kernels});
}

Tensor floats(const TensorShape& shape, const std::vector<float>& values)
{
    static CpuAllocator allocator;
    return *Tensor::fromVector<float>(allocator, shape, values);
}

/// Runs `fetch` with X fed; the values, or empty with `*error` set.
std::vector<float> predict(Session& s, const std::string& input, const std::string& fetch, const Tensor& x,
                           std::string* error)
{
    std::vector<Tensor> out;
    if (Status st = s.run({{input, x}}, {fetch}, {}, &out); !st.isOk()) {
        *error = st.toString();
        return {};
    }
    auto v = out[0].values<float>();
    return {v.begin(), v.end()};
}

std::optional<tf::MetaGraphDef> readFixtureMeta(const char* relative)
{
    auto meta = readMetaGraphFile(fixture(relative));
    if (!meta)
        return std::nullopt;
    return std::move(*meta);
}

} // namespace

class TestMetaGraph : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    bool m_haveFixtures = false;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
        m_haveFixtures = !fixturesDir().isEmpty();
    }

    void exportHasTensorFlowsLayout()
    {
        SmallModel m = buildSmallModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        MetaGraphExportOptions options;
        options.saverDef = m.saver->saverDef();
        options.tags = {"serve"};
        tf::SignatureDef sig;
        sig.set_method_name("tensorflow/serving/predict");
        (*sig.mutable_inputs())["x"].set_name("X:0");
        (*sig.mutable_outputs())["y"].set_name("pred:0");
        options.signatureDefs["serving_default"] = sig;
        auto meta = exportMetaGraph(*m.builder, options);
        QVERIFY2(meta, err(meta));

        const auto& info = meta->meta_info_def();
        QCOMPARE(info.tags_size(), 1);
        QCOMPARE(info.tags(0), std::string("serve"));
        QVERIFY(info.tensorflow_version().empty()); // see metaGraphWriterVersion()
        QVERIFY(info.tensorflow_git_version().starts_with("TensorStudio "));
        QVERIFY(!info.stripped_default_attrs());

        // The op list: exactly the ops the graph uses, sorted, without documentation.
        std::set<std::string> used;
        for (const tf::NodeDef& n : meta->graph_def().node())
            used.insert(n.op());
        std::vector<std::string> listed;
        for (const tf::OpDef& op : info.stripped_op_list().op()) {
            listed.push_back(op.name());
            QVERIFY2(op.summary().empty() && op.description().empty(), op.name().c_str());
            for (const auto& a : op.attr())
                QVERIFY(a.description().empty());
            for (const auto& a : op.input_arg())
                QVERIFY(a.description().empty());
        }
        QCOMPARE(listed, std::vector<std::string>(used.begin(), used.end()));
        QVERIFY(used.count("SaveV2") && used.count("RestoreV2") && used.count("VariableV2") && used.count("MatMul"));

        // The same OpDefs TensorFlow 1.11 stored for these ops in the fixture's stripped_op_list.
        if (m_haveFixtures) {
            FixtureOpList stored;
            QString error;
            QVERIFY2(loadFixtureOpList(kRegressionMeta, &stored, &error), qPrintable(error));
            int compared = 0;
            for (const tf::OpDef& op : info.stripped_op_list().op()) {
                auto it = stored.ops.find(op.name());
                if (it == stored.ops.end())
                    continue;
                const QString diff = compareOpDefs(op, it->second);
                QVERIFY2(diff.isEmpty(), qPrintable(diff));
                ++compared;
            }
            QVERIFY2(compared >= 7, qPrintable(QString("only %1 ops in common with the fixture").arg(compared)));
            qInfo("%d exported OpDefs equal TensorFlow 1.11's stored ones", compared);
        }

        // Every node with outputs carries _output_shapes; the graph is the builder's otherwise.
        QCOMPARE(meta->graph_def().node_size(), m.builder->graphDef().node_size());
        for (const tf::NodeDef& n : meta->graph_def().node()) {
            if (n.op() == "NoOp" || n.op() == "SaveV2")
                QVERIFY2(!n.attr().count("_output_shapes"), n.name().c_str());
            else
                QVERIFY2(n.attr().count("_output_shapes"), n.name().c_str());
        }
        QVERIFY(!meta->graph_def().has_library());
        QCOMPARE(meta->graph_def().versions().producer(), kGraphDefProducer);

        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(meta->saver_def(), m.saver->saverDef()));
        QCOMPARE(meta->signature_def().at("serving_default").outputs().at("y").name(), std::string("pred:0"));

        // Collections: VariableDefs as TensorFlow 1.15 serialises them, node lists by name.
        const auto& vars = meta->collection_def().at("variables").bytes_list();
        QCOMPARE(vars.value_size(), 2);
        tf::VariableDef kernel;
        QVERIFY(kernel.ParseFromString(vars.value(0)));
        QCOMPARE(kernel.variable_name(), std::string("dense/kernel:0"));
        QCOMPARE(kernel.initializer_name(), std::string("dense/kernel/Assign"));
        QCOMPARE(kernel.snapshot_name(), std::string("dense/kernel/read:0"));
        QCOMPARE(kernel.initial_value_name(), std::string("dense/kernel/Initializer/random_uniform:0"));
        QVERIFY(kernel.trainable());
        QCOMPARE(vars.value(0), std::string("\n\x0e"
                                            "dense/kernel:0"
                                            "\x12\x13"
                                            "dense/kernel/Assign"
                                            "\x1a\x13"
                                            "dense/kernel/read:0"
                                            "2)"
                                            "dense/kernel/Initializer/random_uniform:0"
                                            "8\x01"));
        QCOMPARE(meta->collection_def().at("trainable_variables").bytes_list().value_size(), 2);
        QCOMPARE(meta->collection_def().at("losses").node_list().value(0), std::string("pred:0"));
    }

    void exportOptions()
    {
        SmallModel m = buildSmallModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        // clear_devices: devices gone and, as in TensorFlow's copy of the graph, `library` present.
        auto meta = exportMetaGraph(*m.builder, {.saverDef = m.saver->saverDef(), .clearDevices = true});
        QVERIFY2(meta, err(meta));
        QVERIFY(meta->graph_def().has_library());
        bool hadDevice = false;
        for (const tf::NodeDef& n : m.builder->graphDef().node())
            hadDevice = hadDevice || !n.device().empty();
        QVERIFY(hadDevice); // MatMul is on /device:CPU:0
        for (const tf::NodeDef& n : meta->graph_def().node())
            QVERIFY2(n.device().empty(), n.name().c_str());

        // strip_default_attrs: VariableV2's container "" and shared_name "" are defaults.
        auto stripped = exportMetaGraph(*m.builder, {.stripDefaultAttrs = true});
        QVERIFY2(stripped, err(stripped));
        QVERIFY(stripped->meta_info_def().stripped_default_attrs());
        for (const tf::NodeDef& n : stripped->graph_def().node()) {
            if (n.name() == "dense/kernel") {
                QVERIFY(!n.attr().count("container") && !n.attr().count("shared_name"));
                QVERIFY(n.attr().count("shape") && n.attr().count("dtype"));
            }
        }

        // clear_extraneous_savers keeps only the SaverDef's scope.
        auto second = Saver::create(*m.builder);
        QVERIFY2(second, err(second));
        QCOMPARE(second->saverDef().restore_op_name(), std::string("save_1/restore_all"));
        auto cleared = exportMetaGraph(*m.builder, {.saverDef = second->saverDef(), .clearExtraneousSavers = true});
        QVERIFY2(cleared, err(cleared));
        int save = 0, save1 = 0;
        for (const tf::NodeDef& n : cleared->graph_def().node()) {
            save += n.name().starts_with("save/");
            save1 += n.name().starts_with("save_1/");
        }
        QCOMPARE(save, 0);
        QVERIFY(save1 > 5);

        // Only the collections asked for; extra kinds given as they are.
        tf::CollectionDef steps;
        steps.mutable_int64_list()->add_value(20);
        auto some = exportMetaGraph(*m.builder, {.collectionList = std::vector<std::string>{"losses", "steps"},
                                                 .extraCollections = {{"steps", steps}}});
        QVERIFY2(some, err(some));
        QCOMPARE(int(some->collection_def_size()), 2);
        QCOMPARE(some->collection_def().at("steps").int64_list().value(0), std::int64_t(20));
    }

    void importsTensorFlowsMetaAndRestores()
    {
        if (!m_haveFixtures)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's model.meta is not checked");
        auto meta = readFixtureMeta(kRegressionMeta);
        QVERIFY(meta);
        auto imported = importMetaGraph(*meta, {.ops = &m_registries->ops});
        QVERIFY2(imported, err(imported));
        QVERIFY(imported->saverDef);
        QCOMPARE(imported->saverDef->restore_op_name(), std::string("save/restore_all"));
        QCOMPARE(int(imported->variables().size()), 2);
        QCOMPARE(imported->variables()[0].variable_name(), std::string("W:0"));
        QCOMPARE(imported->collections.at("train_op").def.node_list().value(0), std::string("GradientDescent"));

        auto session = newSession(*m_registries);
        QVERIFY2(session->create(imported->graph).isOk(), "create");
        auto saver = Saver::fromSaverDef(*imported->saverDef);
        QVERIFY2(saver, err(saver));
        Status s = saver->restore(*session, fixture(kRegressionPrefix));
        QVERIFY2(s.isOk(), err(s));
        std::string error;
        auto pred = predict(*session, "X:0", "pred:0", floats({1}, {5.0f}), &error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY2(std::abs(pred[0] - kRegressionPred) <= 1e-6, qPrintable(QString::number(pred[0], 'g', 9)));
        qInfo("model.meta restored through its SaverDef: pred = %.9g for X = [5.0]", double(pred[0]));
    }

    void importUnderScopeAndClearDevices()
    {
        if (!m_haveFixtures)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's model.meta is not checked");
        auto meta = readFixtureMeta(kRegressionMeta);
        QVERIFY(meta);
        auto imported = importMetaGraph(*meta, {.importScope = "imported/", .ops = &m_registries->ops});
        QVERIFY2(imported, err(imported));
        QCOMPARE(imported->scope, std::string("imported"));
        std::map<std::string, const tf::NodeDef*> nodes;
        for (const tf::NodeDef& n : imported->graph.node())
            nodes[n.name()] = &n;
        QVERIFY(nodes.count("imported/pred"));
        QVERIFY(!nodes.count("pred"));
        QCOMPARE(nodes["imported/pred"]->input(0), std::string("imported/Add"));
        const tf::NodeDef* assign = nodes["imported/W/Assign"];
        QCOMPARE(assign->attr().at("_class").list().s(0), std::string("loc:@imported/W"));
        QCOMPARE(nodes["imported/save/restore_all"]->input(0), std::string("^imported/save/Assign"));
        QCOMPARE(nodes["imported/save/RestoreV2"]->device(), std::string("/device:CPU:0")); // kept
        QCOMPARE(imported->saverDef->filename_tensor_name(), std::string("imported/save/Const:0"));
        QCOMPARE(imported->saverDef->restore_op_name(), std::string("imported/save/restore_all"));
        const tf::VariableDef& w = imported->variables()[0];
        QCOMPARE(w.variable_name(), std::string("imported/W:0"));
        QCOMPARE(w.initializer_name(), std::string("imported/W/Assign"));
        QCOMPARE(w.snapshot_name(), std::string("imported/W/read:0"));
        QCOMPARE(w.initial_value_name(), std::string("imported/W/initial_value:0"));
        QCOMPARE(imported->collections.at("train_op").def.node_list().value(0),
                 std::string("imported/GradientDescent"));
        QCOMPARE(imported->scoped("pred:0"), std::string("imported/pred:0"));

        auto session = newSession(*m_registries);
        QVERIFY2(session->create(imported->graph).isOk(), "create");
        auto saver = Saver::fromSaverDef(*imported->saverDef);
        QVERIFY2(saver, err(saver));
        Status s = saver->restore(*session, fixture(kRegressionPrefix));
        QVERIFY2(s.isOk(), err(s));
        std::string error;
        auto pred = predict(*session, "imported/X:0", "imported/pred:0", floats({1}, {5.0f}), &error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(std::abs(pred[0] - kRegressionPred) <= 1e-6);

        auto cleared = importMetaGraph(*meta, {.clearDevices = true});
        QVERIFY2(cleared, err(cleared));
        for (const tf::NodeDef& n : cleared->graph.node())
            QVERIFY2(n.device().empty(), n.name().c_str());
    }

    void collectionsSurviveImportAndExport()
    {
        if (!m_haveFixtures)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's .meta files are not checked");
        for (const char* file : {kRegressionMeta, kMnistMeta}) {
            auto meta = readFixtureMeta(file);
            QVERIFY2(meta, file);
            auto imported = importMetaGraph(*meta);
            QVERIFY2(imported, err(imported));
            auto again = exportMetaGraph(*imported, m_registries->ops);
            QVERIFY2(again, err(again));
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(again->graph_def(), meta->graph_def()));
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(again->saver_def(), meta->saver_def()));
            QCOMPARE(again->collection_def_size(), meta->collection_def_size());
            const bool before19 = meta->meta_info_def().tensorflow_version() == "1.3.0";
            std::set<std::string> trainable(
                meta->collection_def().at("trainable_variables").bytes_list().value().begin(),
                meta->collection_def().at("trainable_variables").bytes_list().value().end());
            int changed = 0;
            for (const auto& [key, def] : meta->collection_def()) {
                QVERIFY2(again->collection_def().count(key), key.c_str());
                const tf::CollectionDef& ours = again->collection_def().at(key);
                QCOMPARE(ours.kind_case(), def.kind_case());
                if (!def.has_bytes_list()) {
                    QCOMPARE(ours.SerializeAsString(), def.SerializeAsString());
                    continue;
                }
                QCOMPARE(ours.bytes_list().value_size(), def.bytes_list().value_size());
                for (int i = 0; i < def.bytes_list().value_size(); ++i) {
                    std::string expected = def.bytes_list().value(i);
                    // TensorFlow 1.3 wrote no VariableDef.trainable; importing takes it from
                    // trainable_variables, and exporting writes it (field 7 = true: "8\x01").
                    if (before19 && isVariableCollection(key) && trainable.count(expected)) {
                        expected += "8\x01";
                        ++changed;
                    }
                    QVERIFY2(ours.bytes_list().value(i) == expected,
                             qPrintable(QString("%1: %2[%3] differs").arg(file).arg(key.c_str()).arg(i)));
                }
            }
            // mnist: the 4 trainable variables appear in trainable_variables, variables and
            // moving_average_variables.
            QCOMPARE(changed, before19 ? 12 : 0);
            if (before19) {
                const auto& vars = imported->variables();
                QCOMPARE(int(vars.size()), 9);
                QVERIFY(vars[0].trainable());  // layer1/weights
                QVERIFY(!vars[4].trainable()); // Variable (the global step)
                QCOMPARE(vars[4].variable_name(), std::string("Variable:0"));
                QVERIFY(!imported->collections.at("cond_context").def.bytes_list().value().empty());
            }
        }
    }

    void exportedModelComesBackIdentical()
    {
        SmallModel m = buildSmallModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string prefix = QDir(dir.path()).filePath("model.ckpt").toStdString();
        const Tensor x = floats({2, 3}, {1.0f, -2.0f, 0.5f, 3.0f, 0.25f, -1.5f});

        auto first = newSession(*m_registries);
        QVERIFY(first->create(m.builder->graphDef()).isOk());
        std::vector<Tensor> none;
        QVERIFY(first->run({}, {}, {"init"}, &none).isOk());
        std::string error;
        const std::vector<float> expected = predict(*first, "X:0", "pred:0", x, &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(int(expected.size()), 4);
        auto saved = m.saver->save(*first, prefix, std::nullopt, false);
        QVERIFY2(saved, err(saved));

        auto meta = exportMetaGraph(*m.builder, {.saverDef = m.saver->saverDef()});
        QVERIFY2(meta, err(meta));
        for (MetaGraphFormat format : {MetaGraphFormat::kBinary, MetaGraphFormat::kText}) {
            const std::string path = prefix + (format == MetaGraphFormat::kText ? ".meta.txt" : ".meta");
            Status w = writeMetaGraphFile(path, *meta, format);
            QVERIFY2(w.isOk(), err(w));
            MetaGraphFormat detected = MetaGraphFormat::kBinary;
            auto read = readMetaGraphFile(path, &detected);
            QVERIFY2(read, err(read));
            QVERIFY(detected == format);
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(*read, *meta));
            auto imported = importMetaGraph(*read, {.ops = &m_registries->ops});
            QVERIFY2(imported, err(imported));
            auto fresh = newSession(*m_registries);
            QVERIFY(fresh->create(imported->graph).isOk());
            auto saver = Saver::fromSaverDef(*imported->saverDef);
            QVERIFY2(saver, err(saver));
            Status r = saver->restore(*fresh, prefix);
            QVERIFY2(r.isOk(), err(r));
            const std::vector<float> got = predict(*fresh, "X:0", "pred:0", x, &error);
            QVERIFY2(error.empty(), error.c_str());
            QCOMPARE(got, expected); // bit for bit
        }
        // Frozen from the same checkpoint, it gives them again with no variable ops left.
        auto frozen = freezeGraph(m.builder->graphDef(), prefix, {"pred"});
        QVERIFY2(frozen, err(frozen));
        for (const auto& node : frozen->graph.node())
            QVERIFY2(node.op() != "VariableV2" && node.op() != "Assign", node.name().c_str());
        auto frozenSession = newSession(*m_registries);
        QVERIFY(frozenSession->create(frozen->graph).isOk());
        QCOMPARE(predict(*frozenSession, "X:0", "pred:0", x, &error), expected); // bit for bit
        QVERIFY2(error.empty(), error.c_str());

        // The binary file is the deterministic serialisation (what TensorFlow writes).
        std::ifstream in(prefix + ".meta", std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::string deterministic;
        {
            google::protobuf::io::StringOutputStream stream(&deterministic);
            google::protobuf::io::CodedOutputStream coded(&stream);
            coded.SetSerializationDeterministic(true);
            meta->SerializeToCodedStream(&coded);
        }
        QVERIFY(bytes == deterministic);
    }

    void badInputsFailClearly()
    {
        auto graphOf = [](const std::string& text) {
            tf::MetaGraphDef meta;
            google::protobuf::TextFormat::ParseFromString(text, meta.mutable_graph_def());
            return meta;
        };
        const std::string a = "node { name: 'a' op: 'Const' } ";
        auto expectError = [](const Expected<ImportedMetaGraph>& r, const std::string& text) {
            if (r)
                return QString("expected an error containing \"%1\"").arg(text.c_str());
            if (r.error().message().find(text) == std::string::npos)
                return QString("got: %1").arg(r.error().toString().c_str());
            return QString();
        };
        QString problem;
        problem = expectError(importMetaGraph(graphOf(a + a)), "Node 'a' is not unique");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = expectError(importMetaGraph(graphOf(a + "node { name: 'b' op: 'Identity' input: 'c:1' }")),
                              "Node 'b': Unknown input node 'c:1'");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = expectError(importMetaGraph(graphOf(a + "node { name: 'b' op: 'Identity' input: '^a' input: 'a' }")),
                              "Node 'b': Control dependencies must come after regular dependencies");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = expectError(
            importMetaGraph(
                graphOf(a + "node { name: 'b' op: 'Const' attr { key: '_class' value { list { s: 'loc:@z' } } } }")),
            "Node 'b' expects to be colocated with unknown node 'z'");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = expectError(importMetaGraph(graphOf(a), {.importScope = "bad scope"}),
                              "'bad scope' is not a valid scope name");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        tf::MetaGraphDef unbound = graphOf(a);
        (*unbound.mutable_collection_def())["unbound_inputs"].mutable_bytes_list()->add_value("$unbound_inputs_x");
        problem = expectError(
            importMetaGraph(unbound),
            "Graph contains unbound inputs: $unbound_inputs_x. Must provide these inputs through input_map.");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        tf::MetaGraphDef missing = graphOf(a);
        tf::VariableDef var;
        var.set_variable_name("v:0");
        var.set_initializer_name("a");
        var.set_snapshot_name("a:0");
        (*missing.mutable_collection_def())["variables"].mutable_bytes_list()->add_value(var.SerializeAsString());
        problem =
            expectError(importMetaGraph(missing), "collection 'variables': The name 'v:0' refers to a Tensor which "
                                                  "does not exist. The operation, 'v', does not exist in the graph.");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        tf::MetaGraphDef junk = graphOf(a);
        (*junk.mutable_collection_def())["variables"].mutable_bytes_list()->add_value("\xff\xff\xff");
        auto junkResult = importMetaGraph(junk);
        QVERIFY(!junkResult && junkResult.error().code() == StatusCode::kDataLoss);
        tf::MetaGraphDef badNode = graphOf(a);
        (*badNode.mutable_collection_def())["train_op"].mutable_node_list()->add_value("nope");
        problem = expectError(importMetaGraph(badNode),
                              "collection 'train_op': The name 'nope' refers to an Operation not in the graph.");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // An op we do not have cannot be described in the op list.
        ImportedMetaGraph foreign;
        google::protobuf::TextFormat::ParseFromString("node { name: 'f' op: 'NoSuchOp' }", &foreign.graph);
        auto exported = exportMetaGraph(foreign, m_registries->ops);
        QVERIFY(!exported);
        QCOMPARE(exported.error().message(), std::string("Op NoSuchOp is used by the graph, but is not registered"));

        // Files: missing, truncated binary, bad text.
        QTemporaryDir dir;
        const std::string missingFile = QDir(dir.path()).filePath("none.meta").toStdString();
        auto notThere = readMetaGraphFile(missingFile);
        QVERIFY(!notThere && notThere.error().code() == StatusCode::kNotFound);
        QVERIFY(notThere.error().message().find(missingFile) != std::string::npos);
        SmallModel m = buildSmallModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        auto meta = exportMetaGraph(*m.builder);
        QVERIFY(meta);
        const std::string bytes = meta->SerializeAsString();
        const QString truncated = QDir(dir.path()).filePath("truncated.meta");
        QVERIFY(writeFile(truncated, bytes.substr(0, bytes.size() / 2)));
        auto cut = readMetaGraphFile(truncated.toStdString());
        QVERIFY(!cut);
        QCOMPARE(cut.error().code(), StatusCode::kDataLoss);
        QVERIFY2(cut.error().message().find(
                     "truncated.meta' is not a valid binary MetaGraphDef (truncated or corrupted") != std::string::npos,
                 err(cut));
        const QString text = QDir(dir.path()).filePath("bad.meta.txt");
        QVERIFY(writeFile(text, "meta_info_def {\n  tags: \"serve\"\n}\ngraph_def { nod { } }\n"));
        auto badText = readMetaGraphFile(text.toStdString());
        QVERIFY(!badText);
        QVERIFY2(badText.error().message().find("line 4, column") != std::string::npos, err(badText));
    }
};

QTEST_GUILESS_MAIN(TestMetaGraph)
#include "test_meta_graph.moc"
