// ProfileTable: tfprof's aggregated views of a trace (by op type, by name scope, by graph node) with
// time, memory, float operations and parameters; filtering, sorting and CSV (Qt-free).
#pragma once

#include "core/expected.h"
#include "profiler/profile_trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::profiler {

struct OpLog;

/// tfprof's "op", "scope" and "graph" views.
enum class ProfileView { ByOpType, ByScope, ByNode };

/// The quantities of a row, per step (see ProfileTableOptions::step).
///
/// Time follows tfprof: records on a device whose name holds "stream:all" are accelerator time;
/// records on a canonical device (".../device:CPU:0", ".../device:GPU:0", or an imported process that
/// names no device) are CPU time (for a GPU: scheduling), count one run each and carry the memory; per
/// stream records (".../stream:7") count as accelerator time only where their GPU has no "stream:all"
/// device, and copies (".../memcpy") not at all. Unlike tfprof, a GPU device whose work has no stream
/// device at all (our own GPU runs) counts its records as accelerator time, and times stay in ns.
struct ProfileStats {
    std::int64_t runs = 0;   ///< executions (tfprof's run_count, "occurrence")
    std::int64_t nodes = 0;  ///< graph nodes defined under the row (op view: of the type)
    std::int64_t execNs = 0; ///< accelerator + CPU
    std::int64_t acceleratorNs = 0;
    std::int64_t cpuNs = 0;
    std::int64_t requestedBytes = 0; ///< NodeExecStats.memory total_bytes
    std::int64_t peakBytes = 0;
    std::int64_t residualBytes = 0; ///< live_bytes: what stayed allocated after the node
    std::int64_t outputBytes = 0;
    std::int64_t floatOps = 0;
    std::int64_t parameters = 0;
};

/// One row: an op type, a name scope (tree) or a graph node.
struct ProfileRow {
    /// The op type (op view), the full node or scope name ("layer1/weights") otherwise.
    std::string name;
    /// The node's op type (scope and node views; "" for a scope that is not a node).
    std::string opType;
    /// The row itself: a node's own numbers; in the op view the type's sum over its nodes.
    ProfileStats self;
    /// With descendants (scope view: self + children's totals); equal to `self` in the flat views.
    ProfileStats total;
    /// Some execution counted in `total` has a float-op rule but unknown shapes or attrs (its ops are 0).
    bool floatOpsIncomplete = false;
    /// Devices (indices into ProfileTable::devices) the row's records ran on, ascending.
    std::vector<std::uint32_t> devices;
    /// Op types an op log gives the node besides opType (account_type_regexes match them too).
    std::vector<std::string> extraTypes;
    /// The trace node (node and scope views), kNoIndex for op rows, pure scopes and graph-only nodes.
    std::uint32_t node = kNoIndex;
    /// Scope tree: parent row (kNoIndex at the top), children in display order, depth (0 at the top).
    std::uint32_t parent = kNoIndex;
    std::vector<std::uint32_t> children;
    std::int32_t depth = 0;
};

struct ProfileTable {
    ProfileView view = ProfileView::ByNode;
    std::vector<ProfileRow> rows;
    /// Top-level rows in display order (all rows in the flat views).
    std::vector<std::uint32_t> roots;
    /// tfprof's root (_TFProfRoot): everything the view holds, before any filter.
    ProfileStats total;
    /// The trace's device names, for ProfileRow::devices.
    std::vector<std::string> devices;
    /// The step shown (index into ProfileTrace::steps) or -1 for the average over steps.
    int step = -1;
    /// Steps the numbers cover (1 for one step).
    std::size_t stepsCounted = 0;
    /// Nodes whose float operations could not be counted for unknown shapes or attrs.
    std::int64_t floatOpsIncompleteNodes = 0;
    /// Parameters: "trainable_variables", "all variables but slots and locals", or "" without a graph.
    std::string parameterRule;
};

