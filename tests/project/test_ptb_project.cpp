// The word_text source, carry_state and perplexity, and the PTB language model project: words,
// vocabulary and ptb_producer's batches against hand and NumPy computations (tools/golden/
// ptb_producer.py), the errors, the state carried from step to step and reset every epoch, and a
// small configuration of the ptb-small project trained on a tiny grammar's text.
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "project/sources/data_sources.h"
#include "io/formats/graph_def_io.h"
#include "io/events/log_directory.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "ptb_model.h"
#include "runtime/execution_observer.h"
#include "project/sources/word_text_source.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/// A tiny grammar's sentences, one per line: DET NOUN VERB DET NOUN [PREP DET NOUN].
std::string grammarText(int sentences, unsigned seed)
{
    static const char* const dets[] = {"the", "a"};
    static const char* const nouns[] = {"cat", "dog", "bird", "fish", "man"};
    static const char* const verbs[] = {"sees", "chases", "likes"};
    static const char* const preps[] = {"with", "near"};
    std::mt19937 random(seed);
    auto pick = [&](auto& list) { return std::string(list[random() % std::size(list)]); };
    std::string text;
    for (int i = 0; i < sentences; ++i) {
        text += " " + pick(dets) + " " + pick(nouns) + " " + pick(verbs) + " " + pick(dets) + " " + pick(nouns);
        if (random() % 2 == 0)
            text += " " + pick(preps) + " " + pick(dets) + " " + pick(nouns);
        text += " \n";
    }
    return text;
}

Project parse(const json& doc)
{
    auto p = parseProject(doc.dump(), "test.tsproj");
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    return *p;
}

std::string graphText(const tensorflow::GraphDef& graph)
{
    auto text = serializeGraphDef(graph, GraphDefFormat::kText);
    if (!text)
        qFatal("%s", text.error().toString().c_str());
    return *text;
}

json baseProject(const std::string& pbtxt, const json& source, std::int64_t batch, std::int64_t steps)
{
    return json{{"format", "tensorstudio-project"},
                {"version", 1},
                {"graph", {{"pbtxt", pbtxt.empty() ? std::string("node { name: \"train\" op: \"NoOp\" }") : pbtxt}}},
                {"data", {{"sources", json::array({source})}}},
                {"training", {{"train_op", "train"}}},
                {"batch_size", batch},
                {"steps", steps},
                {"hooks",
                 {{"checkpoint_every_steps", nullptr},
                  {"checkpoint_every_secs", 600},
                  {"summary_every_steps", 1000},
                  {"log_every_steps", 1000}}}};
}

/// The value of a one-element float tensor.
float scalar(const Tensor& t)
{
    return t.values<float>()[0];
}

/// Records, per Session::run, the value fed to `feed` as a consumer reads it and the value of the
/// node `fetch` computes.
class StateRecorder final : public ExecutionObserver {
public:
    StateRecorder(std::string feed, std::string fetch) : m_feed(std::move(feed)), m_fetch(std::move(fetch)) {}
    CpuAllocator m_allocator; ///< first, so that it outlives the copies
    ObserverAction beforeNode(const NodeExecution& e) override
    {
        if (m_fedThisRun)
            return ObserverAction::kContinue;
        for (int i = 0; i < e.node->input_size() && e.inputs && i < static_cast<int>(e.inputs->size()); ++i) {
            const std::string& in = e.node->input(i);
            if (in == m_feed || in == m_feed + ":0") {
                auto copy = (*e.inputs)[static_cast<std::size_t>(i)].get().deepCopy(m_allocator);
                if (copy) {
                    fed.push_back(*copy);
                    m_fedThisRun = true;
                }
                break;
            }
        }
        return ObserverAction::kContinue;
    }
    ObserverAction afterNode(const NodeExecution& e) override
    {
        if (e.node->name() == m_fetch && e.outputs && !e.outputs->empty()) {
            auto copy = e.outputs->front().get().deepCopy(m_allocator);
            if (copy)
                fetched.push_back(*copy);
        }
        return ObserverAction::kContinue;
    }
    void runFinished(const Status&) override { m_fedThisRun = false; }
    void sessionClosing() override {}

