// The summary ops: TensorFlow 1.15's OpDefs, the CPU kernels (ScalarSummary, HistogramSummary and
// ImageSummary against NumPy golden values, AudioSummary(V2) WAV bytes, TensorSummary(V2),
// MergeSummary) with TensorFlow's error texts, and the tf.summary building API (node names, tags,
// families, collections, merge_all) run end to end in a Session.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "summary/summary.h"

#include "autodiff/gradients_registry.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "framework/op_registry.h"
#include "runtime/session.h"
#include "summary_test_support.h"
#include "training_test_support.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <map>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerSummaryOps}, {registerSummaryCpuKernels});
}

Tensor str(KernelHarness& h, const std::vector<std::string>& values, const TensorShape& shape)
{
    return tensor<std::string>(h.allocator(), shape, values);
}

Tensor str(KernelHarness& h, const std::string& value)
{
    return str(h, {value}, TensorShape::scalar());
}

/// Runs a one-output summary node and parses its output; a failed run or parse fails the test
/// through the returned message.
struct SummaryRun {
    std::optional<tf::Summary> summary;
    std::string error;
};

SummaryRun runSummary(KernelHarness& h, const std::string& node, const std::vector<Tensor>& inputs)
{
    auto out = h.run(node, inputs);
    if (!out)
        return {std::nullopt, out.error().message()};
    if (out->size() != 1)
        return {std::nullopt, "expected one output"};
    auto s = parseSummary(out->front());
    if (!s)
        return {std::nullopt, "output is not a scalar serialized Summary"};
    return {s, {}};
}

QString errorOf(KernelHarness& h, const std::string& node, const std::vector<Tensor>& inputs)
{
    auto out = h.run(node, inputs);
    return out ? QString("(no error)") : QString::fromStdString(out.error().message());
}

TensorShape shapeOf(const std::vector<std::int64_t>& dims)
{
    return TensorShape(dims);
}

/// A tensor of golden `values` with dtype name `dtype` ("float32", "float64", "float16", "int32").
Tensor goldenTensor(KernelHarness& h, const QString& dtype, const TensorShape& shape, const std::vector<double>& v)
{
    if (dtype == "float64")
        return tensor<double>(h.allocator(), shape, v);
    if (dtype == "float16") {
        std::vector<Eigen::half> hv;
        for (double x : v)
            hv.push_back(Eigen::half(static_cast<float>(x)));
        return tensor<Eigen::half>(h.allocator(), shape, hv);
    }
    if (dtype == "int32") {
        std::vector<std::int32_t> iv;
        for (double x : v)
            iv.push_back(static_cast<std::int32_t>(x));
        return tensor<std::int32_t>(h.allocator(), shape, iv);
    }
    std::vector<float> fv;
    for (double x : v)
        fv.push_back(static_cast<float>(x));
    return tensor<float>(h.allocator(), shape, fv);
}

std::string tfType(const QString& dtype)
{
    if (dtype == "float64")
        return "DT_DOUBLE";
    if (dtype == "float16")
        return "DT_HALF";
    if (dtype == "int32")
        return "DT_INT32";
    if (dtype == "uint8")
        return "DT_UINT8";
    return "DT_FLOAT";
}

std::string withT(const std::string& op, const std::string& type, const std::string& more = {})
{
    return "op: '" + op + "' attr { key: 'T' value { type: " + type + " } }" + more;
}

std::optional<tf::Summary> runGraph(const GraphBuilder& b, const std::string& fetch, std::string* error = nullptr)
{
    SessionOptions options;
    options.ops = &TrainingRegistries::get().ops;
    options.kernels = &TrainingRegistries::get().kernels;
    Session session(options);
    Status s = session.create(b.graphDef());
    std::vector<Tensor> out;
    if (s.isOk())
        s = session.run({}, {fetch}, {}, &out);
    if (!s.isOk()) {
        if (error)
            *error = s.message();
        return std::nullopt;
    }
    return parseSummary(out.front());
}

std::string constString(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* n = b.findNode(node);
    if (n == nullptr || n->op() != "Const")
        return "<no Const " + node + ">";
    return n->attr().at("value").tensor().string_val(0);
}

} // namespace

class TestSummaryOps : public QObject {
    Q_OBJECT

private slots:
    // --- Op definitions -------------------------------------------------------------------------

