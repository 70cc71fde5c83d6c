// ShortcutsDialog: every keyboard shortcut and canvas gesture of the application, searchable.
#pragma once

#include <QDialog>
#include <QList>
#include <QPointer>
#include <QSet>
#include <QString>

class QAction;
class QLineEdit;
class QMainWindow;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace tstudio {

struct Registries;

/// A non-modal list of shortcuts built at run time from the key bindings that exist: the main window's
/// menus (File, View, Tools, Help; the Edit menu shows the current document's own actions, listed
/// under their document); the actions, QShortcuts and buttons with a shortcut of each document type,
/// taken from a fresh instance of it that the dialog keeps (node editor, graph viewer, profiler,
/// debugger, dashboard); those of the rest of the window that no menu shows (its panels, the guide's
/// window), under their panel or window; plus the mouse and keyboard gestures of the canvases that are
/// not actions (as their event handlers implement them). A binding without menu text is named by its
/// whatsThis, else its tooltip, else its object name. A filter field narrows the list on any column.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    /// `window`: whose menus are read. `registries` may be null (the document types are still made).
    ShortcutsDialog(QMainWindow* window, const Registries* registries, QWidget* parent = nullptr);
    ~ShortcutsDialog() override;

    enum Column { kActionColumn, kShortcutColumn, kWhereColumn, kColumnCount };

    struct Entry {
        QString action;   ///< the action's text without mnemonics
        QString shortcut; ///< native text ("Ctrl+S")
        QString where;    ///< "File menu", "Node editor", ...
        QPointer<QAction> source; ///< the live action; null for a QShortcut, a button or a gesture
        QPointer<QObject> holder; ///< what holds the keys (the action, QShortcut or button); null for a gesture
    };
    /// Every row, unfiltered, in list order.
    const QList<Entry>& entries() const { return m_entries; }
    /// Rows shown under the current filter.
    int visibleRowCount() const;
    /// Sets the filter field (case-insensitive, any column).
    void setFilter(const QString& text);

    QTreeView* view() const { return m_view; }
    QLineEdit* filterField() const { return m_filter; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void collect();
    void collectMenu(QAction* menuAction, const QString& where);
    void collectWidget(QWidget* widget, const QString& where);
    void collectWindow();
    /// Adds `object` (a QAction, QShortcut or QAbstractButton) if it has keys and is not listed yet.
    void collectObject(QObject* object, const QString& where);
    QString placeOf(const QObject* object) const;
    void addGestures();
    void add(const QString& action, const QString& shortcut, const QString& where, QObject* holder);
    void fillModel();

    QPointer<QMainWindow> m_window;
    const Registries* m_registries;
    QList<QWidget*> m_instances; ///< fresh document instances whose actions are listed (hidden children)
    QList<Entry> m_entries;
    QSet<const QObject*> m_listed; ///< holders already in m_entries (an action may be in a menu and a widget)
    QLineEdit* m_filter;
    QTreeView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
};

} // namespace tstudio
