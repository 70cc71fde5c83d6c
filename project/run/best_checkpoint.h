// Keeping the best checkpoint of a run by an eval metric (eval.best), as tf.estimator's BestExporter
// keeps the best export: <logdir>/best/ holds a copy of the checkpoint that scored best so far, its
// own `checkpoint` state file (so it opens as a checkpoint directory) and best_metric.json.
#pragma once

#include "core/expected.h"
#include "project/run/evaluation.h"

#include <filesystem>
#include <optional>
#include <string>

namespace tstudio::project {

/// The best value so far, as best_metric.json holds it.
struct BestCheckpointRecord {
    std::string metric;
    std::string mode; ///< "max" or "min"
    double value = 0;
    std::int64_t step = 0;
    std::string checkpoint; ///< the prefix inside best/ ("model.ckpt-1200")
};

class BestCheckpointKeeper {
public:
    /// Keeps the best by `metric` in direction `mode` in `dir` (<logdir>/best). A best_metric.json
    /// already there for the same metric (a resumed run) is the value to beat; a damaged one is an
    /// error naming the file, so a resumed run never throws away the earlier best by mistake.
    static Expected<BestCheckpointKeeper> open(const std::filesystem::path& dir, std::string metric, std::string mode);

    /// When `result` beats the best so far (or there is none), copies the checkpoint `prefix`
    /// (its .index, .data-* and .meta files, each through a temporary file renamed into place)
    /// into the directory, writes its state file and best_metric.json, then removes the previous
    /// best's files; returns true. The metric missing from the result is InvalidArgument; file
    /// errors name the file. Nothing is removed before the new copy is complete.
    Expected<bool> consider(const EvalResult& result, const std::string& prefix);

    const std::optional<BestCheckpointRecord>& best() const { return m_best; }
    const std::filesystem::path& directory() const { return m_dir; }

private:
    std::filesystem::path m_dir;
    std::string m_metric;
    std::string m_mode;
    std::optional<BestCheckpointRecord> m_best;
};

/// best_metric.json of `dir`, or nullopt when there is none. DataLoss naming the file when it does
/// not parse.
Expected<std::optional<BestCheckpointRecord>> readBestCheckpointRecord(const std::filesystem::path& dir);

} // namespace tstudio::project
