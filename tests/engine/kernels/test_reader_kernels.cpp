// Tests for the reader kernels (TFRecordReaderV2 with compression, TextLineReaderV2,
// WholeFileReaderV2, FixedLengthRecordReaderV2, ReaderReadV2 / ReadUpToV2 / counters / Reset) on
// files the test writes, and the errors for corrupt and truncated records.
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "data/tfrecord_writer.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "built_graph.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

using testing::mustOp;

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

Tensor strings(const std::vector<std::string>& values)
{
    static CpuAllocator allocator;
    auto t = Tensor::fromVector<std::string>(allocator, TensorShape({static_cast<std::int64_t>(values.size())}), values);
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return *t;
}

bool contains(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

} // namespace

class TestReaderKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    /// A graph with a string queue "files" (enqueue_many fed through "names", "close"), the reader
    /// `readerOp` with `attrs`, "read" (ReaderReadV2), "read_up_to" (ReaderReadUpToV2 of "n"),
    /// "produced", "completed" and "reset".
    std::unique_ptr<Session> pipeline(const std::string& readerOp, AttrMap attrs)
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {}, {{"component_types", attr::types({tf::DT_STRING})}}, "files"));
        auto names = mustOp(b.op("Placeholder", {}, {{"dtype", attr::type(tf::DT_STRING)}}, "names"));
        mustOp(b.op("QueueEnqueueManyV2", {queue.output(0), std::vector<Output>{names.output(0)}}, {}, "enqueue"));
        mustOp(b.op("QueueCloseV2", {queue.output(0)}, {}, "close"));
        auto reader = mustOp(b.op(readerOp, {}, std::move(attrs), "reader"));
        mustOp(b.op("ReaderReadV2", {reader.output(0), queue.output(0)}, {}, "read"));
        auto n = mustOp(b.op("Placeholder", {}, {{"dtype", attr::type(tf::DT_INT64)}}, "n"));
        mustOp(b.op("ReaderReadUpToV2", {reader.output(0), queue.output(0), n.output(0)}, {}, "read_up_to"));
        mustOp(b.op("ReaderNumRecordsProducedV2", {reader.output(0)}, {}, "produced"));
        mustOp(b.op("ReaderNumWorkUnitsCompletedV2", {reader.output(0)}, {}, "completed"));
        mustOp(b.op("ReaderResetV2", {reader.output(0)}, {}, "reset"));
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        auto s = std::make_unique<Session>(options);
        if (Status st = s->create(b.graphDef()); !st.isOk())
            qFatal("%s", st.toString().c_str());
        return s;
    }

    static Status queueFiles(Session& s, const std::vector<std::string>& files)
    {
        if (Status st = s.run({{"names", strings(files)}}, {}, {"enqueue"}, nullptr); !st.isOk())
            return st;
        return s.run({}, {}, {"close"}, nullptr);
    }

    /// Every record ReaderReadV2 gives until the queue's OutOfRange; `end` receives that status.
    static std::vector<std::pair<std::string, std::string>> readAll(Session& s, Status* end)
    {
        std::vector<std::pair<std::string, std::string>> records;
        for (int guard = 0; guard < 1000; ++guard) {
            std::vector<Tensor> out;
            Status st = s.run({}, {"read:0", "read:1"}, {}, &out);
            if (!st.isOk()) {
                *end = st;
                break;
            }
            records.emplace_back(out[0].strings()[0], out[1].strings()[0]);
        }
        return records;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void tfRecordReaderReadsEveryFileWithOffsetsAsKeys()
    {
        for (const auto& [compression, name] :
             {std::pair{data::Compression::kNone, ""}, {data::Compression::kZlib, "ZLIB"}, {data::Compression::kGzip, "GZIP"}}) {
            const std::string a = path((std::string("a_") + name + ".tfrecord").c_str());
            const std::string b = path((std::string("b_") + name + ".tfrecord").c_str());
            QVERIFY(data::writeRecords(a, {"alpha", "", "gamma-long-record"}, compression).isOk());
            QVERIFY(data::writeRecords(b, {"delta"}, compression).isOk());
            auto s = pipeline("TFRecordReaderV2", {{"compression_type", attr::s(name)}});
            QVERIFY(queueFiles(*s, {a, b}).isOk());
            Status end;
            const auto records = readAll(*s, &end);
            // A record is 16 bytes of framing plus its data: offsets 0, 21, 37 in a.
            const std::vector<std::pair<std::string, std::string>> expected{
                {a + ":0", "alpha"}, {a + ":21", ""}, {a + ":37", "gamma-long-record"}, {b + ":0", "delta"}};
            QCOMPARE(records, expected);
            QCOMPARE(end.code(), StatusCode::kOutOfRange);
            QVERIFY2(contains(end, "FIFOQueue '_") && contains(end, "_files' is closed and has insufficient elements "
                                                                      "(requested 1, current size 0)"),
                     end.toString().c_str());
            std::vector<Tensor> out;
            QVERIFY(s->run({}, {"produced:0", "completed:0"}, {}, &out).isOk());
            QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{4});
            QCOMPARE(out[1].scalar<std::int64_t>(), std::int64_t{2});
        }
    }

    void corruptTFRecordNamesFileAndOffset()
    {
        const std::string file = path("corrupt.tfrecord");
        QVERIFY(data::writeRecords(file, {"first", "second"}).isOk());
        std::string bytes = readBytes(file);
        // Record 2 starts at 16 + 5 = 21; its data at 21 + 12 = 33. Flip a data byte.
        bytes[35] = static_cast<char>(bytes[35] ^ 0x40);
        writeBytes(file, bytes);
        auto s = pipeline("TFRecordReaderV2", {});
        QVERIFY(queueFiles(*s, {file}).isOk());
        Status end;
        const auto records = readAll(*s, &end);
        QCOMPARE(records.size(), std::size_t{1});
        QCOMPARE(records[0].second, std::string("first"));
        QCOMPARE(end.code(), StatusCode::kDataLoss);
        QVERIFY2(contains(end, "corrupted record at 33 in '" + file + "'"), end.toString().c_str());
        QVERIFY2(contains(end, "node 'read'"), end.toString().c_str());

        const std::string truncated = path("truncated.tfrecord");
        QVERIFY(data::writeRecords(truncated, {"first", "second"}).isOk());
        writeBytes(truncated, readBytes(truncated).substr(0, 30));
        auto s2 = pipeline("TFRecordReaderV2", {});
        QVERIFY(queueFiles(*s2, {truncated}).isOk());
        const auto records2 = readAll(*s2, &end);
        QCOMPARE(records2.size(), std::size_t{1});
        QCOMPARE(end.code(), StatusCode::kDataLoss);
        QVERIFY2(contains(end, "truncated record at 21 in '" + truncated + "'"), end.toString().c_str());
    }

    void textLineReaderSkipsHeadersAndCountsLines()
    {
        const std::string file = path("lines.csv");
        writeBytes(file, "name,value\nx,1\r\ny,2\nlast-without-newline");
        auto s = pipeline("TextLineReaderV2", {{"skip_header_lines", attr::i(1)}});
        QVERIFY(queueFiles(*s, {file, file}).isOk());
        Status end;
        const auto records = readAll(*s, &end);
        const std::vector<std::pair<std::string, std::string>> expected{
            {file + ":2", "x,1"}, {file + ":3", "y,2"}, {file + ":4", "last-without-newline"},
            {file + ":2", "x,1"}, {file + ":3", "y,2"}, {file + ":4", "last-without-newline"}};
        QCOMPARE(records, expected);
        QCOMPARE(end.code(), StatusCode::kOutOfRange);
    }

    void wholeFileReaderGivesEachFile()
    {
        const std::string a = path("whole_a.bin");
        const std::string b = path("whole_b.bin");
        std::string binary("\0\x01\xff payload", 11);
        writeBytes(a, binary);
        writeBytes(b, "");
        auto s = pipeline("WholeFileReaderV2", {});
        QVERIFY(queueFiles(*s, {a, b}).isOk());
        Status end;
        const auto records = readAll(*s, &end);
        const std::vector<std::pair<std::string, std::string>> expected{{a, binary}, {b, ""}};
        QCOMPARE(records, expected);
        QCOMPARE(end.code(), StatusCode::kOutOfRange);
    }

    void fixedLengthReaderHonoursHeaderFooterAndHop()
    {
        const std::string file = path("fixed.bin");
        writeBytes(file, "HHabcdefghFF"); // header 2, records of 4, footer 2
        auto s = pipeline("FixedLengthRecordReaderV2",
                          {{"header_bytes", attr::i(2)}, {"record_bytes", attr::i(4)}, {"footer_bytes", attr::i(2)}});
        QVERIFY(queueFiles(*s, {file}).isOk());
        Status end;
        auto records = readAll(*s, &end);
        std::vector<std::pair<std::string, std::string>> expected{{file + ":0", "abcd"}, {file + ":1", "efgh"}};
        QCOMPARE(records, expected);
        QCOMPARE(end.code(), StatusCode::kOutOfRange);

        // hop_bytes 2: overlapping records every 2 bytes while a whole one fits before the footer.
        auto hop = pipeline("FixedLengthRecordReaderV2", {{"header_bytes", attr::i(2)},
                                                          {"record_bytes", attr::i(4)},
                                                          {"footer_bytes", attr::i(2)},
                                                          {"hop_bytes", attr::i(2)}});
        QVERIFY(queueFiles(*hop, {file}).isOk());
        records = readAll(*hop, &end);
        expected = {{file + ":0", "abcd"}, {file + ":1", "cdef"}, {file + ":2", "efgh"}};
        QCOMPARE(records, expected);

        // Leftover bytes that are not a whole record.
        const std::string ragged = path("ragged.bin");
        writeBytes(ragged, "abcdefg");
        auto bad = pipeline("FixedLengthRecordReaderV2", {{"record_bytes", attr::i(4)}});
        QVERIFY(queueFiles(*bad, {ragged}).isOk());
        records = readAll(*bad, &end);
        QCOMPARE(records.size(), std::size_t{1});
        QCOMPARE(end.code(), StatusCode::kDataLoss);
        QVERIFY2(contains(end, "truncated record at 4 in '" + ragged + "'"), end.toString().c_str());
    }

    void readUpToCrossesFilesAndReturnsTheRest()
    {
        const std::string a = path("upto_a.tfrecord");
        const std::string b = path("upto_b.tfrecord");
        QVERIFY(data::writeRecords(a, {"1", "2"}).isOk());
        QVERIFY(data::writeRecords(b, {"3"}).isOk());
        auto s = pipeline("TFRecordReaderV2", {});
        QVERIFY(queueFiles(*s, {a, b}).isOk());
        static CpuAllocator allocator;
        auto n = Tensor::fromVector<std::int64_t>(allocator, TensorShape::scalar(), {2});
        std::vector<Tensor> out;
        QVERIFY(s->run({{"n", *n}}, {"read_up_to:0", "read_up_to:1"}, {}, &out).isOk());
        QCOMPARE(out[1].shape(), TensorShape({2}));
        QCOMPARE(out[1].strings()[0], std::string("1"));
        QCOMPARE(out[1].strings()[1], std::string("2"));
        QVERIFY(s->run({{"n", *n}}, {"read_up_to:0", "read_up_to:1"}, {}, &out).isOk());
        QCOMPARE(out[1].shape(), TensorShape({1})); // the queue is exhausted after "3"
        QCOMPARE(out[0].strings()[0], b + ":0");
        Status st = s->run({{"n", *n}}, {"read_up_to:0", "read_up_to:1"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY(s->run({}, {}, {"reset"}, nullptr).isOk());
        QVERIFY(s->run({}, {"produced:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{0});
    }

    void missingFileIsNotFoundNamingIt()
    {
        const std::string missing = path("does_not_exist.tfrecord");
        auto s = pipeline("TFRecordReaderV2", {});
        QVERIFY(queueFiles(*s, {missing}).isOk());
        Status end;
        readAll(*s, &end);
        QCOMPARE(end.code(), StatusCode::kNotFound);
        QVERIFY2(contains(end, missing), end.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestReaderKernels)
#include "test_reader_kernels.moc"
