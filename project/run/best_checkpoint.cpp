// BestCheckpointKeeper: copies of the best checkpoint in <logdir>/best.
#include "project/run/best_checkpoint.h"

#include "project/run/eval_metrics.h"
#include "core/try.h"
#include "io/atomic_file.h"
#include "io/checkpoint/checkpoint_state.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <system_error>
#include <vector>

namespace tstudio::project {
namespace {

constexpr const char* kRecordFile = "best_metric.json";

/// The files of the checkpoint `prefix` ("<dir>/model.ckpt-5" -> model.ckpt-5.index, ...).
std::vector<std::filesystem::path> checkpointFilesOf(const std::filesystem::path& prefix)
{
    std::vector<std::filesystem::path> files;
    const std::string stem = prefix.filename().string() + ".";
    std::error_code ec;
    for (std::filesystem::directory_iterator it(prefix.parent_path(), ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind(stem, 0) == 0 && it->is_regular_file())
            files.push_back(it->path());
    return files;
}

Status copyAtomically(const std::filesystem::path& from, const std::filesystem::path& to)
{
    std::filesystem::path temporary = to;
    temporary += ".tmp";
    std::error_code ec;
    std::filesystem::copy_file(from, temporary, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec)
        return fileErrorStatus("copying '" + from.string() + "' to", temporary, ec.value());
    std::filesystem::rename(temporary, to, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        return fileErrorStatus("renaming into", to, ec.value());
    }
    return Status::ok();
}

} // namespace

Expected<std::optional<BestCheckpointRecord>> readBestCheckpointRecord(const std::filesystem::path& dir)
{
    const std::filesystem::path file = dir / kRecordFile;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return std::optional<BestCheckpointRecord>();
    auto text = readWholeFile(file, 1 << 20);
    if (!text)
        return unexpected(text.error());
    const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    auto bad = [&] { return unexpected(dataLossError("'" + file.string() + "' is not a best-checkpoint record"
                                                     " ({\"metric\", \"mode\", \"value\", \"step\", \"checkpoint\"})")); };
    if (!j.is_object() || !j.contains("metric") || !j["metric"].is_string() || !j.contains("mode") ||
        !j["mode"].is_string() || !j.contains("value") || !j["value"].is_number() || !j.contains("step") ||
        !j["step"].is_number_integer() || !j.contains("checkpoint") || !j["checkpoint"].is_string())
        return bad();
    BestCheckpointRecord r;
    r.metric = j["metric"].get<std::string>();
    r.mode = j["mode"].get<std::string>();
    r.value = j["value"].get<double>();
    r.step = j["step"].get<std::int64_t>();
    r.checkpoint = j["checkpoint"].get<std::string>();
    return std::optional<BestCheckpointRecord>(r);
}

Expected<BestCheckpointKeeper> BestCheckpointKeeper::open(const std::filesystem::path& dir, std::string metric,
                                                          std::string mode)
{
    BestCheckpointKeeper keeper;
    keeper.m_dir = dir;
    keeper.m_metric = std::move(metric);
    keeper.m_mode = std::move(mode);
    TSTUDIO_TRY(record, readBestCheckpointRecord(dir));
    if (record && record->metric == keeper.m_metric && record->mode == keeper.m_mode)
        keeper.m_best = record;
    return keeper;
}

Expected<bool> BestCheckpointKeeper::consider(const EvalResult& result, const std::string& prefix)
{
    auto value = result.metric(m_metric);
    if (!value)
        return unexpected(invalidArgumentError("eval.best.metric: the evaluation gave no '" + m_metric + "'"));
    if (m_best && !evalImproves(m_mode, *value, m_best->value))
        return false;
    std::error_code ec;
    std::filesystem::create_directories(m_dir, ec);
    if (ec)
        return unexpected(fileErrorStatus("creating", m_dir, ec.value()));
    const std::vector<std::filesystem::path> files = checkpointFilesOf(prefix);
    if (files.empty())
        return unexpected(notFoundError("checkpoint '" + prefix + "' has no files to keep as the best"));
    for (const std::filesystem::path& f : files)
        if (Status s = copyAtomically(f, m_dir / f.filename()); !s.isOk())
            return unexpected(s);
    const std::string name = std::filesystem::path(prefix).filename().string();
    if (Status s = writeCheckpointState(m_dir, m_dir / name, {m_dir / name}); !s.isOk())
        return unexpected(s);
    BestCheckpointRecord record{m_metric, m_mode, *value, result.step, name};
    nlohmann::ordered_json j;
    j["metric"] = record.metric;
    j["mode"] = record.mode;
    j["value"] = record.value;
    j["step"] = record.step;
    j["checkpoint"] = record.checkpoint;
    if (Status s = writeFileAtomically(m_dir / kRecordFile, jsonText(j, 2) + "\n"); !s.isOk())
        return unexpected(s);
    // The previous best goes only now that the new one is complete.
    if (m_best && m_best->checkpoint != name)
        for (const std::filesystem::path& f : checkpointFilesOf(m_dir / m_best->checkpoint))
            std::filesystem::remove(f, ec);
    m_best = record;
    return true;
}

} // namespace tstudio::project
