// The "cifar10" data source and the ResNet-20 example project (examples/projects/resnet20.tsproj):
// the source's JSON, its batches from synthetic CIFAR-10 batch files, its folder errors, and the
// shipped project trained two steps on those files (batch norm's statistics updated) and evaluated.
#include "project/sources/data_sources.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "project/format/project_file.h"
#include "project/format/project_json.h"
#include "project/run/project_runner.h"
#include "project/format/setting_advice.h"
#include "project/sources/source_folders.h"
#include "test_files.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tstudio;
using namespace tstudio::project;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path resnetProject()
{
    return fs::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "resnet20.tsproj";
}

/// The stored byte of channel c of pixel p in record `id` (different per channel).
std::uint8_t pixel(int id, int c, int p)
{
    return static_cast<std::uint8_t>((id * 13 + c * 85 + p) % 256);
}

/// A CIFAR-10 binary batch of `labels.size()` records, record k having id firstId + k.
std::string batch(const std::vector<int>& labels, int firstId)
{
    std::string s;
    for (std::size_t k = 0; k < labels.size(); ++k) {
        s += static_cast<char>(labels[k]);
        for (int c = 0; c < 3; ++c)
            for (int p = 0; p < 1024; ++p)
                s += static_cast<char>(pixel(firstId + static_cast<int>(k), c, p));
    }
    return s;
}

/// A cifar-10-batches-bin folder in miniature: data_batch_1..5.bin of 4 records each (ids 0..19,
/// labels id % 10) and test_batch.bin of 6 (ids 100..105).
bool writeCifarFolder(const QString& dir)
{
    for (int f = 0; f < 5; ++f) {
        std::vector<int> labels;
        for (int k = 0; k < 4; ++k)
            labels.push_back((4 * f + k) % 10);
        if (!testing::writeFile(dir + QStringLiteral("/data_batch_%1.bin").arg(f + 1), batch(labels, 4 * f)))
            return false;
    }
    return testing::writeFile(dir + QStringLiteral("/test_batch.bin"), batch({0, 1, 2, 3, 4, 5}, 100));
}

Expected<DataSource> readSource(const json& v)
{
    return readDataSource(JsonReader("t.tsproj"), v, "data.sources[0]");
}

/// A project of one cifar10 source feeding "x" and "y", its data.dir `dir` (unset when empty).
Project sourceProject(const Cifar10Params& params, const std::string& dir)
{
    Project p;
    if (!dir.empty())
        p.dataDir = dir;
    p.batchSize = 2;
    DataSource s;
    s.params = params;
    s.feeds = {{"x", {"images"}}, {"y", {"labels"}}};
    p.sources.push_back(s);
    return p;
}

} // namespace

