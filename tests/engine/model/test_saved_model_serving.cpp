// A SavedModel as tf.estimator exports it for TensorFlow Serving: a `predict` signature on a float
// placeholder, and `classify` / `regress` signatures that take serialized tf.train.Example protos
// through ParseExample. The model is saved, loaded back and run through each signature; the
// Examples are written byte by byte here (not with our protobuf classes), and every output is checked
// against softmax(x W + b) computed in the test from the restored weights.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/parsing.h"
#include "builder/variables.h"
#include "model/meta_graph.h"
#include "model/saved_model.h"
#include "model/saver.h"
#include "registries/default_registries.h"

#include "model_test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

constexpr int kFeatures = 2;
constexpr int kClasses = 3;

/// The wire bytes of Example{features{feature{key: "x", value{float_list{value: xs}}}}}, built by
/// hand from the field numbers (Example.features = 1, Features.feature = 1 (map entry: key 1,
/// value 2), Feature.float_list = 2, FloatList.value = 1 packed).
std::string exampleBytes(const std::string& key, const std::vector<float>& xs)
{
    auto varint = [](std::string& out, std::uint64_t v) {
        while (v >= 0x80) {
            out.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out.push_back(static_cast<char>(v));
    };
    auto field = [&](std::string& out, int number, const std::string& payload) {
        varint(out, (static_cast<std::uint64_t>(number) << 3) | 2);
        varint(out, payload.size());
        out += payload;
    };
    std::string packed;
    for (float x : xs) {
        char bytes[4];
        std::memcpy(bytes, &x, 4); // little-endian on every platform we build for
        packed.append(bytes, 4);
    }
    std::string floatList, feature, entry, features, example;
    field(floatList, 1, packed);
    field(feature, 2, floatList);
    field(entry, 1, key);
    field(entry, 2, feature);
    field(features, 1, entry);
    field(example, 1, features);
    return example;
}

tf::TensorInfo info(const std::string& name, DataType dtype)
{
    tf::TensorInfo t;
    t.set_name(name);
    t.set_dtype(dtype);
    return t;
}

struct Served {
    std::unique_ptr<GraphBuilder> builder;
    tf::MetaGraphDef meta;
    std::string error;
};

/// logits = x W + b on two paths sharing W and b: the placeholder "x" (predict) and the dense
/// feature "x" of ParseExample over the placeholder "input_example_tensor" (classify, regress).
Served buildServed(const OpRegistry& ops)
{
    Served s;
    s.builder = std::make_unique<GraphBuilder>(ops);
    GraphBuilder& b = *s.builder;
    b.setRandomSeed(11);
    auto fail = [&](const Status& st) {
        s.error = st.toString();
        return std::move(s);
    };
    auto w = getVariable(b, "W", TensorShape({kFeatures, kClasses}), tf::DT_FLOAT, Initializer::randomNormal());
    auto bias = getVariable(b, "b", TensorShape({kClasses}), tf::DT_FLOAT, Initializer::randomNormal());
    if (!w || !bias)
        return fail(!w ? w.error() : bias.error());
    auto head = [&](const Output& x, const std::string& prefix) -> Expected<Output> {
        auto mm = ops::matMul(b, x, w->value());
        if (!mm)
            return mm;
        auto logits = ops::add(b, *mm, bias->value(), prefix + "logits");
        if (!logits)
            return logits;
        auto softmax = b.op("Softmax", {*logits}, {}, prefix + "probabilities");
        if (!softmax)
            return unexpected(softmax.error());
        return softmax->output(0);
    };
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, kFeatures}), "x");
    auto serialized = ops::placeholder(b, tf::DT_STRING, TensorShape({-1}), "input_example_tensor");
    if (!x || !serialized)
        return fail(!x ? x.error() : serialized.error());
    parsing::FixedLenFeature feature;
    feature.shape = TensorShape({kFeatures});
    auto parsed = parsing::parseExample(b, *serialized, {{"x", feature}});
    if (!parsed)
        return fail(parsed.error());
    auto predict = head(*x, "predict/");
    auto classify = head(parsed->dense.at("x"), "classify/");
    if (!predict || !classify)
        return fail(!predict ? predict.error() : classify.error());
    auto axis = ops::constant(b, 1.0, tf::DT_INT32, "regress/axis");
    auto regress = axis ? ops::sum(b, *classify, *axis, false, "regress/outputs") : axis;
    if (!regress)
        return fail(regress.error());
    if (auto init = globalVariablesInitializer(b); !init)
        return fail(init.error());
    auto saver = Saver::create(b);
    if (!saver)
        return fail(saver.error());

    MetaGraphExportOptions options;
    options.saverDef = saver->saverDef();
    tf::SignatureDef predictSig;
    predictSig.set_method_name("tensorflow/serving/predict");
    (*predictSig.mutable_inputs())["x"] = info("x:0", tf::DT_FLOAT);
    (*predictSig.mutable_outputs())["probabilities"] = info(predict->name(), tf::DT_FLOAT);
    tf::SignatureDef classifySig;
    classifySig.set_method_name("tensorflow/serving/classify");
    (*classifySig.mutable_inputs())["inputs"] = info("input_example_tensor:0", tf::DT_STRING);
    (*classifySig.mutable_outputs())["scores"] = info(classify->name(), tf::DT_FLOAT);
    tf::SignatureDef regressSig;
    regressSig.set_method_name("tensorflow/serving/regress");
    (*regressSig.mutable_inputs())["inputs"] = info("input_example_tensor:0", tf::DT_STRING);
    (*regressSig.mutable_outputs())["outputs"] = info(regress->name(), tf::DT_FLOAT);
    options.signatureDefs["predict"] = predictSig;
    options.signatureDefs["serving_default"] = classifySig;
    options.signatureDefs["regression"] = regressSig;
    auto meta = exportMetaGraph(b, options);
    if (!meta)
        return fail(meta.error());
    s.meta = std::move(*meta);
    return s;
}

} // namespace

