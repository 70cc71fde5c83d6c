// GraphDef files: format by content, protobuf parsing with located errors, atomic writes.
#include "io/formats/graph_def_io.h"

#include "io/atomic_file.h"
#include "io/proto_parse.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

namespace tstudio {

Expected<tensorflow::GraphDef> parseGraphDef(const std::string& bytes, const std::string& what,
                                             GraphDefFormat* formatOut)
{
    tensorflow::GraphDef graph;
    bool text = false;
    if (Status status = parseTextOrBinaryProto(bytes, what, "GraphDef", graph, &text); !status.isOk())
        return unexpected(std::move(status));
    if (formatOut)
        *formatOut = text ? GraphDefFormat::kText : GraphDefFormat::kBinary;
    return graph;
}

Expected<tensorflow::GraphDef> readGraphDef(const std::filesystem::path& path, GraphDefFormat* formatOut)
{
    auto bytes = readWholeFile(path, kMaxProtoMessageBytes);
    if (!bytes)
        return unexpected(bytes.error());
    return parseGraphDef(*bytes, "file '" + path.string() + "'", formatOut);
}

Expected<std::string> serializeGraphDef(const tensorflow::GraphDef& graph, GraphDefFormat format)
{
    std::string out;
    if (format == GraphDefFormat::kText) {
        google::protobuf::TextFormat::Printer printer;
        if (!printer.PrintToString(graph, &out))
            return unexpected(internalError("cannot print GraphDef as text"));
        return out;
    }
    if (graph.ByteSizeLong() > kMaxProtoMessageBytes)
        return unexpected(resourceExhaustedError("GraphDef of " + std::to_string(graph.ByteSizeLong()) +
                                                 " bytes exceeds protobuf's 2 GiB limit"));
    google::protobuf::io::StringOutputStream stream(&out);
    {
        google::protobuf::io::CodedOutputStream coded(&stream);
        coded.SetSerializationDeterministic(true);
        if (!graph.SerializeToCodedStream(&coded))
            return unexpected(internalError("cannot serialise GraphDef"));
    }
    return out;
}

Status writeGraphDef(const std::filesystem::path& path, const tensorflow::GraphDef& graph, GraphDefFormat format)
{
    auto bytes = serializeGraphDef(graph, format);
    if (!bytes)
        return bytes.error();
    return writeFileAtomically(path, *bytes);
}

} // namespace tstudio
