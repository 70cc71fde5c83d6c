// GpuActivityRecorder on CUPTI's activity API. libcupti is opened at run time (dlopen), so the
// programs start on machines without it and the recorder says why it is unavailable.
#include "devices/cuda/cuda_gpu_api.h"
#include "devices/gpu_activity.h"

#include <cupti_activity.h> // types only: the functions come from dlsym

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

/// The CUPTI functions the recorder calls.
struct CuptiApi {
    CUptiResult (*registerCallbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = nullptr;
    CUptiResult (*enable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*disable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*flushAll)(uint32_t) = nullptr;
    CUptiResult (*getNextRecord)(uint8_t*, size_t, CUpti_Activity**) = nullptr;
    CUptiResult (*getTimestamp)(uint64_t*) = nullptr;
    CUptiResult (*getNumDroppedRecords)(CUcontext, uint32_t, size_t*) = nullptr;
    CUptiResult (*getResultString)(CUptiResult, const char**) = nullptr;
    CUptiResult (*pushExternalId)(CUpti_ExternalCorrelationKind, uint64_t) = nullptr;
    CUptiResult (*popExternalId)(CUpti_ExternalCorrelationKind, uint64_t*) = nullptr;
};

template <typename F>
bool loadSymbol(void* library, const char* name, F& function)
{
    function = reinterpret_cast<F>(dlsym(library, name));
    return function != nullptr;
}

/// CUPTI, loaded once for the process (never unloaded: its callbacks may still be called).
const Expected<CuptiApi>& cupti()
{
    static const Expected<CuptiApi> api = []() -> Expected<CuptiApi> {
        void* library = nullptr;
        std::string tried;
        for (const char* name : {"libcupti.so.13", "libcupti.so"}) {
            library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (library)
                break;
            const char* why = dlerror();
            tried += std::string(tried.empty() ? "" : "; ") + (why ? why : name);
        }
        if (!library)
            return unexpected(Status(StatusCode::kUnavailable,
                                     "CUPTI (libcupti, CUDA's profiling library) cannot be loaded: " + tried));
        CuptiApi loaded;
        const bool ok = loadSymbol(library, "cuptiActivityRegisterCallbacks", loaded.registerCallbacks) &&
                        loadSymbol(library, "cuptiActivityEnable", loaded.enable) &&
                        loadSymbol(library, "cuptiActivityDisable", loaded.disable) &&
                        loadSymbol(library, "cuptiActivityFlushAll", loaded.flushAll) &&
                        loadSymbol(library, "cuptiActivityGetNextRecord", loaded.getNextRecord) &&
                        loadSymbol(library, "cuptiGetTimestamp", loaded.getTimestamp) &&
                        loadSymbol(library, "cuptiActivityGetNumDroppedRecords", loaded.getNumDroppedRecords) &&
                        loadSymbol(library, "cuptiGetResultString", loaded.getResultString) &&
                        loadSymbol(library, "cuptiActivityPushExternalCorrelationId", loaded.pushExternalId) &&
                        loadSymbol(library, "cuptiActivityPopExternalCorrelationId", loaded.popExternalId);
        if (!ok)
            return unexpected(Status(StatusCode::kUnavailable, "the CUPTI library found lacks a function the recorder "
                                                               "needs (an older CUDA than 13?)"));
        return loaded;
    }();
    return api;
}

Status cuptiStatus(CUptiResult result, const char* call)
{
    if (result == CUPTI_SUCCESS)
        return Status::ok();
    const char* text = nullptr;
    if (cupti() && cupti()->getResultString)
        cupti()->getResultString(result, &text);
    return Status(StatusCode::kInternal, std::string(call) + " failed: " + (text ? text : "unknown CUPTI error") +
                                             " (" + std::to_string(static_cast<int>(result)) + ")");
}

/// The kind of external correlation GpuActivityTag pushes.
constexpr CUpti_ExternalCorrelationKind kTagKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

/// A kernel's name as written in C++ (CUPTI gives the mangled symbol).
std::string demangled(const char* name)
{
    if (!name)
        return "(unnamed kernel)";
    int status = 0;
    char* readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && readable ? readable : name;
    std::free(readable);
    return out;
}

const char* copyName(std::uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "MemcpyHtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "MemcpyDtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "MemcpyDtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "MemcpyHtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "MemcpyPtoP";
    default: return "Memcpy";
    }
}

