// Save -> open -> save of project files (issue #51): every example project and every optional
// section, present and absent, comes back as it was saved and is saved again byte for byte.
#include "project/run/eval_metrics.h"
#include "io/atomic_file.h"
#include "project/format/project_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <functional>

using namespace tstudio;
using namespace tstudio::project;

namespace {

std::filesystem::path projectsDir()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

/// Every .tsproj of examples/projects, sorted (the folder is globbed: a new example is tested too).
std::vector<std::filesystem::path> exampleProjects()
{
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(projectsDir()))
        if (entry.path().extension() == ".tsproj")
            out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// Saves `saved` to `path`, opens it, saves what opened to a second file and opens that: the two
/// files must be byte-identical and each opened project equal to `saved`. Empty when all holds,
/// else what went wrong.
std::string roundTrip(const Project& saved, const std::filesystem::path& path)
{
    const std::filesystem::path again = path.parent_path() / ("again-" + path.filename().string());
    if (Status s = saveProject(saved, path); !s.isOk())
        return "first save: " + s.toString();
    auto opened = loadProject(path);
    if (!opened)
        return "reopening: " + opened.error().toString();
    if (Status s = saveProject(*opened, again); !s.isOk())
        return "second save: " + s.toString();
    auto first = readWholeFile(path, 64 << 20);
    auto second = readWholeFile(again, 64 << 20);
    if (!first || !second)
        return "the saved files cannot be read back";
    if (*first != *second)
        return "the second save differs from the first:\n" + *first + "\n---\n" + *second;
    auto reopened = loadProject(again);
    if (!reopened)
        return "reopening the second save: " + reopened.error().toString();
    for (Project* p : {&*opened, &*reopened}) {
        if (p->location.filename() != path.filename() && p->location.filename() != again.filename())
            return "location not set";
        p->location = saved.location;
        if (!(*p == saved))
            return "the reopened project differs from the saved one:\n" + projectToJson(saved) + "\n---\n" +
                   projectToJson(*p);
    }
    return {};
}

/// Every breakpoint kind parseBreakpoint reads: each target, each condition kind, every statistic and
/// comparison, the loop iteration; enabled and disabled.
std::vector<debugger::Breakpoint> everyBreakpointKind()
{
    std::vector<std::string> texts = {"node:layer1/MatMul",         "op:Log",
                                      "regex:^dense(_[0-9]+)?/",    "any if has_inf_or_nan",
                                      "op:Softmax if has_nan",      "node:loss if has_inf",
                                      "node:while/add if iteration == 3", "any if iteration >= 0"};
    for (const char* stat : {"min", "max", "mean", "std", "abs_max"})
        for (const char* compare : {"<", "<=", ">", ">=", "==", "!="})
            texts.push_back(std::string("op:MatMul if ") + stat + " " + compare + " -0.125");
    texts.push_back("node:logits if max > 1e+300");
    std::vector<debugger::Breakpoint> out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto b = debugger::parseBreakpoint(texts[i]);
        if (!b)
            qFatal("%s", b.error().toString().c_str());
        b->enabled = i % 3 != 1;
        out.push_back(*b);
    }
    return out;
}

/// One metric of `kind` with every key it reads set (logits in place of predictions where both
/// are read, on every other such kind).
EvalMetricSpec metricOf(const std::string& kind, bool preferLogits)
{
    EvalMetricSpec m;
    m.kind = kind;
    m.name = kind + "_m";
    const auto keys = evalMetricKeys(kind);
    const auto takes = [&](const char* key) { return std::find(keys.begin(), keys.end(), key) != keys.end(); };
    if (takes("labels"))
        m.labels = "labels:0";
    if (takes("logits") && (preferLogits || !takes("predictions")))
        m.logits = "logits:0";
    else if (takes("predictions"))
        m.predictions = "predictions:0";
    if (takes("weights"))
        m.weights = "weights:0";
    if (takes("tensor"))
        m.tensor = "per_example_loss:0";
    if (takes("normalizer"))
        m.normalizer = "norm:0";
    if (takes("k"))
        m.k = 3;
    if (takes("num_classes"))
        m.numClasses = 4;
    if (takes("num_thresholds"))
        m.numThresholds = 50;
    if (takes("dim"))
        m.dim = 1;
    if (takes("threshold"))
        m.threshold = 0.25;
    if (takes("at"))
        m.at = 0.9;
    if (takes("curve"))
        m.curve = "PR";
    return m;
}

