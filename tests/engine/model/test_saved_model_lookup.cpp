// A SavedModel with a vocabulary asset: index_table_from_file's table initialized by the
// legacy_init_op (tables_initializer), written through saveSavedModel, moved to another directory
// (so only the asset's new path can be read) and loaded; its signature maps words to ids, the
// out-of-vocabulary ones to TensorFlow's Fingerprint64 buckets.
#include "builder/graph_builder.h"
#include "builder/lookup_ops.h"
#include "builder/ops_sugar.h"
#include "model/meta_graph.h"
#include "model/saved_model.h"
#include "model_test_support.h"
#include "registries/default_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

tf::TensorInfo tensorInfo(const std::string& name, DataType dtype, const TensorShape& shape)
{
    tf::TensorInfo info;
    info.set_name(name);
    info.set_dtype(dtype);
    *info.mutable_tensor_shape() = shape.toProto();
    return info;
}

template <typename T> std::vector<T> elements(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

} // namespace

class TestSavedModelLookup : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    SessionOptions sessionOptions() const { return {{}, &m_registries->ops, &m_registries->kernels}; }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    void vocabularyAssetIsFoundAfterTheModelMoves()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const fs::path root = tmp.path().toStdString();
        const fs::path source = root / "source-vocab.txt";
        std::ofstream(source) << "emerson\nlake\npalmer\n";

        // The graph an Estimator export builds for a vocabulary feature: the table reads the file
        // through the asset_filepath constant, initialized by the legacy init op.
        GraphBuilder b(m_registries->ops);
        auto words = ops::placeholder(b, tf::DT_STRING, TensorShape{-1}, "words");
        QVERIFY2(words, err(words));
        auto table = lookup::indexTableFromFile(b, {.vocabularyFile = source.string(), .numOovBuckets = 10});
        QVERIFY2(table, err(table));
        auto ids = lookup::lookup(b, *table, *words);
        QVERIFY2(ids, err(ids));
        auto tablesInit = lookup::tablesInitializer(b);
        QVERIFY2(tablesInit, err(tablesInit));
        auto legacyInit = ops::group(b, {*tablesInit}, "legacy_init_op");
        QVERIFY2(legacyInit, err(legacyInit));
        b.collections().add(saved_model::kLegacyInitOpKey, *legacyInit);

        MetaGraphExportOptions options;
        tf::SignatureDef signature;
        signature.set_method_name(std::string(saved_model::kPredictMethod));
        (*signature.mutable_inputs())["words"] = tensorInfo("words:0", tf::DT_STRING, TensorShape{-1});
        (*signature.mutable_outputs())["ids"] = tensorInfo(ids->name(), tf::DT_INT64, TensorShape{-1});
        options.signatureDefs[std::string(saved_model::kDefaultServingSignature)] = signature;
        tf::AssetFileDef asset;
        asset.mutable_tensor_info()->set_name("string_to_index/hash_table/table_init/asset_filepath:0");
        asset.set_filename("vocab.txt");
        options.assetFileDefs.push_back(asset);
        auto meta = exportMetaGraph(b, options);
        QVERIFY2(meta, err(meta));

        Session session(sessionOptions());
        QVERIFY(session.create(b.graphDef()).isOk());
        const fs::path written = root / "export" / "1";
        SavedModelSaveOptions saveOptions;
        saveOptions.assets = {{"vocab.txt", source}};
        Status saved = saveSavedModel(written, session, {{*meta, {"serve"}}}, saveOptions);
        QVERIFY2(saved.isOk(), err(saved));

        // Move the model and remove the file the graph names: only <dir>/assets/vocab.txt remains.
        const fs::path moved = root / "elsewhere" / "model";
        fs::create_directories(moved.parent_path());
        fs::rename(written, moved);
        fs::remove(source);
        QVERIFY(fs::exists(moved / "assets" / "vocab.txt"));

        auto bundle = loadSavedModel(moved, sessionOptions());
        QVERIFY2(bundle, err(bundle));
        static CpuAllocator allocator;
        auto input =
            Tensor::fromVector<std::string>(allocator, TensorShape{6}, {"emerson", "lake", "a", "palmer", "d", "b"});
        QVERIFY(input);
        auto out = (*bundle)->runSignature(saved_model::kDefaultServingSignature, {{"words", *input}});
        QVERIFY2(out, err(out));
        // Known words get their line numbers; "a", "d", "b" go to 3 + Fingerprint64 % 10, which
        // TensorFlow's hash-bucket tests give as 9, 5 and 2.
        QCOMPARE(elements<std::int64_t>(out->at("ids")), (std::vector<std::int64_t>{0, 1, 12, 2, 8, 5}));
    }
};

QTEST_GUILESS_MAIN(TestSavedModelLookup)
#include "test_saved_model_lookup.moc"
