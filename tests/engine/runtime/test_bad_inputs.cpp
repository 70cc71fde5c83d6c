// Malformed inputs a user can hand the engine — truncated and corrupted files, unknown ops,
// dangling inputs, cycles, inconsistent constants, wrong feeds, absurd sizes — each fail with a
// clear error naming the file or node. This file is built twice: as test_bad_inputs, and as
// test_bad_inputs_asan against engine_asan, so the same inputs also run under AddressSanitizer.
#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tstudio;

namespace {

// pred = X * W + b with a float placeholder X [?,1].
const char* kModel = R"pb(
node { name: "X" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 1 } } } } }
node { name: "W" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } dim { size: 1 } } float_val: 0.5 } } } }
node { name: "b" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } } float_val: 2 } } } }
node { name: "mul" op: "MatMul" input: "X" input: "W" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "pred" op: "Add" input: "mul" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
versions { producer: 27 }
)pb";

tensorflow::GraphDef model()
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(kModel, &graph))
        qFatal("test model does not parse");
    return graph;
}

std::string contains(const std::string& text, const std::vector<std::string>& parts)
{
    for (const std::string& p : parts)
        if (text.find(p) == std::string::npos)
            return "'" + text + "' does not contain '" + p + "'";
    return {};
}

#define QVERIFY_CONTAINS(text, ...)                                                                                   \
    do {                                                                                                              \
        const std::string problem = contains((text), {__VA_ARGS__});                                                  \
        QVERIFY2(problem.empty(), problem.c_str());                                                                   \
        qInfo("%s", std::string(text).c_str());                                                                       \
    } while (false)

} // namespace

