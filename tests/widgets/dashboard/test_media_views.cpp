// Tests for the dashboard's images, text and audio views: cards, sliders under live data, adjustments, tables, WAV saving.
#include "dashboard/audio_view.h"
#include "dashboard/histogram_view.h"
#include "dashboard/image_card.h"
#include "dashboard/images_view.h"
#include "dashboard/text_view.h"
#include "io/events/log_directory.h"
#include "proto/summary.pb.h"

#include "../../support/test_files.h"

#include <QBuffer>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QPushButton>
#include <QAudioFormat>
#include <QAudioDevice>
#include <QMediaDevices>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include <cmath>
#include <cstring>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

std::string pngBytes(int w, int h, int seed)
{
    QImage image(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            image.setPixel(x, y, qRgb((x * 9 + seed) % 256, (y * 9) % 256, 100));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes.toStdString();
}

events::ValueSample valueSample(std::int64_t step, const tensorflow::Summary::Value& v)
{
    return events::ValueSample{step, 100.0 + double(step), std::make_shared<const std::string>(v.SerializeAsString())};
}

events::ValueSample tf1Image(std::int64_t step, const std::string& bytes)
{
    tensorflow::Summary::Value v;
    v.set_tag("mnist/image");
    v.mutable_image()->set_width(28);
    v.mutable_image()->set_height(28);
    v.mutable_image()->set_encoded_image_string(bytes);
    return valueSample(step, v);
}

tensorflow::Summary::Value stringTensor(const std::vector<std::int64_t>& shape, const std::vector<std::string>& strings)
{
    tensorflow::Summary::Value v;
    v.set_tag("t");
    auto* t = v.mutable_tensor();
    t->set_dtype(tensorflow::DT_STRING);
    for (auto d : shape)
        t->mutable_tensor_shape()->add_dim()->set_size(d);
    for (const auto& s : strings)
        t->add_string_val(s);
    return v;
}

std::vector<events::ValueSample> images(int count)
{
    std::vector<events::ValueSample> out;
    for (int i = 0; i < count; ++i)
        out.push_back(tf1Image(i * 5, pngBytes(28, 28, i * 40)));
    return out;
}

/// A 16-bit mono WAV of `frames` samples of a sine at `rate`.
std::string wavBytes(int rate, int frames)
{
    std::string b;
    const auto put = [&b](std::uint32_t v, int n) {
        for (int i = 0; i < n; ++i)
            b.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    };
    b += "RIFF";
    put(36 + frames * 2, 4);
    b += "WAVEfmt ";
    put(16, 4);
    put(1, 2);
    put(1, 2);
    put(std::uint32_t(rate), 4);
    put(std::uint32_t(rate * 2), 4);
    put(2, 2);
    put(16, 2);
    b += "data";
    put(std::uint32_t(frames * 2), 4);
    for (int i = 0; i < frames; ++i)
        put(std::uint16_t(std::int16_t(std::lround(20000 * std::sin(i * 0.05)))), 2);
    return b;
}

QTextTable* firstTable(QTextDocument* document)
{
    for (QTextFrame* f : document->rootFrame()->childFrames())
        if (auto* t = qobject_cast<QTextTable*>(f))
            return t;
    return nullptr;
}

QString cellText(QTextTable* table, int row, int col)
{
    const QTextTableCell cell = table->cellAt(row, col);
    QTextCursor c = cell.firstCursorPosition();
    c.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
    return c.selectedText();
}

const QVector<RunStyle> kRuns = {RunStyle{"train", QColor(255, 112, 67), true}, RunStyle{"eval", QColor(0, 119, 187), true}};

} // namespace

class TestMediaViews : public QObject {
    Q_OBJECT

private slots:
    void imageCardsStepSliderAndLiveData()
    {
        ImagesView view;
        view.resize(900, 700);
        view.setRuns(kRuns);
        view.setImages("train", "mnist/image", images(3));
        view.setImages("eval", "mnist/image", images(2));
        QCOMPARE(view.grid()->keys().size(), 2);
        ImageCard* card = view.card("mnist/image", "train");
        QVERIFY(card);
        QCOMPARE(card->stepSlider()->maximum(), 2);
        QCOMPARE(card->stepLabel()->text(), QString("step 10"));
        QCOMPARE(card->decodedImage().size(), QSize(28, 28));
        // The user goes back to step 0; new samples must not move the slider.
        card->stepSlider()->setValue(0);
        QCOMPARE(card->stepLabel()->text(), QString("step 0"));
        view.setImages("train", "mnist/image", images(4));
        QCOMPARE(view.card("mnist/image", "train"), card);
        QCOMPARE(card->stepSlider()->maximum(), 3);
        QCOMPARE(card->currentStep(), std::int64_t(0));
        // At the newest step the slider follows new samples.
        card->stepSlider()->setValue(3);
        view.setImages("train", "mnist/image", images(5));
        QCOMPARE(card->currentStep(), std::int64_t(20));
        QCOMPARE(card->stepLabel()->text(), QString("step 20"));
        // Hidden runs' cards are left out.
        view.setRuns({kRuns[0], RunStyle{"eval", kRuns[1].colour, false}});
        QCOMPARE(view.grid()->shownCardCount(), 1);
    }

