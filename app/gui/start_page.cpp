// StartPage: a scrolling welcome page: start actions and recent lists beside a reflowing gallery of example cards.
#include "start_page.h"

#include "app_settings.h"
#include "example_gallery.h"

#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace tstudio {

namespace {
constexpr int kCardWidth = 280;
constexpr int kCardSpacing = 16;
constexpr int kCardPadding = 12;
constexpr int kMaxRecentProjects = 5;
constexpr int kMaxRecentFiles = 6;
const char* kIdProperty = "exampleId";
const char* kFolderSettingPrefix = "examples/dataFolder/";

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QLabel* sectionTitle(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("sectionTitle"));
    return label;
}
} // namespace

/// The gallery: fixed-width cards in as many columns as the width takes, reflowed on resize. Its
/// minimum width is one card, so the page narrows to one column instead of scrolling sideways.
class WelcomeCardGrid : public QWidget {
public:
    explicit WelcomeCardGrid(QWidget* parent)
        : QWidget(parent), m_grid(new QGridLayout(this))
    {
        m_grid->setContentsMargins(0, 0, 0, 0);
        m_grid->setSpacing(kCardSpacing);
        m_grid->setSizeConstraint(QLayout::SetNoConstraint);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    }

    void setCards(const QList<QWidget*>& cards)
    {
        m_cards = cards;
        m_columns = 0;
        reflow();
    }

    int columns() const { return m_columns; }

    QSize minimumSizeHint() const override { return {kCardWidth, m_grid->minimumSize().height()}; }
    QSize sizeHint() const override { return {kCardWidth, m_grid->sizeHint().height()}; }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        reflow();
    }

private:
    void reflow()
    {
        const int columns = std::max(1, (width() + kCardSpacing) / (kCardWidth + kCardSpacing));
        if (columns == m_columns)
            return;
        m_columns = columns;
        while (m_grid->count() > 0)
            delete m_grid->takeAt(0);
        for (int c = 0; c < m_grid->columnCount(); ++c)
            m_grid->setColumnStretch(c, 0);
        for (int i = 0; i < m_cards.size(); ++i)
            m_grid->addWidget(m_cards[i], i / columns, i % columns);
        m_grid->setColumnStretch(columns, 1); // cards stay left-aligned, the rest is margin
        updateGeometry();
    }

    QGridLayout* m_grid;
    QList<QWidget*> m_cards;
    int m_columns = 0;
};

