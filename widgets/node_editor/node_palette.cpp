// NodePalette and QuickAddPopup: the node editor's searchable lists of layer nodes and raw ops to place.
#include "node_editor/node_palette.h"

#include "common/catalog_text.h"
#include "common/op_style.h"
#include "framework/op_registry.h"

#include <QEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QMimeData>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <tuple>

namespace tstudio::node_editor {

/// Items carry kindAndType in NodePalette::kKindAndTypeRole; a drag of them carries kNodeMimeType.
class PaletteModel : public QStandardItemModel {
public:
    using QStandardItemModel::QStandardItemModel;

    QStringList mimeTypes() const override { return {QString::fromLatin1(kNodeMimeType)}; }

    QMimeData* mimeData(const QModelIndexList& indexes) const override
    {
        for (const QModelIndex& index : indexes) {
            const QString payload = index.data(NodePalette::kKindAndTypeRole).toString();
            if (payload.isEmpty())
                continue;
            auto* data = new QMimeData;
            data->setData(QString::fromLatin1(kNodeMimeType), payload.toUtf8());
            return data;
        }
        return nullptr;
    }

    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }
};

namespace {

bool hiddenFromUsers(const QString& type)
{
    return type.startsWith(QLatin1Char('_'));
}

/// The tooltip of an entry: its name, its group, then each paragraph of its doc, as rich text so that Qt wraps it.
QString entryToolTip(const PaletteEntry& entry, const QString& groupTitle)
{
    QString html =
        QStringLiteral("<qt><b>%1</b> <i>(%2)</i>").arg(entry.type.toHtmlEscaped(), groupTitle.toHtmlEscaped());
    const QStringList paragraphs = entry.doc.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
    for (const QString& paragraph : paragraphs) {
        QString text = paragraph.trimmed().toHtmlEscaped();
        text.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        html += QStringLiteral("<p>") + text + QStringLiteral("</p>");
    }
    return html + QStringLiteral("</qt>");
}

/// Sort key of an op category group: the legend order, unknown spellings after it (alphabetically), "" last.
std::pair<int, QString> opGroupOrder(const QString& category)
{
    if (category.isEmpty())
        return {1 << 20, QString()};
    const auto& legend = opCategoriesForLegend();
    const std::string spelling = category.toStdString();
    for (std::size_t i = 0; i < legend.size(); ++i) {
        if (legend[i] == spelling)
            return {static_cast<int>(i), QString()};
    }
    return {static_cast<int>(legend.size()), category};
}

QStandardItem* makeEntryItem(const PaletteEntry& entry, const QString& groupTitle, int rank)
{
    auto* item = new QStandardItem(entry.type);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    item->setData(kindAndType(entry), NodePalette::kKindAndTypeRole);
    item->setData(rank, NodePalette::kRankRole);
    item->setToolTip(entryToolTip(entry, groupTitle));
    return item;
}

QString entryGroupTitle(const PaletteEntry& entry)
{
    if (entry.layer)
        return entry.category.isEmpty() ? NodePalette::tr("Layers") : entry.category;
    return opCategoryDisplayName(entry.category.toStdString());
}

bool lessByType(const PaletteEntry& a, const PaletteEntry& b)
{
    const int c = QString::compare(a.type, b.type, Qt::CaseInsensitive);
    return c != 0 ? c < 0 : a.type < b.type;
}

} // namespace

QString kindAndType(const PaletteEntry& entry)
{
    return (entry.layer ? QStringLiteral("layer:") : QStringLiteral("op:")) + entry.type;
}

std::vector<PaletteEntry> opPaletteEntries(const OpRegistry& ops)
{
    std::vector<PaletteEntry> entries;
    for (const std::string& name : ops.opNames()) {
        const OpRegistration* registration = ops.find(name);
        if (registration == nullptr || name.starts_with('_'))
            continue;
        PaletteEntry entry;
        entry.type = QString::fromStdString(name);
        entry.category = QString::fromStdString(registration->category);
        const QString summary = opCatalogText(registration->opDef.summary());
        const QString description = opCatalogText(registration->opDef.description());
        entry.doc = summary.isEmpty() || description.isEmpty() ? summary + description
                                                               : summary + QStringLiteral("\n\n") + description;
        entries.push_back(std::move(entry));
    }
    std::stable_sort(entries.begin(), entries.end(), lessByType);
    return entries;
}