    std::vector<Tensor> fed;
    std::vector<Tensor> fetched;

private:
    std::string m_feed;
    std::string m_fetch;
    bool m_fedThisRun = false;
};

} // namespace

class TestPtbProject : public QObject {
    Q_OBJECT
private slots:
    /// Line ends become <eos>; the vocabulary is sorted by falling count, then by word.
    void wordsAndVocabularyAsTheReader()
    {
        const std::vector<std::string> words = splitWords(" b a \n c a\tb a\n");
        QCOMPARE(words, (std::vector<std::string>{"b", "a", "<eos>", "c", "a", "b", "a", "<eos>"}));
        const WordVocabulary v = buildVocabulary(words);
        // a x3; <eos> and b x2 ('<' sorts before 'b'); c x1.
        QCOMPARE(v.words, (std::vector<std::string>{"a", "<eos>", "b", "c"}));
        QCOMPARE(v.ids.at("b"), 2);
        auto ids = wordIds(words, v, "t.txt");
        QVERIFY(ids.has_value());
        QCOMPARE(*ids, (std::vector<std::int32_t>{2, 0, 1, 3, 0, 2, 0, 1}));
        // Unknown words: <unk> when the vocabulary has it, an error naming the word otherwise.
        WordVocabulary withUnk = buildVocabulary({"<unk>", "x", "x"});
        auto mapped = wordIds({"x", "zebra"}, withUnk, "t.txt");
        QVERIFY(mapped.has_value());
        QCOMPARE(*mapped, (std::vector<std::int32_t>{0, 1}));
        auto refused = wordIds({"zebra"}, v, "t.txt");
        QVERIFY(!refused.has_value());
        QCOMPARE(QString::fromStdString(refused.error().message()),
                 QString("'t.txt': word 'zebra' is not in the vocabulary, which has no <unk>"));
    }

