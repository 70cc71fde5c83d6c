// TensorImageGrid: a 4-D NHWC (or 3-D HWC) tensor drawn as a grid of images, like TensorBoard's image summaries.
#pragma once

#include "framework/tensor.h"

#include <QImage>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace tstudio::debugger_ui {

/// Shows image-like tensors: [batch, height, width, channels] or [height, width, channels] with 1
/// (grey), 3 (RGB) or 4 (RGBA) channels, of any real dtype. uint8 values are shown as they are (as
/// TensorFlow's image summary does); other dtypes are mapped linearly from the tensor's smallest
/// finite value (black) to its largest (white), one scale for the whole tensor so that images compare.
/// Non-finite values paint the pixel red, TensorFlow's image summary default "bad colour".
/// At most kMaxImages are drawn (the first ones; a slice chooses others). Images are converted once
/// per tensor and scaled with the nearest pixel to fill the widget.
class TensorImageGrid : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxImages = 256;

    explicit TensorImageGrid(QWidget* parent = nullptr);

    /// Why `tensor` cannot be shown as images (translated), or an empty string when it can.
    static QString unsuitableReason(const Tensor& tensor);

    /// Shows `tensor` when it is suitable, else clears the grid.
    void setTensor(const Tensor& tensor);
    void clear();

    /// Images in the tensor, and how many of them are drawn.
    int totalImages() const { return m_total; }
    int imageCount() const;
    /// Image `i` as drawn (ARGB32, unscaled).
    QImage image(int i) const;
    /// The scale's ends: the values shown black and white (0 and 255 for uint8).
    double low() const { return m_low; }
    double high() const { return m_high; }

    /// The image index and pixel (row, column) under `pos`, if any.
    struct Hit {
        int image = 0;
        int row = 0;
        int column = 0;
    };
    std::optional<Hit> hitAt(const QPointF& pos) const;
    /// The rectangle image `i` is drawn in (empty when it is not drawn).
    QRectF imageRect(int i) const;

    QSize sizeHint() const override { return {520, 360}; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void render() const;
    QRectF gridRect() const;
    /// Columns of the grid and the scale factor that fit every drawn image into gridRect().
    std::pair<int, double> layout() const;

    Tensor m_tensor;
    int m_total = 0;
    int m_height = 0;
    int m_width = 0;
    int m_channels = 0;
    double m_low = 0;
    double m_high = 0;
    mutable std::vector<QImage> m_images;
    mutable bool m_dirty = false;
};

} // namespace tstudio::debugger_ui
