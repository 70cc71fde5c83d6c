// Parsing protobuf messages read from files.
#include "io/proto_parse.h"

#include "core/affinity_cores.h"
#include "io/parallel_text_parse.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

#include <algorithm>

namespace tstudio {
namespace {

/// Keeps the first text-format error with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
    void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override
    {
        if (m_error.empty())
            m_error = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " + message;
    }
    const std::string& error() const { return m_error; }

private:
    std::string m_error;
};

} // namespace

bool looksLikeTextProto(const std::string& bytes)
{
    const std::size_t n = std::min<std::size_t>(bytes.size(), 64 * 1024);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v'))
            return false;
    }
    return n > 0;
}

google::protobuf::TextFormat::Parser textParser()
{
    google::protobuf::TextFormat::Parser parser;
    parser.SetRecursionLimit(kMaxProtoNesting);
    return parser;
}

bool parseTextProto(const std::string& text, google::protobuf::Message& message, std::string* firstError)
{
    if (parseTextInParallel(text, message, schedulableCores()))
        return true;
    FirstErrorCollector errors;
    google::protobuf::TextFormat::Parser parser = textParser();
    parser.RecordErrorsTo(&errors);
    if (parser.ParseFromString(text, &message))
        return true;
    if (firstError)
        *firstError = errors.error();
    return false;
}

bool parseBinaryProto(const std::string& bytes, google::protobuf::Message& message)
{
    google::protobuf::LogSilencer silence;
    google::protobuf::io::ArrayInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
    google::protobuf::io::CodedInputStream coded(&stream);
    coded.SetRecursionLimit(kMaxProtoNesting);
    return message.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
}

Status parseTextOrBinaryProto(const std::string& bytes, const std::string& what, std::string_view typeName,
                              google::protobuf::Message& message, bool* wasText)
{
    const std::string type(typeName);
    if (bytes.empty())
        return invalidArgumentError(what + " is empty: expected a " + type);
    const bool text = looksLikeTextProto(bytes);
    if (wasText)
        *wasText = text;
    if (text) {
        std::string error;
        if (!parseTextProto(bytes, message, &error))
            return invalidArgumentError(what + " is not a text-format " + type + ": " + error);
        return Status::ok();
    }
    if (!parseBinaryProto(bytes, message))
        return dataLossError(what + " is not a valid binary " + type + " (truncated or corrupted, " +
                             std::to_string(bytes.size()) + " bytes)");
    return Status::ok();
}

} // namespace tstudio
