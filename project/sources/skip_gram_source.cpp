// The skip_gram source: word2vec_basic.py's vocabulary and its skip-gram pairs.
#include "project/sources/skip_gram_source.h"

#include "core/try.h"
#include "project/sources/word_text_source.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_map>

namespace tstudio::project {

SkipGramVocabulary buildSkipGramVocabulary(const std::vector<std::string>& words, std::int64_t vocabSize)
{
    // Words in the order of their first appearance with their counts; a stable sort by falling
    // count then keeps Counter.most_common's order among equal counts.
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::pair<const std::string*, std::int64_t>> order;
    for (const std::string& w : words) {
        auto [it, added] = index.try_emplace(w, order.size());
        if (added)
            order.emplace_back(&it->first, 0);
        ++order[it->second].second;
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    SkipGramVocabulary v;
    v.words.push_back(kSkipGramUnknown);
    v.counts.push_back(0);
    std::unordered_map<std::string, std::int32_t> ids;
    const auto kept = static_cast<std::size_t>(std::max<std::int64_t>(vocabSize - 1, 0));
    for (std::size_t i = 0; i < order.size() && i < kept; ++i) {
        ids.emplace(*order[i].first, static_cast<std::int32_t>(v.words.size()));
        v.words.push_back(*order[i].first);
        v.counts.push_back(order[i].second);
    }
    v.ids.reserve(words.size());
    for (const std::string& w : words) {
        const auto it = ids.find(w);
        // word2vec_basic gives a text word "UNK" in the vocabulary its own id; here it is the unknown.
        const std::int32_t id = it == ids.end() || w == kSkipGramUnknown ? 0 : it->second;
        if (id == 0)
            ++v.counts[0];
        v.ids.push_back(id);
    }
    return v;
}

Expected<SkipGramPairs> skipGramPairs(const std::vector<std::int32_t>& ids, std::int64_t skipWindow,
                                      std::int64_t numSkips, std::uint64_t seed)
{
    if (skipWindow < 1)
        return unexpected(invalidArgumentError("skip_window must be at least 1, got " + std::to_string(skipWindow)));
    if (numSkips < 1 || numSkips > 2 * skipWindow)
        return unexpected(invalidArgumentError("num_skips must be between 1 and 2 * skip_window = " +
                                               std::to_string(2 * skipWindow) + ", got " + std::to_string(numSkips)));
    const auto n = static_cast<std::int64_t>(ids.size());
    if (n < 2 * skipWindow + 1)
        return unexpected(invalidArgumentError("the text has " + std::to_string(n) +
                                               " words; a window of skip_window " + std::to_string(skipWindow) +
                                               " needs " + std::to_string(2 * skipWindow + 1)));
    std::mt19937_64 rng(seed);
    // The positions around the centre, as offsets; a partial Fisher-Yates shuffle draws numSkips.
    std::vector<std::int64_t> offsets;
    for (std::int64_t d = -skipWindow; d <= skipWindow; ++d)
        if (d != 0)
            offsets.push_back(d);
    SkipGramPairs out;
    const std::int64_t centres = n - 2 * skipWindow;
    out.centres.reserve(static_cast<std::size_t>(centres * numSkips));
    out.contexts.reserve(static_cast<std::size_t>(centres * numSkips));
    for (std::int64_t c = skipWindow; c < n - skipWindow; ++c) {
        for (std::int64_t j = 0; j < numSkips; ++j) {
            std::uniform_int_distribution<std::int64_t> pick(j, static_cast<std::int64_t>(offsets.size()) - 1);
            std::swap(offsets[static_cast<std::size_t>(j)], offsets[static_cast<std::size_t>(pick(rng))]);
            out.centres.push_back(ids[static_cast<std::size_t>(c)]);
            out.contexts.push_back(ids[static_cast<std::size_t>(c + offsets[static_cast<std::size_t>(j)])]);
        }
    }
    return out;
}

Expected<SkipGramData> loadSkipGram(const Project& project, const SkipGramParams& params, const std::string& where,
                                    Allocator& allocator)
{
    auto fail = [&](const Status& s) { return unexpected(s.withContext(where)); };
    auto words =
        readWordFile(sourcePath(project, params.file), !std::filesystem::path(params.file).is_absolute(), false);
    if (!words)
        return fail(words.error());
    SkipGramData out;
    out.vocabulary = buildSkipGramVocabulary(*words, params.vocabSize);
    auto pairs = skipGramPairs(out.vocabulary.ids, params.skipWindow, params.numSkips, params.seed);
    if (!pairs)
        return fail(pairs.error());
    const auto count = static_cast<std::int64_t>(pairs->centres.size());
    auto inputs = Tensor::fromVector(allocator, TensorShape({count}), pairs->centres);
    if (!inputs)
        return fail(inputs.error());
    auto labels = Tensor::fromVector(allocator, TensorShape({count, 1}), pairs->contexts);
    if (!labels)
        return fail(labels.error());
    out.inputs = std::move(*inputs);
    out.labels = std::move(*labels);
    return out;
}

} // namespace tstudio::project
