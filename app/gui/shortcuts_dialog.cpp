// ShortcutsDialog: collects the live actions' shortcuts and the canvases' gestures into one list.
#include "shortcuts_dialog.h"

#include "dashboard/dashboard_view.h"
#include "debugger/debugger_view.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "profiler/profiler_view.h"
#include "runtime/default_registries.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
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

QString shortcutText(const QAction* action)
{
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts())
        keys << key.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
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

void ShortcutsDialog::add(const QString& action, const QString& shortcut, const QString& where, QAction* source)
{
    m_entries.append({action, shortcut, where, source});
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
        if (!action->shortcuts().isEmpty())
            add(withoutMnemonic(action->text()), shortcutText(action), tr("%1 menu").arg(where), action);
    }
}

void ShortcutsDialog::collectWidget(QWidget* widget, const QString& where)
{
    QSet<QAction*> seen;
    QList<QAction*> actions = widget->actions();
    actions += widget->findChildren<QAction*>();
    for (QAction* action : std::as_const(actions)) {
        if (seen.contains(action) || action->shortcuts().isEmpty())
            continue;
        seen.insert(action);
        add(withoutMnemonic(action->text()), shortcutText(action), where, action);
    }
}

void ShortcutsDialog::collect()
{
    m_entries.clear();
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
