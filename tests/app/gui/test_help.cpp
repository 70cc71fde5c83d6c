// Offscreen tests of the in-app help: the guide browser (pages, search, history, help: URLs), the
// keyboard-shortcut list against the live actions, and the panels' empty states with their guide links.
// Repeats on purpose: rows of data in one shape (a table of cases, not logic).
#include "app_settings.h"
#include "help_browser.h"
#include "language_manager.h"
#include "main_window.h"
#include "shortcuts_dialog.h"

#include "common/empty_state.h"
#include "console/log_model.h"
#include "console/log_panel.h"
#include "dashboard/dashboard_view.h"
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_view.h"
#include "profiler/profile_tables_view.h"
#include "profiler/profiler_view.h"
#include "proto/graph.pb.h"
#include "records/record_viewer.h"
#include "registries/default_registries.h"
#include "training/training_panel.h"

#include <QAbstractButton>
#include <QAction>
#include <QDesktopServices>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QShortcut>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <functional>
#include <memory>

using namespace tstudio;

namespace {

/// The pages the guide must have: the walkthrough and one per panel (docs/guide/<id>.md).
const QStringList kRequiredPages = {"walkthrough", "editor",   "viewer",  "training", "dashboard",
                                    "profiler",    "debugger", "records", "console",  "projects"};

bool writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QString shortcutOf(const QAction* action)
{
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts())
        keys << key.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

/// The page ids the empty state links to must be pages of the bundled guide; "" when it is.
QString missingPage(const EmptyState* state)
{
    const QStringList bundled = HelpBrowser::pageIds();
    if (state->helpUrl().scheme() != QLatin1String("help"))
        return QStringLiteral("%1 is not a help: URL").arg(state->helpUrl().toString());
    if (!bundled.contains(state->page()))
        return QStringLiteral("the guide has no page '%1' (docs/guide/%1.md); bundled: %2")
            .arg(state->page(), bundled.join(", "));
    return {};
}

} // namespace

