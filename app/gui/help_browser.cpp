// HelpBrowser: the guide's page list, search and Markdown view with history.
#include "help_browser.h"

#include "console/log_panel.h"
#include "dashboard/dashboard_view.h"
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "node_editor/session_console.h"
#include "profiler/profiler_view.h"
#include "records/record_viewer.h"
#include "training/training_panel.h"

#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QPixmap>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio {
namespace {

constexpr int kIdRole = Qt::UserRole + 1;

/// The guide's reading order: the first network, then the panels in the order one meets them.
const QStringList& readingOrder()
{
    static const QStringList order = {
        QStringLiteral("walkthrough"), QStringLiteral("editor"),   QStringLiteral("viewer"),
        QStringLiteral("training"),    QStringLiteral("dashboard"), QStringLiteral("profiler"),
        QStringLiteral("debugger"),    QStringLiteral("records"),  QStringLiteral("console"),
        QStringLiteral("projects")};
    return order;
}

/// The text of the first "# " heading of a Markdown page, else empty.
QString firstHeading(const QString& markdown)
{
    for (QStringView line : QStringView(markdown).split(QLatin1Char('\n'))) {
        const QStringView trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("# ")))
            return trimmed.mid(2).trimmed().toString();
    }
    return {};
}

} // namespace

HelpBrowser::HelpBrowser(QWidget* parent, const QString& root)
    : QWidget(parent, Qt::Window), m_root(root), m_list(new QListWidget(this)), m_browser(new QTextBrowser(this)),
      m_search(new QLineEdit(this)), m_searchStatus(new QLabel(this)), m_back(new QToolButton(this)),
      m_forward(new QToolButton(this)), m_home(new QToolButton(this))
{
    setObjectName(QStringLiteral("helpBrowser"));
    m_list->setObjectName(QStringLiteral("helpPages"));
    m_browser->setObjectName(QStringLiteral("helpPage"));
    m_search->setObjectName(QStringLiteral("helpSearch"));
    m_search->setClearButtonEnabled(true);
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_forward->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    m_home->setIcon(style()->standardIcon(QStyle::SP_DirHomeIcon));
    m_back->setShortcut(QKeySequence::Back);
    m_forward->setShortcut(QKeySequence::Forward);
    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    // Pages link to each other by file name; web links go to the system browser.
    m_browser->setOpenLinks(true);
    m_browser->setOpenExternalLinks(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_back);
    bar->addWidget(m_forward);
    bar->addWidget(m_home);
    bar->addSpacing(12);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_searchStatus);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_list);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({270, 690});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_back, &QToolButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QToolButton::clicked, m_browser, &QTextBrowser::forward);
    connect(m_home, &QToolButton::clicked, this, [this] {
        if (!m_pages.empty())
            showPage(m_pages.front().id);
    });
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, m_forward, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::sourceChanged, this, &HelpBrowser::onSourceChanged);
    connect(m_list, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { showPage(item->data(kIdRole).toString()); });
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { showPage(item->data(kIdRole).toString()); });
    connect(m_search, &QLineEdit::textChanged, this, &HelpBrowser::search);
    // Enter opens the first page that holds the text when the page shown does not.
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        const QStringList found = searchResults();
        if (!found.isEmpty() && !found.contains(m_current))
            showPage(found.front());
    });

    m_browser->viewport()->installEventFilter(this);
    loadPages();
    retranslateUi();
    resize(960, 680);
}

