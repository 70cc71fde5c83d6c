// checkTrainingStarts: what would stop a project's training run at its start (the graph, the data
// sources' folders and files, the eval section), found without a session, so that a front end can say
// it in its own words before it starts other processes to train.
#pragma once

#include "core/status.h"
#include "project/format/project_file.h"

namespace tstudio {
class OpRegistry;
}

namespace tstudio::project {

/// Prepares `project` as trainProject does before its first step, without a session and without
/// writing anything: the training graph with its data (prepareTraining: every data source read and
/// its feeds checked against the graph) and, with an eval section, the evaluation
/// (ProjectEvaluation::prepare: every eval source read, the metrics built). Ok when the run would
/// get past them. Errors are theirs, unchanged: a settings problem is named by its field
/// (setting_advice.h: "data.dir: not set; ...") and the caller adds its own remedy. Reads every
/// source once (seconds for a large data set): callers with a window run it on a worker thread.
/// Threads: any.
Status checkTrainingStarts(const Project& project, const OpRegistry& ops);

} // namespace tstudio::project