class TestHelp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // A small guide of our own for the browser's behaviour; the bundled one is checked separately.
        QVERIFY(QDir().mkpath(m_dir.filePath("guide")));
        QVERIFY(writeText(m_dir.filePath("guide/walkthrough.md"),
                          "# Your first network\n\nStart in the [node editor](editor.md). "
                          "See [TensorFlow](https://www.tensorflow.org) too.\n"));
        QVERIFY(writeText(m_dir.filePath("guide/editor.md"),
                          "# Node editor\n\nDrag an op from the palette. A **palette** entry per op; "
                          "the palette is searchable.\n"));
        QVERIFY(writeText(m_dir.filePath("guide/zebra.md"), "No heading here, one palette.\n"));
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries.has_value(), "the default registries could not be built");
        m_registries = std::move(*registries);
    }

    void bundledGuideHasEveryPage()
    {
        const QStringList bundled = HelpBrowser::pageIds();
        QStringList missing;
        for (const QString& id : kRequiredPages)
            if (!bundled.contains(id))
                missing << id + ".md";
        QVERIFY2(missing.isEmpty(), qPrintable("docs/guide lacks (or the build did not bundle under :/guide): " +
                                               missing.join(", ")));
        // The reading order starts with the walkthrough.
        QCOMPARE(bundled.front(), QStringLiteral("walkthrough"));
        HelpBrowser browser;
        QVERIFY(browser.showPage("walkthrough"));
        QVERIFY(!browser.browser()->toPlainText().trimmed().isEmpty());
    }

    void browserListsAndShowsPages()
    {
        HelpBrowser browser(nullptr, m_dir.filePath("guide"));
        // Reading order: the known ids first, others by name after them.
        QCOMPARE(browser.pages(), (QStringList{"walkthrough", "editor", "zebra"}));
        QCOMPARE(browser.pageList()->count(), 3);
        QCOMPARE(browser.pageTitle("walkthrough"), QStringLiteral("Your first network"));
        QCOMPARE(browser.pageTitle("zebra"), QStringLiteral("zebra"));
        QVERIFY(browser.showPage("walkthrough"));
        QCOMPARE(browser.currentPage(), QStringLiteral("walkthrough"));
        QVERIFY(browser.browser()->toPlainText().contains("Start in the node editor."));
        QCOMPARE(browser.pageList()->currentItem()->text(), QStringLiteral("Your first network"));
        // A missing page says so and shows nothing else.
        QVERIFY(!browser.showPage("no-such-page"));
        QVERIFY(browser.currentPage().isEmpty());
        QVERIFY(browser.browser()->toPlainText().contains("no-such-page"));
    }

    void linksAndHistory()
    {
        HelpBrowser browser(nullptr, m_dir.filePath("guide"));
        QVERIFY(browser.showPage("walkthrough"));
        // A link to another page, as the user clicks it: relative to the page shown.
        browser.browser()->setSource(browser.browser()->source().resolved(QUrl("editor.md")));
        QCOMPARE(browser.currentPage(), QStringLiteral("editor"));
        QVERIFY(browser.browser()->toPlainText().contains("Drag an op from the palette."));
        QVERIFY(browser.backButton()->isEnabled());
        QVERIFY(!browser.forwardButton()->isEnabled());
        browser.backButton()->click();
        QCOMPARE(browser.currentPage(), QStringLiteral("walkthrough"));
        QVERIFY(browser.forwardButton()->isEnabled());
        browser.forwardButton()->click();
        QCOMPARE(browser.currentPage(), QStringLiteral("editor"));
        // Choosing a page in the list shows it.
        QListWidgetItem* first = browser.pageList()->item(0);
        emit browser.pageList()->itemClicked(first);
        QCOMPARE(browser.currentPage(), QStringLiteral("walkthrough"));
    }

    void searchFindsPagesAndHighlights()
    {
        HelpBrowser browser(nullptr, m_dir.filePath("guide"));
        QVERIFY(browser.showPage("walkthrough"));
        browser.search("PALETTE"); // case-insensitive
        QCOMPARE(browser.searchResults(), (QStringList{"editor", "zebra"}));
        QVERIFY(browser.pageList()->item(0)->isHidden());
        QVERIFY(browser.pageList()->item(1)->text().contains("3"));
        QCOMPARE(browser.highlightCount(), 0); // the walkthrough does not have it
        QVERIFY(browser.showPage("editor"));
        QCOMPARE(browser.highlightCount(), 3);
        const QList<QTextEdit::ExtraSelection> hits = browser.browser()->extraSelections();
        QCOMPARE(hits.size(), 3);
        QCOMPARE(hits.front().cursor.selectedText().toLower(), QStringLiteral("palette"));
        // The field drives the same search; clearing it lists every page again.
        browser.searchField()->setText("node editor");
        QCOMPARE(browser.searchResults(), (QStringList{"walkthrough", "editor"}));
        browser.searchField()->clear();
        QCOMPARE(browser.searchResults(), browser.pages());
        QCOMPARE(browser.highlightCount(), 0);
        browser.search("nowhere-in-the-guide");
        QVERIFY(browser.searchResults().isEmpty());
    }

    void helpUrlFromAnEmptyStateOpensItsPage()
    {
        HelpBrowser browser(nullptr, m_dir.filePath("guide"));
        QDesktopServices::setUrlHandler("help", &browser, "openHelpUrl");
        EmptyState state("editor");
        QCOMPARE(state.helpUrl(), QUrl("help:editor"));
        QVERIFY(state.helpLink()->text().contains("href=\"help:editor\""));
        QVERIFY(!browser.isVisible());
        // What clicking the link does.
        emit state.helpLink()->linkActivated(state.helpUrl().toString());
        QCOMPARE(browser.currentPage(), QStringLiteral("editor"));
        QVERIFY(browser.isVisible());
        QDesktopServices::openUrl(QUrl("help:walkthrough"));
        QCOMPARE(browser.currentPage(), QStringLiteral("walkthrough"));
        QDesktopServices::unsetUrlHandler("help");
    }

    void mainWindowGuideAnswersHelpUrls()
    {
        QSettings qsettings(m_dir.filePath("settings.ini"), QSettings::IniFormat);
        AppSettings settings(&qsettings);
        LanguageManager languages;
        MainWindow window(&settings, &languages);
        window.setPersistLayout(false);
        QAction* guide = window.findChild<QAction*>("guideAction");
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        QVERIFY(window.findChild<QAction*>("shortcutsAction"));
        // The guide's window (and the reading of its pages) waits for its first use.
        QVERIFY(!window.findChild<HelpBrowser*>());
        // The window registered itself for help: URLs, as an empty state opens them: the guide comes then.
        QDesktopServices::openUrl(QUrl("help:dashboard"));
        auto* browser = window.findChild<HelpBrowser*>();
        QVERIFY(browser);
        QVERIFY(browser->isVisible());
        QCOMPARE(browser->currentPage(), browser->pages().contains("dashboard") ? QStringLiteral("dashboard") : QString());
        QVERIFY2(browser->pages().contains("dashboard"), "docs/guide/dashboard.md is not bundled");
        guide->trigger();
        QCOMPARE(browser->currentPage(), QStringLiteral("walkthrough"));
        QCOMPARE(window.findChildren<HelpBrowser*>().size(), 1); // made once
        QCOMPARE(window.helpBrowser(), browser);
    }

    /// Help ▸ Guide (F1) on a window that has not shown the guide yet makes it, at the page of the
    /// panel that has focus (none here: the walkthrough); showGuide(page) opens that page.
    void guideIsMadeOnFirstUse()
    {
        QSettings qsettings(m_dir.filePath("settings.ini"), QSettings::IniFormat);
        AppSettings settings(&qsettings);
        LanguageManager languages;
        MainWindow window(&settings, &languages);
        window.setPersistLayout(false);
        QVERIFY(!window.findChild<HelpBrowser*>());
        QAction* guide = window.findChild<QAction*>("guideAction");
        QVERIFY(guide);
        guide->trigger();
        auto* browser = window.findChild<HelpBrowser*>();
        QVERIFY(browser);
        QVERIFY(browser->isVisible());
        QCOMPARE(browser->currentPage(), QStringLiteral("walkthrough"));
        window.showGuide(QStringLiteral("training"));
        QCOMPARE(browser->currentPage(), QStringLiteral("training"));
        QCOMPARE(window.findChildren<HelpBrowser*>().size(), 1);
    }

    void shortcutListMatchesTheLiveActions()
    {
        QSettings qsettings(m_dir.filePath("settings.ini"), QSettings::IniFormat);
        AppSettings settings(&qsettings);
        LanguageManager languages;
        MainWindow window(&settings, &languages);
        window.setPersistLayout(false);
        ShortcutsDialog dialog(&window, window.registries());
        const QList<ShortcutsDialog::Entry>& entries = dialog.entries();
        QVERIFY(!entries.isEmpty());
        QSet<const QAction*> listed;
        int gestures = 0;
        for (const ShortcutsDialog::Entry& e : entries) {
            QVERIFY(!e.action.isEmpty());
            QVERIFY(!e.shortcut.isEmpty());
            QVERIFY(!e.where.isEmpty());
            if (!e.source) {
                ++gestures;
                continue;
            }
            // Every listed shortcut is the live action's own.
            QCOMPARE(e.shortcut, shortcutOf(e.source));
            QVERIFY(!e.action.contains('&') || e.source->text().contains("&&"));
            listed.insert(e.source);
        }
        QVERIFY(gestures > 0);
        // Every menu action with a shortcut is listed (the Edit menu holds the current document's).
        int menuActions = 0;
        std::function<void(QMenu*)> walk = [&](QMenu* menu) {
            for (QAction* a : menu->actions()) {
                if (a->menu())
                    walk(a->menu());
                else if (!a->shortcuts().isEmpty()) {
                    ++menuActions;
                    QVERIFY2(listed.contains(a), qPrintable(a->text() + " is not listed"));
                }
            }
        };
        for (QAction* top : window.menuBar()->actions())
            if (top->menu() && top->menu()->objectName() != "editMenu")
                walk(top->menu());
        // New, Open, Open Folder, Save, Close Tab, the console's toggle, Guide (Save As, Quit and Settings have
        // the platform's standard keys, which some platforms leave empty).
        QVERIFY(menuActions >= 7);
        // Known actions of each place, found by what the code gives them.
        auto has = [&](const QString& where, const QKeySequence& key) {
            for (const ShortcutsDialog::Entry& e : entries)
                if (e.where == where && e.source && e.source->shortcuts().contains(key))
                    return true;
            return false;
        };
        QVERIFY(has("File menu", QKeySequence::Save));
        QVERIFY(has("Help menu", QKeySequence::HelpContents));
        QVERIFY(has("View ▸ Panels menu", QKeySequence(Qt::CTRL | Qt::Key_QuoteLeft)));
        QVERIFY(has("Node editor", QKeySequence(Qt::Key_F5)));
        QVERIFY(has("Graph viewer", QKeySequence::Find));
        QVERIFY(has("Debugger", QKeySequence(Qt::Key_F10)));
        QVERIFY(has("Dashboard", QKeySequence::Refresh));

        // Filtering narrows the list to the rows that mention the text.
        const int all = dialog.visibleRowCount();
        QCOMPARE(all, entries.size());
        const QString f10 = QKeySequence(Qt::Key_F10).toString(QKeySequence::NativeText);
        dialog.setFilter(f10);
        const int narrowed = dialog.visibleRowCount();
        QVERIFY(narrowed > 0);
        QVERIFY(narrowed < all);
        int expected = 0;
        for (const ShortcutsDialog::Entry& e : entries)
            expected += (e.action + e.shortcut + e.where).contains(f10, Qt::CaseInsensitive) ? 1 : 0;
        QCOMPARE(narrowed, expected);
        dialog.setFilter("node editor canvas");
        QVERIFY(dialog.visibleRowCount() > 0);
        QVERIFY(dialog.visibleRowCount() < all);
        dialog.setFilter(QString());
        QCOMPARE(dialog.visibleRowCount(), all);
    }

    /// Keys without a menu entry are listed too: the editor's Delete, F9 and Ctrl+Y, QShortcuts (the graph
    /// viewer's Find next, the console's Copy) and buttons with keys (the guide's Back), each named and
    /// placed; every key binding of the window and of the document types is in the list.
    void shortcutListHasKeysWithoutMenuEntries()
    {
        QSettings qsettings(m_dir.filePath("settings.ini"), QSettings::IniFormat);
        AppSettings settings(&qsettings);
        LanguageManager languages;
        MainWindow window(&settings, &languages);
        window.setPersistLayout(false);
        // The guide is made on first use; its keys are listed once it exists.
        window.findChild<QAction*>("guideAction")->trigger();
        QVERIFY(window.findChild<HelpBrowser*>());
        ShortcutsDialog dialog(&window, window.registries());
        const QList<ShortcutsDialog::Entry>& entries = dialog.entries();
        auto find = [&](const QString& where, const QKeySequence& key) -> const ShortcutsDialog::Entry* {
            const QString text = key.toString(QKeySequence::NativeText);
            for (const ShortcutsDialog::Entry& e : entries)
                if (e.where == where && e.shortcut.split(QStringLiteral(", ")).contains(text))
                    return &e;
            return nullptr;
        };
        const ShortcutsDialog::Entry* del = find("Node editor", QKeySequence::Delete);
        QVERIFY(del);
        QCOMPARE(del->action, QStringLiteral("Delete"));
        QVERIFY(find("Node editor", QKeySequence(Qt::Key_F9)));
#ifndef Q_OS_MACOS
        const ShortcutsDialog::Entry* redo = find("Node editor", QKeySequence(Qt::CTRL | Qt::Key_Y));
        QVERIFY(redo);
        QCOMPARE(redo->action, QStringLiteral("Redo"));
#endif
        const ShortcutsDialog::Entry* next = find("Graph viewer", QKeySequence::keyBindings(QKeySequence::FindNext).value(0));
        QVERIFY(next);
        QCOMPARE(next->action, QStringLiteral("Find next match"));
        QVERIFY(qobject_cast<QShortcut*>(next->holder.data()));
        QVERIFY(!next->source);
        const ShortcutsDialog::Entry* copy = find("Console panel", QKeySequence::Copy);
        QVERIFY(copy);
        QCOMPARE(copy->action, QStringLiteral("Copy the selected messages"));
        const ShortcutsDialog::Entry* back = find("Guide window", QKeySequence::keyBindings(QKeySequence::Back).value(0));
        QVERIFY(back);
        QCOMPARE(back->action, QStringLiteral("Back"));

        // Every action, QShortcut and button with keys, in the window and in the dialog's document instances.
        QSet<const QObject*> holders;
        for (const ShortcutsDialog::Entry& e : entries) {
            QVERIFY(!e.action.isEmpty());
            if (e.holder)
                holders.insert(e.holder);
        }
        QList<QObject*> objects = window.findChildren<QObject*>() + dialog.findChildren<QObject*>();
        int bindings = 0;
        for (QObject* o : std::as_const(objects)) {
            bool keys = false;
            if (auto* a = qobject_cast<QAction*>(o))
                keys = !a->shortcuts().isEmpty();
            else if (auto* s = qobject_cast<QShortcut*>(o))
                keys = !s->keys().isEmpty();
            else if (auto* b = qobject_cast<QAbstractButton*>(o))
                keys = !b->shortcut().isEmpty();
            if (!keys)
                continue;
            ++bindings;
            QVERIFY2(holders.contains(o), qPrintable(QStringLiteral("%1 (%2) is not listed")
                                                         .arg(o->objectName(), o->metaObject()->className())));
        }
        QVERIFY(bindings >= 40);
        // The search finds them as it finds the menus' shortcuts.
        dialog.setFilter("selected messages");
        QCOMPARE(dialog.visibleRowCount(), 1);
        dialog.setFilter("guide window");
        QVERIFY(dialog.visibleRowCount() >= 2);
    }

    void everyPanelHasAnEmptyStateLinkedToTheGuide()
    {
        auto model = std::make_unique<LogModel>(100);
        struct Panel {
            const char* name;
            std::unique_ptr<QWidget> widget;
            QString page;
        };
        std::vector<Panel> panels;
        panels.push_back({"dashboard", std::make_unique<dashboard::DashboardView>(), "dashboard"});
        panels.push_back({"profiler", std::make_unique<profiler::ProfilerView>(&m_registries->ops), "profiler"});
        panels.push_back({"debugger", std::make_unique<debugger_ui::DebuggerView>(), "debugger"});
        panels.push_back({"training", std::make_unique<training_panel::TrainingPanel>(m_registries.get()), "training"});
        panels.push_back({"console", std::make_unique<LogPanel>(model.get()), "console"});
        panels.push_back({"graph viewer", std::make_unique<graph_viewer::GraphViewer>(m_registries.get()), "viewer"});
        panels.push_back({"records", std::make_unique<records::RecordViewer>(), "records"});
        panels.push_back({"node editor", std::make_unique<node_editor::NodeEditor>(m_registries.get()), "editor"});
        QStringList problems;
        for (const Panel& p : panels) {
            p.widget->resize(900, 600);
            p.widget->show(); // lays the panel out: the state follows the area it covers
            QCoreApplication::processEvents();
            const auto states = p.widget->findChildren<EmptyState*>();
            // The debugger's and graph viewer's own states only (a panel holds no other panel here).
            if (states.size() != 1) {
                problems << QStringLiteral("%1: %2 empty states").arg(p.name).arg(states.size());
                continue;
            }
            const EmptyState* state = states.front();
            if (state->isHidden())
                problems << QStringLiteral("%1: the empty state is hidden while the panel is empty").arg(p.name);
            if (state->title().isEmpty() || state->text().isEmpty())
                problems << QStringLiteral("%1: no title or no text").arg(p.name);
            if (state->page() != p.page)
                problems << QStringLiteral("%1: links to '%2', expected '%3'").arg(p.name, state->page(), p.page);
            if (const QString missing = missingPage(state); !missing.isEmpty())
                problems << QStringLiteral("%1: %2").arg(p.name, missing);
            const QWidget* area = state->covered();
            if (!area || QRect(state->mapToGlobal(QPoint(0, 0)), state->size()) != QRect(area->mapToGlobal(QPoint(0, 0)), area->size()))
                problems << QStringLiteral("%1: the empty state does not cover its area (%2,%3 %4x%5 in %6x%7)")
                                .arg(p.name).arg(state->x()).arg(state->y()).arg(state->width()).arg(state->height())
                                .arg(state->parentWidget()->width()).arg(state->parentWidget()->height());
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    }

    void emptyStatesGoWhenContentComes()
    {
        // The console: a message hides it, clearing shows it again.
        LogModel model(100);
        LogPanel console(&model);
        auto* consoleState = console.findChild<EmptyState*>();
        QVERIFY(consoleState && !consoleState->isHidden());
        model.append({QDateTime::currentDateTime(), LogSeverity::kInfo, "test", "a message"});
        QVERIFY(consoleState->isHidden());
        model.clear();
        QVERIFY(!consoleState->isHidden());

        // The node editor: a graph with a node hides it.
        node_editor::NodeEditor editor(m_registries.get());
        auto* editorState = editor.findChild<EmptyState*>();
        QVERIFY(editorState && !editorState->isHidden());
        tensorflow::GraphDef graph;
        tensorflow::NodeDef* node = graph.add_node();
        node->set_name("x");
        node->set_op("Placeholder");
        (*node->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
        QVERIFY(editor.loadGraphDef(graph, "one node").isOk());
        QVERIFY(editorState->isHidden());
        // Clicks and drops on the canvas pass through it: it takes no drops itself.
        QVERIFY(!editorState->acceptDrops());

        // The training panel: a bound project hides it.
        training_panel::TrainingPanel training(m_registries.get());
        auto* trainingState = training.findChild<EmptyState*>();
        QVERIFY(trainingState && !trainingState->isHidden());
        training.setProjectSource([]() -> Expected<project::Project> { return unexpected(internalError("none")); },
                                  "a project", nullptr);
        QVERIFY(trainingState->isHidden());
    }

    void f1FindsThePageOfTheFocusedPanel()
    {
        node_editor::NodeEditor editor(m_registries.get());
        QCOMPARE(HelpBrowser::pageForWidget(editor.view()), QStringLiteral("editor"));
        profiler::ProfilerView profiler(&m_registries->ops);
        QCOMPARE(HelpBrowser::pageForWidget(profiler.tables()), QStringLiteral("profiler"));
        // The Debugger tab holds a graph viewer: its page is still the debugger's.
        debugger_ui::DebuggingTab tab(m_registries.get());
        QCOMPARE(HelpBrowser::pageForWidget(tab.graphViewer()), QStringLiteral("debugger"));
        graph_viewer::GraphViewer viewer(m_registries.get());
        QCOMPARE(HelpBrowser::pageForWidget(&viewer), QStringLiteral("viewer"));
        QWidget other;
        QCOMPARE(HelpBrowser::pageForWidget(&other), QString());
        QCOMPARE(HelpBrowser::pageForWidget(nullptr), QString());
    }

    void emptyStateButtonTriggersItsAction()
    {
        QWidget host;
        host.resize(400, 300);
        host.show();
        EmptyState* state = EmptyState::cover(&host, "dashboard");
        QCOMPARE(state->geometry(), host.rect());
        host.resize(500, 320);
        QCOMPARE(state->geometry(), host.rect());
        QAction action("Add Log Directory…");
        int triggered = 0;
        connect(&action, &QAction::triggered, this, [&] { ++triggered; });
        QPushButton* button = state->addButton(&action);
        QCOMPARE(button->text(), action.text());
        button->click();
        QCOMPARE(triggered, 1);
        action.setEnabled(false);
        QVERIFY(!button->isEnabled());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Registries> m_registries;
};

QTEST_MAIN(TestHelp)
#include "test_help.moc"
