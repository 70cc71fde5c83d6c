// `--json` of the subcommands that report what they wrote (docs/cli-json.md): freeze, convert-checkpoint,
// export and hostfile print one JSON document on standard output with the documented keys, and the
// values agree with the files written. Everything here is made by the test (a spirals run of 20 steps).
#include "process_run.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args) { return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 300000); }

/// The JSON object a run printed; null (and a failure message) when its output is not one.
QJsonObject jsonOf(const ProcessRun& r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    return error.error == QJsonParseError::NoError && doc.isObject() ? doc.object() : QJsonObject();
}

QStringList keysOf(const QJsonObject& o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

} // namespace

class TestTstudioJsonReports : public QObject {
    Q_OBJECT

private slots:
    void hostfile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath("hosts");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# two hosts\nnode1 slots=2\nnode2\n");
        f.close();
        const ProcessRun r = runTstudio({"hostfile", file, "--np", "3", "--no-resolve", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"file", "hosts", "ranks", "resolved", "slots"}));
        QCOMPARE(o["slots"].toInt(), 3);
        QCOMPARE(o["ranks"].toInt(), 3);
        QCOMPARE(o["resolved"].toBool(), false);
        const QJsonArray hosts = o["hosts"].toArray();
        QCOMPARE(hosts.size(), 2);
        QCOMPARE(hosts[0].toObject()["host"].toString(), QString("node1"));
        QCOMPARE(hosts[0].toObject()["slots"].toInt(), 2);
        QCOMPARE(hosts[1].toObject()["slots"].toInt(), 1);
        // Errors stay on standard error, with the usual exit status, and no JSON.
        const ProcessRun bad = runTstudio({"hostfile", file, "--np", "4", "--no-resolve", "--json"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.out.isEmpty());
        QVERIFY2(bad.err.startsWith("tstudio hostfile: "), qPrintable(bad.err));
    }

    /// tstudio train --json: stdout holds the result alone (progress and evaluations on stderr), the
    /// evaluations with their metrics, the best checkpoint, and a resumed run says so.
    void train()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const QString eval = QStringLiteral(R"(eval={"sources": [{"type": "two_spirals", "seed": 2, "points_per_class": 100,
            "feeds": {"inputs": "points", "labels": "labels"}}], "every_steps": 30,
            "metrics": [{"kind": "loss"}, {"kind": "accuracy", "labels": "labels", "logits": "dense_2/BiasAdd"}],
            "best": {"metric": "accuracy"}})");
        ProcessRun r = runTstudio({"train", "spirals", "--steps", "60", "--threads", "1", "--logdir", logdir, "--set",
                                   "hooks.checkpoint_every_steps=30", "--set", eval, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"best", "distributed", "early_stopped", "evaluations", "final_accuracy",
                                         "final_loss", "first_step", "input_exhausted_after", "interrupted",
                                         "last_checkpoint", "last_step", "logdir", "perplexities", "project",
                                         "project_file", "resumed", "seconds", "steps_per_second"}));
        // The project's name (its "name" field), and its file.
        QCOMPARE(o["project"].toString(), QStringLiteral("Two spirals (2-64-64-2 ReLU, Adam)"));
        QVERIFY2(o["project_file"].toString().endsWith("/spirals.tsproj"), qPrintable(o["project_file"].toString()));
        QCOMPARE(o["first_step"].toInt(), 0);
        QCOMPARE(o["last_step"].toInt(), 60);
        QCOMPARE(o["resumed"].toBool(), false);
        QCOMPARE(o["interrupted"].toBool(), false);
        QVERIFY(o["early_stopped"].isNull());
        QVERIFY(o["distributed"].isNull());
        QVERIFY(o["final_loss"].isDouble() && o["final_loss"].toDouble() > 0);
        QVERIFY(o["steps_per_second"].toDouble() > 0);
        QVERIFY2(o["last_checkpoint"].toString().endsWith("model.ckpt-60"), qPrintable(r.out));
        QVERIFY(QFile::exists(o["last_checkpoint"].toString() + ".index"));
        // Progress and the evaluations' lines went to stderr.
        QVERIFY2(r.err.contains("60/60  loss "), qPrintable(r.err));
        QVERIFY2(r.err.contains("eval at step 30: loss = "), qPrintable(r.err));
        const QJsonArray evaluations = o["evaluations"].toArray();
        QCOMPARE(evaluations.size(), 2);
        double bestAccuracy = -1;
        qint64 bestStep = -1;
        for (qsizetype i = 0; i < evaluations.size(); ++i) {
            const QJsonObject e = evaluations[i].toObject();
            QCOMPARE(e["global_step"].toInt(), 30 * (i + 1));
            QCOMPARE(e["examples"].toInt(), 200);
            const QJsonObject metrics = e["metrics"].toObject();
            QCOMPARE(metrics.keys(), (QStringList{"accuracy", "loss"}));
            const double accuracy = metrics["accuracy"].toDouble();
            QVERIFY(accuracy >= 0 && accuracy <= 1);
            if (accuracy > bestAccuracy) {
                bestAccuracy = accuracy;
                bestStep = e["global_step"].toInt();
            }
        }
        const QJsonObject best = o["best"].toObject();
        QCOMPARE(best["metric"].toString(), QStringLiteral("accuracy"));
        QCOMPARE(best["mode"].toString(), QStringLiteral("max"));
        QCOMPARE(best["value"].toDouble(), bestAccuracy);
        QCOMPARE(best["global_step"].toInt(), bestStep);
        QVERIFY2(QFile::exists(best["checkpoint"].toString() + ".index"), qPrintable(best["checkpoint"].toString()));

        r = runTstudio({"train", "spirals", "--steps", "70", "--threads", "1", "--logdir", logdir, "--resume", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(o["resumed"].toBool(), true);
        QCOMPARE(o["first_step"].toInt(), 60);
        QCOMPARE(o["last_step"].toInt(), 70);
        QCOMPARE(o["evaluations"].toArray().size(), 0);

        // A failure: no JSON, the error on stderr, exit status 1.
        r = runTstudio({"train", "spirals", "--steps", "80", "--logdir", logdir, "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("pass --resume"), qPrintable(r.err));
    }

    /// tstudio bench KIND --json: the figures on stdout as one document, the text report on stderr,
    /// each figure the one the text shows.
    void benchmarks()
    {
        auto bench = [](const QStringList& args) -> std::pair<QJsonObject, QString> {
            const ProcessRun r = runTstudio(QStringList{"bench"} + args + QStringList{"--json"});
            if (r.exitCode != 0)
                return {QJsonObject{}, r.err};
            return {jsonOf(r), r.err};
        };
        auto [o, err] = bench({"matmul", "--size", "32", "--repeat", "3", "--threads", "1"});
        QCOMPARE(keysOf(o), (QStringList{"benchmark", "best_gflops", "best_ms", "k", "m", "median_gflops", "median_ms",
                                         "n", "runs", "threads", "transpose_a", "transpose_b"}));
        QCOMPARE(o["benchmark"].toString(), QStringLiteral("matmul"));
        QCOMPARE(o["m"].toInt(), 32);
        QCOMPARE(o["runs"].toInt(), 3);
        QVERIFY(o["best_ms"].toDouble() > 0 && o["best_ms"].toDouble() <= o["median_ms"].toDouble());
        // 2 * 32^3 float operations in the best time.
        QVERIFY(std::abs(o["best_gflops"].toDouble() - 65536.0 / (o["best_ms"].toDouble() * 1e6)) <
                1e-6 * o["best_gflops"].toDouble());
        QVERIFY2(err.contains("matmul M=32 K=32 N=32 float32, 1 intra-op threads, 3 runs"), qPrintable(err));

        std::tie(o, err) = bench({"overhead", "--nodes", "20", "--repeat", "3"});
        QCOMPARE(o["nodes"].toInt(), 21);
        QVERIFY(o["median_us_per_node"].toDouble() > 0);
        QVERIFY2(err.contains(QString("  median %1 ms per run").arg(o["median_ms_per_run"].toDouble(), 0, 'f', 3)),
                 qPrintable(err));

        // A training benchmark with the profiler's tables: the same schema as tstudio profile --json.
        std::tie(o, err) = bench({"mlp", "--steps", "3", "--warmup", "1", "--threads", "1", "--profile", "1"});
        QCOMPARE(o["benchmark"].toString(), QStringLiteral("mlp"));
        QCOMPARE(o["device"].toString(), QStringLiteral("cpu"));
        QCOMPARE(o["steps"].toInt(), 3);
        QCOMPARE(o["batch"].toInt(), 100);
        QVERIFY(o["loss"].toDouble() > 0);
        QVERIFY(o["trainable_parameters"].toInteger() > 0);
        QVERIFY2(err.contains(QString("mlp: %1 steps/s").arg(o["steps_per_second"].toDouble(), 0, 'f', 1)), qPrintable(err));
        const QJsonObject profile = o["profile"].toObject();
        QCOMPARE(profile["steps"].toInt(), 1);
        QVERIFY(profile["total"].toObject()["float_ops"].toInteger() > 0);
        QVERIFY2(err.contains("MatMul"), qPrintable(err)); // the op table, as text, on stderr

        std::tie(o, err) = bench({"functions", "--nodes", "20", "--repeat", "3"});
        const QJsonArray chains = o["chains"].toArray();
        QCOMPARE(chains.size(), 4);
        QCOMPARE(chains[0].toObject()["chain"].toString(), QStringLiteral("inline"));
        QVERIFY(chains[0].toObject()["call_overhead_us"].isNull());
        for (qsizetype i = 1; i < chains.size(); ++i) {
            const QJsonObject c = chains[i].toObject();
            QCOMPARE(c["call_overhead_us"].toDouble(),
                     c["us_per_link"].toDouble() - chains[0].toObject()["us_per_link"].toDouble());
        }

        std::tie(o, err) = bench({"events", "--mb", "1"});
        QVERIFY(o["bytes_read"].toInteger() > 0);
        QCOMPARE(o["bytes_read"].toInteger(), o["written"].toObject()["bytes"].toInteger());
        QVERIFY(o["scalar_values"].toInteger() > 0);
        QCOMPARE(o["warnings"].toInt(), 0);
        QVERIFY(o["directory"].isNull());

        // A failure prints no JSON: the error on stderr, exit status 1.
        const ProcessRun failed = runTstudio({"bench", "matmul", "--shape", "1,2", "--json"});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY(failed.out.isEmpty());
        QVERIFY2(failed.err.contains("expected M,K,N"), qPrintable(failed.err));
    }

    /// tstudio profile --json: tfprof's op types and scope tree of traced training steps, consistent
    /// with each other, with the trace file written beside.
    void profile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString trace = dir.filePath("trace.json");
        ProcessRun r = runTstudio({"profile", "spirals", "--steps", "2", "--warmup", "1", "--out", trace,
                                   "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"devices", "events", "float_ops_incomplete_nodes", "op_types", "parameters",
                                         "scopes", "step", "steps", "steps_counted", "total", "trace_file"}));
        QCOMPARE(o["steps"].toInt(), 2);
        QCOMPARE(o["steps_counted"].toInt(), 2);
        QVERIFY(o["step"].isNull());
        QCOMPARE(o["trace_file"].toString(), trace);
        QVERIFY(QFileInfo(trace).size() > 0);
        QVERIFY(o["events"].toInt() > 0);
        // The op types add up to the total, largest first; MatMul is there with its float operations.
        const QJsonObject total = o["total"].toObject();
        qint64 time = 0, runs = 0, floatOps = 0, previous = std::numeric_limits<qint64>::max();
        bool matmul = false;
        for (const QJsonValue& v : o["op_types"].toArray()) {
            const QJsonObject t = v.toObject();
            time += t["time_ns"].toInteger();
            runs += t["runs"].toInteger();
            floatOps += t["float_ops"].toInteger();
            QVERIFY(t["time_ns"].toInteger() <= previous);
            previous = t["time_ns"].toInteger();
            if (t["op_type"].toString() == QStringLiteral("MatMul")) {
                matmul = true;
                QVERIFY(t["float_ops"].toInteger() > 0);
            }
        }
        QVERIFY(matmul);
        QVERIFY(total["time_ns"].toInteger() > 0);
        QCOMPARE(time, total["time_ns"].toInteger());
        QCOMPARE(runs, total["runs"].toInteger());
        QCOMPARE(floatOps, total["float_ops"].toInteger());
        // The scope tree's top level adds up to the same runs; a dense layer's scope holds its MatMul.
        qint64 scopeRuns = 0;
        bool dense = false;
        for (const QJsonValue& v : o["scopes"].toArray()) {
            const QJsonObject scope = v.toObject();
            scopeRuns += scope["total"].toObject()["runs"].toInteger();
            if (scope["name"].toString() == QStringLiteral("dense"))
                for (const QJsonValue& c : scope["children"].toArray())
                    dense = dense || c.toObject()["op_type"].toString() == QStringLiteral("MatMul");
        }
        QCOMPARE(scopeRuns, total["runs"].toInteger());
        QVERIFY2(dense, qPrintable(r.out.left(4000)));
        // Parameters: the counted variables' sum.
        const QJsonObject parameters = o["parameters"].toObject();
        qint64 counted = 0;
        for (const QJsonValue& v : parameters["variables"].toArray())
            if (v.toObject()["counted"].toBool())
                counted += v.toObject()["parameters"].toInteger();
        QVERIFY(counted > 0);
        QCOMPARE(parameters["total"].toInteger(), counted);

        // A step the trace does not have: an error, no JSON.
        r = runTstudio({"profile", "spirals", "--steps", "1", "--step", "5", "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("tstudio profile: "), qPrintable(r.err));
    }

    /// tstudio profile --output pprof:FILE and --profile-proto FILE; the ProfileProto read back as
    /// the trace it was written from.
    void profileWritesPprofAndProfileProto()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pprof = dir.filePath("scopes.pb.gz");
        const QString proto = dir.filePath("profile_3");
        ProcessRun r = runTstudio({"profile", "spirals", "--steps", "2", "--warmup", "1", "--output",
                                   "pprof:outfile=" + pprof, "--select", "micros,bytes", "--profile-proto", proto,
                                   "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject traced = jsonOf(r);
        QVERIFY2(r.err.contains("wrote " + pprof + " (pprof, bytes;"), qPrintable(r.err)); // select's first by name
        QFile gz(pprof);
        QVERIFY(gz.open(QIODevice::ReadOnly));
        QVERIFY(gz.read(2) == QByteArray("\x1f\x8b", 2));
        QVERIFY(QFileInfo(proto).size() > 0);

        r = runTstudio({"profile", proto, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject read = jsonOf(r);
        QCOMPARE(read["steps"].toInt(), 2);
        QCOMPARE(read["events"].toInt(), traced["events"].toInt());
        QCOMPARE(read["total"].toObject()["runs"].toInteger(), traced["total"].toObject()["runs"].toInteger());
        QCOMPARE(read["total"].toObject()["float_ops"].toInteger(),
                 traced["total"].toObject()["float_ops"].toInteger());

        // The OpLogProto written beside: read with the ProfileProto, its float_ops and parameters agree.
        const QString opLog = dir.filePath("tfprof_log");
        r = runTstudio({"profile", proto, "--write-op-log", opLog});
        QVERIFY2(r.exitCode == 0 && QFileInfo(opLog).size() > 0, qPrintable(r.err));
        r = runTstudio({"profile", proto, "--op-log", opLog, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(jsonOf(r)["total"].toObject()["float_ops"].toInteger(),
                 traced["total"].toObject()["float_ops"].toInteger());
        QVERIFY(jsonOf(r)["parameters"].toObject()["total"].toInteger() > 0);

        r = runTstudio({"profile", proto, "--output", "png:" + pprof});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--output 'png:" + pprof + "': expected pprof:FILE"), qPrintable(r.err));
    }

    /// tstudio diff --json: two checkpoints of one run (every variable changed, the step too), a graph
    /// with itself (identical) and with an edited copy (a node renamed, an attr changed), and a graph
    /// against a checkpoint (refused).
    void diffGraphsAndCheckpoints()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const ProcessRun trained =
            runTstudio({"train", "spirals", "--steps", "20", "--threads", "1", "--logdir", logdir});
        QVERIFY2(trained.exitCode == 0, qPrintable(trained.err + trained.out));
        ProcessRun r = runTstudio({"diff", logdir + "/model.ckpt-0", logdir + "/model.ckpt-20", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"added", "first", "identical", "kind", "removed", "second", "tensors"}));
        QCOMPARE(o["kind"].toString(), QString("checkpoint"));
        QCOMPARE(o["identical"].toBool(), false);
        bool kernel = false;
        for (const QJsonValue& v : o["tensors"].toArray()) {
            const QJsonObject t = v.toObject();
            QVERIFY(t["changed"].toBool());
            if (t["name"].toString() == "dense/kernel") {
                kernel = true;
                QCOMPARE(keysOf(t), (QStringList{"changed", "changed_elements", "dtype", "elements",
                                                 "max_abs_delta", "name", "relative_change", "shape"}));
                QCOMPARE(t["shape"].toString(), QString("[2,64]"));
                QVERIFY(t["max_abs_delta"].toDouble() > 0);
                QVERIFY(t["relative_change"].toDouble() > 0);
            }
        }
        QVERIFY(kernel);

        const QString graph = logdir + "/graph.pbtxt";
        r = runTstudio({"diff", graph, graph, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"added", "changed", "first", "identical", "kind", "nodes", "removed",
                                         "renamed", "second"}));
        QCOMPARE(o["identical"].toBool(), true);
        QFile in(graph);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(in.readAll());
        text.replace("\"dense_2/BiasAdd\"", "\"logits/BiasAdd\"");
        const QString edited = dir.filePath("edited.pbtxt");
        QFile out(edited);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        r = runTstudio({"diff", graph, edited, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(o["renamed"].toArray().size(), 1);
        QCOMPARE(o["renamed"].toArray()[0].toObject()["to"].toString(), QString("logits/BiasAdd"));
        QCOMPARE(o["changed"].toArray().size(), 0);

        r = runTstudio({"diff", graph, logdir + "/model.ckpt-20"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("compare two graphs or two checkpoints"), qPrintable(r.err));
    }

    void exportFreezeAndConvert()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const ProcessRun trained = runTstudio({"train", "spirals", "--steps", "20", "--threads", "1", "--logdir", logdir});
        QVERIFY2(trained.exitCode == 0, qPrintable(trained.err + trained.out));

        const QString savedModel = dir.filePath("export/saved_model");
        const QString frozen = dir.filePath("export/frozen.pb");
        ProcessRun r = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd", "--saved-model",
                                   savedModel, "--frozen", frozen, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"averaged", "checkpoint", "frozen_graph", "inputs", "learning_phase_fixed",
                                         "outputs", "project", "saved_model", "variables"}));
        QCOMPARE(o["checkpoint"].toString(), logdir + "/model.ckpt-20");
        QCOMPARE(o["outputs"].toArray()[0].toObject()["tensor"].toString(), QString("dense_2/BiasAdd:0"));
        QCOMPARE(o["inputs"].toArray()[0].toObject()["key"].toString(), QString("inputs"));
        const int exportedVariables = o["variables"].toInt();
        QVERIFY(exportedVariables > 0);
        QCOMPARE(o["saved_model"].toObject()["path"].toString(), savedModel);
        QCOMPARE(o["saved_model"].toObject()["tags"].toArray()[0].toString(), QString("serve"));
        QCOMPARE(o["frozen_graph"].toObject()["path"].toString(), frozen);
        QVERIFY(o["frozen_graph"].toObject()["nodes"].toInt() > 0);
        QVERIFY(QFile::exists(savedModel + "/saved_model.pb") && QFile::exists(frozen));
        // Only the frozen graph: the SavedModel is null.
        r = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd", "--frozen",
                        dir.filePath("export/frozen2.pb"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(jsonOf(r)["saved_model"].isNull());

        // freeze the exported SavedModel again from its own variables.
        const QString refrozen = dir.filePath("refrozen.pb");
        r = runTstudio({"freeze", savedModel, "--outputs", "dense_2/BiasAdd", "-o", refrozen, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"bytes", "checkpoint", "frozen_variables", "nodes", "nodes_before", "output"}));
        QCOMPARE(o["output"].toString(), refrozen);
        QCOMPARE(o["bytes"].toInteger(), QFileInfo(refrozen).size());
        QCOMPARE(o["frozen_variables"].toArray().size(), exportedVariables);
        QVERIFY(o["nodes"].toInt() <= o["nodes_before"].toInt());

        // convert-checkpoint: the run's V2 checkpoint rewritten.
        r = runTstudio({"convert-checkpoint", logdir + "/model.ckpt-20", dir.filePath("converted/model.ckpt"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"bytes", "destination", "partitioned", "source", "source_format", "tensors"}));
        QCOMPARE(o["destination"].toString(), dir.filePath("converted/model.ckpt"));
        QVERIFY(o["tensors"].toInt() > 0);
        QVERIFY(o["bytes"].toInteger() > 0);
        QCOMPARE(o["partitioned"].toInt(), 0);
        QVERIFY(QFile::exists(dir.filePath("converted/model.ckpt.index")));
    }
};

QTEST_GUILESS_MAIN(TestTstudioJsonReports)
#include "test_tstudio_json_reports.moc"
