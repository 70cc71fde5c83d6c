// The Training panel's own sections and words: the sources' folders with Browse… (data_folders_section),
// "Evaluate while training" (evaluation_section) read from and written into a project, and settings
// problems told in the panel's words (training_advice) instead of the command line's flags.
#include "project/run/eval_metrics.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "training/data_folders_section.h"
#include "training/evaluation_section.h"
#include "training/training_advice.h"
#include "training/training_panel.h"

#include "../../support/shared_registries.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::training_panel;
using json = nlohmann::json;

namespace {

std::filesystem::path examples()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

project::Project example(const char* file)
{
    auto p = project::loadProject(examples() / file);
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    return *p;
}

/// An image folder source "photos" feeding x, and an mnist eval source with its own folder.
project::Project foldersProject(const std::filesystem::path& dir)
{
    json doc = {{"format", "tensorstudio-project"},
                {"version", 1},
                {"graph", {{"pbtxt", "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }"}}},
                {"data",
                 {{"sources",
                   {{{"type", "image_folder"}, {"dir", "photos"}, {"height", 2}, {"width", 2}, {"feeds", {{"x", "images"}}}}}}}},
                {"training", {{"loss", "x:0"}, {"train_op", "x"}}},
                {"eval",
                 {{"sources", {{{"type", "mnist"}, {"dir", "/data/mnist"}, {"feeds", {{"x", "images"}}}}}},
                  {"every_steps", 10}}}};
    auto p = project::parseProject(doc.dump(), "f.tsproj");
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    p->location = dir / "f.tsproj";
    return *p;
}

} // namespace

