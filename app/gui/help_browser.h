// HelpBrowser: the in-app guide: the bundled docs/guide pages, searchable, with history and links.
#pragma once

#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QTextBrowser;
class QToolButton;

namespace tstudio {

/// A non-modal window over the guide's Markdown pages (<root>/<id>.md, images under <root>/images).
/// The application's pages are bundled under ":/guide" (app/CMakeLists.txt globs docs/guide at configure
/// time); tests may pass a directory instead. The page list is on the left, the page rendered as
/// Markdown (CommonMark and GitHub's dialect) on the right; a search field lists the pages holding a
/// text and highlights it in the page shown; back and forward follow the pages seen. Links to another
/// page ("editor.md") open here, "help:<id>" URLs too, http(s) links in the system browser.
///
/// openHelpUrl() is the slot the main window registers with QDesktopServices::setUrlHandler("help"),
/// so that a panel's "What is this?" link (EmptyState) opens its page without knowing the window.
class HelpBrowser : public QWidget {
    Q_OBJECT
public:
    explicit HelpBrowser(QWidget* parent = nullptr, const QString& root = QStringLiteral(":/guide"));

    /// The page ids under `root` (file stems of *.md), in reading order: the walkthrough first, then
    /// the panels as the guide introduces them, then any other page by name.
    static QStringList pageIds(const QString& root = QStringLiteral(":/guide"));
    /// The guide page about the panel or document that `widget` is part of ("editor" for a node editor,
    /// "debugger" for the Debugger tab, ...); empty when it is none of them.
    static QString pageForWidget(const QWidget* widget);

    /// Page ids of this browser, in list order.
    QStringList pages() const;
    /// The title of page `id` (its first "# " heading, else the id).
    QString pageTitle(const QString& id) const;
    /// The page shown; empty when none is (or a missing page was asked for).
    QString currentPage() const;
    /// Shows page `id` (adds it to the history); false, with a message in the page area, when the guide
    /// has no such page.
    bool showPage(const QString& id);

    /// Searches every page for `text` (case-insensitive): the page list keeps the pages that hold it,
    /// each with its number of hits, and the page shown highlights it. An empty text lists every page.
    void search(const QString& text);
    /// The ids of the pages the last search found (every page after an empty search).
    QStringList searchResults() const;
    /// Hits highlighted in the page shown.
    int highlightCount() const;

    QTextBrowser* browser() const { return m_browser; }
    QLineEdit* searchField() const { return m_search; }
    QListWidget* pageList() const { return m_list; }
    QToolButton* backButton() const { return m_back; }
    QToolButton* forwardButton() const { return m_forward; }

public slots:
    /// Shows and raises the window at the page of a "help:<id>" URL (or a page URL of this guide).
    void openHelpUrl(const QUrl& url);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Page {
        QString id;
        QString title;
        QString plainText; ///< the rendered text, what the search looks in
    };

    void loadPages();
    void retranslateUi();
    QUrl pageUrl(const QString& id) const;
    QString pageIdOf(const QUrl& url) const;
    const Page* findPage(const QString& id) const;
    void onSourceChanged(const QUrl& url);
    void highlight();
    /// Scales the page's images down to the view's width (a screenshot is wider than the text column).
    void fitImages();

    QString m_root;
    std::vector<Page> m_pages;
    QString m_current;
    QString m_query;
    int m_highlights = 0;
    QListWidget* m_list;
    QTextBrowser* m_browser;
    QLineEdit* m_search;
    QLabel* m_searchStatus;
    QToolButton* m_back;
    QToolButton* m_forward;
    QToolButton* m_home;
};

} // namespace tstudio
