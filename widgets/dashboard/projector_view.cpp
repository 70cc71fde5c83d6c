#include "dashboard/projector_view.h"

#include "common/background_run.h"
#include "dashboard/run_style.h"
#include "projector/sprite_atlas.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tstudio::dashboard {
namespace {

constexpr std::size_t kNeighbours = 20;
constexpr int kMaxCategories = 20;
constexpr int kTsneIterations = 1000;
constexpr int kTsneEvery = 10; ///< iterations between the snapshots drawn
constexpr int kSpriteSize = 24; ///< a sprite thumbnail's largest side on screen, in pixels

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

ProjectorView::ProjectorView(QWidget* parent) : QWidget(parent)
{
    m_embeddingBox = new QComboBox(this);
    m_embeddingBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_embeddingBox->setMaximumWidth(320);
    m_sphereizeBox = new QCheckBox(this);
    m_threeDBox = new QCheckBox(this);
    m_spritesBox = new QCheckBox(this);
    m_spritesBox->setChecked(true);
    m_spritesBox->hide(); // shown for an embedding with a sprite
    m_colourLabel = new QLabel(this);
    m_colourBox = new QComboBox(this);
    m_labelLabel = new QLabel(this);
    m_labelBox = new QComboBox(this);
    m_methodBox = new QComboBox(this);
    m_methodBox->addItems({QStringLiteral("PCA"), QStringLiteral("t-SNE")});
    m_perplexityLabel = new QLabel(this);
    m_perplexityBox = new QSpinBox(this);
    m_perplexityBox->setRange(1, 100);
    m_perplexityBox->setValue(30);
    m_perplexityBox->setEnabled(false); // t-SNE's
    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setClearButtonEnabled(true);
    m_searchEdit->setMinimumWidth(180);
    m_matchLabel = new QLabel(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_embeddingBox);
    bar->addWidget(m_methodBox);
    bar->addWidget(m_sphereizeBox);
    bar->addWidget(m_threeDBox);
    bar->addWidget(m_spritesBox);
    bar->addWidget(m_perplexityLabel);
    bar->addWidget(m_perplexityBox);
    bar->addSpacing(12);
    bar->addWidget(m_colourLabel);
    bar->addWidget(m_colourBox);
    bar->addWidget(m_labelLabel);
    bar->addWidget(m_labelBox);
    bar->addSpacing(12);
    bar->addWidget(m_searchEdit, 1);
    bar->addWidget(m_matchLabel);

    m_canvas = new ProjectorCanvas(this);
    m_status = new QLabel(this);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_canvas, 1);
    leftLayout->addWidget(m_status);
    m_pointInfo = new QLabel(this);
    m_pointInfo->setWordWrap(true);
    m_pointInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pointInfo->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_neighbourList = new QListWidget(this);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_pointInfo);
    rightLayout->addWidget(m_neighbourList, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setSizes({800, 280});
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setStyleSheet(QStringLiteral("color: #757575; padding: 40px;"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_empty);
    layout->addWidget(splitter, 1);

    connect(m_embeddingBox, &QComboBox::currentIndexChanged, this, [this] { load(); });
    connect(m_sphereizeBox, &QCheckBox::toggled, this, [this] { load(); });
    connect(m_threeDBox, &QCheckBox::toggled, this, [this] {
        if (m_methodBox->currentIndex() == 1)
            startTsne(); // t-SNE again, in the other number of dimensions
        else if (projection())
            showPca();
        updateStatus();
    });
    connect(m_methodBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMethod(index == 1 ? Method::Tsne : Method::Pca);
    });
    connect(m_perplexityBox, &QSpinBox::valueChanged, this, [this] {
        if (m_methodBox->currentIndex() == 1)
            startTsne();
    });
    connect(m_colourBox, &QComboBox::currentIndexChanged, this, [this] { applyColours(); });
    connect(m_spritesBox, &QCheckBox::toggled, m_canvas, &ProjectorCanvas::setSpritesShown);
    connect(m_labelBox, &QComboBox::currentIndexChanged, this, [this] { applySearch(); });
    connect(m_searchEdit, &QLineEdit::textChanged, this, [this] { applySearch(); });
    connect(m_canvas, &ProjectorCanvas::pointClicked, this, &ProjectorView::selectPoint);
    connect(m_neighbourList, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        selectPoint(item->data(Qt::UserRole).toULongLong());
    });
    retranslateUi();
}

