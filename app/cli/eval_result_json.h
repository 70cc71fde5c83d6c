// The JSON of one evaluation, shared by `tstudio evaluate --json` and the evaluations of
// `tstudio train --json` (docs/cli-json.md).
#pragma once

#include "project/run/evaluation.h"

#include <nlohmann/json.hpp>

namespace tstudio::cli {

/// {"checkpoint", "global_step", "batches", "examples", "seconds", "metrics": {name: value}}; the
/// metrics in the project's eval.metrics order (a NaN metric is written as null).
nlohmann::ordered_json evalResultJson(const project::EvalResult& result);

} // namespace tstudio::cli
