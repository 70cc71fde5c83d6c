// A training run describes itself to TensorBoard's HParams (project/run/run_hparams.h): the
// project's settings as hparams, its scalar summaries as metrics, success or failure at the end;
// two spirals runs that differ in their optimizer read back as two sessions of one experiment
// (io/events/hparams.h) with their values and metrics.
#include "io/events/hparams.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "project/run/run_hparams.h"
#include "proto/graph.pb.h"
#include "registries/default_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/text_format.h>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;

namespace {

Project spirals(std::int64_t steps, const std::vector<Override>& overrides = {})
{
    auto p =
        loadProject(std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj", overrides);
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    p->steps = steps;
    return *p;
}

} // namespace

class TestRunHParams : public QObject {
    Q_OBJECT
private slots:
    void settingsAndTags()
    {
        const auto values = runHParams(spirals(7));
        QCOMPARE(values.at("training.optimizer.type").get<std::string>(), std::string("Adam"));
        QCOMPARE(values.at("training.optimizer.learning_rate").get<double>(), 0.01);
        QCOMPARE(values.at("batch_size").get<std::int64_t>(), std::int64_t(100));
        QCOMPARE(values.at("steps").get<std::int64_t>(), std::int64_t(7));
        QVERIFY(values.count("data.sources.0.noise"));
        QVERIFY(!values.count("name"));
        QVERIFY(!values.count("logdir"));

        tensorflow::GraphDef g;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(R"(
            node { name: "tag" op: "Const" attr { key: "value" value { tensor { dtype: DT_STRING string_val: "loss" } } } }
            node { name: "s" op: "ScalarSummary" input: "tag" input: "x" }
            node { name: "h" op: "HistogramSummary" input: "tag" input: "x" }
            node { name: "t" op: "ScalarSummary" input: "fed" input: "x" }
        )",
                                                              &g));
        QCOMPARE(scalarSummaryTags(g), std::vector<std::string>({"loss"}));
    }

    void runsReadBackAsSessions()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        QTemporaryDir dir;
        for (const char* name : {"adam", "sgd"}) {
            std::vector<Override> overrides;
            if (std::string(name) == "sgd")
                overrides.push_back({"training.optimizer", R"({"type": "GradientDescent", "learning_rate": 0.1})"});
            Project project = spirals(4, overrides);
            project.hooks.summaryEverySteps = 1;
            TrainRunOptions options;
            options.logdir = dir.filePath(name).toStdString();
            auto result = trainProject(project, **registries, options);
            QVERIFY2(result, result ? "" : result.error().toString().c_str());
        }
        auto experiment = events::readHParams(dir.path().toStdString());
        QVERIFY2(experiment, experiment ? "" : experiment.error().toString().c_str());
        QCOMPARE(experiment->sessions.size(), std::size_t(2));
        QCOMPARE(experiment->name, std::string(spirals(1).name));
        std::vector<std::string> tags;
        for (const auto& m : experiment->metrics)
            tags.push_back(m.tag);
        QVERIFY(std::find(tags.begin(), tags.end(), "loss") != tags.end());
        const auto& adam = experiment->sessions[0];
        const auto& sgd = experiment->sessions[1];
        QCOMPARE(adam.run, std::string("adam"));
        QCOMPARE(adam.status, std::string("success"));
        QCOMPARE(std::get<std::string>(adam.hparams.at("training.optimizer.type")), std::string("Adam"));
        QCOMPARE(std::get<std::string>(sgd.hparams.at("training.optimizer.type")), std::string("GradientDescent"));
        QCOMPARE(std::get<double>(sgd.hparams.at("training.optimizer.learning_rate")), 0.1);
        QVERIFY(!sgd.hparams.count("training.optimizer.beta1"));
        QCOMPARE(adam.metrics.size(), experiment->metrics.size());
        QCOMPARE(adam.metrics.begin()->second.step, std::int64_t(4)); // the last summary's step
    }
};

QTEST_GUILESS_MAIN(TestRunHParams)
#include "test_run_hparams.moc"
