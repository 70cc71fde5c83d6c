// What is done to a built ProfileTable: sorting by a column, filtering by name and thresholds, CSV.
#include "profiler/profile_tables.h"

#include <algorithm>
#include <optional>
#include <regex>

namespace tstudio::profiler {
namespace {

bool isText(ProfileColumn column)
{
    return column == ProfileColumn::Name || column == ProfileColumn::OpType || column == ProfileColumn::Devices;
}

std::string devicesText(const ProfileTable& table, const ProfileRow& row)
{
    std::string out;
    for (std::uint32_t d : row.devices) {
        if (!out.empty())
            out += '|';
        out += d < table.devices.size() ? table.devices[d] : std::string("?");
    }
    return out;
}

std::string textOf(const ProfileTable& table, const ProfileRow& row, ProfileColumn column)
{
    switch (column) {
    case ProfileColumn::OpType: return row.opType;
    case ProfileColumn::Devices: return devicesText(table, row);
    default: return row.name;
    }
}

void appendCsvField(std::string& out, const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

} // namespace

std::int64_t profileValue(const ProfileRow& row, ProfileColumn column, bool self)
{
    const ProfileStats& s = self ? row.self : row.total;
    switch (column) {
    case ProfileColumn::Runs: return s.runs;
    case ProfileColumn::Nodes: return s.nodes;
    case ProfileColumn::Time: return s.execNs;
    case ProfileColumn::AcceleratorTime: return s.acceleratorNs;
    case ProfileColumn::CpuTime: return s.cpuNs;
    case ProfileColumn::RequestedBytes: return s.requestedBytes;
    case ProfileColumn::PeakBytes: return s.peakBytes;
    case ProfileColumn::ResidualBytes: return s.residualBytes;
    case ProfileColumn::OutputBytes: return s.outputBytes;
    case ProfileColumn::FloatOps: return s.floatOps;
    case ProfileColumn::Parameters: return s.parameters;
    case ProfileColumn::Name:
    case ProfileColumn::OpType:
    case ProfileColumn::Devices: break;
    }
    return 0;
}

void sortProfileTable(ProfileTable& table, ProfileColumn column, bool descending, bool self)
{
    const std::vector<ProfileRow>& rows = table.rows;
    std::vector<std::string> texts;
    if (isText(column) && column != ProfileColumn::Name) {
        texts.reserve(rows.size());
        for (const ProfileRow& row : rows)
            texts.push_back(textOf(table, row, column));
    }
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        if (column == ProfileColumn::Name)
            return descending ? rows[b].name < rows[a].name : rows[a].name < rows[b].name;
        if (isText(column)) {
            if (texts[a] != texts[b])
                return descending ? texts[b] < texts[a] : texts[a] < texts[b];
        } else {
            const std::int64_t va = profileValue(rows[a], column, self);
            const std::int64_t vb = profileValue(rows[b], column, self);
            if (va != vb)
                return descending ? vb < va : va < vb;
        }
        return rows[a].name < rows[b].name;
    };
    std::stable_sort(table.roots.begin(), table.roots.end(), less);
    for (ProfileRow& row : table.rows)
        std::stable_sort(row.children.begin(), row.children.end(), less);
}

Expected<ProfileTable> filterProfileTable(const ProfileTable& table, const ProfileFilter& filter)
{
    auto compile = [](const std::string& pattern) -> Expected<std::optional<std::regex>> {
        if (pattern.empty())
            return std::optional<std::regex>();
        try {
            return std::optional<std::regex>(std::regex(pattern, std::regex::ECMAScript | std::regex::optimize));
        } catch (const std::regex_error& e) {
            return unexpected(invalidArgumentError("profile filter: '" + pattern +
                                                   "' is not a valid regular expression (" + e.what() + ")"));
        }
    };
    auto regex = compile(filter.nameMatches ? std::string() : filter.nameRegex);
    if (!regex)
        return unexpected(regex.error());
    auto hideRegex = compile(filter.hideMatches ? std::string() : filter.hideRegex); // whole names: regex_match
    if (!hideRegex)
        return unexpected(hideRegex.error());
    auto passes = [&](const ProfileRow& row) {
        return row.total.execNs >= filter.minTimeNs && row.total.requestedBytes >= filter.minRequestedBytes &&
               row.total.floatOps >= filter.minFloatOps && row.total.parameters >= filter.minParameters &&
               row.total.runs >= filter.minRuns && (filter.maxDepth < 0 || row.depth <= filter.maxDepth);
    };
    auto hidden = [&](const ProfileRow& row) {
        return filter.hideMatches ? filter.hideMatches(row.name)
                                  : *hideRegex && std::regex_match(row.name, **hideRegex);
    };
    // keep[i]: the row is shown: it passes, is not hidden, and it or a descendant matches. through[i]:
    // a hidden row that passes, whose shown descendants take its place. Children before parents.
    std::vector<char> keep(table.rows.size(), 0);
    std::vector<char> through(table.rows.size(), 0);
    std::vector<std::uint32_t> order = profileRowsInOrder(table);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const ProfileRow& row = table.rows[*it];
        if (!passes(row))
            continue;
        bool below = false;
        for (std::size_t c = 0; !below && c < row.children.size(); ++c)
            below = keep[row.children[c]] != 0 || through[row.children[c]] != 0;
        if (hidden(row)) {
            through[*it] = below ? 1 : 0;
            continue;
        }
        const bool matched =
            filter.nameMatches ? filter.nameMatches(row.name) : !*regex || std::regex_search(row.name, **regex);
        keep[*it] = matched || below ? 1 : 0;
    }
    ProfileTable out;
    out.view = table.view;
    out.total = table.total;
    out.devices = table.devices;
    out.step = table.step;
    out.stepsCounted = table.stepsCounted;
    out.floatOpsIncompleteNodes = table.floatOpsIncompleteNodes;
    out.parameterRule = table.parameterRule;
    std::vector<std::uint32_t> newIndex(table.rows.size(), kNoIndex);
    for (std::uint32_t old : order) {
        if (!keep[old])
            continue;
        // The nearest shown ancestor (a hidden one's place goes to its shown descendants).
        std::uint32_t parent = table.rows[old].parent;
        while (parent != kNoIndex && newIndex[parent] == kNoIndex)
            parent = table.rows[parent].parent;
        const auto index = static_cast<std::uint32_t>(out.rows.size());
        newIndex[old] = index;
        out.rows.push_back(table.rows[old]);
        ProfileRow& row = out.rows.back();
        row.children.clear();
        row.parent = parent == kNoIndex ? kNoIndex : newIndex[parent];
        if (row.parent == kNoIndex) {
            row.depth = 0;
            out.roots.push_back(index);
        } else {
            row.depth = out.rows[row.parent].depth + 1;
            out.rows[row.parent].children.push_back(index);
        }
    }
    return out;
}

