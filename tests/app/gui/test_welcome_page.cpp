// Offscreen tests of the welcome page: the example gallery's cards and what they need, one-click
// training of the spirals example, a folder card's check of its data, File ▸ Open Example, Help ▸
// Welcome, the Open dialog's first filter, and the welcome page in screenshot mode.
#include "app_settings.h"
#include "example_gallery.h"
#include "language_manager.h"
#include "main_window.h"
#include "window_test.h"
#include "screenshot.h"
#include "start_page.h"

#include "common/file_kind_text.h"
#include "dashboard/dashboard_view.h"
#include "node_editor/node_editor.h"
#include "project/format/project_file.h"
#include "training/training_panel.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace tstudio;

namespace {

const QString kShipped = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects");

/// Copies example projects (and the graph files they name) into `dir`, so that runs write there.
bool copyExamples(const QString& dir, const QStringList& files)
{
    for (const QString& file : files)
        if (!QFile::copy(kShipped + QLatin1Char('/') + file, dir + QLatin1Char('/') + file))
            return false;
    return true;
}

QPushButton* cardButton(StartPage* page, const QString& id, const char* name)
{
    QWidget* card = page->exampleCard(id);
    return card ? card->findChild<QPushButton*>(QLatin1String(name)) : nullptr;
}

} // namespace

class TestWelcomePage : public tstudio::testing::WindowTest {
    Q_OBJECT

    /// Clicks `id`'s Train and waits until its launch settles (the data folder is checked, the project
    /// read and the run started on workers); the card's message then, "" when the run started.
    QString trainFromCard(StartPage* page, const QString& id)
    {
        QSignalSpy settled(m_window.get(), &MainWindow::exampleTrainingSettled);
        QTest::mouseClick(cardButton(page, id, "trainButton"), Qt::LeftButton);
        if (page->cardMessage(id).isEmpty()) // else refused at once
            settled.wait(60000);
        return page->cardMessage(id);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // copies of examples go to a test folder
        qunsetenv("TSTUDIO_EXAMPLES_DIR");
    }

    void init()
    {
        QVERIFY(openWindow([](MainWindow& window) {
            window.setOpenErrorDialogs(false);
            window.resize(1280, 800);
        }));
    }

    void cleanup()
    {
        if (m_window && m_window->trainingPanel()->isRunning()) {
            m_window->trainingPanel()->stop();
            QTRY_VERIFY_WITH_TIMEOUT(!m_window->trainingPanel()->isRunning(), 60000);
        }
        closeWindow();
        qunsetenv("TSTUDIO_EXAMPLES_DIR");
    }

    /// Every shipped example whose .tsproj exists has a card, in the gallery's order, saying what
    /// data it needs; the folder cards say where to download it and take a folder, spirals does not.
    void galleryListsEachExampleWithItsData()
    {
        QCOMPARE(examplesDirectory(), QDir(kShipped).absolutePath());
        StartPage* page = m_window->startPage();
        QVERIFY(page->isVisible());
        QStringList expected;
        for (const GalleryExample& e : galleryExamples())
            if (QFileInfo::exists(kShipped + QLatin1Char('/') + e.fileName))
                expected << e.id;
        QVERIFY(expected.contains(QStringLiteral("spirals")));
        QVERIFY(expected.contains(QStringLiteral("lenet")));
        QVERIFY(expected.contains(QStringLiteral("ptb-small")));
        QCOMPARE(page->exampleIds(), expected);
        for (const QString& id : expected) {
            const GalleryExample e = *findGalleryExample(id);
            QWidget* card = page->exampleCard(id);
            QVERIFY(card);
            auto* data = card->findChild<QLabel*>(QStringLiteral("exampleData"));
            QVERIFY(data);
            QVERIFY2(data->text().contains(e.dataNeeded), qPrintable(id));
            // A picture made from the project's graph, not an empty box.
            auto* picture = card->findChild<QLabel*>(QStringLiteral("examplePicture"));
            QVERIFY2(picture && !picture->pixmap().isNull(), qPrintable(id));
            QVERIFY(cardButton(page, id, "trainButton"));
            QVERIFY(cardButton(page, id, "openButton"));
            auto* folder = card->findChild<QLineEdit*>(QStringLiteral("dataFolderEdit"));
            auto* download = card->findChild<QLabel*>(QStringLiteral("exampleDownload"));
            if (e.needsFolder) {
                QVERIFY2(folder && download, qPrintable(id));
                QVERIFY(download->text().contains(e.downloadUrl));
            } else {
                QVERIFY2(!folder && !download, qPrintable(id));
            }
        }
        QVERIFY(page->exampleCard(QStringLiteral("lenet"))->findChild<QLabel*>(QStringLiteral("exampleDownload"))
                    ->text().contains(QStringLiteral("https://storage.googleapis.com/cvdf-datasets/mnist/")));
        QVERIFY(page->exampleCard(QStringLiteral("ptb-small"))->findChild<QLabel*>(QStringLiteral("exampleDownload"))
                    ->text().contains(QStringLiteral("simple-examples.tgz")));

        // The grid reflows: fewer cards a row in a narrower window.
        m_window->resize(1280, 800);
        QTRY_VERIFY(page->galleryColumns() > 0);
        const int wide = page->galleryColumns();
        m_window->resize(760, 700);
        QTRY_VERIFY(page->galleryColumns() < wide);
    }

