// tfprof's OpLogProto: the extra facts tf.profiler.write_op_log records per op (float operations,
// extra op types such as "_trainable_variables") written from a trace, and read to complete a
// profile as tfprof's op_log_path does (Qt-free).
#pragma once

#include "core/expected.h"
#include "profiler/profile_trace.h"
#include "proto/tfprof_log.pb.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::profiler {

/// The op type tfprof's logger gives every trainable variable; the parameter count uses it.
inline constexpr const char* kTrainableVariablesType = "_trainable_variables";

/// An OpLogProto's entries by node name.
struct OpLog {
    /// Float operations of one execution (entries with float_ops > 0).
    std::map<std::string, std::int64_t> floatOps;
    /// Extra op types (OpLogEntry.types), in file order.
    std::map<std::string, std::vector<std::string>> types;
};

/// The OpLogProto write_op_log would write for the traced graph: an entry for every node with
/// float operations (one execution's, by the float-op rules on the trace's shapes) and for every
/// variable counted as a parameter (type "_trainable_variables"), sorted by name. `graph` (may be
/// null) gives attrs, unexecuted nodes and the variables; code traces are not recorded (a graph
/// built here has no Python call stacks).
tensorflow::tfprof::OpLogProto opLogFromTrace(const ProfileTrace& trace, const tensorflow::GraphDef* graph,
                                              const std::optional<std::vector<std::string>>& trainableVariables = {});

/// opLogFromTrace serialized to `path` atomically (TensorFlow names the file "tfprof_log").
Status writeOpLog(const ProfileTrace& trace, const tensorflow::GraphDef* graph, const std::filesystem::path& path);

/// The nodes the log types "_trainable_variables" (tfprof counts their parameters), nullopt when none.
std::optional<std::vector<std::string>> trainableVariablesOf(const OpLog& log);

/// Reads a binary OpLogProto. NotFound, or InvalidArgument naming the file when it does not parse
/// or an entry has no name.
Expected<OpLog> readOpLog(const std::filesystem::path& path);

/// The entries of `proto` by name; InvalidArgument naming `what` for an entry without a name.
Expected<OpLog> opLogFromProto(const tensorflow::tfprof::OpLogProto& proto, const std::string& what);

} // namespace tstudio::profiler
