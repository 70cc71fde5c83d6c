// ShortcutsDialog: collects the live actions', QShortcuts' and buttons' keys and the canvases' gestures into one list.
// Repeats on purpose: rows of data in one shape (a table of cases, not logic).
#include "shortcuts_dialog.h"

#include "help_browser.h"

#include "dashboard/dashboard_view.h"
#include "debugger/debugger_view.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "profiler/profiler_view.h"
#include "registries/default_registries.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace tstudio {
namespace {

/// "&Open File…" -> "Open File…" ("&&" stays one ampersand).
QString withoutMnemonic(QString text)
{
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

QString shortcutText(const QList<QKeySequence>& sequences)
{
    QStringList keys;
    for (const QKeySequence& key : sequences)
        if (!key.isEmpty())
            keys << key.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

/// The keys an action, QShortcut or button answers to; empty for anything else.
QList<QKeySequence> keysOf(const QObject* object)
{
    if (auto* action = qobject_cast<const QAction*>(object))
        return action->shortcuts();
    if (auto* shortcut = qobject_cast<const QShortcut*>(object))
        return shortcut->keys();
    if (auto* button = qobject_cast<const QAbstractButton*>(object))
        return button->shortcut().isEmpty() ? QList<QKeySequence>{} : QList<QKeySequence>{button->shortcut()};
    return {};
}

/// A tooltip often ends with its keys ("Back (Alt+Left)"): the list has them in their own column.
QString withoutKeys(QString text, const QString& keys)
{
    const QString suffix = QStringLiteral(" (%1)").arg(keys);
    if (!keys.isEmpty() && text.endsWith(suffix))
        text.chop(suffix.size());
    return text;
}

/// What a binding is called: an action's menu text; otherwise its whatsThis, its tooltip, a button's
/// text, and last its object name (which the code always gives those that have no words).
QString nameOf(const QObject* object, const QString& keys)
{
    QStringList candidates;
    if (auto* action = qobject_cast<const QAction*>(object)) {
        candidates << withoutMnemonic(action->text()) << action->whatsThis();
        // QAction::toolTip() falls back to the text; only a tooltip of its own says more.
        if (!action->text().isEmpty() || action->toolTip() != action->text())
            candidates << action->toolTip();
    } else if (auto* shortcut = qobject_cast<const QShortcut*>(object)) {
        candidates << shortcut->whatsThis();
    } else if (auto* button = qobject_cast<const QAbstractButton*>(object)) {
        candidates << withoutMnemonic(button->text()) << button->whatsThis() << button->toolTip();
    }
    candidates << object->objectName();
    for (const QString& candidate : std::as_const(candidates)) {
        const QString text = withoutKeys(candidate.simplified(), keys);
        if (!text.isEmpty())
            return text;
    }
    return QString::fromLatin1(object->metaObject()->className());
}

/// Whether `object` lies inside `ancestor` (or is it).
bool isWithin(const QObject* object, const QObject* ancestor)
{
    for (const QObject* o = object; o; o = o->parent())
        if (o == ancestor)
            return true;
    return false;
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QMainWindow* window, const Registries* registries, QWidget* parent)
    : QDialog(parent), m_window(window), m_registries(registries), m_filter(new QLineEdit(this)),
      m_view(new QTreeView(this)), m_model(new QStandardItemModel(this)), m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setModal(false);
    m_filter->setObjectName(QStringLiteral("shortcutsFilter"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setObjectName(QStringLiteral("shortcutsView"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    // Each document type once, as the window makes it: its actions are the ones listed (and the test
    // compares the list with them). Kept hidden for the dialog's life.
    auto* holder = new QWidget(this);
    holder->hide();
    m_instances = {new node_editor::NodeEditor(registries, holder), new graph_viewer::GraphViewer(registries, holder),
                   new profiler::ProfilerView(registries ? &registries->ops : nullptr, holder),
                   new debugger_ui::DebuggerView(holder), new dashboard::DashboardView(holder)};

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);

    collect();
    resize(900, 640);
}

ShortcutsDialog::~ShortcutsDialog() = default;

void ShortcutsDialog::add(const QString& action, const QString& shortcut, const QString& where, QObject* holder)
{
    if (holder)
        m_listed.insert(holder);
    m_entries.append({action, shortcut, where, qobject_cast<QAction*>(holder), holder});
}

void ShortcutsDialog::collectObject(QObject* object, const QString& where)
{
    if (m_listed.contains(object))
        return;
    const QString keys = shortcutText(keysOf(object));
    if (keys.isEmpty())
        return;
    add(nameOf(object, keys), keys, where, object);
}

void ShortcutsDialog::collectMenu(QAction* menuAction, const QString& where)
{
    QMenu* menu = menuAction->menu();
    if (!menu)
        return;
    for (QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        if (action->menu()) {
            collectMenu(action, where + QStringLiteral(" ▸ ") + withoutMnemonic(action->menu()->title()));
            continue;
        }
        collectObject(action, tr("%1 menu").arg(where));
    }
}

void ShortcutsDialog::collectWidget(QWidget* widget, const QString& where)
{
    for (QAction* action : widget->actions())
        collectObject(action, where);
    // Actions without a menu entry, QShortcuts and buttons with keys: every key the document answers to.
    for (QObject* object : widget->findChildren<QObject*>())
        collectObject(object, where);
}

void ShortcutsDialog::collectWindow()
{
    // What the menus do not show: the window's own actions, its panels' keys (the console's Copy) and
    // those of its other windows (the guide's Back and Forward). The open documents are left out: their
    // types are listed from the dialog's own instances, whatever is open.
    const QWidget* documents = m_window->findChild<QTabWidget*>(QStringLiteral("documents"));
    for (QAction* action : m_window->actions())
        collectObject(action, placeOf(action));
    for (QObject* object : m_window->findChildren<QObject*>()) {
        if (isWithin(object, this) || (documents && isWithin(object, documents)))
            continue;
        collectObject(object, placeOf(object));
    }
}

QString ShortcutsDialog::placeOf(const QObject* object) const
{
    for (const QObject* o = object; o && o != m_window; o = o->parent()) {
        if (auto* dock = qobject_cast<const QDockWidget*>(o))
            return tr("%1 panel").arg(dock->windowTitle());
        if (qobject_cast<const HelpBrowser*>(o))
            return tr("Guide window"); // its title follows the page shown
        if (auto* widget = qobject_cast<const QWidget*>(o); widget && widget->isWindow() && !widget->windowTitle().isEmpty())
            return tr("%1 window").arg(widget->windowTitle());
    }
    return tr("Main window");
}

void ShortcutsDialog::collect()
{
    m_entries.clear();
    m_listed.clear();
    if (m_window) {
        for (QAction* top : m_window->menuBar()->actions()) {
            // The Edit menu lists the current document's own actions: they are listed under their document.
            if (!top->menu() || top->menu()->objectName() == QLatin1String("editMenu"))
                continue;
            collectMenu(top, withoutMnemonic(top->menu()->title()));
        }
    }
    const QStringList names = {tr("Node editor"), tr("Graph viewer"), tr("Profiler"), tr("Debugger"), tr("Dashboard")};
    for (int i = 0; i < m_instances.size(); ++i)
        collectWidget(m_instances[i], names.value(i));
    if (m_window)
        collectWindow();
    addGestures();
    fillModel();
}

void ShortcutsDialog::addGestures()
{
    // What the canvases' own event handlers do (NodeEditorView, NodeEditorScene, ScopeFrameItem, GraphCanvas,
    // TimelineCanvas): not QActions, so read off the code.
    const QString editor = tr("Node editor canvas");
    add(tr("Add an op or layer: type its name in the quick-add popup"), tr("Tab, or a letter key"), editor, nullptr);
    add(tr("Add an op or layer"), tr("Drag it from the palette onto the canvas"), editor, nullptr);
    add(tr("Connect two ports"), tr("Drag from an output port to an input port"), editor, nullptr);
    add(tr("Move a connection to another input"), tr("Drag it away from its connected input port"), editor, nullptr);
    add(tr("Select nodes"), tr("Drag a rectangle on the empty canvas"), editor, nullptr);
    add(tr("Show the ops a layer builds in a graph viewer"), tr("Double-click the layer"), editor, nullptr);
    add(tr("Collapse or expand a name scope"), tr("Double-click its frame, or click its arrow"), editor, nullptr);
    add(tr("Zoom"), tr("Mouse wheel; + or = and −"), editor, nullptr);
    add(tr("Pan"), tr("Middle-drag; arrow keys"), editor, nullptr);

    const QString viewer = tr("Graph viewer canvas");
    add(tr("Zoom at the pointer"), tr("Mouse wheel"), viewer, nullptr);
    add(tr("Pan"), tr("Drag (left or middle button); Shift+wheel; arrow keys"), viewer, nullptr);
    add(tr("Select a node"), tr("Click it"), viewer, nullptr);
    add(tr("Expand or collapse a name scope"), tr("Double-click it, click its toggle, or Enter"), viewer, nullptr);
    add(tr("Expand the selected scope (zoom in when nothing is selected)"), QStringLiteral("+ / ="), viewer, nullptr);
    add(tr("Collapse the selected scope or its parent (zoom out when nothing is selected)"), QStringLiteral("−"),
        viewer, nullptr);
    add(tr("Clear the selection"), tr("Esc"), viewer, nullptr);
    add(tr("Node menu (edit, trace, breakpoint, timeline)"), tr("Right-click"), viewer, nullptr);

    const QString timeline = tr("Profiler timeline");
    add(tr("Zoom in / out"), tr("W / S (hold to keep zooming); Ctrl+wheel or Alt+wheel"), timeline, nullptr);
    add(tr("Pan in time"), tr("A / D or ← / → (hold to keep moving); Shift+wheel"), timeline, nullptr);
    add(tr("Scroll the lanes"), tr("Mouse wheel"), timeline, nullptr);
    add(tr("Pan"), tr("Middle-drag, or Alt+drag"), timeline, nullptr);
    add(tr("Select, Pan, Zoom and Timing tools"), QStringLiteral("1 / 2 / 3 / 4"), timeline, nullptr);
    add(tr("Frame the selection"), QStringLiteral("F"), timeline, nullptr);
    add(tr("Show the whole trace"), QStringLiteral("0"), timeline, nullptr);
    add(tr("Clear the box selection and the measurement"), tr("Esc"), timeline, nullptr);
    add(tr("Select an op execution"), tr("Click it"), timeline, nullptr);
    add(tr("Select an op execution and frame it"), tr("Double-click it"), timeline, nullptr);
    add(tr("Select the executions in a time range"), tr("Drag with the Select tool"), timeline, nullptr);
    add(tr("Measure a time span"), tr("Drag in the time ruler (click it to clear)"), timeline, nullptr);
    add(tr("Collapse or expand a device's lanes"), tr("Click the device's label"), timeline, nullptr);
}

void ShortcutsDialog::fillModel()
{
    m_model->clear();
    m_model->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut"), tr("Where")});
    for (const Entry& e : std::as_const(m_entries)) {
        QList<QStandardItem*> row = {new QStandardItem(e.action), new QStandardItem(e.shortcut), new QStandardItem(e.where)};
        for (QStandardItem* item : row)
            item->setToolTip(item->text()); // a gesture's text may be longer than its column
        m_model->appendRow(row);
    }
    // The place is short and always whole; action and keys share the rest (gestures are long: elided, with
    // the whole text in the tooltip).
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(kActionColumn, QHeaderView::Interactive);
    header->resizeSection(kActionColumn, 330);
    header->setSectionResizeMode(kShortcutColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(kWhereColumn, QHeaderView::ResizeToContents);
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_filter->setPlaceholderText(tr("Filter by action, key or place"));
}

int ShortcutsDialog::visibleRowCount() const
{
    return m_proxy->rowCount();
}

void ShortcutsDialog::setFilter(const QString& text)
{
    m_filter->setText(text);
}

void ShortcutsDialog::changeEvent(QEvent* event)
{
    // The actions are retranslated by their owners on the same event; read them again afterwards.
    if (event->type() == QEvent::LanguageChange)
        QMetaObject::invokeMethod(this, [this] { collect(); }, Qt::QueuedConnection);
    QDialog::changeEvent(event);
}

} // namespace tstudio