    void opDefinitions()
    {
        OpRegistry registry;
        QVERIFY(registerSummaryOps(registry).isOk());
        const auto* image = registry.find("ImageSummary");
        QVERIFY(image != nullptr);
        QCOMPARE(image->category, std::string("Summary"));
        std::map<std::string, tf::OpDef::AttrDef> attrs;
        for (const auto& a : image->opDef.attr())
            attrs[a.name()] = a;
        QCOMPARE(attrs.at("max_images").default_value().i(), 3);
        QVERIFY(attrs.at("max_images").has_minimum());
        QCOMPARE(attrs.at("max_images").minimum(), 1);
        QCOMPARE(attrs.at("T").default_value().type(), tf::DT_FLOAT);
        const auto& allowed = attrs.at("T").allowed_values().list().type();
        QCOMPARE(allowed.size(), 4);
        QCOMPARE(allowed[0], tf::DT_UINT8);
        QCOMPARE(allowed[3], tf::DT_DOUBLE);
        const tf::TensorProto& bad = attrs.at("bad_color").default_value().tensor();
        QCOMPARE(bad.dtype(), tf::DT_UINT8);
        QCOMPARE(bad.int_val_size(), 4);
        QCOMPARE(bad.int_val(0), 255);
        QCOMPARE(bad.int_val(1), 0);
        QCOMPARE(bad.int_val(3), 255);

        const auto* audio = registry.find("AudioSummaryV2");
        QVERIFY(audio != nullptr);
        QCOMPARE(audio->opDef.input_arg_size(), 3);
        QCOMPARE(audio->opDef.input_arg(2).name(), std::string("sample_rate"));
        QCOMPARE(audio->opDef.attr(0).default_value().i(), 3);
        QCOMPARE(registry.find("AudioSummary")->opDef.deprecation().version(), 15);
        const auto* histo = registry.find("HistogramSummary");
        QCOMPARE(histo->opDef.attr(0).default_value().type(), tf::DT_FLOAT);
        QVERIFY(!registry.find("ScalarSummary")->opDef.attr(0).has_default_value());
        const auto* merge = registry.find("MergeSummary");
        QCOMPARE(merge->opDef.attr(0).name(), std::string("N"));
        QCOMPARE(merge->opDef.attr(0).minimum(), 1);
        const auto* tensor = registry.find("TensorSummaryV2");
        QCOMPARE(tensor->opDef.input_arg(2).name(), std::string("serialized_summary_metadata"));
        for (const char* name : {"ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummaryV2", "AudioSummary",
                                 "TensorSummaryV2", "TensorSummary", "MergeSummary"}) {
            const auto* op = registry.find(name);
            QVERIFY2(op != nullptr, name);
            QCOMPARE(op->opDef.output_arg_size(), 1);
            QCOMPARE(op->opDef.output_arg(0).type(), tf::DT_STRING);
            QVERIFY2(!op->opDef.is_stateful(), name);
        }
        // Registered as not differentiable (TensorFlow's ops.NotDifferentiable).
        QVERIFY(TrainingRegistries::get().ops.find("MergeSummary")->notDifferentiable);
        QVERIFY(TrainingRegistries::get().ops.find("ImageSummary")->notDifferentiable);
    }

    // --- ScalarSummary ----------------------------------------------------------------------------

