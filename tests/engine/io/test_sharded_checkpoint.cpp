// Sharded saves as TensorFlow 1.x's sharded Saver graph makes them, run through a Session: one
// SaveV2 per shard into PREFIX_temp_<id>/part-0000N-of-00002 (StringJoin + ShardedFilename), then
// MergeV2Checkpoints into PREFIX. Every tensor reads back from the merged two-shard bundle (reader
// and RestoreV2), and a missing shard is an error naming the missing .data file, at merge time and
// at restore time. The Saver builds that graph itself with sharded=True (node names, devices and
// inputs as TensorFlow 1.15's), saves and restores through it, and is Scaffold's default.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "model/saver.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "training/scaffold.h"

#include <google/protobuf/text_format.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>
#include <set>

using namespace tstudio;

namespace {

// Four tensors of four dtypes; shard 0 saves v0 and v2, shard 1 saves v1 and v3.
constexpr const char* kGraph = R"pb(
  node { name: "v0" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
    attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } }
      float_val: 1.5 float_val: -2 float_val: 1e30 } } } }
  node { name: "v1" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
    attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } dim { size: 2 } }
      int_val: 1 int_val: 2 int_val: 3 int_val: -4 } } } }
  node { name: "v2" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
      string_val: "x" string_val: "shard" } } } }
  node { name: "v3" op: "Const" attr { key: "dtype" value { type: DT_DOUBLE } }
    attr { key: "value" value { tensor { dtype: DT_DOUBLE tensor_shape { } double_val: 0.25 } } } }
  node { name: "save/Const" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "shape" value { shape { } } } }
  node { name: "save/StringJoin/inputs_1" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { }
      string_val: "_temp_6d2e1a40c8f34b5e/part" } } } }
  node { name: "save/StringJoin" op: "StringJoin" input: "save/Const" input: "save/StringJoin/inputs_1"
    attr { key: "N" value { i: 2 } } attr { key: "separator" value { s: "" } } }
  node { name: "save/num_shards" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
    attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 2 } } } }
  node { name: "save/ShardedFilename/shard" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
    attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 0 } } } }
  node { name: "save/ShardedFilename" op: "ShardedFilename"
    input: "save/StringJoin" input: "save/ShardedFilename/shard" input: "save/num_shards" }
  node { name: "save/SaveV2/tensor_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
      string_val: "v0" string_val: "v2" } } } }
  node { name: "save/SaveV2/shape_and_slices" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
      string_val: "" string_val: "" } } } }
  node { name: "save/SaveV2" op: "SaveV2" input: "save/ShardedFilename" input: "save/SaveV2/tensor_names"
    input: "save/SaveV2/shape_and_slices" input: "v0" input: "v2"
    attr { key: "dtypes" value { list { type: DT_FLOAT type: DT_STRING } } } }
  node { name: "save/control_dependency" op: "Identity" input: "save/ShardedFilename" input: "^save/SaveV2"
    attr { key: "T" value { type: DT_STRING } } }
  node { name: "save/ShardedFilename_1/shard" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
    attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
  node { name: "save/ShardedFilename_1" op: "ShardedFilename"
    input: "save/StringJoin" input: "save/ShardedFilename_1/shard" input: "save/num_shards" }
  node { name: "save/SaveV2_1/tensor_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
      string_val: "v1" string_val: "v3" } } } }
  node { name: "save/SaveV2_1" op: "SaveV2" input: "save/ShardedFilename_1" input: "save/SaveV2_1/tensor_names"
    input: "save/SaveV2/shape_and_slices" input: "v1" input: "v3"
    attr { key: "dtypes" value { list { type: DT_INT32 type: DT_DOUBLE } } } }
  node { name: "save/control_dependency_1" op: "Identity" input: "save/ShardedFilename_1" input: "^save/SaveV2_1"
    attr { key: "T" value { type: DT_STRING } } }
  node { name: "save/MergeV2Checkpoints/checkpoint_prefixes" op: "Pack"
    input: "save/control_dependency" input: "save/control_dependency_1"
    attr { key: "N" value { i: 2 } } attr { key: "T" value { type: DT_STRING } } attr { key: "axis" value { i: 0 } } }
  node { name: "save/MergeV2Checkpoints" op: "MergeV2Checkpoints"
    input: "save/MergeV2Checkpoints/checkpoint_prefixes" input: "save/Const"
    attr { key: "delete_old_dirs" value { b: true } } }
  node { name: "save/Identity" op: "Identity" input: "save/Const" input: "^save/MergeV2Checkpoints"
    attr { key: "T" value { type: DT_STRING } } }
  node { name: "save/RestoreV2/tensor_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 4 } }
      string_val: "v0" string_val: "v1" string_val: "v2" string_val: "v3" } } } }
  node { name: "save/RestoreV2/shape_and_slices" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 4 } }
      string_val: "" string_val: "" string_val: "" string_val: "" } } } }
  node { name: "save/RestoreV2" op: "RestoreV2" input: "save/Const" input: "save/RestoreV2/tensor_names"
    input: "save/RestoreV2/shape_and_slices"
    attr { key: "dtypes" value { list { type: DT_FLOAT type: DT_INT32 type: DT_STRING type: DT_DOUBLE } } } }
  node { name: "save/RestoreV2_1/tensor_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: "v0" } } } }
  node { name: "save/RestoreV2_1/shape_and_slices" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
    attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: "" } } } }
  node { name: "save/RestoreV2_1" op: "RestoreV2" input: "save/Const" input: "save/RestoreV2_1/tensor_names"
    input: "save/RestoreV2_1/shape_and_slices" attr { key: "dtypes" value { list { type: DT_FLOAT } } } }
)pb";

