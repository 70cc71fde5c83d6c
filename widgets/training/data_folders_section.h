// DataFoldersSection: the Training panel's rows for the folders a project's sources name
// themselves (an image folder source's "dir", an mnist source's own "dir", in data and eval
// sources), each a field with Browse…; data.dir itself is the panel's Data folder row.
#pragma once

#include "project/format/project_file.h"
#include "project/sources/source_folders.h"

#include <QString>
#include <QWidget>

#include <filesystem>
#include <string>
#include <vector>

class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace tstudio::training_panel {

/// Hidden while the project has no source folder. Rows are made by fillFrom; the user's edits
/// (typed, or chosen with Browse…) emit edited() and reach a project through applyTo.
class DataFoldersSection : public QWidget {
    Q_OBJECT
public:
    explicit DataFoldersSection(QWidget* parent = nullptr);

    /// One row per project::sourceFolders(p) entry, holding its value; hidden when there is none.
    void fillFrom(const project::Project& p);
    /// Writes every row into `p`'s sources (rows whose field `p` does not have are skipped, as is
    /// an empty image folder, which the panel reports through checkedFolders).
    void applyTo(project::Project& p) const;
    /// An image folder row left empty: "Source 2 folder (image_folder): choose a folder (Browse…)";
    /// empty when every row is filled.
    QString missingFolders() const;

    /// Lines the rows up with `form`, the grid this section spans (label, field, button columns): both
    /// grids get the wider label column and the wider button column, so that every field starts at one
    /// x and every Browse… button at another. Kept on new rows and language changes; `form` must outlive
    /// this section (the panel owns both).
    void alignColumnsWith(QGridLayout* form);

    // For tests: the rows' fields, and a row's widgets by field (null when there is none).
    std::vector<std::string> fields() const;
    QLineEdit* folderEdit(const std::string& field) const;
    QPushButton* browseButton(const std::string& field) const;

signals:
    /// The user changed a row (typed or browsed): the project should get applyTo.
    void edited();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row {
        project::SourceFolder folder;
        QLabel* label = nullptr;
        QLineEdit* edit = nullptr;
        QPushButton* browse = nullptr;
    };
    void retranslateUi();
    void browse(const Row& row);
    void alignColumns();

    QGridLayout* m_grid = nullptr;
    QGridLayout* m_form = nullptr; ///< the panel's grid the rows line up with (alignColumnsWith); not owned
    std::vector<Row> m_rows;
    std::filesystem::path m_base; ///< relative folders are shown from here by Browse… (data.dir or the .tsproj's folder)
};

} // namespace tstudio::training_panel
