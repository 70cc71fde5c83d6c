// chromeTraceJson: a ProfileTrace as the Chrome trace JSON of TensorFlow's timeline, written directly
// as text (a million events in about a second; a JSON library's document tree would take many).
#include "profiler/chrome_trace_json.h"

#include "profiler/trace_builder.h"
#include "proto/types.pb.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

/// Appends `s` as a JSON string the way Python's json.dumps does by default (ensure_ascii): '"', '\\',
/// \n \r \t \b \f escaped by name, other characters outside ' '..'~' as \uXXXX (lowercase hex, UTF-16
/// surrogate pairs above U+FFFF). Bytes that are not UTF-8 become U+FFFD.
void appendJsonString(std::string& out, std::string_view s)
{
    out += '"';
    std::size_t plain = 0;
    auto flush = [&](std::size_t upTo) { out.append(s.data() + plain, upTo - plain); };
    auto unicode = [&](unsigned code) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", code);
        out += buffer;
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        flush(i);
        std::size_t length = 1;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x80) {
                unicode(c);
                break;
            }
            // A UTF-8 sequence: its length from the lead byte, then continuation bytes checked.
            unsigned code = 0;
            std::size_t need = 0;
            unsigned minimum = 0;
            if ((c & 0xe0) == 0xc0) {
                code = c & 0x1f, need = 1, minimum = 0x80;
            } else if ((c & 0xf0) == 0xe0) {
                code = c & 0x0f, need = 2, minimum = 0x800;
            } else if ((c & 0xf8) == 0xf0) {
                code = c & 0x07, need = 3, minimum = 0x10000;
            }
            bool valid = need > 0 && i + need < s.size();
            for (std::size_t k = 1; valid && k <= need; ++k) {
                const auto next = static_cast<unsigned char>(s[i + k]);
                valid = (next & 0xc0) == 0x80;
                code = (code << 6) | (next & 0x3f);
            }
            valid = valid && code >= minimum && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
            if (!valid) {
                unicode(0xfffd);
                break;
            }
            length = need + 1;
            if (code >= 0x10000) {
                code -= 0x10000;
                unicode(0xd800 + (code >> 10));
                unicode(0xdc00 + (code & 0x3ff));
            } else {
                unicode(code);
            }
        }
        i += length;
        plain = i;
    }
    flush(s.size());
    out += '"';
}

/// A JSON text writer that lays values out as Python's json.dumps: compact, or with indent=4 and
/// separators (',', ': ').
class JsonText {
public:
    JsonText(std::string& out, bool pretty) : m_out(out), m_pretty(pretty) {}

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }
    void key(std::string_view name)
    {
        separate();
        appendJsonString(m_out, name);
        m_out += m_pretty ? ": " : ":";
        m_afterKey = true;
    }
    void string(std::string_view value)
    {
        separate();
        appendJsonString(m_out, value);
    }
    void integer(std::int64_t value)
    {
        separate();
        char buffer[24];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        m_out.append(buffer, result.ptr);
    }
    /// Nanoseconds written as microseconds: "12", or "12.5" / "12.034" when not whole.
    void micros(std::int64_t nanos)
    {
        separate();
        if (nanos < 0) {
            m_out += '-';
            nanos = -nanos;
        }
        char buffer[32];
        auto result = std::to_chars(buffer, buffer + sizeof buffer, nanos / 1000);
        m_out.append(buffer, result.ptr);
        int fraction = static_cast<int>(nanos % 1000);
        if (fraction != 0) {
            char digits[4] = {static_cast<char>('0' + fraction / 100), static_cast<char>('0' + fraction / 10 % 10),
                              static_cast<char>('0' + fraction % 10), 0};
            std::size_t n = 3;
            while (digits[n - 1] == '0')
                --n;
            m_out += '.';
            m_out.append(digits, n);
        }
    }
    void null()
    {
        separate();
        m_out += "null";
    }

    template <typename Value> void field(std::string_view name, const Value& value)
    {
        key(name);
        if constexpr (std::is_integral_v<Value>)
            integer(static_cast<std::int64_t>(value));
        else
            string(value);
    }