QStringList HelpBrowser::pageIds(const QString& root)
{
    QStringList stems;
    for (const QString& file : QDir(root).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        stems << QFileInfo(file).completeBaseName();
    QStringList ordered;
    for (const QString& id : readingOrder())
        if (stems.contains(id))
            ordered << id;
    for (const QString& id : std::as_const(stems))
        if (!ordered.contains(id))
            ordered << id;
    return ordered;
}

QString HelpBrowser::pageForWidget(const QWidget* widget)
{
    // The Debugger tab holds a graph viewer: its page is the debugger's, whichever part has focus.
    for (const QWidget* w = widget; w; w = w->parentWidget())
        if (qobject_cast<const debugger_ui::DebuggingTab*>(w) || qobject_cast<const debugger_ui::DebuggerView*>(w))
            return QStringLiteral("debugger");
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (qobject_cast<const node_editor::NodeEditor*>(w))
            return QStringLiteral("editor");
        if (qobject_cast<const graph_viewer::GraphViewer*>(w))
            return QStringLiteral("viewer");
        if (qobject_cast<const dashboard::DashboardView*>(w))
            return QStringLiteral("dashboard");
        if (qobject_cast<const profiler::ProfilerView*>(w))
            return QStringLiteral("profiler");
        if (qobject_cast<const records::RecordViewer*>(w))
            return QStringLiteral("records");
        if (qobject_cast<const training_panel::TrainingPanel*>(w))
            return QStringLiteral("training");
        if (qobject_cast<const LogPanel*>(w) || qobject_cast<const node_editor::SessionConsole*>(w))
            return QStringLiteral("console");
    }
    return {};
}

void HelpBrowser::loadPages()
{
    m_pages.clear();
    m_list->clear();
    for (const QString& id : pageIds(m_root)) {
        QFile file(QDir(m_root).filePath(id + QStringLiteral(".md")));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString markdown = QString::fromUtf8(file.readAll());
        QTextDocument rendered;
        rendered.setMarkdown(markdown);
        Page page{id, firstHeading(markdown), rendered.toPlainText()};
        if (page.title.isEmpty())
            page.title = id;
        auto* item = new QListWidgetItem(page.title, m_list);
        item->setData(kIdRole, id);
        item->setToolTip(id + QStringLiteral(".md"));
        m_pages.push_back(std::move(page));
    }
}

QStringList HelpBrowser::pages() const
{
    QStringList ids;
    for (const Page& p : m_pages)
        ids << p.id;
    return ids;
}

QString HelpBrowser::pageTitle(const QString& id) const
{
    const Page* page = findPage(id);
    return page ? page->title : id;
}

QString HelpBrowser::currentPage() const
{
    return m_current;
}

const HelpBrowser::Page* HelpBrowser::findPage(const QString& id) const
{
    for (const Page& p : m_pages)
        if (p.id == id)
            return &p;
    return nullptr;
}

QUrl HelpBrowser::pageUrl(const QString& id) const
{
    const QString path = QDir(m_root).filePath(id + QStringLiteral(".md"));
    if (path.startsWith(QLatin1Char(':')))
        return QUrl(QStringLiteral("qrc") + path);
    return QUrl::fromLocalFile(path);
}

QString HelpBrowser::pageIdOf(const QUrl& url) const
{
    if (url.scheme() == QLatin1String("help"))
        return url.path();
    const QString file = url.fileName();
    if (!file.endsWith(QStringLiteral(".md")))
        return {};
    const QString id = QFileInfo(file).completeBaseName();
    return pageUrl(id).adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery) == url.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery)
               ? id
               : QString();
}

bool HelpBrowser::showPage(const QString& id)
{
    if (!findPage(id)) {
        m_current.clear();
        m_list->setCurrentItem(nullptr);
        const QString text = m_pages.empty()
                                 ? tr("The guide's pages are not in this build: docs/guide holds none of them.")
                                 : tr("The guide has no page \"%1\". Choose a page from the list.").arg(id);
        m_browser->setHtml(QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()));
        m_highlights = 0;
        return false;
    }
    const QUrl url = pageUrl(id);
    if (m_browser->source() == url)
        onSourceChanged(url); // already shown: sourceChanged will not come
    else
        m_browser->setSource(url, QTextDocument::MarkdownResource);
    return true;
}

void HelpBrowser::onSourceChanged(const QUrl& url)
{
    m_current = pageIdOf(url);
    const QSignalBlocker block(m_list);
    m_list->setCurrentItem(nullptr);
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(kIdRole).toString() == m_current)
            m_list->setCurrentRow(i);
    setWindowTitle(m_current.isEmpty() ? tr("TensorStudio Guide")
                                       : tr("%1 — TensorStudio Guide").arg(pageTitle(m_current)));
    fitImages();
    highlight();
}