class TestSavedModelServing : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;
    std::string m_exported;
    CpuAllocator m_allocator;

    SessionOptions sessionOptions() const { return {{}, &m_registries->ops, &m_registries->kernels}; }

    Tensor strings(const std::vector<std::string>& values)
    {
        Tensor t = *Tensor::allocate(m_allocator, tf::DT_STRING, TensorShape({static_cast<std::int64_t>(values.size())}));
        for (std::size_t i = 0; i < values.size(); ++i)
            t.strings()[i] = values[i];
        return t;
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
        Served served = buildServed(m_registries->ops);
        QVERIFY2(served.error.empty(), served.error.c_str());
        Session session(sessionOptions());
        QVERIFY(session.create(served.builder->graphDef()).isOk());
        QVERIFY(session.run({}, {}, {"init"}, nullptr).isOk());
        m_exported = m_dir.filePath("export/1").toStdString();
        const Status saved = saveSavedModel(m_exported, session, {{served.meta, {"serve"}}});
        QVERIFY2(saved.isOk(), saved.toString().c_str());
    }

    void everySignatureGivesTheModelsProbabilities()
    {
        auto bundle = loadSavedModel(m_exported, sessionOptions());
        QVERIFY2(bundle, err(bundle));
        // The weights as restored, for the reference computed here.
        std::vector<Tensor> weights;
        QVERIFY((*bundle)->session().run({}, {"W:0", "b:0"}, {}, &weights).isOk());
        const auto w = weights[0].values<float>();
        const auto bias = weights[1].values<float>();
        const std::vector<std::vector<float>> rows = {{0.5f, -1.25f}, {2.0f, 0.75f}, {-3.0f, 1.5f}};
        auto reference = [&](const std::vector<float>& x) {
            std::vector<double> logits(kClasses);
            double top = -1e300;
            for (int c = 0; c < kClasses; ++c) {
                logits[c] = bias[c];
                for (int f = 0; f < kFeatures; ++f)
                    logits[c] += double(x[f]) * double(w[f * kClasses + c]);
                top = std::max(top, logits[c]);
            }
            double total = 0;
            for (double& l : logits)
                total += (l = std::exp(l - top));
            for (double& l : logits)
                l /= total;
            return logits;
        };

        std::vector<float> flat;
        std::vector<std::string> examples;
        for (const auto& row : rows) {
            flat.insert(flat.end(), row.begin(), row.end());
            examples.push_back(exampleBytes("x", row));
        }
        auto predicted = (*bundle)->runSignature("predict", {{"x", *Tensor::fromVector<float>(m_allocator, TensorShape({3, kFeatures}), flat)}});
        QVERIFY2(predicted, err(predicted));
        auto classified = (*bundle)->runSignature("serving_default", {{"inputs", strings(examples)}});
        QVERIFY2(classified, err(classified));
        auto regressed = (*bundle)->runSignature("regression", {{"inputs", strings(examples)}});
        QVERIFY2(regressed, err(regressed));
        const auto p = predicted->at("probabilities").values<float>();
        const auto scores = classified->at("scores").values<float>();
        const auto sums = regressed->at("outputs").values<float>();
        QCOMPARE(classified->at("scores").shape(), TensorShape({3, kClasses}));
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const std::vector<double> expected = reference(rows[r]);
            double sum = 0;
            for (int c = 0; c < kClasses; ++c) {
                const std::size_t i = r * kClasses + static_cast<std::size_t>(c);
                QVERIFY2(std::abs(p[i] - expected[c]) <= 1e-6, qPrintable(QString::number(p[i])));
                QCOMPARE(scores[i], p[i]); // the same arithmetic on the parsed features
                sum += expected[c];
            }
            QVERIFY(std::abs(sums[r] - sum) <= 1e-6);
        }
    }

    void badExamplesAreRefusedNamingTheFeature()
    {
        auto bundle = loadSavedModel(m_exported, sessionOptions());
        QVERIFY2(bundle, err(bundle));
        // A required feature that is missing, and one with the wrong number of values.
        auto missing = (*bundle)->runSignature("serving_default", {{"inputs", strings({exampleBytes("y", {1.0f, 2.0f})})}});
        QVERIFY(!missing);
        QVERIFY2(missing.error().message().find("Feature: x") != std::string::npos, missing.error().message().c_str());
        QVERIFY2(missing.error().message().find("is required but could not be found") != std::string::npos,
                 missing.error().message().c_str());
        auto shortRow = (*bundle)->runSignature("serving_default", {{"inputs", strings({exampleBytes("x", {1.0f})})}});
        QVERIFY(!shortRow);
        QVERIFY2(shortRow.error().message().find("x") != std::string::npos, shortRow.error().message().c_str());
        auto garbage = (*bundle)->runSignature("serving_default", {{"inputs", strings({std::string("\xff\xff\xff", 3)})}});
        QVERIFY(!garbage);
        QVERIFY2(garbage.error().message().find("parse") != std::string::npos, garbage.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestSavedModelServing)
#include "test_saved_model_serving.moc"
