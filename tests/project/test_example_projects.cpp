// The example projects' committed graph files must be what the example builders make now. Run with
// TSTUDIO_REGENERATE_EXAMPLE_PROJECTS=1 to rewrite them (then review the diff).
#include "project/format/example_projects.h"
#include "io/atomic_file.h"
#include "registries/default_registries.h"

#include <QTest>

#include <cstdlib>
#include <filesystem>

using namespace tstudio;

namespace {

std::filesystem::path projectsDir()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
}

} // namespace

class TestExampleProjects : public QObject {
    Q_OBJECT
private slots:
    void committedGraphFilesMatchTheBuilders()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries.has_value(), registries ? "" : registries.error().toString().c_str());
        auto files = project::exampleGraphFiles((*registries)->ops);
        QVERIFY2(files.has_value(), files ? "" : files.error().toString().c_str());
        QCOMPARE(files->size(), std::size_t{8});
        const bool regenerate = std::getenv("TSTUDIO_REGENERATE_EXAMPLE_PROJECTS") != nullptr;
        for (const project::ExampleGraphFile& file : *files) {
            const std::filesystem::path path = projectsDir() / file.fileName;
            if (regenerate) {
                const Status s = writeFileAtomically(path, file.bytes);
                QVERIFY2(s.isOk(), s.toString().c_str());
                continue;
            }
            auto committed = readWholeFile(path, 64u << 20);
            QVERIFY2(committed.has_value(), committed ? "" : committed.error().toString().c_str());
            const std::string message = path.string() + " differs from what the builder makes now; regenerate it "
                                                        "with TSTUDIO_REGENERATE_EXAMPLE_PROJECTS=1 "
                                                        "test_example_projects and review the diff";
            QVERIFY2(*committed == file.bytes, message.c_str());
        }
    }

    void forwardGraphHasNoOptimizer()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        auto files = project::exampleGraphFiles((*registries)->ops);
        QVERIFY(files.has_value());
        const std::string& spirals = files->front().bytes;
        QCOMPARE(files->front().fileName, std::string("spirals_forward.pbtxt"));
        // The layers, the loss and the accuracy are there; Adam, the global step and init are not.
        QVERIFY(spirals.find("name: \"dense/kernel\"") != std::string::npos);
        QVERIFY(spirals.find("name: \"dense/kernel/Assign\"") != std::string::npos);
        QVERIFY(spirals.find("name: \"accuracy/Mean\"") != std::string::npos);
        QVERIFY(spirals.find("Adam") == std::string::npos);
        QVERIFY(spirals.find("global_step") == std::string::npos);
        QVERIFY(spirals.find("name: \"init\"") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestExampleProjects)
#include "test_example_projects.moc"
