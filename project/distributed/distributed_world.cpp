// joinDistributedWorld: MPI initialised and every rank's host and pid shared with every other.
#include "project/distributed/distributed_world.h"

#include "distributed/mpi_context.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace tstudio::project {
namespace {

/// One rank's record on the wire: the pid, then the host name, NUL-padded.
constexpr std::size_t kRecordBytes = 264;
constexpr std::size_t kHostBytes = kRecordBytes - sizeof(std::int64_t);

bool hasEnv(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v;
}

std::string hostName()
{
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0)
        return "unknown-host";
    return name.data();
}

} // namespace

std::string detectLauncher()
{
    if (hasEnv("OMPI_COMM_WORLD_SIZE"))
        return "mpirun";
    if (hasEnv("SLURM_PROCID") || hasEnv("PMIX_RANK") || hasEnv("PMI_RANK"))
        return "srun";
    return "";
}

Expected<DistributedWorld> joinDistributedWorld()
{
    // Before MPI_Init: Open MPI's singleton start sets OMPI_COMM_WORLD_SIZE itself.
    const std::string launcher = detectLauncher();
    distributed::MpiContext& mpi = distributed::MpiContext::instance();
    if (Status s = mpi.initialize(); !s.isOk())
        return unexpected(s);
    DistributedWorld world;
    world.rank = mpi.rank();
    world.size = mpi.size();
    world.launcher = launcher;
    const std::string host = hostName();
    const std::int64_t pid = static_cast<std::int64_t>(getpid());
    for (int root = 0; root < world.size; ++root) {
        std::array<char, kRecordBytes> record{};
        if (root == world.rank) {
            std::memcpy(record.data(), &pid, sizeof pid);
            std::memcpy(record.data() + sizeof pid, host.data(), std::min(host.size(), kHostBytes - 1));
        }
        if (Status s = mpi.broadcast("tstudio.world." + std::to_string(root), record.data(), record.size(), root);
            !s.isOk())
            return unexpected(s.withContext("exchanging the ranks' hosts"));
        RankPlace place;
        place.rank = root;
        std::memcpy(&place.pid, record.data(), sizeof place.pid);
        place.host.assign(record.data() + sizeof(std::int64_t),
                          strnlen(record.data() + sizeof(std::int64_t), kHostBytes));
        world.ranks.push_back(std::move(place));
    }
    return world;
}

std::string describeRank(const DistributedWorld& world)
{
    const RankPlace* me = world.rank < static_cast<int>(world.ranks.size()) ? &world.ranks[world.rank] : nullptr;
    return "rank " + std::to_string(world.rank) + " of " + std::to_string(world.size) +
           (me ? " on " + me->host + " (pid " + std::to_string(me->pid) + ")" : std::string());
}

std::string describeMapping(const DistributedWorld& world)
{
    if (world.size == 1 && world.launcher.empty())
        return "a world of one (not started by mpirun or srun)";
    std::string text = "ranks: ";
    for (const RankPlace& r : world.ranks)
        text +=
            (r.rank ? ", " : "") + std::to_string(r.rank) + " on " + r.host + " (pid " + std::to_string(r.pid) + ")";
    return text;
}

} // namespace tstudio::project
