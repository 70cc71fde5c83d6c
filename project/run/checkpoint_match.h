// CheckpointMatch: whether a checkpoint holds exactly the variables a project's training saves, so
// that "continue from the latest checkpoint" never restores another graph's checkpoint.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "project/format/project_file.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {
class CheckpointReader;
class OpRegistry;
} // namespace tstudio

namespace tstudio::project {

/// One variable as a checkpoint stores it: its name, value dtype and shape.
struct SavedVariable {
    std::string name;
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape shape;
};

/// A variable whose name both sides have but whose dtype or shape differs.
struct VariableMismatch {
    std::string name;
    std::string inGraph;      ///< "float32 [784,10]"
    std::string inCheckpoint; ///< "float32 [784,64]"
};

/// The comparison of a checkpoint with a graph's saved variables, each list in name order.
struct CheckpointMatch {
    std::string checkpoint;              ///< the prefix compared ("…/model.ckpt-60")
    std::vector<std::string> missing;    ///< variables of the graph the checkpoint does not hold
    std::vector<std::string> unexpected; ///< tensors of the checkpoint that are no variable of the graph
    std::vector<VariableMismatch> mismatched;
    bool matches() const { return missing.empty() && unexpected.empty() && mismatched.empty(); }
};

/// The variables a training run of `project` saves in its checkpoints (the GLOBAL_VARIABLES of the
/// training graph trainProject builds: the graph's own, the global step, the optimizer's slots),
/// found by preparing that graph without its data: no data file is read, so this is cheap enough
/// for a button press. Errors: prepareTraining's (the run itself would fail the same way).
Expected<std::vector<SavedVariable>> savedVariables(const Project& project, const OpRegistry& ops);

/// Compares `variables` with the tensors `checkpoint` holds: by name, then dtype and shape (a
/// graph's partly unknown shape matches any shape it is compatible with).
CheckpointMatch matchCheckpoint(const std::vector<SavedVariable>& variables, const CheckpointReader& checkpoint);

/// What resuming a run of `project` in `logdir` would restore, compared with what it saves:
/// nullopt when `logdir` holds no checkpoint (nothing is restored). Errors: savedVariables';
/// the checkpoint's when it cannot be opened (DataLoss, NotFound from the reader).
Expected<std::optional<CheckpointMatch>> matchLatestCheckpoint(const Project& project, const OpRegistry& ops,
                                                               const std::filesystem::path& logdir);

/// The first `shown` names, then "and N more": "a, b, c and 4 more".
std::string shortNameList(const std::vector<std::string>& names, std::size_t shown = 3);

/// The mismatch in one line, for the command line and logs: "checkpoint model.ckpt-60 does not
/// match the graph: 2 variables missing from it (a, b); 1 not in the graph (c); 1 different (d:
/// float32 [3] in the graph, float32 [4] in the checkpoint)". Empty when `match` matches.
std::string describeCheckpointMismatch(const CheckpointMatch& match);

} // namespace tstudio::project