DataSource spiralsSource()
{
    DataSource s;
    TwoSpiralsParams p;
    p.pointsPerClass = 200;
    p.turns = 2.25;
    p.noise = 0.1;
    p.seed = 7;
    p.labels = "one_hot";
    s.params = p;
    s.shuffleBuffer = 64;
    s.shuffleSeed = 3;
    s.feeds = {{"eval_points", {"points"}}, {"eval_labels", {"labels"}}};
    return s;
}

/// The optional sections a combination turns on, one bit each.
enum Section : unsigned {
    kDebugger = 1u << 0,
    kExport = 1u << 1,
    kSummaries = 1u << 2,
    kEval = 1u << 3,
    kDistributed = 1u << 4,
    kTrainingExtras = 1u << 5, ///< replicas, clip_by_global_norm, var_list, warm_start, gpu, no CUDA graphs
    kHooks = 1u << 6,          ///< every hook set (else every hook off)
    kEditorSettings = 1u << 7, ///< free-form settings with an editor state and a data.dir
    kSectionCount = 8,
};

/// `base` (an example project) with exactly the sections of `mask` set, the others absent.
Project withSections(const Project& base, unsigned mask)
{
    Project p = base;
    p.debugger = {};
    p.exportSettings.reset();
    p.summaries.clear();
    p.eval.reset();
    p.distributed = {};
    if (mask & kDebugger) {
        p.debugger.breakpoints = everyBreakpointKind();
        p.debugger.watch = {"layer1/MatMul:0", "loss:0"};
    }
    if (mask & kExport) {
        ExportSettings e;
        e.savedModel = "export/saved_model";
        e.frozenGraph = "export/frozen.pb";
        e.inputs = {"x"};
        e.outputs = {"probabilities:0", "classes"};
        e.movingAverage = true;
        p.exportSettings = e;
    }
    if (mask & kSummaries) {
        for (const char* kind : {"scalar", "histogram", "image", "audio", "text"}) {
            SummarySpec s;
            s.kind = kind;
            s.tensor = std::string(kind) + "_tensor:0";
            s.tag = std::string("tag_") + kind;
            if (s.kind != "text")
                s.family = "family";
            if (s.kind == "image" || s.kind == "audio") {
                s.maxOutputs = 5;
                s.shape = {28, 28, 1};
            }
            if (s.kind == "audio") {
                s.sampleRate = 16000;
                s.shape.clear();
            }
            p.summaries.push_back(s);
        }
        // A summary of what a data source feeds, where a source feeds a component alone.
        for (std::size_t i = 0; i < p.sources.size(); ++i)
            for (const auto& [placeholder, components] : p.sources[i].feeds)
                if (components.size() == 1 && p.summaries.size() == 5) {
                    SummarySpec s;
                    s.kind = "histogram";
                    s.source = static_cast<std::int64_t>(i);
                    s.component = components.front();
                    p.summaries.push_back(s);
                }
    }
    if (mask & kEval) {
        EvalSettings e;
        EvalSource own;
        own.source = spiralsSource();
        e.sources.push_back(own);
        for (std::size_t i = 0; i < p.sources.size(); ++i)
            if (auto split = splitOf(p.sources[i], 100, 50)) {
                EvalSource held;
                held.from = static_cast<std::int64_t>(i);
                held.skip = 100;
                held.take = 50;
                held.source = *split;
                e.sources.push_back(held);
            }
        e.everySteps = 500;
        e.everySecs = 120;
        e.afterCheckpoint = true;
        e.steps = 20;
        e.batchSize = 50;
        bool logits = false;
        for (const std::string& kind : evalMetricKinds()) {
            e.metrics.push_back(metricOf(kind, logits));
            logits = !logits;
        }
        e.best = BestCheckpointSpec{"accuracy_m", ""};
        e.earlyStopping = EarlyStoppingSpec{"mean_m", "min", 7, 0.001};
        p.eval = e;
    }
    if (mask & kDistributed)
        p.distributed.scaleLearningRate = true;
    if (mask & kTrainingExtras) {
        p.batchSize = 120;
        p.replicas = 4;
        p.device = "gpu";
        p.cudaGraphs = false;
        if (p.training.optimizer) {
            p.training.clipByGlobalNorm = 5.0;
            p.training.varList = "^(dense|logits)/";
        }
        WarmStart w;
        w.ckptToInitializeFrom = "../pretrained/model.ckpt-1000";
        w.varsToWarmStart = "^dense/";
        w.varNameToPrevVarName = {{"dense/kernel", "old/dense/kernel"}, {"dense/bias", "old/dense/bias"}};
        p.training.warmStart = w;
        p.training.globalStep = "global_step:0";
        p.training.initOp = "init";
    }
    if (mask & kHooks) {
        p.hooks.checkpointEverySteps = 250;
        p.hooks.checkpointEverySecs = 60;
        p.hooks.summaryEverySteps = 10;
        p.hooks.logEverySteps = 5;
        p.hooks.profileEverySteps = 1000;
        p.hooks.stopAtStep = 20000;
    } else {
        p.hooks.checkpointEverySteps.reset();
        p.hooks.checkpointEverySecs.reset();
        p.hooks.summaryEverySteps.reset();
        p.hooks.logEverySteps.reset();
        p.hooks.profileEverySteps.reset();
        p.hooks.stopAtStep.reset();
    }
    if (mask & kEditorSettings) {
        p.dataDir = "data/mnist";
        p.settings = nlohmann::json::parse(
            "{\"editor\": {\"version\": 1, \"document\": \"node { name: \\\"x\\\" op: \\\"Placeholder\\\" }\", "
            "\"positions\": {\"x\": [20, -40.5], \"y/z\": [1e-3, 123456.789]}, \"collapsed\": [\"y\"], "
            "\"auto_layout\": true}, \"notes\": \"a note\", \"zeta\": [1, 2.5, null, true]}");
    } else {
        p.dataDir.reset();
        p.settings = nlohmann::json::object();
    }
    return p;
}

