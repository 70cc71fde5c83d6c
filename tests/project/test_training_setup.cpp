// prepareTraining: the shipped projects prepare and train, optimizers are built into imported
// GraphDefs and MetaGraphDefs, data sources feed their placeholders, and bad names are refused
// with messages naming the project, the JSON path and the node.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "builder/variables.h"
#include "builder/while_loop.h"
#include "io/formats/graph_def_io.h"
#include "io/atomic_file.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/npy.h"
#include "layers/batch_normalization.h"
#include "layers/dense.h"
#include "losses/losses.h"
#include "model/meta_graph.h"
#include "project/format/project_file.h"
#include "proto/example.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "project/run/training_setup.h"

#include "../support/test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>

using namespace tstudio;
using namespace tstudio::project;

namespace {

std::filesystem::path projectsDir()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

const Registries& registries()
{
    static std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        return made ? std::move(*made) : nullptr;
    }();
    return *r;
}

std::vector<Override> overrides(const std::vector<std::pair<std::string, std::string>>& sets)
{
    std::vector<Override> out;
    for (const auto& [k, v] : sets)
        out.push_back({k, v});
    return out;
}

std::string prepareError(const std::string& file, const std::vector<std::pair<std::string, std::string>>& sets)
{
    auto p = loadProject(projectsDir() / file, overrides(sets));
    if (!p)
        return "load: " + p.error().message();
    auto prepared = prepareTraining(*p, registries().ops);
    return prepared ? std::string("(prepared)") : prepared.error().message();
}

std::unique_ptr<Session> startSession(const PreparedTraining& prepared)
{
    SessionOptions options;
    options.ops = &registries().ops;
    options.kernels = &registries().kernels;
    options.config.set_intra_op_parallelism_threads(1);
    auto session = std::make_unique<Session>(options);
    if (!session->create(prepared.graph).isOk())
        return nullptr;
    std::vector<Tensor> none;
    if (!session->run({}, {}, {prepared.initOp}, &none).isOk())
        return nullptr;
    return session;
}

/// One training step; the loss of the batch, or NaN on error (with the message in `error`).
float trainStep(Session& session, PreparedTraining& prepared, std::string* error)
{
    auto feeds = prepared.nextFeeds();
    if (!feeds) {
        *error = feeds.error().toString();
        return NAN;
    }
    std::vector<Tensor> out;
    const Status s = session.run(*feeds, {prepared.loss}, {prepared.trainOp}, &out);
    if (!s.isOk()) {
        *error = s.toString();
        return NAN;
    }
    return out.front().scalar<float>();
}

std::vector<float> fetchFloats(Session& session, const std::string& tensor)
{
    std::vector<Tensor> out;
    if (!session.run({}, {tensor}, {}, &out).isOk())
        return {};
    const auto values = out.front().values<float>();
    return {values.begin(), values.end()};
}

/// y = 2 x0 - 3 x1 + 1 as a regression: placeholders x [?,2] and y [?], variables w [2], b [] and
/// "frozen" [] (the loss uses it; trainable only when `frozenTrainable`), an "unused" variable the
/// loss does not depend on, loss = mean((sum(x * w, 1) + b + 0 * frozen - y)^2) named "loss".
Expected<tensorflow::MetaGraphDef> regression(bool frozenTrainable)
{
    GraphBuilder b(registries().ops);
    auto x = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 2}), "x");
    auto y = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1}), "y");
    auto w = getVariable(b, "w", TensorShape({2}), tensorflow::DT_FLOAT, Initializer::zeros());
    auto bias = getVariable(b, "b", TensorShape::scalar(), tensorflow::DT_FLOAT, Initializer::zeros());
    auto frozen = getVariable(b, "frozen", TensorShape::scalar(), tensorflow::DT_FLOAT, Initializer::constant(0.5),
                              frozenTrainable);
    auto unused = getVariable(b, "unused", TensorShape::scalar(), tensorflow::DT_FLOAT, Initializer::constant(5.0));
    if (!x || !y || !w || !bias || !frozen || !unused)
        return unexpected(internalError("building the regression graph failed"));
    auto xw = ops::mul(b, *x, w->value());
    auto axis = ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "axis");
    auto s = ops::sum(b, *xw, *axis);
    auto pred = ops::add(b, *s, bias->value());
    auto zero = ops::constant(b, 0.0);
    auto scaled = ops::mul(b, *zero, frozen->value());
    auto pred2 = ops::add(b, *pred, *scaled);
    auto diff = ops::sub(b, *pred2, *y);
    auto sq = ops::square(b, *diff);
    auto axes = ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "axes");
    auto loss = ops::firstOutput(b.op("Mean", {*sq, *axes}, {}, "loss"));
    if (!loss)
        return unexpected(loss.error());
    return exportMetaGraph(b);
}

std::string regressionCsv(int rows)
{
    std::string text = "x0,x1,y\n";
    for (int i = 0; i < rows; ++i) {
        const double x0 = std::sin(i * 0.7), x1 = std::cos(i * 1.3);
        text += std::to_string(x0) + "," + std::to_string(x1) + "," + std::to_string(2 * x0 - 3 * x1 + 1) + "\n";
    }
    return text;
}


