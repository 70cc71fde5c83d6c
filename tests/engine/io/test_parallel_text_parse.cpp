// Tests for parseTextInParallel: a large text-format GraphDef parsed in pieces gives the message one
// parse gives; cuts fall only between top-level fields (never inside strings or comments); what a
// piece cannot settle (errors, a singular field in two pieces) is left to the whole parse, whose
// error keeps its line.
#include "io/parallel_text_parse.h"
#include "io/proto_parse.h"
#include "proto/graph.pb.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QtTest>

#include <fstream>
#include <sstream>
#include <string>

using namespace tstudio;

namespace {

/// A GraphDef's text of about `bytes` bytes: nodes whose names, attrs and comments hold braces,
/// angle brackets, quotes and '#' inside strings and comments.
std::string graphText(std::size_t bytes, const std::string& head = "", const std::string& tail = "")
{
    std::string text = head;
    for (int i = 0; text.size() < bytes; ++i) {
        const std::string name = "scope_" + std::to_string(i % 97) + "/node_" + std::to_string(i);
        text += "node {\n  name: \"" + name + "\"\n  op: \"Identity\"\n";
        if (i > 0)
            text += "  input: \"scope_" + std::to_string((i - 1) % 97) + "/node_" + std::to_string(i - 1) + "\"\n";
        text += "  attr { key: \"note\" value { s: \"a } b { c > d < e # f \\\" g\" } }\n";
        text += "  attr < key: 'T' value < type: DT_FLOAT > >\n";
        text += "  # a comment with } and { and \" in it\n}\n";
    }
    return text + tail;
}

bool sameMessage(const google::protobuf::Message& a, const google::protobuf::Message& b)
{
    return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

} // namespace

class TestParallelTextParse : public QObject {
    Q_OBJECT

private slots:
    void piecesGiveTheWholeParse_data()
    {
        QTest::addColumn<int>("threads");
        QTest::newRow("2 threads") << 2;
        QTest::newRow("3 threads") << 3;
        QTest::newRow("8 threads, as many pieces as the size allows") << 8;
    }

    void piecesGiveTheWholeParse()
    {
        QFETCH(int, threads);
        static const std::string text = graphText(3 * kParallelTextPieceBytes + 1000, "versions { producer: 27 }\n",
                                                  "library { function { signature { name: \"f\" } } }\n");
        static tensorflow::GraphDef whole;
        if (whole.node_size() == 0)
            QVERIFY(textParser().ParseFromString(text, &whole));
        QVERIFY(whole.node_size() > 10000);
        tensorflow::GraphDef pieces;
        QVERIFY(parseTextInParallel(text, pieces, threads));
        QVERIFY(sameMessage(pieces, whole));
        QCOMPARE(pieces.versions().producer(), 27);
        QCOMPARE(pieces.library().function_size(), 1);
        // parseTextProto takes the same way for a text this large.
        tensorflow::GraphDef viaParse;
        std::string error;
        QVERIFY(parseTextProto(text, viaParse, &error));
        QVERIFY(sameMessage(viaParse, whole));
    }

    void tensorFlowsOwnTextInPieces()
    {
        // The text TensorFlow wrote for an Estimator's graph (tf.io.write_graph): its nodes repeated
        // until the text is cut in three, then its library and versions once, as TensorFlow orders them.
        const QString dir = testing::fixturesDir();
        if (dir.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's text is not checked");
        std::ifstream in((dir + "/tf1-estimator-tfdata/model/graph.pbtxt").toStdString(), std::ios::binary);
        if (!in)
            QSKIP("fixture tf1-estimator-tfdata/model/graph.pbtxt not found");
        std::stringstream bytes;
        bytes << in.rdbuf();
        const std::string written = bytes.str();
        const std::size_t tail = written.find("\nlibrary {");
        QVERIFY(tail != std::string::npos);
        const std::string nodes = written.substr(0, tail + 1);
        std::string text;
        while (text.size() < 3 * kParallelTextPieceBytes)
            text += nodes;
        text += written.substr(tail + 1);
        tensorflow::GraphDef whole;
        QVERIFY(textParser().ParseFromString(text, &whole));
        QVERIFY(whole.library().function_size() > 0 || whole.has_versions());
        tensorflow::GraphDef pieces;
        QVERIFY(parseTextInParallel(text, pieces, 3));
        QVERIFY(sameMessage(pieces, whole));
    }

    void cutsFallBetweenTopLevelFields()
    {
        const std::string text = graphText(200000);
        const std::vector<std::size_t> cuts = topLevelCuts(text, 4);
        QCOMPARE(cuts.size(), std::size_t(3));
        for (std::size_t cut : cuts) {
            // Just after a node's closing brace, before the next "node {".
            QCOMPARE(text[cut - 1], '}');
            QCOMPARE(text.substr(cut, 7), std::string("\nnode {"));
        }
        QVERIFY(std::is_sorted(cuts.begin(), cuts.end()));
        // Nothing to cut between: one field, or an unbalanced brace.
        QVERIFY(topLevelCuts("graph { node { name: \"a\" } }", 2).empty());
        QVERIFY(topLevelCuts("node { } } node { }", 2).empty());
        QVERIFY(topLevelCuts("node { name: \"}\" }", 2).empty());
    }

    void smallTextsAreLeftWhole()
    {
        tensorflow::GraphDef g;
        QVERIFY(!parseTextInParallel(graphText(kParallelTextPieceBytes), g, 4));
        QCOMPARE(g.node_size(), 0);
        QVERIFY(!parseTextInParallel(graphText(3 * kParallelTextPieceBytes), g, 1));
    }

    void conflictsAndErrorsAreLeftToTheWholeParse()
    {
        // A singular field in the first and the last piece: one parse rejects it, so must this.
        const std::string twice = graphText(3 * kParallelTextPieceBytes, "versions { producer: 1 }\n",
                                            "versions { producer: 2 }\n");
        tensorflow::GraphDef g;
        QVERIFY(!parseTextInParallel(twice, g, 2));
        QCOMPARE(g.node_size(), 0);
        std::string error;
        QVERIFY(!parseTextProto(twice, g, &error));
        QVERIFY2(error.find("versions") != std::string::npos, error.c_str());
        // An error in the last piece: the whole parse names its line.
        const std::string broken = graphText(3 * kParallelTextPieceBytes, "", "node { name: \"x\" opp: \"Add\" }\n");
        QVERIFY(!parseTextInParallel(broken, g, 2));
        QVERIFY(!parseTextProto(broken, g, &error));
        const int lines = static_cast<int>(std::count(broken.begin(), broken.end(), '\n'));
        QVERIFY2(error.find("line " + std::to_string(lines) + ",") == 0, error.c_str());
        QVERIFY2(error.find("opp") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestParallelTextParse)
#include "test_parallel_text_parse.moc"
