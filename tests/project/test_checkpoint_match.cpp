// CheckpointMatch: a checkpoint compared with the variables a project's training saves, on
// checkpoints the test writes (by training the two-spirals project, and by hand).
#include "project/run/checkpoint_match.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;

namespace {

Project spirals(std::int64_t steps)
{
    auto p = loadProject(std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj");
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    p->steps = steps;
    return *p;
}

bool contains(const std::vector<std::string>& names, const std::string& name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

class TestCheckpointMatch : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// Trains `p` for its steps into `dir`: a real checkpoint of its variables.
    bool train(const Project& p, const QString& dir)
    {
        TrainRunOptions options;
        options.logdir = dir.toStdString();
        auto result = trainProject(p, *m_registries, options);
        if (!result)
            qWarning("%s", result.error().toString().c_str());
        return result.has_value();
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// The saved variables are the training graph's: the graph's own, the global step and the
    /// optimizer's slots, with their shapes; no data file is read to find them.
    void savedVariablesAreTheTrainingGraphs()
    {
        auto vars = savedVariables(spirals(5), m_registries->ops);
        QVERIFY2(vars, vars ? "" : vars.error().toString().c_str());
        std::vector<std::string> names;
        for (const SavedVariable& v : *vars)
            names.push_back(v.name);
        QVERIFY(contains(names, "dense/kernel"));
        QVERIFY(contains(names, "global_step"));
        QVERIFY(contains(names, "dense/kernel/Adam"));
        QVERIFY(contains(names, "dense/kernel/Adam_1"));
        QVERIFY(contains(names, "beta1_power"));
        const auto kernel =
            std::find_if(vars->begin(), vars->end(), [](const SavedVariable& v) { return v.name == "dense/kernel"; });
        QCOMPARE(kernel->shape.toString(), std::string("[2,64]"));
        QCOMPARE(kernel->dtype, tensorflow::DT_FLOAT);
        QVERIFY(std::is_sorted(names.begin(), names.end()));
    }

    /// The project's own checkpoint matches: resuming it is never refused by mistake.
    void aRunsOwnCheckpointMatches()
    {
        QTemporaryDir dir;
        QVERIFY(train(spirals(3), dir.path()));
        auto match = matchLatestCheckpoint(spirals(6), m_registries->ops, dir.path().toStdString());
        QVERIFY2(match, match ? "" : match.error().toString().c_str());
        QVERIFY(match->has_value());
        QVERIFY2((*match)->matches(), describeCheckpointMismatch(**match).c_str());
        QVERIFY((*match)->checkpoint.ends_with("model.ckpt-3"));
        QCOMPARE(describeCheckpointMismatch(**match), std::string());
    }

    /// A log directory without a checkpoint restores nothing: no comparison.
    void noCheckpointNothingToCompare()
    {
        QTemporaryDir dir;
        auto match = matchLatestCheckpoint(spirals(6), m_registries->ops, dir.path().toStdString());
        QVERIFY2(match, match ? "" : match.error().toString().c_str());
        QVERIFY(!match->has_value());
    }

    /// Another optimizer's checkpoint (Adam's slots) does not match a GradientDescent graph: its
    /// slots are reported as not in the graph.
    void anotherOptimizersSlotsAreUnexpected()
    {
        QTemporaryDir dir;
        QVERIFY(train(spirals(2), dir.path()));
        Project plain = spirals(4);
        plain.training.optimizer->type = "GradientDescent";
        plain.training.optimizer->numbers.clear();
        auto match = matchLatestCheckpoint(plain, m_registries->ops, dir.path().toStdString());
        QVERIFY2(match && match->has_value(), match ? "no checkpoint" : match.error().toString().c_str());
        const CheckpointMatch& m = **match;
        QVERIFY(!m.matches());
        QVERIFY(m.missing.empty());
        QVERIFY(m.mismatched.empty());
        QVERIFY(contains(m.unexpected, "dense/kernel/Adam"));
        QVERIFY(contains(m.unexpected, "beta2_power"));
        QVERIFY(!contains(m.unexpected, "dense/kernel"));
        const std::string text = describeCheckpointMismatch(m);
        QVERIFY2(text.starts_with("checkpoint model.ckpt-2 does not match the graph: "), text.c_str());
        QVERIFY2(text.find(std::to_string(m.unexpected.size()) + " not in the graph (beta1_power, beta2_power, "
                                                                 "dense/bias/Adam and ") != std::string::npos,
                 text.c_str());
    }

    /// A checkpoint written by hand: one variable missing, one of another shape, one extra.
    void missingUnexpectedAndMismatched()
    {
        auto vars = savedVariables(spirals(5), m_registries->ops);
        QVERIFY(vars);
        QTemporaryDir dir;
        const std::string prefix = dir.filePath(QStringLiteral("model.ckpt-9")).toStdString();
        auto writer = TensorBundleWriter::create(prefix);
        QVERIFY(writer);
        CpuAllocator allocator;
        for (const SavedVariable& v : *vars) {
            if (v.name == "dense/bias")
                continue; // missing
            const TensorShape shape = v.name == "dense_2/kernel" ? TensorShape{64, 3} : v.shape;
            auto value = Tensor::allocate(allocator, v.dtype, shape);
            QVERIFY(value);
            QVERIFY((*writer)->add(v.name, *value).isOk());
        }
        auto extra = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape{4});
        QVERIFY((*writer)->add("other_model/weights", *extra).isOk());
        QVERIFY((*writer)->finish().isOk());
        QVERIFY(writeCheckpointState(dir.path().toStdString(), prefix, {}).isOk());

        auto match = matchLatestCheckpoint(spirals(5), m_registries->ops, dir.path().toStdString());
        QVERIFY2(match && match->has_value(), match ? "no checkpoint" : match.error().toString().c_str());
        const CheckpointMatch& m = **match;
        QCOMPARE(m.missing, std::vector<std::string>{"dense/bias"});
        QCOMPARE(m.unexpected, std::vector<std::string>{"other_model/weights"});
        QCOMPARE(m.mismatched.size(), std::size_t(1));
        QCOMPARE(m.mismatched[0].name, std::string("dense_2/kernel"));
        QCOMPARE(m.mismatched[0].inGraph, std::string("float32 [64,2]"));
        QCOMPARE(m.mismatched[0].inCheckpoint, std::string("float32 [64,3]"));
        QCOMPARE(describeCheckpointMismatch(m),
                 std::string("checkpoint model.ckpt-9 does not match the graph: 1 variable missing from it "
                             "(dense/bias); 1 not in the graph (other_model/weights); 1 different (dense_2/kernel: "
                             "float32 [64,2] in the graph, float32 [64,3] in the checkpoint)"));
    }

    void shortNameLists()
    {
        QCOMPARE(shortNameList({}), std::string());
        QCOMPARE(shortNameList({"a"}), std::string("a"));
        QCOMPARE(shortNameList({"a", "b", "c"}), std::string("a, b, c"));
        QCOMPARE(shortNameList({"a", "b", "c", "d", "e"}), std::string("a, b, c and 2 more"));
        QCOMPARE(shortNameList({"a", "b", "c"}, 1), std::string("a and 2 more"));
    }
};

QTEST_MAIN(TestCheckpointMatch)
#include "test_checkpoint_match.moc"
