// tfprof's ProfileProto: written from a ProfileTrace, and read back into one through StepStats.
#include "profiler/tfprof_profile_proto.h"

#include "io/atomic_file.h"
#include "profiler/profile_tables.h"
#include "profiler/trace_builder.h"
#include "proto/graph.pb.h"
#include "proto/step_stats.pb.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

namespace tfprof = tensorflow::tfprof;

/// A device the GPU tracer made (".../stream:7", ".../memcpy"): not a canonical device.
bool isTracerDevice(const std::string& name)
{
    return name.find("/stream:") != std::string::npos || name.find("/memcpy") != std::string::npos;
}

/// The CPU of the task a device belongs to (host_device).
std::string hostOf(const std::string& device)
{
    const auto at = device.find("/device:");
    if (at == std::string::npos)
        return device;
    return device.substr(0, at) + "/device:CPU:0";
}

/// "x:1" -> ("x", 1), "^c" -> ("c", -1), "y" -> ("y", 0).
std::pair<std::string, int> splitInput(const std::string& input)
{
    if (!input.empty() && input[0] == '^')
        return {input.substr(1), -1};
    const auto colon = input.rfind(':');
    if (colon != std::string::npos && colon + 1 < input.size() &&
        std::all_of(input.begin() + static_cast<std::ptrdiff_t>(colon) + 1, input.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
        return {input.substr(0, colon), std::stoi(input.substr(colon + 1))};
    return {input, 0};
}

tfprof::Tuple dimsTuple(const std::vector<std::int64_t>& dims)
{
    tfprof::Tuple t;
    for (std::int64_t d : dims)
        t.add_int64_values(d);
    return t;
}

std::int64_t micros(std::int64_t originNs, std::int64_t relNs)
{
    return (originNs + relNs) / 1000;
}

/// What the first allocator of `device` reported at `endNs`, an execution's end (the trace's
/// counters take a sample at the end of each execution that reported its allocator), else 0.
std::int64_t bytesInUse(const ProfileTrace& trace, std::uint32_t device, std::int64_t endNs)
{
    for (const MemoryCounter& counter : trace.memory) {
        if (counter.device != device)
            continue;
        auto at = std::lower_bound(counter.samples.begin(), counter.samples.end(), endNs,
                                   [](const auto& sample, std::int64_t t) { return sample.first < t; });
        return at != counter.samples.end() && at->first == endNs ? at->second : 0;
    }
    return 0;
}

} // namespace

tfprof::ProfileProto profileProtoFromTrace(const ProfileTrace& trace, const tensorflow::GraphDef* graph)
{
    tfprof::ProfileProto proto;
    // Nodes: the trace's, then the graph's that did not run.
    std::vector<std::string> names;
    std::vector<const TraceNode*> traced;
    std::unordered_map<std::string, std::int64_t> ids;
    for (const TraceNode& n : trace.nodes) {
        ids.emplace(n.name, static_cast<std::int64_t>(names.size()));
        names.push_back(n.name);
        traced.push_back(&n);
    }
    std::unordered_map<std::string, const tensorflow::NodeDef*> defs;
    if (graph)
        for (const tensorflow::NodeDef& def : graph->node()) {
            defs.emplace(def.name(), &def);
            if (ids.emplace(def.name(), static_cast<std::int64_t>(names.size())).second) {
                names.push_back(def.name());
                traced.push_back(nullptr);
            }
        }
    // Float operations of one execution, from the node view's per-step numbers.
    std::unordered_map<std::string, std::int64_t> floatOpsOf;
    ProfileTableOptions tableOptions;
    tableOptions.graph = graph;
    if (auto table = buildProfileTable(trace, ProfileView::ByNode, tableOptions))
        for (const ProfileRow& row : table->rows)
            if (row.self.floatOps > 0)
                floatOpsOf[row.name] = row.self.floatOps / std::max<std::int64_t>(1, row.self.runs);

    // The first execution of each node (shapes) and every execution by node.
    std::vector<std::vector<std::uint32_t>> executions(names.size());
    for (std::uint32_t e = 0; e < trace.events.size(); ++e)
        if (trace.events[e].node != kNoIndex)
            executions[trace.events[e].node].push_back(e);
    auto outputShapes = [&](std::int64_t id) {
        std::map<std::int32_t, tfprof::Tuple> shapes;
        if (id < 0 || static_cast<std::size_t>(id) >= trace.nodes.size())
            return shapes;
        for (std::uint32_t e : executions[static_cast<std::size_t>(id)]) {
            const TraceEvent& ev = trace.events[e];
            for (std::uint32_t o = ev.firstOutput; o < ev.firstOutput + ev.outputCount; ++o)
                if (trace.outputs[o].shape != kNoIndex && !shapes.count(trace.outputs[o].slot))
                    shapes[trace.outputs[o].slot] = dimsTuple(trace.shapes[trace.outputs[o].shape]);
            if (!shapes.empty())
                break;
        }
        return shapes;
    };

    for (std::size_t i = 0; i < names.size(); ++i) {
        tfprof::ProfileNode& node = (*proto.mutable_nodes())[static_cast<std::int64_t>(i)];
        node.set_name(names[i]);
        node.set_id(static_cast<std::int64_t>(i));
        const auto def = defs.find(names[i]);
        const tensorflow::NodeDef* nodeDef = def == defs.end() ? nullptr : def->second;
        node.set_op(traced[i] ? traced[i]->op : nodeDef->op());
        node.add_op_types(node.op());
        std::vector<std::string> inputs;
        if (traced[i])
            inputs = traced[i]->inputs;
        else
            inputs.assign(nodeDef->input().begin(), nodeDef->input().end());
        for (std::size_t slot = 0; slot < inputs.size(); ++slot) {
            const auto [producer, index] = splitInput(inputs[slot]);
            const auto found = ids.find(producer);
            if (found == ids.end())
                continue;
            (*node.mutable_inputs())[static_cast<std::int32_t>(slot)] = found->second;
            (*node.mutable_src_output_index())[found->second] = std::max(index, 0);
            if (index >= 0) {
                auto shapes = outputShapes(found->second);
                if (auto s = shapes.find(index); s != shapes.end())
                    (*node.mutable_input_shapes())[static_cast<std::int32_t>(slot)] = s->second;
            }
        }
        for (auto& [slot, shape] : outputShapes(static_cast<std::int64_t>(i)))
            (*node.mutable_output_shapes())[slot] = shape;
        if (nodeDef) {
            for (const auto& [name, value] : nodeDef->attr())
                (*node.mutable_attrs())[name] = value;
            if (auto shape = nodeDef->attr().find("shape"); shape != nodeDef->attr().end() && shape->second.has_shape())
                for (const auto& dim : shape->second.shape().dim())
                    node.add_shape(dim.size());
        }
        if (auto f = floatOpsOf.find(names[i]); f != floatOpsOf.end())
            node.set_float_ops(f->second);

        for (std::uint32_t e : executions[i]) {
            const TraceEvent& ev = trace.events[e];
            const std::int64_t step = ev.step == kNoIndex ? 0 : trace.steps[ev.step].number;
            const std::string& device = trace.devices[trace.lanes[ev.lane].device].name;
            const bool canonical = !isTracerDevice(device);
            if (canonical && node.canonical_device().empty()) {
                node.set_canonical_device(device);
                node.set_host_device(hostOf(device));
            }
            tfprof::ExecProfile& exec = (*node.mutable_execs())[step];
            const std::int64_t start = micros(trace.originNs, ev.startNs);
            const std::int64_t end = micros(trace.originNs, ev.startNs + ev.durationNs);
            if (exec.run_count() == 0 && exec.all_start_micros() == 0)
                exec.set_all_start_micros(start);
            exec.set_all_start_micros(std::min(exec.all_start_micros(), start));
            exec.set_latest_end_micros(std::max(exec.latest_end_micros(), end));
            auto& times = canonical ? *exec.mutable_cpu_execs() : *exec.mutable_accelerator_execs();
            tfprof::Tuple* t = times[device].add_times();
            t->add_int64_values(start);
            t->add_int64_values(ev.durationNs / 1000);
            if (std::find(exec.devices().begin(), exec.devices().end(), device) == exec.devices().end())
                exec.add_devices(device);
            if (!canonical)
                continue;
            exec.set_run_count(exec.run_count() + 1);
            tfprof::ExecMemory* memory = exec.add_memory_execs();
            memory->set_memory_micros(start);
            memory->set_requested_bytes(ev.requestedBytes);
            memory->set_peak_bytes(ev.peakBytes);
            memory->set_residual_bytes(ev.residualBytes);
            memory->set_output_bytes(ev.outputBytes);
            memory->set_allocator_bytes_in_use(
                bytesInUse(trace, trace.lanes[ev.lane].device, ev.startNs + ev.durationNs));
            for (std::uint32_t o = ev.firstOutput; o < ev.firstOutput + ev.outputCount; ++o)
                (*memory->mutable_output_memory())[trace.outputs[o].slot].set_bytes(trace.outputs[o].requestedBytes);
        }
    }
    for (const TraceStep& step : trace.steps)
        proto.add_steps(step.number);
    return proto;
}

Expected<ProfileTrace> traceFromProfileProto(const tfprof::ProfileProto& proto, const std::string& what)
{
    std::map<std::int64_t, std::string> nameOf;
    for (const auto& [id, node] : proto.nodes()) {
        if (node.name().empty())
            return unexpected(
                invalidArgumentError(what + ": ProfileProto node " + std::to_string(id) + " has no name"));
        nameOf[id] = node.name();
    }
    std::set<std::int64_t> stepNumbers(proto.steps().begin(), proto.steps().end());
    if (stepNumbers.empty())
        for (const auto& [id, node] : proto.nodes())
            for (const auto& [step, exec] : node.execs())
                stepNumbers.insert(step);

    std::vector<TracedStep> steps;
    bool anyExecution = false;
    for (std::int64_t number : stepNumbers) {
        TracedStep traced;
        traced.number = number;
        std::map<std::string, tensorflow::DeviceStepStats*> devices;
        auto deviceStats = [&](const std::string& name) {
            auto& d = devices[name];
            if (!d) {
                d = traced.stats.add_dev_stats();
                d->set_device(name);
            }
            return d;
        };
        for (const auto& [id, node] : proto.nodes()) {
            const auto exec = node.execs().find(number);
            if (exec == node.execs().end())
                continue;
            // The label TensorFlow's timeline parses: "name = Op(in0, in1:1, ...)".
            std::map<std::int32_t, std::string> inputs;
            for (const auto& [slot, producer] : node.inputs()) {
                const auto name = nameOf.find(producer);
                if (name == nameOf.end())
                    continue;
                const auto index = node.src_output_index().find(producer);
                const int output = index == node.src_output_index().end() ? 0 : index->second;
                inputs[slot] = output == 0 ? name->second : name->second + ":" + std::to_string(output);
            }
            std::string label = node.name() + " = " + (node.op().empty() ? "unknown" : node.op()) + "(";
            bool first = true;
            for (const auto& [slot, input] : inputs) {
                label += (first ? "" : ", ") + input;
                first = false;
            }
            label += ")";
            auto add = [&](const std::string& device, const tfprof::Tuple& time) {
                tensorflow::NodeExecStats* stats = deviceStats(device)->add_node_stats();
                stats->set_node_name(node.name());
                stats->set_timeline_label(label);
                stats->set_all_start_micros(time.int64_values_size() > 0 ? time.int64_values(0) : 0);
                const std::int64_t duration = time.int64_values_size() > 1 ? time.int64_values(1) : 0;
                stats->set_op_end_rel_micros(duration);
                stats->set_all_end_rel_micros(duration);
                anyExecution = true;
                return stats;
            };
            for (const auto& [device, times] : exec->second.accelerator_execs())
                for (const tfprof::Tuple& time : times.times())
                    add(device, time);
            // Canonical executions in start order, each with its memory entry.
            std::vector<std::pair<std::string, const tfprof::Tuple*>> canonical;
            for (const auto& [device, times] : exec->second.cpu_execs())
                for (const tfprof::Tuple& time : times.times())
                    canonical.emplace_back(device, &time);
            std::stable_sort(canonical.begin(), canonical.end(), [](const auto& a, const auto& b) {
                return (a.second->int64_values_size() ? a.second->int64_values(0) : 0) <
                       (b.second->int64_values_size() ? b.second->int64_values(0) : 0);
            });
            for (std::size_t k = 0; k < canonical.size(); ++k) {
                tensorflow::NodeExecStats* stats = add(canonical[k].first, *canonical[k].second);
                if (static_cast<int>(k) >= exec->second.memory_execs_size())
                    continue;
                const tfprof::ExecMemory& memory = exec->second.memory_execs(static_cast<int>(k));
                if (memory.requested_bytes() || memory.peak_bytes() || memory.residual_bytes() ||
                    memory.allocator_bytes_in_use()) {
                    auto* used = stats->add_memory();
                    // The format names no allocator: one per device type, as "cpu" is the CPU's.
                    std::string allocator = traceDeviceType(canonical[k].first);
                    std::transform(allocator.begin(), allocator.end(), allocator.begin(),
                                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                    used->set_allocator_name(allocator.empty() ? "memory" : allocator);
                    used->set_total_bytes(memory.requested_bytes());
                    used->set_peak_bytes(memory.peak_bytes());
                    used->set_live_bytes(memory.residual_bytes());
                    used->set_allocator_bytes_in_use(memory.allocator_bytes_in_use());
                }
                for (const auto& [slot, bytes] : memory.output_memory()) {
                    auto* output = stats->add_output();
                    output->set_slot(slot);
                    auto* description = output->mutable_tensor_description();
                    description->mutable_allocation_description()->set_requested_bytes(bytes.bytes());
                    if (auto shape = node.output_shapes().find(slot); shape != node.output_shapes().end())
                        for (std::int64_t d : shape->second.int64_values())
                            description->mutable_shape()->add_dim()->set_size(d);
                }
            }
        }
        steps.push_back(std::move(traced));
    }
    if (!anyExecution)
        return unexpected(invalidArgumentError(what + ": the ProfileProto has no executions (" +
                                               std::to_string(proto.nodes_size()) + " nodes, none profiled)"));
    return traceFromStepStats(steps);
}

tensorflow::GraphDef graphFromProfileProto(const tfprof::ProfileProto& proto)
{
    std::map<std::int64_t, const tfprof::ProfileNode*> byId;
    for (const auto& [id, node] : proto.nodes())
        byId[id] = &node;
    tensorflow::GraphDef graph;
    for (const auto& [id, node] : byId) {
        // A node without attrs was not in the graph the profile was written with (tfprof copies
        // every attr): as a NodeDef it would claim defaults (transpose_a false) it never had.
        if (node->attrs().empty())
            continue;
        tensorflow::NodeDef* def = graph.add_node();
        def->set_name(node->name());
        def->set_op(node->op());
        if (!node->canonical_device().empty())
            def->set_device(node->canonical_device());
        std::map<std::int32_t, std::int64_t> inputs(node->inputs().begin(), node->inputs().end());
        for (const auto& [slot, producer] : inputs) {
            const auto found = byId.find(producer);
            if (found == byId.end())
                continue;
            const auto index = node->src_output_index().find(producer);
            const int output = index == node->src_output_index().end() ? 0 : index->second;
            def->add_input(output == 0 ? found->second->name() : found->second->name() + ":" + std::to_string(output));
        }
        for (const auto& [name, value] : node->attrs())
            (*def->mutable_attr())[name] = value;
        if (!def->attr().count("shape") && node->shape_size() > 0) {
            auto* shape = (*def->mutable_attr())["shape"].mutable_shape();
            for (std::int64_t d : node->shape())
                shape->add_dim()->set_size(d);
        }
    }
    return graph;
}

std::optional<tensorflow::GraphDef> readProfileProtoGraph(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::stringstream bytes;
    bytes << in.rdbuf();
    tfprof::ProfileProto proto;
    if (!parseProfileProto(bytes.str(), proto))
        return std::nullopt;
    return graphFromProfileProto(proto);
}

bool parseProfileProto(const std::string& bytes, tfprof::ProfileProto& out)
{
    if (!out.ParseFromString(bytes) || out.nodes().empty())
        return false;
    bool executed = false;
    for (const auto& [id, node] : out.nodes()) {
        if (node.name().empty())
            return false;
        executed = executed || !node.execs().empty();
    }
    return executed;
}

Status writeProfileProto(const ProfileTrace& trace, const tensorflow::GraphDef* graph,
                         const std::filesystem::path& path)
{
    std::string bytes;
    if (!profileProtoFromTrace(trace, graph).SerializeToString(&bytes))
        return internalError("the ProfileProto could not be serialized");
    return writeFileAtomically(path, bytes);
}

} // namespace tstudio::profiler
