// exportProject: a project (dense + batch norm + dropout on the learning phase, moving averages) built
// and trained here, exported as a SavedModel and a frozen graph whose outputs match the training
// checkpoint's evaluation-mode outputs; the moving averages, the learning phase as a Const false, the
// errors (a placeholder that is not an input, no checkpoint, overwriting) and the log directory left
// as it was; the .tsproj "export" section read and written.
#include "builder/graph_builder.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "io/atomic_file.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/npy.h"
#include "layers/batch_normalization.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "losses/losses.h"
#include "model/restore_variables.h"
#include "model/saved_model.h"
#include "project/export/project_export.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/moving_averages.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <map>

using namespace tstudio;
using namespace tstudio::project;
namespace fs = std::filesystem;

namespace {

const Registries& registries()
{
    static std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        return made ? std::move(*made) : nullptr;
    }();
    return *r;
}

/// x [?,3] -> layer1 (dense 8, relu) -> bn (batch norm on the learning phase) -> dropout (0.5, on the
/// learning phase) -> pred (dense 1): "pred/BiasAdd:0"; "scaled" = pred * scale (a placeholder no data
/// source feeds); loss "loss" = MSE against y [?,1]; "train" = GradientDescent after UPDATE_OPS, then
/// ExponentialMovingAverage(0.5) of the trainable variables.
Expected<tensorflow::GraphDef> exportGraph()
{
    GraphBuilder b(registries().ops);
    TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 3}), "x"));
    TSTUDIO_TRY(y, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 1}), "y"));
    TSTUDIO_TRY(scale, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape::scalar(), "scale"));
    TSTUDIO_TRY(phase, learningPhase(b));
    layers::DenseOptions first;
    first.units = 8;
    first.activation = layers::Activation::kRelu;
    first.name = "layer1";
    TSTUDIO_TRY(hidden, layers::dense(b, x, first));
    layers::BatchNormalizationOptions bn;
    bn.momentum = 0.5;
    bn.name = "bn";
    TSTUDIO_TRY(normalised, layers::batchNormalization(b, hidden, bn, phase));
    layers::DropoutOptions drop;
    drop.rate = 0.5;
    drop.seed = 7;
    drop.name = "dropout";
    TSTUDIO_TRY(dropped, layers::dropout(b, normalised, drop, phase));
    layers::DenseOptions last;
    last.units = 1;
    last.name = "pred";
    TSTUDIO_TRY(pred, layers::dense(b, dropped, last));
    TSTUDIO_TRY(scaled, ops::mul(b, pred, scale, "scaled"));
    (void)scaled;
    losses::LossOptions lossOptions;
    lossOptions.scope = "mse";
    TSTUDIO_TRY(mse, losses::meanSquaredError(b, y, pred, lossOptions));
    TSTUDIO_TRY(loss, ops::identity(b, mse, "loss"));
    TSTUDIO_TRY(step, training::getOrCreateGlobalStep(b));
    std::vector<Operation> updates;
    for (const CollectionItem& item : b.collections().get(graph_keys::kUpdateOps)) {
        if (const auto* op = std::get_if<Operation>(&item))
            updates.push_back(*op);
        else if (const auto* out = std::get_if<Output>(&item)) {
            TSTUDIO_TRY(op, b.operation(out->node()));
            updates.push_back(op);
        }
    }
    if (updates.empty())
        return unexpected(internalError("the batch norm added no UPDATE_OPS"));
    Operation minimize;
    {
        auto guard = b.controlDependencies(updates);
        training::GradientDescentOptimizer optimizer(0.05);
        TSTUDIO_TRY(made, optimizer.minimize(b, loss, step));
        minimize = made;
    }
    training::ExponentialMovingAverage averages(0.5);
    TSTUDIO_TRY(maintain, averages.apply(b));
    TSTUDIO_TRY(train, ops::group(b, {minimize, maintain}, "train"));
    (void)train;
    return b.graphDef();
}

Tensor ramp(Allocator& allocator, const TensorShape& shape, float offset, float step)
{
    std::vector<float> values(static_cast<std::size_t>(shape.numElements().value()));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = offset + step * static_cast<float>((i * 7) % 23);
    return Tensor::fromVector<float>(allocator, shape, values).value();
}

std::vector<float> floats(const Tensor& t)
{
    const auto values = t.values<float>();
    return {values.begin(), values.end()};
}

