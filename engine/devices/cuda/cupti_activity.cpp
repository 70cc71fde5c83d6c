// GpuActivityRecorder on CUPTI's activity API. libcupti is opened at run time (dlopen), so the
// programs start on machines without it and the recorder says why it is unavailable.
#include "devices/gpu_activity.h"

#include <cupti_activity.h> // types only: the functions come from dlsym

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
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
                        loadSymbol(library, "cuptiGetResultString", loaded.getResultString);
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

/// What the buffer callbacks collect (they run on CUPTI's threads).
struct Collected {
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals; ///< [start, end) in ns, CUPTI's clock
    double kernelNanoseconds = 0;
    std::int64_t kernels = 0;
    std::int64_t copies = 0;
    std::int64_t memsets = 0;
    std::int64_t dropped = 0;

    void reset()
    {
        intervals.clear();
        kernelNanoseconds = 0;
        kernels = copies = memsets = dropped = 0;
    }
};

Collected& collected()
{
    static Collected* state = new Collected(); // outlives every callback
    return *state;
}

std::atomic<bool> g_recording{false};
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
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            out.intervals.emplace_back(copy->start, copy->end);
            ++out.copies;
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto* memset = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
            out.intervals.emplace_back(memset->start, memset->end);
            ++out.memsets;
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

class CuptiActivityRecorder final : public GpuActivityRecorder {
public:
    explicit CuptiActivityRecorder(std::uint64_t start) : m_start(start) {}
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
        for (CUpti_ActivityKind kind : kKinds)
            api.disable(kind);
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
    bool m_stopped = false;
};

} // namespace

Expected<std::unique_ptr<GpuActivityRecorder>> GpuActivityRecorder::start()
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
        state.reset();
    }
    std::uint64_t start = 0;
    Status status = cuptiStatus(api->getTimestamp(&start), "cuptiGetTimestamp");
    for (CUpti_ActivityKind kind : kKinds)
        if (status.isOk())
            status = cuptiStatus(api->enable(kind), "cuptiActivityEnable");
    if (!status.isOk()) {
        for (CUpti_ActivityKind kind : kKinds)
            api->disable(kind);
        g_recording.store(false);
        return unexpected(status);
    }
    return std::unique_ptr<GpuActivityRecorder>(std::make_unique<CuptiActivityRecorder>(start));
}

} // namespace tstudio
