// The skip_gram source and the word2vec example project: word2vec_basic.py's vocabulary (hand
// counted), its skip-gram pairs (every pair checked against the window), the errors, and the
// shipped project trained on a small grammar's text: nouns end up nearer nouns than verbs, and the
// run leaves metadata.tsv and projector_config.pbtxt that the projector reads.
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/projector_config.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "project/sources/skip_gram_source.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

using namespace tstudio;
using namespace tstudio::project;

namespace {

const char* const kNouns[] = {"cat", "dog", "bird", "fish", "man", "woman", "child", "horse"};
const char* const kVerbs[] = {"sees", "chases", "likes", "feeds"};

/// Sentences "DET NOUN VERB DET NOUN", one per line.
std::string grammarText(int sentences, unsigned seed)
{
    static const char* const dets[] = {"the", "a"};
    std::mt19937 random(seed);
    auto pick = [&](const auto& list) { return std::string(list[random() % std::size(list)]); };
    std::string text;
    for (int i = 0; i < sentences; ++i)
        text += pick(dets) + " " + pick(kNouns) + " " + pick(kVerbs) + " " + pick(dets) + " " + pick(kNouns) + " \n";
    return text;
}

std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

class TestSkipGramSource : public QObject {
    Q_OBJECT
private slots:
    void vocabularyAsWord2VecBasic()
    {
        // b 3, a 2, c 1, d 1: "UNK", then the vocab_size - 1 = 2 most common.
        const SkipGramVocabulary v = buildSkipGramVocabulary(split("b a b c a b d"), 3);
        QCOMPARE(v.words, (std::vector<std::string>{"UNK", "b", "a"}));
        QCOMPARE(v.ids, (std::vector<std::int32_t>{1, 2, 1, 0, 2, 1, 0}));
        QCOMPARE(v.counts, (std::vector<std::int64_t>{2, 3, 2}));
        // Equal counts keep the order of first appearance (Counter.most_common).
        const SkipGramVocabulary tie = buildSkipGramVocabulary(split("y x x y z"), 10);
        QCOMPARE(tie.words, (std::vector<std::string>{"UNK", "y", "x", "z"}));
        // A word "UNK" in the text is the unknown word.
        const SkipGramVocabulary unk = buildSkipGramVocabulary(split("UNK q UNK"), 10);
        QCOMPARE(unk.ids, (std::vector<std::int32_t>{0, 2, 0}));
    }

    void pairsStayInTheirWindow()
    {
        std::vector<std::int32_t> ids(50);
        for (std::size_t i = 0; i < ids.size(); ++i)
            ids[i] = static_cast<std::int32_t>(i);
        auto pairs = skipGramPairs(ids, 2, 3, 7);
        QVERIFY(pairs.has_value());
        // Centres 2..47, three pairs each, in text order, distinct contexts within two words.
        QCOMPARE(pairs->centres.size(), std::size_t{46 * 3});
        std::set<std::int64_t> seenOffsets;
        for (std::size_t c = 0; c < 46; ++c) {
            std::set<std::int64_t> contexts;
            for (std::size_t j = 0; j < 3; ++j) {
                const std::size_t k = c * 3 + j;
                QCOMPARE(pairs->centres[k], static_cast<std::int32_t>(c + 2));
                const std::int64_t offset = pairs->contexts[k] - pairs->centres[k];
                QVERIFY2(offset != 0 && std::abs(offset) <= 2, std::to_string(offset).c_str());
                contexts.insert(pairs->contexts[k]);
                seenOffsets.insert(offset);
            }
            QCOMPARE(contexts.size(), std::size_t{3});
        }
        QCOMPARE(seenOffsets, (std::set<std::int64_t>{-2, -1, 1, 2})); // every neighbour is drawn
        // Seeded: the same seed gives the same pairs, another seed others.
        QCOMPARE(skipGramPairs(ids, 2, 3, 7)->contexts, pairs->contexts);
        QVERIFY(skipGramPairs(ids, 2, 3, 8)->contexts != pairs->contexts);
    }

