// End-to-end tests of `tstudio data make-tfrecord`: images the test writes, read back with the TFRecord reader.
#include "process_run.h"

#include "data/tfrecord_reader.h"
#include "io/image/jpeg_codec.h"
#include "io/image/png_codec.h"
#include "proto/example.pb.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <fstream>
#include <set>

namespace {

using tstudio::testing::ProcessRun;
namespace tf = tensorflow;

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 120000);
}

/// Pixels of a test image: h rows of w x c samples from a formula of (x, y, channel, seed).
std::vector<std::uint8_t> pixels(int h, int w, int c, int seed)
{
    std::vector<std::uint8_t> p;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int k = 0; k < c; ++k)
                p.push_back(std::uint8_t((x * 37 + y * 11 + k * 70 + seed * 13) % 256));
    return p;
}

std::string png(int h, int w, int c, int seed)
{
    const auto p = pixels(h, w, c, seed);
    auto bytes = tstudio::image_io::encodePng(p.data(), p.size(), h, w, c, 8);
    if (!bytes)
        qFatal("encodePng: %s", bytes.error().toString().c_str());
    return *bytes;
}

std::string jpeg(int h, int w, int seed)
{
    const auto p = pixels(h, w, 3, seed);
    auto bytes = tstudio::image_io::encodeJpeg(p.data(), p.size(), h, w, 3, {});
    if (!bytes)
        qFatal("encodeJpeg: %s", bytes.error().toString().c_str());
    return *bytes;
}

void writeFile(const QString& path, const std::string& bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::vector<tf::Example> readExamples(const QString& path)
{
    std::vector<tf::Example> out;
    auto records = tstudio::data::readAllRecords(path.toStdString());
    if (!records)
        qFatal("cannot read %s: %s", qPrintable(path), records.error().toString().c_str());
    for (const std::string& r : *records) {
        tf::Example ex;
        if (!ex.ParseFromString(r))
            qFatal("record of %s is not an Example", qPrintable(path));
        out.push_back(ex);
    }
    return out;
}

std::int64_t intOf(const tf::Example& ex, const std::string& key)
{
    const auto& f = ex.features().feature().at(key);
    return f.int64_list().value_size() == 1 ? f.int64_list().value(0) : -999;
}

std::string bytesOf(const tf::Example& ex, const std::string& key)
{
    return ex.features().feature().at(key).bytes_list().value(0);
}

} // namespace

class TestTstudioData : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_images;
    // The images in the order make-tfrecord takes them: cat/a.png, cat/b.png, dog/c.png, dog/sub/d.jpg.
    std::string m_a, m_b, m_c, m_d;

