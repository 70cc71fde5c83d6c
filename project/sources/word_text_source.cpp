// The word_text source: words, vocabulary and ids as TensorFlow's PTB reader makes them, and
// ptb_producer's batches.
#include "project/sources/word_text_source.h"

#include "core/ascii_text.h"
#include "core/try.h"
#include "io/atomic_file.h"
#include "project/format/setting_advice.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tstudio::project {
namespace {

/// NotFound naming the file; for the PTB files, where they come from. A file named by a relative
/// path (`inDataFolder`) is looked for in data.dir: the problem is that field's, whose remedy each
/// front end words.
Status missingFile(const std::filesystem::path& file, bool inDataFolder);

} // namespace

std::filesystem::path sourcePath(const Project& project, const std::string& file)
{
    const std::filesystem::path p(file);
    if (project.dataDir && !p.is_absolute())
        return project.resolve(*project.dataDir) / p;
    return project.resolve(file);
}

namespace {

Status missingFile(const std::filesystem::path& file, bool inDataFolder)
{
    std::string message = "no file '" + file.string() + "'";
    if (file.filename().string().rfind("ptb.", 0) == 0)
        message += ": the Penn Treebank files ptb.train.txt, ptb.valid.txt and ptb.test.txt are in data/ of "
                   "http://www.fit.vutbr.cz/~imikolov/rnnlm/simple-examples.tgz (as in TensorFlow's PTB tutorial); "
                   "put them in '" +
                   file.parent_path().string() + "' or name the folder that holds them";
    return notFoundError(inDataFolder ? settingProblem("data.dir", message) : message);
}

} // namespace

Expected<std::vector<std::string>> readWordFile(const std::filesystem::path& file, bool inDataFolder, bool lineEnds)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return unexpected(missingFile(file, inDataFolder));
    TSTUDIO_TRY(text, readWholeFile(file, kMaxWordTextBytes));
    std::vector<std::string> words = splitWords(text, lineEnds);
    if (words.empty())
        return unexpected(invalidArgumentError("'" + file.string() + "' holds no words"));
    return words;
}

std::vector<std::string> splitWords(const std::string& text, bool lineEnds)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        if (lineEnds && text[i] == '\n') {
            words.emplace_back(kEndOfSentence);
            ++i;
            continue;
        }
        if (isAsciiSpace(text[i])) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < text.size() && !isAsciiSpace(text[i]))
            ++i;
        words.emplace_back(text, start, i - start);
    }
    return words;
}

WordVocabulary buildVocabulary(const std::vector<std::string>& words)
{
    std::map<std::string, std::int64_t> counts;
    for (const std::string& w : words)
        ++counts[w];
    std::vector<std::pair<std::string, std::int64_t>> pairs(counts.begin(), counts.end());
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    WordVocabulary out;
    for (auto& [word, count] : pairs) {
        out.ids.emplace(word, static_cast<std::int32_t>(out.words.size()));
        out.words.push_back(word);
    }
    return out;
}

Expected<WordVocabulary> readVocabularyFile(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return unexpected(missingFile(file, false));
    TSTUDIO_TRY(text, readWholeFile(file, kMaxWordTextBytes));
    WordVocabulary out;
    std::unordered_map<std::string, std::int64_t> lines;
    std::size_t pos = 0;
    std::int64_t line = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        ++line;
        std::size_t a = pos;
        std::size_t b = end;
        while (a < b && isAsciiSpace(text[a]))
            ++a;
        while (b > a && isAsciiSpace(text[b - 1]))
            --b;
        pos = end + 1;
        if (a == b)
            continue;
        std::string word = text.substr(a, b - a);
        if (const auto it = lines.find(word); it != lines.end())
            return unexpected(invalidArgumentError("'" + file.string() + "' line " + std::to_string(line) + ": '" +
                                                   word + "' is listed twice (first on line " +
                                                   std::to_string(it->second) + ")"));
        lines.emplace(word, line);
        out.ids.emplace(word, static_cast<std::int32_t>(out.words.size()));
        out.words.push_back(std::move(word));
    }
    if (out.words.empty())
        return unexpected(invalidArgumentError("'" + file.string() + "' holds no words"));
    return out;
}

Expected<std::vector<std::int32_t>> wordIds(const std::vector<std::string>& words, const WordVocabulary& vocabulary,
                                            const std::string& file)
{
    const auto unk = vocabulary.ids.find(kUnknownWord);
    std::vector<std::int32_t> ids;
    ids.reserve(words.size());
    for (const std::string& w : words) {
        const auto it = vocabulary.ids.find(w);
        if (it != vocabulary.ids.end()) {
            ids.push_back(it->second);
            continue;
        }
        if (unk == vocabulary.ids.end())
            return unexpected(invalidArgumentError("'" + file + "': word '" + w +
                                                   "' is not in the vocabulary, which has no " + kUnknownWord));
        ids.push_back(unk->second);
    }
    return ids;
}

