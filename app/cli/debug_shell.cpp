// DebugShell: tfdbg-style commands over a DebugController; the run happens on DebugRunner's thread.
#include "debug_shell.h"

#include "debugger/tensor_slice.h"
#include "debugger/value_ranges.h"
#include "framework/data_type.h"
#include "framework/tensor_statistics.h"
#include "io/npy.h"
#include "framework/numpy_format.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <algorithm>
#include <cstdarg>
#include <iostream>
#include <regex>
#include <unistd.h>

namespace tstudio::cli {

// --- DebugRunner -----------------------------------------------------------------------------------

DebugRunner::~DebugRunner()
{
    if (m_thread.joinable())
        m_thread.join();
}

void DebugRunner::start(std::function<Status()> body, std::function<void()> stop)
{
    m_stop = std::move(stop);
    m_thread = std::thread([this, body = std::move(body)] {
        m_status = body();
        m_done.store(true);
    });
}

void DebugRunner::requestStop()
{
    if (m_stop)
        m_stop();
}

Status DebugRunner::join()
{
    if (m_thread.joinable())
        m_thread.join();
    return m_status;
}

// --- Parsing helpers -------------------------------------------------------------------------------

namespace {

/// Splits on spaces, keeping "[...]" (slices, ranges) in one word with the text before it.
std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::string current;
    int depth = 0;
    for (char c : line) {
        if (c == '[')
            ++depth;
        else if (c == ']' && depth > 0)
            --depth;
        if (std::isspace(static_cast<unsigned char>(c)) && depth == 0) {
            if (!current.empty())
                out.push_back(std::move(current));
            current.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c)) || depth > 0) {
            current += c;
        }
    }
    if (!current.empty())
        out.push_back(std::move(current));
    return out;
}

/// The value after option `name` in `args` (removed from it with the option), or `fallback`.
std::optional<std::string> takeOption(std::vector<std::string>& args, std::initializer_list<const char*> names)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        for (const char* name : names) {
            if (args[i] == name && i + 1 < args.size()) {
                std::string value = args[i + 1];
                args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 2));
                return value;
            }
        }
    }
    return std::nullopt;
}

bool takeFlag(std::vector<std::string>& args, std::initializer_list<const char*> names)
{
    for (std::size_t i = 0; i < args.size(); ++i)
        for (const char* name : names)
            if (args[i] == name) {
                args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
                return true;
            }
    return false;
}

std::optional<int> positiveInt(const std::string& text)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const int v = std::stoi(text);
    return v > 0 ? std::optional<int>(v) : std::nullopt;
}

std::optional<std::regex> compileRegex(const std::string& text, std::string* error)
{
    try {
        return std::regex(text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        *error = "'" + text + "' is not a valid regular expression (" + e.what() + ")";
        return std::nullopt;
    }
}

std::string shapeText(const TensorShape& shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.dims().size(); ++i)
        text += (i ? "," : "") + std::to_string(shape.dims()[i]);
    return text + "]";
}

std::string reasonText(const PausePoint& point, const std::vector<debugger::Breakpoint>& breakpoints)
{
    switch (point.reason) {
    case PausePoint::Reason::kPauseRequested: return "paused";
    case PausePoint::Reason::kStep: return "step";
    case PausePoint::Reason::kStepOverScope: return "stepped over the name scope";
    case PausePoint::Reason::kRunToNode: return "reached the cursor node";
    case PausePoint::Reason::kRunToOp: return "reached the op type";
    case PausePoint::Reason::kNonFinite: return point.detail;
    case PausePoint::Reason::kBreakpoint:
        if (point.breakpoint && *point.breakpoint < breakpoints.size())
            return "breakpoint " + std::to_string(*point.breakpoint + 1) + " '" +
                   debugger::formatBreakpoint(breakpoints[*point.breakpoint]) + "'" +
                   (point.detail.empty() ? "" : ": " + point.detail);
        return "the run filter" + (point.detail.empty() ? "" : ": " + point.detail);
    }
    return {};
}

