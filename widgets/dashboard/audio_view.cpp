// AudioView: clip widgets with facts, thumbnails, labels and saving, cards per (tag, run).
#include "audio_view.h"

#include "dashboard/run_cards.h"
#include "dashboard/wav_audio.h"
#include "io/events/summary_values.h"
#include "proto/summary.pb.h"

#include <QAudioDevice>
#include <QAudioFormat>
#include <QAudioSink>
#include <QBuffer>
#include <QEvent>
#include <QMediaDevices>
#include <QPointer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace tstudio::dashboard {

namespace {

QString describeLabel(const QString& s)
{
    return s.isEmpty() ? QString() : s;
}

} // namespace

namespace {

/// Paints the waveform thumbnail.
class WaveformWidget : public QWidget {
public:
    WaveformWidget(std::vector<std::pair<float, float>> peaks, const QColor& colour, QWidget* parent)
        : QWidget(parent), m_peaks(std::move(peaks)), m_colour(colour)
    {
        setFixedHeight(56);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().alternateBase());
        const double mid = height() / 2.0;
        p.setPen(palette().mid().color());
        p.drawLine(QPointF(0, mid), QPointF(width(), mid));
        if (m_peaks.empty())
            return;
        p.setPen(m_colour);
        for (int x = 0; x < width(); ++x) {
            const auto& [lo, hi] = m_peaks[std::size_t(std::int64_t(x) * std::int64_t(m_peaks.size()) / width())];
            p.drawLine(QPointF(x + 0.5, mid - hi * (mid - 2)), QPointF(x + 0.5, mid - lo * (mid - 2)));
        }
    }

private:
    std::vector<std::pair<float, float>> m_peaks;
    QColor m_colour;
};

} // namespace

AudioClipWidget::AudioClipWidget(std::string encoded, const QString& label, double summarySampleRate,
                                 const QString& name, const QColor& colour, QWidget* parent)
    : QWidget(parent), m_encoded(std::move(encoded)), m_name(name)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    m_label = new QLabel(describeLabel(label), this);
    m_label->setTextFormat(Qt::MarkdownText); // TF 2 audio labels are Markdown
    m_label->setWordWrap(true);
    m_label->setVisible(!label.isEmpty());
    layout->addWidget(m_label);
    const auto wav = parseWav(m_encoded, name.toStdString());
    m_info = new QLabel(this);
    if (wav) {
        const QString channels = wav->channels == 1 ? tr("mono") : wav->channels == 2 ? tr("stereo")
                                                                                    : tr("%1 channels").arg(wav->channels);
        m_info->setText(tr("%1 Hz · %2 s · %3 · %4-bit").arg(wav->sampleRate).arg(wav->durationSeconds, 0, 'f', 2)
                            .arg(channels).arg(wav->bitsPerSample));
    } else {
        const QString rate = summarySampleRate > 0 ? tr("%1 Hz, ").arg(summarySampleRate) : QString();
        m_info->setText(rate + QString::fromStdString(wav.error().message()));
        m_info->setWordWrap(true);
    }
    layout->addWidget(m_info);
    layout->addWidget(new WaveformWidget(wav ? wav->peaks : std::vector<std::pair<float, float>>{}, colour, this));
    auto* buttons = new QHBoxLayout;
    m_play = new QPushButton(tr("Play"), this);
    m_play->setEnabled(wav.has_value() && wav->frames > 0);
    m_play->setToolTip(tr("Play the clip on the default audio output"));
    auto* save = new QPushButton(tr("Save as WAV…"), this);
    buttons->addWidget(m_play);
    buttons->addStretch(1);
    buttons->addWidget(save);
    layout->addLayout(buttons);
    m_playError = new QLabel(this);
    m_playError->setWordWrap(true);
    m_playError->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_playError->hide();
    layout->addWidget(m_playError);
    connect(m_play, &QPushButton::clicked, this, [this] {
        if (isPlaying())
            stop();
        else
            play();
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save audio clip as WAV"), m_name + ".wav",
                                                          tr("WAV audio (*.wav)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!saveWav(path, &error))
            QMessageBox::warning(this, tr("Save as WAV"), error);
    });
}

