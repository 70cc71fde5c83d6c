// Restoring every variable by name (model/restore_variables.h) into a session whose graph has no
// saver: ref and resource variables, variables the checkpoint lacks, mismatches; and the tf2onnx
// regression model's GraphDef restored from TensorFlow's checkpoint predicts 2.1193342.
#include "../../support/test_files.h"
#include "io/formats/graph_file.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "model/restore_variables.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

// w: ref variable [2]; b: resource variable [2]; step: int32 ref variable; out = w + b.
constexpr const char* kGraph = R"pb(
node { name: "w" op: "VariableV2" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 2 } } } } }
node { name: "b" op: "VarHandleOp" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 2 } } } } attr { key: "shared_name" value { s: "b" } } }
node { name: "b/Read/ReadVariableOp" op: "ReadVariableOp" input: "b" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "step" op: "VariableV2" attr { key: "dtype" value { type: DT_INT32 } } attr { key: "shape" value { shape { } } } }
node { name: "out" op: "Add" input: "w" input: "b/Read/ReadVariableOp" attr { key: "T" value { type: DT_FLOAT } } }
)pb";

} // namespace

class TestRestoreVariables : public QObject {
    Q_OBJECT

private:
    CpuAllocator m_allocator;
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;

    std::string checkpoint(const QString& name, const std::vector<std::pair<std::string, Tensor>>& tensors)
    {
        const std::string prefix = m_dir.filePath(name).toStdString();
        auto writer = TensorBundleWriter::create(prefix).value();
        for (const auto& [key, tensor] : tensors)
            if (Status s = writer->add(key, tensor); !s.isOk())
                qFatal("%s", s.toString().c_str());
        if (Status s = writer->finish(); !s.isOk())
            qFatal("%s", s.toString().c_str());
        return prefix;
    }

    Tensor floats(std::vector<float> values)
    {
        return Tensor::fromVector<float>(m_allocator, TensorShape{std::int64_t(values.size())}, values).value();
    }

    std::unique_ptr<Session> session(const tensorflow::GraphDef& graph)
    {
        auto s = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status status = s->create(graph); !status.isOk())
            qFatal("%s", status.toString().c_str());
        return s;
    }

    static tensorflow::GraphDef graph()
    {
        tensorflow::GraphDef g;
        if (!google::protobuf::TextFormat::ParseFromString(kGraph, &g))
            qFatal("test graph does not parse");
        return g;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_registries = std::move(makeDefaultRegistries().value());
    }

    void restoresRefAndResourceVariables()
    {
        const std::string prefix = checkpoint("wb", {{"w", floats({1, 2})}, {"b", floats({0.25f, -4})}});
        auto s = session(graph());
        auto restored = restoreVariablesByName(*s, prefix);
        QVERIFY2(restored, restored ? "" : restored.error().toString().c_str());
        QCOMPARE(restored->restored, (std::vector<std::string>{"w", "b"}));
        QCOMPARE(restored->notInCheckpoint, (std::vector<std::string>{"step"}));
        std::vector<Tensor> out;
        Status st = s->run({}, {"out:0"}, {}, &out);
        QVERIFY2(st.isOk(), st.toString().c_str());
        QCOMPARE(out[0].values<float>()[0], 1.25f);
        QCOMPARE(out[0].values<float>()[1], -2.0f);
        // The variable left alone is still uninitialised, with TensorFlow's error.
        st = s->run({}, {"step:0"}, {}, &out);
        QVERIFY(!st.isOk());
        QVERIFY2(st.message().find("uninitialized") != std::string::npos, st.message().c_str());

        // A second restore adds its nodes under a fresh scope and overwrites the values.
        const std::string second = checkpoint("wb2", {{"w", floats({10, 20})}, {"b", floats({1, 1})}});
        QVERIFY(restoreVariablesByName(*s, second));
        QVERIFY(s->graph()->findNode("restore_variables_1/w/assign").has_value());
        QVERIFY(s->run({}, {"out:0"}, {}, &out).isOk());
        QCOMPARE(out[0].values<float>()[1], 21.0f);
    }

    void mismatchesAndMissingFilesAreErrors()
    {
        auto s = session(graph());
        const std::string wrongShape = checkpoint("wrong_shape", {{"w", floats({1, 2, 3})}});
        auto r = restoreVariablesByName(*s, wrongShape);
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(r.error().message().find("variable 'w' has shape [2] in the graph") != std::string::npos &&
                     r.error().message().find("with shape [3]") != std::string::npos,
                 r.error().message().c_str());
        const std::string wrongType = checkpoint(
            "wrong_type", {{"step", Tensor::fromVector<float>(m_allocator, TensorShape::scalar(), {1.0f}).value()}});
        r = restoreVariablesByName(*s, wrongType);
        QVERIFY(!r);
        QVERIFY2(r.error().message().find("variable 'step' has dtype int32 in the graph") != std::string::npos,
                 r.error().message().c_str());
        r = restoreVariablesByName(*s, m_dir.filePath("absent").toStdString());
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kNotFound);

        Session empty(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        r = restoreVariablesByName(empty, wrongShape);
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kFailedPrecondition);
    }

    void regressionGraphRestoredByName()
    {
        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf2onnx regression checkpoint is not checked");
        auto file = readGraphFromFile((fixtures + "/tf2onnx/regression/checkpoint/model.meta").toStdString());
        QVERIFY(file);
        auto s = session(file->graph);
        auto restored = restoreVariablesByName(*s, (fixtures + "/tf2onnx/regression/checkpoint/model").toStdString());
        QVERIFY2(restored, restored ? "" : restored.error().toString().c_str());
        QCOMPARE(restored->restored, (std::vector<std::string>{"W", "b"}));
        std::vector<Tensor> out;
        const Tensor x = floats({5.0f});
        QVERIFY(s->run({{"X:0", x}}, {"pred:0"}, {}, &out).isOk());
        QVERIFY(std::abs(out[0].values<float>()[0] - 2.1193342f) <= 1e-6f);
    }
};

QTEST_GUILESS_MAIN(TestRestoreVariables)
#include "test_restore_variables.moc"
