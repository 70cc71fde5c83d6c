// "numpy" data sources: .npy files and .npz archives (stored and deflated, written here with the
// engine's encodeNpy and libzip) read into components, skip/take, the pipeline's batches, the
// errors naming files and keys, and the source's JSON form (validation, byte-stable re-save).
#include "project/sources/data_sources.h"
#include "framework/allocator.h"
#include "io/npy.h"
#include "project/format/project_file.h"
#include "project/sources/source_preview.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zip.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "../support/source_test_projects.h"

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

Expected<Project> makeProject(const json& source, const std::filesystem::path& dir)
{
    return test::sourceProject(source, dir, 2);
}

std::string parseError(const json& source)
{
    return test::sourceParseError(source);
}

Tensor floats(Allocator& a, const TensorShape& shape, float start)
{
    auto t = Tensor::allocate(a, tensorflow::DT_FLOAT, shape);
    auto v = t->values<float>();
    std::iota(v.begin(), v.end(), start);
    return *t;
}

Tensor int64s(Allocator& a, std::vector<std::int64_t> values)
{
    return *Tensor::fromVector(a, TensorShape({static_cast<std::int64_t>(values.size())}), values);
}

/// A .npy file through the engine's encodeNpy.
bool putNpy(const std::filesystem::path& path, const Tensor& t)
{
    auto bytes = encodeNpy(t);
    return bytes && testing::writeFile(QString::fromStdString(path.string()), *bytes);
}

