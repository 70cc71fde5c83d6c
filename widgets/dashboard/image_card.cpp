// ImageCard: decoding the shown image sample, live-safe step slider, pixel adjustments, scaling and PNG saving.
#include "image_card.h"

#include "dashboard/run_cards.h"

#include "io/events/summary_values.h"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace tstudio::dashboard {

// ---------------------------------------------------------------------------------------------
// ImageCanvas

ImageCanvas::ImageCanvas(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFixedHeight(40);
}

void ImageCanvas::setImage(const QImage& image)
{
    const bool sizeChanged = image.size() != m_image.size();
    m_image = image;
    if (sizeChanged)
        updateHeight();
    update();
}

void ImageCanvas::setActualSize(bool actual)
{
    m_actual = actual;
    updateHeight();
    update();
}

QSize ImageCanvas::drawnSize() const
{
    if (m_image.isNull() || m_image.width() <= 0)
        return {0, 0};
    if (m_actual)
        return m_image.size();
    // Fit the width, but keep tall images within a card-sized box; an image a few pixels wide (a
    // layer's bias written as a column) is widened to stay visible, the one case where the aspect
    // ratio is not kept.
    constexpr int kMaxHeight = 400;
    constexpr int kMinWidth = 24;
    QSize s(width(), static_cast<int>(std::lround(double(m_image.height()) * width() / m_image.width())));
    if (s.height() > kMaxHeight)
        s = QSize(static_cast<int>(std::lround(double(m_image.width()) * kMaxHeight / m_image.height())), kMaxHeight);
    if (s.width() < kMinWidth)
        s.setWidth(std::min(kMinWidth, width()));
    return s.expandedTo(QSize(1, 1));
}

void ImageCanvas::updateHeight()
{
    setFixedHeight(std::max(40, drawnSize().height()));
}

void ImageCanvas::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (!m_actual)
        updateHeight();
}

void ImageCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (m_image.isNull())
        return;
    const QSize size = drawnSize();
    const QRect target(QPoint(std::max(0, (width() - size.width()) / 2), 0), size);
    m_pixelated = size.width() > m_image.width();
    if (size == m_image.size()) {
        p.drawImage(target.topLeft(), m_image);
    } else if (m_pixelated) {
        // Enlarging: nearest neighbour keeps the pixels square and crisp.
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(target, m_image);
    } else {
        p.drawImage(target.topLeft(), m_image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
    }
}

// ---------------------------------------------------------------------------------------------
// ImageCard

ImageCard::ImageCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent)
    : QWidget(parent), m_tag(tag), m_run(run), m_colour(colour)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 12, 10, 8);
    layout->setSpacing(4);
    m_title = new QLabel(tag, this);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLabel = new QLabel(run, this);
    layout->addWidget(m_title);
    layout->addWidget(m_runLabel);

    m_canvas = new ImageCanvas(this);
    layout->addWidget(m_canvas);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->hide();
    layout->addWidget(m_error);

    auto* indexRow = new QHBoxLayout;
    m_indexLabel = new QLabel(this);
    m_indexSpin = new QSpinBox(this);
    m_indexSpin->setMinimum(1);
    indexRow->addWidget(m_indexLabel);
    indexRow->addWidget(m_indexSpin);
    indexRow->addStretch(1);
    layout->addLayout(indexRow);

    auto* stepRow = new QHBoxLayout;
    m_stepSlider = new QSlider(Qt::Horizontal, this);
    m_stepSlider->setRange(0, 0);
    m_stepLabel = new QLabel(this);
    m_stepLabel->setMinimumWidth(90);
    stepRow->addWidget(m_stepSlider, 1);
    stepRow->addWidget(m_stepLabel);
    layout->addLayout(stepRow);

    auto* adjustRow = new QHBoxLayout;
    m_brightnessLabel = new QLabel(this);
    m_brightness = new QSlider(Qt::Horizontal, this);
    m_brightness->setRange(-100, 100);
    m_contrastLabel = new QLabel(this);
    m_contrast = new QSlider(Qt::Horizontal, this);
    m_contrast->setRange(-100, 100);
    m_reset = new QPushButton(this);
    adjustRow->addWidget(m_brightnessLabel);
    adjustRow->addWidget(m_brightness, 1);
    adjustRow->addWidget(m_contrastLabel);
    adjustRow->addWidget(m_contrast, 1);
    adjustRow->addWidget(m_reset);
    layout->addLayout(adjustRow);

    auto* bottomRow = new QHBoxLayout;
    m_actualSize = new QCheckBox(this);
    m_save = new QPushButton(this);
    bottomRow->addWidget(m_actualSize);
    bottomRow->addStretch(1);
    bottomRow->addWidget(m_save);
    layout->addLayout(bottomRow);

    connect(m_stepSlider, &QSlider::valueChanged, this, [this](int index) { showStep(index); });
    connect(m_indexSpin, &QSpinBox::valueChanged, this, [this] { decodeCurrent(); });
    connect(m_brightness, &QSlider::valueChanged, this, [this] { applyAdjustments(); });
    connect(m_contrast, &QSlider::valueChanged, this, [this] { applyAdjustments(); });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        m_brightness->setValue(0);
        m_contrast->setValue(0);
    });
    connect(m_actualSize, &QCheckBox::toggled, m_canvas, &ImageCanvas::setActualSize);
    connect(m_save, &QPushButton::clicked, this, &ImageCard::saveWithDialog);
    retranslateUi();
    showStep(0);
}

