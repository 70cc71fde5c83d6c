// tfprof's OpLogProto (profiler/tfprof_op_log.h): the entries written for a trace the test makes
// (float_ops of one execution, "_trainable_variables" for the parameters), the file read back,
// and a log applied to the tables as tfprof's op_log_path: float_ops replaced (times the runs,
// once for a node that did not run), extra types in the op view, in account_type_regexes, in the
// op_types column and in pprof's samples, and the log's trainable variables as the parameters;
// the errors.
#include "profiler/pprof_profile.h"
#include "profiler/profile_tables.h"
#include "profiler/tfprof_op_log.h"
#include "profiler/tfprof_view.h"
#include "proto/pprof_profile.pb.h"
#include "tfprof_test_trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tstudio;
using namespace tstudio::profiler;
using namespace tstudio::testing;

namespace {

const ProfileRow* rowNamed(const ProfileTable& table, const std::string& name)
{
    for (const ProfileRow& row : table.rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

} // namespace

class TestTfprofOpLog : public QObject {
    Q_OBJECT
private slots:
    void entriesForFloatOpsAndParameters()
    {
        const ProfileTrace trace = traceFromStepStats(steps());
        const tensorflow::GraphDef g = graph();
        const auto proto = opLogFromTrace(trace, &g);
        std::vector<std::string> names;
        for (const auto& entry : proto.log_entries())
            names.push_back(entry.name());
        QCOMPARE(names, std::vector<std::string>({"g", "layer/MatMul", "w"})); // sorted; x has nothing to log
        QCOMPARE(proto.log_entries(0).float_ops(), std::int64_t(8));           // Neg: one per element of [2,4]
        QCOMPARE(proto.log_entries(1).float_ops(), std::int64_t(2 * 2 * 3 * 4));
        QCOMPARE(proto.log_entries(1).types_size(), 0);
        QCOMPARE(proto.log_entries(2).float_ops(), std::int64_t(0));
        QCOMPARE(proto.log_entries(2).types_size(), 1);
        QCOMPARE(proto.log_entries(2).types(0), std::string(kTrainableVariablesType));
        // With the trainable_variables collection given, only its variables are typed.
        const auto none = opLogFromTrace(trace, &g, std::vector<std::string>{});
        for (const auto& entry : none.log_entries())
            QCOMPARE(entry.types_size(), 0);

        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/tfprof_log";
        QVERIFY(writeOpLog(trace, &g, path).isOk());
        auto log = readOpLog(path);
        QVERIFY2(log, log ? "" : log.error().toString().c_str());
        QCOMPARE(log->floatOps.at("layer/MatMul"), std::int64_t(48));
        QCOMPARE(log->types.at("w"), std::vector<std::string>({kTrainableVariablesType}));
        QCOMPARE(*trainableVariablesOf(*log), std::vector<std::string>({"w"}));
        QVERIFY(!trainableVariablesOf(OpLog{}));
    }

    void aLogCompletesTheTables()
    {
        const ProfileTrace trace = traceFromStepStats(steps());
        const tensorflow::GraphDef g = graph();
        OpLog log;
        log.floatOps["g"] = 1000;   // replaces Neg's 8
        log.floatOps["never"] = 77; // a node that did not run: counted once
        log.types["layer/MatMul"] = {"_custom"};
        log.types["x"] = {kTrainableVariablesType};
        ProfileTableOptions options;
        options.graph = &g;
        options.opLog = &log;

        auto nodes = buildProfileTable(trace, ProfileView::ByNode, options);
        QVERIFY(nodes);
        QCOMPARE(rowNamed(*nodes, "g")->self.floatOps, std::int64_t(1000));
        QCOMPARE(rowNamed(*nodes, "never")->self.floatOps, std::int64_t(77));
        QCOMPARE(rowNamed(*nodes, "layer/MatMul")->self.floatOps, std::int64_t(48));
        QCOMPARE(rowNamed(*nodes, "layer/MatMul")->extraTypes, std::vector<std::string>({"_custom"}));
        // The log's trainable variables are the parameters: x, not w.
        QCOMPARE(rowNamed(*nodes, "w")->self.parameters, std::int64_t(0));
        QCOMPARE(nodes->parameterRule, std::string("trainable_variables"));

        // The op view lists a node under each of its types.
        auto ops = buildProfileTable(trace, ProfileView::ByOpType, options);
        QVERIFY(ops);
        const ProfileRow* custom = rowNamed(*ops, "_custom");
        QVERIFY(custom);
        QCOMPARE(custom->self.floatOps, rowNamed(*ops, "MatMul")->self.floatOps);
        QCOMPARE(custom->self.execNs, rowNamed(*ops, "MatMul")->self.execNs);

        // account_type_regexes select by the extra type; op_types shows it.
        auto scopes = buildProfileTable(trace, ProfileView::ByScope, options);
        QVERIFY(scopes);
        TfprofOptions view;
        view.accountTypeRegexes = {"_custom"};
        view.select = {"float_ops", "op_types"};
        auto text = formatTfprofScopeView(*scopes, view);
        QVERIFY2(text, text ? "" : text.error().toString().c_str());
        QVERIFY2(text->find("layer/MatMul (48/48 flops, MatMul|_custom)") != std::string::npos, text->c_str());
        QVERIFY2(text->find("\n  g ") == std::string::npos, text->c_str());

        PprofOptions pprof;
        pprof.accountTypeRegexes = {"_custom"};
        auto bytes = pprofProfile(*scopes, pprof);
        QVERIFY(bytes);
        perftools::profiles::Profile p;
        QVERIFY(p.ParseFromString(*bytes));
        QCOMPARE(p.sample_size(), 1);
    }

    void errors()
    {
        tensorflow::tfprof::OpLogProto proto;
        proto.add_log_entries()->set_float_ops(3);
        auto unnamed = opLogFromProto(proto, "op log 'f'");
        QVERIFY(!unnamed);
        QCOMPARE(unnamed.error().message(), std::string("op log 'f': OpLogProto entry 0 has no name"));
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/garbage";
        std::ofstream(path, std::ios::binary) << std::string("\xff\xff\xff", 3);
        auto garbage = readOpLog(path);
        QVERIFY(!garbage);
        QCOMPARE(garbage.error().code(), StatusCode::kInvalidArgument);
        QVERIFY(garbage.error().message().find("is not a binary OpLogProto") != std::string::npos);
        auto missing = readOpLog(tmp.path().toStdString() + "/none");
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
    }
};

QTEST_GUILESS_MAIN(TestTfprofOpLog)
#include "test_tfprof_op_log.moc"
