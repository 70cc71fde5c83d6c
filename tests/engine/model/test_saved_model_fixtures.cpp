// SavedModels TensorFlow wrote (../shared/fixtures), detected, read and run through the engine's
// public API as `tstudio inspect` and `tstudio run --signature` do: two Keras models of TensorFlow
// 2.2 / 2.3 (object graph, object-based checkpoint, functions called through
// StatefulPartitionedCall), two tf.Module exports of TensorFlow 2.3 without variables (one parses
// tf.Examples), and an Estimator's TensorFlow 1.14 export. Expected outputs are the fixtures README's,
// computed in NumPy from the weights an independent reader (bundle.py) read, or by interp.py.
#include "io/checkpoint/checkpoint_reader.h"
#include "io/file_kind_detector.h"
#include "model/saved_model.h"
#include "model/saved_object_graph.h"
#include "runtime/session.h"

#include "model_test_support.h"
#include "shared_registries.h"
#include "fixture_paths.h"
#include "test_files.h"

#include <QTest>

#include <cmath>
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

/// Loads `dir` as a user opens it: the front door says it is a SavedModel, then the loader runs.
Expected<std::unique_ptr<SavedModelBundle>> load(const fs::path& dir)
{
    auto report = detectFileKind(dir);
    if (!report)
        return unexpected(report.error());
    if (report->kind != FileKind::kSavedModel)
        return unexpected(invalidArgumentError("not recognised as a SavedModel: " + report->detail));
    return loadSavedModel(dir, sessionOptions());
}

/// |a - e| <= 1e-6 |e| + 1e-7 for every element (float32 results against the README's figures,
/// computed in float64 and printed to 7 significant digits), in a tensor of `shape`.
bool closeTo(const Tensor& actual, const TensorShape& shape, const std::vector<double>& expected, QString* why)
{
    if (!(actual.shape() == shape)) {
        *why = QString("expected float %1, got %2")
                   .arg(QString::fromStdString(shape.toString()), QString::fromStdString(actual.debugString()));
        return false;
    }
    return floatsNear(actual, expected, 1e-6, 1e-7, why);
}

std::map<std::string, int> opCounts(const tf::GraphDef& graph)
{
    std::map<std::string, int> out;
    for (const tf::NodeDef& node : graph.node())
        ++out[node.op()];
    return out;
}

} // namespace

class TestSavedModelFixtures : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;

    template <typename T> Tensor make(const TensorShape& shape, const std::vector<T>& values)
    {
        auto t = Tensor::fromVector(m_allocator, shape, values);
        return t ? *t : Tensor();
    }

