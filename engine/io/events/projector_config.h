// TensorBoard's projector plugin files: a run folder's projector_config.pbtxt, the embedding
// tensors it names (a TSV of values, or a variable of the run's checkpoint), their metadata TSV and
// sprite, read as the plugin reads them. Qt-free.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::events {

/// The config's file name in a run folder.
inline constexpr const char* kProjectorConfigFile = "projector_config.pbtxt";

/// One embedding of a config, its paths resolved against the run folder.
struct ProjectorEmbedding {
    std::string tensorName;
    std::filesystem::path tensorPath;   ///< a TSV of the values; empty: the checkpoint's variable
    std::filesystem::path metadataPath; ///< empty: none
    std::filesystem::path spritePath;   ///< empty: none
    int spriteImageWidth = 0, spriteImageHeight = 0;
    std::vector<std::uint32_t> tensorShape; ///< as the config gives it ([N, D]), or empty
};

struct ProjectorConfig {
    std::filesystem::path runFolder;
    /// The checkpoint prefix to take variables from (model_checkpoint_path, else the latest of
    /// model_checkpoint_dir, else of the run folder); empty when there is none.
    std::filesystem::path checkpoint;
    std::vector<ProjectorEmbedding> embeddings;
};

/// Reads runFolder/projector_config.pbtxt. NotFound when there is none; InvalidArgument naming the
/// file and the line for text that does not parse.
Expected<ProjectorConfig> readProjectorConfig(const std::filesystem::path& runFolder);

/// A run folder as TensorBoard's projector sees it: its projector_config.pbtxt (readProjectorConfig),
/// or without one an empty config whose checkpoint is the folder's latest; then every float or
/// double variable of rank 2 in that checkpoint that no embedding names yet is added after the
/// config's own (its shape recorded), except optimizer slots (".OPTIMIZER_SLOT" in the name, as
/// TensorBoard skips them). A config whose first embedding has no tensor_name lends its metadata
/// and sprite to the variables added, and is dropped, as TensorBoard does. NotFound when the folder
/// holds neither a config nor such a variable; readProjectorConfig's and the checkpoint's errors.
Expected<ProjectorConfig> readProjectorRun(const std::filesystem::path& runFolder);

/// An embedding's values: `rows` points of `dims` values each, row-major.
struct EmbeddingValues {
    std::size_t rows = 0, dims = 0;
    std::vector<float> values;
};

/// The embedding's values: its TSV (one point per line, values separated by tabs; every line as
/// long as the first) or the checkpoint's variable named by tensor_name without a ":N" output
/// suffix (a float or double tensor of rank 2; rank 1 is one value per point). Errors name the
/// file and line, or the checkpoint and variable, and what was expected.
Expected<EmbeddingValues> readEmbeddingValues(const ProjectorConfig& config, const ProjectorEmbedding& embedding);

/// A metadata TSV: with one column, every line is a point's label (no header), as TensorBoard
/// reads it; with several, the first line names the columns.
struct EmbeddingMetadata {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows; ///< one per point, a value per column
};
/// InvalidArgument naming the file when its rows are not as many as `points` or a row has another
/// number of columns than the header.
Expected<EmbeddingMetadata> readEmbeddingMetadata(const std::filesystem::path& path, std::size_t points);

} // namespace tstudio::events