void ImageCard::retranslateUi()
{
    m_indexLabel->setText(tr("Image"));
    m_brightnessLabel->setText(tr("Brightness"));
    m_contrastLabel->setText(tr("Contrast"));
    m_reset->setText(tr("Reset"));
    m_reset->setToolTip(tr("Reset brightness and contrast"));
    m_actualSize->setText(tr("Actual size"));
    m_actualSize->setToolTip(tr("Show the image at its own size instead of fitting it to the card"));
    m_save->setText(tr("Save as PNG…"));
    m_stepLabel->setText(m_samples.empty() ? tr("no samples") : tr("step %1").arg(currentStep()));
}

void ImageCard::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ImageCard::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    QPainter p(this);
    p.setPen(palette().mid().color());
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.fillRect(QRect(0, 0, width(), 5), m_colour); // the run's colour stripe
}

void ImageCard::setColour(const QColor& colour)
{
    if (colour == m_colour)
        return;
    m_colour = colour;
    update();
}

std::int64_t ImageCard::currentStep() const
{
    const int i = m_stepSlider->value();
    if (i < 0 || static_cast<std::size_t>(i) >= m_samples.size())
        return -1;
    return m_samples[static_cast<std::size_t>(i)].step;
}

std::vector<std::int64_t> ImageCard::steps() const
{
    std::vector<std::int64_t> out;
    out.reserve(m_samples.size());
    for (const auto& sample : m_samples)
        out.push_back(sample.step);
    return out;
}

void ImageCard::showStepAtOrBefore(std::int64_t step)
{
    if (m_samples.empty())
        return;
    // m_samples is sorted by step (setSamples).
    const auto after = std::upper_bound(m_samples.begin(), m_samples.end(), step,
                                        [](std::int64_t s, const events::ValueSample& v) { return s < v.step; });
    const int index = after == m_samples.begin() ? 0 : static_cast<int>(after - m_samples.begin()) - 1;
    m_stepSlider->setValue(index); // shows it (valueChanged)
}

void ImageCard::setSamples(std::vector<events::ValueSample> samples)
{
    const bool atNewest = m_samples.empty() || m_stepSlider->value() == m_stepSlider->maximum();
    const std::int64_t oldStep = currentStep();
    const auto oldValue = m_samples.empty() ? nullptr : m_samples[std::size_t(m_stepSlider->value())].value;
    const int index = stepIndexAfterUpdate(samples, atNewest, oldStep);
    m_samples = std::move(samples);
    {
        const QSignalBlocker block(m_stepSlider);
        m_stepSlider->setRange(0, std::max(0, static_cast<int>(m_samples.size()) - 1));
        m_stepSlider->setValue(std::max(index, 0));
    }
    m_stepSlider->setEnabled(m_samples.size() > 1);
    const auto newValue = m_samples.empty() ? nullptr : m_samples[std::size_t(m_stepSlider->value())].value;
    if (newValue != oldValue || m_samples.empty())
        showStep(m_stepSlider->value());
    else
        m_stepLabel->setText(tr("step %1").arg(currentStep()));
}