std::string nodeOfTensor(const std::string& tensor)
{
    const auto colon = tensor.rfind(':');
    return colon == std::string::npos ? tensor : tensor.substr(0, colon);
}

} // namespace

// --- DebugShell ------------------------------------------------------------------------------------

DebugShell::DebugShell(DebugController& controller, const tensorflow::GraphDef& graph, std::FILE* out)
    : m_controller(controller), m_graph(graph), m_relations(graph), m_out(out)
{
}

void DebugShell::printf(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    std::vfprintf(m_out, format, args);
    va_end(args);
}

bool DebugShell::readLine(std::string* line)
{
    std::fflush(m_out);
    if (m_interactive) {
        char* text = readline("tsdbg> ");
        if (!text)
            return false;
        *line = text;
        if (!line->empty())
            add_history(text);
        std::free(text);
        return true;
    }
    if (!std::getline(std::cin, *line))
        return false;
    printf("tsdbg> %s\n", line->c_str()); // a script's transcript reads like a session
    return true;
}

void DebugShell::applyBreakpoints()
{
    std::vector<debugger::Breakpoint> all = m_breakpoints;
    all.insert(all.end(), m_filter.begin(), m_filter.end());
    auto set = debugger::BreakpointSet::create(std::move(all));
    if (!set) {
        printf("error: %s\n", set.error().message().c_str());
        return;
    }
    m_controller.setBreakpoints(std::move(*set));
}

Status DebugShell::drive(DebugRunner& runner)
{
    m_interactive = isatty(STDIN_FILENO) != 0;
    applyBreakpoints();
    while (!m_exit) {
        while (!m_controller.waitUntilPaused(std::chrono::milliseconds(100)) && !runner.done()) {
        }
        const std::optional<PausePoint> point = m_controller.pausePoint();
        if (!point) {
            if (runner.done())
                break;
            continue;
        }
        const bool runStart = point->executed == 0 && point->reason == PausePoint::Reason::kPauseRequested;
        if (runStart && m_filterRunsLeft > 1) {
            --m_filterRunsLeft; // the filter did not pass in that run: go on with the next one
            m_controller.runToNextRun();
            continue;
        }
        if (!m_filter.empty()) {
            m_filter.clear();
            m_filterRunsLeft = 0;
            applyBreakpoints();
        }
        if (point->reason == PausePoint::Reason::kStep && m_stepsLeft > 0) {
            --m_stepsLeft;
            m_controller.step();
            continue;
        }
        printPause(*point);
        std::string line;
        while (!m_exit) {
            if (!readLine(&line)) {
                m_exit = true;
                break;
            }
            if (!execute(line))
                break;
        }
    }
    if (m_exit) {
        runner.requestStop();
        m_controller.cancel();
    }
    Status status = runner.join();
    if (m_exit && status.code() == StatusCode::kCancelled)
        return Status::ok();
    return status;
}

void DebugShell::printValue(const std::string& label, const Tensor& value, bool summaryOnly)
{
    if (!value.isInitialized()) {
        printf("  %s: (uninitialized)\n", label.c_str());
        return;
    }
    printf("  %s: %s %s (%zu bytes)\n", label.c_str(), dataTypeName(value.dtype()).c_str(),
           shapeText(value.shape()).c_str(), value.totalBytes());
    if (auto stats = computeTensorStatistics(value)) {
        printf("    nan %lld, -inf %lld, negative %lld, zero %lld, positive %lld, +inf %lld; min %.6g, max %.6g, "
               "mean %.6g, std %.6g\n",
               static_cast<long long>(stats->nanCount), static_cast<long long>(stats->negInfCount),
               static_cast<long long>(stats->negativeCount), static_cast<long long>(stats->zeroCount),
               static_cast<long long>(stats->positiveCount), static_cast<long long>(stats->posInfCount), stats->min,
               stats->max, stats->mean, stats->std);
    }
    if (summaryOnly)
        return;
    NumpyPrintOptions options;
    options.threshold = 24;
    if (auto text = formatLikeNumpy(value, options)) {
        std::string indented = "    ";
        for (char c : *text) {
            indented += c;
            if (c == '\n')
                indented += "    ";
        }
        printf("%s\n", indented.c_str());
    }
}

