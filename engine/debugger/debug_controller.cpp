// DebugController: a small state machine under one mutex; the run's thread waits on a condition.
#include "debugger/debug_controller.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tstudio {

namespace {

/// "x" -> "x:0"; "x:1" stays.
std::string canonicalTensorName(const std::string& name)
{
    const auto colon = name.rfind(':');
    if (colon != std::string::npos && colon + 1 < name.size() &&
        name.find_first_not_of("0123456789", colon + 1) == std::string::npos)
        return name;
    return name + ":0";
}

/// The name scope of `node` with its slash ("layer1/" for "layer1/MatMul"), or "" at the top level.
std::string scopeOf(const std::string& node)
{
    const auto slash = node.rfind('/');
    return slash == std::string::npos ? std::string() : node.substr(0, slash + 1);
}

std::int64_t nanosBetween(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
}

} // namespace

std::int64_t ExecutedNode::bytes() const
{
    std::int64_t total = 0;
    for (const ExecutedOutput& output : outputs)
        total += output.bytes;
    return total;
}

DebugController::DebugController() : m_copies(std::make_unique<CpuAllocator>()) {}

DebugController::~DebugController()
{
    // Deep copies must go before the allocator that holds them.
    m_feeds.clear();
    m_executed.clear();
    m_history.clear();
    m_paused.reset();
}

void DebugController::pause()
{
    std::lock_guard lock(m_mutex);
    m_pauseRequested = true;
    m_skipRuns = 0;
}