/// One of each data source kind with its options, feeding placeholders of its own.
std::vector<DataSource> everySourceKind()
{
    std::vector<DataSource> out;
    out.push_back(spiralsSource());
    DataSource mnist;
    MnistParams m;
    m.dir = "mnist";
    m.set = "t10k";
    m.skip = 10;
    m.take = 1000;
    m.labels = "one_hot";
    m.scale = false;
    mnist.params = m;
    mnist.feeds = {{"images", {"images"}}, {"labels", {"labels"}}};
    out.push_back(mnist);
    DataSource records;
    TfRecordParams t;
    t.files = {"a.tfrecord", "b.tfrecord"};
    t.compression = "gzip";
    FeatureSpec fixed;
    fixed.shape = {3};
    fixed.defaultValue = nlohmann::json::array({0.5, 1, 2});
    FeatureSpec required;
    required.dtype = tensorflow::DT_INT64;
    FeatureSpec sparse;
    sparse.varlen = true;
    FeatureSpec padded;
    padded.dtype = tensorflow::DT_STRING;
    padded.varlen = true;
    padded.pad = true;
    padded.defaultValue = "<pad>";
    FeatureSpec image;
    image.dtype = tensorflow::DT_STRING;
    image.image = ImageDecodeSpec{1, 28, 28, "encoded", "bilinear"};
    FeatureSpec raw;
    raw.dtype = tensorflow::DT_STRING;
    raw.image = ImageDecodeSpec{3, 8, 8, "raw", "bilinear"};
    t.features = {{"x", fixed}, {"y", required}, {"ids", sparse}, {"words", padded}, {"img", image}, {"raw", raw}};
    records.params = t;
    records.feeds = {{"x", {"x"}}, {"ids", {"ids.indices", "ids.values", "ids.dense_shape"}}, {"img", {"img"}}};
    out.push_back(records);
    DataSource csv;
    CsvParams c;
    c.files = {"train.csv"};
    c.header = true;
    c.fieldDelim = ";";
    c.columns = {{"a", tensorflow::DT_FLOAT, nlohmann::json(0.0)},
                 {"b", tensorflow::DT_INT64, nlohmann::json()},
                 {"c", tensorflow::DT_STRING, nlohmann::json("none")},
                 {"d", tensorflow::DT_DOUBLE, nlohmann::json(-1.5)}};
    csv.params = c;
    csv.feeds = {{"features", {"a", "d"}}, {"label", {"b"}}};
    out.push_back(csv);
    DataSource npy;
    NumpyParams n;
    n.files = {"x.npy", "y.npy"};
    n.skip = 5;
    npy.params = n;
    npy.feeds = {{"nx", {"x"}}, {"ny", {"y"}}};
    out.push_back(npy);
    DataSource npz;
    NumpyParams z;
    z.files = {"data.npz"};
    z.keys = {"inputs", "targets"};
    z.take = 100;
    npz.params = z;
    npz.feeds = {{"zx", {"inputs"}}, {"zy", {"targets"}}};
    out.push_back(npz);
    DataSource folder;
    ImageFolderParams f;
    f.dir = "flowers";
    f.height = 64;
    f.width = 48;
    f.channels = 1;
    f.labels = "one_hot";
    f.classes = 5;
    folder.params = f;
    folder.feeds = {{"fimages", {"images"}}, {"flabels", {"labels"}}};
    out.push_back(folder);
    DataSource text;
    WordTextParams w;
    w.file = "ptb.train.txt";
    w.vocabFile = "vocab.txt";
    w.numSteps = 35;
    w.vocabSize = 10000;
    text.params = w;
    text.feeds = {{"wx", {"x"}}, {"wy", {"y"}}};
    out.push_back(text);
    return out;
}

} // namespace