ProjectorView::~ProjectorView()
{
    if (m_tsneWatcher)
        m_tsneWatcher->cancel();
}

void ProjectorView::retranslateUi()
{
    m_embeddingBox->setToolTip(tr("The embeddings that the runs' projector_config.pbtxt files name"));
    m_sphereizeBox->setText(tr("Sphereize data"));
    m_threeDBox->setText(tr("3-D"));
    m_threeDBox->setToolTip(tr("PCA's first three components, or t-SNE in three dimensions (an octree), turned by "
                               "dragging (Shift+drag pans)"));
    m_spritesBox->setText(tr("Images"));
    m_spritesBox->setToolTip(tr("Draw each point as its image from the embedding's sprite"));
    m_sphereizeBox->setToolTip(tr("Centre the points and scale each to unit length before PCA, as TensorBoard does"));
    m_methodBox->setToolTip(tr("PCA: the first two principal components. t-SNE: Barnes-Hut t-SNE in 2-D, "
                               "which keeps neighbours together."));
    m_perplexityLabel->setText(tr("Perplexity"));
    m_perplexityBox->setToolTip(tr("t-SNE: about how many neighbours each point keeps close"));
    m_colourLabel->setText(tr("Colour by"));
    m_labelLabel->setText(tr("Label by"));
    m_searchEdit->setPlaceholderText(tr("Search the labels (regular expression)"));
    m_empty->setText(tr("No embeddings. A run writes them with TensorBoard's projector "
                        "(projector_config.pbtxt beside a checkpoint or TSV files) or PyTorch's "
                        "SummaryWriter.add_embedding."));
    if (m_colourBox->count() > 0)
        m_colourBox->setItemText(0, tr("(none)"));
    updateStatus();
}

void ProjectorView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ProjectorView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_scanned)
        reload();
    else if (!m_data && !m_watcher && !m_entries.empty())
        load(); // read when first looked at
}

void ProjectorView::setLogDirectories(const QStringList& roots)
{
    m_roots = roots;
    m_data.reset();
    reload();
}

void ProjectorView::reload()
{
    m_scanned = true;
    m_configs.clear();
    m_entries.clear();
    QStringList names;
    // Each followed folder and every folder below it (a run's folder holds its config).
    for (const QString& root : m_roots) {
        QStringList folders{root};
        QDirIterator it(root, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext())
            folders << it.next();
        for (const QString& folder : folders) {
            // A config, or (as TensorBoard) a checkpoint whose rank-2 variables are embeddings.
            if (!QFileInfo::exists(QDir(folder).filePath(QString::fromLatin1(events::kProjectorConfigFile))) &&
                !QFileInfo::exists(QDir(folder).filePath(QStringLiteral("checkpoint"))))
                continue;
            auto config = events::readProjectorRun(folder.toStdString());
            if (!config && config.error().code() == StatusCode::kNotFound &&
                !QFileInfo::exists(QDir(folder).filePath(QString::fromLatin1(events::kProjectorConfigFile))))
                continue; // a checkpoint without embeddings is no error
            if (!config) {
                m_error = q(config.error().message());
                continue;
            }
            const QString where = QDir(root).relativeFilePath(folder);
            m_configs.push_back(std::move(*config));
            // A config may name one embedding several times (PyTorch appends an entry per call).
            std::set<std::string> seen;
            for (std::size_t e = 0; e < m_configs.back().embeddings.size(); ++e) {
                const events::ProjectorEmbedding& embedding = m_configs.back().embeddings[e];
                if (!seen.insert(embedding.tensorName + '\n' + embedding.tensorPath.string()).second)
                    continue;
                m_entries.emplace_back(m_configs.size() - 1, e);
                names << QStringLiteral("%1: %2").arg(where == QLatin1String(".") ? QDir(root).dirName() : where,
                                                      q(embedding.tensorName));
            }
        }
    }
    {
        const QSignalBlocker block(m_embeddingBox);
        m_embeddingBox->clear();
        m_embeddingBox->addItems(names);
    }
    m_empty->setVisible(m_entries.empty());
    if (!m_entries.empty() && isVisible())
        load();
    updateStatus();
}

QStringList ProjectorView::embeddings() const
{
    QStringList out;
    for (int i = 0; i < m_embeddingBox->count(); ++i)
        out << m_embeddingBox->itemText(i);
    return out;
}