    /// "One step for all cards": runs logged at different steps line up at the last sample at or
    /// before the chosen step; a removed run's steps leave the slider.
    void oneStepForAllCards()
    {
        ImagesView view;
        view.resize(900, 700);
        view.setRuns(kRuns);
        view.setImages("train", "mnist/image", images(5)); // steps 0, 5, 10, 15, 20
        std::vector<events::ValueSample> evalSamples;
        for (int step : {3, 12})
            evalSamples.push_back(tf1Image(step, pngBytes(28, 28, step)));
        view.setImages("eval", "mnist/image", evalSamples);
        QCOMPARE(view.linkedSteps(), (std::vector<std::int64_t>{0, 3, 5, 10, 12, 15, 20}));
        ImageCard* train = view.card("mnist/image", "train");
        ImageCard* eval = view.card("mnist/image", "eval");
        QVERIFY(!view.linkedStepSlider()->isEnabled()); // off until linked
        train->stepSlider()->setValue(1);              // each card its own step
        view.setStepsLinked(true);
        QVERIFY(view.linkedStepSlider()->isEnabled());
        // Linked at the newest step: every card at its newest.
        QCOMPARE(train->currentStep(), std::int64_t(20));
        QCOMPARE(eval->currentStep(), std::int64_t(12));
        view.showLinkedStep(11); // the slider's last position at or before 11 is step 10
        QCOMPARE(view.linkedStepSlider()->value(), 3);
        QCOMPARE(train->currentStep(), std::int64_t(10));
        QCOMPARE(eval->currentStep(), std::int64_t(3));
        view.linkedStepSlider()->setValue(0); // step 0: eval has nothing that early, shows its first
        QCOMPARE(train->currentStep(), std::int64_t(0));
        QCOMPARE(eval->currentStep(), std::int64_t(3));
        // New data leaves a slider the user placed where it is.
        view.linkedStepSlider()->setValue(4); // step 12
        view.setImages("train", "mnist/image", images(6)); // adds step 25
        QCOMPARE(view.linkedSteps().back(), std::int64_t(25));
        QCOMPARE(view.linkedSteps()[static_cast<std::size_t>(view.linkedStepSlider()->value())], std::int64_t(12));
        QCOMPARE(train->currentStep(), std::int64_t(10));
        QCOMPARE(eval->currentStep(), std::int64_t(12));
        view.removeRun("eval");
        QCOMPARE(view.linkedSteps(), (std::vector<std::int64_t>{0, 5, 10, 15, 20, 25}));
        QVERIFY(!view.card("mnist/image", "eval"));
        // Unlinked again, each card keeps its own slider.
        view.setStepsLinked(false);
        train->stepSlider()->setValue(2);
        QCOMPARE(train->currentStep(), std::int64_t(10));
        QVERIFY(!view.linkedStepSlider()->isEnabled());
    }

    void brightnessContrastScalingAndSaving()
    {
        ImagesView view;
        view.resize(900, 700);
        view.setRuns(kRuns);
        view.setImages("train", "mnist/image", images(2));
        ImageCard* card = view.card("mnist/image", "train");
        const QImage original = card->decodedImage().convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(card->displayedImage().convertToFormat(QImage::Format_ARGB32), original);
        card->brightnessSlider()->setValue(40);
        const QRgb before = original.pixel(3, 2);
        const QRgb after = card->displayedImage().pixel(3, 2);
        QCOMPARE(qRed(after), std::min(255, qRed(before) + 102)); // 40 * 2.55 = 102
        QCOMPARE(qBlue(after), 100 + 102);
        card->contrastSlider()->setValue(-50);
        QCOMPARE(qBlue(card->displayedImage().pixel(3, 2)), int(std::lround((100 - 127.5) * 0.5 + 127.5 + 102)));
        QTemporaryDir dir;
        const QString path = dir.filePath("shown.png");
        QVERIFY(card->savePng(path));
        QCOMPARE(QImage(path).convertToFormat(QImage::Format_ARGB32), card->displayedImage().convertToFormat(QImage::Format_ARGB32));
        QString error;
        QVERIFY(!card->savePng(dir.filePath("missing/dir/x.png"), &error));
        QVERIFY(error.contains("missing"));

        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage shot = view.grab().toImage();
        shot.save("/tmp/tstudio_images.png");
        QVERIFY(card->canvas()->pixelated()); // 28 pixels stretched to the card width: nearest neighbour
        QVERIFY(card->canvas()->drawnSize().width() > 200);
        card->actualSizeBox()->setChecked(true);
        QCOMPARE(card->canvas()->drawnSize(), QSize(28, 28));
        // Reset puts the pixels back.
        card->brightnessSlider()->setValue(0);
        card->contrastSlider()->setValue(0);
        QCOMPARE(card->displayedImage().convertToFormat(QImage::Format_ARGB32), original);
    }