/// x [?,3] -> `body` -> MSE with y [?,1] (scope "mse") named "loss", as a MetaGraphDef.
Expected<tensorflow::MetaGraphDef> regressionOf(const std::function<Expected<Output>(GraphBuilder&, const Output&)>& body)
{
    GraphBuilder b(registries().ops);
    TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 3}), "x"));
    TSTUDIO_TRY(y, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 1}), "y"));
    TSTUDIO_TRY(prediction, body(b, x));
    losses::LossOptions options;
    options.scope = "mse";
    TSTUDIO_TRY(loss, losses::meanSquaredError(b, y, prediction, options));
    TSTUDIO_TRY(named, ops::identity(b, loss, "loss"));
    (void)named;
    return exportMetaGraph(b);
}

/// tf.layers.batch_normalization(momentum 0.9, training=True) -> dense(1): the moving statistics
/// are updated by UPDATE_OPS only (nothing else runs them), as in a TensorFlow graph whose author
/// forgot nothing.
Expected<tensorflow::MetaGraphDef> batchNormRegression()
{
    return regressionOf([](GraphBuilder& b, const Output& x) -> Expected<Output> {
        layers::BatchNormalizationOptions bn;
        bn.momentum = 0.9;
        TSTUDIO_TRY(normalised, layers::batchNormalization(b, x, bn, true));
        layers::DenseOptions dense;
        dense.units = 1;
        return layers::dense(b, normalised, dense);
    });
}

/// layer1 (dense 4, relu) -> layer2 (dense 1).
Expected<tensorflow::MetaGraphDef> twoLayerRegression()
{
    return regressionOf([](GraphBuilder& b, const Output& x) -> Expected<Output> {
        layers::DenseOptions first;
        first.units = 4;
        first.activation = layers::Activation::kRelu;
        first.name = "layer1";
        TSTUDIO_TRY(hidden, layers::dense(b, x, first));
        layers::DenseOptions second;
        second.units = 1;
        second.name = "layer2";
        return layers::dense(b, hidden, second);
    });
}

/// Values i * step + offset in the given shape.
Tensor ramp(Allocator& allocator, const TensorShape& shape, float offset, float step)
{
    std::vector<float> values(static_cast<std::size_t>(shape.numElements().value()));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = offset + step * static_cast<float>(i);
    return Tensor::fromVector<float>(allocator, shape, values).value();
}

std::filesystem::path updateOpsGolden()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "tests" / "data" / "golden" / "update_ops";
}

} // namespace

