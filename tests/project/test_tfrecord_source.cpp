// "tfrecord" data sources with variable-length features (sparse and padded batches) and an image-decode
// step: batches checked against hand-built Examples, the decoded images against the engine's decoder,
// the image_folder source and a NumPy resize, the errors naming file, record and feature, and the
// JSON form of the new keys.
#include "builder/graph_builder.h"
#include "data/image_folder_records.h"
#include "data/tfrecord_writer.h"
#include "project/sources/data_sources.h"
#include "framework/allocator.h"
#include "project/sources/image_decoder.h"
#include "project/sources/image_resize.h"
#include "io/png_encoder.h"
#include "project/format/project_file.h"
#include "proto/example.pb.h"
#include "registries/default_registries.h"
#include "project/sources/source_preview.h"
#include "project/run/training_setup.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
// jpeglib.h needs size_t and FILE declared first.
#include <cstddef>
#include <cstdio>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

#include "../support/source_test_projects.h"
#include "../support/test_images.h"

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

/// QCOMPARE for messages that prints both when they differ.
#define COMPARE_TEXT(actual, expected)                                                                                 \
    do {                                                                                                               \
        const std::string a_ = (actual);                                                                               \
        const std::string e_ = (expected);                                                                             \
        QVERIFY2(a_ == e_, ("\n   got: " + a_ + "\n  want: " + e_).c_str());                                             \
    } while (false)