    void badSettingsAreRefused()
    {
        const std::vector<std::int32_t> ids{1, 2, 3, 4};
        auto tooMany = skipGramPairs(ids, 1, 3, 1);
        QVERIFY(!tooMany);
        QCOMPARE(tooMany.error().message(), std::string("num_skips must be between 1 and 2 * skip_window = 2, got 3"));
        auto shortText = skipGramPairs(ids, 2, 2, 1);
        QVERIFY(!shortText);
        QCOMPARE(shortText.error().message(), std::string("the text has 4 words; a window of skip_window 2 needs 5"));
        // In a project: the JSON path and what was expected.
        const std::string head = R"({"format": "tensorstudio-project", "version": 1, "graph": {"file": "g.pbtxt"},
            "data": {"sources": [{"type": "skip_gram", "file": "t.txt", )";
        auto bad = parseProject(head + R"("skip_window": 1, "num_skips": 3, "feeds": {}}]}})", "w.tsproj");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().find("data.sources[0].num_skips: expected at most 2 * skip_window = 2, got 3") !=
                     std::string::npos,
                 bad.error().message().c_str());
    }

    void word2vecProjectLearnsWordClasses()
    {
        QTemporaryDir data, run;
        {
            std::ofstream out(std::filesystem::path(data.path().toStdString()) / "ptb.train.txt");
            out << grammarText(20000, 3);
        }
        const auto path = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "word2vec.tsproj";
        auto p = loadProject(
            path, {Override{"data.dir", nlohmann::json(data.path().toStdString()).dump()}, Override{"steps", "8000"}});
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        TrainRunOptions options;
        options.logdir = run.path().toStdString();
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(8000));

        // The projector's files: the words by id, and the two [vocab, D] tables labelled by them.
        auto config = events::readProjectorRun(run.path().toStdString());
        QVERIFY2(config.has_value(), config ? "" : config.error().toString().c_str());
        std::vector<std::string> labelled;
        for (const auto& e : config->embeddings)
            if (!e.metadataPath.empty())
                labelled.push_back(e.tensorName);
        QCOMPARE(labelled, (std::vector<std::string>{"embeddings", "nce_weights"}));
        std::ifstream tsv(std::filesystem::path(run.path().toStdString()) / "metadata.tsv");
        std::vector<std::string> words;
        for (std::string line; std::getline(tsv, line);)
            words.push_back(line);
        QCOMPARE(words.size(), std::size_t{10000});
        QCOMPARE(words[0], std::string("UNK"));
        QCOMPARE(words[15], std::string("(unused)"));

        // Cosine similarity in the trained embedding: nouns are nearer other nouns than verbs.
        CpuAllocator allocator;
        auto reader = TensorBundleReader::open(result->lastCheckpoint);
        QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
        auto table = reader->read("embeddings", allocator);
        QVERIFY2(table, table ? "" : table.error().toString().c_str());
        const auto values = table->values<float>();
        const std::int64_t dim = table->shape().dim(1);
        auto row = [&](const std::string& word) {
            const auto at = std::find(words.begin(), words.end(), word);
            return values.subspan(static_cast<std::size_t>((at - words.begin()) * dim), static_cast<std::size_t>(dim));
        };
        auto cosine = [&](const std::string& a, const std::string& b) {
            double ab = 0, aa = 0, bb = 0;
            const auto x = row(a), y = row(b);
            for (std::int64_t i = 0; i < dim; ++i) {
                ab += double(x[i]) * y[i];
                aa += double(x[i]) * x[i];
                bb += double(y[i]) * y[i];
            }
            return ab / std::sqrt(aa * bb);
        };
        double nounNoun = 0, nounVerb = 0;
        int nn = 0, nv = 0;
        for (const char* a : kNouns) {
            for (const char* b : kNouns)
                if (std::string(a) != b) {
                    nounNoun += cosine(a, b);
                    ++nn;
                }
            for (const char* v : kVerbs) {
                nounVerb += cosine(a, v);
                ++nv;
            }
        }
        nounNoun /= nn;
        nounVerb /= nv;
        const std::string figures = std::to_string(nounNoun) + " against " + std::to_string(nounVerb);
        qInfo("mean cosine noun-noun %s noun-verb", figures.c_str());
        QVERIFY2(nounNoun > nounVerb + 0.2, figures.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSkipGramSource)
#include "test_skip_gram_source.moc"
