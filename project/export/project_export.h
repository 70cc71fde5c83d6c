// exportProject: a trained project's graph written for serving, as a SavedModel with a predict
// signature and/or a frozen GraphDef pruned to inference, both in evaluation mode (the learning phase a
// Const false), from a checkpoint of the log directory (optionally its moving averages). Shared by
// `tstudio export` and the IDE's File ▸ Export….
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tstudio {
class OpRegistry;
struct Registries;
} // namespace tstudio

namespace tstudio::project {

/// What to export and where. The names are checked against the project's graph; errors name them by
/// the project key they stand for ("export.outputs[0]"), whether they came from the .tsproj's
/// "export" section, the command line or the dialog.
struct ExportOptions {
    /// A checkpoint prefix ("runs/x/model.ckpt-200"), its .index file, or a directory (its latest
    /// checkpoint). Empty: the latest checkpoint of the project's log directory.
    std::string checkpoint;
    /// Overrides the project's log directory (absolute, or relative to the current directory), as
    /// TrainRunOptions::logdir does; only used to find the latest checkpoint.
    std::optional<std::filesystem::path> logdir;
    /// The signature's inputs: placeholders ("x" meaning "x:0"). nullopt: every placeholder a data
    /// source feeds that the outputs need, in graph order.
    std::optional<std::vector<std::string>> inputs;
    /// The signature's outputs and what the frozen graph is pruned to: tensor names ("y" meaning
    /// "y:0"). Required.
    std::vector<std::string> outputs;
    /// The SavedModel directory to write (must not exist, or be empty); empty: none.
    std::filesystem::path savedModelDir;
    /// The frozen binary GraphDef to write; empty: none.
    std::filesystem::path frozenGraphPath;
    /// Restore each variable from its "<var>/ExponentialMovingAverage" shadow in the checkpoint
    /// (ExponentialMovingAverage.variables_to_restore()); variables that have none keep their own value.
    bool movingAverage = false;
    std::string signatureKey = "serving_default";
};

/// The project's "export" section as options: its paths resolved against the .tsproj's folder, its
/// inputs (an empty list: the default), outputs and moving_average; the rest at their defaults.
/// Default options without a section.
ExportOptions exportOptionsOf(const Project& project);

/// What was exported.
struct ExportResult {
    std::string checkpoint;               ///< the prefix the values came from
    std::vector<std::string> inputs;      ///< tensor names ("x:0"), the signature's order
    std::vector<std::string> outputs;     ///< tensor names ("y:0"), as asked
    std::vector<std::string> inputKeys;   ///< the signature's key of each input (its node name)
    std::vector<std::string> outputKeys;  ///< the signature's key of each output ("y", "y:1" for output 1)
    std::vector<std::string> variables;   ///< the variables the outputs read, in graph order
    std::vector<std::string> averaged;    ///< those restored from their moving average
    bool learningPhaseFixed = false;      ///< the graph had a learning phase; it is the Const false
    std::filesystem::path savedModelDir;  ///< written ("" when not asked)
    std::filesystem::path frozenGraphPath;///< written ("" when not asked)
    int savedModelNodes = 0;              ///< nodes of the SavedModel's graph (saver included)
    int frozenNodes = 0;                  ///< nodes of the frozen graph
};

/// Exports the project's own graph (as readProjectGraph reads it: not the optimizer prepareTraining
/// adds) with the values of a checkpoint:
///  - the learning phase ("learning_phase", builder/learning_phase.h), when the graph has one, becomes
///    the bool Const false of the same name, so both exports run in evaluation mode whatever is fed;
///  - the graph is pruned to what the outputs need (extract_sub_graph); the outputs must need no
///    Placeholder other than the inputs (a PlaceholderWithDefault may stay and keeps its default);
///  - SavedModel (savedModelDir): the pruned graph, each variable it reads with its initializer, a
///    Saver over them, collection "variables", tags {serve}, devices cleared, and the signature
///    `signatureKey` (method "tensorflow/serving/predict", one TensorInfo per input and output: name,
///    dtype, shape; keys as ExportResult says), the variables holding the checkpoint's values; written
///    atomically by saveSavedModel;
///  - frozen graph (frozenGraphPath): freezeGraph of the pruned graph (variables as Consts holding the
///    same values), written as binary through a temporary file and a rename.
/// Everything is checked and computed before anything is written; nothing in the log directory is
/// written or changed.
/// Errors (InvalidArgument unless said), prefixed "<file>: " (the .tsproj's name, else "project"):
///   "export: nothing to write: give export.saved_model (a directory) and/or export.frozen_graph (a .pb file)"
///   "export.outputs: required: the tensors the export computes (e.g. \"logits:0\")"
///   "export.outputs[0]: 'y:0' is not in the graph", "...: 'y:3' is not in the graph: 'y' (MatMul) has 1 output"
///   "export.inputs[0]: 'w' is a VariableV2, not a placeholder", "... is not in the graph",
///   "export.inputs[1]: 'labels:0' is not needed by the outputs (...)",
///   "export.inputs[0]: 'learning_phase' is the learning phase, which an export fixes to false"
///   "export.outputs[0]: 'scaled:0' needs placeholder 'scale', which is not among the inputs
///    (export.inputs: x:0); add it to export.inputs, or give it a default"
///   FailedPrecondition "no checkpoint to export: log directory 'D' has none (train the project first,
///    or choose a checkpoint)"; NotFound "checkpoint 'P' not found: ..." for a given one;
///   NotFound "export.moving_average: checkpoint 'P' holds no moving averages: none of w, b has a
///    'w/ExponentialMovingAverage' tensor"
///   AlreadyExists "export.saved_model: 'D' already exists and is not empty; choose a new directory"
///   FailedPrecondition "export.frozen_graph: 'F' is in the log directory and exists; choose another file"
///   Unimplemented for a SavedModel of resource variables (export a frozen graph instead);
/// and the graph's, the checkpoint's, the session's and the file system's errors.
Expected<ExportResult> exportProject(const Project& project, const Registries& registries,
                                     const ExportOptions& options);

/// What an export of the project can name, for a dialog to offer: the graph's placeholders and the
/// tensors of its nodes.
struct ExportCandidates {
    struct TensorChoice {
        std::string name;  ///< "node:0"
        std::string op;    ///< the node's op
        std::string type;  ///< dtype and shape, "float [?,10]"
    };
    /// Placeholder and PlaceholderWithDefault nodes other than the learning phase, graph order.
    std::vector<std::string> placeholders;
    /// The placeholders a data source feeds.
    std::set<std::string> fed;
    /// Every output of every node but constants, variables, assignments, the learning phase, the
    /// saver's, the gradients' and the initialisers' nodes, graph order.
    std::vector<TensorChoice> tensors;
    /// The project's graph (read once for the dialog).
    tensorflow::GraphDef graph;
};

/// The candidates of the project's graph. Errors: readProjectGraph's, the graph's import errors.
Expected<ExportCandidates> exportCandidates(const Project& project, const OpRegistry& ops);

/// The default inputs for `outputs` (tensor names): the placeholders a data source feeds that the
/// outputs need, in graph order (node names). Names that are not in `graph` are skipped.
std::vector<std::string> defaultExportInputs(const Project& project, const tensorflow::GraphDef& graph,
                                             const std::vector<std::string>& outputs);

} // namespace tstudio::project