namespace {

/// An Example built feature by feature.
class ExampleBuilder {
public:
    ExampleBuilder& floats(const std::string& key, std::vector<float> values)
    {
        auto* list = feature(key).mutable_float_list();
        for (float v : values)
            list->add_value(v);
        return *this;
    }
    ExampleBuilder& ints(const std::string& key, std::vector<std::int64_t> values)
    {
        auto* list = feature(key).mutable_int64_list();
        for (std::int64_t v : values)
            list->add_value(v);
        return *this;
    }
    ExampleBuilder& bytes(const std::string& key, std::vector<std::string> values)
    {
        auto* list = feature(key).mutable_bytes_list();
        for (const std::string& v : values)
            list->add_value(v);
        return *this;
    }
    std::string serialized() const { return m_example.SerializeAsString(); }

private:
    tensorflow::Feature& feature(const std::string& key) { return (*m_example.mutable_features()->mutable_feature())[key]; }
    tensorflow::Example m_example;
};

using test::png;
using test::put;

/// A baseline JPEG of RGB pixels through libjpeg at quality 90.
std::string jpeg(const std::vector<std::uint8_t>& rgb, int width, int height)
{
    return test::jpeg(rgb, width, height, 90);
}

std::string readAll(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Pixels with a pattern that differs per image, so that a mix-up shows.
std::vector<std::uint8_t> pattern(int width, int height, int channels, int seed)
{
    std::vector<std::uint8_t> out(static_cast<std::size_t>(width * height * channels));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::uint8_t>((static_cast<int>(i) * 37 + seed * 61) % 256);
    return out;
}

template <typename T>
std::vector<T> values(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

std::vector<std::string> strings(const Tensor& t)
{
    auto v = t.strings();
    return {v.begin(), v.end()};
}

/// The batches of the project's first source, read in evaluation order (no shuffle, no repeat).
Expected<std::vector<data::Element>> evalBatches(const Project& p, std::int64_t batchSize, Allocator& a,
                                                 std::vector<FeedSpec>* feedsOut = nullptr)
{
    auto pipeline = buildSourcePipeline(p, p.sources.front(), "data.sources[0]", batchSize,
                                        PipelineMode::kEvaluation, a);
    if (!pipeline)
        return unexpected(pipeline.error());
    auto it = pipeline->batches.makeIterator();
    std::vector<data::Element> out;
    for (;;) {
        auto next = it->getNext();
        if (!next)
            return unexpected(next.error());
        if (!*next)
            break;
        out.push_back(std::move(**next));
    }
    if (feedsOut)
        *feedsOut = pipeline->feeds;
    return out;
}

/// The first batch's error of the project's first source.
std::string firstError(const Project& p)
{
    CpuAllocator a;
    auto batches = evalBatches(p, 4, a);
    return batches ? std::string("(no error)") : batches.error().message();
}

json tfrecordSource(const json& features, const json& feeds, const std::string& file = "d.tfrecord")
{
    return {{"type", "tfrecord"}, {"files", json::array({file})}, {"features", features}, {"feeds", feeds}};
}

std::string parseError(const json& source)
{
    return test::sourceParseError(source);
}

} // namespace

class TestTfRecordSource : public QObject {
    Q_OBJECT
private slots:
    void sparseAndPaddedBatches()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        // Example 1 lacks "tags" and "ids" (empty lists, as TF); example 3 is alone in the last batch.
        QVERIFY(data::writeRecords(dir / "d.tfrecord",
                                   {ExampleBuilder().floats("tags", {1.5f, 2.5f}).ints("ids", {7, 8, 9}).ints("y", {0})
                                        .serialized(),
                                    ExampleBuilder().ints("y", {1}).serialized(),
                                    ExampleBuilder().floats("tags", {3.5f}).ints("ids", {4}).ints("y", {2}).serialized(),
                                    ExampleBuilder().ints("y", {3}).serialized()})
                    .isOk());
        auto p = test::sourceProject(
            tfrecordSource({{"tags", {{"dtype", "float32"}, {"varlen", true}}},
                            {"ids", {{"dtype", "int64"}, {"varlen", true}, {"pad", true}, {"default", -1}}},
                            {"y", {{"dtype", "int64"}}}},
                           {{"a_indices", "tags.indices"},
                            {"b_values", "tags.values"},
                            {"c_shape", "tags.dense_shape"},
                            {"d_ids", "ids"},
                            {"e_len", "ids.length"},
                            {"f_y", "y"}}),
            dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        std::vector<FeedSpec> feeds;
        auto batches = evalBatches(*p, 3, a, &feeds);
        QVERIFY2(batches.has_value(), batches ? "" : batches.error().message().c_str());
        QCOMPARE(batches->size(), std::size_t{2});

        // What each feed gives per example, as checkFeed sees it.
        QCOMPARE(feeds.size(), std::size_t{6});
        QCOMPARE(feeds[0].exampleShape, TensorShape({2}));
        QCOMPARE(feeds[0].dtype, tensorflow::DT_INT64);
        QCOMPARE(feeds[1].exampleShape, TensorShape::scalar());
        QCOMPARE(feeds[1].dtype, tensorflow::DT_FLOAT);
        QCOMPARE(feeds[2].dtype, tensorflow::DT_INT64);
        QCOMPARE(feeds[3].exampleShape, TensorShape({-1}));
        QCOMPARE(feeds[4].exampleShape, TensorShape::scalar());

        // tf.io.parse_example's VarLenFeature: indices row-major (example, position).
        const data::Element& b0 = batches->front();
        QCOMPARE(b0[0].shape(), TensorShape({3, 2}));
        QCOMPARE(values<std::int64_t>(b0[0]), (std::vector<std::int64_t>{0, 0, 0, 1, 2, 0}));
        QCOMPARE(values<float>(b0[1]), (std::vector<float>{1.5f, 2.5f, 3.5f}));
        QCOMPARE(values<std::int64_t>(b0[2]), (std::vector<std::int64_t>{3, 2}));
        // Padded to the longest list with the default; the lengths beside.
        QCOMPARE(b0[3].shape(), TensorShape({3, 3}));
        QCOMPARE(values<std::int64_t>(b0[3]), (std::vector<std::int64_t>{7, 8, 9, -1, -1, -1, 4, -1, -1}));
        QCOMPARE(values<std::int64_t>(b0[4]), (std::vector<std::int64_t>{3, 0, 1}));
        QCOMPARE(values<std::int64_t>(b0[5]), (std::vector<std::int64_t>{0, 1, 2}));

        // A batch whose lists are all empty.
        const data::Element& b1 = batches->back();
        QCOMPARE(b1[0].shape(), TensorShape({0, 2}));
        QCOMPARE(b1[1].shape(), TensorShape({0}));
        QCOMPARE(values<std::int64_t>(b1[2]), (std::vector<std::int64_t>{1, 0}));
        QCOMPARE(b1[3].shape(), TensorShape({1, 0}));
        QCOMPARE(values<std::int64_t>(b1[4]), (std::vector<std::int64_t>{0}));
    }

    void stringListsPadWithEmptyStrings()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().bytes("w", {"a", "bc"}).serialized(),
                                                        ExampleBuilder().bytes("w", {"d"}).serialized()})
                    .isOk());
        auto p = test::sourceProject(tfrecordSource({{"w", {{"dtype", "string"}, {"varlen", true}, {"pad", true}}}},
                                                    {{"words", "w"}, {"sparse_words", "w.length"}}),
                                     dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto batches = evalBatches(*p, 2, a);
        QVERIFY2(batches.has_value(), batches ? "" : batches.error().message().c_str());
        QCOMPARE(strings(batches->front()[1]), (std::vector<std::string>{"a", "bc", "d", ""}));
        QCOMPARE(values<std::int64_t>(batches->front()[0]), (std::vector<std::int64_t>{2, 1}));

        // The sparse form of strings keeps them in order.
        auto sparse = test::sourceProject(tfrecordSource({{"w", {{"dtype", "string"}, {"varlen", true}}}},
                                                         {{"v", "w.values"}}),
                                          dir);
        QVERIFY(sparse.has_value());
        auto sb = evalBatches(*sparse, 2, a);
        QVERIFY2(sb.has_value(), sb ? "" : sb.error().message().c_str());
        QCOMPARE(strings(sb->front()[0]), (std::vector<std::string>{"a", "bc", "d"}));
    }

    void shuffleAndRepeatKeepListsWithTheirExamples()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        // Example i holds the list [10 i, 10 i + 1, ...] of length i and label i.
        std::vector<std::string> records;
        for (int i = 0; i < 5; ++i) {
            std::vector<std::int64_t> list;
            for (int j = 0; j < i; ++j)
                list.push_back(10 * i + j);
            records.push_back(ExampleBuilder().ints("v", list).ints("y", {i}).serialized());
        }
        QVERIFY(data::writeRecords(dir / "d.tfrecord", records).isOk());
        auto p = test::sourceProject(tfrecordSource({{"v", {{"dtype", "int64"}, {"varlen", true}}},
                                                     {"y", {{"dtype", "int64"}}}},
                                                    {{"i", "v.indices"}, {"s", "v.dense_shape"}, {"v", "v.values"},
                                                     {"y", "y"}}),
                                     dir, 2);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto pipeline = buildSourcePipeline(*p, 0, a);
        QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().message().c_str());
        auto it = pipeline->batches.makeIterator();
        std::map<std::int64_t, int> seen;
        for (int step = 0; step < 10; ++step) { // 20 examples: four epochs of five
            auto next = it->getNext();
            QVERIFY2(next.has_value(), next ? "" : next.error().message().c_str());
            QVERIFY(next->has_value());
            const data::Element& b = **next;
            const auto indices = values<std::int64_t>(b[0]);
            const auto shape = values<std::int64_t>(b[1]);
            const auto vals = values<std::int64_t>(b[2]);
            const auto labels = values<std::int64_t>(b[3]);
            QCOMPARE(labels.size(), std::size_t{2}); // training drops no example here: 2 divides 20
            QCOMPARE(shape[0], std::int64_t{2});
            QCOMPARE(shape[1], std::max(labels[0], labels[1]));
            std::vector<std::vector<std::int64_t>> rows(2);
            for (std::size_t k = 0; k < vals.size(); ++k) {
                QCOMPARE(indices[2 * k + 1], static_cast<std::int64_t>(rows[static_cast<std::size_t>(indices[2 * k])].size()));
                rows[static_cast<std::size_t>(indices[2 * k])].push_back(vals[k]);
            }
            for (std::size_t r = 0; r < 2; ++r) {
                std::vector<std::int64_t> want;
                for (std::int64_t j = 0; j < labels[r]; ++j)
                    want.push_back(10 * labels[r] + j);
                QCOMPARE(rows[r], want);
                ++seen[labels[r]];
            }
        }
        QCOMPARE(seen.size(), std::size_t{5});
        for (const auto& [label, count] : seen)
            QCOMPARE(count, 4);
    }

    void feedsTheSparsePlaceholdersOfAGraph()
    {
        // The placeholders tf.sparse_placeholder(tf.float32, name="tags") makes ("tags/values" [?],
        // "tags/indices" [?, ?], "tags/shape" [?]) and two for a padded feature pass the training
        // set-up's feed check (checkFeed) with what the pipeline says each feed gives.
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().floats("tags", {1, 2}).floats("p", {5}).serialized(),
                                                        ExampleBuilder().floats("tags", {3}).serialized()})
                    .isOk());
        const auto placeholder = [](const std::string& name, const std::string& dtype, const std::string& dims) {
            return "node { name: '" + name + "' op: 'Placeholder' attr { key: 'dtype' value { type: " + dtype +
                   " } } attr { key: 'shape' value { shape { " + dims + " } } } } ";
        };
        const std::string one = "dim { size: -1 }";
        auto p = test::sourceProject(
            tfrecordSource({{"tags", {{"dtype", "float32"}, {"varlen", true}}},
                            {"p", {{"dtype", "float32"}, {"varlen", true}, {"pad", true}, {"default", 9}}}},
                           {{"tags/values", "tags.values"},
                            {"tags/indices", "tags.indices"},
                            {"tags/shape", "tags.dense_shape"},
                            {"padded", "p"},
                            {"length", "p.length"}}),
            dir, 2);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto pipeline = buildSourcePipeline(*p, 0, a);
        QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().message().c_str());
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        const auto check = [&](const std::string& values) -> std::string {
            tensorflow::GraphDef graph;
            const std::string text = placeholder("tags/values", "DT_FLOAT", values) +
                                     placeholder("tags/indices", "DT_INT64", one + " " + one) +
                                     placeholder("tags/shape", "DT_INT64", one) +
                                     placeholder("padded", "DT_FLOAT", one + " " + one) +
                                     placeholder("length", "DT_INT64", one);
            if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
                return "(bad pbtxt)";
            GraphBuilder b((*registries)->ops);
            if (Status s = b.importGraphDef(graph); !s.isOk())
                return s.message();
            for (const FeedSpec& feed : pipeline->feeds)
                if (Status s = checkFeed(b, feed, 2, "feeds." + feed.placeholder); !s.isOk())
                    return s.message();
            return "(ok)";
        };
        COMPARE_TEXT(check(one), "(ok)");
        // tf.sparse_placeholder(shape=[None, None]): indices [?, 2] and shape [2], whatever the batch size.
        const auto shapedSparse = [&](std::int64_t batchSize) -> std::string {
            tensorflow::GraphDef graph;
            const std::string text = placeholder("tags/values", "DT_FLOAT", one) +
                                     placeholder("tags/indices", "DT_INT64", one + " dim { size: 2 }") +
                                     placeholder("tags/shape", "DT_INT64", "dim { size: 2 }") +
                                     placeholder("padded", "DT_FLOAT", one + " " + one) +
                                     placeholder("length", "DT_INT64", one);
            if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
                return "(bad pbtxt)";
            GraphBuilder b((*registries)->ops);
            if (Status s = b.importGraphDef(graph); !s.isOk())
                return s.message();
            for (const FeedSpec& feed : pipeline->feeds)
                if (Status s = checkFeed(b, feed, batchSize, "feeds." + feed.placeholder); !s.isOk())
                    return s.message();
            return "(ok)";
        };
        COMPARE_TEXT(shapedSparse(2), "(ok)");
        COMPARE_TEXT(shapedSparse(3), "(ok)");
        COMPARE_TEXT(check(one + " " + one),
                     "feeds.tags/values: placeholder 'tags/values' expects float [?,?] but the source gives float [?]");
        // Each feed gets its part of the batch.
        auto it = pipeline->batches.makeIterator();
        auto batch = it->getNext();
        QVERIFY2(batch.has_value(), batch ? "" : batch.error().message().c_str());
        const data::Element& b = **batch; // feeds in name order: length, padded, tags/indices, tags/shape, tags/values
        QCOMPARE(b[2].shape(), TensorShape({3, 2}));
        QCOMPARE(values<std::int64_t>(b[3]), (std::vector<std::int64_t>{2, 2}));
        auto sorted = values<float>(b[4]);
        std::sort(sorted.begin(), sorted.end()); // the examples come shuffled
        QCOMPARE(sorted, (std::vector<float>{1, 2, 3}));
        QCOMPARE(b[1].shape(), TensorShape({2, 1}));
        const auto padded = values<float>(b[1]);
        const auto lengths = values<std::int64_t>(b[0]);
        QVERIFY((padded == std::vector<float>{5, 9} && lengths == std::vector<std::int64_t>{1, 0}) ||
                (padded == std::vector<float>{9, 5} && lengths == std::vector<std::int64_t>{0, 1}));
    }

    void previewShowsBatchedForms()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().floats("t", {1, 2}).ints("n", {5}).serialized(),
                                                        ExampleBuilder().floats("t", {3}).serialized()})
                    .isOk());
        auto p = test::sourceProject(tfrecordSource({{"t", {{"dtype", "float32"}, {"varlen", true}}},
                                                     {"n", {{"dtype", "int64"}, {"varlen", true}, {"pad", true}}}},
                                                    {{"x", "t.values"}}),
                                     dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto preview = previewSource(*p, 0, 5, a);
        QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
        QCOMPARE(preview->components,
                 (std::vector<std::string>{"n", "n.length", "t.indices", "t.values", "t.dense_shape"}));
        QCOMPARE(preview->count, std::int64_t{2});
        QCOMPARE(preview->exampleShapes[0], TensorShape({-1}));
        QCOMPARE(preview->exampleShapes[2], TensorShape({-1, 2}));
        QCOMPARE(preview->exampleShapes[4], TensorShape({2}));
        QCOMPARE(values<std::int64_t>(preview->examples[0]), (std::vector<std::int64_t>{5, 0}));
        QCOMPARE(values<std::int64_t>(preview->examples[1]), (std::vector<std::int64_t>{1, 0}));
        QCOMPARE(values<std::int64_t>(preview->examples[2]), (std::vector<std::int64_t>{0, 0, 0, 1, 1, 0}));
        QCOMPARE(values<float>(preview->examples[3]), (std::vector<float>{1, 2, 3}));
        QCOMPARE(values<std::int64_t>(preview->examples[4]), (std::vector<std::int64_t>{2, 2}));
        auto none = previewSource(*p, 0, 0, a);
        QVERIFY2(none.has_value(), none ? "" : none.error().message().c_str());
        QCOMPARE(none->examples[2].shape(), TensorShape({0, 2}));
        QCOMPARE(values<std::int64_t>(none->examples[4]), (std::vector<std::int64_t>{0, 0}));
    }

    void recordErrorsNameFileRecordAndFeature()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        const json features = {{"v", {{"dtype", "int64"}, {"varlen", true}}}, {"x", {{"dtype", "float32"}}}};
        auto p = test::sourceProject(tfrecordSource(features, {{"x", "x"}}), dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        const std::string good = ExampleBuilder().ints("v", {1}).floats("x", {1}).serialized();

        // A varlen feature of the wrong type.
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {good, ExampleBuilder().floats("v", {1.5f}).floats("x", {1}).serialized()})
                    .isOk());
        COMPARE_TEXT(firstError(*p), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 1: Key: v, "
                                             "Index: 0.  Data types don't match. Expected type: int64, Actual type: "
                                             "float"));
        // A fixed feature of the wrong type, and one that is missing.
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {good, good, ExampleBuilder().ints("x", {3}).serialized()}).isOk());
        COMPARE_TEXT(firstError(*p), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 2: Key: x, "
                                             "Index: 0.  Data types don't match. Data type: int64 but expected type: "
                                             "float"));
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().ints("v", {1}).serialized()}).isOk());
        COMPARE_TEXT(firstError(*p), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 0: Feature: x "
                                             "(data type: float) is required but could not be found."));

        // Damaged files: DataLoss naming the file and the record.
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {good, good, good}).isOk());
        std::string bytes = readAll(dir / "d.tfrecord");
        const std::size_t recordBytes = bytes.size() / 3;
        std::string corrupt = bytes;
        corrupt[recordBytes + 14] = static_cast<char>(corrupt[recordBytes + 14] ^ 0x40); // record 1's data
        QVERIFY(put(dir / "d.tfrecord", corrupt));
        CpuAllocator a;
        auto damaged = evalBatches(*p, 4, a);
        QVERIFY(!damaged);
        QCOMPARE(damaged.error().code(), StatusCode::kDataLoss);
        QVERIFY2(damaged.error().message().starts_with("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 1: "),
                 damaged.error().message().c_str());
        QVERIFY2(damaged.error().message().find((dir / "d.tfrecord").string()) != std::string::npos,
                 damaged.error().message().c_str());
        QVERIFY(put(dir / "d.tfrecord", bytes.substr(0, 2 * recordBytes + 5)));
        auto truncated = evalBatches(*p, 4, a);
        QVERIFY(!truncated);
        QCOMPARE(truncated.error().code(), StatusCode::kDataLoss);
        QVERIFY2(truncated.error().message().starts_with("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 2: "),
                 truncated.error().message().c_str());
    }

    void imageErrorsNameFileRecordAndFeature()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        auto encoded = test::sourceProject(
            tfrecordSource({{"img", {{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"channels", 1}}}}}},
                           {{"x", "img"}}),
            dir);
        QVERIFY2(encoded.has_value(), encoded ? "" : encoded.error().message().c_str());
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().bytes("img", {png({1, 2, 3, 4}, 2, 2, 1)}).serialized(),
                                                        ExampleBuilder().bytes("img", {"not an image"}).serialized()})
                    .isOk());
        COMPARE_TEXT(firstError(*encoded), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 1: feature "
                                                   "'img': not a PNG or JPEG image"));
        // A JPEG cut short is refused too (TF's decode_jpeg does).
        std::vector<std::uint8_t> rgb = pattern(8, 8, 3, 1);
        const std::string cut = jpeg(rgb, 8, 8).substr(0, 200);
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().bytes("img", {cut}).serialized()}).isOk());
        const std::string jpegError = firstError(*encoded);
        QVERIFY2(jpegError.starts_with("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 0: feature 'img': "),
                 jpegError.c_str());

        auto raw = test::sourceProject(
            tfrecordSource({{"image_raw",
                             {{"dtype", "string"},
                              {"image", {{"height", 28}, {"width", 28}, {"channels", 1}, {"encoding", "raw"}}}}}},
                           {{"x", "image_raw"}}),
            dir);
        QVERIFY2(raw.has_value(), raw ? "" : raw.error().message().c_str());
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().bytes("image_raw", {std::string(784, '\1')}).serialized(),
                                                        ExampleBuilder().bytes("image_raw", {std::string(2352, '\1')}).serialized()})
                    .isOk());
        COMPARE_TEXT(firstError(*raw), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 1: feature "
                                               "'image_raw' has 2352 bytes; height 28 x width 28 x channels 1 = 784 "
                                               "expected"));
        // An image feature is required.
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().ints("label", {1}).serialized()}).isOk());
        COMPARE_TEXT(firstError(*raw), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 0: Feature: "
                                               "image_raw (data type: string) is required but could not be found."));
    }

    void resizeMatchesNumpy()
    {
        // Grey 3x4 -> 5x2 (rows up, columns down). Expected values from NumPy in float32 with TF 1.x's
        // ResizeBilinear (align_corners=False, half_pixel_centers=False: source = out * in / out,
        // lerp across x then y, as tools/golden/image.py's resize_bilinear), times float32(1/255).
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        const std::vector<std::uint8_t> grey{0, 50, 100, 150, 200, 250, 30, 60, 90, 120, 180, 240};
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {ExampleBuilder().bytes("img", {png(grey, 4, 3, 1)}).serialized()})
                    .isOk());
        auto p = test::sourceProject(
            tfrecordSource({{"img", {{"dtype", "string"}, {"image", {{"height", 5}, {"width", 2}, {"channels", 1}}}}}},
                           {{"x", "img"}}),
            dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto batches = evalBatches(*p, 1, a);
        QVERIFY2(batches.has_value(), batches ? "" : batches.error().message().c_str());
        const Tensor& image = batches->front()[0];
        QCOMPARE(image.shape(), TensorShape({1, 5, 2, 1}));
        const std::vector<float> want{0.0f,         0.39215690f, 0.47058830f, 0.22745100f, 0.69803923f,
                                      0.23529416f, 0.43921569f, 0.58823532f, 0.35294119f, 0.70588237f};
        const std::vector<float> got = values<float>(image);
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY2(std::fabs(got[i] - want[i]) <= 1e-6f, (std::to_string(i) + ": " + std::to_string(got[i])).c_str());
    }

    void makeTfRecordOutputReadsLikeTheImages()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        const std::filesystem::path images = dir / "images";
        // "a" (label 0): an RGB PNG 4x5 and a grey PNG 3x3 (decoded to RGB); "b" (label 1): a JPEG 6x4.
        QVERIFY(put(images / "a" / "1.png", png(pattern(4, 5, 3, 1), 4, 5, 3)));
        QVERIFY(put(images / "a" / "2.png", png(pattern(3, 3, 1, 2), 3, 3, 1)));
        QVERIFY(put(images / "b" / "3.jpg", jpeg(pattern(6, 4, 3, 3), 6, 4)));
        data::ImageFolderRecordsOptions options;
        options.imageDir = images;
        options.output = dir / "train.tfrecord";
        auto report = data::writeImageFolderRecords(options);
        QVERIFY2(report.has_value(), report ? "" : report.error().message().c_str());

        const json imageSource = {{"type", "image_folder"},
                                  {"dir", "images"},
                                  {"height", 4},
                                  {"width", 5},
                                  {"feeds", {{"x", "images"}, {"y", "labels"}}}};
        const json recordSource = tfrecordSource(
            {{"image_raw", {{"dtype", "string"}, {"image", {{"height", 4}, {"width", 5}, {"channels", 3}}}}},
             {"label", {{"dtype", "int64"}}}},
            {{"x", "image_raw"}, {"y", "label"}}, "train.tfrecord");
        auto fromFolder = test::sourceProject(imageSource, dir);
        auto fromRecords = test::sourceProject(recordSource, dir);
        QVERIFY2(fromFolder.has_value(), fromFolder ? "" : fromFolder.error().message().c_str());
        QVERIFY2(fromRecords.has_value(), fromRecords ? "" : fromRecords.error().message().c_str());
        CpuAllocator a;
        auto folderBatches = evalBatches(*fromFolder, 3, a);
        auto recordBatches = evalBatches(*fromRecords, 3, a);
        QVERIFY2(folderBatches.has_value(), folderBatches ? "" : folderBatches.error().message().c_str());
        QVERIFY2(recordBatches.has_value(), recordBatches ? "" : recordBatches.error().message().c_str());
        const data::Element& f = folderBatches->front();
        const data::Element& r = recordBatches->front();
        QCOMPARE(r[0].shape(), TensorShape({3, 4, 5, 3}));
        QCOMPARE(values<std::int64_t>(r[1]), (std::vector<std::int64_t>{0, 0, 1}));
        QCOMPARE(values<std::int64_t>(r[1]), values<std::int64_t>(f[1]));
        QCOMPARE(values<float>(r[0]), values<float>(f[0])); // the same decode and resize, bit for bit

        // The first image is 5 rows of 4 already: a source of that size keeps each decoded pixel
        // exactly (resize_images returns a same-size image as it is), times 1/255.
        const json sameSize = tfrecordSource(
            {{"image_raw", {{"dtype", "string"}, {"image", {{"height", 5}, {"width", 4}, {"channels", 3}}}}}},
            {{"x", "image_raw"}}, "train.tfrecord");
        auto exact = test::sourceProject(sameSize, dir);
        QVERIFY(exact.has_value());
        auto exactBatches = evalBatches(*exact, 3, a);
        QVERIFY2(exactBatches.has_value(), exactBatches ? "" : exactBatches.error().message().c_str());
        auto decoded = decodeImage(readAll(images / "a" / "1.png"), 3, "1.png");
        QVERIFY(decoded.has_value());
        const std::vector<float> got = values<float>(exactBatches->front()[0]);
        for (std::size_t i = 0; i < decoded->pixels.size(); ++i)
            QCOMPARE(got[i], static_cast<float>(decoded->pixels[i]) * (1.0f / 255.0f));
        // The JPEG (third) equals the engine's own decode of the same bytes, resized by the same code.
        auto jpegDecoded = decodeImage(readAll(images / "b" / "3.jpg"), 3, "3.jpg");
        QVERIFY(jpegDecoded.has_value());
        QCOMPARE(jpegDecoded->width, 6);
        QCOMPARE(jpegDecoded->height, 4);
        const std::vector<float> jpegResized =
            resizeBilinear(jpegDecoded->pixels, 4, 6, 3, 4, 5, 1.0f / 255.0f);
        const std::vector<float> recordValues = values<float>(r[0]);
        QCOMPARE(std::vector<float>(recordValues.begin() + 2 * 60, recordValues.end()), jpegResized);

        // Raw pixels (decode_raw + reshape): the RGB images of one size only.
        const std::filesystem::path rgb = dir / "rgb";
        QVERIFY(put(rgb / "a" / "1.png", png(pattern(4, 5, 3, 4), 4, 5, 3)));
        QVERIFY(put(rgb / "b" / "2.png", png(pattern(4, 5, 3, 5), 4, 5, 3)));
        options.imageDir = rgb;
        options.output = dir / "raw.tfrecord";
        options.encoding = data::ImageEncoding::kRaw;
        auto rawReport = data::writeImageFolderRecords(options);
        QVERIFY2(rawReport.has_value(), rawReport ? "" : rawReport.error().message().c_str());
        auto raw = test::sourceProject(
            tfrecordSource({{"image_raw",
                             {{"dtype", "string"},
                              {"image", {{"height", 5}, {"width", 4}, {"channels", 3}, {"encoding", "raw"}}}}},
                            {"label", {{"dtype", "int64"}}}},
                           {{"x", "image_raw"}, {"y", "label"}}, "raw.tfrecord"),
            dir);
        QVERIFY2(raw.has_value(), raw ? "" : raw.error().message().c_str());
        auto rawBatches = evalBatches(*raw, 2, a);
        QVERIFY2(rawBatches.has_value(), rawBatches ? "" : rawBatches.error().message().c_str());
        const std::vector<float> rawValues = values<float>(rawBatches->front()[0]);
        QCOMPARE(rawValues.size(), std::size_t{2 * 5 * 4 * 3});
        for (int k = 0; k < 2; ++k) {
            auto original = decodeImage(readAll(rgb / (k == 0 ? "a" : "b") / (k == 0 ? "1.png" : "2.png")), 3, "png");
            QVERIFY(original.has_value());
            for (std::size_t i = 0; i < original->pixels.size(); ++i)
                QCOMPARE(rawValues[static_cast<std::size_t>(k) * 60 + i],
                         static_cast<float>(original->pixels[i]) * (1.0f / 255.0f));
        }
        QCOMPARE(values<std::int64_t>(rawBatches->front()[1]), (std::vector<std::int64_t>{0, 1}));
    }

    void jsonRoundTrip()
    {
        const json source = tfrecordSource(
            {{"img",
              {{"dtype", "string"}, {"image", {{"height", 8}, {"width", 6}, {"channels", 1}, {"encoding", "encoded"}}}}},
             {"raw", {{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"encoding", "raw"}}}}},
             {"tags", {{"dtype", "int64"}, {"varlen", true}}},
             {"words", {{"dtype", "string"}, {"varlen", true}, {"pad", true}, {"default", "?"}}},
             {"x", {{"dtype", "float32"}, {"shape", json::array({2})}, {"default", json::array({0, 1})}}}},
            {{"i", "tags.indices"}, {"w", "words"}, {"n", "words.length"}, {"p", "img"}});
        auto p = test::sourceProject(source, "/tmp");
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        const auto& t = std::get<TfRecordParams>(p->sources.front().params);
        QVERIFY(t.features.at("img").image.has_value());
        QCOMPARE(t.features.at("img").image->channels, std::int64_t{1});
        QCOMPARE(t.features.at("raw").image->channels, std::int64_t{3}); // the default
        QCOMPARE(t.features.at("raw").image->encoding, std::string("raw"));
        QVERIFY(t.features.at("tags").varlen && !t.features.at("tags").pad);
        QVERIFY(t.features.at("words").pad);
        const std::string written = projectToJson(*p);
        auto again = parseProject(written, "x.tsproj");
        QVERIFY2(again.has_value(), again ? "" : again.error().message().c_str());
        QCOMPARE(projectToJson(*again), written);
        const json features = json::parse(written)["data"]["sources"][0]["features"];
        QVERIFY(features["img"]["image"]["method"] == json("bilinear"));
        QVERIFY(features["tags"]["varlen"] == json(true));
        QVERIFY(features["words"]["default"] == json("?"));
        QVERIFY(!features["raw"]["image"].contains("method"));
    }

    void schemaErrorsNameTheJsonPath()
    {
        const auto err = [](const json& feature) {
            return parseError(tfrecordSource({{"f", feature}}, {{"x", "f"}}));
        };
        const std::string at = "x.tsproj: data.sources[0].features.f.";
        COMPARE_TEXT(err({{"dtype", "int64"}, {"varlen", true}, {"shape", json::array({2})}}),
                 at + "shape: not allowed with \"varlen\": true (a VarLenFeature has any number of values)");
        COMPARE_TEXT(err({{"dtype", "int64"}, {"varlen", true}, {"default", 0}}),
                 at + "default: a sparse varlen feature has no default (give \"pad\": true to pad the batch with it)");
        COMPARE_TEXT(err({{"dtype", "int64"}, {"varlen", true}, {"pad", true}, {"default", "a"}}),
                 at + "default: expected one int64 value to pad with, got 'a'");
        COMPARE_TEXT(err({{"dtype", "int64"}, {"pad", true}}), at + "pad: only applies with \"varlen\": true");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}}}, {"default", "x"}}),
                 at + "default: not allowed with \"image\" (every example must hold its image)");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}}}, {"shape", json::array({2, 2})}}),
                 at + "shape: not allowed with \"image\" (the image's shape is [height, width, channels])");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"channels", 2}}}}),
                 at + "image.channels: expected 1 (grey) or 3 (RGB), got 2");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"size", 3}}}}),
                 at + "image.size: unknown key (expected one of channels, height, width, encoding, method)");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"width", 2}}}}), at + "image.height: required");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"method", "nearest"}}}}),
                 at + "image.method: expected bilinear (tf.image.resize_images' default; no other method is "
                      "implemented), got 'nearest'");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}, {"encoding", "png"}}}}),
                 at + "image.encoding: expected one of encoded, raw, got 'png'");
        COMPARE_TEXT(err({{"dtype", "float32"}, {"image", {{"height", 2}, {"width", 2}}}}),
                 at + "image: an image feature holds bytes: its dtype must be string, got float32");
        COMPARE_TEXT(err({{"dtype", "string"}, {"image", {{"height", 2}, {"width", 2}}}, {"varlen", true}}),
                 at + "varlen: an image feature holds one image (no varlen)");
        COMPARE_TEXT(err({{"dtype", "int64"}, {"varlen", "yes"}}), at + "varlen: expected true or false, got 'yes'");
        // Feeds name the batch components; the feature's own name is not one for a sparse feature.
        COMPARE_TEXT(parseError(tfrecordSource({{"f", {{"dtype", "int64"}, {"varlen", true}}}}, {{"x", "f"}})),
                 std::string("x.tsproj: data.sources[0].feeds.x: the tfrecord source has no component 'f' (it has "
                             "f.indices, f.values, f.dense_shape)"));
        // Two features may not give one component.
        COMPARE_TEXT(parseError(tfrecordSource({{"f", {{"dtype", "int64"}, {"varlen", true}}},
                                            {"f.values", {{"dtype", "int64"}}}},
                                           {{"x", "f.values"}})),
                 std::string("x.tsproj: data.sources[0].features.f.values: gives the component 'f.values', which "
                             "another feature gives too"));
        // Parts of a variable-length feature are not stacked into one feed.
        QTemporaryDir tmp;
        QVERIFY(data::writeRecords(std::filesystem::path(tmp.path().toStdString()) / "d.tfrecord", {}).isOk());
        auto p = test::sourceProject(tfrecordSource({{"f", {{"dtype", "int64"}, {"varlen", true}, {"pad", true}}},
                                                     {"g", {{"dtype", "int64"}}}},
                                                    {{"x", json::array({"g", "f.length"})}}),
                                     tmp.path().toStdString());
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto pipeline = buildSourcePipeline(*p, 0, a);
        QVERIFY(!pipeline);
        COMPARE_TEXT(pipeline.error().message(), std::string("x.tsproj: data.sources[0].feeds.x: only scalar components "
                                                         "can be stacked; 'f.length' is part of a variable-length "
                                                         "feature"));
    }
};

QTEST_GUILESS_MAIN(TestTfRecordSource)
#include "test_tfrecord_source.moc"