    /// TSTUDIO_EXAMPLES_DIR comes first; a card is shown only when its project is there.
    void examplesFolderFromTheEnvironment()
    {
        QTemporaryDir examples;
        QVERIFY(copyExamples(examples.path(), {"spirals.tsproj", "spirals_forward.pbtxt"}));
        qputenv("TSTUDIO_EXAMPLES_DIR", examples.path().toUtf8());
        QCOMPARE(examplesDirectory(), QDir(examples.path()).absolutePath());
        m_window->startPage()->refresh();
        QCOMPARE(m_window->startPage()->exampleIds(), QStringList{QStringLiteral("spirals")});
    }

    /// One click on spirals' Train opens the project in the node editor and starts a run in the
    /// Training panel, followed by a dashboard; a second click starts a fresh run beside the first
    /// instead of being refused for the checkpoints the first left.
    void spiralsTrainsInOneClick()
    {
        QTemporaryDir examples;
        QVERIFY(copyExamples(examples.path(), {"spirals.tsproj", "spirals_forward.pbtxt"}));
        qputenv("TSTUDIO_EXAMPLES_DIR", examples.path().toUtf8());
        StartPage* page = m_window->startPage();
        page->refresh();
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        QSignalSpy started(panel, &training_panel::TrainingPanel::runStarted);
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);

