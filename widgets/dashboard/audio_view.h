// AudioView: the dashboard's audio tab: clips per (tag, run) and step with labels, WAV facts, waveform and saving.
#pragma once

#include "core/expected.h"
#include "dashboard/run_cards_view.h"
#include "dashboard/run_style.h"
#include "dashboard/wav_audio.h"
#include "io/events/event_accumulator.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QAudioFormat;
class QAudioSink;
class QBuffer;
class QLabel;
class QPushButton;
class QSlider;
class QVBoxLayout;

namespace tstudio::dashboard {

class TagCardGrid;

/// The format a clip plays in (Qt Multimedia): its rate and channels, 32-bit float samples.
QAudioFormat playbackFormat(const WavSamples& samples);

/// One audio clip of a sample: label, facts, waveform thumbnail, Play / Stop (Qt Multimedia, on
/// the default audio output) and "Save as WAV…". One clip plays at a time in the whole program:
/// starting one stops any other.
class AudioClipWidget : public QWidget {
    Q_OBJECT
public:
    AudioClipWidget(std::string encoded, const QString& label, double summarySampleRate, const QString& name,
                    const QColor& colour, QWidget* parent = nullptr);
    ~AudioClipWidget() override;
    /// Writes the clip's bytes unchanged (atomically); false with `error` set on failure.
    bool saveWav(const QString& path, QString* error = nullptr) const;
    QString infoText() const;
    QString labelText() const;

    /// Starts playing the clip on the default audio output; false with the reason shown under the
    /// clip (and in `error`) when the clip cannot be decoded, there is no audio output, or the
    /// output cannot take the clip's format.
    bool play(QString* error = nullptr);
    void stop();
    bool isPlaying() const;
    QPushButton* playButton() const { return m_play; }
    /// Why the last play() failed ("" after a start).
    QString playbackError() const;

private:
    void showStopped();

    std::string m_encoded;
    QString m_name;
    QLabel* m_info = nullptr;
    QLabel* m_label = nullptr;
    QPushButton* m_play = nullptr;
    QLabel* m_playError = nullptr;
    QAudioSink* m_sink = nullptr;
    QBuffer* m_buffer = nullptr;
};

/// One (tag, run): a step slider (live data moves it only from the newest step) and the clips of
/// the chosen sample.
class AudioCard : public QWidget {
    Q_OBJECT
public:
    AudioCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent = nullptr);
    void setSamples(std::vector<events::ValueSample> samples);
    void setColour(const QColor& colour);
    std::int64_t currentStep() const;
    QSlider* stepSlider() const { return m_slider; }
    QLabel* stepLabel() const { return m_stepLabel; }
    QList<AudioClipWidget*> clips() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void showStep();

    QString m_tag;
    QColor m_colour;
    std::vector<events::ValueSample> m_samples;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_error = nullptr;
    QVBoxLayout* m_clips = nullptr;
};

class AudioView : public RunCardsView {
    Q_OBJECT
public:
    explicit AudioView(QWidget* parent = nullptr);
    /// Replaces the samples of (tag, run) (live data: cheap, the card's slider stays put unless it
    /// was at the newest step).
    void setAudio(const QString& run, const QString& tag, std::vector<events::ValueSample> samples);
    AudioCard* card(const QString& tag, const QString& run) const;

protected:
    QString emptyText() const override;
    void styleCards() override;
};

} // namespace tstudio::dashboard