    void severalImagesPerSampleAndBadBytes()
    {
        ImagesView view;
        view.setRuns(kRuns);
        auto v = stringTensor({4}, {"28", "28", pngBytes(28, 28, 0), pngBytes(28, 28, 99)});
        view.setImages("train", "batch", {valueSample(1, v)});
        ImageCard* card = view.card("batch", "train");
        QCOMPARE(card->indexSpin()->maximum(), 2);
        const QImage first = card->decodedImage();
        card->indexSpin()->setValue(2);
        QVERIFY(card->decodedImage() != first);
        QVERIFY(card->errorText().isEmpty());
        view.setImages("train", "broken", {tf1Image(0, "not a png")});
        QVERIFY(view.card("broken", "train")->errorText().contains("could not be decoded"));
        QVERIFY(view.card("broken", "train")->displayedImage().isNull());
    }

    void textMarkdownTablesAndNewestFirst()
    {
        TextView view;
        view.setRuns(kRuns);
        std::vector<events::ValueSample> samples = {
            valueSample(1, stringTensor({}, {"**bold** and `code`"})),
            valueSample(7, stringTensor({2, 3}, {"a", "b", "c", "d", "e", "*f*"})),
            valueSample(4, stringTensor({3}, {"x", "y", "z"})),
            valueSample(9, stringTensor({2, 2, 2}, {"p", "q", "r", "s", "t", "u", "v", "w"})),
        };
        view.setText("train", "notes", samples);
        TextCard* card = view.card("notes", "train");
        QVERIFY(card);
        QCOMPARE(card->steps(), (std::vector<std::int64_t>{9, 7, 4, 1}));
        // Scalar: Markdown, rendered (no asterisks left, bold text).
        QTextDocument* scalar = card->document(3);
        QVERIFY(!scalar->toPlainText().contains("**"));
        QVERIFY(scalar->toPlainText().contains("bold and code"));
        QVERIFY(!firstTable(scalar));
        // Matrix: a 2 x 3 table, cells rendered as Markdown.
        QTextTable* table = firstTable(card->document(1));
        QVERIFY(table);
        QCOMPARE(table->rows(), 2);
        QCOMPARE(table->columns(), 3);
        QCOMPARE(cellText(table, 0, 1), QString("b"));
        QCOMPARE(cellText(table, 1, 2), QString("f"));
        // Vector: one column.
        QTextTable* column = firstTable(card->document(2));
        QVERIFY(column);
        QCOMPARE(column->rows(), 3);
        QCOMPARE(column->columns(), 1);
        QCOMPARE(cellText(column, 2, 0), QString("z"));
        // Rank 3: warning and the slice [0, :, :].
        QTextDocument* cube = card->document(0);
        QVERIFY(cube->toPlainText().contains("3 dimensions"));
        QTextTable* slice = firstTable(cube);
        QVERIFY(slice);
        QCOMPARE(slice->rows(), 2);
        QCOMPARE(cellText(slice, 1, 1), QString("s"));
        // A damaged value shows an error entry.
        view.setText("train", "bad", {events::ValueSample{0, 0, std::make_shared<const std::string>("\xff\xff")}});
        QVERIFY(view.card("bad", "train")->document(0)->toPlainText().contains("Cannot show"));
        view.resize(1100, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.grab().toImage().save("/tmp/tstudio_text.png");
    }

    void audioClipsLabelsFactsAndSaving()
    {
        const std::string clip1 = wavBytes(8000, 4000);
        const std::string clip2 = wavBytes(8000, 2000);
        auto tf2 = stringTensor({2, 2}, {clip1, "first *clip*", clip2, "second"});
        tensorflow::Summary::Value tf1;
        tf1.set_tag("speech");
        tf1.mutable_audio()->set_sample_rate(8000);
        tf1.mutable_audio()->set_encoded_audio_string(clip2);
        tf1.mutable_audio()->set_content_type("audio/wav");

        AudioView view;
        view.setRuns(kRuns);
        view.setAudio("train", "speech", {valueSample(3, tf2), valueSample(1, tf1)});
        AudioCard* card = view.card("speech", "train");
        QVERIFY(card);
        QCOMPARE(card->currentStep(), std::int64_t(3));
        QCOMPARE(card->stepSlider()->maximum(), 1);
        auto clips = card->clips();
        QCOMPARE(clips.size(), 2);
        QCOMPARE(clips[0]->labelText(), QString("first *clip*"));
        QVERIFY2(clips[0]->infoText().contains("8000 Hz") && clips[0]->infoText().contains("0.50 s"),
                 qPrintable(clips[0]->infoText()));
        QVERIFY(clips[1]->infoText().contains("0.25 s"));
        QTemporaryDir dir;
        const QString path = dir.filePath("clip.wav");
        QVERIFY(clips[0]->saveWav(path));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll().toStdString(), clip1);
        // TF 1 audio: one clip without a label.
        card->stepSlider()->setValue(0);
        clips = card->clips();
        QCOMPARE(clips.size(), 1);
        QVERIFY(clips[0]->labelText().isEmpty());
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.grab().toImage().save("/tmp/tstudio_audio.png");
        QVERIFY(card->clips().front()->height() > 60); // laid out with its waveform, not squeezed
    }