        trainFromCard(page, QStringLiteral("spirals"));
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText() + page->cardMessage(QStringLiteral("spirals"))));
        QCOMPARE(page->cardMessage(QStringLiteral("spirals")), QString());
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->widget(0));
        QVERIFY(editor);
        QCOMPARE(QFileInfo(editor->filePath()).absoluteFilePath(), QDir(examples.path()).absoluteFilePath("spirals.tsproj"));
        const QString firstRun = QDir(examples.path()).absoluteFilePath("runs/spirals");
        QCOMPARE(QDir::cleanPath(panel->logDirectoryEdit()->text()), firstRun);
        QTRY_VERIFY_WITH_TIMEOUT(started.count() > 0, 60000);
        // The dashboard follows the run, as it does a run started with Start.
        dashboard::DashboardView* dashboard = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dashboard = qobject_cast<dashboard::DashboardView*>(m_window->documents()->currentWidget())),
                                 30000);
        QCOMPARE(QDir::cleanPath(dashboard->logDirectories().value(0)), firstRun);
        panel->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QVERIFY(QFileInfo::exists(firstRun + QStringLiteral("/checkpoint")));

        // Again from the welcome page: the open tab is reused and the run goes to runs/spirals-2.
        m_window->showWelcome();
        QVERIFY(page->isVisible());
        const int tabs = m_window->documents()->count();
        trainFromCard(page, QStringLiteral("spirals"));
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText() + page->cardMessage(QStringLiteral("spirals"))));
        QCOMPARE(QDir::cleanPath(panel->logDirectoryEdit()->text()), firstRun + QStringLiteral("-2"));
        QVERIFY(m_window->documents()->count() <= tabs + 1); // at most a dashboard for the new run
        panel->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 60000);
    }

    /// A card that needs data says what is missing, naming the files and where to get them, and
    /// opens nothing until the folder holds them.
    void folderCardNamesWhatIsMissing()
    {
        StartPage* page = m_window->startPage();
        QWidget* card = page->exampleCard(QStringLiteral("lenet"));
        QVERIFY(card);
        auto* folder = card->findChild<QLineEdit*>(QStringLiteral("dataFolderEdit"));
        QVERIFY(folder);
        folder->clear();
        trainFromCard(page, QStringLiteral("lenet"));
        QString message = page->cardMessage(QStringLiteral("lenet"));
        QVERIFY2(message.contains(QStringLiteral("Choose the folder")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("t10k-images-idx3-ubyte")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("https://storage.googleapis.com/cvdf-datasets/mnist/")), qPrintable(message));

        QTemporaryDir empty;
        folder->setText(empty.path());
        trainFromCard(page, QStringLiteral("lenet"));
        message = page->cardMessage(QStringLiteral("lenet"));
        QVERIFY2(message.contains(QDir::toNativeSeparators(empty.path())), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("has no t10k-images-idx3-ubyte(.gz) and no t10k-labels-idx1-ubyte(.gz)")),
                 qPrintable(message));
        QCOMPARE(m_window->documents()->count(), 0);
        QVERIFY(!m_window->trainingPanel()->isRunning());

        // PTB's project fixes data.dir: the empty folder is refused by the same check, by file name.
        QWidget* ptb = page->exampleCard(QStringLiteral("ptb-small"));
        QVERIFY(ptb);
        ptb->findChild<QLineEdit*>(QStringLiteral("dataFolderEdit"))->setText(empty.path());
        trainFromCard(page, QStringLiteral("ptb-small"));
        message = page->cardMessage(QStringLiteral("ptb-small"));
        QVERIFY2(message.contains(QStringLiteral("has no ptb.train.txt and no ptb.valid.txt")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("simple-examples.tgz")), qPrintable(message));
    }

    /// With the MNIST files in the folder, LeNet's Train fills the Training panel's data folder and
    /// starts (skipped without the MNIST fixture).
    void mnistCardTrainsFromItsFolder()
    {
        const QString mnist = qEnvironmentVariable("TSTUDIO_FIXTURES") + QStringLiteral("/mnist");
        if (qEnvironmentVariableIsEmpty("TSTUDIO_FIXTURES") ||
            !QFileInfo::exists(mnist + QStringLiteral("/t10k-images-idx3-ubyte.gz")))
            QSKIP("needs the MNIST fixture: set TSTUDIO_FIXTURES to the shared fixtures folder");
        QTemporaryDir examples;
        QVERIFY(copyExamples(examples.path(), {"lenet.tsproj", "lenet.pbtxt"}));
        qputenv("TSTUDIO_EXAMPLES_DIR", examples.path().toUtf8());
        StartPage* page = m_window->startPage();
        page->refresh();
        page->exampleCard(QStringLiteral("lenet"))->findChild<QLineEdit*>(QStringLiteral("dataFolderEdit"))->setText(mnist);
        trainFromCard(page, QStringLiteral("lenet"));
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText() + page->cardMessage(QStringLiteral("lenet"))));
        QCOMPARE(panel->dataFolderEdit()->text(), QDir(mnist).absolutePath());
        QCOMPARE(QDir::cleanPath(panel->logDirectoryEdit()->text()), QDir(examples.path()).absoluteFilePath("runs/lenet"));
        // The folder is remembered for the next start.
        QCOMPARE(m_qsettings->value("examples/dataFolder/lenet").toString(), mnist);
        panel->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 120000);
    }

    /// PTB-small names its data folder itself (data.dir): training it from another folder opens a
    /// copy of the project that names that folder and still reads the shipped graph.
    void ptbTrainsFromACopyNamingItsFolder()
    {
        QTemporaryDir data;
        // Enough words for one batch (batch_size 20 x (num_steps 20 + 1)); the check reads names only.
        QFile train(data.filePath("ptb.train.txt")), valid(data.filePath("ptb.valid.txt"));
        QVERIFY(train.open(QIODevice::WriteOnly) && valid.open(QIODevice::WriteOnly));
        train.write(QByteArray("the cat sat on the mat\n").repeated(100));
        valid.write(QByteArray("the mat sat on the cat\n").repeated(100));
        train.close();
        valid.close();
        const GalleryExample ptb = *findGalleryExample(QStringLiteral("ptb-small"));
        QCOMPARE(missingExampleData(ptb, data.path()), QString());
        const auto launch = prepareExampleLaunch(ptb, data.path());
        QVERIFY2(launch.has_value(), qPrintable(launch.error()));
        QVERIFY(launch->panelDataFolder.isEmpty());
        QVERIFY(launch->projectPath != exampleProjectPath(ptb));
        auto copy = project::loadProject(launch->projectPath.toStdString());
        QVERIFY2(copy.has_value(), copy ? "" : copy.error().message().c_str());
        QCOMPARE(QString::fromStdString(copy->dataDir.value_or("")), QDir(data.path()).absolutePath());
        QCOMPARE(QString::fromStdString(copy->resolve(copy->graph.file).string()), kShipped + QStringLiteral("/ptb_small.pbtxt"));
        // MNIST projects read the panel's folder instead: their project is the shipped one.
        QTemporaryDir mnist;
        for (const char* name : {"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
            QFile f(mnist.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const auto lenet = prepareExampleLaunch(*findGalleryExample(QStringLiteral("lenet")), mnist.path());
        QVERIFY2(lenet.has_value(), qPrintable(lenet.error()));
        QCOMPARE(lenet->projectPath, exampleProjectPath(*findGalleryExample(QStringLiteral("lenet"))));
        QCOMPARE(lenet->panelDataFolder, QDir(mnist.path()).absolutePath());
    }

    /// File ▸ Open Example lists the examples found; an entry opens its project in the node editor.
    void openExampleSubmenu()
    {
        QMenu* menu = m_window->examplesMenu();
        QVERIFY(menu);
        QVERIFY(m_window->fileMenu()->actions().contains(menu->menuAction()));
        QStringList ids;
        for (QAction* action : menu->actions())
            if (action->objectName().startsWith(QStringLiteral("openExample.")))
                ids << action->objectName().mid(12);
        QStringList expected;
        for (const GalleryExample& e : availableExamples())
            expected << e.id;
        QCOMPARE(ids, expected);
        QAction* lenet = menu->findChild<QAction*>(QStringLiteral("openExample.lenet"));
        QVERIFY(lenet);
        QCOMPARE(lenet->text(), findGalleryExample(QStringLiteral("lenet"))->title);
        QSignalSpy opened(m_window.get(), &MainWindow::pathOpened);
        lenet->trigger();
        // The tab comes at once; the project is read on a worker, then shown.
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
        QVERIFY(editor);
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), kShipped + QStringLiteral("/lenet.tsproj"));
        QVERIFY(opened.at(0).at(1).toBool());
        QCOMPARE(QFileInfo(editor->filePath()).absoluteFilePath(), kShipped + QStringLiteral("/lenet.tsproj"));
        QVERIFY(editor->document()->nodeCount() > 0);
        QVERIFY(editor->isEnabled());
        QVERIFY(!m_window->trainingPanel()->isRunning()); // Open only opens
        // --example (scripts/run.sh): the spirals project in the editor, F5 away from training.
        QVERIFY(m_window->openExample());
        editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
        QVERIFY(editor);
        QTRY_COMPARE(opened.count(), 2);
        QVERIFY(opened.at(1).at(1).toBool());
        QCOMPARE(QFileInfo(editor->filePath()).fileName(), QStringLiteral("spirals.tsproj"));
        QVERIFY(!m_window->trainingPanel()->isRunning());
    }

    /// Help ▸ Welcome shows the page over open documents, with the way back to them.
    void helpWelcomeShowsThePage()
    {
        QMenu* help = m_window->findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(help);
        QAction* welcome = nullptr;
        for (QAction* action : help->actions())
            if (action->objectName() == QStringLiteral("welcomeAction"))
                welcome = action;
        QVERIFY(welcome);
        QVERIFY(m_window->openExampleProject(QStringLiteral("spirals")));
        StartPage* page = m_window->startPage();
        QVERIFY(!page->isVisible());
        welcome->trigger();
        QVERIFY(page->isVisible());
        auto* back = page->findChild<QPushButton*>(QStringLiteral("backToDocuments"));
        QVERIFY(back && back->isVisible());
        QTest::mouseClick(back, Qt::LeftButton);
        QVERIFY(!page->isVisible());
        QVERIFY(m_window->documents()->isVisible());
        // Closing the last document brings it back, without the way back.
        m_window->documents()->tabCloseRequested(0);
        QTRY_VERIFY(page->isVisible());
        QVERIFY(!back->isVisible());
    }

    /// The Open dialog's first filter offers every openable kind, projects included.
    void openDialogShowsProjectsFirst()
    {
        const QStringList filters = fileKindDialogFilters();
        const QString first = filters.value(0);
        QVERIFY2(first.contains(QStringLiteral("*.tsproj")), qPrintable(first));
        // Every pattern of the other filters (but "All files") is in the first.
        const QRegularExpression patterns(QStringLiteral("\\(([^)]*)\\)"));
        for (const QString& filter : filters.mid(1)) {
            const QString inside = patterns.match(filter).captured(1);
            if (inside == QStringLiteral("*"))
                continue;
            for (const QString& pattern : inside.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                QVERIFY2(first.contains(pattern), qPrintable(pattern + QStringLiteral(" of ") + filter));
        }
    }

    /// --screenshot --panel start (or welcome) captures the welcome page, also over open files.
    void screenshotOfTheWelcomePage()
    {
        for (const QString& panel : {QStringLiteral("start"), QStringLiteral("welcome")}) {
            ScreenshotRequest request;
            request.outputFile = m_dir.filePath(panel + QStringLiteral(".png"));
            request.panel = panel;
            request.size = QSize(1024, 700);
            QCOMPARE(takeScreenshot(*m_window, request), 0);
            const QImage image(request.outputFile);
            QCOMPARE(image.size(), QSize(1024, 700) * m_window->devicePixelRatio());
            QVERIFY(m_window->startPage()->isVisible());
        }
    }

private:
};

QTEST_MAIN(TestWelcomePage)
#include "test_welcome_page.moc"
