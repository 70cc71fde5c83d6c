// "image_folder" data sources: class folders of PNG and JPEG files written here (io/png_encoder.h,
// libjpeg), labels in class-name order, channel conversion, TF 1.x bilinear resizing checked
// against hand-computed values, the errors naming folders and files, and the JSON form.
#include "project/sources/data_sources.h"
#include "framework/allocator.h"
#include "project/sources/image_resize.h"
#include "io/png_encoder.h"
#include "project/format/project_file.h"
#include "project/sources/source_preview.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zlib.h>
// jpeglib.h needs size_t and FILE declared first.
#include <cstddef>
#include <cstdio>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "../support/source_test_projects.h"
#include "../support/test_images.h"

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

Expected<Project> makeProject(const json& source, const std::filesystem::path& dir)
{
    return test::sourceProject(source, dir, 1);
}

std::string parseError(const json& source)
{
    return test::sourceParseError(source);
}
using test::png;
using test::put;

/// A baseline JPEG of RGB pixels through libjpeg at quality 100.
std::string jpeg(const std::vector<std::uint8_t>& rgb, int width, int height)
{
    return test::jpeg(rgb, width, height, 100);
}

std::uint32_t readBigEndian(const std::string& s, std::size_t at)
{
    return (std::uint32_t{static_cast<unsigned char>(s[at])} << 24) |
           (std::uint32_t{static_cast<unsigned char>(s[at + 1])} << 16) |
           (std::uint32_t{static_cast<unsigned char>(s[at + 2])} << 8) | static_cast<unsigned char>(s[at + 3]);
}

void writeBigEndian(std::string& s, std::size_t at, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
}

/// A valid PNG whose IHDR (with its CRC recomputed) declares width x height.
std::string pngClaiming(std::uint32_t width, std::uint32_t height)
{
    std::string s = png({7}, 1, 1, 1);
    // Signature (8), then IHDR: length (4) "IHDR" (4) width (4) height (4) ... CRC over type + data.
    writeBigEndian(s, 16, width);
    writeBigEndian(s, 20, height);
    const std::uint32_t length = readBigEndian(s, 8);
    const auto crc = crc32(0, reinterpret_cast<const Bytef*>(s.data() + 12), 4 + length);
    writeBigEndian(s, 16 + length, static_cast<std::uint32_t>(crc));
    return s;
}

std::vector<float> values(const Tensor& t)
{
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

bool near(const std::vector<float>& got, const std::vector<float>& want, float tolerance)
{
    if (got.size() != want.size())
        return false;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::fabs(got[i] - want[i]) > tolerance)
            return false;
    return true;
}

std::string show(const std::vector<float>& v)
{
    std::string out;
    for (float x : v)
        out += std::to_string(x) + " ";
    return out;
}

} // namespace

class TestImageFolderSource : public QObject {
    Q_OBJECT
private slots:
    void resizeMatchesHandComputedTfValues()
    {
        // Grey 2x2 [[0, 100], [200, 255]] to 3x3: scale 2/3 per axis, source rows/columns 0, 2/3,
        // 4/3 (the last clamps to 1). Worked by hand: e.g. the centre is top 0 + 100 * 2/3, bottom
        // 200 + 55 * 2/3, mixed 2/3 of the way: 66.67 + (236.67 - 66.67) * 2/3 = 180.
        const std::vector<std::uint8_t> in{0, 100, 200, 255};
        const std::vector<float> want{0.0f,       200.0f / 3, 100.0f,     400.0f / 3, 180.0f,
                                      610.0f / 3, 200.0f,     710.0f / 3, 255.0f};
        const std::vector<float> got = resizeBilinear(in, 2, 2, 1, 3, 3, 1.0f);
        QVERIFY2(near(got, want, 1e-3f), show(got).c_str());
        // 4x4 to 2x2: scale 2, every sample lands on a source pixel (rows/columns 0 and 2).
        std::vector<std::uint8_t> grid(16);
        for (int i = 0; i < 16; ++i)
            grid[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i * 10);
        QCOMPARE(resizeBilinear(grid, 4, 4, 1, 2, 2, 1.0f), (std::vector<float>{0, 20, 80, 100}));
        // Upscale 1x2 -> 1x4 per channel: x = 0, 0.5, 1, 1.5 (clamped).
        QCOMPARE(resizeBilinear(std::vector<std::uint8_t>{10, 20, 30, 40}, 1, 2, 2, 1, 4, 1.0f),
                 (std::vector<float>{10, 20, 20, 30, 30, 40, 30, 40}));
    }

