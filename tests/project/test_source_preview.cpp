// previewSource: the first examples of in-memory sources (two_spirals, csv) and of a streaming one
// (tfrecord) unshuffled with dtypes and per-example shapes, and its errors.
#include "data/tfrecord_writer.h"
#include "framework/allocator.h"
#include "project/format/project_file.h"
#include "proto/example.pb.h"
#include "project/sources/source_preview.h"
#include "test_files.h"
#include "two_spirals_data.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "../support/source_test_projects.h"

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

Expected<Project> makeProject(const json& source, const std::filesystem::path& dir)
{
    return test::sourceProject(source, dir);
}

std::string example(float x, std::int64_t label)
{
    tensorflow::Example e;
    auto& features = *e.mutable_features()->mutable_feature();
    features["x"].mutable_float_list()->add_value(x);
    features["x"].mutable_float_list()->add_value(x + 0.5f);
    features["label"].mutable_int64_list()->add_value(label);
    return e.SerializeAsString();
}

} // namespace

class TestSourcePreview : public QObject {
    Q_OBJECT
private slots:
    void twoSpiralsInGeneratorOrder()
    {
        QTemporaryDir tmp;
        auto p = makeProject({{"type", "two_spirals"}, {"points_per_class", 10}, {"feeds", {{"in", "points"}}}},
                             tmp.path().toStdString());
        QVERIFY(p.has_value());
        CpuAllocator a;
        auto preview = previewSource(*p, 0, 4, a);
        QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
        QCOMPARE(preview->components, (std::vector<std::string>{"points", "labels"}));
        QCOMPARE(preview->exampleShapes[0], TensorShape({2}));
        QCOMPARE(preview->count, std::int64_t{4});
        QCOMPARE(preview->examples[0].shape(), TensorShape({4, 2}));
        // The generator's own first rows, unshuffled.
        examples::TwoSpiralsOptions options;
        options.pointsPerClass = 10;
        auto spirals = examples::makeTwoSpirals(a, options);
        QVERIFY(spirals.has_value());
        for (std::size_t i = 0; i < 8; ++i)
            QCOMPARE(preview->examples[0].values<float>()[i], spirals->points.values<float>()[i]);
        auto labels = preview->examples[1].values<std::int64_t>();
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(labels[i], std::int64_t{spirals->labels.values<std::int32_t>()[i]});

        auto none = previewSource(*p, 0, 0, a);
        QVERIFY(none.has_value());
        QCOMPARE(none->count, std::int64_t{0});
        QCOMPARE(none->examples[0].shape(), TensorShape({0, 2}));
    }

    void csvColumns()
    {
        QTemporaryDir tmp;
        QVERIFY(testing::writeFile(tmp.filePath("d.csv"), "a,b\n1.5,7\n2.5,8\n3.5,9\n"));
        auto p = makeProject({{"type", "csv"},
                              {"files", json::array({"d.csv"})},
                              {"header", true},
                              {"columns", {{{"name", "a"}, {"dtype", "float32"}}, {{"name", "b"}, {"dtype", "int64"}}}},
                              {"feeds", {{"in", "a"}}}},
                             tmp.path().toStdString());
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto preview = previewSource(*p, 0, 2, a);
        QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
        QCOMPARE(preview->dtypes, (std::vector<DataType>{tensorflow::DT_FLOAT, tensorflow::DT_INT64}));
        QCOMPARE(preview->exampleShapes[1], TensorShape::scalar());
        QCOMPARE(preview->examples[0].values<float>()[1], 2.5f);
        QCOMPARE(preview->examples[1].values<std::int64_t>()[0], std::int64_t{7});
        QCOMPARE(preview->examples[1].shape(), TensorShape({2}));
    }

    void tfRecordStream()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {example(1, 4), example(2, 5), example(3, 6)}).isOk());
        auto p = makeProject(
            {{"type", "tfrecord"},
             {"files", json::array({"d.tfrecord"})},
             {"features",
              {{"x", {{"dtype", "float32"}, {"shape", json::array({2})}}}, {"label", {{"dtype", "int64"}}}}},
             {"feeds", {{"in", "x"}}}},
            dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto two = previewSource(*p, 0, 2, a);
        QVERIFY2(two.has_value(), two ? "" : two.error().message().c_str());
        QCOMPARE(two->components, (std::vector<std::string>{"label", "x"}));
        QCOMPARE(two->count, std::int64_t{2});
        QCOMPARE(two->examples[1].shape(), TensorShape({2, 2}));
        auto x = two->examples[1].values<float>();
        QCOMPARE((std::vector<float>(x.begin(), x.end())), (std::vector<float>{1, 1.5f, 2, 2.5f}));
        auto all = previewSource(*p, 0, 10, a);
        QVERIFY(all.has_value());
        QCOMPARE(all->count, std::int64_t{3});
        QCOMPARE(all->examples[0].values<std::int64_t>()[2], std::int64_t{6});

        // A record that lacks a required feature fails the preview as it fails the pipeline.
        tensorflow::Example bad;
        (*bad.mutable_features()->mutable_feature())["label"].mutable_int64_list()->add_value(1);
        QVERIFY(data::writeRecords(dir / "d.tfrecord", {example(1, 4), bad.SerializeAsString()}).isOk());
        auto failed = previewSource(*p, 0, 5, a);
        QVERIFY(!failed.has_value());
        QCOMPARE(failed.error().message(), std::string("x.tsproj: data.sources[0] (tfrecord): 'd.tfrecord' record 1: "
                                                       "Feature: x (data type: float) is required but could not "
                                                       "be found."));
        QVERIFY(previewSource(*p, 0, 1, a).has_value()); // the first record alone is fine
    }

    void errors()
    {
        QTemporaryDir tmp;
        auto p = makeProject({{"type", "two_spirals"}, {"feeds", {{"in", "points"}}}}, tmp.path().toStdString());
        QVERIFY(p.has_value());
        CpuAllocator a;
        auto negative = previewSource(*p, 0, -1, a);
        QVERIFY(!negative);
        QCOMPARE(negative.error().message(), std::string("preview count must be 0 or more, got -1"));
        auto missing = previewSource(*p, 3, 1, a);
        QVERIFY(!missing);
        QCOMPARE(missing.error().message(), std::string("the project has no data source 3"));
        auto mnist = makeProject({{"type", "mnist"}, {"feeds", {{"in", "images"}}}}, tmp.path().toStdString());
        QVERIFY(mnist.has_value());
        auto noDir = previewSource(*mnist, 0, 1, a);
        QVERIFY(!noDir);
        QCOMPARE(noDir.error().message(),
                 std::string("x.tsproj: data.sources[0] (mnist): data.dir: not set; it must name a folder holding "
                             "train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz]"));
    }
};

QTEST_GUILESS_MAIN(TestSourcePreview)
#include "test_source_preview.moc"
