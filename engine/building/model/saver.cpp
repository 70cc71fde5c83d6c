// Saver: running the save and restore nodes, and managing the checkpoints a saver has written.
#include "model/saver.h"

#include "builder/variables.h"
#include "core/log.h"
#include "framework/device.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/v1_checkpoint_reader.h"
#include "model/meta_graph.h"
#include "runtime/session.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <system_error>

namespace tstudio {
namespace {

namespace fs = std::filesystem;

double systemSeconds()
{
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

/// ops.prepend_name_scope: "x:0" -> "scope/x:0", keeping a leading '^'.
std::string prependNameScope(const std::string& name, const std::string& scope)
{
    if (scope.empty())
        return name;
    std::string prefix = scope;
    while (!prefix.empty() && prefix.back() == '/')
        prefix.pop_back();
    if (!name.empty() && name.front() == '^')
        return "^" + prefix + "/" + name.substr(1);
    return prefix + "/" + name;
}

/// The directory whose state file a save to `savePath` updates (os.path.dirname, "" meaning ".").
fs::path stateDirectory(const std::string& savePath)
{
    const fs::path parent = fs::path(savePath).parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

/// checkpoint_management.remove_checkpoint for V2: PREFIX.index, PREFIX.data-?????-of-?????,
/// PREFIX.<metaGraphSuffix>. Failures are logged, never returned (TensorFlow ignores them too).
void removeCheckpointFiles(const std::string& prefix, const std::string& metaGraphSuffix)
{
    const fs::path p(prefix);
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    const std::string base = p.filename().string();
    static const std::regex kShard(R"(\.data-\d{5}-of-\d{5})");
    std::error_code ec;
    std::vector<fs::path> doomed;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0)
            continue;
        const std::string suffix = name.substr(base.size());
        if (suffix == ".index" || suffix == "." + metaGraphSuffix || std::regex_match(suffix, kShard))
            doomed.push_back(it->path());
    }
    if (ec)
        logWarning("saver", "Ignoring: cannot list '" + dir.string() + "': " + ec.message());
    for (const fs::path& file : doomed) {
        std::error_code removeError;
        if (!fs::remove(file, removeError) && removeError)
            logWarning("saver", "Ignoring: cannot delete '" + file.string() + "': " + removeError.message());
    }
}

/// After a save that failed (a full disk, most often): removes what it wrote, so that a directory
/// that ran out of room gets none of it back only to fail again and no reader meets half a
/// checkpoint. A sharded save's temporary directory ("<file>_temp_<id>", which MergeV2Checkpoints
/// removes only when it succeeds) always goes; the checkpoint's own files (.index, .data-*, .meta)
/// only when they were not there before this save, since a save again at a saved step (a resumed
/// run saves the step it restored) replaces the files of a checkpoint that may be the latest.
void removeFailedSave(const std::string& checkpointFile, bool existedBefore, const std::string& metaGraphSuffix)
{
    const fs::path p(checkpointFile);
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    const std::string tempPrefix = p.filename().string() + "_temp_";
    std::error_code ec;
    std::vector<fs::path> tempDirs;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        if (name.compare(0, tempPrefix.size(), tempPrefix) == 0 && it->is_directory(typeError))
            tempDirs.push_back(it->path());
    }
    for (const fs::path& temp : tempDirs) {
        std::error_code removeError;
        fs::remove_all(temp, removeError);
        if (removeError)
            logWarning("saver", "Ignoring: cannot delete '" + temp.string() + "': " + removeError.message());
    }
    if (!existedBefore)
        removeCheckpointFiles(checkpointFile, metaGraphSuffix);
}

/// Saver._wrap_restore_error_with_msg: same code, TensorFlow's explanation in front.
Status explainRestoreError(const Status& error, std::string_view cause)
{
    return Status(error.code(), "Restoring from checkpoint failed. This is most likely due to " + std::string(cause) +
                                    " from the checkpoint. Please ensure that you have not altered the graph "
                                    "expected based on the checkpoint. Original error:\n\n" +
                                    error.message());
}

Status checkSaverDef(const tensorflow::SaverDef& def)
{
    if (def.save_tensor_name().empty())
        return invalidArgumentError("saver_def must specify the save_tensor_name: " + def.ShortDebugString());
    if (def.restore_op_name().empty())
        return invalidArgumentError("saver_def must specify the restore_op_name: " + def.ShortDebugString());
    return Status::ok();
}

/// The scalar string tensor fed to the filename tensor, from the session's first device.
Expected<Tensor> filenameFeed(Session& session, const std::string& value)
{
    const std::vector<Device*> devices = session.devices();
    if (devices.empty() || session.graph() == nullptr)
        return unexpected(failedPreconditionError("the session has no graph: create it before saving or restoring"));
    auto tensor = Tensor::allocate(devices.front()->hostAllocator(), tensorflow::DT_STRING, TensorShape::scalar());
    if (!tensor)
        return unexpected(tensor.error());
    tensor->scalar<std::string>() = value;
    return tensor;
}

} // namespace

