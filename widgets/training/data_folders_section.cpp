// The Training panel's source folder rows: one field with Browse… per folder a source names.
#include "training/data_folders_section.h"

#include "training/training_advice.h"

#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>

namespace tstudio::training_panel {

DataFoldersSection::DataFoldersSection(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("trainingSourceFolders"));
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
    hide();
}

void DataFoldersSection::fillFrom(const project::Project& p)
{
    m_base = p.dataDir ? p.resolve(*p.dataDir) : p.location.parent_path();
    const std::vector<project::SourceFolder> folders = project::sourceFolders(p);
    // The same rows (the document's project after the user's own edit, say): only their values,
    // so that a field being typed in is never replaced under the cursor.
    const bool same = folders.size() == m_rows.size() &&
                      std::equal(folders.begin(), folders.end(), m_rows.begin(), [](const auto& f, const Row& r) {
                          return f.field == r.folder.field && f.type == r.folder.type && f.optional == r.folder.optional;
                      });
    if (same) {
        for (std::size_t i = 0; i < folders.size(); ++i) {
            m_rows[i].folder = folders[i];
            if (m_rows[i].edit->text().trimmed().toStdString() != folders[i].value)
                m_rows[i].edit->setText(QString::fromStdString(folders[i].value));
        }
        setVisible(!m_rows.empty());
        return;
    }
    for (Row& row : m_rows) {
        delete row.label;
        delete row.edit;
        delete row.browse;
    }
    m_rows.clear();
    int line = 0;
    for (const project::SourceFolder& folder : folders) {
        Row row;
        row.folder = folder;
        row.label = new QLabel(this);
        row.edit = new QLineEdit(this);
        row.edit->setObjectName(QStringLiteral("trainingSourceFolder_") + QString::fromStdString(folder.field));
        row.edit->setText(QString::fromStdString(folder.value));
        row.browse = new QPushButton(this);
        m_grid->addWidget(row.label, line, 0);
        m_grid->addWidget(row.edit, line, 1);
        m_grid->addWidget(row.browse, line, 2);
        ++line;
        connect(row.edit, &QLineEdit::textEdited, this, &DataFoldersSection::edited);
        const std::string field = folder.field;
        connect(row.browse, &QPushButton::clicked, this, [this, field] {
            for (const Row& r : m_rows)
                if (r.folder.field == field)
                    browse(r);
        });
        m_rows.push_back(row);
    }
    retranslateUi();
    setVisible(!m_rows.empty());
}

void DataFoldersSection::alignColumnsWith(QGridLayout* form)
{
    m_form = form;
    alignColumns();
}

void DataFoldersSection::alignColumns()
{
    if (!m_form)
        return;
    // Size hints, not laid-out geometry: they are right before the first layout and after a retranslation
    // (children get LanguageChange after the panel, so both grids' words are new here).
    auto widest = [](QGridLayout* grid, int column) {
        int width = 0;
        for (int r = 0; r < grid->rowCount(); ++r)
            if (QLayoutItem* item = grid->itemAtPosition(r, column); item && item->widget())
                if (const int span = grid->indexOf(item->widget()); span >= 0) {
                    int row = 0, col = 0, rows = 0, cols = 0;
                    grid->getItemPosition(span, &row, &col, &rows, &cols);
                    if (cols == 1 && col == column) // a widget spanning the columns sets neither
                        width = std::max(width, item->widget()->sizeHint().width());
                }
        return width;
    };
    for (int column : {0, 2}) {
        const int width = std::max(widest(m_form, column), widest(m_grid, column));
        m_form->setColumnMinimumWidth(column, width);
        m_grid->setColumnMinimumWidth(column, width);
    }
}

void DataFoldersSection::browse(const Row& row)
{
    // A relative folder is shown from where the runner reads it: data.dir, else the .tsproj's folder.
    QString start = row.edit->text().trimmed();
    if (!start.isEmpty() && QDir::isRelativePath(start) && !m_base.empty())
        start = QDir(QString::fromStdString(m_base.string())).filePath(start);
    const QString dir = QFileDialog::getExistingDirectory(this, sourceFolderLabel(row.folder.field, row.folder.type), start);
    if (dir.isEmpty())
        return;
    row.edit->setText(dir);
    emit edited();
}

void DataFoldersSection::applyTo(project::Project& p) const
{
    for (const Row& row : m_rows) {
        const std::string value = row.edit->text().trimmed().toStdString();
        if (value.empty() && !row.folder.optional)
            continue;
        (void)project::setSourceFolder(p, row.folder.field, value); // a field p lacks: skipped
    }
}

QString DataFoldersSection::missingFolders() const
{
    QStringList missing;
    for (const Row& row : m_rows)
        if (!row.folder.optional && row.edit->text().trimmed().isEmpty())
            missing << tr("%1: choose a folder (Browse…)").arg(sourceFolderLabel(row.folder.field, row.folder.type));
    return missing.join(QStringLiteral("; "));
}

std::vector<std::string> DataFoldersSection::fields() const
{
    std::vector<std::string> out;
    for (const Row& row : m_rows)
        out.push_back(row.folder.field);
    return out;
}

QLineEdit* DataFoldersSection::folderEdit(const std::string& field) const
{
    for (const Row& row : m_rows)
        if (row.folder.field == field)
            return row.edit;
    return nullptr;
}

QPushButton* DataFoldersSection::browseButton(const std::string& field) const
{
    for (const Row& row : m_rows)
        if (row.folder.field == field)
            return row.browse;
    return nullptr;
}

void DataFoldersSection::retranslateUi()
{
    for (const Row& row : m_rows) {
        row.label->setText(sourceFolderLabel(row.folder.field, row.folder.type) + QLatin1Char(':'));
        row.browse->setText(tr("Browse…"));
        row.edit->setPlaceholderText(row.folder.optional ? tr("Empty: the Data folder")
                                     : row.folder.type == "image_folder"
                                         ? tr("A folder with one subfolder of images per class")
                                         : QString());
        row.edit->setToolTip(tr("%1 (%2 in the project file); a relative path is read from the Data folder, "
                                "else from the project file's folder")
                                 .arg(sourceFolderLabel(row.folder.field, row.folder.type),
                                      QString::fromStdString(row.folder.field)));
    }
    alignColumns();
}

void DataFoldersSection::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::training_panel