void ProjectorView::selectEmbedding(int index)
{
    m_embeddingBox->setCurrentIndex(index);
}

bool ProjectorView::selectTensor(const QString& tensorName)
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const auto& [config, embedding] = m_entries[i];
        const std::string& name = m_configs[config].embeddings[embedding].tensorName;
        if (q(name) == tensorName || q(name) == tensorName + QLatin1String(":0")) {
            selectEmbedding(static_cast<int>(i));
            return true;
        }
    }
    return false;
}

const events::EmbeddingValues* ProjectorView::values() const
{
    return m_data ? &m_data->values : nullptr;
}

const events::EmbeddingMetadata* ProjectorView::metadata() const
{
    return m_data && m_data->metadata ? &*m_data->metadata : nullptr;
}

const projector::Projection* ProjectorView::projection() const
{
    return m_data && m_data->projection.rows > 0 ? &m_data->projection : nullptr;
}

void ProjectorView::setSphereize(bool sphereize)
{
    m_sphereizeBox->setChecked(sphereize);
}

void ProjectorView::setThreeD(bool threeD)
{
    m_threeDBox->setChecked(threeD);
}

void ProjectorView::setMethod(Method method)
{
    {
        const QSignalBlocker block(m_methodBox);
        m_methodBox->setCurrentIndex(method == Method::Tsne ? 1 : 0);
    }
    m_sphereizeBox->setEnabled(method == Method::Pca);
    m_perplexityBox->setEnabled(method == Method::Tsne);
    if (method == Method::Tsne) {
        startTsne();
        return;
    }
    stopTsne();
    m_tsneIteration = 0;
    if (projection())
        showPca();
    updateStatus();
}

void ProjectorView::setPerplexity(int perplexity)
{
    m_perplexityBox->setValue(perplexity);
}

void ProjectorView::stopTsne()
{
    if (!m_tsneWatcher)
        return;
    auto* watcher = std::exchange(m_tsneWatcher, nullptr);
    watcher->disconnect(this);
    watcher->cancel();
    // The worker notices at its next iteration; the watcher goes with it.
    connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    if (watcher->isFinished())
        watcher->deleteLater();
    updateStatus();
}

std::vector<double> ProjectorView::pcaPositions() const
{
    std::vector<double> xy;
    if (!m_data)
        return xy;
    const projector::Projection& p = m_data->projection;
    for (std::size_t r = 0; r < p.rows; ++r) {
        const float* row = p.coordinates.data() + r * static_cast<std::size_t>(p.components);
        xy.push_back(row[0]);
        xy.push_back(p.components > 1 ? row[1] : 0.0f);
    }
    return xy;
}

void ProjectorView::showPca()
{
    const projector::Projection* p = projection();
    if (!p || !m_threeDBox->isChecked() || p->components < 3) {
        showPositions(pcaPositions());
        return;
    }
    const auto end = p->coordinates.begin() + static_cast<std::ptrdiff_t>(3 * p->rows);
    std::vector<double> xyz(p->coordinates.begin(), end);
    showPositions3D(xyz, false);
}

void ProjectorView::showPositions3D(const std::vector<double>& xyz, bool keepRotation)
{
    std::vector<std::array<double, 3>> points(xyz.size() / 3);
    for (std::size_t r = 0; r < points.size(); ++r)
        points[r] = {xyz[3 * r], xyz[3 * r + 1], xyz[3 * r + 2]};
    const auto selected = m_selected;
    std::vector<std::size_t> neighbourIndices;
    for (const auto& nb : m_neighbours)
        neighbourIndices.push_back(nb.index);
    m_canvas->setPoints3D(std::move(points), {}, keepRotation);
    applyColours();
    m_canvas->setHighlighted(m_matches);
    m_canvas->setSelection(selected, neighbourIndices);
}

void ProjectorView::showPositions(const std::vector<double>& xy)
{
    std::vector<QPointF> points;
    points.reserve(xy.size() / 2);
    for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
        points.emplace_back(xy[i], xy[i + 1]);
    const auto selected = m_selected;
    std::vector<std::size_t> neighbourIndices;
    for (const auto& nb : m_neighbours)
        neighbourIndices.push_back(nb.index);
    m_canvas->setPoints(std::move(points), {});
    applyColours();
    m_canvas->setHighlighted(m_matches);
    m_canvas->setSelection(selected, neighbourIndices);
}