Saver::Saver(tensorflow::SaverDef def, bool empty, bool padStepNumber, std::function<double()> clock,
             bool saveRelativePaths)
    : m_def(std::move(def)), m_empty(empty), m_padStepNumber(padStepNumber), m_saveRelativePaths(saveRelativePaths),
      m_clock(std::move(clock))
{
    m_nextCheckpointTime = now() + static_cast<double>(m_def.keep_checkpoint_every_n_hours()) * 3600.0;
}

double Saver::now() const
{
    return m_clock ? m_clock() : systemSeconds();
}

Expected<Saver> Saver::create(GraphBuilder& b, const SaverOptions& options)
{
    return create(b, globalVariables(b), options);
}

Expected<Saver> Saver::create(GraphBuilder& b, const std::vector<Variable>& variables, const SaverOptions& options)
{
    auto byName = saveablesByName(variables);
    if (!byName)
        return unexpected(byName.error());
    return create(b, *byName, options);
}

Expected<Saver> Saver::create(GraphBuilder& b, const SaveableVariables& variables, const SaverOptions& options)
{
    if (variables.empty() && options.allowEmpty)
        return Saver(tensorflow::SaverDef(), true, options.padStepNumber, options.clock, options.saveRelativePaths);
    auto def = buildSaverGraph(b, variables, options.graph);
    if (!def)
        return unexpected(def.error());
    return Saver(std::move(*def), false, options.padStepNumber, options.clock, options.saveRelativePaths);
}

Expected<Saver> Saver::fromSaverDef(tensorflow::SaverDef def, const std::string& importScope,
                                    std::function<double()> clock, bool saveRelativePaths)
{
    if (Status s = checkSaverDef(def); !s.isOk())
        return unexpected(s);
    if (!importScope.empty()) {
        def.set_filename_tensor_name(prependNameScope(def.filename_tensor_name(), importScope));
        def.set_save_tensor_name(prependNameScope(def.save_tensor_name(), importScope));
        def.set_restore_op_name(prependNameScope(def.restore_op_name(), importScope));
    }
    return Saver(std::move(def), false, false, std::move(clock), saveRelativePaths);
}

Expected<std::string> Saver::save(Session& session, const std::string& savePath, std::optional<std::int64_t> globalStep,
                                  bool writeState, const tensorflow::MetaGraphDef* metaGraph)
{
    SaveArguments args;
    args.globalStep = globalStep;
    args.writeState = writeState;
    args.metaGraph = metaGraph;
    return save(session, savePath, args);
}

Expected<std::string> Saver::save(Session& session, const std::string& savePath, const SaveArguments& args)
{
    const std::optional<std::int64_t>& globalStep = args.globalStep;
    const tensorflow::MetaGraphDef* metaGraph = args.metaGraph;
    if (args.latestFilename.empty() || fs::path(args.latestFilename).has_parent_path())
        return unexpected(invalidArgumentError("'latest_filename' must be a base name."));
    std::string checkpointFile = savePath;
    if (globalStep) {
        char step[32];
        std::snprintf(step, sizeof step, m_padStepNumber ? "%08" PRId64 : "%" PRId64, *globalStep);
        checkpointFile += "-" + std::string(step);
    } else if (fs::path(savePath).filename() == args.latestFilename && !m_def.sharded()) {
        return unexpected(invalidArgumentError("'latest_filename' collides with 'save_path': '" +
                                               args.latestFilename + "' and '" + savePath + "'"));
    }
    const std::string metaFile = checkpointFile + "." + args.metaGraphSuffix;
    if (m_empty) {
        if (metaGraph) {
            if (Status s = writeMetaGraphFile(metaFile, *metaGraph); !s.isOk())
                return unexpected(s);
        }
        return std::string();
    }
    auto feed = filenameFeed(session, checkpointFile);
    if (!feed)
        return unexpected(feed.error());
    std::error_code existsError;
    const bool existedBefore = fs::exists(checkpointFile + ".index", existsError);
    std::vector<Tensor> outputs;
    Status ran = session.run({{m_def.filename_tensor_name(), *feed}}, {m_def.save_tensor_name()}, {}, &outputs);
    if (!ran.isOk()) {
        removeFailedSave(checkpointFile, existedBefore, args.metaGraphSuffix);
        const fs::path parent = fs::path(savePath).parent_path();
        std::error_code ec;
        const bool parentMissing = !parent.empty() && !fs::is_directory(parent, ec);
        if (parentMissing && (ran.code() == StatusCode::kNotFound || ran.code() == StatusCode::kFailedPrecondition))
            return unexpected(Status(ran.code(), "Parent directory of " + savePath + " doesn't exist, can't save."));
        return unexpected(ran);
    }
    if (outputs.size() != 1 || outputs[0].dtype() != tensorflow::DT_STRING || outputs[0].numElements() != 1)
        return unexpected(internalError("the save tensor '" + m_def.save_tensor_name() +
                                        "' did not yield one string (the prefix written)"));
    const std::string prefix = outputs[0].strings()[0];
    // The .meta goes before the state file (TensorFlow writes it after): a checkpoint becomes the
    // latest only once all its files are complete, so a disk that fills up on the .meta leaves the
    // previous checkpoint the latest.
    if (metaGraph) {
        if (Status s = writeMetaGraphFile(metaFile, *metaGraph); !s.isOk()) {
            removeFailedSave(checkpointFile, existedBefore, args.metaGraphSuffix);
            return unexpected(s);
        }
    }
    if (args.writeState) {
        const auto lastBefore = m_lastCheckpoints;
        const auto toBeDeletedBefore = m_toBeDeleted;
        recordLastCheckpoint(prefix);
        std::vector<fs::path> kept;
        for (const auto& [path, time] : m_lastCheckpoints)
            kept.emplace_back(path);
        CheckpointStateFile file;
        file.name = args.latestFilename;
        file.paths = m_saveRelativePaths ? CheckpointStatePaths::kRelative : CheckpointStatePaths::kAsGiven;
        if (Status s = writeCheckpointState(stateDirectory(savePath), prefix, kept, file); !s.isOk()) {
            m_lastCheckpoints = lastBefore;
            m_toBeDeleted = toBeDeletedBefore;
            removeFailedSave(checkpointFile, existedBefore, args.metaGraphSuffix);
            return unexpected(s);
        }
        maybeDeleteOldCheckpoints(args.metaGraphSuffix);
    }
    return prefix;
}

