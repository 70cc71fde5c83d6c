// Breakpoint: where the debugger pauses a run (a node, an op type, a name regex, every node) and on
// what condition (always, NaN/Inf in an output, a statistic of an output against a constant, the
// loop iteration),
// written and read as one line of text ("op:Log if has_nan") for projects and the terminal.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"
#include "proto/node_def.pb.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace tstudio::debugger {

/// The pattern of a `regex:` breakpoint, compiled with RE2 (TensorFlow's regex ops' engine): a
/// search takes time linear in the name whatever the pattern (no backtracking, no recursion, no
/// undefined behaviour on hostile patterns, as libstdc++'s std::regex had). RE2 syntax: Python's
/// `re` without back-references and look-arounds.
class NamePattern {
public:
    /// InvalidArgument "regex 'a(' does not compile: unbalanced parentheses" (at most 1000
    /// characters and 100 nested groups).
    static Expected<NamePattern> compile(const std::string& pattern);
    /// re.search: the pattern matches somewhere in `name`.
    bool search(std::string_view name) const;

private:
    std::shared_ptr<const re2::RE2> m_regex;
};

/// What an output must show for a conditional breakpoint to hit, or (kIteration) which executions of
/// a node inside a tf.while_loop pause.
struct TensorCondition {
    enum class Kind {
        kAlways,        ///< no condition: pause before the node runs
        kHasInfOrNan,   ///< tfdbg's has_inf_or_nan
        kHasNan,
        kHasInf,
        kStatistic,     ///< `statistic` of an output compared with `value`
        /// The iteration the node runs in (NodeExecution::iteration: 0 outside loops, the innermost
        /// loop's iteration inside) compared with `value`, checked before the node runs.
        kIteration,
    };
    enum class Statistic { kMin, kMax, kMean, kStd, kAbsMax };
    enum class Compare { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };

    Kind kind = Kind::kAlways;
    Statistic statistic = Statistic::kMax;
    Compare compare = Compare::kGreater;
    double value = 0;

    bool operator==(const TensorCondition&) const = default;
};

/// One breakpoint. Without a condition it pauses before a matching node runs (its inputs on show);
/// with an iteration condition, before a matching node runs in an iteration that meets it; with a
/// tensor condition, after a matching node ran and one of its float outputs meets the condition.
struct Breakpoint {
    enum class Target {
        kNode,      ///< `pattern` is a node name
        kOpType,    ///< `pattern` is an op type ("MatMul")
        kNameRegex, ///< `pattern` is an ECMAScript regex searched in node names
        kAnyNode,   ///< every node (with a condition: "any if has_inf_or_nan")
    };
    Target target = Target::kNode;
    std::string pattern;
    TensorCondition condition;
    bool enabled = true;

    bool operator==(const Breakpoint&) const = default;
};

/// Parses one breakpoint: "node:NAME", "op:TYPE", "regex:PATTERN" or "any", optionally followed by
/// " if CONDITION" with CONDITION one of has_inf_or_nan, has_nan, has_inf,
/// "STAT OP NUMBER" (STAT min|max|mean|std|abs_max, OP < <= > >= == !=; NUMBER may be inf/nan-free
/// decimal), or "iteration OP N" (N a non-negative integer: "node:while/add if iteration == 3"). A bare name without "node:" is a node. InvalidArgument saying what was expected,
/// also for a regex that does not compile.
Expected<Breakpoint> parseBreakpoint(std::string_view text);
/// The breakpoint as parseBreakpoint reads it ("op:Log if has_nan"; `enabled` is not part of it).
std::string formatBreakpoint(const Breakpoint& breakpoint);
/// "has_nan", "max > 100", "iteration == 3" ("" for kAlways).
std::string formatCondition(const TensorCondition& condition);

/// Whether `condition` holds for `tensor`, with the reason ("has NaN", "has NaN and Inf",
/// "max 1.2e+03 > 100"); nullopt when it does not hold or the tensor has no real values (strings,
/// bools, empty or uninitialized tensors; ints for NaN checks). Statistics are taken over the finite
/// values (computeTensorStatistics); abs_max is max(|min|, |max|).
std::optional<std::string> conditionHolds(const TensorCondition& condition, const Tensor& tensor);

/// A set of breakpoints prepared for matching many nodes fast (regexes compiled once). Immutable:
/// the debugger swaps in a new set when the list changes.
class BreakpointSet {
public:
    BreakpointSet() = default;
    /// InvalidArgument naming the breakpoint whose regex does not compile.
    static Expected<BreakpointSet> create(std::vector<Breakpoint> breakpoints);

    const std::vector<Breakpoint>& breakpoints() const { return m_breakpoints; }
    bool empty() const { return m_breakpoints.empty(); }

    /// The index of the first enabled breakpoint that pauses before `node` runs in loop iteration
    /// `iteration` (0 outside loops): an unconditional one, or one whose iteration condition holds.
    std::optional<std::size_t> matchBefore(const tensorflow::NodeDef& node, std::int64_t iteration = 0) const;
    /// True when some enabled conditional breakpoint matches `node` (its outputs must be checked).
    bool wantsOutputs(const tensorflow::NodeDef& node) const;
    /// The first enabled conditional breakpoint matching `node` whose condition holds for one of
    /// `outputs` (non-live entries skipped), with "output 0: has NaN".
    std::optional<std::pair<std::size_t, std::string>> matchAfter(const tensorflow::NodeDef& node,
                                                                  const std::vector<Tensor>& outputs) const;

private:
    bool targets(std::size_t index, const tensorflow::NodeDef& node) const;

    std::vector<Breakpoint> m_breakpoints;
    std::vector<std::optional<NamePattern>> m_regexes; ///< per breakpoint; empty unless kNameRegex
    std::vector<std::size_t> m_before; ///< enabled unconditional and iteration breakpoints, in order
    std::vector<std::size_t> m_after;  ///< enabled tensor-conditional breakpoints, in order
};

} // namespace tstudio::debugger
