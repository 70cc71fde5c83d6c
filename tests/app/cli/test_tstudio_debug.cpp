// End-to-end tests of the terminal debugger: `tstudio debug` driven by commands on standard input
// (a planted NaN found with run -f has_inf_or_nan, breakpoints, stepping, lt/pt/ni/li/lo, watch,
// .npy output, errors), and `tstudio run --break` opening the same prompt at a breakpoint.
#include "process_run.h"

#include "framework/allocator.h"
#include "io/npy.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = tstudio::testing::ProcessRun;

/// loss = Sum(2 * Log(x - 2)): fed x = [3, 1, 5], the Log of -1 (two ops upstream of the loss) is NaN.
const char* kPlantedNan =
    "node { name: \"x\" op: \"Placeholder\" attr { key: \"dtype\" value { type: DT_FLOAT } } }\n"
    "node { name: \"shift\" op: \"Const\" attr { key: \"dtype\" value { type: DT_FLOAT } }\n"
    "       attr { key: \"value\" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 2.0 } } } }\n"
    "node { name: \"prep/sub\" op: \"Sub\" input: \"x\" input: \"shift\" attr { key: \"T\" value { type: DT_FLOAT } } }\n"
    "node { name: \"prep/log\" op: \"Log\" input: \"prep/sub\" attr { key: \"T\" value { type: DT_FLOAT } } }\n"
    "node { name: \"scaled\" op: \"Mul\" input: \"prep/log\" input: \"shift\" attr { key: \"T\" value { type: DT_FLOAT } } }\n"
    "node { name: \"axis\" op: \"Const\" attr { key: \"dtype\" value { type: DT_INT32 } }\n"
    "       attr { key: \"value\" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 0 } } } }\n"
    "node { name: \"loss\" op: \"Sum\" input: \"scaled\" input: \"axis\" attr { key: \"T\" value { type: DT_FLOAT } }\n"
    "       attr { key: \"Tidx\" value { type: DT_INT32 } } attr { key: \"keep_dims\" value { b: false } } }\n";

Run debug(const QStringList& args, const QByteArray& commands)
{
    return tstudio::testing::runProcessWithInput(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, commands, 60000);
}

QString writeGraph(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("planted_nan.pbtxt"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(kPlantedNan);
    return path;
}

QStringList modelArgs(const QString& graph)
{
    return {QStringLiteral("debug"), graph, QStringLiteral("--feed"), QStringLiteral("x=[3.0, 1.0, 5.0]"),
            QStringLiteral("--fetch"), QStringLiteral("loss")};
}

} // namespace

