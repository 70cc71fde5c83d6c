// Re-saving TensorFlow 2 SavedModels through their own savers: each fixture export (tf.Module
// servers and Keras models written by TensorFlow 2.2 / 2.3) is loaded, its restore op run through
// saver_def, then its save function (__inference__traced_save_*: StaticRegexFullMatch, Select,
// StringJoin, ShardedFilename, SaveV2, MergeV2Checkpoints) run with the filename tensor fed a new
// prefix; the checkpoint written must hold exactly the tensors of TensorFlow's variables/
// checkpoint, bit for bit. The same on a SavedModel this test writes, which needs no fixtures.
#include "io/checkpoint/checkpoint_reader.h"
#include "layers/keras_sequential.h"
#include "model/saved_model.h"
#include "model/tf2_saved_model_writer.h"
#include "runtime/session.h"

#include "fixture_paths.h"
#include "model_test_support.h"
#include "shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

SessionOptions sessionOptions()
{
    SessionOptions options;
    options.ops = &sharedRegistries().ops;
    options.kernels = &sharedRegistries().kernels;
    return options;
}

/// Empty when the checkpoints at `actual` and `expected` hold the same tensor names, each with the
/// same dtype, shape, stored size, stored checksum and value bytes; else the first difference.
QString differences(const std::string& actual, const std::string& expected)
{
    auto a = CheckpointReader::open(actual);
    auto e = CheckpointReader::open(expected);
    if (!a || !e)
        return QString("cannot open: %1 / %2").arg(err(a), err(e));
    const std::vector<BundleTensorInfo> got = a->tensors();
    const std::vector<BundleTensorInfo> want = e->tensors();
    QStringList names;
    for (const BundleTensorInfo& t : got)
        names << QString::fromStdString(t.name);
    if (got.size() != want.size())
        return QString("%1 tensors (%2), TensorFlow's checkpoint has %3").arg(got.size()).arg(names.join(", ")).arg(want.size());
    CpuAllocator allocator;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const BundleTensorInfo& g = got[i];
        const BundleTensorInfo& w = want[i];
        const QString name = QString::fromStdString(w.name);
        if (g.name != w.name || g.dtype != w.dtype || g.shape != w.shape)
            return QString("tensor %1: %2 %3 %4 vs TensorFlow's %5 %6 %7")
                .arg(i)
                .arg(QString::fromStdString(g.name), QString::fromStdString(dataTypeName(g.dtype)),
                     QString::fromStdString(g.shape.toString()), name, QString::fromStdString(dataTypeName(w.dtype)),
                     QString::fromStdString(w.shape.toString()));
        if (g.size != w.size || g.maskedCrc32c != w.maskedCrc32c)
            return QString("%1: %2 bytes, crc %3 vs TensorFlow's %4 bytes, crc %5")
                .arg(name)
                .arg(g.size)
                .arg(g.maskedCrc32c)
                .arg(w.size)
                .arg(w.maskedCrc32c);
        auto gv = a->read(g.name, allocator);
        auto wv = e->read(w.name, allocator);
        if (!gv || !wv)
            return QString("%1: cannot read: %2 / %3").arg(name, err(gv), err(wv));
        const bool same = g.dtype == tf::DT_STRING
                              ? std::equal(gv->strings().begin(), gv->strings().end(), wv->strings().begin(),
                                           wv->strings().end())
                              : gv->tensorData().size() == wv->tensorData().size() &&
                                    std::memcmp(gv->tensorData().data(), wv->tensorData().data(),
                                                wv->tensorData().size()) == 0;
        if (!same)
            return name + ": the values differ";
    }
    return {};
}

/// The names of the files in `dir`, sorted.
QStringList filesIn(const fs::path& dir)
{
    QStringList names;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir))
        names << QString::fromStdString(entry.path().filename().string());
    names.sort();
    return names;
}

} // namespace