Status Saver::restore(Session& session, const std::string& savePath) const
{
    if (m_empty)
        return Status::ok();
    // checkpoint_exists: a V2 index, or the file(s) of a V1 checkpoint (RestoreV2 reads both).
    std::error_code ec;
    if (savePath.empty() || (!fs::exists(savePath + ".index", ec) && matchV1CheckpointFiles(savePath).empty()))
        return notFoundError("The passed save_path is not a valid checkpoint: " + savePath);
    logInfo("saver", "Restoring parameters from " + savePath);
    auto feed = filenameFeed(session, savePath);
    if (!feed)
        return feed.error();
    std::vector<Tensor> none;
    Status ran = session.run({{m_def.filename_tensor_name(), *feed}}, {}, {m_def.restore_op_name()}, &none);
    if (ran.code() == StatusCode::kNotFound)
        return explainRestoreError(ran, "a Variable name or other graph key that is missing");
    if (ran.code() == StatusCode::kInvalidArgument)
        return explainRestoreError(ran, "a mismatch between the current graph and the graph");
    return ran;
}

std::vector<std::string> Saver::lastCheckpoints() const
{
    std::vector<std::string> prefixes;
    for (const auto& [path, time] : m_lastCheckpoints)
        prefixes.push_back(path);
    return prefixes;
}

void Saver::setLastCheckpointsWithTime(std::vector<std::pair<std::string, double>> checkpoints)
{
    m_lastCheckpoints = std::move(checkpoints);
}

void Saver::recoverLastCheckpoints(const std::vector<std::string>& prefixes)
{
    std::vector<std::pair<std::string, double>> found;
    for (const std::string& prefix : prefixes) {
        std::error_code ec;
        const auto written = fs::last_write_time(prefix + ".index", ec);
        if (ec)
            continue;
        const auto system = std::chrono::file_clock::to_sys(written);
        found.emplace_back(prefix, std::chrono::duration<double>(system.time_since_epoch()).count());
    }
    setLastCheckpointsWithTime(std::move(found));
}

void Saver::recordLastCheckpoint(const std::string& prefix)
{
    if (m_def.max_to_keep() <= 0)
        return;
    std::erase_if(m_lastCheckpoints, [&](const auto& entry) { return entry.first == prefix; });
    m_lastCheckpoints.emplace_back(prefix, now());
    if (static_cast<std::int64_t>(m_lastCheckpoints.size()) > m_def.max_to_keep()) {
        m_toBeDeleted.push_back(m_lastCheckpoints.front());
        m_lastCheckpoints.erase(m_lastCheckpoints.begin());
    }
}

void Saver::maybeDeleteOldCheckpoints(const std::string& metaGraphSuffix)
{
    if (m_toBeDeleted.empty())
        return;
    const auto [prefix, savedAt] = m_toBeDeleted.front();
    m_toBeDeleted.erase(m_toBeDeleted.begin());
    if (savedAt > m_nextCheckpointTime) {
        // The first checkpoint saved N hours after the last one kept stays on disk for good.
        m_nextCheckpointTime += static_cast<double>(m_def.keep_checkpoint_every_n_hours()) * 3600.0;
        return;
    }
    removeCheckpointFiles(prefix, metaGraphSuffix);
}

} // namespace tstudio