void DebugShell::printPause(const PausePoint& point)
{
    const bool runStart = point.executed == 0 && point.reason == PausePoint::Reason::kPauseRequested;
    if (runStart) {
        if (point.run > 0)
            printf("Session run %lld finished: %zu nodes executed (lt lists them).\n",
                   static_cast<long long>(point.run - 1), m_controller.executedNodes().size());
        printf("Session run %lld is about to start (first node '%s'). Type 'help' for the commands.\n",
               static_cast<long long>(point.run), point.node.c_str());
        return;
    }
    // A node inside a tf.while_loop runs once per iteration: say which one this is.
    const std::string loop = point.frame.empty()
                                 ? std::string()
                                 : " in frame '" + point.frame + "', iteration " + std::to_string(point.iteration);
    printf("Session run %lld %s node '%s' (%s)%s on %s: %s\n", static_cast<long long>(point.run),
           point.afterNode ? "stopped after" : "paused before", point.node.c_str(), point.op.c_str(), loop.c_str(),
           point.device.c_str(), reasonText(point, m_breakpoints).c_str());
    const tensorflow::NodeDef* node = m_relations.find(point.node);
    if (point.afterNode) {
        for (std::size_t i = 0; i < point.values.size(); ++i)
            if (point.valueLive[i])
                printValue(point.node + ":" + std::to_string(i), point.values[i], false);
        // The inputs that produced it, from the nodes that ran before.
        for (int i = 0; node && i < node->input_size(); ++i) {
            const std::string& input = node->input(i);
            if (input.empty() || input[0] == '^')
                continue;
            auto value = m_controller.tensorValue(input);
            if (value)
                printValue("input " + std::to_string(i) + " " + input, *value, false);
            else
                printf("  input %d %s: %s\n", i, input.c_str(), value.error().message().c_str());
        }
    } else {
        for (std::size_t i = 0; i < point.values.size(); ++i) {
            const std::string name = node && static_cast<int>(i) < node->input_size() ? node->input(static_cast<int>(i))
                                                                                     : "input " + std::to_string(i);
            if (point.valueLive[i])
                printValue("input " + std::to_string(i) + " " + name, point.values[i], false);
            else
                printf("  input %zu %s: dead\n", i, name.c_str());
        }
    }
}

bool DebugShell::execute(const std::string& line)
{
    std::vector<std::string> args = words(line);
    if (args.empty())
        return true;
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "run" || command == "r")
        return !cmdRun(args);
    if (command == "continue" || command == "c") {
        // On to the next breakpoint, across session runs; with none enabled, to the next run's start.
        const bool any = std::any_of(m_breakpoints.begin(), m_breakpoints.end(),
                                     [](const debugger::Breakpoint& b) { return b.enabled; });
        if (any)
            m_controller.resume();
        else
            m_controller.runToNextRun();
        return false;
    }
    if (command == "step" || command == "s") {
        const int n = args.empty() ? 1 : positiveInt(args[0]).value_or(0);
        if (n <= 0) {
            printf("error: step takes a positive number of nodes, got '%s'\n", args[0].c_str());
            return true;
        }
        m_stepsLeft = n - 1;
        m_controller.step();
        return false;
    }
    if (command == "next" || command == "n") {
        m_controller.stepOverScope();
        return false;
    }
    if (command == "lt")
        cmdList(args);
    else if (command == "pt")
        cmdPrint(args);
    else if (command == "ni")
        cmdNodeInfo(args);
    else if (command == "li")
        cmdTree(args, true);
    else if (command == "lo")
        cmdTree(args, false);
    else if (command == "break" || command == "b")
        cmdBreak(line.substr(line.find(command) + command.size()));
    else if (command == "delete" || command == "enable" || command == "disable")
        cmdBreakIndex(command, args);
    else if (command == "watch")
        cmdWatch(args);
    else if (command == "help" || command == "h")
        cmdHelp();
    else if (command == "exit" || command == "quit" || command == "q")
        m_exit = true;
    else
        printf("error: unknown command '%s' (type 'help')\n", command.c_str());
    return true;
}

