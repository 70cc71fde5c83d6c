// The summary node types (ScalarSummary ... TextSummary) and the layers' `summaries` param: their
// catalogue entries, names and tags as tf.summary gives them, the SUMMARIES collection, the errors,
// and the values of variable_summaries checked against the variables' own values.
#include "layer_test_support.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "graph/layer_recognition.h"
#include "layers/layer_catalog.h"
#include "layers/summary_nodes.h"
#include "proto/summary.pb.h"
#include "summary/summary_kinds.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace tstudio;
using namespace tstudio::layers;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

namespace {

std::vector<std::string> summaryNames(const GraphBuilder& b)
{
    std::vector<std::string> names;
    for (const CollectionItem& item : b.collections().get(graph_keys::kSummaries))
        names.push_back(collectionItemName(item));
    return names;
}

/// The tag of a summary op: its "tag" or "tags" Const input.
std::string tagOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    if (!def || def->input_size() == 0)
        return {};
    const tf::NodeDef* tag = b.findNode(def->input(0));
    return tag ? tag->attr().at("value").tensor().string_val(0) : std::string();
}

tf::Summary parseSummary(const Tensor& t)
{
    tf::Summary s;
    if (!s.ParseFromString(t.strings()[0]))
        qWarning("not a Summary");
    return s;
}

} // namespace

class TestSummaryNodes : public QObject {
    Q_OBJECT
private:
    const Registries* m_registries = nullptr;

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    /// Five types in the Summaries group, one input and one output; the summaries param only on the
    /// layers with weights.
    void catalogue()
    {
        const std::vector<LayerType> types = summaryLayerTypes();
        std::vector<std::string> names;
        for (const LayerType& t : types) {
            names.push_back(t.type);
            QCOMPARE(t.category, std::string("Summaries"));
            QCOMPARE(t.inputs, 1);
            QCOMPARE(t.outputNames, std::vector<std::string>{"summary"});
            QVERIFY(isSummaryType(t.type));
            QVERIFY(findLayerType(t.type) != nullptr);
        }
        QCOMPARE(names, (std::vector<std::string>{"ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummary",
                                                  "TextSummary"}));
        for (const LayerType& t : layerCatalog()) {
            const bool has = std::any_of(t.params.begin(), t.params.end(),
                                         [](const LayerParam& p) { return p.name == "summaries"; });
            QCOMPARE(has, takesLayerSummaries(t.type));
        }
        QVERIFY(takesLayerSummaries("Dense") && takesLayerSummaries("Conv2D") && takesLayerSummaries("BatchNorm"));
        QVERIFY(!takesLayerSummaries("MaxPool") && !takesLayerSummaries("Relu"));
    }

