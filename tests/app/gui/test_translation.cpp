// Tests that switching to Simplified Chinese translates the running UI, and back again.
#include "app_settings.h"
#include "language_manager.h"
#include "main_window.h"

#include "common/file_kind_text.h"
#include "framework/op_registry.h"
#include "graph_viewer/graph_viewer.h"
#include "layers/layer_catalog.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_palette.h"
#include "registries/register_all_ops.h"

#include <QDockWidget>
#include <QLabel>
#include <QTabWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace tstudio;

namespace {

/// A main window in English with its settings in a temporary file.
struct EnglishWindow {
    QTemporaryDir dir;
    QSettings qs{dir.filePath("s.ini"), QSettings::IniFormat};
    AppSettings settings{&qs};
    LanguageManager languages;
    bool started = languages.setLanguage("en");
    std::unique_ptr<MainWindow> window = std::make_unique<MainWindow>(&settings, &languages);
    EnglishWindow() { window->setPersistLayout(false); }
};

} // namespace

class TestTranslation : public QObject {
    Q_OBJECT
private slots:
    void switchesLive()
    {
        EnglishWindow english;
        QVERIFY(english.started);
        LanguageManager& languages = english.languages;
        MainWindow& window = *english.window;
        QCOMPARE(window.fileMenu()->title(), QString("&File"));

        QVERIFY(languages.setLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QCOMPARE(window.fileMenu()->title(), QString::fromUtf8("文件(&F)"));
        QCOMPARE(fileKindDisplayName(FileKind::kEventFile), QString::fromUtf8("事件文件"));
        QVERIFY(window.panel("console")->windowTitle() != QLatin1String("Console"));

        QVERIFY(languages.setLanguage("en"));
        QCoreApplication::processEvents();
        QCOMPARE(window.fileMenu()->title(), QString("&File"));
        QCOMPARE(window.panel("console")->windowTitle(), QString("Console"));
    }

    /// A graph viewer's legend and status and the node editor's palette groups follow a switch to
    /// Chinese and back (they are made from data, not only set once in retranslateUi).
    void viewerAndEditorFollowTheLanguage()
    {
        EnglishWindow english;
        QVERIFY(english.started);
        LanguageManager& languages = english.languages;
        MainWindow& window = *english.window;
        window.openPath(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/graphs/invalid_wiring.pbtxt"));
        QTRY_VERIFY_WITH_TIMEOUT(window.pendingOpens() == 0, 20000);
        auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(window.documents()->currentWidget());
        QVERIFY(viewer);
        QTRY_VERIFY_WITH_TIMEOUT(viewer->isReady(), 20000);
        auto* legend = viewer->findChild<QLabel*>(QStringLiteral("graphLegend"));
        auto* status = viewer->findChild<QLabel*>(QStringLiteral("graphStatus"));
        QVERIFY(legend && status);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("shown")), 20000);
        QVERIFY(legend->text().contains(QStringLiteral("control dependency")));
        window.newGraph();
        auto* editor = qobject_cast<node_editor::NodeEditor*>(window.documents()->currentWidget());
        QVERIFY(editor);
        QVERIFY(editor->palette()->visibleGroups().contains(QStringLiteral("Layers")));

        QVERIFY(languages.setLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QVERIFY2(legend->text().contains(QString::fromUtf8("控制依赖")), qPrintable(legend->text()));
        QVERIFY2(!status->text().contains(QStringLiteral("shown")), qPrintable(status->text()));
        QVERIFY(editor->palette()->visibleGroups().contains(QString::fromUtf8("层")));
        QVERIFY(editor->palette()->visibleGroups().contains(QString::fromUtf8("损失")));

        QVERIFY(languages.setLanguage("en"));
        QCoreApplication::processEvents();
        QVERIFY2(legend->text().contains(QStringLiteral("control dependency")), qPrintable(legend->text()));
        QVERIFY2(!legend->text().contains(QString::fromUtf8("控制依赖")), qPrintable(legend->text()));
        QVERIFY2(status->text().contains(QStringLiteral("shown")), qPrintable(status->text()));
        QVERIFY(editor->palette()->visibleGroups().contains(QStringLiteral("Layers")));
    }

    /// The palette's op and layer descriptions (registry texts, translated at run time through the contexts
    /// "tstudio::ops" and "tstudio::layers") are Chinese in Chinese and the registry's English in English.
    void paletteDocsFollowTheLanguage()
    {
        EnglishWindow english;
        QVERIFY(english.started);
        english.window->newGraph();
        auto* editor = qobject_cast<node_editor::NodeEditor*>(english.window->documents()->currentWidget());
        QVERIFY(editor);
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        const auto doc = [editor](const QString& kindAndType) {
            for (const node_editor::PaletteEntry& entry : editor->palette()->entries())
                if (node_editor::kindAndType(entry) == kindAndType)
                    return entry.doc;
            return QStringLiteral("<no entry %1>").arg(kindAndType);
        };
        const QString matMulSummary = QString::fromStdString(ops.find("MatMul")->opDef.summary());
        const QString denseDoc = QString::fromStdString(layers::findLayerType("Dense")->doc);
        QVERIFY(!matMulSummary.isEmpty() && ops.find("MatMul")->opDef.description().empty());
        QCOMPARE(doc("op:MatMul"), matMulSummary);
        QCOMPARE(doc("layer:Dense"), denseDoc);

        QVERIFY(english.languages.setLanguage("zh_CN"));
        QCoreApplication::processEvents();
        const QRegularExpression chinese(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
        QVERIFY2(doc("op:MatMul").contains(chinese), qPrintable(doc("op:MatMul")));
        QVERIFY2(doc("layer:Dense").contains(chinese), qPrintable(doc("layer:Dense")));
        // Every description the palette shows, not only these two: a text whose key differs from the
        // catalogue's (untrimmed, say) would stay English.
        QStringList untranslated;
        for (const node_editor::PaletteEntry& entry : editor->palette()->entries())
            if (!entry.doc.isEmpty() && !entry.doc.contains(chinese))
                untranslated << node_editor::kindAndType(entry) + QStringLiteral(": ") + entry.doc;
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join('\n')));

        QVERIFY(english.languages.setLanguage("en"));
        QCoreApplication::processEvents();
        QCOMPARE(doc("op:MatMul"), matMulSummary);
        QCOMPARE(doc("layer:Dense"), denseDoc);
    }

    void unknownLanguageIsRefused()
    {
        LanguageManager languages;
        QVERIFY(!languages.setLanguage("xx_YY"));
        QCOMPARE(languages.language(), QString("en"));
    }
};

QTEST_MAIN(TestTranslation)
#include "test_translation.moc"