    void wavParsingRejectsDamage()
    {
        const std::string good = wavBytes(16000, 1600);
        const auto info = parseWav(good, "ok");
        QVERIFY(info.has_value());
        QCOMPARE(info->sampleRate, 16000);
        QCOMPARE(info->frames, std::int64_t(1600));
        QVERIFY(std::abs(info->durationSeconds - 0.1) < 1e-12);
        QCOMPARE(info->peaks.size(), std::size_t(200));
        QVERIFY(!parseWav("RIFF", "x").has_value());
        QVERIFY(!parseWav(good.substr(0, 30), "cut").has_value()); // format chunk cut short
        std::string noData = good.substr(0, 36);
        QVERIFY(!parseWav(noData, "nodata").has_value());
        std::string adpcm = good;
        adpcm[20] = 2; // format 2 (ADPCM)
        const auto e = parseWav(adpcm, "clip.wav");
        QVERIFY(!e.has_value());
        QVERIFY(QString::fromStdString(e.error().message()).contains("clip.wav"));
        // A data chunk claiming more bytes than there are: only what is there counts.
        std::string truncated = good.substr(0, 44 + 100);
        const auto t = parseWav(truncated, "t");
        QVERIFY(t.has_value());
        QCOMPARE(t->frames, std::int64_t(50));
    }

    /// Every sample of a clip for playback, against the values the test wrote: 16-bit mono, 8-bit and
    /// 24-bit stereo, float past full scale and NaN.
    void wavSamplesForPlayback()
    {
        const std::string mono = wavBytes(16000, 100);
        auto samples = decodeWavSamples(mono, "mono");
        QVERIFY(samples.has_value());
        QCOMPARE(samples->channels, 1);
        QCOMPARE(samples->sampleRate, 16000);
        QCOMPARE(samples->interleaved.size(), std::size_t(100));
        for (int i = 0; i < 100; ++i) {
            const float expected = float(std::int16_t(std::lround(20000 * std::sin(i * 0.05)))) / 32768.0f;
            QCOMPARE(samples->interleaved[std::size_t(i)], expected);
        }
        const QAudioFormat format = playbackFormat(*samples);
        QCOMPARE(format.sampleRate(), 16000);
        QCOMPARE(format.channelCount(), 1);
        QCOMPARE(format.sampleFormat(), QAudioFormat::Float);

        // A WAV of `bits`-bit frames given as bytes, `channels` per frame.
        auto wav = [](int format, int channels, int bits, const std::string& data) {
            std::string b;
            const auto put = [&b](std::uint32_t v, int n) {
                for (int i = 0; i < n; ++i)
                    b.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
            };
            b += "RIFF";
            put(std::uint32_t(36 + data.size()), 4);
            b += "WAVEfmt ";
            put(16, 4);
            put(std::uint32_t(format), 2);
            put(std::uint32_t(channels), 2);
            put(8000, 4);
            put(std::uint32_t(8000 * channels * bits / 8), 4);
            put(std::uint32_t(channels * bits / 8), 2);
            put(std::uint32_t(bits), 2);
            b += "data";
            put(std::uint32_t(data.size()), 4);
            return b + data;
        };
        // 8-bit stereo: 0 is -1, 128 is 0, 192 is 0.5.
        auto eight = decodeWavSamples(wav(1, 2, 8, std::string("\x00\x80\xc0\x80", 4)), "eight");
        QVERIFY(eight.has_value());
        QCOMPARE(eight->interleaved, (std::vector<float>{-1.0f, 0.0f, 0.5f, 0.0f}));
        // 24-bit: 0x400000 is 0.5, 0xC00000 is -0.5.
        auto wide = decodeWavSamples(wav(1, 2, 24, std::string("\x00\x00\x40\x00\x00\xc0", 6)), "wide");
        QVERIFY(wide.has_value());
        QCOMPARE(wide->interleaved, (std::vector<float>{0.5f, -0.5f}));
        // Float: past full scale clipped, NaN silent; a half frame at the end left out.
        std::string floats;
        for (float f : {2.0f, std::nanf(""), -0.25f}) {
            char bytes[4];
            std::memcpy(bytes, &f, 4);
            floats.append(bytes, 4);
        }
        auto fl = decodeWavSamples(wav(3, 2, 32, floats), "float");
        QVERIFY(fl.has_value());
        QCOMPARE(fl->interleaved, (std::vector<float>{1.0f, 0.0f}));
        std::string adpcm = mono;
        adpcm[20] = 2;
        QVERIFY(!decodeWavSamples(adpcm, "adpcm.wav").has_value());
    }

