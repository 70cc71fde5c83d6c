// Reading and writing the `checkpoint` state file.
#include "io/checkpoint/checkpoint_state.h"

#include "io/atomic_file.h"
#include "io/proto_parse.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <system_error>

namespace tstudio {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxStateFileBytes = 64ull * 1024 * 1024;

fs::path resolve(const fs::path& dir, const std::string& prefix)
{
    const fs::path p(prefix);
    return p.is_absolute() ? p : dir / p;
}

/// `prefix` relative to `dir` when it lies inside it, else absolute.
std::string relativeIfInside(const fs::path& dir, const fs::path& prefix)
{
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(dir, ec);
    const fs::path full = fs::weakly_canonical(prefix.is_absolute() ? prefix : fs::absolute(prefix), ec);
    if (!ec) {
        const fs::path rel = full.lexically_relative(base);
        if (!rel.empty() && *rel.begin() != ".." && !rel.is_absolute())
            return rel.generic_string();
    }
    return full.empty() ? prefix.generic_string() : full.generic_string();
}

/// Python's os.path.relpath(path, start): both made absolute and normalised, symlinks untouched.
fs::path pythonRelpath(const fs::path& path, const fs::path& start)
{
    const fs::path base = fs::absolute(start).lexically_normal();
    const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(base);
    return rel.empty() ? fs::path(".") : rel;
}

/// The path the state file holds for checkpoint `p` of directory `dir`.
std::string statePath(const fs::path& dir, const fs::path& p, CheckpointStatePaths style)
{
    if (style == CheckpointStatePaths::kInsideRelative)
        return relativeIfInside(dir, p);
    fs::path out = p;
    if (style == CheckpointStatePaths::kRelative && out.is_absolute())
        out = pythonRelpath(out, dir);
    // generate_checkpoint_state_proto: with a relative directory, relative paths become relative to it.
    if (!dir.is_absolute() && !out.is_absolute())
        out = pythonRelpath(out, dir);
    return out.generic_string();
}

} // namespace

Expected<tensorflow::CheckpointState> readCheckpointState(const fs::path& dir)
{
    const fs::path file = dir / kCheckpointStateFileName;
    std::error_code ec;
    if (!fs::exists(file, ec))
        return unexpected(notFoundError("no checkpoint state file '" + file.string() + "'"));
    auto text = readWholeFile(file, kMaxStateFileBytes);
    if (!text)
        return unexpected(text.error());
    tensorflow::CheckpointState state;
    std::string error;
    if (!parseTextProto(*text, state, &error))
        return unexpected(dataLossError("checkpoint state file '" + file.string() +
                                        "' is not a text-format CheckpointState: " + error));
    if (state.model_checkpoint_path().empty())
        return unexpected(invalidArgumentError("checkpoint state file '" + file.string() +
                                               "' has no model_checkpoint_path"));
    state.set_model_checkpoint_path(resolve(dir, state.model_checkpoint_path()).string());
    for (std::string& p : *state.mutable_all_model_checkpoint_paths())
        p = resolve(dir, p).string();
    return state;
}

Expected<fs::path> latestCheckpoint(const fs::path& dir)
{
    auto state = readCheckpointState(dir);
    if (!state)
        return unexpected(state.error());
    const fs::path prefix = state->model_checkpoint_path();
    std::error_code ec;
    if (fs::exists(prefix.string() + ".index", ec))
        return prefix;
    if (fs::is_regular_file(prefix, ec))
        return unexpected(failedPreconditionError("checkpoint '" + prefix.string() +
                                                  "' is a V1 checkpoint (a single table file); only V2 "
                                                  "checkpoints (PREFIX.index + PREFIX.data-*) can be read"));
    return unexpected(notFoundError("checkpoint state file '" + (dir / kCheckpointStateFileName).string() +
                                    "' names '" + prefix.string() + "', but '" + prefix.string() +
                                    ".index' does not exist"));
}

Status writeCheckpointState(const fs::path& dir, const fs::path& latest, const std::vector<fs::path>& all,
                            const std::vector<double>& timestamps, std::optional<double> lastPreservedTimestamp)
{
    return writeCheckpointState(dir, latest, all, CheckpointStateFile{}, timestamps, lastPreservedTimestamp);
}

Status writeCheckpointState(const fs::path& dir, const fs::path& latest, const std::vector<fs::path>& all,
                            const CheckpointStateFile& file, const std::vector<double>& timestamps,
                            std::optional<double> lastPreservedTimestamp)
{
    const auto written = [&](const fs::path& p) { return statePath(dir, p, file.paths); };
    std::vector<fs::path> paths = all;
    if (std::find(paths.begin(), paths.end(), latest) == paths.end())
        paths.push_back(latest);
    if (!timestamps.empty() && timestamps.size() != paths.size())
        return invalidArgumentError("checkpoint state: " + std::to_string(timestamps.size()) + " timestamps for " +
                                    std::to_string(paths.size()) + " checkpoints");
    tensorflow::CheckpointState state;
    state.set_model_checkpoint_path(written(latest));
    for (const fs::path& p : paths)
        state.add_all_model_checkpoint_paths(written(p));
    for (double t : timestamps)
        state.add_all_model_checkpoint_timestamps(t);
    if (lastPreservedTimestamp)
        state.set_last_preserved_timestamp(*lastPreservedTimestamp);
    std::string text;
    if (!google::protobuf::TextFormat::PrintToString(state, &text))
        return internalError("cannot print the checkpoint state");
    return writeFileAtomically(dir / file.name, text);
}

} // namespace tstudio