class TestBadInputs : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;

    std::string writeFile(const QString& name, const std::string& bytes)
    {
        const std::string path = m_dir.filePath(name).toStdString();
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return path;
    }

    std::unique_ptr<Session> newSession()
    {
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        return std::make_unique<Session>(options);
    }

    Status createSession(tensorflow::GraphDef graph)
    {
        auto session = newSession();
        return session->create(std::move(graph));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void theModelItselfRuns()
    {
        // The baseline every case below breaks in one way.
        auto session = newSession();
        QVERIFY(session->create(model()).isOk());
        auto x = Tensor::fromVector<float>(session->devices()[0]->allocator(), TensorShape{1, 1}, {5.0f});
        QVERIFY(x);
        std::vector<Tensor> out;
        const Status s = session->run({{"X", *x}}, {"pred:0"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].values<float>()[0], 4.5f);
    }

    void truncatedGraphFile()
    {
        const std::string bytes = model().SerializeAsString();
        for (std::size_t keep : {bytes.size() / 2, std::size_t{7}, bytes.size() - 1}) {
            const std::string path = writeFile(QStringLiteral("truncated.pb"), bytes.substr(0, keep));
            auto graph = readGraphFromFile(path);
            QVERIFY(!graph);
            QVERIFY_CONTAINS(graph.error().message(), "truncated.pb", "not a valid binary GraphDef");
        }
    }

    void corruptedGraphFile()
    {
        std::string bytes = model().SerializeAsString();
        // A length prefix made huge: the nodes run past the end of the file.
        bytes[1] = static_cast<char>(0xff);
        bytes.insert(2, "\xff\xff\xff\x0f");
        const std::string path = writeFile(QStringLiteral("corrupt.pb"), bytes);
        auto graph = readGraphDef(path);
        QVERIFY(!graph);
        QVERIFY_CONTAINS(graph.error().message(), "corrupt.pb");

        const std::string garbage = writeFile(QStringLiteral("garbage.pbtxt"), "node { name: 'x' op: 'Placeholder' }\n}");
        auto text = readGraphDef(garbage);
        QVERIFY(!text);
        QVERIFY_CONTAINS(text.error().message(), "garbage.pbtxt", "text-format GraphDef", "line 2, column 1");
    }

    void deeplyNestedGraphFiles()
    {
        // Attr values nest without end (func -> attr -> value -> func ...). 100,000 levels of text
        // once exhausted the stack in protobuf's text parser, which has no limit of its own.
        std::string text = "node { name: 'n' op: 'NoOp' ";
        constexpr int kTextLevels = 100000;
        for (int i = 0; i < kTextLevels; ++i)
            text += "attr { key: 'a' value { func { name: 'f' ";
        text += std::string(3 * kTextLevels, '}') + "}\n";
        const std::string textPath = writeFile(QStringLiteral("nested.pbtxt"), text);
        auto fromText = readGraphDef(textPath);
        QVERIFY(!fromText);
        QVERIFY_CONTAINS(fromText.error().message(), "nested.pbtxt", "text-format GraphDef", "recursion limit");

        // The same in binary, 2,000 levels (the limit is 1,000), written from the inside out:
        // AttrValue.func (10) -> NameAttrList.attr (2) entry {key (1), value (2)} -> AttrValue.
        auto wrap = [](int field, const std::string& inner) {
            std::string out(1, static_cast<char>(field << 3 | 2));
            for (std::size_t n = inner.size(); ; n >>= 7) {
                out += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
                if (n < 0x80)
                    break;
            }
            return out + inner;
        };
        std::string attrValue;
        for (int i = 0; i < 2000; ++i)
            attrValue = wrap(10, "\x0a\x01f" + wrap(2, "\x0a\x01a" + wrap(2, attrValue)));
        // NodeDef {name (1), op (2), attr (5) entry}; GraphDef.node (1).
        const std::string node = "\x0a\x01n\x12\x04NoOp" + wrap(5, "\x0a\x01a" + wrap(2, attrValue));
        const std::string binaryPath = writeFile(QStringLiteral("nested.pb"), wrap(1, node));
        auto fromBinary = readGraphDef(binaryPath);
        QVERIFY(!fromBinary);
        QVERIFY_CONTAINS(fromBinary.error().message(), "nested.pb");
    }

    void unknownOp()
    {
        auto graph = model();
        graph.mutable_node(3)->set_op("MatMulPlus");
        const Status s = createSession(graph);
        QVERIFY_CONTAINS(s.message(), "mul", "Op type not registered 'MatMulPlus'");
    }

    void danglingInput()
    {
        auto graph = model();
        graph.mutable_node(4)->set_input(1, "bias");
        const Status s = createSession(graph);
        QVERIFY_CONTAINS(s.message(), "pred", "bias");
    }

    void cycle()
    {
        auto graph = model();
        graph.mutable_node(3)->set_input(0, "pred");  // mul <- pred <- mul
        const Status s = createSession(graph);
        QVERIFY_CONTAINS(s.message(), "cycle");
    }

    void constWhoseShapeDoesNotMatchItsContent()
    {
        auto graph = model();
        // W claims [2,2] but holds 3 values in tensor_content.
        auto* tensor = (*graph.mutable_node(1)->mutable_attr())["value"].mutable_tensor();
        tensor->clear_float_val();
        tensor->mutable_tensor_shape()->mutable_dim(0)->set_size(2);
        tensor->mutable_tensor_shape()->mutable_dim(1)->set_size(2);
        tensor->set_tensor_content(std::string(12, '\0'));
        auto session = newSession();
        Status s = session->create(graph);
        if (s.isOk()) {
            std::vector<Tensor> out;
            s = session->run({}, {"W:0"}, {}, &out);
        }
        QVERIFY(!s.isOk());
        QVERIFY_CONTAINS(s.message(), "W");
    }

    void absurdSizeInAConstHeader()
    {
        // 2^40 x 2^40 elements declared, none present: refused before any allocation.
        auto graph = model();
        auto* tensor = (*graph.mutable_node(1)->mutable_attr())["value"].mutable_tensor();
        tensor->mutable_tensor_shape()->mutable_dim(0)->set_size(std::int64_t{1} << 40);
        tensor->mutable_tensor_shape()->mutable_dim(1)->set_size(std::int64_t{1} << 40);
        auto session = newSession();
        Status s = session->create(graph);
        if (s.isOk()) {
            std::vector<Tensor> out;
            s = session->run({}, {"W:0"}, {}, &out);
        }
        QVERIFY(!s.isOk());
        QVERIFY_CONTAINS(s.message(), "W");
    }

    void feedOfTheWrongShapeOrDtype()
    {
        auto session = newSession();
        QVERIFY(session->create(model()).isOk());
        Allocator& allocator = session->devices()[0]->allocator();
        std::vector<Tensor> out;
        auto wrongShape = Tensor::fromVector<float>(allocator, TensorShape{3}, {1, 2, 3});
        QVERIFY(wrongShape);
        Status s = session->run({{"X:0", *wrongShape}}, {"pred:0"}, {}, &out);
        QVERIFY_CONTAINS(s.message(), "Cannot feed value of shape (3,) for Tensor 'X:0', which has shape '(?, 1)'");
        auto wrongDtype = Tensor::fromVector<std::int32_t>(allocator, TensorShape{1, 1}, {1});
        QVERIFY(wrongDtype);
        s = session->run({{"X:0", *wrongDtype}}, {"pred:0"}, {}, &out);
        QVERIFY_CONTAINS(s.message(), "X");
        s = session->run({}, {"pred:0"}, {}, &out);
        QVERIFY_CONTAINS(s.message(), "You must feed a value for placeholder tensor 'X' with dtype float and shape [?,1]");
    }

    void nanFlowsThroughLikeTensorFlow()
    {
        // NaN is a value, not an error, in TensorFlow: it comes out as NaN (the debugger's
        // NaN/Inf stop is where it is caught).
        auto session = newSession();
        QVERIFY(session->create(model()).isOk());
        auto x = Tensor::fromVector<float>(session->devices()[0]->allocator(), TensorShape{1, 1},
                                           {std::numeric_limits<float>::quiet_NaN()});
        QVERIFY(x);
        std::vector<Tensor> out;
        QVERIFY(session->run({{"X", *x}}, {"pred:0"}, {}, &out).isOk());
        QVERIFY(std::isnan(out[0].values<float>()[0]));
    }
};

QTEST_GUILESS_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
