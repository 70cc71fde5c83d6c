// Tests for GraphDef files: both formats, lossless round trips (unknown fields, _class,
// _output_shapes, library, versions), clear errors for bad files, atomic writes.
#include "io/formats/graph_def_io.h"

#include "../../../support/test_files.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tstudio;

namespace {

const char* kGraphText = R"(
node {
  name: "x"
  op: "Placeholder"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "_output_shapes" value { list { shape { dim { size: -1 } dim { size: 784 } } } } }
}
node {
  name: "x/read"
  op: "Identity"
  input: "x"
  device: "/device:CPU:0"
  attr { key: "T" value { type: DT_FLOAT } }
  attr { key: "_class" value { list { s: "loc:@x" } } }
  attr { key: "some_future_attr" value { i: 7 } }
}
library { function { signature { name: "f" } } }
versions { producer: 27 min_consumer: 12 }
)";

tensorflow::GraphDef sample()
{
    tensorflow::GraphDef g;
    if (!google::protobuf::TextFormat::ParseFromString(kGraphText, &g))
        qFatal("sample graph does not parse");
    return g;
}

bool same(const tensorflow::GraphDef& a, const tensorflow::GraphDef& b)
{
    return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

} // namespace

class TestGraphDefIo : public QObject {
    Q_OBJECT
private slots:
    void roundTripsBothFormats()
    {
        QTemporaryDir dir;
        for (auto format : {GraphDefFormat::kBinary, GraphDefFormat::kText}) {
            const std::string path = dir.filePath(format == GraphDefFormat::kBinary ? "g.pb" : "g.pbtxt").toStdString();
            QVERIFY(writeGraphDef(path, sample(), format).isOk());
            GraphDefFormat seen{};
            auto back = readGraphDef(path, &seen);
            QVERIFY2(back, back ? "" : back.error().toString().c_str());
            QCOMPARE(seen, format);
            QVERIFY(same(*back, sample()));
        }
        // No temporary files are left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }

    void unknownFieldsSurvive()
    {
        // NodeDef field 99 (varint 5) does not exist in any TensorFlow version we know.
        tensorflow::GraphDef g = sample();
        std::string bytes = g.SerializeAsString();
        tensorflow::NodeDef extra;
        extra.set_name("z");
        extra.set_op("NoOp");
        std::string node = extra.SerializeAsString() + std::string("\x98\x06\x05", 3);
        bytes += std::string("\x0a", 1) + char(node.size()) + node;
        auto parsed = parseGraphDef(bytes, "test bytes");
        QVERIFY(parsed);
        QCOMPARE(parsed->node_size(), 3);
        auto again = serializeGraphDef(*parsed, GraphDefFormat::kBinary);
        QVERIFY(again);
        QVERIFY(again->find(std::string("\x98\x06\x05", 3)) != std::string::npos);
    }

    void badFilesGiveClearErrors()
    {
        QTemporaryDir dir;
        const std::string good = *serializeGraphDef(sample(), GraphDefFormat::kBinary);
        const QString truncated = dir.filePath("cut.pb");
        QVERIFY(tstudio::testing::writeFile(truncated, good.substr(0, good.size() / 2)));
        auto r = readGraphDef(truncated.toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kDataLoss);
        QVERIFY(r.error().message().find("cut.pb") != std::string::npos);

        const QString text = dir.filePath("bad.pbtxt");
        QVERIFY(tstudio::testing::writeFile(text, "node {\n  name: \"a\"\n  opp: \"NoOp\"\n}\n"));
        r = readGraphDef(text.toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(r.error().message().find("line 3") != std::string::npos, r.error().message().c_str());

        r = readGraphDef(dir.filePath("absent.pb").toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kNotFound);

        QVERIFY(tstudio::testing::writeFile(dir.filePath("empty.pb"), ""));
        QVERIFY(!readGraphDef(dir.filePath("empty.pb").toStdString()));
    }

    void failedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("keep.pb").toStdString();
        QVERIFY(writeGraphDef(path, sample(), GraphDefFormat::kBinary).isOk());
        // A path in a folder that does not exist cannot be written, and says so.
        const Status s = writeGraphDef(dir.filePath("no/such/dir/g.pb").toStdString(), sample(), GraphDefFormat::kBinary);
        QVERIFY(!s.isOk());
        QVERIFY(s.message().find("no/such/dir") != std::string::npos);
        QVERIFY(readGraphDef(path));
    }

    void realFrozenGraphsRoundTrip()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: real TensorFlow files not checked");
        for (const char* rel : {"tf2onnx/regression/graphdef/frozen.pb", "tf2onnx/fc-layers/frozen.pb",
                                "tf2onnx/lstm/frozen.pb"}) {
            QFile file(fixtures + "/" + rel);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray original = file.readAll();
            auto g = parseGraphDef(original.toStdString(), rel);
            QVERIFY2(g, rel);
            auto bytes = serializeGraphDef(*g, GraphDefFormat::kBinary);
            QVERIFY(bytes);
            // Same content and size; the bytes may differ only in the order of attr map entries,
            // which a non-deterministic writer (as these files' was) leaves unsorted.
            QCOMPARE(bytes->size(), std::size_t(original.size()));
            auto again = parseGraphDef(*bytes, rel);
            QVERIFY(again);
            QVERIFY2(same(*again, *g), rel);
            QCOMPARE(*serializeGraphDef(*again, GraphDefFormat::kBinary), *bytes);  // ours is deterministic
        }
    }
};

QTEST_GUILESS_MAIN(TestGraphDefIo)
#include "test_graph_def_io.moc"
