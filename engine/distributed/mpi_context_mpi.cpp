// MpiContext on Open MPI: MPI_Init_thread, and the background thread that negotiates requests by
// name across ranks (MPI_Allgatherv of the pending names) and runs them fused (Horovod's semantics).
#include "distributed/mpi_context.h"

#include <Eigen/Core>
// The C API only: Open MPI's deprecated C++ bindings would need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace tstudio::distributed {

namespace {

enum class Kind { kAllreduce, kBroadcast };

Status abortedError(std::string message)
{
    return Status(StatusCode::kAborted, std::move(message));
}

struct Request {
    std::string name;
    Kind kind = Kind::kAllreduce;
    DataType dtype = tensorflow::DT_INVALID;
    std::int64_t count = 0;
    std::size_t bytes = 0;
    int root = 0;
    void* data = nullptr;
    std::promise<Status> done;
    std::chrono::steady_clock::time_point submitted = std::chrono::steady_clock::now();

    /// What every rank must agree on for one name.
    std::string signature() const
    {
        std::ostringstream out;
        out << (kind == Kind::kAllreduce ? "allreduce" : "broadcast") << ' ' << dataTypeName(dtype) << " x" << count;
        if (kind == Kind::kBroadcast)
            out << " root " << root;
        return out.str();
    }
};

std::string mpiErrorText(int code)
{
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    return std::string(text, static_cast<std::size_t>(std::max(length, 0)));
}

/// float16 has no MPI datatype: a 2-byte contiguous type summed by a user operation.
void halfSum(void* in, void* inout, int* length, MPI_Datatype*)
{
    const auto* a = static_cast<const Eigen::half*>(in);
    auto* b = static_cast<Eigen::half*>(inout);
    for (int i = 0; i < *length; ++i)
        b[i] = Eigen::half(static_cast<float>(a[i]) + static_cast<float>(b[i]));
}

} // namespace

bool mpiBuilt()
{
    return true;
}

CollectiveSettings CollectiveSettings::fromEnvironment()
{
    CollectiveSettings s;
    if (const char* v = std::getenv("HOROVOD_FUSION_THRESHOLD"); v && *v) {
        char* end = nullptr;
        const long long n = std::strtoll(v, &end, 10);
        if (end && *end == '\0' && n >= 0)
            s.fusionThresholdBytes = static_cast<std::size_t>(n);
    }
    if (const char* v = std::getenv("HOROVOD_STALL_SHUTDOWN_TIME_SECONDS"); v && *v) {
        char* end = nullptr;
        const double seconds = std::strtod(v, &end);
        if (end && *end == '\0' && seconds >= 0.0)
            s.stallShutdownSeconds = seconds;
    }
    if (const char* v = std::getenv("HOROVOD_CYCLE_TIME"); v && *v) {
        char* end = nullptr;
        const double ms = std::strtod(v, &end);
        if (end && *end == '\0' && ms >= 0.0)
            s.cycleTimeMs = ms;
    }
    return s;
}

/// The wait of a point-to-point message between two polls: it yields its core for the first 300
/// microseconds (a reply usually comes within a few hundred: a parameter server's update), then
/// sleeps, longer each time up to half a millisecond. Never MPI's blocking waits, which spin on a
/// core the other rank may need.
class PatientWait {
public:
    void pause()
    {
        if (std::chrono::steady_clock::now() - m_start < std::chrono::microseconds(300)) {
            std::this_thread::yield();
            return;
        }
        std::this_thread::sleep_for(m_sleep);
        m_sleep = std::min(m_sleep * 2, std::chrono::microseconds(500));
    }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }

private:
    const std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::chrono::microseconds m_sleep{25};
};

struct MpiContext::Impl {
    mutable std::mutex mutex;
    std::condition_variable wake;
    bool initialized = false;
    bool finalized = false;
    bool stopRequested = false;
    int rank = 0;
    int size = 1;
    CollectiveSettings settings;
    MPI_Comm negotiation = MPI_COMM_NULL; ///< the background thread's communicator
    MPI_Comm reference = MPI_COMM_NULL;   ///< plainAllreduceFloat and barrier
    MPI_Comm messages = MPI_COMM_NULL;    ///< send and receive
    MPI_Datatype halfType = MPI_DATATYPE_NULL;
    MPI_Op halfSumOp = MPI_OP_NULL;
    std::vector<std::unique_ptr<Request>> incoming; ///< submitted, not yet seen by the thread
    bool threadEnded = false; ///< the background thread has returned (every rank stopped, or MPI failed)
    Status endStatus;         ///< what later requests get once it has
    CollectiveStats stats;
    std::thread thread;
    std::vector<std::byte> fusionBuffer; ///< touched by the background thread only

