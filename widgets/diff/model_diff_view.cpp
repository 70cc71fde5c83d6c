// ModelDiffView: the differences between two graphs or two checkpoints as a tree.
#include "diff/model_diff_view.h"

#include "common/background_run.h"
#include "diff/model_diff.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace tstudio::diff_ui {
namespace {

constexpr int kExpandedRows = 50;

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
    return QLocale().toString(v, 'g', 4);
}

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

ModelDiffView::ModelDiffView(QWidget* parent)
    : QWidget(parent), m_header(new QLabel(this)), m_filter(new QLineEdit(this)), m_tree(new QTreeWidget(this))
{
    m_header->setObjectName("diffHeader");
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter->setObjectName("diffFilter");
    m_filter->setClearButtonEnabled(true);
    m_tree->setObjectName("diffTree");
    m_tree->setColumnCount(5);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(0, 340);
    for (int c = 1; c < 4; ++c)
        m_tree->setColumnWidth(c, 180);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_header);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &ModelDiffView::applyFilter);
    retranslateUi();
}

ModelDiffView::~ModelDiffView() = default;

QString ModelDiffView::title() const
{
    QString a = QFileInfo(m_first).fileName(), b = QFileInfo(m_second).fileName();
    if (a == b) { // "run1/graph.pbtxt ↔ run2/graph.pbtxt"
        a = QFileInfo(m_first).dir().dirName() + QLatin1Char('/') + a;
        b = QFileInfo(m_second).dir().dirName() + QLatin1Char('/') + b;
    }
    return tr("%1 ↔ %2").arg(a, b);
}

void ModelDiffView::compare(const QString& first, const QString& second)
{
    m_first = first;
    m_second = second;
    m_error.clear();
    m_busy = true;
    m_diff.reset();
    m_tree->clear();
    retranslateUi();
    if (m_watcher)
        m_watcher->disconnect(this);
    auto* watcher = new QFutureWatcher<std::shared_ptr<const diff::ModelDiff>>(this);
    m_watcher = watcher;
    auto error = std::make_shared<QString>();
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, error] {
        watcher->deleteLater();
        if (watcher != m_watcher)
            return;
        m_watcher = nullptr;
        m_busy = false;
        m_diff = watcher->result();
        m_error = m_diff ? QString() : *error;
        retranslateUi();
        emit ready(m_diff != nullptr);
    });
    watcher->setFuture(runInBackground([a = first.toStdString(), b = second.toStdString(), error]() {
        auto d = diff::diffModels(a, b);
        if (!d) {
            *error = QString::fromStdString(d.error().message());
            return std::shared_ptr<const diff::ModelDiff>();
        }
        return std::shared_ptr<const diff::ModelDiff>(std::make_shared<diff::ModelDiff>(std::move(*d)));
    }));
}