struct ProfileTableOptions {
    /// -1: every step, each node's numbers averaged over the steps it ran in (tfprof's default,
    /// integer division per quantity); else one step's index into ProfileTrace::steps.
    int step = -1;
    /// The graph, when known: attrs for the float-op rules (ksize, strides, data_format), `_output_shapes`
    /// where the trace has no shapes, the variables' parameters, and the nodes that did not run (rows
    /// with zeros, as tfprof lists every graph node). Not owned; may be null.
    const tensorflow::GraphDef* graph = nullptr;
    /// The trainable_variables collection (see model_parameters.h); without it the fallback rule,
    /// or the op log's "_trainable_variables" nodes when it has some.
    std::optional<std::vector<std::string>> trainableVariables;
    /// tfprof's op log (tfprof_op_log.h), as its op_log_path: a node's float_ops replace what the
    /// rules count (times its runs; once for a node that did not run), and its types become the
    /// row's extraTypes. Not owned; may be null.
    const OpLog* opLog = nullptr;
};

/// Builds one view. A node's input shapes are its producers' output shapes in the same step (the
/// producer's latest execution that started before it, else its first); float operations are counted
/// per execution (float_ops.h) on canonical devices. Rows start sorted by name (scope children too).
/// InvalidArgument when options.step is not a step of the trace. About a second for a million events.
Expected<ProfileTable> buildProfileTable(const ProfileTrace& trace, ProfileView view,
                                         const ProfileTableOptions& options = {});

/// The columns rows can be sorted by and that CSV and views show.
enum class ProfileColumn {
    Name,
    OpType,
    Runs,
    Nodes,
    Time,
    AcceleratorTime,
    CpuTime,
    RequestedBytes,
    PeakBytes,
    ResidualBytes,
    OutputBytes,
    FloatOps,
    Parameters,
    Devices
};

/// A row's value for a numeric column from `self` or `total` (Name, OpType and Devices give 0).
std::int64_t profileValue(const ProfileRow& row, ProfileColumn column, bool self = false);

/// Sorts the roots and every children list by `column` (numbers by their total, or self when `self`;
/// text by byte order), ties by name. Stable for equal keys.
void sortProfileTable(ProfileTable& table, ProfileColumn column, bool descending, bool self = false);

/// What filterProfileTable keeps. Thresholds compare a row's totals (what the views show).
struct ProfileFilter {
    /// ECMAScript regex searched anywhere in the row's name ("" keeps every row).
    std::string nameRegex;
    /// When set, decides the name match instead of nameRegex (the GUI passes QRegularExpression, whose
    /// PCRE2 matcher has backtracking limits).
    std::function<bool(const std::string& name)> nameMatches;
    /// Rows deeper than this in the scope tree (0: the top level only) are not shown, as tfprof's
    /// max_depth (which counts its root as 1); -1: no limit.
    int maxDepth = -1;
    /// ECMAScript regex matched against the whole name: matching rows are not shown and their shown
    /// descendants take their place one level up, as tfprof's hide_name_regexes ("" hides nothing).
    std::string hideRegex;
    /// When set, decides what hideRegex decides (the GUI's QRegularExpression).
    std::function<bool(const std::string& name)> hideMatches;
    std::int64_t minTimeNs = 0;
    std::int64_t minRequestedBytes = 0;
    std::int64_t minFloatOps = 0;
    std::int64_t minParameters = 0;
    std::int64_t minRuns = 0;
};

/// The rows that pass the thresholds and match the regex, or that pass the thresholds and have a kept
/// descendant (a scope stays as the path to what matched), within maxDepth and not hidden (a hidden
/// row's kept descendants move up to its parent, their depth with them). Order, totals and `total`
/// are kept (rows not shown still count in their parents, as tfprof accounts them). InvalidArgument
/// for a bad regex.
Expected<ProfileTable> filterProfileTable(const ProfileTable& table, const ProfileFilter& filter);

/// The rows in display order (depth first) as CSV (RFC 4180: CRLF lines, fields with a comma, quote or
/// line break quoted, quotes doubled): name, op_type, depth, then for each quantity the total and the
/// self value (times in ns, bytes, float ops), float_ops_incomplete and the devices joined with '|'.
std::string profileTableCsv(const ProfileTable& table);

/// The rows in display order (depth first), as indices.
std::vector<std::uint32_t> profileRowsInOrder(const ProfileTable& table);

} // namespace tstudio::profiler
