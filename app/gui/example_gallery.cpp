// The example gallery: one list of the shipped example projects, where they lie and how to train one.
#include "example_gallery.h"

#include "project/run/log_directory.h"

#include "io/checkpoint/checkpoint_state.h"
#include "project/format/project_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace tstudio {
namespace {

const QString kMnistUrl = QStringLiteral("https://storage.googleapis.com/cvdf-datasets/mnist/");
const QString kPtbUrl = QStringLiteral("http://www.fit.vutbr.cz/~imikolov/rnnlm/simple-examples.tgz");
const QString kCifarUrl = QStringLiteral("https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz");

/// The three MNIST projects read the t10k pair of the download (project "set": "t10k").
GalleryExample mnistExample(const QString& id, const QString& title, const QString& description)
{
    GalleryExample e;
    e.id = id;
    e.fileName = id + QStringLiteral(".tsproj");
    e.title = title;
    e.description = description;
    e.dataNeeded = QCoreApplication::translate("ExampleGallery", "MNIST test images and labels (idx files, .gz or unpacked)");
    e.downloadUrl = kMnistUrl;
    e.downloadHint = QCoreApplication::translate("ExampleGallery", "the four .gz files at");
    e.needsFolder = true;
    e.requiredFiles = {QStringLiteral("t10k-images-idx3-ubyte.gz|t10k-images-idx3-ubyte"),
                       QStringLiteral("t10k-labels-idx1-ubyte.gz|t10k-labels-idx1-ubyte")};
    e.picture = QStringLiteral(":/examples/gallery/%1.png").arg(id);
    return e;
}

/// "X.gz|X" reads "X(.gz)", as the Training panel writes it; other alternatives "A / B".
QString requiredFileText(const QString& alternatives)
{
    const QStringList names = alternatives.split(QLatin1Char('|'));
    if (names.size() == 2 && names[0] == names[1] + QStringLiteral(".gz"))
        return names[1] + QStringLiteral("(.gz)");
    return names.join(QStringLiteral(" / "));
}

bool holdsProject(const QString& dir)
{
    return !dir.isEmpty() &&
           !QDir(dir).entryList({QStringLiteral("*.tsproj")}, QDir::Files | QDir::Readable).isEmpty();
}

/// A run can start in `dir`: it is a writable folder without checkpoints, or can be made.
bool holdsCheckpoint(const QString& dir)
{
    return QFileInfo(dir).isDir() && latestCheckpoint(dir.toStdString()).has_value();
}

} // namespace

