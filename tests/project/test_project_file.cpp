// Project files: loading, validation errors with file and JSON path, saving (byte-identical
// re-save) and --set overrides.
#include "io/atomic_file.h"
#include "project/format/project_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;

namespace {

std::filesystem::path projectsDir()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

std::string spiralsText()
{
    auto text = readWholeFile(projectsDir() / "spirals.tsproj", 1 << 20);
    return text ? *text : std::string();
}

/// The error of loading the shipped spirals project with `sets` ("key=value" each).
std::string spiralsError(const std::vector<std::string>& sets)
{
    std::vector<Override> overrides;
    for (const std::string& s : sets) {
        auto o = parseOverride(s);
        if (!o)
            return "bad override: " + o.error().message();
        overrides.push_back(*o);
    }
    auto p = loadProject(projectsDir() / "spirals.tsproj", overrides);
    return p ? std::string("(loaded)") : p.error().message();
}

// (No raw string here: moc's tokenizer reads the quote characters inside one as character literals.)
const char* kMinimal = "{\"format\": \"tensorstudio-project\", \"version\": 1, \"graph\": {\"pbtxt\": "
                       "\"node { name: \\\"x\\\" op: \\\"NoOp\\\" }\"}, \"training\": {\"train_op\": \"x\"}}";

} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private slots:
    void shippedProjectsResaveByteIdentical()
    {
        for (const char* name : {"spirals.tsproj", "book-mnist.tsproj", "lenet.tsproj"}) {
            auto text = readWholeFile(projectsDir() / name, 1 << 20);
            QVERIFY2(text.has_value(), name);
            auto p = loadProject(projectsDir() / name);
            QVERIFY2(p.has_value(), p ? name : p.error().toString().c_str());
            QCOMPARE(projectToJson(*p), *text);
        }
    }

    void spiralsProjectContent()
    {
        auto p = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(p.has_value());
        QCOMPARE(p->graph.file, std::string("spirals_forward.pbtxt"));
        QCOMPARE(p->resolve(p->graph.file), projectsDir() / "spirals_forward.pbtxt");
        QCOMPARE(p->sources.size(), std::size_t{1});
        QCOMPARE(p->sources[0].type(), std::string("two_spirals"));
        QCOMPARE(p->sources[0].feeds.at("inputs"), std::vector<std::string>{"points"});
        QVERIFY(p->training.optimizer.has_value());
        QCOMPARE(p->training.optimizer->type, std::string("Adam"));
        QCOMPARE(p->training.optimizer->learningRate.learningRate, 0.01);
        QCOMPARE(p->training.optimizer->numbers.at("beta2"), 0.999);
        QCOMPARE(p->steps, std::int64_t{3000});
        QCOMPARE(p->hooks.checkpointEverySecs, std::optional<std::int64_t>(600));
        QVERIFY(!p->hooks.stopAtStep.has_value());
        QCOMPARE(p->device, std::string("cpu"));
        QVERIFY(p->cudaGraphs); // captured unless a project says otherwise
        QCOMPARE(p->logdir, std::string("runs/spirals"));
    }

    void minimalProjectGetsDefaultsAndResavesStably()
    {
        auto p = parseProject(kMinimal, "min.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->batchSize, std::int64_t{100});
        QCOMPARE(p->steps, std::int64_t{1000});
        QCOMPARE(p->logdir, std::string("logs"));
        QCOMPARE(p->hooks.summaryEverySteps, std::optional<std::int64_t>(100));
        const std::string once = projectToJson(*p);
        auto again = parseProject(once, "min.tsproj");
        QVERIFY(again.has_value());
        QCOMPARE(projectToJson(*again), once);
        QVERIFY(once.find("\"pbtxt\": \"node { name: \\\"x\\\" op: \\\"NoOp\\\" }\"") != std::string::npos);
    }

    void schedulesAndOptimizersRoundTrip()
    {
        const std::vector<std::string> rates = {
            R"({"schedule": "exponential_decay", "learning_rate": 0.1, "decay_steps": 100, "decay_rate": 0.96, "staircase": true})",
            R"({"schedule": "piecewise_constant", "boundaries": [100, 200], "values": [0.1, 0.01, 0.001]})",
            R"({"schedule": "polynomial_decay", "learning_rate": 0.1, "decay_steps": 1000, "end_learning_rate": 0.001, "power": 2.0, "cycle": true})",
            R"({"schedule": "cosine_decay", "learning_rate": 0.1, "decay_steps": 1000, "alpha": 0.1})",
            R"({"schedule": "inverse_time_decay", "learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5, "staircase": false})"};
        for (const char* type : {"GradientDescent", "Momentum", "Adam", "LazyAdam", "RMSProp", "Adagrad", "Adadelta"}) {
            for (const std::string& rate : rates) {
                auto p = loadProject(projectsDir() / "spirals.tsproj",
                                     {{"training.optimizer",
                                       "{\"type\": \"" + std::string(type) + "\", \"learning_rate\": " + rate + "}"}});
                QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
                const std::string once = projectToJson(*p);
                auto again = parseProject(once, "again.tsproj");
                QVERIFY2(again.has_value(), again ? "" : again.error().toString().c_str());
                QCOMPARE(projectToJson(*again), once);
            }
        }
        auto p = loadProject(projectsDir() / "spirals.tsproj",
                             {{"training.optimizer", R"({"type": "Momentum", "use_nesterov": true})"}});
        QVERIFY(p.has_value());
        QCOMPARE(p->training.optimizer->numbers.at("momentum"), 0.9);
        QCOMPARE(p->training.optimizer->flags.at("use_nesterov"), true);
        QCOMPARE(p->training.optimizer->learningRate.learningRate, 0.01);
    }

    void saveIsAtomicAndReloads()
    {
        QTemporaryDir dir;
        auto p = loadProject(projectsDir() / "spirals.tsproj", {{"steps", "200"}, {"data.dir", "/data/x"}});
        QVERIFY(p.has_value());
        const std::filesystem::path out = std::filesystem::path(dir.path().toStdString()) / "copy.tsproj";
        const Status s = saveProject(*p, out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        auto back = loadProject(out);
        QVERIFY(back.has_value());
        QCOMPARE(back->steps, std::int64_t{200});
        QCOMPARE(back->dataDir, std::optional<std::string>("/data/x"));
        QCOMPARE(back->location, out);
        QCOMPARE(projectToJson(*back), projectToJson(*p));
        // Only the file itself is left (no temporary beside it).
        int files = 0;
        for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(out.parent_path()))
            ++files;
        QCOMPARE(files, 1);
        QVERIFY(!saveProject(*p, "/nonexistent-dir/x.tsproj").isOk());
    }

    void overridesParseJsonElseString()
    {
        auto p =
            loadProject(projectsDir() / "spirals.tsproj",
                        {{"steps", "200"},
                         {"data.dir", "/x/y"},
                         {"data.sources.0.seed", "7"},
                         {"training.optimizer.learning_rate", R"({"schedule": "cosine_decay", "decay_steps": 50})"},
                         {"settings.note", "hello world"},
                         {"settings.window", "[1, 2]"},
                         {"hooks.stop_at_step", "500"},
                         {"hooks.checkpoint_every_secs", "null"},
                         {"device", "gpu"},
                         {"cuda_graphs", "false"}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->steps, std::int64_t{200});
        QCOMPARE(p->dataDir, std::optional<std::string>("/x/y"));
        QCOMPARE(std::get<TwoSpiralsParams>(p->sources[0].params).seed, std::int64_t{7});
        QCOMPARE(p->training.optimizer->learningRate.schedule, std::string("cosine_decay"));
        QCOMPARE(p->training.optimizer->learningRate.decaySteps, std::int64_t{50});
        QCOMPARE(p->training.optimizer->learningRate.learningRate, 0.001); // Adam's default
        QCOMPARE(p->settings.at("note").get<std::string>(), std::string("hello world"));
        QCOMPARE(p->settings.at("window").size(), std::size_t{2});
        QCOMPARE(p->hooks.stopAtStep, std::optional<std::int64_t>(500));
        QVERIFY(!p->hooks.checkpointEverySecs.has_value());
        QCOMPARE(p->device, std::string("gpu"));
        QCOMPARE(p->cudaGraphs, false);
        // A string that looks like JSON but is meant as text stays JSON: "7" is a number.
        QCOMPARE(spiralsError({"name=7"}), std::string("spirals.tsproj: name: expected a string, got 7"));
    }

    void overrideErrors()
    {
        QCOMPARE(spiralsError({"foo.bar=1"}),
                 std::string("spirals.tsproj: --set foo.bar: 'foo' is not in the project"));
        QCOMPARE(spiralsError({"data.sources.3.seed=1"}),
                 std::string("spirals.tsproj: --set data.sources.3.seed: 'data.sources' has 1 entries; there is no "
                             "entry '3'"));
        QCOMPARE(spiralsError({"steps.x=1"}),
                 std::string("spirals.tsproj: --set steps.x: 'steps' is 3000, which has no key 'x'"));
        QCOMPARE(spiralsError({"a..b=1"}), std::string("spirals.tsproj: --set a..b: empty key in the path"));
        auto bad = parseOverride("steps");
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(), std::string("--set 'steps': expected KEY=VALUE"));
        QVERIFY(!parseOverride("=3").has_value());
        auto withEquals = parseOverride("settings.expr=a=b");
        QVERIFY(withEquals.has_value());
        QCOMPARE(withEquals->value, std::string("a=b"));
    }

    void validationErrorsNameFileAndPath_data()
    {
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QString>("message");
        QTest::newRow("optimizer type") << QStringList{"training.optimizer.type=Adamm"}
                                        << "spirals.tsproj: training.optimizer.type: expected one of GradientDescent, "
                                           "Momentum, Adam, LazyAdam, RMSProp, Adagrad, Adadelta, got 'Adamm'";
        QTest::newRow("unknown hook") << QStringList{"hooks.every=5"}
                                      << "spirals.tsproj: hooks.every: unknown key (expected one of "
                                         "checkpoint_every_steps, checkpoint_every_secs, summary_every_steps, "
                                         "log_every_steps, profile_every_steps, stop_at_step)";
        QTest::newRow("unknown optimizer key") << QStringList{"training.optimizer.beta3=1"}
                                               << "spirals.tsproj: training.optimizer.beta3: unknown key (expected one "
                                                  "of type, learning_rate, beta1, beta2, epsilon)";
        QTest::newRow("steps type") << QStringList{"steps=abc"}
                                    << "spirals.tsproj: steps: expected an integer, got 'abc'";
        QTest::newRow("steps positive") << QStringList{"steps=0"}
                                        << "spirals.tsproj: steps: expected a positive integer, got 0";
        QTest::newRow("batch float") << QStringList{"batch_size=1.5"}
                                     << "spirals.tsproj: batch_size: expected an integer, got 1.5";
        QTest::newRow("device") << QStringList{"device=tpu"}
                                << "spirals.tsproj: device: expected one of cpu, gpu, got 'tpu'";
        QTest::newRow("format") << QStringList{"format=other"}
                                << "spirals.tsproj: format: expected 'tensorstudio-project', got 'other'";
        QTest::newRow("version") << QStringList{"version=2"}
                                 << "spirals.tsproj: version: this TensorStudio reads versions 1 to 1, got 2";
        QTest::newRow("both train op and optimizer")
            << QStringList{"training.train_op=Adam"}
            << "spirals.tsproj: training: give either train_op or optimizer, not both";
        QTest::newRow("neither") << QStringList{"training.optimizer=null"}
                                 << "spirals.tsproj: training: needs train_op (an op of the graph) or optimizer (to "
                                    "build one)";
        QTest::newRow("loss required") << QStringList{"training.loss=null"}
                                       << "spirals.tsproj: training.loss: required with an optimizer (the tensor to "
                                          "minimize)";
        QTest::newRow("clip") << QStringList{"training.clip_by_global_norm=-1"}
                              << "spirals.tsproj: training.clip_by_global_norm: expected a positive number";
        QTest::newRow("schedule") << QStringList{"training.optimizer.learning_rate={\"schedule\": \"step\"}"}
                                  << "spirals.tsproj: training.optimizer.learning_rate.schedule: expected one of "
                                     "constant, exponential_decay, piecewise_constant, polynomial_decay, "
                                     "cosine_decay, inverse_time_decay, got 'step'";
        QTest::newRow("decay steps") << QStringList{"training.optimizer.learning_rate={\"schedule\": "
                                                    "\"exponential_decay\", \"decay_rate\": 0.5}"}
                                     << "spirals.tsproj: training.optimizer.learning_rate.decay_steps: required";
        QTest::newRow("piecewise") << QStringList{"training.optimizer.learning_rate={\"schedule\": "
                                                  "\"piecewise_constant\", \"boundaries\": [10], \"values\": [1]}"}
                                   << "spirals.tsproj: training.optimizer.learning_rate.values: expected 2 values (one "
                                      "more than the boundaries), got 1";
        QTest::newRow("graph both") << QStringList{"graph.pbtxt=node {}"}
                                    << "spirals.tsproj: graph: give exactly one of \"file\" (a graph file) and "
                                       "\"pbtxt\" (an inline GraphDef)";
        QTest::newRow("source type") << QStringList{"data.sources.0.type=spiral"}
                                     << "spirals.tsproj: data.sources[0].type: expected one of two_spirals, mnist, "
                                        "tfrecord, csv, numpy, image_folder, word_text, cifar10, skip_gram, got 'spiral'";
        QTest::newRow("source key") << QStringList{"data.sources.0.set=train"}
                                    << "spirals.tsproj: data.sources[0].set: unknown key (expected one of type, "
                                       "shuffle_buffer, shuffle_seed, feeds, points_per_class, turns, noise, seed, "
                                       "labels)";
        QTest::newRow("component") << QStringList{"data.sources.0.feeds.inputs=pts"}
                                   << "spirals.tsproj: data.sources[0].feeds.inputs: the two_spirals source has no "
                                      "component 'pts' (it has points, labels)";
        QTest::newRow("labels") << QStringList{"data.sources.0.labels=dense"}
                                << "spirals.tsproj: data.sources[0].labels: expected one of sparse, one_hot, got "
                                   "'dense'";
        QTest::newRow("mnist take") << QStringList{"data.sources.0={\"type\": \"mnist\", \"take\": 0, \"feeds\": "
                                                   "{\"x\": \"images\"}}"}
                                    << "spirals.tsproj: data.sources[0].take: expected -1 (all) or 1 or more, got 0";
        QTest::newRow("csv delim") << QStringList{"data.sources.0={\"type\": \"csv\", \"files\": [\"a.csv\"], "
                                                  "\"field_delim\": \";;\", \"columns\": [], \"feeds\": {}}"}
                                   << "spirals.tsproj: data.sources[0].field_delim: expected one character, got ';;'";
        QTest::newRow("tfrecord dtype")
            << QStringList{"data.sources.0={\"type\": \"tfrecord\", \"files\": [\"a.rec\"], \"features\": {\"x\": "
                           "{\"dtype\": \"int32\"}}, \"feeds\": {\"x\": \"x\"}}"}
            << "spirals.tsproj: data.sources[0].features.x.dtype: expected one of float32, int64, string, got 'int32'";
        QTest::newRow("logdir") << QStringList{"logdir="} << "spirals.tsproj: logdir: must not be empty";
    }

    void validationErrorsNameFileAndPath()
    {
        QFETCH(QStringList, sets);
        QFETCH(QString, message);
        std::vector<std::string> list;
        for (const QString& s : sets)
            list.push_back(s.toStdString());
        QCOMPARE(QString::fromStdString(spiralsError(list)), message);
    }

    void documentErrors()
    {
        auto notJson = parseProject("{\"format\": ", "x.tsproj");
        QVERIFY(!notJson.has_value());
        QVERIFY2(notJson.error().message().starts_with("x.tsproj: not valid JSON: "),
                 notJson.error().message().c_str());
        auto notObject = parseProject("[1]", "x.tsproj");
        QVERIFY(!notObject.has_value());
        QCOMPARE(notObject.error().message(), std::string("x.tsproj: expected a JSON object, got an array"));
        auto noGraph = parseProject(
            R"({"format": "tensorstudio-project", "version": 1, "training": {"train_op": "t"}})", "x.tsproj");
        QVERIFY(!noGraph.has_value());
        QCOMPARE(noGraph.error().message(), std::string("x.tsproj: graph: required"));
        auto topKey = parseProject(R"({"format": "tensorstudio-project", "version": 1, "grpah": {}})", "x.tsproj");
        QVERIFY(!topKey.has_value());
        QVERIFY2(topKey.error().message().starts_with("x.tsproj: grpah: unknown key (expected one of format, version,"),
                 topKey.error().message().c_str());
        auto missing = loadProject("/nonexistent/p.tsproj");
        QVERIFY(!missing.has_value());
        QVERIFY(missing.error().message().find("/nonexistent/p.tsproj") != std::string::npos);
        QVERIFY(!spiralsText().empty());
    }
};

QTEST_GUILESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
