// Tests for the Saver: its subgraph node for node against TensorFlow's, save/restore round trips,
// max_to_keep and keep_checkpoint_every_n_hours, restoring TensorFlow's checkpoints through their
// own SaverDef or into other names (moving averages), TensorFlow's restore errors, and a save
// killed with SIGKILL midway that leaves the previous checkpoint intact.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "framework/allocator.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "model/meta_graph.h"
#include "model/saver.h"
#include "model/saver_graph.h"
#include "proto/meta_graph.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "model_test_support.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <cstring>
#include <filesystem>

using namespace tstudio;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

using tstudio::testing::err;
using tstudio::testing::readMetaGraphFixture;

/// Same dtype, shape and bytes.
bool bitEqual(const Tensor& a, const Tensor& b)
{
    if (a.dtype() != b.dtype() || !(a.shape() == b.shape()))
        return false;
    const auto x = a.tensorData();
    const auto y = b.tensorData();
    return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size()) == 0);
}

/// The save/* nodes of `graph` in order.
std::vector<tf::NodeDef> saveNodes(const tf::GraphDef& graph)
{
    std::vector<tf::NodeDef> nodes;
    for (const tf::NodeDef& n : graph.node())
        if (n.name().rfind("save/", 0) == 0)
            nodes.push_back(n);
    return nodes;
}

QString diffNode(const tf::NodeDef& ours, const tf::NodeDef& theirs)
{
    if (google::protobuf::util::MessageDifferencer::Equals(ours, theirs))
        return {};
    return QString::fromStdString("node " + theirs.name() + " differs.\nTensorFlow:\n" + theirs.DebugString() +
                                  "\nours:\n" + ours.DebugString());
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files, QDir::Name);
}

/// The regression model of tf2onnx (X, Y, W, b, pred = X * W + b) as the builder makes it, with
/// W and b holding TensorFlow's literal initial values.
bool buildRegressionModel(GraphBuilder& b, const tf::GraphDef& theirs)
{
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "X");
    if (!x || !ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "Y"))
        return false;
    std::vector<Variable> vars;
    for (const char* name : {"W", "b"}) {
        const tf::NodeDef* literal = nullptr;
        for (const tf::NodeDef& n : theirs.node())
            if (n.name() == std::string(name) + "/initial_value")
                literal = &n;
        if (!literal)
            return false;
        auto v = variable(b, literal->attr().at("value").tensor(), name);
        if (!v)
            return false;
        vars.push_back(*v);
    }
    auto product = ops::mul(b, *x, vars[0].value());
    if (!product)
        return false;
    auto sum = ops::add(b, *product, vars[1].value());
    return sum && ops::identity(b, *sum, "pred");
}

} // namespace

