// Tests for the checkpoint kernels: SaveV2 writes formats.md's bundle byte for byte, SaveV2 then
// RestoreV2 round trips, the sharded path (ShardedFilename, StringJoin, MergeV2Checkpoints), the
// error texts, MatchingFiles' globs on a tree made here, and the savers of TensorFlow's own
// fixture graphs run through a Session: restoring their checkpoints and saving them again gives
// TensorFlow's files byte for byte.
#include "io/checkpoint/tensor_bundle_reader.h"
#include "kernels/kernels.h"
#include "ops/ops.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "fixture_ops.h"
#include "kernel_harness.h"
#include "shape_fn_testing.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    QString err;
    auto h = KernelHarness::create({registerIoOps}, {registerIoCpuKernels}, &err);
    if (!h)
        qWarning("%s", qPrintable(err));
    return h;
}

std::string readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

QByteArray hex(const std::string& bytes)
{
    return QByteArray::fromStdString(bytes).toHex();
}

std::string dtypesAttr(const std::vector<std::string>& dtypes)
{
    std::string list;
    for (const std::string& d : dtypes)
        list += " type: " + d;
    return "attr { key: 'dtypes' value { list {" + list + " } } }";
}

std::string saveNode(const std::vector<std::string>& dtypes)
{
    return "op: 'SaveV2' " + dtypesAttr(dtypes);
}
std::string restoreNode(const std::vector<std::string>& dtypes)
{
    return "op: 'RestoreV2' " + dtypesAttr(dtypes);
}

Tensor str(KernelHarness& h, const std::string& s)
{
    return tensor<std::string>(h.allocator(), TensorShape::scalar(), {s});
}
Tensor strs(KernelHarness& h, const std::vector<std::string>& s)
{
    return tensor<std::string>(h.allocator(), {static_cast<std::int64_t>(s.size())}, s);
}
Tensor i32(KernelHarness& h, std::int32_t v)
{
    return tensor<std::int32_t>(h.allocator(), TensorShape::scalar(), {v});
}

bool sameContents(const Tensor& a, const Tensor& b)
{
    if (a.dtype() != b.dtype() || a.shape() != b.shape())
        return false;
    if (a.dtype() == tensorflow::DT_STRING)
        return std::equal(a.strings().begin(), a.strings().end(), b.strings().begin(), b.strings().end());
    return a.tensorData().size() == b.tensorData().size() &&
           std::memcmp(a.tensorData().data(), b.tensorData().data(), a.tensorData().size()) == 0;
}

template <typename T> Status statusOf(const Expected<T>& e)
{
    return e ? Status::ok() : e.error();
}

#define REQUIRE_ERROR(expr, expectedCode, text)                                                                        \
    do {                                                                                                               \
        const Status requireStatus = (expr);                                                                           \
        QVERIFY2(requireStatus.code() == (expectedCode), requireStatus.toString().c_str());                            \
        QVERIFY2(requireStatus.message().find(text) != std::string::npos, requireStatus.toString().c_str());           \
    } while (false)

/// The graph of a fixture's first MetaGraphDef (a .meta file, or a SavedModel's saved_model.pb).
bool loadGraph(const QString& path, bool savedModel, tensorflow::GraphDef* graph)
{
    const std::string bytes = readFile(path);
    if (savedModel) {
        tensorflow::SavedModel model;
        if (!model.ParseFromString(bytes) || model.meta_graphs_size() == 0)
            return false;
        *graph = model.meta_graphs(0).graph_def();
        return true;
    }
    tensorflow::MetaGraphDef meta;
    if (!meta.ParseFromString(bytes))
        return false;
    *graph = meta.graph_def();
    return true;
}

} // namespace

