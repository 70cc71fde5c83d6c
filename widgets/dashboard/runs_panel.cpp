// RunsPanel: the run tree, its filter and the per-run colours.
#include "dashboard/runs_panel.h"

#include <QColorDialog>
#include <QCryptographicHash>
#include <QEvent>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QSettings>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tstudio::dashboard {
namespace {

/// The QSettings key of the colours saved for `key` (hashed: log directory paths hold separators).
QString coloursSettingsKey(const QString& key)
{
    return QStringLiteral("dashboard/runColours/") +
           QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace
namespace {

constexpr int kRunRole = Qt::UserRole + 1; // the run name; empty for a folder that is not a run

QIcon swatch(const QColor& colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(colour.darker(130));
    p.setBrush(colour);
    p.drawRoundedRect(QRectF(1.5, 1.5, 11, 11), 3, 3);
    return QIcon(pixmap);
}

} // namespace

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent), m_filterEdit(new QLineEdit(this)), m_tree(new QTreeWidget(this)), m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("dashboardRuns"));
    m_filterEdit->setObjectName(QStringLiteral("runFilter"));
    m_filterEdit->setClearButtonEnabled(true);
    m_tree->setObjectName(QStringLiteral("runTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_count->setObjectName(QStringLiteral("runCount"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_count);

    connect(m_filterEdit, &QLineEdit::textChanged, this, &RunsPanel::setFilter);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
        const QString run = item->data(0, kRunRole).toString();
        if (m_updating || run.isEmpty())
            return;
        const bool checked = item->checkState(0) == Qt::Checked;
        if (m_checked.value(run) == checked)
            return;
        m_checked[run] = checked;
        retranslateUi();
        emit stylesChanged();
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
        const QString run = item->data(0, kRunRole).toString();
        if (!run.isEmpty())
            chooseColour(run);
    });
    connect(m_tree, &QTreeWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QTreeWidgetItem* item = m_tree->itemAt(pos);
        const QString run = item ? item->data(0, kRunRole).toString() : QString();
        QMenu menu(this);
        if (!run.isEmpty()) {
            menu.addAction(tr("Change Colour…"), this, [this, run] { chooseColour(run); });
            menu.addAction(tr("Show Only This Run"), this, [this, run] { showOnly(run); });
            menu.addSeparator();
            menu.addAction(tr("Delete Run Folder…"), this, [this, run] { emit deleteRunRequested(run); });
            menu.addSeparator();
        }
        menu.addAction(tr("Show All Runs"), this, &RunsPanel::showAll);
        menu.exec(m_tree->viewport()->mapToGlobal(pos));
    });
    retranslateUi();
}

void RunsPanel::retranslateUi()
{
    m_filterEdit->setPlaceholderText(tr("Filter runs (regex)"));
    m_tree->setToolTip(tr("Tick to show a run; double-click to change its colour"));
    int shown = 0;
    for (const RunStyle& s : styles())
        shown += s.visible ? 1 : 0;
    m_count->setText(tr("%n run(s)", nullptr, static_cast<int>(m_order.size())) + QStringLiteral(" · ") +
                     tr("%1 shown").arg(shown));
}

void RunsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QTreeWidgetItem* RunsPanel::itemFor(const QString& path)
{
    if (QTreeWidgetItem* item = m_items.value(path))
        return item;
    const int slash = path.lastIndexOf(QLatin1Char('/'));
    QTreeWidgetItem* item = nullptr;
    if (slash > 0 && path != QLatin1String(".")) {
        QTreeWidgetItem* parent = itemFor(path.left(slash));
        item = new QTreeWidgetItem(parent);
        item->setText(0, path.mid(slash + 1));
        parent->setExpanded(true);
    } else {
        item = new QTreeWidgetItem(m_tree);
        item->setText(0, path);
    }
    item->setToolTip(0, path);
    m_items.insert(path, item);
    return item;
}

void RunsPanel::addRuns(const QStringList& runs)
{
    bool added = false;
    m_updating = true;
    for (const QString& run : runs) {
        if (m_checked.contains(run)) // known and not removed
            continue;
        if (!m_colours.contains(run)) { // a run removed earlier comes back in its colour
            const QColor saved(m_savedColours.value(run).toString());
            m_colours.insert(run, saved.isValid() ? saved : defaultRunColour(static_cast<int>(m_order.size())));
        }
        m_checked.insert(run, true);
        m_order << run;
        QTreeWidgetItem* item = itemFor(run);
        item->setData(0, kRunRole, run);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        refreshItem(run);
        added = true;
    }
    m_updating = false;
    if (added) {
        m_tree->sortItems(0, Qt::AscendingOrder);
        applyFilter();
    }
}