/// An .npz as np.savez (stored) or np.savez_compressed (deflated) writes it: member "<key>.npy".
bool writeNpz(const std::filesystem::path& path, const std::map<std::string, Tensor>& arrays, bool compressed)
{
    std::vector<std::string> buffers; // libzip reads them at zip_close
    buffers.reserve(arrays.size());
    int error = 0;
    zip_t* archive = zip_open(path.string().c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    if (!archive)
        return false;
    for (const auto& [key, tensor] : arrays) {
        auto bytes = encodeNpy(tensor);
        if (!bytes)
            return false;
        buffers.push_back(std::move(*bytes));
        zip_source_t* source = zip_source_buffer(archive, buffers.back().data(), buffers.back().size(), 0);
        const zip_int64_t index = source ? zip_file_add(archive, (key + ".npy").c_str(), source, ZIP_FL_OVERWRITE) : -1;
        if (index < 0 || zip_set_file_compression(archive, static_cast<zip_uint64_t>(index),
                                                  compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0) {
            zip_discard(archive);
            return false;
        }
    }
    return zip_close(archive) == 0;
}

std::vector<float> floatValues(const Tensor& t)
{
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

std::vector<std::int64_t> int64Values(const Tensor& t)
{
    auto v = t.values<std::int64_t>();
    return {v.begin(), v.end()};
}

std::vector<float> range(float start, int count)
{
    std::vector<float> out(static_cast<std::size_t>(count));
    std::iota(out.begin(), out.end(), start);
    return out;
}

} // namespace

class TestNumpySource : public QObject {
    Q_OBJECT
private slots:
    void npyFilesWithSkipTake()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        CpuAllocator a;
        // x: 5 examples of [2, 3] floats, 0..29; y: labels 10..14.
        QVERIFY(putNpy(dir / "x.npy", floats(a, TensorShape({5, 2, 3}), 0.0f)));
        QVERIFY(putNpy(dir / "y.npy", int64s(a, {10, 11, 12, 13, 14})));
        auto p = makeProject({{"type", "numpy"},
                              {"files", {"x.npy", "y.npy"}},
                              {"skip", 1},
                              {"take", 3},
                              {"feeds", {{"images", "x"}, {"labels", "y"}}}},
                             dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());

        auto preview = previewSource(*p, 0, 10, a);
        QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
        QCOMPARE(preview->components, (std::vector<std::string>{"x", "y"}));
        QCOMPARE(preview->dtypes, (std::vector<DataType>{tensorflow::DT_FLOAT, tensorflow::DT_INT64}));
        QCOMPARE(preview->exampleShapes[0], TensorShape({2, 3}));
        QCOMPARE(preview->exampleShapes[1], TensorShape::scalar());
        QCOMPARE(preview->count, std::int64_t{3}); // take 3 of the 10 asked for
        QCOMPARE(preview->examples[0].shape(), TensorShape({3, 2, 3}));
        QCOMPARE(floatValues(preview->examples[0]), range(6.0f, 18)); // rows 1..3
        QCOMPARE(int64Values(preview->examples[1]), (std::vector<std::int64_t>{11, 12, 13}));

        auto two = previewSource(*p, 0, 2, a);
        QVERIFY(two.has_value());
        QCOMPARE(two->count, std::int64_t{2});
        QCOMPARE(int64Values(two->examples[1]), (std::vector<std::int64_t>{11, 12}));

        // The pipeline: shuffled batches of 2 whose rows are still the source's (x row = label).
        auto pipeline = buildSourcePipeline(*p, 0, a);
        QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().message().c_str());
        QCOMPARE(pipeline->feeds.size(), std::size_t{2});
        QCOMPARE(pipeline->feeds[0].placeholder, std::string("images"));
        QCOMPARE(pipeline->feeds[0].exampleShape, TensorShape({2, 3}));
        auto it = pipeline->batches.makeIterator();
        std::multiset<std::int64_t> seen;
        for (int step = 0; step < 3; ++step) {
            auto batch = it->getNext();
            QVERIFY(batch.has_value() && batch->has_value());
            const data::Element& e = **batch;
            QCOMPARE(e[0].shape(), TensorShape({2, 2, 3}));
            for (int row = 0; row < 2; ++row) {
                const std::int64_t label = e[1].values<std::int64_t>()[static_cast<std::size_t>(row)];
                QVERIFY(label >= 11 && label <= 13);
                QCOMPARE(e[0].values<float>()[static_cast<std::size_t>(row * 6)], static_cast<float>((label - 10) * 6));
                seen.insert(label);
            }
        }
        QCOMPARE(seen.size(), std::size_t{6});
    }

    void npzStoredAndCompressed()
    {
        for (bool compressed : {false, true}) {
            QTemporaryDir tmp;
            const std::filesystem::path dir = tmp.path().toStdString();
            CpuAllocator a;
            auto x = floats(a, TensorShape({4, 3}), 100.0f);
            auto y = int64s(a, {3, 2, 1, 0});
            auto unused = floats(a, TensorShape({7}), 0.0f); // other arrays may differ in length
            QVERIFY(writeNpz(dir / "data.npz", {{"x", x}, {"y", y}, {"meta", unused}}, compressed));
            auto p = makeProject({{"type", "numpy"},
                                  {"files", json::array({"data.npz"})},
                                  {"keys", {"y", "x"}},
                                  {"take", 2},
                                  {"feeds", {{"in", "x"}}}},
                                 dir);
            QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
            auto preview = previewSource(*p, 0, 5, a);
            QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
            QCOMPARE(preview->components, (std::vector<std::string>{"y", "x"}));
            QCOMPARE(preview->count, std::int64_t{2});
            QCOMPARE(int64Values(preview->examples[0]), (std::vector<std::int64_t>{3, 2}));
            QCOMPARE(floatValues(preview->examples[1]), range(100.0f, 6));
            QCOMPARE(preview->exampleShapes[1], TensorShape({3}));
        }
    }

    void errorsNameFilesAndKeys()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        CpuAllocator a;
        QVERIFY(putNpy(dir / "x.npy", floats(a, TensorShape({5, 2}), 0.0f)));
        QVERIFY(putNpy(dir / "y.npy", int64s(a, {1, 2, 3, 4})));
        auto bytes = encodeNpy(floats(a, TensorShape({5, 2}), 0.0f));
        QVERIFY(bytes.has_value());
        QVERIFY(testing::writeFile(tmp.filePath("cut.npy"), bytes->substr(0, bytes->size() - 4)));
        QVERIFY(writeNpz(dir / "d.npz", {{"x", floats(a, TensorShape({5}), 0.0f)}, {"y", int64s(a, {1, 2})}}, true));

        const auto error = [&](const json& source) {
            auto p = makeProject(source, dir);
            if (!p)
                return "(parse) " + p.error().message();
            auto built = buildSourcePipeline(*p, 0, a);
            auto preview = previewSource(*p, 0, 3, a);
            if (built || preview)
                return std::string("(no error)");
            if (built.error().message() != preview.error().message())
                return "(pipeline and preview differ) " + built.error().message() + " | " + preview.error().message();
            return built.error().message();
        };
        const std::string d = dir.string();
        QCOMPARE(error({{"type", "numpy"}, {"files", {"x.npy", "y.npy"}}, {"feeds", {{"a", "x"}}}}),
                 "x.tsproj: data.sources[0] (numpy): '" + d + "/x.npy' holds 5 examples (its first dimension) but '" +
                     d + "/y.npy' holds 4");
        QCOMPARE(
            error(
                {{"type", "numpy"}, {"files", json::array({"d.npz"})}, {"keys", {"x", "y"}}, {"feeds", {{"a", "x"}}}}),
            "x.tsproj: data.sources[0] (numpy): array 'x' of '" + d +
                "/d.npz' holds 5 examples (its first dimension) but array 'y' holds 2");
        QCOMPARE(error({{"type", "numpy"}, {"files", json::array({"cut.npy"})}, {"feeds", {{"a", "cut"}}}}),
                 "x.tsproj: data.sources[0] (numpy): file '" + d +
                     "/cut.npy': .npy data is truncated: shape [5,2] needs 40 bytes, the file has 36");
        QCOMPARE(
            error(
                {{"type", "numpy"}, {"files", json::array({"d.npz"})}, {"keys", {"x", "z"}}, {"feeds", {{"a", "x"}}}}),
            "x.tsproj: data.sources[0] (numpy): '" + d + "/d.npz' has no array 'z' (it has x, y)");
        QCOMPARE(error({{"type", "numpy"}, {"files", json::array({"gone.npy"})}, {"feeds", {{"a", "gone"}}}}),
                 "x.tsproj: data.sources[0] (numpy): no file '" + d + "/gone.npy'");
        QCOMPARE(error({{"type", "numpy"},
                        {"files", json::array({"x.npy"})},
                        {"skip", 4},
                        {"take", 2},
                        {"feeds", {{"a", "x"}}}}),
                 std::string("x.tsproj: data.sources[0] (numpy): skip 4 and take 2 ask for examples 4 to 5 but the "
                             "arrays hold 5"));
        QVERIFY(testing::writeFile(tmp.filePath("bad.npz"), "not a zip file at all"));
        const std::string notZip = error({{"type", "numpy"},
                                          {"files", json::array({"bad.npz"})},
                                          {"keys", json::array({"x"})},
                                          {"feeds", {{"a", "x"}}}});
        QVERIFY2(notZip.starts_with("x.tsproj: data.sources[0] (numpy): '" + d +
                                    "/bad.npz' is not a readable zip archive: "),
                 notZip.c_str());
    }

    void validationErrors()
    {
        QCOMPARE(parseError({{"type", "numpy"}, {"files", {"a.npz", "b.npy"}}, {"feeds", {{"a", "a"}}}}),
                 std::string("x.tsproj: data.sources[0].files[0]: an .npz archive must be the only file (its arrays "
                             "are the components), got 'a.npz' among 2 files"));
        QCOMPARE(parseError({{"type", "numpy"}, {"files", json::array({"a.csv"})}, {"feeds", {{"a", "a"}}}}),
                 std::string("x.tsproj: data.sources[0].files[0]: expected a .npy file or one .npz archive, got "
                             "'a.csv'"));
        QCOMPARE(parseError({{"type", "numpy"}, {"files", json::array({"d.npz"})}, {"feeds", {{"a", "x"}}}}),
                 std::string("x.tsproj: data.sources[0].keys: required for an .npz archive: the arrays to read, e.g. "
                             "[\"x\", \"y\"]"));
        QCOMPARE(parseError({{"type", "numpy"}, {"files", json::array({"x.npy"})}, {"feeds", {{"a", "y"}}}}),
                 std::string("x.tsproj: data.sources[0].feeds.a: the numpy source has no component 'y' (it has x)"));
        QCOMPARE(parseError({{"type", "numpy"}, {"files", {"x.npy", "sub/x.npy"}}, {"feeds", {{"a", "x"}}}}),
                 std::string("x.tsproj: data.sources[0].files[1]: component 'x' comes from two files"));
        QCOMPARE(
            parseError({{"type", "numpy"}, {"files", json::array({"x.npy"})}, {"take", 0}, {"feeds", {{"a", "x"}}}}),
            std::string("x.tsproj: data.sources[0].take: expected -1 (all) or 1 or more, got 0"));
    }

    void roundTrip()
    {
        for (const json& source :
             {json{{"type", "numpy"}, {"files", {"x.npy", "y.npy"}}, {"skip", 3}, {"feeds", {{"a", "x"}, {"b", "y"}}}},
              json{{"type", "numpy"},
                   {"files", json::array({"d.npz"})},
                   {"keys", {"images", "labels"}},
                   {"take", 10},
                   {"shuffle_buffer", 5},
                   {"feeds", {{"a", "images"}}}}}) {
            auto p = parseProject(test::sourceProjectJson(source, 2).dump(), "x.tsproj");
            QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
            const std::string text = projectToJson(*p);
            auto again = parseProject(text, "x.tsproj");
            QVERIFY(again.has_value());
            QCOMPARE(projectToJson(*again), text);
            const auto& n = std::get<NumpyParams>(again->sources[0].params);
            QCOMPARE(n.files, source["files"].get<std::vector<std::string>>());
            QCOMPARE(n.keys, source.value("keys", std::vector<std::string>{}));
            QCOMPARE(n.skip, source.value("skip", std::int64_t{0}));
            QCOMPARE(n.take, source.value("take", std::int64_t{-1}));
            QCOMPARE(again->sources[0].type(), std::string("numpy"));
        }
    }
};

QTEST_GUILESS_MAIN(TestNumpySource)
#include "test_numpy_source.moc"
