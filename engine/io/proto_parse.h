// Parsing protobuf messages read from files: text or binary by content, first text error located,
// binary input checked to be one whole message.
#pragma once

#include "core/status.h"

#include <cstdint>
#include <string>
#include <string_view>

#include <google/protobuf/text_format.h>

namespace google::protobuf {
class Message;
}

namespace tstudio {

/// Protobuf's limit on one serialised message (2 GiB - 1).
inline constexpr std::uint64_t kMaxProtoMessageBytes = 2ull * 1024 * 1024 * 1024 - 1;

/// How deep messages may nest in a file, binary or text (protobuf's text parser has no limit of its
/// own, so a file of 100,000 nested attr { value { func { attr { ... blocks would exhaust the stack).
/// Deeply nested function libraries are legal; no real graph comes near this.
inline constexpr int kMaxProtoNesting = 1000;

/// A text-format parser with kMaxProtoNesting as its recursion limit: every text-format read of a
/// file goes through one (parseTextProto, the file-kind probes).
google::protobuf::TextFormat::Parser textParser();

/// True when the first 64 KiB of `bytes` are non-empty and hold no NUL or control characters
/// other than whitespace, i.e. the content is text format rather than binary.
bool looksLikeTextProto(const std::string& bytes);

/// Parses text format into `message` (nested at most kMaxProtoNesting deep). On failure returns false and, when `firstError` is given,
/// sets it to the first error as "line L, column C: message" (both counted from 1).
bool parseTextProto(const std::string& text, google::protobuf::Message& message, std::string* firstError);

/// Parses binary wire format into `message` with a recursion limit of kMaxProtoNesting; fails unless the whole input is one message. Protobuf's own
/// log is silenced: the caller reports the failure with the file name.
bool parseBinaryProto(const std::string& bytes, google::protobuf::Message& message);

/// Parses `bytes` (text or binary, by content) as `typeName`, naming `what` in errors:
/// InvalidArgument "<what> is empty: expected a <typeName>" and
/// "<what> is not a text-format <typeName>: <first error>", DataLoss
/// "<what> is not a valid binary <typeName> (truncated or corrupted, N bytes)".
/// `wasText`, when given, tells which format was parsed.
Status parseTextOrBinaryProto(const std::string& bytes, const std::string& what, std::string_view typeName,
                              google::protobuf::Message& message, bool* wasText);

} // namespace tstudio