bool DebugShell::cmdRun(const std::vector<std::string>& given)
{
    std::vector<std::string> args = given;
    const auto filter = takeOption(args, {"-f", "--till_filter_pass"});
    const auto names = takeOption(args, {"-n", "--node_name_filter"});
    const auto ops = takeOption(args, {"-t", "--op_type_filter"});
    const auto runs = takeOption(args, {"--runs"});
    if (!args.empty()) {
        printf("error: run: unexpected '%s' (run [-f has_inf_or_nan] [-n NAME_RE] [-t OP_RE] [--runs N])\n",
               args[0].c_str());
        return false;
    }
    debugger::TensorCondition condition;
    if (filter) {
        auto parsed = debugger::parseBreakpoint("any if " + *filter);
        if (!parsed) {
            printf("error: run -f: unknown filter '%s' (has_inf_or_nan, has_nan, has_inf or a statistic such as "
                   "'max>100')\n",
                   filter->c_str());
            return false;
        }
        condition = parsed->condition;
    }
    int runCount = filter || names || ops ? 1000 : 1;
    if (runs) {
        auto n = positiveInt(*runs);
        if (!n) {
            printf("error: run --runs takes a positive number, got '%s'\n", runs->c_str());
            return false;
        }
        runCount = *n;
    }
    std::vector<debugger::Breakpoint> added;
    if (names || ops) {
        std::string error;
        std::optional<std::regex> nameRe, opRe;
        if (names && !(nameRe = compileRegex(*names, &error))) {
            printf("error: run -n: %s\n", error.c_str());
            return false;
        }
        if (ops && !(opRe = compileRegex(*ops, &error))) {
            printf("error: run -t: %s\n", error.c_str());
            return false;
        }
        for (const tensorflow::NodeDef& node : m_graph.node()) {
            if ((nameRe && !std::regex_search(node.name(), *nameRe)) || (opRe && !std::regex_match(node.op(), *opRe)))
                continue;
            debugger::Breakpoint b;
            b.target = debugger::Breakpoint::Target::kNode;
            b.pattern = node.name();
            b.condition = condition;
            added.push_back(std::move(b));
        }
        if (added.empty()) {
            printf("error: run: no node of the graph matches the filter\n");
            return false;
        }
    } else if (filter) {
        debugger::Breakpoint b;
        b.target = debugger::Breakpoint::Target::kAnyNode;
        b.condition = condition;
        added.push_back(std::move(b));
    }
    m_filter = std::move(added);
    m_filterRunsLeft = m_filter.empty() ? 0 : runCount;
    applyBreakpoints();
    if (m_filter.empty() && runCount > 1)
        m_controller.continueRuns(runCount);
    else
        m_controller.runToNextRun();
    return true;
}

