// Tests for detectFileKind: every kind from files the test writes itself, bad input of every
// sort (empty, truncated, corrupted, random, absurd headers), and the real TensorFlow fixtures.
#include "io/crc32c.h"
#include "io/file_kind_detector.h"
#include "proto/checkpoint_state.pb.h"
#include "proto/event.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "proto/tensor_bundle.pb.h"

#include "../../support/graph_def_nodes.h"
#include "../../support/test_files.h"

#include <google/protobuf/text_format.h>

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>
#include <sys/wait.h>

using namespace tstudio;
using tstudio::testing::addNode;
using tstudio::testing::frameRecord;
using tstudio::testing::fromHex;
using tstudio::testing::writeFile;

namespace {

tensorflow::GraphDef smallGraph()
{
    tensorflow::GraphDef graph;
    (*addNode(graph, "x", "Placeholder")->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    auto& value = *(*addNode(graph, "w", "Const")->mutable_attr())["value"].mutable_tensor();
    value.set_dtype(tensorflow::DT_FLOAT);
    value.add_float_val(2.0f);
    addNode(graph, "pred", "Mul", {"x", "w"});
    graph.mutable_versions()->set_producer(27);
    return graph;
}

tensorflow::MetaGraphDef smallMetaGraph()
{
    tensorflow::MetaGraphDef meta;
    *meta.mutable_graph_def() = smallGraph();
    meta.mutable_meta_info_def()->set_tensorflow_version("1.15.0");
    meta.mutable_meta_info_def()->add_tags("serve");
    return meta;
}

void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void putFixed32(std::string& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// A LevelDB-format block holding `entries` (sorted), restart interval 1, no prefix sharing.
std::string encodeBlock(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string block;
    std::vector<std::uint32_t> restarts;
    for (const auto& [key, value] : entries) {
        restarts.push_back(static_cast<std::uint32_t>(block.size()));
        putVarint(block, 0);
        putVarint(block, key.size());
        putVarint(block, value.size());
        block += key;
        block += value;
    }
    if (restarts.empty())
        restarts.push_back(0);
    for (auto r : restarts)
        putFixed32(block, r);
    putFixed32(block, static_cast<std::uint32_t>(restarts.size()));
    return block;
}

/// Appends `block` and its trailer to `file`; returns the block's handle encoding.
std::string appendBlock(std::string& file, const std::string& block)
{
    std::string handle;
    putVarint(handle, file.size());
    putVarint(handle, block.size());
    file += block;
    std::string typed = block;
    typed.push_back('\0');
    file.push_back('\0');
    putFixed32(file, crc32c::mask(crc32c::value(typed)));
    return handle;
}

/// A whole table file (data block, empty metaindex, index, footer), as TensorFlow lays it out.
std::string encodeTable(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string file;
    const std::string dataHandle = appendBlock(file, encodeBlock(entries));
    const std::string metaHandle = appendBlock(file, encodeBlock({}));
    const std::string indexHandle = appendBlock(file, encodeBlock({{"~", dataHandle}}));
    std::string footer = metaHandle + indexHandle;
    footer.resize(40, '\0');
    footer += fromHex("57 fb 80 8b 24 75 47 db");
    return file + footer;
}

/// Writes prefix.index and prefix.data-00000-of-00001 holding one float32 tensor "w" = [1, 2].
void writeCheckpoint(const QString& prefix)
{
    const float values[2] = {1.0f, 2.0f};
    const std::string data(reinterpret_cast<const char*>(values), sizeof values);
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(tensorflow::DT_FLOAT);
    entry.mutable_shape()->add_dim()->set_size(2);
    entry.set_offset(0);
    entry.set_size(static_cast<std::int64_t>(data.size()));
    entry.set_crc32c(crc32c::mask(crc32c::value(data)));
    // Header bytes as formats.md gives them: num_shards 1, version { producer 1 }.
    const std::string header = fromHex("08 01 1a 02 08 01");
    QVERIFY(writeFile(prefix + ".index", encodeTable({{"", header}, {"w", entry.SerializeAsString()}})));
    QVERIFY(writeFile(prefix + ".data-00000-of-00001", data));
}

/// The event record of formats.md 3.1: Event{wall_time 1.0, file_version "brain.Event:2"}.
std::string firstEventRecord()
{
    return fromHex("1800000000000000 a37f4b22 09000000000000f03f1a0d627261696e2e4576656e743a32 86bf577a");
}

FileKindReport detect(const QString& path)
{
    auto report = detectFileKind(path.toStdString());
    if (!report)
        qWarning("detectFileKind(%s) failed: %s", qPrintable(path), report.error().toString().c_str());
    return report ? *report : FileKindReport{};
}

} // namespace

class TestFileKindDetector : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void binaryGraphDef()
    {
        const QString path = m_dir.filePath("frozen.bin");  // no telling extension: content decides
        QVERIFY(writeFile(path, smallGraph().SerializeAsString()));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kGraphDef);
        QCOMPARE(r.nodeCount.value_or(-1), 3);
        QCOMPARE(r.producerVersion.value_or(-1), 27);
        QCOMPARE(r.sizeBytes, std::uint64_t(smallGraph().ByteSizeLong()));
    }