class TestTrainingSetup : public QObject {
    Q_OBJECT
private slots:
    void warmStartAndVarList()
    {
        // A checkpoint the test writes: the two layers' variables, and "old/kernel" to rename from.
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        CpuAllocator allocator;
        const std::map<std::string, Tensor> saved = {
            {"layer1/kernel", ramp(allocator, TensorShape({3, 4}), -0.5f, 0.1f)},
            {"layer1/bias", ramp(allocator, TensorShape({4}), 0.05f, 0.01f)},
            {"layer2/kernel", ramp(allocator, TensorShape({4, 1}), 0.3f, -0.2f)},
            {"layer2/bias", ramp(allocator, TensorShape({1}), 0.7f, 0.0f)},
            {"old/kernel", ramp(allocator, TensorShape({4, 1}), -1.0f, 0.25f)},
            {"wrong/kernel", ramp(allocator, TensorShape({3, 1}), 0.0f, 1.0f)}};
        std::filesystem::create_directories(root / "pretrained");
        {
            auto writer = TensorBundleWriter::create((root / "pretrained" / "model.ckpt-7").string());
            QVERIFY(writer);
            for (const auto& [name, tensor] : saved)
                QVERIFY((*writer)->add(name, tensor).isOk());
            QVERIFY((*writer)->finish().isOk());
        }
        QVERIFY(testing::writeFile(dir.path() + "/pretrained/checkpoint", "model_checkpoint_path: \"model.ckpt-7\"\n"));
        auto meta = twoLayerRegression();
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().toString().c_str());
        QVERIFY(writeMetaGraphFile(root / "model.meta", *meta).isOk());
        auto project = [&](const nlohmann::json& extra) {
            nlohmann::json training = {{"loss", "loss:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.1}}}};
            for (const auto& [key, value] : extra.items())
                training[key] = value;
            nlohmann::json doc = {
                {"format", "tensorstudio-project"},
                {"version", 1},
                {"graph", {{"file", "model.meta"}}},
                {"data",
                 {{"sources",
                   {{{"type", "numpy"},
                     {"files", {(updateOpsGolden() / "x.npy").string(), (updateOpsGolden() / "y.npy").string()}},
                     {"feeds", {{"x", "x"}, {"y", "y"}}}}}}}},
                {"training", training},
                {"batch_size", 8}};
            return writeFileAtomically(root / "warm.tsproj", doc.dump()).isOk() ? loadProject(root / "warm.tsproj")
                                                                                  : Expected<Project>(unexpected(internalError("write")));
        };
        auto bits = [](const std::vector<float>& v) { return QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<int>(v.size() * sizeof(float))); };
        auto savedBits = [&](const std::string& name) {
            const auto values = saved.at(name).values<float>();
            return bits(std::vector<float>(values.begin(), values.end()));
        };

        // Everything warm-started from the directory's latest; only layer2 trains (var_list), and
        // layer2/kernel is read from "old/kernel".
        auto p = project({{"var_list", "layer2"},
                          {"warm_start",
                           {{"ckpt_to_initialize_from", "pretrained"},
                            {"var_name_to_prev_var_name", {{"layer2/kernel", "old/kernel"}}}}}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
        QCOMPARE(prepared->warmStarted, (std::vector<std::string>{"layer1/kernel", "layer1/bias", "layer2/kernel", "layer2/bias"}));
        auto session = startSession(*prepared);
        QVERIFY(session);
        QCOMPARE(bits(fetchFloats(*session, "layer1/kernel/read:0")), savedBits("layer1/kernel"));
        QCOMPARE(bits(fetchFloats(*session, "layer1/bias/read:0")), savedBits("layer1/bias"));
        QCOMPARE(bits(fetchFloats(*session, "layer2/kernel/read:0")), savedBits("old/kernel"));
        QCOMPARE(bits(fetchFloats(*session, "layer2/bias/read:0")), savedBits("layer2/bias"));
        std::string error;
        for (int step = 0; step < 5; ++step)
            QVERIFY2(std::isfinite(trainStep(*session, *prepared, &error)), error.c_str());
        // layer1 did not train: bit-identical; layer2 did.
        QCOMPARE(bits(fetchFloats(*session, "layer1/kernel/read:0")), savedBits("layer1/kernel"));
        QCOMPARE(bits(fetchFloats(*session, "layer1/bias/read:0")), savedBits("layer1/bias"));
        QVERIFY(bits(fetchFloats(*session, "layer2/kernel/read:0")) != savedBits("old/kernel"));
        QVERIFY(bits(fetchFloats(*session, "layer2/bias/read:0")) != savedBits("layer2/bias"));
        // The project file keeps both keys.
        QVERIFY(p->training.varList && p->training.warmStart);
        QCOMPARE(p->training.warmStart->varNameToPrevVarName.at("layer2/kernel"), std::string("old/kernel"));

        // Bad settings name the key and what was expected.
        auto refused = [&](const nlohmann::json& extra) -> std::string {
            auto bad = project(extra);
            if (!bad)
                return bad.error().message();
            auto made = prepareTraining(*bad, registries().ops);
            return made ? std::string("(prepared)") : made.error().message();
        };
        auto expectError = [&](const nlohmann::json& extra, const std::string& part) {
            const std::string message = refused(extra);
            QVERIFY2(message.find(part) != std::string::npos, (message + " | expected: " + part).c_str());
        };
        expectError({{"var_list", "layer9"}}, "training.var_list: 'layer9' matches none of the trainable variables (layer1/kernel, layer1/bias, layer2/kernel, layer2/bias)");
        expectError({{"var_list", "(unclosed"}}, "training.var_list");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "nowhere"}}}}, "training.warm_start.ckpt_to_initialize_from: no checkpoint at 'nowhere'");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "pretrained"}, {"vars_to_warm_start", "layer3"}}}},
                    "training.warm_start.vars_to_warm_start: 'layer3' matches none of the trainable variables");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "pretrained"}, {"var_name_to_prev_var_name", {{"layer2/kernel", "missing/kernel"}}}}}},
                    "training.warm_start: variable 'layer2/kernel' is not in checkpoint");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "pretrained"}, {"var_name_to_prev_var_name", {{"layer2/kernel", "wrong/kernel"}}}}}},
                    "training.warm_start: variable 'layer2/kernel' is float32 [4,1] but the checkpoint's 'wrong/kernel' is float32 [3,1]");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "pretrained"}, {"var_name_to_prev_var_name", {{"nothing", "old/kernel"}}}}}},
                    "training.warm_start.var_name_to_prev_var_name: 'nothing' is not a trainable variable of the graph");
        expectError({{"warm_start", {{"ckpt_to_initialize_from", "pretrained"}, {"oops", 1}}}}, "training.warm_start");
    }
    void batchNormUpdatesRunWithTheTrainOp()
    {
        // The moving statistics after five steps: TensorFlow's update rule applied by NumPy to the
        // same five batches (tools/golden/update_ops.py); the graph given as a plain GraphDef (the
        // updates found by TensorFlow's names) and as a MetaGraphDef (its update_ops collection).
        CpuAllocator allocator;
        auto expectedMean = readNpy(updateOpsGolden() / "moving_mean.npy", allocator);
        auto expectedVariance = readNpy(updateOpsGolden() / "moving_variance.npy", allocator);
        QVERIFY(expectedMean && expectedVariance);
        auto meta = batchNormRegression();
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().toString().c_str());
        for (const bool asMeta : {false, true}) {
            QTemporaryDir dir;
            const std::filesystem::path root(dir.path().toStdString());
            nlohmann::json graph;
            if (asMeta) {
                QVERIFY(writeMetaGraphFile(root / "model.meta", *meta).isOk());
                graph = {{"file", "model.meta"}};
            } else {
                auto pbtxt = serializeGraphDef(meta->graph_def(), GraphDefFormat::kText);
                QVERIFY(pbtxt.has_value());
                graph = {{"pbtxt", *pbtxt}};
            }
            nlohmann::json doc = {
                {"format", "tensorstudio-project"},
                {"version", 1},
                {"graph", graph},
                {"data",
                 {{"sources",
                   {{{"type", "numpy"},
                     {"files", {(updateOpsGolden() / "x.npy").string(), (updateOpsGolden() / "y.npy").string()}},
                     {"shuffle_buffer", 1},
                     {"feeds", {{"x", "x"}, {"y", "y"}}}}}}}},
                {"training", {{"loss", "loss:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.1}}}}},
                {"batch_size", 8}};
            QVERIFY(writeFileAtomically(root / "bn.tsproj", doc.dump()).isOk());
            auto p = loadProject(root / "bn.tsproj");
            QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
            auto prepared = prepareTraining(*p, registries().ops);
            QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
            QCOMPARE(prepared->updateOps, std::size_t{2}); // AssignMovingAvg, AssignMovingAvg_1
            auto session = startSession(*prepared);
            QVERIFY(session);
            std::string error;
            for (int step = 0; step < 5; ++step)
                QVERIFY2(std::isfinite(trainStep(*session, *prepared, &error)), error.c_str());
            const std::vector<float> mean = fetchFloats(*session, "batch_normalization/moving_mean/read:0");
            const std::vector<float> variance = fetchFloats(*session, "batch_normalization/moving_variance/read:0");
            QCOMPARE(mean.size(), std::size_t{3});
            QCOMPARE(variance.size(), std::size_t{3});
            for (std::size_t k = 0; k < 3; ++k) {
                const float m = expectedMean->values<float>()[k], v = expectedVariance->values<float>()[k];
                QVERIFY2(std::abs(mean[k] - m) <= 1e-5f * std::abs(m), qPrintable(QStringLiteral("mean[%1] %2, NumPy %3").arg(k).arg(mean[k]).arg(m)));
                QVERIFY2(std::abs(variance[k] - v) <= 1e-5f * std::abs(v), qPrintable(QStringLiteral("variance[%1] %2, NumPy %3").arg(k).arg(variance[k]).arg(v)));
            }
        }
    }
    void spiralsProjectTrains()
    {
        auto p = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(p.has_value());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
        QCOMPARE(prepared->trainOp, std::string("Adam"));
        QCOMPARE(prepared->loss, std::string("sparse_softmax_cross_entropy_loss/value:0"));
        QCOMPARE(prepared->globalStep, std::string("global_step/read:0"));
        QCOMPARE(prepared->initOp, std::string("init"));
        QCOMPARE(prepared->collections.at("trainable_variables").bytes_list().value_size(), 6);
        QCOMPARE(prepared->collections.at("global_step").bytes_list().value_size(), 1);
        QVERIFY(!prepared->saverDef.has_value());
        auto session = startSession(*prepared);
        QVERIFY(session);
        std::vector<float> losses;
        std::string error;
        for (int step = 0; step < 200; ++step) {
            losses.push_back(trainStep(*session, *prepared, &error));
            QVERIFY2(std::isfinite(losses.back()), error.c_str());
        }
        const float first = std::accumulate(losses.begin(), losses.begin() + 10, 0.0f) / 10;
        const float last = std::accumulate(losses.end() - 10, losses.end(), 0.0f) / 10;
        qInfo("spirals: mean loss of steps 1-10 %.4f, of steps 191-200 %.4f", first, last);
        QVERIFY2(first > 0.6f, "an untrained 2-class network starts near ln 2");
        QVERIFY2(last < 0.15f, "200 Adam steps bring the loss far below the linear plateau (about 0.08 today)");
        std::vector<Tensor> step;
        QVERIFY(session->run({}, {prepared->globalStep}, {}, &step).isOk());
        QCOMPARE(step.front().scalar<std::int64_t>(), std::int64_t{200});
    }

    void mnistProjectsNeedTheDataDir()
    {
        QCOMPARE(prepareError("book-mnist.tsproj", {}),
                 std::string("book-mnist.tsproj: data.sources[0] (mnist): data.dir: not set; it must name a folder "
                             "holding t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz]"));
        QTemporaryDir empty;
        QCOMPARE(prepareError("lenet.tsproj", {{"data.dir", empty.path().toStdString()}}),
                 "lenet.tsproj: data.sources[0] (mnist): data.dir: directory '" + empty.path().toStdString() +
                     "' has no t10k-images-idx3-ubyte[.gz]");
    }

    void mnistProjectsPrepareAndStep()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty() || !QFileInfo::exists(fixtures + "/mnist/t10k-images-idx3-ubyte.gz"))
            QSKIP("MNIST fixtures (fixtures/mnist/t10k-*.gz) are not available");
        const std::string dir = (fixtures + "/mnist").toStdString();
        for (const char* file : {"book-mnist.tsproj", "lenet.tsproj"}) {
            auto p = loadProject(projectsDir() / file, overrides({{"data.dir", dir}}));
            QVERIFY(p.has_value());
            auto prepared = prepareTraining(*p, registries().ops);
            QVERIFY2(prepared.has_value(), prepared ? file : prepared.error().toString().c_str());
            auto session = startSession(*prepared);
            QVERIFY(session);
            std::string error;
            for (int step = 0; step < 3; ++step)
                QVERIFY2(std::isfinite(trainStep(*session, *prepared, &error)), error.c_str());
            std::vector<Tensor> step;
            QVERIFY(session->run({}, {prepared->globalStep}, {}, &step).isOk());
            QCOMPARE(step.front().dtype() == tensorflow::DT_INT32 ? std::int64_t{step.front().scalar<std::int32_t>()}
                                                                  : step.front().scalar<std::int64_t>(),
                     std::int64_t{3});
        }
        // Unscaled images are uint8, which the float placeholder refuses; one-hot labels are float [10].
        QCOMPARE(prepareError("lenet.tsproj", {{"data.dir", dir}, {"data.sources.0.scale", "false"}}),
                 std::string("lenet.tsproj: data.sources[0].feeds.inputs: placeholder 'inputs' expects float [?,784] "
                             "but the source gives uint8 [?,784]"));
        QCOMPARE(prepareError("lenet.tsproj", {{"data.dir", dir}, {"data.sources.0.labels", "one_hot"}}),
                 std::string("lenet.tsproj: data.sources[0].feeds.labels: placeholder 'labels' expects int64 [?] but "
                             "the source gives float [?,10]"));
        QCOMPARE(prepareError("lenet.tsproj", {{"data.dir", dir}, {"data.sources.0.set", "train"}}),
                 "lenet.tsproj: data.sources[0] (mnist): data.dir: directory '" + dir + "' has no train-images-idx3-ubyte[.gz]");
        // The split asks for more examples than t10k holds.
        QCOMPARE(prepareError("lenet.tsproj", {{"data.dir", dir}, {"data.sources.0.skip", "9000"}}),
                 std::string("lenet.tsproj: data.sources[0] (mnist): skip 9000 and take 8000 ask for examples 9000 to "
                             "16999 but the files hold 10000"));
    }

    void namesAreCheckedAgainstTheGraph()
    {
        QCOMPARE(prepareError("spirals.tsproj", {{"training.loss", "loss:0"}}),
                 std::string("spirals.tsproj: training.loss: 'loss:0' is not in the graph"));
        QCOMPARE(prepareError("spirals.tsproj", {{"training.loss", "inputs"}}),
                 std::string("spirals.tsproj: training.loss: 'inputs:0' depends on no floating-point variable; there "
                             "is nothing to train"));
        QCOMPARE(prepareError("spirals.tsproj", {{"training.loss", "labels"}}),
                 std::string("spirals.tsproj: training.loss: 'labels:0' is int64; a loss must be floating-point"));
        QCOMPARE(prepareError("spirals.tsproj", {{"training.optimizer", "null"}, {"training.train_op", "train"}}),
                 std::string("spirals.tsproj: training.train_op: 'train' is not in the graph"));
        QCOMPARE(
            prepareError("spirals.tsproj", {{"training.optimizer", "null"}, {"training.train_op", "accuracy/Mean"}}),
            std::string("spirals.tsproj: training.global_step: the graph has no global step (no \"global_step\" "
                        "variable); name the step's tensor"));
        QCOMPARE(prepareError("spirals.tsproj", {{"training.global_step", "inputs"}}),
                 std::string("spirals.tsproj: training.global_step: 'inputs:0' is not the value of a variable of the "
                             "graph"));
        QCOMPARE(prepareError("spirals.tsproj", {{"training.init_op", "init"}}),
                 std::string("spirals.tsproj: training.init_op: 'init' is not in the graph"));
        QCOMPARE(
            prepareError("spirals.tsproj", {{"graph.file", "missing.pbtxt"}}).rfind("spirals.tsproj: graph.file: ", 0),
            std::size_t{0});
        const std::string notAGraph = prepareError("spirals.tsproj", {{"graph.file", "spirals.tsproj"}});
        QVERIFY2(notAGraph.starts_with("spirals.tsproj: graph.file: '" + (projectsDir() / "spirals.tsproj").string() +
                                       "' holds "),
                 notAGraph.c_str());
        QVERIFY2(notAGraph.ends_with(", not a GraphDef or MetaGraphDef"), notAGraph.c_str());
    }

    void feedsAreCheckedAgainstPlaceholders()
    {
        QCOMPARE(prepareError("spirals.tsproj", {{"data.sources.0.labels", "one_hot"}}),
                 std::string("spirals.tsproj: data.sources[0].feeds.labels: placeholder 'labels' expects int64 [?] but "
                             "the source gives float [?,2]"));
        QCOMPARE(
            prepareError("spirals.tsproj", {{"data.sources.0.feeds", R"({"inputs": "labels", "labels": "labels"})"}}),
            std::string("spirals.tsproj: data.sources[0].feeds.inputs: placeholder 'inputs' expects float [?,2] "
                        "but the source gives int64 [?]"));
        QCOMPARE(prepareError("spirals.tsproj", {{"data.sources.0.feeds", R"({"x": "points"})"}}),
                 std::string("spirals.tsproj: data.sources[0].feeds.x: 'x' is not in the graph"));
        QCOMPARE(
            prepareError("spirals.tsproj", {{"data.sources.0.feeds", R"({"dense/kernel": "points"})"}}),
            std::string("spirals.tsproj: data.sources[0].feeds.dense/kernel: 'dense/kernel' is a VariableV2, not a "
                        "placeholder"));
        QCOMPARE(prepareError("spirals.tsproj", {{"data.sources.0.feeds", R"({"inputs": ["points", "labels"]})"}}),
                 std::string("spirals.tsproj: data.sources[0].feeds.inputs: only scalar components can be stacked; "
                             "'points' is float [2]"));
        auto p = loadProject(projectsDir() / "spirals.tsproj");
        QVERIFY(p.has_value());
        p->sources.push_back(p->sources.front());
        auto twice = prepareTraining(*p, registries().ops);
        QVERIFY(!twice.has_value());
        QCOMPARE(twice.error().message(),
                 std::string("spirals.tsproj: data.sources[1].feeds.inputs: 'inputs:0' is fed by data.sources[0] too"));
    }

    void plainGraphDefWithCsvTrainsTheLossVariables()
    {
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        QVERIFY(testing::writeFile(dir.path() + "/data/points.csv", regressionCsv(64)));
        auto meta = regression(true);
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().toString().c_str());
        auto pbtxt = serializeGraphDef(meta->graph_def(), GraphDefFormat::kText);
        QVERIFY(pbtxt.has_value());
        nlohmann::json doc = {{"format", "tensorstudio-project"},
                              {"version", 1},
                              {"graph", {{"pbtxt", *pbtxt}}},
                              {"data",
                               {{"dir", "data"},
                                {"sources",
                                 {{{"type", "csv"},
                                   {"files", {"points.csv"}},
                                   {"header", true},
                                   {"columns",
                                    {{{"name", "x0"}, {"dtype", "float32"}},
                                     {{"name", "x1"}, {"dtype", "float32"}},
                                     {{"name", "y"}, {"dtype", "float32"}}}},
                                   {"feeds", {{"x", {"x0", "x1"}}, {"y", "y"}}}}}}}},
                              {"training",
                               {{"loss", "loss"},
                                {"optimizer",
                                 {{"type", "GradientDescent"},
                                  {"learning_rate",
                                   {{"schedule", "exponential_decay"},
                                    {"learning_rate", 0.2},
                                    {"decay_steps", 100},
                                    {"decay_rate", 0.9}}}}},
                                {"clip_by_global_norm", 5.0}}},
                              {"batch_size", 16}};
        QVERIFY(writeFileAtomically(root / "regression.tsproj", doc.dump()).isOk());
        auto p = loadProject(root / "regression.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
        QCOMPARE(prepared->trainOp, std::string("GradientDescent"));
        QCOMPARE(prepared->loss, std::string("loss:0"));
        // A plain GraphDef: the trainable variables are the float variables the loss depends on.
        QCOMPARE(prepared->collections.at("trainable_variables").bytes_list().value_size(), 3);
        bool clipped = false, decayed = false;
        for (const auto& node : prepared->graph.node()) {
            clipped |= node.name() == "clip_by_global_norm/clip_by_global_norm/_0";
            decayed |= node.name() == "ExponentialDecay";
        }
        QVERIFY(clipped);
        QVERIFY(decayed);
        auto session = startSession(*prepared);
        QVERIFY(session);
        std::string error;
        float first = 0, last = 0;
        for (int step = 0; step < 300; ++step) {
            const float loss = trainStep(*session, *prepared, &error);
            QVERIFY2(std::isfinite(loss), error.c_str());
            (step == 0 ? first : last) = loss;
        }
        qInfo("regression from CSV: loss %.5f -> %.6f", first, last);
        QVERIFY(last < 1e-3f * first);
        const std::vector<float> w = fetchFloats(*session, "w/read:0");
        QCOMPARE(w.size(), std::size_t{2});
        QVERIFY(std::abs(w[0] - 2.0f) < 0.05f && std::abs(w[1] + 3.0f) < 0.05f);
        QCOMPARE(fetchFloats(*session, "unused/read:0"), std::vector<float>{5.0f});
    }

    void metaGraphWithTfRecordKeepsItsTrainableCollection()
    {
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        auto meta = regression(false);
        QVERIFY(meta.has_value());
        QVERIFY(writeMetaGraphFile(root / "model.meta", *meta).isOk());
        std::string records;
        for (int i = 0; i < 32; ++i) {
            tensorflow::Example example;
            auto& features = *example.mutable_features()->mutable_feature();
            const float x0 = static_cast<float>(std::sin(i * 0.7)), x1 = static_cast<float>(std::cos(i * 1.3));
            features["point"].mutable_float_list()->add_value(x0);
            features["point"].mutable_float_list()->add_value(x1);
            features["target"].mutable_float_list()->add_value(2 * x0 - 3 * x1 + 1);
            records += testing::frameRecord(example.SerializeAsString());
        }
        QVERIFY(testing::writeFile(dir.path() + "/train.tfrecord", records));
        nlohmann::json doc = {
            {"format", "tensorstudio-project"},
            {"version", 1},
            {"graph", {{"file", "model.meta"}}},
            {"data",
             {{"sources",
               {{{"type", "tfrecord"},
                 {"files", {"train.tfrecord"}},
                 {"features", {{"point", {{"dtype", "float32"}, {"shape", {2}}}}, {"target", {{"dtype", "float32"}}}}},
                 {"feeds", {{"x", "point"}, {"y", "target"}}}}}}}},
            {"training",
             {{"loss", "loss:0"}, {"optimizer", {{"type", "Momentum"}, {"learning_rate", 0.05}, {"momentum", 0.5}}}}},
            {"batch_size", 8}};
        QVERIFY(writeFileAtomically(root / "meta.tsproj", doc.dump()).isOk());
        auto p = loadProject(root / "meta.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
        QCOMPARE(prepared->trainOp, std::string("Momentum"));
        // The MetaGraphDef says which variables are trainable: w, b and unused (not frozen).
        QCOMPARE(prepared->collections.at("trainable_variables").bytes_list().value_size(), 3);
        auto session = startSession(*prepared);
        QVERIFY(session);
        std::string error;
        float first = 0, last = 0;
        for (int step = 0; step < 200; ++step) {
            const float loss = trainStep(*session, *prepared, &error);
            QVERIFY2(std::isfinite(loss), error.c_str());
            (step == 0 ? first : last) = loss;
        }
        qInfo("regression from TFRecord: loss %.5f -> %.6f", first, last);
        QVERIFY(last < 1e-2f * first);
        QCOMPARE(fetchFloats(*session, "frozen/read:0"), std::vector<float>{0.5f});
        QCOMPARE(fetchFloats(*session, "unused/read:0"), std::vector<float>{5.0f});
    }

    /// A MetaGraphDef whose model runs a tf.while_loop (three damped steps of a linear map) trains:
    /// the loop's while_context is rebuilt on import, so tf.gradients goes through the loop.
    void metaGraphWithAWhileLoopTrains()
    {
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        auto meta = regressionOf([](GraphBuilder& b, const Output& x) -> Expected<Output> {
            TSTUDIO_TRY(w, getVariable(b, "w", TensorShape({3, 1}), tensorflow::DT_FLOAT, Initializer::zeros()));
            TSTUDIO_TRY(xw, ops::matMul(b, x, w.value()));
            TSTUDIO_TRY(i0, ops::constant(b, 0));
            auto cond = [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                TSTUDIO_TRY(three, ops::constant(g, 3));
                return ops::firstOutput(g.op("Less", {v[0], three}));
            };
            auto body = [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(one, ops::constant(g, 1));
                TSTUDIO_TRY(next, ops::add(g, v[0], one));
                TSTUDIO_TRY(half, ops::constant(g, 0.5f));
                TSTUDIO_TRY(damped, ops::mul(g, v[1], half));
                TSTUDIO_TRY(sum, ops::add(g, damped, v[2]));
                return std::vector<Output>{next, sum, v[2]};
            };
            // p <- p / 2 + xw, three times from p = xw: p = xw * (1 + 1/2 + 1/4 + 1/8).
            TSTUDIO_TRY(loop, whileLoop(b, cond, body, {i0, xw, xw}));
            return loop[1];
        });
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().toString().c_str());
        QVERIFY(meta->collection_def().count("while_context") == 1);
        QVERIFY(writeMetaGraphFile(root / "loop.meta", *meta).isOk());
        nlohmann::json doc = {
            {"format", "tensorstudio-project"},
            {"version", 1},
            {"graph", {{"file", "loop.meta"}}},
            {"data",
             {{"sources",
               {{{"type", "numpy"},
                 {"files", {(updateOpsGolden() / "x.npy").string(), (updateOpsGolden() / "y.npy").string()}},
                 {"feeds", {{"x", "x"}, {"y", "y"}}}}}}}},
            {"training", {{"loss", "loss:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.01}}}}},
            {"batch_size", 8}};
        QVERIFY(writeFileAtomically(root / "loop.tsproj", doc.dump()).isOk());
        auto p = loadProject(root / "loop.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY2(prepared.has_value(), prepared ? "" : prepared.error().toString().c_str());
        auto session = startSession(*prepared);
        QVERIFY(session);
        std::string error;
        float first = 0, last = 0;
        for (int step = 0; step < 200; ++step) {
            const float loss = trainStep(*session, *prepared, &error);
            QVERIFY2(std::isfinite(loss), error.c_str());
            (step == 0 ? first : last) = loss;
        }
        qInfo("regression through a while loop: loss %.5f -> %.6f", first, last);
        QVERIFY(last < 0.5f * first);
        // The weights moved: their gradient came through the loop (x w scaled by 1.875).
        const std::vector<float> w = fetchFloats(*session, "w/read:0");
        QCOMPARE(w.size(), std::size_t{3});
        QVERIFY(std::any_of(w.begin(), w.end(), [](float v) { return std::abs(v) > 1e-3f; }));
    }

    void sourceErrorsNameTheSource()
    {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        QVERIFY(testing::writeFile(dir.path() + "/mixed.csv", "1,0.5\n2,1.5\n"));
        QVERIFY(testing::writeFile(dir.path() + "/bad.csv", "1,0.5\nx,1.5\n"));
        const std::string csvSource =
            R"({"type": "csv", "files": ["FILE"], "columns": [{"name": "a", "dtype": "int64"}, {"name": "b", "dtype": "float32"}], "feeds": {"inputs": ["a", "b"]}})";
        auto withFile = [&](std::string source, const std::string& file) {
            source.replace(source.find("FILE"), 4, file);
            return source;
        };
        QCOMPARE(
            prepareError("spirals.tsproj", {{"data.dir", d}, {"data.sources.0", withFile(csvSource, "mixed.csv")}}),
            std::string("spirals.tsproj: data.sources[0].feeds.inputs: stacked components must share a dtype; "
                        "'b' is float but 'a' is int64"));
        QCOMPARE(prepareError("spirals.tsproj", {{"data.dir", d}, {"data.sources.0", withFile(csvSource, "bad.csv")}}),
                 std::string("spirals.tsproj: data.sources[0] (csv): Field 0 in record 1 is not a valid int64: x"));
        const std::string missing =
            prepareError("spirals.tsproj", {{"data.dir", d}, {"data.sources.0", withFile(csvSource, "none.csv")}});
        QVERIFY2(missing.starts_with("spirals.tsproj: data.sources[0] (csv): ") &&
                     missing.find(d + "/none.csv") != std::string::npos,
                 missing.c_str());
        const std::string recordSource =
            R"({"type": "tfrecord", "files": ["FILE"], "features": {"x": {"dtype": "float32", "shape": [2], "default": [1]}}, "feeds": {"inputs": "x"}})";
        QCOMPARE(
            prepareError("spirals.tsproj", {{"data.dir", d}, {"data.sources.0", withFile(recordSource, "no.rec")}}),
            std::string("spirals.tsproj: data.sources[0].features.x.default: expected 2 values for shape [2], "
                        "got 1"));
        std::string twoDefaults = withFile(recordSource, "no.rec");
        twoDefaults.replace(twoDefaults.find("[1]"), 3, "[1, 2]");
        QCOMPARE(prepareError("spirals.tsproj", {{"data.dir", d}, {"data.sources.0", twoDefaults}}),
                 "spirals.tsproj: data.sources[0] (tfrecord): no file '" + d + "/no.rec'");
    }

    void builderImportsAGraphDef()
    {
        auto meta = regression(true);
        QVERIFY(meta.has_value());
        GraphBuilder b(registries().ops);
        tensorflow::GraphDef graph = meta->graph_def();
        auto init = b.op("NoOp", {}, {}, "init"); // builder not empty now
        QVERIFY(init.has_value());
        const Status notEmpty = b.importGraphDef(graph);
        QCOMPARE(notEmpty.code(), StatusCode::kFailedPrecondition);

        GraphBuilder fresh(registries().ops);
        for (auto& node : *graph.mutable_node())
            node.clear_attr(); // stripped defaults come back; shapes are re-inferred
        auto copy = meta->graph_def();
        QVERIFY(fresh.importGraphDef(copy).isOk());
        auto loss = fresh.tensor("loss:0");
        QVERIFY(loss.has_value());
        QCOMPARE(loss->shape(), TensorShape::scalar());
        auto sum = fresh.tensor("Sum:0");
        QVERIFY(sum.has_value());
        QCOMPARE(sum->shape().toString(), std::string("[?]"));
        // Names stay taken: a new "loss" is "loss_1".
        auto again = fresh.op("NoOp", {}, {}, "loss");
        QVERIFY(again.has_value());
        QCOMPARE(again->name(), std::string("loss_1"));
        const std::vector<Variable> variables = graphVariables(fresh);
        QCOMPARE(variables.size(), std::size_t{4});
        QCOMPARE(variables.front().name(), std::string("w"));
        QCOMPARE(variables.front().value().name(), std::string("w/read:0"));
        QCOMPARE(variables.front().initializer().name(), std::string("w/Assign"));

        tensorflow::GraphDef unknownOp;
        auto* node = unknownOp.add_node();
        node->set_name("x");
        node->set_op("NoSuchOp");
        GraphBuilder third(registries().ops);
        const Status s = third.importGraphDef(unknownOp);
        QVERIFY(!s.isOk());
        QVERIFY2(s.message().starts_with("node 'x': "), s.message().c_str());
        QCOMPARE(third.nodeCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestTrainingSetup)
#include "test_training_setup.moc"