void ModelDiffView::showDiff(const diff::ModelDiff& d)
{
    m_tree->clear();
    auto group = [this](const QString& title, int count) {
        auto* item = new QTreeWidgetItem(m_tree, {title.arg(count)});
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        item->setFirstColumnSpanned(true);
        return item;
    };
    auto expand = [](QTreeWidgetItem* item) { item->setExpanded(item->childCount() <= kExpandedRows); };
    if (d.isGraph()) {
        const diff::GraphDiff& g = d.graph();
        m_tree->setHeaderLabels({tr("Node"), tr("Change"), tr("Before"), tr("After"), QString()});
        // What changed first: edits and renames tell more than the lists of nodes only one side has.
        auto* changed = group(tr("Changed (%1)"), static_cast<int>(g.changed.size()));
        for (const diff::ChangedNode& c : g.changed) {
            auto* node = new QTreeWidgetItem(changed, {text(c.name), text(c.op)});
            for (const diff::NodeChange& change : c.changes) {
                const QString what = change.what == "op"              ? tr("op")
                                     : change.what == "device"        ? tr("device")
                                     : change.what == "inputs"        ? tr("inputs")
                                     : change.what == "output shapes" ? tr("output shapes")
                                     : change.what.rfind("attr ", 0) == 0
                                         ? tr("attr %1").arg(text(change.what.substr(5)))
                                         : text(change.what);
                new QTreeWidgetItem(node, {QString(), what, change.before.empty() ? tr("(none)") : text(change.before),
                                           change.after.empty() ? tr("(none)") : text(change.after)});
            }
            node->setExpanded(g.changed.size() <= 10);
        }
        auto* renamed = group(tr("Renamed (%1)"), static_cast<int>(g.renamed.size()));
        for (const auto& [from, to] : g.renamed)
            new QTreeWidgetItem(renamed, {text(to), tr("renamed"), text(from), text(to)});
        auto* added = group(tr("Added (%1)"), static_cast<int>(g.added.size()));
        for (const std::string& n : g.added)
            new QTreeWidgetItem(added, {text(n), tr("added")});
        auto* removed = group(tr("Removed (%1)"), static_cast<int>(g.removed.size()));
        for (const std::string& n : g.removed)
            new QTreeWidgetItem(removed, {text(n), tr("removed")});
        for (QTreeWidgetItem* item : {changed, renamed, added, removed})
            expand(item);
    } else {
        const diff::CheckpointDiff& c = d.checkpoint();
        m_tree->setHeaderLabels(
            {tr("Tensor"), tr("Dtype and shape"), tr("Max |Δ|"), tr("Relative change"), tr("Changed elements")});
        int changedCount = 0;
        for (const diff::TensorChange& t : c.common)
            changedCount += t.changed() ? 1 : 0;
        auto* changed = group(tr("Changed (%1)"), changedCount);
        auto* added = group(tr("Added (%1)"), static_cast<int>(c.added.size()));
        for (const std::string& n : c.added)
            new QTreeWidgetItem(added, {text(n), tr("added")});
        auto* removed = group(tr("Removed (%1)"), static_cast<int>(c.removed.size()));
        for (const std::string& n : c.removed)
            new QTreeWidgetItem(removed, {text(n), tr("removed")});
        auto* unchanged = group(tr("Unchanged (%1)"), static_cast<int>(c.common.size()) - changedCount);
        for (const diff::TensorChange& t : c.common) {
            QString kind = text(t.dtypeBefore + " " + t.shapeBefore);
            if (t.dtypeBefore != t.dtypeAfter || t.shapeBefore != t.shapeAfter)
                kind = tr("%1 → %2").arg(kind, text(t.dtypeAfter + " " + t.shapeAfter));
            QStringList cells{text(t.name), kind};
            if (t.compared)
                cells << number(t.maxAbsDelta) << number(t.relativeChange)
                      << tr("%1 of %2")
                             .arg(QLocale().toString(qlonglong(t.changedElements)),
                                  QLocale().toString(qlonglong(t.elements)));
            new QTreeWidgetItem(t.changed() ? changed : unchanged, cells);
        }
        for (QTreeWidgetItem* item : {changed, added, removed})
            expand(item);
    }
    applyFilter();
}

void ModelDiffView::applyFilter()
{
    const QString needle = m_filter->text().trimmed();
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* row = group->child(i);
            row->setHidden(!needle.isEmpty() && !row->text(0).contains(needle, Qt::CaseInsensitive) &&
                           !row->text(2).contains(needle, Qt::CaseInsensitive));
        }
    }
}

void ModelDiffView::retranslateUi()
{
    m_filter->setPlaceholderText(tr("Filter names"));
    if (m_busy) {
        m_header->setText(tr("Comparing %1 with %2…").arg(m_first, m_second));
        return;
    }
    if (!m_error.isEmpty()) {
        m_header->setText(tr("Cannot compare: %1").arg(m_error));
        return;
    }
    if (!m_diff) {
        m_header->setText(tr("Choose File ▸ Compare… to compare two graphs or two checkpoints."));
        return;
    }
    if (m_diff->isGraph()) {
        const diff::GraphDiff& g = m_diff->graph();
        m_header->setText(tr("Graphs %1 (%2 nodes) and %3 (%4 nodes): %5 unchanged, %6 changed, %7 renamed, "
                             "%8 removed, %9 added")
                              .arg(m_first)
                              .arg(g.firstNodes)
                              .arg(m_second)
                              .arg(g.secondNodes)
                              .arg(g.unchanged)
                              .arg(g.changed.size())
                              .arg(g.renamed.size())
                              .arg(g.removed.size())
                              .arg(g.added.size()));
    } else {
        const diff::CheckpointDiff& c = m_diff->checkpoint();
        int changed = 0;
        for (const diff::TensorChange& t : c.common)
            changed += t.changed() ? 1 : 0;
        m_header->setText(tr("Checkpoints %1 and %2: %3 tensors in both (%4 changed), %5 removed, %6 added")
                              .arg(m_first, m_second)
                              .arg(c.common.size())
                              .arg(changed)
                              .arg(c.removed.size())
                              .arg(c.added.size()));
    }
    showDiff(*m_diff);
}

void ModelDiffView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::diff_ui