void HelpBrowser::fitImages()
{
    QTextDocument* document = m_browser->document();
    const double widest = m_browser->viewport()->width() - 2 * document->documentMargin() - 8;
    if (widest < 50)
        return;
    QTextCursor cursor(document);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            const QVariant resource = m_browser->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
            // QTextBrowser hands a file's bytes; a cached resource may be decoded already.
            QSizeF natural;
            if (resource.typeId() == QMetaType::QByteArray)
                natural = QImage::fromData(resource.toByteArray()).size();
            else if (resource.typeId() == QMetaType::QImage)
                natural = resource.value<QImage>().size();
            else if (resource.typeId() == QMetaType::QPixmap)
                natural = resource.value<QPixmap>().size();
            if (natural.isEmpty())
                continue;
            const double width = std::min(natural.width(), widest);
            if (qFuzzyCompare(image.width(), width))
                continue;
            image.setWidth(width);
            image.setHeight(natural.height() * width / natural.width());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

bool HelpBrowser::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_browser->viewport() && event->type() == QEvent::Resize && !m_current.isEmpty())
        fitImages();
    return QWidget::eventFilter(watched, event);
}

void HelpBrowser::openHelpUrl(const QUrl& url)
{
    QString id = pageIdOf(url);
    if (id.isEmpty())
        id = url.path();
    showPage(id);
    show();
    raise();
    activateWindow();
}

void HelpBrowser::search(const QString& text)
{
    m_query = text.trimmed();
    int pagesFound = 0;
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const Page* page = findPage(item->data(kIdRole).toString());
        const int hits = m_query.isEmpty() || !page ? 0 : int(page->plainText.count(m_query, Qt::CaseInsensitive));
        item->setHidden(!m_query.isEmpty() && hits == 0);
        item->setText(hits > 0 ? tr("%1 (%n hit(s))", nullptr, hits).arg(page ? page->title : QString())
                               : (page ? page->title : QString()));
        pagesFound += hits > 0 ? 1 : 0;
    }
    if (m_search->text().trimmed() != m_query) {
        const QSignalBlocker block(m_search);
        m_search->setText(text);
    }
    m_searchStatus->setText(m_query.isEmpty() ? QString() : tr("%n page(s)", nullptr, pagesFound));
    highlight();
}

QStringList HelpBrowser::searchResults() const
{
    QStringList ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (!m_list->item(i)->isHidden())
            ids << m_list->item(i)->data(kIdRole).toString();
    return ids;
}

int HelpBrowser::highlightCount() const
{
    return m_highlights;
}

void HelpBrowser::highlight()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (!m_query.isEmpty() && !m_current.isEmpty()) {
        QTextCharFormat format;
        format.setBackground(QColor(255, 214, 0));
        format.setForeground(Qt::black);
        QTextCursor at = m_browser->document()->find(m_query);
        while (!at.isNull()) {
            selections.append({at, format});
            at = m_browser->document()->find(m_query, at);
        }
        if (!selections.isEmpty()) {
            QTextCursor first = selections.front().cursor;
            first.clearSelection();
            m_browser->setTextCursor(first);
            m_browser->ensureCursorVisible();
        }
    }
    m_browser->setExtraSelections(selections);
    m_highlights = int(selections.size());
}

void HelpBrowser::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void HelpBrowser::retranslateUi()
{
    setWindowTitle(m_current.isEmpty() ? tr("TensorStudio Guide") : tr("%1 — TensorStudio Guide").arg(pageTitle(m_current)));
    m_back->setToolTip(tr("Back (%1)").arg(m_back->shortcut().toString(QKeySequence::NativeText)));
    m_forward->setToolTip(tr("Forward (%1)").arg(m_forward->shortcut().toString(QKeySequence::NativeText)));
    m_home->setToolTip(tr("The first page of the guide"));
    m_search->setPlaceholderText(tr("Search the guide"));
    search(m_search->text());
}

} // namespace tstudio