class TestProjectRoundTrip : public QObject {
    Q_OBJECT
private slots:
    void examplesAreFound()
    {
        // The glob must see the shipped examples (else every loop below tests nothing).
        QVERIFY(exampleProjects().size() >= 5);
    }

    /// Each example as shipped: saved, reopened, saved again.
    void everyExampleProject()
    {
        QTemporaryDir dir;
        for (const auto& path : exampleProjects()) {
            auto p = loadProject(path);
            QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
            const std::string problem = roundTrip(*p, std::filesystem::path(dir.path().toStdString()) / path.filename());
            QVERIFY2(problem.empty(), (path.filename().string() + ": " + problem).c_str());
        }
    }

    /// Each example with every combination of the optional sections present and absent.
    void everySectionCombination()
    {
        QTemporaryDir dir;
        int checked = 0;
        for (const auto& path : exampleProjects()) {
            auto base = loadProject(path);
            QVERIFY2(base.has_value(), base ? "" : base.error().toString().c_str());
            for (unsigned mask = 0; mask < (1u << kSectionCount); ++mask) {
                const Project p = withSections(*base, mask);
                const auto file = std::filesystem::path(dir.path().toStdString()) /
                                  (path.stem().string() + "-" + std::to_string(mask) + ".tsproj");
                const std::string problem = roundTrip(p, file);
                QVERIFY2(problem.empty(), (file.filename().string() + ": " + problem).c_str());
                ++checked;
            }
        }
        QCOMPARE(checked, static_cast<int>(exampleProjects().size()) << kSectionCount);
    }

