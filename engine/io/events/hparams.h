// readHParams: the hyperparameter experiment of a log directory as TensorBoard's hparams plugin
// reads it (experiment, sessions with their hparams and status, each metric's latest value),
// whether TensorFlow's hparams API or PyTorch's SummaryWriter.add_hparams wrote it. Qt-free.
#pragma once

#include "core/expected.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tstudio::events {

/// An hparam's value: a number, a string, a bool, or none.
using HParamValue = std::variant<std::monostate, double, std::string, bool>;

struct HParamDefinition {
    std::string name;
    std::string displayName;
    /// "string", "bool", "float64" or "" (DataType unset).
    std::string type;
    /// The discrete domain, when the experiment gives one.
    std::vector<HParamValue> domain;
    std::optional<std::pair<double, double>> interval;
};

struct MetricDefinition {
    std::string group; ///< the run suffix ("" or "/validation")
    std::string tag;
    std::string displayName;
};

struct MetricReading {
    double value = 0;
    std::int64_t step = 0;
    double wallTime = 0;
};

struct HParamsSession {
    /// The run holding its session_start_info, relative to the log directory ("." for the root).
    std::string run;
    std::string group; ///< group_name, or the run when empty
    std::map<std::string, HParamValue> hparams;
    /// By "<group>/<tag>"-free key: MetricDefinition index -> its latest value (absent: none yet).
    std::map<std::size_t, MetricReading> metrics;
    /// "unknown", "success", "failure", "running" (no session_end_info: "running" when it started).
    std::string status = "unknown";
    double startTime = 0;
    double endTime = 0;
    std::string modelUri;
};

struct HParamsExperiment {
    std::string name;
    std::string description;
    /// The union of every experiment summary's definitions, in first-seen order (PyTorch writes one
    /// experiment per session); hparams a session sets without a definition are added as found.
    std::vector<HParamDefinition> hparams;
    std::vector<MetricDefinition> metrics;
    std::vector<HParamsSession> sessions; ///< by run
    /// Damaged records and files that could not be read, as readable lines.
    std::vector<std::string> warnings;
    bool empty() const { return sessions.empty() && hparams.empty() && metrics.empty(); }
};

/// Reads every event file under `logdir`: the hparams plugin's summaries (plugin_name "hparams",
/// content a serialized HParamsPluginData: experiment, session_start_info, session_end_info) and,
/// for each metric of the experiment, the latest scalar (simple_value or a scalar float tensor, by
/// step, then file order) of tag `tag` in run "<session run><group>" (a leading "/" of the group
/// ignored, "." for the root run). NotFound naming the directory when it cannot be listed; a
/// directory without hparams summaries gives an empty experiment.
Expected<HParamsExperiment> readHParams(const std::filesystem::path& logdir);

/// A value as text: numbers with up to 10 significant digits, strings as they are, "true"/"false".
std::string hparamText(const HParamValue& value);

} // namespace tstudio::events