    void classesLabelsAndPixels()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        const std::filesystem::path root = dir / "images";
        // "cat" (label 0): a grey PNG and an RGBA PNG; "dog" (label 1): a JPEG. Noise is skipped.
        QVERIFY(put(root / "cat" / "b.png", png({0, 100, 200, 255}, 2, 2, 1)));
        QVERIFY(put(root / "cat" / "a.PNG",
                    png({10, 20, 30, 0, 40, 50, 60, 255, 70, 80, 90, 128, 100, 110, 120, 7}, 2, 2, 4)));
        std::vector<std::uint8_t> orange(4 * 4 * 3);
        for (std::size_t i = 0; i < orange.size(); i += 3) {
            orange[i] = 200;
            orange[i + 1] = 100;
            orange[i + 2] = 50;
        }
        QVERIFY(put(root / "dog" / "x.jpg", jpeg(orange, 4, 4)));
        QVERIFY(put(root / "dog" / "notes.txt", "not an image"));
        QVERIFY(put(root / ".thumbnails" / "t.png", png({1}, 1, 1, 1)));

        auto p = makeProject({{"type", "image_folder"},
                              {"dir", "images"},
                              {"height", 3},
                              {"width", 3},
                              {"feeds", {{"x", "images"}, {"y", "labels"}}}},
                             dir);
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        CpuAllocator a;
        auto preview = previewSource(*p, 0, 10, a);
        QVERIFY2(preview.has_value(), preview ? "" : preview.error().message().c_str());
        QCOMPARE(preview->components, (std::vector<std::string>{"images", "labels"}));
        QCOMPARE(preview->dtypes, (std::vector<DataType>{tensorflow::DT_FLOAT, tensorflow::DT_INT64}));
        QCOMPARE(preview->exampleShapes[0], TensorShape({3, 3, 3}));
        QCOMPARE(preview->exampleShapes[1], TensorShape::scalar());
        QCOMPARE(preview->count, std::int64_t{3});
        auto labels = preview->examples[1].values<std::int64_t>();
        QCOMPARE((std::vector<std::int64_t>(labels.begin(), labels.end())), (std::vector<std::int64_t>{0, 0, 1}));

        const std::vector<float> all = values(preview->examples[0]);
        const auto image = [&](int i) { return std::vector<float>(all.begin() + i * 27, all.begin() + (i + 1) * 27); };
        // a.PNG (first by name): alpha dropped, not blended; top-left pixel (10, 20, 30), and the
        // pixel at row 2/3, column 2/3 mixes all four as the resize table says.
        const std::vector<float> a0 = image(0);
        QVERIFY(near({a0[0], a0[1], a0[2]}, {10 / 255.0f, 20 / 255.0f, 30 / 255.0f}, 1e-6f));
        const float top = 10 + (40 - 10) * (2.0f / 3), bottom = 70 + (100 - 70) * (2.0f / 3);
        QVERIFY2(near({a0[12]}, {(top + (bottom - top) * (2.0f / 3)) / 255.0f}, 1e-5f), show(a0).c_str());
        // b.png: grey to RGB repeats the grey value; the values are the hand-computed table / 255.
        const std::vector<float> b = image(1);
        const std::vector<float> grey{0.0f,       200.0f / 3, 100.0f,     400.0f / 3, 180.0f,
                                      610.0f / 3, 200.0f,     710.0f / 3, 255.0f};
        for (std::size_t i = 0; i < 9; ++i)
            for (std::size_t c = 0; c < 3; ++c)
                QVERIFY2(std::fabs(b[i * 3 + c] - grey[i] / 255.0f) < 1e-5f, show(b).c_str());
        // x.jpg: a flat colour survives JPEG within a couple of levels.
        const std::vector<float> d = image(2);
        for (std::size_t i = 0; i < 27; i += 3)
            QVERIFY2(near({d[i], d[i + 1], d[i + 2]}, {200 / 255.0f, 100 / 255.0f, 50 / 255.0f}, 3 / 255.0f),
                     show(d).c_str());