void ImageCard::showStep(int)
{
    m_stepLabel->setText(m_samples.empty() ? tr("no samples") : tr("step %1").arg(currentStep()));
    decodeCurrent();
}

void ImageCard::decodeCurrent()
{
    m_decoded = QImage();
    QString error;
    m_imageCount = 0;
    if (!m_samples.empty()) {
        const auto& sample = m_samples[std::size_t(m_stepSlider->value())];
        static const std::string kNothing;
        const auto images = events::decodeImages(sample.value ? *sample.value : kNothing, m_tag.toStdString());
        if (!images) {
            error = QString::fromStdString(images.error().message());
        } else {
            m_imageCount = static_cast<int>(images->encoded.size());
            const QSignalBlocker block(m_indexSpin);
            m_indexSpin->setMaximum(std::max(1, m_imageCount));
            const int k = m_indexSpin->value() - 1;
            if (k < 0 || k >= m_imageCount) {
                error = tr("The sample at step %1 holds no image.").arg(sample.step);
            } else {
                const std::string& bytes = images->encoded[std::size_t(k)];
                m_decoded = QImage::fromData(QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
                if (m_decoded.isNull())
                    error = tr("The image at step %1 could not be decoded (%2 bytes; PNG, JPEG or GIF expected).")
                                .arg(sample.step)
                                .arg(bytes.size());
            }
        }
    }
    m_indexLabel->setVisible(m_imageCount > 1);
    m_indexSpin->setVisible(m_imageCount > 1);
    m_indexSpin->setSuffix(tr(" of %1").arg(m_imageCount));
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    m_save->setEnabled(!m_decoded.isNull());
    applyAdjustments();
}

QString ImageCard::errorText() const
{
    return m_error->text();
}

QImage ImageCard::adjusted(const QImage& image, int brightness, int contrast)
{
    if (image.isNull() || (brightness == 0 && contrast == 0))
        return image;
    QImage out = image.convertToFormat(QImage::Format_ARGB32);
    const double factor = (100.0 + std::clamp(contrast, -100, 100)) / 100.0;
    const double offset = std::clamp(brightness, -100, 100) * 2.55;
    std::array<uchar, 256> table{};
    for (int v = 0; v < 256; ++v)
        table[std::size_t(v)] = static_cast<uchar>(std::clamp(std::lround((v - 127.5) * factor + 127.5 + offset), 0L, 255L));
    for (int y = 0; y < out.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const QRgb c = line[x];
            line[x] = qRgba(table[std::size_t(qRed(c))], table[std::size_t(qGreen(c))], table[std::size_t(qBlue(c))], qAlpha(c));
        }
    }
    return out;
}

void ImageCard::applyAdjustments()
{
    m_displayed = adjusted(m_decoded, m_brightness->value(), m_contrast->value());
    m_canvas->setImage(m_displayed);
}

bool ImageCard::savePng(const QString& path, QString* error) const
{
    const auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_displayed.isNull())
        return fail(tr("There is no image to save."));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("Cannot write '%1': %2").arg(path, file.errorString()));
    if (!m_displayed.save(&file, "PNG"))
        return fail(tr("Cannot encode the image as PNG for '%1'.").arg(path));
    if (!file.commit())
        return fail(tr("Cannot write '%1': %2").arg(path, file.errorString()));
    return true;
}

void ImageCard::saveWithDialog()
{
    QString name = m_tag;
    name.replace('/', '_');
    const QString path = QFileDialog::getSaveFileName(this, tr("Save image as PNG"),
                                                      QStringLiteral("%1_step%2.png").arg(name).arg(currentStep()),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!savePng(path, &error))
        QMessageBox::warning(this, tr("Save as PNG"), error);
}

} // namespace tstudio::dashboard
