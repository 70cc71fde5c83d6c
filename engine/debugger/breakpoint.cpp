// Breakpoints: the one-line text form, condition checks on output tensors, and fast matching of nodes.
#include "debugger/breakpoint.h"

#include "core/ascii_text.h"
#include "framework/data_type.h"
#include "framework/tensor_statistics.h"
#include "graph/tensor_id.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tstudio::debugger {
namespace {

constexpr std::string_view kTargetsExpected = "expected node:NAME, op:TYPE, regex:PATTERN or any";
constexpr std::string_view kConditionsExpected =
    "expected has_inf_or_nan, has_nan, has_inf, STAT OP NUMBER "
    "(STAT one of min, max, mean, std, abs_max; OP one of <, <=, >, >=, ==, !=) or iteration OP N";

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

struct StatisticName {
    TensorCondition::Statistic statistic;
    std::string_view name;
};
constexpr std::array<StatisticName, 5> kStatistics{{
    {TensorCondition::Statistic::kMin, "min"},
    {TensorCondition::Statistic::kMax, "max"},
    {TensorCondition::Statistic::kMean, "mean"},
    {TensorCondition::Statistic::kStd, "std"},
    {TensorCondition::Statistic::kAbsMax, "abs_max"},
}};

std::string_view statisticName(TensorCondition::Statistic statistic)
{
    for (const StatisticName& entry : kStatistics)
        if (entry.statistic == statistic)
            return entry.name;
    return "?";
}

std::string_view compareSymbol(TensorCondition::Compare compare)
{
    switch (compare) {
    case TensorCondition::Compare::kLess: return "<";
    case TensorCondition::Compare::kLessEqual: return "<=";
    case TensorCondition::Compare::kGreater: return ">";
    case TensorCondition::Compare::kGreaterEqual: return ">=";
    case TensorCondition::Compare::kEqual: return "==";
    case TensorCondition::Compare::kNotEqual: return "!=";
    }
    return "?";
}

bool compareHolds(double left, TensorCondition::Compare compare, double right)
{
    switch (compare) {
    case TensorCondition::Compare::kLess: return left < right;
    case TensorCondition::Compare::kLessEqual: return left <= right;
    case TensorCondition::Compare::kGreater: return left > right;
    case TensorCondition::Compare::kGreaterEqual: return left >= right;
    case TensorCondition::Compare::kEqual: return left == right;
    case TensorCondition::Compare::kNotEqual: return left != right;
    }
    return false;
}

/// The shortest text that reads back as `value` (what formatCondition writes, so it round-trips).
std::string shortestNumber(double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

/// Parses a finite decimal number filling all of `text` ("+" allowed, as people write it).
std::optional<double> parseNumber(std::string_view text)
{
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

/// A statistic for a reason line: three significant digits, unless that rounding would show a
/// value for which the comparison reads wrong ("max 100 > 100"); then every digit needed.
std::string statisticText(double statistic, const TensorCondition& condition)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3g", statistic);
    const std::optional<double> shown = parseNumber(buffer);
    if (shown && compareHolds(*shown, condition.compare, condition.value))
        return buffer;
    return shortestNumber(statistic);
}

Expected<TensorCondition> parseCondition(std::string_view text)
{
    const std::string all = quoted(text);
    TensorCondition condition;
    if (text == "has_inf_or_nan") {
        condition.kind = TensorCondition::Kind::kHasInfOrNan;
        return condition;
    }
    if (text == "has_nan") {
        condition.kind = TensorCondition::Kind::kHasNan;
        return condition;
    }
    if (text == "has_inf") {
        condition.kind = TensorCondition::Kind::kHasInf;
        return condition;
    }
    std::size_t nameEnd = 0;
    while (nameEnd < text.size() && (std::isalnum(static_cast<unsigned char>(text[nameEnd])) || text[nameEnd] == '_'))
        ++nameEnd;
    const std::string_view name = text.substr(0, nameEnd);
    const bool iteration = name == "iteration";
    const auto statistic = std::find_if(kStatistics.begin(), kStatistics.end(),
                                        [&](const StatisticName& entry) { return entry.name == name; });
    if (name.empty() || (!iteration && statistic == kStatistics.end()))
        return unexpected(
            invalidArgumentError("unknown breakpoint condition " + all + ": " + std::string(kConditionsExpected)));
    if (iteration) {
        condition.kind = TensorCondition::Kind::kIteration;
    } else {
        condition.kind = TensorCondition::Kind::kStatistic;
        condition.statistic = statistic->statistic;
    }

    std::string_view rest = trimAsciiSpace(text.substr(nameEnd));
    // Two-character operators first, so "<=" is not read as "<" followed by "=".
    static constexpr std::array<std::pair<std::string_view, TensorCondition::Compare>, 6> kOperators{{
        {"<=", TensorCondition::Compare::kLessEqual},
        {">=", TensorCondition::Compare::kGreaterEqual},
        {"==", TensorCondition::Compare::kEqual},
        {"!=", TensorCondition::Compare::kNotEqual},
        {"<", TensorCondition::Compare::kLess},
        {">", TensorCondition::Compare::kGreater},
    }};
    const auto op = std::find_if(kOperators.begin(), kOperators.end(),
                                 [&](const auto& entry) { return rest.starts_with(entry.first); });
    if (op == kOperators.end())
        return unexpected(invalidArgumentError("missing comparison operator in breakpoint condition " + all +
                                               ": expected <, <=, >, >=, == or != after '" + std::string(name) + "'"));
    condition.compare = op->second;
    const std::string_view number = trimAsciiSpace(rest.substr(op->first.size()));
    if (number.empty())
        return unexpected(invalidArgumentError("missing number in breakpoint condition " + all +
                                               ": expected a finite decimal number after '" + std::string(op->first) +
                                               "'"));
    const std::optional<double> value = parseNumber(number);
    if (iteration) {
        std::int64_t n = -1;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (error != std::errc() || end != number.data() + number.size() || n < 0 || n > (std::int64_t(1) << 52))
            return unexpected(invalidArgumentError("bad iteration " + quoted(number) + " in breakpoint condition " +
                                                   all + ": expected a whole number 0, 1, 2, ..."));
        condition.value = static_cast<double>(n);
        return condition;
    }
    if (!value)
        return unexpected(invalidArgumentError("bad number " + quoted(number) + " in breakpoint condition " + all +
                                               ": expected a finite decimal number such as 100, -0.5 or 1e-3"));
    condition.value = *value;
    return condition;
}

/// The position of the last word "if" standing between blanks after some target text, or npos.
std::size_t findIf(std::string_view text)
{
    for (std::size_t pos = text.rfind("if"); pos != std::string_view::npos && pos > 0;
         pos = text.rfind("if", pos - 1)) {
        const bool before = isAsciiSpace(text[pos - 1]);
        const bool after = pos + 2 == text.size() || isAsciiSpace(text[pos + 2]);
        if (before && after)
            return pos;
    }
    return std::string_view::npos;
}

bool isValidOpType(std::string_view type)
{
    return !type.empty() && std::all_of(type.begin(), type.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '>' || c == '.';
    });
}

std::string regexProblem(const RE2& regex)
{
    switch (regex.error_code()) {
    case RE2::ErrorMissingParen:
    case RE2::ErrorUnexpectedParen: return "unbalanced parentheses";
    case RE2::ErrorMissingBracket: return "unbalanced square brackets";
    case RE2::ErrorRepeatSize: return "bad repeat count in braces";
    case RE2::ErrorBadCharRange: return "bad character range";
    case RE2::ErrorBadEscape:
    case RE2::ErrorTrailingBackslash: return "bad escape or trailing backslash";
    case RE2::ErrorRepeatArgument:
    case RE2::ErrorRepeatOp: return "a repeat (*, +, ?, {}) with nothing to repeat";
    case RE2::ErrorBadCharClass: return "unknown character class";
    case RE2::ErrorPatternTooLarge: return "too complex";
    default: return regex.error().empty() ? std::string("invalid pattern") : regex.error();
    }
}

} // namespace