    std::string prefix() const { return "MPI rank " + std::to_string(rank) + " of " + std::to_string(size) + ": "; }
    Status mpiError(const std::string& what, int code) const
    {
        return internalError(prefix() + what + " failed: " + mpiErrorText(code));
    }

    Status submit(std::unique_ptr<Request> request)
    {
        std::future<Status> result = request->done.get_future();
        {
            std::lock_guard lock(mutex);
            if (!initialized || finalized)
                return failedPreconditionError(
                    (initialized ? prefix() : std::string("MPI: ")) + "'" + request->name +
                    "' needs MPI initialised (run under mpirun and call MpiContext::initialize first)");
            if (stopRequested)
                return abortedError(prefix() + "'" + request->name + "' submitted while this rank shuts down");
            if (threadEnded)
                return endStatus;
            incoming.push_back(std::move(request));
        }
        wake.notify_all();
        return result.get();
    }

    MPI_Datatype mpiType(DataType dtype) const
    {
        switch (dtype) {
        case tensorflow::DT_FLOAT: return MPI_FLOAT;
        case tensorflow::DT_DOUBLE: return MPI_DOUBLE;
        case tensorflow::DT_INT32: return MPI_INT32_T;
        case tensorflow::DT_INT64: return MPI_INT64_T;
        case tensorflow::DT_HALF: return halfType;
        default: return MPI_DATATYPE_NULL;
        }
    }

    /// Runs one bucket of allreduces of one dtype: in place for a single tensor, else through the
    /// fusion buffer.
    void runBucket(std::vector<Request*>& bucket)
    {
        if (bucket.empty())
            return;
        const DataType dtype = bucket.front()->dtype;
        const MPI_Datatype type = mpiType(dtype);
        const MPI_Op op = dtype == tensorflow::DT_HALF ? halfSumOp : MPI_SUM;
        Status status = Status::ok();
        if (bucket.size() == 1) {
            Request* r = bucket.front();
            if (int rc = MPI_Allreduce(MPI_IN_PLACE, r->data, static_cast<int>(r->count), type, op, negotiation);
                rc != MPI_SUCCESS)
                status = mpiError("MPI_Allreduce of '" + r->name + "'", rc);
        } else {
            std::size_t total = 0;
            std::int64_t count = 0;
            for (Request* r : bucket) {
                total += r->bytes;
                count += r->count;
            }
            if (fusionBuffer.size() < total)
                fusionBuffer.resize(total);
            std::size_t at = 0;
            for (Request* r : bucket) {
                std::memcpy(fusionBuffer.data() + at, r->data, r->bytes);
                at += r->bytes;
            }
            if (int rc = MPI_Allreduce(MPI_IN_PLACE, fusionBuffer.data(), static_cast<int>(count), type, op, negotiation);
                rc != MPI_SUCCESS) {
                status = mpiError("fused MPI_Allreduce of " + std::to_string(bucket.size()) + " tensors ('" +
                                      bucket.front()->name + "', ...)",
                                  rc);
            } else {
                at = 0;
                for (Request* r : bucket) {
                    std::memcpy(r->data, fusionBuffer.data() + at, r->bytes);
                    at += r->bytes;
                }
            }
        }
        {
            std::lock_guard lock(mutex);
            stats.tensorsReduced += static_cast<std::int64_t>(bucket.size());
            stats.fusedBatches += 1;
        }
        for (Request* r : bucket)
            r->done.set_value(status);
        bucket.clear();
    }

