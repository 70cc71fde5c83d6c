// Fine-tuning TensorFlow's own model (#26 point 4): the MNIST book network's MetaGraphDef trained by a
// project that warm-starts every layer from the book's 29001 checkpoint and trains only layer2
// (var_list) leaves layer1 bit-identical, fits the images it trains on better, and keeps its accuracy
// on held-out t10k images (the checkpoint is at its optimum there: see the test); on t10k images
// shifted by up to 4 pixels, where it has something to learn, it improves held-out accuracy; and
// transfer learning (layer1 warm-started, layer2 fresh) trains a new head on layer1's features.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "data/mnist.h"
#include "image_shift.h"
#include "io/atomic_file.h"
#include "io/npy.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "../support/test_files.h"

#include <QByteArray>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>

using namespace tstudio;
using namespace tstudio::project;
namespace tf = tensorflow;

namespace {

const Registries& registries()
{
    static std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        return made ? std::move(*made) : nullptr;
    }();
    return *r;
}

/// The book network's weights and biases (mnist_inference.py's variable names), as a checkpoint holds them.
const std::vector<std::string> kWeights{"layer1/weights", "layer1/biases", "layer2/weights", "layer2/biases"};

Expected<std::map<std::string, Tensor>> readWeights(const std::string& prefix, Allocator& allocator)
{
    TSTUDIO_TRY(reader, TensorBundleReader::open(prefix));
    std::map<std::string, Tensor> weights;
    for (const std::string& name : kWeights) {
        TSTUDIO_TRY(t, reader.read(name, allocator));
        weights.emplace(name, std::move(t));
    }
    return weights;
}

QByteArray bits(const Tensor& t)
{
    const auto v = t.values<float>();
    return QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<qsizetype>(v.size() * sizeof(float)));
}

/// How well a set of weights classifies some images.
struct Score {
    double accuracy = 0;     ///< the fraction whose argmax is the label
    double crossEntropy = 0; ///< the mean softmax cross entropy (no L2 penalty)
};

/// The Score of `weights` on `images` [n, 784] with `labels` (int64 [n]): relu(x . w1 + b1) . w2 + b2,
/// mnist_inference.py's forward pass, in a graph of its own that is fed the weights.
Expected<Score> score(const std::map<std::string, Tensor>& weights, const Tensor& images, const Tensor& labels)
{
    GraphBuilder b(registries().ops);
    TSTUDIO_TRY(x, ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 784}, "x"));
    TSTUDIO_TRY(y, ops::placeholder(b, tf::DT_INT64, TensorShape{-1}, "y"));
    std::map<std::string, Output> fed;
    for (const std::string& name : kWeights) {
        std::string placeholder = name;
        std::replace(placeholder.begin(), placeholder.end(), '/', '_');
        TSTUDIO_TRY(p, ops::placeholder(b, tf::DT_FLOAT, weights.at(name).shape(), placeholder));
        fed.emplace(name, p);
    }
    TSTUDIO_TRY(h, ops::matMul(b, x, fed.at("layer1/weights")));
    TSTUDIO_TRY(hb, ops::add(b, h, fed.at("layer1/biases")));
    TSTUDIO_TRY(hidden, ops::firstOutput(b.op("Relu", {hb}, {}, "relu")));
    TSTUDIO_TRY(l, ops::matMul(b, hidden, fed.at("layer2/weights")));
    TSTUDIO_TRY(logits, ops::add(b, l, fed.at("layer2/biases")));
    TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "axis"));
    TSTUDIO_TRY(predicted, ops::firstOutput(b.op("ArgMax", {logits, axis}, {}, "predicted")));
    TSTUDIO_TRY(xent, b.op("SparseSoftmaxCrossEntropyWithLogits", {logits, y}, {}, "xent"));
    TSTUDIO_TRY(batch, ops::constantInts(b, {0}, TensorShape{1}, tf::DT_INT32, "batch"));
    TSTUDIO_TRY(meanXent, ops::firstOutput(b.op("Mean", {xent.output(0), batch}, {}, "mean_xent")));

    SessionOptions options;
    options.ops = &registries().ops;
    options.kernels = &registries().kernels;
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);
    std::vector<std::pair<std::string, Tensor>> feeds{{"x", images}, {"y", labels}};
    for (const std::string& name : kWeights)
        feeds.emplace_back(fed.at(name).node(), weights.at(name));
    std::vector<Tensor> out;
    if (Status s = session.run(feeds, {predicted.name(), meanXent.name()}, {}, &out); !s.isOk())
        return unexpected(s);
    const auto guesses = out[0].values<std::int64_t>();
    const auto truth = labels.values<std::int64_t>();
    std::int64_t right = 0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        right += guesses[i] == truth[i] ? 1 : 0;
    return Score{static_cast<double>(right) / static_cast<double>(truth.size()), out[1].scalar<float>()};
}

