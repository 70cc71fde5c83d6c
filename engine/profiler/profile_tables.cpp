// buildProfileTable: per-node aggregation of a trace (time by device role, memory, runs, float operations
// from the executions' shapes), averaged over steps as tfprof does, then shaped into one of the views.
#include "profiler/profile_tables.h"

#include "profiler/float_ops.h"
#include "profiler/model_parameters.h"
#include "profiler/tfprof_op_log.h"
#include "proto/graph.pb.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <string_view>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

/// How a device's records count (see ProfileStats).
enum class DeviceRole : std::uint8_t { Canonical, CanonicalAccelerator, Accelerator, Ignored };

std::string lowercase(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<DeviceRole> deviceRoles(const ProfileTrace& trace)
{
    static const std::regex canonical(".*(device:gpu|gpu|device:cpu|cpu|device:sycl):\\d+");
    std::vector<std::string> names;
    for (const TraceDevice& device : trace.devices) {
        std::string name = lowercase(device.name);
        // An imported Chrome trace names the process "<device> Compute".
        if (name.ends_with(" compute"))
            name.resize(name.size() - 8);
        names.push_back(std::move(name));
    }
    auto hasDevice = [&](auto predicate) { return std::any_of(names.begin(), names.end(), predicate); };
    std::vector<DeviceRole> roles;
    for (const std::string& name : names) {
        const std::size_t stream = name.find("/stream:");
        if (name.find("stream:all") != std::string::npos) {
            roles.push_back(DeviceRole::Accelerator);
        } else if (stream != std::string::npos) {
            const std::string all = name.substr(0, stream) + "/stream:all";
            roles.push_back(hasDevice([&](const std::string& n) { return n == all; }) ? DeviceRole::Ignored
                                                                                      : DeviceRole::Accelerator);
        } else if (name.find("memcpy") != std::string::npos) {
            roles.push_back(DeviceRole::Ignored);
        } else if (std::regex_match(name, canonical) &&
                   (name.find("gpu:") != std::string::npos || name.find("sycl:") != std::string::npos)) {
            const std::string streams = name + "/stream:";
            roles.push_back(hasDevice([&](const std::string& n) { return n.starts_with(streams); })
                                ? DeviceRole::Canonical
                                : DeviceRole::CanonicalAccelerator);
        } else {
            roles.push_back(DeviceRole::Canonical);
        }
    }
    return roles;
}

/// Sums over the selected events of one node.
struct NodeSums {
    std::int64_t runs = 0, acceleratorNs = 0, cpuNs = 0;
    std::int64_t requested = 0, peak = 0, residual = 0, output = 0, floatOps = 0;
    std::uint32_t steps = 0;
    std::uint32_t lastStep = kNoIndex;
    bool incomplete = false;
    std::vector<std::uint32_t> devices;
};

/// A data input of a node: producer node index and output slot.
struct InputRef {
    std::uint32_t node = kNoIndex;
    std::int32_t slot = 0;
};

/// Parses "x", "x:1"; nullopt for "^x" and malformed text.
std::optional<std::pair<std::string_view, std::int32_t>> dataInput(std::string_view input)
{
    if (input.empty() || input[0] == '^')
        return std::nullopt;
    const std::size_t colon = input.rfind(':');
    if (colon == std::string_view::npos)
        return std::make_pair(input, 0);
    std::int32_t slot = 0;
    for (char c : input.substr(colon + 1)) {
        if (c < '0' || c > '9' || slot > 100000)
            return std::nullopt;
        slot = slot * 10 + (c - '0');
    }
    return std::make_pair(input.substr(0, colon), slot);
}

/// The float-operation pass: shapes of producers looked up per consumer execution.
class FloatOpsCounter {
public:
    FloatOpsCounter(const ProfileTrace& trace, const std::vector<std::uint32_t>& order,
                    const std::vector<std::uint32_t>& stepKeys, const tensorflow::GraphDef* graph)
        : m_trace(trace), m_stepKeys(stepKeys)
    {
        const std::size_t nodeCount = trace.nodes.size();
        std::unordered_map<std::string_view, std::uint32_t> byName;
        byName.reserve(nodeCount);
        for (std::size_t i = 0; i < nodeCount; ++i)
            byName.emplace(trace.nodes[i].name, static_cast<std::uint32_t>(i));
        std::unordered_map<std::string_view, const tensorflow::NodeDef*> defs;
        if (graph)
            for (const auto& def : graph->node())
                defs.emplace(def.name(), &def);

        m_rule.assign(nodeCount, false);
        m_defs.assign(nodeCount, nullptr);
        m_inputs.resize(nodeCount);
        std::vector<bool> producer(nodeCount, false);
        for (std::size_t i = 0; i < nodeCount; ++i) {
            const TraceNode& node = trace.nodes[i];
            auto def = defs.find(node.name);
            if (def != defs.end())
                m_defs[i] = def->second;
            // A node that a plan rewrite fused counts as the op that ran, with its inputs (the label's).
            if (m_defs[i] && node.op.starts_with("_Fused") && node.op != m_defs[i]->op())
                m_defs[i] = nullptr;
            const std::string& op = m_defs[i] ? m_defs[i]->op() : node.op;
            if (!hasFloatOpsRule(op))
                continue;
            m_rule[i] = true;
            auto addInput = [&](std::string_view text) {
                auto parsed = dataInput(text);
                if (!parsed)
                    return;
                auto producerIt = byName.find(parsed->first);
                InputRef ref{producerIt == byName.end() ? kNoIndex : producerIt->second, parsed->second};
                if (ref.node != kNoIndex)
                    producer[ref.node] = true;
                m_inputs[i].push_back(ref);
                if (ref.node == kNoIndex && graph)
                    m_graphOnlyInputs.emplace(std::make_pair(i, m_inputs[i].size() - 1), std::string(parsed->first));
            };
            if (!node.inputs.empty() || !m_defs[i])
                for (const std::string& input : node.inputs)
                    addInput(input);
            else
                for (const std::string& input : m_defs[i]->input())
                    addInput(input);
        }
        if (graph)
            readGraphShapes(*graph);

        // Executions of producers, by node, sorted by (step, start).
        m_offsets.assign(nodeCount + 1, 0);
        for (std::uint32_t e : order) {
            const std::uint32_t n = trace.events[e].node;
            if (producer[n])
                ++m_offsets[n + 1];
        }
        for (std::size_t i = 0; i < nodeCount; ++i)
            m_offsets[i + 1] += m_offsets[i];
        m_events.resize(m_offsets[nodeCount]);
        std::vector<std::uint32_t> fill(m_offsets.begin(), m_offsets.end() - 1);
        for (std::uint32_t e : order) {
            const std::uint32_t n = trace.events[e].node;
            if (producer[n])
                m_events[fill[n]++] = e;
        }
        for (std::size_t i = 0; i < nodeCount; ++i)
            std::sort(m_events.begin() + m_offsets[i], m_events.begin() + m_offsets[i + 1],
                      [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
        m_request.inputs.reserve(8);
        m_request.outputs.reserve(8);
    }

    bool counts(std::uint32_t node) const { return m_rule[node]; }

    FloatOpsResult count(std::uint32_t eventIndex)
    {
        const TraceEvent& event = m_trace.events[eventIndex];
        const std::uint32_t node = event.node;
        m_request.op = m_defs[node] ? std::string_view(m_defs[node]->op()) : std::string_view(m_trace.nodes[node].op);
        m_request.node = m_defs[node];
        m_request.inputs.clear();
        for (std::size_t i = 0; i < m_inputs[node].size(); ++i)
            m_request.inputs.push_back(inputShape(node, i, eventIndex));
        m_request.outputs.clear();
        for (std::int32_t slot = 0;; ++slot) {
            ShapeRef shape = outputShape(eventIndex, slot);
            if (!shape && slot >= static_cast<std::int32_t>(event.outputCount))
                break;
            if (!shape)
                shape = graphShape(m_trace.nodes[node].name, slot);
            m_request.outputs.push_back(shape);
        }
        if (m_request.outputs.empty())
            m_request.outputs.push_back(graphShape(m_trace.nodes[node].name, 0));
        return floatOps(m_request);
    }

private:
    std::pair<std::uint32_t, std::int64_t> key(std::uint32_t e) const
    {
        return {m_stepKeys[e], m_trace.events[e].startNs};
    }

    ShapeRef outputShape(std::uint32_t eventIndex, std::int32_t slot) const
    {
        const TraceEvent& event = m_trace.events[eventIndex];
        const std::size_t end = std::size_t(event.firstOutput) + event.outputCount;
        if (end > m_trace.outputs.size())
            return nullptr;
        for (std::size_t o = event.firstOutput; o < end; ++o) {
            const TraceOutput& output = m_trace.outputs[o];
            if (output.slot == slot)
                return output.shape < m_trace.shapes.size() ? &m_trace.shapes[output.shape] : nullptr;
        }
        return nullptr;
    }

    ShapeRef graphShape(const std::string& node, std::int32_t slot) const
    {
        auto it = m_graphShapes.find(node);
        if (it == m_graphShapes.end() || slot < 0 || std::size_t(slot) >= it->second.size())
            return nullptr;
        return it->second[std::size_t(slot)] ? &*it->second[std::size_t(slot)] : nullptr;
    }

    /// The producer's execution in the consumer's step that started last before it, else its first.
    ShapeRef inputShape(std::uint32_t node, std::size_t index, std::uint32_t consumer) const
    {
        const InputRef& ref = m_inputs[node][index];
        if (ref.node == kNoIndex) {
            auto it = m_graphOnlyInputs.find({node, index});
            return it == m_graphOnlyInputs.end() ? nullptr : graphShape(it->second, ref.slot);
        }
        const auto first = m_events.begin() + m_offsets[ref.node];
        const auto last = m_events.begin() + m_offsets[ref.node + 1];
        ShapeRef shape = nullptr;
        if (first != last) {
            const std::uint32_t step = m_stepKeys[consumer];
            const std::int64_t start = m_trace.events[consumer].startNs;
            auto stepBegin = std::lower_bound(first, last, step,
                                              [&](std::uint32_t e, std::uint32_t s) { return m_stepKeys[e] < s; });
            auto after = std::upper_bound(first, last, std::make_pair(step, start),
                                          [&](const auto& k, std::uint32_t e) { return k < key(e); });
            auto pick = after != stepBegin ? after - 1 : (stepBegin != last ? stepBegin : first);
            shape = outputShape(*pick, ref.slot);
        }
        return shape ? shape : graphShape(m_trace.nodes[ref.node].name, ref.slot);
    }

    /// `_output_shapes` where a node has them; else a Placeholder's "shape" attr (a fed placeholder never
    /// runs, so the trace has no shape for it).
    void readGraphShapes(const tensorflow::GraphDef& graph)
    {
        auto dims = [](const tensorflow::TensorShapeProto& proto) -> std::optional<std::vector<std::int64_t>> {
            if (proto.unknown_rank())
                return std::nullopt;
            std::vector<std::int64_t> out;
            for (const auto& d : proto.dim())
                out.push_back(d.size() < 0 ? -1 : d.size());
            return out;
        };
        for (const auto& def : graph.node()) {
            auto attr = def.attr().find("_output_shapes");
            if (attr != def.attr().end()) {
                auto& shapes = m_graphShapes[def.name()];
                for (const auto& proto : attr->second.list().shape())
                    shapes.push_back(dims(proto));
                continue;
            }
            attr = def.attr().find("shape");
            if ((def.op() == "Placeholder" || def.op() == "PlaceholderWithDefault") && attr != def.attr().end() &&
                attr->second.has_shape())
                m_graphShapes[def.name()].push_back(dims(attr->second.shape()));
        }
    }

    const ProfileTrace& m_trace;
    const std::vector<std::uint32_t>& m_stepKeys;
    std::vector<bool> m_rule;
    std::vector<const tensorflow::NodeDef*> m_defs;
    std::vector<std::vector<InputRef>> m_inputs;
    std::map<std::pair<std::uint32_t, std::size_t>, std::string> m_graphOnlyInputs;
    std::unordered_map<std::string, std::vector<std::optional<std::vector<std::int64_t>>>> m_graphShapes;
    std::vector<std::uint32_t> m_offsets;
    std::vector<std::uint32_t> m_events;
    FloatOpsRequest m_request;
};

/// Per trace node: the selected steps' sums, then per-step values.
struct NodeAggregate {
    ProfileStats stats;
    bool incomplete = false;
    std::vector<std::uint32_t> devices;
    bool ran = false;
};

std::vector<NodeAggregate> aggregateNodes(const ProfileTrace& trace, const ProfileTableOptions& options,
                                          std::size_t& stepsCounted)
{
    const std::size_t nodeCount = trace.nodes.size();
    const std::uint32_t noStep = static_cast<std::uint32_t>(trace.steps.size());
    const std::vector<DeviceRole> roles = deviceRoles(trace);

    // Valid events bucketed by step (events without a step form one more bucket).
    std::vector<std::uint32_t> stepKeys(trace.events.size(), kNoIndex);
    std::vector<std::uint32_t> bucketSizes(trace.steps.size() + 2, 0);
    for (std::size_t e = 0; e < trace.events.size(); ++e) {
        const TraceEvent& event = trace.events[e];
        if (event.node >= nodeCount || event.lane >= trace.lanes.size() ||
            trace.lanes[event.lane].device >= trace.devices.size())
            continue;
        const std::uint32_t key = event.step < noStep ? event.step : noStep;
        if (options.step >= 0 && key != std::uint32_t(options.step))
            continue;
        stepKeys[e] = key;
        ++bucketSizes[key + 1];
    }
    for (std::size_t i = 1; i < bucketSizes.size(); ++i)
        bucketSizes[i] += bucketSizes[i - 1];
    std::vector<std::uint32_t> order(bucketSizes.back());
    for (std::size_t e = 0; e < trace.events.size(); ++e)
        if (stepKeys[e] != kNoIndex)
            order[bucketSizes[stepKeys[e]]++] = static_cast<std::uint32_t>(e);

    FloatOpsCounter counter(trace, order, stepKeys, options.graph);
    std::vector<NodeSums> sums(nodeCount);
    std::vector<bool> stepSeen(trace.steps.size() + 1, false);
    for (std::uint32_t e : order) {
        const TraceEvent& event = trace.events[e];
        NodeSums& s = sums[event.node];
        const std::uint32_t device = trace.lanes[event.lane].device;
        const DeviceRole role = roles[device];
        if (role == DeviceRole::Ignored)
            continue;
        stepSeen[stepKeys[e]] = true;
        if (s.lastStep != stepKeys[e]) {
            s.lastStep = stepKeys[e];
            ++s.steps;
        }
        if (std::find(s.devices.begin(), s.devices.end(), device) == s.devices.end())
            s.devices.push_back(device);
        const std::int64_t duration = std::max<std::int64_t>(event.durationNs, 0);
        if (role == DeviceRole::Accelerator) {
            s.acceleratorNs += duration;
            continue;
        }
        (role == DeviceRole::CanonicalAccelerator ? s.acceleratorNs : s.cpuNs) += duration;
        ++s.runs;
        s.requested += event.requestedBytes;
        s.peak += event.peakBytes;
        s.residual += event.residualBytes;
        s.output += event.outputBytes;
        if (counter.counts(event.node)) {
            const FloatOpsResult flops = counter.count(e);
            s.floatOps += flops.floatOps;
            s.incomplete = s.incomplete || flops.incomplete;
        }
    }
    stepsCounted = static_cast<std::size_t>(std::count(stepSeen.begin(), stepSeen.end(), true));

    std::vector<NodeAggregate> out(nodeCount);
    for (std::size_t i = 0; i < nodeCount; ++i) {
        const NodeSums& s = sums[i];
        NodeAggregate& a = out[i];
        if (s.steps == 0)
            continue;
        const std::int64_t n = s.steps;
        a.ran = true;
        a.stats.runs = s.runs / n;
        a.stats.acceleratorNs = s.acceleratorNs / n;
        a.stats.cpuNs = s.cpuNs / n;
        a.stats.execNs = (s.acceleratorNs + s.cpuNs) / n;
        a.stats.requestedBytes = s.requested / n;
        a.stats.peakBytes = s.peak / n;
        a.stats.residualBytes = s.residual / n;
        a.stats.outputBytes = s.output / n;
        a.stats.floatOps = s.floatOps / n;
        a.incomplete = s.incomplete;
        a.devices = s.devices;
        std::sort(a.devices.begin(), a.devices.end());
    }
    return out;
}

void add(ProfileStats& to, const ProfileStats& from)
{
    to.runs += from.runs;
    to.nodes += from.nodes;
    to.execNs += from.execNs;
    to.acceleratorNs += from.acceleratorNs;
    to.cpuNs += from.cpuNs;
    to.requestedBytes += from.requestedBytes;
    to.peakBytes += from.peakBytes;
    to.residualBytes += from.residualBytes;
    to.outputBytes += from.outputBytes;
    to.floatOps += from.floatOps;
    to.parameters += from.parameters;
}

void mergeDevices(std::vector<std::uint32_t>& to, const std::vector<std::uint32_t>& from)
{
    std::vector<std::uint32_t> merged;
    std::set_union(to.begin(), to.end(), from.begin(), from.end(), std::back_inserter(merged));
    to = std::move(merged);
}

/// One row per node of the trace and of the graph (graph-only nodes with zeros), sorted by name.
std::vector<ProfileRow> nodeRows(const ProfileTrace& trace, const ProfileTableOptions& options,
                                 std::vector<NodeAggregate>& aggregates, std::string& parameterRule)
{
    std::unordered_map<std::string_view, std::int64_t> parameters;
    ModelParameters model;
    if (options.graph) {
        ModelParametersOptions parameterOptions;
        parameterOptions.trainableVariables = options.trainableVariables;
        // tfprof counts the parameters of the nodes its op log types "_trainable_variables".
        if (!parameterOptions.trainableVariables && options.opLog)
            parameterOptions.trainableVariables = trainableVariablesOf(*options.opLog);
        model = modelParameters(*options.graph, parameterOptions);
        for (const VariableParameters& v : model.variables)
            if (v.counted)
                parameters[v.name] = v.parameters;
        parameterRule = model.rule == ParameterRule::TrainableCollection ? "trainable_variables"
                                                                         : "all variables but slots and locals";
    }
    std::vector<ProfileRow> rows;
    rows.reserve(trace.nodes.size());
    std::unordered_map<std::string_view, std::size_t> byName;
    byName.reserve(trace.nodes.size());
    for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
        if (byName.count(trace.nodes[i].name))
            continue;
        ProfileRow row;
        row.name = trace.nodes[i].name;
        row.opType = trace.nodes[i].op;
        row.node = static_cast<std::uint32_t>(i);
        row.self = aggregates[i].stats;
        row.floatOpsIncomplete = aggregates[i].incomplete;
        row.devices = std::move(aggregates[i].devices);
        byName.emplace(trace.nodes[i].name, rows.size());
        rows.push_back(std::move(row));
    }
    if (options.graph) {
        for (const auto& def : options.graph->node()) {
            auto it = byName.find(def.name());
            if (it != byName.end()) {
                // A node that a plan rewrite fused (Grappler's remapper) shows the op that ran.
                if (!rows[it->second].opType.starts_with("_Fused"))
                    rows[it->second].opType = def.op();
                continue;
            }
            ProfileRow row;
            row.name = def.name();
            row.opType = def.op();
            rows.push_back(std::move(row));
        }
    }
    for (ProfileRow& row : rows) {
        row.self.nodes = 1;
        auto p = parameters.find(row.name);
        if (p != parameters.end())
            row.self.parameters = p->second;
        if (options.opLog) {
            if (auto f = options.opLog->floatOps.find(row.name); f != options.opLog->floatOps.end()) {
                row.self.floatOps = f->second * std::max<std::int64_t>(1, row.self.runs);
                row.floatOpsIncomplete = false;
            }
            if (auto t = options.opLog->types.find(row.name); t != options.opLog->types.end())
                for (const std::string& type : t->second)
                    if (type != row.opType &&
                        std::find(row.extraTypes.begin(), row.extraTypes.end(), type) == row.extraTypes.end())
                        row.extraTypes.push_back(type);
        }
        row.total = row.self;
    }
    std::sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) { return a.name < b.name; });
    return rows;
}