class TestTrainingSections : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void guiWordsForSettingsProblems()
    {
        const QString noData = QStringLiteral("lenet.tsproj: data.sources[0] (mnist): data.dir: not set; it must name a folder");
        QCOMPARE(withGuiAdvice(noData), noData + QStringLiteral("; set the Data folder in the Training panel (Browse…)"));
        const QString own = QStringLiteral("f.tsproj: data.sources[1] (image_folder): data.sources[1].dir: no folder '/x'");
        QCOMPARE(withGuiAdvice(own), own + QStringLiteral("; set \"Source 2 folder\" in the Training panel (Browse…)"));
        const QString eval = QStringLiteral("eval.sources[0].dir: no folder '/y'");
        QCOMPARE(withGuiAdvice(eval), eval + QStringLiteral("; set \"Eval source 1 folder\" in the Training panel (Browse…)"));
        const QString held = QStringLiteral("logdir: '/r' already holds checkpoints (latest model.ckpt-5)");
        QCOMPARE(withGuiAdvice(held), held + QStringLiteral("; tick \"Continue from the latest checkpoint in the log "
                                                            "directory\" in the Training panel, or choose another Log "
                                                            "directory"));
        const QString other = QStringLiteral("training.loss: 'x:0' is not in the graph");
        QCOMPARE(withGuiAdvice(other), other);
        for (const QString& m : {noData, own, eval, held})
            QVERIFY2(!withGuiAdvice(m).contains(QLatin1String("--")), qPrintable(withGuiAdvice(m)));
        // The row the advice names is the row the section shows.
        QCOMPARE(sourceFolderLabel("data.sources[1].dir", "image_folder"),
                 QStringLiteral("Source 2 folder (image_folder)"));
    }

    void sourceFoldersAreRowsWithBrowse()
    {
        QTemporaryDir dir;
        project::Project p = foldersProject(dir.path().toStdString());
        DataFoldersSection section;
        QSignalSpy edited(&section, &DataFoldersSection::edited);
        section.fillFrom(p);
        QVERIFY(!section.isHidden());
        QCOMPARE(section.fields(), (std::vector<std::string>{"data.sources[0].dir", "eval.sources[0].dir"}));
        QCOMPARE(section.folderEdit("data.sources[0].dir")->text(), QStringLiteral("photos"));
        QCOMPARE(section.folderEdit("eval.sources[0].dir")->text(), QStringLiteral("/data/mnist"));
        QVERIFY(section.browseButton("data.sources[0].dir"));
        QCOMPARE(section.browseButton("eval.sources[0].dir")->text(), QStringLiteral("Browse…"));

        QLineEdit* photos = section.folderEdit("data.sources[0].dir");
        photos->selectAll();
        QTest::keyClicks(photos, QStringLiteral("/data/pictures"));
        QVERIFY(edited.count() > 0);
        section.applyTo(p);
        QCOMPARE(std::get<project::ImageFolderParams>(p.sources[0].params).dir, std::string("/data/pictures"));
        QVERIFY(section.missingFolders().isEmpty());
        // The same project again (after the user's own edit reached it): the rows stay, texts follow.
        QLineEdit* before = section.folderEdit("data.sources[0].dir");
        section.fillFrom(p);
        QCOMPARE(section.folderEdit("data.sources[0].dir"), before);
        QCOMPARE(before->text(), QStringLiteral("/data/pictures"));

        // An mnist source's empty folder is null: it reads data.dir, and has no row of its own then.
        section.folderEdit("eval.sources[0].dir")->clear();
        section.applyTo(p);
        QVERIFY(!std::get<project::MnistParams>(p.eval->sources[0].source.params).dir);
        section.fillFrom(p);
        QCOMPARE(section.fields(), std::vector<std::string>{"data.sources[0].dir"});
        photos = section.folderEdit("data.sources[0].dir");
        photos->clear();
        QCOMPARE(section.missingFolders(), QStringLiteral("Source 1 folder (image_folder): choose a folder (Browse…)"));
        // Projects without source folders (lenet reads data.dir) hide the section.
        section.fillFrom(example("lenet.tsproj"));
        QVERIFY(section.isHidden());
        QVERIFY(section.fields().empty());
    }

    /// A project's eval section read into the form and written back unchanged.
    void evaluationRoundTrips_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("mode");
        QTest::newRow("mnist-notes: a held-out split") << "mnist-notes.tsproj" << int(project::EvalDataChoice::Mode::kSplit);
        QTest::newRow("ptb-small: another file") << "ptb-small.tsproj" << int(project::EvalDataChoice::Mode::kOther);
    }

    void evaluationRoundTrips()
    {
        QFETCH(QString, file);
        QFETCH(int, mode);
        const project::Project p = example(file.toUtf8().constData());
        EvaluationSection section(&testing::sharedRegistries());
        section.fillFrom(p);
        QVERIFY(!section.isHidden());
        QVERIFY(section.enabledBox()->isChecked());
        QCOMPARE(section.modeBox()->currentData().toInt(), mode);
        QCOMPARE(section.everyStepsBox()->value(), static_cast<int>(*p.eval->everySteps));
        project::Project q = p;
        QVERIFY(section.applyTo(q).isOk());
        QVERIFY(q.eval == p.eval);
        if (file == QLatin1String("mnist-notes.tsproj")) {
            QCOMPARE(section.skipBox()->value(), 8000);
            QCOMPARE(section.takeBox()->value(), 2000);
            QVERIFY(section.metricBox("accuracy")->isChecked());
            QCOMPARE(section.topKBox()->value(), 3);
        } else {
            QCOMPARE(section.otherEdit()->text(), QStringLiteral("ptb.valid.txt"));
            QVERIFY(section.metricBox("perplexity")->isChecked());
        }
        // Unticked: no eval section in the project.
        section.enabledBox()->setChecked(false);
        QVERIFY(section.applyTo(q).isOk());
        QVERIFY(!q.eval);
    }

    /// A classifier without an eval section: turned on, the form's choice trains and evaluates.
    void evaluationTurnedOnTrains()
    {
        project::Project p = example("spirals.tsproj");
        QVERIFY(!p.eval);
        EvaluationSection section(&testing::sharedRegistries());
        QSignalSpy edited(&section, &EvaluationSection::edited);
        section.fillFrom(p);
        QVERIFY(!section.enabledBox()->isChecked());
        // The generator's other points: a new seed.
        QCOMPARE(section.modeBox()->currentData().toInt(), int(project::EvalDataChoice::Mode::kOther));
        QCOMPARE(section.otherEdit()->text(), QStringLiteral("2"));
        QVERIFY(section.metricBox("loss") && section.metricBox("loss")->isChecked());
        QVERIFY(section.metricBox("accuracy") && section.metricBox("accuracy")->isChecked());
        QVERIFY(!section.metricBox("perplexity"));
        section.enabledBox()->setChecked(true);
        QCOMPARE(edited.count(), 1);
        section.everyStepsBox()->setValue(3);
        QVERIFY(section.applyTo(p).isOk());
        QVERIFY(p.eval);
        QCOMPARE(p.eval->everySteps.value_or(0), std::int64_t(3));
        QCOMPARE(std::get<project::TwoSpiralsParams>(p.eval->sources.at(0).source.params).seed, std::int64_t(2));

        // What the form wrote is a project that saves, reopens and trains with its evaluations.
        QTemporaryDir dir;
        const std::filesystem::path saved = std::filesystem::path(dir.path().toStdString()) / "spirals.tsproj";
        p.graph.file = (examples() / p.graph.file).string();
        QVERIFY(project::saveProject(p, saved).isOk());
        auto again = project::loadProject(saved);
        QVERIFY2(again, again ? "" : again.error().toString().c_str());
        QVERIFY(again->eval == p.eval);
        project::TrainRunOptions options;
        options.steps = 6;
        options.logdir = saved.parent_path() / "run";
        auto result = project::trainProject(*again, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->evaluations.size(), std::size_t(2)); // steps 3 and 6
        for (const project::EvalResult& r : result->evaluations) {
            QVERIFY(r.metric("loss"));
            auto accuracy = r.metric("accuracy");
            QVERIFY(accuracy && *accuracy >= 0.0 && *accuracy <= 1.0);
        }

        // An unfinished choice is refused in the panel's words, and the project is left as it was.
        section.otherEdit()->clear();
        project::Project untouched = example("spirals.tsproj");
        const Status s = section.applyTo(untouched);
        QVERIFY(!s.isOk());
        QCOMPARE(QString::fromStdString(s.message()), QStringLiteral("Evaluation: enter the seed of the points to evaluate on"));
        QVERIFY(!untouched.eval);
    }

    /// The source folder rows line up with the form above them: every folder field starts where the log
    /// directory's field does, and every Browse… button of the form's column shares its left and right x.
    void folderRowsLineUpWithTheForm()
    {
        QTemporaryDir dir;
        project::Project document = foldersProject(dir.path().toStdString());
        QObject owner;
        TrainingPanel panel(&testing::sharedRegistries());
        panel.setProjectSource([&document]() -> Expected<project::Project> { return document; },
                               QStringLiteral("f.tsproj"), &owner,
                               [&document](const std::function<void(project::Project&)>& edit) { edit(document); });
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto left = [&panel](const QWidget* w) { return w->mapTo(&panel, QPoint(0, 0)).x(); };
        const int fieldX = left(panel.logDirectoryEdit());
        const std::vector<std::string> fields = panel.sourceFoldersSection()->fields();
        QCOMPARE(fields.size(), std::size_t(2));
        QList<QPushButton*> browses;
        for (const std::string& field : fields) {
            QLineEdit* edit = panel.sourceFoldersSection()->folderEdit(field);
            QVERIFY(edit->isVisible());
            QCOMPARE(left(edit), fieldX);
            // The field ends where the log directory's does: the buttons after them are as wide.
            QCOMPARE(left(edit) + edit->width(), fieldX + panel.logDirectoryEdit()->width());
            browses << panel.sourceFoldersSection()->browseButton(field);
        }
        // The form's own Browse… buttons (log directory, warm start), outside the evaluation box.
        for (QPushButton* button : panel.findChildren<QPushButton*>())
            if (button->isVisible() && button->text() == QStringLiteral("Browse…") &&
                !panel.evaluationSection()->isAncestorOf(button) && !browses.contains(button))
                browses << button;
        QVERIFY(browses.size() >= 4);
        for (QPushButton* button : std::as_const(browses)) {
            QCOMPARE(left(button), left(browses.front()));
            QCOMPARE(button->width(), browses.front()->width());
        }
    }

    /// The panel: its sections are filled from the project, their edits reach the document's
    /// project, Start trains with them, and a folder problem is told in the panel's words.
    void panelUsesTheSections()
    {
        QTemporaryDir dir;
        project::Project document = foldersProject(dir.path().toStdString());
        QObject owner; // the document; outlives the panel
        TrainingPanel panel(&testing::sharedRegistries());
        panel.setProjectSource([&document]() -> Expected<project::Project> { return document; },
                               QStringLiteral("f.tsproj"), &owner,
                               [&document](const std::function<void(project::Project&)>& edit) { edit(document); });
        QVERIFY(!panel.sourceFoldersSection()->isHidden());
        QVERIFY(!panel.evaluationSection()->isHidden());
        QVERIFY(panel.evaluationSection()->enabledBox()->isChecked());

        // Typing a folder edits the document's project.
        QLineEdit* photos = panel.sourceFoldersSection()->folderEdit("data.sources[0].dir");
        QVERIFY(photos);
        photos->selectAll();
        QTest::keyClicks(photos, dir.path() + QStringLiteral("/missing"));
        QCOMPARE(std::get<project::ImageFolderParams>(document.sources[0].params).dir,
                 (dir.path() + QStringLiteral("/missing")).toStdString());
        // Unticking the evaluation removes the project's eval section.
        panel.evaluationSection()->enabledBox()->setChecked(false);
        QVERIFY(!document.eval);

        panel.logDirectoryEdit()->setText(dir.path() + QStringLiteral("/run"));
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString status = QTextDocumentFragment::fromHtml(panel.statusText()).toPlainText();
        QVERIFY2(status.contains(QStringLiteral("data.sources[0].dir: no folder")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("set \"Source 1 folder\" in the Training panel (Browse…)")),
                 qPrintable(status));
        QVERIFY2(!status.contains(QStringLiteral("--set")), qPrintable(status));
    }
};

QTEST_MAIN(TestTrainingSections)
#include "test_training_sections.moc"
