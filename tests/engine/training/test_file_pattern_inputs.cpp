// Tests for the file-pattern pieces of input graphs: Dataset.list_files (TensorFlow's nodes; the
// names it yields, sorted or shuffled, patterns as a tensor of unknown rank; the step failing with
// "No files matched pattern: ..." when nothing matches) and tf.train.match_filenames_once feeding string_input_producer (its local
// variable; the files read through a queue runner; the Assert when the list is empty), run on
// files this test writes.
#include "builder/dataset.h"
#include "training/input_pipeline.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "runtime/session.h"
#include "training/coordinator.h"
#include "training/queue_runner.h"

#include "built_graph.h"
#include "shared_registries.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("%s", value.error().toString().c_str());
    return std::move(*value);
}

std::unique_ptr<Session> sessionFor(const GraphBuilder& b)
{
    return mustSession(sharedRegistries().ops, sharedRegistries().kernels, b);
}

/// "op: input, input, ^control" of node `name`, or "<missing>".
std::string describe(const GraphBuilder& b, const std::string& name)
{
    const tf::NodeDef* node = b.findNode(name);
    if (node == nullptr)
        return "<missing>";
    std::string text = node->op() + ":";
    for (const std::string& input : node->input())
        text += " " + input;
    return text;
}

} // namespace