void shapeByOpType(ProfileTable& table, std::vector<ProfileRow> nodes)
{
    std::unordered_map<std::string, std::size_t> byOp;
    for (ProfileRow& node : nodes) {
        // As tfprof's op view: a node counts under its op type and under each type an op log gave it.
        std::vector<std::string> types{node.opType};
        types.insert(types.end(), node.extraTypes.begin(), node.extraTypes.end());
        for (const std::string& type : types) {
            auto [it, inserted] = byOp.emplace(type, table.rows.size());
            if (inserted) {
                ProfileRow row;
                row.name = type;
                row.opType = type;
                table.rows.push_back(std::move(row));
            }
            ProfileRow& row = table.rows[it->second];
            add(row.self, node.self);
            row.floatOpsIncomplete = row.floatOpsIncomplete || node.floatOpsIncomplete;
            mergeDevices(row.devices, node.devices);
        }
    }
    std::sort(table.rows.begin(), table.rows.end(),
              [](const ProfileRow& a, const ProfileRow& b) { return a.name < b.name; });
    for (ProfileRow& row : table.rows)
        row.total = row.self;
}

void shapeByScope(ProfileTable& table, std::vector<ProfileRow> nodes)
{
    std::unordered_map<std::string, std::uint32_t> byName;
    byName.reserve(nodes.size() * 2);
    auto rowFor = [&](const std::string& name) -> std::uint32_t {
        auto it = byName.find(name);
        if (it != byName.end())
            return it->second;
        const std::uint32_t index = static_cast<std::uint32_t>(table.rows.size());
        table.rows.emplace_back().name = name;
        byName.emplace(name, index);
        return index;
    };
    // Nodes first (sorted by name), then the scopes above them.
    for (ProfileRow& node : nodes) {
        const std::uint32_t index = rowFor(node.name);
        ProfileRow& row = table.rows[index];
        row.opType = std::move(node.opType);
        row.self = node.self;
        row.floatOpsIncomplete = node.floatOpsIncomplete;
        row.devices = std::move(node.devices);
        row.node = node.node;
        row.extraTypes = std::move(node.extraTypes);
    }
    for (std::uint32_t i = 0; i < table.rows.size(); ++i) {
        const std::string name = table.rows[i].name;
        const std::size_t slash = name.rfind('/');
        if (slash == std::string::npos || slash == 0) {
            table.rows[i].parent = kNoIndex;
            continue;
        }
        // May append the parent's row, which this loop then reaches in turn.
        const std::uint32_t parent = rowFor(name.substr(0, slash));
        table.rows[i].parent = parent;
    }
    for (std::uint32_t i = 0; i < table.rows.size(); ++i) {
        const std::uint32_t parent = table.rows[i].parent;
        (parent == kNoIndex ? table.roots : table.rows[parent].children).push_back(i);
    }
    // Depths top-down, totals bottom-up.
    std::vector<std::uint32_t> order = table.roots;
    for (std::size_t k = 0; k < order.size(); ++k) {
        ProfileRow& row = table.rows[order[k]];
        if (row.parent != kNoIndex)
            row.depth = table.rows[row.parent].depth + 1;
        order.insert(order.end(), row.children.begin(), row.children.end());
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        ProfileRow& row = table.rows[*it];
        row.total = row.self;
        for (std::uint32_t child : row.children) {
            const ProfileRow& c = table.rows[child];
            add(row.total, c.total);
            row.floatOpsIncomplete = row.floatOpsIncomplete || c.floatOpsIncomplete;
            mergeDevices(row.devices, c.devices);
        }
    }
    auto byRowName = [&](std::uint32_t a, std::uint32_t b) { return table.rows[a].name < table.rows[b].name; };
    std::sort(table.roots.begin(), table.roots.end(), byRowName);
    for (ProfileRow& row : table.rows)
        std::sort(row.children.begin(), row.children.end(), byRowName);
}

} // namespace