private:
    void separate()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_depth == 0)
            return;
        if (m_hasItems[m_depth - 1])
            m_out += ',';
        m_hasItems[m_depth - 1] = true;
        if (m_pretty)
            newline(m_depth);
    }
    void open(char bracket)
    {
        separate();
        m_out += bracket;
        if (m_depth == m_hasItems.size())
            m_hasItems.push_back(false);
        m_hasItems[m_depth++] = false;
    }
    void close(char bracket)
    {
        --m_depth;
        if (m_pretty && m_hasItems[m_depth])
            newline(m_depth);
        m_out += bracket;
    }
    void newline(std::size_t depth)
    {
        m_out += '\n';
        m_out.append(4 * depth, ' ');
    }

    std::string& m_out;
    bool m_pretty;
    bool m_afterKey = false;
    std::size_t m_depth = 0;
    std::vector<bool> m_hasItems;
};

/// Where a tensor (one output of one execution) is produced and last used.
struct TensorUse {
    std::uint32_t event;
    std::uint32_t position;   ///< the output's position in the event's outputs
    std::int64_t lastUnrefNs; ///< relative to the origin
};

struct TensorKey {
    std::uint32_t step;
    std::uint32_t node;
    std::uint32_t position;
    bool operator==(const TensorKey&) const = default;
};

struct TensorKeyHash {
    std::size_t operator()(const TensorKey& k) const noexcept
    {
        std::uint64_t h = (std::uint64_t(k.step) << 32) ^ (std::uint64_t(k.node) << 8) ^ k.position;
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        return static_cast<std::size_t>(h ^ (h >> 32));
    }
};

/// "name", "name:1": the node name and the output position, or position 0 for a bare name.
std::pair<std::string_view, std::uint32_t> splitTensorName(std::string_view tensor)
{
    const std::size_t colon = tensor.rfind(':');
    if (colon == std::string_view::npos || colon + 1 == tensor.size() || colon + 10 < tensor.size())
        return {tensor, 0};
    std::uint32_t position = 0;
    for (std::size_t i = colon + 1; i < tensor.size(); ++i) {
        if (tensor[i] < '0' || tensor[i] > '9')
            return {tensor, 0};
        position = position * 10 + static_cast<std::uint32_t>(tensor[i] - '0');
    }
    return {tensor.substr(0, colon), position};
}

/// str(TensorDescription) without quotes, from what the trace keeps of it (dtype, shape, requested bytes).
std::string tensorDescription(const ProfileTrace& trace, const TraceOutput& output)
{
    std::string text;
    if (output.dtype != 0) {
        const std::string& name = tensorflow::DataType_Name(static_cast<tensorflow::DataType>(output.dtype));
        text += "dtype: " + (name.empty() ? std::to_string(output.dtype) : name) + "\n";
    }
    text += "shape {\n";
    if (output.shape == kNoIndex || output.shape >= trace.shapes.size()) {
        text += "  unknown_rank: true\n";
    } else {
        for (std::int64_t dim : trace.shapes[output.shape])
            text += "  dim {\n    size: " + std::to_string(dim) + "\n  }\n";
    }
    text += "}\nallocation_description {\n";
    if (output.requestedBytes != 0)
        text += "  requested_bytes: " + std::to_string(output.requestedBytes) + "\n";
    text += "}\n";
    return text;
}

const char* laneKindName(LaneKind kind)
{
    switch (kind) {
    case LaneKind::Thread: return "thread";
    case LaneKind::Stream: return "stream";
    case LaneKind::Imported: return "imported";
    }
    return "imported";
}

/// Writes one trace as Chrome trace JSON, in TensorFlow's timeline's order: the processes' and
/// lanes' metadata, the tensors' creations and snapshots, each op followed by the flows into it,
/// then the tensors' deletions and the memory counters.
class ChromeTraceWriter {
public:
    ChromeTraceWriter(const ProfileTrace& trace, const ChromeTraceOptions& options, std::string& out)
        : m_trace(trace), m_options(options), m_origin(trace.originNs), m_json(out, options.pretty),
          m_trackTensors(options.showDataflow || options.showMemory)
    {
        // tid: the lane's index among its device's lanes.
        m_laneTid.assign(trace.lanes.size(), 0);
        std::unordered_map<std::uint32_t, std::int64_t> next;
        for (std::size_t l = 0; l < trace.lanes.size(); ++l)
            m_laneTid[l] = next[trace.lanes[l].device]++;
    }

