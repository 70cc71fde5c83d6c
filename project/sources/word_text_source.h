// The "word_text" data source: a tokenised text file read as TensorFlow's PTB tutorial reader
// (reader.py) reads it - words, a vocabulary, word ids - and cut into the batches of ptb_producer.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace tstudio::project {

/// The word that stands for a line end ("\n"), and the one an unknown word becomes.
inline constexpr const char* kEndOfSentence = "<eos>";
inline constexpr const char* kUnknownWord = "<unk>";

/// The most bytes of text one word_text file may have.
inline constexpr std::uint64_t kMaxWordTextBytes = 1ull << 30;

/// `text`'s words as reader._read_words gives them: every "\n" becomes the word "<eos>" and the
/// text is split on white space (TensorFlow replaces "\n" by "<eos>" without spaces around it; the
/// PTB files have a space before every line end, so both give the same words there). With
/// `lineEnds` false a line end is white space like any other (Python's str.split()).
std::vector<std::string> splitWords(const std::string& text, bool lineEnds = true);

/// A data source's file: relative to data.dir when set, else to the .tsproj.
std::filesystem::path sourcePath(const Project& project, const std::string& file);

/// The words of a text file (at most kMaxWordTextBytes) as splitWords gives them; with `lineEnds`
/// false without the "<eos>" words (Python's str.split()). Errors: NotFound "no file '...'" (the
/// data.dir setting's problem when `inDataFolder`; for the PTB files with where to get them),
/// InvalidArgument "'...' holds no words", the reader's.
Expected<std::vector<std::string>> readWordFile(const std::filesystem::path& file, bool inDataFolder,
                                                bool lineEnds = true);

/// A vocabulary: words by id, and ids by word.
struct WordVocabulary {
    std::vector<std::string> words;
    std::unordered_map<std::string, std::int32_t> ids;
};

/// reader._build_vocab: every distinct word of `words`, sorted by falling count and then by word
/// (byte order, which is code point order for UTF-8), numbered from 0.
WordVocabulary buildVocabulary(const std::vector<std::string>& words);

/// A vocabulary file: one word per line (surrounding white space ignored, empty lines skipped), the
/// n-th word id n. Errors: the reader's (naming the file); InvalidArgument "'vocab.txt' line 7: 'the'
/// is listed twice (first on line 2)", "'vocab.txt' holds no words".
Expected<WordVocabulary> readVocabularyFile(const std::filesystem::path& file);

/// reader._file_to_word_ids, except that a word outside the vocabulary becomes "<unk>" (TensorFlow
/// drops it; the PTB files hold only vocabulary words). InvalidArgument "'<file>': word 'zebra' is
/// not in the vocabulary, which has no <unk>" when there is no "<unk>" to use.
Expected<std::vector<std::int32_t>> wordIds(const std::vector<std::string>& words, const WordVocabulary& vocabulary,
                                            const std::string& file);

/// reader.ptb_producer's batches of one epoch, in order: the ids cut to batch_size * batch_len
/// (batch_len = ids / batch_size) and seen as data [batch_size, batch_len]; step i takes
/// x = data[:, i*num_steps:(i+1)*num_steps] and y = data[:, i*num_steps+1:(i+1)*num_steps+1].
/// `x` and `y` are int32 [epochSize * batchSize, numSteps], step-major (row i*batchSize + b is step
/// i's row b), so batching them batchSize rows at a time gives the steps.
struct PtbBatches {
    Tensor x;
    Tensor y;
    std::int64_t batchLen = 0;
    std::int64_t epochSize = 0; ///< (batchLen - 1) / numSteps
};

/// InvalidArgument "'<file>' holds 30 words; one batch of batch_size 20 and num_steps 20 needs
/// batch_size x (num_steps + 1) = 420" when epoch_size would be 0 (TensorFlow's "epoch_size == 0,
/// decrease batch_size or num_steps"); batchSize and numSteps must be >= 1.
Expected<PtbBatches> ptbProducer(const std::vector<std::int32_t>& ids, std::int64_t batchSize, std::int64_t numSteps,
                                 const std::string& file, Allocator& allocator);

/// What a word_text source reads: its vocabulary, its ids and its batches for `batchSize`.
struct WordTextData {
    WordVocabulary vocabulary;
    std::vector<std::int32_t> ids;
    PtbBatches batches;
};

/// Reads the source's file (and the vocabulary's), relative to data.dir when set, else to the
/// .tsproj. Errors, prefixed `where` ("<file>: data.sources[0] (word_text)"): NotFound "no file
/// '/d/ptb.train.txt'" (for the PTB files with where to get them); InvalidArgument "'/d/x.txt'
/// holds no words"; "vocab_size: the vocabulary has 9999 words, 10000 expected"; wordIds' and
/// ptbProducer's.
Expected<WordTextData> loadWordText(const Project& project, const WordTextParams& params, std::int64_t batchSize,
                                    const std::string& where, Allocator& allocator);

/// The steps in one epoch of the project's word_text source (its first one) at the project's batch
/// size; InvalidArgument when the project has none; loadWordText's errors.
Expected<std::int64_t> wordTextEpochSteps(const Project& project);

} // namespace tstudio::project