Expected<ProfileTable> buildProfileTable(const ProfileTrace& trace, ProfileView view,
                                         const ProfileTableOptions& options)
{
    if (options.step < -1 || (options.step >= 0 && std::size_t(options.step) >= trace.steps.size()))
        return unexpected(invalidArgumentError("profile table: step " + std::to_string(options.step) +
                                               " is not a step of the trace (it has " +
                                               std::to_string(trace.steps.size()) + " steps)"));
    ProfileTable table;
    table.view = view;
    table.step = options.step;
    for (const TraceDevice& device : trace.devices)
        table.devices.push_back(device.name);
    std::vector<NodeAggregate> aggregates = aggregateNodes(trace, options, table.stepsCounted);
    std::vector<ProfileRow> nodes = nodeRows(trace, options, aggregates, table.parameterRule);
    for (const ProfileRow& node : nodes) {
        add(table.total, node.self);
        if (node.floatOpsIncomplete)
            ++table.floatOpsIncompleteNodes;
    }
    switch (view) {
    case ProfileView::ByNode: table.rows = std::move(nodes); break;
    case ProfileView::ByOpType: shapeByOpType(table, std::move(nodes)); break;
    case ProfileView::ByScope: shapeByScope(table, std::move(nodes)); break;
    }
    if (view != ProfileView::ByScope)
        for (std::uint32_t i = 0; i < table.rows.size(); ++i)
            table.roots.push_back(i);
    return table;
}

} // namespace tstudio::profiler
