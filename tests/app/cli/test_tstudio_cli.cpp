// End-to-end tests of the two programs as a user runs them: tstudio's frame, inspect, run (with
// checkpoints and SavedModels) and freeze, and tensorstudio --screenshot.
#include "process_run.h"
#include "../../support/test_files.h"
#include "io/checkpoint/tensor_bundle_writer.h"

#include <QImage>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>

namespace {

using Run = tstudio::testing::ProcessRun;

Run run(const QString& program, const QStringList& args)
{
    return tstudio::testing::runProcess(program, args, 60000);
}

Run runTstudio(const QStringList& args) { return run(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args); }

/// The single value of fetch `name` in a `tstudio run` JSON answer (NaN when absent).
double fetchedScalar(const Run& r, const QString& name)
{
    const QJsonArray values =
        QJsonDocument::fromJson(r.out.toUtf8()).object()["fetches"].toObject()[name].toObject()["values"].toArray();
    return values.size() == 1 ? values[0].toDouble() : std::nan("");
}

/// A small checkpoint written by the engine: a/bias float [3], big float [10], step int64 [].
QString writeSmallCheckpoint(const QTemporaryDir& dir)
{
    using namespace tstudio;
    static CpuAllocator allocator;
    const std::string prefix = dir.filePath("ckpt/model.ckpt-7").toStdString();
    auto writer = TensorBundleWriter::create(prefix);
    if (!writer)
        return {};
    std::vector<float> big;
    for (int i = 0; i < 10; ++i)
        big.push_back(float(i) / 4);
    const bool ok =
        (*writer)->add("a/bias", Tensor::fromVector<float>(allocator, TensorShape{3}, {0.5f, -1, 2}).value()).isOk() &&
        (*writer)->add("big", Tensor::fromVector<float>(allocator, TensorShape{10}, big).value()).isOk() &&
        (*writer)->add("step", Tensor::fromVector<std::int64_t>(allocator, TensorShape::scalar(), {7}).value()).isOk() &&
        (*writer)->finish().isOk();
    return ok ? QString::fromStdString(prefix) : QString();
}

} // namespace

