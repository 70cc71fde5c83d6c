// The hparams plugin's records of a project's training run: every `tstudio train` and Training-panel
// run describes itself as a session of TensorBoard's HParams (its settings as hyperparameters, its
// scalar summaries as metrics), so that runs of one project compare in the HParams tab as they are.
#pragma once

#include "core/expected.h"
#include "io/events/event_file_writer.h"
#include "project/format/project_file.h"

#include <map>
#include <string>
#include <vector>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::project {

/// The project's settings that make a run: the scalar leaves of "training" (optimizer, learning rate
/// schedule, clipping, ...), "batch_size", "steps", "device" and of each data source (by
/// "data.sources.<i>.<key>", leaving out the folder, file and feed names), named by their JSON path
/// ("training.optimizer.learning_rate"). Lists and nulls are left out.
std::map<std::string, nlohmann::json> runHParams(const Project& project);

/// The tags of the graph's ScalarSummary nodes whose tag is a string Const, in graph order.
std::vector<std::string> scalarSummaryTags(const tensorflow::GraphDef& graph);

/// Writes, at `step`, the experiment (each hparam with its type; each of `metricTags` as a metric of
/// the run itself) and the session_start_info (the values, start time now, model_uri `logdir`) as
/// TensorBoard's hparams summaries ("_hparams_/experiment", "_hparams_/session_start_info").
Status writeRunSessionStart(events::EventFileWriter& writer, const Project& project,
                            const std::vector<std::string>& metricTags, const std::string& logdir, std::int64_t step);

/// Writes the session_end_info: status success, or failure when `failed`, end time now.
Status writeRunSessionEnd(events::EventFileWriter& writer, bool failed, std::int64_t step);

} // namespace tstudio::project
