// Tests for the Training panel: training the node editor's project on a worker while the GUI thread
// keeps running, pausing, stopping with a final checkpoint, refusing to overwrite a run, and a failure
// that names a node of the graph.
#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "runtime/default_registries.h"
#include "training/training_panel.h"
#include "training/training_run.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::training_panel;

namespace {

constexpr char kSpirals[] = TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj";

bool hasEventFile(const QString& dir)
{
    for (const auto& entry : std::filesystem::directory_iterator(dir.toStdString()))
        if (entry.path().filename().string().find("tfevents") != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestTrainingPanel : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// A panel training the editor's document into `logdir` up to `steps`.
    void bind(TrainingPanel& panel, node_editor::NodeEditor& editor, const QString& logdir, int steps)
    {
        panel.setProjectSource([&editor] { return editor.trainingProject(); }, QStringLiteral("test"));
        panel.logDirectoryEdit()->setText(logdir);
        panel.stepsBox()->setValue(steps);
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    /// The spirals example trains to its last step; the GUI thread's event loop runs meanwhile
    /// (progress arrives as queued signals); the log directory gets event files and checkpoints.

    /// The warm-start fields become training.warm_start of the project Start trains.
    void warmStartFieldsReachTheProject()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        QTemporaryDir dir;
        bind(panel, editor, dir.filePath(QStringLiteral("run")), 10);
        QVERIFY(panel.warmStartEdit()->text().isEmpty());
        QString logdir;
        auto plain = panel.preparedProject(&logdir);
        QVERIFY2(plain, plain ? "" : plain.error().toString().c_str());
        QVERIFY(!plain->training.warmStart);
        panel.warmStartEdit()->setText(QStringLiteral("  /tmp/pretrained  "));
        auto warm = panel.preparedProject(&logdir);
        QVERIFY2(warm, warm ? "" : warm.error().toString().c_str());
        QVERIFY(warm->training.warmStart.has_value());
        QCOMPARE(warm->training.warmStart->ckptToInitializeFrom, std::string("/tmp/pretrained"));
        QCOMPARE(warm->training.warmStart->varsToWarmStart, std::string(".*"));
        panel.warmStartVarsEdit()->setText(QStringLiteral("dense/"));
        auto some = panel.preparedProject(&logdir);
        QVERIFY(some && some->training.warmStart->varsToWarmStart == "dense/");
        // A missing checkpoint is refused when the run starts, naming the key.
        QVERIFY(!panel.start() || [&] {
            QSignalSpy finished(&panel, &TrainingPanel::runFinished);
            return finished.wait(60000) && !finished.front().at(0).toBool();
        }());
        QTRY_VERIFY2_WITH_TIMEOUT(panel.statusText().contains(QStringLiteral("training.warm_start.ckpt_to_initialize_from")),
                                  qPrintable(panel.statusText()), 20000);
    }

    void trainsTheEditorsProject()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        QTemporaryDir dir;
        bind(panel, editor, dir.filePath(QStringLiteral("run")), 60);
        QSignalSpy started(&panel, &TrainingPanel::runStarted);
        QSignalSpy progressed(&panel, &TrainingPanel::progressed);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QVERIFY(panel.isRunning());
        QVERIFY(!panel.start()); // one run at a time
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), true);
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.front().at(0).toString(), dir.filePath(QStringLiteral("run")));
        QVERIFY(progressed.size() >= 1);
        QVERIFY(!panel.isRunning());
        QCOMPARE(panel.lastProgress().step, std::int64_t(60));
        QVERIFY(panel.lastProgress().loss.has_value());
        QVERIFY(hasEventFile(dir.filePath(QStringLiteral("run"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("run/model.ckpt-60.index"))));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Finished at step 60")), qPrintable(panel.statusText()));

        // Started again into the same folder without "continue": refused, nothing overwritten.
        QVERIFY(!panel.start());
        QVERIFY2(panel.statusText().contains(QStringLiteral("already holds checkpoints")), qPrintable(panel.statusText()));
        // With "continue" it resumes from step 60 to 80.
        panel.resumeBox()->setChecked(true);
        panel.stepsBox()->setValue(80);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.back().at(0).toBool(), true);
        QCOMPARE(panel.lastProgress().firstStep, std::int64_t(60));
        QCOMPARE(panel.lastProgress().step, std::int64_t(80));
    }

    /// A project with an eval section: each evaluation shows beside the loss with the best so far,
    /// and the evaluated signal carries its metrics.
    void showsTheLatestEvaluation()
    {
        QTemporaryDir dir;
        auto loaded = project::loadProject(kSpirals);
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        project::Project p = *loaded;
        p.graph.file = (std::filesystem::path(kSpirals).parent_path() / p.graph.file).string();
        project::EvalSource heldOut;
        heldOut.source = p.sources.front();
        std::get<project::TwoSpiralsParams>(heldOut.source.params).seed = 2;
        project::EvalSettings eval;
        eval.sources = {heldOut};
        eval.everySteps = 20;
        eval.metrics = {project::EvalMetricSpec{"loss"}, project::EvalMetricSpec{"accuracy"}};
        eval.metrics[1].labels = "labels";
        eval.metrics[1].logits = "dense_2/BiasAdd";
        eval.best = project::BestCheckpointSpec{"accuracy", ""};
        p.eval = eval;
        const QString file = dir.filePath(QStringLiteral("spirals-eval.tsproj"));
        QVERIFY(project::saveProject(p, file.toStdString()).isOk());

        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(file).isOk());
        TrainingPanel panel(m_registries.get());
        bind(panel, editor, dir.filePath(QStringLiteral("run")), 40);
        QSignalSpy evaluated(&panel, &TrainingPanel::evaluated);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(panel.statusText()));
        QCOMPARE(evaluated.size(), 2);
        const auto last = evaluated.back().at(0).value<project::EvalResult>();
        QCOMPARE(last.step, std::int64_t(40));
        QVERIFY(last.metric("accuracy").has_value());
        auto* label = panel.findChild<QLabel*>(QStringLiteral("trainingEvalFigures"));
        QVERIFY(label && label->isVisibleTo(&panel));
        QVERIFY2(label->text().startsWith(QStringLiteral("Eval at step 40: loss ")), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral("accuracy ")), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QRegularExpression(QStringLiteral("best accuracy [0-9.]+ at step [24]0"))),
                 qPrintable(label->text()));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("run/best/best_metric.json"))));

        // A metric on a tensor of the wrong shape: refused before anything is written, naming the key.
        p.eval->metrics[1].logits.clear();
        p.eval->metrics[1].predictions = "dense_2/BiasAdd";
        p.eval->best.reset();
        const QString bad = dir.filePath(QStringLiteral("bad.tsproj"));
        QVERIFY(project::saveProject(p, bad.toStdString()).isOk());
        node_editor::NodeEditor badEditor(m_registries.get());
        QVERIFY(badEditor.openFile(bad).isOk());
        TrainingPanel badPanel(m_registries.get());
        bind(badPanel, badEditor, dir.filePath(QStringLiteral("bad-run")), 40);
        QSignalSpy badFinished(&badPanel, &TrainingPanel::runFinished);
        QVERIFY(badPanel.start());
        QVERIFY(badFinished.wait(60000));
        QVERIFY(!badFinished.front().at(0).toBool());
        QVERIFY2(badPanel.statusText().contains(QStringLiteral("eval.metrics[1]: &#x27;labels:0&#x27; (int64 [?])")) ||
                     badPanel.statusText().contains(QStringLiteral("eval.metrics[1]: 'labels:0' (int64 [?])")),
                 qPrintable(badPanel.statusText()));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("bad-run/checkpoint"))));
    }

    /// Pause holds the step; Stop (also while paused) ends the run with a final checkpoint.
    void pauseAndStop()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        QTemporaryDir dir;
        bind(panel, editor, dir.path(), 1000000);
        QSignalSpy progressed(&panel, &TrainingPanel::progressed);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 2, 30000);
        panel.pause();
        QTest::qWait(300); // a step under way finishes; its progress may still arrive
        const std::int64_t held = panel.lastProgress().step;
        QTest::qWait(400);
        QCOMPARE(panel.lastProgress().step, held);
        panel.resume();
        QTRY_VERIFY_WITH_TIMEOUT(panel.lastProgress().step > held, 30000);
        panel.pause();
        panel.stop();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().at(0).toBool(), true);
        const std::int64_t last = panel.lastProgress().step;
        QVERIFY(last > held && last < 1000000);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("model.ckpt-%1.index").arg(last))));
    }

    /// "Profile step N" armed before Start traces step N of the run; after the run, Profile trains
    /// one more step from its last checkpoint and traces that one.
    void profileBeforeAndAfterARun()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        QTemporaryDir dir;
        bind(panel, editor, dir.path(), 12);
        QVERIFY(!panel.profileButton()->isEnabled()); // nothing ran yet
        panel.setProfileAtStep(5);
        QVERIFY(panel.profileAtStepBox()->isChecked());
        QCOMPARE(panel.profileStepBox()->value(), 5);
        QSignalSpy profiled(&panel, &TrainingPanel::profiled);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.back().at(0).toBool(), true);
        QCOMPARE(profiled.size(), 1);
        auto trace = profiled.front().at(0).value<std::shared_ptr<const profiler::ProfileTrace>>();
        QVERIFY(trace);
        QCOMPARE(trace->steps.size(), std::size_t(1));
        QCOMPARE(trace->steps.front().number, std::int64_t(5));

        // After the run: one more step (13), traced.
        QVERIFY(panel.profileButton()->isEnabled());
        panel.setProfileAtStep(0);
        QTest::mouseClick(panel.profileButton(), Qt::LeftButton);
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.back().at(0).toBool(), true);
        QCOMPARE(profiled.size(), 2);
        trace = profiled.back().at(0).value<std::shared_ptr<const profiler::ProfileTrace>>();
        QCOMPARE(trace->steps.front().number, std::int64_t(12));
        QCOMPARE(panel.lastProgress().step, std::int64_t(13));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("model.ckpt-13.index"))));
    }

    /// The data folder field shows (with its label) only when the document has a source that reads one, also
    /// when the same document is bound again (what the user typed elsewhere in the form stays).
    void theDataFolderFieldFollowsTheDocument()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        QVERIFY(panel.dataFolderEdit()->isHidden()); // no project yet: no field without its label
        QTemporaryDir dir;
        bind(panel, editor, dir.path(), 77);
        QVERIFY(panel.dataFolderEdit()->isHidden()); // spirals makes its own data
        editor.addNode(QStringLiteral("layer:Dataset"), QPointF(0, 400));
        bind(panel, editor, dir.path(), 77);
        QVERIFY(!panel.dataFolderEdit()->isHidden());
        QVERIFY2(panel.dataFolderEdit()->placeholderText().contains(QStringLiteral("train-images-idx3-ubyte")),
                 qPrintable(panel.dataFolderEdit()->placeholderText()));
        QCOMPARE(panel.stepsBox()->value(), 77);
    }

    /// A run that fails says why and offers the node the message names.
    void failureNamesTheNode()
    {
        node_editor::NodeEditor editor(m_registries.get());
        const DocNodeId x = editor.addNode(QStringLiteral("layer:Input"), QPointF(0, 0));
        const DocNodeId y = editor.addNode(QStringLiteral("layer:Input"), QPointF(0, 200));
        const DocNodeId dense = editor.addNode(QStringLiteral("layer:Dense"), QPointF(250, 0));
        const DocNodeId loss = editor.addNode(QStringLiteral("layer:MeanSquaredError"), QPointF(500, 100));
        const DocNodeId train = editor.addNode(QStringLiteral("layer:GradientDescent"), QPointF(750, 100));
        for (const auto& [id, width] : {std::pair{x, 3}, std::pair{y, 10}}) {
            tensorflow::AttrValue shape;
            shape.mutable_shape()->add_dim()->set_size(-1);
            shape.mutable_shape()->add_dim()->set_size(width);
            editor.document()->undoStack()->push(SetAttrCommand::create(editor.document(), id, "shape", shape)->release());
        }
        QCOMPARE(editor.scene()->connectPorts(x, 0, dense, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(y, 0, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, loss, 1), QString());
        QCOMPARE(editor.scene()->connectPorts(loss, 0, train, 0), QString());
        // No data source feeds the placeholders: the first step fails on one of them.
        TrainingPanel panel(m_registries.get());
        QTemporaryDir dir;
        bind(panel, editor, dir.path(), 10);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy show(&panel, &TrainingPanel::showNodeRequested);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString message = finished.front().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("input")), qPrintable(message));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Show node")), qPrintable(panel.statusText()));
        // The failed first step left no checkpoint: starting again runs (and fails the same way)
        // instead of being refused over the log directory.
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("checkpoint"))));
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.back().at(0).toBool(), false);
        QCOMPARE(finished.back().at(1).toString(), message);
        auto* status = panel.findChild<QLabel*>(QStringLiteral("trainingStatus"));
        QVERIFY(status);
        emit status->linkActivated(QStringLiteral("node"));
        QCOMPARE(show.size(), 1);
        QVERIFY(show.front().at(0).toString().startsWith(QStringLiteral("input")));
        QVERIFY(editor.showNode(show.front().at(0).toString()));

        // A document that cannot train is refused before anything runs.
        node_editor::NodeEditor empty(m_registries.get());
        empty.addNode(QStringLiteral("layer:Input"), QPointF(0, 0));
        panel.setProjectSource([&empty] { return empty.trainingProject(); }, QStringLiteral("empty"));
        panel.logDirectoryEdit()->setText(dir.filePath(QStringLiteral("other")));
        QVERIFY(!panel.start());
        QVERIFY2(panel.statusText().contains(QStringLiteral("no optimizer node")), qPrintable(panel.statusText()));
    }
};

QTEST_MAIN(TestTrainingPanel)
#include "test_training_panel.moc"