void ProjectorView::startTsne()
{
    stopTsne();
    if (!m_data || m_data->values.rows == 0)
        return;
    m_tsneIteration = 0;
    m_tsneError.clear();
    const std::shared_ptr<const Loaded> data = m_data;
    auto error = std::make_shared<QString>(); // written by the worker before it finishes
    projector::TsneOptions options;
    options.perplexity = m_perplexityBox->value();
    options.dimensions = m_threeDBox->isChecked() ? 3 : 2;
    m_tsneDimensions = options.dimensions;
    m_tsneWatcher = new QFutureWatcher<std::vector<double>>(this);
    connect(m_tsneWatcher, &QFutureWatcherBase::resultReadyAt, this, [this](int index) {
        // Only the newest snapshot is drawn; older ones still queued are skipped.
        const int newest = m_tsneWatcher->future().resultCount() - 1;
        if (index < newest)
            return;
        m_tsneIteration = std::min(kTsneIterations, (newest + 1) * kTsneEvery); // a snapshot every kTsneEvery
        if (m_tsneDimensions == 3) // the user may be turning it as it forms
            showPositions3D(m_tsneWatcher->resultAt(newest), newest > 0);
        else
            showPositions(m_tsneWatcher->resultAt(newest));
        updateStatus();
    });
    connect(m_tsneWatcher, &QFutureWatcherBase::finished, this, [this, error] {
        auto* watcher = std::exchange(m_tsneWatcher, nullptr);
        watcher->deleteLater();
        m_tsneIteration = std::min(kTsneIterations, watcher->future().resultCount() * kTsneEvery);
        m_tsneError = *error;
        updateStatus();
    });
    m_tsneWatcher->setFuture(runInBackgroundWithPromise<std::vector<double>>(
        [data, options, error](QPromise<std::vector<double>>& promise) {
            promise.setProgressRange(0, kTsneIterations);
            auto tsne = projector::Tsne::create(data->values, options);
            if (!tsne) {
                *error = q(tsne.error().message());
                return;
            }
            for (int it = 1; it <= kTsneIterations && !promise.isCanceled(); ++it) {
                tsne->step();
                if (it % kTsneEvery == 0) {
                    promise.setProgressValue(it);
                    promise.addResult(tsne->positions());
                }
            }
        }));
    updateStatus();
}

void ProjectorView::load()
{
    const int index = m_embeddingBox->currentIndex();
    if (index < 0 || index >= static_cast<int>(m_entries.size()))
        return;
    if (m_watcher) { // one read at a time: the newest choice is read after it
        m_reloadPending = true;
        return;
    }
    stopTsne();
    const auto [c, e] = m_entries[static_cast<std::size_t>(index)];
    const events::ProjectorConfig config = m_configs[c];
    const events::ProjectorEmbedding embedding = config.embeddings[e];
    const bool sphereize = m_sphereizeBox->isChecked();
    m_watcher = new QFutureWatcher<std::shared_ptr<const Loaded>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        auto* watcher = std::exchange(m_watcher, nullptr);
        watcher->deleteLater();
        if (std::exchange(m_reloadPending, false)) {
            load();
            return;
        }
        m_data = watcher->result();
        m_error = m_data->error;
        m_selected.reset();
        m_neighbours.clear();
        // The metadata's columns offered for colouring and labels.
        const QString colourWas = m_colourBox->currentText(), labelWas = m_labelBox->currentText();
        {
            const QSignalBlocker b1(m_colourBox), b2(m_labelBox);
            m_colourBox->clear();
            m_labelBox->clear();
            m_colourBox->addItem(tr("(none)"));
            if (m_data->metadata)
                for (const std::string& column : m_data->metadata->columns) {
                    m_colourBox->addItem(q(column));
                    m_labelBox->addItem(q(column));
                }
            m_colourBox->setCurrentIndex(std::max(0, m_colourBox->findText(colourWas)));
            if (m_colourBox->currentIndex() == 0 && m_colourBox->count() > 1)
                m_colourBox->setCurrentIndex(1);
            m_labelBox->setCurrentIndex(std::max(0, m_labelBox->findText(labelWas)));
        }
        m_canvas->setSprites(m_data->sprites);
        m_spritesBox->setVisible(!m_data->sprites.empty());
        showPca();
        applySearch();
        m_neighbourList->clear();
        showLegend();
        updateStatus();
        if (m_methodBox->currentIndex() == 1)
            startTsne();
        emit loaded();
    });
    m_watcher->setFuture(runInBackground([config, embedding, sphereize]() {
        auto out = std::make_shared<Loaded>();
        auto values = events::readEmbeddingValues(config, embedding);
        if (!values) {
            out->error = q(values.error().message());
            return std::shared_ptr<const Loaded>(out);
        }
        out->values = std::move(*values);
        if (!embedding.metadataPath.empty()) {
            auto metadata = events::readEmbeddingMetadata(embedding.metadataPath, out->values.rows);
            if (metadata)
                out->metadata = std::move(*metadata);
            else
                out->error = q(metadata.error().message());
        }
        if (!embedding.spritePath.empty()) {
            auto sprites = projector::spriteThumbnails(embedding.spritePath, embedding.spriteImageWidth,
                                                       embedding.spriteImageHeight, out->values.rows, kSpriteSize);
            if (sprites)
                out->sprites = std::move(*sprites);
            else
                out->spriteError = q(sprites.error().message());
        }
        auto projection = projector::principalComponents(out->values, 3, sphereize);
        if (projection)
            out->projection = std::move(*projection);
        else
            out->error = q(projection.error().message());
        return std::shared_ptr<const Loaded>(out);
    }));
    updateStatus();
}