    /// The background thread: every cycle, allgathers this rank's pending names (and whether it
    /// stops), runs what every rank has asked for, and ends once every rank stops.
    void loop()
    {
        std::map<std::string, std::unique_ptr<Request>> waiting; // by name
        std::vector<std::string> order;                          // arrival order of `waiting`
        const auto cycle = std::chrono::duration<double, std::milli>(settings.cycleTimeMs);
        for (;;) {
            bool stopping = false;
            {
                std::unique_lock lock(mutex);
                wake.wait_for(lock, cycle, [&] { return !incoming.empty() || stopRequested; });
                stopping = stopRequested;
                for (auto& r : incoming) {
                    if (waiting.count(r->name)) {
                        r->done.set_value(invalidArgumentError(prefix() + "'" + r->name +
                                                               "' is already waiting for the other ranks: "
                                                               "two requests of one name at once"));
                        continue;
                    }
                    order.push_back(r->name);
                    waiting.emplace(r->name, std::move(r));
                }
                incoming.clear();
                ++stats.cycles;
            }
            // This rank's message: "S\n" or "R\n" (stopping or running), then "name\tsignature\n" each.
            std::string message = stopping ? "S\n" : "R\n";
            for (const std::string& name : order)
                message += name + '\t' + waiting.at(name)->signature() + '\n';
            int length = static_cast<int>(message.size());
            std::vector<int> lengths(static_cast<std::size_t>(size));
            std::vector<int> offsets(static_cast<std::size_t>(size));
            std::string all;
            Status failure = Status::ok();
            if (int rc = MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, negotiation); rc != MPI_SUCCESS)
                failure = mpiError("MPI_Allgather (negotiation)", rc);
            if (failure.isOk()) {
                int total = 0;
                for (int i = 0; i < size; ++i) {
                    offsets[static_cast<std::size_t>(i)] = total;
                    total += lengths[static_cast<std::size_t>(i)];
                }
                all.resize(static_cast<std::size_t>(total));
                if (int rc = MPI_Allgatherv(message.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                            offsets.data(), MPI_CHAR, negotiation);
                    rc != MPI_SUCCESS)
                    failure = mpiError("MPI_Allgatherv (negotiation)", rc);
            }
            if (!failure.isOk()) {
                for (auto& [name, r] : waiting)
                    r->done.set_value(failure);
                waiting.clear();
                order.clear();
                failAllIncoming(failure);
                return;
            }
            // Parse every rank's list.
            std::vector<std::map<std::string, std::string>> perRank(static_cast<std::size_t>(size));
            std::vector<std::string> rootOrder;
            int stoppedRanks = 0;
            int firstStopped = -1;
            for (int i = 0; i < size; ++i) {
                std::istringstream in(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]),
                                                 static_cast<std::size_t>(lengths[static_cast<std::size_t>(i)])));
                std::string line;
                std::getline(in, line);
                if (line == "S") {
                    ++stoppedRanks;
                    if (firstStopped < 0)
                        firstStopped = i;
                }
                while (std::getline(in, line)) {
                    const std::size_t tab = line.find('\t');
                    if (tab == std::string::npos)
                        continue;
                    std::string name = line.substr(0, tab);
                    if (i == 0)
                        rootOrder.push_back(name);
                    perRank[static_cast<std::size_t>(i)].emplace(std::move(name), line.substr(tab + 1));
                }
            }
            // What every rank has asked for, in rank 0's order; mismatches fail everywhere.
            std::vector<std::unique_ptr<Request>> owned; // this cycle's matched requests
            std::vector<Request*> bucket;
            std::size_t bucketBytes = 0;
            for (const std::string& name : rootOrder) {
                bool everywhere = true;
                for (const auto& ranks : perRank)
                    everywhere = everywhere && ranks.count(name) != 0;
                if (!everywhere)
                    continue;
                std::unique_ptr<Request> r = std::move(waiting.at(name));
                waiting.erase(name);
                order.erase(std::find(order.begin(), order.end(), name));
                const std::string& mine = perRank[static_cast<std::size_t>(rank)].at(name);
                int other = -1;
                for (int i = 0; i < size && other < 0; ++i)
                    if (perRank[static_cast<std::size_t>(i)].at(name) != perRank[0].at(name))
                        other = i;
                if (other >= 0) {
                    runBucket(bucket);
                    bucketBytes = 0;
                    r->done.set_value(invalidArgumentError(
                        prefix() + "ranks disagree on '" + name + "': rank 0 asks for " + perRank[0].at(name) +
                        ", rank " + std::to_string(other) + " for " + perRank[static_cast<std::size_t>(other)].at(name) +
                        " (this rank: " + mine + ")"));
                    continue;
                }
                if (r->kind == Kind::kBroadcast) {
                    runBucket(bucket);
                    bucketBytes = 0;
                    Status status = Status::ok();
                    if (int rc = MPI_Bcast(r->data, static_cast<int>(r->bytes), MPI_BYTE, r->root, negotiation);
                        rc != MPI_SUCCESS)
                        status = mpiError("MPI_Bcast of '" + name + "'", rc);
                    {
                        std::lock_guard lock(mutex);
                        ++stats.broadcasts;
                    }
                    r->done.set_value(status);
                    continue;
                }
                const bool fits = !bucket.empty() && bucket.front()->dtype == r->dtype &&
                                  bucketBytes + r->bytes <= settings.fusionThresholdBytes;
                if (!bucket.empty() && !fits) {
                    runBucket(bucket);
                    bucketBytes = 0;
                }
                bucketBytes += r->bytes;
                bucket.push_back(r.get());
                owned.push_back(std::move(r));
            }
            runBucket(bucket);
            if (settings.stallShutdownSeconds > 0.0) {
                // Requests the other ranks have not matched for too long fail here (the ranks that
                // lack them are named); ranks that submit the name later time out the same way.
                const auto now = std::chrono::steady_clock::now();
                for (auto it = waiting.begin(); it != waiting.end();) {
                    const double waited = std::chrono::duration<double>(now - it->second->submitted).count();
                    if (waited < settings.stallShutdownSeconds) {
                        ++it;
                        continue;
                    }
                    std::string missing;
                    for (int i = 0; i < size; ++i)
                        if (!perRank[static_cast<std::size_t>(i)].count(it->first))
                            missing += (missing.empty() ? "" : ", ") + std::to_string(i);
                    it->second->done.set_value(Status(
                        StatusCode::kDeadlineExceeded,
                        prefix() + "'" + it->first + "' waited " + std::to_string(static_cast<int>(waited)) +
                            " s for rank(s) " + missing +
                            " that never asked for it (HOROVOD_STALL_SHUTDOWN_TIME_SECONDS); the ranks run "
                            "different graphs or one of them failed"));
                    order.erase(std::find(order.begin(), order.end(), it->first));
                    it = waiting.erase(it);
                }
            }
            if (stoppedRanks > 0) {
                // A request still pending can no longer be matched by the rank that stopped.
                const Status gone = abortedError(prefix() + "rank " + std::to_string(firstStopped) +
                                                 " has shut down while this rank waits for the other ranks");
                for (auto& [name, r] : waiting)
                    r->done.set_value(gone);
                waiting.clear();
                order.clear();
            }
            if (stoppedRanks == size) {
                failAllIncoming(abortedError(prefix() + "every rank has shut down"));
                return;
            }
        }
    }

    /// The background thread ends: what is queued, and every later request, gets `status`.
    void failAllIncoming(const Status& status)
    {
        std::lock_guard lock(mutex);
        threadEnded = true;
        endStatus = status;
        for (auto& r : incoming)
            r->done.set_value(status);
        incoming.clear();
    }
};