QList<GalleryExample> galleryExamples()
{
    QList<GalleryExample> list;

    GalleryExample spirals;
    spirals.id = QStringLiteral("spirals");
    spirals.fileName = QStringLiteral("spirals.tsproj");
    spirals.title = QCoreApplication::translate("ExampleGallery", "Two spirals");
    spirals.description = QCoreApplication::translate("ExampleGallery", "A 2-64-64-2 ReLU network learns to tell two interleaved spirals apart (Adam, 3,000 steps).");
    spirals.dataNeeded = QCoreApplication::translate("ExampleGallery", "generated as it trains, nothing to download");
    spirals.picture = QStringLiteral(":/examples/gallery/spirals.png");
    list << spirals;

    list << mnistExample(QStringLiteral("book-mnist"), QCoreApplication::translate("ExampleGallery", "MNIST, the book's network"),
                         QCoreApplication::translate("ExampleGallery", "784-500-10 with L2 regularisation, a decaying learning rate and moving averages, "
                            "as in chapter 5 of the TensorFlow book."));
    list << mnistExample(QStringLiteral("lenet"), QCoreApplication::translate("ExampleGallery", "LeNet-5"),
                         QCoreApplication::translate("ExampleGallery", "Two convolution and pooling layers and two dense layers classify handwritten digits "
                            "(Adam 0.001)."));
    list << mnistExample(QStringLiteral("mnist-notes"), QCoreApplication::translate("ExampleGallery", "MNIST with evaluation"),
                         QCoreApplication::translate("ExampleGallery", "Batch norm, dropout, image and accuracy summaries, evaluation every 200 steps and "
                            "export for serving."));

    GalleryExample ptb;
    ptb.id = QStringLiteral("ptb-small");
    ptb.fileName = QStringLiteral("ptb-small.tsproj");
    ptb.title = QCoreApplication::translate("ExampleGallery", "PTB language model");
    ptb.description = QCoreApplication::translate("ExampleGallery", "A two-layer LSTM of 200 units predicts the next word of the Penn Treebank "
                         "(TensorFlow's PTB tutorial, small configuration).");
    ptb.dataNeeded = QCoreApplication::translate("ExampleGallery", "Penn Treebank text (ptb.train.txt, ptb.valid.txt)");
    ptb.downloadUrl = kPtbUrl;
    ptb.downloadHint = QCoreApplication::translate("ExampleGallery", "the data/ folder of");
    ptb.needsFolder = true;
    ptb.requiredFiles = {QStringLiteral("ptb.train.txt"), QStringLiteral("ptb.valid.txt")};
    ptb.picture = QStringLiteral(":/examples/gallery/ptb-small.png");
    list << ptb;

    GalleryExample word2vec;
    word2vec.id = QStringLiteral("word2vec");
    word2vec.fileName = QStringLiteral("word2vec.tsproj");
    word2vec.title = QCoreApplication::translate("ExampleGallery", "word2vec");
    word2vec.description = QCoreApplication::translate(
        "ExampleGallery",
        "Skip-gram embeddings of 10,000 words trained with NCE (TensorFlow's word2vec tutorial); the Projector labels "
        "them by word.");
    word2vec.dataNeeded = QCoreApplication::translate("ExampleGallery", "Penn Treebank text (ptb.train.txt)");
    word2vec.downloadUrl = kPtbUrl;
    word2vec.downloadHint = QCoreApplication::translate("ExampleGallery", "the data/ folder of");
    word2vec.needsFolder = true;
    word2vec.requiredFiles = {QStringLiteral("ptb.train.txt")};
    word2vec.picture = QStringLiteral(":/examples/gallery/word2vec.png");
    list << word2vec;

    GalleryExample reverse;
    reverse.id = QStringLiteral("seq2seq-reverse");
    reverse.fileName = QStringLiteral("seq2seq-reverse.tsproj");
    reverse.title = QCoreApplication::translate("ExampleGallery", "Sequence to sequence with attention");
    reverse.description = QCoreApplication::translate(
        "ExampleGallery",
        "An LSTM encoder-decoder with Luong attention learns to write sentences backwards; its attention is shown as "
        "images.");
    reverse.dataNeeded =
        QCoreApplication::translate("ExampleGallery", "made by the graph as it trains, nothing to download");
    reverse.picture = QStringLiteral(":/examples/gallery/seq2seq-reverse.png");
    list << reverse;

    GalleryExample resnet;
    resnet.id = QStringLiteral("resnet20");
    resnet.fileName = QStringLiteral("resnet20.tsproj");
    resnet.title = QCoreApplication::translate("ExampleGallery", "ResNet-20 on CIFAR-10");
    resnet.description = QCoreApplication::translate("ExampleGallery", "A 20-layer residual network classifies 32×32 colour images into ten classes.");
    resnet.dataNeeded = QCoreApplication::translate("ExampleGallery", "CIFAR-10, binary version (data_batch_1.bin … data_batch_5.bin)");
    resnet.downloadUrl = kCifarUrl;
    resnet.downloadHint = QCoreApplication::translate("ExampleGallery", "the cifar-10-batches-bin folder of");
    resnet.needsFolder = true;
    resnet.requiredFiles = {QStringLiteral("data_batch_1.bin")};
    resnet.picture = QStringLiteral(":/examples/gallery/resnet20.png");
    list << resnet;
    return list;
}

QList<GalleryExample> availableExamples()
{
    QList<GalleryExample> present;
    for (const GalleryExample& e : galleryExamples())
        if (!exampleProjectPath(e).isEmpty())
            present << e;
    return present;
}

std::optional<GalleryExample> findGalleryExample(const QString& id)
{
    for (const GalleryExample& e : galleryExamples())
        if (e.id == id)
            return e;
    return std::nullopt;
}

QString examplesDirectory()
{
    QStringList candidates;
    const QString fromEnvironment = qEnvironmentVariable("TSTUDIO_EXAMPLES_DIR");
    if (!fromEnvironment.isEmpty())
        candidates << fromEnvironment;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tensorstudio/examples");
    candidates << QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects");
    for (const QString& dir : candidates)
        if (holdsProject(dir))
            return QDir(dir).absolutePath();
    return {};
}

QString exampleProjectPath(const GalleryExample& example)
{
    const QString dir = examplesDirectory();
    if (dir.isEmpty())
        return {};
    const QFileInfo file(QDir(dir).filePath(example.fileName));
    return file.isFile() ? file.absoluteFilePath() : QString();
}