class TestFilePatternInputs : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    std::string m_dir;
    std::vector<std::string> m_txt; ///< the .txt files, sorted

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_dir = m_tmp.path().toStdString() + "/files";
        QVERIFY(QDir().mkpath(QString::fromStdString(m_dir)));
        for (const char* name : {"c.txt", "a.txt", "b.txt", "d.csv"}) {
            QFile f(QString::fromStdString(m_dir + "/" + name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("contents of ") + name);
        }
        m_txt = {m_dir + "/a.txt", m_dir + "/b.txt", m_dir + "/c.txt"};
    }

    void listFilesBuildsTensorFlowsNodes()
    {
        GraphBuilder b(sharedRegistries().ops);
        const dataset::DatasetOutput files = must(dataset::listFiles(b, m_dir + "/*.txt"));
        QCOMPARE(files.types, (std::vector<DataType>{tf::DT_STRING}));
        QCOMPARE(files.shapes, (std::vector<TensorShape>{TensorShape::scalar()}));
        QCOMPARE(files.handle.node(), std::string("list_files/ShuffleDataset"));
        // The nodes of dataset_ops.py's list_files, in its names.
        QCOMPARE(describe(b, "list_files/file_pattern"), std::string("Const:"));
        QCOMPARE(describe(b, "list_files/MatchingFiles"), std::string("MatchingFiles: list_files/file_pattern"));
        QCOMPARE(describe(b, "list_files/Shape"), std::string("Shape: list_files/MatchingFiles"));
        QCOMPARE(describe(b, "list_files/strided_slice"),
                 std::string("StridedSlice: list_files/Shape list_files/strided_slice/stack "
                             "list_files/strided_slice/stack_1 list_files/strided_slice/stack_2"));
        QCOMPARE(describe(b, "list_files/match_not_empty"),
                 std::string("Greater: list_files/strided_slice list_files/match_not_empty/y"));
        QCOMPARE(describe(b, "list_files/ReduceJoin"), std::string("ReduceJoin: list_files/file_pattern list_files/Const"));
        QCOMPARE(describe(b, "list_files/message"), std::string("Add: list_files/message/x list_files/ReduceJoin"));
        QCOMPARE(describe(b, "list_files/assert_not_empty/Assert"),
                 std::string("Assert: list_files/match_not_empty list_files/message"));
        QCOMPARE(describe(b, "list_files/Identity"),
                 std::string("Identity: list_files/MatchingFiles ^list_files/assert_not_empty/Assert"));
        QCOMPARE(describe(b, "list_files/TensorSliceDataset"), std::string("TensorSliceDataset: list_files/Identity"));
        QCOMPARE(describe(b, "list_files/Maximum"), std::string("Maximum: list_files/strided_slice_1 list_files/Maximum/y"));
        QCOMPARE(describe(b, "list_files/ShuffleDataset"),
                 std::string("ShuffleDataset: list_files/TensorSliceDataset list_files/Maximum list_files/seed "
                             "list_files/seed2"));
        QCOMPARE(b.findNode("list_files/Shape_1")->attr().at("out_type").type(), tf::DT_INT64);
        QCOMPARE(b.findNode("list_files/assert_not_empty/Assert")->attr().at("summarize").i(), std::int64_t{1});
        QCOMPARE(b.findNode("list_files/ReduceJoin")->attr().at("separator").s(), std::string(", "));
        // A second call gets a scope of its own; without shuffle it ends at the TensorSliceDataset.
        const dataset::DatasetOutput sorted = must(dataset::listFiles(b, m_dir + "/*.txt", {.shuffle = false}));
        QCOMPARE(sorted.handle.node(), std::string("list_files_1/TensorSliceDataset"));
        QVERIFY(b.findNode("list_files_1/ShuffleDataset") == nullptr);
    }

    void listFilesYieldsTheMatchesSortedOrShuffled()
    {
        GraphBuilder b(sharedRegistries().ops);
        auto sorted = must(dataset::makeInitializableIterator(
            b, must(dataset::listFiles(b, m_dir + "/*.txt", {.shuffle = false}))));
        auto shuffled = must(dataset::makeInitializableIterator(
            b, must(dataset::listFiles(b, std::vector<std::string>{m_dir + "/c*", m_dir + "/[ab].txt"},
                                       {.shuffle = true, .seed = 7}))));
        auto session = sessionFor(b);
        QVERIFY(session->run({}, {}, {sorted.initializer.name(), shuffled.initializer.name()}, nullptr).isOk());
        std::vector<Tensor> out;
        std::vector<std::string> inOrder, anyOrder;
        for (int i = 0; i < 3; ++i) {
            Status s = session->run({}, {sorted.next[0].name(), shuffled.next[0].name()}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            inOrder.push_back(out[0].strings()[0]);
            anyOrder.push_back(out[1].strings()[0]);
        }
        QCOMPARE(inOrder, m_txt);
        std::sort(anyOrder.begin(), anyOrder.end());
        QCOMPARE(anyOrder, m_txt);
        const Status end = session->run({}, {sorted.next[0].name()}, {}, &out);
        QCOMPARE(end.code(), StatusCode::kOutOfRange);
    }

    void listFilesWithoutAMatchFailsNamingThePatterns()
    {
        GraphBuilder b(sharedRegistries().ops);
        const std::vector<std::string> patterns{m_dir + "/*.none", m_dir + "/missing/*"};
        auto it = must(dataset::makeInitializableIterator(b, must(dataset::listFiles(b, patterns))));
        auto session = sessionFor(b);
        const Status s = session->run({}, {}, {it.initializer.name()}, nullptr);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        const std::string expected = "assertion failed: [No files matched pattern: " + patterns[0] + ", " + patterns[1] + "]";
        QVERIFY2(s.message().find(expected) != std::string::npos, s.toString().c_str());
    }

    void listFilesOfAPatternTensorOfUnknownRank()
    {
        // The patterns' rank is known only when the step runs: ReduceJoin over Range(Rank - 1, -1, -1).
        GraphBuilder b(sharedRegistries().ops);
        auto pattern = must(ops::placeholder(b, tf::DT_STRING, TensorShape::unknown(), "pattern"));
        auto it = must(dataset::makeInitializableIterator(b, must(dataset::listFiles(b, pattern, {.shuffle = false}))));
        QCOMPARE(describe(b, "list_files/Rank"), std::string("Rank: pattern"));
        QCOMPARE(describe(b, "list_files/sub"), std::string("Sub: list_files/Rank list_files/sub/y"));
        QCOMPARE(describe(b, "list_files/range"),
                 std::string("Range: list_files/sub list_files/range/limit list_files/range/delta"));
        QCOMPARE(describe(b, "list_files/ReduceJoin"), std::string("ReduceJoin: pattern list_files/range"));
        auto session = sessionFor(b);
        CpuAllocator allocator;
        const Tensor two =
            Tensor::fromVector<std::string>(allocator, {2}, {m_dir + "/c.txt", m_dir + "/a.*"}).value();
        Status s = session->run({{"pattern:0", two}}, {}, {it.initializer.name()}, nullptr);
        QVERIFY2(s.isOk(), s.toString().c_str());
        std::vector<Tensor> out;
        std::vector<std::string> names;
        for (int i = 0; i < 2; ++i) {
            s = session->run({}, {it.next[0].name()}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            names.push_back(out[0].strings()[0]);
        }
        QCOMPARE(names, (std::vector<std::string>{m_dir + "/a.txt", m_dir + "/c.txt"}));
        const Tensor none = Tensor::fromVector<std::string>(allocator, {2}, {m_dir + "/x*", m_dir + "/y*"}).value();
        s = session->run({{"pattern:0", none}}, {}, {it.initializer.name()}, nullptr);
        QVERIFY2(s.message().find("No files matched pattern: " + m_dir + "/x*, " + m_dir + "/y*") != std::string::npos,
                 s.toString().c_str());
    }

    void matchFilenamesOnceIsALocalVariable()
    {
        GraphBuilder b(sharedRegistries().ops);
        const Variable files = must(input::matchFilenamesOnce(b, m_dir + "/*.txt"));
        QCOMPARE(files.name(), std::string("matching_filenames"));
        QVERIFY(!files.trainable());
        QCOMPARE(describe(b, "matching_filenames/MatchingFiles"),
                 std::string("MatchingFiles: matching_filenames/MatchingFiles/pattern"));
        QCOMPARE(describe(b, "matching_filenames"), std::string("VariableV2:"));
        QVERIFY(b.findNode("matching_filenames")->attr().at("shape").shape().unknown_rank());
        QCOMPARE(describe(b, "matching_filenames/Assign"),
                 std::string("Assign: matching_filenames matching_filenames/MatchingFiles"));
        QVERIFY(!b.findNode("matching_filenames/Assign")->attr().at("validate_shape").b());
        QCOMPARE(describe(b, "matching_filenames/read"), std::string("Identity: matching_filenames"));
        QCOMPARE(localVariables(b).size(), std::size_t{1});
        QVERIFY(globalVariables(b).empty());
        // A second one is "matching_filenames_1"; a tensor pattern makes no Const.
        auto patterns = must(ops::constant(b, [&] {
            tf::TensorProto proto;
            proto.set_dtype(tf::DT_STRING);
            proto.mutable_tensor_shape()->add_dim()->set_size(2);
            proto.add_string_val(m_dir + "/b*");
            proto.add_string_val(m_dir + "/*.csv");
            return proto;
        }(), "patterns"));
        const Variable more = must(input::matchFilenamesOnce(b, patterns));
        QCOMPARE(more.name(), std::string("matching_filenames_1"));
        QCOMPARE(describe(b, "matching_filenames_1/MatchingFiles"), std::string("MatchingFiles: patterns"));

        const std::string init = must(localVariablesInitializer(b)).name();
        auto session = sessionFor(b);
        QVERIFY(session->run({}, {}, {init}, nullptr).isOk());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {files.value().name(), more.value().name()}, {}, &out).isOk());
        QCOMPARE(std::vector<std::string>(out[0].strings().begin(), out[0].strings().end()), m_txt);
        QCOMPARE(std::vector<std::string>(out[1].strings().begin(), out[1].strings().end()),
                 (std::vector<std::string>{m_dir + "/b.txt", m_dir + "/d.csv"}));
    }

    void matchFilenamesOnceFeedsStringInputProducer()
    {
        // filenames = match_filenames_once(...); queue = string_input_producer(filenames,
        // num_epochs=1, shuffle=False); key, value = WholeFileReader().read(queue).
        GraphBuilder b(sharedRegistries().ops);
        const Variable files = must(input::matchFilenamesOnce(b, m_dir + "/*.txt"));
        input::QueueRunnerDefs runners;
        input::InputProducerOptions options;
        options.numEpochs = 1;
        options.shuffle = false;
        const Output queue = must(input::stringInputProducer(b, runners, files.value(), options));
        QCOMPARE(queue.node(), std::string("input_producer"));
        QCOMPARE(describe(b, "input_producer/Size"), std::string("Size: matching_filenames/read"));
        auto reader = mustOp(b.op("WholeFileReaderV2", {}, {}, "WholeFileReaderV2"));
        auto read = mustOp(b.op("ReaderReadV2", {reader.output(0), queue}, {}, "ReaderReadV2"));
        const std::string init = must(localVariablesInitializer(b)).name();
        auto session = sessionFor(b);
        QVERIFY(session->run({}, {}, {init}, nullptr).isOk());
        training::Coordinator coordinator;
        QVERIFY(training::startQueueRunners(*session, coordinator, runners).isOk());
        std::vector<Tensor> out;
        for (const std::string& file : m_txt) {
            const Status s = session->run({}, {read.output(0).name(), read.output(1).name()}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            QCOMPARE(out[0].strings()[0], file);
            QCOMPARE(out[1].strings()[0], "contents of " + file.substr(file.rfind('/') + 1));
        }
        const Status end = session->run({}, {read.output(0).name()}, {}, &out);
        QCOMPARE(end.code(), StatusCode::kOutOfRange);
        coordinator.requestStop();
        QVERIFY(coordinator.join(10).isOk());
    }

    void stringInputProducerRefusesAnEmptyFileList()
    {
        GraphBuilder b(sharedRegistries().ops);
        const Variable files = must(input::matchFilenamesOnce(b, m_dir + "/*.none"));
        input::QueueRunnerDefs runners;
        must(input::stringInputProducer(b, runners, files.value()));
        const std::string init = must(localVariablesInitializer(b)).name();
        auto session = sessionFor(b);
        QVERIFY(session->run({}, {}, {init}, nullptr).isOk());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {files.value().name()}, {}, &out).isOk());
        QCOMPARE(out[0].shape(), TensorShape({0}));
        const Status s = session->run({}, {}, {runners.at(0).enqueue_op_name(0)}, nullptr);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("assertion failed: [string_input_producer requires a non-null input tensor]") !=
                     std::string::npos,
                 s.toString().c_str());
        // A tensor of another dtype or a scalar is refused when the graph is built.
        auto number = must(ops::constant(b, 1.0, tf::DT_FLOAT, "number"));
        QVERIFY(!input::stringInputProducer(b, runners, number).has_value());
        QVERIFY(!input::matchFilenamesOnce(b, number).has_value());
    }
};

QTEST_GUILESS_MAIN(TestFilePatternInputs)
#include "test_file_pattern_inputs.moc"