    void write()
    {
        m_json.beginObject();
        m_json.key("traceEvents");
        m_json.beginArray();
        writeMetadata();
        orderEvents();
        if (m_trackTensors)
            writeTensors();
        std::int64_t nextFlow = 0;
        for (const std::uint32_t i : m_order)
            writeOp(i, nextFlow);
        if (m_options.showMemory)
            writeMemory();
        m_json.endArray();
        m_json.endObject();
    }

private:
    static std::int64_t computePid(std::uint32_t device) { return 1 + 2 * static_cast<std::int64_t>(device); }
    static std::int64_t tensorsPid(std::uint32_t device) { return 2 + 2 * static_cast<std::int64_t>(device); }

    const TraceLane* laneOf(const TraceEvent& e) const
    {
        return e.lane < m_trace.lanes.size() ? &m_trace.lanes[e.lane] : nullptr;
    }

    bool isStreamLane(const TraceLane* lane) const
    {
        return lane != nullptr &&
               (lane->kind == LaneKind::Stream ||
                (lane->device < m_trace.devices.size() && isStreamDevice(m_trace.devices[lane->device].name)));
    }

    std::string tensorName(const TraceEvent& e, std::uint32_t position) const
    {
        std::string name = e.node < m_trace.nodes.size() ? m_trace.nodes[e.node].name : std::string("unknown");
        if (position != 0)
            name += ":" + std::to_string(position);
        return name;
    }