int paletteMatchRank(const PaletteEntry& entry, const QString& filter)
{
    const QString needle = filter.trimmed();
    if (needle.isEmpty())
        return 0;
    if (entry.type.startsWith(needle, Qt::CaseInsensitive))
        return 0;
    if (entry.type.contains(needle, Qt::CaseInsensitive))
        return 1;
    if (entry.doc.contains(needle, Qt::CaseInsensitive))
        return 2;
    return -1;
}

std::vector<PaletteEntry> rankedPaletteEntries(const std::vector<PaletteEntry>& entries, const QString& filter)
{
    std::vector<std::pair<int, const PaletteEntry*>> matches;
    for (const PaletteEntry& entry : entries) {
        if (hiddenFromUsers(entry.type))
            continue;
        if (const int rank = paletteMatchRank(entry, filter); rank >= 0)
            matches.emplace_back(rank, &entry);
    }
    std::stable_sort(matches.begin(), matches.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first)
            return a.first < b.first;
        if (a.second->layer != b.second->layer)
            return a.second->layer;
        return lessByType(*a.second, *b.second);
    });
    std::vector<PaletteEntry> result;
    result.reserve(matches.size());
    for (const auto& match : matches)
        result.push_back(*match.second);
    return result;
}

QMimeData* paletteMimeData(const PaletteEntry& entry)
{
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kNodeMimeType), kindAndType(entry).toUtf8());
    return data;
}

// --- NodePalette ---------------------------------------------------------------------------------------------

NodePalette::NodePalette(QWidget* parent) : QWidget(parent)
{
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("searchLine"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);

    m_model = new PaletteModel(this);
    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("paletteTree"));
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setDragEnabled(true);
    m_tree->setDragDropMode(QAbstractItemView::DragOnly);
    m_tree->setDefaultDropAction(Qt::CopyAction);
    m_tree->setUniformRowHeights(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_tree);

    connect(m_search, &QLineEdit::textChanged, this, [this] { rebuild(); });
    // Double-click and Enter place a node; QAbstractItemView::activated is not used because on platforms that
    // activate on a single click it would place a node on every click.
    connect(m_tree, &QTreeView::doubleClicked, this, &NodePalette::activateIndex);
    m_tree->installEventFilter(this);
    retranslateUi();
}

NodePalette::~NodePalette() = default;

QStandardItemModel* NodePalette::model() const
{
    return m_model;
}

void NodePalette::setEntries(std::vector<PaletteEntry> entries)
{
    std::erase_if(entries, [](const PaletteEntry& entry) { return hiddenFromUsers(entry.type); });
    m_entries = std::move(entries);
    rebuild();
}

void NodePalette::setFilterText(const QString& text)
{
    m_search->setText(text);
}

QString NodePalette::filterText() const
{
    return m_search->text();
}

void NodePalette::rebuild()
{
    const QString filter = m_search->text();
    // Group key: layer groups first in order of appearance, then op groups in legend order.
    using GroupKey = std::tuple<int, int, QString>;
    std::map<GroupKey, std::vector<std::pair<int, const PaletteEntry*>>> groups;
    std::map<QString, int> layerGroupOrder;
    for (const PaletteEntry& entry : m_entries) {
        const int rank = paletteMatchRank(entry, filter);
        if (entry.layer) {
            const QString title = entryGroupTitle(entry);
            const int order = layerGroupOrder.emplace(title, static_cast<int>(layerGroupOrder.size())).first->second;
            if (rank >= 0)
                groups[{0, order, title}].emplace_back(rank, &entry);
        } else if (rank >= 0) {
            const auto [order, spelling] = opGroupOrder(entry.category);
            groups[{1, order, spelling}].emplace_back(rank, &entry);
        }
    }

    m_model->clear();
    for (auto& [key, members] : groups) {
        std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : lessByType(*a.second, *b.second);
        });
        const QString title = entryGroupTitle(*members.front().second);
        auto* group = new QStandardItem(title);
        group->setFlags(Qt::ItemIsEnabled);
        for (const auto& [rank, entry] : members)
            group->appendRow(makeEntryItem(*entry, title, rank));
        m_model->appendRow(group);
    }
    if (!filter.trimmed().isEmpty())
        m_tree->expandAll();
}

QStringList NodePalette::visibleEntries() const
{
    QStringList result;
    for (int g = 0; g < m_model->rowCount(); ++g) {
        const QStandardItem* group = m_model->item(g);
        for (int r = 0; r < group->rowCount(); ++r)
            result << group->child(r)->data(kKindAndTypeRole).toString();
    }
    return result;
}

QStringList NodePalette::visibleGroups() const
{
    QStringList result;
    for (int g = 0; g < m_model->rowCount(); ++g)
        result << m_model->item(g)->text();
    return result;
}

