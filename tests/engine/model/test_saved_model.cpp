// SavedModel directories: TensorFlow's regression SavedModel loads with "serve", lists its
// serving signature and predicts TensorFlow's number; a SavedModel we write (two MetaGraphs, one
// checkpoint, an asset and an init op) loads back with the same values; damaged or mismatched
// directories fail naming what is wrong.
#include "../../support/model_test_support.h"
#include "../../support/test_files.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "model/meta_graph.h"
#include "model/saved_model.h"
#include "model/saver.h"
#include "registries/default_registries.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

constexpr double kRegressionPred = 2.1193342; // pred:0 for X = [5.0], TensorFlow's value for this model

using tstudio::testing::err;

Tensor floats(const TensorShape& shape, const std::vector<float>& values)
{
    static CpuAllocator allocator;
    return *Tensor::fromVector<float>(allocator, shape, values);
}

std::string fixtureSavedModel()
{
    return QDir(fixturesDir()).filePath("tf2onnx/regression/saved_model").toStdString();
}

tf::TensorInfo tensorInfo(const std::string& name, DataType dtype, const TensorShape& shape)
{
    tf::TensorInfo info;
    info.set_name(name);
    info.set_dtype(dtype);
    *info.mutable_tensor_shape() = shape.toProto();
    return info;
}

/// pred = X . W + b, W [3,2] random (seeded), b [2] = 0.25; an asset "vocab.txt" whose path the
/// main op stores in the string variable "vocab_path"; a saver.
struct BuiltModel {
    std::unique_ptr<GraphBuilder> builder;
    tf::SaverDef saverDef;
    std::string error;
};

BuiltModel buildModel(const OpRegistry& ops)
{
    BuiltModel m;
    m.builder = std::make_unique<GraphBuilder>(ops);
    GraphBuilder& b = *m.builder;
    b.setRandomSeed(3);
    auto check = [&](const Status& s) {
        if (m.error.empty() && !s.isOk())
            m.error = s.toString();
        return s.isOk();
    };
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 3}), "X");
    auto w = getVariable(b, "W", TensorShape({3, 2}), tf::DT_FLOAT, Initializer::randomNormal());
    auto bias = getVariable(b, "b", TensorShape({2}), tf::DT_FLOAT, Initializer::constant(0.25));
    if (!check(x ? Status::ok() : x.error()) || !check(w ? Status::ok() : w.error()) ||
        !check(bias ? Status::ok() : bias.error()))
        return m;
    auto mm = ops::matMul(b, *x, w->value());
    auto pred = mm ? ops::add(b, *mm, bias->value(), "pred") : mm;
    if (!check(pred ? Status::ok() : pred.error()))
        return m;
    const std::string original = "original.txt";
    auto pathValue = makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&original, 1));
    auto assetPath =
        pathValue ? ops::constant(b, *pathValue, "asset_path") : Expected<Output>(unexpected(pathValue.error()));
    if (!check(assetPath ? Status::ok() : assetPath.error()))
        return m;
    const std::string empty;
    auto emptyValue = makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&empty, 1));
    auto vocab = emptyValue ? variable(b, *emptyValue, "vocab_path", /*trainable=*/false)
                            : Expected<Variable>(unexpected(emptyValue.error()));
    if (!check(vocab ? Status::ok() : vocab.error()))
        return m;
    auto store = b.op("Assign", {vocab->ref(), *assetPath}, {}, "store_vocab_path");
    if (!check(store ? Status::ok() : store.error()))
        return m;
    b.collections().add(saved_model::kMainOpKey, *store);
    if (auto init = globalVariablesInitializer(b); !check(init ? Status::ok() : init.error()))
        return m;
    auto saver = Saver::create(b);
    if (!check(saver ? Status::ok() : saver.error()))
        return m;
    m.saverDef = saver->saverDef();
    return m;
}

/// The MetaGraphDef of the built model with a signature of key `signature` and the asset.
Expected<tf::MetaGraphDef> exportBuilt(const BuiltModel& m, const std::string& signature)
{
    MetaGraphExportOptions options;
    options.saverDef = m.saverDef;
    tf::SignatureDef sig;
    sig.set_method_name(std::string(saved_model::kPredictMethod));
    (*sig.mutable_inputs())["x"] = tensorInfo("X:0", tf::DT_FLOAT, TensorShape({-1, 3}));
    (*sig.mutable_outputs())["y"] = tensorInfo("pred:0", tf::DT_FLOAT, TensorShape({-1, 2}));
    options.signatureDefs[signature] = sig;
    tf::AssetFileDef asset;
    asset.mutable_tensor_info()->set_name("asset_path:0");
    asset.set_filename("vocab.txt");
    options.assetFileDefs.push_back(asset);
    return exportMetaGraph(*m.builder, options);
}