const std::vector<std::string> kNames = {"v0", "v1", "v2", "v3"};

bool sameContents(const Tensor& a, const Tensor& b)
{
    if (a.dtype() != b.dtype() || a.shape() != b.shape())
        return false;
    if (a.dtype() == tensorflow::DT_STRING)
        return std::equal(a.strings().begin(), a.strings().end(), b.strings().begin(), b.strings().end());
    return a.tensorData().size() == b.tensorData().size() &&
           std::memcmp(a.tensorData().data(), b.tensorData().data(), a.tensorData().size()) == 0;
}

template <typename T> const char* why(const Expected<T>& e)
{
    static thread_local std::string text;
    text = e ? "ok" : e.error().toString();
    return text.c_str();
}

/// The data inputs of `node` and, as a set, its control inputs.
std::pair<std::vector<std::string>, std::set<std::string>> inputsOf(const tensorflow::NodeDef& node)
{
    std::pair<std::vector<std::string>, std::set<std::string>> inputs;
    for (const std::string& in : node.input()) {
        if (!in.empty() && in.front() == '^')
            inputs.second.insert(in);
        else
            inputs.first.push_back(in);
    }
    return inputs;
}

const tensorflow::NodeDef* nodeNamed(const tensorflow::GraphDef& graph, const std::string& name)
{
    for (const auto& node : graph.node())
        if (node.name() == name)
            return &node;
    return nullptr;
}

/// Variables a [2] (no device), b [2,2] and c int64 scalar (both on /cpu:0), "init", and
/// "scramble" that overwrites all three.
void buildPlacedVariables(GraphBuilder& b)
{
    auto a = variable(b, makeTensorProto(tensorflow::DT_FLOAT, {2}, std::vector<double>{1.5, -2}).value(), "a");
    QVERIFY(a);
    Expected<Variable> bv = unexpected(internalError("unset"));
    Expected<Variable> cv = unexpected(internalError("unset"));
    {
        auto placed = b.device("/cpu:0");
        QVERIFY(placed);
        bv = variable(b, makeTensorProto(tensorflow::DT_FLOAT, {2, 2}, std::vector<double>{1, 2, 3, 4}).value(), "b");
        cv = variable(b, makeTensorProto(tensorflow::DT_INT64, TensorShape::scalar(), std::vector<double>{7}).value(),
                      "c");
    }
    QVERIFY(bv && cv);
    QVERIFY(globalVariablesInitializer(b));
    auto za = ops::zeros(b, {2});
    auto zb = ops::zeros(b, {2, 2});
    auto zc = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT64);
    QVERIFY(za && zb && zc);
    auto sa = b.op("Assign", {a->ref(), *za});
    auto sb = b.op("Assign", {bv->ref(), *zb});
    auto sc = b.op("Assign", {cv->ref(), *zc});
    QVERIFY(sa && sb && sc);
    QVERIFY(ops::group(b, {*sa, *sb, *sc}, "scramble"));
}

} // namespace

