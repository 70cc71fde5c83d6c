// The "skip_gram" data source: a text file's words as the (centre word, context word) pairs that
// TensorFlow's word2vec tutorial (word2vec_basic.py) trains its embeddings on.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::project {

/// The word every word outside the vocabulary becomes (id 0), as in word2vec_basic.py.
inline constexpr const char* kSkipGramUnknown = "UNK";

/// word2vec_basic.build_dataset: the vocabulary is "UNK" (id 0) and then the `vocabSize` - 1 most
/// common words by falling count (ties in the order of their first appearance, as Python's
/// Counter.most_common); `ids` are the words' ids, a word outside the vocabulary 0. A word "UNK"
/// in the text is counted as any other and then is id 0.
struct SkipGramVocabulary {
    std::vector<std::string> words;   ///< by id
    std::vector<std::int64_t> counts; ///< by id; counts[0] the words that became UNK
    std::vector<std::int32_t> ids;    ///< the text's words
};
SkipGramVocabulary buildSkipGramVocabulary(const std::vector<std::string>& words, std::int64_t vocabSize);

/// The pairs of word2vec_basic.generate_batch over the whole text: for every centre position c with
/// a full window (skip_window <= c < n - skip_window), `numSkips` distinct context positions drawn
/// without replacement from the 2 * skip_window positions around it, each giving the pair
/// (ids[c], ids[context]); pairs in text order, a centre's pairs in the order drawn. The draw is
/// seeded (std::mt19937_64, so the pairs are the same on every machine, not Python's).
/// InvalidArgument when numSkips > 2 * skipWindow, skipWindow < 1 or the text has no full window.
struct SkipGramPairs {
    std::vector<std::int32_t> centres;
    std::vector<std::int64_t> contexts;
};
Expected<SkipGramPairs> skipGramPairs(const std::vector<std::int32_t>& ids, std::int64_t skipWindow,
                                      std::int64_t numSkips, std::uint64_t seed);

/// What a skip_gram source reads: the vocabulary and the pairs as tensors, "inputs" int32 [N] and
/// "labels" int64 [N, 1] (nce_loss's labels are [batch, num_true]). Errors prefixed with `where`:
/// readWordFile's, skipGramPairs'.
struct SkipGramData {
    SkipGramVocabulary vocabulary;
    Tensor inputs;
    Tensor labels;
};
Expected<SkipGramData> loadSkipGram(const Project& project, const SkipGramParams& params, const std::string& where,
                                    Allocator& allocator);

} // namespace tstudio::project