int ProjectorView::columnIndex(const QString& column) const
{
    if (!m_data || !m_data->metadata)
        return -1;
    const auto& columns = m_data->metadata->columns;
    const auto it = std::find(columns.begin(), columns.end(), column.toStdString());
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

QString ProjectorView::labelOf(std::size_t index) const
{
    const int column = columnIndex(m_labelBox->currentText());
    if (column < 0 || !m_data || index >= m_data->metadata->rows.size())
        return QString::number(index);
    return q(m_data->metadata->rows[index][static_cast<std::size_t>(column)]);
}

void ProjectorView::setSpritesShown(bool shown)
{
    m_spritesBox->setChecked(shown);
}

bool ProjectorView::spritesShown() const
{
    return m_spritesBox->isChecked() && m_data && !m_data->sprites.empty();
}

void ProjectorView::setColourBy(const QString& column)
{
    m_colourBox->setCurrentIndex(std::max(0, m_colourBox->findText(column)));
}

void ProjectorView::setLabelBy(const QString& column)
{
    m_labelBox->setCurrentIndex(std::max(0, m_labelBox->findText(column)));
}

void ProjectorView::setSearch(const QString& pattern)
{
    m_searchEdit->setText(pattern);
    applySearch();
}

int ProjectorView::matchCount() const
{
    return static_cast<int>(std::count(m_matches.begin(), m_matches.end(), true));
}

void ProjectorView::applyColours()
{
    if (!m_data)
        return;
    const std::size_t n = m_data->projection.rows;
    std::vector<QColor> colours;
    const int column = columnIndex(m_colourBox->currentText());
    m_legend.clear();
    if (column >= 0 && m_data->metadata) {
        std::map<std::string, int> categories;
        for (const auto& row : m_data->metadata->rows)
            categories.emplace(row[static_cast<std::size_t>(column)], 0);
        if (static_cast<int>(categories.size()) <= kMaxCategories) {
            int next = 0;
            for (auto& [value, index] : categories)
                index = next++;
            for (const auto& row : m_data->metadata->rows)
                colours.push_back(defaultRunColour(categories[row[static_cast<std::size_t>(column)]]));
            for (const auto& [value, index] : categories)
                m_legend.emplace_back(q(value), defaultRunColour(index));
        } else {
            // Many values: a gradient over the numbers among them (others grey).
            std::vector<double> numbers(m_data->metadata->rows.size(), NAN);
            double lo = INFINITY, hi = -INFINITY;
            for (std::size_t i = 0; i < numbers.size(); ++i) {
                bool ok = false;
                const double v = q(m_data->metadata->rows[i][static_cast<std::size_t>(column)]).toDouble(&ok);
                if (ok && std::isfinite(v)) {
                    numbers[i] = v;
                    lo = std::min(lo, v), hi = std::max(hi, v);
                }
            }
            for (double v : numbers) {
                if (std::isnan(v)) {
                    colours.push_back(QColor(0xbd, 0xbd, 0xbd));
                    continue;
                }
                const double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
                colours.push_back(QColor::fromRgbF(float(0.13 + 0.8 * t), float(0.4 + 0.2 * (1 - t)),
                                                   float(0.8 - 0.6 * t)));
            }
        }
    }
    if (colours.size() != n)
        colours.clear();
    m_canvas->setColours(std::move(colours)); // the view, highlights and selection stay
    if (!m_selected)
        showLegend();
}

void ProjectorView::showLegend()
{
    QString html = tr("Click a point for its metadata and its nearest neighbours.");
    if (!m_legend.empty()) {
        html += QStringLiteral("<br><br><b>%1</b>").arg(m_colourBox->currentText().toHtmlEscaped());
        for (const auto& [value, colour] : m_legend)
            html += QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2")
                        .arg(colour.name(), value.toHtmlEscaped());
    }
    m_pointInfo->setText(html);
}

void ProjectorView::applySearch()
{
    m_matches.assign(m_data ? m_data->projection.rows : 0, false);
    const QString pattern = m_searchEdit->text();
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!pattern.isEmpty() && re.isValid())
        for (std::size_t i = 0; i < m_matches.size(); ++i)
            m_matches[i] = re.match(labelOf(i)).hasMatch();
    m_searchEdit->setStyleSheet(re.isValid() ? QString() : QStringLiteral("color: #c62828;"));
    m_matchLabel->setText(pattern.isEmpty() ? QString() : tr("%n match(es)", nullptr, matchCount()));
    m_canvas->setHighlighted(m_matches);
}

