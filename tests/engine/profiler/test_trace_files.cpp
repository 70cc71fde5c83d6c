// Tests for readTraceFile and writeChromeTraceFile: Chrome JSON plain, gzip and with a byte order mark;
// RunMetadata binary and text; event files and log directories written by our EventFileWriter (steps from
// "step_<N>" tags or Event.step); and the errors: missing, empty, absurdly large, damaged, not a trace,
// no run metadata, cancelled; and, from the fixtures, the gzip trace TensorFlow 2's profiler wrote for a Keras
// run and the run metadata PyTorch's SummaryWriter wrote.
#include "profiler/trace_builder.h"
#include "profiler/trace_files.h"

#include "../../support/test_files.h"
#include "io/events/event_file_writer.h"
#include "proto/graph.pb.h"
#include "traced_run.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/text_format.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

using namespace tstudio;
using namespace tstudio::profiler;
namespace fs = std::filesystem;

namespace {

/// Two traces are the same when their full exports (memory included) are: the export holds every
/// field the import restores, and export -> import -> export is a fixed point (test_chrome_trace_json).
std::string exported(const ProfileTrace& trace)
{
    ChromeTraceOptions options;
    options.showMemory = true;
    return chromeTraceJson(trace, options);
}

bool writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

std::string gzipped(const std::string& bytes)
{
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string message(const Expected<ProfileTrace>& result)
{
    return result ? std::string("(read)") : result.error().toString();
}

} // namespace

class TestTraceFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto runs = testing::tracedRuns(2);
        QVERIFY2(runs, runs ? "" : runs.error().toString().c_str());
        m_runs = std::move(*runs);
    }

    void chromeJsonPlainGzipAndWithByteOrderMark()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        std::vector<TracedStep> steps;
        for (const auto& run : m_runs)
            steps.push_back({run.step, run.metadata.step_stats()});
        const ProfileTrace trace = traceFromStepStats(steps);
        ChromeTraceOptions options;
        options.showMemory = true;
        QVERIFY(writeChromeTraceFile(trace, dir / "trace.json", options).isOk());
        auto plain = readTraceFile(dir / "trace.json");
        QVERIFY2(plain, message(plain).c_str());
        QCOMPARE(exported(*plain), exported(trace));
        QCOMPARE(plain->steps.size(), std::size_t(2));
        QCOMPARE(plain->steps[1].number, std::int64_t(2));

        std::string json;
        {
            std::ifstream in(dir / "trace.json", std::ios::binary);
            json.assign(std::istreambuf_iterator<char>(in), {});
        }
        QVERIFY(writeBytes(dir / "trace.json.gz", gzipped(json)));
        auto gz = readTraceFile(dir / "trace.json.gz");
        QVERIFY2(gz, message(gz).c_str());
        QCOMPARE(exported(*gz), exported(trace));
        // The name does not matter, the content does.
        QVERIFY(writeBytes(dir / "renamed.bin", gzipped(json)));
        QVERIFY(readTraceFile(dir / "renamed.bin"));
        QVERIFY(writeBytes(dir / "bom.json", "\xef\xbb\xbf" + json));
        auto bom = readTraceFile(dir / "bom.json");
        QVERIFY2(bom, message(bom).c_str());
        QCOMPARE(exported(*bom), exported(trace));

        // Damaged and truncated gzip streams: errors naming the file.
        std::string damaged = gzipped(json);
        for (std::size_t i = damaged.size() / 3; i < damaged.size() / 3 + 16; ++i)
            damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
        QVERIFY(writeBytes(dir / "damaged.json.gz", damaged));
        auto bad = readTraceFile(dir / "damaged.json.gz");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().find("damaged.json.gz") != std::string::npos, message(bad).c_str());
        const std::string whole = gzipped(json);
        QVERIFY(writeBytes(dir / "cut.json.gz", whole.substr(0, whole.size() / 2)));
        auto cut = readTraceFile(dir / "cut.json.gz");
        QVERIFY(!cut);
        QVERIFY2(cut.error().message().find("cut.json.gz") != std::string::npos, message(cut).c_str());
        // A plain JSON trace cut short: parseChromeTrace's error, naming the file.
        QVERIFY(writeBytes(dir / "cut.json", json.substr(0, json.size() / 2)));
        auto cutJson = readTraceFile(dir / "cut.json");
        QVERIFY(!cutJson);
        QVERIFY2(cutJson.error().message().find("cut.json: not valid Chrome trace JSON") != std::string::npos,
                 message(cutJson).c_str());
    }

    void runMetadataBinaryAndText()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const tensorflow::RunMetadata& metadata = m_runs[0].metadata;
        const ProfileTrace expected = traceFromStepStats(metadata.step_stats(), 0);
        QVERIFY(!expected.events.empty());
        QVERIFY(writeBytes(dir / "run_metadata.pb", metadata.SerializeAsString()));
        auto binary = readTraceFile(dir / "run_metadata.pb");
        QVERIFY2(binary, message(binary).c_str());
        QCOMPARE(exported(*binary), exported(expected));
        std::string text;
        QVERIFY(google::protobuf::TextFormat::PrintToString(metadata, &text));
        QVERIFY(writeBytes(dir / "run_metadata.pbtxt", text));
        auto fromText = readTraceFile(dir / "run_metadata.pbtxt");
        QVERIFY2(fromText, message(fromText).c_str());
        QCOMPARE(exported(*fromText), exported(expected));

        QVERIFY(writeBytes(dir / "step_stats.pb", metadata.step_stats().SerializeAsString()));
        auto bare = readTraceFile(dir / "step_stats.pb");
        QVERIFY2(bare, message(bare).c_str());
        QCOMPARE(exported(*bare), exported(expected));

        // A RunMetadata of an untraced run, and bytes that are no trace at all.
        tensorflow::RunMetadata untraced;
        untraced.add_partition_graphs()->add_node()->set_name("x");
        QVERIFY(writeBytes(dir / "untraced.pb", untraced.SerializeAsString()));
        auto noStats = readTraceFile(dir / "untraced.pb");
        QVERIFY(!noStats);
        QCOMPARE(noStats.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(noStats.error().message().find("untraced.pb' is a RunMetadata without step_stats") !=
                     std::string::npos,
                 message(noStats).c_str());
        QVERIFY(writeBytes(dir / "junk.bin", std::string("\x0a\xff\xff\xff\x0f\x01\x02", 7))); // truncated field
        auto junk = readTraceFile(dir / "junk.bin");
        QVERIFY(!junk);
        QVERIFY2(junk.error().message().find("junk.bin' is not a trace: expected Chrome trace JSON") !=
                     std::string::npos,
                 message(junk).c_str());
        QVERIFY(writeBytes(dir / "words.txt", "hello, this is not a trace\n"));
        auto words = readTraceFile(dir / "words.txt");
        QVERIFY(!words);
        QVERIFY2(words.error().message().find("words.txt' is not a trace") != std::string::npos,
                 message(words).c_str());
    }

    void eventFilesAndLogDirectories()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        std::string eventFile;
        {
            auto writer = events::EventFileWriter::open((dir / "run_a").string());
            QVERIFY2(writer, writer ? "" : writer.error().toString().c_str());
            tensorflow::GraphDef graph;
            graph.add_node()->set_name("x");
            QVERIFY((*writer)->addGraph(graph).isOk());
            QVERIFY((*writer)->addRunMetadata(m_runs[0].metadata, "step_7", 3).isOk()); // the tag wins
            QVERIFY((*writer)->close().isOk());
            eventFile = (*writer)->path();
        }
        {
            auto writer = events::EventFileWriter::open((dir / "run_b").string());
            QVERIFY(writer);
            QVERIFY((*writer)->addRunMetadata(m_runs[1].metadata, "after the loss fell", 9).isOk()); // Event.step
            QVERIFY((*writer)->close().isOk());
        }
        auto one = readTraceFile(eventFile);
        QVERIFY2(one, message(one).c_str());
        QCOMPARE(one->steps.size(), std::size_t(1));
        QCOMPARE(one->steps[0].number, std::int64_t(7));
        QCOMPARE(exported(*one), exported(traceFromStepStats(m_runs[0].metadata.step_stats(), 7)));

        auto both = readTraceFile(dir);
        QVERIFY2(both, message(both).c_str());
        QCOMPARE(both->steps.size(), std::size_t(2));
        QCOMPARE(both->steps[0].number, std::int64_t(7));
        QCOMPARE(both->steps[1].number, std::int64_t(9));
        std::vector<TracedStep> steps{{7, m_runs[0].metadata.step_stats()}, {9, m_runs[1].metadata.step_stats()}};
        QCOMPARE(exported(*both), exported(traceFromStepStats(steps)));
    }

    void eventFilesWithoutRunMetadata()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        auto writer = events::EventFileWriter::open(dir.string());
        QVERIFY(writer);
        tensorflow::GraphDef graph;
        QVERIFY((*writer)->addGraph(graph).isOk());
        QVERIFY((*writer)->close().isOk());
        for (const fs::path& path : {dir, fs::path((*writer)->path())}) {
            auto result = readTraceFile(path);
            QVERIFY(!result);
            QCOMPARE(result.error().code(), StatusCode::kInvalidArgument);
            QVERIFY2(result.error().message().find("'" + path.string() + "' holds no run metadata") !=
                         std::string::npos,
                     message(result).c_str());
        }
        // A directory without event files.
        QVERIFY(QDir(tmp.path()).mkdir("empty"));
        auto empty = readTraceFile(dir / "empty");
        QVERIFY(!empty);
        QCOMPARE(empty.error().code(), StatusCode::kNotFound);
    }

    void tensorFlowLogDirectoryWithoutRunMetadata()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("../shared/fixtures not found (set TSTUDIO_FIXTURES): no TensorFlow-written event files to read");
        const fs::path logdir = (fixtures + "/tfevents-keras/MNIST-extra-metrics1690486849").toStdString();
        if (!fs::exists(logdir))
            QSKIP("fixture tfevents-keras/MNIST-extra-metrics1690486849 is missing");
        auto result = readTraceFile(logdir);
        QVERIFY(!result);
        QVERIFY2(result.error().message().find("holds no run metadata") != std::string::npos, message(result).c_str());
        QVERIFY2(result.error().message().find("in 2 event file(s)") != std::string::npos, message(result).c_str());
    }

    /// The trace TensorFlow 2's profiler wrote into a Keras log directory's plugins/profile
    /// (events-keras-profiler): gzip-compressed Chrome JSON, 6639 traceEvents of which 10 are
    /// metadata, 6628 are ops on 4 threads of one process /host:CPU, and the last is an empty
    /// object. The counts, names and times were computed from the file with Python's gzip and json.
    void tensorFlow2ProfilerTraceOfAKerasRun()
    {
        const QString fixtures = testing::fixturesDir();
        const QString file = fixtures + "/events-keras-profiler/logs/train/plugins/profile/2023_09_19_17_36_40/"
                                        "hoon-950QED.trace.json.gz";
        if (fixtures.isEmpty() || !QFile::exists(file))
            QSKIP("fixture events-keras-profiler (../shared/fixtures or $TSTUDIO_FIXTURES) not found: not checked");
        auto trace = readTraceFile(file.toStdString());
        QVERIFY2(trace, message(trace).c_str());
        QCOMPARE(trace->devices.size(), std::size_t(1));
        QCOMPARE(trace->devices[0].name, std::string("/host:CPU"));
        QCOMPARE(trace->events.size(), std::size_t(6628));
        QCOMPARE(trace->nodes.size(), std::size_t(129)); // distinct event names
        QVERIFY(trace->findNode("TFE_Py_FastPathExecute_C") != kNoIndex);
        // Lanes are the four named threads, nested spans on sub-lanes "name (2)", ...
        std::set<std::string> threads;
        std::size_t events = 0;
        for (const TraceLane& lane : trace->lanes) {
            threads.insert(lane.name.substr(0, lane.name.find(" (")));
            events += lane.eventCount;
        }
        QCOMPARE(events, std::size_t(6628));
        QCOMPARE(threads, (std::set<std::string>{"python3", "tf_Compute/420993190", "tf_Compute/-1794966263",
                                                 "tf_data_iterator_resource/2080770205"}));
        // The first op starts at ts 75.649 us, the last ends at 847533.082 us.
        QCOMPARE(trace->originNs, std::int64_t(75649));
        QVERIFY2(std::llabs(trace->endNs() - 847457433) <= 1, std::to_string(trace->endNs()).c_str());
    }

    /// PyTorch's SummaryWriter wrote a tagged RunMetadata `step1` (events-pytorch-fashion-mnist) whose
    /// step_stats name one device, /device:CPU:0, and no node: a trace of that device with no op.
    void pyTorchTaggedRunMetadata()
    {
        const QString fixtures = testing::fixturesDir();
        const QString run = fixtures + "/events-pytorch-fashion-mnist/runs/fashion_mnist_experiment_1";
        if (fixtures.isEmpty() || !QDir(run).exists())
            QSKIP("fixture events-pytorch-fashion-mnist (../shared/fixtures or $TSTUDIO_FIXTURES) not found");
        auto trace = readTraceFile(run.toStdString());
        QVERIFY2(trace, message(trace).c_str());
        QCOMPARE(trace->devices.size(), std::size_t(1));
        QCOMPARE(trace->devices[0].name, std::string("/device:CPU:0"));
        QCOMPARE(trace->devices[0].type, std::string("CPU"));
        QVERIFY(trace->events.empty());
    }

    void missingEmptyHugeAndCancelled()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        auto missing = readTraceFile(dir / "nope.json");
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
        QVERIFY(missing.error().message().find("nope.json") != std::string::npos);

        QVERIFY(writeBytes(dir / "empty.json", ""));
        auto empty = readTraceFile(dir / "empty.json");
        QVERIFY(!empty);
        QVERIFY2(empty.error().message().find("empty.json' is empty") != std::string::npos, message(empty).c_str());

        // A sparse file larger than any trace: refused before anything is read.
        {
            std::ofstream create(dir / "huge.json");
        }
        std::error_code ec;
        fs::resize_file(dir / "huge.json", kMaxTraceFileBytes + 1, ec);
        if (!ec) {
            auto huge = readTraceFile(dir / "huge.json");
            QVERIFY(!huge);
            QCOMPARE(huge.error().code(), StatusCode::kResourceExhausted);
            QVERIFY2(huge.error().message().find("huge.json") != std::string::npos, message(huge).c_str());
        }

        std::atomic<bool> cancelled{true};
        QVERIFY(writeChromeTraceFile(traceFromStepStats(m_runs[0].metadata.step_stats()), dir / "t.json", {}).isOk());
        auto stopped = readTraceFile(dir / "t.json", &cancelled);
        QVERIFY(!stopped);
        QCOMPARE(stopped.error().code(), StatusCode::kCancelled);
        QVERIFY(readTraceFile(dir / "t.json"));
    }

    void writingIsAtomic()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const ProfileTrace trace = traceFromStepStats(m_runs[0].metadata.step_stats());
        QVERIFY(writeBytes(dir / "t.json", std::string(100000, 'x')));
        ChromeTraceOptions options;
        options.showMemory = true; // the memory counters go with the allocators' counter events
        QVERIFY(writeChromeTraceFile(trace, dir / "t.json", options).isOk());
        auto back = readTraceFile(dir / "t.json");
        QVERIFY2(back, message(back).c_str());
        QCOMPARE(exported(*back), exported(trace));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{"t.json"}); // no temporary left behind
        const Status failed = writeChromeTraceFile(trace, dir / "no" / "such" / "t.json", {});
        QVERIFY(!failed.isOk());
        QVERIFY2(failed.message().find("t.json") != std::string::npos, failed.toString().c_str());
    }

private:
    std::vector<testing::TracedRun> m_runs;
};

QTEST_GUILESS_MAIN(TestTraceFiles)
#include "test_trace_files.moc"