    /// Play on the default audio output, or, where this machine has none (as CI), say so under the clip.
    void audioClipPlays()
    {
        AudioClipWidget clip(wavBytes(8000, 4000), QString(), 8000, "clip", QColor(Qt::red));
        QVERIFY(clip.playButton()->isEnabled());
        QCOMPARE(clip.playButton()->text(), QString("Play"));
        QString error;
        const bool started = clip.play(&error);
        if (QMediaDevices::defaultAudioOutput().isNull()) {
            QVERIFY(!started);
            QVERIFY2(error.contains("No audio output"), qPrintable(error));
            QCOMPARE(clip.playbackError(), error);
            QVERIFY(!clip.isPlaying());
            QCOMPARE(clip.playButton()->text(), QString("Play"));
            return;
        }
        QVERIFY2(started, qPrintable(error));
        QVERIFY(clip.isPlaying());
        QCOMPARE(clip.playButton()->text(), QString("Stop"));
        // Another clip starting stops this one.
        AudioClipWidget other(wavBytes(8000, 800), QString(), 8000, "other", QColor(Qt::blue));
        QVERIFY(other.play());
        QVERIFY(!clip.isPlaying());
        other.stop();
        QVERIFY(!other.isPlaying());
        QCOMPARE(other.playButton()->text(), QString("Play"));
        // A damaged clip cannot play and says why.
        AudioClipWidget broken(std::string("RIFFxxxxWAVE"), QString(), 8000, "broken", QColor(Qt::red));
        QVERIFY(!broken.playButton()->isEnabled());
        QVERIFY(!broken.play(&error));
        QVERIFY(error.contains("broken"));
    }

    void kerasFixtureImages()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString dir = fixtures + "/tfevents-keras/MNIST-extra-metrics1690486849";
        if (fixtures.isEmpty() || !QDir(dir).exists())
            QSKIP("tfevents-keras fixture not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        events::LogDirectory logs(dir.toStdString());
        QVERIFY(logs.reload().isOk());
        ImagesView view;
        view.setRuns(kRuns);
        int cards = 0;
        for (const auto& run : logs.runs())
            logs.withRun(run, [&](const events::EventAccumulator& acc) {
                for (const auto& info : acc.tags())
                    if (info.kind == events::TagKind::kImage) {
                        view.setImages(QString::fromStdString(run), QString::fromStdString(info.tag), acc.values(info.tag));
                        ++cards;
                    }
            });
        QVERIFY(cards >= 1);
        QCOMPARE(view.grid()->keys().size(), cards);
        for (const QString& key : view.grid()->keys()) {
            auto* card = qobject_cast<ImageCard*>(view.grid()->card(key));
            QVERIFY2(card->errorText().isEmpty(), qPrintable(card->errorText()));
            QVERIFY(!card->decodedImage().isNull());
        }
        view.resize(1000, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.grab().toImage().save("/tmp/tstudio_images_keras.png");
    }
};

QTEST_MAIN(TestMediaViews)
#include "test_media_views.moc"