    /// The debugger section: empty, breakpoints only, watches only, both; every breakpoint kind
    /// enabled and disabled comes back.
    void debuggerSection()
    {
        QTemporaryDir dir;
        auto base = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(base.has_value());
        const auto breakpoints = everyBreakpointKind();
        QVERIFY(std::any_of(breakpoints.begin(), breakpoints.end(), [](const auto& b) { return !b.enabled; }));
        int i = 0;
        for (const bool withBreakpoints : {false, true})
            for (const bool withWatch : {false, true}) {
                Project p = *base;
                if (withBreakpoints)
                    p.debugger.breakpoints = breakpoints;
                if (withWatch)
                    p.debugger.watch = {"dense/Relu:0"};
                const auto file = std::filesystem::path(dir.path().toStdString()) / ("debugger" + std::to_string(i++) + ".tsproj");
                const std::string problem = roundTrip(p, file);
                QVERIFY2(problem.empty(), problem.c_str());
                auto text = readWholeFile(file, 1 << 20);
                QVERIFY(text.has_value());
                // Empty lists are left out: no file holds "watch": [] or "breakpoints": [].
                QVERIFY(text->find("\"watch\": []") == std::string::npos);
                QVERIFY(text->find("\"breakpoints\": []") == std::string::npos);
                QCOMPARE(text->find("\"debugger\"") != std::string::npos, withBreakpoints || withWatch);
            }
    }