StartPage::StartPage(AppSettings* settings, QWidget* parent)
    : QWidget(parent),
      m_settings(settings),
      m_title(new QLabel),
      m_subtitle(new QLabel),
      m_back(new QPushButton),
      m_startTitle(nullptr),
      m_newGraph(new QPushButton),
      m_openProject(new QPushButton),
      m_openFile(new QPushButton),
      m_openFolder(new QPushButton),
      m_recentProjectsTitle(nullptr),
      m_recentProjects(new QWidget),
      m_recentFilesTitle(nullptr),
      m_recentFiles(new QWidget),
      m_examplesTitle(nullptr),
      m_examplesSubtitle(new QLabel),
      m_noExamples(new QLabel),
      m_gallery(nullptr)
{
    setObjectName(QStringLiteral("startPage"));
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("welcomeScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("welcomeContent"));
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    // Header: the program's icon and name, what it is for, and the way back to open documents.
    auto* icon = new QLabel(content);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/tensorstudio.svg")).pixmap(48, 48));
    m_title->setObjectName(QStringLiteral("welcomeTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_subtitle->setObjectName(QStringLiteral("welcomeSubtitle"));
    m_subtitle->setWordWrap(true);
    m_back->setObjectName(QStringLiteral("backToDocuments"));
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_back->hide();
    auto* titles = new QVBoxLayout;
    titles->setSpacing(2);
    titles->addWidget(m_title);
    titles->addWidget(m_subtitle);
    auto* header = new QHBoxLayout;
    header->setSpacing(14);
    header->addWidget(icon, 0, Qt::AlignTop);
    header->addLayout(titles, 1);
    header->addWidget(m_back, 0, Qt::AlignTop);

    // Left column: start actions, then the recent lists.
    auto* left = new QWidget(content);
    left->setObjectName(QStringLiteral("welcomeStart"));
    left->setFixedWidth(240);
    auto* leftColumn = new QVBoxLayout(left);
    leftColumn->setContentsMargins(0, 0, 0, 0);
    leftColumn->setSpacing(2);
    m_startTitle = sectionTitle(left);
    leftColumn->addWidget(m_startTitle);
    leftColumn->addSpacing(4);
    const std::pair<QPushButton*, QStyle::StandardPixmap> actions[] = {
        {m_newGraph, QStyle::SP_FileIcon},
        {m_openProject, QStyle::SP_DialogOpenButton},
        {m_openFile, QStyle::SP_FileDialogContentsView},
        {m_openFolder, QStyle::SP_DirOpenIcon}};
    for (const auto& [button, pixmap] : actions) {
        button->setParent(left);
        button->setObjectName(QStringLiteral("startAction"));
        button->setIcon(style()->standardIcon(pixmap));
        button->setCursor(Qt::PointingHandCursor);
        leftColumn->addWidget(button);
    }
    m_newGraph->setProperty("action", QStringLiteral("newGraph"));
    m_openProject->setProperty("action", QStringLiteral("openProject"));
    m_openFile->setProperty("action", QStringLiteral("openFile"));
    m_openFolder->setProperty("action", QStringLiteral("openFolder"));
    leftColumn->addSpacing(22);
    m_recentProjectsTitle = sectionTitle(left);
    leftColumn->addWidget(m_recentProjectsTitle);
    m_recentProjects->setObjectName(QStringLiteral("recentProjects"));
    m_recentProjects->setParent(left);
    new QVBoxLayout(m_recentProjects);
    leftColumn->addWidget(m_recentProjects);
    leftColumn->addSpacing(18);
    m_recentFilesTitle = sectionTitle(left);
    leftColumn->addWidget(m_recentFilesTitle);
    m_recentFiles->setObjectName(QStringLiteral("recentFiles"));
    m_recentFiles->setParent(left);
    new QVBoxLayout(m_recentFiles);
    leftColumn->addWidget(m_recentFiles);
    leftColumn->addStretch(1);
    for (QWidget* list : {m_recentProjects, m_recentFiles}) {
        list->layout()->setContentsMargins(0, 4, 0, 0);
        list->layout()->setSpacing(8);
    }

    // Right column: the example gallery.
    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    m_examplesTitle = sectionTitle(content);
    m_examplesSubtitle->setObjectName(QStringLiteral("examplesSubtitle"));
    m_examplesSubtitle->setWordWrap(true);
    m_noExamples->setObjectName(QStringLiteral("noExamples"));
    m_noExamples->setWordWrap(true);
    m_noExamples->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gallery = new WelcomeCardGrid(content);
    m_gallery->setObjectName(QStringLiteral("exampleGallery"));
    right->addWidget(m_examplesTitle);
    right->addWidget(m_examplesSubtitle);
    right->addSpacing(8);
    right->addWidget(m_noExamples);
    right->addWidget(m_gallery);
    right->addStretch(1);

    auto* body = new QHBoxLayout;
    body->setSpacing(28);
    body->addWidget(left, 0);
    body->addLayout(right, 1);

    auto* page = new QVBoxLayout(content);
    page->setContentsMargins(32, 18, 28, 18);
    page->setSpacing(0);
    page->addLayout(header);
    page->addSpacing(18);
    page->addLayout(body, 1);

    connect(m_back, &QPushButton::clicked, this, &StartPage::backToDocumentsRequested);
    connect(m_newGraph, &QPushButton::clicked, this, &StartPage::newGraphRequested);
    connect(m_openProject, &QPushButton::clicked, this, &StartPage::openProjectRequested);
    connect(m_openFile, &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(m_openFolder, &QPushButton::clicked, this, &StartPage::openFolderRequested);

    // Data folders chosen on earlier runs (the settings in screenshot mode are a copy).
    if (m_settings && m_settings->qsettings())
        for (const GalleryExample& e : galleryExamples())
            if (e.needsFolder)
                m_folders.insert(e.id, m_settings->qsettings()->value(QLatin1String(kFolderSettingPrefix) + e.id).toString());
    applyStyle();
    retranslateUi();
}

void StartPage::applyStyle()
{
    // Colours from the palette, so the page follows the light and dark themes (re-applied on change).
    m_styling = true;
    const QPalette p = palette();
    const QColor window = p.color(QPalette::Window), text = p.color(QPalette::WindowText);
    // Cards between the page and the fields on them, so a folder field stands out in both themes.
    const QColor base = mix(window, p.color(QPalette::Base), 0.6);
    const QColor border = mix(window, text, 0.18), hoverBorder = p.color(QPalette::Highlight);
    const QColor muted = mix(window, text, 0.62), hover = mix(window, text, 0.08);
    const QColor accent = p.color(QPalette::Highlight), accentText = p.color(QPalette::HighlightedText);
    setStyleSheet(QStringLiteral(
                      "#welcomeContent { background: %1; }"
                      "#exampleCard { background: %2; border: 1px solid %3; border-radius: 8px; }"
                      "#exampleCard:hover { border-color: %4; }"
                      "#exampleCard QLabel { background: transparent; border: none; }"
                      "#exampleCard QLabel#examplePicture { border: 1px solid %3; border-radius: 4px; background: %1; }"
                      "QLabel#sectionTitle { color: %5; font-weight: bold; }"
                      "QLabel#welcomeSubtitle, QLabel#examplesSubtitle, QLabel#recentPath, QLabel#exampleData,"
                      " QLabel#noExamples { color: %5; }"
                      "QPushButton#startAction { text-align: left; padding: 6px 8px; border: none; border-radius: 4px;"
                      " background: transparent; }"
                      "QPushButton#startAction:hover { background: %6; }"
                      "QPushButton#trainButton { background: %7; color: %8; border: none; border-radius: 4px;"
                      " padding: 5px 18px; font-weight: bold; }"
                      "QPushButton#trainButton:hover { background: %9; }"
                      "QPushButton#trainButton:pressed { background: %10; }")
                      .arg(window.name(), base.name(), border.name(), hoverBorder.name(), muted.name(), hover.name(),
                           accent.name(), accentText.name(), accent.lighter(112).name())
                      .arg(accent.darker(115).name()));
    m_styling = false;
}

int StartPage::galleryColumns() const
{
    return m_gallery->columns();
}

void StartPage::setDocumentsOpen(bool open)
{
    m_back->setVisible(open);
}

void StartPage::refresh()
{
    fillRecent();
    rebuildCards();
}

void StartPage::fillRecent()
{
    for (QWidget* list : {m_recentProjects, m_recentFiles}) {
        QLayout* layout = list->layout();
        while (QLayoutItem* item = layout->takeAt(0)) {
            delete item->widget();
            delete item;
        }
    }
    QStringList projects, files;
    for (const QString& file : m_settings->recentFiles())
        (file.endsWith(QStringLiteral(".tsproj"), Qt::CaseInsensitive) ? projects : files) << file;
    auto add = [this](QWidget* list, const QString& path) {
        const QFileInfo info(path);
        const QString name = info.fileName().isEmpty() ? path : info.fileName();
        auto* entry = new QWidget(list);
        auto* lines = new QVBoxLayout(entry);
        lines->setContentsMargins(8, 0, 0, 0);
        lines->setSpacing(0);
        auto* link = new QLabel(QStringLiteral("<a href=\"%1\">%2</a>").arg(path.toHtmlEscaped(), name.toHtmlEscaped()), entry);
        link->setObjectName(QStringLiteral("recentEntry"));
        link->setProperty("path", path);
        link->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        link->setToolTip(QDir::toNativeSeparators(path));
        connect(link, &QLabel::linkActivated, this, [this, path] { emit openPathRequested(path); });
        auto* where = new QLabel(entry);
        where->setObjectName(QStringLiteral("recentPath"));
        // Elided in the middle: the start and the end of a folder say most about it.
        where->setText(where->fontMetrics().elidedText(QDir::toNativeSeparators(info.absolutePath()), Qt::ElideMiddle, 220));
        where->setToolTip(QDir::toNativeSeparators(path));
        lines->addWidget(link);
        lines->addWidget(where);
        list->layout()->addWidget(entry);
    };
    auto none = [](QWidget* list, const QString& text) {
        auto* label = new QLabel(text, list);
        label->setObjectName(QStringLiteral("recentPath"));
        label->setWordWrap(true);
        label->setContentsMargins(8, 0, 0, 0);
        list->layout()->addWidget(label);
    };
    for (const QString& path : projects.mid(0, kMaxRecentProjects))
        add(m_recentProjects, path);
    for (const QString& path : files.mid(0, kMaxRecentFiles))
        add(m_recentFiles, path);
    if (projects.isEmpty())
        none(m_recentProjects, tr("Projects you open or save will be listed here."));
    if (files.isEmpty())
        none(m_recentFiles, tr("Graphs, checkpoints and logs you open will be listed here."));
}

QWidget* StartPage::makeCard(const GalleryExample& e)
{
    auto* card = new QFrame(m_gallery);
    card->setObjectName(QStringLiteral("exampleCard"));
    card->setProperty(kIdProperty, e.id);
    card->setAttribute(Qt::WA_Hover);
    card->setFixedWidth(kCardWidth);
    card->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    auto* column = new QVBoxLayout(card);
    column->setContentsMargins(kCardPadding, kCardPadding, kCardPadding, kCardPadding);
    column->setSpacing(6);

    const QPixmap picture(e.picture);
    if (!picture.isNull()) {
        auto* image = new QLabel(card);
        image->setObjectName(QStringLiteral("examplePicture"));
        const int width = kCardWidth - 2 * kCardPadding;
        const qreal ratio = devicePixelRatioF();
        QPixmap scaled = picture.scaled(QSize(width - 2, (width - 2) * picture.height() / picture.width()) * ratio,
                                        Qt::KeepAspectRatio, Qt::SmoothTransformation);
        scaled.setDevicePixelRatio(ratio);
        image->setPixmap(scaled);
        image->setAlignment(Qt::AlignCenter);
        image->setFixedSize(width, scaled.height() / int(ratio) + 2);
        column->addWidget(image);
        column->addSpacing(4);
    }
    auto* title = new QLabel(e.title, card);
    title->setObjectName(QStringLiteral("exampleTitle"));
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    title->setFont(bold);
    title->setWordWrap(true);
    column->addWidget(title);
    auto* description = new QLabel(e.description, card);
    description->setObjectName(QStringLiteral("exampleDescription"));
    description->setWordWrap(true);
    column->addWidget(description);
    auto* data = new QLabel(card);
    data->setObjectName(QStringLiteral("exampleData"));
    data->setWordWrap(true);
    data->setText(tr("Data: %1").arg(e.dataNeeded));
    column->addWidget(data);

    if (e.needsFolder) {
        if (!e.downloadUrl.isEmpty()) {
            auto* download = new QLabel(card);
            download->setObjectName(QStringLiteral("exampleDownload"));
            download->setWordWrap(true);
            download->setTextFormat(Qt::RichText);
            download->setOpenExternalLinks(true);
            download->setTextInteractionFlags(Qt::TextBrowserInteraction);
            const QString shown = QString(e.downloadUrl).remove(QRegularExpression(QStringLiteral("^https?://")));
            download->setText(tr("Download %1 <a href=\"%2\">%3</a>")
                                  .arg(e.downloadHint.toHtmlEscaped(), e.downloadUrl.toHtmlEscaped(), shown.toHtmlEscaped()));
            download->setToolTip(e.downloadUrl);
            column->addWidget(download);
        }
        auto* folder = new QLineEdit(m_folders.value(e.id), card);
        folder->setObjectName(QStringLiteral("dataFolderEdit"));
        folder->setPlaceholderText(tr("Folder with the data"));
        folder->setToolTip(e.dataNeeded);
        folder->setClearButtonEnabled(true);
        auto* browse = new QPushButton(tr("Browse…"), card);
        browse->setObjectName(QStringLiteral("browseButton"));
        auto* row = new QHBoxLayout;
        row->setSpacing(4);
        row->addWidget(folder, 1);
        row->addWidget(browse);
        column->addLayout(row);
        connect(folder, &QLineEdit::textChanged, this, [this, id = e.id](const QString& text) { m_folders[id] = text; });
        connect(folder, &QLineEdit::returnPressed, this, [this, id = e.id] { trainClicked(id); });
        connect(browse, &QPushButton::clicked, this, [this, folder, title = e.title] {
            const QString dir = QFileDialog::getExistingDirectory(this, tr("Data Folder for %1").arg(title), folder->text());
            if (!dir.isEmpty())
                folder->setText(QDir::toNativeSeparators(dir));
        });
    }
    auto* message = new QLabel(card);
    message->setObjectName(QStringLiteral("cardMessage"));
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette warn = message->palette();
    warn.setColor(QPalette::WindowText, QColor(0xd0, 0x3a, 0x2f));
    message->setPalette(warn);
    message->hide();
    column->addWidget(message);
    column->addStretch(1);

    auto* open = new QPushButton(tr("Open"), card);
    open->setObjectName(QStringLiteral("openButton"));
    open->setToolTip(tr("Open %1 in the node editor").arg(e.fileName));
    auto* train = new QPushButton(tr("Train"), card);
    train->setObjectName(QStringLiteral("trainButton"));
    train->setCursor(Qt::PointingHandCursor);
    train->setToolTip(e.needsFolder ? tr("Open the project and train it on the data in the folder above")
                                    : tr("Open the project and start training it: the dashboard follows the run"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(open);
    buttons->addWidget(train);
    column->addLayout(buttons);
    connect(open, &QPushButton::clicked, this, [this, id = e.id] { emit openExampleRequested(id); });
    connect(train, &QPushButton::clicked, this, [this, id = e.id] { trainClicked(id); });
    return card;
}

void StartPage::rebuildCards()
{
    const QList<GalleryExample> examples = availableExamples();
    for (QWidget* card : std::as_const(m_cards)) {
        card->hide();
        card->deleteLater(); // a click on one of its buttons may be what called this
    }
    m_cards.clear();
    for (const GalleryExample& e : examples)
        m_cards << makeCard(e);
    m_gallery->setCards(m_cards);
    m_noExamples->setVisible(m_cards.isEmpty());
    m_gallery->setVisible(!m_cards.isEmpty());
}

QWidget* StartPage::exampleCard(const QString& id) const
{
    for (QWidget* card : m_cards)
        if (card->property(kIdProperty).toString() == id)
            return card;
    return nullptr;
}

QStringList StartPage::exampleIds() const
{
    QStringList ids;
    for (QWidget* card : m_cards)
        ids << card->property(kIdProperty).toString();
    return ids;
}

QString StartPage::cardMessage(const QString& id) const
{
    QWidget* card = exampleCard(id);
    auto* label = card ? card->findChild<QLabel*>(QStringLiteral("cardMessage")) : nullptr;
    return label && !label->isHidden() ? label->text() : QString();
}

void StartPage::showExampleMessage(const QString& id, const QString& text)
{
    QWidget* card = exampleCard(id);
    auto* label = card ? card->findChild<QLabel*>(QStringLiteral("cardMessage")) : nullptr;
    if (!label)
        return;
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

void StartPage::trainClicked(const QString& id)
{
    const std::optional<GalleryExample> example = findGalleryExample(id);
    if (!example)
        return;
    const QString folder = m_folders.value(id).trimmed();
    const QString missing = missingExampleData(*example, folder);
    showExampleMessage(id, missing);
    if (!missing.isEmpty())
        return;
    if (example->needsFolder && m_settings && m_settings->qsettings())
        m_settings->qsettings()->setValue(QLatin1String(kFolderSettingPrefix) + id, folder);
    emit trainExampleRequested(id, folder);
}

void StartPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (event->type() == QEvent::PaletteChange && !m_styling)
        applyStyle();
    QWidget::changeEvent(event);
}

void StartPage::retranslateUi()
{
    m_title->setText(tr("TensorStudio"));
    m_subtitle->setText(tr("Compose, train and inspect TensorFlow 1.x graphs. Open a graph (.pb, .pbtxt, .meta), "
                           "SavedModel, checkpoint, event log, TFRecord or project, or drop files onto this window."));
    m_back->setText(tr("Back to Documents"));
    m_startTitle->setText(tr("Start"));
    m_newGraph->setText(tr("New Graph"));
    m_newGraph->setToolTip(tr("Compose a new graph in the node editor"));
    m_openProject->setText(tr("Open Project…"));
    m_openProject->setToolTip(tr("Open a TensorStudio project (.tsproj): graph, data and training"));
    m_openFile->setText(tr("Open File…"));
    m_openFile->setToolTip(tr("Open a graph, MetaGraph, checkpoint, event file, TFRecord or trace"));
    m_openFolder->setText(tr("Open Folder…"));
    m_openFolder->setToolTip(tr("Open a SavedModel, checkpoint directory or log directory"));
    m_recentProjectsTitle->setText(tr("Recent Projects"));
    m_recentFilesTitle->setText(tr("Recent Files"));
    m_examplesTitle->setText(tr("Examples"));
    m_examplesSubtitle->setText(tr("Train a network in one click and watch it learn, or open it to see how it is built."));
    const QString dir = examplesDirectory();
    m_noExamples->setText(dir.isEmpty() ? tr("No example projects were found. Set TSTUDIO_EXAMPLES_DIR to the folder "
                                             "that holds them (examples/projects in the source tree).")
                                        : tr("No example projects were found in %1.").arg(QDir::toNativeSeparators(dir)));
    refresh();
}

} // namespace tstudio