std::vector<float> valuesOf(const Tensor& t)
{
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

bool copyFile(const QString& from, const QString& to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    return QFile::copy(from, to);
}

} // namespace

class TestSavedModel : public QObject {
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

    void loadsTensorFlowsSavedModel()
    {
        if (fixturesDir().isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's SavedModel is not checked");
        auto bundle = loadSavedModel(fixtureSavedModel(), sessionOptions());
        QVERIFY2(bundle, err(bundle));
        QCOMPARE((*bundle)->metaGraph().meta_info_def().tags(0), std::string("serve"));

        const std::vector<SignatureInfo> signatures = (*bundle)->signatures();
        QCOMPARE(int(signatures.size()), 1);
        const SignatureInfo& serving = signatures[0];
        QCOMPARE(serving.key, std::string("serving_default"));
        QCOMPARE(serving.methodName, std::string("tensorflow/serving/predict"));
        QCOMPARE(int(serving.inputs.size()), 1);
        QCOMPARE(serving.inputs[0].key, std::string("X"));
        QCOMPARE(serving.inputs[0].tensorName, std::string("X:0"));
        QCOMPARE(serving.inputs[0].dtype, tf::DT_FLOAT);
        QCOMPARE(serving.inputs[0].shape.rank(), -1);
        QCOMPARE(serving.outputs[0].key, std::string("pred"));
        QCOMPARE(serving.outputs[0].tensorName, std::string("pred:0"));

        auto out = (*bundle)->runSignature("serving_default", {{"X", floats({1}, {5.0f})}});
        QVERIFY2(out, err(out));
        const float pred = out->at("pred").values<float>()[0];
        QVERIFY2(std::abs(pred - kRegressionPred) <= 1e-6, qPrintable(QString::number(pred, 'g', 9)));
        qInfo("serving_default: pred = %.9g for X = [5.0] (TensorFlow: 2.1193342)", double(pred));

        std::vector<Tensor> direct;
        QVERIFY((*bundle)->session().run({{"X:0", floats({1}, {5.0f})}}, {"pred:0"}, {}, &direct).isOk());
        QCOMPARE(direct[0].values<float>()[0], pred);

        // Signature errors.
        auto unknown = (*bundle)->runSignature("predict", {});
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().message(),
                 std::string(
                     "Signature 'predict' not found in the SavedModel's MetaGraph; its signatures: serving_default"));
        auto missing = (*bundle)->runSignature("serving_default", {});
        QVERIFY(!missing);
        QCOMPARE(missing.error().message(),
                 std::string("input 'X' of signature 'serving_default' (tensor X:0) was not given"));
        CpuAllocator allocator;
        auto ints = Tensor::fromVector<std::int32_t>(allocator, TensorShape({1}), {5});
        auto wrongType = (*bundle)->runSignature("serving_default", {{"X", *ints}});
        QVERIFY(!wrongType);
        QCOMPARE(wrongType.error().message(),
                 std::string("input 'X' of signature 'serving_default' expects float but int32 was given"));
        auto extra =
            (*bundle)->runSignature("serving_default", {{"X", floats({1}, {5.0f})}, {"Y", floats({1}, {1.0f})}});
        QVERIFY(!extra);
        QCOMPARE(extra.error().message(), std::string("signature 'serving_default' has no input 'Y'; its inputs: X"));

        // Under an import scope the tensors move, the signature still works.
        auto scoped = loadSavedModel(fixtureSavedModel(), sessionOptions(), {.importScope = "m", .clearDevices = true});
        QVERIFY2(scoped, err(scoped));
        QVERIFY((*scoped)->session().graph()->findNode("m/pred").has_value());
        auto scopedOut = (*scoped)->runSignature("serving_default", {{"X", floats({1}, {5.0f})}});
        QVERIFY2(scopedOut, err(scopedOut));
        QCOMPARE(scopedOut->at("pred").values<float>()[0], pred);
    }

