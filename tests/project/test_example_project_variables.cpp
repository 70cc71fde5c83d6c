// Every example project keeps TensorFlow's variable collections: its trainable and global variables
// and the names its checkpoint holds are the lists written below from TensorFlow 1.x's rules, not read
// from our code. The rules: layer weights, biases, batch-norm gamma and beta, embeddings and LSTM
// kernels are trainable; batch-norm moving statistics, global_step and ExponentialMovingAverage
// shadows are not (TensorFlow creates them with trainable=False); an optimizer adds slots only for
// what it trains (Adam: VAR/Adam and VAR/Adam_1 per trainable variable, plus beta1_power and
// beta2_power; GradientDescent: none); the Saver saves every global variable. Trained one step each on
// data the test writes (a tiny MNIST, a short PTB-shaped text, the generated spirals).
#include "io/checkpoint/tensor_bundle_reader.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "project/run/training_setup.h"

#include "../support/shared_registries.h"
#include "../support/tiny_mnist.h"

#include "proto/meta_graph.pb.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::project;
using Names = std::set<std::string>;
Q_DECLARE_METATYPE(Names)

namespace {

std::filesystem::path exampleProject(const std::string& name)
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / (name + ".tsproj");
}

/// The variable names (without ":0") of a collection of VariableDefs.
Names collectionVariables(const PreparedTraining& prepared, const std::string& key)
{
    Names out;
    const auto it = prepared.collections.find(key);
    if (it == prepared.collections.end())
        return out;
    for (const std::string& bytes : it->second.bytes_list().value()) {
        tensorflow::VariableDef def;
        if (!def.ParseFromString(bytes))
            continue;
        std::string name = def.variable_name();
        if (const auto colon = name.rfind(':'); colon != std::string::npos)
            name.resize(colon);
        out.insert(name);
    }
    return out;
}

/// `trainable` with Adam's slots and power accumulators, the global step and `state` added: the global
/// variables of a graph that AdamOptimizer(...).minimize(loss, global_step) trains.
Names adamGlobals(const Names& trainable, const Names& state)
{
    Names out = trainable;
    out.insert(state.begin(), state.end());
    for (const std::string& v : trainable) {
        out.insert(v + "/Adam");
        out.insert(v + "/Adam_1");
    }
    out.insert({"beta1_power", "beta2_power", "global_step"});
    return out;
}

std::string listed(const Names& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

void writeText(const std::filesystem::path& file, const std::string& text)
{
    std::ofstream(file) << text;
}

/// 2,000 words over 40 distinct ones, PTB-shaped (a space before each line end).
std::string ptbText()
{
    std::string text;
    for (int i = 0; i < 2000; ++i)
        text += " w" + std::to_string((i * 7) % 40) + ((i % 20 == 19) ? " \n" : "");
    return text;
}

} // namespace

class TestExampleProjectVariables : public QObject {
    Q_OBJECT

private slots:
    void variablesFollowTensorFlowsRules_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<Names>("trainable");
        QTest::addColumn<Names>("global");

        const Names notesTrainable = {"hidden1/kernel",  "hidden1_bn/gamma", "hidden1_bn/beta", "hidden2/kernel",
                                      "hidden2_bn/gamma", "hidden2_bn/beta", "logits/kernel",   "logits/bias"};
        const Names notesState = {"hidden1_bn/moving_mean", "hidden1_bn/moving_variance", "hidden2_bn/moving_mean",
                                  "hidden2_bn/moving_variance"};
        QTest::newRow("mnist-notes") << "mnist-notes" << notesTrainable << adamGlobals(notesTrainable, notesState);

        const Names spiralsTrainable = {"dense/kernel",   "dense/bias",   "dense_1/kernel",
                                        "dense_1/bias",   "dense_2/kernel", "dense_2/bias"};
        QTest::newRow("spirals") << "spirals" << spiralsTrainable << adamGlobals(spiralsTrainable, {});

        const Names lenetTrainable = {"conv2d/kernel", "conv2d/bias", "conv2d_1/kernel", "conv2d_1/bias",
                                      "dense/kernel",  "dense/bias",  "dense_1/kernel",  "dense_1/bias"};
        QTest::newRow("lenet") << "lenet" << lenetTrainable << adamGlobals(lenetTrainable, {});

        // The book's mnist_train.py: GradientDescent (no slots), its global step "Variable" and the
        // ExponentialMovingAverage shadows, none of them trainable.
        const Names bookTrainable = {"layer1/weights", "layer1/biases", "layer2/weights", "layer2/biases"};
        Names bookGlobal = bookTrainable;
        bookGlobal.insert("Variable");
        for (const std::string& v : bookTrainable)
            bookGlobal.insert(v + "/ExponentialMovingAverage");
        QTest::newRow("book-mnist") << "book-mnist" << bookTrainable << bookGlobal;

        // PTB's model: the embedding, two LSTM cells and the softmax; GradientDescent adds no slot.
        const Names ptbTrainable = {"Model/embedding",
                                    "Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel",
                                    "Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias",
                                    "Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel",
                                    "Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias",
                                    "Model/softmax_w",
                                    "Model/softmax_b"};
        Names ptbGlobal = ptbTrainable;
        ptbGlobal.insert("global_step");
        QTest::newRow("ptb-small") << "ptb-small" << ptbTrainable << ptbGlobal;
    }

    void variablesFollowTensorFlowsRules()
    {
        QFETCH(QString, project);
        QFETCH(Names, trainable);
        QFETCH(Names, global);

        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const std::filesystem::path data = root / "data";
        std::filesystem::create_directories(data);
        QVERIFY(test::writeTinyMnist(data, 10000));
        writeText(data / "ptb.train.txt", ptbText());
        writeText(data / "ptb.valid.txt", ptbText());
        auto p = loadProject(exampleProject(project.toStdString()),
                             {{"data.dir", "\"" + data.string() + "\""}, {"steps", "1"}});
        QVERIFY2(p, p ? "" : p.error().toString().c_str());

        auto prepared = prepareTraining(*p, testing::sharedRegistries().ops);
        QVERIFY2(prepared, prepared ? "" : prepared.error().toString().c_str());
        const Names gotTrainable = collectionVariables(*prepared, "trainable_variables");
        const Names gotGlobal = collectionVariables(*prepared, "variables");
        QVERIFY2(gotTrainable == trainable, ("trainable: " + listed(gotTrainable)).c_str());
        QVERIFY2(gotGlobal == global, ("global: " + listed(gotGlobal)).c_str());

        // One step trained and saved: the checkpoint holds exactly the global variables.
        TrainRunOptions options;
        options.logdir = root / "run";
        options.steps = 1;
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        auto reader = TensorBundleReader::open(result->lastCheckpoint);
        QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
        Names saved;
        for (const BundleTensorInfo& t : reader->tensors())
            saved.insert(t.name);
        QVERIFY2(saved == global, ("checkpoint: " + listed(saved)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestExampleProjectVariables)
#include "test_example_project_variables.moc"