class TestIoKernels : public QObject {
    Q_OBJECT
private slots:
    void saveWritesTheFormatsDocBundle()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("t").toStdString();
        auto run = h->run(saveNode({"DT_FLOAT", "DT_STRING", "DT_FLOAT"}),
                          {str(*h, prefix), strs(*h, {"a", "b/s", "c"}), strs(*h, {"", "", ""}),
                           tensor<float>(h->allocator(), {2, 3}, {1, 2, 3, 4, 5, 6}), strs(*h, {"hi", "tensor"}),
                           tensor<float>(h->allocator(), TensorShape::scalar(), {7.5f})});
        QVERIFY2(run.has_value(), statusOf(run).toString().c_str());
        QVERIFY(run->empty());
        // formats.md 2.12.
        QCOMPARE(hex(readFile(dir.filePath("t.data-00000-of-00001"))),
                 QByteArray("0000803f000000400000404000008040 0000a0400000c040 0206029ff0576869 74656e736f72 0000f040")
                     .replace(" ", ""));
        QCOMPARE(hex(readFile(dir.filePath("t.index"))),
                 QByteArray("00000608011a020801000113610801120812020802120208032818357aebf5ab000311622f73080712041202"
                            "08022018280e35d1abb4f300010d63080112002026280435e4858d9200000000010000000091d7ca310000"
                            "00000100000000c0f2a1b000010264005000000000010000000042e5ab9c5508620e0000000000000000"
                            "0000000000000000000000000000000000000000000000000000000057fb808b247547db"));
    }

    void saveThenRestore()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("model.ckpt-7").toStdString();
        Allocator& a = h->allocator();
        const std::vector<Tensor> values = {
            tensor<double>(a, {2}, {0.5, -1e300}),
            tensor<std::int64_t>(a, TensorShape::scalar(), {std::int64_t(1) << 40}),
            tensor<bool>(a, {2, 2}, {true, false, false, true}),
            strs(*h, {"", std::string("x\0y", 3)}),
            tensor<Eigen::half>(a, {0, 2}, {}),
        };
        auto saved = h->run(saveNode({"DT_DOUBLE", "DT_INT64", "DT_BOOL", "DT_STRING", "DT_HALF"}),
                            {str(*h, prefix), strs(*h, {"w", "global_step", "mask", "vocab", "empty"}),
                             strs(*h, {"", "", "", "", ""}), values[0], values[1], values[2], values[3], values[4]});
        QVERIFY2(saved.has_value(), statusOf(saved).toString().c_str());
        // Restore in another order, one name twice.
        auto restored = h->run(restoreNode({"DT_STRING", "DT_DOUBLE", "DT_HALF", "DT_BOOL", "DT_INT64", "DT_DOUBLE"}),
                               {str(*h, prefix), strs(*h, {"vocab", "w", "empty", "mask", "global_step", "w"}),
                                strs(*h, {"", "", "", "", "", ""})});
        QVERIFY2(restored.has_value(), statusOf(restored).toString().c_str());
        QCOMPARE(restored->size(), std::size_t(6));
        QVERIFY(sameContents((*restored)[0], values[3]));
        QVERIFY(sameContents((*restored)[1], values[0]));
        QVERIFY(sameContents((*restored)[2], values[4]));
        QVERIFY(sameContents((*restored)[3], values[2]));
        QVERIFY(sameContents((*restored)[4], values[1]));
        QVERIFY(sameContents((*restored)[5], values[0]));
        // A prefix given as a one-element vector is accepted, as in TensorFlow.
        auto again = h->run(restoreNode({"DT_INT64"}), {strs(*h, {prefix}), strs(*h, {"global_step"}), strs(*h, {""})});
        QVERIFY2(again.has_value(), statusOf(again).toString().c_str());
        QCOMPARE((*again)[0].scalar<std::int64_t>(), std::int64_t(1) << 40);
    }

    void restoreErrorsInTensorFlowsWords()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("c").toStdString();
        QVERIFY(h->run(saveNode({"DT_FLOAT"}),
                       {str(*h, prefix), strs(*h, {"a"}), strs(*h, {""}), tensor<float>(h->allocator(), {1}, {1.0f})})
                    .has_value());
        const auto restore = [&](const std::vector<std::string>& dtypes, Tensor p, Tensor names, Tensor specs) {
            return statusOf(h->run(restoreNode(dtypes), {std::move(p), std::move(names), std::move(specs)}));
        };
        REQUIRE_ERROR(restore({"DT_FLOAT"}, str(*h, prefix), strs(*h, {"nope"}), strs(*h, {""})), StatusCode::kNotFound,
                      "Key nope not found in checkpoint");
        REQUIRE_ERROR(restore({"DT_INT32"}, str(*h, prefix), strs(*h, {"a"}), strs(*h, {""})),
                      StatusCode::kInvalidArgument,
                      "tensor_name = a; expected dtype int32 does not equal original dtype float");
        REQUIRE_ERROR(restore({"DT_FLOAT"}, str(*h, prefix), strs(*h, {"a"}), strs(*h, {"2 0,1"})),
                      StatusCode::kInvalidArgument,
                      "tensor_name = a; shape in shape_and_slice spec [2] does not match the shape stored in "
                      "checkpoint: [1]");
        REQUIRE_ERROR(restore({"DT_FLOAT"}, str(*h, prefix), strs(*h, {"a", "a"}), strs(*h, {"", ""})),
                      StatusCode::kInvalidArgument, "Got 2 tensor names, but 1 expected dtypes.");
        REQUIRE_ERROR(restore({"DT_FLOAT"}, strs(*h, {prefix, prefix}), strs(*h, {"a"}), strs(*h, {""})),
                      StatusCode::kInvalidArgument, "Input prefix should have a single element, got 2 instead.");
        REQUIRE_ERROR(
            restore({"DT_FLOAT"}, str(*h, prefix), tensor<std::string>(h->allocator(), {1, 1}, {"a"}), strs(*h, {""})),
            StatusCode::kInvalidArgument,
            "Input tensor_names and shape_and_slices should be an 1-D tensors, got [1,1] and [1] instead.");
        REQUIRE_ERROR(
            restore({"DT_FLOAT"}, str(*h, dir.filePath("missing").toStdString()), strs(*h, {"a"}), strs(*h, {""})),
            StatusCode::kNotFound, "Failed to find any matching files for");
    }

    void saveErrorsLeaveNoFiles()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("s").toStdString();
        const Tensor one = tensor<float>(h->allocator(), {1}, {1.0f});
        REQUIRE_ERROR(
            statusOf(h->run(saveNode({"DT_FLOAT"}), {str(*h, prefix), strs(*h, {"a"}), strs(*h, {"", ""}), one})),
            StatusCode::kInvalidArgument,
            "tensor_names and shape_and_slices have different number of elements: 1 vs. 2");
        REQUIRE_ERROR(
            statusOf(h->run(saveNode({"DT_FLOAT"}), {str(*h, prefix), strs(*h, {"a", "b"}), strs(*h, {"", ""}), one})),
            StatusCode::kInvalidArgument, "Got 2 tensor names but 1 tensors.");
        REQUIRE_ERROR(
            statusOf(h->run(saveNode({"DT_FLOAT"}), {str(*h, prefix), strs(*h, {"a"}), strs(*h, {"2 0,2"}), one})),
            StatusCode::kInvalidArgument,
            "Slice in shape_and_slice specification does not match the shape of the tensor to save: 2 0,2, "
            "tensor: [1]");
        REQUIRE_ERROR(statusOf(h->run(saveNode({"DT_FLOAT", "DT_FLOAT"}),
                                      {str(*h, prefix), strs(*h, {"a", "a"}), strs(*h, {"", ""}), one, one})),
                      StatusCode::kInvalidArgument, "Adding duplicate key: a");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
    }

    void shardedSaveAndMerge()
    {
        auto h = makeHarness();
        QVERIFY(h);
        for (const bool deleteOldDirs : {true, false}) {
            QTemporaryDir dir;
            const std::string prefix = dir.filePath("model").toStdString();
            // As the Saver's sharded graph: PREFIX + "_temp_<uuid>/part", one shard per device.
            auto temp = h->run("op: 'StringJoin' attr { key: 'N' value { i: 2 } }",
                               {str(*h, prefix), str(*h, "_temp_0123/part")});
            QVERIFY2(temp.has_value(), statusOf(temp).toString().c_str());
            std::vector<std::string> parts;
            for (int shard = 0; shard < 2; ++shard) {
                auto name = h->run("op: 'ShardedFilename'", {(*temp)[0], i32(*h, shard), i32(*h, 2)});
                QVERIFY2(name.has_value(), statusOf(name).toString().c_str());
                parts.push_back((*name)[0].strings()[0]);
                auto saved =
                    h->run(saveNode({"DT_INT32"}), {(*name)[0], strs(*h, {"v" + std::to_string(shard)}), strs(*h, {""}),
                                                    tensor<std::int32_t>(h->allocator(), {2}, {shard, shard + 10})});
                QVERIFY2(saved.has_value(), statusOf(saved).toString().c_str());
            }
            QCOMPARE(parts[1], prefix + "_temp_0123/part-00001-of-00002");
            const std::string merge = "op: 'MergeV2Checkpoints' attr { key: 'delete_old_dirs' value { b: " +
                                      std::string(deleteOldDirs ? "true" : "false") + " } }";
            auto merged = h->run(merge, {strs(*h, parts), str(*h, prefix)});
            QVERIFY2(merged.has_value(), statusOf(merged).toString().c_str());
            QCOMPARE(QDir(QString::fromStdString(prefix + "_temp_0123")).exists(), !deleteOldDirs);
            auto restored = h->run(restoreNode({"DT_INT32", "DT_INT32"}),
                                   {str(*h, prefix), strs(*h, {"v1", "v0"}), strs(*h, {"", ""})});
            QVERIFY2(restored.has_value(), statusOf(restored).toString().c_str());
            QCOMPARE((*restored)[0].values<std::int32_t>()[1], 11);
            QCOMPARE((*restored)[1].values<std::int32_t>()[1], 10);
            QVERIFY(QFile::exists(QString::fromStdString(prefix + ".data-00001-of-00002")));
        }
        REQUIRE_ERROR(statusOf(h->run("op: 'MergeV2Checkpoints'", {str(*h, "a"), str(*h, "b")})),
                      StatusCode::kInvalidArgument,
                      "Input checkpoint_prefixes should be an 1-D tensor, got [] instead.");
        REQUIRE_ERROR(statusOf(h->run("op: 'MergeV2Checkpoints'", {strs(*h, {"a"}), strs(*h, {"b"})})),
                      StatusCode::kInvalidArgument,
                      "Input destination_prefix should be a scalar tensor, got [1] instead.");
    }

    void shardedFilenames()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto name = h->run("op: 'ShardedFilename'", {str(*h, "/d/model"), i32(*h, 3), i32(*h, 12)});
        QVERIFY(name.has_value());
        QCOMPARE((*name)[0].strings()[0], std::string("/d/model-00003-of-00012"));
        QCOMPARE((*name)[0].shape(), TensorShape::scalar());
        auto big = h->run("op: 'ShardedFilename'", {str(*h, "m"), i32(*h, 123456), i32(*h, -1)});
        QCOMPARE((*big)[0].strings()[0], std::string("m-123456-of--0001")); // printf's %05d, as TensorFlow
        // A one-element vector passes as a scalar (TensorFlow's "legacy scalar").
        auto legacy =
            h->run("op: 'ShardedFilespec'", {strs(*h, {"m"}), tensor<std::int32_t>(h->allocator(), {1}, {4})});
        QVERIFY(legacy.has_value());
        QCOMPARE((*legacy)[0].strings()[0], std::string("m-?????"
                                                        "-of-00004"));
        REQUIRE_ERROR(statusOf(h->run("op: 'ShardedFilename'", {strs(*h, {"a", "b"}), i32(*h, 0), i32(*h, 1)})),
                      StatusCode::kInvalidArgument, "basename must be a scalar, got shape [2]");
        REQUIRE_ERROR(statusOf(h->run("op: 'ShardedFilespec'",
                                      {str(*h, "m"), tensor<std::int32_t>(h->allocator(), {1, 1}, {4})})),
                      StatusCode::kInvalidArgument, "num_shards must be a scalar, got shape [1,1]");
    }

    void stringJoin()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto scalars =
            h->run("op: 'StringJoin' attr { key: 'N' value { i: 3 } } attr { key: 'separator' value { s: '/' } }",
                   {str(*h, "a"), str(*h, ""), str(*h, "c")});
        QVERIFY(scalars.has_value());
        QCOMPARE((*scalars)[0].strings()[0], std::string("a//c"));
        auto broadcast = h->run("op: 'StringJoin' attr { key: 'N' value { i: 3 } }",
                                {strs(*h, {"x", "y"}), str(*h, "-"), strs(*h, {"1", "2"})});
        QVERIFY(broadcast.has_value());
        QCOMPARE((*broadcast)[0].shape(), TensorShape({2}));
        QCOMPARE((*broadcast)[0].strings()[0], std::string("x-1"));
        QCOMPARE((*broadcast)[0].strings()[1], std::string("y-2"));
        REQUIRE_ERROR(statusOf(h->run("op: 'StringJoin' attr { key: 'N' value { i: 2 } }",
                                      {strs(*h, {"x", "y"}), strs(*h, {"1", "2", "3"})})),
                      StatusCode::kInvalidArgument, "Input shapes do not match: [2] vs. [3]");
    }

    void matchingFilesGlobsAsTensorFlow()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string root = tmp.path().toStdString() + "/d";
        for (const char* dir : {"", "/sub1", "/sub2", "/other"})
            QVERIFY(QDir().mkpath(QString::fromStdString(root + dir)));
        for (const char* file : {"/a1.txt", "/a2.txt", "/b1.txt", "/.hidden.txt", "/a1.csv", "/lit[1].txt",
                                 "/sub1/x.txt", "/sub2/x.txt", "/sub2/y.csv", "/other/x.txt"}) {
            QFile f(QString::fromStdString(root + file));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const auto match = [&](const Tensor& patterns) -> std::vector<std::string> {
            auto out = h->run("op: 'MatchingFiles'", {patterns});
            if (!out) {
                qWarning("%s", out.error().toString().c_str());
                return {"<error>"};
            }
            if (out->at(0).rank() != 1)
                return {"<not a vector>"};
            return std::vector<std::string>(out->at(0).strings().begin(), out->at(0).strings().end());
        };
        const auto in = [&](std::vector<std::string> names) {
            for (std::string& name : names)
                name = root + name;
            return names;
        };
        using Names = std::vector<std::string>;
        // `?`, `*` (a leading dot included, as fnmatch without FNM_PERIOD), `[...]`, sorted.
        QCOMPARE(match(str(*h, root + "/a?.txt")), in({"/a1.txt", "/a2.txt"}));
        QCOMPARE(match(str(*h, root + "/*.txt")), in({"/.hidden.txt", "/a1.txt", "/a2.txt", "/b1.txt", "/lit[1].txt"}));
        QCOMPARE(match(str(*h, root + "/[ab]1.*")), in({"/a1.csv", "/a1.txt", "/b1.txt"}));
        // Wildcards in directories; `*` never crosses a '/'.
        QCOMPARE(match(str(*h, root + "/sub*/x.txt")), in({"/sub1/x.txt", "/sub2/x.txt"}));
        QCOMPARE(match(str(*h, root + "/*/*.csv")), in({"/sub2/y.csv"}));
        QCOMPARE(match(str(*h, root + "/*x.txt")), Names{});
        // A backslash escapes a wildcard character; a pattern without wildcards names itself.
        QCOMPARE(match(str(*h, root + "/lit\\[1\\].txt")), in({"/lit[1].txt"}));
        QCOMPARE(match(str(*h, root + "/a1.txt")), in({"/a1.txt"}));
        // Several patterns: every match, sorted together; a file two patterns match comes twice.
        QCOMPARE(match(strs(*h, {root + "/b*.txt", root + "/a?.txt", root + "/a1.*"})),
                 in({"/a1.csv", "/a1.txt", "/a1.txt", "/a2.txt", "/b1.txt"}));
        // No match, a missing directory, an empty pattern: an empty vector, no error.
        QCOMPARE(match(str(*h, root + "/*.none")), Names{});
        QCOMPARE(match(str(*h, root + "/missing/*.txt")), Names{});
        QCOMPARE(match(str(*h, root + "/missing.txt")), Names{});
        QCOMPARE(match(str(*h, "")), Names{});
        QCOMPARE(match(strs(*h, {})), Names{});
        // A pattern without a directory is searched from the working directory, named "./...".
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QString::fromStdString(root)));
        const Names relative = match(str(*h, "a?.txt"));
        const Names nested = match(str(*h, "sub?/x.txt"));
        QVERIFY(QDir::setCurrent(before));
        QCOMPARE(relative, (Names{"./a1.txt", "./a2.txt"}));
        QCOMPARE(nested, (Names{"./sub1/x.txt", "./sub2/x.txt"}));
        REQUIRE_ERROR(statusOf(h->run("op: 'MatchingFiles'", {tensor<std::string>(h->allocator(), {1, 1}, {"x"})})),
                      StatusCode::kInvalidArgument, "Input patterns tensor must be scalar or vector, but had shape: [1,1]");
    }

    void matchingFilesOpDefIsTensorFlows()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // TensorFlow's OpDef (ops_history_v2/MatchingFiles.pbtxt), written out by hand.
        tensorflow::OpDef expected;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            R"(name: "MatchingFiles" input_arg { name: "pattern" type: DT_STRING }
               output_arg { name: "filenames" type: DT_STRING })",
            &expected));
        const OpRegistration* ours = h->ops().find("MatchingFiles");
        QVERIFY(ours != nullptr);
        const QString diff = compareOpDefs(ours->opDef, expected);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        INFER_OK(h->ops(), "MatchingFiles", "", "[]", "[?]");
        INFER_OK(h->ops(), "MatchingFiles", "", "[3]", "[?]");
        INFER_ERROR(h->ops(), "Shape must be at most rank 1 but is rank 2", "MatchingFiles", "", "[1,1]");
    }

    void fixtureSaversRestoreAndSaveTensorFlowsFiles_data()
    {
        QTest::addColumn<QString>("graphFile");
        QTest::addColumn<bool>("savedModel");
        QTest::addColumn<QString>("checkpoint");
        QTest::addColumn<QString>("filenameTensor");
        QTest::addColumn<QString>("restoreOp");
        QTest::addColumn<QString>("saveTensor");
        QTest::addColumn<QString>("checkName");
        // TensorFlow 1.3's Saver: one SaveV2 and one RestoreV2 per variable.
        QTest::newRow("mnist") << "tf1-mnist-book/mnist_model-29001.meta" << false << "tf1-mnist-book/mnist_model-29001"
                               << "save/Const:0"
                               << "save/restore_all"
                               << "save/control_dependency:0"
                               << "Variable";
        // TensorFlow 1.11's sharded SavedModel saver: StringJoin, ShardedFilename, SaveV2, Pack,
        // MergeV2Checkpoints.
        QTest::newRow("saved_model") << "tf2onnx/regression/saved_model/saved_model.pb" << true
                                     << "tf2onnx/regression/saved_model/variables/variables"
                                     << "save_1/Const:0"
                                     << "save_1/restore_all"
                                     << "save_1/Identity:0"
                                     << "W";
    }

    void fixtureSaversRestoreAndSaveTensorFlowsFiles()
    {
        QFETCH(QString, graphFile);
        QFETCH(bool, savedModel);
        QFETCH(QString, checkpoint);
        QFETCH(QString, filenameTensor);
        QFETCH(QString, restoreOp);
        QFETCH(QString, saveTensor);
        QFETCH(QString, checkName);
        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("fixtures not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        tensorflow::GraphDef graph;
        QVERIFY(loadGraph(fixtures + "/" + graphFile, savedModel, &graph));
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        Session session(SessionOptions{{}, &(*registries)->ops, &(*registries)->kernels});
        Status created = session.create(graph);
        QVERIFY2(created.isOk(), created.toString().c_str());
        CpuAllocator cpu;
        const std::string source = (fixtures + "/" + checkpoint).toStdString();
        const auto prefixTensor = [&](const std::string& p) {
            return Tensor::fromVector<std::string>(cpu, TensorShape::scalar(), {p}).value();
        };

        // Restore TensorFlow's checkpoint into the variables.
        std::vector<Tensor> outputs;
        Status restored = session.run({{filenameTensor.toStdString(), prefixTensor(source)}}, {},
                                      {restoreOp.toStdString()}, &outputs);
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        auto reader = TensorBundleReader::open(source);
        QVERIFY(reader.has_value());
        Status fetched = session.run({}, {checkName.toStdString() + ":0"}, {}, &outputs);
        QVERIFY2(fetched.isOk(), fetched.toString().c_str());
        QVERIFY(sameContents(outputs.at(0), reader->read(checkName.toStdString(), cpu).value()));
        if (checkName == "Variable")
            QCOMPARE(outputs.at(0).scalar<std::int32_t>(), 29001);

        // Save them again: the same files as TensorFlow's.
        QTemporaryDir dir;
        const std::string target = dir.filePath("again").toStdString();
        Status saved = session.run({{filenameTensor.toStdString(), prefixTensor(target)}}, {saveTensor.toStdString()},
                                   {}, &outputs);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        QCOMPARE(outputs.at(0).strings()[0], target);
        QCOMPARE(hex(readFile(dir.filePath("again.index"))), hex(readFile(QString::fromStdString(source + ".index"))));
        QVERIFY(readFile(dir.filePath("again.data-00000-of-00001")) ==
                readFile(QString::fromStdString(source + ".data-00000-of-00001")));
        // Only the checkpoint is left (the sharded saver's temporary directory is gone).
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{"again.data-00000-of-00001", "again.index"}));
    }
};

QTEST_GUILESS_MAIN(TestIoKernels)
#include "test_io_kernels.moc"
