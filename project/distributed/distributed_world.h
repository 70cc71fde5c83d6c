// DistributedWorld: this process's place in an MPI job (rank, size, launcher) and where every rank
// runs (host and pid), exchanged once at the start of `tstudio train --distributed`.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::project {

/// Where one rank runs.
struct RankPlace {
    int rank = 0;
    std::string host;     ///< gethostname()
    std::int64_t pid = 0; ///< the rank's process id on that host
};

struct DistributedWorld {
    int rank = 0;
    int size = 1;
    /// What started the process: "mpirun" (Open MPI's OMPI_COMM_WORLD_SIZE is set), "srun"
    /// (SLURM_PROCID or PMIX_RANK under Slurm), or "" (neither: a world of one).
    std::string launcher;
    std::vector<RankPlace> ranks; ///< every rank, by rank (ranks[rank] is this process)
};

/// "mpirun", "srun" or "" from the environment, as DistributedWorld::launcher.
std::string detectLauncher();

/// Reads the launcher (detectLauncher, before MPI_Init, which may set Open MPI's variables itself),
/// initialises MPI (distributed::MpiContext::initialize: MPI_Init_thread and the collective
/// thread) and gives every rank the host and pid of every other (one HorovodBroadcast-style
/// broadcast per rank, names "tstudio.world.<rank>"), so each rank can log the mapping. Every rank
/// of the job must call it, once, before training. Errors: Unavailable "this build has no MPI
/// support (install openmpi-bin and libopenmpi-dev)"; MpiContext's ("MPI rank 1 of 2: ...").
Expected<DistributedWorld> joinDistributedWorld();

/// "rank 1 of 2 on node1 (pid 4242)".
std::string describeRank(const DistributedWorld& world);

/// "ranks: 0 on node1 (pid 4241), 1 on node1 (pid 4242)"; for a world of one without a launcher
/// "a world of one (not started by mpirun or srun)".
std::string describeMapping(const DistributedWorld& world);

} // namespace tstudio::project