void DebugShell::cmdList(const std::vector<std::string>& given)
{
    std::vector<std::string> args = given;
    const auto names = takeOption(args, {"-n", "--node_name_filter"});
    const auto ops = takeOption(args, {"-t", "--op_type_filter"});
    const auto sort = takeOption(args, {"-s", "--sort_by"});
    const bool reverse = takeFlag(args, {"-r", "--reverse"});
    std::string error;
    std::optional<std::regex> nameRe, opRe;
    if ((names && !(nameRe = compileRegex(*names, &error))) || (ops && !(opRe = compileRegex(*ops, &error)))) {
        printf("error: lt: %s\n", error.c_str());
        return;
    }
    std::vector<ExecutedNode> nodes = m_controller.executedNodes();
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if ((!nameRe || std::regex_search(nodes[i].node, *nameRe)) && (!opRe || std::regex_match(nodes[i].op, *opRe)))
            order.push_back(i);
    const std::string key = sort.value_or("time");
    if (key != "time" && key != "size" && key != "op" && key != "name") {
        printf("error: lt -s: expected time, size, op or name, got '%s'\n", key.c_str());
        return;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (key == "size")
            return nodes[a].bytes() < nodes[b].bytes();
        if (key == "op")
            return nodes[a].op < nodes[b].op;
        if (key == "name")
            return nodes[a].node < nodes[b].node;
        return a < b;
    });
    if (reverse)
        std::reverse(order.begin(), order.end());
    printf("%zu of %zu executed nodes\n", order.size(), nodes.size());
    printf("%5s %10s %10s %10s  %-20s %-8s %-10s %-14s %s\n", "#", "t (ms)", "dur (us)", "size (B)", "op", "device",
           "dtype", "shape", "node");
    for (std::size_t i : order) {
        const ExecutedNode& n = nodes[i];
        const std::string device = n.device.substr(n.device.rfind("device:") == std::string::npos ? 0
                                                                                                   : n.device.rfind("device:") + 7);
        std::string dtype = "-", shape = "-";
        if (!n.outputs.empty()) {
            dtype = n.outputs[0].live ? dataTypeName(n.outputs[0].dtype) : "dead";
            shape = shapeText(n.outputs[0].shape);
            if (n.outputs.size() > 1) {
                dtype += "+";
                shape += "+";
            }
        }
        // A node inside a loop runs once per iteration: its rows say which.
        const std::string iteration =
            n.frame.empty() ? std::string() : " (iteration " + std::to_string(n.iteration) + ")";
        printf("%5zu %10.3f %10.1f %10lld  %-20s %-8s %-10s %-14s %s%s\n", i, static_cast<double>(n.startNanos) / 1e6,
               static_cast<double>(n.durationNanos) / 1e3, static_cast<long long>(n.bytes()), n.op.c_str(),
               device.c_str(), dtype.c_str(), shape.c_str(), n.node.c_str(), iteration.c_str());
    }
}

void DebugShell::cmdPrint(const std::vector<std::string>& given)
{
    std::vector<std::string> args = given;
    const auto ranges = takeOption(args, {"-r", "--ranges"});
    const auto npy = takeOption(args, {"-w", "--write"});
    const bool all = takeFlag(args, {"-a", "--all"});
    if (args.size() != 1) {
        printf("error: pt takes one tensor, e.g. 'pt layer1/MatMul:0[::5, :2]'\n");
        return;
    }
    const auto [name, sliceText] = debugger::splitTensorExpression(args[0]);
    auto value = m_controller.tensorValue(name);
    if (!value) {
        printf("error: %s\n", value.error().message().c_str());
        return;
    }
    CpuAllocator allocator; // holds the slice: declared before it, so it goes after it
    Tensor shown = *value;
    if (!sliceText.empty()) {
        auto slice = debugger::parseTensorSlice(sliceText);
        if (!slice) {
            printf("error: %s\n", slice.error().message().c_str());
            return;
        }
        auto sliced = debugger::applyTensorSlice(*value, *slice, allocator);
        if (!sliced) {
            printf("error: %s\n", sliced.error().message().c_str());
            return;
        }
        shown = std::move(*sliced);
    }
    printf("Tensor \"%s%s\":\n", name.c_str(), sliceText.c_str());
    if (all) {
        NumpyPrintOptions options;
        options.threshold = std::numeric_limits<std::int64_t>::max();
        printValue(name, shown, true);
        if (auto text = formatLikeNumpy(shown, options))
            printf("%s\n", text->c_str());
    } else {
        printValue(name, shown, false);
    }
    if (ranges) {
        auto parsed = debugger::parseValueRanges(*ranges);
        if (!parsed) {
            printf("error: %s\n", parsed.error().message().c_str());
        } else if (auto count = debugger::countInRanges(shown, *parsed)) {
            printf("  %lld of %lld elements in %s\n", static_cast<long long>(*count),
                   static_cast<long long>(shown.numElements()), debugger::formatValueRanges(*parsed).c_str());
        } else {
            printf("error: %s\n", count.error().message().c_str());
        }
    }
    if (npy) {
        if (Status s = writeNpy(*npy, shown); !s.isOk())
            printf("error: %s\n", s.message().c_str());
        else
            printf("  written to %s\n", npy->c_str());
    }
}