class TestSavedModelTf2Resave : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    /// Loads `dir` restoring through saver_def, runs the restore op once more, then the save
    /// function into a new directory, and compares what it wrote with DIR/variables/variables.
    void resave(const fs::path& dir, const std::string& label)
    {
        SavedModelLoadOptions options;
        options.variableRestore = VariableRestore::kSaverDef;
        auto bundle = loadSavedModel(dir, sessionOptions(), options);
        QVERIFY2(bundle.has_value(), qPrintable(QString::fromStdString(label + ": " + err(bundle))));
        const tf::SaverDef& saver = (*bundle)->metaGraph().saver_def();
        QVERIFY2(!saver.save_tensor_name().empty() && !saver.restore_op_name().empty(), label.c_str());
        CpuAllocator allocator;
        auto prefixTensor = [&](const std::string& prefix) {
            Tensor t = Tensor::allocate(allocator, tf::DT_STRING, TensorShape::scalar()).value();
            t.strings()[0] = prefix;
            return t;
        };
        Session& session = (*bundle)->session();
        const std::string original = (dir / "variables" / "variables").string();
        Status s = session.run({{saver.filename_tensor_name(), prefixTensor(original)}}, {}, {saver.restore_op_name()},
                               nullptr);
        QVERIFY2(s.isOk(), qPrintable(QString::fromStdString(label + ": restore: " + s.toString())));

        const fs::path target = fs::path(m_tmp.path().toStdString()) / label / "variables";
        fs::create_directories(target);
        const std::string prefix = (target / "variables").string();
        std::vector<Tensor> out;
        s = session.run({{saver.filename_tensor_name(), prefixTensor(prefix)}}, {saver.save_tensor_name()}, {}, &out);
        QVERIFY2(s.isOk(), qPrintable(QString::fromStdString(label + ": save: " + s.toString())));
        // The save tensor is the prefix it saved to; the temporary shards ("variables_temp_<id>/
        // part-*") are merged into the prefix's data files and their directory is gone. A saver
        // with N SaveV2 shards writes N data files (load_model's saves the variables and the
        // object graph apart: 2, where the file TensorFlow's Python wrote at export has 1).
        QCOMPARE(out.at(0).strings()[0], prefix);
        const QStringList written = filesIn(target);
        const int shards = static_cast<int>(written.size()) - 1;
        QStringList expected{"variables.index"};
        for (int i = 0; i < shards; ++i)
            expected << QString("variables.data-%1-of-%2").arg(i, 5, 10, QChar('0')).arg(shards, 5, 10, QChar('0'));
        expected.sort();
        QCOMPARE(written, expected);
        const QString diff = differences(prefix, original);
        QVERIFY2(diff.isEmpty(), qPrintable(QString::fromStdString(label + ": ") + diff));
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void fixtureExports_data()
    {
        QTest::addColumn<QString>("relative");
        for (const char* dir : {"tf2-module-serving/x_plus_one/1", "tf2-module-serving/regress_model/1",
                                "tf2-module-serving/classify_model/1", "tf2-keras-cppflow/load_model/model",
                                "tf2-keras-cppflow/multi_input_output/model"})
            QTest::newRow(dir) << QString(dir);
    }

    void fixtureExports()
    {
        QFETCH(QString, relative);
        const QByteArray name = relative.toUtf8();
        const std::string dir = fixturePath(name.constData());
        if (dir.empty())
            QSKIP(missingFixture(name.constData()).constData());
        std::string label = name.toStdString();
        std::replace(label.begin(), label.end(), '/', '_');
        resave(dir, label);
    }

    void selfWrittenKerasModel()
    {
        // Dense(4, relu) -> Dense(3, softmax) on [None, 5] with weights 0.01 * k, k counting up.
        CpuAllocator allocator; // before the tensors it holds, so that it outlives them
        std::map<std::string, Tensor> weights;
        int k = 0;
        for (const auto& [name, shape] : std::vector<std::pair<std::string, TensorShape>>{
                 {"dense/kernel", TensorShape({5, 4})},
                 {"dense/bias", TensorShape({4})},
                 {"dense_1/kernel", TensorShape({4, 3})},
                 {"dense_1/bias", TensorShape({3})}}) {
            std::vector<float> values(static_cast<std::size_t>(shape.numElements().value()));
            for (float& v : values)
                v = 0.01f * static_cast<float>(++k);
            weights.emplace(name, Tensor::fromVector<float>(allocator, shape, values).value());
        }
        KerasSequentialOptions options;
        options.inputShape = TensorShape({-1, 5});
        options.layers = {{4, layers::Activation::kRelu}, {3, layers::Activation::kSoftmax}};
        auto spec = kerasSequentialSpec(sharedRegistries().ops, options, weights);
        QVERIFY2(spec.has_value(), err(spec));
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "written";
        const Status written = writeTf2SavedModel(dir, *spec, sessionOptions());
        QVERIFY2(written.isOk(), err(written));
        resave(dir, "written_resaved");
        // The values are the weights given, not just the same as what was written.
        auto reader = CheckpointReader::open((dir / "variables" / "variables").string());
        QVERIFY2(reader.has_value(), err(reader));
        auto bias = reader->read("layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE", allocator);
        QVERIFY2(bias.has_value(), err(bias));
        QCOMPARE(std::vector<float>(bias->values<float>().begin(), bias->values<float>().end()),
                 (std::vector<float>{0.01f * 37, 0.01f * 38, 0.01f * 39}));
    }
};

QTEST_GUILESS_MAIN(TestSavedModelTf2Resave)
#include "test_saved_model_tf2_resave.moc"