Expected<NamePattern> NamePattern::compile(const std::string& pattern)
{
    // Bounds kept from the std::regex days (whose recursive compiler overflowed the stack on a
    // pattern of 100,000 characters or 20,000 nested groups); RE2 has its own memory budget too.
    constexpr std::size_t kMaxLength = 1000;
    constexpr int kMaxNesting = 100;
    if (pattern.size() > kMaxLength)
        return unexpected(invalidArgumentError("regex of " + std::to_string(pattern.size()) +
                                               " characters does not compile: at most " +
                                               std::to_string(kMaxLength) + " are accepted"));
    int depth = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '\\')
            ++i;
        else if (pattern[i] == '(' && ++depth > kMaxNesting)
            return unexpected(invalidArgumentError("regex " + quoted(pattern) + " does not compile: groups nested " +
                                                   "deeper than " + std::to_string(kMaxNesting)));
        else if (pattern[i] == ')' && depth > 0)
            --depth;
    }
    RE2::Options options;
    options.set_log_errors(false);
    auto regex = std::make_shared<const RE2>(pattern, options);
    if (!regex->ok())
        return unexpected(
            invalidArgumentError("regex " + quoted(pattern) + " does not compile: " + regexProblem(*regex)));
    NamePattern compiled;
    compiled.m_regex = std::move(regex);
    return compiled;
}