void ProjectorView::selectPoint(std::size_t index)
{
    if (!m_data || index >= m_data->values.rows)
        return;
    m_selected = index;
    m_neighbours = projector::nearestNeighbours(m_data->values, index, kNeighbours, projector::DistanceMetric::Cosine);
    std::vector<std::size_t> indices;
    m_neighbourList->clear();
    for (const projector::Neighbour& nb : m_neighbours) {
        indices.push_back(nb.index);
        auto* item = new QListWidgetItem(QStringLiteral("%1   %2").arg(nb.distance, 0, 'f', 3).arg(labelOf(nb.index)),
                                         m_neighbourList);
        item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(nb.index));
    }
    QString info = QStringLiteral("<b>%1</b> &nbsp;#%2").arg(labelOf(index).toHtmlEscaped()).arg(index);
    if (m_data->metadata)
        for (std::size_t c = 0; c < m_data->metadata->columns.size(); ++c)
            info += QStringLiteral("<br>%1: %2")
                        .arg(q(m_data->metadata->columns[c]).toHtmlEscaped(),
                             q(m_data->metadata->rows[index][c]).toHtmlEscaped());
    info += QStringLiteral("<br>") + tr("Nearest points (cosine distance):");
    m_pointInfo->setText(info);
    m_canvas->setSelection(index, indices);
}

QString ProjectorView::statusText() const
{
    return m_status->text();
}

void ProjectorView::updateStatus()
{
    if (m_watcher) {
        m_status->setText(tr("Reading and projecting the embedding…"));
        return;
    }
    if (m_methodBox->currentIndex() == 1 && m_data && m_error.isEmpty()) {
        if (!m_tsneError.isEmpty()) {
            m_status->setText(m_tsneError);
            return;
        }
        m_status->setText(m_tsneWatcher ? tr("t-SNE: iteration %1 of %2…").arg(m_tsneIteration).arg(kTsneIterations)
                                        : tr("t-SNE: %1 iterations, perplexity %2")
                                              .arg(m_tsneIteration)
                                              .arg(m_perplexityBox->value()));
        return;
    }
    if (!m_error.isEmpty()) {
        m_status->setText(m_error);
        return;
    }
    const projector::Projection* p = projection();
    if (!p || !m_data) {
        m_status->clear();
        return;
    }
    // The components shown: three in 3-D, else the first two.
    const int shown = m_canvas->is3D() ? 3 : std::min(2, p->components);
    double explained = 0;
    for (int k = 0; k < shown && k < static_cast<int>(p->varianceExplained.size()); ++k)
        explained += p->varianceExplained[static_cast<std::size_t>(k)];
    QString text = tr("%1 points × %2 dimensions · PCA: the %3 components shown hold %4% of the variance")
                       .arg(m_data->values.rows)
                       .arg(m_data->values.dims)
                       .arg(shown)
                       .arg(explained * 100, 0, 'f', 1);
    if (!m_data->spriteError.isEmpty())
        text += QStringLiteral(" · ") + m_data->spriteError;
    m_status->setText(text);
}

} // namespace tstudio::dashboard
