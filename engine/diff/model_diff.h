// diffModels: two files compared as what they are: two graphs (any file a graph opens from) or two
// checkpoints, by content (the front door's detection). Qt-free; shared by `tstudio diff` and the
// IDE's File > Compare.
#pragma once

#include "core/expected.h"
#include "diff/checkpoint_diff.h"
#include "diff/graph_diff.h"

#include <filesystem>
#include <string>
#include <variant>

namespace tstudio::diff {

struct ModelDiff {
    std::string first; ///< the paths given
    std::string second;
    std::variant<GraphDiff, CheckpointDiff> result;
    bool isGraph() const { return std::holds_alternative<GraphDiff>(result); }
    const GraphDiff& graph() const { return std::get<GraphDiff>(result); }
    const CheckpointDiff& checkpoint() const { return std::get<CheckpointDiff>(result); }
};

/// Detects both files' kinds: two checkpoints (a prefix, its .index, a checkpoint directory or
/// state file, V1 or V2) are compared by checkpointDiff; two files that hold graphs (GraphDef,
/// MetaGraph, SavedModel, event file; the default graph of each) by graphDiff. InvalidArgument
/// "'a.pb' is GraphDef (binary) and 'ckpt' is Checkpoint (V2): compare two graphs or two
/// checkpoints" for a mix; the detector's, openGraph's and the readers' errors otherwise.
/// Threads: a plain function; call it on a worker thread for large files.
Expected<ModelDiff> diffModels(const std::filesystem::path& first, const std::filesystem::path& second);

} // namespace tstudio::diff
