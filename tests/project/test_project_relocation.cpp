// relocatedProject: Save As under another name or folder keeps the project whole (name, log
// folder, a trained run's folder, relative paths naming the same files); storedLogDirectory.
#include "project/format/project_file.h"
#include "project/format/project_relocation.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace tstudio::project;

class TestProjectRelocation : public QObject {
    Q_OBJECT
private slots:
    /// Saved as b.tsproj beside a.tsproj: named "b", logging to runs/b; relative paths unchanged.
    void aNewNameTakesTheNameAndItsOwnLogFolder()
    {
        Project p;
        p.name = "a";
        p.logdir = "runs/a";
        p.location = "/work/p/a.tsproj";
        p.graph.file = "graph.pbtxt";
        MnistParams mnist;
        mnist.dir = "data/mnist";
        p.sources.push_back(DataSource{mnist, std::nullopt, 1, {}});
        const Project q = relocatedProject(p, "/work/p/b.tsproj");
        QCOMPARE(q.name, std::string("b"));
        QCOMPARE(q.logdir, std::string("runs/b"));
        QCOMPARE(q.graph.file, std::string("graph.pbtxt"));
        QCOMPARE(*std::get<MnistParams>(q.sources[0].params).dir, std::string("data/mnist"));
        QCOMPARE(q.location, std::filesystem::path("/work/p/b.tsproj"));
        QCOMPARE(q.resolve(q.logdir), std::filesystem::path("/work/p/runs/b"));
    }

    /// A name and a log folder the user chose are kept; paths into the old folder are rebased so
    /// they name the same files from the new one; absolute paths never change.
    void anotherFolderRebasesRelativePaths()
    {
        Project p;
        p.name = "Two spirals";
        p.logdir = "logs";
        p.location = "/work/p/a.tsproj";
        p.graph.file = "model/graph.pbtxt";
        CsvParams csv;
        csv.files = {"data/train.csv", "/abs/test.csv"};
        p.sources.push_back(DataSource{csv, std::nullopt, 1, {}});
        const Project q = relocatedProject(p, "/work/other/deep/c.tsproj");
        QCOMPARE(q.name, std::string("Two spirals"));
        QCOMPARE(q.logdir, std::string("logs")); // next to the new file
        QCOMPARE(q.graph.file, std::string("../../p/model/graph.pbtxt"));
        QCOMPARE(q.resolve(q.graph.file).lexically_normal(), std::filesystem::path("/work/p/model/graph.pbtxt"));
        const auto& files = std::get<CsvParams>(q.sources[0].params).files;
        QCOMPARE(files[0], std::string("../../p/data/train.csv"));
        QCOMPARE(files[1], std::string("/abs/test.csv"));

        // Files relative to data.dir move with data.dir only.
        Project withDataDir = p;
        withDataDir.dataDir = "data";
        const Project r = relocatedProject(withDataDir, "/work/other/c.tsproj");
        QCOMPARE(*r.dataDir, std::string("../p/data"));
        QCOMPARE(std::get<CsvParams>(r.sources[0].params).files[0], std::string("data/train.csv"));
    }

    /// Eval sources and the export section's paths follow the project too; a split of a training
    /// source is the moved source with its own skip and take.
    void evalSourcesAndExportPathsMove()
    {
        Project p;
        p.name = "n";
        p.location = "/work/p/a.tsproj";
        NumpyParams train;
        train.files = {"data/x.npy"};
        train.take = 800;
        p.sources.push_back(DataSource{train, std::nullopt, 1, {}});
        EvalSettings eval;
        EvalSource split;
        split.from = 0;
        split.skip = 800;
        split.take = 200;
        split.source = p.sources[0];
        EvalSource own;
        CsvParams csv;
        csv.files = {"held/out.csv"};
        own.source = DataSource{csv, std::nullopt, 1, {}};
        eval.sources = {split, own};
        p.eval = eval;
        ExportSettings exporting;
        exporting.savedModel = "export/sm";
        exporting.frozenGraph = "/abs/frozen.pb";
        p.exportSettings = exporting;
        const Project q = relocatedProject(p, "/work/other/c.tsproj");
        const auto& moved = std::get<NumpyParams>(q.eval->sources[0].source.params);
        QCOMPARE(moved.files, std::vector<std::string>{"../p/data/x.npy"});
        QCOMPARE(moved.skip, std::int64_t(800));
        QCOMPARE(moved.take, std::int64_t(200));
        QCOMPARE(std::get<CsvParams>(q.eval->sources[1].source.params).files[0], std::string("../p/held/out.csv"));
        QCOMPARE(q.exportSettings->savedModel, std::string("../p/export/sm"));
        QCOMPARE(q.exportSettings->frozenGraph, std::string("/abs/frozen.pb"));
    }