MpiContext::MpiContext() : m_impl(new Impl) {}

MpiContext::~MpiContext()
{
    // The process ends: stop the thread (MPI is left alone; finalize() is the explicit way out).
    if (m_impl->thread.joinable()) {
        {
            std::lock_guard lock(m_impl->mutex);
            m_impl->stopRequested = true;
        }
        m_impl->wake.notify_all();
        m_impl->thread.detach();
    }
}

MpiContext& MpiContext::instance()
{
    static MpiContext* context = new MpiContext; // never destroyed: MPI outlives every static
    return *context;
}

Status MpiContext::initialize(const CollectiveSettings& settings)
{
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->initialized) {
        if (m_impl->finalized)
            return failedPreconditionError(m_impl->prefix() + "MPI was finalised; it cannot be initialised again");
        return Status::ok();
    }
    int already = 0;
    MPI_Initialized(&already);
    int provided = 0;
    if (!already) {
        if (int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided); rc != MPI_SUCCESS)
            return unavailableError("MPI: MPI_Init_thread failed: " + mpiErrorText(rc));
    } else {
        MPI_Query_thread(&provided);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &m_impl->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_impl->size);
    if (provided < MPI_THREAD_MULTIPLE) {
        const std::string prefix = m_impl->prefix();
        if (!already)
            MPI_Finalize(); // this process does not take part: leave the job cleanly
        return unavailableError(prefix + "the MPI library gives thread level " + std::to_string(provided) +
                                ", the background thread needs MPI_THREAD_MULTIPLE (" +
                                std::to_string(MPI_THREAD_MULTIPLE) + ")");
    }
    if (int rc = MPI_Comm_dup(MPI_COMM_WORLD, &m_impl->negotiation); rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Comm_dup", rc);
    if (int rc = MPI_Comm_dup(MPI_COMM_WORLD, &m_impl->reference); rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Comm_dup", rc);
    if (int rc = MPI_Comm_dup(MPI_COMM_WORLD, &m_impl->messages); rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Comm_dup", rc);
    MPI_Comm_set_errhandler(m_impl->negotiation, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(m_impl->reference, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(m_impl->messages, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_BYTE, &m_impl->halfType);
    MPI_Type_commit(&m_impl->halfType);
    MPI_Op_create(&halfSum, 1, &m_impl->halfSumOp);
    m_impl->settings = settings;
    m_impl->initialized = true;
    m_impl->thread = std::thread([impl = m_impl] { impl->loop(); });
    return Status::ok();
}

bool MpiContext::isInitialized() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->initialized && !m_impl->finalized;
}

int MpiContext::rank() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->rank;
}

int MpiContext::size() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->size;
}

std::string MpiContext::errorPrefix() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->initialized ? m_impl->prefix() : std::string("MPI: ");
}