/// The fields a kept kernel, copy or memset record shares, from CUPTI's record of it.
template <typename Record>
GpuActivityRecord keptRecord(GpuActivityRecord::Kind kind, std::string name, const Record& record)
{
    GpuActivityRecord kept;
    kept.kind = kind;
    kept.name = std::move(name);
    kept.device = record.deviceId;
    kept.stream = record.streamId;
    kept.startNs = record.start;
    kept.endNs = record.end;
    return kept;
}

/// What the buffer callbacks collect (they run on CUPTI's threads).
struct Collected {
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals; ///< [start, end) in ns, CUPTI's clock
    double kernelNanoseconds = 0;
    std::int64_t kernels = 0;
    std::int64_t copies = 0;
    std::int64_t memsets = 0;
    std::int64_t dropped = 0;
    bool keepRecords = false;
    std::vector<GpuActivityRecord> records;
    /// records[i].tag is filled from this at stop(): CUPTI delivers the correlation records in
    /// API-call order, not always before the kernels they name. Key: the driver's correlation id.
    std::vector<std::uint32_t> correlationOfRecord;
    std::unordered_map<std::uint32_t, std::uint64_t> tagOfCorrelation;

    void reset(bool keep)
    {
        intervals.clear();
        kernelNanoseconds = 0;
        kernels = copies = memsets = dropped = 0;
        keepRecords = keep;
        records.clear();
        correlationOfRecord.clear();
        tagOfCorrelation.clear();
    }
    void keep(GpuActivityRecord record, std::uint32_t correlationId)
    {
        if (!keepRecords)
            return;
        records.push_back(std::move(record));
        correlationOfRecord.push_back(correlationId);
    }
};

Collected& collected()
{
    static Collected* state = new Collected(); // outlives every callback
    return *state;
}

