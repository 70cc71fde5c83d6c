// EmptyState: a panel's "nothing here yet" page with a link to its guide page.
#include "common/empty_state.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QChildEvent>
#include <QDesktopServices>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace tstudio {

EmptyState::EmptyState(const QString& page, QWidget* parent)
    : QWidget(parent), m_page(page), m_title(new QLabel(this)), m_text(new QLabel(this)),
      m_buttons(new QHBoxLayout), m_link(new QLabel(this))
{
    setObjectName(QStringLiteral("emptyState"));
    setFocusPolicy(Qt::NoFocus);
    // Drops fall through to the nearest ancestor that accepts them (the covered canvas).
    setAcceptDrops(false);

    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setObjectName(QStringLiteral("emptyStateTitle"));
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true);
    m_text->setObjectName(QStringLiteral("emptyStateText"));
    m_text->setAlignment(Qt::AlignCenter);
    m_text->setWordWrap(true);
    // Long enough lines to read, short enough to stay a paragraph on a wide tab.
    m_text->setMaximumWidth(520);
    m_text->setForegroundRole(QPalette::PlaceholderText);
    m_link->setObjectName(QStringLiteral("emptyStateHelpLink"));
    m_link->setAlignment(Qt::AlignCenter);
    m_link->setTextFormat(Qt::RichText);
    m_link->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_link->setOpenExternalLinks(false);
    connect(m_link, &QLabel::linkActivated, this, &EmptyState::openHelp);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(6);
    layout->addStretch(2);
    layout->addWidget(m_title);
    // Centred by stretches, not by an alignment flag: an aligned item loses the label's height-for-width
    // and the wrapped lines are cut.
    auto* textRow = new QHBoxLayout;
    textRow->addStretch(1);
    textRow->addWidget(m_text, 100);
    textRow->addStretch(1);
    layout->addLayout(textRow);
    m_buttons->addStretch(1);
    m_buttons->addStretch(1);
    layout->addLayout(m_buttons);
    layout->addWidget(m_link);
    layout->addStretch(3);
    retranslateUi();
}

EmptyState* EmptyState::cover(QWidget* target, const QString& page, bool opaque)
{
    // A splitter adopts every child widget as a pane: over one, the state is the splitter's sibling.
    QWidget* parent = qobject_cast<QSplitter*>(target) && target->parentWidget() ? target->parentWidget() : target;
    auto* state = new EmptyState(page, parent);
    state->m_covered = target;
    if (opaque) {
        // A list or canvas is drawn on the base colour, a form on the window's.
        state->setBackgroundRole(qobject_cast<QAbstractScrollArea*>(target) ? QPalette::Base : target->backgroundRole());
        state->setAutoFillBackground(true);
    }
    target->installEventFilter(state);
    state->follow();
    state->raise();
    return state;
}

void EmptyState::follow()
{
    if (!m_covered)
        return;
    const QRect area = m_covered == parentWidget() ? m_covered->rect() : m_covered->geometry();
    if (geometry() != area)
        setGeometry(area);
}

void EmptyState::setTitle(const QString& title)
{
    m_title->setText(title);
}

void EmptyState::setText(const QString& text)
{
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
}

QString EmptyState::title() const
{
    return m_title->text();
}

QString EmptyState::text() const
{
    return m_text->text();
}

QPushButton* EmptyState::addButton(QAction* action)
{
    auto* button = new QPushButton(this);
    auto follow = [button, action] {
        button->setText(action->text());
        button->setEnabled(action->isEnabled());
        button->setToolTip(action->toolTip());
    };
    follow();
    connect(action, &QAction::changed, button, follow);
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
    m_buttons->insertWidget(m_buttons->count() - 1, button);
    return button;
}

QUrl EmptyState::helpUrl(const QString& page)
{
    QUrl url;
    url.setScheme(QStringLiteral("help"));
    url.setPath(page);
    return url;
}

void EmptyState::openHelp()
{
    QDesktopServices::openUrl(helpUrl());
}

bool EmptyState::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_covered) {
        if (event->type() == QEvent::Resize || event->type() == QEvent::Move)
            follow();
        // A widget the panel adds later would be stacked above: stay on top.
        else if (event->type() == QEvent::ChildAdded && static_cast<QChildEvent*>(event)->child() != this)
            raise();
    }
    return QWidget::eventFilter(watched, event);
}

void EmptyState::moveEvent(QMoveEvent* event)
{
    QWidget::moveEvent(event);
    // A scroll area's viewport moves its children when it scrolls (a canvas centring its scene): stay put.
    follow();
}

void EmptyState::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    follow(); // the covered widget may have been resized while hidden, without a resize event
}

void EmptyState::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void EmptyState::retranslateUi()
{
    m_link->setText(QStringLiteral("<a href=\"%1\">%2</a>").arg(helpUrl().toString(), tr("What is this?").toHtmlEscaped()));
    m_link->setToolTip(tr("Open the guide's page about this panel (F1)"));
}

} // namespace tstudio