/// The error of a failed score() as a C string for QVERIFY2 (valid until the next call).
const char* scoreError(const Expected<Score>& e)
{
    static std::string text;
    text = e ? "ok" : e.error().toString();
    return text.c_str();
}

/// Rows [from, from + count) of a float32 or int64 [n, ...] tensor.
Tensor rows(const Tensor& t, std::int64_t from, std::int64_t count, Allocator& allocator)
{
    std::vector<std::int64_t> dims{count};
    for (int d = 1; d < t.shape().rank(); ++d)
        dims.push_back(t.shape().dim(d));
    const std::int64_t rowSize = t.shape().rank() > 1 ? t.shape().numElements().value() / t.shape().dim(0) : 1;
    if (t.dtype() == tf::DT_FLOAT) {
        const auto v = t.values<float>();
        return Tensor::fromVector<float>(
                   allocator, TensorShape(dims),
                   std::vector<float>(v.begin() + from * rowSize, v.begin() + (from + count) * rowSize))
            .value();
    }
    const auto v = t.values<std::int64_t>();
    return Tensor::fromVector<std::int64_t>(
               allocator, TensorShape(dims),
               std::vector<std::int64_t>(v.begin() + from * rowSize, v.begin() + (from + count) * rowSize))
        .value();
}

/// The fixtures the tests read: the book's model and the t10k files, or nullopt when missing.
struct BookFixtures {
    QString book;  ///< tf1-mnist-book
    QString mnist; ///< mnist (t10k-*.gz)
    std::string checkpoint; ///< the 29001 prefix
};

std::optional<BookFixtures> bookFixtures()
{
    const QString fixtures = testing::fixturesDir();
    BookFixtures f{fixtures + "/tf1-mnist-book", fixtures + "/mnist", {}};
    if (fixtures.isEmpty() || !QFileInfo::exists(f.book + "/mnist_model-29001.meta") ||
        !QFileInfo::exists(f.book + "/mnist_model-29001.index") || !QFileInfo::exists(f.mnist + "/t10k-images-idx3-ubyte.gz"))
        return std::nullopt;
    f.checkpoint = (f.book + "/mnist_model-29001").toStdString();
    return f;
}

constexpr char kNoFixtures[] = "fixtures tf1-mnist-book (mnist_model-29001.*) and mnist (t10k-*.gz) are not available "
                               "(../shared/fixtures or $TSTUDIO_FIXTURES)";

/// A project around the book's .meta (loss "add:0", GradientDescent at `learningRate` over var_list
/// "layer2", `warmStart` as training.warm_start, `source` its one data source, batch 100, no hooks),
/// written to <root>/<name>.tsproj, loaded, and trained to `steps` into <root>/run on one thread.
Expected<TrainRunResult> trainBookProject(const std::filesystem::path& root, const std::string& name,
                                          const BookFixtures& f, const nlohmann::json& source, double learningRate,
                                          const nlohmann::json& warmStart, std::int64_t steps)
{
    const nlohmann::json doc = {
        {"format", "tensorstudio-project"},
        {"version", 1},
        {"graph", {{"file", (f.book + "/mnist_model-29001.meta").toStdString()}}},
        {"data", {{"sources", {source}}}},
        {"training",
         {{"loss", "add:0"},
          {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", learningRate}}},
          {"var_list", "layer2"},
          {"warm_start", warmStart}}},
        {"batch_size", 100},
        {"steps", steps},
        {"hooks", {{"checkpoint_every_secs", nullptr}, {"summary_every_steps", nullptr}, {"log_every_steps", nullptr}}},
        {"logdir", "run"}};
    if (Status s = writeFileAtomically(root / (name + ".tsproj"), doc.dump(2)); !s.isOk())
        return unexpected(s);
    auto project = loadProject(root / (name + ".tsproj"));
    if (!project)
        return unexpected(project.error());
    TrainRunOptions options;
    options.logdir = root / "run";
    options.threads = 1;
    return trainProject(*project, registries(), options);
}

/// The t10k images [0, 5000) of the fixture as an mnist source of one-hot labels.
nlohmann::json t10kSource(const BookFixtures& f)
{
    return {{"type", "mnist"},
            {"dir", f.mnist.toStdString()},
            {"set", "t10k"},
            {"skip", 0},
            {"take", 5000},
            {"labels", "one_hot"},
            {"scale", true},
            {"feeds", {{"x-input", "images"}, {"y-input", "labels"}}}};
}

} // namespace