    /// ptb_producer's x and y for ids[i] = 7i mod 23, batch 2, num_steps 3 (tools/golden/
    /// ptb_producer.py), directly and through the project's pipeline (in order, repeated).
    void batchesMatchPtbProducer()
    {
        std::vector<std::int32_t> ids;
        for (int i = 0; i < 23; ++i)
            ids.push_back((7 * i) % 23);
        const std::vector<std::vector<std::int32_t>> x = {
            {0, 7, 14, 8, 15, 22}, {21, 5, 12, 6, 13, 20}, {19, 3, 10, 4, 11, 18}};
        const std::vector<std::vector<std::int32_t>> y = {
            {7, 14, 21, 15, 22, 6}, {5, 12, 19, 13, 20, 4}, {3, 10, 17, 11, 18, 2}};
        CpuAllocator allocator;
        auto batches = ptbProducer(ids, 2, 3, "ids", allocator);
        QVERIFY2(batches.has_value(), batches ? "" : batches.error().toString().c_str());
        QCOMPARE(batches->batchLen, std::int64_t(11));
        QCOMPARE(batches->epochSize, std::int64_t(3));
        QCOMPARE(batches->x.shape(), TensorShape({6, 3}));
        auto xs = batches->x.values<std::int32_t>();
        auto ys = batches->y.values<std::int32_t>();
        for (std::size_t step = 0; step < 3; ++step)
            for (std::size_t k = 0; k < 6; ++k) {
                QCOMPARE(xs[step * 6 + k], x[step][k]);
                QCOMPARE(ys[step * 6 + k], y[step][k]);
            }

        // The same through a word_text source: words "v<id>", a vocabulary file listing v0..v22.
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::string text;
        for (std::int32_t id : ids)
            text += "v" + std::to_string(id) + " ";
        writeText(root / "ids.txt", text);
        std::string vocab;
        for (int i = 0; i < 23; ++i)
            vocab += "v" + std::to_string(i) + "\n";
        writeText(root / "vocab.txt", vocab);
        const json source = {{"type", "word_text"},
                             {"file", (root / "ids.txt").string()},
                             {"vocab_file", (root / "vocab.txt").string()},
                             {"num_steps", 3},
                             {"vocab_size", 23},
                             {"feeds", {{"x", "x"}, {"y", "y"}}}};
        const Project p = parse(baseProject("", source, 2, 10));
        QCOMPARE(saveProject(p, root / "p.tsproj").isOk(), true);
        auto reloaded = loadProject(root / "p.tsproj");
        QVERIFY2(reloaded.has_value(), reloaded ? "" : reloaded.error().toString().c_str());
        QCOMPARE(projectToJson(*reloaded), projectToJson(p));
        auto pipeline = buildSourcePipeline(p, 0, allocator);
        QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().toString().c_str());
        auto it = pipeline->batches.makeIterator();
        for (std::size_t step = 0; step < 4; ++step) { // the 4th is the next epoch's first
            auto element = it->getNext();
            QVERIFY(element.has_value() && element->has_value());
            const data::Element& e = **element;
            // feeds in name order: x, y
            QCOMPARE(e[0].shape(), TensorShape({2, 3}));
            for (std::size_t k = 0; k < 6; ++k) {
                QCOMPARE(e[0].values<std::int32_t>()[k], x[step % 3][k]);
                QCOMPARE(e[1].values<std::int32_t>()[k], y[step % 3][k]);
            }
        }
    }

    /// A missing, an empty and a too short file, and a vocabulary of the wrong size: errors name
    /// the file and the numbers.
    void errorsNameTheFileAndTheNumbers()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        CpuAllocator allocator;
        auto sourceOf = [&](const std::string& file) {
            return json{{"type", "word_text"}, {"file", file}, {"num_steps", 20}, {"feeds", {{"x", "x"}}}};
        };
        {
            const Project p = parse(baseProject("", sourceOf((root / "ptb.train.txt").string()), 20, 10));
            auto pipeline = buildSourcePipeline(p, 0, allocator);
            QVERIFY(!pipeline.has_value());
            QCOMPARE(pipeline.error().code(), StatusCode::kNotFound);
            const std::string m = pipeline.error().message();
            QVERIFY2(m.find("data.sources[0] (word_text)") != std::string::npos, m.c_str());
            QVERIFY2(m.find("no file '" + (root / "ptb.train.txt").string() + "'") != std::string::npos, m.c_str());
            QVERIFY2(m.find("simple-examples.tgz") != std::string::npos, m.c_str());
        }
        {
            writeText(root / "empty.txt", "  \t ");
            const Project p = parse(baseProject("", sourceOf((root / "empty.txt").string()), 20, 10));
            auto pipeline = buildSourcePipeline(p, 0, allocator);
            QVERIFY(!pipeline.has_value());
            const std::string m = pipeline.error().message();
            QVERIFY2(m.find("'" + (root / "empty.txt").string() + "' holds no words") != std::string::npos, m.c_str());
        }
        {
            writeText(root / "short.txt", "a b c d e f g h i j\n");
            const Project p = parse(baseProject("", sourceOf((root / "short.txt").string()), 20, 10));
            auto pipeline = buildSourcePipeline(p, 0, allocator);
            QVERIFY(!pipeline.has_value());
            const std::string m = pipeline.error().message();
            QVERIFY2(m.find("'" + (root / "short.txt").string() +
                            "' holds 11 words; one batch of batch_size 20 and "
                            "num_steps 20 needs batch_size x (num_steps + 1) = "
                            "420") != std::string::npos,
                     m.c_str());
        }
        {
            // Fewer distinct words than vocab_size train (TensorFlow's PTB model keeps vocab_size
            // outputs); more cannot, and the error says how many there are.
            writeText(root / "ok.txt", grammarText(20, 1));
            json source = sourceOf((root / "ok.txt").string());
            source["num_steps"] = 2;
            source["vocab_size"] = 10000;
            auto pipeline = buildSourcePipeline(parse(baseProject("", source, 2, 10)), 0, allocator);
            QVERIFY2(pipeline.has_value(), pipeline ? "" : pipeline.error().toString().c_str());
            source["vocab_size"] = 3;
            pipeline = buildSourcePipeline(parse(baseProject("", source, 2, 10)), 0, allocator);
            QVERIFY(!pipeline.has_value());
            const std::string m = pipeline.error().message();
            QVERIFY2(m.find("vocab_size: the vocabulary has ") != std::string::npos &&
                         m.find("more than the 3 the model can output") != std::string::npos,
                     m.c_str());
        }
        // The JSON: unknown keys, both vocabularies, carry_state without a word_text source.
        {
            json doc = baseProject("", sourceOf("x.txt"), 2, 10);
            doc["data"]["sources"][0]["vocab_from"] = "a.txt";
            doc["data"]["sources"][0]["vocab_file"] = "v.txt";
            auto p = parseProject(doc.dump(), "test.tsproj");
            QVERIFY(!p.has_value());
            QVERIFY2(p.error().message().find("data.sources[0].vocab_file: give either vocab_from") !=
                         std::string::npos,
                     p.error().message().c_str());
        }
        {
            json doc = baseProject("", json{{"type", "two_spirals"}, {"feeds", {{"x", "points"}}}}, 2, 10);
            doc["carry_state"] = json::array({json{{"fetch", "a"}, {"feed", "b"}}});
            auto p = parseProject(doc.dump(), "test.tsproj");
            QVERIFY(!p.has_value());
            QVERIFY2(p.error().message().find("carry_state: a state is carried through the epochs of a word_text "
                                              "source; the project has 0 word_text sources, 1 expected") !=
                         std::string::npos,
                     p.error().message().c_str());
        }
    }

    /// A counter as the state: s_out = s_in + 1, loss = mean(s_out). Carried, step k of every epoch
    /// (3 steps) sees k - 1 and reports k; perplexity over per_word = log(mean(s_out)) is
    /// exp(mean(log 1, log 2, log 3)) = 6^(1/3) per epoch, in the log and the event file.
    void stateIsCarriedAndResetEachEpoch()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeText(root / "t.txt", "a b c d e f g h i j k l m n"); // 14 words: batch_len 7, 3 steps of 2
        GraphBuilder b(testing::sharedRegistries().ops);
        auto x = ops::placeholder(b, tensorflow::DT_INT32, TensorShape({-1, 2}), "x");
        auto sIn = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 1}), "s_in");
        auto one = ops::constant(b, 1.0, tensorflow::DT_FLOAT, "one");
        auto sOut = ops::add(b, *sIn, *one, "s_out");
        auto axes = ops::constantInts(b, {0, 1}, TensorShape({2}), tensorflow::DT_INT32, "axes");
        auto mean = ops::firstOutput(b.op("Mean", {*sOut, *axes}, {}, "mean"));
        auto w = getVariable(b, "w", TensorShape({1}));
        auto xf = ops::firstOutput(b.op("Cast", {*x}, {{"DstT", attr::type(tensorflow::DT_FLOAT)}}, "xf"));
        auto xs = ops::firstOutput(b.op("Sum", {*xf, *axes}, {}, "xs"));
        auto ws = ops::firstOutput(b.op("Sum", {w->value(), *ops::constantInts(b, {0}, TensorShape({1}))}, {}, "ws"));
        auto side = ops::add(b, *xs, *ws, "side");
        auto zero = ops::constant(b, 0.0, tensorflow::DT_FLOAT, "zero");
        auto none = ops::mul(b, *side, *zero, "none");
        auto loss = ops::add(b, *mean, *none, "loss");
        auto perWord = ops::firstOutput(b.op("Log", {*mean}, {}, "per_word"));
        QVERIFY(loss.has_value() && perWord.has_value());

        const json source = {
            {"type", "word_text"}, {"file", (root / "t.txt").string()}, {"num_steps", 2}, {"feeds", {{"x", "x"}}}};
        json doc = baseProject(graphText(b.graphDef()), source, 2, 7);
        doc["training"] = {{"loss", "loss:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.0}}}};
        doc["carry_state"] = json::array({json{{"fetch", "s_out"}, {"feed", "s_in"}}});
        doc["perplexity"] = "per_word";
        const Project p = parse(doc);

        std::vector<double> losses;
        TrainRunOptions options;
        options.logdir = root / "logs";
        options.progressEverySteps = 1;
        options.onProgress = [&](const TrainProgress& progress) { losses.push_back(progress.loss.value_or(-1)); };
        auto result = trainProject(p, testing::sharedRegistries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(losses, (std::vector<double>{1, 2, 3, 1, 2, 3, 1}));
        QCOMPARE(result->perplexities.size(), std::size_t(2));
        for (double perplexity : result->perplexities)
            QVERIFY2(std::abs(perplexity - std::cbrt(6.0)) < 1e-5, std::to_string(perplexity).c_str());

        events::LogDirectory logs((root / "logs").string());
        QVERIFY(logs.reload().isOk());
        std::vector<std::int64_t> steps;
        for (const std::string& run : logs.runs())
            logs.withRun(run, [&](const events::EventAccumulator& a) {
                for (const events::ScalarSample& s : a.scalars("perplexity")) {
                    steps.push_back(s.step);
                    QVERIFY(std::abs(s.value - std::cbrt(6.0)) < 1e-5);
                }
            });
        QCOMPARE(steps, (std::vector<std::int64_t>{3, 6}));

        // The carry's tensors are checked before the session: a fetch that is not in the graph.
        json bad = doc;
        bad["carry_state"][0]["fetch"] = "nothing";
        options.logdir = root / "logs_bad";
        auto refused = trainProject(parse(bad), testing::sharedRegistries(), options);
        QVERIFY(!refused.has_value());
        QVERIFY2(refused.error().message().find("carry_state[0].fetch: 'nothing:0' is not in the graph") !=
                     std::string::npos,
                 refused.error().message().c_str());
    }

    /// A small configuration of ptb-small (2 LSTM layers of 16 units, num_steps 5, batch 4, the
    /// vocabulary of the file) on a tiny grammar: the training and validation perplexities fall,
    /// each epoch's perplexity is in the event file, the embedding is updated sparsely, and the
    /// state fed to step n + 1 is the final state fetched at step n.
    void trainsASmallLanguageModel()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const std::string train = grammarText(120, 7);
        writeText(root / "train.txt", train);
        writeText(root / "valid.txt", grammarText(40, 11));
        const auto vocabulary = buildVocabulary(splitWords(train));
        examples::PtbModelOptions model;
        model.vocabSize = static_cast<std::int64_t>(vocabulary.words.size());
        model.hiddenSize = 16;
        model.numLayers = 2;
        model.numSteps = 5;
        // Wider than SmallConfig's 0.1, so that so small a model leaves the unigram plateau (a
        // perplexity of about 12 here) within the few epochs a test can afford.
        model.initScale = 0.3;
        auto graph = examples::buildPtbModel(testing::sharedRegistries().ops, model);
        QVERIFY2(graph.has_value(), graph ? "" : graph.error().toString().c_str());

        const json feeds = {{"inputs", "x"}, {"targets", "y"}};
        const json source = {{"type", "word_text"},
                             {"file", (root / "train.txt").string()},
                             {"num_steps", 5},
                             {"vocab_size", model.vocabSize},
                             {"feeds", feeds}};
        CpuAllocator allocator;
        json doc = baseProject(graphText(*graph), source, 4, 1);
        const Project probe = parse(doc);
        auto epoch = wordTextEpochSteps(probe);
        QVERIFY2(epoch.has_value(), epoch ? "" : epoch.error().toString().c_str());
        const std::int64_t epochs = 6;
        doc["steps"] = epochs * *epoch;
        doc["training"] = {{"loss", "cost:0"},
                           {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 1.0}}},
                           {"clip_by_global_norm", 5.0}};
        json carry = json::array();
        for (int layer = 0; layer < 2; ++layer)
            for (const char* part : {"c", "h"})
                carry.push_back({{"fetch", "final_state_" + std::string(part) + std::to_string(layer)},
                                 {"feed", "initial_state_" + std::string(part) + std::to_string(layer)}});
        doc["carry_state"] = carry;
        doc["perplexity"] = "per_word_loss";
        doc["eval"] = {{"sources", json::array({json{{"type", "word_text"},
                                                     {"file", (root / "valid.txt").string()},
                                                     {"vocab_from", (root / "train.txt").string()},
                                                     {"num_steps", 5},
                                                     {"feeds", feeds}}})},
                       {"every_steps", *epoch},
                       {"metrics", json::array({json{{"kind", "perplexity"}}})}};
        const Project p = parse(doc);

        StateRecorder recorder("initial_state_c1", "final_state_c1");
        std::vector<std::string> sessionOps;
        TrainRunOptions options;
        options.logdir = root / "logs";
        options.observer = &recorder;
        options.onSessionGraph = [&](const tensorflow::GraphDef& g) {
            for (const auto& n : g.node())
                sessionOps.push_back(n.op());
        };
        auto result = trainProject(p, testing::sharedRegistries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());

        // Training perplexity per epoch: from about the vocabulary's size down to the grammar's.
        const std::vector<double>& ppl = result->perplexities;
        QCOMPARE(static_cast<std::int64_t>(ppl.size()), epochs);
        std::string list;
        for (double v : ppl)
            list += std::to_string(v) + " ";
        qInfo("training perplexity per epoch: %s", list.c_str());
        QVERIFY2(ppl.front() < static_cast<double>(model.vocabSize) * 1.5, list.c_str());
        QVERIFY2(ppl.back() < 0.6 * ppl.front(), list.c_str());
        for (std::size_t i = 1; i < ppl.size(); ++i)
            QVERIFY2(ppl[i] < ppl[i - 1] * 1.02, list.c_str());
        // Validation perplexity per epoch (eval.metrics perplexity) falls too.
        QVERIFY(result->evaluations.size() >= 2);
        const double firstValid = *result->evaluations.front().metric("perplexity");
        const double lastValid = *result->evaluations.back().metric("perplexity");
        QVERIFY2(lastValid < 0.8 * firstValid, (std::to_string(firstValid) + " " + std::to_string(lastValid)).c_str());

        // The event file has every epoch's perplexity at the epoch's last step.
        events::LogDirectory logs((root / "logs").string());
        QVERIFY(logs.reload().isOk());
        std::vector<std::int64_t> steps;
        for (const std::string& run : logs.runs())
            logs.withRun(run, [&](const events::EventAccumulator& a) {
                for (const events::ScalarSample& s : a.scalars("perplexity"))
                    if (run != "eval")
                        steps.push_back(s.step);
            });
        std::vector<std::int64_t> expected;
        for (std::int64_t e = 1; e <= epochs; ++e)
            expected.push_back(e * *epoch);
        QCOMPARE(steps, expected);

        // The embedding's gradient is IndexedSlices, applied sparsely (ScatterSub of the rows).
        QVERIFY(std::find(sessionOps.begin(), sessionOps.end(), "ScatterSub") != sessionOps.end());

        // The carried state: step n + 1 (within an epoch) is fed what step n fetched; an epoch's
        // first step is fed zeros. The recorder sees every training step (and the evaluations'
        // batches, which do not use the observer).
        QVERIFY(recorder.fetched.size() >= static_cast<std::size_t>(*epoch + 2));
        QCOMPARE(recorder.fed.size(), recorder.fetched.size());
        for (std::size_t n = 0; n + 1 < recorder.fed.size(); ++n) {
            const Tensor& fed = recorder.fed[n + 1];
            const bool epochStart = static_cast<std::int64_t>(n + 1) % *epoch == 0;
            const Tensor& expectedState = recorder.fetched[n];
            QCOMPARE(fed.shape(), TensorShape({4, 16}));
            bool allZero = true;
            bool equal = true;
            for (std::int64_t k = 0; k < 4 * 16; ++k) {
                allZero = allZero && fed.values<float>()[k] == 0.0f;
                equal = equal && fed.values<float>()[k] == expectedState.values<float>()[k];
            }
            if (epochStart)
                QVERIFY2(allZero, ("step " + std::to_string(n + 2) + " starts an epoch").c_str());
            else
                QVERIFY2(equal && !allZero, ("step " + std::to_string(n + 2)).c_str());
        }
        QVERIFY(std::abs(scalar(recorder.fed.front())) == 0.0f);
    }

    /// The shipped project loads; without its data it says where to get the PTB files.
    void shippedProjectSaysWhereTheDataIs()
    {
        const auto path = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "ptb-small.tsproj";
        auto p = loadProject(path, {Override{"data.dir", "\"/nonexistent-ptb\""}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        CpuAllocator allocator;
        auto pipeline = buildSourcePipeline(*p, 0, allocator);
        QVERIFY(!pipeline.has_value());
        const std::string m = pipeline.error().message();
        QVERIFY2(m.find("ptb-small.tsproj: data.sources[0] (word_text): data.dir: no file "
                        "'/nonexistent-ptb/ptb.train.txt'") !=
                     std::string::npos,
                 m.c_str());
        QVERIFY2(m.find("simple-examples.tgz") != std::string::npos, m.c_str());
    }

    /// The shipped ptb-small trains a few steps: on the real PTB files where $TSTUDIO_PTB_DIR names a
    /// folder with them (ptb.train.txt and ptb.valid.txt of simple-examples.tgz), else on a corpus
    /// written here with PTB's shape: 9,999 words and <eos>, the 10,000 of the project's vocab_size.
    void shippedPtbTrainsAFewSteps()
    {
        QTemporaryDir corpus;
        QVERIFY(corpus.isValid());
        std::string ptb;
        if (const char* real = std::getenv("TSTUDIO_PTB_DIR")) {
            ptb = real;
            qInfo("training on the PTB files in %s", real);
        } else {
            ptb = corpus.path().toStdString();
            std::mt19937 rng(29);
            std::uniform_int_distribution<int> word(0, 9998);
            const auto write = [&](const char* name, int randomWords, bool everyWord) {
                std::ofstream out(std::filesystem::path(ptb) / name);
                int column = 0;
                const auto put = [&](int w) {
                    out << " w" << w;
                    if (++column == 20) {
                        out << " \n";
                        column = 0;
                    }
                };
                if (everyWord)
                    for (int w = 0; w < 9999; ++w)
                        put(w);
                for (int i = 0; i < randomWords; ++i)
                    put(word(rng));
                out << " \n";
            };
            write("ptb.train.txt", 20000, true);
            write("ptb.valid.txt", 4000, false);
            write("ptb.test.txt", 4000, false);
        }
        const auto path = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "ptb-small.tsproj";
        auto p = loadProject(path, {Override{"data.dir", json(ptb).dump()}, Override{"steps", "3"}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        p->eval.reset();
        QTemporaryDir dir;
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(3));
        QVERIFY(result->finalLoss && std::isfinite(*result->finalLoss));
        // The cost is num_steps x the per-word loss, about 20 x ln(10000) = 184 untrained.
        QVERIFY2(*result->finalLoss > 150 && *result->finalLoss < 200, std::to_string(*result->finalLoss).c_str());
    }
};

QTEST_GUILESS_MAIN(TestPtbProject)
#include "test_ptb_project.moc"