void DebugShell::cmdNodeInfo(const std::vector<std::string>& args)
{
    if (args.size() != 1) {
        printf("error: ni takes one node name\n");
        return;
    }
    const tensorflow::NodeDef* node = m_relations.find(nodeOfTensor(args[0]));
    if (!node) {
        printf("error: there is no node '%s' in the graph\n", args[0].c_str());
        return;
    }
    printf("%s", debugger::formatNodeInfo(m_relations, *node).c_str());
}

void DebugShell::cmdTree(const std::vector<std::string>& given, bool inputs)
{
    std::vector<std::string> args = given;
    const auto depthText = takeOption(args, {"-d", "--depth"});
    const bool control = !takeFlag(args, {"--no-control"});
    takeFlag(args, {"-c", "--control"});
    const int depth = depthText ? positiveInt(*depthText).value_or(0) : 1;
    if (args.size() != 1 || depth <= 0) {
        printf("error: %s NODE [-d DEPTH]\n", inputs ? "li" : "lo");
        return;
    }
    const std::string node = nodeOfTensor(args[0]);
    auto links = inputs ? m_relations.inputs(node, depth, control) : m_relations.consumers(node, depth, control);
    if (!links) {
        printf("error: %s\n", links.error().message().c_str());
        return;
    }
    printf("%s", debugger::formatNodeTree(node, *links, inputs).c_str());
}

void DebugShell::addBreakpoint(debugger::Breakpoint breakpoint)
{
    m_breakpoints.push_back(std::move(breakpoint));
    applyBreakpoints();
}

bool DebugShell::addBreakpoint(const std::string& spec)
{
    const std::size_t before = m_breakpoints.size();
    cmdBreak(spec);
    return m_breakpoints.size() > before;
}

void DebugShell::cmdBreak(const std::string& rest)
{
    const auto first = rest.find_first_not_of(' ');
    if (first == std::string::npos) {
        if (m_breakpoints.empty())
            printf("No breakpoints. Add one with 'break op:Log', 'break node:x if has_nan', 'break any if max>1e3'.\n");
        for (std::size_t i = 0; i < m_breakpoints.size(); ++i)
            printf("%3zu  %s  %s\n", i + 1, m_breakpoints[i].enabled ? "on " : "off",
                   debugger::formatBreakpoint(m_breakpoints[i]).c_str());
        return;
    }
    auto breakpoint = debugger::parseBreakpoint(rest.substr(first));
    if (!breakpoint) {
        printf("error: %s\n", breakpoint.error().message().c_str());
        return;
    }
    if (breakpoint->target == debugger::Breakpoint::Target::kNode && !m_relations.find(breakpoint->pattern))
        printf("warning: there is no node '%s' in the graph (yet)\n", breakpoint->pattern.c_str());
    m_breakpoints.push_back(std::move(*breakpoint));
    applyBreakpoints();
    printf("Breakpoint %zu: %s\n", m_breakpoints.size(), debugger::formatBreakpoint(m_breakpoints.back()).c_str());
}

void DebugShell::cmdBreakIndex(const std::string& command, const std::vector<std::string>& args)
{
    const auto index = args.size() == 1 ? positiveInt(args[0]) : std::nullopt;
    if (!index || static_cast<std::size_t>(*index) > m_breakpoints.size()) {
        printf("error: %s takes a breakpoint number from 1 to %zu (see 'break')\n", command.c_str(),
               m_breakpoints.size());
        return;
    }
    const auto i = static_cast<std::size_t>(*index - 1);
    if (command == "delete")
        m_breakpoints.erase(m_breakpoints.begin() + static_cast<std::ptrdiff_t>(i));
    else
        m_breakpoints[i].enabled = command == "enable";
    applyBreakpoints();
}