class TestTstudioDebug : public QObject {
    Q_OBJECT
private slots:
    void plantedNanStopsAtTheOpThatMadeIt()
    {
        QTemporaryDir dir;
        const QString graph = writeGraph(dir);
        const Run r = debug(modelArgs(graph), "run -f has_inf_or_nan\nlt\nexit\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        // It stops after prep/log (not at the Mul or Sum the NaN flows into), shows the NaN and the
        // input that caused it.
        QVERIFY2(r.out.contains("stopped after node 'prep/log' (Log)"), qPrintable(r.out));
        QVERIFY(r.out.contains("has NaN"));
        QVERIFY(r.out.contains("[0.              nan 1.0986123]"));
        QVERIFY(r.out.contains("input 0 prep/sub: float32 [3]"));
        QVERIFY(r.out.contains("[ 1. -1.  3.]"));
        QVERIFY(r.out.contains("nan 0, -inf 0, negative 1, zero 0, positive 2"));
        // lt lists what ran up to there, and nothing after.
        QVERIFY(r.out.contains("3 of 3 executed nodes"));
        QVERIFY(!r.out.contains(QRegularExpression("Mul .*scaled")));
    }

    void breakpointsSteppingAndInspection()
    {
        QTemporaryDir dir;
        const QString graph = writeGraph(dir);
        const QString npy = dir.filePath(QStringLiteral("sub.npy"));
        const QByteArray commands = "break op:Log\n"
                                    "continue\n"
                                    "pt prep/sub:0[::-1] -r [[-inf,0]] -w " + npy.toUtf8() + "\n"
                                    "step\n"
                                    "ni scaled\n"
                                    "li loss -d 3\n"
                                    "lo prep/sub\n"
                                    "next\n"
                                    "watch scaled:0\n"
                                    "continue\n"
                                    "continue\n"
                                    "watch\n"
                                    "break\n"
                                    "disable 1\n"
                                    "pt nope:0\n"
                                    "pt prep/sub[5]\n"
                                    "frobnicate\n"
                                    "exit\n";
        const Run r = debug(modelArgs(graph), commands);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("paused before node 'prep/log' (Log)") && r.out.contains("breakpoint 1 'op:Log'"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("Tensor \"prep/sub:0[::-1]\""));
        QVERIFY(r.out.contains("[ 3. -1.  1.]"));
        QVERIFY(r.out.contains("1 of 3 elements in [-inf, 0]"));
        QVERIFY(r.out.contains("paused before node 'scaled' (Mul)"));
        QVERIFY(r.out.contains("Op: Mul"));
        QVERIFY(r.out.contains("|- (3) [Sub] prep/sub"));
        QVERIFY(r.out.contains("[Log] prep/log"));
        // next from 'scaled' (top level) steps to the next node.
        QVERIFY(r.out.contains("paused before node 'axis'") || r.out.contains("paused before node 'loss'"));
        // The second session run stops at the breakpoint again; scaled:0 (watched after it ran in run 0)
        // was kept from run 1.
        QVERIFY(r.out.contains("Session run 1 paused before node 'prep/log'"));
        QVERIFY(r.out.contains(QRegularExpression("scaled:0: 1 value\\n  run +1 +min")));
        QVERIFY(r.out.contains("1  on   op:Log"));
        QVERIFY(r.out.contains("error: node 'nope' has not run"));
        QVERIFY(r.out.contains("error: index 5 is out of bounds for axis 0 with size 3"));
        QVERIFY(r.out.contains("error: unknown command 'frobnicate'"));

        tstudio::CpuAllocator allocator;
        auto saved = tstudio::readNpy(npy.toStdString(), allocator);
        QVERIFY2(saved, saved ? "" : saved.error().toString().c_str());
        QCOMPARE(saved->numElements(), std::int64_t(3));
        QCOMPARE(saved->values<float>()[0], 3.0f);
        QCOMPARE(saved->values<float>()[1], -1.0f);
    }

    void runWithABreakpointOpensThePrompt()
    {
        QTemporaryDir dir;
        const QString graph = writeGraph(dir);
        const Run r = debug({"run", graph, "--feed", "x=[3.0, 1.0, 5.0]", "--fetch", "loss", "--break", "node:scaled"},
                            "pt prep/log\ncontinue\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains("paused before node 'scaled' (Mul)"));
        QVERIFY(r.out.contains("[0.              nan 1.0986123]"));
        QVERIFY(r.out.contains("{\"fetches\":{\"loss\":{\"dtype\":\"float32\",\"shape\":[],\"values\":[\"NaN\"]}}}"));

        // A bad breakpoint is refused before anything runs; exit at the prompt gives no result.
        Run bad = debug({"run", graph, "--feed", "x=[3.0]", "--fetch", "loss", "--break", "op:Log if max >"}, "");
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("--break 'op:Log if max >'"), qPrintable(bad.err));
        Run left = debug({"run", graph, "--feed", "x=[3.0]", "--fetch", "loss", "--break", "op:Log"}, "exit\n");
        QCOMPARE(left.exitCode, 1);
        QVERIFY(!left.out.contains("fetches"));
    }
};

QTEST_GUILESS_MAIN(TestTstudioDebug)
#include "test_tstudio_debug.moc"