    void damagedSavedModelsFailClearly()
    {
        if (fixturesDir().isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's SavedModel is not checked");
        auto wrongTags = loadSavedModel(fixtureSavedModel(), sessionOptions(), {.tags = {"train"}});
        QVERIFY(!wrongTags);
        QCOMPARE(wrongTags.error().code(), StatusCode::kNotFound);
        QCOMPARE(wrongTags.error().message(),
                 "MetaGraphDef associated with tags 'train' could not be found in SavedModel '" + fixtureSavedModel() +
                     "'. Available tag sets: {serve}");

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString source = QString::fromStdString(fixtureSavedModel()) + "/saved_model.pb";
        // The graph without its variables/ directory.
        const QString noVariables = tmp.filePath("no_variables");
        QVERIFY(copyFile(source, noVariables + "/saved_model.pb"));
        auto lost = loadSavedModel(noVariables.toStdString(), sessionOptions());
        QVERIFY(!lost);
        QCOMPARE(lost.error().code(), StatusCode::kNotFound);
        QVERIFY2(lost.error().message().find(noVariables.toStdString() +
                                             "/variables/variables.index' does not exist") != std::string::npos,
                 err(lost));

        // A truncated saved_model.pb.
        QFile in(source);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        const QString truncated = tmp.filePath("truncated");
        QVERIFY(writeFile(truncated + "/saved_model.pb", bytes.left(bytes.size() / 2).toStdString()));
        auto cut = loadSavedModel(truncated.toStdString(), sessionOptions());
        QVERIFY(!cut);
        QCOMPARE(cut.error().code(), StatusCode::kDataLoss);
        QCOMPARE(cut.error().message(),
                 "file '" + truncated.toStdString() +
                     "/saved_model.pb' is not a valid binary SavedModel (truncated or corrupted, " +
                     std::to_string(bytes.size() / 2) + " bytes)");

        // No SavedModel file at all.
        auto none = loadSavedModel(tmp.filePath("nothing").toStdString(), sessionOptions());
        QVERIFY(!none);
        QCOMPARE(none.error().message(), "SavedModel file does not exist at: " + tmp.filePath("nothing").toStdString() +
                                             "/{saved_model.pbtxt|saved_model.pb}");
    }

    void savesAndLoadsTwoMetaGraphsSharingOneCheckpoint()
    {
        BuiltModel m = buildModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        Session session(sessionOptions());
        QVERIFY(session.create(m.builder->graphDef()).isOk());
        std::vector<Tensor> out;
        QVERIFY(session.run({}, {}, {"init"}, &out).isOk());
        const Tensor x = floats({2, 3}, {1.0f, -2.0f, 0.5f, 3.0f, 0.25f, -1.5f});
        QVERIFY(session.run({{"X:0", x}}, {"pred:0"}, {}, &out).isOk());
        const std::vector<float> expected = valuesOf(out[0]);

        auto serve = exportBuilt(m, "serving_default");
        auto train = exportBuilt(m, "train_signature");
        QVERIFY2(serve && train, err(serve ? train : serve));

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString vocab = tmp.filePath("vocab-source.txt");
        QVERIFY(writeFile(vocab, "a\nb\n"));
        const fs::path dir = tmp.filePath("export/1").toStdString();
        SavedModelSaveOptions saveOptions;
        saveOptions.assets = {{"vocab.txt", vocab.toStdString()}};
        Status saved = saveSavedModel(dir, session, {{*serve, {"serve"}}, {*train, {"train", "gpu"}}}, saveOptions);
        QVERIFY2(saved.isOk(), err(saved));

        // The layout TensorFlow writes, nothing else; no temporary directory left beside it.
        std::set<std::string> files;
        for (const auto& entry : fs::recursive_directory_iterator(dir))
            files.insert(fs::relative(entry.path(), dir).string());
        QCOMPARE(files,
                 (std::set<std::string>{"assets", "assets/vocab.txt", "saved_model.pb", "variables",
                                        "variables/variables.data-00000-of-00001", "variables/variables.index"}));
        QCOMPARE(int(std::distance(fs::directory_iterator(dir.parent_path()), fs::directory_iterator())), 1);
        auto model = readSavedModelFile(dir);
        QVERIFY2(model, err(model));
        QCOMPARE(model->saved_model_schema_version(), std::int64_t(1));
        QCOMPARE(savedModelTagSets(*model), (std::vector<std::string>{"{serve}", "{train, gpu}"}));

        for (const std::vector<std::string>& tags : {std::vector<std::string>{"serve"}, {"gpu", "train"}}) {
            auto bundle = loadSavedModel(dir, sessionOptions(), {.tags = tags});
            QVERIFY2(bundle, err(bundle));
            const std::string key = tags.size() == 1 ? "serving_default" : "train_signature";
            auto result = (*bundle)->runSignature(key, {{"x", x}});
            QVERIFY2(result, err(result));
            QCOMPARE(valuesOf(result->at("y")), expected); // bit for bit, from the one checkpoint
            // The main op ran with the asset's path fed.
            std::vector<Tensor> path;
            QVERIFY((*bundle)->session().run({}, {"vocab_path:0"}, {}, &path).isOk());
            QCOMPARE(path[0].strings()[0], (dir / "assets" / "vocab.txt").string());
        }

        // Without a saver_def the variables are restored by name, as the Saver TensorFlow builds.
        const fs::path noSaverDir = tmp.filePath("no_saver_def").toStdString();
        tf::SavedModel stripped = *model;
        stripped.mutable_meta_graphs(0)->clear_saver_def();
        fs::create_directories(noSaverDir);
        fs::copy(dir / "variables", noSaverDir / "variables");
        fs::copy(dir / "assets", noSaverDir / "assets");
        QVERIFY(
            writeFile(QString::fromStdString((noSaverDir / "saved_model.pb").string()), stripped.SerializeAsString()));
        auto byName = loadSavedModel(noSaverDir, sessionOptions());
        QVERIFY2(byName, err(byName));
        QVERIFY(!(*byName)->imported().saverDef);
        auto byNameResult = (*byName)->runSignature("serving_default", {{"x", x}});
        QVERIFY2(byNameResult, err(byNameResult));
        QCOMPARE(valuesOf(byNameResult->at("y")), expected);

        // A second save into the same, now full, directory is refused and leaves no litter.
        Status again = saveSavedModel(dir, session, {{*serve, {"serve"}}});
        QCOMPARE(again.code(), StatusCode::kAlreadyExists);
        QCOMPARE(again.message(), "Export directory already exists, and isn't empty. Please choose a different export "
                                  "directory, or delete all the contents of the specified directory: " +
                                      dir.string());
        QCOMPARE(int(std::distance(fs::directory_iterator(dir.parent_path()), fs::directory_iterator())), 1);

        // Text form; and a MetaGraph with variables but no saver cannot be saved.
        const fs::path textDir = tmp.filePath("text").toStdString();
        saved = saveSavedModel(textDir, session, {{*serve, {"serve"}}}, {.asText = true, .assets = saveOptions.assets});
        QVERIFY2(saved.isOk(), err(saved));
        QVERIFY(fs::exists(textDir / "saved_model.pbtxt") && !fs::exists(textDir / "saved_model.pb"));
        auto fromText = loadSavedModel(textDir, sessionOptions());
        QVERIFY2(fromText, err(fromText));
        auto textResult = (*fromText)->runSignature("serving_default", {{"x", x}});
        QVERIFY2(textResult, err(textResult));
        QCOMPARE(valuesOf(textResult->at("y")), expected);

        tf::MetaGraphDef noSaver = *serve;
        noSaver.clear_saver_def();
        Status refused = saveSavedModel(tmp.filePath("nosaver").toStdString(), session, {{noSaver, {"serve"}}});
        QCOMPARE(refused.code(), StatusCode::kFailedPrecondition);
        QVERIFY(!fs::exists(tmp.filePath("nosaver").toStdString()));
        Status twice = saveSavedModel(tmp.filePath("twice").toStdString(), session,
                                      {{*serve, {"serve", "x"}}, {*train, {"x", "serve"}}});
        QCOMPARE(twice.code(), StatusCode::kInvalidArgument);
    }

    /// A signature with a sparse (coo_sparse) input and a sparse output, as tf.estimator exports
    /// sparse features: the input is given as its three components "sp/indices", "sp/values" and
    /// "sp/dense_shape"; the sparse output comes back the same way.
    void sparseSignatureInputsAndOutputs()
    {
        BuiltModel m = buildModel(m_registries->ops);
        QVERIFY2(m.error.empty(), m.error.c_str());
        GraphBuilder& b = *m.builder;
        auto indices = ops::placeholder(b, tf::DT_INT64, TensorShape({-1, 2}), "sp/indices");
        auto values = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1}), "sp/values");
        auto shape = ops::placeholder(b, tf::DT_INT64, TensorShape({2}), "sp/shape");
        QVERIFY(indices && values && shape);
        auto zero = ops::constant(b, std::vector<double>{0.0}, TensorShape::scalar(), tf::DT_FLOAT, "zero");
        QVERIFY(zero);
        auto dense = b.op("SparseToDense", {*indices, *shape, *values, *zero}, {}, "dense");
        QVERIFY2(dense, err(dense));
        auto doubled = ops::add(b, *values, *values, "doubled");
        QVERIFY2(doubled, err(doubled));

        tf::SignatureDef sig;
        sig.set_method_name(std::string(saved_model::kPredictMethod));
        tf::TensorInfo sparseIn;
        sparseIn.set_dtype(tf::DT_FLOAT);
        sparseIn.mutable_coo_sparse()->set_indices_tensor_name("sp/indices:0");
        sparseIn.mutable_coo_sparse()->set_values_tensor_name("sp/values:0");
        sparseIn.mutable_coo_sparse()->set_dense_shape_tensor_name("sp/shape:0");
        (*sig.mutable_inputs())["sp"] = sparseIn;
        (*sig.mutable_outputs())["dense"] = tensorInfo("dense:0", tf::DT_FLOAT, TensorShape({-1, -1}));
        tf::TensorInfo sparseOut = sparseIn;
        sparseOut.mutable_coo_sparse()->set_values_tensor_name("doubled:0");
        (*sig.mutable_outputs())["twice"] = sparseOut;
        MetaGraphExportOptions options;
        options.saverDef = m.saverDef;
        options.signatureDefs["serving_default"] = sig;
        auto meta = exportMetaGraph(b, options);
        QVERIFY2(meta, err(meta));

        Session session(sessionOptions());
        QVERIFY(session.create(b.graphDef()).isOk());
        std::vector<Tensor> out;
        QVERIFY(session.run({}, {}, {"init"}, &out).isOk());
        QTemporaryDir tmp;
        const fs::path dir = tmp.filePath("sparse").toStdString();
        QVERIFY2(saveSavedModel(dir, session, {{*meta, {"serve"}}}).isOk(), "save");
        auto bundle = loadSavedModel(dir, sessionOptions());
        QVERIFY2(bundle, err(bundle));
        const auto signature = (*bundle)->signature("serving_default");
        QVERIFY(signature && signature->inputs.size() == 1 && signature->inputs[0].sparse);
        QCOMPARE(signature->inputs[0].sparse->denseShape, std::string("sp/shape:0"));

        static CpuAllocator allocator;
        const Tensor idx = *Tensor::fromVector<std::int64_t>(allocator, TensorShape({2, 2}), {0, 1, 1, 0});
        const Tensor vals = floats({2}, {5.0f, 7.0f});
        const Tensor dims = *Tensor::fromVector<std::int64_t>(allocator, TensorShape({2}), {2, 3});
        auto result = (*bundle)->runSignature("serving_default",
                                              {{"sp/indices", idx}, {"sp/values", vals}, {"sp/dense_shape", dims}});
        QVERIFY2(result, err(result));
        QCOMPARE(valuesOf(result->at("dense")), (std::vector<float>{0, 5, 0, 7, 0, 0}));
        QCOMPARE(valuesOf(result->at("twice/values")), (std::vector<float>{10, 14}));
        const auto gotIndices = result->at("twice/indices").values<std::int64_t>();
        QCOMPARE(std::vector<std::int64_t>(gotIndices.begin(), gotIndices.end()), (std::vector<std::int64_t>{0, 1, 1, 0}));
        QCOMPARE(result->at("twice/dense_shape").values<std::int64_t>()[1], std::int64_t(3));

        // A missing component is named; a whole-tensor key for the sparse input is not an input.
        auto missing = (*bundle)->runSignature("serving_default", {{"sp/indices", idx}, {"sp/values", vals}});
        QVERIFY(!missing);
        QVERIFY2(missing.error().message().find("'sp/dense_shape'") != std::string::npos, err(missing));
        auto whole = (*bundle)->runSignature("serving_default", {{"sp", vals}});
        QVERIFY(!whole);
        QCOMPARE(whole.error().code(), StatusCode::kInvalidArgument);
    }
};

QTEST_GUILESS_MAIN(TestSavedModel)
#include "test_saved_model.moc"