bool NamePattern::search(std::string_view name) const
{
    return m_regex && RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *m_regex);
}

namespace {

/// The reason a NaN/Inf condition holds for the given counts, or nullopt.
std::optional<std::string> nonFiniteReason(TensorCondition::Kind kind, const TensorStatistics& stats)
{
    const bool nan = stats.nanCount > 0;
    const bool inf = stats.negInfCount + stats.posInfCount > 0;
    switch (kind) {
    case TensorCondition::Kind::kHasNan: return nan ? std::optional<std::string>("has NaN") : std::nullopt;
    case TensorCondition::Kind::kHasInf: return inf ? std::optional<std::string>("has Inf") : std::nullopt;
    case TensorCondition::Kind::kHasInfOrNan:
        if (nan && inf)
            return "has NaN and Inf";
        if (nan)
            return "has NaN";
        if (inf)
            return "has Inf";
        return std::nullopt;
    default: return std::nullopt;
    }
}

/// Whether `condition` needs statistics of `dtype` at all (NaN/Inf checks skip the non-floats).
bool worthComputing(const TensorCondition& condition, DataType dtype)
{
    if (condition.kind == TensorCondition::Kind::kAlways || condition.kind == TensorCondition::Kind::kIteration)
        return false;
    if (condition.kind == TensorCondition::Kind::kStatistic)
        return isFloating(dtype) || isInteger(dtype) || isQuantized(dtype);
    return isFloating(dtype);
}

std::optional<std::string> holdsFor(const TensorCondition& condition, const TensorStatistics& stats)
{
    if (condition.kind != TensorCondition::Kind::kStatistic)
        return nonFiniteReason(condition.kind, stats);
    const std::int64_t finite = stats.negativeCount + stats.zeroCount + stats.positiveCount;
    if (!stats.numeric || finite == 0)
        return std::nullopt;
    double statistic = 0;
    switch (condition.statistic) {
    case TensorCondition::Statistic::kMin: statistic = stats.min; break;
    case TensorCondition::Statistic::kMax: statistic = stats.max; break;
    case TensorCondition::Statistic::kMean: statistic = stats.mean; break;
    case TensorCondition::Statistic::kStd: statistic = stats.std; break;
    case TensorCondition::Statistic::kAbsMax: statistic = std::max(std::fabs(stats.min), std::fabs(stats.max)); break;
    }
    if (!compareHolds(statistic, condition.compare, condition.value))
        return std::nullopt;
    return std::string(statisticName(condition.statistic)) + " " + statisticText(statistic, condition) + " " +
           std::string(compareSymbol(condition.compare)) + " " + shortestNumber(condition.value);
}

/// Checks a breakpoint's own fields (what parseBreakpoint guarantees for parsed ones).
Status checkPattern(const Breakpoint& breakpoint)
{
    switch (breakpoint.target) {
    case Breakpoint::Target::kNode:
        if (breakpoint.pattern.empty())
            return invalidArgumentError("empty node name: expected node:NAME");
        if (!isValidNodeName(breakpoint.pattern)) {
            std::string message = quoted(breakpoint.pattern) + " is not a valid node name";
            if (breakpoint.pattern.find(':') != std::string::npos)
                message += " (a breakpoint is on a node, not on one of its tensors)";
            return invalidArgumentError(std::move(message));
        }
        return Status::ok();
    case Breakpoint::Target::kOpType:
        if (breakpoint.pattern.empty())
            return invalidArgumentError("empty op type: expected op:TYPE such as op:MatMul");
        if (!isValidOpType(breakpoint.pattern))
            return invalidArgumentError(quoted(breakpoint.pattern) +
                                        " is not a valid op type (letters, digits, '_', '>' and '.')");
        return Status::ok();
    case Breakpoint::Target::kNameRegex:
        if (breakpoint.pattern.empty())
            return invalidArgumentError("empty regex: expected regex:PATTERN");
        return Status::ok();
    case Breakpoint::Target::kAnyNode:
        if (!breakpoint.pattern.empty())
            return invalidArgumentError("'any' takes no name, found " + quoted(breakpoint.pattern));
        return Status::ok();
    }
    return invalidArgumentError("unknown breakpoint target");
}

} // namespace

