// distributed.json: written atomically by rank 0, read by the IDE and by tests.
#include "project/distributed/distributed_status.h"

#include "io/atomic_file.h"
#include "project/run/project_runner.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

namespace tstudio::project {
namespace {

constexpr const char* kFormat = "tstudio-distributed";

nlohmann::json optionalInt(const std::optional<std::int64_t>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json();
}

} // namespace

DistributedStatus makeDistributedStatus(const DistributedWorld& world, const std::filesystem::path& logdir)
{
    DistributedStatus status;
    status.size = world.size;
    status.launcher = world.launcher;
    status.logdir = logdir;
    status.ranks = world.ranks;
    return status;
}

Status writeDistributedStatus(const DistributedStatus& status)
{
    nlohmann::ordered_json o;
    o["format"] = kFormat;
    o["version"] = 1;
    o["state"] = status.state;
    o["size"] = status.size;
    o["launcher"] = status.launcher;
    o["logdir"] = status.logdir.string();
    o["ranks"] = nlohmann::ordered_json::array();
    for (const RankPlace& r : status.ranks)
        o["ranks"].push_back({{"rank", r.rank},
                              {"host", r.host},
                              {"pid", r.pid},
                              {"events", rankEventDirectory(status.logdir, r.rank).string()}});
    o["first_step"] = optionalInt(status.firstStep);
    o["last_step"] = optionalInt(status.lastStep);
    o["message"] = status.message;
    const std::filesystem::path file = status.logdir / kDistributedStatusFileName;
    std::error_code ec;
    std::filesystem::create_directories(status.logdir, ec);
    if (ec)
        return fileErrorStatus("creating the log directory", status.logdir, ec.value());
    if (Status s = writeFileAtomically(file, jsonText(o, 2) + "\n"); !s.isOk())
        return s.withContext("writing '" + file.string() + "'");
    return Status::ok();
}

Expected<DistributedStatus> readDistributedStatus(const std::filesystem::path& file)
{
    auto text = readWholeFile(file, std::uint64_t{16} << 20);
    if (!text)
        return unexpected(text.error());
    auto bad = [&](const std::string& why) {
        return unexpected(invalidArgumentError("'" + file.string() + "': not a distributed status file (" + why + ")"));
    };
    const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return bad("not a JSON object");
    if (doc.value("format", std::string()) != kFormat)
        return bad("format is not '" + std::string(kFormat) + "'");
    DistributedStatus status;
    try {
        status.state = doc.at("state").get<std::string>();
        status.size = doc.at("size").get<int>();
        status.launcher = doc.value("launcher", std::string());
        status.logdir = doc.at("logdir").get<std::string>();
        for (const nlohmann::json& r : doc.at("ranks"))
            status.ranks.push_back(
                {r.at("rank").get<int>(), r.at("host").get<std::string>(), r.at("pid").get<std::int64_t>()});
        if (doc.contains("first_step") && !doc.at("first_step").is_null())
            status.firstStep = doc.at("first_step").get<std::int64_t>();
        if (doc.contains("last_step") && !doc.at("last_step").is_null())
            status.lastStep = doc.at("last_step").get<std::int64_t>();
        status.message = doc.value("message", std::string());
    } catch (const nlohmann::json::exception& e) {
        return bad(e.what());
    }
    return status;
}

} // namespace tstudio::project
