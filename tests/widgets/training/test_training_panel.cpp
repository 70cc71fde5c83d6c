// Tests for the Training panel: training the node editor's project on a worker while the GUI thread
// keeps running, pausing, stopping with a final checkpoint, refusing to overwrite a run, a failure
// that names a node of the graph, and each document's own training state (form, toggles, status,
// default log directory, a foreign checkpoint refused, form edits saved with the project).
#include "common/empty_state.h"
#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "registries/default_registries.h"
#include "training/training_panel.h"
#include "training/training_run.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "framework/allocator.h"

#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::training_panel;

namespace {

constexpr char kSpirals[] = TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj";

constexpr char kExamples[] = TSTUDIO_SOURCE_DIR "/examples/projects";

/// The spirals example copied into `dir` (project and graph file), for saving and permissions.
QString copySpirals(const QString& dir)
{
    const QString project = QDir(dir).filePath(QStringLiteral("spirals.tsproj"));
    for (const char* name : {"spirals.tsproj", "spirals_forward.pbtxt"})
        if (!QFile::copy(QDir(QString::fromLatin1(kExamples)).filePath(QString::fromLatin1(name)),
                         QDir(dir).filePath(QString::fromLatin1(name))))
            return {};
    return project;
}

QString userRuns()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("runs"));
}

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

    /// The panel bound to `editor` as the main window binds it: the editor is the owner, and the
    /// form's edits go into its project.
    static void bindDocument(TrainingPanel& panel, node_editor::NodeEditor& editor, const QString& title)
    {
        QPointer<node_editor::NodeEditor> guard(&editor);
        panel.setProjectSource([guard]() -> Expected<project::Project> {
            if (!guard)
                return unexpected(failedPreconditionError("closed"));
            return guard->trainingProject();
        },
                               title, &editor, [guard](const std::function<void(project::Project&)>& edit) {
                                   if (guard)
                                       guard->editProjectSettings(edit);
                               });
    }

