// parseChromeTrace: Chrome trace JSON (TensorFlow's timeline, Perfetto and chrome://tracing exports, our
// own) read with simdjson's On-Demand API into a ProfileTrace.
#include "profiler/chrome_trace_json.h"

#include "profiler/trace_builder.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

namespace od = simdjson::ondemand;

/// Limits that keep every time and end in int64 nanoseconds: timestamps within +-4e15 us of the epoch
/// (the year 2096; 1e15 us was 2001), durations up to 1e15 us (31 years).
constexpr double kMaxTimestampMicros = 4e15;
constexpr double kMaxDurationMicros = 1e15;

/// A pid or tid: the JSON integer, or for a string an id of its own (with the string kept as its name).
using TraceId = std::int64_t;
constexpr TraceId kStringIdBase = std::int64_t(1) << 62;

/// The args of one event that the import uses; strings point into the parser's buffer.
struct EventArgs {
    std::string_view name, op, laneKind, frame;
    bool hasName = false, hasOp = false;
    std::vector<std::pair<std::uint32_t, std::string_view>> inputs;
    std::optional<std::int64_t> step, threadId, iteration;
    std::int64_t requestedBytes = 0, peakBytes = 0, residualBytes = 0;
    std::vector<TraceOutput> outputs;
    std::vector<std::vector<std::int64_t>> outputDims; ///< per output; empty + unknown flag below
    std::vector<bool> outputShapeKnown;
    std::vector<std::pair<std::string_view, double>> numbers; ///< every numeric arg (counters)
    std::vector<std::pair<std::string_view, std::int64_t>> allocatorPids;

    void clear()
    {
        name = op = laneKind = frame = {};
        hasName = hasOp = false;
        inputs.clear();
        step.reset();
        threadId.reset();
        iteration.reset();
        requestedBytes = peakBytes = residualBytes = 0;
        outputs.clear();
        outputDims.clear();
        outputShapeKnown.clear();
        numbers.clear();
        allocatorPids.clear();
    }
};

/// An op read from the file, before lanes and the origin are known.
struct RawOp {
    TraceId pid = 0, tid = 0;
    std::int64_t startNs = 0, durationNs = 0;
    std::uint32_t node = kNoIndex;
    std::optional<std::int64_t> step;
    std::uint32_t frame = kNoIndex; ///< loop frame (index into ProfileTrace::frames)
    std::int64_t iteration = 0;
    std::uint32_t firstOutput = 0, outputCount = 0;
    std::int64_t requestedBytes = 0, peakBytes = 0, residualBytes = 0, outputBytes = 0;
};

struct ThreadInfo {
    std::string name;
    std::optional<std::int64_t> threadId;
    LaneKind kind = LaneKind::Imported;
};

