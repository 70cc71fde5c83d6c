#include "profile_json.h"

#include "profiler/model_parameters.h"
#include "core/try.h"
#include "profiler/profile_tables.h"

#include <string>

namespace tstudio::cli {
namespace {

using profiler::ProfileRow;
using profiler::ProfileStats;
using profiler::ProfileTable;

nlohmann::ordered_json statsJson(const ProfileStats& s)
{
    nlohmann::ordered_json out;
    out["runs"] = s.runs;
    out["nodes"] = s.nodes;
    out["time_ns"] = s.execNs;
    out["accelerator_ns"] = s.acceleratorNs;
    out["cpu_ns"] = s.cpuNs;
    out["requested_bytes"] = s.requestedBytes;
    out["peak_bytes"] = s.peakBytes;
    out["residual_bytes"] = s.residualBytes;
    out["output_bytes"] = s.outputBytes;
    out["float_ops"] = s.floatOps;
    out["parameters"] = s.parameters;
    return out;
}

nlohmann::ordered_json deviceNames(const ProfileTable& table, const ProfileRow& row)
{
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (std::uint32_t d : row.devices)
        names.push_back(table.devices[d]);
    return names;
}

/// The scope rows `level` and, depth first, their children (iterative: a deep scope tree must not
/// exhaust the stack).
nlohmann::ordered_json scopeTree(const ProfileTable& table, const std::vector<std::uint32_t>& level)
{
    struct Pending {
        const std::vector<std::uint32_t>* rows;
        std::size_t next;
        nlohmann::ordered_json list;
    };
    std::vector<Pending> stack;
    stack.push_back({&level, 0, nlohmann::ordered_json::array()});
    while (true) {
        Pending& top = stack.back();
        if (top.next < top.rows->size()) {
            const ProfileRow& row = table.rows[(*top.rows)[top.next++]];
            stack.push_back({&row.children, 0, nlohmann::ordered_json::array()});
            continue;
        }
        nlohmann::ordered_json children = std::move(top.list);
        stack.pop_back();
        if (stack.empty())
            return children;
        Pending& parent = stack.back();
        const ProfileRow& row = table.rows[(*parent.rows)[parent.next - 1]];
        nlohmann::ordered_json j;
        j["name"] = row.name;
        j["op_type"] = row.opType;
        j["devices"] = deviceNames(table, row);
        j["float_ops_incomplete"] = row.floatOpsIncomplete;
        j["self"] = statsJson(row.self);
        j["total"] = statsJson(row.total);
        j["children"] = std::move(children);
        parent.list.push_back(std::move(j));
    }
}

} // namespace

Expected<nlohmann::ordered_json> profileSummaryJson(const profiler::ProfileTrace& trace,
                                                   const profiler::ProfileSummaryOptions& options)
{
    profiler::ProfileTableOptions tableOptions;
    tableOptions.step = options.step;
    tableOptions.graph = options.graph;
    tableOptions.trainableVariables = options.trainableVariables;
    tableOptions.opLog = options.opLog;
    TSTUDIO_TRY(ops, profiler::buildProfileTable(trace, profiler::ProfileView::ByOpType, tableOptions));
    TSTUDIO_TRY(scopes, profiler::buildProfileTable(trace, profiler::ProfileView::ByScope, tableOptions));
    profiler::sortProfileTable(ops, profiler::ProfileColumn::Time, true);
    profiler::sortProfileTable(scopes, profiler::ProfileColumn::Time, true);

    nlohmann::ordered_json out;
    out["steps"] = trace.steps.size();
    out["step"] = options.step >= 0 ? nlohmann::ordered_json(trace.steps[std::size_t(options.step)].number) : nullptr;
    out["steps_counted"] = ops.stepsCounted;
    out["events"] = trace.events.size();
    nlohmann::ordered_json devices = nlohmann::ordered_json::array();
    for (const profiler::TraceDevice& d : trace.devices)
        devices.push_back({{"name", d.name}, {"type", d.type}});
    out["devices"] = std::move(devices);
    nlohmann::ordered_json opTypes = nlohmann::ordered_json::array();
    for (std::uint32_t i : ops.roots) {
        const ProfileRow& row = ops.rows[i];
        nlohmann::ordered_json j;
        j["op_type"] = row.name;
        j["devices"] = deviceNames(ops, row);
        j["float_ops_incomplete"] = row.floatOpsIncomplete;
        // Kept in a variable: items() refers to the object, which a temporary would not outlive.
        const nlohmann::ordered_json stats = statsJson(row.total);
        for (const auto& [key, value] : stats.items())
            j[key] = value;
        opTypes.push_back(std::move(j));
    }
    out["op_types"] = std::move(opTypes);
    out["scopes"] = scopeTree(scopes, scopes.roots);
    out["total"] = statsJson(ops.total);
    out["float_ops_incomplete_nodes"] = ops.floatOpsIncompleteNodes;
    if (options.graph) {
        profiler::ModelParametersOptions parameterOptions;
        parameterOptions.trainableVariables = options.trainableVariables;
        const profiler::ModelParameters parameters = profiler::modelParameters(*options.graph, parameterOptions);
        nlohmann::ordered_json p;
        p["total"] = parameters.total;
        p["rule"] = parameters.rule == profiler::ParameterRule::TrainableCollection ? "trainable_variables"
                                                                                    : "all variables but slots and locals";
        p["complete"] = parameters.complete;
        nlohmann::ordered_json variables = nlohmann::ordered_json::array();
        for (const profiler::VariableParameters& v : parameters.variables) {
            nlohmann::ordered_json var;
            var["name"] = v.name;
            var["op"] = v.op;
            var["shape"] = v.shape;
            var["parameters"] = v.parameters;
            var["counted"] = v.counted;
            var["excluded_because"] = v.excludedBecause;
            variables.push_back(std::move(var));
        }
        p["variables"] = std::move(variables);
        out["parameters"] = std::move(p);
    } else {
        out["parameters"] = nullptr;
    }
    return out;
}

} // namespace tstudio::cli
