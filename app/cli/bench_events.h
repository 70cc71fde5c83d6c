// tstudio bench events: single-thread read throughput of event files.
#pragma once

#include <string>

namespace tstudio::cli {

class BenchReport;

struct EventsBenchArgs {
    std::string dir;    ///< read this log directory; empty: write one first (removed afterwards)
    int megabytes = 500; ///< size of the log directory written (10^6 bytes)
    int runs = 1;        ///< runs written ("run_000", ...), the size split evenly among them
    std::string keep;    ///< write the log directory here and keep it (for the dashboard's bench)
};

/// Writes (unless `dir` is given) a log directory of `runs` runs of scalar and histogram events with
/// EventFileWriter, reads it on one thread with LogDirectory, checks what was read, and prints the
/// figures ending with "events: <N> MB/s". Returns the exit code.
int benchEvents(const EventsBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