class TestShardedCheckpoint : public QObject {
    Q_OBJECT

private:
    CpuAllocator m_cpu;
    std::unique_ptr<Registries> m_registries;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Session> m_session;
    std::string m_prefix;

    Tensor prefixTensor(const std::string& prefix)
    {
        return Tensor::fromVector<std::string>(m_cpu, TensorShape::scalar(), {prefix}).value();
    }
    QString path(const std::string& suffix) const { return QString::fromStdString(m_prefix + suffix); }

    /// The four tensors as the graph's Consts hold them.
    std::vector<Tensor> expectedValues()
    {
        std::vector<Tensor> out;
        std::vector<std::string> fetches(kNames.begin(), kNames.end());
        if (Status s = m_session->run({}, fetches, {}, &out); !s.isOk())
            qFatal("%s", s.toString().c_str());
        return out;
    }

    Status save(const std::string& prefix, std::vector<Tensor>* out)
    {
        return m_session->run({{"save/Const:0", prefixTensor(prefix)}}, {"save/Identity:0"}, {}, out);
    }

private slots:
    void init()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
        tensorflow::GraphDef graph;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(kGraph, &graph));
        m_session = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        const Status created = m_session->create(graph);
        QVERIFY2(created.isOk(), created.toString().c_str());
        m_dir = std::make_unique<QTemporaryDir>();
        m_prefix = m_dir->filePath("model.ckpt-5").toStdString();
    }

    void cleanup()
    {
        m_session.reset();
        m_dir.reset();
    }

    void shardedSaveReadsBackEveryTensor()
    {
        std::vector<Tensor> out;
        const Status saved = save(m_prefix, &out);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        QCOMPARE(out.at(0).strings()[0], m_prefix);
        // The merged bundle: one index, two data files; the parts' directory is gone.
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{"model.ckpt-5.data-00000-of-00002", "model.ckpt-5.data-00001-of-00002",
                              "model.ckpt-5.index"}));

        auto reader = TensorBundleReader::open(m_prefix);
        QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
        QCOMPARE(reader->numShards(), 2);
        const std::vector<Tensor> expected = expectedValues();
        const std::vector<int> shardOf = {0, 1, 0, 1};
        QCOMPARE(reader->tensors().size(), kNames.size());
        for (std::size_t i = 0; i < kNames.size(); ++i) {
            QCOMPARE(reader->lookUp(kNames[i])->shardId, shardOf[i]);
            auto read = reader->read(kNames[i], m_cpu);
            QVERIFY2(read, read ? "" : read.error().toString().c_str());
            QVERIFY2(sameContents(*read, expected[i]), kNames[i].c_str());
        }
        // RestoreV2 in the same graph reads all four across both shards.
        const Status restored =
            m_session->run({{"save/Const:0", prefixTensor(m_prefix)}},
                           {"save/RestoreV2:0", "save/RestoreV2:1", "save/RestoreV2:2", "save/RestoreV2:3"}, {}, &out);
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        for (std::size_t i = 0; i < kNames.size(); ++i)
            QVERIFY2(sameContents(out.at(i), expected[i]), kNames[i].c_str());
    }

    void missingShardAfterTheMergeIsNamed()
    {
        std::vector<Tensor> out;
        QVERIFY(save(m_prefix, &out).isOk());
        const QString lost = path(".data-00001-of-00002");
        QVERIFY(QFile::remove(lost));

        auto reader = TensorBundleReader::open(m_prefix);
        QVERIFY(reader); // the index alone opens, as TensorFlow's reader opens data files on use
        auto v1 = reader->read("v1", m_cpu);
        QVERIFY(!v1);
        QCOMPARE(v1.error().code(), StatusCode::kNotFound);
        QVERIFY2(v1.error().message().find(lost.toStdString()) != std::string::npos, v1.error().toString().c_str());
        QVERIFY(reader->read("v0", m_cpu)); // the other shard is intact

        // RestoreV2 of all four names fails on v1, naming the file; of v0 alone it succeeds.
        const Status restored =
            m_session->run({{"save/Const:0", prefixTensor(m_prefix)}}, {"save/RestoreV2:0"}, {}, &out);
        QCOMPARE(restored.code(), StatusCode::kNotFound);
        QVERIFY2(restored.message().find("model.ckpt-5.data-00001-of-00002") != std::string::npos,
                 restored.toString().c_str());
        QVERIFY2(restored.message().find("save/RestoreV2") != std::string::npos, restored.toString().c_str());
        const Status one = m_session->run({{"save/Const:0", prefixTensor(m_prefix)}}, {"save/RestoreV2_1:0"}, {}, &out);
        QVERIFY2(one.isOk(), one.toString().c_str());
    }

    void missingShardBeforeTheMergeIsNamed()
    {
        // Run the two SaveV2 only, lose the second part's data, then merge.
        std::vector<Tensor> parts;
        const Status saved = m_session->run({{"save/Const:0", prefixTensor(m_prefix)}},
                                            {"save/control_dependency:0", "save/control_dependency_1:0"}, {}, &parts);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        const std::string part1 = parts.at(1).strings()[0];
        QCOMPARE(part1, m_prefix + "_temp_6d2e1a40c8f34b5e/part-00001-of-00002");
        const QString lost = QString::fromStdString(part1 + ".data-00000-of-00001");
        QVERIFY(QFile::remove(lost));

        auto prefixes = Tensor::fromVector<std::string>(m_cpu, TensorShape{2}, {parts[0].strings()[0], part1}).value();
        std::vector<Tensor> none;
        const Status merged = m_session->run(
            {{"save/Const:0", prefixTensor(m_prefix)}, {"save/MergeV2Checkpoints/checkpoint_prefixes:0", prefixes}}, {},
            {"save/MergeV2Checkpoints"}, &none);
        QCOMPARE(merged.code(), StatusCode::kNotFound);
        QVERIFY2(merged.message().find(lost.toStdString()) != std::string::npos, merged.toString().c_str());
        // Nothing was merged: no index under the prefix, the first part's data still in place.
        QVERIFY(!QFile::exists(path(".index")));
        QVERIFY(QFile::exists(QString::fromStdString(parts[0].strings()[0] + ".data-00000-of-00001")));
    }

    void saverBuildsTensorFlowsShardedGraph()
    {
        GraphBuilder b(m_registries->ops);
        buildPlacedVariables(b);
        SaverOptions options;
        options.graph.sharded = true;
        options.graph.shardedTempId = "0123456789abcdef0123456789abcdef";
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, why(saver));
        const tensorflow::SaverDef& def = saver->saverDef();
        QVERIFY(def.sharded());
        QCOMPARE(def.filename_tensor_name(), std::string("save/Const:0"));
        QCOMPARE(def.save_tensor_name(), std::string("save/Identity:0"));
        QCOMPARE(def.restore_op_name(), std::string("save/restore_all"));
        QCOMPARE(def.version(), tensorflow::SaverDef::V2);

        // Shards by device, sorted: "" (a) then /device:CPU:0 (b, c).
        const tensorflow::GraphDef& graph = b.graphDef();
        std::vector<std::string> names;
        for (const auto& node : graph.node())
            if (node.name().rfind("save/", 0) == 0)
                names.push_back(node.name());
        const std::vector<std::string> expected = {"save/filename/input",
                                                   "save/filename",
                                                   "save/Const",
                                                   "save/StringJoin/inputs_1",
                                                   "save/StringJoin",
                                                   "save/num_shards",
                                                   "save/ShardedFilename/shard",
                                                   "save/ShardedFilename",
                                                   "save/SaveV2/tensor_names",
                                                   "save/SaveV2/shape_and_slices",
                                                   "save/SaveV2",
                                                   "save/control_dependency",
                                                   "save/ShardedFilename_1/shard",
                                                   "save/ShardedFilename_1",
                                                   "save/SaveV2_1/tensor_names",
                                                   "save/SaveV2_1/shape_and_slices",
                                                   "save/SaveV2_1",
                                                   "save/control_dependency_1",
                                                   "save/MergeV2Checkpoints/checkpoint_prefixes",
                                                   "save/MergeV2Checkpoints",
                                                   "save/Identity",
                                                   "save/RestoreV2/tensor_names",
                                                   "save/RestoreV2/shape_and_slices",
                                                   "save/RestoreV2",
                                                   "save/Assign",
                                                   "save/restore_shard",
                                                   "save/RestoreV2_1/tensor_names",
                                                   "save/RestoreV2_1/shape_and_slices",
                                                   "save/RestoreV2_1",
                                                   "save/Assign_1",
                                                   "save/Assign_2",
                                                   "save/restore_shard_1",
                                                   "save/restore_all/NoOp",
                                                   "save/restore_all/NoOp_1",
                                                   "save/restore_all"};
        QCOMPARE(names, expected);

        const auto* suffix = nodeNamed(graph, "save/StringJoin/inputs_1");
        QCOMPARE(suffix->attr().at("value").tensor().string_val(0),
                 std::string("_temp_0123456789abcdef0123456789abcdef/part"));
        QCOMPARE(inputsOf(*nodeNamed(graph, "save/StringJoin")).first,
                 (std::vector<std::string>{"save/Const", "save/StringJoin/inputs_1"}));
        QCOMPARE(nodeNamed(graph, "save/num_shards")->attr().at("value").tensor().int_val(0), 2);
        const auto* sharded1 = nodeNamed(graph, "save/ShardedFilename_1");
        QCOMPARE(inputsOf(*sharded1).first,
                 (std::vector<std::string>{"save/StringJoin", "save/ShardedFilename_1/shard", "save/num_shards"}));
        // Every shard saves on its device's CPU:0; the merge on the last shard's.
        for (const char* n : {"save/ShardedFilename", "save/SaveV2", "save/control_dependency",
                              "save/ShardedFilename_1", "save/SaveV2_1", "save/MergeV2Checkpoints", "save/Identity"})
            QCOMPARE(nodeNamed(graph, n)->device(), std::string("/device:CPU:0"));
        QCOMPARE(nodeNamed(graph, "save/StringJoin")->device(), std::string());
        const auto* names1 = nodeNamed(graph, "save/SaveV2_1/tensor_names");
        QCOMPARE(names1->attr().at("value").tensor().string_val_size(), 2);
        QCOMPARE(names1->attr().at("value").tensor().string_val(1), std::string("c"));
        const auto* dependency = nodeNamed(graph, "save/control_dependency_1");
        QCOMPARE(inputsOf(*dependency).first, std::vector<std::string>{"save/ShardedFilename_1"});
        QCOMPARE(inputsOf(*dependency).second, std::set<std::string>{"^save/SaveV2_1"});
        QCOMPARE(dependency->attr().at("_class").list().s(0), std::string("loc:@save/ShardedFilename_1"));
        const auto* pack = nodeNamed(graph, "save/MergeV2Checkpoints/checkpoint_prefixes");
        QCOMPARE(pack->op(), std::string("Pack"));
        QCOMPARE(inputsOf(*pack).first, (std::vector<std::string>{"save/ShardedFilename", "save/ShardedFilename_1"}));
        QCOMPARE(inputsOf(*pack).second,
                 (std::set<std::string>{"^save/control_dependency", "^save/control_dependency_1"}));
        const auto* merge = nodeNamed(graph, "save/MergeV2Checkpoints");
        QCOMPARE(inputsOf(*merge).first,
                 (std::vector<std::string>{"save/MergeV2Checkpoints/checkpoint_prefixes", "save/Const"}));
        QVERIFY(merge->attr().at("delete_old_dirs").b());
        const auto* identity = nodeNamed(graph, "save/Identity");
        QCOMPARE(inputsOf(*identity).first, std::vector<std::string>{"save/Const"});
        QCOMPARE(inputsOf(*identity).second,
                 (std::set<std::string>{"^save/MergeV2Checkpoints", "^save/control_dependency",
                                        "^save/control_dependency_1"}));
        QCOMPARE(nodeNamed(graph, "save/RestoreV2_1")->device(), std::string("/device:CPU:0"));
    }

    void shardedSaverSavesMergesAndRestores()
    {
        GraphBuilder b(m_registries->ops);
        buildPlacedVariables(b);
        SaverOptions options;
        options.graph.sharded = true;
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, why(saver));
        Session session(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        Status status = session.create(b.graphDef());
        QVERIFY2(status.isOk(), status.toString().c_str());
        std::vector<Tensor> before;
        QVERIFY(session.run({}, {}, {"init"}, &before).isOk());
        QVERIFY(session.run({}, {"a:0", "b:0", "c:0"}, {}, &before).isOk());

        const std::string base = m_dir->filePath("model.ckpt").toStdString();
        auto prefix = saver->save(session, base, 12);
        QVERIFY2(prefix, why(prefix));
        QCOMPARE(*prefix, base + "-12");
        // The merged checkpoint: one index, a data file per shard, the state file; the
        // temporary directory of the parts is gone.
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{"checkpoint", "model.ckpt-12.data-00000-of-00002", "model.ckpt-12.data-00001-of-00002",
                              "model.ckpt-12.index"}));
        auto state = readCheckpointState(m_dir->path().toStdString());
        QVERIFY2(state, why(state));
        QCOMPARE(state->model_checkpoint_path(), *prefix);
        auto reader = TensorBundleReader::open(*prefix);
        QVERIFY2(reader, why(reader));
        QCOMPARE(reader->numShards(), 2);
        QCOMPARE(reader->lookUp("a")->shardId, 0);
        QCOMPARE(reader->lookUp("b")->shardId, 1);
        QCOMPARE(reader->lookUp("c")->shardId, 1);
        QVERIFY(sameContents(reader->read("b", m_cpu).value(), before[1]));

        // Scrambled, then restored through the sharded restore op.
        std::vector<Tensor> after;
        QVERIFY(session.run({}, {}, {"scramble"}, &after).isOk());
        QVERIFY(session.run({}, {"c:0"}, {}, &after).isOk());
        QCOMPARE(after[0].scalar<std::int64_t>(), std::int64_t(0));
        status = saver->restore(session, *prefix);
        QVERIFY2(status.isOk(), status.toString().c_str());
        QVERIFY(session.run({}, {"a:0", "b:0", "c:0"}, {}, &after).isOk());
        for (std::size_t i = 0; i < 3; ++i)
            QVERIFY(sameContents(after[i], before[i]));
        // A sharded saver may save under the name of the state file (TensorFlow checks only
        // unsharded ones).
        QVERIFY(saver->save(session, m_dir->filePath("checkpoint").toStdString(), std::nullopt, false));
    }

    void scaffoldsDefaultSaverIsSharded()
    {
        GraphBuilder b(m_registries->ops);
        buildPlacedVariables(b);
        training::Scaffold scaffold;
        const Status finalized = scaffold.finalize(b);
        QVERIFY2(finalized.isOk(), finalized.toString().c_str());
        QVERIFY(scaffold.saver().saverDef().sharded());
        QCOMPARE(scaffold.saver().saverDef().save_tensor_name(), std::string("save/Identity:0"));
    }
};

QTEST_GUILESS_MAIN(TestShardedCheckpoint)
#include "test_sharded_checkpoint.moc"