Status MpiContext::allreduce(const std::string& name, DataType dtype, void* data, std::int64_t count)
{
    if (m_impl->mpiType(dtype) == MPI_DATATYPE_NULL && dtype != tensorflow::DT_HALF)
        return invalidArgumentError(errorPrefix() + "allreduce of '" + name + "': dtype " + dataTypeName(dtype) +
                                    " is not supported (float16, float32, float64, int32, int64)");
    if (count > std::numeric_limits<int>::max())
        return invalidArgumentError(errorPrefix() + "allreduce of '" + name + "': " + std::to_string(count) +
                                    " elements exceed MPI's int count");
    auto r = std::make_unique<Request>();
    r->name = name;
    r->kind = Kind::kAllreduce;
    r->dtype = dtype;
    r->count = count;
    r->bytes = static_cast<std::size_t>(count) * dataTypeSize(dtype);
    r->data = data;
    return m_impl->submit(std::move(r));
}

Status MpiContext::broadcast(const std::string& name, void* data, std::size_t bytes, int root)
{
    const int n = size();
    if (root < 0 || root >= n)
        return invalidArgumentError(errorPrefix() + "broadcast of '" + name + "': root_rank " + std::to_string(root) +
                                    " is outside [0, " + std::to_string(n) + ")");
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return invalidArgumentError(errorPrefix() + "broadcast of '" + name + "': " + std::to_string(bytes) +
                                    " bytes exceed MPI's int count");
    auto r = std::make_unique<Request>();
    r->name = name;
    r->kind = Kind::kBroadcast;
    r->dtype = tensorflow::DT_UINT8;
    r->count = static_cast<std::int64_t>(bytes);
    r->bytes = bytes;
    r->root = root;
    r->data = data;
    return m_impl->submit(std::move(r));
}

Status MpiContext::plainAllreduceFloat(float* data, std::int64_t count)
{
    if (!isInitialized())
        return failedPreconditionError("MPI: plainAllreduceFloat needs MPI initialised");
    if (int rc = MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(count), MPI_FLOAT, MPI_SUM, m_impl->reference);
        rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Allreduce", rc);
    return Status::ok();
}

Status MpiContext::barrier()
{
    if (!isInitialized())
        return failedPreconditionError("MPI: barrier needs MPI initialised");
    if (int rc = MPI_Barrier(m_impl->reference); rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Barrier", rc);
    return Status::ok();
}

CollectiveStats MpiContext::stats() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->stats;
}