void NodePalette::activateIndex(const QModelIndex& index)
{
    const QString payload = index.data(kKindAndTypeRole).toString();
    if (!payload.isEmpty())
        emit entryActivated(payload);
}

bool NodePalette::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_tree && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_tree->currentIndex().isValid()) {
            activateIndex(m_tree->currentIndex());
            return true;
        }
    }
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if ((enter || key->key() == Qt::Key_Down) && m_model->rowCount() > 0) {
            const QModelIndex first = m_model->index(0, 0, m_model->index(0, 0));
            if (first.isValid()) {
                if (enter) {
                    activateIndex(first);
                } else {
                    m_tree->expand(first.parent());
                    m_tree->setCurrentIndex(first);
                    m_tree->setFocus();
                }
                return true;
            }
        }
        if (key->key() == Qt::Key_Escape && !m_search->text().isEmpty()) {
            m_search->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void NodePalette::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        rebuild();
    }
    QWidget::changeEvent(event);
}

void NodePalette::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search ops and layers"));
    m_search->setToolTip(tr("Type to filter by name or documentation; Enter places the first match"));
}

// --- QuickAddPopup -------------------------------------------------------------------------------------------

QuickAddPopup::QuickAddPopup(std::vector<PaletteEntry> entries, QWidget* parent)
    : QFrame(parent, Qt::Popup), m_entries(std::move(entries))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setFrameShape(QFrame::StyledPanel);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("quickAddSearch"));
    m_search->setPlaceholderText(tr("Add a node…"));
    m_search->installEventFilter(this);
    m_model = new PaletteModel(this);
    m_list = new QListView(this);
    m_list->setObjectName(QStringLiteral("quickAddList"));
    m_list->setModel(m_model);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setUniformItemSizes(true);
    m_list->setFocusPolicy(Qt::NoFocus);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_search);
    layout->addWidget(m_list);
    resize(320, 360);

    connect(m_search, &QLineEdit::textChanged, this, [this] { refilter(); });
    connect(m_list, &QListView::activated, this, &QuickAddPopup::choose);
    connect(m_list, &QListView::doubleClicked, this, &QuickAddPopup::choose);
    refilter();
}

QuickAddPopup::~QuickAddPopup() = default;

QuickAddPopup* QuickAddPopup::showAt(std::vector<PaletteEntry> entries, const QPoint& globalPos, QWidget* parent)
{
    auto* popup = new QuickAddPopup(std::move(entries), parent);
    popup->move(globalPos);
    popup->show();
    popup->m_search->setFocus(Qt::PopupFocusReason);
    return popup;
}

void QuickAddPopup::setFilterText(const QString& text)
{
    m_search->setText(text);
}

void QuickAddPopup::refilter()
{
    m_model->clear();
    for (const PaletteEntry& entry : rankedPaletteEntries(m_entries, m_search->text())) {
        const QString title = entryGroupTitle(entry);
        QStandardItem* item = makeEntryItem(entry, title, paletteMatchRank(entry, m_search->text()));
        item->setText(QStringLiteral("%1  \u2014  %2").arg(entry.type, title));
        m_model->appendRow(item);
    }
    if (m_model->rowCount() > 0)
        m_list->setCurrentIndex(m_model->index(0, 0));
}

QStringList QuickAddPopup::visibleEntries() const
{
    QStringList result;
    for (int r = 0; r < m_model->rowCount(); ++r)
        result << m_model->item(r)->data(NodePalette::kKindAndTypeRole).toString();
    return result;
}

void QuickAddPopup::choose(const QModelIndex& index)
{
    const QString payload = index.data(NodePalette::kKindAndTypeRole).toString();
    if (payload.isEmpty())
        return;
    emit chosen(payload);
    close();
}

bool QuickAddPopup::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        switch (key->key()) {
        case Qt::Key_Return:
        case Qt::Key_Enter: choose(m_list->currentIndex()); return true;
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown: {
            const int rows = m_model->rowCount();
            if (rows == 0)
                return true;
            const int step = key->key() == Qt::Key_Up       ? -1
                             : key->key() == Qt::Key_Down   ? 1
                             : key->key() == Qt::Key_PageUp ? -10
                                                            : 10;
            const int row = std::clamp(m_list->currentIndex().row() + step, 0, rows - 1);
            m_list->setCurrentIndex(m_model->index(row, 0));
            return true;
        }
        case Qt::Key_Escape: close(); return true;
        default: break;
        }
    }
    return QFrame::eventFilter(watched, event);
}

void QuickAddPopup::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        close();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace tstudio::node_editor