void DebugShell::cmdWatch(const std::vector<std::string>& args)
{
    std::vector<std::string> watched = m_controller.watched();
    if (!args.empty()) {
        for (const std::string& tensor : args)
            if (!m_relations.find(nodeOfTensor(tensor)))
                printf("warning: there is no node '%s' in the graph\n", nodeOfTensor(tensor).c_str());
        watched.insert(watched.end(), args.begin(), args.end());
        m_controller.setWatched(watched);
        watched = m_controller.watched();
    }
    if (watched.empty())
        printf("Nothing is watched. 'watch TENSOR' keeps its value after every session run.\n");
    for (const std::string& tensor : watched) {
        const std::vector<WatchedValue> history = m_controller.history(tensor);
        printf("%s: %zu value%s\n", tensor.c_str(), history.size(), history.size() == 1 ? "" : "s");
        const std::size_t from = history.size() > 10 ? history.size() - 10 : 0;
        for (std::size_t i = from; i < history.size(); ++i) {
            auto stats = computeTensorStatistics(history[i].value);
            if (stats)
                printf("  run %5lld  min %.6g  mean %.6g  max %.6g  nan %lld  inf %lld\n",
                       static_cast<long long>(history[i].run), stats->min, stats->mean, stats->max,
                       static_cast<long long>(stats->nanCount),
                       static_cast<long long>(stats->negInfCount + stats->posInfCount));
            else
                printf("  run %5lld  %s\n", static_cast<long long>(history[i].run), stats.error().message().c_str());
        }
    }
}

void DebugShell::cmdHelp()
{
    printf("%s",
           "Running:\n"
           "  run [-f FILTER] [-n NAME_RE] [-t OP_RE] [--runs N]\n"
           "                    finish this session run (breakpoints stop it) and pause at the next one's start;\n"
           "                    -f has_inf_or_nan|has_nan|has_inf|'max>100': run until a node's output passes\n"
           "                    the filter; -n/-t: stop at nodes whose name/op matches; --runs: at most N runs\n"
           "  continue, c       run on to the next breakpoint (without any: to the next session run)\n"
           "  step [N], s       run the next node (N nodes) and pause\n"
           "  next, n           run on to the first node outside the current name scope\n"
           "  exit, quit        stop the run and leave (no checkpoint of a half-done step is written)\n"
           "Looking:\n"
           "  lt [-n RE] [-t RE] [-s time|size|op|name] [-r]   nodes executed in this run\n"
           "  pt TENSOR[SLICE] [-r RANGES] [-a] [-w FILE.npy]  a tensor, e.g. pt dense/MatMul:0[::5, :2]\n"
           "  ni NODE           the node's op, device, attributes, inputs and consumers\n"
           "  li NODE [-d N]    its inputs as a tree (N levels); lo NODE [-d N]: its consumers\n"
           "Breakpoints:\n"
           "  break [SPEC]      list, or add: node:NAME | op:TYPE | regex:RE | any, then 'if CONDITION'\n"
           "                    (has_inf_or_nan, has_nan, has_inf, min|max|mean|std|abs_max OP NUMBER,\n"
           "                    or iteration OP N for a node inside a while loop)\n"
           "  delete N, enable N, disable N\n"
           "  watch [TENSOR]    keep a tensor's value after every run; without TENSOR list the history\n");
}

void addDebugOptions(CLI::App& command, DebugArgs& args)
{
    command.add_option("--break", args.breaks,
                       "a breakpoint: node:NAME, op:TYPE, regex:RE or any, optionally 'if has_inf_or_nan|has_nan|"
                       "has_inf|STAT OP NUMBER|iteration OP N' (STAT min, max, mean, std, abs_max); a hit opens the "
                       "debugger's prompt");
    command.add_option("--watch", args.watch, "a tensor (node:0) whose value the debugger keeps after every run");
}

Status runUnderDebugger(const tensorflow::GraphDef& graph, const DebugArgs& args, bool startPaused,
                        const std::function<Status(DebugController&)>& body, std::function<void()> stop)
{
    DebugController controller;
    DebugShell shell(controller, graph);
    for (const debugger::Breakpoint& breakpoint : args.saved)
        shell.addBreakpoint(breakpoint);
    for (const std::string& spec : args.breaks)
        if (!shell.addBreakpoint(spec))
            return invalidArgumentError("--break '" + spec + "' is not a breakpoint (see above)");
    controller.setWatched(args.watch);
    if (startPaused)
        controller.pause();
    DebugRunner runner;
    runner.start([&] { return body(controller); }, std::move(stop));
    return shell.drive(runner);
}

} // namespace tstudio::cli
