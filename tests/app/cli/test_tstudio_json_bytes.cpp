// Every --json output is valid JSON whatever bytes a DT_STRING holds: checkpoint values (`inspect
// --json --values`), run results of string Consts and of parsed Example features (`run`), text
// summaries and tags in event files (`events --json`). UTF-8 text stays text; other bytes become
// Python's bytes literal (b'\xff...'), checked here against literals written out by hand.
#include "process_run.h"

#include "builder/attr_values.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "io/formats/graph_def_io.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/events/event_file_writer.h"
#include "proto/example.pb.h"
#include "proto/graph.pb.h"
#include "proto/summary.pb.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using tstudio::testing::ProcessRun;

namespace {

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 120000);
}

/// Bytes with their Python literal written by hand: text stays text, the rest is escaped.
struct KnownBytes {
    std::string bytes;
    QString expected; ///< what the JSON string holds
};

std::vector<KnownBytes> knownBytes()
{
    return {
        {"plain text", QStringLiteral("plain text")},
        {"\xe4\xb8\xad\xe6\x96\x87", QString::fromUtf8("\xe4\xb8\xad\xe6\x96\x87")}, // UTF-8 stays text
        {std::string("\xff\x00" "a'", 4), QStringLiteral("b\"\\xff\\x00a'\"")},
        {std::string("\x0a\x03\x08\x01\x12\xc3", 6), QStringLiteral("b'\\n\\x03\\x08\\x01\\x12\\xc3'")},
        {"\xed\xa0\x80", QStringLiteral("b'\\xed\\xa0\\x80'")},     // a UTF-16 surrogate is not UTF-8
        {"\xc0\xaf", QStringLiteral("b'\\xc0\\xaf'")},              // nor is an overlong '/'
        {"tab\tquote\\", QStringLiteral("tab\tquote\\")},          // valid UTF-8: JSON escapes it itself
    };
}

/// 64 random byte strings (fixed seed), from empty to 200 bytes, every byte value likely.
std::vector<std::string> randomBytes()
{
    std::mt19937 rng(20261125);
    std::uniform_int_distribution<int> length(0, 200);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::string> out;
    for (int i = 0; i < 64; ++i) {
        std::string s(static_cast<std::size_t>(length(rng)), '\0');
        for (char& c : s)
            c = static_cast<char>(byte(rng));
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<std::string> allStrings()
{
    std::vector<std::string> out;
    for (const KnownBytes& k : knownBytes())
        out.push_back(k.bytes);
    for (std::string& s : randomBytes())
        out.push_back(std::move(s));
    return out;
}

Tensor stringTensor(const std::vector<std::string>& values)
{
    static CpuAllocator allocator; // outlives the tensors
    auto t = Tensor::allocate(allocator, tensorflow::DT_STRING, TensorShape({static_cast<std::int64_t>(values.size())}));
    Q_ASSERT(t.has_value());
    for (std::size_t i = 0; i < values.size(); ++i)
        t->strings()[i] = values[i];
    return *t;
}

/// Parses `out` as one JSON document; fails the test (naming the parse error) when it is not.
QJsonDocument parseJson(const QString& out)
{
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s at %d): %s", qPrintable(error.errorString()), error.offset, qPrintable(out.left(400)));
    return doc;
}

/// The known strings' JSON forms are the literals written above, in order.
void checkKnown(const QJsonArray& values)
{
    const std::vector<KnownBytes> known = knownBytes();
    QVERIFY(values.size() >= static_cast<qsizetype>(known.size()));
    for (std::size_t i = 0; i < known.size(); ++i)
        QCOMPARE(values[static_cast<qsizetype>(i)].toString(), known[i].expected);
}

} // namespace

class TestTstudioJsonBytes : public QObject {
    Q_OBJECT
private slots:
    void checkpointValues()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath(QStringLiteral("model.ckpt")).toStdString();
        auto writer = TensorBundleWriter::create(prefix);
        QVERIFY(writer.has_value());
        const std::vector<std::string> strings = allStrings();
        QVERIFY((*writer)->add("_CHECKPOINTABLE_OBJECT_GRAPH", stringTensor({strings[3]})).isOk());
        QVERIFY((*writer)->add("bytes", stringTensor(strings)).isOk());
        QVERIFY((*writer)->finish().isOk());

