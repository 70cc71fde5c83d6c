// The front door, format by format, from tests/engine/io/formats/manifest.json: every test file is
// made here (or taken from ../shared/fixtures when present), detected once, claimed by the module the
// manifest names, shown in the viewer it names, and opened with openGraph from that one report:
// the graph's node count, or openGraph's exact error.
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/checkpoint/tensor_slice.h"
#include "io/checkpoint/v1_checkpoint_writer.h"
#include "io/file_kind_detector.h"
#include "io/formats/formats.h"
#include "io/formats/open_graph.h"
#include "proto/checkpoint_state.pb.h"
#include "proto/event.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "proto/tfprof_log.pb.h"

#include "graph_def_nodes.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <map>

using namespace tstudio;
using tstudio::testing::addNode;
using tstudio::testing::fixturesDir;
using tstudio::testing::frameRecord;
using tstudio::testing::writeFile;

namespace {

tensorflow::GraphDef smallGraph()
{
    tensorflow::GraphDef graph;
    (*addNode(graph, "x", "Placeholder")->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    addNode(graph, "w", "VariableV2");
    addNode(graph, "pred", "Mul", {"x", "w"});
    graph.mutable_versions()->set_producer(27);
    return graph;
}

tensorflow::MetaGraphDef smallMetaGraph(const char* tag = "serve")
{
    tensorflow::MetaGraphDef meta;
    *meta.mutable_graph_def() = smallGraph();
    meta.mutable_meta_info_def()->set_tensorflow_version("1.15.0");
    meta.mutable_meta_info_def()->add_tags(tag);
    return meta;
}

std::string text(const google::protobuf::Message& message)
{
    std::string out;
    google::protobuf::TextFormat::PrintToString(message, &out);
    return out;
}

bool writeCheckpoint(const QString& prefix)
{
    CpuAllocator cpu;
    auto writer = TensorBundleWriter::create(prefix.toStdString());
    if (!writer)
        return false;
    const Tensor w = Tensor::fromVector<float>(cpu, TensorShape({2}), {1.5f, -2.0f}).value();
    const Tensor step = Tensor::fromVector<std::int64_t>(cpu, TensorShape::scalar(), {7}).value();
    return (*writer)->add("global_step", step).isOk() && (*writer)->add("w", w).isOk() && (*writer)->finish().isOk();
}

std::string eventRecord(const std::function<void(tensorflow::Event&)>& fill)
{
    tensorflow::Event event;
    event.set_wall_time(1700000000.0);
    fill(event);
    return frameRecord(event.SerializeAsString());
}

std::string eventFile(bool withGraph, std::int64_t step)
{
    std::string bytes = eventRecord([](tensorflow::Event& e) { e.set_file_version("brain.Event:2"); });
    if (withGraph)
        bytes += eventRecord([step](tensorflow::Event& e) {
            e.set_step(step);
            e.set_graph_def(smallGraph().SerializeAsString());
        });
    return bytes;
}

/// The recipes the manifest names; each writes into `dir` whatever its entries need.
const std::map<QString, std::function<bool(const QString& dir)>>& recipes()
{
    static const std::map<QString, std::function<bool(const QString&)>> all = {
        {"graphdef-binary", [](const QString& d) { return writeFile(d + "/frozen.pb", smallGraph().SerializeAsString()); }},
        {"graphdef-text", [](const QString& d) { return writeFile(d + "/graph.pbtxt", text(smallGraph())); }},
        {"graphdef-truncated",
         [](const QString& d) { return writeFile(d + "/truncated.pb", smallGraph().SerializeAsString().substr(0, 20)); }},
        {"metagraph-binary-with-checkpoint",
         [](const QString& d) {
             return writeFile(d + "/model.ckpt-7.meta", smallMetaGraph().SerializeAsString()) &&
                    writeCheckpoint(d + "/model.ckpt-7");
         }},
        {"metagraph-text", [](const QString& d) { return writeFile(d + "/meta.pbtxt", text(smallMetaGraph())); }},
        {"metagraph-truncated",
         [](const QString& d) { return writeFile(d + "/cut.meta", smallMetaGraph().SerializeAsString().substr(0, 30)); }},
        {"saved-model-dir",
         [](const QString& d) {
             tensorflow::SavedModel model;
             model.set_saved_model_schema_version(1);
             *model.add_meta_graphs() = smallMetaGraph("serve");
             *model.add_meta_graphs() = smallMetaGraph("train");
             return writeFile(d + "/exported/saved_model.pb", model.SerializeAsString()) &&
                    writeCheckpoint(d + "/exported/variables/variables");
         }},
        {"saved-model-text-dir",
         [](const QString& d) {
             tensorflow::SavedModel model;
             model.set_saved_model_schema_version(1);
             *model.add_meta_graphs() = smallMetaGraph();
             return writeFile(d + "/exported_text/saved_model.pbtxt", text(model));
         }},
        {"saved-model-bad-dir", [](const QString& d) { return writeFile(d + "/broken_model/saved_model.pb", "\x0a\x05garbage"); }},
        {"checkpoint-with-meta",
         [](const QString& d) {
             tensorflow::CheckpointState state;
             state.set_model_checkpoint_path("model.ckpt-7");
             state.add_all_model_checkpoint_paths("model.ckpt-7");
             return writeCheckpoint(d + "/ckpt/model.ckpt-7") &&
                    writeFile(d + "/ckpt/model.ckpt-7.meta", smallMetaGraph().SerializeAsString()) &&
                    writeFile(d + "/ckpt/checkpoint", text(state));
         }},
        {"checkpoint-bare", [](const QString& d) { return QDir().mkpath(d + "/bare") && writeCheckpoint(d + "/bare/v.ckpt"); }},
        {"orphan-shard", [](const QString& d) { return writeFile(d + "/orphan.data-00000-of-00001", std::string(16, '\1')); }},
        {"checkpoint-v1",
         [](const QString& d) {
             // Two tensors, one of them saved as two slices, as a V1 Saver of a partitioned variable.
             CpuAllocator cpu;
             V1CheckpointWriter writer((d + "/legacy.ckpt").toStdString());
             const Tensor step = Tensor::fromVector<std::int64_t>(cpu, TensorShape::scalar(), {7}).value();
             const Tensor top = Tensor::fromVector<float>(cpu, TensorShape({1, 2}), {1, 2}).value();
             const Tensor bottom = Tensor::fromVector<float>(cpu, TensorShape({1, 2}), {3, 4}).value();
             auto first = checkpoint::TensorSlice::parse("0,1:-");
             auto second = checkpoint::TensorSlice::parse("1,1:-");
             return first && second &&
                    writer.add("global_step", TensorShape::scalar(), checkpoint::TensorSlice::full(0), step).isOk() &&
                    writer.add("w", TensorShape({2, 2}), *first, top).isOk() &&
                    writer.add("w", TensorShape({2, 2}), *second, bottom).isOk() && writer.finish().isOk();
         }},
        {"checkpoint-v1-truncated",
         [](const QString& d) {
             QTemporaryDir whole;
             if (!recipes().at("checkpoint-v1")(whole.path()))
                 return false;
             QFile file(whole.path() + "/legacy.ckpt");
             if (!file.open(QIODevice::ReadOnly))
                 return false;
             const QByteArray bytes = file.readAll();
             return writeFile(d + "/cut.ckpt", bytes.left(bytes.size() / 2).toStdString());
         }},
        {"log-dir",
         [](const QString& d) {
             return writeFile(d + "/logs/events.out.tfevents.1.host", eventFile(true, 0)) &&
                    writeFile(d + "/logs/eval/events.out.tfevents.2.host", eventFile(true, 5));
         }},
        {"log-dir-without-graph",
         [](const QString& d) { return writeFile(d + "/nographs/events.out.tfevents.1.host", eventFile(false, 0)); }},
        {"tfrecord", [](const QString& d) { return writeFile(d + "/data.tfrecord", frameRecord("hello") + frameRecord("world")); }},
        {"tfrecord-truncated", [](const QString& d) { return writeFile(d + "/cut.tfrecord", frameRecord("hello").substr(0, 14)); }},
        {"tfrecord-corrupt",
         [](const QString& d) {
             std::string bytes = frameRecord("hello");
             bytes[13] ^= 0x20;
             return writeFile(d + "/flipped.tfrecord", bytes);
         }},
        {"chrome-trace", [](const QString& d) { return writeFile(d + "/timeline.json", R"({"traceEvents": [{"ph": "X"}]})"); }},
        {"tfprof-profile",
         [](const QString& d) {
             // Two nodes, one run in step 5 on the CPU, as tf.profiler's ProfileContext writes them.
             tensorflow::tfprof::ProfileProto profile;
             auto& x = (*profile.mutable_nodes())[0];
             x.set_name("x");
             x.set_op("Const");
             auto& y = (*profile.mutable_nodes())[1];
             y.set_name("y");
             y.set_op("Neg");
             (*y.mutable_inputs())[0] = 0;
             auto& exec = (*y.mutable_execs())[5];
             exec.set_run_count(1);
             auto* time = (*exec.mutable_cpu_execs())["/job:localhost/replica:0/task:0/device:CPU:0"].add_times();
             time->add_int64_values(1000);
             time->add_int64_values(7);
             profile.add_steps(5);
             return writeFile(d + "/profile_5", profile.SerializeAsString());
         }},
        {"project", [](const QString& d) { return writeFile(d + "/net.tsproj", R"({"format": "tensorstudio-project", "version": 1})"); }},
        {"empty", [](const QString& d) { return writeFile(d + "/empty.bin", ""); }},
        {"text", [](const QString& d) { return writeFile(d + "/notes.txt", "remember to train the model\n"); }},
        {"binary-noise", [](const QString& d) { return writeFile(d + "/noise.bin", std::string("\xff\x00\x13\x37\xfe", 5)); }},
        {"empty-dir", [](const QString& d) { return QDir().mkpath(d + "/nothing"); }},
    };
    return all;
}

const char* viewerName(formats::Viewer viewer)
{
    switch (viewer) {
    case formats::Viewer::kSummary: return "summary";
    case formats::Viewer::kGraph: return "graph";
    case formats::Viewer::kDashboard: return "dashboard";
    case formats::Viewer::kProfiler: return "profiler";
    case formats::Viewer::kEditor: return "editor";
    case formats::Viewer::kRecords: return "records";
    }
    return "?";
}

QJsonObject manifest()
{
    QFile file(QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/engine/io/formats/manifest.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestFormats : public QObject {
    Q_OBJECT

private slots:
    void everyKindBelongsToOneModule()
    {
        QSet<QString> ids;
        for (FileKind kind : allFileKinds()) {
            if (kind == FileKind::kUnknown)
                continue;
            int owners = 0;
            for (const formats::FormatModule* module : formats::allFormats())
                for (const formats::KindFacts& facts : module->kinds)
                    owners += facts.kind == kind;
            QCOMPARE(owners, 1);
            const QString id = QString::fromUtf8(fileKindId(kind).data(), static_cast<qsizetype>(fileKindId(kind).size()));
            QVERIFY2(!ids.contains(id), qPrintable(id));
            ids.insert(id);
            QVERIFY(formats::factsOf(kind) != nullptr);
        }
        QCOMPARE(fileKindId(FileKind::kUnknown), std::string_view("unknown"));
        // Every module is in the manifest, so every format has its test files.
        const QJsonObject byFormat = manifest().value("formats").toObject();
        QVERIFY(!byFormat.isEmpty());
        for (const formats::FormatModule* module : formats::allFormats())
            QVERIFY2(byFormat.contains(QString::fromUtf8(module->name.data(), static_cast<qsizetype>(module->name.size()))),
                     module->name.data());
    }

    void manifestFiles_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QJsonObject>("entry");
        const QJsonObject byFormat = manifest().value("formats").toObject();
        for (auto it = byFormat.begin(); it != byFormat.end(); ++it) {
            for (const QJsonValue& v : it.value().toArray()) {
                const QJsonObject entry = v.toObject();
                const QString name = entry.contains("file") ? entry.value("file").toString() : entry.value("fixture").toString();
                QTest::newRow(qPrintable(it.key() + ": " + name)) << it.key() << entry;
            }
        }
    }

    void manifestFiles()
    {
        QFETCH(QString, format);
        QFETCH(QJsonObject, entry);
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QString dir = QDir(temp.path()).canonicalPath();
        QString path;
        if (entry.contains("fixture")) {
            const QString fixtures = fixturesDir();
            if (fixtures.isEmpty())
                QSKIP("../shared/fixtures (or $TSTUDIO_FIXTURES) not found: real TensorFlow files not checked");
            path = fixtures + "/" + entry.value("fixture").toString();
            if (!QFileInfo::exists(path))
                QSKIP(qPrintable("fixture " + path + " is absent"));
        } else {
            const auto recipe = recipes().find(entry.value("make").toString());
            QVERIFY2(recipe != recipes().end(), qPrintable("no recipe " + entry.value("make").toString()));
            QVERIFY(recipe->second(dir));
            path = dir + "/" + entry.value("file").toString();
        }
        auto expand = [&dir](QString s) { return s.replace("{dir}", dir).toStdString(); };

        auto report = detectFileKind(path.toStdString());
        QVERIFY2(report, report ? "" : report.error().message().c_str());
        QCOMPARE(QString::fromUtf8(fileKindId(report->kind).data()), entry.value("kind").toString());
        if (report->kind != FileKind::kUnknown)
            QCOMPARE(QString::fromUtf8(formats::formatOf(report->kind)->name.data()), format);
        QCOMPARE(QString(viewerName(formats::viewerFor(*report))), entry.value("viewer").toString());
        if (entry.contains("detail"))
            QVERIFY2(report->detail.find(entry.value("detail").toString().toStdString()) != std::string::npos,
                     report->detail.c_str());
        if (entry.contains("checkpoint"))
            QCOMPARE(QString::fromStdString(report->checkpointPrefix), QString::fromStdString(expand(entry.value("checkpoint").toString())));

        if (!entry.contains("graph_nodes") && !entry.contains("open_error"))
            return;
        auto opened = formats::openGraph(*report);
        if (entry.contains("open_error")) {
            QVERIFY2(!opened, "openGraph should have failed");
            QCOMPARE(QString::fromStdString(opened.error().message()), QString::fromStdString(expand(entry.value("open_error").toString())));
            return;
        }
        QVERIFY2(opened, opened ? "" : opened.error().message().c_str());
        QCOMPARE(opened->graph->node_size(), entry.value("graph_nodes").toInt());
        if (entry.contains("choices"))
            QCOMPARE(static_cast<int>(opened->choices.size()), entry.value("choices").toInt());
        if (entry.contains("checkpoint"))
            QCOMPARE(QString::fromStdString(opened->checkpointPrefix), QString::fromStdString(expand(entry.value("checkpoint").toString())));
    }

    /// The probe's parse is reused: openGraph on the report reads nothing, even once the file is gone.
    void openingUsesTheReportNotTheFile()
    {
        QTemporaryDir temp;
        const QString path = temp.path() + "/frozen.pb";
        QVERIFY(writeFile(path, smallGraph().SerializeAsString()));
        auto report = detectFileKind(path.toStdString());
        QVERIFY(report && report->kind == FileKind::kGraphDef);
        QVERIFY(QFile::remove(path));
        auto opened = formats::openGraph(*report);
        QVERIFY2(opened, opened ? "" : opened.error().message().c_str());
        QCOMPARE(opened->graph->node(2).name(), std::string("pred"));
        // Without the parse (a report built elsewhere), the module reads the file, which is gone.
        FileKindReport bare = *report;
        bare.parsed.reset();
        auto reread = formats::openGraph(bare);
        QVERIFY(!reread);
    }

    /// A log directory's graphs come from the event files the detector listed, in run order, and the
    /// choice picks one; the default is the last.
    void eventGraphChoices()
    {
        QTemporaryDir temp;
        QVERIFY(recipes().at("log-dir")(temp.path()));
        auto report = detectFileKind((temp.path() + "/logs").toStdString());
        QVERIFY(report && report->kind == FileKind::kEventLogDir);
        auto last = formats::openGraph(*report);
        QVERIFY(last);
        QCOMPARE(last->choices, (std::vector<std::string>{"graph_def at step 0", "eval: graph_def at step 5"}));
        QCOMPARE(last->chosen, 1);
        auto first = formats::openGraph(*report, {.choice = 0});
        QVERIFY(first);
        QCOMPARE(first->chosen, 0);
    }
};

QTEST_GUILESS_MAIN(TestFormats)
#include "test_formats.moc"
