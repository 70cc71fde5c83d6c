// CIFAR-10 binary batches: synthetic files of known pixels (HWC order, scaling, skip/take across
// files) and broken ones (truncated, CIFAR-100 sized, bad label, empty, missing).
#include "data/cifar10.h"

#include "../../support/test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <limits>

#include <algorithm>
#include <numeric>

using namespace tstudio;
using namespace tstudio::data;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

CpuAllocator& allocator()
{
    static CpuAllocator a;
    return a;
}

/// The stored byte of channel c (0 red, 1 green, 2 blue) of pixel p (row * 32 + column) in record
/// `id`: different in every channel of a pixel, so that a mix-up of the order shows.
std::uint8_t pixel(int id, int c, int p)
{
    return static_cast<std::uint8_t>((id * 11 + c * 85 + p) % 256);
}

/// Records with labels `labels`, record k having id firstId + k; each record a label byte and the
/// channel-major pixels as the CIFAR-10 binary files store them.
std::string batch(const std::vector<int>& labels, int firstId)
{
    std::string s;
    for (std::size_t k = 0; k < labels.size(); ++k) {
        s += static_cast<char>(labels[k]);
        for (int c = 0; c < 3; ++c)
            for (int p = 0; p < 1024; ++p)
                s += static_cast<char>(pixel(firstId + static_cast<int>(k), c, p));
    }
    return s;
}

} // namespace

class TestCifar10 : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    fs::path write(const QString& name, const std::string& bytes)
    {
        const QString path = m_dir.filePath(name);
        if (!testing::writeFile(path, bytes))
            return {};
        return fs::path(path.toStdString());
    }