class TestFineTune : public QObject {
    Q_OBJECT
private slots:
    /// The book model's graph (mnist_model-29001.meta) as the project's graph, its loss "add:0" (cross
    /// entropy plus the L2 penalties), a GradientDescent built with var_list "layer2", every trainable
    /// variable warm-started from the 29001 checkpoint, trained on t10k images [0, 5000). Held out:
    /// t10k images [5000, 10000), classified with the raw (not moving-average) weights before and after.
    ///
    /// Why held-out accuracy is not asserted to improve: the checkpoint is already at its optimum on
    /// this data. Measured with this set-up (GradientDescent, batch 100, learning rates 0.01 to 0.5,
    /// 100 to 1,000 steps): every run fits images 0-4999 better (cross entropy 0.0720 before, 0.0382
    /// to 0.0709 after), while held-out accuracy (0.9902 before) ends between 0.9904 (one image more,
    /// at rate 0.01) and 0.9876, and held-out cross entropy (0.0304 before) only rises, to 0.0304 ..
    /// 0.0382; training on images 5000-9999 and holding out 0-4999 behaves the same. So the test
    /// asserts what fine-tuning does here: layer1 untouched, the trained images fitted better,
    /// held-out accuracy kept.
    void fineTuningLayer2KeepsLayer1AndHeldOutAccuracy()
    {
        const auto fixtures = bookFixtures();
        if (!fixtures)
            QSKIP(kNoFixtures);
        const QString mnist = fixtures->mnist;
        const std::string checkpoint = fixtures->checkpoint;
        constexpr std::int64_t kSteps = 300; // three passes over the 5,000 images
        constexpr double kLearningRate = 0.05;
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());

        // Before: the checkpoint's own weights on the held-out images.
        CpuAllocator allocator;
        auto t10k = data::loadMnist((mnist + "/t10k-images-idx3-ubyte.gz").toStdString(),
                                    (mnist + "/t10k-labels-idx1-ubyte.gz").toStdString(), allocator);
        QVERIFY2(t10k.has_value(), t10k ? "" : t10k.error().toString().c_str());
        const Tensor heldImages = rows(t10k->images, 5000, 5000, allocator);
        const Tensor heldLabels = rows(t10k->labels, 5000, 5000, allocator);
        auto original = readWeights(checkpoint, allocator);
        QVERIFY2(original.has_value(), original ? "" : original.error().toString().c_str());
        const Tensor trainImages = rows(t10k->images, 0, 5000, allocator);
        const Tensor trainLabels = rows(t10k->labels, 0, 5000, allocator);
        auto heldBefore = score(*original, heldImages, heldLabels);
        auto trainBefore = score(*original, trainImages, trainLabels);
        QVERIFY2(heldBefore && trainBefore, scoreError(heldBefore ? trainBefore : heldBefore));

        auto run = trainBookProject(root, "fine_tune", *fixtures, t10kSource(*fixtures), kLearningRate,
                                    {{"ckpt_to_initialize_from", checkpoint}}, kSteps);
        QVERIFY2(run.has_value(), run ? "" : run.error().toString().c_str());
        QCOMPARE(run->lastStep, kSteps);
        QVERIFY(!run->restored);
        QVERIFY(!run->lastCheckpoint.empty());