namespace {

/// The clip playing now, if any: starting another stops it.
QPointer<AudioClipWidget>& playingClip()
{
    static QPointer<AudioClipWidget> clip;
    return clip;
}

} // namespace

QAudioFormat playbackFormat(const WavSamples& samples)
{
    QAudioFormat format;
    format.setSampleRate(samples.sampleRate);
    format.setChannelCount(samples.channels);
    format.setSampleFormat(QAudioFormat::Float);
    return format;
}

AudioClipWidget::~AudioClipWidget()
{
    stop();
}

bool AudioClipWidget::play(QString* error)
{
    auto fail = [&](const QString& why) {
        m_playError->setText(why);
        m_playError->show();
        if (error)
            *error = why;
        return false;
    };
    stop();
    const auto samples = decodeWavSamples(m_encoded, m_name.toStdString());
    if (!samples)
        return fail(QString::fromStdString(samples.error().message()));
    const QAudioDevice device = QMediaDevices::defaultAudioOutput();
    if (device.isNull())
        return fail(tr("No audio output on this machine: save the clip and play it elsewhere."));
    const QAudioFormat format = playbackFormat(*samples);
    if (!device.isFormatSupported(format))
        return fail(tr("The audio output %1 cannot play %2 Hz with %n channel(s).", nullptr, samples->channels)
                        .arg(device.description())
                        .arg(samples->sampleRate));
    if (playingClip() && playingClip() != this)
        playingClip()->stop();
    m_playError->hide();
    m_buffer = new QBuffer(this);
    m_buffer->setData(reinterpret_cast<const char*>(samples->interleaved.data()),
                      static_cast<qsizetype>(samples->interleaved.size() * sizeof(float)));
    m_buffer->open(QIODevice::ReadOnly);
    m_sink = new QAudioSink(device, format, this);
    connect(m_sink, &QAudioSink::stateChanged, this, [this](QAudio::State state) {
        if (!m_sink)
            return;
        if (state == QAudio::IdleState) { // played to the end
            stop();
        } else if (state == QAudio::StoppedState && m_sink->error() != QAudio::NoError) {
            const QString why = tr("Playback stopped: the audio output reported an error.");
            stop();
            m_playError->setText(why);
            m_playError->show();
        }
    });
    m_sink->start(m_buffer);
    if (m_sink->error() != QAudio::NoError) {
        stop();
        return fail(tr("The audio output %1 could not start.").arg(device.description()));
    }
    playingClip() = this;
    m_play->setText(tr("Stop"));
    m_play->setToolTip(tr("Stop playing"));
    return true;
}

void AudioClipWidget::stop()
{
    if (m_sink) {
        QAudioSink* sink = std::exchange(m_sink, nullptr);
        sink->disconnect(this);
        sink->stop();
        sink->deleteLater();
    }
    if (m_buffer)
        std::exchange(m_buffer, nullptr)->deleteLater();
    if (playingClip() == this)
        playingClip() = nullptr;
    showStopped();
}

void AudioClipWidget::showStopped()
{
    if (!m_play)
        return;
    m_play->setText(tr("Play"));
    m_play->setToolTip(tr("Play the clip on the default audio output"));
}

bool AudioClipWidget::isPlaying() const
{
    return m_sink != nullptr;
}

QString AudioClipWidget::playbackError() const
{
    return m_playError->isHidden() ? QString() : m_playError->text();
}

QString AudioClipWidget::infoText() const
{
    return m_info->text();
}

QString AudioClipWidget::labelText() const
{
    return m_label->text();
}

bool AudioClipWidget::saveWav(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(m_encoded.data(), static_cast<qint64>(m_encoded.size())) != static_cast<qint64>(m_encoded.size()) ||
        !file.commit()) {
        if (error)
            *error = tr("Cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

AudioCard::AudioCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent)
    : QWidget(parent), m_tag(tag), m_colour(colour)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 12, 10, 8);
    auto* title = new QLabel(tag, this);
    QFont f = title->font();
    f.setBold(true);
    title->setFont(f);
    layout->addWidget(title);
    layout->addWidget(new QLabel(run, this));
    m_clips = new QVBoxLayout;
    layout->addLayout(m_clips);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->hide();
    layout->addWidget(m_error);
    auto* row = new QHBoxLayout;
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, 0);
    m_stepLabel = new QLabel(this);
    m_stepLabel->setMinimumWidth(90);
    row->addWidget(m_slider, 1);
    row->addWidget(m_stepLabel);
    layout->addLayout(row);
    connect(m_slider, &QSlider::valueChanged, this, [this] { showStep(); });
    showStep();
}