class TestTstudioCli : public QObject {
    Q_OBJECT
private slots:
    void versionAndHelp()
    {
        Run r = runTstudio({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("tstudio 0."), qPrintable(r.out));
        QVERIFY(r.out.contains("protobuf 3.21"));
        r = runTstudio({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("inspect"));
        r = runTstudio({});
        QVERIFY(r.exitCode != 0);  // a subcommand is required
        r = runTstudio({"frobnicate"});
        QVERIFY(r.exitCode != 0);
    }

    void inspectReportsKindAndSize()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("g.pbtxt");
        const std::string text = "node { name: \"a\" op: \"NoOp\" }\n";
        QVERIFY(tstudio::testing::writeFile(path, text));
        Run r = runTstudio({"inspect", path, "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(json.value("kind").toString(), QString("graphdef-text"));
        QCOMPARE(json.value("size_bytes").toInt(), int(text.size()));
        QCOMPARE(json.value("node_count").toInt(), 1);
        const QJsonObject graph = json.value("graph").toObject();
        QCOMPARE(graph.value("node_count").toInt(), 1);
        QCOMPARE(graph.value("ops").toObject().value("NoOp").toInt(), 1);

        r = runTstudio({"inspect", path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("GraphDef (text)"));
        QVERIFY(r.out.contains(QString::number(text.size()) + " bytes"));
    }

    void inspectMissingPathFails()
    {
        Run r = runTstudio({"inspect", "/nonexistent/model.pb"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("NotFound") && r.err.contains("/nonexistent/model.pb"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void inspectInfersShapes()
    {
        const QString example = QStringLiteral(TSTUDIO_SOURCE_DIR "/resources/examples/linear_regression.pbtxt");
        Run r = runTstudio({"inspect", example, "--shapes"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("shapes (16 outputs, 0 errors)"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("weights:0\\s+float32_ref\\s+\\[1,1\\]")), qPrintable(r.out));

        r = runTstudio({"inspect", example, "--shapes", "--assume-shape", "x:0=[4,1]", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject outputs =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["shapes"].toObject()["outputs"].toObject();
        QCOMPARE(outputs["pred:0"].toObject()["shape"].toString(), QStringLiteral("[4,1]"));
        QCOMPARE(outputs["pred:0"].toObject()["dtype"].toString(), QStringLiteral("float32"));
        QCOMPARE(outputs["weights/initial_value:0"].toObject()["constant"].toBool(), true);

        r = runTstudio({"inspect", example, "--shapes", "--assume-shape", "x:0=[4,2]"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot assume shape [4,2] for 'x:0'"), qPrintable(r.err));
        r = runTstudio({"inspect", example, "--shapes", "--assume-shape", "x:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is not NAME=SHAPE"), qPrintable(r.err));
    }

    void runFeedsAndFetches()
    {
        // The built-in example: initialise the variables, then fetch the prediction and the loss.
        const QString example = QStringLiteral(TSTUDIO_SOURCE_DIR "/resources/examples/linear_regression.pbtxt");
        QTemporaryDir dir;
        Run r = runTstudio({"run", example, "--target", "init", "--feed", "x=[[1],[2]]", "--feed", "y=[[1],[3]]",
                            "--fetch", "pred", "--fetch", "loss:0", "--out-npy", dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject fetches = QJsonDocument::fromJson(r.out.toUtf8()).object().value("fetches").toObject();
        const QJsonObject pred = fetches.value("pred").toObject();
        QCOMPARE(pred.value("dtype").toString(), QString("float32"));
        QCOMPARE(pred.value("shape").toArray(), QJsonArray({2, 1}));
        QCOMPARE(pred.value("values").toArray(), QJsonArray({0.5, 1.0}));  // weights 0.5, bias 0
        // loss = mean((0.5 - 1)^2, (1 - 3)^2) = (0.25 + 4) / 2
        QCOMPARE(fetches.value("loss:0").toObject().value("values").toArray(), QJsonArray({2.125}));
        QVERIFY(QFile::exists(dir.filePath("pred.npy")));
        QVERIFY(QFile::exists(dir.filePath("loss_0.npy")));

        // Feeding from a .npy file written by the previous run.
        r = runTstudio({"run", example, "--target", "init", "--feed", "x=@" + dir.filePath("pred.npy"), "--fetch", "pred"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("[0.25,0.5]"));
    }

    void runFeedsInt64Exactly()
    {
        // JSON integers reach an int64 tensor exactly: through a double, 2^53 + 1 arrived as 2^53
        // and 2^63 - 1 was refused as too big.
        QTemporaryDir dir;
        const QString graph = dir.filePath("identity.pbtxt");
        QFile file(graph);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"pb(
node { name: "n" op: "Placeholder" attr { key: "dtype" value { type: DT_INT64 } } }
node { name: "out" op: "Identity" input: "n" attr { key: "T" value { type: DT_INT64 } } }
)pb");
        file.close();
        Run r = runTstudio({"run", graph, "--feed", "n=[9007199254740993, 9223372036854775807, -9223372036854775808]",
                            "--fetch", "out:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("[9007199254740993,9223372036854775807,-9223372036854775808]"), qPrintable(r.out));
        r = runTstudio({"run", graph, "--feed", "n=[9223372036854775808]", "--fetch", "out:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("9223372036854775808 does not fit a int64"), qPrintable(r.err));
    }

    void runReportsBadInput()
    {
        const QString example = QStringLiteral(TSTUDIO_SOURCE_DIR "/resources/examples/linear_regression.pbtxt");
        Run r = runTstudio({"run", example, "--fetch", "pred"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("You must feed a value for placeholder tensor 'x' with dtype float and shape [?,1]"),
                 qPrintable(r.err));
        r = runTstudio({"run", example, "--feed", "x=[1,2,3]", "--fetch", "pred"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Cannot feed value of shape (3,) for Tensor 'x:0'"), qPrintable(r.err));
        r = runTstudio({"run", example, "--feed", "x=[[1],[2,3]]", "--fetch", "pred"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("ragged"));
        r = runTstudio({"run", example, "--fetch", "no_such_node"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no_such_node"));
        r = runTstudio({"run", "/nonexistent.pb", "--fetch", "x"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("/nonexistent.pb"));
    }

    /// `tstudio bench --background-load N` runs beside N busy processes pinned to the last cores,
    /// says so first, and refuses more processes than cores.
    void benchRunsBesideABackgroundLoad()
    {
        Run r = runTstudio({"bench", "overhead", "--nodes", "50", "--repeat", "1", "--background-load", "1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("background load: 1 busy process on core "), qPrintable(r.out));
        QVERIFY(r.out.contains("us per node"));
        for (const char* count : {"100000", "-1"}) {
            r = runTstudio({"bench", "overhead", "--background-load", count});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(QStringLiteral("--background-load %1: expected 0 to ").arg(count)), qPrintable(r.err));
        }
    }

    /// bench all: one table, our figures beside the peer's; a peer that cannot run is reported as not
    /// run (here: no such Python), with the reason, and is no failure.
    void benchAllPrintsOneTable()
    {
        Run r = runTstudio({"bench", "all", "--only", "mlp", "--rounds", "2", "--steps", "5", "--warmup", "1",
                            "--threads", "1", "--tools", TSTUDIO_SOURCE_DIR "/tools/bench", "--python",
                            "/nonexistent/python3"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 4, qPrintable(r.out));
        QVERIFY2(lines[0].startsWith("tstudio bench all: 2 interleaved rounds, 1 thread on each side"), qPrintable(r.out));
        QVERIFY2(lines[1].startsWith("benchmark"), qPrintable(r.out));
        static const QRegularExpression row(
            R"(^mlp\s+steps/s\s+([0-9.]+) / ([0-9.]+) / ([0-9.]+)\s+PyTorch\s+not run\s+-$)");
        const QRegularExpressionMatch m = row.match(lines[2]);
        QVERIFY2(m.hasMatch(), qPrintable(lines[2]));
        QVERIFY(m.captured(1).toDouble() > 0);
        QVERIFY(m.captured(1).toDouble() <= m.captured(2).toDouble());
        QVERIFY(m.captured(2).toDouble() <= m.captured(3).toDouble());
        QVERIFY2(r.out.contains("pytorch_bench.py mlp: not run: cannot run '/nonexistent/python3'"), qPrintable(r.out));
        QVERIFY2(r.err.contains("round 1/2: tstudio bench mlp") && r.err.contains("round 2/2: tstudio bench mlp"),
                 qPrintable(r.err));
        r = runTstudio({"bench", "all", "--only", "alexnet"});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("alexnet"), qPrintable(r.err));

        // --json: the same table as one document, with every round's figure.
        r = runTstudio({"bench", "all", "--only", "mlp", "--rounds", "2", "--steps", "5", "--warmup", "1", "--threads",
                        "1", "--tools", TSTUDIO_SOURCE_DIR "/tools/bench", "--python", "/nonexistent/python3", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.out));
        QCOMPARE(o["rounds"].toInt(), 2);
        QCOMPARE(o["threads"].toInt(), 1);
        const QJsonArray rows = o["rows"].toArray();
        QCOMPARE(rows.size(), 1);
        const QJsonObject mlp = rows[0].toObject();
        QCOMPARE(mlp["benchmark"].toString(), QStringLiteral("mlp"));
        QCOMPARE(mlp["unit"].toString(), QStringLiteral("steps/s"));
        QCOMPARE(mlp["tensorstudio_state"].toString(), QStringLiteral("ok"));
        const QJsonObject ours = mlp["tensorstudio"].toObject();
        QCOMPARE(ours["rounds"].toArray().size(), 2);
        QVERIFY(ours["min"].toDouble() > 0 && ours["min"].toDouble() <= ours["median"].toDouble() &&
                ours["median"].toDouble() <= ours["max"].toDouble());
        QCOMPARE(mlp["peer_state"].toString(), QStringLiteral("not run"));
        QVERIFY(mlp["ratio"].isNull());
        QVERIFY(o["notes"].toArray()[0].toObject()["why"].toString().startsWith("not run: cannot run '/nonexistent/python3'"));
    }

    /// With Debian's python3-torch, the peer runs too and the ratio is printed.
    void benchAllRunsPyTorchBesideUs()
    {
        QProcess probe;
        probe.start("/usr/bin/python3", {"-c", "import torch"});
        if (!probe.waitForFinished(120000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
            QSKIP("/usr/bin/python3 cannot import torch (Debian's python3-torch is not installed)");
        Run r = runTstudio({"bench", "all", "--only", "mlp", "--rounds", "1", "--steps", "5", "--warmup", "1",
                            "--threads", "1", "--tools", TSTUDIO_SOURCE_DIR "/tools/bench"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        static const QRegularExpression row(
            R"(\nmlp\s+steps/s\s+[0-9.]+ / [0-9.]+ / [0-9.]+\s+PyTorch\s+[0-9.]+ / [0-9.]+ / [0-9.]+\s+([0-9.]+)x\n)");
        const QRegularExpressionMatch m = row.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY(m.captured(1).toDouble() > 0);
    }

    /// A SparseTensor fed as tf.sparse_placeholder(name="sp") makes it: --feed sp={"indices", "values",
    /// "dense_shape"} fills sp/indices, sp/values and sp/shape.
    void runFeedsASparseTensor()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath("sparse.pbtxt");
        QFile file(graph);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"(
node { name: "sp/indices" op: "Placeholder" attr { key: "dtype" value { type: DT_INT64 } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 2 } } } } }
node { name: "sp/values" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } } } } }
node { name: "sp/shape" op: "Placeholder" attr { key: "dtype" value { type: DT_INT64 } }
       attr { key: "shape" value { shape { dim { size: 2 } } } } }
node { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 0 } } } }
node { name: "dense" op: "SparseToDense" input: "sp/indices" input: "sp/shape" input: "sp/values" input: "zero"
       attr { key: "T" value { type: DT_FLOAT } } attr { key: "Tindices" value { type: DT_INT64 } } }
)");
        file.close();
        Run r = runTstudio({"run", graph, "--feed", R"(sp={"indices": [[0, 1], [1, 2]], "values": [5, 7], "dense_shape": [2, 3]})",
                            "--fetch", "dense:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject dense =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["fetches"].toObject()["dense:0"].toObject();
        QCOMPARE(dense["shape"].toArray(), QJsonArray({2, 3}));
        QCOMPARE(dense["values"].toArray(), QJsonArray({0.0, 5.0, 0.0, 0.0, 0.0, 7.0}));
        // Components that disagree, and a value that is not a sparse object, are named.
        r = runTstudio({"run", graph, "--feed", R"(sp={"indices": [[0, 1]], "values": [5, 7], "dense_shape": [2, 3]})",
                        "--fetch", "dense:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--feed sp: indices must be [2, 2]"), qPrintable(r.err));
        r = runTstudio({"run", graph, "--feed", "sp=[1, 2]", "--fetch", "dense:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("a sparse input takes"), qPrintable(r.err));
    }

    void runTheRealFrozenRegression()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: real TensorFlow files not checked");
        Run r = runTstudio({"run", fixtures + "/tf2onnx/regression/graphdef/frozen.pb", "--feed", "X=[5.0]", "--fetch", "pred:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray values = QJsonDocument::fromJson(r.out.toUtf8())
                                      .object()["fetches"].toObject()["pred:0"].toObject()["values"].toArray();
        QCOMPARE(values.size(), 1);
        QVERIFY(qAbs(values[0].toDouble() - 2.1193342) <= 1e-6);
    }

    void inspectListsCheckpointTensors()
    {
        QTemporaryDir dir;
        const QString prefix = writeSmallCheckpoint(dir);
        QVERIFY(!prefix.isEmpty());
        // As TensorFlow's inspect_checkpoint lists them: "name (DT_FLOAT) [3]", sorted by name.
        Run r = runTstudio({"inspect", prefix});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("tensors: 3, 60 bytes of data\na/bias (DT_FLOAT) [3]\nbig (DT_FLOAT) [10]\n"
                                "step (DT_INT64) []\n"),
                 qPrintable(r.out));

        r = runTstudio({"inspect", prefix + ".index", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject checkpoint = QJsonDocument::fromJson(r.out.toUtf8()).object()["checkpoint"].toObject();
        QCOMPARE(checkpoint["tensor_count"].toInt(), 3);
        QCOMPARE(checkpoint["total_bytes"].toInt(), 60);
        const QJsonObject bias = checkpoint["tensors"].toArray()[0].toObject();
        QCOMPARE(bias["name"].toString(), QString("a/bias"));
        QCOMPARE(bias["dtype"].toString(), QString("float32"));
        QCOMPARE(bias["shape"].toArray(), QJsonArray({3}));
        QCOMPARE(bias["size_bytes"].toInt(), 12);

        // Values as NumPy prints them (texts from NumPy 1.24), summarised beyond --max-values.
        r = runTstudio({"inspect", dir.filePath("ckpt"), "--values", "--max-values", "5"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.endsWith("tensor_name:  a/bias\n[ 0.5 -1.   2. ]\ntensor_name:  big\n"
                                "[0.   0.25 0.5  ... 1.75 2.   2.25]\ntensor_name:  step\n7\n"),
                 qPrintable(r.out));
        r = runTstudio({"inspect", prefix, "--values", "--tensor", "step", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray tensors =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["checkpoint"].toObject()["tensors"].toArray();
        QCOMPARE(tensors.size(), 1);
        QCOMPARE(tensors[0].toObject()["values"].toArray(), QJsonArray({7}));
        QCOMPARE(tensors[0].toObject()["numpy"].toString(), QString("7"));

        r = runTstudio({"inspect", prefix, "--tensor", "nope"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Key nope not found in checkpoint"), qPrintable(r.err));
        const QString example = QStringLiteral(TSTUDIO_SOURCE_DIR "/resources/examples/linear_regression.pbtxt");
        r = runTstudio({"inspect", example, "--values"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--values and --tensor need a checkpoint"), qPrintable(r.err));
    }

    void runRestoresCheckpoints()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's checkpoints not checked");
        const QString dir = fixtures + "/tf2onnx/regression/checkpoint";
        // The .meta restores through its saver; by prefix, by .index file and by directory.
        for (const QString& checkpoint : {dir + "/model", dir + "/model.index", dir}) {
            Run r = runTstudio({"run", dir + "/model.meta", "--checkpoint", checkpoint, "--feed", "X=[5.0]", "--fetch",
                                "pred:0"});
            QVERIFY2(r.exitCode == 0, qPrintable(checkpoint + ": " + r.err));
            QVERIFY2(qAbs(fetchedScalar(r, "pred:0") - 2.1193342) <= 1e-6, qPrintable(r.out));
        }
        // Without a checkpoint the variables are uninitialised, in TensorFlow's words.
        Run r = runTstudio({"run", dir + "/model.meta", "--feed", "X=[5.0]", "--fetch", "pred:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("uninitialized value"), qPrintable(r.err));
        r = runTstudio({"run", dir + "/model.meta", "--checkpoint", dir + "/nope", "--fetch", "pred:0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("checkpoint '" + dir + "/nope' not found"), qPrintable(r.err));

        // The book's MNIST directory: its `checkpoint` file names 29001; the global step says so.
        const QString mnist = fixtures + "/tf1-mnist-book";
        r = runTstudio({"run", mnist + "/mnist_model-28001.meta", "--checkpoint", mnist, "--fetch", "Variable:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(fetchedScalar(r, "Variable:0"), 29001.0);

        // A GraphDef has no saver: every variable is restored by name.
        QTemporaryDir tmp;
        r = runTstudio({"freeze", dir + "/model.meta", "--checkpoint", dir, "--outputs", "pred", "--only-variables", "W",
                        "-o", tmp.filePath("half.pb")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runTstudio({"run", tmp.filePath("half.pb"), "--checkpoint", dir, "--feed", "X=[5.0]", "--fetch", "pred:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(qAbs(fetchedScalar(r, "pred:0") - 2.1193342) <= 1e-6, qPrintable(r.out));
    }

    void freezeThenRunTheFrozenGraph()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's checkpoints not checked");
        const QString dir = fixtures + "/tf2onnx/regression/checkpoint";
        QTemporaryDir tmp;
        const QString frozen = tmp.filePath("frozen.pb");
        Run r = runTstudio({"freeze", dir + "/model.meta", "--checkpoint", dir + "/model", "--outputs", "pred", "-o", frozen});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("Froze 2 variables from " + dir + "/model\n  W\n  b\nWrote " + frozen + ": 8 nodes (of 128)"),
                 qPrintable(r.out));
        r = runTstudio({"inspect", frozen, "--json"});
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()["kind"].toString(), QString("graphdef"));
        QVERIFY(!QJsonDocument::fromJson(r.out.toUtf8()).object()["graph"].toObject()["ops"].toObject().contains("VariableV2"));
        r = runTstudio({"run", frozen, "--feed", "X=[5.0]", "--fetch", "pred:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(qAbs(fetchedScalar(r, "pred:0") - 2.1193342) <= 1e-6, qPrintable(r.out));

        // The SavedModel freezes from its own variables/.
        r = runTstudio({"freeze", fixtures + "/tf2onnx/regression/saved_model", "--outputs", "pred", "-o",
                        tmp.filePath("from_saved_model.pb")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runTstudio({"run", tmp.filePath("from_saved_model.pb"), "--feed", "X=[5.0]", "--fetch", "pred:0"});
        QVERIFY2(qAbs(fetchedScalar(r, "pred:0") - 2.1193342) <= 1e-6, qPrintable(r.out + r.err));

        r = runTstudio({"freeze", dir + "/model.meta", "--checkpoint", dir, "--outputs", "pred:0", "-o", frozen});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("output node 'pred:0' is not in the graph (outputs are node names: 'pred'"),
                 qPrintable(r.err));
        r = runTstudio({"freeze", dir + "/model.meta", "--outputs", "pred", "-o", frozen});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--checkpoint is required"), qPrintable(r.err));
    }

    void savedModelInspectAndRun()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's SavedModel not checked");
        const QString model = fixtures + "/tf2onnx/regression/saved_model";
        // As saved_model_cli show --all prints it.
        Run r = runTstudio({"inspect", model});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.endsWith("\nMetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:\n\n"
                                "signature_def['serving_default']:\n"
                                "  The given SavedModel SignatureDef contains the following input(s):\n"
                                "    inputs['X'] tensor_info:\n        dtype: DT_FLOAT\n        shape: unknown_rank\n"
                                "        name: X:0\n"
                                "  The given SavedModel SignatureDef contains the following output(s):\n"
                                "    outputs['pred'] tensor_info:\n        dtype: DT_FLOAT\n        shape: unknown_rank\n"
                                "        name: pred:0\n"
                                "  Method name is: tensorflow/serving/predict\n"),
                 qPrintable(r.out));
        r = runTstudio({"inspect", model, "--json"});
        const QJsonArray metaGraphs =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["saved_model"].toObject()["meta_graphs"].toArray();
        QCOMPARE(metaGraphs.size(), 1);
        QCOMPARE(metaGraphs[0].toObject()["tags"].toString(), QString("serve"));
        const QJsonObject signature = metaGraphs[0].toObject()["signatures"].toArray()[0].toObject();
        QCOMPARE(signature["key"].toString(), QString("serving_default"));
        QCOMPARE(signature["inputs"].toArray()[0].toObject()["name"].toString(), QString("X:0"));

        // A signature by its keys, and the graph by tensor names.
        r = runTstudio({"run", model, "--signature", "serving_default", "--feed", "X=[5.0]"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(qAbs(fetchedScalar(r, "pred") - 2.1193342) <= 1e-6, qPrintable(r.out));
        r = runTstudio({"run", model, "--tag", "serve", "--feed", "X:0=[5.0]", "--fetch", "pred:0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(qAbs(fetchedScalar(r, "pred:0") - 2.1193342) <= 1e-6, qPrintable(r.out));
        r = runTstudio({"run", model, "--signature", "serving_default", "--feed", "Y=[5.0]"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("signature 'serving_default' has no input 'Y'; its inputs: X"), qPrintable(r.err));
        r = runTstudio({"run", model, "--tag", "train", "--signature", "serving_default", "--feed", "X=[5.0]"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("MetaGraphDef associated with tags 'train' could not be found"), qPrintable(r.err));
    }

    void devicesAnswersWithOrWithoutGpu()
    {
        Run r = runTstudio({"devices", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(json.contains("gpu_support_compiled_in"));
        if (!json.value("gpu_support_compiled_in").toBool())
            QCOMPARE(json.value("gpu_unavailable").toString(), QString("no GPU support compiled in"));
        else
            QVERIFY(json.contains("cudnn"));
    }

    void guiScreenshotFromTheCommandLine()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("console.png");
        Run r = run(QStringLiteral(TSTUDIO_GUI_EXE),
                    {"--screenshot", png, "--panel", "console", "--size", "800x500", "--example"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 800);

        r = run(QStringLiteral(TSTUDIO_GUI_EXE), {"--screenshot", dir.filePath("x.png"), "--panel", "bogus"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("unknown panel 'bogus'"));

        r = run(QStringLiteral(TSTUDIO_GUI_EXE), {"--screenshot", dir.filePath("zh.png"), "--language", "zh_CN",
                                                  "--panel", "settings"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!QImage(dir.filePath("zh.png")).isNull());
    }

    /// tensorstudio --bench-train: tstudio train (the program beside it) and the Training panel with
    /// the dashboard following, each run twice, then one line per way with its mean speed.
    void benchTrainPrintsBothSpeeds()
    {
        Run r = tstudio::testing::runProcess(QStringLiteral(TSTUDIO_GUI_EXE),
                                             {"--bench-train", "spirals", "--bench-steps", "30"}, 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.startsWith("bench-train: spirals, 30 steps per run, 2 rounds"), qPrintable(r.out));
        static const QRegularExpression cli(R"(\ntstudio train: ([0-9.]+) steps/s \(mean of 2\)\n)");
        const QRegularExpressionMatch c = cli.match(r.out);
        QVERIFY2(c.hasMatch() && c.captured(1).toDouble() > 0, qPrintable(r.out));
        static const QRegularExpression panel(
            R"(\nTraining panel, ([0-9]+) threads?: ([0-9.]+) steps/s, ([0-9]+)% of tstudio train; GUI stalls p99 )");
        auto it = panel.globalMatch(r.out);
        int lines = 0;
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            QVERIFY(m.captured(1).toInt() >= 1);
            QVERIFY(m.captured(2).toDouble() > 0);
            ++lines;
        }
        QCOMPARE(lines, QThread::idealThreadCount() > 1 ? 2 : 1);
        QCOMPARE(r.out.count(QStringLiteral("tstudio train, ")), 2);
    }

    /// tstudio bench mlp|lenet ends with the steps/s line tools/bench/pytorch_bench.py also prints.
    void benchTrainingPrintsStepsPerSecond()
    {
        for (const char* model : {"mlp", "lenet"}) {
            Run r = runTstudio({"bench", model, "--threads", "1", "--steps", "2", "--warmup", "1"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QString last = r.out.trimmed().split('\n').last();
            QVERIFY2(QRegularExpression(QString("^%1: [0-9.]+ steps/s$").arg(model)).match(last).hasMatch(), qPrintable(r.out));
        }
    }
};

QTEST_GUILESS_MAIN(TestTstudioCli)
#include "test_tstudio_cli.moc"