        auto tuned = readWeights(run->lastCheckpoint, allocator);
        QVERIFY2(tuned.has_value(), tuned ? "" : tuned.error().toString().c_str());
        // layer1 did not train: bit-identical to TensorFlow's checkpoint; layer2 did.
        QCOMPARE(bits(tuned->at("layer1/weights")), bits(original->at("layer1/weights")));
        QCOMPARE(bits(tuned->at("layer1/biases")), bits(original->at("layer1/biases")));
        QVERIFY(bits(tuned->at("layer2/weights")) != bits(original->at("layer2/weights")));
        QVERIFY(bits(tuned->at("layer2/biases")) != bits(original->at("layer2/biases")));

        auto heldAfter = score(*tuned, heldImages, heldLabels);
        auto trainAfter = score(*tuned, trainImages, trainLabels);
        QVERIFY2(heldAfter && trainAfter, scoreError(heldAfter ? trainAfter : heldAfter));
        qInfo("t10k images 0-4999 (trained on): accuracy %.4f -> %.4f, cross entropy %.5f -> %.5f",
              trainBefore->accuracy, trainAfter->accuracy, trainBefore->crossEntropy, trainAfter->crossEntropy);
        qInfo("t10k images 5000-9999 (held out): accuracy %.4f -> %.4f, cross entropy %.5f -> %.5f",
              heldBefore->accuracy, heldAfter->accuracy, heldBefore->crossEntropy, heldAfter->crossEntropy);
        QVERIFY2(heldBefore->accuracy > 0.98,
                 qPrintable(QString::number(heldBefore->accuracy))); // the trained book model
        // Measured: 0.07197 -> 0.06244 on the trained images, 0.9902 -> 0.9898 held out (2 images of 5,000).
        QVERIFY2(trainAfter->crossEntropy < trainBefore->crossEntropy - 0.005,
                 qPrintable(QStringLiteral("%1 -> %2").arg(trainBefore->crossEntropy).arg(trainAfter->crossEntropy)));
        QVERIFY2(heldAfter->accuracy >= heldBefore->accuracy - 0.002,
                 qPrintable(QStringLiteral("%1 -> %2").arg(heldBefore->accuracy).arg(heldAfter->accuracy)));
    }

    /// Transfer learning from the same checkpoint: layer1 warm-started (vars_to_warm_start "layer1"),
    /// layer2 from its own initializer, only layer2 trained (var_list). layer1 stays bit-identical to
    /// TensorFlow's checkpoint and held-out accuracy improves from the untrained head's (the step-0
    /// checkpoint of the run) to a trained classifier's.
    void transferLearningTrainsOnlyTheHead()
    {
        const auto fixtures = bookFixtures();
        if (!fixtures)
            QSKIP(kNoFixtures);
        const QString mnist = fixtures->mnist;
        const std::string checkpoint = fixtures->checkpoint;
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        auto run = trainBookProject(root, "transfer", *fixtures, t10kSource(*fixtures), 0.5,
                                    {{"ckpt_to_initialize_from", checkpoint}, {"vars_to_warm_start", "layer1"}}, 200);
        QVERIFY2(run.has_value(), run ? "" : run.error().toString().c_str());

        CpuAllocator allocator;
        auto original = readWeights(checkpoint, allocator);
        auto start = readWeights((root / "run" / "model.ckpt-0").string(), allocator);
        auto tuned = readWeights(run->lastCheckpoint, allocator);
        QVERIFY2(original && start && tuned, "reading the checkpoints failed");
        QCOMPARE(bits(start->at("layer1/weights")), bits(original->at("layer1/weights")));
        QCOMPARE(bits(tuned->at("layer1/weights")), bits(original->at("layer1/weights")));
        QCOMPARE(bits(tuned->at("layer1/biases")), bits(original->at("layer1/biases")));
        QVERIFY(bits(start->at("layer2/weights")) != bits(original->at("layer2/weights")));

        auto t10k = data::loadMnist((mnist + "/t10k-images-idx3-ubyte.gz").toStdString(),
                                    (mnist + "/t10k-labels-idx1-ubyte.gz").toStdString(), allocator);
        QVERIFY(t10k.has_value());
        const Tensor heldImages = rows(t10k->images, 5000, 5000, allocator);
        const Tensor heldLabels = rows(t10k->labels, 5000, 5000, allocator);
        auto before = score(*start, heldImages, heldLabels);
        auto after = score(*tuned, heldImages, heldLabels);
        QVERIFY2(before && after, scoreError(before ? after : before));
        qInfo("held out, layer2 fresh -> trained on layer1's features: accuracy %.4f -> %.4f", before->accuracy,
              after->accuracy);
        QVERIFY2(after->accuracy > before->accuracy + 0.5 && after->accuracy > 0.95,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before->accuracy).arg(after->accuracy)));
    }

    /// Fine-tuning only layer2 from the 29001 checkpoint where it has something to learn: t10k images
    /// each shifted by up to 4 pixels (models/image_shift.h), which the book model, trained on
    /// centred digits, classifies worse. Every layer warm-started, var_list "layer2", trained on shifted
    /// images [0, 5000): layer1 stays bit-identical to TensorFlow's checkpoint and accuracy on the
    /// held-out shifted images [5000, 10000) improves.
    void fineTuningLayer2ImprovesOnShiftedImages()
    {
        const auto fixtures = bookFixtures();
        if (!fixtures)
            QSKIP(kNoFixtures);
        const QString mnist = fixtures->mnist;
        const std::string checkpoint = fixtures->checkpoint;
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        CpuAllocator allocator;
        auto t10k = data::loadMnist((mnist + "/t10k-images-idx3-ubyte.gz").toStdString(),
                                    (mnist + "/t10k-labels-idx1-ubyte.gz").toStdString(), allocator);
        QVERIFY(t10k.has_value());
        std::mt19937_64 engine(29001);
        auto shifted = examples::randomShiftImages(t10k->images, 28, 28, 4, engine, allocator);
        QVERIFY2(shifted.has_value(), shifted ? "" : shifted.error().toString().c_str());
        // The graph's y-input takes one-hot float labels.
        const auto sparse = t10k->labels.values<std::int64_t>();
        std::vector<float> oneHot(sparse.size() * 10, 0.0f);
        for (std::size_t i = 0; i < sparse.size(); ++i)
            oneHot[i * 10 + static_cast<std::size_t>(sparse[i])] = 1.0f;
        auto labels = Tensor::fromVector(allocator, TensorShape({static_cast<std::int64_t>(sparse.size()), 10}), oneHot);
        QVERIFY(labels.has_value());
        QVERIFY(writeNpy(root / "shifted.npy", *shifted).isOk());
        QVERIFY(writeNpy(root / "onehot.npy", *labels).isOk());

        const nlohmann::json source = {{"type", "numpy"},
                                       {"files", {"shifted.npy", "onehot.npy"}},
                                       {"skip", 0},
                                       {"take", 5000},
                                       {"feeds", {{"x-input", "shifted"}, {"y-input", "onehot"}}}};
        auto run = trainBookProject(root, "shifted", *fixtures, source, 0.1, {{"ckpt_to_initialize_from", checkpoint}}, 500);
        QVERIFY2(run.has_value(), run ? "" : run.error().toString().c_str());

        auto original = readWeights(checkpoint, allocator);
        auto tuned = readWeights(run->lastCheckpoint, allocator);
        QVERIFY2(original && tuned, "reading the checkpoints failed");
        QCOMPARE(bits(tuned->at("layer1/weights")), bits(original->at("layer1/weights")));
        QCOMPARE(bits(tuned->at("layer1/biases")), bits(original->at("layer1/biases")));
        QVERIFY(bits(tuned->at("layer2/weights")) != bits(original->at("layer2/weights")));

        const Tensor heldImages = rows(*shifted, 5000, 5000, allocator);
        const Tensor heldLabels = rows(t10k->labels, 5000, 5000, allocator);
        auto before = score(*original, heldImages, heldLabels);
        auto after = score(*tuned, heldImages, heldLabels);
        QVERIFY2(before && after, scoreError(before ? after : before));
        qInfo("held-out shifted images: accuracy %.4f -> %.4f, cross entropy %.5f -> %.5f", before->accuracy,
              after->accuracy, before->crossEntropy, after->crossEntropy);
        QVERIFY2(after->accuracy > before->accuracy + 0.01,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before->accuracy).arg(after->accuracy)));
    }
};

QTEST_GUILESS_MAIN(TestFineTune)
#include "test_fine_tune.moc"
