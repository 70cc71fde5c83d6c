// tfprof's OpLogProto: written from a trace's float operations and parameters, read by name.
#include "profiler/tfprof_op_log.h"

#include "io/atomic_file.h"
#include "profiler/model_parameters.h"
#include "profiler/profile_tables.h"
#include "proto/graph.pb.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace tstudio::profiler {

tensorflow::tfprof::OpLogProto opLogFromTrace(const ProfileTrace& trace, const tensorflow::GraphDef* graph,
                                              const std::optional<std::vector<std::string>>& trainableVariables)
{
    std::map<std::string, tensorflow::tfprof::OpLogEntry> entries;
    ProfileTableOptions options;
    options.graph = graph;
    options.trainableVariables = trainableVariables;
    if (auto table = buildProfileTable(trace, ProfileView::ByNode, options))
        for (const ProfileRow& row : table->rows)
            if (row.self.floatOps > 0) {
                auto& entry = entries[row.name];
                entry.set_name(row.name);
                entry.set_float_ops(row.self.floatOps / std::max<std::int64_t>(1, row.self.runs));
            }
    if (graph) {
        ModelParametersOptions parameterOptions;
        parameterOptions.trainableVariables = trainableVariables;
        for (const VariableParameters& v : modelParameters(*graph, parameterOptions).variables)
            if (v.counted) {
                auto& entry = entries[v.name];
                entry.set_name(v.name);
                entry.add_types(kTrainableVariablesType);
            }
    }
    tensorflow::tfprof::OpLogProto proto;
    for (auto& [name, entry] : entries)
        *proto.add_log_entries() = std::move(entry);
    return proto;
}

Status writeOpLog(const ProfileTrace& trace, const tensorflow::GraphDef* graph, const std::filesystem::path& path)
{
    std::string bytes;
    if (!opLogFromTrace(trace, graph).SerializeToString(&bytes))
        return internalError("the OpLogProto could not be serialized");
    return writeFileAtomically(path, bytes);
}

Expected<OpLog> opLogFromProto(const tensorflow::tfprof::OpLogProto& proto, const std::string& what)
{
    OpLog log;
    for (int i = 0; i < proto.log_entries_size(); ++i) {
        const auto& entry = proto.log_entries(i);
        if (entry.name().empty())
            return unexpected(invalidArgumentError(what + ": OpLogProto entry " + std::to_string(i) + " has no name"));
        if (entry.float_ops() > 0)
            log.floatOps[entry.name()] = entry.float_ops();
        if (entry.types_size() > 0) {
            auto& types = log.types[entry.name()];
            types.insert(types.end(), entry.types().begin(), entry.types().end());
        }
    }
    return log;
}

std::optional<std::vector<std::string>> trainableVariablesOf(const OpLog& log)
{
    std::vector<std::string> trainable;
    for (const auto& [name, types] : log.types)
        if (std::find(types.begin(), types.end(), kTrainableVariablesType) != types.end())
            trainable.push_back(name);
    if (trainable.empty())
        return std::nullopt;
    return trainable;
}

Expected<OpLog> readOpLog(const std::filesystem::path& path)
{
    const std::string what = "op log '" + path.string() + "'";
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unexpected(notFoundError(what + " cannot be opened"));
    std::stringstream bytes;
    bytes << in.rdbuf();
    tensorflow::tfprof::OpLogProto proto;
    if (!proto.ParseFromString(bytes.str()))
        return unexpected(invalidArgumentError(what + " is not a binary OpLogProto (tf.profiler.write_op_log's "
                                                      "tfprof_log)"));
    return opLogFromProto(proto, what);
}

} // namespace tstudio::profiler