Expected<Breakpoint> parseBreakpoint(std::string_view text)
{
    const std::string all = quoted(text);
    text = trimAsciiSpace(text);
    if (text.empty())
        return unexpected(invalidArgumentError("empty breakpoint: " + std::string(kTargetsExpected) +
                                               ", optionally followed by 'if CONDITION'"));
    Breakpoint breakpoint;
    std::string_view target = text;
    if (const std::size_t pos = findIf(text); pos != std::string_view::npos) {
        target = trimAsciiSpace(text.substr(0, pos));
        const std::string_view condition = trimAsciiSpace(text.substr(pos + 2));
        if (condition.empty())
            return unexpected(invalidArgumentError("missing condition after 'if' in breakpoint " + all + ": " +
                                                   std::string(kConditionsExpected)));
        Expected<TensorCondition> parsed = parseCondition(condition);
        if (!parsed)
            return unexpected(parsed.error().withContext("breakpoint " + all));
        breakpoint.condition = *parsed;
    }

    const std::size_t colon = target.find(':');
    const std::string_view kind = colon == std::string_view::npos ? target : target.substr(0, colon);
    const std::string_view pattern = colon == std::string_view::npos ? std::string_view() : target.substr(colon + 1);
    if (target == "any") {
        breakpoint.target = Breakpoint::Target::kAnyNode;
    } else if (colon == std::string_view::npos) {
        breakpoint.target = Breakpoint::Target::kNode;
        breakpoint.pattern = std::string(target);
    } else if (kind == "node") {
        breakpoint.target = Breakpoint::Target::kNode;
        breakpoint.pattern = std::string(pattern);
    } else if (kind == "op") {
        breakpoint.target = Breakpoint::Target::kOpType;
        breakpoint.pattern = std::string(pattern);
    } else if (kind == "regex") {
        breakpoint.target = Breakpoint::Target::kNameRegex;
        breakpoint.pattern = std::string(pattern);
    } else if (kind == "any") {
        breakpoint.target = Breakpoint::Target::kAnyNode;
        breakpoint.pattern = std::string(pattern);
    } else {
        return unexpected(invalidArgumentError("unknown breakpoint target " + quoted(kind) + " in " + all + ": " +
                                               std::string(kTargetsExpected)));
    }
    if (Status status = checkPattern(breakpoint); !status.isOk())
        return unexpected(status.withContext("breakpoint " + all));
    if (breakpoint.target == Breakpoint::Target::kNameRegex) {
        Expected<NamePattern> regex = NamePattern::compile(breakpoint.pattern);
        if (!regex)
            return unexpected(regex.error().withContext("breakpoint " + all));
    }
    return breakpoint;
}

std::string formatCondition(const TensorCondition& condition)
{
    switch (condition.kind) {
    case TensorCondition::Kind::kAlways: return {};
    case TensorCondition::Kind::kHasInfOrNan: return "has_inf_or_nan";
    case TensorCondition::Kind::kHasNan: return "has_nan";
    case TensorCondition::Kind::kHasInf: return "has_inf";
    case TensorCondition::Kind::kStatistic:
        return std::string(statisticName(condition.statistic)) + " " + std::string(compareSymbol(condition.compare)) +
               " " + shortestNumber(condition.value);
    case TensorCondition::Kind::kIteration:
        return "iteration " + std::string(compareSymbol(condition.compare)) + " " + shortestNumber(condition.value);
    }
    return {};
}

