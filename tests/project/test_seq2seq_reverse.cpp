// The seq2seq-reverse example project: an attention encoder-decoder (tf.contrib.seq2seq) trained on
// sentences its graph draws itself learns to reverse them, teacher forced and decoding greedily on
// its own, and its attention images show it: the decoder's step t attends to the source position
// length - 1 - t (the anti-diagonal).
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "io/image/png_codec.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;

class TestSeq2SeqReverse : public QObject {
    Q_OBJECT
private slots:
    void learnsToReverseAndAttendsAcross()
    {
        QTemporaryDir run;
        const auto path =
            std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "seq2seq-reverse.tsproj";
        auto p = loadProject(path, {Override{"steps", "600"}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        TrainRunOptions options;
        options.logdir = run.path().toStdString();
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(600));

        events::LogDirectory logs(run.path().toStdString());
        QVERIFY(logs.reload().isOk());
        std::vector<events::ScalarSample> accuracy, translated;
        std::vector<events::ValueSample> images;
        for (const std::string& name : logs.runs())
            logs.withRun(name, [&](const events::EventAccumulator& a) {
                for (const events::ScalarSample& s : a.scalars("accuracy"))
                    accuracy.push_back(s);
                for (const events::ScalarSample& s : a.scalars("translation_accuracy"))
                    translated.push_back(s);
                for (const events::ValueSample& s : a.values("attention_images/image/0"))
                    images.push_back(s);
            });
        // Every figure below is one batch of 64 sentences, and Adam at 0.01 has the odd bad step (where it
        // falls differs with the machine's arithmetic), so the trained model is judged on the last five
        // summaries (steps 351 to 551): their median, and the attention of the best of them.
        QVERIFY(accuracy.size() >= 6);
        // Random guessing among 11 symbols is right 9% of the time.
        QVERIFY2(accuracy.front().value < 0.3, std::to_string(accuracy.front().value).c_str());
        const auto lateMedian = [](std::vector<events::ScalarSample> samples) {
            std::vector<double> late;
            for (std::size_t i = samples.size() - 5; i < samples.size(); ++i)
                late.push_back(samples[i].value);
            std::nth_element(late.begin(), late.begin() + 2, late.end());
            return late[2];
        };
        QVERIFY2(lateMedian(accuracy) > 0.95, std::to_string(lateMedian(accuracy)).c_str());

        // Greedy decoding with the same variables (no teacher): the model translates on its own.
        QVERIFY(translated.size() >= 5);
        QVERIFY2(lateMedian(translated) > 0.9, std::to_string(lateMedian(translated)).c_str());

        // The dashboard keeps a reservoir of images (the last one always): of those kept from the last five
        // summaries, look at the one whose step had the best accuracy.
        const events::ValueSample* image = nullptr;
        double imageAccuracy = -1;
        for (std::size_t i = accuracy.size() - 5; i < accuracy.size(); ++i)
            for (const events::ValueSample& s : images)
                if (s.step == accuracy[i].step && accuracy[i].value > imageAccuracy) {
                    imageAccuracy = accuracy[i].value;
                    image = &s;
                }
        QVERIFY2(image, "no attention image from the last five summaries");
        auto decoded = events::decodeImages(*image->value, "attention_images/image/0");
        QVERIFY2(decoded, decoded ? "" : decoded.error().toString().c_str());
        QCOMPARE(decoded->encoded.size(), std::size_t{1});
        std::vector<std::uint8_t> pixels;
        auto png = image_io::decodePng(decoded->encoded[0], {}, [&](int h, int w, int c) -> Expected<void*> {
            pixels.resize(static_cast<std::size_t>(h) * static_cast<std::size_t>(w) * static_cast<std::size_t>(c));
            return static_cast<void*>(pixels.data());
        });
        QVERIFY2(png, png ? "" : png.error().toString().c_str());
        // 8 x 8 alignments, 16 pixels each: the brightest square of decoder row t is source column 7 - t.
        constexpr int kLength = 8, kScale = 16;
        QCOMPARE(png->height, kLength * kScale);
        QCOMPARE(png->width, kLength * kScale);
        const int channels = png->channels;
        for (int t = 0; t < kLength; ++t) {
            int best = -1, bestValue = -1;
            for (int s = 0; s < kLength; ++s) {
                const std::size_t at = (static_cast<std::size_t>(t * kScale + kScale / 2) * png->width +
                                        static_cast<std::size_t>(s * kScale + kScale / 2)) *
                                       static_cast<std::size_t>(channels);
                if (pixels[at] > bestValue) {
                    bestValue = pixels[at];
                    best = s;
                }
            }
            QVERIFY2(
                best == kLength - 1 - t,
                qPrintable(QString("decoder step %1 attends to source %2 most (%3)").arg(t).arg(best).arg(bestValue)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSeq2SeqReverse)
#include "test_seq2seq_reverse.moc"
