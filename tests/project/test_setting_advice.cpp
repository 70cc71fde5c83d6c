// Settings problems named by field (setting_advice.h): the project layer's messages about data
// folders and log directories name the field and no command-line flag, and the command line's
// remedy (--set KEY=DIR, --resume) is added only by withCliAdvice.
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "project/format/setting_advice.h"
#include "project/run/training_setup.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

std::filesystem::path examples()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

/// prepareTraining's error for an example project with overrides ("" when it prepares).
std::string prepareError(const std::string& file, const std::vector<Override>& sets)
{
    auto p = loadProject(examples() / file, sets);
    if (!p)
        return "(load) " + p.error().message();
    auto prepared = prepareTraining(*p, testing::sharedRegistries().ops);
    return prepared ? std::string() : prepared.error().message();
}

} // namespace

class TestSettingAdvice : public QObject {
    Q_OBJECT
private slots:
    void fieldsAreFoundInMessages()
    {
        QCOMPARE(settingProblem("data.dir", "not set"), std::string("data.dir: not set"));
        QCOMPARE(problemField("a.tsproj: data.sources[0] (mnist): data.dir: not set").value_or("-"),
                 std::string("data.dir"));
        QCOMPARE(problemField("a.tsproj: data.sources[2] (image_folder): data.sources[2].dir: no folder 'x'").value_or("-"),
                 std::string("data.sources[2].dir"));
        QCOMPARE(problemField("eval.sources[1].dir: no folder 'x'").value_or("-"), std::string("eval.sources[1].dir"));
        QCOMPARE(problemField("logdir: '/r' already holds checkpoints (latest model.ckpt-5)").value_or("-"),
                 std::string("logdir"));
        // Other messages, and a field named in passing rather than as the problem's subject.
        QVERIFY(!problemField("a.tsproj: training.loss: 'x:0' is not in the graph"));
        QVERIFY(!problemField("the data.dir option is documented"));
        QVERIFY(!problemField("a.tsproj: data.directory: unknown key"));
    }

    void commandLineRemedies()
    {
        QCOMPARE(overrideKey("data.sources[12].dir"), std::string("data.sources.12.dir"));
        QCOMPARE(withCliAdvice(std::string("x: data.dir: not set")), std::string("x: data.dir: not set; pass --set data.dir=DIR"));
        QCOMPARE(withCliAdvice(std::string("x: data.sources[1].dir: no folder 'y'")),
                 std::string("x: data.sources[1].dir: no folder 'y'; pass --set data.sources.1.dir=DIR"));
        QCOMPARE(withCliAdvice(std::string("logdir: '/r' already holds checkpoints (latest model.ckpt-5)")),
                 std::string("logdir: '/r' already holds checkpoints (latest model.ckpt-5); pass --resume to continue "
                             "that run or choose another log directory"));
        QCOMPARE(withCliAdvice(std::string("logdir: '/r' is not writable")),
                 std::string("logdir: '/r' is not writable; choose another log directory (--logdir DIR)"));
        QCOMPARE(withCliAdvice(std::string("training.loss: 'x:0' is not in the graph")),
                 std::string("training.loss: 'x:0' is not in the graph"));
        const Status s = withCliAdvice(notFoundError("data.dir: not set"));
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY(withCliAdvice(Status::ok()).isOk());
    }

    /// The project layer's own messages: the field named, no flag in them.
    void dataFolderMessagesNameTheField()
    {
        const std::string noDir = prepareError("lenet.tsproj", {});
        QCOMPARE(noDir, std::string("lenet.tsproj: data.sources[0] (mnist): data.dir: not set; it must name a folder "
                                    "holding t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz]"));
        QVERIFY(noDir.find("--") == std::string::npos);
        QCOMPARE(withCliAdvice(noDir), noDir + "; pass --set data.dir=DIR");

        // A source's own folder is its field, not data.dir.
        const std::string own = prepareError("lenet.tsproj", {{"data.sources.0.dir", "\"/nonexistent/mnist\""}});
        QCOMPARE(problemField(own).value_or("-"), std::string("data.sources[0].dir"));
        QVERIFY2(own.find("'/nonexistent/mnist' is not a directory") != std::string::npos, own.c_str());

        // PTB: its text files are read from data.dir.
        QTemporaryDir empty;
        const std::string ptb = prepareError("ptb-small.tsproj", {{"data.dir", json(empty.path().toStdString()).dump()}});
        QCOMPARE(problemField(ptb).value_or("-"), std::string("data.dir"));
        QVERIFY2(ptb.find("simple-examples.tgz") != std::string::npos, ptb.c_str());
        QVERIFY2(ptb.find("--set") == std::string::npos, ptb.c_str());
    }

    void imageFolderNamesItsDir()
    {
        QTemporaryDir dir;
        json doc = {{"format", "tensorstudio-project"},
                    {"version", 1},
                    {"graph", {{"pbtxt", "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }"}}},
                    {"data",
                     {{"sources",
                       {{{"type", "image_folder"}, {"dir", "photos"}, {"height", 2}, {"width", 2}, {"feeds", {{"x", "images"}}}}}}}},
                    {"training", {{"loss", "x:0"}, {"train_op", "x"}}}};
        auto p = parseProject(doc.dump(), "i.tsproj");
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        p->location = std::filesystem::path(dir.path().toStdString()) / "i.tsproj";
        auto prepared = prepareTraining(*p, testing::sharedRegistries().ops);
        QVERIFY(!prepared);
        const std::string m = prepared.error().message();
        QCOMPARE(problemField(m).value_or("-"), std::string("data.sources[0].dir"));
        QVERIFY2(withCliAdvice(m).ends_with("; pass --set data.sources.0.dir=DIR"), m.c_str());
    }

    void logDirectoryWithCheckpoints()
    {
        QTemporaryDir dir;
        auto p = loadProject(examples() / "spirals.tsproj");
        QVERIFY(p);
        TrainRunOptions options;
        options.steps = 2;
        options.logdir = std::filesystem::path(dir.path().toStdString()) / "run";
        QVERIFY(trainProject(*p, testing::sharedRegistries(), options));
        auto again = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY(!again);
        const std::string m = again.error().message();
        QCOMPARE(problemField(m).value_or("-"), std::string("logdir"));
        QVERIFY2(m.find("--resume") == std::string::npos, m.c_str());
        QVERIFY2(withCliAdvice(m).ends_with("already holds checkpoints (latest model.ckpt-2); pass --resume to continue "
                                            "that run or choose another log directory"),
                 m.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSettingAdvice)
#include "test_setting_advice.moc"
