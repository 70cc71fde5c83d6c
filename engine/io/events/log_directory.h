// LogDirectory: the runs of a TensorBoard log directory, re-read incrementally (TensorBoard's multiplexer).
#pragma once

#include "io/events/event_accumulator.h"
#include "io/events/event_file_loader.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tstudio::events {

/// Every directory under `root` (the root included) holding a file whose name contains "tfevents"
/// is a run, named by its path relative to the root with '/' separators ("." for the root itself,
/// as TensorBoard names it). A run's files are read in name order into one EventAccumulator.
///
/// reload() picks up new runs, new files and bytes appended to files already read (a record still
/// being written is read on a later reload), and forgets a run none of whose event files is left
/// (its folder deleted, as TensorBoard drops such a run). Threads: reload() may run on a worker thread while
/// other threads read through runs() / withRun() / warnings(); a mutex serialises them, held by
/// reload() one file at a time. Two reloads at once are serialised as well.
class LogDirectory {
public:
    explicit LogDirectory(std::string root);

    /// Scans the directory and reads what is new. NotFound when the root does not exist. Files that
    /// cannot be read are reported as warnings and retried on the next reload.
    Status reload();

    const std::string& root() const { return m_root; }
    /// Run names, sorted.
    std::vector<std::string> runs() const;
    /// Calls `read` with the run's accumulator while holding the lock; false when there is no such run.
    bool withRun(const std::string& run, const std::function<void(const EventAccumulator&)>& read) const;
    /// Damaged records and unreadable files met so far, oldest first.
    std::vector<LoadWarning> warnings() const;

    /// Samples kept per tag for a kind, for every run now and later (see EventAccumulator).
    void setSizeGuidance(TagKind kind, std::size_t maxSamples);

    /// Bytes of event files consumed (records and skipped damage) by all reloads so far.
    std::uint64_t bytesRead() const;

private:
    struct Run {
        EventAccumulator accumulator;
        std::map<std::string, std::unique_ptr<EventFileLoader>> files; ///< by file name: name order
    };

    std::string m_root;
    mutable std::mutex m_mutex;
    std::mutex m_reloadMutex;
    std::map<std::string, Run> m_runs;
    std::vector<LoadWarning> m_warnings;
    std::vector<std::pair<TagKind, std::size_t>> m_sizeGuidance;
};

} // namespace tstudio::events
