// parseTextInParallel: a large text-format message parsed in pieces on several threads. Its text is
// cut between top-level fields (a 100,000-node GraphDef is 100,000 top-level `node { ... }` fields),
// each piece is parsed into a message of its own, and the pieces' repeated message fields are moved
// into the first one in order, so the result is the message one parse of the whole text gives.
// Anything a piece cannot settle alone (an error, a singular or oneof field set in two pieces, a
// map field at the top) leaves the whole text to the caller's one parse, which also locates errors.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace google::protobuf {
class Message;
}

namespace tstudio {

/// Pieces are at least this long: below twice this a text is parsed whole.
inline constexpr std::size_t kParallelTextPieceBytes = 4 * 1024 * 1024;

/// Parses `text` into `message` (cleared first) in up to `threads` pieces of at least
/// kParallelTextPieceBytes, each with textParser()'s settings. True when it did; false when the text is
/// too small to cut, has no top-level field boundary to cut at, or a piece failed or conflicts with
/// another: `message` is then cleared and the caller parses the whole text.
bool parseTextInParallel(const std::string& text, google::protobuf::Message& message, int threads);

/// Where parseTextInParallel would cut `text` into at most `pieces` pieces: offsets just after a
/// top-level message field's closing brace (outside strings and comments), near equal shares of the
/// text, ascending. Empty when there is none.
std::vector<std::size_t> topLevelCuts(const std::string& text, int pieces);

} // namespace tstudio