private slots:
    void initTestCase()
    {
        // Default log directories go under the user's data folder: the test's own.
        QStandardPaths::setTestModeEnabled(true);
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
    /// two more steps from its last checkpoint and traces the second (the first warms up).
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

        // After the run: two more steps (13 and 14), the second traced; the first is not in the trace.
        QVERIFY(panel.profileButton()->isEnabled());
        panel.setProfileAtStep(0);
        QTest::mouseClick(panel.profileButton(), Qt::LeftButton);
        QVERIFY(panel.isRunning());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.back().at(0).toBool(), true);
        QCOMPARE(profiled.size(), 2);
        trace = profiled.back().at(0).value<std::shared_ptr<const profiler::ProfileTrace>>();
        QCOMPARE(trace->steps.size(), std::size_t(1));
        QCOMPARE(trace->steps.front().number, std::int64_t(13));
        QCOMPARE(panel.lastProgress().step, std::int64_t(14));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("model.ckpt-14.index"))));
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

        // word2vec reads ptb.train.txt from its data folder: the field is there to choose it.
        node_editor::NodeEditor words(m_registries.get());
        QVERIFY(words.openFile(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/word2vec.tsproj")).isOk());
        bind(panel, words, dir.path(), 77);
        QVERIFY(!panel.dataFolderEdit()->isHidden());
        QVERIFY2(panel.dataFolderEdit()->placeholderText().contains(QStringLiteral("ptb.train.txt")),
                 qPrintable(panel.dataFolderEdit()->placeholderText()));
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

    /// Two documents: each has its own form, toggles and last run; switching swaps them all.
    /// Another document's run keeps going while a document without one is shown, and Start there
    /// says which run is under way.
    void eachDocumentHasItsOwnState()
    {
        QTemporaryDir dir;
        node_editor::NodeEditor a(m_registries.get());
        node_editor::NodeEditor b(m_registries.get());
        QVERIFY(a.openFile(QString::fromLatin1(kSpirals)).isOk());
        QVERIFY(b.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        bindDocument(panel, a, QStringLiteral("a.tsproj"));
        QCOMPARE(panel.stepsBox()->value(), 3000); // the example's own
        panel.logDirectoryEdit()->setText(dir.filePath(QStringLiteral("a")));
        emit panel.logDirectoryEdit()->textEdited(panel.logDirectoryEdit()->text());
        panel.stepsBox()->setValue(12);
        panel.setDebugging(true);

        bindDocument(panel, b, QStringLiteral("b.tsproj"));
        QCOMPARE(panel.stepsBox()->value(), 3000);
        QVERIFY(!panel.isDebugging());
        QVERIFY(!panel.resumeBox()->isChecked());
        QCOMPARE(panel.logDirectoryEdit()->text(), QDir::cleanPath(QString::fromLatin1(kExamples) + QStringLiteral("/runs/spirals")));
        panel.logDirectoryEdit()->setText(dir.filePath(QStringLiteral("b")));
        emit panel.logDirectoryEdit()->textEdited(panel.logDirectoryEdit()->text());
        panel.stepsBox()->setValue(8);
        panel.resumeBox()->setChecked(true);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.back().at(0).toBool(), qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Finished at step 8")), qPrintable(panel.statusText()));
        QCOMPARE(panel.lastProgress().step, std::int64_t(8));

        // Back to a: its form, its toggles, no run of its own.
        bindDocument(panel, a, QStringLiteral("a.tsproj"));
        QCOMPARE(panel.logDirectoryEdit()->text(), dir.filePath(QStringLiteral("a")));
        QCOMPARE(panel.stepsBox()->value(), 12);
        QVERIFY(panel.isDebugging());
        QVERIFY(!panel.resumeBox()->isChecked());
        QCOMPARE(panel.statusText(), QString());
        QCOMPARE(panel.lastProgress().step, std::int64_t(0));
        QCOMPARE(panel.logDirectory(), QString());
        QVERIFY(!panel.profileButton()->isEnabled()); // a has not run

        // And to b again: its run's status and progress.
        bindDocument(panel, b, QStringLiteral("b.tsproj"));
        QCOMPARE(panel.stepsBox()->value(), 8);
        QVERIFY(panel.resumeBox()->isChecked());
        QVERIFY(!panel.isDebugging());
        QVERIFY2(panel.statusText().contains(QStringLiteral("Finished at step 8")), qPrintable(panel.statusText()));
        QCOMPARE(panel.lastProgress().step, std::int64_t(8));
        QCOMPARE(panel.logDirectory(), dir.filePath(QStringLiteral("b")));

        // b trains on (to a far step) while a is shown: a's panel shows none of it.
        panel.stepsBox()->setValue(1000000);
        QSignalSpy progressed(&panel, &TrainingPanel::progressed);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(panel.runningDocument() == &b);
        bindDocument(panel, a, QStringLiteral("a.tsproj"));
        QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 2, 30000);
        QCOMPARE(panel.lastProgress().step, std::int64_t(0));
        QCOMPARE(panel.statusText(), QString());
        QVERIFY(panel.startButton()->isEnabled());
        QVERIFY(!panel.stopButton()->isEnabled()); // b's run is stopped in b's tab
        QVERIFY(panel.logDirectoryEdit()->isEnabled());
        QVERIFY(!panel.start()); // one run at a time
        QVERIFY2(panel.statusText().contains(QStringLiteral("Training b.tsproj is under way")), qPrintable(panel.statusText()));
        bindDocument(panel, b, QStringLiteral("b.tsproj"));
        QVERIFY(panel.lastProgress().step > 8);
        QVERIFY(panel.stopButton()->isEnabled());
        QVERIFY(!panel.logDirectoryEdit()->isEnabled());
        panel.stop();
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.back().at(0).toBool());
    }

    /// A new graph (no project file) trains in a fresh runs/untitled-N of the user's data folder,
    /// one N per document; an example in a read-only folder trains under the user's data folder;
    /// Save As moves a log directory the user did not choose to runs/<name> beside the file.
    void defaultLogDirectories()
    {
        TrainingPanel panel(m_registries.get());
        node_editor::NodeEditor first(m_registries.get());
        node_editor::NodeEditor second(m_registries.get());
        bindDocument(panel, first, QStringLiteral("Untitled graph"));
        const QString one = panel.logDirectoryEdit()->text();
        QVERIFY2(one.startsWith(userRuns() + QStringLiteral("/untitled-")), qPrintable(one));
        QVERIFY(!QFileInfo::exists(one));
        bindDocument(panel, second, QStringLiteral("Untitled graph"));
        const QString two = panel.logDirectoryEdit()->text();
        QVERIFY2(two.startsWith(userRuns() + QStringLiteral("/untitled-")), qPrintable(two));
        QVERIFY(one != two);
        bindDocument(panel, first, QStringLiteral("Untitled graph"));
        QCOMPARE(panel.logDirectoryEdit()->text(), one);

        // A read-only install of the example.
        QTemporaryDir dir;
        const QString readOnly = dir.filePath(QStringLiteral("installed"));
        QVERIFY(QDir().mkpath(readOnly));
        const QString file = copySpirals(readOnly);
        QVERIFY(!file.isEmpty());
        namespace fs = std::filesystem;
        fs::permissions(readOnly.toStdString(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                        fs::perm_options::remove);
        node_editor::NodeEditor example(m_registries.get());
        QVERIFY(example.openFile(file).isOk());
        bindDocument(panel, example, QStringLiteral("spirals.tsproj"));
        fs::permissions(readOnly.toStdString(), fs::perms::owner_write, fs::perm_options::add);
        QCOMPARE(panel.logDirectoryEdit()->text(), userRuns() + QStringLiteral("/spirals"));

        // Writable again, saved under another name: runs/<name> beside the new file.
        QVERIFY(example.saveAs(dir.filePath(QStringLiteral("mine.tsproj"))).isOk());
        bindDocument(panel, example, QStringLiteral("mine.tsproj"));
        QCOMPARE(panel.logDirectoryEdit()->text(), dir.filePath(QStringLiteral("runs/mine")));
    }

    /// "Continue" over a checkpoint of another graph is refused before anything runs, naming the
    /// variables that do not match; the checkpoint stays as it was.
    void continueRefusesAnotherGraphsCheckpoint()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath(QStringLiteral("run"));
        node_editor::NodeEditor adam(m_registries.get());
        QVERIFY(adam.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        bind(panel, adam, logdir, 5);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.back().at(0).toBool());

        // The same network trained by plain gradient descent: none of Adam's slots.
        auto loaded = project::loadProject(kSpirals);
        QVERIFY(loaded);
        project::Project plain = *loaded;
        plain.graph.file = (std::filesystem::path(kSpirals).parent_path() / plain.graph.file).string();
        plain.training.optimizer->type = "GradientDescent";
        plain.training.optimizer->numbers.clear();
        const QString file = dir.filePath(QStringLiteral("plain.tsproj"));
        QVERIFY(project::saveProject(plain, file.toStdString()).isOk());
        node_editor::NodeEditor other(m_registries.get());
        QVERIFY(other.openFile(file).isOk());
        bind(panel, other, logdir, 10);
        panel.resumeBox()->setChecked(true);
        QSignalSpy started(&panel, &TrainingPanel::runStarted);
        // The comparison builds the training graph: off the GUI thread, the panel saying so meanwhile.
        QVERIFY(panel.start());
        QVERIFY2(panel.statusText().contains(QStringLiteral("Checking the checkpoint")), qPrintable(panel.statusText()));
        QVERIFY(panel.isRunning());
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(!panel.start()); // one run (or check) at a time
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.size(), 2);
        QVERIFY(!finished.back().at(0).toBool());
        QVERIFY(!panel.isRunning());
        QVERIFY(panel.startButton()->isEnabled());
        const QString status = panel.statusText();
        QVERIFY2(finished.back().at(1).toString().startsWith(QStringLiteral("Not continued: ")),
                 qPrintable(finished.back().at(1).toString()));
        QVERIFY2(status.contains(QStringLiteral("Not continued: the latest checkpoint in %1 (model.ckpt-5) is not of this graph").arg(logdir)),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("that are not in the graph (beta1_power, beta2_power, dense/bias/Adam and ")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("Untick \"Continue from the latest checkpoint\" or choose another log directory")),
                 qPrintable(status));
        QCOMPARE(started.size(), 0);
        auto latest = latestCheckpoint(logdir.toStdString());
        QVERIFY(latest);
        QCOMPARE(QString::fromStdString(latest->filename().string()), QStringLiteral("model.ckpt-5"));

        // Its own checkpoint continues.
        bind(panel, adam, logdir, 7);
        panel.resumeBox()->setChecked(true);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.back().at(0).toBool(), qPrintable(panel.statusText()));
        QCOMPARE(panel.lastProgress().firstStep, std::int64_t(5));
    }

    /// While "Continue" checks a 100 MB checkpoint against the graph, the GUI thread's event loop
    /// keeps turning: no gap between two turns of 50 ms or more, from Start until the refusal.
    void staysResponsiveWhileA100MBCheckpointIsChecked()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath(QStringLiteral("run"));
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(QString::fromLatin1(kSpirals)).isOk());
        TrainingPanel panel(m_registries.get());
        bind(panel, editor, logdir, 3);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.back().at(0).toBool());

        // Step 4's checkpoint: step 3's tensors and a 100 MB one the graph does not have.
        const std::filesystem::path run = logdir.toStdString();
        auto latest = latestCheckpoint(run);
        QVERIFY(latest);
        auto reader = CheckpointReader::open(latest->string());
        QVERIFY(reader);
        CpuAllocator allocator;
        const std::filesystem::path big = run / "model.ckpt-4";
        {
            auto writer = TensorBundleWriter::create(big.string());
            QVERIFY(writer);
            for (const BundleTensorInfo& info : reader->tensors()) {
                auto tensor = reader->read(info.name, allocator);
                QVERIFY(tensor);
                QVERIFY((*writer)->add(info.name, *tensor).isOk());
            }
            auto huge = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape{5000, 5000});
            QVERIFY(huge);
            QVERIFY((*writer)->add("huge/kernel", *huge).isOk());
            QVERIFY((*writer)->finish().isOk());
        }
        QVERIFY(std::filesystem::file_size(big.string() + ".data-00000-of-00001") >= 100'000'000);
        QVERIFY(writeCheckpointState(run, big, {*latest, big}).isOk());

        QElapsedTimer clock;
        qint64 last = 0;
        qint64 longest = 0;
        QTimer tick;
        tick.setInterval(5);
        connect(&tick, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            longest = std::max(longest, now - last);
            last = now;
        });
        bind(panel, editor, logdir, 6);
        panel.resumeBox()->setChecked(true);
        clock.start();
        tick.start();
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        tick.stop();
        longest = std::max(longest, clock.elapsed() - last);
        QVERIFY2(!finished.back().at(0).toBool(), qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("huge/kernel")), qPrintable(panel.statusText()));
        qInfo("checked a 100 MB checkpoint in %lld ms; longest event-loop gap %lld ms", clock.elapsed(), longest);
        QVERIFY2(longest < 50, qPrintable(QStringLiteral("the GUI thread stood still for %1 ms").arg(longest)));
    }

    /// Closing a document's tab (destroying the editor) empties the panel; a run of it stops with
    /// its final checkpoint.
    void closingTheDocumentEmptiesThePanel()
    {
        QTemporaryDir dir;
        TrainingPanel panel(m_registries.get());
        auto* empty = panel.findChild<EmptyState*>();
        QVERIFY(empty);
        QVERIFY(!empty->isHidden());
        auto editor = std::make_unique<node_editor::NodeEditor>(m_registries.get());
        QVERIFY(editor->openFile(QString::fromLatin1(kSpirals)).isOk());
        bindDocument(panel, *editor, QStringLiteral("spirals.tsproj"));
        QVERIFY(empty->isHidden());
        QVERIFY(panel.startButton()->isEnabled());
        panel.logDirectoryEdit()->setText(dir.path());
        panel.stepsBox()->setValue(1000000);
        QSignalSpy progressed(&panel, &TrainingPanel::progressed);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 1, 30000);
        editor.reset();
        QVERIFY(!empty->isHidden());
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(!panel.distributedButton()->isEnabled());
        QVERIFY(!panel.runningDocument());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.back().at(0).toBool());
        QVERIFY(!panel.isRunning());
        auto latest = latestCheckpoint(dir.path().toStdString());
        QVERIFY(latest);
        QVERIFY(!panel.start());
        QVERIFY(empty && !empty->isHidden());
    }

    /// The form's steps, log directory and data folder go into the document's project (it is
    /// modified); saved and opened again, the project trains the same way.
    void formEditsAreSavedWithTheProject()
    {
        QTemporaryDir dir;
        const QString file = copySpirals(dir.path());
        QVERIFY(!file.isEmpty());
        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(file).isOk());
        TrainingPanel panel(m_registries.get());
        bindDocument(panel, editor, QStringLiteral("spirals.tsproj"));
        QVERIFY(!editor.isModified());
        panel.stepsBox()->setValue(321);
        QVERIFY(editor.isModified());
        panel.logDirectoryEdit()->selectAll();
        QTest::keyClicks(panel.logDirectoryEdit(), dir.filePath(QStringLiteral("runs/custom")));
        QCOMPARE(editor.project()->steps, std::int64_t(321));
        QCOMPARE(editor.project()->logdir, std::string("runs/custom"));
        QVERIFY(editor.saveAs(file).isOk());
        QVERIFY(!editor.isModified());
        auto reopened = project::loadProject(file.toStdString());
        QVERIFY2(reopened, reopened ? "" : reopened.error().toString().c_str());
        QCOMPARE(reopened->steps, std::int64_t(321));
        QCOMPARE(reopened->logdir, std::string("runs/custom"));

        // Opened in another editor: the panel shows what was saved.
        node_editor::NodeEditor again(m_registries.get());
        QVERIFY(again.openFile(file).isOk());
        bindDocument(panel, again, QStringLiteral("spirals.tsproj"));
        QCOMPARE(panel.stepsBox()->value(), 321);
        QCOMPARE(panel.logDirectoryEdit()->text(), dir.filePath(QStringLiteral("runs/custom")));
        // Filling the form is no edit.
        QVERIFY(!again.isModified());
    }

    /// Saved As under another name after training in its own log folder, the project keeps that
    /// run's folder (project::relocatedProject), so Continue goes on with it; an untrained project
    /// takes a folder of the new name.
    void saveAsKeepsTheTrainedLogFolder()
    {
        QTemporaryDir dir;
        const QString file = copySpirals(dir.path());
        QVERIFY(!file.isEmpty());
        node_editor::NodeEditor untrained(m_registries.get());
        QVERIFY(untrained.openFile(file).isOk());
        QVERIFY(untrained.saveAs(dir.filePath(QStringLiteral("fresh.tsproj"))).isOk());
        QCOMPARE(untrained.project()->logdir, std::string("runs/fresh"));

        node_editor::NodeEditor editor(m_registries.get());
        QVERIFY(editor.openFile(file).isOk());
        TrainingPanel panel(m_registries.get());
        bindDocument(panel, editor, QStringLiteral("spirals.tsproj"));
        QCOMPARE(panel.logDirectoryEdit()->text(), dir.filePath(QStringLiteral("runs/spirals")));
        panel.stepsBox()->setValue(3);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY2(panel.start(), qPrintable(panel.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.back().at(0).toBool(), qPrintable(panel.statusText()));
        QVERIFY(editor.saveAs(dir.filePath(QStringLiteral("copy.tsproj"))).isOk());
        QCOMPARE(editor.project()->logdir, std::string("runs/spirals"));
        auto reopened = project::loadProject(dir.filePath(QStringLiteral("copy.tsproj")).toStdString());
        QVERIFY2(reopened, reopened ? "" : reopened.error().toString().c_str());
        QCOMPARE(reopened->resolve(reopened->logdir).lexically_normal().string(),
                 dir.filePath(QStringLiteral("runs/spirals")).toStdString());
    }
};

QTEST_MAIN(TestTrainingPanel)
#include "test_training_panel.moc"
