// Checkpoints TensorFlow wrote (../shared/fixtures), read through CheckpointReader as `tstudio inspect`
// reads them: a TensorFlow 0.8 V1 table, an Estimator's V2 bundle and the SavedModel exported from it,
// and a projector's embedding checkpoint beside the .npy its script saved. Expected values are the
// fixtures README's (read there with bundle.py, an independent reader) and NumPy's own file.
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/file_kind_detector.h"
#include "io/npy.h"

#include "model_test_support.h"
#include "fixture_paths.h"
#include "test_files.h"

#include <QTest>

#include <cstring>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

} // namespace

class TestCheckpointFixtures : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;

private slots:
    /// tf08-v1-checkpoint/model.ckpt: one LevelDB table of TensorFlow 0.8 with `weights` [6, 2] and
    /// `biases` [2] as packed float_val; the README's values (bundle.load_v1).
    void v1CheckpointOfTensorFlow08()
    {
        const std::string path = fixturePath("tf08-v1-checkpoint/model.ckpt");
        if (path.empty())
            QSKIP(missingFixture("tf08-v1-checkpoint/model.ckpt"));

        auto report = detectFileKind(path);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(int(report->kind), int(FileKind::kCheckpointV1));
        QCOMPARE(report->sizeBytes, std::uint64_t(283));
        QCOMPARE(report->tensorCount.value_or(-1), std::int64_t(2));
        QCOMPARE(report->checkpointPrefix, path);

        auto reader = CheckpointReader::open(report->checkpointPrefix);
        QVERIFY2(reader.has_value(), err(reader));
        QCOMPARE(int(reader->format()), int(CheckpointFormat::kV1));
        const auto tensors = reader->tensors();
        QCOMPARE(tensors.size(), std::size_t(2));
        QCOMPARE(tensors[0].name, std::string("biases"));
        QCOMPARE(tensors[1].name, std::string("weights"));
        for (const BundleTensorInfo& t : tensors)
            QCOMPARE(int(t.dtype), int(tf::DT_FLOAT));
        QVERIFY2(tensors[0].shape == TensorShape({2}), tensors[0].shape.toString().c_str());
        QVERIFY2(tensors[1].shape == TensorShape({6, 2}), tensors[1].shape.toString().c_str());

        auto weights = reader->read("weights", m_allocator);
        QVERIFY2(weights.has_value(), err(weights));
        QVERIFY2(weights->shape() == TensorShape({6, 2}), weights->shape().toString().c_str());
        const float column0[] = {9170.6f, 24232.18f, 62042.99f, 10421.33f, 24269.49f, 67222.75f};
        const auto w = weights->values<float>();
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(w[std::size_t(2 * row)], column0[row]);
            QCOMPARE(w[std::size_t(2 * row + 1)], -column0[row]);
        }
        auto biases = reader->read("biases", m_allocator);
        QVERIFY2(biases.has_value(), err(biases));
        QCOMPARE(biases->values<float>()[0], 830.935f);
        QCOMPARE(biases->values<float>()[1], -830.935f);
    }

    /// tf1-estimator-tfdata/model: the V2 bundle of step 2000 (15 tensors, int64 global_step 2000),
    /// found as tf.train.latest_checkpoint finds it although the state file also lists -0 and -1000.
    void v2CheckpointOfAnEstimator()
    {
        const std::string dir = fixturePath("tf1-estimator-tfdata/model");
        if (dir.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata/model"));

        auto state = readCheckpointState(dir);
        QVERIFY2(state.has_value(), err(state));
        QCOMPARE(state->all_model_checkpoint_paths_size(), 3);
        auto latest = latestCheckpoint(dir);
        QVERIFY2(latest.has_value(), err(latest));
        QCOMPARE(latest->filename().string(), std::string("model.ckpt-2000"));

        auto reader = CheckpointReader::open(latest->string());
        QVERIFY2(reader.has_value(), err(reader));
        QCOMPARE(int(reader->format()), int(CheckpointFormat::kV2));
        QCOMPARE(reader->tensors().size(), std::size_t(15));
        for (const char* name : {"dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias", "dense/kernel/Adam",
                                 "dense/kernel/Adam_1", "beta1_power", "beta2_power"})
            QVERIFY2(reader->contains(name), name);
        auto step = reader->read("global_step", m_allocator);
        QVERIFY2(step.has_value(), err(step));
        QCOMPARE(int(step->dtype()), int(tf::DT_INT64));
        QCOMPARE(step->numElements(), std::int64_t(1));
        QCOMPARE(step->values<std::int64_t>()[0], std::int64_t(2000));
        auto kernel = reader->lookUp("dense/kernel");
        QVERIFY2(kernel.has_value(), err(kernel));
        QVERIFY2(kernel->shape == TensorShape({2, 4}), kernel->shape.toString().c_str());
        auto outKernel = reader->lookUp("dense_1/kernel");
        QVERIFY2(outKernel.has_value(), err(outKernel));
        QVERIFY2(outKernel->shape == TensorShape({4, 1}), outKernel->shape.toString().c_str());
    }

    /// The README: the exported SavedModel's variables are equal to model.ckpt-2000's. Every
    /// tensor of saved_model/1567058788/variables is in the training checkpoint, with equal bytes.
    void savedModelVariablesEqualTheTrainingCheckpoint()
    {
        const std::string exported = fixturePath("tf1-estimator-tfdata/saved_model/1567058788/variables/variables.index");
        const std::string trained = fixturePath("tf1-estimator-tfdata/model/model.ckpt-2000.index");
        if (exported.empty() || trained.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata"));
        auto a = CheckpointReader::open(exported.substr(0, exported.size() - 6));
        auto b = CheckpointReader::open(trained.substr(0, trained.size() - 6));
        QVERIFY2(a.has_value(), err(a));
        QVERIFY2(b.has_value(), err(b));
        const auto tensors = a->tensors();
        QVERIFY(tensors.size() >= 5); // two kernels, two biases, the global step
        for (const BundleTensorInfo& info : tensors) {
            auto mine = a->read(info.name, m_allocator);
            auto theirs = b->read(info.name, m_allocator);
            QVERIFY2(mine.has_value(), err(mine));
            QVERIFY2(theirs.has_value(), info.name.c_str());
            QVERIFY2(mine->shape() == theirs->shape(), info.name.c_str());
            QCOMPARE(int(mine->dtype()), int(theirs->dtype()));
            const auto x = mine->tensorData();
            const auto y = theirs->tensorData();
            QVERIFY2(x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size()) == 0, info.name.c_str());
        }
    }

    /// projector-tf1: the latest of the listed checkpoints that is present, embedding-9, holds
    /// embed_var float32 [874, 50]; row 0 begins as the README says, and the whole tensor equals
    /// embedding.npy, which the same script wrote with NumPy.
    void projectorEmbeddingCheckpoint()
    {
        const std::string dir = fixturePath("projector-tf1");
        if (dir.empty())
            QSKIP(missingFixture("projector-tf1"));
        auto latest = latestCheckpoint(dir);
        QVERIFY2(latest.has_value(), err(latest));
        QCOMPARE(latest->filename().string(), std::string("embedding-9"));
        auto reader = CheckpointReader::open(latest->string());
        QVERIFY2(reader.has_value(), err(reader));
        QCOMPARE(reader->tensors().size(), std::size_t(1));
        auto embedding = reader->read("embed_var", m_allocator);
        QVERIFY2(embedding.has_value(), err(embedding));
        QCOMPARE(int(embedding->dtype()), int(tf::DT_FLOAT));
        QVERIFY2(embedding->shape() == TensorShape({874, 50}), embedding->shape().toString().c_str());
        const auto e = embedding->values<float>();
        QCOMPARE(e[0], -0.21749417f);
        QCOMPARE(e[1], 0.38945696f);
        QCOMPARE(e[2], -0.57026225f);
        QCOMPARE(e[3], -0.7178475f);

        auto numpy = readNpy(fs::path(dir) / "embedding.npy", m_allocator);
        QVERIFY2(numpy.has_value(), err(numpy));
        QCOMPARE(int(numpy->dtype()), int(tf::DT_FLOAT));
        QVERIFY2(numpy->shape() == embedding->shape(), numpy->shape().toString().c_str());
        const auto n = numpy->values<float>();
        for (std::size_t i = 0; i < e.size(); ++i)
            if (n[i] != e[i])
                QFAIL(qPrintable(QString("element %1: checkpoint %2, embedding.npy %3").arg(i).arg(e[i]).arg(n[i])));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointFixtures)
#include "test_checkpoint_fixtures.moc"