private slots:
    void imagesComeInHeightWidthChannelOrder()
    {
        const fs::path f = write("hwc.bin", batch({3, 7}, 0));
        Cifar10Options options;
        options.scaleToFloat = false;
        auto data = loadCifar10({f}, allocator(), options);
        QVERIFY2(data.has_value(), data ? "" : data.error().toString().c_str());
        QCOMPARE(data->images.dtype(), tf::DT_UINT8);
        QCOMPARE(data->images.shape(), (TensorShape{2, 3072}));
        QCOMPARE(data->labels.dtype(), tf::DT_INT64);
        QCOMPARE(data->labels.values<std::int64_t>()[0], std::int64_t{3});
        QCOMPARE(data->labels.values<std::int64_t>()[1], std::int64_t{7});
        const auto v = data->images.values<std::uint8_t>();
        // Row 5, column 9 of record 1: [5][9][c] in the [32, 32, 3] image.
        const int p = 5 * 32 + 9;
        for (int c = 0; c < 3; ++c)
            QCOMPARE(v[3072 + p * 3 + c], pixel(1, c, p));
        for (int i = 0; i < 2; ++i)
            for (int q = 0; q < 1024; ++q)
                for (int c = 0; c < 3; ++c)
                    if (v[static_cast<std::size_t>(i * 3072 + q * 3 + c)] != pixel(i, c, q))
                        QFAIL(qPrintable(QStringLiteral("record %1 pixel %2 channel %3").arg(i).arg(q).arg(c)));
    }

    void scalesToUnitFloatAndOneHot()
    {
        const fs::path f = write("scaled.bin", batch({0, 9}, 4));
        Cifar10Options options;
        options.oneHot = true;
        auto data = loadCifar10({f}, allocator(), options);
        QVERIFY2(data.has_value(), data ? "" : data.error().toString().c_str());
        QCOMPARE(data->images.dtype(), tf::DT_FLOAT);
        const auto v = data->images.values<float>();
        QCOMPARE(v[0], pixel(4, 0, 0) / 255.0f);
        QCOMPARE(v[3072 + 1023 * 3 + 2], pixel(5, 2, 1023) / 255.0f);
        QVERIFY(*std::max_element(v.begin(), v.end()) <= 1.0f);
        QCOMPARE(data->labels.shape(), (TensorShape{2, 10}));
        const auto l = data->labels.values<float>();
        QCOMPARE(l[0], 1.0f);
        QCOMPARE(std::accumulate(l.begin(), l.begin() + 10, 0.0f), 1.0f);
        QCOMPARE(l[10 + 9], 1.0f);
        QCOMPARE(std::accumulate(l.begin() + 10, l.end(), 0.0f), 1.0f);
    }

    void skipAndTakeSpanSeveralFiles()
    {
        // Records 0..2 in the first file, 3..4 in the second, 5..7 in the third.
        const fs::path a = write("a.bin", batch({0, 1, 2}, 0));
        const fs::path b = write("b.bin", batch({3, 4}, 3));
        const fs::path c = write("c.bin", batch({5, 6, 7}, 5));
        auto count = cifar10RecordCount({a, b, c});
        QVERIFY(count.has_value());
        QCOMPARE(*count, std::int64_t{8});
        Cifar10Options options;
        options.scaleToFloat = false;
        options.skip = 2;
        options.take = 4;
        auto data = loadCifar10({a, b, c}, allocator(), options);
        QVERIFY2(data.has_value(), data ? "" : data.error().toString().c_str());
        QCOMPARE(data->images.shape(), (TensorShape{4, 3072}));
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(data->labels.values<std::int64_t>()[static_cast<std::size_t>(i)], std::int64_t{2 + i});
            QCOMPARE(data->images.values<std::uint8_t>()[static_cast<std::size_t>(i * 3072 + 100 * 3 + 1)],
                     pixel(2 + i, 1, 100));
        }
        options.skip = 6;
        options.take = -1;
        auto tail = loadCifar10({a, b, c}, allocator(), options);
        QVERIFY(tail.has_value());
        QCOMPARE(tail->labels.values<std::int64_t>()[0], std::int64_t{6});
        QCOMPARE(tail->labels.values<std::int64_t>()[1], std::int64_t{7});

        options.skip = 5;
        options.take = 4;
        auto beyond = loadCifar10({a, b, c}, allocator(), options);
        QVERIFY(!beyond.has_value());
        QVERIFY2(beyond.error().message().find("the 3 batch file(s) do not hold (they hold 8 records, 0 to 7)") !=
                     std::string::npos,
                 beyond.error().message().c_str());

        // A take near the int64 limit is refused without overflowing skip + take.
        options.take = std::numeric_limits<std::int64_t>::max();
        auto absurd = loadCifar10({a, b, c}, allocator(), options);
        QVERIFY(!absurd.has_value());
        QVERIFY2(absurd.error().message().find("do not hold") != std::string::npos, absurd.error().message().c_str());
    }

    void truncatedFileIsNotABatch()
    {
        std::string bytes = batch({1, 2}, 0);
        bytes.resize(bytes.size() - 100);
        const fs::path f = write("cut.bin", bytes);
        auto data = loadCifar10({f}, allocator());
        QVERIFY(!data.has_value());
        const std::string m = data.error().message();
        QVERIFY2(m.find(f.string()) != std::string::npos, m.c_str());
        QVERIFY2(m.find(std::to_string(bytes.size()) + " bytes") != std::string::npos, m.c_str());
        QVERIFY2(m.find("not a CIFAR-10 binary batch") != std::string::npos, m.c_str());
        QVERIFY2(m.find("CIFAR-100") == std::string::npos, m.c_str());
    }

    void cifar100SizedFileIsNamed()
    {
        // Five CIFAR-100 records (3074 bytes each): 15370 bytes is no multiple of 3073.
        const fs::path f = write("train.bin", std::string(5 * 3074, '\1'));
        auto data = loadCifar10({f}, allocator());
        QVERIFY(!data.has_value());
        const std::string m = data.error().message();
        QVERIFY2(m.find(f.string()) != std::string::npos, m.c_str());
        QVERIFY2(m.find("CIFAR-100") != std::string::npos, m.c_str());
        QVERIFY2(m.find("3074-byte records") != std::string::npos, m.c_str());
    }

    void labelTenNamesFileAndRecord()
    {
        const fs::path f = write("label10.bin", batch({1, 2, 10, 3}, 0));
        auto data = loadCifar10({f}, allocator());
        QVERIFY(!data.has_value());
        const std::string m = data.error().message();
        QVERIFY2(m.find(f.string()) != std::string::npos, m.c_str());
        QVERIFY2(m.find("record 2 has label 10, outside 0..9") != std::string::npos, m.c_str());
        // Skipping past it in the second file still reports the index within its own file.
        const fs::path g = write("ok.bin", batch({4}, 0));
        Cifar10Options options;
        options.skip = 1;
        auto later = loadCifar10({g, f}, allocator(), options);
        QVERIFY(!later.has_value());
        QVERIFY2(later.error().message().find("record 2 has label 10") != std::string::npos,
                 later.error().message().c_str());
    }

    void emptyAndMissingFiles()
    {
        const fs::path empty = write("empty.bin", std::string());
        auto data = loadCifar10({empty}, allocator());
        QVERIFY(!data.has_value());
        QVERIFY2(data.error().message().find("'" + empty.string() + "' is empty") != std::string::npos,
                 data.error().message().c_str());

        const fs::path ok = write("one.bin", batch({1}, 0));
        const fs::path missing = fs::path(m_dir.path().toStdString()) / "data_batch_9.bin";
        auto none = loadCifar10({ok, missing}, allocator());
        QVERIFY(!none.has_value());
        QCOMPARE(none.error().code(), StatusCode::kNotFound);
        const std::string m = none.error().message();
        QVERIFY2(m.find(missing.string()) != std::string::npos, m.c_str());
        QVERIFY2(m.find(std::string(kCifar10Url)) != std::string::npos, m.c_str());
    }

    void datasetYieldsImageAndLabel()
    {
        const fs::path f = write("ds.bin", batch({6, 2}, 0));
        auto dataset = cifar10Dataset({f}, allocator());
        QVERIFY2(dataset.has_value(), dataset ? "" : dataset.error().toString().c_str());
        auto it = dataset->makeIterator();
        auto first = it->getNext();
        QVERIFY2(first.has_value(), first ? "" : first.error().toString().c_str());
        QVERIFY(first->has_value());
        QCOMPARE((**first)[0].shape(), (TensorShape{3072}));
        QCOMPARE((**first)[1].values<std::int64_t>()[0], std::int64_t{6});
    }
};

QTEST_GUILESS_MAIN(TestCifar10)
#include "test_cifar10.moc"