    /// The node's name is tf.summary's name: the op and its scope, the tag (family-prefixed), the
    /// SUMMARIES collection; a second node of the same name is made unique as TensorFlow does.
    void summaryNodesBuildTfSummary()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 4, 4, 3}, "x");
        auto loss = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "loss");
        auto words = ops::placeholder(b, tf::DT_STRING, TensorShape{-1}, "words");
        auto clip = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 100}, "clip");
        QVERIFY(x && loss && words && clip);
        auto scalar = expandLayerNode(b, "ScalarSummary", "loss_value", {}, {*loss});
        QVERIFY2(scalar, scalar ? "" : scalar.error().toString().c_str());
        QCOMPARE(scalar->outputs.front().name(), std::string("loss_value:0"));
        QCOMPARE(b.findNode("loss_value")->op(), std::string("ScalarSummary"));
        QCOMPARE(tagOf(b, "loss_value"), std::string("loss_value"));
        auto again = expandLayerNode(b, "ScalarSummary", "loss_value", {{"family", attr::s("train")}}, {*loss});
        QVERIFY2(again, again ? "" : again.error().toString().c_str());
        QCOMPARE(again->outputs.front().node(), std::string("train/loss_value"));
        QCOMPARE(tagOf(b, "train/loss_value"), std::string("train/train/loss_value"));
        auto histogram = expandLayerNode(b, "HistogramSummary", "", {}, {*x});
        QVERIFY2(histogram, histogram ? "" : histogram.error().toString().c_str());
        QCOMPARE(histogram->outputs.front().node(), std::string("histogram"));
        auto image = expandLayerNode(b, "ImageSummary", "inputs", {{"max_outputs", attr::i(2)}}, {*x});
        QVERIFY2(image, image ? "" : image.error().toString().c_str());
        QCOMPARE(b.findNode("inputs")->attr().at("max_images").i(), std::int64_t(2));
        auto audio = expandLayerNode(b, "AudioSummary", "sound", {{"sample_rate", attr::i(8000)}}, {*clip});
        QVERIFY2(audio, audio ? "" : audio.error().toString().c_str());
        QCOMPARE(b.findNode("sound")->op(), std::string("AudioSummaryV2"));
        QCOMPARE(b.findNode("sound/sample_rate")->attr().at("value").tensor().float_val(0), 8000.0f);
        auto text = expandLayerNode(b, "TextSummary", "notes", {}, {*words});
        QVERIFY2(text, text ? "" : text.error().toString().c_str());
        QCOMPARE(b.findNode("notes")->op(), std::string("TensorSummaryV2"));
        QCOMPARE(summaryNames(b), (std::vector<std::string>{"loss_value:0", "train/loss_value:0", "histogram:0",
                                                            "inputs:0", "sound:0", "notes:0"}));
    }

    void summaryNodeErrors()
    {
        GraphBuilder b(m_registries->ops);
        auto rows = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 784}, "rows");
        auto vector = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 10}, "vector");
        QVERIFY(rows && vector);
        const auto error = [&](const std::string& type, const Params& params, const Output& in) {
            auto r = expandLayerNode(b, type, "s", params, {in});
            return r ? std::string("built") : r.error().message();
        };
        QCOMPARE(error("ImageSummary", {}, *rows),
                 std::string("layer 's' (ImageSummary): port 'tensor' ('rows:0'): an image summary needs uint8, "
                             "float16, float32 or float64 [batch, height, width, channels] with 1, 3 or 4 channels, "
                             "got float32 [?,784]"));
        QCOMPARE(error("ScalarSummary", {}, *vector),
                 std::string("layer 's' (ScalarSummary): port 'tensor' ('vector:0'): a scalar summary needs a "
                             "real-number scalar (shape []), got float32 [?,10]"));
        QCOMPARE(error("TextSummary", {}, *vector),
                 std::string("layer 's' (TextSummary): port 'tensor' ('vector:0'): a text summary needs strings, got "
                             "float32 [?,10]"));
        QCOMPARE(error("ImageSummary", {{"max_outputs", attr::i(0)}}, *rows),
                 std::string("layer 's' (ImageSummary): param 'max_outputs' must be positive, got 0"));
        QCOMPARE(error("AudioSummary", {{"sample_rate", attr::f(-1.0f)}}, *rows),
                 std::string("layer 's' (AudioSummary): param 'sample_rate' must be positive, got -1"));
        QCOMPARE(validateLayerParams("AudioSummary", "s", {{"sample_rate", attr::i(0)}}).message(),
                 std::string("layer 's' (AudioSummary): param 'sample_rate' must be positive, got 0"));
        QCOMPARE(validateLayerParams("TextSummary", "s", {{"family", attr::s("x")}}).message(),
                 std::string("layer 's' (TextSummary): unknown param 'family'; expected none"));
        QVERIFY(b.collections().get(graph_keys::kSummaries).empty());
    }

    /// Dense with summaries on: the tutorial's five summaries of its kernel, bias and output, each
    /// in its own scope, and their values equal those computed from the fetched tensors.
    void layerSummariesOfADense()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "x");
        QVERIFY(x);
        const Params params{{"units", attr::i(4)},
                            {"activation", attr::s("relu")},
                            {"bias_initializer", attr::s("random_normal")},
                            {"summaries", attr::b(true)}};
        auto dense = expandLayerNode(b, "Dense", "fc", params, {*x});
        QVERIFY2(dense, dense ? "" : dense.error().toString().c_str());
        QCOMPARE(dense->outputs.front().name(), std::string("fc/Relu:0"));
        std::vector<std::string> expected;
        for (const char* what : {"fc/kernel", "fc/bias", "fc/activations"})
            for (const char* stat : {"mean", "stddev", "max", "min", "histogram"})
                expected.push_back(std::string(what) + "/summaries/" + stat + ":0");
        QCOMPARE(summaryNames(b), expected);
        for (const std::string& name : expected) {
            const std::string node = name.substr(0, name.size() - 2);
            QCOMPARE(tagOf(b, node), node);
        }
        // The summaries leave the scope recognisable as the layer it is (the editor's scope frames).
        const auto recognised = recogniseLayers(b.graphDef());
        QVERIFY(recognised.count("fc"));
        QCOMPARE(recognised.at("fc").describe(), std::string("Dense(4, relu)"));
        // Off (the default): nothing added.
        auto plain = expandLayerNode(b, "Dense", "fc2", {{"units", attr::i(2)}}, {*x});
        QVERIFY(plain);
        QCOMPARE(summaryNames(b).size(), expected.size());

        auto init = globalVariablesInitializer(b);
        QVERIFY(init);
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        std::vector<float> in(15);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<float>(std::sin(1.7 * static_cast<double>(i)) * 2.0);
        auto inputOr = Tensor::fromVector(testing::layerTestAllocator(), TensorShape{5, 3}, in);
        QVERIFY(inputOr);
        const Tensor input = *inputOr;
        std::vector<std::string> fetches{"fc/kernel/read:0", "fc/bias/read:0", "fc/Relu:0"};
        fetches.insert(fetches.end(), expected.begin(), expected.end());
        const Status run = session->run({{"x:0", input}}, fetches, {}, &out);
        QVERIFY2(run.isOk(), run.toString().c_str());
        for (int which = 0; which < 3; ++which) {
            auto v = out[static_cast<std::size_t>(which)].values<float>();
            const double n = static_cast<double>(v.size());
            double sum = 0, lo = v[0], hi = v[0];
            for (float f : v) {
                sum += f;
                lo = std::min(lo, static_cast<double>(f));
                hi = std::max(hi, static_cast<double>(f));
            }
            const double mean = sum / n;
            double squares = 0;
            for (float f : v)
                squares += (f - mean) * (f - mean);
            const double stddev = std::sqrt(squares / n);
            const double wanted[] = {mean, stddev, hi, lo};
            for (int k = 0; k < 4; ++k) {
                const tf::Summary s = parseSummary(out[3 + static_cast<std::size_t>(which * 5 + k)]);
                QCOMPARE(s.value_size(), 1);
                const double got = s.value(0).simple_value();
                QVERIFY2(std::abs(got - wanted[k]) <= 1e-5 * std::max(1.0, std::abs(wanted[k])),
                         (s.value(0).tag() + ": " + std::to_string(got) + " vs " + std::to_string(wanted[k])).c_str());
            }
            const tf::Summary h = parseSummary(out[3 + static_cast<std::size_t>(which * 5 + 4)]);
            QCOMPARE(h.value(0).tag(), expected[static_cast<std::size_t>(which * 5 + 4)].substr(
                                           0, expected[static_cast<std::size_t>(which * 5 + 4)].size() - 2));
            double counted = 0;
            for (double c : h.value(0).histo().bucket())
                counted += c;
            QCOMPARE(counted, n);
            QCOMPARE(h.value(0).histo().num(), n);
            QCOMPARE(h.value(0).histo().min(), lo);
            QCOMPARE(h.value(0).histo().max(), hi);
        }
    }

    /// BatchNorm summarises gamma and beta (its trainable variables) and its output, in its scope.
    void layerSummariesOfABatchNorm()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 2, 2, 3}, "x");
        QVERIFY(x);
        auto bn = expandLayerNode(b, "BatchNorm", "bn", {{"summaries", attr::b(true)}}, {*x});
        QVERIFY2(bn, bn ? "" : bn.error().toString().c_str());
        const std::vector<std::string> names = summaryNames(b);
        QCOMPARE(names.size(), std::size_t(15));
        QCOMPARE(names[0], std::string("bn/gamma/summaries/mean:0"));
        QCOMPARE(names[5], std::string("bn/beta/summaries/mean:0"));
        QCOMPARE(names[14], std::string("bn/activations/summaries/histogram:0"));
    }

    /// The kinds' input checks, one line per case.
    void kindInputChecks()
    {
        using summary::Kind;
        QVERIFY(summary::checkInput(Kind::kScalar, tf::DT_INT64, TensorShape::scalar()).isOk());
        QVERIFY(summary::checkInput(Kind::kScalar, tf::DT_FLOAT, TensorShape::unknown()).isOk());
        QVERIFY(!summary::checkInput(Kind::kScalar, tf::DT_BOOL, TensorShape::scalar()).isOk());
        QVERIFY(summary::checkInput(Kind::kHistogram, tf::DT_FLOAT_REF, TensorShape{3, 4}).isOk());
        QVERIFY(summary::checkInput(Kind::kImage, tf::DT_UINT8, TensorShape{-1, 8, 8, 4}).isOk());
        QVERIFY(summary::checkInput(Kind::kImage, tf::DT_FLOAT, TensorShape{-1, 8, 8, -1}).isOk());
        QVERIFY(!summary::checkInput(Kind::kImage, tf::DT_FLOAT, TensorShape{-1, 8, 8, 2}).isOk());
        QVERIFY(!summary::checkInput(Kind::kImage, tf::DT_INT32, TensorShape{-1, 8, 8, 1}).isOk());
        QVERIFY(summary::checkInput(Kind::kAudio, tf::DT_FLOAT, TensorShape{-1, 100, 2}).isOk());
        QCOMPARE(summary::checkInput(Kind::kAudio, tf::DT_DOUBLE, TensorShape{-1, 100}).message(),
                 std::string("an audio summary needs float32 [batch, frames] or [batch, frames, channels], got "
                             "float64 [?,100]"));
        QCOMPARE(summary::checkInput(Kind::kHistogram, tf::DT_STRING, TensorShape{-1}).message(),
                 std::string("a histogram summary needs real numbers, got string [?]"));
        QCOMPARE(summary::kindFromName("image"), std::optional<Kind>(Kind::kImage));
        QCOMPARE(summary::kindFromName("images"), std::optional<Kind>());
    }
};

QTEST_GUILESS_MAIN(TestSummaryNodes)
#include "test_summary_nodes.moc"
