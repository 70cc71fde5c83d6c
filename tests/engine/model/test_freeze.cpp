// Freezing (model/freeze.h): pruning to the outputs, variables (ref and resource) replaced by Consts
// holding checkpoint values in make_tensor_proto's layout, TensorFlow's node rewrites, the errors;
// and TensorFlow's own models: the tf2onnx regression model frozen from its .meta and checkpoint
// matches the frozen.pb TensorFlow wrote, and the book's MNIST model frozen for layer2/add gives the
// restored session's logits bit for bit.
#include "../../support/test_files.h"
#include "builder/graph_builder.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/idx_file.h"
#include "layers/dropout.h"
#include "model/freeze.h"
#include "model/restore_variables.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

// x [?,2] . w [2,2] + b [2] with w a ref variable (initializer, Assign, read as TensorFlow builds
// them) and b a resource variable, read directly and through an Identity of its handle; `step` and
// `init` are not needed by the outputs.
constexpr const char* kGraph = R"pb(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 2 } } } } }
node { name: "w/Initializer/zeros" op: "Const" attr { key: "_class" value { list { s: "loc:@w" } } }
       attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } } float_val: 0 } } } }
node { name: "w" op: "VariableV2" device: "/device:CPU:0" attr { key: "_class" value { list { s: "loc:@w" } } }
       attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 2 } dim { size: 2 } } } }
       attr { key: "container" value { s: "" } } attr { key: "shared_name" value { s: "" } } }
node { name: "w/Assign" op: "Assign" input: "w" input: "w/Initializer/zeros"
       attr { key: "T" value { type: DT_FLOAT } } attr { key: "_class" value { list { s: "loc:@w" } } }
       attr { key: "use_locking" value { b: true } } attr { key: "validate_shape" value { b: true } } }
node { name: "w/read" op: "Identity" input: "w" attr { key: "T" value { type: DT_FLOAT } }
       attr { key: "_class" value { list { s: "loc:@w" } } } }
node { name: "b" op: "VarHandleOp" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 2 } } } }
       attr { key: "shared_name" value { s: "b" } } attr { key: "container" value { s: "" } } }
node { name: "b/Read/ReadVariableOp" op: "ReadVariableOp" input: "b" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "b/handle" op: "Identity" input: "b" attr { key: "T" value { type: DT_RESOURCE } }
       attr { key: "_output_shapes" value { list { shape { } } } } }
node { name: "b/Read_1" op: "ReadVariableOp" input: "b/handle" input: "^w/read"
       attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "_class" value { list { s: "loc:@b" } } } }
node { name: "step" op: "VariableV2" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "shape" value { shape { } } } }
node { name: "step_value" op: "Identity" input: "step" attr { key: "T" value { type: DT_INT32 } } }
node { name: "y" op: "MatMul" input: "x" input: "w/read" device: "/device:CPU:0" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "out" op: "Add" input: "y" input: "b/Read/ReadVariableOp" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "neg_b" op: "Neg" input: "b/Read_1" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "init" op: "NoOp" input: "^w/Assign" }
versions { producer: 27 }
)pb";

tensorflow::GraphDef parseGraph(const char* text)
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
        qFatal("test graph does not parse");
    return graph;
}

const tensorflow::NodeDef* findNode(const tensorflow::GraphDef& graph, const std::string& name)
{
    for (const auto& node : graph.node())
        if (node.name() == name)
            return &node;
    return nullptr;
}

QStringList nodeNames(const tensorflow::GraphDef& graph)
{
    QStringList names;
    for (const auto& node : graph.node())
        names << QString::fromStdString(node.name());
    return names;
}

int variableOps(const tensorflow::GraphDef& graph)
{
    int n = 0;
    for (const auto& node : graph.node())
        n += isVariableOp(node.op()) ? 1 : 0;
    return n;
}

std::string floatBytes(const std::vector<float>& values)
{
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

} // namespace

class TestFreeze : public QObject {
    Q_OBJECT

private:
    CpuAllocator m_allocator; // outlives every tensor below
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;

    Tensor floats(const TensorShape& shape, const std::vector<float>& values)
    {
        return Tensor::fromVector<float>(m_allocator, shape, values).value();
    }

