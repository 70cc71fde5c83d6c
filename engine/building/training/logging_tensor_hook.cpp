// LoggingTensorHook: logs tensor values every N runs or seconds, and/or at the end.
#include "training/logging_tensor_hook.h"

#include "core/log.h"
#include "runtime/session.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tstudio::training {
namespace {

template <typename F> std::string shortest(F v, std::chars_format format)
{
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, format);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

/// numpy's str of a float scalar.
template <typename F> std::string floatScalar(F v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v < 0 ? "-inf" : "inf";
    const F a = std::abs(v);
    if (a != 0 && (a < F(1e-4) || a >= F(1e16)))
        return shortest(v, std::chars_format::scientific);
    std::string s = shortest(v, std::chars_format::fixed);
    if (s.find('.') == std::string::npos)
        s += ".0";
    return s;
}

/// An array element before padding: integer part and fractional digits (maxprec, 8 digits).
template <typename F> std::pair<std::string, std::string> floatElement(F v)
{
    if (std::isnan(v))
        return {"nan", ""};
    if (std::isinf(v))
        return {v < 0 ? "-inf" : "inf", ""};
    std::string s = shortest(v, std::chars_format::fixed);
    std::size_t dot = s.find('.');
    if (dot != std::string::npos && s.size() - dot - 1 > 8) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%.8f", static_cast<double>(v));
        s = buf;
        while (s.back() == '0')
            s.pop_back();
        dot = s.find('.');
    }
    if (dot == std::string::npos)
        return {s, "."};
    return {s.substr(0, dot), s.substr(dot)};
}

std::string element(const Tensor& t, std::int64_t i)
{
    switch (t.dtype()) {
    case tensorflow::DT_INT32: return std::to_string(t.values<std::int32_t>()[static_cast<std::size_t>(i)]);
    case tensorflow::DT_INT64: return std::to_string(t.values<std::int64_t>()[static_cast<std::size_t>(i)]);
    case tensorflow::DT_BOOL: return t.values<bool>()[static_cast<std::size_t>(i)] ? "True" : "False";
    case tensorflow::DT_STRING: return "b'" + t.strings()[static_cast<std::size_t>(i)] + "'";
    default: return "?";
    }
}

bool isFloat(const Tensor& t)
{
    return t.dtype() == tensorflow::DT_FLOAT || t.dtype() == tensorflow::DT_DOUBLE;
}

void writeArray(const std::vector<std::string>& cells, const std::vector<std::int64_t>& dims, std::size_t axis,
                std::size_t& next, std::string& out)
{
    out += '[';
    const std::int64_t n = dims[axis];
    for (std::int64_t i = 0; i < n; ++i) {
        if (axis + 1 == dims.size()) {
            if (i)
                out += ' ';
            out += cells[next++];
        } else {
            if (i) {
                out += std::string(dims.size() - axis - 1, '\n');
                out += std::string(axis + 1, ' ');
            }
            writeArray(cells, dims, axis + 1, next, out);
        }
    }
    out += ']';
}

} // namespace

std::string numpyString(const Tensor& t)
{
    if (t.rank() == 0) {
        if (t.dtype() == tensorflow::DT_FLOAT)
            return floatScalar(t.scalar<float>());
        if (t.dtype() == tensorflow::DT_DOUBLE)
            return floatScalar(t.scalar<double>());
        return element(t, 0);
    }
    std::vector<std::string> cells;
    const std::int64_t n = t.numElements();
    if (isFloat(t)) {
        std::vector<std::pair<std::string, std::string>> parts;
        std::size_t intWidth = 0;
        std::size_t fracWidth = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            parts.push_back(t.dtype() == tensorflow::DT_FLOAT
                                ? floatElement(t.values<float>()[static_cast<std::size_t>(i)])
                                : floatElement(t.values<double>()[static_cast<std::size_t>(i)]));
            intWidth = std::max(intWidth, parts.back().first.size());
            fracWidth = std::max(fracWidth, parts.back().second.size());
        }
        for (const auto& [whole, frac] : parts)
            cells.push_back(std::string(intWidth - whole.size(), ' ') + whole + frac +
                            std::string(fracWidth - frac.size(), ' '));
    } else {
        std::size_t width = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            cells.push_back(element(t, i));
            width = std::max(width, cells.back().size());
        }
        if (t.dtype() != tensorflow::DT_STRING)
            for (std::string& c : cells)
                c = std::string(width - c.size(), ' ') + c;
    }
    std::vector<std::int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    std::string out;
    std::size_t next = 0;
    writeArray(cells, dims, 0, next, out);
    return out;
}

