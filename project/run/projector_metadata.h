// What a run writes for TensorBoard's projector: the words of a skip_gram source's vocabulary as
// the metadata of the graph's embedding variables, as TensorFlow's word2vec tutorial does.
#pragma once

#include "core/status.h"
#include "project/format/project_file.h"
#include "proto/graph.pb.h"

#include <filesystem>

namespace tstudio::project {

/// For a project with a skip_gram source (its first one): writes `<logdir>/metadata.tsv` (the
/// vocabulary's words, one per line, by id, then "(unused)" up to vocab_size: a one-column TSV has
/// no header) and
/// `<logdir>/projector_config.pbtxt` naming it as the metadata of every float variable of `graph`
/// whose shape is [vocab_size, D] (the embedding and nce_weights: each row is a word), both
/// written to a temporary file first and then renamed. A project without one: nothing, OK.
/// Errors: the source's (reading its text), the writes'.
Status writeProjectorMetadata(const Project& project, const tensorflow::GraphDef& graph,
                              const std::filesystem::path& logdir);

} // namespace tstudio::project