    void scalarSummary()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto r =
            runSummary(*h, withT("ScalarSummary", "DT_DOUBLE"),
                       {str(*h, {"a", "b/c"}, TensorShape({2})), tensor<double>(h->allocator(), {2}, {1.5, -2.25})});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 2);
        QCOMPARE(r.summary->value(0).tag(), std::string("a"));
        QCOMPARE(r.summary->value(0).simple_value(), 1.5f);
        QCOMPARE(r.summary->value(1).tag(), std::string("b/c"));
        QCOMPARE(r.summary->value(1).simple_value(), -2.25f);
        r = runSummary(*h, withT("ScalarSummary", "DT_INT32"),
                       {str(*h, "n"), tensor<std::int32_t>(h->allocator(), TensorShape::scalar(), {7})});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value(0).simple_value(), 7.0f);
    }

    void scalarSummaryShapeErrors()
    {
        auto h = makeHarness();
        QVERIFY(h);
        QCOMPARE(errorOf(*h, withT("ScalarSummary", "DT_FLOAT"),
                         {str(*h, {"a", "b"}, TensorShape({2})), tensor<float>(h->allocator(), {3}, {1, 2, 3})}),
                 QString("tags and values not the same shape: [2] != [3]"));
        QCOMPARE(errorOf(*h, withT("ScalarSummary", "DT_FLOAT"),
                         {str(*h, "loss"), tensor<float>(h->allocator(), {2}, {1, 2})}),
                 QString("tags and values not the same shape: [] != [2] (tag 'loss')"));
    }

    // --- HistogramSummary -------------------------------------------------------------------------

    void histogramSummaryMatchesNumPy()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const QJsonArray cases = summaryGolden().value("histograms").toArray();
        QVERIFY(cases.size() >= 5);
        for (const QJsonValue& cv : cases) {
            const QJsonObject c = cv.toObject();
            const QString name = c.value("name").toString();
            const QString dtype = c.value("dtype").toString();
            Tensor values =
                goldenTensor(*h, dtype, shapeOf(goldenDims(c.value("shape"))), goldenNumbers(c.value("values")));
            auto r = runSummary(*h, withT("HistogramSummary", tfType(dtype)), {str(*h, "w"), values});
            QVERIFY2(r.summary, qPrintable(name + ": " + QString::fromStdString(r.error)));
            QCOMPARE(r.summary->value_size(), 1);
            QCOMPARE(r.summary->value(0).tag(), std::string("w"));
            QVERIFY(r.summary->value(0).has_histo());
            const tf::HistogramProto& p = r.summary->value(0).histo();
            const QJsonObject e = c.value("expected").toObject();
            const auto limits = goldenNumbers(e.value("bucket_limit"));
            const auto counts = goldenNumbers(e.value("bucket"));
            QVERIFY2(p.bucket_size() == static_cast<int>(counts.size()), qPrintable(name));
            QVERIFY2(p.bucket_limit_size() == static_cast<int>(limits.size()), qPrintable(name));
            for (int i = 0; i < p.bucket_size(); ++i) {
                QVERIFY2(p.bucket_limit(i) == limits[static_cast<std::size_t>(i)], qPrintable(name));
                QVERIFY2(p.bucket(i) == counts[static_cast<std::size_t>(i)], qPrintable(name));
            }
            QVERIFY2(p.min() == e.value("min").toDouble() && p.max() == e.value("max").toDouble(), qPrintable(name));
            QVERIFY2(p.num() == e.value("num").toDouble(), qPrintable(name));
            QVERIFY2(std::abs(p.sum() - e.value("sum").toDouble()) <= 1e-12 * (1 + std::abs(p.sum())),
                     qPrintable(name));
            QVERIFY2(std::abs(p.sum_squares() - e.value("sum_squares").toDouble()) <=
                         1e-12 * (1 + std::abs(p.sum_squares())),
                     qPrintable(name));
        }
    }

    void histogramSummaryErrors()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        // TensorFlow names the node (here the harness's "test_node"), not the tag.
        QCOMPARE(errorOf(*h, withT("HistogramSummary", "DT_FLOAT"),
                         {str(*h, "w"), tensor<float>(h->allocator(), {3}, {1, nan, 2})}),
                 QString("Nan in summary histogram for: test_node"));
        QCOMPARE(errorOf(*h, withT("HistogramSummary", "DT_FLOAT"),
                         {str(*h, "w"), tensor<float>(h->allocator(), {2}, {-inf, 2})}),
                 QString("Infinity in summary histogram for: test_node"));
        QCOMPARE(errorOf(*h, withT("HistogramSummary", "DT_FLOAT"),
                         {str(*h, {"w"}, TensorShape({1})), tensor<float>(h->allocator(), {1}, {1})}),
                 QString("tags must be scalar"));
    }

    // --- ImageSummary -----------------------------------------------------------------------------

    void imageSummaryMatchesNumPy()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const QJsonArray cases = summaryGolden().value("images").toArray();
        QVERIFY(cases.size() >= 5);
        for (const QJsonValue& cv : cases) {
            const QJsonObject c = cv.toObject();
            const QString name = c.value("name").toString();
            const auto dims = goldenDims(c.value("shape"));
            const QString dtype = c.value("dtype").toString();
            Tensor images = goldenTensor(*h, dtype, shapeOf(dims), goldenNumbers(c.value("values")));
            const std::string node = withT("ImageSummary", tfType(dtype), " attr { key: 'max_images' value { i: 2 } }");
            auto r = runSummary(*h, node, {str(*h, "img"), images});
            QVERIFY2(r.summary, qPrintable(name + ": " + QString::fromStdString(r.error)));
            const QJsonArray expected = c.value("expected").toArray();
            QCOMPARE(r.summary->value_size(), static_cast<int>(std::min<std::int64_t>(2, dims[0])));
            for (int i = 0; i < r.summary->value_size(); ++i) {
                const auto& v = r.summary->value(i);
                QCOMPARE(v.tag(), "img/image/" + std::to_string(i));
                QCOMPARE(v.image().height(), static_cast<int>(dims[1]));
                QCOMPARE(v.image().width(), static_cast<int>(dims[2]));
                QCOMPARE(v.image().colorspace(), static_cast<int>(dims[3]));
                auto png = decodePng(v.image().encoded_image_string(), static_cast<int>(dims[3]));
                QVERIFY2(png, qPrintable(name));
                std::vector<std::uint8_t> want;
                for (const QJsonValue& p : expected[i].toArray())
                    want.push_back(static_cast<std::uint8_t>(p.toInt()));
                if (png->pixels != want) {
                    QString got;
                    for (auto p : png->pixels)
                        got += QString::number(p) + " ";
                    QFAIL(qPrintable(name + " image " + QString::number(i) + " pixels differ: " + got));
                }
            }
        }
    }

    void imageSummaryUint8AndTags()
    {
        auto h = makeHarness();
        QVERIFY(h);
        std::vector<std::uint8_t> pixels(3 * 2 * 2 * 1);
        for (std::size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<std::uint8_t>(250 - 20 * i);
        Tensor images = tensor<std::uint8_t>(h->allocator(), {3, 2, 2, 1}, pixels);
        // max_images 1: one image, tagged "<tag>/image".
        auto r = runSummary(*h, withT("ImageSummary", "DT_UINT8", " attr { key: 'max_images' value { i: 1 } }"),
                            {str(*h, "u"), images});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 1);
        QCOMPARE(r.summary->value(0).tag(), std::string("u/image"));
        auto png = decodePng(r.summary->value(0).image().encoded_image_string(), 1);
        QVERIFY(png);
        QVERIFY(png->pixels == std::vector<std::uint8_t>(pixels.begin(), pixels.begin() + 4));
        // The default max_images (3) with 3 images: "u/image/0..2", pixels unchanged.
        r = runSummary(*h, withT("ImageSummary", "DT_UINT8"), {str(*h, "u"), images});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 3);
        QCOMPARE(r.summary->value(2).tag(), std::string("u/image/2"));
        png = decodePng(r.summary->value(2).image().encoded_image_string(), 1);
        QVERIFY(png);
        QVERIFY(png->pixels == std::vector<std::uint8_t>(pixels.begin() + 8, pixels.end()));
    }

    void imageSummaryErrors()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::string node = withT("ImageSummary", "DT_FLOAT");
        QCOMPARE(
            errorOf(*h, node, {str(*h, "i"), tensor<float>(h->allocator(), {1, 2, 2, 2}, std::vector<float>(8, 1))}),
            QString("Tensor must be 4-D with last dim 1, 3, or 4, not [1,2,2,2]"));
        QCOMPARE(errorOf(*h, node, {str(*h, "i"), tensor<float>(h->allocator(), {2, 2, 3}, std::vector<float>(12, 1))}),
                 QString("Tensor must be 4-D with last dim 1, 3, or 4, not [2,2,3]"));
        QCOMPARE(errorOf(*h, node,
                         {str(*h, {"a", "b"}, TensorShape({2})),
                          tensor<float>(h->allocator(), {1, 1, 1, 1}, std::vector<float>(1, 1))}),
                 QString("Tags must be a scalar"));
        const std::string shortColour =
            node + " attr { key: 'bad_color' value { tensor { dtype: DT_UINT8 tensor_shape { dim { size: 1 } } "
                   "int_val: 7 } } }";
        QCOMPARE(errorOf(*h, shortColour,
                         {str(*h, "i"), tensor<float>(h->allocator(), {1, 1, 1, 3}, std::vector<float>(3, 1))}),
                 QString("expected depth <= bad_color.size, got depth = 3, bad_color.size = 1"));
        // With one channel, the one-element colour is used for the NaN pixel.
        auto r = runSummary(*h, shortColour,
                            {str(*h, "i"), tensor<float>(h->allocator(), {1, 1, 2, 1},
                                                         {std::numeric_limits<float>::quiet_NaN(), 2.0f})});
        QVERIFY2(r.summary, r.error.c_str());
        auto png = decodePng(r.summary->value(0).image().encoded_image_string(), 1);
        QVERIFY(png);
        QVERIFY(png->pixels == (std::vector<std::uint8_t>{7, 255}));
        const std::string floatColour =
            node + " attr { key: 'bad_color' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } } "
                   "float_val: 7 } } }";
        // A kernel-construction error; the framework prefixes the node.
        QCOMPARE(errorOf(*h, floatColour,
                         {str(*h, "i"), tensor<float>(h->allocator(), {1, 1, 1, 1}, std::vector<float>(1, 1))}),
                 QString("Node 'test_node' (op 'ImageSummary'): bad_color must be uint8, got float"));
    }

    // --- AudioSummaryV2 / AudioSummary ------------------------------------------------------------

    void audioSummaryWav()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const QJsonObject c = summaryGolden().value("wavs").toArray()[1].toObject(); // stereo
        const auto frames = c.value("frames").toInteger();
        const auto channels = c.value("channels").toInteger();
        std::vector<float> clip;
        for (double v : goldenNumbers(c.value("samples")))
            clip.push_back(static_cast<float>(v));
        // Two clips: the golden one, then silence.
        std::vector<float> batch = clip;
        batch.resize(clip.size() * 2, 0.0f);
        Tensor audio = tensor<float>(h->allocator(), {2, frames, channels}, batch);
        const float rate = static_cast<float>(c.value("rate").toDouble());
        auto r = runSummary(*h, "op: 'AudioSummaryV2'",
                            {str(*h, "snd"), audio, tensor<float>(h->allocator(), TensorShape::scalar(), {rate})});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 2);
        const auto& v = r.summary->value(0);
        QCOMPARE(v.tag(), std::string("snd/audio/0"));
        QCOMPARE(r.summary->value(1).tag(), std::string("snd/audio/1"));
        QCOMPARE(v.audio().sample_rate(), rate);
        QCOMPARE(v.audio().num_channels(), channels);
        QCOMPARE(v.audio().length_frames(), frames);
        QCOMPARE(v.audio().content_type(), std::string("audio/wav"));
        const std::string& wav = v.audio().encoded_audio_string();
        QCOMPARE(QByteArray(wav.data(), static_cast<qsizetype>(wav.size())).toHex(),
                 c.value("wav_hex").toString().toLatin1());

        // AudioSummary: the rate is an attr (8000.4 is written to the header rounded, 8000); 2-D
        // input means one channel; max_outputs 1 tags "<tag>/audio".
        Tensor mono = tensor<float>(h->allocator(), {1, 3}, {0.5f, -0.5f, 0.0f});
        r = runSummary(*h,
                       "op: 'AudioSummary' attr { key: 'sample_rate' value { f: 8000.4 } } "
                       "attr { key: 'max_outputs' value { i: 1 } }",
                       {str(*h, "m"), mono});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 1);
        QCOMPARE(r.summary->value(0).tag(), std::string("m/audio"));
        QCOMPARE(r.summary->value(0).audio().num_channels(), 1);
        const std::string& m = r.summary->value(0).audio().encoded_audio_string();
        QCOMPARE(m.size(), std::size_t{44 + 6});
        QCOMPARE(static_cast<std::uint8_t>(m[24]) | static_cast<std::uint8_t>(m[25]) << 8, 8000);
    }

    void audioSummaryErrors()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor rate = tensor<float>(h->allocator(), TensorShape::scalar(), {8000.0f});
        QCOMPARE(errorOf(*h, "op: 'AudioSummaryV2'",
                         {str(*h, "a"), tensor<float>(h->allocator(), {1, 1, 1, 1}, {0.0f}), rate}),
                 QString("Tensor must be 3-D or 2-D, got: [1,1,1,1]"));
        QCOMPARE(errorOf(*h, "op: 'AudioSummaryV2'",
                         {str(*h, "a"), tensor<float>(h->allocator(), {1, 2}, {0.0f, 0.0f}),
                          tensor<float>(h->allocator(), TensorShape::scalar(), {0.0f})}),
                 QString("sample_rate must be > 0"));
    }

    // --- TensorSummaryV2 / TensorSummary ----------------------------------------------------------

    void tensorSummary()
    {
        auto h = makeHarness();
        QVERIFY(h);
        tf::SummaryMetadata metadata;
        metadata.mutable_plugin_data()->set_plugin_name("custom");
        metadata.set_display_name("shown");
        std::string serialized;
        QVERIFY(metadata.SerializeToString(&serialized));
        auto r = runSummary(*h, withT("TensorSummaryV2", "DT_FLOAT"),
                            {str(*h, "t"), tensor<float>(h->allocator(), {2, 2}, {1, 2, 3, 4}), str(*h, serialized)});
        QVERIFY2(r.summary, r.error.c_str());
        const auto& v = r.summary->value(0);
        QCOMPARE(v.tag(), std::string("t"));
        QCOMPARE(v.metadata().plugin_data().plugin_name(), std::string("custom"));
        QCOMPARE(v.metadata().display_name(), std::string("shown"));
        QCOMPARE(v.tensor().dtype(), tf::DT_FLOAT);
        QCOMPARE(v.tensor().tensor_shape().dim_size(), 2);
        QCOMPARE(v.tensor().tensor_content().size(), std::size_t{16});
        float third = 0;
        std::memcpy(&third, v.tensor().tensor_content().data() + 8, 4);
        QCOMPARE(third, 3.0f);
        // Strings go to string_val.
        r = runSummary(*h, withT("TensorSummaryV2", "DT_STRING"),
                       {str(*h, "s"), str(*h, {"x", "yz"}, TensorShape({2})), str(*h, "")});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value(0).tensor().string_val_size(), 2);
        QCOMPARE(r.summary->value(0).tensor().string_val(1), std::string("yz"));
        QCOMPARE(errorOf(*h, withT("TensorSummaryV2", "DT_FLOAT"),
                         {str(*h, {"t"}, TensorShape({1})), tensor<float>(h->allocator(), {1}, {1}), str(*h, "")}),
                 QString("tag must be scalar"));
        // TensorSummary: no tag, the node name instead.
        r = runSummary(*h, withT("TensorSummary", "DT_INT32"), {tensor<std::int32_t>(h->allocator(), {1}, {5})});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value(0).node_name(), std::string("test_node"));
        QVERIFY(r.summary->value(0).tag().empty());
    }

    // --- MergeSummary -----------------------------------------------------------------------------

    void mergeSummary()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto serialized = [](std::initializer_list<std::pair<std::string, float>> values) {
            tf::Summary s;
            for (const auto& [tag, x] : values) {
                auto* v = s.add_value();
                v->set_tag(tag);
                v->set_simple_value(x);
            }
            return s.SerializeAsString();
        };
        const std::string node = "op: 'MergeSummary' attr { key: 'N' value { i: 2 } }";
        auto r = runSummary(*h, node,
                            {str(*h, serialized({{"a", 1}, {"b", 2}})),
                             str(*h, {serialized({{"c", 3}}), serialized({{"d", 4}})}, TensorShape({2}))});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 4);
        QCOMPARE(r.summary->value(0).tag(), std::string("a"));
        QCOMPARE(r.summary->value(2).tag(), std::string("c"));
        QCOMPARE(r.summary->value(3).simple_value(), 4.0f);
        QCOMPARE(errorOf(*h, node, {str(*h, serialized({{"a", 1}})), str(*h, serialized({{"b", 1}, {"a", 2}}))}),
                 QString("Duplicate tag a found in summary inputs"));
        QCOMPARE(errorOf(*h, node, {str(*h, serialized({{"a", 1}})), str(*h, std::string("\xff\xff\xff", 3))}),
                 QString("Could not parse one of the summary inputs"));
        // Values without a tag (TensorSummary's) never collide.
        tf::Summary untagged;
        untagged.add_value()->set_node_name("n");
        r = runSummary(*h, node, {str(*h, untagged.SerializeAsString()), str(*h, untagged.SerializeAsString())});
        QVERIFY2(r.summary, r.error.c_str());
        QCOMPARE(r.summary->value_size(), 2);
    }

    // --- The building API -------------------------------------------------------------------------

    void cleanTag()
    {
        QCOMPARE(summary::cleanTag("my loss!"), std::string("my_loss_"));
        QCOMPARE(summary::cleanTag("//a/b-c.d_e"), std::string("a/b-c.d_e"));
    }

    void namesAndTagsInScopes()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        auto x = ops::constant(b, 2.5, tf::DT_FLOAT, "x");
        QVERIFY(x);
        Output first;
        Output second;
        {
            auto scope = b.nameScope("train");
            QVERIFY(scope);
            auto s1 = summary::scalar(b, "loss", *x);
            QVERIFY2(s1, s1 ? "" : s1.error().toString().c_str());
            auto s2 = summary::scalar(b, "loss", *x);
            QVERIFY2(s2, s2 ? "" : s2.error().toString().c_str());
            first = *s1;
            second = *s2;
        }
        QCOMPARE(first.name(), std::string("train/loss:0"));
        QCOMPARE(first.dtype(), tf::DT_STRING);
        QCOMPARE(first.shape().rank(), 0);
        QCOMPARE(second.node(), std::string("train/loss_1"));
        QCOMPARE(constString(b, "train/loss/tags"), std::string("train/loss"));
        QCOMPARE(constString(b, "train/loss_1/tags"), std::string("train/loss_1"));
        const tf::NodeDef* op = b.findNode("train/loss");
        QVERIFY(op);
        QCOMPARE(op->op(), std::string("ScalarSummary"));
        QCOMPARE(op->input(0), std::string("train/loss/tags"));
        QCOMPARE(op->input(1), std::string("x"));

        // family: the scope is "family/name" and the tag repeats the family in front.
        auto fam = summary::scalar(b, "acc", *x, {std::nullopt, "metrics"});
        QVERIFY(fam);
        QCOMPARE(fam->node(), std::string("metrics/acc"));
        QCOMPARE(constString(b, "metrics/acc/tags"), std::string("metrics/metrics/acc"));
        // Characters TensorFlow's clean_tag replaces.
        auto odd = summary::histogram(b, "w eights", *x);
        QVERIFY(odd);
        QCOMPARE(odd->node(), std::string("w_eights"));
        QCOMPARE(b.findNode("w_eights")->op(), std::string("HistogramSummary"));
        QCOMPARE(constString(b, "w_eights/tag"), std::string("w_eights"));
        QVERIFY(!summary::scalar(b, "", *x));
    }

    void collectionsAndMergeAll()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        auto x = ops::constant(b, std::vector<double>{-1.0, 0.5, 2.0, 2.0}, {4}, tf::DT_FLOAT, "x");
        auto img = ops::constant(b, std::vector<double>{0.0, 1.0, 2.0, 4.0}, {1, 2, 2, 1}, tf::DT_FLOAT, "img");
        auto wave = ops::constant(b, std::vector<double>{0.0, 0.5, -0.5}, {1, 3}, tf::DT_FLOAT, "wave");
        auto words = makeStringTensorProto(TensorShape({2}), std::vector<std::string>{"hello", "world"});
        QVERIFY(x && img && wave && words);
        auto text = ops::constant(b, *words, "words");
        QVERIFY(text);
        auto mean = ops::constant(b, 0.75, tf::DT_FLOAT, "mean");
        QVERIFY(mean);

        QVERIFY(summary::scalar(b, "mean", *mean));
        QVERIFY(summary::histogram(b, "x", *x));
        auto image = summary::image(b, "picture", *img, 1);
        QVERIFY2(image, image ? "" : image.error().toString().c_str());
        QCOMPARE(b.findNode("picture")->attr().at("max_images").i(), 1);
        auto audio = summary::audio(b, "sound", *wave, 16000.0);
        QVERIFY2(audio, audio ? "" : audio.error().toString().c_str());
        QCOMPARE(b.findNode("sound/sample_rate")->attr().at("value").tensor().float_val(0), 16000.0f);
        QCOMPARE(b.findNode("sound")->input(2), std::string("sound/sample_rate"));
        auto textSummary = summary::text(b, "notes", *text);
        QVERIFY2(textSummary, textSummary ? "" : textSummary.error().toString().c_str());
        tf::SummaryMetadata meta;
        QVERIFY(meta.ParseFromString(constString(b, "notes/serialized_summary_metadata")));
        QCOMPARE(meta.plugin_data().plugin_name(), std::string("text"));
        QCOMPARE(meta.plugin_data().content(), std::string("{}"));
        // Not collected: collections = [].
        auto hidden = summary::scalar(b, "hidden", *mean, {std::vector<std::string>{}, ""});
        QVERIFY(hidden);
        auto other = summary::scalar(b, "other", *mean, {std::vector<std::string>{"mine"}, ""});
        QVERIFY(other);
        QCOMPARE(b.collections().get("summaries").size(), std::size_t{5});
        QCOMPARE(b.collections().get("mine").size(), std::size_t{1});

        auto badText = summary::text(b, "bad", *mean);
        QVERIFY(!badText);
        QCOMPARE(badText.error().message(), std::string("Expected tensor mean:0 to have dtype string, got float32"));

        auto merged = summary::mergeAll(b);
        QVERIFY2(merged, merged ? "" : merged.error().toString().c_str());
        QVERIFY(merged->has_value());
        QCOMPARE((*merged)->name(), std::string("Merge/MergeSummary:0"));
        QCOMPARE(b.findNode("Merge/MergeSummary")->attr().at("N").i(), 5);
        auto none = summary::mergeAll(b, "nothing_here");
        QVERIFY(none);
        QVERIFY(!none->has_value());
        auto named = summary::merge(b, {*hidden, *other}, {}, "both");
        QVERIFY(named);
        QCOMPARE(named->node(), std::string("both/both"));

        std::string error;
        auto s = runGraph(b, (*merged)->name(), &error);
        QVERIFY2(s, error.c_str());
        std::map<std::string, const tf::Summary::Value*> byTag;
        for (const auto& v : s->value())
            byTag[v.tag()] = &v;
        QCOMPARE(s->value_size(), 5);
        QString tags;
        for (const auto& [tag, value] : byTag)
            tags += QString::fromStdString(tag) + " ";
        // The Consts "mean" and "x" already use those names, so the summary scopes (and tags) are
        // "mean_1" and "x_1", as tf.summary names them after Graph.unique_name.
        QVERIFY2(byTag.count("mean_1") && byTag.count("x_1") && byTag.count("picture/image") &&
                     byTag.count("sound/audio/0") && byTag.count("notes"),
                 qPrintable(tags));
        QCOMPARE(byTag["mean_1"]->simple_value(), 0.75f);
        QCOMPARE(byTag["x_1"]->histo().num(), 4.0);
        QCOMPARE(byTag["x_1"]->histo().min(), -1.0);
        QCOMPARE(byTag["x_1"]->histo().max(), 2.0);
        QCOMPARE(byTag["x_1"]->histo().sum(), 3.5);
        QCOMPARE(byTag["notes"]->tensor().string_val(0), std::string("hello"));
        auto png = decodePng(byTag["picture/image"]->image().encoded_image_string(), 1);
        QVERIFY(png);
        // [0, 1, 2, 4] with no negative value: x * 255 / 4, truncated.
        QVERIFY(png->pixels == (std::vector<std::uint8_t>{0, 63, 127, 255}));
        QCOMPARE(byTag["sound/audio/0"]->audio().sample_rate(), 16000.0f);

        // A NaN reaching a histogram fails the step naming the node.
        GraphBuilder g(TrainingRegistries::get().ops);
        auto bad = ops::constant(g, std::vector<double>{1.0, std::nan("")}, {2}, tf::DT_FLOAT, "bad");
        QVERIFY(bad);
        auto scope = g.nameScope("layer");
        QVERIFY(scope);
        auto hist = summary::histogram(g, "act", *bad);
        QVERIFY(hist);
        QVERIFY(!runGraph(g, hist->name(), &error));
        QVERIFY2(error.find("Nan in summary histogram for: layer/act") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSummaryOps)
#include "test_summary_ops.moc"
