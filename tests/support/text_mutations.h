// Random texts for fuzzing parsers: characters drawn from a parser's alphabet (with an arbitrary byte
// now and then) and seeds with a few random edits.
#pragma once

#include <QRandomGenerator>

#include <string>

namespace tstudio::testing {

/// One character of `alphabet`, or any byte one time in twenty.
inline char randomTextChar(QRandomGenerator& random, const std::string& alphabet)
{
    return random.bounded(20) == 0 ? static_cast<char>(random.bounded(256))
                                   : alphabet[random.bounded(static_cast<int>(alphabet.size()))];
}

/// `text` after one to three random edits: a character erased, inserted or replaced (new
/// characters from randomTextChar).
inline std::string mutatedText(QRandomGenerator& random, std::string text, const std::string& alphabet)
{
    for (int edits = static_cast<int>(random.bounded(1, 4)); edits > 0 && !text.empty(); --edits) {
        const auto at = static_cast<std::size_t>(random.bounded(static_cast<int>(text.size())));
        switch (random.bounded(3)) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(at, 1, randomTextChar(random, alphabet)); break;
        default: text[at] = randomTextChar(random, alphabet);
        }
    }
    return text;
}

} // namespace tstudio::testing