/// max |a - b| / max(|b|, 1e-3), or infinity when the sizes differ.
double relativeError(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size() || a.empty())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(double(a[i]) - double(b[i])) / std::max(std::abs(double(b[i])), 1e-3));
    return worst;
}

/// Every file under `dir` with its bytes' hash, to see that nothing changed.
std::map<std::string, QByteArray> snapshot(const fs::path& dir)
{
    std::map<std::string, QByteArray> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file())
            continue;
        QFile f(QString::fromStdString(entry.path().string()));
        if (f.open(QIODevice::ReadOnly))
            files[fs::relative(entry.path(), dir).string()] =
                QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }
    return files;
}

} // namespace

class TestProjectExport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    fs::path m_root;
    Project m_project;
    std::string m_checkpoint;
    CpuAllocator m_allocator;
    Tensor m_batch; ///< x for the comparisons, [5,3]

    fs::path out(const std::string& name) const { return m_root / "out" / name; }

    /// The outputs of a session on the project's graph restored from the checkpoint, the learning
    /// phase fed `training` (nullopt: not fed), optionally with the moving averages assigned.
    std::vector<float> reference(const std::string& tensor, std::optional<bool> training, bool averages = false)
    {
        auto graph = readProjectGraph(m_project);
        if (!graph)
            return {};
        SessionOptions options;
        options.ops = &registries().ops;
        options.kernels = &registries().kernels;
        Session session(options);
        if (!session.create(*graph).isOk() || !restoreVariablesByName(session, m_checkpoint))
            return {};
        if (averages) {
            // ema.variables_to_restore() by hand: each trainable variable from its shadow.
            auto reader = TensorBundleReader::open(m_checkpoint);
            if (!reader)
                return {};
            tensorflow::GraphDef assigns;
            std::vector<std::pair<std::string, Tensor>> feeds;
            std::vector<std::string> targets;
            for (const std::string var : {"layer1/kernel", "layer1/bias", "bn/gamma", "bn/beta", "pred/kernel", "pred/bias"}) {
                auto value = reader->read(var + "/ExponentialMovingAverage", m_allocator);
                if (!value)
                    return {};
                auto* ph = assigns.add_node();
                ph->set_name("ref_avg/" + var + "/value");
                ph->set_op("Placeholder");
                (*ph->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
                auto* assign = assigns.add_node();
                assign->set_name("ref_avg/" + var + "/assign");
                assign->set_op("Assign");
                assign->add_input(var);
                assign->add_input(ph->name());
                (*assign->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
                feeds.emplace_back(ph->name(), *value);
                targets.push_back(assign->name());
            }
            std::vector<Tensor> none;
            if (!session.extend(assigns).isOk() || !session.run(feeds, {}, targets, &none).isOk())
                return {};
        }
        std::vector<std::pair<std::string, Tensor>> feeds = {{"x:0", m_batch}};
        if (training)
            feeds.emplace_back("learning_phase:0", Tensor::fromVector<bool>(m_allocator, TensorShape::scalar(), {*training}).value());
        std::vector<Tensor> outputs;
        if (!session.run(feeds, {tensor}, {}, &outputs).isOk())
            return {};
        return floats(outputs.front());
    }

    std::vector<float> runFrozen(const fs::path& path, const std::string& tensor,
                                 std::vector<std::pair<std::string, Tensor>> extraFeeds = {})
    {
        auto graph = readGraphDef(path);
        if (!graph)
            return {};
        SessionOptions options;
        options.ops = &registries().ops;
        options.kernels = &registries().kernels;
        Session session(options);
        if (!session.create(*graph).isOk())
            return {};
        extraFeeds.emplace_back("x:0", m_batch);
        std::vector<Tensor> outputs;
        if (!session.run(extraFeeds, {tensor}, {}, &outputs).isOk())
            return {};
        return floats(outputs.front());
    }

    std::vector<float> runSavedModel(const fs::path& dir, const std::string& key,
                                     std::map<std::string, Tensor> inputs = {})
    {
        SessionOptions options;
        options.ops = &registries().ops;
        options.kernels = &registries().kernels;
        auto bundle = loadSavedModel(dir, options);
        if (!bundle)
            return {};
        inputs.emplace("x", m_batch);
        auto outputs = (*bundle)->runSignature("serving_default", inputs);
        if (!outputs || !outputs->contains(key))
            return {};
        return floats(outputs->at(key));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path().toStdString();
        auto graph = exportGraph();
        QVERIFY2(graph.has_value(), graph ? "" : graph.error().toString().c_str());
        QVERIFY(writeGraphDef(m_root / "model.pbtxt", *graph, GraphDefFormat::kText).isOk());
        QVERIFY(writeNpy(m_root / "x.npy", ramp(m_allocator, TensorShape({64, 3}), -1.0f, 0.1f)).isOk());
        QVERIFY(writeNpy(m_root / "y.npy", ramp(m_allocator, TensorShape({64, 1}), 0.5f, 0.05f)).isOk());
        const nlohmann::json doc = {
            {"format", "tensorstudio-project"},
            {"version", 1},
            {"name", "export test"},
            {"graph", {{"file", "model.pbtxt"}}},
            {"data", {{"sources", {{{"type", "numpy"}, {"files", {"x.npy", "y.npy"}}, {"feeds", {{"x", "x"}, {"y", "y"}}}}}}}},
            {"training", {{"loss", "loss:0"}, {"train_op", "train"}, {"global_step", "global_step:0"}}},
            {"batch_size", 16},
            {"steps", 30},
            {"logdir", "logs"}};
        QVERIFY(writeFileAtomically(m_root / "export.tsproj", doc.dump(2)).isOk());
        auto project = loadProject(m_root / "export.tsproj");
        QVERIFY2(project.has_value(), project ? "" : project.error().toString().c_str());
        m_project = *project;
        TrainRunOptions run;
        run.threads = 1;
        auto trained = trainProject(m_project, registries(), run);
        QVERIFY2(trained.has_value(), trained ? "" : trained.error().toString().c_str());
        m_checkpoint = trained->lastCheckpoint;
        QVERIFY(!m_checkpoint.empty());
        m_batch = ramp(m_allocator, TensorShape({5, 3}), -0.8f, 0.13f);
    }

    /// Both exports give the evaluation-mode outputs of the training checkpoint (rel 1e-6), which
    /// differ from its training-mode outputs (dropout); the learning phase is a Const false in both;
    /// both open as the graph viewer opens them; the log directory is untouched.
    void savedModelAndFrozenGraphMatchEvaluationMode()
    {
        const fs::path logdir = m_root / "logs";
        const auto before = snapshot(logdir);
        ExportOptions options;
        options.outputs = {"pred/BiasAdd"};
        options.savedModelDir = out("plain_saved_model");
        options.frozenGraphPath = out("plain_frozen.pb");
        auto result = exportProject(m_project, registries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->checkpoint, m_checkpoint);
        QCOMPARE(result->inputs, std::vector<std::string>{"x:0"});
        QCOMPARE(result->inputKeys, std::vector<std::string>{"x"});
        QCOMPARE(result->outputs, std::vector<std::string>{"pred/BiasAdd:0"});
        QCOMPARE(result->outputKeys, std::vector<std::string>{"pred/BiasAdd"});
        QVERIFY(result->learningPhaseFixed);
        QVERIFY(result->averaged.empty());
        QCOMPARE(result->variables, (std::vector<std::string>{"layer1/kernel", "layer1/bias", "bn/gamma", "bn/beta",
                                                              "bn/moving_mean", "bn/moving_variance", "pred/kernel",
                                                              "pred/bias"}));

        const std::vector<float> expected = reference("pred/BiasAdd:0", false);
        const std::vector<float> training = reference("pred/BiasAdd:0", std::nullopt);
        QCOMPARE(expected.size(), std::size_t(5));
        QVERIFY2(relativeError(training, expected) > 1e-3, "training and evaluation modes should differ (dropout)");
        const std::vector<float> frozen = runFrozen(options.frozenGraphPath, "pred/BiasAdd:0");
        const std::vector<float> saved = runSavedModel(options.savedModelDir, "pred/BiasAdd");
        QVERIFY2(relativeError(frozen, expected) <= 1e-6, qPrintable(QString::number(relativeError(frozen, expected))));
        QVERIFY2(relativeError(saved, expected) <= 1e-6, qPrintable(QString::number(relativeError(saved, expected))));

        // The learning phase is the Const false in both; no PlaceholderWithDefault is left (but the
        // saver's filename); no
        // optimizer or EMA node is exported.
        auto savedFile = readGraphFromFile(options.savedModelDir);
        QVERIFY2(savedFile.has_value(), savedFile ? "" : savedFile.error().toString().c_str());
        QCOMPARE(savedFile->kind, FileKind::kSavedModel);
        auto frozenFile = readGraphFromFile(options.frozenGraphPath);
        QVERIFY2(frozenFile.has_value(), frozenFile ? "" : frozenFile.error().toString().c_str());
        for (const tensorflow::GraphDef* g : {&savedFile->graph, &frozenFile->graph}) {
            bool phaseConst = false;
            for (const auto& node : g->node()) {
                QVERIFY2(node.op() != "PlaceholderWithDefault" || node.name().starts_with("save/"), node.name().c_str());
                QVERIFY2(node.op().find("Apply") == std::string::npos, node.name().c_str());
                QVERIFY2(node.name().find("ExponentialMovingAverage") == std::string::npos, node.name().c_str());
                QVERIFY2(node.name() != "y" && node.name() != "loss", node.name().c_str());
                if (node.name() == kLearningPhaseName) {
                    QCOMPARE(node.op(), std::string("Const"));
                    const auto& value = node.attr().at("value").tensor();
                    QCOMPARE(value.dtype(), tensorflow::DT_BOOL);
                    QCOMPARE(value.bool_val_size(), 1);
                    QVERIFY(!value.bool_val(0));
                    phaseConst = true;
                }
            }
            QVERIFY(phaseConst);
        }
        for (const auto& node : frozenFile->graph.node())
            QVERIFY2(!isVariableOp(node.op()), node.name().c_str());

        // The signature: predict, TensorInfo name, dtype and shape.
        SessionOptions sessionOptions;
        sessionOptions.ops = &registries().ops;
        sessionOptions.kernels = &registries().kernels;
        auto bundle = loadSavedModel(options.savedModelDir, sessionOptions);
        QVERIFY2(bundle.has_value(), bundle ? "" : bundle.error().toString().c_str());
        auto signature = (*bundle)->signature("serving_default");
        QVERIFY(signature.has_value());
        QCOMPARE(signature->methodName, std::string("tensorflow/serving/predict"));
        QCOMPARE(signature->inputs.size(), std::size_t(1));
        QCOMPARE(signature->inputs[0].tensorName, std::string("x:0"));
        QCOMPARE(signature->inputs[0].dtype, tensorflow::DT_FLOAT);
        QCOMPARE(signature->inputs[0].shape.toString(), std::string("[?,3]"));
        QCOMPARE(signature->outputs.size(), std::size_t(1));
        QCOMPARE(signature->outputs[0].tensorName, std::string("pred/BiasAdd:0"));
        QCOMPARE(signature->outputs[0].shape.toString(), std::string("[?,1]"));
        QVERIFY((*bundle)->metaGraph().has_saver_def());

        QCOMPARE(snapshot(logdir), before);
    }

    /// moving_average: every trainable variable takes its shadow's value (the moving statistics of
    /// batch norm, which have none, their own), in both exports, and the outputs are those of the
    /// averaged weights.
    void movingAverageWeights()
    {
        ExportOptions options;
        options.outputs = {"pred/BiasAdd:0"};
        options.savedModelDir = out("avg_saved_model");
        options.frozenGraphPath = out("avg_frozen.pb");
        options.movingAverage = true;
        options.checkpoint = m_checkpoint + ".index";
        auto result = exportProject(m_project, registries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->averaged, (std::vector<std::string>{"layer1/kernel", "layer1/bias", "bn/gamma", "bn/beta",
                                                             "pred/kernel", "pred/bias"}));
        auto reader = TensorBundleReader::open(m_checkpoint);
        QVERIFY(reader.has_value());
        auto shadow = reader->read("pred/kernel/ExponentialMovingAverage", m_allocator);
        auto own = reader->read("pred/kernel", m_allocator);
        QVERIFY(shadow && own);
        QVERIFY2(floats(*shadow) != floats(*own), "the average should differ from the variable after training");
        auto frozen = readGraphDef(options.frozenGraphPath);
        QVERIFY(frozen.has_value());
        bool found = false;
        for (const auto& node : frozen->node())
            if (node.name() == "pred/kernel") {
                auto value = Tensor::fromProto(m_allocator, node.attr().at("value").tensor());
                QVERIFY(value.has_value());
                QCOMPARE(floats(*value), floats(*shadow));
                found = true;
            }
        QVERIFY(found);

        const std::vector<float> expected = reference("pred/BiasAdd:0", false, /*averages=*/true);
        const std::vector<float> plain = reference("pred/BiasAdd:0", false);
        QVERIFY2(relativeError(plain, expected) > 1e-4, "averaged weights should give other outputs");
        const std::vector<float> fromFrozen = runFrozen(options.frozenGraphPath, "pred/BiasAdd:0");
        const std::vector<float> fromSaved = runSavedModel(options.savedModelDir, "pred/BiasAdd");
        QVERIFY2(relativeError(fromFrozen, expected) <= 1e-6, qPrintable(QString::number(relativeError(fromFrozen, expected))));
        QVERIFY2(relativeError(fromSaved, expected) <= 1e-6, qPrintable(QString::number(relativeError(fromSaved, expected))));
    }

    /// An output that needs a placeholder that is not an input is refused naming the key, the
    /// output and the placeholder; with the placeholder among the inputs it exports, and the
    /// signature takes it.
    void placeholderNotAnInput()
    {
        const auto before = snapshot(m_root / "logs");
        ExportOptions options;
        options.outputs = {"scaled"};
        options.frozenGraphPath = out("scaled.pb");
        auto refused = exportProject(m_project, registries(), options);
        QVERIFY(!refused.has_value());
        QCOMPARE(refused.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(refused.error().message(),
                 std::string("export.tsproj: export.outputs[0]: 'scaled' needs placeholder 'scale', which is not among "
                             "the inputs (export.inputs: x:0); add it to export.inputs, or give it a default"));
        QVERIFY(!fs::exists(options.frozenGraphPath));

        options.inputs = std::vector<std::string>{"x", "scale:0"};
        options.savedModelDir = out("scaled_saved_model");
        auto result = exportProject(m_project, registries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->inputs, (std::vector<std::string>{"x:0", "scale:0"}));
        auto two = Tensor::fromVector<float>(m_allocator, TensorShape::scalar(), {2.0f}).value();
        const std::vector<float> base = reference("pred/BiasAdd:0", false);
        const std::vector<float> saved = runSavedModel(options.savedModelDir, "scaled", {{"scale", two}});
        QCOMPARE(saved.size(), base.size());
        for (std::size_t i = 0; i < base.size(); ++i)
            QVERIFY(std::abs(saved[i] - 2 * base[i]) <= 1e-6f * std::max(1.0f, std::abs(base[i])));
        QCOMPARE(runFrozen(options.frozenGraphPath, "scaled:0", {{"scale:0", two}}), saved);
        QCOMPARE(snapshot(m_root / "logs"), before);
    }

    /// Bad names and settings are refused before anything is written, naming the key.
    void refusals()
    {
        const fs::path logdir = m_root / "logs";
        const auto before = snapshot(logdir);
        auto message = [&](ExportOptions options) {
            if (options.savedModelDir.empty() && options.frozenGraphPath.empty() && !options.outputs.empty())
                options.frozenGraphPath = out("refused.pb");
            auto r = exportProject(m_project, registries(), options);
            return r ? std::string("(exported)") : r.error().message();
        };
        ExportOptions o;
        QCOMPARE(message(o), std::string("export.tsproj: export: nothing to write: give export.saved_model (a "
                                         "directory) and/or export.frozen_graph (a .pb file)"));
        o.frozenGraphPath = out("refused.pb");
        QCOMPARE(message(o), std::string("export.tsproj: export.outputs: required: the tensors the export computes "
                                         "(e.g. \"logits:0\")"));
        o.outputs = {"pred/BiasAdd:0", "nothing:0"};
        QCOMPARE(message(o), std::string("export.tsproj: export.outputs[1]: 'nothing:0' is not in the graph"));
        o.outputs = {"pred/BiasAdd:3"};
        QCOMPARE(message(o), std::string("export.tsproj: export.outputs[0]: 'pred/BiasAdd:3' is not in the graph: "
                                         "'pred/BiasAdd' (BiasAdd) has 1 output"));
        o.outputs = {"pred/BiasAdd"};
        o.inputs = std::vector<std::string>{"layer1/kernel"};
        QCOMPARE(message(o), std::string("export.tsproj: export.inputs[0]: 'layer1/kernel' is a VariableV2, not a "
                                         "placeholder"));
        o.inputs = std::vector<std::string>{"x", "y"};
        QCOMPARE(message(o), std::string("export.tsproj: export.inputs[1]: 'y' is not needed by the outputs "
                                         "(pred/BiasAdd)"));
        o.inputs = std::vector<std::string>{"learning_phase"};
        QCOMPARE(message(o), std::string("export.tsproj: export.inputs[0]: 'learning_phase' is the learning phase, "
                                         "which an export fixes to false"));
        o.inputs.reset();
        o.checkpoint = (m_root / "nowhere" / "model.ckpt-1").string();
        QVERIFY2(message(o).starts_with("export.tsproj: checkpoint '" + o.checkpoint + "' not found"), message(o).c_str());
        o.checkpoint.clear();

        // No checkpoint in the log directory.
        ExportOptions fresh = o;
        fresh.logdir = m_root / "empty_logs";
        fs::create_directories(*fresh.logdir);
        auto none = exportProject(m_project, registries(), fresh);
        QVERIFY(!none.has_value());
        QCOMPARE(none.error().code(), StatusCode::kFailedPrecondition);
        QCOMPARE(none.error().message(), "export.tsproj: no checkpoint to export: log directory '" +
                                             fs::path(*fresh.logdir).lexically_normal().string() +
                                             "' has none (train the project first, or choose a checkpoint)");

        // Overwriting: a non-empty SavedModel directory, an existing file of the log directory.
        ExportOptions overwrite = o;
        overwrite.frozenGraphPath.clear();
        overwrite.savedModelDir = logdir;
        auto existing = exportProject(m_project, registries(), overwrite);
        QVERIFY(!existing.has_value());
        QCOMPARE(existing.error().code(), StatusCode::kAlreadyExists);
        QVERIFY2(existing.error().message().find("export.saved_model: '" + logdir.string() +
                                                 "' already exists and is not empty") != std::string::npos,
                 existing.error().message().c_str());
        overwrite.savedModelDir.clear();
        overwrite.frozenGraphPath = logdir / "checkpoint";
        auto intoLog = exportProject(m_project, registries(), overwrite);
        QVERIFY(!intoLog.has_value());
        QCOMPARE(intoLog.error().message(), "export.tsproj: export.frozen_graph: '" + (logdir / "checkpoint").string() +
                                                "' is in the log directory and exists; choose another file");
        QVERIFY(!fs::exists(out("refused.pb")));
        QCOMPARE(snapshot(logdir), before);
    }

    /// A checkpoint without moving averages: moving_average is refused naming the key and the checkpoint.
    void movingAverageWithoutShadows()
    {
        // A checkpoint of the same variables without their shadows.
        auto reader = TensorBundleReader::open(m_checkpoint);
        QVERIFY(reader.has_value());
        const fs::path dir = m_root / "no_averages";
        fs::create_directories(dir);
        const std::string prefix = (dir / "model.ckpt-1").string();
        {
            auto writer = TensorBundleWriter::create(prefix);
            QVERIFY(writer.has_value());
            for (const std::string name : {"layer1/kernel", "layer1/bias", "bn/gamma", "bn/beta", "bn/moving_mean",
                                           "bn/moving_variance", "pred/kernel", "pred/bias"}) {
                auto t = reader->read(name, m_allocator);
                QVERIFY(t.has_value());
                QVERIFY((*writer)->add(name, *t).isOk());
            }
            QVERIFY((*writer)->finish().isOk());
        }
        ExportOptions options;
        options.outputs = {"pred/BiasAdd"};
        options.frozenGraphPath = out("no_avg.pb");
        options.checkpoint = prefix;
        options.movingAverage = true;
        auto r = exportProject(m_project, registries(), options);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().code(), StatusCode::kNotFound);
        QVERIFY2(r.error().message().starts_with("export.tsproj: export.moving_average: checkpoint '" + prefix +
                                                 "' holds no moving averages: none of layer1/kernel, layer1/bias, "),
                 r.error().message().c_str());
        options.movingAverage = false;
        auto plain = exportProject(m_project, registries(), options);
        QVERIFY2(plain.has_value(), plain ? "" : plain.error().toString().c_str());
    }

    /// The .tsproj "export" section: read, written back the same, its paths resolved against the
    /// project's folder; bad entries named by their key.
    void projectSection()
    {
        const std::string text = R"({"format": "tensorstudio-project", "version": 1, "graph": {"file": "model.pbtxt"},
            "training": {"train_op": "train"},
            "export": {"saved_model": "served/model", "frozen_graph": "/abs/frozen.pb", "outputs": ["pred/BiasAdd:0"],
                       "moving_average": true}})";
        auto p = parseProject(text, "x.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QVERIFY(p->exportSettings.has_value());
        QCOMPARE(p->exportSettings->savedModel, std::string("served/model"));
        QCOMPARE(p->exportSettings->frozenGraph, std::string("/abs/frozen.pb"));
        QCOMPARE(p->exportSettings->outputs, std::vector<std::string>{"pred/BiasAdd:0"});
        QVERIFY(p->exportSettings->inputs.empty());
        QVERIFY(p->exportSettings->movingAverage);
        const std::string json = projectToJson(*p);
        auto again = parseProject(json, "x.tsproj");
        QVERIFY(again.has_value());
        QCOMPARE(projectToJson(*again), json);
        p->location = "/projects/a/x.tsproj";
        const ExportOptions options = exportOptionsOf(*p);
        QCOMPARE(options.savedModelDir, fs::path("/projects/a/served/model"));
        QCOMPARE(options.frozenGraphPath, fs::path("/abs/frozen.pb"));
        QVERIFY(!options.inputs.has_value());
        QVERIFY(options.movingAverage);
        // No section: nothing written.
        p->exportSettings.reset();
        QVERIFY(projectToJson(*p).find("\"export\"") == std::string::npos);

        auto error = [&](const std::string& section) {
            auto bad = parseProject(R"({"format": "tensorstudio-project", "version": 1, "graph": {"file": "m.pbtxt"},
                "training": {"train_op": "train"}, "export": )" + section + "}",
                                    "x.tsproj");
            return bad ? std::string("(parsed)") : bad.error().message();
        };
        QCOMPARE(error(R"({"outputs": ["y", "y"]})"), std::string("x.tsproj: export.outputs[1]: 'y' is listed twice"));
        QCOMPARE(error(R"({"outputs": "y"})"),
                 std::string("x.tsproj: export.outputs: expected an array of tensor names, got 'y'"));
        QCOMPARE(error(R"({"inputs": [3]})"),
                 std::string("x.tsproj: export.inputs[0]: expected a tensor name (\"x\" or \"x:0\"), got 3"));
        QCOMPARE(error(R"({"saved_model": ""})"),
                 std::string("x.tsproj: export.saved_model: expected a path, got \"\" (leave the key out for none)"));
        QCOMPARE(error(R"({"frozen": "a.pb"})"), std::string("x.tsproj: export.frozen: unknown key (expected one of "
                                                             "saved_model, frozen_graph, inputs, outputs, moving_average)"));
        QCOMPARE(error("[]"), std::string("x.tsproj: export: expected an object {\"outputs\": [...], \"saved_model\": "
                                          "DIR, ...}, got an array"));
    }

    /// The dialog's helpers: the placeholders and tensors offered, and the default inputs.
    void candidates()
    {
        auto c = exportCandidates(m_project, registries().ops);
        QVERIFY2(c.has_value(), c ? "" : c.error().toString().c_str());
        QCOMPARE(c->placeholders, (std::vector<std::string>{"x", "y", "scale"}));
        QCOMPARE(c->fed, (std::set<std::string>{"x", "y"}));
        bool pred = false;
        for (const auto& t : c->tensors) {
            QVERIFY2(!t.name.starts_with("learning_phase"), t.name.c_str());
            QVERIFY2(!t.name.starts_with("gradients/"), t.name.c_str());
            if (t.name == "pred/BiasAdd:0") {
                pred = true;
                QCOMPARE(t.type, std::string("float [?,1]"));
            }
        }
        QVERIFY(pred);
        QCOMPARE(defaultExportInputs(m_project, c->graph, {"pred/BiasAdd:0"}), std::vector<std::string>{"x"});
        QCOMPARE(defaultExportInputs(m_project, c->graph, {"loss"}), (std::vector<std::string>{"x", "y"}));
        QCOMPARE(defaultExportInputs(m_project, c->graph, {"scaled:0"}), std::vector<std::string>{"x"});
    }
};

QTEST_GUILESS_MAIN(TestProjectExport)
#include "test_project_export.moc"
