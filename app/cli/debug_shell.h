// DebugShell: the terminal debugger (tfdbg's essentials) over a DebugController, reading commands
// with readline on a terminal or line by line from any other standard input (scripts, tests).
#pragma once

#include "debugger/debug_controller.h"
#include "debugger/node_info.h"
#include "proto/graph.pb.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace tstudio::cli {

/// The thread that makes the session runs a shell debugs (one Session::run, a loop of them, or a
/// training run), and how to stop it.
class DebugRunner {
public:
    DebugRunner() = default;
    ~DebugRunner();
    DebugRunner(const DebugRunner&) = delete;
    DebugRunner& operator=(const DebugRunner&) = delete;

    /// Starts `body` on a thread; `stop` is called (from the shell's thread) to end it early,
    /// after the controller was cancelled.
    void start(std::function<Status()> body, std::function<void()> stop);
    bool done() const { return m_done.load(); }
    void requestStop();
    /// Waits for the thread and returns the body's status.
    Status join();

private:
    std::thread m_thread;
    std::atomic<bool> m_done{false};
    Status m_status;
    std::function<void()> m_stop;
};

/// --break SPEC and --watch TENSOR, shared by `tstudio debug`, `run` and `train`.
struct DebugArgs {
    std::vector<std::string> breaks;
    std::vector<std::string> watch;
    /// A project's saved breakpoints and watches (project.debugger), before the --break ones.
    std::vector<debugger::Breakpoint> saved;
    bool empty() const { return breaks.empty() && saved.empty(); }
};
void addDebugOptions(CLI::App& command, DebugArgs& args);

/// Runs `body` (which makes session runs with `controller` attached) on a DebugRunner and drives
/// a DebugShell over it on this thread: with `startPaused` the first run pauses before its first
/// node (tstudio debug), else the shell opens at the first breakpoint (run/train --break).
/// `stop` ends the body early (after the controller was cancelled). Returns the body's status
/// (OK when the user left with exit).
Status runUnderDebugger(const tensorflow::GraphDef& graph, const DebugArgs& args, bool startPaused,
                        const std::function<Status(DebugController&)>& body, std::function<void()> stop);

/// Commands (see `help`): run [-f has_inf_or_nan] [-n NAME_RE] [-t OP_RE] [--runs N], continue, step [N],
/// next (step over the name scope), lt [-n RE] [-t RE] [-s time|size|op|name] [-r], pt TENSOR[slice]
/// [-r RANGES] [-a] [-w FILE.npy], ni NODE, li NODE [-d N] [-c], lo NODE [-d N] [-c], break [SPEC],
/// delete N, enable N, disable N, watch [TENSOR], help, exit.
class DebugShell {
public:
    /// `graph` is what the runs execute (node info, inputs); both must outlive the shell.
    DebugShell(DebugController& controller, const tensorflow::GraphDef& graph, std::FILE* out = stdout);

    /// Drives the debugger until the runner is done or `exit`: waits for a pause, prints it, reads
    /// commands until one lets the run go on. `interactive` uses readline with history when
    /// standard input is a terminal. Returns the runner's status (Cancelled after exit is OK).
    Status drive(DebugRunner& runner);

    /// Executes one command line; false when it lets the run go on (run, continue, step, ...).
    /// Exposed for tests; `exit` sets exitRequested().
    bool execute(const std::string& line);
    bool exitRequested() const { return m_exit; }
    /// Adds a breakpoint (as `break SPEC`); false with the error printed.
    bool addBreakpoint(const std::string& spec);
    void addBreakpoint(debugger::Breakpoint breakpoint);

private:
    void printPause(const PausePoint& point);
    void printValue(const std::string& label, const Tensor& value, bool summaryOnly);
    void printf(const char* format, ...) __attribute__((format(printf, 2, 3)));
    bool readLine(std::string* line);
    void applyBreakpoints();

    bool cmdRun(const std::vector<std::string>& args);
    void cmdList(const std::vector<std::string>& args);
    void cmdPrint(const std::vector<std::string>& args);
    void cmdNodeInfo(const std::vector<std::string>& args);
    void cmdTree(const std::vector<std::string>& args, bool inputs);
    void cmdBreak(const std::string& rest);
    void cmdBreakIndex(const std::string& command, const std::vector<std::string>& args);
    void cmdWatch(const std::vector<std::string>& args);
    void cmdHelp();

    DebugController& m_controller;
    const tensorflow::GraphDef& m_graph;
    debugger::NodeRelations m_relations;
    std::FILE* m_out;
    int m_stepsLeft = 0; ///< `step N`: steps still to take silently
    std::vector<debugger::Breakpoint> m_breakpoints;
    /// Breakpoints a `run` filter added for the runs it covers, and how many runs are left.
    std::vector<debugger::Breakpoint> m_filter;
    int m_filterRunsLeft = 0;
    bool m_interactive = false;
    bool m_exit = false;
};

} // namespace tstudio::cli