std::string_view trimRight(std::string_view token)
{
    while (!token.empty() &&
           (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    return token;
}

enum class NumberStatus { kOk, kNotNumber, kOutOfRange };

/// A JSON number of microseconds as nanoseconds, exactly (the digits are shifted, never put through a
/// double; digits below the nanosecond are rounded half up). |value| must not exceed maxMicros.
NumberStatus microsToNanos(std::string_view token, double maxMicros, std::int64_t* nanos)
{
    token = trimRight(token);
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t i = 0;
    const bool negative = i < token.size() && token[i] == '-';
    if (negative)
        ++i;
    // The significant digits (integer part, then fraction; leading zeros skipped, at most kKeep kept) and
    // the power of ten of the last one kept.
    constexpr std::size_t kKeep = 40;
    char digits[kKeep];
    std::size_t count = 0;
    std::int64_t scale = 3; // microseconds -> nanoseconds
    const std::size_t intStart = i;
    for (; i < token.size() && isDigit(token[i]); ++i) {
        if (count == 0 && token[i] == '0')
            continue;
        if (count < kKeep)
            digits[count++] = token[i];
        else
            ++scale; // an integer digit dropped: the value keeps its magnitude
    }
    if (i == intStart)
        return NumberStatus::kNotNumber;
    if (i < token.size() && token[i] == '.') {
        const std::size_t fracStart = ++i;
        for (; i < token.size() && isDigit(token[i]); ++i) {
            if (count == kKeep)
                continue; // far below a nanosecond
            if (count > 0 || token[i] != '0')
                digits[count++] = token[i];
            --scale;
        }
        if (i == fracStart)
            return NumberStatus::kNotNumber;
    }
    if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
        ++i;
        const bool negativeExponent = i < token.size() && token[i] == '-';
        if (i < token.size() && (token[i] == '-' || token[i] == '+'))
            ++i;
        const std::size_t expStart = i;
        std::int64_t exponent = 0;
        while (i < token.size() && isDigit(token[i])) {
            exponent = std::min<std::int64_t>(exponent * 10 + (token[i] - '0'), 100000);
            ++i;
        }
        if (i == expStart)
            return NumberStatus::kNotNumber;
        scale += negativeExponent ? -exponent : exponent;
    }
    if (i != token.size())
        return NumberStatus::kNotNumber;
    std::uint64_t value = 0;
    if (count > 0) {
        // The value has `whole` integer digits in nanoseconds.
        const auto kept = static_cast<std::int64_t>(count);
        const std::int64_t whole = kept + scale;
        if (whole > 19)
            return NumberStatus::kOutOfRange;
        for (std::int64_t k = 0; k < whole; ++k)
            value = value * 10 + static_cast<std::uint64_t>(k < kept ? digits[k] - '0' : 0);
        if (whole >= 0 && whole < kept && digits[whole] >= '5')
            ++value;
    }
    if (value > static_cast<std::uint64_t>(maxMicros) * 1000)
        return NumberStatus::kOutOfRange;
    *nanos = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
    return NumberStatus::kOk;
}

const char* typeName(od::json_type type)
{
    switch (type) {
    case od::json_type::array: return "an array";
    case od::json_type::object: return "an object";
    case od::json_type::number: return "a number";
    case od::json_type::string: return "a string";
    case od::json_type::boolean: return "a boolean";
    case od::json_type::null: return "null";
    }
    return "a value";
}

/// A number arg as int64 (integers exactly, decimals rounded), or nullopt for other types.
std::optional<std::int64_t> integerValue(od::value& value)
{
    od::number_type type;
    if (value.get_number_type().get(type))
        return std::nullopt;
    if (type == od::number_type::signed_integer) {
        std::int64_t v;
        if (!value.get_int64().get(v))
            return v;
        return std::nullopt;
    }
    double d;
    if (value.get_double().get(d) || !std::isfinite(d) || std::fabs(d) > 9e18)
        return std::nullopt;
    return std::llround(d);
}

class ChromeTraceReader {
public:
    ChromeTraceReader(std::string sourceName, std::vector<std::string>* warnings)
        : m_source(std::move(sourceName)), m_warnings(warnings), m_interner(m_trace)
    {
    }

    Expected<ProfileTrace> read(const char* data, std::size_t length, std::size_t capacity);

private:
    Status jsonError(simdjson::error_code error, od::document& doc) const
    {
        std::string where;
        const char* location = nullptr;
        if (!doc.current_location().get(location) && location >= m_data && location <= m_data + m_length)
            where = " at byte offset " + std::to_string(location - m_data);
        return invalidArgumentError(m_source + ": not valid Chrome trace JSON: " + simdjson::error_message(error) +
                                    where);
    }
    Status eventError(const std::string& what) const
    {
        return invalidArgumentError(m_source + ": event " + std::to_string(m_eventIndex) + " of traceEvents " + what);
    }
    void warn(const std::string& what)
    {
        if (m_warnings != nullptr)
            m_warnings->push_back(m_source + ": " + what);
    }

    Status readEvents(od::array events, od::document& doc);
    Status readEvent(od::value element, od::document& doc);
    Status readArgs(od::object args, od::document& doc);
    Status readOutputs(od::array outputs, od::document& doc);
    Status readId(od::value value, const char* field, TraceId* id);
    Status readTime(od::value value, const char* field, std::int64_t* nanos);
    void addOp(TraceId pid, TraceId tid, std::int64_t start, std::int64_t duration, std::string_view eventName,
               const EventArgs& args);
    ProfileTrace finish();

    std::string m_source;
    std::vector<std::string>* m_warnings;
    const char* m_data = nullptr;
    std::size_t m_length = 0;
    std::size_t m_eventIndex = 0;

    ProfileTrace m_trace;
    TraceInterner m_interner;
    EventArgs m_args;
    std::vector<RawOp> m_ops;
    std::map<TraceId, std::string> m_processNames;
    std::map<std::pair<TraceId, TraceId>, ThreadInfo> m_threads;
    std::map<TraceId, std::string> m_stringIds; ///< names of string pids/tids
    std::unordered_map<std::string, TraceId> m_stringIdIndex;
    /// Open "B" events per (pid, tid): the op being built, its args kept as an index into m_ops.
    std::map<std::pair<TraceId, TraceId>, std::vector<std::size_t>> m_open;
    struct CounterSample {
        std::string name;
        TraceId pid;
        std::int64_t timeNs;
        std::int64_t value;
    };
    std::vector<CounterSample> m_samples;
    std::unordered_map<std::string, TraceId> m_allocatorPids;
    std::size_t m_unmatchedEnds = 0;
};

Status ChromeTraceReader::readId(od::value value, const char* field, TraceId* id)
{
    od::json_type type;
    if (auto error = value.type().get(type))
        return eventError(std::string("has a malformed \"") + field + "\": " + simdjson::error_message(error));
    if (type == od::json_type::number) {
        const auto v = integerValue(value);
        if (!v)
            return eventError(std::string("has a \"") + field + "\" that is not an integer");
        *id = *v;
        return {};
    }
    if (type == od::json_type::string) {
        std::string_view text;
        if (value.get_string().get(text))
            return eventError(std::string("has a malformed \"") + field + "\" string");
        auto [it, added] = m_stringIdIndex.try_emplace(std::string(text), kStringIdBase + m_stringIdIndex.size());
        if (added)
            m_stringIds[it->second] = std::string(text);
        *id = it->second;
        return {};
    }
    return eventError(std::string("has a \"") + field + "\" that is " + typeName(type) +
                      ", expected an integer or a string");
}

Status ChromeTraceReader::readTime(od::value value, const char* field, std::int64_t* nanos)
{
    od::json_type type;
    if (auto error = value.type().get(type))
        return eventError(std::string("has a malformed \"") + field + "\": " + simdjson::error_message(error));
    if (type != od::json_type::number)
        return eventError(std::string("has a \"") + field + "\" that is " + typeName(type) +
                          ", expected a number of microseconds");
    const std::string_view token = value.raw_json_token();
    const bool duration = std::string_view(field) == "dur";
    const double limit = duration ? kMaxDurationMicros : kMaxTimestampMicros;
    switch (microsToNanos(token, limit, nanos)) {
    case NumberStatus::kOk: return {};
    case NumberStatus::kNotNumber:
        return eventError(std::string("has a \"") + field +
                          "\" that is not a valid number: " + std::string(trimRight(token).substr(0, 40)));
    case NumberStatus::kOutOfRange:
        return eventError(std::string("has an absurd \"") + field + "\" " +
                          std::string(trimRight(token).substr(0, 40)) +
                          (duration ? " (more than 1e15 microseconds)" : " (more than 4e15 microseconds from 1970)"));
    }
    return {};
}

Status ChromeTraceReader::readOutputs(od::array outputs, od::document& doc)
{
    for (auto item : outputs) {
        od::value entry;
        if (auto error = item.get(entry))
            return jsonError(error, doc);
        od::array fields;
        if (entry.get_array().get(fields))
            continue; // not ours: skipped
        TraceOutput output;
        std::vector<std::int64_t> dims;
        bool shapeKnown = false;
        int position = 0;
        bool valid = true;
        for (auto fieldItem : fields) {
            od::value field;
            if (auto error = fieldItem.get(field))
                return jsonError(error, doc);
            if (position == 2) {
                od::array dimArray;
                if (!field.get_array().get(dimArray)) {
                    shapeKnown = true;
                    for (auto dimItem : dimArray) {
                        od::value dim;
                        if (auto error = dimItem.get(dim))
                            return jsonError(error, doc);
                        const auto size = integerValue(dim);
                        valid = valid && size.has_value();
                        dims.push_back(size.value_or(-1));
                    }
                }
            } else {
                const auto v = integerValue(field);
                valid = valid && v.has_value() && position < 4;
                if (v && position == 0)
                    output.slot = static_cast<std::int32_t>(*v);
                else if (v && position == 1)
                    output.dtype = static_cast<std::int32_t>(*v);
                else if (v && position == 3)
                    output.requestedBytes = *v;
            }
            ++position;
        }
        if (!valid || position != 4)
            continue;
        m_args.outputs.push_back(output);
        m_args.outputDims.push_back(std::move(dims));
        m_args.outputShapeKnown.push_back(shapeKnown);
    }
    return {};
}

Status ChromeTraceReader::readArgs(od::object args, od::document& doc)
{
    for (auto item : args) {
        od::field field;
        if (auto error = std::move(item).get(field))
            return jsonError(error, doc);
        std::string_view key;
        if (auto error = field.unescaped_key().get(key))
            return jsonError(error, doc);
        od::value value = field.value();
        od::json_type type;
        if (auto error = value.type().get(type))
            return jsonError(error, doc);
        if (type == od::json_type::string) {
            std::string_view text;
            if (auto error = value.get_string().get(text))
                return jsonError(error, doc);
            if (key == "name") {
                m_args.name = text;
                m_args.hasName = true;
            } else if (key == "op") {
                m_args.op = text;
                m_args.hasOp = true;
            } else if (key == "lane_kind") {
                m_args.laneKind = text;
            } else if (key == "frame") {
                m_args.frame = text;
            } else if (key.size() > 5 && key.substr(0, 5) == "input" && key.size() <= 11) {
                std::uint32_t index = 0;
                const auto result = std::from_chars(key.data() + 5, key.data() + key.size(), index);
                if (result.ec == std::errc() && result.ptr == key.data() + key.size())
                    m_args.inputs.emplace_back(index, text);
            }
        } else if (type == od::json_type::number) {
            double number = 0;
            if (value.get_double().get(number))
                continue;
            m_args.numbers.emplace_back(key, number);
            const auto integer = integerValue(value);
            if (!integer)
                continue;
            if (key == "step")
                m_args.step = *integer;
            else if (key == "thread_id")
                m_args.threadId = *integer;
            else if (key == "iteration")
                m_args.iteration = *integer;
            else if (key == "requested_bytes")
                m_args.requestedBytes = *integer;
            else if (key == "peak_bytes")
                m_args.peakBytes = *integer;
            else if (key == "residual_bytes")
                m_args.residualBytes = *integer;
        } else if (type == od::json_type::array && key == "outputs") {
            od::array outputs;
            if (auto error = value.get_array().get(outputs))
                return jsonError(error, doc);
            if (Status s = readOutputs(outputs, doc); !s.isOk())
                return s;
        } else if (type == od::json_type::object && key == "allocator_pids") {
            od::object pids;
            if (auto error = value.get_object().get(pids))
                return jsonError(error, doc);
            for (auto pidItem : pids) {
                od::field pidField;
                if (auto error = std::move(pidItem).get(pidField))
                    return jsonError(error, doc);
                std::string_view allocator;
                if (auto error = pidField.unescaped_key().get(allocator))
                    return jsonError(error, doc);
                od::value pidValue = pidField.value();
                if (const auto pid = integerValue(pidValue))
                    m_args.allocatorPids.emplace_back(allocator, *pid);
            }
        }
    }
    return {};
}

void ChromeTraceReader::addOp(TraceId pid, TraceId tid, std::int64_t start, std::int64_t duration,
                              std::string_view eventName, const EventArgs& args)
{
    RawOp op;
    op.pid = pid;
    op.tid = tid;
    op.startNs = start;
    op.durationNs = duration;
    op.step = args.step;
    // Our own export's loop position (a frame without a non-negative iteration is ignored).
    if (!args.frame.empty() && args.iteration && *args.iteration >= 0) {
        op.frame = m_trace.internFrame(std::string(args.frame));
        op.iteration = *args.iteration;
    }
    bool added = false;
    op.node = m_interner.node(args.hasName ? args.name : eventName, &added);
    if (added) {
        TraceNode& node = m_trace.nodes[op.node];
        node.op = std::string(args.hasOp ? args.op : eventName);
        std::vector<std::pair<std::uint32_t, std::string_view>> inputs = args.inputs;
        std::sort(inputs.begin(), inputs.end());
        for (const auto& [index, input] : inputs)
            node.inputs.emplace_back(input);
    }
    op.firstOutput = static_cast<std::uint32_t>(m_trace.outputs.size());
    for (std::size_t k = 0; k < args.outputs.size(); ++k) {
        TraceOutput output = args.outputs[k];
        output.shape = args.outputShapeKnown[k] ? m_interner.shape(args.outputDims[k]) : kNoIndex;
        op.outputBytes += output.requestedBytes;
        m_trace.outputs.push_back(output);
    }
    op.outputCount = static_cast<std::uint32_t>(args.outputs.size());
    op.requestedBytes = args.requestedBytes;
    op.peakBytes = args.peakBytes;
    op.residualBytes = args.residualBytes;
    m_ops.push_back(op);
}

Status ChromeTraceReader::readEvent(od::value element, od::document& doc)
{
    od::object object;
    if (element.get_object().get(object)) {
        od::json_type type;
        if (element.type().get(type))
            return jsonError(simdjson::TAPE_ERROR, doc);
        return eventError(std::string("is ") + typeName(type) + ", expected an object");
    }
    m_args.clear();
    std::string_view ph, name;
    bool hasPh = false, hasTs = false, hasDur = false, hasPid = false, hasMembers = false;
    std::int64_t ts = 0, dur = 0;
    TraceId pid = 0, tid = 0;
    for (auto item : object) {
        od::field field;
        if (auto error = std::move(item).get(field))
            return jsonError(error, doc);
        std::string_view key;
        if (auto error = field.unescaped_key().get(key))
            return jsonError(error, doc);
        od::value value = field.value();
        hasMembers = true;
        Status s;
        if (key == "ph") {
            if (value.get_string().get(ph))
                return eventError("has a \"ph\" that is not a string");
            hasPh = true;
        } else if (key == "name") {
            od::json_type type;
            if (!value.type().get(type) && type == od::json_type::string && value.get_string().get(name))
                return eventError("has a malformed \"name\"");
        } else if (key == "ts") {
            s = readTime(value, "ts", &ts);
            hasTs = true;
        } else if (key == "dur") {
            s = readTime(value, "dur", &dur);
            hasDur = true;
        } else if (key == "pid") {
            s = readId(value, "pid", &pid);
            hasPid = true;
        } else if (key == "tid") {
            s = readId(value, "tid", &tid);
        } else if (key == "args") {
            od::object args;
            if (!value.get_object().get(args))
                s = readArgs(args, doc);
        }
        if (!s.isOk())
            return s;
    }
    // TensorFlow's profiler (trace_events_to_json) ends traceEvents with an empty object.
    if (!hasMembers)
        return {};
    if (!hasPh)
        return eventError("has no \"ph\"");
    if (ph == "M") {
        if (name == "process_name" && m_args.hasName) {
            m_processNames[pid] = std::string(m_args.name);
            for (const auto& [allocator, allocatorPid] : m_args.allocatorPids)
                m_allocatorPids[std::string(allocator)] = allocatorPid;
        } else if (name == "thread_name" && m_args.hasName) {
            ThreadInfo& info = m_threads[{pid, tid}];
            info.name = std::string(m_args.name);
            info.threadId = m_args.threadId;
            info.kind = m_args.laneKind == "thread"   ? LaneKind::Thread
                        : m_args.laneKind == "stream" ? LaneKind::Stream
                                                      : LaneKind::Imported;
        }
        return {};
    }
    const bool op = ph == "X" || ph == "B" || ph == "E";
    if (!op && ph != "C")
        return {}; // flows, objects, instants, async and sample events are not ops
    if (!hasTs)
        return eventError("(\"ph\": \"" + std::string(ph) + "\") has no \"ts\"");
    if (!hasPid && op)
        return eventError("(\"ph\": \"" + std::string(ph) + "\") has no \"pid\"");
    if (ph == "X") {
        if (!hasDur)
            return eventError("(\"ph\": \"X\") has no \"dur\"");
        if (dur < 0)
            return eventError("has a negative \"dur\"");
        addOp(pid, tid, ts, dur, name, m_args);
    } else if (ph == "B") {
        addOp(pid, tid, ts, 0, name, m_args);
        m_open[{pid, tid}].push_back(m_ops.size() - 1);
    } else if (ph == "E") {
        auto open = m_open.find({pid, tid});
        if (open == m_open.end() || open->second.empty()) {
            ++m_unmatchedEnds;
            return {};
        }
        RawOp& begun = m_ops[open->second.back()];
        open->second.pop_back();
        begun.durationNs = std::max<std::int64_t>(0, ts - begun.startNs);
    } else { // "C"
        const bool single = m_args.numbers.size() == 1;
        for (const auto& [key, number] : m_args.numbers) {
            if (!std::isfinite(number) || std::fabs(number) > 9e18)
                continue;
            std::string counter = single ? std::string(name) : std::string(name) + " " + std::string(key);
            m_samples.push_back({std::move(counter), pid, ts, std::llround(number)});
        }
    }
    return {};
}

Status ChromeTraceReader::readEvents(od::array events, od::document& doc)
{
    for (auto item : events) {
        od::value element;
        if (auto error = item.get(element))
            return jsonError(error, doc);
        if (Status s = readEvent(element, doc); !s.isOk())
            return s;
        ++m_eventIndex;
    }
    return {};
}

Expected<ProfileTrace> ChromeTraceReader::read(const char* data, std::size_t length, std::size_t capacity)
{
    m_data = data;
    m_length = length;
    od::parser parser;
    od::document doc;
    if (auto error = parser.iterate(data, length, capacity).get(doc))
        return unexpected(
            invalidArgumentError(m_source + ": not valid Chrome trace JSON: " + simdjson::error_message(error)));
    od::json_type rootType;
    if (auto error = doc.type().get(rootType))
        return unexpected(jsonError(error, doc));
    bool sawEvents = false;
    if (rootType == od::json_type::array) {
        od::array events;
        if (auto error = doc.get_array().get(events))
            return unexpected(jsonError(error, doc));
        if (Status s = readEvents(events, doc); !s.isOk())
            return unexpected(s);
        sawEvents = true;
    } else if (rootType == od::json_type::object) {
        od::object root;
        if (auto error = doc.get_object().get(root))
            return unexpected(jsonError(error, doc));
        for (auto item : root) {
            od::field field;
            if (auto error = std::move(item).get(field))
                return unexpected(jsonError(error, doc));
            std::string_view key;
            if (auto error = field.unescaped_key().get(key))
                return unexpected(jsonError(error, doc));
            if (key != "traceEvents")
                continue;
            od::array events;
            if (field.value().get_array().get(events))
                return unexpected(invalidArgumentError(m_source + ": \"traceEvents\" is not an array"));
            if (Status s = readEvents(events, doc); !s.isOk())
                return unexpected(s);
            sawEvents = true;
        }
    } else {
        return unexpected(
            invalidArgumentError(m_source + ": a Chrome trace is a JSON object or array, found " + typeName(rootType)));
    }
    // Past the last value the document has no current location; one still in bounds is trailing content.
    const char* trailing = nullptr;
    if (!doc.current_location().get(trailing))
        return unexpected(jsonError(simdjson::TRAILING_CONTENT, doc));
    if (!sawEvents)
        return unexpected(invalidArgumentError(m_source + ": no \"traceEvents\" array: not a Chrome trace"));
    return finish();
}

ProfileTrace ChromeTraceReader::finish()
{
    std::size_t unclosed = 0;
    for (auto& [thread, open] : m_open)
        for (std::size_t index : open) {
            m_ops[index].node = kNoIndex; // dropped below
            ++unclosed;
        }
    if (m_unmatchedEnds > 0)
        warn(std::to_string(m_unmatchedEnds) + " \"E\" events without an open \"B\" were skipped");
    if (unclosed > 0)
        warn(std::to_string(unclosed) + " \"B\" events that never ended were skipped");

    auto idName = [&](TraceId id) {
        const auto named = m_stringIds.find(id);
        return named != m_stringIds.end() ? named->second : std::to_string(id);
    };
    auto endsWith = [](const std::string& s, std::string_view suffix) {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    // Devices: pids with ops or named "<device> Compute", in pid order; TensorFlow's Tensors and
    // Allocators processes are not devices.
    std::map<TraceId, std::uint32_t> devicePids;
    auto isObjectProcess = [&](TraceId pid) {
        const auto named = m_processNames.find(pid);
        return named != m_processNames.end() && (named->second == "Allocators" || endsWith(named->second, " Tensors"));
    };
    for (const RawOp& op : m_ops)
        if (op.node != kNoIndex && !isObjectProcess(op.pid))
            devicePids.emplace(op.pid, 0);
    for (const auto& [pid, name] : m_processNames)
        if (endsWith(name, " Compute"))
            devicePids.emplace(pid, 0);
    for (auto& [pid, index] : devicePids) {
        index = static_cast<std::uint32_t>(m_trace.devices.size());
        const auto named = m_processNames.find(pid);
        std::string name = named == m_processNames.end() ? "pid " + idName(pid) : named->second;
        if (endsWith(name, " Compute"))
            name.resize(name.size() - 8);
        m_trace.devices.push_back({name, traceDeviceType(name)});
    }

    // Lanes: (pid, tid) groups of a device by tid.
    std::map<std::pair<TraceId, TraceId>, std::uint32_t> groupIndex;
    for (const RawOp& op : m_ops)
        if (op.node != kNoIndex && devicePids.count(op.pid))
            groupIndex.emplace(std::make_pair(op.pid, op.tid), 0);
    std::vector<LaneGroup> groups;
    for (auto& [key, index] : groupIndex) {
        index = static_cast<std::uint32_t>(groups.size());
        LaneGroup group;
        group.device = devicePids[key.first];
        const auto info = m_threads.find(key);
        const bool stringTid = key.second >= kStringIdBase;
        group.threadId = stringTid ? static_cast<std::int64_t>(index) : key.second;
        group.kind = LaneKind::Imported;
        group.name = stringTid ? idName(key.second) : "thread " + std::to_string(key.second);
        if (info != m_threads.end()) {
            group.name = info->second.name;
            group.kind = info->second.kind;
            if (info->second.threadId)
                group.threadId = *info->second.threadId;
        }
        groups.push_back(std::move(group));
    }

    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const RawOp& op : m_ops)
        if (op.node != kNoIndex && devicePids.count(op.pid))
            origin = std::min(origin, op.startNs);
    if (origin == std::numeric_limits<std::int64_t>::max())
        for (const CounterSample& sample : m_samples)
            origin = std::min(origin, sample.timeNs);
    if (origin == std::numeric_limits<std::int64_t>::max())
        origin = 0;
    m_trace.originNs = origin;

    std::map<std::int64_t, std::uint32_t> stepIndex;
    std::vector<TraceEvent> events;
    events.reserve(m_ops.size());
    for (const RawOp& op : m_ops) {
        if (op.node == kNoIndex || !devicePids.count(op.pid))
            continue;
        TraceEvent e;
        e.startNs = op.startNs - origin;
        e.durationNs = op.durationNs;
        e.node = op.node;
        e.lane = groupIndex[{op.pid, op.tid}];
        auto [step, added] = stepIndex.try_emplace(op.step.value_or(0), 0);
        if (added) {
            step->second = static_cast<std::uint32_t>(m_trace.steps.size());
            m_trace.steps.push_back({step->first, 0, 0});
        }
        e.step = step->second;
        e.firstOutput = op.firstOutput;
        e.outputCount = op.outputCount;
        e.requestedBytes = op.requestedBytes;
        e.peakBytes = op.peakBytes;
        e.residualBytes = op.residualBytes;
        e.outputBytes = op.outputBytes;
        e.frame = op.frame;
        e.iteration = op.iteration;
        events.push_back(e);
    }
    m_ops.clear();
    m_ops.shrink_to_fit();
    packLanes(m_trace, groups, std::move(events));
    finishSteps(m_trace);

    std::unordered_map<std::string, std::uint32_t> counterIndex;
    for (CounterSample& sample : m_samples) {
        auto [it, added] = counterIndex.try_emplace(sample.name, static_cast<std::uint32_t>(m_trace.memory.size()));
        if (added) {
            MemoryCounter counter;
            counter.allocator = sample.name;
            const auto mapped = m_allocatorPids.find(sample.name);
            const TraceId pid = mapped != m_allocatorPids.end() ? mapped->second : sample.pid;
            const auto device = devicePids.find(pid);
            counter.device = device != devicePids.end() ? device->second : kNoIndex;
            m_trace.memory.push_back(std::move(counter));
        }
        m_trace.memory[it->second].samples.emplace_back(sample.timeNs - origin, sample.value);
    }
    finishMemoryCounters(m_trace);
    return std::move(m_trace);
}

/// A bare array whose closing ']' is missing (allowed by the format) gets one, after any trailing comma.
void closeOpenArray(std::string& json)
{
    const std::size_t first = json.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || json[first] != '[')
        return;
    std::size_t last = json.find_last_not_of(" \t\r\n");
    if (json[last] == ']')
        return;
    if (json[last] == ',')
        json.resize(last);
    json += ']';
}

} // namespace

Expected<ProfileTrace> parseChromeTrace(std::string&& json, const std::string& sourceName,
                                        std::vector<std::string>* warnings)
{
    closeOpenArray(json);
    const std::size_t length = json.size();
    json.resize(length + simdjson::SIMDJSON_PADDING, '\0');
    ChromeTraceReader reader(sourceName, warnings);
    return reader.read(json.data(), length, json.size());
}

Expected<ProfileTrace> parseChromeTrace(std::string_view json, const std::string& sourceName,
                                        std::vector<std::string>* warnings)
{
    std::string copy;
    copy.reserve(json.size() + simdjson::SIMDJSON_PADDING + 1);
    copy.assign(json);
    return parseChromeTrace(std::move(copy), sourceName, warnings);
}

} // namespace tstudio::profiler