Status MpiContext::send(int destination, int tag, const std::string& bytes)
{
    if (!isInitialized())
        return failedPreconditionError("MPI: send needs MPI initialised");
    if (destination < 0 || destination >= size() || tag < 0)
        return invalidArgumentError(errorPrefix() + "send to rank " + std::to_string(destination) + " with tag " +
                                    std::to_string(tag) + ": no such rank or a negative tag");
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return invalidArgumentError(errorPrefix() + "a message of " + std::to_string(bytes.size()) +
                                    " bytes exceeds MPI's int count");
    // Not MPI_Send: a message past the eager limit waits for its receiver, and MPI's blocking wait
    // spins on a core the receiver may need.
    MPI_Request request = MPI_REQUEST_NULL;
    if (int rc = MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag,
                           m_impl->messages, &request);
        rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Isend to rank " + std::to_string(destination), rc);
    for (PatientWait wait;; wait.pause()) {
        int done = 0;
        if (int rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE); rc != MPI_SUCCESS)
            return m_impl->mpiError("MPI_Test of a message to rank " + std::to_string(destination), rc);
        if (done)
            return Status::ok();
    }
}

Expected<MpiContext::Message> MpiContext::receive(int source, int tag, double timeoutSeconds)
{
    if (!isInitialized())
        return unexpected(failedPreconditionError("MPI: receive needs MPI initialised"));
    for (PatientWait wait;; wait.pause()) {
        int found = 0;
        MPI_Message handle = MPI_MESSAGE_NULL;
        MPI_Status status;
        if (int rc = MPI_Improbe(source == kAnySource ? MPI_ANY_SOURCE : source, tag < 0 ? MPI_ANY_TAG : tag,
                                 m_impl->messages, &found, &handle, &status);
            rc != MPI_SUCCESS)
            return unexpected(m_impl->mpiError("MPI_Improbe", rc));
        if (found) {
            int count = 0;
            MPI_Get_count(&status, MPI_BYTE, &count);
            Message m;
            m.source = status.MPI_SOURCE;
            m.tag = status.MPI_TAG;
            m.bytes.resize(static_cast<std::size_t>(count));
            if (int rc = MPI_Mrecv(m.bytes.data(), count, MPI_BYTE, &handle, MPI_STATUS_IGNORE); rc != MPI_SUCCESS)
                return unexpected(m_impl->mpiError("MPI_Mrecv", rc));
            return m;
        }
        if (timeoutSeconds > 0 && wait.seconds() > timeoutSeconds)
            return unexpected(Status(StatusCode::kDeadlineExceeded,
                                     errorPrefix() + "no message from " +
                                         (source == kAnySource ? std::string("any rank")
                                                               : "rank " + std::to_string(source)) +
                                         " within " + std::to_string(static_cast<int>(timeoutSeconds)) + " s"));
    }
}

Status MpiContext::stopCollectives()
{
    {
        std::lock_guard lock(m_impl->mutex);
        if (!m_impl->initialized || m_impl->finalized)
            return failedPreconditionError("MPI: stopCollectives needs MPI initialised");
        m_impl->stopRequested = true;
    }
    m_impl->wake.notify_all();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
    std::lock_guard lock(m_impl->mutex);
    m_impl->stopRequested = false;
    m_impl->threadEnded = true;
    m_impl->endStatus = failedPreconditionError(
        m_impl->prefix() + "the collectives of this job were stopped (it exchanges point-to-point messages only)");
    return Status::ok();
}

Status MpiContext::finalize()
{
    {
        std::lock_guard lock(m_impl->mutex);
        if (!m_impl->initialized || m_impl->finalized)
            return Status::ok();
        m_impl->stopRequested = true;
    }
    m_impl->wake.notify_all();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
    std::lock_guard lock(m_impl->mutex);
    m_impl->finalized = true;
    MPI_Op_free(&m_impl->halfSumOp);
    MPI_Type_free(&m_impl->halfType);
    MPI_Comm_free(&m_impl->negotiation);
    MPI_Comm_free(&m_impl->reference);
    MPI_Comm_free(&m_impl->messages);
    if (int rc = MPI_Finalize(); rc != MPI_SUCCESS)
        return m_impl->mpiError("MPI_Finalize", rc);
    return Status::ok();
}

} // namespace tstudio::distributed
