// ImageCard: one (tag, run) of the images tab: a sample's image with step slider, brightness, contrast and saving.
#pragma once

#include "io/events/event_accumulator.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace tstudio::dashboard {

/// Paints one image fitted to its width (smooth when shrinking, nearest neighbour when enlarging so
/// that small images such as 28x28 digits stay crisp) or at its actual size.
class ImageCanvas : public QWidget {
    Q_OBJECT
public:
    explicit ImageCanvas(QWidget* parent = nullptr);
    void setImage(const QImage& image);
    void setActualSize(bool actual);
    /// Whether the last paint enlarged the image with nearest-neighbour sampling.
    bool pixelated() const { return m_pixelated; }
    /// The size the image is drawn at for the canvas' width.
    QSize drawnSize() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateHeight();

    QImage m_image;
    bool m_actual = false;
    bool m_pixelated = false;
};

/// The samples of one image tag in one run. A step slider picks the sample (live data moves it
/// only when it was at the newest step); an index spinner picks among a sample's images; brightness
/// and contrast apply to the displayed pixels; "Save as PNG…" writes the displayed image.
class ImageCard : public QWidget {
    Q_OBJECT
public:
    ImageCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent = nullptr);

    /// Replaces the samples (any order; sorted by step). Decoding is done for the shown sample only.
    void setSamples(std::vector<events::ValueSample> samples);
    void setColour(const QColor& colour);

    /// The step shown, or -1 without samples.
    std::int64_t currentStep() const;
    /// The steps of the samples, ascending.
    std::vector<std::int64_t> steps() const;
    /// Shows the last sample at or before `step` (the first sample when every one is later), as
    /// the Images tab's step for every card asks.
    void showStepAtOrBefore(std::int64_t step);
    QSlider* stepSlider() const { return m_stepSlider; }
    QLabel* stepLabel() const { return m_stepLabel; }
    QSpinBox* indexSpin() const { return m_indexSpin; }
    QSlider* brightnessSlider() const { return m_brightness; }
    QSlider* contrastSlider() const { return m_contrast; }
    QCheckBox* actualSizeBox() const { return m_actualSize; }
    ImageCanvas* canvas() const { return m_canvas; }
    /// The decoded image of the shown sample and index, before adjustments.
    const QImage& decodedImage() const { return m_decoded; }
    /// The image as displayed: brightness and contrast applied, unscaled.
    const QImage& displayedImage() const { return m_displayed; }
    /// The error shown instead of an image ("" when the image decoded).
    QString errorText() const;

    /// Writes the displayed image as PNG (atomically); false with `error` set on failure.
    bool savePng(const QString& path, QString* error = nullptr) const;

    /// brightness in [-100, 100] adds up to +-255; contrast in [-100, 100] scales around mid-grey by
    /// (100 + contrast) / 100. Alpha is kept.
    static QImage adjusted(const QImage& image, int brightness, int contrast);

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void retranslateUi();
    void showStep(int index);
    void decodeCurrent();
    void applyAdjustments();
    void saveWithDialog();

    QString m_tag;
    QString m_run;
    QColor m_colour;
    std::vector<events::ValueSample> m_samples;
    QImage m_decoded;
    QImage m_displayed;
    int m_imageCount = 0;

    QLabel* m_title = nullptr;
    QLabel* m_runLabel = nullptr;
    ImageCanvas* m_canvas = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_indexLabel = nullptr;
    QSpinBox* m_indexSpin = nullptr;
    QSlider* m_stepSlider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_brightnessLabel = nullptr;
    QSlider* m_brightness = nullptr;
    QLabel* m_contrastLabel = nullptr;
    QSlider* m_contrast = nullptr;
    QPushButton* m_reset = nullptr;
    QCheckBox* m_actualSize = nullptr;
    QPushButton* m_save = nullptr;
};

} // namespace tstudio::dashboard