Expected<std::shared_ptr<LoggingTensorHook>> LoggingTensorHook::create(LoggingTensorHookOptions options)
{
    const bool onlyAtEnd = options.atEnd && !options.everyNIter && !options.everyNSecs;
    if (!onlyAtEnd && options.everyNIter.has_value() == options.everyNSecs.has_value())
        return unexpected(invalidArgumentError(
            "either at_end and/or exactly one of every_n_iter and every_n_secs must be provided."));
    if (options.everyNIter && *options.everyNIter <= 0)
        return unexpected(invalidArgumentError("invalid every_n_iter=" + std::to_string(*options.everyNIter) + "."));
    if (onlyAtEnd)
        return std::shared_ptr<LoggingTensorHook>(
            new LoggingTensorHook(std::move(options), SecondOrStepTimer::never()));
    auto timer = SecondOrStepTimer::create(options.everyNSecs, options.everyNIter, options.clock);
    if (!timer)
        return unexpected(timer.error());
    return std::shared_ptr<LoggingTensorHook>(new LoggingTensorHook(std::move(options), std::move(*timer)));
}

Status LoggingTensorHook::begin(GraphBuilder& graph)
{
    m_timer.reset();
    m_iterCount = 0;
    for (const auto& [tag, name] : m_options.tensors)
        if (auto t = graph.tensor(name); !t)
            return t.error();
    return {};
}

Expected<SessionRunArgs> LoggingTensorHook::beforeRun(SessionRunContext&)
{
    m_shouldTrigger = m_timer.shouldTriggerForStep(m_iterCount);
    SessionRunArgs args;
    if (m_shouldTrigger)
        for (const auto& [tag, name] : m_options.tensors)
            args.fetches.push_back(name);
    return args;
}

void LoggingTensorHook::log(const std::vector<Tensor>& values)
{
    const auto elapsed = m_timer.updateLastTriggeredStep(m_iterCount);
    std::string line;
    if (m_options.formatter) {
        std::map<std::string, Tensor> byTag;
        for (std::size_t i = 0; i < values.size(); ++i)
            byTag.emplace(m_options.tensors[i].first, values[i]);
        line = m_options.formatter(byTag);
    } else {
        for (std::size_t i = 0; i < values.size(); ++i)
            line += (i ? ", " : "") + m_options.tensors[i].first + " = " + numpyString(values[i]);
        if (elapsed) {
            char secs[64];
            std::snprintf(secs, sizeof secs, " (%.3f sec)", elapsed->first);
            line += secs;
        }
    }
    if (m_options.sink)
        m_options.sink(line);
    else
        logInfo("training", line);
}

Status LoggingTensorHook::afterRun(SessionRunContext&, const SessionRunValues& values)
{
    if (m_shouldTrigger)
        log(values.results);
    ++m_iterCount;
    return {};
}

Status LoggingTensorHook::end(Session& session)
{
    if (!m_options.atEnd)
        return {};
    std::vector<std::string> fetches;
    for (const auto& [tag, name] : m_options.tensors)
        fetches.push_back(name);
    std::vector<Tensor> values;
    if (Status s = session.run({}, fetches, {}, &values); !s.isOk())
        return s;
    log(values);
    return {};
}

} // namespace tstudio::training
