// Warm start: a project's variables initialised from another checkpoint when training starts fresh,
// as tf.estimator.WarmStartSettings (tf.train.init_from_checkpoint's initializers) does.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "project/format/project_file.h"

#include <string>
#include <vector>

namespace tstudio::project {

/// What addWarmStart built.
struct WarmStartPlan {
    std::string checkpoint;             ///< the checkpoint prefix read
    std::vector<std::string> variables; ///< the graph's variables warm-started, in graph order
    std::string initOp;                 ///< runs `initOp` given, then the restores
};

/// Adds to `b`, under the name scope "warm_start": a RestoreV2 of each chosen variable's tensor and
/// an Assign of it, after `initOp` (the op that initialises every variable), and "warm_start/init"
/// grouping them: run it instead of `initOp` when a session starts without a checkpoint of its own.
/// The chosen variables: `trainable` ones whose names match `settings.varsToWarmStart` from the
/// start (re.match), read under the name settings.varNameToPrevVarName gives (else their own).
/// `settings.ckptToInitializeFrom` is a prefix or a directory (its `checkpoint` file's latest),
/// relative to the project file. Errors (InvalidArgument, prefixed `where`, e.g.
/// "training.warm_start"):
///   ".ckpt_to_initialize_from: no checkpoint at 'runs/a' (...)"
///   ".vars_to_warm_start: 'layer3' matches none of the trainable variables (layer1/weights, ...)"
///   ": variable 'layer2/weights' is not in checkpoint 'runs/a/model.ckpt-100' (as 'layer2/weights')"
///   ": variable 'layer2/weights' is float32 [500,10] but the checkpoint's 'layer2/weights' is float32 [300,10]"
///   ".var_name_to_prev_var_name: 'x' is not a variable of the graph"
Expected<WarmStartPlan> addWarmStart(GraphBuilder& b, const Project& project, const WarmStart& settings,
                                     const std::vector<Variable>& trainable, const std::string& initOp,
                                     const std::string& where);

/// Python's re.match: `pattern` matches `text` from its first character (not necessarily to its end).
bool matchesFromStart(const std::string& pattern, const std::string& text);

} // namespace tstudio::project
