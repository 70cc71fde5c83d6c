// StartPage: the welcome page: start actions, recent projects and files, and the example gallery.
#pragma once

#include <QMap>
#include <QWidget>

class QLabel;
class QPushButton;

namespace tstudio {

class AppSettings;
class WelcomeCardGrid;
struct GalleryExample;

/// What the document area shows when no document is open (and Help ▸ Welcome shows): New Graph,
/// Open Project, Open File or Folder; recent projects (.tsproj) and recent files; one card per
/// shipped example project (example_gallery.h) in a grid that reflows with the width. A card
/// trains its example in one click, after checking the data folder an example needs (the card
/// says what is missing). Object names for tests: "exampleCard" (property "exampleId"),
/// "trainButton", "openButton", "dataFolderEdit", "browseButton", "cardMessage".
class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(AppSettings* settings, QWidget* parent = nullptr);

    /// Re-reads the recent files and which example projects exist, keeping typed folders.
    void refresh();
    /// Shows "Back to Documents" (Help ▸ Welcome while documents are open).
    void setDocumentsOpen(bool open);

    /// The card of example `id`, or null when its project is not there.
    QWidget* exampleCard(const QString& id) const;
    /// Ids of the examples shown, in order.
    QStringList exampleIds() const;
    /// The card's message line (what Train found missing); empty when none.
    QString cardMessage(const QString& id) const;
    /// Shows `text` on the card of example `id` (what kept Train from starting); "" clears it.
    void showExampleMessage(const QString& id, const QString& text);
    /// Cards per row of the gallery as now laid out.
    int galleryColumns() const;

signals:
    void newGraphRequested();
    void openProjectRequested();
    void openFileRequested();
    void openFolderRequested();
    void openPathRequested(const QString& path);
    /// "Open" on a card: the example's project in the node editor.
    void openExampleRequested(const QString& id);
    /// "Train" on a card whose data (if any) was found in `dataFolder`.
    void trainExampleRequested(const QString& id, const QString& dataFolder);
    void backToDocumentsRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void rebuildCards();
    void fillRecent();
    QWidget* makeCard(const GalleryExample& example);
    void applyStyle();
    void trainClicked(const QString& id);

    AppSettings* m_settings;
    QLabel* m_title;
    QLabel* m_subtitle;
    QPushButton* m_back;
    QLabel* m_startTitle;
    QPushButton* m_newGraph;
    QPushButton* m_openProject;
    QPushButton* m_openFile;
    QPushButton* m_openFolder;
    QLabel* m_recentProjectsTitle;
    QWidget* m_recentProjects;
    QLabel* m_recentFilesTitle;
    QWidget* m_recentFiles;
    QLabel* m_examplesTitle;
    QLabel* m_examplesSubtitle;
    QLabel* m_noExamples;
    WelcomeCardGrid* m_gallery;
    QList<QWidget*> m_cards;
    bool m_styling = false;
    /// Folders typed on cards, kept across language changes and refreshes.
    QMap<QString, QString> m_folders;
};

} // namespace tstudio
