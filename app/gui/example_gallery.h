// The example gallery: the shipped example projects, what each needs and where they are found.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include <tl/expected.hpp>

namespace tstudio {

/// One shipped example project (examples/projects/<fileName>) as the welcome page and File ▸
/// Open Example show it. Texts are translated when the list is made (galleryExamples()).
struct GalleryExample {
    QString id;          ///< "spirals", "book-mnist", ... (the .tsproj's base name)
    QString fileName;    ///< "spirals.tsproj"
    QString title;       ///< "Two spirals"
    QString description; ///< one line: what the network is and does
    QString dataNeeded;  ///< what data it trains on ("Generated: no download")
    QString downloadUrl; ///< where to get the data; empty when nothing is to be downloaded
    QString downloadHint; ///< which part of the download the folder must be ("the data/ folder of ...")
    bool needsFolder = false; ///< Train needs a data folder chosen first
    /// Files the data folder must hold; each entry lists alternatives separated by '|'
    /// ("t10k-images-idx3-ubyte.gz|t10k-images-idx3-ubyte").
    QStringList requiredFiles;
    QString picture; ///< resource path of the card's picture (:/examples/gallery/<id>.png)
};

/// Every example the gallery knows, in the order it shows them, whether or not its project exists.
QList<GalleryExample> galleryExamples();

/// The examples whose .tsproj is present in examplesDirectory().
QList<GalleryExample> availableExamples();

/// The example called `id`, if the gallery knows it.
std::optional<GalleryExample> findGalleryExample(const QString& id);

/// The folder holding the example projects: the first of $TSTUDIO_EXAMPLES_DIR, <program's
/// folder>/../share/tensorstudio/examples and the source tree's examples/projects that holds a
/// .tsproj; empty when none does.
QString examplesDirectory();

/// The absolute path of the example's .tsproj, or empty when it is not there.
QString exampleProjectPath(const GalleryExample& example);

/// What is missing for `example` to train from `folder`: empty when nothing is (or the example
/// needs no folder), else a sentence naming the folder, the missing file and where to get it.
QString missingExampleData(const GalleryExample& example, const QString& folder);

/// What the main window opens and sets before it trains an example.
struct ExampleLaunch {
    QString projectPath; ///< the .tsproj to open in the node editor
    /// For the Training panel's data folder (TrainingPanel::dataFolderEdit()); empty when the
    /// project names its own data folder (then projectPath is a copy that names `folder`).
    QString panelDataFolder;
};

/// Checks the data folder and says what to open: the shipped project, or (when the project
/// fixes its data.dir, as ptb-small does, so that the Training panel offers no folder) a copy of
/// it under the user's data folder whose data.dir is `folder` and whose graph file is the
/// shipped one. Errors are translated sentences naming what is missing.
tl::expected<ExampleLaunch, QString> prepareExampleLaunch(const GalleryExample& example, const QString& folder);

/// `preferred` (a run's default log directory) when a run can start there: it can be created
/// and holds no checkpoint; else the first of "<preferred>-2", "-3", ... that can; when its
/// place cannot be written (an installed, read-only examples folder), the same under the user's
/// data folder ("runs/<id>").
QString freshExampleLogDirectory(const QString& preferred, const QString& id);

} // namespace tstudio