Expected<PtbBatches> ptbProducer(const std::vector<std::int32_t>& ids, std::int64_t batchSize, std::int64_t numSteps,
                                 const std::string& file, Allocator& allocator)
{
    if (batchSize < 1 || numSteps < 1)
        return unexpected(invalidArgumentError("'" + file + "': batch_size " + std::to_string(batchSize) +
                                               " and num_steps " + std::to_string(numSteps) +
                                               " must both be 1 or more"));
    const auto dataLen = static_cast<std::int64_t>(ids.size());
    PtbBatches out;
    out.batchLen = dataLen / batchSize;
    out.epochSize = (out.batchLen - 1) / numSteps;
    if (out.batchLen < 1 || out.epochSize < 1)
        return unexpected(invalidArgumentError(
            "'" + file + "' holds " + std::to_string(dataLen) + " words; one batch of batch_size " +
            std::to_string(batchSize) + " and num_steps " + std::to_string(numSteps) +
            " needs batch_size x (num_steps + 1) = " + std::to_string(batchSize * (numSteps + 1)) +
            " (epoch_size == 0: decrease batch_size or num_steps)"));
    const TensorShape shape({out.epochSize * batchSize, numSteps});
    TSTUDIO_TRY(x, Tensor::allocate(allocator, tensorflow::DT_INT32, shape));
    TSTUDIO_TRY(y, Tensor::allocate(allocator, tensorflow::DT_INT32, shape));
    auto xs = x.values<std::int32_t>();
    auto ys = y.values<std::int32_t>();
    std::size_t k = 0;
    for (std::int64_t i = 0; i < out.epochSize; ++i)
        for (std::int64_t b = 0; b < batchSize; ++b)
            for (std::int64_t t = 0; t < numSteps; ++t, ++k) {
                const std::int64_t at = b * out.batchLen + i * numSteps + t; // data[b, i*num_steps + t]
                xs[k] = ids[static_cast<std::size_t>(at)];
                ys[k] = ids[static_cast<std::size_t>(at + 1)];
            }
    out.x = std::move(x);
    out.y = std::move(y);
    return out;
}

Expected<WordTextData> loadWordText(const Project& project, const WordTextParams& params, std::int64_t batchSize,
                                    const std::string& where, Allocator& allocator)
{
    auto fail = [&](const Status& s) { return unexpected(s.withContext(where)); };
    const std::filesystem::path file = sourcePath(project, params.file);
    auto words = readWordFile(file, !std::filesystem::path(params.file).is_absolute());
    if (!words)
        return fail(words.error());
    WordTextData out;
    if (!params.vocabFile.empty()) {
        auto vocabulary = readVocabularyFile(sourcePath(project, params.vocabFile));
        if (!vocabulary)
            return fail(vocabulary.error());
        out.vocabulary = std::move(*vocabulary);
    } else if (!params.vocabFrom.empty() && sourcePath(project, params.vocabFrom) != file) {
        auto from = readWordFile(sourcePath(project, params.vocabFrom),
                                 !std::filesystem::path(params.vocabFrom).is_absolute());
        if (!from)
            return fail(from.error());
        out.vocabulary = buildVocabulary(*from);
    } else {
        out.vocabulary = buildVocabulary(*words);
    }
    // TensorFlow's PTB model keeps vocab_size outputs whatever the data holds: a smaller vocabulary
    // leaves the outputs above it unused; a larger one has ids the model cannot output.
    if (params.vocabSize && static_cast<std::int64_t>(out.vocabulary.words.size()) > *params.vocabSize)
        return fail(invalidArgumentError("vocab_size: the vocabulary has " +
                                         std::to_string(out.vocabulary.words.size()) + " words, more than the " +
                                         std::to_string(*params.vocabSize) +
                                         " the model can output (raise vocab_size to at least " +
                                         std::to_string(out.vocabulary.words.size()) + ")"));
    auto ids = wordIds(*words, out.vocabulary, file.string());
    if (!ids)
        return fail(ids.error());
    out.ids = std::move(*ids);
    auto batches = ptbProducer(out.ids, batchSize, params.numSteps, file.string(), allocator);
    if (!batches)
        return fail(batches.error());
    out.batches = std::move(*batches);
    return out;
}

Expected<std::int64_t> wordTextEpochSteps(const Project& project)
{
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        const auto* text = std::get_if<WordTextParams>(&project.sources[i].params);
        if (!text)
            continue;
        CpuAllocator allocator;
        TSTUDIO_TRY(data, loadWordText(project, *text, project.batchSize,
                                       projectLabel(project) + "data.sources[" + std::to_string(i) + "] (word_text)",
                                       allocator));
        return data.batches.epochSize;
    }
    return unexpected(
        invalidArgumentError(projectLabel(project) + "data.sources: the project has no word_text source"));
}

} // namespace tstudio::project