private slots:
    void initTestCase()
    {
        m_images = m_dir.filePath("images");
        m_a = png(4, 5, 3, 1);
        m_b = png(6, 2, 3, 2);
        m_c = png(3, 3, 1, 3);
        m_d = jpeg(8, 8, 4);
        writeFile(m_images + "/cat/a.png", m_a);
        writeFile(m_images + "/cat/b.png", m_b);
        writeFile(m_images + "/dog/c.png", m_c);
        writeFile(m_images + "/dog/sub/d.JPG", m_d);
        writeFile(m_images + "/dog/notes.txt", "not an image\n");
    }

    void encodedImagesWithLabelsPerFolder()
    {
        const QString out = m_dir.filePath("encoded.tfrecord");
        const ProcessRun run = runTstudio({"data", "make-tfrecord", m_images, "-o", out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QRegularExpression("label 0\\s+cat\\s+2 images")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QRegularExpression("label 1\\s+dog\\s+2 images")), qPrintable(run.out));
        QVERIFY(run.out.contains("skipped 1 files"));
        QVERIFY(run.out.contains("wrote 4 records to " + out));

        const auto examples = readExamples(out);
        QCOMPARE(examples.size(), std::size_t{4});
        const std::vector<std::int64_t> labels = {0, 0, 1, 1};
        const std::vector<std::string> files = {m_a, m_b, m_c, m_d};
        const std::vector<std::array<int, 3>> shapes = {{4, 5, 3}, {6, 2, 3}, {3, 3, 1}, {8, 8, 3}};
        for (std::size_t i = 0; i < examples.size(); ++i) {
            QCOMPARE(intOf(examples[i], "label"), labels[i]);
            QCOMPARE(bytesOf(examples[i], "image_raw"), files[i]);
            QCOMPARE(intOf(examples[i], "height"), std::int64_t(shapes[i][0]));
            QCOMPARE(intOf(examples[i], "width"), std::int64_t(shapes[i][1]));
            QCOMPARE(intOf(examples[i], "depth"), std::int64_t(shapes[i][2]));
            QCOMPARE(examples[i].features().feature_size(), 5);
        }
    }

    void rawPixelsEqualTheImages()
    {
        const QString out = m_dir.filePath("raw.tfrecord");
        const ProcessRun run = runTstudio({"data", "make-tfrecord", m_images, "-o", out, "--encoding", "raw"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto examples = readExamples(out);
        QCOMPARE(examples.size(), std::size_t{4});
        auto asString = [](const std::vector<std::uint8_t>& p) { return std::string(p.begin(), p.end()); };
        // PNG is lossless: the pixels are the ones written.
        QCOMPARE(bytesOf(examples[0], "image_raw"), asString(pixels(4, 5, 3, 1)));
        QCOMPARE(bytesOf(examples[1], "image_raw"), asString(pixels(6, 2, 3, 2)));
        QCOMPARE(bytesOf(examples[2], "image_raw"), asString(pixels(3, 3, 1, 3)));
        // JPEG: the decoder's pixels (TensorFlow's DecodeJpeg defaults), height * width * depth of them.
        std::vector<std::uint8_t> decoded;
        auto d = tstudio::image_io::decodeJpeg(m_d, {}, [&](int h, int w, int c) -> tstudio::Expected<std::uint8_t*> {
            decoded.resize(std::size_t(h * w * c));
            return decoded.data();
        });
        QVERIFY(d.has_value());
        QCOMPARE(bytesOf(examples[3], "image_raw"), asString(decoded));
        QCOMPARE(bytesOf(examples[3], "image_raw").size(), std::size_t{8 * 8 * 3});
    }

    void shardsAndShuffle()
    {
        const QString out = m_dir.filePath("sharded.tfrecord");
        const QStringList args = {"data", "make-tfrecord", m_images, "-o", out, "--shards", "2", "--shuffle", "--seed", "7"};
        ProcessRun run = runTstudio(args);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString first = out + "-00000-of-00002";
        const QString second = out + "-00001-of-00002";
        QVERIFY(!QFile::exists(out));
        const auto a = readExamples(first);
        const auto b = readExamples(second);
        QCOMPARE(a.size(), std::size_t{2});
        QCOMPARE(b.size(), std::size_t{2});
        std::multiset<std::string> images;
        std::multiset<std::int64_t> labels;
        for (const auto* shard : {&a, &b})
            for (const tf::Example& ex : *shard) {
                images.insert(bytesOf(ex, "image_raw"));
                labels.insert(intOf(ex, "label"));
            }
        QCOMPARE(images, (std::multiset<std::string>{m_a, m_b, m_c, m_d}));
        QCOMPARE(labels, (std::multiset<std::int64_t>{0, 0, 1, 1}));
        // Each image keeps its own label.
        for (const auto* shard : {&a, &b})
            for (const tf::Example& ex : *shard) {
                const std::string image = bytesOf(ex, "image_raw");
                QCOMPARE(intOf(ex, "label"), std::int64_t(image == m_a || image == m_b ? 0 : 1));
            }
        // The same seed gives the same files.
        QFile f1(first);
        QVERIFY(f1.open(QIODevice::ReadOnly));
        const QByteArray before = f1.readAll();
        f1.close();
        run = runTstudio(args);
        QCOMPARE(run.exitCode, 0);
        QVERIFY(f1.open(QIODevice::ReadOnly));
        QCOMPARE(f1.readAll(), before);
        f1.close();

        // --json: the same report as one document on stdout, and the same files.
        run = runTstudio(args + QStringList{"--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
        QCOMPARE(o["records"].toInt(), 4);
        QCOMPARE(o["encoding"].toString(), QStringLiteral("encoded"));
        QCOMPARE(o["skipped_files"].toInt(), 1); // dog/notes.txt
        const QJsonArray classes = o["classes"].toArray();
        QCOMPARE(classes.size(), 2);
        QCOMPARE(classes[0].toObject()["name"].toString(), QStringLiteral("cat"));
        QCOMPARE(classes[0].toObject()["label"].toInt(), 0);
        QCOMPARE(classes[1].toObject()["name"].toString(), QStringLiteral("dog"));
        QCOMPARE(classes[1].toObject()["images"].toInt(), 2);
        const QJsonArray files = o["files"].toArray();
        QCOMPARE(files.size(), 2);
        QCOMPARE(files[0].toObject()["path"].toString(), first);
        QCOMPARE(files[1].toObject()["path"].toString(), second);
        QCOMPARE(files[0].toObject()["records"].toInt() + files[1].toObject()["records"].toInt(), 4);
        QVERIFY(f1.open(QIODevice::ReadOnly));
        QCOMPARE(f1.readAll(), before);
    }

    void errorsNameTheFile()
    {
        const QString bad = m_dir.filePath("bad");
        writeFile(bad + "/one/good.png", m_a);
        writeFile(bad + "/two/broken.png", m_a.substr(0, 8) + std::string(40, 'x'));
        const QString out = m_dir.filePath("bad.tfrecord");
        ProcessRun run = runTstudio({"data", "make-tfrecord", bad, "-o", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("make-tfrecord: '" + bad + "/two/broken.png': "), qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
        QCOMPARE(QDir(m_dir.path()).entryList({"*bad.tfrecord*"}, QDir::Files | QDir::Hidden).size(), 0);

        run = runTstudio({"data", "make-tfrecord", m_dir.filePath("nowhere"), "-o", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no directory '" + m_dir.filePath("nowhere") + "'"), qPrintable(run.err));

        run = runTstudio({"data", "make-tfrecord", m_images, "-o", out, "--shards", "5"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("between 1 and the number of images (4), got 5"), qPrintable(run.err));

        run = runTstudio({"data", "make-tfrecord", m_images, "-o", out, "--encoding", "jpeg"});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains("--encoding") && run.err.contains("jpeg"), qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestTstudioData)
#include "test_tstudio_data.moc"