void DebugController::resume()
{
    std::lock_guard lock(m_mutex);
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::step()
{
    std::lock_guard lock(m_mutex);
    m_stepping = true;
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::stepOverScope()
{
    std::lock_guard lock(m_mutex);
    const std::string scope = m_paused ? scopeOf(m_paused->node) : std::string();
    if (scope.empty())
        m_stepping = true;
    else
        m_stepOverScope = scope;
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::runToNode(std::string name)
{
    std::lock_guard lock(m_mutex);
    m_runToNode = std::move(name);
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::runToOp(std::string op)
{
    std::lock_guard lock(m_mutex);
    m_runToOp = std::move(op);
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::continueRuns(int runs)
{
    std::lock_guard lock(m_mutex);
    m_skipRuns = std::max(1, runs);
    m_stepping = false;
    m_stepOverScope.reset();
    m_pauseRequested = false;
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::runToNextRun()
{
    std::lock_guard lock(m_mutex);
    m_pauseAtNextRun = true;
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::setStopOnNonFinite(bool stop)
{
    std::lock_guard lock(m_mutex);
    m_stopOnNonFinite = stop;
}

void DebugController::setBreakpoints(debugger::BreakpointSet breakpoints)
{
    auto shared = std::make_shared<const debugger::BreakpointSet>(std::move(breakpoints));
    std::lock_guard lock(m_mutex);
    m_breakpoints = std::move(shared);
}

debugger::BreakpointSet DebugController::breakpoints() const
{
    std::lock_guard lock(m_mutex);
    return *m_breakpoints;
}

void DebugController::setRetainValues(bool retain)
{
    std::lock_guard lock(m_mutex);
    m_retainValues = retain;
}

void DebugController::setWatched(std::vector<std::string> tensors)
{
    std::lock_guard lock(m_mutex);
    m_watched.clear();
    for (const std::string& tensor : tensors)
        m_watched.insert(canonicalTensorName(tensor));
}

std::vector<std::string> DebugController::watched() const
{
    std::lock_guard lock(m_mutex);
    return {m_watched.begin(), m_watched.end()};
}

void DebugController::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    m_paused.reset();
    m_changed.notify_all();
}

void DebugController::reset()
{
    std::lock_guard lock(m_mutex);
    m_pauseRequested = false;
    m_stepping = false;
    m_stepOverScope.reset();
    m_runToNode.reset();
    m_runToOp.reset();
    m_skipRuns = 0;
    m_pauseAtNextRun = false;
    m_stopOnNonFinite = false;
    m_cancelled = false;
    m_paused.reset();
    m_changed.notify_all();
}

bool DebugController::isPaused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused.has_value();
}

std::optional<PausePoint> DebugController::pausePoint() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

bool DebugController::waitUntilPaused(std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(m_mutex);
    const std::int64_t finished = m_finishedRuns;
    m_changed.wait_for(lock, timeout, [&] { return m_paused.has_value() || m_finishedRuns != finished; });
    return m_paused.has_value();
}

void DebugController::setPauseCallback(std::function<void(const PausePoint&)> callback)
{
    std::lock_guard lock(m_mutex);
    m_callback = std::move(callback);
}

void DebugController::setRunFinishedCallback(std::function<void(const Status&, std::int64_t)> callback)
{
    std::lock_guard lock(m_mutex);
    m_runCallback = std::move(callback);
}

std::int64_t DebugController::runsFinished() const
{
    std::lock_guard lock(m_mutex);
    return m_finishedRuns;
}

std::vector<ExecutedNode> DebugController::executedNodes() const
{
    std::lock_guard lock(m_mutex);
    return m_executed;
}

Expected<Tensor> DebugController::keptValue(const std::string& tensor) const
{
    const std::string name = canonicalTensorName(tensor);
    const auto colon = name.rfind(':');
    const std::string node = name.substr(0, colon);
    const std::string slotText = name.substr(colon + 1);
    if (node.empty() || slotText.size() > 9)
        return unexpected(invalidArgumentError("'" + tensor + "' is not a tensor name (expected node:output)"));
    const auto slot = static_cast<std::size_t>(std::stoul(slotText));
    std::lock_guard lock(m_mutex);
    const auto found = m_executedByName.find(node);
    if (found == m_executedByName.end())
        return unexpected(notFoundError("node '" + node + "' has not run in this session run"));
    const ExecutedNode& record = m_executed[found->second];
    if (slot >= record.outputs.size())
        return unexpected(invalidArgumentError("node '" + node + "' (op '" + record.op + "') has " +
                                               std::to_string(record.outputs.size()) + " outputs; there is no output " +
                                               std::to_string(slot)));
    const ExecutedOutput& output = record.outputs[slot];
    if (!output.live)
        return unexpected(notFoundError("'" + name + "' is dead (an untaken branch of a Switch)"));
    if (!output.value.isInitialized())
        return unexpected(failedPreconditionError(
            "no value of '" + name + "' is kept (values are kept while the session lives and keeping is on; an "
            "uninitialized variable has none)"));
    return output.value;
}

Expected<Tensor> DebugController::tensorValue(const std::string& tensor) const
{
    {
        // A fed tensor's value is the feed's, even where its producer ran in the last run's record.
        std::lock_guard lock(m_mutex);
        const std::string name = canonicalTensorName(tensor);
        for (const auto& [fed, value] : m_feeds)
            if (fed == name)
                return value;
    }
    Expected<Tensor> kept = keptValue(tensor);
    if (kept)
        return kept;
    std::lock_guard lock(m_mutex);
    if (m_paused) {
        const std::string name = canonicalTensorName(tensor);
        for (std::size_t i = 0; i < m_paused->names.size() && i < m_paused->values.size(); ++i)
            if (m_paused->names[i] == name && m_paused->valueLive[i] && m_paused->values[i].isInitialized())
                return m_paused->values[i];
    }
    return kept;
}

std::vector<std::string> DebugController::fedTensors() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> names;
    for (const auto& [name, value] : m_feeds)
        names.push_back(name);
    return names;
}

void DebugController::runFeeds(const std::vector<std::string>& names, const std::vector<Tensor>& values)
{
    std::lock_guard lock(m_mutex);
    m_feeds.clear();
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
        m_feeds.emplace_back(canonicalTensorName(names[i]), values[i]);
}

std::vector<WatchedValue> DebugController::history(const std::string& tensor) const
{
    std::lock_guard lock(m_mutex);
    const auto found = m_history.find(canonicalTensorName(tensor));
    if (found == m_history.end())
        return {};
    return {found->second.begin(), found->second.end()};
}

namespace {

PausePoint pointFor(const NodeExecution& execution, PausePoint::Reason reason, bool after)
{
    PausePoint point;
    point.reason = reason;
    point.node = execution.node->name();
    point.op = execution.node->op();
    point.device = *execution.device;
    point.frame = *execution.frameName;
    point.iteration = execution.iteration;
    point.afterNode = after;
    const std::vector<TensorValue>* values = after ? execution.outputs : execution.inputs;
    if (after) {
        for (std::size_t i = 0; values && i < values->size(); ++i)
            point.names.push_back(point.node + ":" + std::to_string(i));
    } else {
        for (const std::string& input : execution.node->input())
            if (!input.empty() && input[0] != '^')
                point.names.push_back(canonicalTensorName(input));
    }
    for (std::size_t i = 0; values && i < values->size(); ++i) {
        const TensorValue& value = (*values)[i];
        const std::vector<bool>* liveFlags = after ? execution.outputLive : execution.inputLive;
        const bool live = liveFlags ? bool((*liveFlags)[i]) : true;
        std::unique_lock<std::mutex> refLock;
        if (value.refMutex)
            refLock = std::unique_lock(*value.refMutex);
        point.values.push_back(value.get());
        point.valueLive.push_back(live);
    }
    return point;
}

/// True when an element's exponent bits are all ones (NaN or Inf). With the sign bit S cleared, an
/// element is non-finite exactly when its bits are >= the exponent mask M, so adding S - M carries
/// into S: OR-ing those sums over a block and testing S once is a branch-free pass the compiler
/// vectorises. The NaN/Inf check runs on every float output of every step, so it must cost a
/// fraction of the kernels that made them.
template <typename Bits> bool anyExponentAllOnes(const std::byte* data, std::size_t count, Bits exponentMask)
{
    constexpr Bits kSign = Bits(1) << (8 * sizeof(Bits) - 1);
    const Bits carry = static_cast<Bits>(kSign - exponentMask);
    constexpr std::size_t kBlock = 1024 / sizeof(Bits);
    auto element = [data](std::size_t i) {
        Bits bits;
        std::memcpy(&bits, data + i * sizeof(Bits), sizeof bits);
        return bits;
    };
    std::size_t i = 0;
    for (; i + kBlock <= count; i += kBlock) {
        Bits any = 0;
        for (std::size_t j = 0; j < kBlock; ++j)
            any |= static_cast<Bits>((element(i + j) & static_cast<Bits>(~kSign)) + carry);
        if (any & kSign)
            return true;
    }
    Bits any = 0;
    for (; i < count; ++i)
        any |= static_cast<Bits>((element(i) & static_cast<Bits>(~kSign)) + carry);
    return (any & kSign) != 0;
}

/// "NaN" or "Inf" for the first non-finite element (NaN when the tensor holds both kinds, as
/// the more telling one), "" when all are finite.
template <typename T, typename Bits> std::string nonFiniteIn(const Tensor& tensor, Bits exponentMask)
{
    const std::span<const std::byte> bytes = tensor.tensorData();
    if (!anyExponentAllOnes<Bits>(bytes.data(), bytes.size() / sizeof(Bits), exponentMask))
        return {};
    bool inf = false;
    for (const T& v : tensor.values<T>()) {
        const double d = static_cast<double>(v);
        if (std::isnan(d))
            return "NaN";
        inf = inf || std::isinf(d);
    }
    return inf ? "Inf" : std::string();
}

/// True when `output` shares its buffer with a ref input (a variable read): later ops may assign
/// to that buffer in place.
bool aliasesVariable(const Tensor& output, const std::vector<TensorValue>* inputs)
{
    if (!inputs)
        return false;
    for (const TensorValue& in : *inputs)
        if (in.isRef() && output.sharesBufferWith(*in.ref))
            return true;
    return false;
}

} // namespace

std::string DebugController::findNonFinite(const NodeExecution& execution)
{
    if (!execution.outputs)
        return {};
    for (std::size_t i = 0; i < execution.outputs->size(); ++i) {
        if (!(*execution.outputLive)[i])
            continue;
        const TensorValue& value = (*execution.outputs)[i];
        std::unique_lock<std::mutex> lock;
        if (value.refMutex)
            lock = std::unique_lock(*value.refMutex);
        const Tensor& t = value.get();
        if (!t.isInitialized())
            continue;
        std::string found;
        switch (t.dtype()) {
        case tensorflow::DT_FLOAT: found = nonFiniteIn<float, std::uint32_t>(t, 0x7f800000u); break;
        case tensorflow::DT_DOUBLE: found = nonFiniteIn<double, std::uint64_t>(t, 0x7ff0000000000000ull); break;
        case tensorflow::DT_HALF: found = nonFiniteIn<Eigen::half, std::uint16_t>(t, 0x7c00u); break;
        case tensorflow::DT_BFLOAT16: found = nonFiniteIn<Eigen::bfloat16, std::uint16_t>(t, 0x7f80u); break;
        default: break;
        }
        if (!found.empty())
            return "output " + std::to_string(i) + " of node '" + execution.node->name() + "' has " + found;
    }
    return {};
}

ExecutedNode DebugController::recordOf(const NodeExecution& execution, bool retain) const
{
    ExecutedNode record;
    record.node = execution.node->name();
    record.op = execution.node->op();
    record.device = *execution.device;
    record.frame = *execution.frameName;
    record.iteration = execution.iteration;
    const std::size_t count = execution.outputs ? execution.outputs->size() : 0;
    record.outputs.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        ExecutedOutput& out = record.outputs[i];
        out.live = (*execution.outputLive)[i];
        if (!out.live)
            continue;
        const TensorValue& value = (*execution.outputs)[i];
        std::unique_lock<std::mutex> refLock;
        if (value.refMutex)
            refLock = std::unique_lock(*value.refMutex);
        const Tensor& tensor = value.get();
        out.dtype = tensor.dtype();
        if (!tensor.isInitialized())
            continue;
        out.shape = tensor.shape();
        out.bytes = static_cast<std::int64_t>(tensor.totalBytes());
        if (!retain)
            continue;
        out.value = tensor;
        out.variableBuffer = value.isRef() || aliasesVariable(tensor, execution.inputs);
    }
    return record;
}

void DebugController::snapshotVariablesWrittenBy(const NodeExecution& execution)
{
    // Called with m_mutex held, on the run's thread, before the node computes.
    if (m_variableViews.empty() || !execution.inputTypes || !execution.inputs)
        return;
    for (std::size_t i = 0; i < execution.inputs->size() && i < execution.inputTypes->size(); ++i) {
        const TensorValue& input = (*execution.inputs)[i];
        if (!isRefType((*execution.inputTypes)[i]) || !input.isRef())
            continue;
        std::unique_lock<std::mutex> refLock;
        if (input.refMutex)
            refLock = std::unique_lock(*input.refMutex);
        const Tensor& variable = *input.ref;
        std::optional<Tensor> copy; // one copy for every kept view of this buffer
        std::erase_if(m_variableViews, [&](const std::pair<std::size_t, std::size_t>& view) {
            ExecutedOutput& output = m_executed[view.first].outputs[view.second];
            if (!output.value.sharesBufferWith(variable))
                return false;
            if (!copy) {
                auto made = variable.deepCopy(*m_copies);
                if (!made)
                    return false; // out of memory: the view stays (it will show the written value)
                copy = std::move(*made);
            }
            output.value = *copy;
            output.copied = true;
            output.variableBuffer = false;
            return true;
        });
    }
}

void DebugController::keepWatched(const NodeExecution& execution)
{
    // Called with m_mutex held, on the run's thread.
    for (std::size_t i = 0; execution.outputs && i < execution.outputs->size(); ++i) {
        if (!(*execution.outputLive)[i])
            continue;
        const std::string name = execution.node->name() + ":" + std::to_string(i);
        if (!m_watched.count(name))
            continue;
        const TensorValue& value = (*execution.outputs)[i];
        std::unique_lock<std::mutex> refLock;
        if (value.refMutex)
            refLock = std::unique_lock(*value.refMutex);
        if (!value.get().isInitialized())
            continue;
        auto copy = value.get().deepCopy(*m_copies);
        if (!copy)
            continue;
        std::deque<WatchedValue>& values = m_history[name];
        // A node inside a loop runs once per iteration: the run keeps its last value.
        if (!values.empty() && values.back().run == m_finishedRuns)
            values.back().value = std::move(*copy);
        else
            values.push_back({m_finishedRuns, std::move(*copy)});
        while (values.size() > kMaxHistory)
            values.pop_front();
    }
}

ObserverAction DebugController::pauseHere(std::unique_lock<std::mutex>& lock, PausePoint point, bool runStart)
{
    point.run = m_finishedRuns;
    point.executed = runStart ? 0 : static_cast<std::int64_t>(m_executed.size());
    m_paused = point;
    m_changed.notify_all();
    if (m_callback) {
        auto callback = m_callback;
        lock.unlock();
        callback(point);
        lock.lock();
    }
    m_changed.wait(lock, [this] { return !m_paused.has_value() || m_cancelled; });
    return m_cancelled ? ObserverAction::kCancel : ObserverAction::kContinue;
}

ObserverAction DebugController::beforeNode(const NodeExecution& execution)
{
    std::unique_lock lock(m_mutex);
    if (m_cancelled)
        return ObserverAction::kCancel;
    // The last run's record stays inspectable while the new run pauses at its first node.
    const bool newRun = !m_runActive;
    m_runActive = true;
    auto startRecord = [&] {
        if (newRun) {
            m_executed.clear();
            m_executedByName.clear();
            m_variableViews.clear();
            m_variableBuffers.clear();
            m_runStart = Clock::now();
        }
    };
    if (execution.isDead) {
        startRecord();
        return ObserverAction::kContinue;
    }
    const std::string& name = execution.node->name();
    std::optional<PausePoint::Reason> reason;
    std::optional<std::size_t> breakpoint;
    if (m_runToNode && *m_runToNode == name) {
        reason = PausePoint::Reason::kRunToNode;
        m_runToNode.reset();
    } else if (m_runToOp && *m_runToOp == execution.node->op()) {
        reason = PausePoint::Reason::kRunToOp;
        m_runToOp.reset();
    } else if (m_stepping) {
        reason = PausePoint::Reason::kStep;
    } else if (m_stepOverScope && name.compare(0, m_stepOverScope->size(), *m_stepOverScope) != 0) {
        reason = PausePoint::Reason::kStepOverScope;
    } else if (m_pauseRequested) {
        reason = PausePoint::Reason::kPauseRequested;
    } else if (m_skipRuns == 0 && !m_breakpoints->empty()) {
        breakpoint = m_breakpoints->matchBefore(*execution.node, execution.iteration);
        if (breakpoint)
            reason = PausePoint::Reason::kBreakpoint;
    }
    if (reason) {
        m_stepping = false;
        m_stepOverScope.reset();
        m_pauseRequested = false;
        PausePoint point = pointFor(execution, *reason, false);
        point.breakpoint = breakpoint;
        if (pauseHere(lock, std::move(point), newRun) == ObserverAction::kCancel)
            return ObserverAction::kCancel;
    }
    startRecord();
    snapshotVariablesWrittenBy(execution);
    m_nodeStart = Clock::now();
    return ObserverAction::kContinue;
}

ObserverAction DebugController::afterNode(const NodeExecution& execution)
{
    const Clock::time_point end = Clock::now();
    std::unique_lock lock(m_mutex);
    if (m_cancelled)
        return ObserverAction::kCancel;
    if (execution.isDead)
        return ObserverAction::kContinue;
    const bool retain = m_retainValues;
    const bool checkNonFinite = m_stopOnNonFinite && m_skipRuns == 0;
    const std::shared_ptr<const debugger::BreakpointSet> breakpoints =
        m_skipRuns == 0 && m_breakpoints->wantsOutputs(*execution.node) ? m_breakpoints : nullptr;
    lock.unlock();

    ExecutedNode record = recordOf(execution, retain);
    record.startNanos = nanosBetween(m_runStart, m_nodeStart);
    record.durationNanos = nanosBetween(m_nodeStart, end);
    std::string nonFinite = checkNonFinite ? findNonFinite(execution) : std::string();
    std::optional<std::pair<std::size_t, std::string>> hit;
    if (nonFinite.empty() && breakpoints) {
        std::vector<Tensor> outputs;
        for (std::size_t i = 0; i < execution.outputs->size(); ++i) {
            const TensorValue& value = (*execution.outputs)[i];
            std::unique_lock<std::mutex> refLock;
            if (value.refMutex)
                refLock = std::unique_lock(*value.refMutex);
            outputs.push_back((*execution.outputLive)[i] ? value.get() : Tensor());
        }
        hit = breakpoints->matchAfter(*execution.node, outputs);
    }

    lock.lock();
    for (std::size_t i = 0; i < record.outputs.size(); ++i) {
        ExecutedOutput& output = record.outputs[i];
        if (!output.value.isInitialized() || output.value.numElements() == 0)
            continue;
        const std::byte* buffer = output.value.tensorData().data();
        if (output.variableBuffer)
            m_variableBuffers.insert(buffer);
        else
            output.variableBuffer = m_variableBuffers.count(buffer) > 0;
        if (output.variableBuffer)
            m_variableViews.emplace_back(m_executed.size(), i);
    }
    m_executedByName[record.node] = m_executed.size();
    m_executed.push_back(std::move(record));
    if (!m_watched.empty())
        keepWatched(execution);
    if (!nonFinite.empty()) {
        PausePoint point = pointFor(execution, PausePoint::Reason::kNonFinite, true);
        point.detail = std::move(nonFinite);
        return pauseHere(lock, std::move(point));
    }
    if (hit) {
        PausePoint point = pointFor(execution, PausePoint::Reason::kBreakpoint, true);
        point.breakpoint = hit->first;
        point.detail = std::move(hit->second);
        return pauseHere(lock, std::move(point));
    }
    return ObserverAction::kContinue;
}

void DebugController::sessionClosing()
{
    std::lock_guard lock(m_mutex);
    for (ExecutedNode& record : m_executed)
        for (ExecutedOutput& output : record.outputs)
            if (!output.copied)
                output.value = Tensor::uninitialized(tensorflow::DT_INVALID);
    m_variableViews.clear();
    m_variableBuffers.clear();
    m_feeds.clear();
    m_paused.reset();
}

void DebugController::runFinished(const Status& status)
{
    std::function<void(const Status&, std::int64_t)> callback;
    std::int64_t run = 0;
    {
        std::lock_guard lock(m_mutex);
        run = m_finishedRuns++;
        m_runActive = false;
        m_paused.reset();
        m_cancelled = false;
        if (m_skipRuns > 0 && --m_skipRuns == 0)
            m_pauseRequested = true;
        if (m_pauseAtNextRun) {
            m_pauseAtNextRun = false;
            m_pauseRequested = true;
        }
        callback = m_runCallback;
        m_changed.notify_all();
    }
    if (callback)
        callback(status, run);
}

} // namespace tstudio