    void textGraphDef()
    {
        std::string text;
        QVERIFY(google::protobuf::TextFormat::PrintToString(smallGraph(), &text));
        const QString path = m_dir.filePath("graph.txt");
        QVERIFY(writeFile(path, "# a comment, as people write them\n" + text));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kGraphDefText);
        QCOMPARE(r.nodeCount.value_or(-1), 3);
    }

    void metaGraphBinaryAndText()
    {
        const QString bin = m_dir.filePath("model.meta");
        QVERIFY(writeFile(bin, smallMetaGraph().SerializeAsString()));
        FileKindReport r = detect(bin);
        QCOMPARE(r.kind, FileKind::kMetaGraphDef);
        QCOMPARE(r.tensorflowVersion, std::string("1.15.0"));
        QCOMPARE(r.tags, std::vector<std::string>{"serve"});

        std::string text;
        QVERIFY(google::protobuf::TextFormat::PrintToString(smallMetaGraph(), &text));
        const QString txt = m_dir.filePath("model.meta.txt");
        QVERIFY(writeFile(txt, text));
        QCOMPARE(detect(txt).kind, FileKind::kMetaGraphDefText);
    }

    void savedModelDirectory()
    {
        tensorflow::SavedModel model;
        model.set_saved_model_schema_version(1);
        *model.add_meta_graphs() = smallMetaGraph();
        const QString dir = m_dir.filePath("export");
        QVERIFY(writeFile(dir + "/saved_model.pb", model.SerializeAsString()));
        writeCheckpoint(dir + "/variables/variables");
        FileKindReport r = detect(dir);
        QCOMPARE(r.kind, FileKind::kSavedModel);
        QVERIFY(r.isDirectory);
        QCOMPARE(r.metaGraphCount.value_or(-1), 1);
        QCOMPARE(QString::fromStdString(r.checkpointPrefix), dir + "/variables/variables");
        QVERIFY(r.sizeBytes > model.ByteSizeLong());
        // The saved_model.pb file alone is a SavedModel too.
        QCOMPARE(detect(dir + "/saved_model.pb").kind, FileKind::kSavedModel);

        // A text SavedModel directory.
        std::string text;
        QVERIFY(google::protobuf::TextFormat::PrintToString(model, &text));
        const QString textDir = m_dir.filePath("export_text");
        QVERIFY(writeFile(textDir + "/saved_model.pbtxt", text));
        QCOMPARE(detect(textDir).kind, FileKind::kSavedModel);

        // A directory whose saved_model.pb is damaged is reported as such, not as something else.
        const QString broken = m_dir.filePath("broken_export");
        QVERIFY(writeFile(broken + "/saved_model.pb", model.SerializeAsString().substr(0, 40)));
        r = detect(broken);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY2(r.detail.find("saved_model.pb") != std::string::npos, r.detail.c_str());
    }

    void checkpointByPrefixIndexShardAndDirectory()
    {
        const QString prefix = m_dir.filePath("ckpt/model.ckpt-100");
        writeCheckpoint(prefix);
        for (const QString& path : {prefix, prefix + ".index", prefix + ".data-00000-of-00001"}) {
            const FileKindReport r = detect(path);
            QCOMPARE(r.kind, FileKind::kCheckpoint);
            QCOMPARE(QString::fromStdString(r.checkpointPrefix), prefix);
            QCOMPARE(r.tensorCount.value_or(-1), 1);
            QCOMPARE(r.shardCount.value_or(-1), 1);
        }
        // The state file, and the directory that holds it.
        tensorflow::CheckpointState state;
        state.set_model_checkpoint_path("model.ckpt-100");
        state.add_all_model_checkpoint_paths("model.ckpt-100");
        std::string text;
        QVERIFY(google::protobuf::TextFormat::PrintToString(state, &text));
        QVERIFY(writeFile(m_dir.filePath("ckpt/checkpoint"), text));
        FileKindReport r = detect(m_dir.filePath("ckpt/checkpoint"));
        QCOMPARE(r.kind, FileKind::kCheckpointState);
        QCOMPARE(QString::fromStdString(r.checkpointPrefix), prefix);
        r = detect(m_dir.filePath("ckpt"));
        QCOMPARE(r.kind, FileKind::kCheckpoint);
        QVERIFY(r.isDirectory);
        QCOMPARE(QString::fromStdString(r.checkpointPrefix), prefix);
    }

    void checkpointMissingShardIsNamed()
    {
        const QString prefix = m_dir.filePath("lonely");
        writeCheckpoint(prefix);
        QVERIFY(QFile::remove(prefix + ".data-00000-of-00001"));
        const FileKindReport r = detect(prefix);
        QCOMPARE(r.kind, FileKind::kCheckpoint);
        QVERIFY2(r.detail.find("missing: lonely.data-00000-of-00001") != std::string::npos, r.detail.c_str());
    }

    void corruptedCheckpointIndexIsUnknown()
    {
        const QString prefix = m_dir.filePath("bad");
        writeCheckpoint(prefix);
        QFile file(prefix + ".index");
        QVERIFY(file.open(QIODevice::ReadWrite));
        QByteArray bytes = file.readAll();
        bytes[3] = char(bytes[3] ^ 0x40);  // inside the data block: its checksum no longer matches
        file.seek(0);
        file.write(bytes);
        file.close();
        const FileKindReport r = detect(prefix + ".index");
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY2(r.detail.find("checksum mismatch") != std::string::npos, r.detail.c_str());
    }

    void legacyV1Checkpoint()
    {
        // V1 tables hold SavedTensorSlices under key ""; their first byte is field 1, wire type 2.
        const QString path = m_dir.filePath("model.ckpt-7");
        QVERIFY(writeFile(path, encodeTable({{"", fromHex("0a 02 12 00")}, {"slice", "x"}})));
        QCOMPARE(detect(path).kind, FileKind::kCheckpointV1);
    }

    void eventFileAndLogDirectory()
    {
        tensorflow::Event scalar;
        scalar.set_wall_time(2.5);
        scalar.set_step(3);
        auto* value = scalar.mutable_summary()->add_value();
        value->set_tag("loss");
        value->set_simple_value(0.5f);
        const QString run = m_dir.filePath("logs/train/events.out.tfevents.1700000000.host");
        QVERIFY(writeFile(run, firstEventRecord() + frameRecord(scalar.SerializeAsString())));
        QVERIFY(writeFile(m_dir.filePath("logs/eval/events.out.tfevents.1700000001.host"), firstEventRecord()));

        FileKindReport r = detect(run);
        QCOMPARE(r.kind, FileKind::kEventFile);
        QCOMPARE(r.eventFileVersion, std::string("brain.Event:2"));

        r = detect(m_dir.filePath("logs"));
        QCOMPARE(r.kind, FileKind::kEventLogDir);
        QCOMPARE(r.eventFiles, (std::vector<std::string>{"eval/events.out.tfevents.1700000001.host",
                                                         "train/events.out.tfevents.1700000000.host"}));
    }

    void plainTfRecord()
    {
        const QString path = m_dir.filePath("data.bin");
        QVERIFY(writeFile(path, frameRecord("not an event") + frameRecord("second")));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kTfRecord);
    }

    /// A Chrome trace by its head: TF's {"traceEvents": ...} and the bare array of events; other
    /// JSON (an object whose first member is something else, an array of non-events) is not one.
    void chromeTrace()
    {
        QTemporaryDir dir;
        const QString tf = dir.filePath("timeline-10.json");
        QVERIFY(writeFile(tf, "{\"traceEvents\":[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0}]}"));
        QCOMPARE(detect(tf).kind, FileKind::kChromeTrace);
        const QString array = dir.filePath("trace");
        QVERIFY(writeFile(array, "  [ {\"name\": \"MatMul\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2} ]"));
        QCOMPARE(detect(array).kind, FileKind::kChromeTrace);
        const QString other = dir.filePath("other.json");
        QVERIFY(writeFile(other, "{ \"events\": [], \"traceEvents\": [] }"));
        QCOMPARE(detect(other).kind, FileKind::kUnknown);
        const QString numbers = dir.filePath("numbers.json");
        QVERIFY(writeFile(numbers, "[{\"x\": 1}, {\"ph\": 2}]"));
        QCOMPARE(detect(numbers).kind, FileKind::kUnknown);
    }

    /// A .tsproj is a project by its "format" member, whatever its name; other JSON is not.
    void projectFile()
    {
        const QString path = m_dir.filePath("any-name.json");
        QVERIFY(writeFile(path, "\n  {\n  \"name\": \"x\",\n  \"format\" :\t\"tensorstudio-project\", \"version\": 1 }\n"));
        QCOMPARE(detect(path).kind, FileKind::kProject);
        const QString other = m_dir.filePath("other.tsproj");
        QVERIFY(writeFile(other, "{ \"format\": \"something-else\", \"note\": \"tensorstudio-project\" }\n"));
        QCOMPARE(detect(other).kind, FileKind::kUnknown);
        const QString shipped = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj");
        QCOMPARE(detect(shipped).kind, FileKind::kProject);
    }

    void emptyFileIsUnknown()
    {
        const QString path = m_dir.filePath("empty.pb");
        QVERIFY(writeFile(path, ""));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QCOMPARE(r.detail, std::string("empty file"));
    }

    void truncatedFilesAreUnknown()
    {
        // Cut inside the second node: protobuf sees a length that runs past the end.
        const std::string graph = smallGraph().SerializeAsString();
        const QString pb = m_dir.filePath("truncated.pb");
        QVERIFY(writeFile(pb, graph.substr(0, graph.size() / 2)));
        QCOMPARE(detect(pb).kind, FileKind::kUnknown);

        const QString events = m_dir.filePath("events.out.tfevents.1.cut");
        QVERIFY(writeFile(events, firstEventRecord().substr(0, 20)));
        const FileKindReport r = detect(events);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY2(r.detail.find("truncated TFRecord") != std::string::npos, r.detail.c_str());

        const QString table = m_dir.filePath("cut.index");
        writeCheckpoint(m_dir.filePath("cut"));
        QFile::resize(table, 30);
        QCOMPARE(detect(table).kind, FileKind::kUnknown);
    }

    void corruptedRecordIsUnknown()
    {
        std::string record = firstEventRecord();
        record[15] = char(record[15] ^ 1);  // payload byte: the data CRC no longer matches
        const QString path = m_dir.filePath("corrupt.tfevents");
        QVERIFY(writeFile(path, record));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY2(r.detail.find("corrupted") != std::string::npos, r.detail.c_str());
    }

    void absurdRecordLengthIsRefusedWithoutAllocating()
    {
        std::string header;
        const std::uint64_t huge = 1ull << 62;
        for (int i = 0; i < 8; ++i)
            header.push_back(static_cast<char>((huge >> (8 * i)) & 0xff));
        const std::uint32_t crc = crc32c::mask(crc32c::value(header));
        for (int i = 0; i < 4; ++i)
            header.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
        const QString path = m_dir.filePath("huge.tfrecord");
        QVERIFY(writeFile(path, header + "abc"));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY2(r.detail.find("4611686018427387904") != std::string::npos, r.detail.c_str());
    }

    void randomBytesAreUnknown()
    {
        QRandomGenerator random(20261121);
        for (int i = 0; i < 200; ++i) {
            std::string bytes(1 + random.bounded(4096), '\0');
            for (char& c : bytes)
                c = static_cast<char>(random.bounded(256));
            const QString path = m_dir.filePath(QStringLiteral("random_%1.pb").arg(i));
            QVERIFY(writeFile(path, bytes));
            const FileKindReport r = detect(path);
            QVERIFY2(r.kind == FileKind::kUnknown,
                     qPrintable(QStringLiteral("random file %1 detected as %2").arg(i).arg(int(r.kind))));
        }
    }

    void foreignTextIsUnknown()
    {
        const QString path = m_dir.filePath("notes.pbtxt");
        QVERIFY(writeFile(path, "This is a README, not a graph.\n"));
        const FileKindReport r = detect(path);
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY(r.detail.find("text file") != std::string::npos);
    }

    void missingPathIsNotFound()
    {
        const auto r = detectFileKind(m_dir.filePath("nothing-here").toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kNotFound);
        QVERIFY(r.error().message().find("nothing-here") != std::string::npos);
    }

    void unreadableFileIsPermissionDenied()
    {
        const QString path = m_dir.filePath("secret.pb");
        QVERIFY(writeFile(path, smallGraph().SerializeAsString()));
        QFile::setPermissions(path, QFileDevice::Permissions());
        if (geteuid() != 0) {
            const auto r = detectFileKind(path.toStdString());
            QVERIFY(!r);
            QCOMPARE(r.error().code(), StatusCode::kPermissionDenied);
            return;
        }
        // Root reads any file (CI runs as root): the detector runs in a child that gives root up
        // for the unprivileged 'nobody' (65534), in a directory it may enter, and exits with the
        // status code it got.
        QVERIFY(QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                        QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                                        QFileDevice::ExeOther));
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(100);
            const auto r = detectFileKind(path.toStdString());
            _exit(r ? 101 : static_cast<int>(r.error().code()));
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QVERIFY2(WEXITSTATUS(status) != 100, "the child could not drop root for uid 65534");
        QCOMPARE(WEXITSTATUS(status), static_cast<int>(StatusCode::kPermissionDenied));
    }

    void emptyDirectoryIsUnknown()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("nothing"));
        const FileKindReport r = detect(m_dir.filePath("nothing"));
        QCOMPARE(r.kind, FileKind::kUnknown);
        QVERIFY(r.isDirectory);
    }

    void realTensorFlowFixtures_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<int>("kind");
        QTest::newRow("frozen regression") << "tf2onnx/regression/graphdef/frozen.pb" << int(FileKind::kGraphDef);
        QTest::newRow("frozen lstm") << "tf2onnx/lstm/frozen.pb" << int(FileKind::kGraphDef);
        QTest::newRow("meta graph") << "tf1-mnist-book/mnist_model-29001.meta" << int(FileKind::kMetaGraphDef);
        QTest::newRow("checkpoint prefix") << "tf1-mnist-book/mnist_model-29001" << int(FileKind::kCheckpoint);
        QTest::newRow("checkpoint index") << "tf1-mnist-book/mnist_model-28001.index" << int(FileKind::kCheckpoint);
        QTest::newRow("checkpoint state") << "tf1-mnist-book/checkpoint" << int(FileKind::kCheckpointState);
        QTest::newRow("checkpoint dir") << "tf2onnx/regression/checkpoint" << int(FileKind::kCheckpoint);
        QTest::newRow("saved model") << "tf2onnx/regression/saved_model" << int(FileKind::kSavedModel);
        QTest::newRow("event file")
            << "tfevents-keras/imdb-model-1690485351/train/events.out.tfevents.1690485354.e-bnbobg-5l77j-0.80091.0.v2"
            << int(FileKind::kEventFile);
        QTest::newRow("log dir") << "tfevents-keras" << int(FileKind::kEventLogDir);
        QTest::newRow("gzip data") << "mnist/t10k-labels-idx1-ubyte.gz" << int(FileKind::kUnknown);
    }

    void realTensorFlowFixtures()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: real TensorFlow files not checked");
        QFETCH(QString, relative);
        QFETCH(int, kind);
        const FileKindReport r = detect(fixtures + "/" + relative);
        QCOMPARE(int(r.kind), kind);
        if (relative == "tf1-mnist-book/mnist_model-29001.meta") {
            QCOMPARE(r.nodeCount.value_or(-1), 331);
            QCOMPARE(r.tensorflowVersion, std::string("1.3.0"));
        }
        if (relative == "tf1-mnist-book/checkpoint")
            QVERIFY(QString::fromStdString(r.checkpointPrefix).endsWith("mnist_model-29001"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestFileKindDetector)
#include "test_file_kind_detector.moc"