std::atomic<bool> g_recording{false};
/// Whether the running recorder keeps records: GpuActivityTag pushes only then.
std::atomic<bool> g_tagging{false};
constexpr std::size_t kBufferBytes = std::size_t(4) << 20;
constexpr std::size_t kRecordAlignment = 8;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords)
{
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0; // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize)
{
    const CuptiApi& api = *cupti();
    Collected& out = collected();
    std::lock_guard lock(out.mutex);
    CUpti_Activity* record = nullptr;
    while (validSize > 0 && api.getNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            out.intervals.emplace_back(kernel->start, kernel->end);
            out.kernelNanoseconds += static_cast<double>(kernel->end - kernel->start);
            ++out.kernels;
            if (out.keepRecords) {
                GpuActivityRecord kept = keptRecord(GpuActivityRecord::Kind::kKernel, demangled(kernel->name), *kernel);
                kept.grid = {kernel->gridX, kernel->gridY, kernel->gridZ};
                kept.block = {kernel->blockX, kernel->blockY, kernel->blockZ};
                out.keep(std::move(kept), kernel->correlationId);
            }
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            out.intervals.emplace_back(copy->start, copy->end);
            ++out.copies;
            if (out.keepRecords) {
                GpuActivityRecord kept = keptRecord(GpuActivityRecord::Kind::kCopy, copyName(copy->copyKind), *copy);
                kept.bytes = copy->bytes;
                out.keep(std::move(kept), copy->correlationId);
            }
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto* memset = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
            out.intervals.emplace_back(memset->start, memset->end);
            ++out.memsets;
            if (out.keepRecords) {
                GpuActivityRecord kept = keptRecord(GpuActivityRecord::Kind::kMemset, "Memset", *memset);
                kept.bytes = memset->bytes;
                out.keep(std::move(kept), memset->correlationId);
            }
            break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const auto* link = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
            if (out.keepRecords && link->externalKind == kTagKind)
                out.tagOfCorrelation[link->correlationId] = link->externalId;
            break;
        }
        default: break;
        }
    }
    std::size_t dropped = 0;
    if (api.getNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
        out.dropped += static_cast<std::int64_t>(dropped);
    std::free(buffer);
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET};
/// Also enabled to keep records: the correlation records that carry GpuActivityTag's ids come with
/// the runtime's and the driver's API records (which the callback skips).
constexpr CUpti_ActivityKind kTaggingKinds[] = {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                                                CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

void disableAll(const CuptiApi& api)
{
    for (CUpti_ActivityKind kind : kKinds)
        api.disable(kind);
    for (CUpti_ActivityKind kind : kTaggingKinds)
        api.disable(kind);
}

class CuptiActivityRecorder final : public GpuActivityRecorder {
public:
    CuptiActivityRecorder(std::uint64_t start, std::chrono::steady_clock::time_point steadyStart)
        : m_start(start), m_steadyStart(steadyStart)
    {
    }
    ~CuptiActivityRecorder() override
    {
        if (!m_stopped)
            (void)stop();
    }

    Expected<GpuActivity> stop() override
    {
        if (m_stopped)
            return unexpected(failedPreconditionError("the GPU activity recorder was stopped already"));
        m_stopped = true;
        const CuptiApi& api = *cupti();
        Status status = cuptiStatus(api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
        std::uint64_t end = 0;
        if (status.isOk())
            status = cuptiStatus(api.getTimestamp(&end), "cuptiGetTimestamp");
        g_tagging.store(false);
        disableAll(api);
        g_recording.store(false);
        if (!status.isOk())
            return unexpected(status);

        Collected& in = collected();
        std::lock_guard lock(in.mutex);
        GpuActivity activity;
        activity.seconds = static_cast<double>(end - m_start) * 1e-9;
        activity.kernelSeconds = in.kernelNanoseconds * 1e-9;
        activity.kernels = in.kernels;
        activity.copies = in.copies;
        activity.memsets = in.memsets;
        activity.droppedRecords = in.dropped;
        activity.cuptiAtStart = m_start;
        activity.steadyAtStart = m_steadyStart;
        if (in.keepRecords) {
            for (std::size_t i = 0; i < in.records.size(); ++i) {
                const auto tag = in.tagOfCorrelation.find(in.correlationOfRecord[i]);
                if (tag != in.tagOfCorrelation.end())
                    in.records[i].tag = tag->second;
            }
            activity.records = std::move(in.records);
            in.reset(false);
        }
        // The union of the intervals within [start, end]: time in which the GPU did something.
        std::sort(in.intervals.begin(), in.intervals.end());
        std::uint64_t busy = 0;
        std::uint64_t coveredUntil = m_start;
        for (auto [from, to] : in.intervals) {
            from = std::max(from, coveredUntil);
            to = std::min(to, end);
            if (to > from) {
                busy += to - from;
                coveredUntil = to;
            }
        }
        activity.busySeconds = static_cast<double>(busy) * 1e-9;
        return activity;
    }

private:
    std::uint64_t m_start;
    std::chrono::steady_clock::time_point m_steadyStart;
    bool m_stopped = false;
};

} // namespace

namespace cuda {

bool pushGpuActivityTag(std::uint64_t tag)
{
    if (!g_tagging.load(std::memory_order_relaxed))
        return false;
    return cupti()->pushExternalId(kTagKind, tag) == CUPTI_SUCCESS;
}

void popGpuActivityTag()
{
    cupti()->popExternalId(kTagKind, nullptr);
}

Expected<std::unique_ptr<GpuActivityRecorder>> startGpuActivity(GpuActivityOptions options)
{
    const Expected<CuptiApi>& api = cupti();
    if (!api)
        return unexpected(api.error());
    if (g_recording.exchange(true))
        return unexpected(failedPreconditionError("another GPU activity recorder is running"));
    static const Status registered =
        cuptiStatus(api->registerCallbacks(bufferRequested, bufferCompleted), "cuptiActivityRegisterCallbacks");
    if (!registered.isOk()) {
        g_recording.store(false);
        return unexpected(registered);
    }
    {
        Collected& state = collected();
        std::lock_guard lock(state.mutex);
        state.reset(options.keepRecords);
    }
    Status status = Status::ok();
    for (CUpti_ActivityKind kind : kKinds)
        if (status.isOk())
            status = cuptiStatus(api->enable(kind), "cuptiActivityEnable");
    if (options.keepRecords)
        for (CUpti_ActivityKind kind : kTaggingKinds)
            if (status.isOk())
                status = cuptiStatus(api->enable(kind), "cuptiActivityEnable");
    // The two clocks read together: records convert to the steady clock that node records use.
    std::uint64_t start = 0;
    if (status.isOk())
        status = cuptiStatus(api->getTimestamp(&start), "cuptiGetTimestamp");
    const auto steadyStart = std::chrono::steady_clock::now();
    if (!status.isOk()) {
        disableAll(*api);
        g_recording.store(false);
        return unexpected(status);
    }
    g_tagging.store(options.keepRecords);
    return std::unique_ptr<GpuActivityRecorder>(std::make_unique<CuptiActivityRecorder>(start, steadyStart));
}

} // namespace cuda
} // namespace tstudio