        // Grey output, one-hot labels, and a preview that stops early.
        auto grey1 = makeProject({{"type", "image_folder"},
                                  {"dir", "images"},
                                  {"height", 2},
                                  {"width", 2},
                                  {"channels", 1},
                                  {"labels", "one_hot"},
                                  {"feeds", {{"x", "images"}}}},
                                 dir);
        QVERIFY(grey1.has_value());
        auto g = previewSource(*grey1, 0, 2, a);
        QVERIFY2(g.has_value(), g ? "" : g.error().message().c_str());
        QCOMPARE(g->count, std::int64_t{2});
        QCOMPARE(g->examples[0].shape(), TensorShape({2, 2, 2, 1}));
        QCOMPARE(g->exampleShapes[1], TensorShape({2}));
        QCOMPARE(values(g->examples[1]), (std::vector<float>{1, 0, 1, 0}));
        // a.PNG to grey as png_set_rgb_to_gray(0.299, 0.587, 0.114) does, +-1 level of rounding.
        QVERIFY2(std::fabs(values(g->examples[0])[0] - (0.299f * 10 + 0.587f * 20 + 0.114f * 30) / 255.0f) <
                     1.01f / 255.0f,
                 show(values(g->examples[0])).c_str());
        QCOMPARE(values(g->examples[0])[4], 0.0f); // b.png's grey 0 top-left