        ProcessRun r = runTstudio({"inspect", QString::fromStdString(prefix), "--json", "--values"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonDocument doc = parseJson(r.out);
        QVERIFY(doc.isObject());
        QJsonArray values;
        for (const QJsonValue& tensor : doc.object()["checkpoint"].toObject()["tensors"].toArray())
            if (tensor.toObject()["name"].toString() == QStringLiteral("bytes"))
                values = tensor.toObject()["values"].toArray();
        QCOMPARE(values.size(), static_cast<qsizetype>(strings.size()));
        checkKnown(values);
    }

    void runResultsOfConstsAndExampleFeatures()
    {
        QTemporaryDir dir;
        const std::vector<std::string> strings = allStrings();
        tensorflow::GraphDef graph;
        auto* c = graph.add_node();
        c->set_name("c");
        c->set_op("Const");
        (*c->mutable_attr())["dtype"].set_type(tensorflow::DT_STRING);
        auto* value = (*c->mutable_attr())["value"].mutable_tensor();
        value->set_dtype(tensorflow::DT_STRING);
        value->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(strings.size()));
        for (const std::string& s : strings)
            value->add_string_val(s);

        // An Example whose bytes feature holds the strings, parsed in the graph (ParseExampleV2 is
        // not needed: ParseSingleExample with one var-len bytes key).
        tensorflow::Example example;
        auto& feature = (*example.mutable_features()->mutable_feature())["b"];
        for (const std::string& s : strings)
            feature.mutable_bytes_list()->add_value(s);
        auto* serialized = graph.add_node();
        serialized->set_name("serialized");
        serialized->set_op("Const");
        (*serialized->mutable_attr())["dtype"].set_type(tensorflow::DT_STRING);
        auto* sv = (*serialized->mutable_attr())["value"].mutable_tensor();
        sv->set_dtype(tensorflow::DT_STRING);
        sv->mutable_tensor_shape();
        sv->add_string_val(example.SerializeAsString());
        auto* parse = graph.add_node();
        parse->set_name("parse");
        parse->set_op("ParseSingleExample");
        parse->add_input("serialized");
        (*parse->mutable_attr())["num_sparse"].set_i(1);
        (*parse->mutable_attr())["sparse_keys"].mutable_list()->add_s("b");
        (*parse->mutable_attr())["dense_keys"].mutable_list();
        (*parse->mutable_attr())["sparse_types"].mutable_list()->add_type(tensorflow::DT_STRING);
        (*parse->mutable_attr())["Tdense"].mutable_list();
        (*parse->mutable_attr())["dense_shapes"].mutable_list();
        const QString file = dir.filePath(QStringLiteral("strings.pb"));
        QVERIFY(writeGraphDef(file.toStdString(), graph, GraphDefFormat::kBinary).isOk());

        ProcessRun r = runTstudio({"run", file, "--fetch", "c:0", "--fetch", "parse:1"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonDocument doc = parseJson(r.out);
        QVERIFY2(doc.isObject(), qPrintable(r.out.left(400)));
        const QJsonObject fetches = doc.object()["fetches"].toObject();
        const QJsonArray constValues = fetches["c:0"].toObject()["values"].toArray();
        QCOMPARE(constValues.size(), static_cast<qsizetype>(strings.size()));
        checkKnown(constValues);
        const QJsonArray featureValues = fetches["parse:1"].toObject()["values"].toArray();
        QCOMPARE(featureValues.size(), static_cast<qsizetype>(strings.size()));
        checkKnown(featureValues);
    }

    void eventTextSummariesAndTags()
    {
        QTemporaryDir dir;
        auto writer = events::EventFileWriter::open(dir.path().toStdString() + "/run");
        QVERIFY(writer.has_value());
        // One text summary whose tensor holds every string (TensorBoard keeps 10 text samples a tag,
        // so one sample per string would not all come back).
        const std::vector<std::string> strings = allStrings();
        tensorflow::Summary s;
        auto* v = s.add_value();
        v->set_tag("notes");
        v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("text");
        v->mutable_tensor()->set_dtype(tensorflow::DT_STRING);
        v->mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(strings.size()));
        for (const std::string& text : strings)
            v->mutable_tensor()->add_string_val(text);
        QVERIFY((*writer)->addSummary(s, 1).isOk());
        QVERIFY((*writer)->close().isOk());
        ProcessRun r = runTstudio({"events", dir.path(), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonDocument doc = parseJson(r.out);
        QVERIFY2(doc.isObject(), qPrintable(r.out.left(400)));
        const QJsonObject notes = doc.object()["runs"].toObject()["run"].toObject()["tags"].toObject()["notes"].toObject();
        QCOMPARE(notes["plugin"].toString(), QStringLiteral("text"));
        const QJsonArray samples = notes["samples"].toArray();
        QCOMPARE(samples.size(), 1);
        const QJsonArray texts = samples[0].toObject()["text"].toArray();
        QCOMPARE(texts.size(), static_cast<qsizetype>(strings.size()));
        checkKnown(texts);
    }
};

QTEST_GUILESS_MAIN(TestTstudioJsonBytes)
#include "test_tstudio_json_bytes.moc"