class TestSaver : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    CpuAllocator m_allocator;

    std::unique_ptr<Session> session(const tf::GraphDef& graph)
    {
        auto s = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status st = s->create(graph); !st.isOk())
            qFatal("create: %s", st.toString().c_str());
        return s;
    }

    void run(Session& s, const std::vector<std::string>& targets)
    {
        std::vector<Tensor> none;
        const Status st = s.run({}, {}, targets, &none);
        QVERIFY2(st.isOk(), err(st));
    }

    std::vector<Tensor> fetch(Session& s, const std::vector<std::string>& names)
    {
        std::vector<Tensor> out;
        const Status st = s.run({}, names, {}, &out);
        if (!st.isOk())
            qFatal("fetch: %s", st.toString().c_str());
        return out;
    }

    /// W [3,4] (glorot_uniform, seeded), b [4] = {0.5, 1.5, 2.5, 3.5}, "init", and "scramble" that
    /// overwrites both with zeros.
    void buildSmallModel(GraphBuilder& b)
    {
        b.setRandomSeed(7);
        auto w = getVariable(b, "W", {3, 4});
        QVERIFY2(w, err(w));
        auto bValue = makeTensorProto(tf::DT_FLOAT, {4}, std::vector<double>{0.5, 1.5, 2.5, 3.5});
        QVERIFY(bValue);
        auto bias = variable(b, *bValue, "b");
        QVERIFY2(bias, err(bias));
        QVERIFY(globalVariablesInitializer(b));
        auto zw = ops::zeros(b, {3, 4});
        auto zb = ops::zeros(b, {4});
        QVERIFY(zw && zb);
        auto aw = b.op("Assign", {w->ref(), *zw});
        auto ab = b.op("Assign", {bias->ref(), *zb});
        QVERIFY(aw && ab);
        QVERIFY(ops::group(b, {*aw, *ab}, "scramble"));
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void saveWithGlobalStepThenRestore()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        auto saver = Saver::create(b);
        QVERIFY2(saver, err(saver));
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const std::vector<Tensor> before = fetch(*s, {"W:0", "b:0"});

        const std::string prefix = dir.filePath("model.ckpt").toStdString();
        auto path = saver->save(*s, prefix, 20);
        QVERIFY2(path, err(path));
        QCOMPARE(*path, prefix + "-20");
        QCOMPARE(filesIn(dir.path()),
                 (QStringList{"checkpoint", "model.ckpt-20.data-00000-of-00001", "model.ckpt-20.index"}));
        // What the files hold, read independently of the session.
        auto reader = TensorBundleReader::open(*path);
        QVERIFY2(reader, err(reader));
        QCOMPARE(reader->tensors().size(), std::size_t{2});
        auto storedW = reader->read("W", m_allocator);
        auto storedB = reader->read("b", m_allocator);
        QVERIFY(storedW && storedB);
        QVERIFY(bitEqual(*storedW, before[0]));
        QVERIFY(bitEqual(*storedB, before[1]));
        auto state = readCheckpointState(dir.path().toStdString());
        QVERIFY2(state, err(state));
        QCOMPARE(state->model_checkpoint_path(), *path);
        QCOMPARE(state->all_model_checkpoint_paths_size(), 1);

        run(*s, {"scramble"});
        QVERIFY(!bitEqual(fetch(*s, {"W:0"})[0], before[0]));
        const Status restored = saver->restore(*s, *path);
        QVERIFY2(restored.isOk(), err(restored));
        std::vector<Tensor> after = fetch(*s, {"W:0", "b:0"});
        QVERIFY(bitEqual(after[0], before[0]));
        QVERIFY(bitEqual(after[1], before[1]));

        // Restoring is itself an initialisation: a fresh session needs no "init".
        auto fresh = session(b.graphDef());
        const Status again = saver->restore(*fresh, *path);
        QVERIFY2(again.isOk(), err(again));
        after = fetch(*fresh, {"W:0", "b:0"});
        QVERIFY(bitEqual(after[0], before[0]));
        QVERIFY(bitEqual(after[1], before[1]));
    }

    void maxToKeepDeletesTheOldest()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        SaverOptions options;
        options.graph.maxToKeep = 2;
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, err(saver));
        QCOMPARE(saver->saverDef().max_to_keep(), 2);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        // With a MetaGraphDef each save also writes PREFIX.meta, which goes with the checkpoint.
        MetaGraphExportOptions exportOptions;
        exportOptions.saverDef = saver->saverDef();
        auto meta = exportMetaGraph(b, exportOptions);
        QVERIFY2(meta, err(meta));
        const std::string prefix = dir.filePath("model.ckpt").toStdString();
        for (int step = 1; step <= 4; ++step)
            QVERIFY(saver->save(*s, prefix, step, true, &*meta));
        QCOMPARE(
            filesIn(dir.path()),
            (QStringList{"checkpoint", "model.ckpt-3.data-00000-of-00001", "model.ckpt-3.index", "model.ckpt-3.meta",
                         "model.ckpt-4.data-00000-of-00001", "model.ckpt-4.index", "model.ckpt-4.meta"}));
        auto written = readMetaGraphFile(prefix + "-4.meta");
        QVERIFY2(written, err(written));
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(written->saver_def(), saver->saverDef()));
        QCOMPARE(saver->lastCheckpoints(), (std::vector<std::string>{prefix + "-3", prefix + "-4"}));
        auto state = readCheckpointState(dir.path().toStdString());
        QVERIFY2(state, err(state));
        QCOMPARE(state->model_checkpoint_path(), prefix + "-4");
        QCOMPARE(std::vector<std::string>(state->all_model_checkpoint_paths().begin(),
                                          state->all_model_checkpoint_paths().end()),
                 (std::vector<std::string>{prefix + "-3", prefix + "-4"}));
        // The same prefix again moves it to the end instead of listing it twice.
        QVERIFY(saver->save(*s, prefix, 3));
        QCOMPARE(saver->lastCheckpoints(), (std::vector<std::string>{prefix + "-4", prefix + "-3"}));
        QVERIFY(QFile::exists(dir.filePath("model.ckpt-4.index")));

        // After a restart: a saver over the same graph takes the list back from the state file,
        // skipping prefixes whose files are gone, and goes on deleting the oldest.
        auto restarted = Saver::fromSaverDef(saver->saverDef());
        QVERIFY(restarted);
        restarted->recoverLastCheckpoints({prefix + "-1", prefix + "-4", prefix + "-3"});
        QCOMPARE(restarted->lastCheckpoints(), (std::vector<std::string>{prefix + "-4", prefix + "-3"}));
        QVERIFY(restarted->save(*s, prefix, 5));
        QVERIFY(!QFile::exists(dir.filePath("model.ckpt-4.index")));
        QVERIFY(!QFile::exists(dir.filePath("model.ckpt-4.meta")));
        QVERIFY(QFile::exists(dir.filePath("model.ckpt-3.index")));
    }

    void saveIntoMissingDirectoryNamesIt()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        // One missing level is created (as TensorFlow's bundle writer does); two are not.
        QVERIFY(saver->save(*s, dir.filePath("new/model").toStdString()));
        QVERIFY(QFile::exists(dir.filePath("new/checkpoint")));
        const std::string deep = dir.filePath("a/b/model").toStdString();
        auto saved = saver->save(*s, deep);
        QVERIFY(!saved);
        QCOMPARE(saved.error().message(), "Parent directory of " + deep + " doesn't exist, can't save.");
    }

    void maxToKeepZeroKeepsEveryFileAndListsTheLatest()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        SaverOptions options;
        options.graph.maxToKeep = 0;
        options.padStepNumber = true;
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, err(saver));
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const std::string prefix = dir.filePath("m").toStdString();
        for (int step : {7, 8, 9})
            QVERIFY(saver->save(*s, prefix, step));
        QCOMPARE(filesIn(dir.path()).size(), 7);
        QVERIFY(QFile::exists(dir.filePath("m-00000007.index")));
        auto state = readCheckpointState(dir.path().toStdString());
        QVERIFY2(state, err(state));
        QCOMPARE(state->model_checkpoint_path(), prefix + "-00000009");
        QCOMPARE(state->all_model_checkpoint_paths_size(), 1);
        QVERIFY(saver->lastCheckpoints().empty());
    }

    /// TensorFlow's rule: the first checkpoint leaving the max_to_keep list that was saved more
    /// than N hours after the saver started (then after the previous one kept) stays on disk.
    void keepCheckpointEveryNHoursKeepsOnePerPeriod()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        double clock = 1'000'000.0;
        SaverOptions options;
        options.graph.maxToKeep = 1;
        options.graph.keepCheckpointEveryNHours = 1.0f;
        options.clock = [&clock] { return clock; };
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, err(saver));
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const std::string prefix = dir.filePath("model").toStdString();
        // Saved at +0 s, +1000 s, +4000 s (past the first hour), +5000 s, +6000 s.
        for (auto [step, offset] :
             std::vector<std::pair<int, double>>{{1, 0}, {2, 1000}, {3, 4000}, {4, 5000}, {5, 6000}}) {
            clock = 1'000'000.0 + offset;
            QVERIFY(saver->save(*s, prefix, step));
        }
        QCOMPARE(filesIn(dir.path()), (QStringList{"checkpoint", "model-3.data-00000-of-00001", "model-3.index",
                                                   "model-5.data-00000-of-00001", "model-5.index"}));
        auto state = readCheckpointState(dir.path().toStdString());
        QVERIFY2(state, err(state));
        QCOMPARE(state->all_model_checkpoint_paths_size(), 1);
        QCOMPARE(state->all_model_checkpoint_paths(0), prefix + "-5");
    }

    void savePathNamedLikeTheStateFileIsRefused()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const std::string path = dir.filePath("checkpoint").toStdString();
        auto saved = saver->save(*s, path);
        QVERIFY(!saved);
        QCOMPARE(saved.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(saved.error().message(),
                 "'latest_filename' collides with 'save_path': 'checkpoint' and '" + path + "'");
        QVERIFY(saver->save(*s, path, 1)); // numbered, it no longer collides
    }

    /// Saver.save's latest_filename, meta_graph_suffix and write_state, and Saver's
    /// save_relative_paths, as TensorFlow 1.15 treats them.
    void saveArgumentsAsTensorFlow()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        SaverOptions options;
        options.graph.maxToKeep = 1;
        auto saver = Saver::create(b, options);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        MetaGraphExportOptions exportOptions;
        exportOptions.saverDef = saver->saverDef();
        auto meta = exportMetaGraph(b, exportOptions);
        QVERIFY2(meta, err(meta));
        const std::string prefix = dir.filePath("model").toStdString();
        SaveArguments args;
        args.latestFilename = "my_state";
        args.metaGraphSuffix = "metagraph";
        args.metaGraph = &*meta;
        args.globalStep = 1;
        QVERIFY(saver->save(*s, prefix, args));
        args.globalStep = 2;
        QVERIFY(saver->save(*s, prefix, args));
        // max_to_keep 1: the first checkpoint went, its MetaGraph under the suffix with it.
        QCOMPARE(filesIn(dir.path()), (QStringList{"model-2.data-00000-of-00001", "model-2.index", "model-2.metagraph",
                                                   "my_state"}));
        // Without save_relative_paths an absolute prefix is written as it is.
        QFile state(dir.filePath("my_state"));
        QVERIFY(state.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(state.readAll());
        QVERIFY2(text.contains(QString::fromStdString("model_checkpoint_path: \"" + prefix + "-2\"")),
                 qPrintable(text));
        // write_state false: the checkpoint without the state file.
        args.globalStep = 3;
        args.writeState = false;
        QVERIFY(saver->save(*s, prefix, args));
        QVERIFY(QFile::exists(dir.filePath("model-3.index")));
        QVERIFY(!filesIn(dir.path()).contains("checkpoint"));

        SaveArguments bad;
        bad.latestFilename = "sub/state";
        auto refused = saver->save(*s, prefix, bad);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message(), std::string("'latest_filename' must be a base name."));
        bad.latestFilename = "my_state";
        refused = saver->save(*s, dir.filePath("my_state").toStdString(), bad);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message(), "'latest_filename' collides with 'save_path': 'my_state' and '" +
                                                dir.filePath("my_state").toStdString() + "'");
    }

    /// save_relative_paths: the state file names the checkpoint relative to its directory, so a
    /// copied directory restores from its own files; a relative save path (to the working
    /// directory) is written relative to the state file's directory either way.
    void relativePathsSurviveACopiedDirectory()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        SaverOptions options;
        options.saveRelativePaths = true;
        auto saver = Saver::create(b, options);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const auto before = fetch(*s, {"W:0", "b:0"});
        QVERIFY(QDir(dir.path()).mkpath("a"));
        QVERIFY(saver->save(*s, dir.filePath("a/model").toStdString(), 7));
        QFile state(dir.filePath("a/checkpoint"));
        QVERIFY(state.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(state.readAll()),
                 QString("model_checkpoint_path: \"model-7\"\nall_model_checkpoint_paths: \"model-7\"\n"));
        fs::copy(dir.filePath("a").toStdString(), dir.filePath("b").toStdString());
        fs::remove_all(dir.filePath("a").toStdString());
        auto latest = latestCheckpoint(dir.filePath("b").toStdString());
        QVERIFY2(latest, err(latest));
        QCOMPARE(latest->string(), dir.filePath("b/model-7").toStdString());
        run(*s, {"scramble"});
        QVERIFY2(saver->restore(*s, latest->string()).isOk(), "restore from the copy");
        const auto after = fetch(*s, {"W:0", "b:0"});
        QVERIFY(bitEqual(before[0], after[0]) && bitEqual(before[1], after[1]));

        // A relative save path, without save_relative_paths: "ckpts/model-1" from the working
        // directory is "model-1" in ckpts/checkpoint.
        auto plain = Saver::fromSaverDef(saver->saverDef());
        QVERIFY(plain);
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        QVERIFY(QDir(dir.path()).mkpath("ckpts"));
        auto saved = plain->save(*s, "ckpts/model", 1);
        QDir::setCurrent(cwd);
        QVERIFY2(saved, err(saved));
        QFile relative(dir.filePath("ckpts/checkpoint"));
        QVERIFY(relative.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(relative.readAll()).startsWith("model_checkpoint_path: \"model-1\"\n"));
    }

    /// Saver(reshape=True): a value saved as [2, 6] restores into a [3, 4] variable through
    /// save/Reshape (its shape a Const "save/Reshape/shape"), the Assign without validate_shape;
    /// without reshape the restore fails on the shapes.
    void reshapeRestoresAnotherShape()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("wide").toStdString();
        std::vector<double> values(12);
        for (int i = 0; i < 12; ++i)
            values[static_cast<std::size_t>(i)] = 0.5 * i - 2;
        {
            GraphBuilder b(m_registries->ops);
            auto proto = makeTensorProto(tf::DT_FLOAT, {2, 6}, values);
            QVERIFY(proto);
            QVERIFY(variable(b, *proto, "W"));
            QVERIFY(globalVariablesInitializer(b));
            auto saver = Saver::create(b);
            QVERIFY(saver);
            auto s = session(b.graphDef());
            run(*s, {"init"});
            QVERIFY(saver->save(*s, prefix));
        }
        GraphBuilder b(m_registries->ops);
        auto w = getVariable(b, "W", {3, 4});
        QVERIFY2(w, err(w));
        QVERIFY(globalVariablesInitializer(b));
        SaverOptions options;
        options.graph.reshape = true;
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, err(saver));
        const tf::NodeDef* reshape = b.findNode("save/Reshape");
        QVERIFY(reshape && reshape->op() == "Reshape");
        QCOMPARE(reshape->input(1), std::string("save/Reshape/shape"));
        const tf::NodeDef* assign = b.findNode("save/Assign");
        QVERIFY(assign && assign->input(1) == "save/Reshape" && !assign->attr().at("validate_shape").b());
        auto s = session(b.graphDef());
        QVERIFY2(saver->restore(*s, prefix).isOk(), "restore with reshape");
        const Tensor restored = fetch(*s, {"W:0"})[0];
        QCOMPARE(restored.shape(), (TensorShape{3, 4}));
        for (int i = 0; i < 12; ++i)
            QCOMPARE(restored.values<float>()[static_cast<std::size_t>(i)], static_cast<float>(values[i]));

        GraphBuilder strict(m_registries->ops);
        QVERIFY(getVariable(strict, "W", {3, 4}));
        auto strictSaver = Saver::create(strict);
        QVERIFY(strictSaver);
        auto t = session(strict.graphDef());
        const Status st = strictSaver->restore(*t, prefix);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY(st.message().find("lhs shape= [3,4] rhs shape= [2,6]") != std::string::npos);
    }

    /// The older layout (TensorFlow 1.3 .. 1.13: "save/Const" is a Const) against the save/* nodes
    /// TensorFlow 1.11 wrote for the regression model: every node byte-identical, and the SaverDef.
    void subgraphMatchesTensorFlow111()
    {
        auto meta = readMetaGraphFixture("tf2onnx/regression/checkpoint/model.meta");
        if (!meta)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES (or no tf2onnx/regression/checkpoint/model.meta): "
                  "the saver subgraph is not compared with TensorFlow's");
        GraphBuilder b(m_registries->ops);
        QVERIFY(buildRegressionModel(b, meta->graph_def()));
        SaverOptions options;
        options.graph.filenameAsConst = true;
        auto saver = Saver::create(b, options);
        QVERIFY2(saver, err(saver));
        const std::vector<tf::NodeDef> ours = saveNodes(b.toGraphDef(true));
        const std::vector<tf::NodeDef> theirs = saveNodes(meta->graph_def());
        QCOMPARE(theirs.size(), std::size_t{11});
        QCOMPARE(ours.size(), theirs.size());
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const QString diff = diffNode(ours[i], theirs[i]);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        QVERIFY2(google::protobuf::util::MessageDifferencer::Equals(saver->saverDef(), meta->saver_def()),
                 saver->saverDef().DebugString().c_str());
    }

    /// TensorFlow 1.15's layout: the filename is "save/filename/input" -> "save/filename" ->
    /// "save/Const" (two PlaceholderWithDefault), the rest as TensorFlow 1.11 wrote it.
    void subgraphMatchesTensorFlow115()
    {
        auto meta = readMetaGraphFixture("tf2onnx/regression/checkpoint/model.meta");
        if (!meta)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the saver subgraph is not compared with "
                  "TensorFlow's");
        GraphBuilder b(m_registries->ops);
        QVERIFY(buildRegressionModel(b, meta->graph_def()));
        auto saver = Saver::create(b);
        QVERIFY2(saver, err(saver));
        const std::vector<tf::NodeDef> ours = saveNodes(b.toGraphDef(true));
        std::vector<tf::NodeDef> expected(3);
        const char* scalarShapes = R"(attr { key: "_output_shapes" value { list { shape { } } } }
                                      attr { key: "dtype" value { type: DT_STRING } })";
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            std::string(R"(name: "save/filename/input" op: "Const" )") + scalarShapes +
                R"( attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { } string_val: "model" } } })",
            &expected[0]));
        for (auto [i, name, input] :
             {std::tuple{1, "save/filename", "save/filename/input"}, std::tuple{2, "save/Const", "save/filename"}}) {
            QVERIFY(google::protobuf::TextFormat::ParseFromString(
                std::string("name: \"") + name + "\" op: \"PlaceholderWithDefault\" input: \"" + input + "\" " +
                    scalarShapes + R"( attr { key: "shape" value { shape { } } })",
                &expected[static_cast<std::size_t>(i)]));
        }
        const std::vector<tf::NodeDef> theirs = saveNodes(meta->graph_def());
        expected.insert(expected.end(), theirs.begin() + 1, theirs.end());
        QCOMPARE(ours.size(), expected.size());
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const QString diff = diffNode(ours[i], expected[i]);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(saver->saverDef(), meta->saver_def()));

        // The filename can be fed through save/Const (the SaverDef's name) and defaults to "model".
        auto s = session(b.graphDef());
        run(*s, {"W/Assign", "b/Assign"});
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("fed").toStdString();
        auto path = saver->save(*s, prefix);
        QVERIFY2(path, err(path));
        QVERIFY(QFile::exists(dir.filePath("fed.index")));
        QCOMPARE(fetch(*s, {"save/Const:0"})[0].strings()[0], std::string("model"));
    }

    /// TensorFlow 1.3's MNIST checkpoint restored into its own .meta graph through the .meta's
    /// SaverDef (one RestoreV2 per variable, "save/Const" a Const that is fed), imported as it is
    /// and under an import scope.
    void restoresTensorFlowCheckpointThroughItsSaverDef_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::newRow("no scope") << QString();
        QTest::newRow("import scope") << QString("imported");
    }

    void restoresTensorFlowCheckpointThroughItsSaverDef()
    {
        QFETCH(QString, scope);
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString dir = QDir(fixtures).filePath("tf1-mnist-book");
        if (fixtures.isEmpty() || !QFile::exists(dir + "/mnist_model-29001.meta"))
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's MNIST checkpoint is not restored");
        auto meta = readMetaGraphFile((dir + "/mnist_model-29001.meta").toStdString());
        QVERIFY2(meta, err(meta));
        MetaGraphImportOptions options;
        options.importScope = scope.toStdString();
        options.ops = &m_registries->ops;
        auto imported = importMetaGraph(*meta, options);
        QVERIFY2(imported, err(imported));
        QVERIFY(imported->saverDef);
        auto latest = latestCheckpoint(dir.toStdString());
        QVERIFY2(latest, err(latest));
        QCOMPARE(QString::fromStdString(latest->filename().string()), QString("mnist_model-29001"));
        const std::string prefix = latest->string();

        auto saver = Saver::fromSaverDef(*imported->saverDef);
        QVERIFY2(saver, err(saver));
        auto s = session(imported->graph);
        const Status restored = saver->restore(*s, prefix);
        QVERIFY2(restored.isOk(), err(restored));
        auto reader = TensorBundleReader::open(prefix);
        QVERIFY2(reader, err(reader));
        QCOMPARE(reader->tensors().size(), std::size_t{9});
        for (const BundleTensorInfo& info : reader->tensors()) {
            auto stored = reader->read(info.name, m_allocator);
            QVERIFY2(stored, err(stored));
            QVERIFY2(bitEqual(fetch(*s, {imported->scoped(info.name + ":0")})[0], *stored), info.name.c_str());
        }
        // The global step the book's training loop saved with.
        QCOMPARE(fetch(*s, {imported->scoped("Variable:0")})[0].scalar<std::int32_t>(), 29001);
    }

    /// ExponentialMovingAverage.variables_to_restore(): the averages of TensorFlow's checkpoint
    /// restored into the variables of an inference graph built here.
    void restoresMovingAveragesIntoTheVariables()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString prefixPath = QDir(fixtures).filePath("tf1-mnist-book/mnist_model-29001");
        if (fixtures.isEmpty() || !QFile::exists(prefixPath + ".index"))
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's moving averages are not restored");
        GraphBuilder b(m_registries->ops);
        SaveableVariables averages;
        for (auto [layer, in, out] : {std::tuple{"layer1", 784, 500}, std::tuple{"layer2", 500, 10}}) {
            auto scope = variableScope(b, layer);
            QVERIFY(scope);
            auto weights = getVariable(b, "weights", {in, out});
            auto biases = getVariable(b, "biases", {out});
            QVERIFY(weights && biases);
            averages[weights->name() + "/ExponentialMovingAverage"] = *weights;
            averages[biases->name() + "/ExponentialMovingAverage"] = *biases;
        }
        auto saver = Saver::create(b, averages);
        QVERIFY2(saver, err(saver));
        auto s = session(b.graphDef());
        const std::string prefix = prefixPath.toStdString();
        const Status restored = saver->restore(*s, prefix);
        QVERIFY2(restored.isOk(), err(restored));
        auto reader = TensorBundleReader::open(prefix);
        QVERIFY(reader);
        for (const auto& [key, variable] : averages) {
            auto average = reader->read(key, m_allocator);
            auto raw = reader->read(variable.name(), m_allocator);
            QVERIFY(average && raw);
            QVERIFY(!bitEqual(*average, *raw)); // the test can tell them apart
            QVERIFY2(bitEqual(fetch(*s, {variable.name() + ":0"})[0], *average), key.c_str());
        }
    }

    void missingTensorNamesTheKey()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString prefix = QDir(fixtures).filePath("tf2onnx/regression/checkpoint/model");
        if (fixtures.isEmpty() || !QFile::exists(prefix + ".index"))
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the regression checkpoint is missing");
        GraphBuilder b(m_registries->ops);
        auto scope = variableScope(b, "layer1");
        QVERIFY(scope);
        QVERIFY(getVariable(b, "weights", {784, 500}));
        scope->close();
        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        const Status st = saver->restore(*s, prefix.toStdString());
        QCOMPARE(st.code(), StatusCode::kNotFound);
        QCOMPARE(st.message(), std::string("Restoring from checkpoint failed. This is most likely due to a Variable "
                                           "name or other graph key that is missing from the checkpoint. Please "
                                           "ensure that you have not altered the graph expected based on the "
                                           "checkpoint. Original error:\n\n"
                                           "node 'save/RestoreV2' (op 'RestoreV2'): Key layer1/weights not found "
                                           "in checkpoint"));
    }

    void dtypeMismatchNamesBothDtypes()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString prefix = QDir(fixtures).filePath("tf2onnx/regression/checkpoint/model");
        if (fixtures.isEmpty() || !QFile::exists(prefix + ".index"))
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the regression checkpoint is missing");
        GraphBuilder b(m_registries->ops);
        QVERIFY(getVariable(b, "W", TensorShape::scalar(), tf::DT_INT32));
        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        const Status st = saver->restore(*s, prefix.toStdString());
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(st.message().find("This is most likely due to a mismatch between the current graph and the graph "
                                   "from the checkpoint.") != std::string::npos,
                 err(st));
        QVERIFY2(st.message().ends_with(
                     "node 'save/RestoreV2' (op 'RestoreV2'): tensor_name = W; expected dtype int32 does not equal "
                     "original dtype float"),
                 err(st));
    }

    void shapeMismatchNamesBothShapes()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("small").toStdString();
        {
            // A checkpoint where layer1/weights has 10 elements.
            GraphBuilder b(m_registries->ops);
            auto scope = variableScope(b, "layer1");
            QVERIFY(scope);
            QVERIFY(getVariable(b, "weights", {10}));
            scope->close();
            QVERIFY(globalVariablesInitializer(b));
            auto saver = Saver::create(b);
            QVERIFY(saver);
            auto s = session(b.graphDef());
            run(*s, {"init"});
            QVERIFY(saver->save(*s, prefix));
        }
        GraphBuilder b(m_registries->ops);
        auto scope = variableScope(b, "layer1");
        QVERIFY(scope);
        QVERIFY(getVariable(b, "weights", {784, 500}));
        scope->close();
        QVERIFY(globalVariablesInitializer(b));
        auto saver = Saver::create(b);
        QVERIFY(saver);
        const std::string expected = "Restoring from checkpoint failed. This is most likely due to a mismatch between "
                                     "the current graph and the graph from the checkpoint. Please ensure that you "
                                     "have not altered the graph expected based on the checkpoint. Original "
                                     "error:\n\nnode 'save/Assign' (op 'Assign'): Assign requires shapes of both "
                                     "tensors to match. lhs shape= [784,500] rhs shape= [10]";
        auto s = session(b.graphDef());
        run(*s, {"init"});
        Status st = saver->restore(*s, prefix);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QCOMPARE(st.message(), expected);

        // TensorFlow also refuses it before the variable holds a value: its uninitialised
        // variable carries the declared shape, and so does ours.
        auto fresh = session(b.graphDef());
        st = saver->restore(*fresh, prefix);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QCOMPARE(st.message(), expected);
    }

    void badArgumentsAreRefused()
    {
        QTemporaryDir dir;
        GraphBuilder b(m_registries->ops);
        auto none = Saver::create(b);
        QVERIFY(!none);
        QCOMPARE(none.error().message(), std::string("No variables to save"));
        SaverOptions allowEmpty;
        allowEmpty.allowEmpty = true;
        auto empty = Saver::create(b, allowEmpty);
        QVERIFY2(empty, err(empty));
        QVERIFY(empty->isEmpty());
        QCOMPARE(b.nodeCount(), 0);

        buildSmallModel(b);
        const int nodes = b.nodeCount();
        const std::vector<Variable> vars = globalVariables(b);
        auto twice = Saver::create(b, std::vector<Variable>{vars[0], vars[0]});
        QVERIFY(!twice);
        QCOMPARE(twice.error().message(), std::string("At least two variables have the same name: W"));
        auto twoNames = Saver::create(b, SaveableVariables{{"a", vars[1]}, {"c", vars[1]}});
        QVERIFY(!twoNames);
        QCOMPARE(twoNames.error().message(), std::string("The same saveable will be restored with two names: c"));
        QCOMPARE(b.nodeCount(), nodes); // nothing was added

        auto s = session(b.graphDef());
        auto saved = empty->save(*s, dir.filePath("x").toStdString());
        QVERIFY(saved);
        QVERIFY(saved->empty());
        QVERIFY(filesIn(dir.path()).isEmpty());

        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto fresh = session(b.graphDef());
        const std::string missing = dir.filePath("nothing").toStdString();
        const Status st = saver->restore(*fresh, missing);
        QCOMPARE(st.code(), StatusCode::kNotFound);
        QCOMPARE(st.message(), "The passed save_path is not a valid checkpoint: " + missing);

        tf::SaverDef def = saver->saverDef();
        def.clear_restore_op_name();
        auto broken = Saver::fromSaverDef(def);
        QVERIFY(!broken);
        QVERIFY(broken.error().message().starts_with("saver_def must specify the restore_op_name: "));
        auto scoped = Saver::fromSaverDef(saver->saverDef(), "imported");
        QVERIFY(scoped);
        QCOMPARE(scoped->saverDef().filename_tensor_name(), std::string("imported/save/Const:0"));
        QCOMPARE(scoped->saverDef().restore_op_name(), std::string("imported/save/restore_all"));
        // A second saver gets its own scope.
        QCOMPARE(saver->saverDef().restore_op_name(), std::string("save/restore_all"));
        auto second = Saver::create(b);
        QVERIFY(second);
        QCOMPARE(second->saverDef().restore_op_name(), std::string("save_1/restore_all"));
    }

    /// A child process saving a 256 MB checkpoint to the prefix of a good one is killed with SIGKILL
    /// while the data file is being written: the good checkpoint still restores bit for bit and the
    /// state file still names it.
    void killedSaveLeavesThePreviousCheckpoint()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("model.ckpt").toStdString();
        GraphBuilder b(m_registries->ops);
        buildSmallModel(b);
        auto saver = Saver::create(b);
        QVERIFY(saver);
        auto s = session(b.graphDef());
        run(*s, {"init"});
        const std::vector<Tensor> good = fetch(*s, {"W:0", "b:0"});
        QVERIFY(saver->save(*s, prefix));
        QFile index(QString::fromStdString(prefix + ".index"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QByteArray indexBefore = index.readAll();
        index.close();

        QProcess child;
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(TSTUDIO_SAVER_CRASH_HELPER, {QString::fromStdString(prefix), "256"});
        QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
        const QString tempPrefix = "model.ckpt.data-00000-of-00001.tempstate";
        constexpr qint64 kKillAt = 16ll << 20;
        QString temp;
        QElapsedTimer timer;
        timer.start();
        while (temp.isEmpty()) {
            for (const QFileInfo& f : QDir(dir.path()).entryInfoList(QDir::Files)) {
                if (f.fileName().startsWith(tempPrefix) && f.size() >= kKillAt)
                    temp = f.fileName();
            }
            if (!temp.isEmpty())
                break;
            if (child.state() == QProcess::NotRunning || timer.elapsed() > 90000) {
                child.kill();
                child.waitForFinished(5000);
                QFAIL(qPrintable("the helper ended or stalled before its data file reached 16 MB: " +
                                 QString::fromLocal8Bit(child.readAll())));
            }
            QThread::usleep(500);
        }
        child.kill(); // SIGKILL on Unix
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        // Killed midway: its temporary data file is still there, unrenamed.
        QVERIFY2(QFile::exists(dir.filePath(temp)), qPrintable(temp));
        QVERIFY(index.open(QIODevice::ReadOnly));
        QCOMPARE(index.readAll(), indexBefore);
        index.close();
        auto state = readCheckpointState(dir.path().toStdString());
        QVERIFY2(state, err(state));
        QCOMPARE(state->model_checkpoint_path(), prefix);

        auto fresh = session(b.graphDef());
        const Status restored = saver->restore(*fresh, prefix);
        QVERIFY2(restored.isOk(), err(restored));
        const std::vector<Tensor> after = fetch(*fresh, {"W:0", "b:0"});
        QVERIFY(bitEqual(after[0], good[0]));
        QVERIFY(bitEqual(after[1], good[1]));
    }
};

QTEST_GUILESS_MAIN(TestSaver)
#include "test_saver.moc"
