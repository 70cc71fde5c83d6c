// The status file of a distributed run (<logdir>/distributed.json): the job's ranks, hosts and
// pids and its state, written by rank 0 for the IDE and scripts that watch the run.
#pragma once

#include "core/expected.h"
#include "project/distributed/distributed_world.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

/// "distributed.json", in the run's log directory.
inline constexpr const char* kDistributedStatusFileName = "distributed.json";

/// What the file holds. JSON, one object:
///   {"format": "tstudio-distributed", "version": 1, "state": "running", "size": 2,
///    "launcher": "mpirun", "logdir": "/abs/logs",
///    "ranks": [{"rank": 0, "host": "node1", "pid": 4241, "events": "/abs/logs"},
///              {"rank": 1, "host": "node1", "pid": 4242, "events": "/abs/logs/worker_1"}],
///    "first_step": 0, "last_step": 200, "message": ""}
/// first_step and last_step are null until known.
struct DistributedStatus {
    /// "running" (written once every rank has joined, before training), "finished" (rank 0's run
    /// ended without an error) or "failed" (rank 0's run failed: `message` says why). A job killed
    /// from outside (a rank lost, mpirun interrupted) leaves "running": its processes are gone.
    std::string state = "running";
    int size = 1;
    std::string launcher;
    std::filesystem::path logdir;
    std::vector<RankPlace> ranks;
    std::optional<std::int64_t> firstStep;
    std::optional<std::int64_t> lastStep;
    std::string message;
};

/// The status of `world` running in `logdir` (state "running").
DistributedStatus makeDistributedStatus(const DistributedWorld& world, const std::filesystem::path& logdir);

/// Writes <logdir>/distributed.json atomically (temporary file, then rename), creating `logdir`
/// when missing. Errors name the file ("writing 'logs/distributed.json': ...").
Status writeDistributedStatus(const DistributedStatus& status);

/// Reads a status file. NotFound when missing; InvalidArgument "'<file>': not a distributed status
/// file (...)" when the JSON is damaged or of another format.
Expected<DistributedStatus> readDistributedStatus(const std::filesystem::path& file);

} // namespace tstudio::project
