// Tests for the projector plugin's files: configs, TSV and checkpoint embeddings and metadata the
// test writes (TSV and text-format config by hand, the checkpoint with TensorBundleWriter), their
// refusals, and the two projector fixtures (TensorFlow 1.13's checkpoint projector, PyTorch's
// add_embedding).
#include "io/events/projector_config.h"

#include "fixture_paths.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_writer.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tstudio;
using namespace tstudio::events;
using tstudio::testing::fixturePath;
using tstudio::testing::missingFixture;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

class TestProjectorConfig : public QObject {
    Q_OBJECT
private slots:
    void tsvEmbeddingWithLabels()
    {
        QTemporaryDir tmp;
        const fs::path run = tmp.path().toStdString();
        write(run / "projector_config.pbtxt", "embeddings {\n  tensor_name: \"words\"\n"
                                              "  tensor_path: \"e/tensors.tsv\"\n  metadata_path: \"e/meta.tsv\"\n"
                                              "  sprite { image_path: \"e/sprite.png\" single_image_dim: 8 "
                                              "single_image_dim: 6 }\n}\n");
        write(run / "e/tensors.tsv", "1\t2\t3\n-0.5\t 1e-3\t4\n");
        write(run / "e/meta.tsv", "cat\ndog\n");
        auto config = readProjectorConfig(run);
        QVERIFY2(config.has_value(), config ? "" : config.error().message().c_str());
        QCOMPARE(config->embeddings.size(), std::size_t{1});
        const ProjectorEmbedding& e = config->embeddings[0];
        QCOMPARE(e.tensorName, std::string("words"));
        QCOMPARE(e.tensorPath, run / "e/tensors.tsv");
        QCOMPARE(e.spritePath, run / "e/sprite.png");
        QCOMPARE(e.spriteImageWidth, 8);
        QCOMPARE(e.spriteImageHeight, 6);
        auto values = readEmbeddingValues(*config, e);
        QVERIFY(values.has_value());
        QCOMPARE(values->rows, std::size_t{2});
        QCOMPARE(values->dims, std::size_t{3});
        QCOMPARE(values->values, (std::vector<float>{1, 2, 3, -0.5f, 1e-3f, 4}));
        auto meta = readEmbeddingMetadata(e.metadataPath, values->rows);
        QVERIFY(meta.has_value());
        QCOMPARE(meta->columns, std::vector<std::string>{"label"}); // one column: no header
        QCOMPARE(meta->rows[1], std::vector<std::string>{"dog"});
    }

