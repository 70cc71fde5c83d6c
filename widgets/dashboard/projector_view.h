// ProjectorView: the dashboard's Projector tab, TensorBoard's embedding projector: the embeddings
// a run's projector_config.pbtxt names, projected on their principal components, coloured and
// labelled by metadata, searched, with each point's nearest neighbours.
#pragma once

#include "io/events/projector_config.h"
#include "projector/embedding_projection.h"
#include "dashboard/projector_canvas.h"
#include "projector/tsne.h"

#include <QColor>
#include <QFutureWatcher>
#include <QImage>
#include <QString>
#include <QPointF>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace tstudio::dashboard {

/// Finds every projector_config.pbtxt in the followed log directories (the folders and the folders
/// below them), and every folder with a checkpoint, lists their embeddings as TensorBoard does
/// (events::readProjectorRun: the config's, then the checkpoint's rank-2 variables), and reads the
/// chosen one on a worker thread: its values (a TSV, or the checkpoint's variable), metadata and PCA (2 components; "Sphereize data" as
/// TensorBoard's). Colour by a metadata column (a palette colour per value where there are at most
/// 20 distinct values, else a gradient over numbers), label by a column, search a column by a
/// case-insensitive regular expression (matches highlighted and counted), click a point for its
/// metadata and its 20 nearest neighbours (cosine distance, in the original space). The method can
/// be t-SNE instead (Barnes-Hut, 2-D or 3-D, the perplexity chosen): it runs on a worker, 1,000
/// iterations, the points moving on screen every 10 of them, until it ends or is stopped.
class ProjectorView : public QWidget {
    Q_OBJECT
public:
    explicit ProjectorView(QWidget* parent = nullptr);
    ~ProjectorView() override; ///< a t-SNE still running is cancelled

    void setLogDirectories(const QStringList& roots);
    /// Looks for configs again (the tab calls it when shown).
    void reload();
    /// The embeddings found: "folder: tensor name".
    QStringList embeddings() const;
    void selectEmbedding(int index);
    /// Chooses the first embedding named `tensorName` (a checkpoint variable, with or without ":0");
    /// false when none is.
    bool selectTensor(const QString& tensorName);
    /// True while an embedding is being read.
    bool isLoading() const { return m_watcher != nullptr; }
    /// The loaded embedding's values, metadata and projection (nullptr before one has loaded).
    const events::EmbeddingValues* values() const;
    const events::EmbeddingMetadata* metadata() const;
    const projector::Projection* projection() const;
    /// What went wrong reading the chosen embedding ("" when it loaded).
    QString error() const { return m_error; }
    /// The line under the canvas (what is shown, or why not).
    QString statusText() const;

    void setSphereize(bool sphereize);
    /// 3-D (PCA's three components, or t-SNE in three dimensions, on a canvas turned by dragging)
    /// or 2-D.
    void setThreeD(bool threeD);
    /// PCA (the default) or t-SNE; t-SNE starts at once on the loaded embedding.
    enum class Method { Pca, Tsne };
    void setMethod(Method method);
    void setPerplexity(int perplexity);
    /// t-SNE's iterations so far (0 before it runs), and whether it is still running.
    int tsneIterations() const { return m_tsneIteration; }
    bool isTsneRunning() const { return m_tsneWatcher != nullptr; }
    void stopTsne();
    void setColourBy(const QString& column);
    void setLabelBy(const QString& column);
    void setSearch(const QString& pattern);
    /// Points the search matches.
    int matchCount() const;
    void selectPoint(std::size_t index);
    /// Points drawn as their sprite thumbnails (when the embedding has a sprite).
    void setSpritesShown(bool shown);
    bool spritesShown() const;
    /// The neighbours listed for the selected point.
    std::vector<projector::Neighbour> neighbours() const { return m_neighbours; }
    ProjectorCanvas* canvas() const { return m_canvas; }

signals:
    /// An embedding finished loading (or failed: error()).
    void loaded();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Loaded {
        events::EmbeddingValues values;
        std::optional<events::EmbeddingMetadata> metadata;
        projector::Projection projection;
        QString error;
        std::vector<QImage> sprites; ///< a thumbnail per point, when the embedding has a sprite
        QString spriteError;        ///< why its sprite could not be used ("" when none or fine)
    };

    void load();
    void startTsne();
    void showPositions(const std::vector<double>& xy);
    /// The PCA on the canvas: three components turned in 3-D when "3-D" is ticked (and there are
    /// three), else the first two.
    void showPca();
    /// x, y, z per point on the canvas in 3-D, the selection and highlights kept.
    void showPositions3D(const std::vector<double>& xyz, bool keepRotation);
    /// The loaded projection's first two components, x and y per point.
    std::vector<double> pcaPositions() const;
    void applyColours();
    void applySearch();
    void updateStatus();
    void showLegend();
    void retranslateUi();
    int columnIndex(const QString& column) const;
    QString labelOf(std::size_t index) const;

    QStringList m_roots;
    std::vector<events::ProjectorConfig> m_configs;
    std::vector<std::pair<std::size_t, std::size_t>> m_entries; ///< (config, embedding) per list entry
    std::shared_ptr<const Loaded> m_data;
    QFutureWatcher<std::shared_ptr<const Loaded>>* m_watcher = nullptr;
    bool m_reloadPending = false;
    bool m_scanned = false;
    QString m_error;
    std::vector<bool> m_matches;
    std::vector<projector::Neighbour> m_neighbours;
    std::optional<std::size_t> m_selected;
    std::vector<std::pair<QString, QColor>> m_legend; ///< colour per metadata value (a few values)

    QComboBox* m_embeddingBox = nullptr;
    QCheckBox* m_sphereizeBox = nullptr;
    QCheckBox* m_threeDBox = nullptr;
    int m_tsneDimensions = 2; ///< of the t-SNE running or last run
    QCheckBox* m_spritesBox = nullptr;
    QLabel* m_colourLabel = nullptr;
    QComboBox* m_colourBox = nullptr;
    QLabel* m_labelLabel = nullptr;
    QComboBox* m_labelBox = nullptr;
    QLineEdit* m_searchEdit = nullptr;
    QLabel* m_matchLabel = nullptr;
    ProjectorCanvas* m_canvas = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_pointInfo = nullptr;
    QListWidget* m_neighbourList = nullptr;
    QLabel* m_empty = nullptr;
    QComboBox* m_methodBox = nullptr;
    QLabel* m_perplexityLabel = nullptr;
    QSpinBox* m_perplexityBox = nullptr;
    QFutureWatcher<std::vector<double>>* m_tsneWatcher = nullptr;
    int m_tsneIteration = 0;
    QString m_tsneError; ///< why t-SNE could not start ("" otherwise)
};

} // namespace tstudio::dashboard