        // The pipeline gives the same examples (batches of 1, shuffled).
        auto pipeline = buildSourcePipeline(*p, 0, a);
        QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().message().c_str());
        QCOMPARE(pipeline->feeds[0].exampleShape, TensorShape({3, 3, 3}));
        auto it = pipeline->batches.makeIterator();
        std::multiset<std::int64_t> seen;
        for (int i = 0; i < 3; ++i) {
            auto batch = it->getNext();
            QVERIFY(batch.has_value() && batch->has_value());
            QCOMPARE((**batch)[0].shape(), TensorShape({1, 3, 3, 3}));
            seen.insert((**batch)[1].values<std::int64_t>()[0]);
        }
        QCOMPARE(seen, (std::multiset<std::int64_t>{0, 0, 1}));
    }

    void errorsNameFoldersAndFiles()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        const std::string d = dir.string();
        const std::string good = png({1, 2, 3, 4}, 2, 2, 1);
        QVERIFY(put(dir / "empty" / "a" / "1.png", good));
        QVERIFY(std::filesystem::create_directories(dir / "empty" / "b"));
        QVERIFY(put(dir / "empty" / "b" / "readme.txt", "no images here"));
        std::string corrupt = good;
        corrupt[corrupt.size() - 20] = static_cast<char>(corrupt[corrupt.size() - 20] ^ 0x55); // inside IDAT
        QVERIFY(put(dir / "corrupt" / "a" / "1.png", good));
        QVERIFY(put(dir / "corrupt" / "b" / "broken.png", corrupt));
        QVERIFY(put(dir / "cutpng" / "a" / "half.png", good.substr(0, good.size() / 2)));
        std::vector<std::uint8_t> rgb(64 * 64 * 3);
        for (std::size_t i = 0; i < rgb.size(); ++i)
            rgb[i] = static_cast<std::uint8_t>((i * 37) % 251);
        const std::string j = jpeg(rgb, 64, 64);
        QVERIFY(put(dir / "cutjpeg" / "a" / "half.jpg", j.substr(0, j.size() / 2)));
        QVERIFY(put(dir / "huge" / "a" / "big.png", pngClaiming(100000, 100000)));
        QVERIFY(put(dir / "text" / "a" / "notes.png", "hello"));
        QVERIFY(std::filesystem::create_directories(dir / "noclasses"));

        CpuAllocator a;
        const auto error = [&](const std::string& folder, json extra = json::object()) {
            json source = {
                {"type", "image_folder"}, {"dir", folder}, {"height", 2}, {"width", 2}, {"feeds", {{"x", "images"}}}};
            source.update(extra);
            auto p = makeProject(source, dir);
            if (!p)
                return "(parse) " + p.error().message();
            auto built = buildSourcePipeline(*p, 0, a);
            auto preview = previewSource(*p, 0, 10, a);
            if (built || preview)
                return std::string("(no error)");
            if (built.error() != preview.error())
                return "(pipeline and preview differ) " + built.error().message() + " | " + preview.error().message();
            return built.error().message();
        };
        const std::string where = "x.tsproj: data.sources[0] (image_folder): ";
        QCOMPARE(error("missing"), where + "data.sources[0].dir: no folder '" + d + "/missing'");
        QCOMPARE(error("noclasses"),
                 where + "'" + d + "/noclasses' has no class subfolders (expected one folder of images per class)");
        QCOMPARE(error("empty"), where + "class folder '" + d + "/empty/b' holds no PNG or JPEG images");
        QCOMPARE(error("empty", {{"classes", 3}}),
                 where + "'" + d + "/empty' has 2 class folders (a, b) but the source expects 3");
        const std::string broken = error("corrupt");
        QVERIFY2(broken.starts_with(where + d + "/corrupt/b/broken.png: ") &&
                     broken.size() > where.size() + d.size() + 25,
                 broken.c_str());
        QCOMPARE(error("cutpng"), where + d + "/cutpng/a/half.png: the PNG data is truncated");
        QCOMPARE(error("cutjpeg"), where + d + "/cutjpeg/a/half.jpg: the JPEG data is truncated");
        QCOMPARE(error("huge"),
                 where + d + "/huge/a/big.png: the image is 100000 x 100000 pixels; at most 67108864 are read");
        QCOMPARE(error("text"), where + d + "/text/a/notes.png: not a PNG or JPEG image");

        // A preview of the first image does not read the broken second one; the pipeline does.
        auto p = makeProject(
            {{"type", "image_folder"}, {"dir", "corrupt"}, {"height", 2}, {"width", 2}, {"feeds", {{"x", "images"}}}},
            dir);
        QVERIFY(p.has_value());
        auto first = previewSource(*p, 0, 1, a);
        QVERIFY2(first.has_value(), first ? "" : first.error().message().c_str());
        QCOMPARE(first->count, std::int64_t{1});
    }

    void validationErrors()
    {
        const json base = {{"type", "image_folder"}, {"dir", "d"}, {"feeds", {{"x", "images"}}}};
        const auto with = [&](json extra) {
            json s = base;
            s.update(extra);
            return parseError(s);
        };
        QCOMPARE(with({{"channels", 2}}),
                 std::string("x.tsproj: data.sources[0].channels: expected 1 (grey) or 3 (RGB), got 2"));
        QCOMPARE(with({{"height", 0}}),
                 std::string("x.tsproj: data.sources[0].height: expected a positive integer, got 0"));
        QCOMPARE(with({{"width", 100000}}),
                 std::string("x.tsproj: data.sources[0].width: expected at most 16384, got 100000"));
        QCOMPARE(with({{"labels", "dense"}}),
                 std::string("x.tsproj: data.sources[0].labels: expected one of sparse, one_hot, got 'dense'"));
        QCOMPARE(with({{"feeds", {{"x", "pixels"}}}}),
                 std::string("x.tsproj: data.sources[0].feeds.x: the image_folder source has no component 'pixels' (it "
                             "has images, labels)"));
        json noDir = base;
        noDir.erase("dir");
        QCOMPARE(parseError(noDir), std::string("x.tsproj: data.sources[0].dir: required"));
    }

    void roundTrip()
    {
        auto p = parseProject(test::sourceProjectJson({{"type", "image_folder"},
                                           {"dir", "flowers"},
                                           {"height", 64},
                                           {"width", 48},
                                           {"channels", 1},
                                           {"labels", "one_hot"},
                                           {"classes", 5},
                                           {"feeds", {{"x", "images"}, {"y", "labels"}}}},
                                                      1)
                                  .dump(),
                              "x.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().message().c_str());
        const std::string text = projectToJson(*p);
        auto again = parseProject(text, "x.tsproj");
        QVERIFY(again.has_value());
        QCOMPARE(projectToJson(*again), text);
        const auto& f = std::get<ImageFolderParams>(again->sources[0].params);
        QCOMPARE(f.dir, std::string("flowers"));
        QCOMPARE(f.height, std::int64_t{64});
        QCOMPARE(f.width, std::int64_t{48});
        QCOMPARE(f.channels, std::int64_t{1});
        QCOMPARE(f.labels, std::string("one_hot"));
        QCOMPARE(f.classes, std::optional<std::int64_t>(5));
        // Defaults as Keras' image_dataset_from_directory: 256 x 256 RGB, sparse labels.
        auto defaults = parseProject(
            test::sourceProjectJson({{"type", "image_folder"}, {"dir", "d"}, {"feeds", {{"x", "images"}}}}, 1).dump(),
            "x.tsproj");
        QVERIFY(defaults.has_value());
        const auto& g = std::get<ImageFolderParams>(defaults->sources[0].params);
        QCOMPARE(g.height, std::int64_t{256});
        QCOMPARE(g.width, std::int64_t{256});
        QCOMPARE(g.channels, std::int64_t{3});
        QVERIFY(!g.classes);
    }
};

QTEST_GUILESS_MAIN(TestImageFolderSource)
#include "test_image_folder_source.moc"