class TestCifar10Source : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QVERIFY(writeCifarFolder(m_data.path()));
    }

    void jsonReadsDefaultsAndWritesWhatItReads()
    {
        auto s = readSource({{"type", "cifar10"}, {"feeds", {{"x", "images"}}}});
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(s->type(), std::string("cifar10"));
        const auto& p = std::get<Cifar10Params>(s->params);
        QCOMPARE(p.files.size(), std::size_t{5});
        QCOMPARE(p.files.front(), std::string("data_batch_1.bin"));
        QVERIFY(!p.dir);
        QCOMPARE(sourceComponents(*s), (std::vector<std::string>{"images", "labels"}));

        Cifar10Params eval;
        eval.dir = "cifar";
        eval.files = {"test_batch.bin"};
        eval.skip = 2;
        eval.take = 3;
        eval.labels = "one_hot";
        eval.scale = false;
        DataSource written;
        written.params = eval;
        written.feeds = {{"x", {"images"}}};
        auto back = readSource(json::parse(dataSourceJson(written).dump()));
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QCOMPARE(*back, written);
    }

    void jsonNamesTheBadField_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        QTest::newRow("labels") << R"({"type": "cifar10", "labels": "dense", "feeds": {"x": "images"}})"
                                << "data.sources[0].labels: expected one of";
        QTest::newRow("files empty") << R"({"type": "cifar10", "files": [], "feeds": {"x": "images"}})"
                                     << "data.sources[0].files:";
        QTest::newRow("file twice") << R"({"type": "cifar10", "files": ["a.bin", "a.bin"], "feeds": {"x": "images"}})"
                                    << "data.sources[0].files[1]: 'a.bin' is named twice";
        QTest::newRow("take 0") << R"({"type": "cifar10", "take": 0, "feeds": {"x": "images"}})"
                                << "data.sources[0].take: expected -1 (all) or 1 or more";
        QTest::newRow("unknown key") << R"({"type": "cifar10", "set": "train", "feeds": {"x": "images"}})"
                                     << "set";
    }

    void jsonNamesTheBadField()
    {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        auto s = readSource(json::parse(source.toStdString()));
        QVERIFY(!s);
        QVERIFY2(s.error().message().find(expected.toStdString()) != std::string::npos,
                 s.error().message().c_str());
    }

    void batchesAreFlatHwcImagesAndLabels()
    {
        Cifar10Params params;
        params.files = {"data_batch_2.bin"};
        Project p = sourceProject(params, m_data.path().toStdString());
        CpuAllocator allocator;
        auto pipeline = buildSourcePipeline(p, p.sources[0], "data.sources[0]", 4, PipelineMode::kEvaluation,
                                            allocator);
        QVERIFY2(pipeline, pipeline ? "" : pipeline.error().toString().c_str());
        auto it = pipeline->batches.makeIterator();
        auto next = it->getNext();
        QVERIFY2(next && *next, next ? "end of input" : next.error().toString().c_str());
        const std::vector<Tensor>& b = **next;
        // Feeds in name order: "x" images, "y" labels.
        QCOMPARE(b[0].shape(), (TensorShape{4, 3072}));
        QCOMPARE(b[0].dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(b[1].dtype(), tensorflow::DT_INT64);
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(b[1].values<std::int64_t>()[static_cast<std::size_t>(k)], std::int64_t{(4 + k) % 10});
            // Pixel (row 31, column 0), blue: [31][0][2] of the [32, 32, 3] image.
            const int px = 31 * 32;
            QCOMPARE(b[0].values<float>()[static_cast<std::size_t>(k * 3072 + px * 3 + 2)],
                     pixel(4 + k, 2, px) / 255.0f);
        }
    }

    void folderProblemsNameTheField()
    {
        CpuAllocator allocator;
        // No data.dir: the field, where to download, and the command line's remedy.
        Project unset = sourceProject(Cifar10Params{}, "");
        auto none = buildSourcePipeline(unset, 0, allocator);
        QVERIFY(!none);
        const std::string m = none.error().message();
        QCOMPARE(problemField(m), std::optional<std::string>("data.dir"));
        QVERIFY2(m.find("https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz") != std::string::npos, m.c_str());
        QVERIFY2(withCliAdvice(m).find("--set data.dir=DIR") != std::string::npos, m.c_str());

        // A folder without the batch asked for.
        Cifar10Params params;
        params.files = {"data_batch_1.bin", "data_batch_6.bin"};
        Project missing = sourceProject(params, m_data.path().toStdString());
        auto gone = buildSourcePipeline(missing, 0, allocator);
        QVERIFY(!gone);
        QCOMPARE(gone.error().code(), StatusCode::kNotFound);
        QVERIFY2(gone.error().message().find("has no data_batch_6.bin") != std::string::npos,
                 gone.error().message().c_str());
        QCOMPARE(problemField(gone.error().message()), std::optional<std::string>("data.dir"));

        // The source's own folder is a field the Training panel shows, and it can be set.
        Cifar10Params own;
        own.dir = "elsewhere";
        Project withDir = sourceProject(own, "");
        const auto folders = sourceFolders(withDir);
        QCOMPARE(folders.size(), std::size_t{1});
        QCOMPARE(folders[0].field, std::string("data.sources[0].dir"));
        QCOMPARE(folders[0].type, std::string("cifar10"));
        QVERIFY(setSourceFolder(withDir, "data.sources[0].dir", m_data.path().toStdString()).isOk());
        QVERIFY(buildSourcePipeline(withDir, 0, allocator).has_value());

        // Skip and take beyond the records: the count the files hold.
        Cifar10Params beyond;
        beyond.files = {"test_batch.bin"};
        beyond.skip = 4;
        beyond.take = 3;
        Project far = sourceProject(beyond, m_data.path().toStdString());
        auto out = buildSourcePipeline(far, 0, allocator);
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("hold 6") != std::string::npos, out.error().message().c_str());
    }

    void shippedProject()
    {
        auto p = loadProject(resnetProject());
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QCOMPARE(p->batchSize, std::int64_t{128});
        QCOMPARE(p->steps, std::int64_t{64000});
        QVERIFY(!p->dataDir);
        QCOMPARE(p->sources.front().type(), std::string("cifar10"));
        QVERIFY(p->training.optimizer);
        QCOMPARE(p->training.optimizer->type, std::string("Momentum"));
        QCOMPARE(p->training.optimizer->numbers.at("momentum"), 0.9);
        QCOMPARE(p->training.optimizer->learningRate.boundaries, (std::vector<std::int64_t>{32000, 48000}));
        QCOMPARE(p->training.optimizer->learningRate.values, (std::vector<double>{0.1, 0.01, 0.001}));
        QVERIFY(p->eval);
        QCOMPARE(std::get<Cifar10Params>(p->eval->sources.front().source.params).files,
                 std::vector<std::string>{"test_batch.bin"});
        // The file is in the canonical form: saving gives the same bytes.
        std::ifstream in(resnetProject());
        const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string canonical = projectToJson(*p);
        QVERIFY2(canonical == committed, canonical.c_str());
    }

    void trainsTwoStepsAndEvaluates()
    {
        QTemporaryDir logs;
        const fs::path root = logs.path().toStdString();
        auto p = loadProject(resnetProject(), {{"data.dir", json(m_data.path().toStdString()).dump()},
                                               {"batch_size", "4"},
                                               {"steps", "2"},
                                               {"eval.every_steps", "2"}});
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        TrainRunOptions options;
        options.logdir = root / "run";
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t{2});
        QVERIFY(result->finalLoss && std::isfinite(*result->finalLoss));
        QCOMPARE(result->evaluations.size(), std::size_t{1});
        QCOMPARE(result->evaluations[0].step, std::int64_t{2});
        QCOMPARE(result->evaluations[0].examples, std::int64_t{6});
        const auto accuracy = result->evaluations[0].metric("accuracy");
        QVERIFY(accuracy && *accuracy >= 0.0 && *accuracy <= 1.0);

        // Batch norm's moving averages were updated with the training steps (UPDATE_OPS ran).
        CpuAllocator allocator;
        auto reader = TensorBundleReader::open(result->lastCheckpoint);
        QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
        auto movingMean = reader->read("stem/batch_normalization/moving_mean", allocator);
        QVERIFY2(movingMean, movingMean ? "" : movingMean.error().toString().c_str());
        const auto m = movingMean->values<float>();
        QVERIFY(std::any_of(m.begin(), m.end(), [](float v) { return std::fabs(v) > 1e-6f; }));
    }
};

QTEST_GUILESS_MAIN(TestCifar10Source)
#include "test_cifar10_source.moc"
