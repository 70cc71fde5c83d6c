// NodePalette and QuickAddPopup: the node editor's searchable lists of layer nodes and raw ops to place.
#pragma once

#include <QFrame>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QKeyEvent;
class QLineEdit;
class QListView;
class QMimeData;
class QModelIndex;
class QStandardItemModel;
class QTreeView;

namespace tstudio {
class OpRegistry;
}

namespace tstudio::node_editor {

class PaletteModel;

/// One thing the palette offers: a layer node (`layer`, e.g. type "Dense" in category "Core") or a raw op
/// (type = the op name, category = the registry's op_category spelling, "" for unclassified ops). `doc` is
/// the text shown as tooltip and searched last (for ops: the OpDef's summary and description).
struct PaletteEntry {
    QString type;
    QString category;
    QString doc;
    bool layer = false;
};

/// The mime type of a palette drag; the payload is kindAndType() as UTF-8.
inline constexpr char kNodeMimeType[] = "application/x-tensorstudio-node";

/// "layer:Dense" or "op:MatMul": what a drag carries and entryActivated reports.
QString kindAndType(const PaletteEntry& entry);

/// The raw ops of `ops` as palette entries, sorted by name, without the ops not meant for users (names starting
/// with '_'); doc is the OpDef's summary, a blank line and its description (either may be empty), each in the
/// current UI language (opCatalogText: context "tstudio::ops"). Call again after a language change.
std::vector<PaletteEntry> opPaletteEntries(const OpRegistry& ops);

/// How well `entry` matches the search text `filter` (case-insensitive): 0 when the type starts with it,
/// 1 when the type contains it elsewhere, 2 when only the doc contains it, -1 for no match. An empty (or
/// blank) filter matches everything with 0.
int paletteMatchRank(const PaletteEntry& entry, const QString& filter);

/// The entries matching `filter`, best first: by rank (prefix, substring, doc), then layers before ops, then
/// by type (case-insensitive). Used by the quick-add popup's flat list.
std::vector<PaletteEntry> rankedPaletteEntries(const std::vector<PaletteEntry>& entries, const QString& filter);

/// The mime data a drag of `entry` carries (kNodeMimeType holding kindAndType); the caller owns it.
QMimeData* paletteMimeData(const PaletteEntry& entry);

/// The palette dock: a search line over a tree grouped by category. Layer groups come first (in the order
/// their categories first appear in the entries; a layer with no category goes to "Layers"), then the op
/// categories in the legend order of op_style.h, unknown spellings next, "Other" (unclassified) last. Within
/// a group, entries are ordered by paletteMatchRank, then by type; a group with no match is hidden, and every
/// group is expanded while a filter is set.
///
/// Entries carry the tooltip (name, category, doc; rich text, so Qt wraps it) and drag as kNodeMimeType.
/// Double-click or Enter on an entry, or Enter in the search line (the first entry shown), emits
/// entryActivated. Object names: "searchLine", "paletteTree". GUI thread only.
class NodePalette : public QWidget {
    Q_OBJECT
public:
    /// Item data role of entry items: kindAndType ("op:MatMul"); empty on group items.
    static constexpr int kKindAndTypeRole = Qt::UserRole + 1;
    /// Item data role of entry items: the match rank under the current filter.
    static constexpr int kRankRole = Qt::UserRole + 2;

    explicit NodePalette(QWidget* parent = nullptr);
    ~NodePalette() override;

    /// Replaces what the palette offers, e.g. `layers` followed by opPaletteEntries(registry). Entries whose
    /// type starts with '_' are dropped (they are not meant for users).
    void setEntries(std::vector<PaletteEntry> entries);
    const std::vector<PaletteEntry>& entries() const { return m_entries; }

    /// Filters as typing into the search line does.
    void setFilterText(const QString& text);
    QString filterText() const;

    /// kindAndType of every entry shown, in display order (group by group).
    QStringList visibleEntries() const;
    /// The titles of the groups shown, in order.
    QStringList visibleGroups() const;

    QTreeView* treeView() const { return m_tree; }
    QLineEdit* searchLine() const { return m_search; }
    QStandardItemModel* model() const;

signals:
    /// An entry was double-clicked or chosen with Enter: kindAndType, e.g. "layer:Dense".
    void entryActivated(const QString& kindAndType);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void retranslateUi();
    void activateIndex(const QModelIndex& index);

    std::vector<PaletteEntry> m_entries;
    QLineEdit* m_search = nullptr;
    QTreeView* m_tree = nullptr;
    PaletteModel* m_model = nullptr;
};

/// The canvas's Tab popup: a search line over a flat list of the entries, ranked as rankedPaletteEntries
/// (first row selected). Enter or a double-click chooses the selected row (emits chosen, then closes); Up/Down
/// in the search line move the selection; Esc or a click outside closes without choosing. The popup deletes
/// itself when closed. Object names: "quickAddSearch", "quickAddList".
class QuickAddPopup : public QFrame {
    Q_OBJECT
public:
    explicit QuickAddPopup(std::vector<PaletteEntry> entries, QWidget* parent = nullptr);
    ~QuickAddPopup() override;

    /// Creates a popup over `entries`, shows it with its top-left corner at `globalPos` and focuses the search
    /// line. Connect to chosen() for the result; the popup is deleted when it closes.
    static QuickAddPopup* showAt(std::vector<PaletteEntry> entries, const QPoint& globalPos, QWidget* parent = nullptr);

    void setFilterText(const QString& text);
    /// kindAndType of the rows shown, in order.
    QStringList visibleEntries() const;
    QLineEdit* searchLine() const { return m_search; }
    QListView* listView() const { return m_list; }

signals:
    /// The entry chosen ("op:MatMul"); not emitted when the popup is dismissed.
    void chosen(const QString& kindAndType);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void refilter();
    void choose(const QModelIndex& index);

    std::vector<PaletteEntry> m_entries;
    QLineEdit* m_search = nullptr;
    QListView* m_list = nullptr;
    PaletteModel* m_model = nullptr;
};

} // namespace tstudio::node_editor
