// The complete example project (examples/projects/mnist-notes.tsproj): its sections as shipped, and,
// with the MNIST fixture, a short run: evaluation on the held-out t10k images, the summaries the
// notes ask for, the batch-norm statistics updated, the best checkpoint kept, and the exported frozen
// graph scoring the held-out images exactly as the evaluation did.
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/log_directory.h"
#include "io/idx_file.h"
#include "io/formats/graph_def_io.h"
#include "project/export/project_export.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "runtime/session.h"
#include "test_files.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace tstudio;
using namespace tstudio::project;

namespace {

std::filesystem::path notesProject()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "mnist-notes.tsproj";
}

std::string err(const Status& s)
{
    return s.toString();
}

} // namespace

class TestNotesExample : public QObject {
    Q_OBJECT

private slots:
    /// What the issue asks the example to hold, as shipped.
    void shippedSections()
    {
        auto p = loadProject(notesProject());
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        QVERIFY(p->eval);
        QCOMPARE(p->eval->everySteps, std::optional<std::int64_t>(200));
        QVERIFY(p->eval->sources.front().from.has_value());
        QCOMPARE(p->eval->sources.front().skip, std::int64_t(8000));
        QVERIFY(p->eval->best && p->eval->best->metric == "accuracy");
        QVERIFY(p->exportSettings);
        QCOMPARE(p->exportSettings->outputs, std::vector<std::string>{"logits/BiasAdd:0"});
        QVERIFY(std::any_of(p->summaries.begin(), p->summaries.end(),
                            [](const SummarySpec& s) { return s.kind == "image" && s.source == 0; }));
        // Saving gives the same bytes (the file is in the canonical form).
        auto text = readProjectGraph(*p);
        QVERIFY2(text, text ? "" : err(text.error()).c_str());
        std::ifstream in(notesProject());
        const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(projectToJson(*p), committed);
    }

    void trainsEvaluatesAndExports()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures or $TSTUDIO_FIXTURES: the MNIST t10k files are needed");
        const std::filesystem::path mnist = std::filesystem::path(fixtures.toStdString()) / "mnist";
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        auto p = loadProject(notesProject(), {{"data.dir", "\"" + mnist.string() + "\""}, {"steps", "400"}});
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        TrainRunOptions options;
        options.logdir = root / "run";
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        QCOMPARE(result->evaluations.size(), std::size_t(2));
        QCOMPARE(result->evaluations[0].step, std::int64_t(200));
        QCOMPARE(result->evaluations[1].examples, std::int64_t(2000));
        const double accuracy = *result->evaluations.back().metric("accuracy");
        QVERIFY2(accuracy > 0.9, formatEvalMetrics(result->evaluations.back()).c_str());

        // Train and eval curves of the same names, the notes' summaries, over 50 tags in all.
        events::LogDirectory logs((root / "run").string());
        QVERIFY(logs.reload().isOk());
        std::set<std::string> train, eval;
        logs.withRun(".", [&](const events::EventAccumulator& a) {
            for (const events::TagInfo& t : a.tags())
                train.insert(t.tag);
        });
        logs.withRun("eval", [&](const events::EventAccumulator& a) {
            for (const events::TagInfo& t : a.tags())
                eval.insert(t.tag);
        });
        for (const char* tag : {"accuracy", "loss"}) {
            QVERIFY2(train.count(tag), tag);
            QVERIFY2(eval.count(tag), tag);
        }
        for (const char* tag : {"input_images/image/0", "hidden1/kernel/summaries/histogram",
                                "hidden2_bn/gamma/summaries/stddev", "hidden1/activations/summaries/mean",
                                "logits/bias/summaries/max"})
            QVERIFY2(train.count(tag), tag);
        QVERIFY2(train.size() >= 50, qPrintable(QString::number(train.size())));

        // UPDATE_OPS ran: the moving mean moved away from its zeros.
        CpuAllocator allocator;
        auto reader = TensorBundleReader::open(result->lastCheckpoint);
        QVERIFY(reader);
        auto movingMean = reader->read("hidden1_bn/moving_mean", allocator);
        QVERIFY(movingMean);
        const auto m = movingMean->values<float>();
        QVERIFY(std::any_of(m.begin(), m.end(), [](float v) { return std::fabs(v) > 1e-3f; }));

        // The best checkpoint exported as a frozen graph scores the held-out images as evaluated.
        QVERIFY(result->best);
        ExportOptions exportOptions = exportOptionsOf(*p);
        exportOptions.checkpoint = (root / "run" / "best").string();
        exportOptions.savedModelDir = root / "saved_model";
        exportOptions.frozenGraphPath = root / "frozen.pb";
        auto exported = exportProject(*p, testing::sharedRegistries(), exportOptions);
        QVERIFY2(exported, exported ? "" : err(exported.error()).c_str());
        QVERIFY(exported->learningPhaseFixed);
        auto frozen = readGraphDef(root / "frozen.pb");
        QVERIFY(frozen);
        auto images = readIdxFile(mnist / "t10k-images-idx3-ubyte.gz", allocator);
        auto labels = readIdxFile(mnist / "t10k-labels-idx1-ubyte.gz", allocator);
        QVERIFY(images && labels);
        auto batch = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({2000, 784}));
        QVERIFY(batch);
        const auto pixels = images->values<std::uint8_t>();
        for (std::int64_t i = 0; i < 2000 * 784; ++i)
            batch->values<float>()[static_cast<std::size_t>(i)] =
                static_cast<float>(pixels[static_cast<std::size_t>(8000 * 784 + i)]) / 255.0f;
        SessionOptions sessionOptions;
        sessionOptions.ops = &testing::sharedRegistries().ops;
        sessionOptions.kernels = &testing::sharedRegistries().kernels;
        (*sessionOptions.config.mutable_device_count())["GPU"] = 0;
        Session session(sessionOptions);
        QVERIFY(session.create(*frozen).isOk());
        std::vector<Tensor> outputs;
        const Status ran = session.run({{"images:0", *batch}}, {"logits/BiasAdd:0"}, {}, &outputs);
        QVERIFY2(ran.isOk(), err(ran).c_str());
        const auto logits = outputs[0].values<float>();
        const auto y = labels->values<std::uint8_t>();
        std::int64_t correct = 0;
        for (std::int64_t i = 0; i < 2000; ++i) {
            const auto row = logits.subspan(static_cast<std::size_t>(i * 10), 10);
            correct += std::max_element(row.begin(), row.end()) - row.begin() == y[static_cast<std::size_t>(8000 + i)];
        }
        QVERIFY2(std::fabs(static_cast<double>(correct) / 2000.0 - result->best->value) < 1e-6,
                 qPrintable(QString("%1 vs %2").arg(correct / 2000.0).arg(result->best->value)));
    }
};

QTEST_GUILESS_MAIN(TestNotesExample)
#include "test_notes_example.moc"
