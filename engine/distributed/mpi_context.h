// MpiContext: the process's place in an MPI job (init once, rank, size, finalize) and the
// collectives Horovod's ops run (allreduce, broadcast), negotiated and fused on a background thread.
#pragma once

#include "core/expected.h"
#include "core/status.h"
#include "framework/data_type.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tstudio::distributed {

/// Whether this build has MPI (Open MPI found at configure time). Without it every call below
/// answers Unavailable "this build has no MPI support (install openmpi-bin and libopenmpi-dev)".
bool mpiBuilt();

/// Settings of the background thread, Horovod's environment variables and defaults:
/// HOROVOD_FUSION_THRESHOLD (bytes, default 64 MiB; 0 turns fusion off) and HOROVOD_CYCLE_TIME
/// (milliseconds between negotiations while idle, default 5 as Horovod's) and
/// HOROVOD_STALL_SHUTDOWN_TIME_SECONDS (a request that the other ranks have not matched after
/// that long fails with DeadlineExceeded naming them; default 0: wait for ever, as Horovod).
struct CollectiveSettings {
    std::size_t fusionThresholdBytes = std::size_t{64} << 20;
    double cycleTimeMs = 5.0;
    double stallShutdownSeconds = 0.0;
    /// The settings from the environment, these defaults where a variable is unset or malformed.
    static CollectiveSettings fromEnvironment();
};

/// What the background thread has done (for tests and the benchmark).
struct CollectiveStats {
    std::int64_t tensorsReduced = 0;  ///< allreduce requests completed
    std::int64_t fusedBatches = 0;    ///< MPI_Allreduce calls made for them (one per bucket)
    std::int64_t broadcasts = 0;      ///< broadcast requests completed
    std::int64_t cycles = 0;          ///< negotiation rounds
};

/// The process-wide MPI state. Threads: every member may be called from any thread; allreduce and
/// broadcast block the caller until every rank has asked for the same tensor name.
///
/// Semantics as Horovod's: requests are matched across ranks by name (the graph node's name), not
/// by arrival order, so ranks may submit tensors in different orders. A background thread
/// negotiates, every cycle, which names every rank has submitted (an MPI_Allgather of the names),
/// then runs them in rank 0's order; consecutive allreduces of one dtype are fused into one buffer
/// of at most fusionThresholdBytes and reduced with one MPI_Allreduce (Horovod's tensor fusion).
/// A name submitted with a different dtype, element count, kind or root on two ranks fails on every
/// rank with an error naming both ranks. Once a rank shuts down, requests still pending elsewhere
/// fail ("rank R has shut down") instead of hanging.
class MpiContext {
public:
    /// The one instance of this process.
    static MpiContext& instance();

    /// MPI_Init_thread (MPI_THREAD_MULTIPLE) once per process, then the background thread. Called
    /// again: ok without effect. Errors name the rank when one is known: "MPI rank 1 of 2: ...".
    Status initialize(const CollectiveSettings& settings = CollectiveSettings::fromEnvironment());
    bool isInitialized() const;
    /// MPI_COMM_WORLD's rank and size; 0 and 1 before initialize().
    int rank() const;
    int size() const;

    /// Sums `count` elements of `dtype` at `data` over every rank, in place (float16, float32,
    /// float64, int32, int64). FailedPrecondition before initialize().
    Status allreduce(const std::string& name, DataType dtype, void* data, std::int64_t count);
    /// Copies `bytes` bytes at `data` on rank `root` into `data` on every rank.
    Status broadcast(const std::string& name, void* data, std::size_t bytes, int root);
    /// A plain MPI_Allreduce (float32 sum, in place) on a communicator of its own, outside the
    /// background thread: the benchmark's reference.
    Status plainAllreduceFloat(float* data, std::int64_t count);
    /// MPI_Barrier over every rank (on the reference communicator).
    Status barrier();

    CollectiveStats stats() const;

    /// A point-to-point message (the parameter servers' requests and replies).
    struct Message {
        int source = -1;
        int tag = 0;
        std::string bytes;
    };
    static constexpr int kAnySource = -1;
    /// Sends `bytes` to rank `destination` with `tag` (>= 0) on a communicator of its own (never
    /// mixed with the collectives'); returns once the buffer may be reused.
    Status send(int destination, int tag, const std::string& bytes);
    /// Waits for a message from `source` (kAnySource: any rank) with `tag` (-1: any) and returns it.
    /// The wait polls with short sleeps rather than spinning in MPI (a rank waiting for a parameter
    /// server shares the machine's cores with it). DeadlineExceeded after `timeoutSeconds` (> 0);
    /// 0 waits for ever.
    Expected<Message> receive(int source, int tag, double timeoutSeconds = 0);

    /// Stops the background thread as finalize() does (every rank calls it: it returns once all
    /// have), leaving MPI up for send, receive and barrier: a job that needs no more collectives (an
    /// asynchronous parameter-server run) then has no thread negotiating every cycle, whose waits in
    /// MPI_Allgather spin on cores the ranks share. Later allreduce and broadcast fail with
    /// FailedPrecondition. Before initialize(): FailedPrecondition.
    Status stopCollectives();

    /// Stops the background thread (after the other ranks, which keep negotiating until every rank
    /// has stopped) and calls MPI_Finalize. Called again or before initialize(): ok.
    Status finalize();

    /// "MPI rank R of N: " (or "MPI: " before initialize), the prefix of every error.
    std::string errorPrefix() const;

    MpiContext(const MpiContext&) = delete;
    MpiContext& operator=(const MpiContext&) = delete;
    ~MpiContext();

private:
    MpiContext();
    struct Impl;
    Impl* m_impl;
};

} // namespace tstudio::distributed
