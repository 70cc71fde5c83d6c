// Tests for CRC32C and TFRecord framing against published values.
#include "io/crc32c.h"
#include "io/record_framing.h"

#include "../../support/test_files.h"

#include <QRandomGenerator>
#include <QTest>

using namespace tstudio;

class TestCrc32c : public QObject {
    Q_OBJECT
private slots:
    void standardCheckValue()
    {
        // The CRC-32C check value for "123456789" (RFC 3720, iSCSI).
        QCOMPARE(crc32c::value(std::string_view("123456789")), 0xe3069283u);
        QCOMPARE(crc32c::value(std::string_view("")), 0u);
    }

    void hardwareMatchesSoftware()
    {
        QRandomGenerator random(7);
        for (int i = 0; i < 100; ++i) {
            std::string bytes(random.bounded(300), '\0');
            for (char& c : bytes)
                c = static_cast<char>(random.bounded(256));
            QCOMPARE(crc32c::value(bytes), crc32c::extendSoftware(0, bytes.data(), bytes.size()));
            // Extending in two pieces equals one pass.
            const std::size_t cut = bytes.size() / 3;
            QCOMPARE(crc32c::extend(crc32c::value(bytes.data(), cut), bytes.data() + cut, bytes.size() - cut),
                     crc32c::value(bytes));
        }
    }

    void longInputsMatchSoftware()
    {
        // Inputs of 768 bytes and more run as three interleaved blocks (256 or 4,096 bytes each)
        // that are combined: every length around those block edges, unaligned starts included.
        QRandomGenerator random(11);
        std::string bytes(3 * 4096 * 3 + 777, '\0');
        for (char& c : bytes)
            c = static_cast<char>(random.bounded(256));
        for (std::size_t size : {767u, 768u, 769u, 775u, 776u, 1535u, 1536u, 3300u, 12287u, 12288u, 12289u,
                                 13057u, 24576u, 37640u}) {
            for (std::size_t start : {0u, 1u, 5u}) {
                const char* p = bytes.data() + start;
                QCOMPARE(crc32c::value(p, size), crc32c::extendSoftware(0, p, size));
                QCOMPARE(crc32c::extend(0x12345678u, p, size), crc32c::extendSoftware(0x12345678u, p, size));
            }
        }
    }

    void maskRoundTrip()
    {
        for (std::uint32_t v : {0u, 1u, 0xe3069283u, 0xffffffffu})
            QCOMPARE(crc32c::unmask(crc32c::mask(v)), v);
    }

    void recordVectorsFromFormatsDoc()
    {
        using tstudio::testing::fromHex;
        // Header of an empty record: eight zero bytes, masked CRC 0x07980329.
        const std::string empty = fromHex("0000000000000000 29039807");
        QCOMPARE(record::decodeHeader(empty).value_or(99), std::uint64_t(0));
        // Event{wall_time=1.0, file_version="brain.Event:2"} framed as a record.
        const std::string rec =
            fromHex("1800000000000000 a37f4b22 09000000000000f03f1a0d627261696e2e4576656e743a32 86bf577a");
        QCOMPARE(record::decodeHeader(rec).value_or(0), std::uint64_t(24));
        QVERIFY(record::checkData(rec.substr(12, 24), rec.substr(36, 4)));
        QCOMPARE(tstudio::testing::frameRecord(rec.substr(12, 24)), rec);
        // A damaged header is not a header.
        std::string bad = rec;
        bad[9] = char(bad[9] ^ 1);
        QVERIFY(!record::decodeHeader(bad));
        QVERIFY(!record::decodeHeader(rec.substr(0, 11)));
    }
};

QTEST_GUILESS_MAIN(TestCrc32c)
#include "test_crc32c.moc"