void RunsPanel::removeRun(const QString& run)
{
    if (!m_order.contains(run))
        return;
    m_order.removeAll(run);
    m_checked.remove(run);
    m_updating = true;
    // The item goes unless runs lie below it (then it stays as their folder, without a tick box);
    // folders left with nothing in them go too.
    for (QTreeWidgetItem* item = m_items.value(run); item;) {
        const QString path = m_items.key(item);
        if (item->childCount() > 0 || m_order.contains(path)) {
            if (path == run) {
                item->setData(0, kRunRole, QVariant());
                item->setData(0, Qt::CheckStateRole, QVariant());
                item->setIcon(0, QIcon());
            }
            break;
        }
        QTreeWidgetItem* parent = item->parent();
        m_items.remove(path);
        delete item;
        item = parent;
    }
    m_updating = false;
    retranslateUi();
}

void RunsPanel::refreshItem(const QString& run)
{
    QTreeWidgetItem* item = m_items.value(run);
    if (!item)
        return;
    const bool updating = m_updating;
    m_updating = true;
    item->setCheckState(0, m_checked.value(run) ? Qt::Checked : Qt::Unchecked);
    item->setIcon(0, swatch(m_colours.value(run)));
    m_updating = updating;
}

QVector<RunStyle> RunsPanel::styles() const
{
    QVector<RunStyle> out;
    const QRegularExpression re(m_filter, QRegularExpression::CaseInsensitiveOption);
    for (const QString& run : m_order) {
        const bool passes = m_filter.isEmpty() || !m_filterValid || re.match(run).hasMatch();
        out.push_back({run, m_colours.value(run), m_checked.value(run) && passes});
    }
    return out;
}

void RunsPanel::setRunChecked(const QString& run, bool checked)
{
    if (!m_checked.contains(run) || m_checked.value(run) == checked)
        return;
    m_checked[run] = checked;
    refreshItem(run);
    retranslateUi();
    emit stylesChanged();
}

void RunsPanel::setRunColour(const QString& run, const QColor& colour)
{
    if (!m_colours.contains(run) || !colour.isValid() || m_colours.value(run) == colour)
        return;
    m_colours[run] = colour;
    if (!m_settingsKey.isEmpty()) {
        m_savedColours.insert(run, colour.name());
        QSettings().setValue(coloursSettingsKey(m_settingsKey), m_savedColours);
    }
    refreshItem(run);
    emit stylesChanged();
}

void RunsPanel::setSettingsKey(const QString& key)
{
    m_settingsKey = key;
    m_savedColours = key.isEmpty() ? QVariantMap() : QSettings().value(coloursSettingsKey(key)).toMap();
    bool changed = false;
    for (auto it = m_savedColours.cbegin(); it != m_savedColours.cend(); ++it) {
        const QColor saved(it.value().toString());
        if (saved.isValid() && m_colours.contains(it.key()) && m_colours.value(it.key()) != saved) {
            m_colours[it.key()] = saved;
            refreshItem(it.key());
            changed = true;
        }
    }
    if (changed)
        emit stylesChanged();
}

void RunsPanel::chooseColour(const QString& run)
{
    const QColor colour = QColorDialog::getColor(m_colours.value(run), this, tr("Colour of %1").arg(run));
    setRunColour(run, colour);
}

void RunsPanel::setFilter(const QString& pattern)
{
    if (m_filterEdit->text() != pattern)
        m_filterEdit->setText(pattern); // comes back here through textChanged
    if (m_filter == pattern)
        return;
    m_filter = pattern;
    m_filterValid = QRegularExpression(pattern).isValid();
    m_filterEdit->setStyleSheet(m_filterValid ? QString() : QStringLiteral("color: #c62828;"));
    m_filterEdit->setToolTip(m_filterValid ? QString() : QRegularExpression(pattern).errorString());
    applyFilter();
    emit stylesChanged();
}

void RunsPanel::applyFilter()
{
    const QRegularExpression re(m_filter, QRegularExpression::CaseInsensitiveOption);
    // A folder stays while any run under it matches.
    for (auto it = m_items.begin(); it != m_items.end(); ++it)
        it.value()->setHidden(true);
    for (const QString& run : m_order) {
        if (!m_filter.isEmpty() && m_filterValid && !re.match(run).hasMatch())
            continue;
        for (QTreeWidgetItem* item = m_items.value(run); item; item = item->parent())
            item->setHidden(false);
    }
    retranslateUi();
}

void RunsPanel::showOnly(const QString& run)
{
    showOnly(QStringList{run});
}

void RunsPanel::showOnly(const QStringList& runs)
{
    for (const QString& r : m_order) {
        m_checked[r] = runs.contains(r);
        refreshItem(r);
    }
    retranslateUi();
    emit stylesChanged();
}

void RunsPanel::showAll()
{
    for (const QString& r : m_order) {
        m_checked[r] = true;
        refreshItem(r);
    }
    retranslateUi();
    emit stylesChanged();
}

} // namespace tstudio::dashboard