std::vector<std::uint32_t> profileRowsInOrder(const ProfileTable& table)
{
    std::vector<std::uint32_t> order;
    order.reserve(table.rows.size());
    std::vector<std::uint32_t> stack(table.roots.rbegin(), table.roots.rend());
    while (!stack.empty()) {
        const std::uint32_t index = stack.back();
        stack.pop_back();
        if (index >= table.rows.size())
            continue;
        order.push_back(index);
        const auto& children = table.rows[index].children;
        stack.insert(stack.end(), children.rbegin(), children.rend());
    }
    return order;
}

std::string profileTableCsv(const ProfileTable& table)
{
    static const std::pair<const char*, ProfileColumn> kQuantities[] = {
        {"run_count", ProfileColumn::Runs},
        {"node_count", ProfileColumn::Nodes},
        {"exec_ns", ProfileColumn::Time},
        {"accelerator_exec_ns", ProfileColumn::AcceleratorTime},
        {"cpu_exec_ns", ProfileColumn::CpuTime},
        {"requested_bytes", ProfileColumn::RequestedBytes},
        {"peak_bytes", ProfileColumn::PeakBytes},
        {"residual_bytes", ProfileColumn::ResidualBytes},
        {"output_bytes", ProfileColumn::OutputBytes},
        {"float_ops", ProfileColumn::FloatOps},
        {"parameters", ProfileColumn::Parameters},
    };
    std::string out = "name,op_type,depth";
    for (const auto& [name, column] : kQuantities) {
        out += std::string(",total_") + name;
        out += std::string(",self_") + name;
    }
    out += ",float_ops_incomplete,devices\r\n";
    for (std::uint32_t index : profileRowsInOrder(table)) {
        const ProfileRow& row = table.rows[index];
        appendCsvField(out, row.name);
        out += ',';
        appendCsvField(out, row.opType);
        out += ',' + std::to_string(row.depth);
        for (const auto& quantity : kQuantities) {
            out += ',' + std::to_string(profileValue(row, quantity.second, false));
            out += ',' + std::to_string(profileValue(row, quantity.second, true));
        }
        out += row.floatOpsIncomplete ? ",true," : ",false,";
        appendCsvField(out, devicesText(table, row));
        out += "\r\n";
    }
    return out;
}

} // namespace tstudio::profiler