QString missingExampleData(const GalleryExample& example, const QString& folder)
{
    if (!example.needsFolder)
        return {};
    const QString where = example.downloadUrl.isEmpty()
                              ? QString()
                              : QStringLiteral(" ") + QCoreApplication::translate("ExampleGallery", "Get %1 %2.").arg(example.downloadHint, example.downloadUrl);
    QStringList required;
    for (const QString& alternatives : example.requiredFiles)
        required << requiredFileText(alternatives);
    const QString files = required.join(QCoreApplication::translate("ExampleGallery", " and "));
    const QString dir = folder.trimmed();
    if (dir.isEmpty())
        return QCoreApplication::translate("ExampleGallery", "Choose the folder that holds %1.").arg(files) + where;
    if (!QFileInfo(dir).isDir())
        return QCoreApplication::translate("ExampleGallery", "%1 is not a folder. Choose the folder that holds %2.")
                   .arg(QDir::toNativeSeparators(dir), files) +
               where;
    QStringList missing;
    for (const QString& alternatives : example.requiredFiles) {
        const QStringList names = alternatives.split(QLatin1Char('|'));
        const bool found = std::any_of(names.begin(), names.end(),
                                       [&](const QString& name) { return QFileInfo(QDir(dir).filePath(name)).isFile(); });
        if (!found)
            missing << requiredFileText(alternatives);
    }
    if (missing.isEmpty())
        return {};
    return QCoreApplication::translate("ExampleGallery", "The folder %1 has no %2.")
               .arg(QDir::toNativeSeparators(dir), missing.join(QCoreApplication::translate("ExampleGallery", " and no "))) +
           where;
}

tl::expected<ExampleLaunch, QString> prepareExampleLaunch(const GalleryExample& example, const QString& folder)
{
    const QString path = exampleProjectPath(example);
    if (path.isEmpty())
        return tl::unexpected(QCoreApplication::translate("ExampleGallery", "The example project %1 is not in the examples folder (%2); set TSTUDIO_EXAMPLES_DIR "
                                 "to the folder that holds it.")
                                  .arg(example.fileName, examplesDirectory().isEmpty() ? QCoreApplication::translate("ExampleGallery", "none found") : examplesDirectory()));
    if (!example.needsFolder)
        return ExampleLaunch{path, {}};
    if (const QString missing = missingExampleData(example, folder); !missing.isEmpty())
        return tl::unexpected(missing);
    const QString dataDir = QDir(folder.trimmed()).absolutePath();
    auto project = project::loadProject(path.toStdString());
    if (!project)
        return tl::unexpected(QString::fromStdString(project.error().message()));
    if (!project->dataDir)
        return ExampleLaunch{path, dataDir}; // its sources read the Training panel's data folder

    // The project fixes data.dir (relative to itself), so the panel offers no folder: a copy of it
    // that names the chosen one, beside the user's other data. Its graph stays the shipped file.
    project->dataDir = dataDir.toStdString();
    if (!project->graph.file.empty())
        project->graph.file = project->resolve(project->graph.file).lexically_normal().string();
    const QString copyDir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                            QStringLiteral("/examples/") + example.id;
    if (!QDir().mkpath(copyDir))
        return tl::unexpected(QCoreApplication::translate("ExampleGallery", "Cannot create the folder %1 for the example's copy.").arg(copyDir));
    const QString copy = QDir(copyDir).filePath(example.fileName);
    QSaveFile out(copy); // a temporary file renamed on commit: an open copy is never half written
    const QByteArray text = QByteArray::fromStdString(project::projectToJson(*project));
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size() || !out.commit())
        return tl::unexpected(QCoreApplication::translate("ExampleGallery", "Cannot write %1: %2").arg(copy, out.errorString()));
    return ExampleLaunch{copy, {}};
}

QString freshExampleLogDirectory(const QString& preferred, const QString& id)
{
    QString base = QDir::cleanPath(preferred);
    // The same rule as the Training panel's default (project/log_directory.h): a read-only
    // install's runs go under the user's data folder.
    if (base.isEmpty() || !project::isWritableFolder(base.toStdString()))
        base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs/") + id;
    if (!holdsCheckpoint(base))
        return base;
    for (int n = 2; n < 1000; ++n) {
        const QString candidate = QStringLiteral("%1-%2").arg(base).arg(n);
        if (!holdsCheckpoint(candidate))
            return candidate;
    }
    return base; // the panel then says the folder holds checkpoints
}

} // namespace tstudio
