#include "io/parallel_text_parse.h"

#include "io/proto_parse.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <memory>
#include <system_error>
#include <thread>

namespace tstudio {
namespace {

namespace pb = google::protobuf;

/// Swallows a piece's errors: a failed piece sends the whole text to the caller's parse.
class QuietErrors : public pb::io::ErrorCollector {
public:
    void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
};

bool parsePiece(const std::string& text, std::size_t begin, std::size_t end, pb::Message& into)
{
    QuietErrors errors;
    pb::TextFormat::Parser parser = textParser();
    parser.RecordErrorsTo(&errors);
    pb::io::ArrayInputStream stream(text.data() + begin, static_cast<int>(end - begin));
    return parser.Parse(&stream, &into);
}

bool hasTopLevelMap(const pb::Descriptor& type)
{
    for (int i = 0; i < type.field_count(); ++i)
        if (type.field(i)->is_map())
            return true;
    return false;
}

/// Moves `piece` into `message` as if its text came after `message`'s: repeated fields appended in
/// order (message elements moved, not copied). False when a singular or oneof field is set in both,
/// which one parse of the whole text rejects.
bool append(pb::Message& message, pb::Message& piece)
{
    const pb::Reflection* reflection = message.GetReflection();
    std::vector<const pb::FieldDescriptor*> fields;
    reflection->ListFields(piece, &fields);
    for (const pb::FieldDescriptor* field : fields) {
        if (field->is_repeated())
            continue;
        if (reflection->HasField(message, field))
            return false;
        if (const pb::OneofDescriptor* oneof = field->containing_oneof(); oneof && reflection->HasOneof(message, oneof))
            return false;
    }
    for (const pb::FieldDescriptor* field : fields) {
        if (!field->is_repeated() || field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
            continue;
        std::vector<pb::Message*> moved(static_cast<std::size_t>(reflection->FieldSize(piece, field)));
        for (auto it = moved.rbegin(); it != moved.rend(); ++it)
            *it = reflection->ReleaseLast(&piece, field);
        for (pb::Message* m : moved)
            reflection->AddAllocatedMessage(&message, field, m);
    }
    message.MergeFrom(piece); // what is left: singular fields set only here, repeated scalars
    return true;
}

} // namespace

std::vector<std::size_t> topLevelCuts(const std::string& text, int pieces)
{
    std::vector<std::size_t> cuts;
    if (pieces < 2 || text.empty())
        return cuts;
    const std::size_t share = text.size() / static_cast<std::size_t>(pieces);
    std::size_t next = share; // the next cut goes at the first boundary from here
    long depth = 0;
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '"' || c == '\'') {
            // A string: to its closing quote, past escapes (the tokenizer ends one at a line's end too).
            for (++i; i < n && text[i] != c && text[i] != '\n'; ++i)
                if (text[i] == '\\')
                    ++i;
        } else if (c == '#') {
            while (i < n && text[i] != '\n')
                ++i;
        } else if (c == '{' || c == '<') {
            ++depth;
        } else if (c == '}' || c == '>') {
            if (--depth < 0)
                return {}; // unbalanced: let the whole parse report it
            if (depth == 0 && i + 1 >= next && i + 1 < n) {
                cuts.push_back(i + 1);
                if (static_cast<int>(cuts.size()) == pieces - 1)
                    return cuts;
                next = i + 1 + share;
            }
        }
    }
    return cuts;
}

bool parseTextInParallel(const std::string& text, pb::Message& message, int threads)
{
    message.Clear();
    const int pieces = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)),
                                                              text.size() / kParallelTextPieceBytes));
    if (pieces < 2 || hasTopLevelMap(*message.GetDescriptor()))
        return false;
    const std::vector<std::size_t> cuts = topLevelCuts(text, pieces);
    if (cuts.empty())
        return false;
    std::vector<std::size_t> bounds{0};
    bounds.insert(bounds.end(), cuts.begin(), cuts.end());
    bounds.push_back(text.size());
    const std::size_t count = bounds.size() - 1;
    std::vector<std::unique_ptr<pb::Message>> parts(count);
    std::vector<char> ok(count, 0);
    std::vector<std::thread> workers;
    for (std::size_t k = 1; k < count; ++k) {
        parts[k].reset(message.New());
        try {
            workers.emplace_back([&, k] { ok[k] = parsePiece(text, bounds[k], bounds[k + 1], *parts[k]); });
        } catch (const std::system_error&) {
            break; // no thread to be had: the pieces without one stay unparsed, and the whole parse runs
        }
    }
    ok[0] = parsePiece(text, bounds[0], bounds[1], message);
    for (std::thread& t : workers)
        t.join();
    bool all = std::all_of(ok.begin(), ok.end(), [](char v) { return v != 0; });
    for (std::size_t k = 1; all && k < count; ++k)
        all = append(message, *parts[k]);
    if (!all)
        message.Clear();
    return all;
}

} // namespace tstudio