std::string formatBreakpoint(const Breakpoint& breakpoint)
{
    std::string text;
    switch (breakpoint.target) {
    // Always with the prefix: a bare name would read "any" as every node.
    case Breakpoint::Target::kNode: text = "node:" + breakpoint.pattern; break;
    case Breakpoint::Target::kOpType: text = "op:" + breakpoint.pattern; break;
    case Breakpoint::Target::kNameRegex: text = "regex:" + breakpoint.pattern; break;
    case Breakpoint::Target::kAnyNode: text = "any"; break;
    }
    if (breakpoint.condition.kind != TensorCondition::Kind::kAlways)
        text += " if " + formatCondition(breakpoint.condition);
    return text;
}

std::optional<std::string> conditionHolds(const TensorCondition& condition, const Tensor& tensor)
{
    if (!tensor.isInitialized() || !worthComputing(condition, tensor.dtype()))
        return std::nullopt;
    Expected<TensorStatistics> stats = computeTensorStatistics(tensor);
    if (!stats)
        return std::nullopt;
    return holdsFor(condition, *stats);
}

Expected<BreakpointSet> BreakpointSet::create(std::vector<Breakpoint> breakpoints)
{
    BreakpointSet set;
    set.m_regexes.resize(breakpoints.size());
    for (std::size_t i = 0; i < breakpoints.size(); ++i) {
        const Breakpoint& breakpoint = breakpoints[i];
        const std::string context = "breakpoint " + std::to_string(i + 1) + " " + quoted(formatBreakpoint(breakpoint));
        if (Status status = checkPattern(breakpoint); !status.isOk())
            return unexpected(status.withContext(context));
        if (breakpoint.target == Breakpoint::Target::kNameRegex) {
            Expected<NamePattern> regex = NamePattern::compile(breakpoint.pattern);
            if (!regex)
                return unexpected(regex.error().withContext(context));
            set.m_regexes[i] = std::move(*regex);
        }
        if (!breakpoint.enabled)
            continue;
        if (breakpoint.condition.kind == TensorCondition::Kind::kAlways ||
            breakpoint.condition.kind == TensorCondition::Kind::kIteration)
            set.m_before.push_back(i);
        else
            set.m_after.push_back(i);
    }
    set.m_breakpoints = std::move(breakpoints);
    return set;
}

bool BreakpointSet::targets(std::size_t index, const tensorflow::NodeDef& node) const
{
    const Breakpoint& breakpoint = m_breakpoints[index];
    switch (breakpoint.target) {
    case Breakpoint::Target::kNode: return node.name() == breakpoint.pattern;
    case Breakpoint::Target::kOpType: return node.op() == breakpoint.pattern;
    case Breakpoint::Target::kAnyNode: return true;
    case Breakpoint::Target::kNameRegex: return m_regexes[index] && m_regexes[index]->search(node.name());
    }
    return false;
}

std::optional<std::size_t> BreakpointSet::matchBefore(const tensorflow::NodeDef& node, std::int64_t iteration) const
{
    for (std::size_t index : m_before) {
        const TensorCondition& condition = m_breakpoints[index].condition;
        if (condition.kind == TensorCondition::Kind::kIteration &&
            !compareHolds(static_cast<double>(iteration), condition.compare, condition.value))
            continue;
        if (targets(index, node))
            return index;
    }
    return std::nullopt;
}

bool BreakpointSet::wantsOutputs(const tensorflow::NodeDef& node) const
{
    return std::any_of(m_after.begin(), m_after.end(), [&](std::size_t index) { return targets(index, node); });
}

std::optional<std::pair<std::size_t, std::string>> BreakpointSet::matchAfter(const tensorflow::NodeDef& node,
                                                                             const std::vector<Tensor>& outputs) const
{
    if (m_after.empty() || outputs.empty())
        return std::nullopt;
    // Statistics are computed at most once per output, however many breakpoints look at it.
    std::vector<std::optional<Expected<TensorStatistics>>> stats(outputs.size());
    for (std::size_t index : m_after) {
        if (!targets(index, node))
            continue;
        const TensorCondition& condition = m_breakpoints[index].condition;
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const Tensor& output = outputs[i];
            if (!output.isInitialized() || !worthComputing(condition, output.dtype()))
                continue;
            if (!stats[i])
                stats[i] = computeTensorStatistics(output);
            if (!*stats[i])
                continue;
            if (std::optional<std::string> reason = holdsFor(condition, **stats[i]))
                return std::make_pair(index, "output " + std::to_string(i) + ": " + *reason);
        }
    }
    return std::nullopt;
}

} // namespace tstudio::debugger