    /// What older versions wrote (issue #51: a breakpoint saved with no watch wrote "watch": [],
    /// which the reader then refused) opens, as does an explicit empty or null list.
    void olderDebuggerSectionsOpen()
    {
        const std::string head = "{\"format\": \"tensorstudio-project\", \"version\": 1, \"graph\": {\"pbtxt\": "
                                 "\"node { name: \\\"x\\\" op: \\\"NoOp\\\" }\"}, \"training\": {\"train_op\": \"x\"}, ";
        const auto parsed = [&](const std::string& debuggerJson) {
            return parseProject(head + "\"debugger\": " + debuggerJson + "}", "old.tsproj");
        };
        auto old = parsed("{\"breakpoints\": [{\"at\": \"node:x\", \"enabled\": false}], \"watch\": []}");
        QVERIFY2(old.has_value(), old ? "" : old.error().toString().c_str());
        QCOMPARE(old->debugger.breakpoints.size(), std::size_t{1});
        QVERIFY(!old->debugger.breakpoints[0].enabled);
        QVERIFY(old->debugger.watch.empty());
        // Saved again, the empty list is gone and the file still opens.
        const std::string resaved = projectToJson(*old);
        QVERIFY(resaved.find("\"watch\"") == std::string::npos);
        QVERIFY(parseProject(resaved, "old.tsproj").has_value());
        for (const char* empty : {"{\"breakpoints\": [], \"watch\": []}", "{\"breakpoints\": null, \"watch\": null}", "{}"}) {
            auto p = parsed(empty);
            QVERIFY2(p.has_value(), p ? empty : p.error().toString().c_str());
            QVERIFY(p->debugger.empty());
            QVERIFY(projectToJson(*p).find("\"debugger\"") == std::string::npos);
        }
        // Still refused, with the path: a watch that is not a tensor name.
        auto bad = parsed("{\"watch\": [\"ok:0\", 3]}");
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(),
                 std::string("old.tsproj: debugger.watch[1]: expected a tensor name such as \"layer1/MatMul:0\", got 3"));
        auto notList = parsed("{\"watch\": \"x:0\"}");
        QVERIFY(!notList.has_value());
        QVERIFY2(notList.error().message().find("debugger.watch: expected an array") != std::string::npos,
                 notList.error().message().c_str());
    }

    /// Every data source kind with its options, every optimizer and learning-rate schedule, a
    /// train op instead of an optimizer, carried state and perplexity.
    void sourcesOptimizersAndSchedules()
    {
        QTemporaryDir dir;
        const auto root = std::filesystem::path(dir.path().toStdString());
        auto base = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(base.has_value());
        Project sources = *base;
        sources.sources = everySourceKind();
        sources.carryState = {{"final_c:0", "initial_c"}, {"final_h", "initial_h:0"}};
        sources.perplexity = "per_word_loss:0";
        std::string problem = roundTrip(sources, root / "sources.tsproj");
        QVERIFY2(problem.empty(), problem.c_str());

        std::vector<LearningRate> schedules(6);
        schedules[0].learningRate = 0.3;
        schedules[1].schedule = "exponential_decay";
        schedules[1].decaySteps = 1000;
        schedules[1].decayRate = 0.96;
        schedules[1].staircase = true;
        schedules[2].schedule = "piecewise_constant";
        schedules[2].boundaries = {1000, 5000};
        schedules[2].values = {0.1, 0.01, 0.001};
        schedules[2].learningRate = 0.1;
        schedules[3].schedule = "polynomial_decay";
        schedules[3].decaySteps = 10000;
        schedules[3].endLearningRate = 1e-5;
        schedules[3].power = 0.5;
        schedules[3].cycle = true;
        schedules[4].schedule = "cosine_decay";
        schedules[4].decaySteps = 2000;
        schedules[4].alpha = 0.1;
        schedules[5].schedule = "inverse_time_decay";
        schedules[5].decaySteps = 100;
        schedules[5].decayRate = 0.5;
        const std::vector<std::pair<std::string, OptimizerSpec>> optimizers = {
            {"GradientDescent", {"GradientDescent", {}, {}, {}}},
            {"Momentum", {"Momentum", {}, {{"momentum", 0.5}}, {{"use_nesterov", true}}}},
            {"Adam", {"Adam", {}, {{"beta1", 0.8}, {"beta2", 0.99}, {"epsilon", 1e-7}}, {}}},
            {"LazyAdam", {"LazyAdam", {}, {{"beta1", 0.85}, {"beta2", 0.995}, {"epsilon", 1e-6}}, {}}},
            {"RMSProp", {"RMSProp", {}, {{"decay", 0.95}, {"momentum", 0.1}, {"epsilon", 1e-6}}, {{"centered", true}}}},
            {"Adagrad", {"Adagrad", {}, {{"initial_accumulator_value", 0.2}}, {}}},
            {"Adadelta", {"Adadelta", {}, {{"rho", 0.9}, {"epsilon", 1e-6}}, {}}},
        };
        int i = 0;
        for (const auto& [type, spec] : optimizers)
            for (const LearningRate& lr : schedules) {
                Project p = *base;
                p.training.optimizer = spec;
                p.training.optimizer->learningRate = lr;
                problem = roundTrip(p, root / ("optimizer" + std::to_string(i++) + ".tsproj"));
                QVERIFY2(problem.empty(), (type + " " + lr.schedule + ": " + problem).c_str());
            }
        Project trainOp = *base;
        trainOp.training = TrainingSetup{};
        trainOp.training.trainOp = "train";
        trainOp.training.loss = "loss:0";
        problem = roundTrip(trainOp, root / "train-op.tsproj");
        QVERIFY2(problem.empty(), problem.c_str());
        trainOp.training.loss.clear();
        trainOp.graph = GraphSource{"", "node { name: \"train\" op: \"NoOp\" }\n"};
        problem = roundTrip(trainOp, root / "train-op-inline.tsproj");
        QVERIFY2(problem.empty(), problem.c_str());
    }

    /// A project the reader would refuse is not written, and the file already there stays.
    void refusesToWriteWhatCannotOpen()
    {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "kept.tsproj";
        auto base = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(base.has_value());
        QVERIFY(saveProject(*base, path).isOk());
        Project bad = *base;
        bad.replicas = 7; // does not divide the batch size
        const Status s = saveProject(bad, path);
        QVERIFY(!s.isOk());
        QVERIFY2(s.message().find("not saved, as it would not open again: kept.tsproj: replicas:") == 0,
                 s.message().c_str());
        auto kept = loadProject(path);
        QVERIFY(kept.has_value());
        QCOMPARE(kept->replicas, std::int64_t{1});
    }
};

QTEST_MAIN(TestProjectRoundTrip)
#include "test_project_roundtrip.moc"