void AudioCard::setColour(const QColor& colour)
{
    m_colour = colour;
    update();
}

void AudioCard::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    QPainter p(this);
    p.setPen(palette().mid().color());
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.fillRect(QRect(0, 0, width(), 5), m_colour);
}

std::int64_t AudioCard::currentStep() const
{
    const int i = m_slider->value();
    return i >= 0 && std::size_t(i) < m_samples.size() ? m_samples[std::size_t(i)].step : -1;
}

QList<AudioClipWidget*> AudioCard::clips() const
{
    return findChildren<AudioClipWidget*>();
}

void AudioCard::setSamples(std::vector<events::ValueSample> samples)
{
    const bool atNewest = m_samples.empty() || m_slider->value() == m_slider->maximum();
    const std::int64_t oldStep = currentStep();
    const auto oldValue = m_samples.empty() ? nullptr : m_samples[std::size_t(m_slider->value())].value;
    const int index = stepIndexAfterUpdate(samples, atNewest, oldStep);
    m_samples = std::move(samples);
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, static_cast<int>(m_samples.size()) - 1));
        m_slider->setValue(std::max(0, index));
    }
    m_slider->setEnabled(m_samples.size() > 1);
    const auto newValue = m_samples.empty() ? nullptr : m_samples[std::size_t(m_slider->value())].value;
    if (newValue != oldValue || m_samples.empty())
        showStep();
}

void AudioCard::showStep()
{
    while (QLayoutItem* item = m_clips->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_error->hide();
    if (m_samples.empty()) {
        m_stepLabel->setText(tr("no samples"));
        return;
    }
    const auto& sample = m_samples[std::size_t(m_slider->value())];
    m_stepLabel->setText(tr("step %1").arg(sample.step));
    static const std::string kNothing;
    const std::string& bytes = sample.value ? *sample.value : kNothing;
    const auto clips = events::decodeAudio(bytes, m_tag.toStdString());
    if (!clips) {
        m_error->setText(QString::fromStdString(clips.error().message()));
        m_error->show();
        return;
    }
    // TF 2 audio tensors hold [k, 2] strings: clip, label. TF 1 Summary.Audio has no label.
    std::vector<QString> labels(clips->encoded.size());
    tensorflow::Summary::Value value;
    if (value.ParseFromString(bytes) && value.has_tensor() && value.tensor().string_val_size() == 2 * int(labels.size()))
        for (std::size_t i = 0; i < labels.size(); ++i)
            labels[i] = QString::fromStdString(value.tensor().string_val(int(2 * i + 1)));
    for (std::size_t i = 0; i < clips->encoded.size(); ++i) {
        QString name = m_tag;
        name.replace('/', '_');
        name += QStringLiteral("_step%1_%2").arg(sample.step).arg(i);
        m_clips->addWidget(new AudioClipWidget(clips->encoded[i], labels[i], clips->sampleRate, name, m_colour, this));
    }
    // The grid caches the card's size hint; tell it the card changed height.
    layout()->invalidate();
    updateGeometry();
}

AudioView::AudioView(QWidget* parent) : RunCardsView(400, parent)
{
    retranslateUi();
}

QString AudioView::emptyText() const
{
    return tr("No audio data. Write audio summaries (tf.summary.audio) to the log directory.");
}

void AudioView::styleCards()
{
    styleRunCards<AudioCard>(*m_grid, m_runs);
}

AudioCard* AudioView::card(const QString& tag, const QString& run) const
{
    return runCard<AudioCard>(*m_grid, tag, run);
}

void AudioView::setAudio(const QString& run, const QString& tag, std::vector<events::ValueSample> samples)
{
    setRunCardSamples<AudioCard>(*m_grid, m_runs, run, tag, std::move(samples));
}

} // namespace tstudio::dashboard