    /// A project never saved (the editor's "model", logging to runs/model) takes the file's name.
    void aNewProjectTakesTheFilesName()
    {
        Project p;
        p.name = "model";
        p.logdir = "runs/model";
        const Project q = relocatedProject(p, "/tmp/x/mnist.tsproj");
        QCOMPARE(q.name, std::string("mnist"));
        QCOMPARE(q.logdir, std::string("runs/mnist"));
    }

    /// A log folder a run trained in (it holds a checkpoint state) stays the project's after Save As
    /// under another name or folder: relative when it lies inside the new file's folder, else
    /// absolute. Without a checkpoint the usual rule holds (runs/a -> runs/b).
    void aTrainedLogFolderStaysTheProjects()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path root = dir.path().toStdString();
        Project p;
        p.name = "a";
        p.logdir = "runs/a";
        p.location = root / "a.tsproj";
        std::filesystem::create_directories(root / "runs" / "a");
        QCOMPARE(relocatedProject(p, root / "b.tsproj").logdir, std::string("runs/b")); // an empty folder: not a run

        std::ofstream(root / "runs" / "a" / "checkpoint") << "model_checkpoint_path: \"model.ckpt-5\"\n";
        const Project sameFolder = relocatedProject(p, root / "b.tsproj");
        QCOMPARE(sameFolder.name, std::string("b"));
        QCOMPARE(sameFolder.logdir, std::string("runs/a"));
        const Project deeper = relocatedProject(p, root / "copies" / "c.tsproj");
        QCOMPARE(deeper.logdir, (root / "runs" / "a").generic_string()); // outside copies/: absolute
        QCOMPARE(deeper.resolve(deeper.logdir), root / "runs" / "a");
        // A relative log folder not named after the project stays relative to the file, unless trained.
        p.logdir = "logs";
        QCOMPARE(relocatedProject(p, root / "copies" / "c.tsproj").logdir, std::string("logs"));
        std::filesystem::create_directories(root / "logs");
        std::ofstream(root / "logs" / "checkpoint") << "model_checkpoint_path: \"model.ckpt-5\"\n";
        QCOMPARE(relocatedProject(p, root / "copies" / "c.tsproj").logdir, (root / "logs").generic_string());
        QCOMPARE(relocatedProject(p, root / "b.tsproj").logdir, std::string("logs")); // the same folder
    }

    /// A chosen folder inside the project's folder is stored relative to it, others absolute.
    void storedLogDirectories()
    {
        Project saved;
        saved.logdir = "runs/a";
        saved.location = "/work/projects/a.tsproj";
        QCOMPARE(storedLogDirectory(saved, "/work/projects/runs/b"), std::string("runs/b"));
        QCOMPARE(storedLogDirectory(saved, "/work/projects/runs/../other"), std::string("other"));
        QCOMPARE(storedLogDirectory(saved, "/work/projectsX/runs"), std::string("/work/projectsX/runs"));
        QCOMPARE(storedLogDirectory(saved, "/tmp/runs/b"), std::string("/tmp/runs/b"));
        Project unsaved;
        QCOMPARE(storedLogDirectory(unsaved, "/tmp/runs/b/"), std::string("/tmp/runs/b/"));
    }
};

QTEST_MAIN(TestProjectRelocation)
#include "test_project_relocation.moc"