    std::string checkpoint(const QString& name, const std::vector<std::pair<std::string, Tensor>>& tensors)
    {
        const std::string prefix = m_dir.filePath(name).toStdString();
        auto writer = TensorBundleWriter::create(prefix);
        if (!writer)
            qFatal("%s", writer.error().toString().c_str());
        for (const auto& [key, tensor] : tensors)
            if (Status s = (*writer)->add(key, tensor); !s.isOk())
                qFatal("%s", s.toString().c_str());
        if (Status s = (*writer)->finish(); !s.isOk())
            qFatal("%s", s.toString().c_str());
        return prefix;
    }

    std::string smallCheckpoint()
    {
        return checkpoint(
            "small", {{"w", floats({2, 2}, {1, 2, 3, 4})},
                      {"b", floats({2}, {0.5f, -1})},
                      {"step", Tensor::fromVector<std::int32_t>(m_allocator, TensorShape::scalar(), {29001}).value()}});
    }

    std::vector<Tensor> run(const tensorflow::GraphDef& graph, const std::vector<std::pair<std::string, Tensor>>& feeds,
                            const std::vector<std::string>& fetches, const std::vector<std::string>& targets = {})
    {
        Session session(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status s = session.create(graph); !s.isOk())
            qFatal("create: %s", s.toString().c_str());
        std::vector<Tensor> out;
        if (Status s = session.run(feeds, fetches, targets, &out); !s.isOk())
            qFatal("run: %s", s.toString().c_str());
        return out;
    }

private slots:
    void theLearningPhaseIsFrozenFalse()
    {
        // x [?,4] -> dropout(rate 0.5) on the graph's learning phase -> "out" = dropped * w: the
        // frozen graph infers (its dropout passes x through), whatever is fed elsewhere.
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 2}), "x");
        QVERIFY(x);
        auto phase = learningPhase(b);
        QVERIFY2(phase, phase ? "" : phase.error().toString().c_str());
        layers::DropoutOptions options;
        options.rate = 0.5;
        auto dropped = layers::dropout(b, *x, options, *phase);
        QVERIFY2(dropped, dropped ? "" : dropped.error().toString().c_str());
        auto w = getVariable(b, "w", TensorShape({2, 2}), tensorflow::DT_FLOAT, Initializer::zeros());
        QVERIFY(w);
        auto out = ops::firstOutput(b.op("MatMul", {*dropped, w->value()}, {}, "out"));
        QVERIFY(out);
        auto frozen = freezeGraph(b.graphDef(), checkpoint("phase", {{"w", floats({2, 2}, {1, 0, 0, 1})}}), {"out"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QVERIFY(frozen->learningPhaseFixed);
        const tensorflow::NodeDef* node = findNode(frozen->graph, "learning_phase");
        QVERIFY(node);
        QCOMPARE(node->op(), std::string("Const"));
        QCOMPARE(node->attr().at("dtype").type(), tensorflow::DT_BOOL);
        const std::vector<float> input(200 * 2, 1.0f);
        const auto result = run(frozen->graph, {{"x", floats({200, 2}, input)}}, {"out:0"});
        for (float v : result.front().values<float>())
            QCOMPARE(v, 1.0f); // no element dropped, none scaled by 2
        // Asked to keep it, freezing leaves the placeholder (then the graph trains by default).
        FreezeOptions keep;
        keep.learningPhaseFalse = false;
        auto kept = freezeGraph(b.graphDef(), checkpoint("phase2", {{"w", floats({2, 2}, {1, 0, 0, 1})}}), {"out"}, keep);
        QVERIFY(kept && !kept->learningPhaseFixed);
        QCOMPARE(findNode(kept->graph, "learning_phase")->op(), std::string("PlaceholderWithDefault"));
    }
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void prunesAndReplacesVariables()
    {
        auto frozen = freezeGraph(parseGraph(kGraph), smallCheckpoint(), {"out", "neg_b"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        const tensorflow::GraphDef& g = frozen->graph;
        // Original order; initializer, Assign, step and init are gone.
        QCOMPARE(nodeNames(g), QStringList({"x", "w", "w/read", "b", "b/Read/ReadVariableOp", "b/handle", "b/Read_1",
                                            "y", "out", "neg_b"}));
        QCOMPARE(frozen->frozenVariables, (std::vector<std::string>{"w", "b"}));
        QCOMPARE(variableOps(g), 0);

        // A Const with exactly dtype and value, the values as tensor_content (more than one float).
        const tensorflow::NodeDef* w = findNode(g, "w");
        QCOMPARE(w->op(), std::string("Const"));
        QVERIFY(w->device().empty());
        QCOMPARE(w->input_size(), 0);
        QCOMPARE(int(w->attr().size()), 2);
        QCOMPARE(w->attr().at("dtype").type(), tensorflow::DT_FLOAT);
        const tensorflow::TensorProto& wValue = w->attr().at("value").tensor();
        QCOMPARE(wValue.dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(wValue.tensor_shape().dim_size(), 2);
        QCOMPARE(wValue.tensor_content(), floatBytes({1, 2, 3, 4}));
        QCOMPARE(wValue.float_val_size(), 0);
        QCOMPARE(findNode(g, "b")->attr().at("value").tensor().tensor_content(), floatBytes({0.5f, -1}));
        // "w/read" is kept as it was.
        QCOMPARE(findNode(g, "w/read")->op(), std::string("Identity"));
        QCOMPARE(findNode(g, "w/read")->attr().at("_class").list().s(0), std::string("loc:@w"));

        // ReadVariableOp -> Identity of its first input (control inputs dropped, "_class" kept).
        const tensorflow::NodeDef* read = findNode(g, "b/Read_1");
        QCOMPARE(read->op(), std::string("Identity"));
        QCOMPARE(read->input_size(), 1);
        QCOMPARE(read->input(0), std::string("b/handle"));
        QCOMPARE(read->attr().at("T").type(), tensorflow::DT_FLOAT);
        QVERIFY(read->attr().contains("_class"));
        QVERIFY(!read->attr().contains("dtype"));
        // The Identity of the handle now passes the value: T float, no _output_shapes.
        const tensorflow::NodeDef* handle = findNode(g, "b/handle");
        QCOMPARE(handle->op(), std::string("Identity"));
        QCOMPARE(handle->attr().at("T").type(), tensorflow::DT_FLOAT);
        QVERIFY(!handle->attr().contains("_output_shapes"));

        // Devices cleared (freeze_graph's default); no versions, library present (as TensorFlow).
        QVERIFY(findNode(g, "y")->device().empty());
        QVERIFY(!g.has_versions());
        QVERIFY(g.has_library());

        const auto out = run(g, {{"x", floats({1, 2}, {1, 2})}}, {"out:0", "neg_b:0"});
        QCOMPARE(out[0].values<float>()[0], 7.5f); // 1*1 + 2*3 + 0.5
        QCOMPARE(out[0].values<float>()[1], 9.0f); // 1*2 + 2*4 - 1
        QCOMPARE(out[1].values<float>()[0], -0.5f);
        QCOMPARE(out[1].values<float>()[1], 1.0f);
    }

    void extractSubGraphKeepsColocatedNodes()
    {
        // extract_sub_graph keeps the nodes an output is colocated with, and versions and library.
        tensorflow::GraphDef graph = parseGraph(R"pb(
node { name: "a" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 1 } } } }
node { name: "unused" op: "NoOp" }
node { name: "anchor" op: "NoOp" }
node { name: "c" op: "Identity" input: "a" attr { key: "T" value { type: DT_FLOAT } }
       attr { key: "_class" value { list { s: "loc:@anchor" } } } }
versions { producer: 27 })pb");
        auto sub = extractSubGraph(graph, {"c"});
        QVERIFY(sub);
        QCOMPARE(nodeNames(*sub), QStringList({"a", "anchor", "c"}));
        QCOMPARE(sub->versions().producer(), 27);
    }

    void scalarsUseTheTypedField()
    {
        auto frozen = freezeGraph(parseGraph(kGraph), smallCheckpoint(), {"step_value"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(nodeNames(frozen->graph), QStringList({"step", "step_value"}));
        const tensorflow::TensorProto& value = findNode(frozen->graph, "step")->attr().at("value").tensor();
        QCOMPARE(value.dtype(), tensorflow::DT_INT32);
        QCOMPARE(value.tensor_shape().dim_size(), 0);
        QVERIFY(value.tensor_content().empty());
        QCOMPARE(value.int_val_size(), 1);
        QCOMPARE(value.int_val(0), 29001);
        QCOMPARE(run(frozen->graph, {}, {"step_value:0"})[0].values<std::int32_t>()[0], 29001);
    }

    void resourceGatherBecomesGatherV2()
    {
        tensorflow::GraphDef graph = parseGraph(R"pb(
node { name: "emb" op: "VarHandleOp" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 3 } dim { size: 2 } } } } attr { key: "shared_name" value { s: "emb" } } }
node { name: "ids" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
node { name: "g" op: "ResourceGather" input: "emb" input: "ids" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "Tindices" value { type: DT_INT32 } } attr { key: "_class" value { list { s: "loc:@emb" } } } })pb");
        const std::string prefix = checkpoint("emb", {{"emb", floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
        auto frozen = freezeGraph(graph, prefix, {"g"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(nodeNames(frozen->graph), QStringList({"emb", "ids", "g/axis", "g"}));
        const tensorflow::NodeDef* g = findNode(frozen->graph, "g");
        QCOMPARE(g->op(), std::string("GatherV2"));
        QCOMPARE(g->input(2), std::string("g/axis"));
        QCOMPARE(g->attr().at("Tparams").type(), tensorflow::DT_FLOAT);
        QCOMPARE(g->attr().at("Taxis").type(), tensorflow::DT_INT32);
        const tensorflow::TensorProto& axis = findNode(frozen->graph, "g/axis")->attr().at("value").tensor();
        QCOMPARE(axis.int_val_size(), 1);
        QCOMPARE(axis.int_val(0), 0);
        const Tensor ids = Tensor::fromVector<std::int32_t>(m_allocator, TensorShape{2}, {2, 0}).value();
        const auto out = run(frozen->graph, {{"ids", ids}}, {"g:0"});
        QCOMPARE(std::vector<float>(out[0].values<float>().begin(), out[0].values<float>().end()),
                 (std::vector<float>{5, 6, 1, 2}));
    }

    void optionsKeepVariablesAndDevices()
    {
        FreezeOptions options;
        options.variableAllowlist = std::set<std::string>{"w"};
        options.clearDevices = false;
        auto frozen = freezeGraph(parseGraph(kGraph), smallCheckpoint(), {"out", "neg_b"}, options);
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(findNode(frozen->graph, "w")->op(), std::string("Const"));
        QCOMPARE(findNode(frozen->graph, "b")->op(), std::string("VarHandleOp"));
        QCOMPARE(findNode(frozen->graph, "b/Read_1")->op(), std::string("ReadVariableOp"));
        QCOMPARE(findNode(frozen->graph, "b/handle")->attr().at("T").type(), tensorflow::DT_RESOURCE);
        QCOMPARE(findNode(frozen->graph, "y")->device(), std::string("/device:CPU:0"));

        FreezeOptions block;
        block.variableBlocklist = {"w"};
        frozen = freezeGraph(parseGraph(kGraph), smallCheckpoint(), {"out"}, block);
        QVERIFY(frozen);
        QCOMPARE(findNode(frozen->graph, "w")->op(), std::string("VariableV2"));
        QCOMPARE(findNode(frozen->graph, "b")->op(), std::string("Const"));
    }

    void usesTheKeyTheSaverRestores()
    {
        // A saver that restores w from the key "renamed/w" (tf.train.Saver({"renamed/w": w})).
        tensorflow::GraphDef graph = parseGraph(kGraph);
        const char* saver = R"pb(
node { name: "save/Const" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
       attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { } string_val: "model" } } } }
node { name: "save/RestoreV2/tensor_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
       attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: "renamed/w" } } } }