private slots:
    /// tf2-keras-cppflow/multi_input_output, without running it: what the detector, the signature
    /// listing and the object graph say, and where the object graph puts each variable in the
    /// object-based checkpoint (the README's mapping, read from the saver function by hand).
    void kerasMultiInputOutputAsStored()
    {
        const fs::path dir = fixturePath("tf2-keras-cppflow/multi_input_output/model");
        if (dir.empty())
            QSKIP(missingFixture("tf2-keras-cppflow/multi_input_output/model"));
        auto report = detectFileKind(dir);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(int(report->kind), int(FileKind::kSavedModel));
        QCOMPARE(report->metaGraphCount.value_or(-1), 1);
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(24));
        QCOMPARE(report->functionCount.value_or(-1), std::int64_t(26));
        QCOMPARE(report->producerVersion.value_or(-1), 440);
        QCOMPARE(report->tensorflowVersion, std::string("2.3.0"));

        auto model = readSavedModelFile(dir);
        QVERIFY2(model.has_value(), err(model));
        QCOMPARE(savedModelTagSets(*model), std::vector<std::string>{"{serve}"});
        const tf::MetaGraphDef& meta = model->meta_graphs(0);
        const auto ops = opCounts(meta.graph_def());
        QCOMPARE(ops, (std::map<std::string, int>{{"VarHandleOp", 8},
                                                  {"ReadVariableOp", 8},
                                                  {"StatefulPartitionedCall", 3},
                                                  {"Placeholder", 3},
                                                  {"NoOp", 1},
                                                  {"Const", 1}}));

        std::map<std::string, SignatureInfo> signatures;
        for (SignatureInfo& s : signaturesOf(meta))
            signatures.emplace(s.key, std::move(s));
        QVERIFY(signatures.count("__saved_model_init_op") == 1);
        const SignatureInfo& serving = signatures.at("serving_default");
        QCOMPARE(serving.methodName, std::string("tensorflow/serving/predict"));
        QCOMPARE(serving.inputs.size(), std::size_t(2));
        QCOMPARE(serving.outputs.size(), std::size_t(2));
        for (int i = 0; i < 2; ++i) {
            const SignatureTensor& in = serving.inputs[std::size_t(i)];
            QCOMPARE(in.key, "my_input_" + std::to_string(i + 1));
            QCOMPARE(in.tensorName, "serving_default_my_input_" + std::to_string(i + 1) + ":0");
            QCOMPARE(int(in.dtype), int(tf::DT_FLOAT));
            QVERIFY2(in.shape == TensorShape({-1, 5}), in.shape.toString().c_str());
            const SignatureTensor& out = serving.outputs[std::size_t(i)];
            QCOMPARE(out.key, "my_outputs_" + std::to_string(i + 1));
            QCOMPARE(out.tensorName, "StatefulPartitionedCall:" + std::to_string(i));
            QVERIFY2(out.shape == TensorShape({-1, 1}), out.shape.toString().c_str());
        }

        auto objects = readSavedObjectGraph(meta, (dir / "saved_model.pb").string());
        QVERIFY2(objects.has_value(), err(objects));
        QCOMPARE(objects->nodeCount, 75);
        QCOMPARE(objects->variables.size(), std::size_t(8));
        const std::map<std::string, std::string> layerOf = {{"dense", "layer_with_weights-0"},
                                                            {"dense_1", "layer_with_weights-1"},
                                                            {"my_outputs_1", "layer_with_weights-2"},
                                                            {"my_outputs_2", "layer_with_weights-3"}};
        auto checkpoint = CheckpointReader::open((dir / "variables/variables").string());
        QVERIFY2(checkpoint.has_value(), err(checkpoint));
        QCOMPARE(checkpoint->tensors().size(), std::size_t(9));
        QVERIFY(checkpoint->contains("_CHECKPOINTABLE_OBJECT_GRAPH"));
        for (const SavedObjectVariable& v : objects->variables) {
            const auto slash = v.name.find('/');
            QVERIFY2(slash != std::string::npos && layerOf.count(v.name.substr(0, slash)), v.name.c_str());
            const std::string key = variableValueKey(v.path);
            QCOMPARE(key, layerOf.at(v.name.substr(0, slash)) + v.name.substr(slash) + "/.ATTRIBUTES/VARIABLE_VALUE");
            auto value = checkpoint->read(key, m_allocator);
            QVERIFY2(value.has_value(), err(value));
            QVERIFY2(value->shape() == v.shape, key.c_str());
            if (v.name.ends_with("/bias")) // compiled, never trained: every bias is 0
                for (float b : value->values<float>())
                    QCOMPARE(b, 0.0f);
        }
    }

    /// The same model run through serving_default (`tstudio run --signature serving_default`).
    void kerasMultiInputOutputRuns()
    {
        const fs::path dir = fixturePath("tf2-keras-cppflow/multi_input_output/model");
        if (dir.empty())
            QSKIP(missingFixture("tf2-keras-cppflow/multi_input_output/model"));
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        QCOMPARE((*bundle)->objectGraph().nodeCount, 75);
        const Tensor x1 = make<float>({2, 5}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, -1, 0, 1, 2, 3});
        const Tensor x2 = make<float>({2, 5}, {1, -1, 0.5f, 2, 0, 0, 0, 0, 0, 0});
        auto outputs = (*bundle)->runSignature("serving_default", {{"my_input_1", x1}, {"my_input_2", x2}});
        QVERIFY2(outputs.has_value(), err(outputs));
        QCOMPARE(outputs->size(), std::size_t(2));
        QString why;
        QVERIFY2(closeTo(outputs->at("my_outputs_1"), {2, 1}, {0.5396630, 0.6827710}, &why), qPrintable(why));
        QVERIFY2(closeTo(outputs->at("my_outputs_2"), {2, 1}, {0.7670713, 0.5}, &why), qPrintable(why));
        // A zero input with zero biases: sigmoid(0), exactly.
        QCOMPARE(outputs->at("my_outputs_2").values<float>()[1], 0.5f);
    }

    /// tf2-keras-cppflow/load_model: TensorFlow 2.2's Dense(5, relu) -> Dense(1, sigmoid), whose saver
    /// function merges two SaveV2 shards into one data file.
    void kerasLoadModelRuns()
    {
        const fs::path dir = fixturePath("tf2-keras-cppflow/load_model/model");
        if (dir.empty())
            QSKIP(missingFixture("tf2-keras-cppflow/load_model/model"));
        auto report = detectFileKind(dir);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(15));
        QCOMPARE(report->functionCount.value_or(-1), std::int64_t(20));
        QCOMPARE(report->producerVersion.value_or(-1), 175);
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        auto serving = (*bundle)->signature("serving_default");
        QVERIFY2(serving.has_value(), err(serving));
        QCOMPARE(serving->inputs.at(0).tensorName, std::string("serving_default_input_1:0"));
        QCOMPARE(serving->outputs.at(0).key, std::string("dense_1"));
        const Tensor x = make<float>({2, 5}, {1, 2, 3, 4, 5, 0.5f, -0.5f, 0.25f, -0.25f, 0});
        auto outputs = (*bundle)->runSignature("serving_default", {{"input_1", x}});
        QVERIFY2(outputs.has_value(), err(outputs));
        QString why;
        QVERIFY2(closeTo(outputs->at("dense_1"), {2, 1}, {0.9998578, 0.5633329}, &why), qPrintable(why));
    }

    /// tf2-module-serving/x_plus_one: an int32 scalar signature with no variables; 41 gives 42.
    void moduleXPlusOne()
    {
        const fs::path dir = fixturePath("tf2-module-serving/x_plus_one/1");
        if (dir.empty())
            QSKIP(missingFixture("tf2-module-serving/x_plus_one/1"));
        auto report = detectFileKind(dir);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(7));
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        QVERIFY((*bundle)->objectGraph().variables.empty());
        auto outputs = (*bundle)->runSignature("predict", {{"x", make<std::int32_t>(TensorShape::scalar(), {41})}});
        QVERIFY2(outputs.has_value(), err(outputs));
        const Tensor& result = outputs->at("result");
        QCOMPARE(int(result.dtype()), int(tf::DT_INT32));
        QCOMPARE(result.rank(), 0);
        QCOMPARE(result.values<std::int32_t>()[0], 42);
    }

    /// tf2-module-serving/regress_model: serialized tf.Examples in, ParseExampleV2 (price_today,
    /// default 0), x2, +3: the README's three Examples give [9, 13, 3].
    void moduleRegressParsesExamples()
    {
        const fs::path dir = fixturePath("tf2-module-serving/regress_model/1");
        if (dir.empty())
            QSKIP(missingFixture("tf2-module-serving/regress_model/1"));
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        auto signature = (*bundle)->signature("regress_signature");
        QVERIFY2(signature.has_value(), err(signature));
        QCOMPARE(signature->inputs.at(0).tensorName, std::string("regress_signature_inputs:0"));
        QCOMPARE(int(signature->inputs.at(0).dtype), int(tf::DT_STRING));
        QCOMPARE(signature->outputs.at(0).tensorName, std::string("PartitionedCall:0"));
        const std::vector<std::string> examples = {
            fromHex("0a190a170a0b70726963655f746f646179120812060a0400004040"), // price_today = 3
            fromHex("0a190a170a0b70726963655f746f646179120812060a040000a040"), // price_today = 5
            fromHex("0a130a110a056f74686572120812060a040000803f"),             // only `other`
        };
        auto outputs = (*bundle)->runSignature("regress_signature", {{"inputs", make<std::string>({3}, examples)}});
        QVERIFY2(outputs.has_value(), err(outputs));
        QString why;
        QVERIFY2(closeTo(outputs->at("outputs"), {3}, {9, 13, 3}, &why), qPrintable(why));
    }

    /// tf1-estimator-tfdata/saved_model: a TensorFlow 1.14 SavedModel (no object graph, VariableV2
    /// variables restored through saver_def); the model learnt y = 2x.
    void estimatorSavedModelRuns()
    {
        const fs::path dir = fixturePath("tf1-estimator-tfdata/saved_model/1567058788");
        if (dir.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata/saved_model/1567058788"));
        auto report = detectFileKind(dir);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(report->nodeCount.value_or(-1), std::int64_t(68));
        QCOMPARE(report->tensorflowVersion, std::string("1.14.0"));
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        QVERIFY(!hasObjectGraph((*bundle)->metaGraph()));
        const auto ops = opCounts((*bundle)->metaGraph().graph_def());
        QVERIFY(ops.count("VariableV2") == 1 && ops.at("VariableV2") >= 4);
        QVERIFY(ops.count("VarHandleOp") == 0);
        auto serving = (*bundle)->signature("serving_default");
        QVERIFY2(serving.has_value(), err(serving));
        QCOMPARE(serving->inputs.at(0).key, std::string("number"));
        QCOMPARE(serving->inputs.at(0).tensorName, std::string("number:0"));
        QVERIFY(serving->inputs.at(0).shape == TensorShape({-1, 1}));
        QCOMPARE(serving->outputs.at(0).key, std::string("output"));
        QCOMPARE(serving->outputs.at(0).tensorName, std::string("dense_1/BiasAdd:0"));
        auto outputs = (*bundle)->runSignature("serving_default", {{"number", make<float>({3, 1}, {1, 2.5f, -3})}});
        QVERIFY2(outputs.has_value(), err(outputs));
        QString why;
        QVERIFY2(closeTo(outputs->at("output"), {3, 1}, {2.000062, 5.000061, -5.999934}, &why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestSavedModelFixtures)
#include "test_saved_model_fixtures.moc"
