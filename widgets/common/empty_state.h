// EmptyState: what a panel shows while it has nothing to show: a title, what to do next, optional
// buttons and a "What is this?" link to the panel's page of the guide.
#pragma once

#include <QList>
#include <QPointer>
#include <QString>
#include <QUrl>
#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QHBoxLayout;

namespace tstudio {

/// A panel's empty state. Panels make one with cover(), which lays it over a widget of theirs
/// (following its size) so that no layout changes, and show or hide it as their content comes and
/// goes. The "What is this?" link opens the URL "help:<page>" with QDesktopServices::openUrl: the
/// application registers a handler for the "help" scheme (the guide browser), so that widgets need
/// no link to the application layer.
///
/// Mouse, wheel and drop events on the empty state's background fall through to the covered widget
/// (a canvas stays zoomable and accepts drops); only the link and the buttons take clicks.
/// GUI thread only. Texts are the caller's, already translated; the link's text is translated here.
class EmptyState : public QWidget {
    Q_OBJECT
public:
    /// `page`: the guide page id, the stem of docs/guide/<page>.md ("dashboard").
    explicit EmptyState(const QString& page, QWidget* parent = nullptr);

    /// A new empty state over `target` (a child of it, raised, resized with it). `opaque`: paints
    /// the base colour so that what `target` draws does not show through; a canvas with its own
    /// background (a grid) passes false. The state starts shown; hide it when the content arrives.
    static EmptyState* cover(QWidget* target, const QString& page, bool opaque = true);

    void setTitle(const QString& title);
    void setText(const QString& text);
    QString title() const;
    QString text() const;

    /// Adds a button that triggers `action`; its text and enabled state follow the action's.
    QPushButton* addButton(QAction* action);

    QString page() const { return m_page; }
    /// "help:<page>".
    QUrl helpUrl() const { return helpUrl(m_page); }
    static QUrl helpUrl(const QString& page);
    /// The widget cover() laid this state over; null otherwise.
    QWidget* covered() const { return m_covered; }
    /// The "What is this?" link (its href is helpUrl()).
    QLabel* helpLink() const { return m_link; }

public slots:
    /// Opens helpUrl() through QDesktopServices (what the link does).
    void openHelp();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslateUi();
    /// Takes the covered widget's area (cover()); nothing for a state made otherwise.
    void follow();

    QString m_page;
    QPointer<QWidget> m_covered;
    QLabel* m_title;
    QLabel* m_text;
    QHBoxLayout* m_buttons;
    QLabel* m_link;
};

} // namespace tstudio