node { name: "save/RestoreV2/shape_and_slices" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
       attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: "" } } } }
node { name: "save/RestoreV2" op: "RestoreV2" input: "save/Const" input: "save/RestoreV2/tensor_names"
       input: "save/RestoreV2/shape_and_slices" attr { key: "dtypes" value { list { type: DT_FLOAT } } } }
node { name: "save/Assign" op: "Assign" input: "w" input: "save/RestoreV2" attr { key: "T" value { type: DT_FLOAT } } }
)pb";
        graph.MergeFrom(parseGraph(saver));
        QCOMPARE(saverCheckpointKeys(graph), (std::map<std::string, std::string>{{"w", "renamed/w"}}));
        const std::string prefix =
            checkpoint("renamed", {{"renamed/w", floats({2, 2}, {1, 0, 0, 1})}, {"b", floats({2}, {0, 0})}});
        auto frozen = freezeGraph(graph, prefix, {"out"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(findNode(frozen->graph, "w")->attr().at("value").tensor().tensor_content(), floatBytes({1, 0, 0, 1}));
    }

    void errorsNameWhatIsWrong()
    {
        const tensorflow::GraphDef graph = parseGraph(kGraph);
        const std::string prefix = smallCheckpoint();
        auto r = freezeGraph(graph, prefix, {});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
        r = freezeGraph(graph, prefix, {"nope"});
        QVERIFY(!r);
        QVERIFY2(r.error().message().find("output node 'nope' is not in the graph") != std::string::npos,
                 r.error().message().c_str());
        r = freezeGraph(graph, prefix, {"out:0"});
        QVERIFY(!r);
        QVERIFY2(r.error().message().find("'out', not tensor names") != std::string::npos, r.error().message().c_str());

        r = freezeGraph(graph, m_dir.filePath("missing").toStdString(), {"out"});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kNotFound);
        QVERIFY(r.error().message().find("missing") != std::string::npos);

        // A needed variable the checkpoint lacks; one that is not needed may be missing.
        const std::string noB = checkpoint("no_b", {{"w", floats({2, 2}, {1, 2, 3, 4})}});
        r = freezeGraph(graph, noB, {"out"});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kNotFound);
        QVERIFY2(r.error().message().find("variable 'b' (VarHandleOp) is not in checkpoint '" + noB + "'") !=
                     std::string::npos,
                 r.error().message().c_str());
        QVERIFY(freezeGraph(graph, noB, {"y"}));

        const std::string badShape =
            checkpoint("bad_shape", {{"w", floats({4}, {1, 2, 3, 4})}, {"b", floats({2}, {0, 0})}});
        r = freezeGraph(graph, badShape, {"out"});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(r.error().message().find("variable 'w' has shape [2,2] in the graph but checkpoint") !=
                         std::string::npos &&
                     r.error().message().find("with shape [4]") != std::string::npos,
                 r.error().message().c_str());

        const std::string badType =
            checkpoint("bad_type", {{"w", Tensor::fromVector<std::int32_t>(m_allocator, {2, 2}, {1, 2, 3, 4}).value()},
                                    {"b", floats({2}, {0, 0})}});
        r = freezeGraph(graph, badType, {"out"});
        QVERIFY(!r);
        QVERIFY2(r.error().message().find("variable 'w' has dtype float in the graph") != std::string::npos &&
                     r.error().message().find("as int32") != std::string::npos,
                 r.error().message().c_str());

        // A ReadVariableOp whose handle comes from no variable.
        tensorflow::GraphDef noVariable = parseGraph(R"pb(
node { name: "h" op: "Placeholder" attr { key: "dtype" value { type: DT_RESOURCE } } }
node { name: "r" op: "ReadVariableOp" input: "h" attr { key: "dtype" value { type: DT_FLOAT } } })pb");
        r = freezeGraph(noVariable, prefix, {"r"});
        QVERIFY(!r);
        QVERIFY2(r.error().message().find("node 'r' (ReadVariableOp): Cannot find the variable") != std::string::npos,
                 r.error().message().c_str());
    }

    void regressionModelMatchesTensorFlowsFrozenGraph()
    {
        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf2onnx regression model is not checked");
        auto meta = readGraphFromFile((fixtures + "/tf2onnx/regression/checkpoint/model.meta").toStdString());
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        auto frozen =
            freezeGraph(meta->graph, (fixtures + "/tf2onnx/regression/checkpoint/model").toStdString(), {"pred"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(variableOps(frozen->graph), 0);
        QCOMPARE(frozen->frozenVariables, (std::vector<std::string>{"W", "b"}));

        const auto ours = run(frozen->graph, {{"X", floats({1}, {5.0f})}}, {"pred:0"});
        QVERIFY(std::abs(ours[0].values<float>()[0] - 2.1193342f) <= 1e-6f);
        auto theirs = readGraphDef((fixtures + "/tf2onnx/regression/graphdef/frozen.pb").toStdString());
        QVERIFY(theirs);
        const auto reference = run(*theirs, {{"X", floats({1}, {5.0f})}}, {"pred:0"});
        QCOMPARE(ours[0].values<float>()[0], reference[0].values<float>()[0]);

        // Node for node what TensorFlow wrote, once the "_output_shapes" that the .meta export
        // added (and TensorFlow's freezing keeps) are set aside.
        tensorflow::GraphDef stripped = frozen->graph;
        for (auto& node : *stripped.mutable_node())
            node.mutable_attr()->erase("_output_shapes");
        QCOMPARE(nodeNames(stripped), nodeNames(*theirs));
        QCOMPARE(serializeGraphDef(stripped, GraphDefFormat::kBinary).value(),
                 serializeGraphDef(*theirs, GraphDefFormat::kBinary).value());
    }

    void mnistFrozenGivesTheRestoredLogits()
    {
        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the book's MNIST model is not checked");
        const std::string prefix = (fixtures + "/tf1-mnist-book/mnist_model-29001").toStdString();
        auto meta = readGraphFromFile(prefix + ".meta");
        QVERIFY(meta);
        auto images = readIdxFile((fixtures + "/mnist/t10k-images-idx3-ubyte.gz").toStdString(), m_allocator, 4);
        QVERIFY(images);
        std::vector<float> pixels;
        for (std::uint8_t p : images->values<std::uint8_t>())
            pixels.push_back(float(p) / 255.0f);
        const Tensor x = floats({4, 784}, pixels);

        auto frozen = freezeGraph(meta->graph, prefix, {"layer2/add"});
        QVERIFY2(frozen, frozen ? "" : frozen.error().toString().c_str());
        QCOMPARE(variableOps(frozen->graph), 0);
        QCOMPARE(frozen->frozenVariables,
                 (std::vector<std::string>{"layer1/weights", "layer1/biases", "layer2/weights", "layer2/biases"}));
        QVERIFY(frozen->graph.node_size() < 20); // of 331: the training, saving and averaging nodes are gone
        // The constants hold the checkpoint's bytes.
        auto reader = TensorBundleReader::open(prefix);
        QVERIFY(reader);
        const Tensor weights = reader->read("layer1/weights", m_allocator).value();
        const std::string& content =
            findNode(frozen->graph, "layer1/weights")->attr().at("value").tensor().tensor_content();
        QCOMPARE(content.size(), std::size_t(784 * 500 * 4));
        QVERIFY(std::memcmp(content.data(), weights.tensorData().data(), content.size()) == 0);

        // The restored session, through the MetaGraphDef's saver nodes.
        Session restored(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        QVERIFY(restored.create(meta->graph).isOk());
        std::vector<Tensor> out;
        const Tensor filename = Tensor::fromVector<std::string>(m_allocator, TensorShape::scalar(), {prefix}).value();
        Status s = restored.run({{"save/Const:0", filename}}, {}, {"save/restore_all"}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(restored.run({{"x-input:0", x}}, {"layer2/add:0"}, {}, &out).isOk());
        const Tensor expected = out[0];

        const Tensor logits = run(frozen->graph, {{"x-input:0", x}}, {"layer2/add:0"})[0];
        QCOMPARE(logits.shape().toString(), std::string("[4,10]"));
        QVERIFY(std::memcmp(logits.tensorData().data(), expected.tensorData().data(), 40 * sizeof(float)) == 0);
    }
};

QTEST_GUILESS_MAIN(TestFreeze)
#include "test_freeze.moc"
