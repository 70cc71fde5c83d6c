// SourcePreviewView: the first examples of a data-source node's project source, as the runner will
// read them: each component's dtype and shape, its first values, and images shown as images.
#pragma once

#include "project/format/project_file.h"

#include <QString>
#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;

namespace tstudio::debugger_ui {
class TensorImageGrid;
}

namespace tstudio::node_editor {

/// Reads on a worker thread (project::previewSource), so a large folder never blocks the GUI; a
/// newer setSource() replaces a read still going. Errors are shown in the engine's words. Images:
/// a component of rank 3 per example with 1, 3 or 4 channels, or MNIST's flat [784] (shown 28x28).
/// Object names: "previewTable", "previewImages", "previewStatus". GUI thread only.
class SourcePreviewView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kExamples = 16;

    explicit SourcePreviewView(QWidget* parent = nullptr);
    ~SourcePreviewView() override;

    /// Previews project.sources[index]; `title` names the node ("mnist (MnistSource)").
    void setSource(project::Project project, std::size_t index, const QString& title);
    /// Shows `message` instead of a preview (the node's params do not make a source yet).
    void showMessage(const QString& message);

    bool isLoading() const { return m_loading; }
    /// Rows of the component table: one per component.
    QTableWidget* table() const { return m_table; }
    debugger_ui::TensorImageGrid* images() const { return m_images; }
    QString statusText() const;

signals:
    /// A preview (or its error) is shown.
    void ready();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Result;
    void display(std::shared_ptr<const Result> result);
    void retranslateUi();

    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
    debugger_ui::TensorImageGrid* m_images = nullptr;
    QString m_sourceTitle;
    std::shared_ptr<const Result> m_shown;
    int m_generation = 0;
    bool m_loading = false;
};

} // namespace tstudio::node_editor
