// formatProfileSummary: fixed-width text tables over the op-type and scope views.
#include "profiler/profile_summary.h"

#include "profiler/tfprof_op_log.h"

#include "profiler/model_parameters.h"
#include "proto/graph.pb.h"

#include <algorithm>
#include <cstdio>

namespace tstudio::profiler {
namespace {

std::string printf2(const char* format, double value)
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

/// `text` cut to `width` (keeping its end, where a name is most specific) and padded.
std::string cell(const std::string& text, std::size_t width, bool right)
{
    std::string t = text.size() <= width ? text : "..." + text.substr(text.size() - (width - 3));
    const std::string pad(width - t.size(), ' ');
    return right ? pad + t : t + pad;
}

std::string lastComponent(const std::string& name)
{
    const std::size_t slash = name.rfind('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

bool hasContent(const ProfileStats& s)
{
    return s.execNs > 0 || s.requestedBytes > 0 || s.floatOps > 0 || s.parameters > 0;
}

void opTable(const ProfileTable& table, const ProfileSummaryOptions& options, std::string& out)
{
    out += "Op types, by time\n";
    out += cell("op type", 22, false) + " " + cell("runs|nodes", 10, true) + " " + cell("time", 8, true) + " " +
           cell("accel.", 8, true) + " " + cell("cpu", 8, true) + " " + cell("requested", 9, true) + " " +
           cell("peak", 8, true) + " " + cell("float ops", 9, true) + " " + cell("params", 8, true) + "\n";
    std::size_t shown = 0;
    ProfileStats rest;
    std::size_t restCount = 0;
    for (std::uint32_t index : table.roots) {
        const ProfileRow& row = table.rows[index];
        if (shown >= options.maxOpTypes) {
            rest.execNs += row.total.execNs;
            ++restCount;
            continue;
        }
        ++shown;
        const std::string runs = std::to_string(row.total.runs) + "|" + std::to_string(row.total.nodes);
        out += cell(row.name, 22, false) + " " + cell(runs, 10, true) + " " +
               cell(formatProfileTime(row.total.execNs), 8, true) + " " +
               cell(formatProfileTime(row.total.acceleratorNs), 8, true) + " " +
               cell(formatProfileTime(row.total.cpuNs), 8, true) + " " +
               cell(formatProfileBytes(row.total.requestedBytes), 9, true) + " " +
               cell(formatProfileBytes(row.total.peakBytes), 8, true) + " " +
               cell(formatProfileNumber(row.total.floatOps) + (row.floatOpsIncomplete ? "*" : ""), 9, true) + " " +
               cell(formatProfileNumber(row.total.parameters), 8, true) + "\n";
    }
    if (restCount > 0)
        out += "(" + std::to_string(restCount) + " more op types, " + formatProfileTime(rest.execNs) + " in all)\n";
}

void scopeRows(const ProfileTable& table, const std::vector<std::uint32_t>& level, int depth,
               const ProfileSummaryOptions& options, std::size_t& shown, std::size_t& hidden, std::string& out)
{
    for (std::uint32_t index : level) {
        const ProfileRow& row = table.rows[index];
        if (!hasContent(row.total))
            continue;
        if (shown >= options.maxScopeRows) {
            ++hidden;
            continue;
        }
        ++shown;
        // Indented by level; a long name is cut at its start, never the indentation.
        const std::size_t indent = std::min<std::size_t>(std::size_t(depth) * 2, 20);
        out += std::string(indent, ' ') + cell(lastComponent(row.name), 34 - indent, false) + " " +
               cell(std::to_string(row.total.runs), 6, true) + " " +
               cell(formatProfileTime(row.total.execNs), 8, true) + " " +
               cell(formatProfileTime(row.self.execNs), 8, true) + " " +
               cell(formatProfileBytes(row.total.requestedBytes), 9, true) + " " +
               cell(formatProfileNumber(row.total.floatOps) + (row.floatOpsIncomplete ? "*" : ""), 9, true) + " " +
               cell(formatProfileNumber(row.total.parameters), 8, true) + "\n";
        if (depth < options.maxScopeDepth)
            scopeRows(table, row.children, depth + 1, options, shown, hidden, out);
        else
            for (std::uint32_t child : row.children)
                hidden += hasContent(table.rows[child].total) ? 1 : 0;
    }
}

} // namespace

std::string formatProfileTime(std::int64_t ns)
{
    if (ns < 1000)
        return std::to_string(ns) + "ns";
    if (ns < 1'000'000'000LL)
        return ns < 1'000'000 ? std::to_string(ns / 1000) + "us" : printf2("%.2fms", double(ns) / 1e6);
    return printf2("%.2fsec", double(ns) / 1e9);
}

std::string formatProfileBytes(std::int64_t bytes)
{
    if (bytes < 1000)
        return std::to_string(bytes) + "B";
    if (bytes < 1'000'000)
        return printf2("%.2fKB", double(bytes) / 1e3);
    return printf2("%.2fMB", double(bytes) / 1e6);
}

std::string formatProfileNumber(std::int64_t n)
{
    if (n < 1000)
        return std::to_string(n);
    if (n < 1'000'000)
        return printf2("%.2fk", double(n) / 1e3);
    if (n < 1'000'000'000LL)
        return printf2("%.2fm", double(n) / 1e6);
    return printf2("%.2fb", double(n) / 1e9);
}

std::string formatProfileGrouped(std::int64_t n)
{
    const std::uint64_t magnitude = n < 0 ? std::uint64_t(0) - std::uint64_t(n) : std::uint64_t(n);
    const std::string digits = std::to_string(magnitude);
    std::string out = n < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

Expected<std::string> formatProfileSummary(const ProfileTrace& trace, const ProfileSummaryOptions& options)
{
    ProfileTableOptions tableOptions;
    tableOptions.step = options.step;
    tableOptions.graph = options.graph;
    tableOptions.trainableVariables = options.trainableVariables;
    tableOptions.opLog = options.opLog;
    auto ops = buildProfileTable(trace, ProfileView::ByOpType, tableOptions);
    if (!ops)
        return unexpected(ops.error());
    auto scopes = buildProfileTable(trace, ProfileView::ByScope, tableOptions);
    if (!scopes)
        return unexpected(scopes.error());
    sortProfileTable(*ops, ProfileColumn::Time, true);
    sortProfileTable(*scopes, ProfileColumn::Time, true);

    std::string out = "Profile of ";
    if (options.step >= 0)
        out += "step " + std::to_string(trace.steps[std::size_t(options.step)].number);
    else
        out += std::to_string(ops->stepsCounted) + (ops->stepsCounted == 1 ? " step" : " steps, averaged per step");
    out += ": " + std::to_string(trace.events.size()) + " events on " + std::to_string(trace.devices.size()) +
           (trace.devices.size() == 1 ? " device" : " devices") + "\n";
    out += "time = accelerator + CPU time; requested and peak are bytes; * = some shapes unknown\n\n";
    opTable(*ops, options, out);

    out += "\nName scopes, by time (self time of the node itself)\n";
    out += cell("scope", 34, false) + " " + cell("runs", 6, true) + " " + cell("time", 8, true) + " " +
           cell("self", 8, true) + " " + cell("requested", 9, true) + " " + cell("float ops", 9, true) + " " +
           cell("params", 8, true) + "\n";
    std::size_t shown = 0, hidden = 0;
    scopeRows(*scopes, scopes->roots, 0, options, shown, hidden, out);
    if (hidden > 0)
        out += "(" + std::to_string(hidden) + " more scopes not shown)\n";

    const ProfileStats& total = ops->total;
    out += "\nTotal time: " + formatProfileTime(total.execNs) + " (accelerator " +
           formatProfileTime(total.acceleratorNs) + ", CPU " + formatProfileTime(total.cpuNs) + ")\n";
    out += "Total float operations: " + formatProfileGrouped(total.floatOps) + " (" +
           formatProfileNumber(total.floatOps) + ")";
    if (ops->floatOpsIncompleteNodes > 0)
        out += "; " + std::to_string(ops->floatOpsIncompleteNodes) + " nodes not counted for unknown shapes";
    out += "\n";
    if (options.graph) {
        ModelParametersOptions parameterOptions;
        parameterOptions.trainableVariables = options.trainableVariables;
        if (!parameterOptions.trainableVariables && options.opLog)
            parameterOptions.trainableVariables = trainableVariablesOf(*options.opLog);
        const ModelParameters parameters = modelParameters(*options.graph, parameterOptions);
        std::size_t counted = 0;
        for (const VariableParameters& v : parameters.variables)
            counted += v.counted ? 1 : 0;
        out += "Total parameters: " + formatProfileGrouped(parameters.total) + " (" +
               formatProfileNumber(parameters.total) + ") in " + std::to_string(counted) + " variables, " +
               (parameters.rule == ParameterRule::TrainableCollection ? "the trainable_variables collection"
                                                                      : "all variables but slots and locals") +
               (parameters.complete ? "" : "; some shapes unknown") + "\n";
    } else {
        out += "Total parameters: unknown (no graph)\n";
    }
    return out;
}

} // namespace tstudio::profiler