    /// The processes, then (TensorStudio) the lanes' names.
    void writeMetadata()
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        json.beginObject();
        json.field("name", "process_name");
        json.field("ph", "M");
        json.field("pid", 0);
        json.key("args");
        json.beginObject();
        json.field("name", "Allocators");
        if (m_options.tensorStudioArgs && m_options.showMemory && !trace.memory.empty()) {
            json.key("allocator_pids");
            json.beginObject();
            for (const MemoryCounter& counter : trace.memory)
                if (counter.device < trace.devices.size())
                    json.field(counter.allocator, computePid(counter.device));
            json.endObject();
        }
        json.endObject();
        json.endObject();
        for (std::uint32_t d = 0; d < trace.devices.size(); ++d) {
            for (const bool compute : {true, false}) {
                json.beginObject();
                json.field("name", "process_name");
                json.field("ph", "M");
                json.field("pid", compute ? computePid(d) : tensorsPid(d));
                json.key("args");
                json.beginObject();
                json.field("name", trace.devices[d].name + (compute ? " Compute" : " Tensors"));
                json.endObject();
                json.endObject();
            }
        }
        if (!m_options.tensorStudioArgs)
            return;
        for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
            const TraceLane& lane = trace.lanes[l];
            json.beginObject();
            json.field("name", "thread_name");
            json.field("ph", "M");
            json.field("pid", computePid(lane.device));
            json.field("tid", m_laneTid[l]);
            json.key("args");
            json.beginObject();
            json.field("name", lane.name);
            json.field("lane_kind", laneKindName(lane.kind));
            json.field("thread_id", lane.threadId);
            json.endObject();
            json.endObject();
        }
    }

    /// Events in TensorFlow's order: device by device, each device's in time order (TensorFlow writes
    /// them as recorded; a recorder adds them as they run), whatever lane they are on.
    void orderEvents()
    {
        const ProfileTrace& trace = m_trace;
        m_order.reserve(trace.events.size());
        for (std::uint32_t i = 0; i < trace.events.size(); ++i)
            if (laneOf(trace.events[i]) != nullptr)
                m_order.push_back(i);
        auto deviceOf = [&](std::uint32_t i) { return trace.lanes[trace.events[i].lane].device; };
        std::stable_sort(m_order.begin(), m_order.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (deviceOf(a) != deviceOf(b))
                return deviceOf(a) < deviceOf(b);
            return trace.events[a].startNs < trace.events[b].startNs;
        });
    }

    /// The tensors: each output of each execution, by (step, node, position); the last producer wins,
    /// as in TensorFlow's timeline. With memory shown, each one's creation and snapshot.
    void writeTensors()
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        m_nodeIndex.reserve(trace.nodes.size());
        for (std::uint32_t n = 0; n < trace.nodes.size(); ++n)
            m_nodeIndex.emplace(trace.nodes[n].name, n);
        m_tensors.reserve(trace.outputs.size());
        m_tensorIndex.reserve(trace.outputs.size());
        for (const std::uint32_t i : m_order) {
            const TraceEvent& e = trace.events[i];
            const TraceLane* lane = laneOf(e);
            if (e.node >= trace.nodes.size())
                continue;
            for (std::uint32_t k = 0; k < e.outputCount; ++k) {
                const auto id = static_cast<std::uint32_t>(m_tensors.size());
                m_tensors.push_back({i, k, e.startNs + e.durationNs});
                m_tensorIndex[TensorKey{e.step, e.node, k}] = id;
                if (!m_options.showMemory || e.firstOutput + k >= trace.outputs.size())
                    continue;
                const std::string name = tensorName(e, k);
                for (const bool create : {true, false}) {
                    json.beginObject();
                    json.field("ph", create ? "N" : "O");
                    json.field("cat", "Tensor");
                    json.field("name", name);
                    json.field("pid", tensorsPid(lane->device));
                    json.field("tid", m_laneTid[e.lane]);
                    json.key("ts");
                    json.micros(m_origin + (create ? e.startNs : e.startNs + e.durationNs - 1000));
                    json.field("id", id);
                    if (!create) {
                        json.key("args");
                        json.beginObject();
                        json.key("snapshot");
                        json.beginObject();
                        json.field("tensor_description", tensorDescription(trace, trace.outputs[e.firstOutput + k]));
                        json.endObject();
                        json.endObject();
                    }
                    json.endObject();
                }
            }
        }
    }

    /// One op (event i), followed by the flows into it.
    void writeOp(std::uint32_t i, std::int64_t& nextFlow)
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        const TraceEvent& e = trace.events[i];
        const TraceLane* lane = laneOf(e);
        static const TraceNode kUnknownNode{"unknown", "unknown", {}};
        const TraceNode& node = e.node < trace.nodes.size() ? trace.nodes[e.node] : kUnknownNode;
        const bool stream = isStreamLane(lane);
        const std::int64_t pid = computePid(lane->device);
        const std::int64_t tid = m_laneTid[e.lane];
        json.beginObject();
        json.field("ph", "X");
        json.field("cat", "Op");
        json.field("name", node.op);
        json.field("pid", pid);
        json.field("tid", tid);
        json.key("ts");
        json.micros(m_origin + e.startNs);
        json.key("dur");
        json.micros(e.durationNs);
        json.key("args");
        json.beginObject();
        json.field("name", node.name);
        json.field("op", node.op);
        if (!stream)
            for (std::size_t k = 0; k < node.inputs.size(); ++k)
                json.field("input" + std::to_string(k), node.inputs[k]);
        if (m_options.tensorStudioArgs)
            writeOpExtras(e);
        json.endObject();
        json.endObject();
        if (m_trackTensors && !stream)
            writeFlowsInto(e, node, pid, tid, nextFlow);
    }

    /// TensorStudio's args of an op: step, frame and iteration, outputs, bytes.
    void writeOpExtras(const TraceEvent& e)
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        if (e.step < trace.steps.size())
            json.field("step", trace.steps[e.step].number);
        if (e.frame < trace.frames.size()) {
            json.field("frame", trace.frames[e.frame]);
            json.field("iteration", e.iteration);
        }
        if (e.outputCount > 0 && e.firstOutput + e.outputCount <= trace.outputs.size()) {
            json.key("outputs");
            json.beginArray();
            for (std::uint32_t k = 0; k < e.outputCount; ++k) {
                const TraceOutput& output = trace.outputs[e.firstOutput + k];
                json.beginArray();
                json.integer(output.slot);
                json.integer(output.dtype);
                if (output.shape < trace.shapes.size()) {
                    json.beginArray();
                    for (std::int64_t dim : trace.shapes[output.shape])
                        json.integer(dim);
                    json.endArray();
                } else {
                    json.null();
                }
                json.integer(output.requestedBytes);
                json.endArray();
            }
            json.endArray();
        }
        if (e.requestedBytes != 0)
            json.field("requested_bytes", e.requestedBytes);
        if (e.peakBytes != 0)
            json.field("peak_bytes", e.peakBytes);
        if (e.residualBytes != 0)
            json.field("residual_bytes", e.residualBytes);
    }

    /// The tensors op `e` reads: each one's last use moves to `e`, and (dataflow shown) a flow from
    /// its producer on another lane.
    void writeFlowsInto(const TraceEvent& e, const TraceNode& node, std::int64_t pid, std::int64_t tid,
                        std::int64_t& nextFlow)
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        for (const std::string& input : node.inputs) {
            std::string_view name = input;
            auto lookup = [&](std::string_view tensor) -> std::uint32_t {
                const auto [nodeName, position] = splitTensorName(tensor);
                const auto found = m_nodeIndex.find(nodeName);
                if (found == m_nodeIndex.end())
                    return kNoIndex;
                const auto t = m_tensorIndex.find(TensorKey{e.step, found->second, position});
                return t == m_tensorIndex.end() ? kNoIndex : t->second;
            };
            std::uint32_t t = lookup(name);
            if (t == kNoIndex) {
                // A Send/Recv inserted by partitioning: "x/_12" stands for x.
                const std::size_t suffix = name.rfind("/_");
                if (suffix != std::string_view::npos && suffix > 0) {
                    name = name.substr(0, suffix);
                    t = lookup(name);
                }
            }
            if (t == kNoIndex)
                continue;
            TensorUse& tensor = m_tensors[t];
            tensor.lastUnrefNs = std::max(tensor.lastUnrefNs, e.startNs + e.durationNs - 1000);
            const TraceEvent& producer = trace.events[tensor.event];
            const std::int64_t producerPid = computePid(trace.lanes[producer.lane].device);
            const std::int64_t producerTid = m_laneTid[producer.lane];
            if (!m_options.showDataflow || (producerPid == pid && producerTid == tid))
                continue;
            for (const bool start : {true, false}) {
                json.beginObject();
                json.field("ph", start ? "s" : "t");
                json.field("cat", "DataFlow");
                json.field("name", name);
                json.field("pid", start ? producerPid : pid);
                json.field("tid", start ? producerTid : tid);
                json.key("ts");
                json.micros(m_origin + (start ? producer.startNs + producer.durationNs : e.startNs));
                json.field("id", nextFlow);
                json.endObject();
            }
            ++nextFlow;
        }
    }

    /// The tensors' deletions at their last use, then the allocators' counters.
    void writeMemory()
    {
        const ProfileTrace& trace = m_trace;
        JsonText& json = m_json;
        for (std::uint32_t t = 0; t < m_tensors.size(); ++t) {
            const TensorUse& tensor = m_tensors[t];
            const TraceEvent& producer = trace.events[tensor.event];
            json.beginObject();
            json.field("ph", "D");
            json.field("cat", "Tensor");
            json.field("name", tensorName(producer, tensor.position));
            json.field("pid", tensorsPid(trace.lanes[producer.lane].device));
            json.field("tid", 0);
            json.key("ts");
            json.micros(m_origin + tensor.lastUnrefNs);
            json.field("id", t);
            json.endObject();
        }
        for (const MemoryCounter& counter : trace.memory)
            for (const auto& [time, bytes] : counter.samples) {
                json.beginObject();
                json.field("ph", "C");
                json.field("cat", "Memory");
                json.field("name", counter.allocator);
                json.field("pid", 0);
                json.field("tid", 0);
                json.key("ts");
                json.micros(m_origin + time);
                json.key("args");
                json.beginObject();
                json.field(counter.allocator, bytes);
                json.endObject();
                json.endObject();
            }
    }

    const ProfileTrace& m_trace;
    const ChromeTraceOptions& m_options;
    const std::int64_t m_origin;
    JsonText m_json;
    const bool m_trackTensors;
    std::vector<std::int64_t> m_laneTid;
    std::vector<std::uint32_t> m_order;
    std::vector<TensorUse> m_tensors;
    std::unordered_map<TensorKey, std::uint32_t, TensorKeyHash> m_tensorIndex;
    std::unordered_map<std::string_view, std::uint32_t> m_nodeIndex;
};

} // namespace

std::string chromeTraceJson(const ProfileTrace& trace, const ChromeTraceOptions& options)
{
    std::string out;
    out.reserve(trace.events.size() * (options.pretty ? 420 : 200) + trace.devices.size() * 256 + 1024);
    ChromeTraceWriter(trace, options, out).write();
    return out;
}

} // namespace tstudio::profiler