    void severalMetadataColumnsHaveAHeader()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "meta.tsv";
        write(file, "word\tcount\nthe\t100\nof\t50\n");
        auto meta = readEmbeddingMetadata(file, 2);
        QVERIFY(meta.has_value());
        QCOMPARE(meta->columns, (std::vector<std::string>{"word", "count"}));
        QCOMPARE(meta->rows[0], (std::vector<std::string>{"the", "100"}));
        auto wrongCount = readEmbeddingMetadata(file, 3);
        QVERIFY(!wrongCount.has_value());
        QVERIFY(wrongCount.error().message().find("2 rows for 3 points") != std::string::npos);
        write(file, "word\tcount\nthe\n");
        auto ragged = readEmbeddingMetadata(file, 1);
        QVERIFY(!ragged.has_value());
        QVERIFY(ragged.error().message().find("line 2") != std::string::npos);
    }

    void checkpointEmbedding()
    {
        QTemporaryDir tmp;
        const fs::path run = tmp.path().toStdString();
        CpuAllocator cpu;
        auto writer = TensorBundleWriter::create((run / "model.ckpt-5").string());
        QVERIFY(writer);
        const Tensor table = Tensor::fromVector<float>(cpu, TensorShape{3, 2}, {1, 2, 3, 4, 5, 6}).value();
        QVERIFY((*writer)->add("emb/table", table).isOk());
        QVERIFY((*writer)->finish().isOk());
        QVERIFY(writeCheckpointState(run, run / "model.ckpt-5", {}).isOk());
        write(run / "projector_config.pbtxt", "embeddings { tensor_name: \"emb/table:0\" }\n");
        auto config = readProjectorConfig(run);
        QVERIFY(config.has_value());
        QCOMPARE(config->checkpoint, run / "model.ckpt-5"); // the run folder's latest checkpoint
        auto values = readEmbeddingValues(*config, config->embeddings[0]);
        QVERIFY2(values.has_value(), values ? "" : values.error().message().c_str());
        QCOMPARE(values->rows, std::size_t{3});
        QCOMPARE(values->dims, std::size_t{2});
        QCOMPARE(values->values[5], 6.0f);
        ProjectorEmbedding missing = config->embeddings[0];
        missing.tensorName = "nope:0";
        auto absent = readEmbeddingValues(*config, missing);
        QVERIFY(!absent.has_value());
        QVERIFY(absent.error().message().find("nope") != std::string::npos);
    }

    /// A run folder as TensorBoard's projector sees it: without a config, every float variable of
    /// rank 2 in its latest checkpoint (not rank 1, not int, not optimizer slots); with one, its
    /// embeddings first, then the checkpoint's others, a nameless first entry lending its metadata.
    void checkpointVariablesAreEmbeddings()
    {
        QTemporaryDir tmp;
        const fs::path run = tmp.path().toStdString();
        QCOMPARE(readProjectorRun(run).error().code(), StatusCode::kNotFound); // nothing at all
        CpuAllocator cpu;
        auto writer = TensorBundleWriter::create((run / "model.ckpt-7").string());
        QVERIFY(writer);
        const Tensor table = Tensor::fromVector<float>(cpu, TensorShape{3, 2}, {1, 2, 3, 4, 5, 6}).value();
        const Tensor kernel = Tensor::fromVector<double>(cpu, TensorShape{2, 2}, {1, 0, 0, 1}).value();
        const Tensor bias = Tensor::fromVector<float>(cpu, TensorShape{2}, {0, 0}).value();
        const Tensor ids = Tensor::fromVector<std::int64_t>(cpu, TensorShape{2, 2}, {1, 2, 3, 4}).value();
        QVERIFY((*writer)->add("emb/table", table).isOk());
        QVERIFY((*writer)->add("dense/kernel", kernel).isOk());
        QVERIFY((*writer)->add("dense/bias", bias).isOk());
        QVERIFY((*writer)->add("lookup/ids", ids).isOk());
        QVERIFY((*writer)->add("emb/.OPTIMIZER_SLOT/optimizer/m", table).isOk());
        QVERIFY((*writer)->finish().isOk());
        QVERIFY(writeCheckpointState(run, run / "model.ckpt-7", {}).isOk());
        auto bare = readProjectorRun(run);
        QVERIFY2(bare.has_value(), bare ? "" : bare.error().message().c_str());
        QCOMPARE(bare->checkpoint, run / "model.ckpt-7");
        QCOMPARE(bare->embeddings.size(), std::size_t{2});
        QCOMPARE(bare->embeddings[0].tensorName, std::string("dense/kernel")); // in the checkpoint's name order
        QCOMPARE(bare->embeddings[1].tensorName, std::string("emb/table"));
        QCOMPARE(bare->embeddings[1].tensorShape, (std::vector<std::uint32_t>{3, 2}));
        auto values = readEmbeddingValues(*bare, bare->embeddings[0]);
        QVERIFY2(values.has_value(), values ? "" : values.error().message().c_str());
        QCOMPARE(values->values[3], 1.0f);
        // A config naming emb/table keeps its entry first; a nameless first entry lends its metadata.
        write(run / "projector_config.pbtxt", "embeddings { metadata_path: \"labels.tsv\" }\n"
                                              "embeddings { tensor_name: \"emb/table:0\" }\n");
        auto configured = readProjectorRun(run);
        QVERIFY2(configured.has_value(), configured ? "" : configured.error().message().c_str());
        QCOMPARE(configured->embeddings.size(), std::size_t{2});
        QCOMPARE(configured->embeddings[0].tensorName, std::string("emb/table:0"));
        QVERIFY(configured->embeddings[0].metadataPath.empty());
        QCOMPARE(configured->embeddings[1].tensorName, std::string("dense/kernel"));
        QCOMPARE(configured->embeddings[1].metadataPath, run / "labels.tsv");
    }

    void badFilesAreRefusedSayingWhere()
    {
        QTemporaryDir tmp;
        const fs::path run = tmp.path().toStdString();
        QCOMPARE(readProjectorConfig(run).error().code(), StatusCode::kNotFound);
        write(run / "projector_config.pbtxt", "embeddings { tensor_nam: \"x\" }");
        auto bad = readProjectorConfig(run);
        QVERIFY(!bad.has_value());
        QVERIFY(bad.error().message().find("line 1") != std::string::npos);
        write(run / "projector_config.pbtxt", "embeddings { tensor_name: \"x\" tensor_path: \"t.tsv\" }");
        auto config = readProjectorConfig(run);
        QVERIFY(config.has_value());
        write(run / "t.tsv", "1\t2\n3\n");
        auto ragged = readEmbeddingValues(*config, config->embeddings[0]);
        QVERIFY(!ragged.has_value());
        QVERIFY(ragged.error().message().find("line 2: 1 values") != std::string::npos);
        write(run / "t.tsv", "1\tx\n");
        auto word = readEmbeddingValues(*config, config->embeddings[0]);
        QVERIFY(!word.has_value());
        QVERIFY(word.error().message().find("'x' is not a number") != std::string::npos);
        config->embeddings[0].tensorPath.clear(); // no TSV and no checkpoint
        auto nothing = readEmbeddingValues(*config, config->embeddings[0]);
        QVERIFY(!nothing.has_value());
        QVERIFY(nothing.error().message().find("no checkpoint") != std::string::npos);
    }

    void tensorflowCheckpointFixture()
    {
        const std::string dir = fixturePath("projector-tf1");
        if (dir.empty())
            QSKIP(missingFixture("projector-tf1"));
        auto config = readProjectorConfig(dir);
        QVERIFY2(config.has_value(), config ? "" : config.error().message().c_str());
        QCOMPARE(config->embeddings.size(), std::size_t{1});
        QCOMPARE(config->checkpoint.filename().string(), std::string("embedding-9"));
        auto values = readEmbeddingValues(*config, config->embeddings[0]);
        QVERIFY2(values.has_value(), values ? "" : values.error().message().c_str());
        QCOMPARE(values->rows, std::size_t{874});
        QCOMPARE(values->dims, std::size_t{50});
        // The fixtures README: the first row begins -0.21749417, 0.38945696, -0.57026225, -0.7178475.
        QCOMPARE(values->values[0], -0.21749417f);
        QCOMPARE(values->values[3], -0.7178475f);
        auto meta = readEmbeddingMetadata(config->embeddings[0].metadataPath, values->rows);
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().message().c_str());
        QCOMPARE(meta->rows[1][0], std::string("Pneumonia, organism unspecified"));
        // As TensorBoard sees the run: the config names the checkpoint's only variable ("embed_var:0"),
        // so nothing is added; the same folder without its config lists the variable itself.
        auto run = readProjectorRun(dir);
        QVERIFY2(run.has_value(), run ? "" : run.error().message().c_str());
        QCOMPARE(run->embeddings.size(), std::size_t{1});
        QCOMPARE(run->embeddings[0].tensorName, std::string("embed_var:0"));
        QTemporaryDir tmp;
        const fs::path bare = tmp.path().toStdString();
        for (const char* file : {"checkpoint", "embedding-9.index", "embedding-9.data-00000-of-00001"})
            fs::copy_file(fs::path(dir) / file, bare / file);
        auto unconfigured = readProjectorRun(bare);
        QVERIFY2(unconfigured.has_value(), unconfigured ? "" : unconfigured.error().message().c_str());
        QCOMPARE(unconfigured->embeddings.size(), std::size_t{1});
        QCOMPARE(unconfigured->embeddings[0].tensorName, std::string("embed_var"));
        QCOMPARE(unconfigured->embeddings[0].tensorShape, (std::vector<std::uint32_t>{874, 50}));
        auto bareValues = readEmbeddingValues(*unconfigured, unconfigured->embeddings[0]);
        QVERIFY2(bareValues.has_value(), bareValues ? "" : bareValues.error().message().c_str());
        QCOMPARE(bareValues->values[0], -0.21749417f);
    }

    void pytorchAddEmbeddingFixture()
    {
        const std::string dir = fixturePath("events-pytorch-fashion-mnist/runs/fashion_mnist_experiment_1");
        if (dir.empty())
            QSKIP(missingFixture("events-pytorch-fashion-mnist/runs/fashion_mnist_experiment_1"));
        auto config = readProjectorConfig(dir);
        QVERIFY(config.has_value());
        QCOMPARE(config->embeddings.size(), std::size_t{6}); // one entry per add_embedding call
        const ProjectorEmbedding& e = config->embeddings[0];
        QCOMPARE(e.spriteImageWidth, 28);
        QVERIFY(fs::exists(e.spritePath));
        auto values = readEmbeddingValues(*config, e);
        QVERIFY2(values.has_value(), values ? "" : values.error().message().c_str());
        QCOMPARE(values->rows, std::size_t{100});
        QCOMPARE(values->dims, std::size_t{784});
        auto meta = readEmbeddingMetadata(e.metadataPath, values->rows);
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().message().c_str());
        QCOMPARE(meta->columns.size(), std::size_t{1});
    }
};

QTEST_APPLESS_MAIN(TestProjectorConfig)
#include "test_projector_config.moc"
