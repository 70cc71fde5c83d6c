// RunsPanel: the dashboard's run selector: runs as a tree of their folders, a regex filter, a check box
// and a colour per run (the user can change it), as TensorBoard's runs pane.
#pragma once

#include "dashboard/run_style.h"

#include <QMap>
#include <QVariant>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio::dashboard {

/// Runs are shown as a tree split at '/' ("eval/a" under "eval"); a folder that is a run itself is a
/// checkable item with children. A run is visible when it is checked and matches the filter (a
/// case-insensitive regular expression, red when invalid). New runs start checked with the next
/// colour of the palette; a colour stays with its run for the life of the panel, and a colour the
/// user picks is kept across sessions (QSettings, per log directory) once setSettingsKey names it.
class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QWidget* parent = nullptr);

    /// Adds the runs not known yet.
    void addRuns(const QStringList& runs);
    /// Forgets a run (its files are gone): its item goes, or, where other runs lie below it, only
    /// its tick box. Its colour stays for a run of that name later. Emits nothing.
    void removeRun(const QString& run);
    QStringList runs() const { return m_order; }
    /// Every run in order with its colour and whether it is shown.
    QVector<RunStyle> styles() const;

    void setRunChecked(const QString& run, bool checked);
    void setRunColour(const QString& run, const QColor& colour);
    /// Names what the runs belong to (DashboardView: its log directories) so that colours set with
    /// setRunColour are saved under it and given back to its runs, now and in later sessions; an
    /// empty key saves nothing.
    void setSettingsKey(const QString& key);
    void setFilter(const QString& pattern);
    bool filterValid() const { return m_filterValid; }
    void showOnly(const QString& run);
    /// Checks exactly `runs` (names not known are ignored).
    void showOnly(const QStringList& runs);
    void showAll();

signals:
    /// Visibility or a colour changed (not emitted for addRuns: the caller asks for styles()).
    void stylesChanged();
    /// The user asked to delete the run's folder (context menu): the owner confirms and deletes.
    void deleteRunRequested(const QString& run);

protected:
    void changeEvent(QEvent* event) override;

private:
    QTreeWidgetItem* itemFor(const QString& run);
    void refreshItem(const QString& run);
    void applyFilter();
    void chooseColour(const QString& run);
    void retranslateUi();

    QLineEdit* m_filterEdit;
    QTreeWidget* m_tree;
    QLabel* m_count;
    QStringList m_order;
    QMap<QString, QColor> m_colours;
    QString m_settingsKey;
    QVariantMap m_savedColours; ///< run → colour name saved under m_settingsKey
    QMap<QString, bool> m_checked;
    QMap<QString, QTreeWidgetItem*> m_items; // by path: runs and their folders
    QString m_filter;
    bool m_filterValid = true;
    bool m_updating = false;
};

} // namespace tstudio::dashboard
