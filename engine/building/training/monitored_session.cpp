// MonitoredTrainingSession: restores or initializes the model and runs hooks around every run.
#include "training/monitored_session.h"

#include "runtime/arena_run_metadata.h"
#include "training/input_pipeline.h"
#include "training/queue_runner.h"

#include "training/checkpoint_saver_hook.h"
#include "training/coordinated_session_run_hook.h"
#include "training/session_manager.h"
#include "training/step_counter_hook.h"
#include "training/summary_saver_hook.h"

#include "core/log.h"

#include <algorithm>
#include <set>

namespace tstudio::training {
namespace {

std::string canonicalTensorName(const std::string& name)
{
    return name.find(':') == std::string::npos ? name + ":0" : name;
}

/// "[a:0, b:0]" for the conflict messages.
std::string nameList(const std::set<std::string>& names)
{
    std::string out = "[";
    for (const std::string& n : names)
        out += (out.size() > 1 ? ", " : "") + n;
    return out + "]";
}

std::set<std::string> fedNames(const Feeds& feeds)
{
    std::set<std::string> names;
    for (const auto& [name, value] : feeds)
        names.insert(canonicalTensorName(name));
    return names;
}

std::set<std::string> intersection(const std::set<std::string>& a, const std::set<std::string>& b)
{
    std::set<std::string> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.begin()));
    return out;
}

void mergeRunOptions(tensorflow::RunOptions& into, const tensorflow::RunOptions& incoming)
{
    into.set_trace_level(std::max(into.trace_level(), incoming.trace_level()));
    into.set_timeout_in_ms(std::max(into.timeout_in_ms(), incoming.timeout_in_ms()));
    into.set_inter_op_thread_pool(std::max(into.inter_op_thread_pool(), incoming.inter_op_thread_pool()));
    into.set_output_partition_graphs(into.output_partition_graphs() || incoming.output_partition_graphs());
    into.set_report_tensor_allocations_upon_oom(into.report_tensor_allocations_upon_oom() ||
                                                incoming.report_tensor_allocations_upon_oom());
}

/// Scaffold's USE_DEFAULT rule for a (secs, steps) pair: nullopt = default, 0 = None.
template <typename A, typename B>
void applyDefaults(std::optional<A>& first, std::optional<B>& second, std::optional<A> firstDefault,
                   std::optional<B> secondDefault)
{
    if (!first && !second) {
        first = firstDefault;
        second = secondDefault;
    }
    if (first && *first <= 0)
        first.reset();
    if (second && *second <= 0)
        second.reset();
}

} // namespace

Expected<std::unique_ptr<MonitoredTrainingSession>>
MonitoredTrainingSession::create(GraphBuilder& graph, MonitoredTrainingSessionOptions options)
{
    std::unique_ptr<MonitoredTrainingSession> self(new MonitoredTrainingSession);
    self->m_graph = &graph;
    self->m_scaffold = options.scaffold ? options.scaffold : std::make_shared<Scaffold>();
    if (options.summaryDir.empty())
        options.summaryDir = options.checkpointDir;
    applyDefaults<std::int64_t, double>(options.saveSummariesSteps, options.saveSummariesSecs, 100, std::nullopt);
    applyDefaults<double, std::int64_t>(options.saveCheckpointSecs, options.saveCheckpointSteps, 600.0, std::nullopt);

    std::vector<std::shared_ptr<SessionRunHook>>& hooks = self->m_hooks;
    // A worker (is_chief=False) runs the caller's hooks only: TensorFlow adds the chief-only hooks and
    // the step counter, summary and checkpoint hooks for a chief alone.
    const bool chief = options.isChief;
    if (chief)
        hooks = options.chiefOnlyHooks;
    const bool summaries = chief && !options.summaryDir.empty();
    if (summaries && options.logStepCountSteps > 0) {
        StepCounterHookOptions o;
        o.everyNSteps = options.logStepCountSteps;
        o.outputDir = options.summaryDir;
        o.writers = options.writers;
        auto hook = StepCounterHook::create(std::move(o));
        if (!hook)
            return unexpected(hook.error());
        hooks.push_back(*hook);
    }
    if (summaries && (options.saveSummariesSteps || options.saveSummariesSecs)) {
        SummarySaverHookOptions o;
        o.saveSteps = options.saveSummariesSteps;
        o.saveSecs = options.saveSummariesSecs;
        o.outputDir = options.summaryDir;
        o.scaffold = self->m_scaffold;
        o.writers = options.writers;
        auto hook = SummarySaverHook::create(std::move(o));
        if (!hook)
            return unexpected(hook.error());
        hooks.push_back(*hook);
    }
    if (chief && !options.checkpointDir.empty() && (options.saveCheckpointSecs || options.saveCheckpointSteps)) {
        CheckpointSaverHookOptions o;
        o.checkpointDir = options.checkpointDir;
        o.saveSecs = options.saveCheckpointSecs;
        o.saveSteps = options.saveCheckpointSteps;
        o.scaffold = self->m_scaffold;
        o.writers = options.writers;
        // The builder's collections hold graph elements only; the runners go into each .meta as
        // TensorFlow's graph collection puts them there, so a checkpoint re-imports with its input.
        if (!options.queueRunners.empty())
            o.extraCollections[std::string(input::kQueueRunnersKey)] =
                input::queueRunnersCollection(options.queueRunners);
        auto hook = CheckpointSaverHook::create(std::move(o));
        if (!hook)
            return unexpected(hook.error());
        hooks.push_back(*hook);
    }
    for (const auto& hook : options.hooks)
        hooks.push_back(hook);
    for (const auto& hook : hooks)
        if (!hook)
            return unexpected(invalidArgumentError("MonitoredTrainingSession: a hook is null"));

    for (const auto& hook : hooks)
        if (Status s = hook->begin(graph); !s.isOk())
            return unexpected(s);
    if (Status s = orderGlobalStepReadBeforeIncrements(graph); !s.isOk())
        return unexpected(s);
    if (Status s = self->m_scaffold->finalize(graph); !s.isOk())
        return unexpected(s);

    self->m_options = std::move(options);
    if (Status s = self->createSession(); !s.isOk())
        return unexpected(s);
    return self;
}

Status MonitoredTrainingSession::createSessionOnce()
{
    if (m_options.isChief) {
        m_session = std::make_unique<Session>(m_options.session);
        if (Status s = m_session->create(m_graph->graphDef()); !s.isOk())
            return s;
        if (Status s = prepareSession(); !s.isOk())
            return s;
    } else {
        // WorkerSessionCreator: wait until another task (the chief) has made the model ready.
        SessionManagerOptions managerOptions;
        managerOptions.localInitOp = m_scaffold->localInitOp();
        managerOptions.readyOp = m_scaffold->readyOp();
        managerOptions.readyForLocalInitOp = m_scaffold->readyForLocalInitOp();
        managerOptions.recoveryWaitSecs = m_options.recoveryWaitSecs;
        auto session = SessionManager(std::move(managerOptions))
                           .waitForSession(m_options.session, m_graph->graphDef(), m_options.maxWaitSecs,
                                           m_options.workerSharedState);
        if (!session)
            return session.error();
        m_session = std::move(*session);
    }
    m_coordinator = std::make_unique<Coordinator>(std::vector<StatusCode>{});
    if (Status s = startQueueRunners(*m_session, *m_coordinator, m_options.queueRunners); !s.isOk())
        return s;
    for (const auto& hook : m_hooks) {
        auto* coordinated = dynamic_cast<CoordinatedSessionRunHook*>(hook.get());
        if (Status s = coordinated ? coordinated->afterCreateSession(*m_session, *m_coordinator)
                                   : hook->afterCreateSession(*m_session);
            !s.isOk())
            return s;
    }
    return {};
}

Status MonitoredTrainingSession::createSession()
{
    for (int attempt = 1;; ++attempt) {
        Status s = createSessionOnce();
        if (s.isOk() || !isPreemptionError(s) || attempt >= m_options.maxRecoveries + 1)
            return s;
        logInfo("monitored_session",
                "An error was raised while a session was being created. This may be due to a preemption of a "
                "connected worker or parameter server. A new session will be created. Error: " +
                    s.toString());
        dropSession();
    }
}

void MonitoredTrainingSession::dropSession()
{
    (void)stopQueueRunners();
    m_coordinator.reset();
    m_session.reset();
}

bool isPreemptionError(const Status& s)
{
    return s.code() == StatusCode::kAborted || s.code() == StatusCode::kUnavailable;
}

void MonitoredTrainingSession::requestStop()
{
    if (m_coordinator)
        m_coordinator->requestStop();
}

MonitoredTrainingSession::~MonitoredTrainingSession()
{
    (void)stopQueueRunners();
}

Status MonitoredTrainingSession::stopQueueRunners()
{
    if (!m_coordinator || !m_session)
        return {};
    m_coordinator->requestStop();
    Status status = m_coordinator->join(m_options.stopGracePeriodSecs, /*ignoreLiveThreads=*/true);
    if (m_coordinator->liveThreads() > 0) {
        m_session->close(); // wakes whatever still waits on a queue
        m_coordinator->joinAll();
    }
    return status;
}

Status MonitoredTrainingSession::prepareSession()
{
    Scaffold& scaffold = *m_scaffold;
    SessionManagerOptions managerOptions;
    managerOptions.localInitOp = scaffold.localInitOp();
    managerOptions.readyOp = scaffold.readyOp();
    managerOptions.readyForLocalInitOp = scaffold.readyForLocalInitOp();
    PrepareSessionArgs args;
    args.initOp = scaffold.initOp();
    args.initFeeds = scaffold.initFeeds();
    args.initFn = scaffold.initFn();
    args.saver = &scaffold.saver();
    args.checkpointDir = m_options.checkpointDir;
    auto restored = SessionManager(std::move(managerOptions)).prepareSession(*m_session, args);
    return restored ? Status::ok() : restored.error();
}

Expected<std::vector<Tensor>> MonitoredTrainingSession::run(const std::vector<std::string>& fetches, const Feeds& feeds,
                                                            const std::vector<std::string>& targets,
                                                            const tensorflow::RunOptions* options,
                                                            tensorflow::RunMetadata* metadata,
                                                            ExecutionObserver* observer)
{
    if (m_closed)
        return unexpected(failedPreconditionError("Run called on a closed session."));
    // _RecoverableSession: an Aborted or Unavailable run closes the session and makes a new one
    // (restored from the latest checkpoint, queue runners restarted, afterCreateSession again).
    for (int recoveries = 0;; ++recoveries) {
        if (!m_session) {
            if (Status s = createSession(); !s.isOk()) {
                m_failed = true;
                return unexpected(s);
            }
        }
        auto result = runOnce(fetches, feeds, targets, options, metadata, observer);
        if (result || !isPreemptionError(result.error()) || recoveries >= m_options.maxRecoveries)
            return result;
        logInfo("monitored_session",
                "An error was raised. This may be due to a preemption in a connected worker or parameter server. "
                "The current session will be closed and a new session will be created. Error: " +
                    result.error().toString());
        m_failed = false;
        dropSession();
        ++m_recoveries;
    }
}

Expected<std::vector<Tensor>>
MonitoredTrainingSession::runOnce(const std::vector<std::string>& fetches, const Feeds& feeds,
                                  const std::vector<std::string>& targets, const tensorflow::RunOptions* options,
                                  tensorflow::RunMetadata* metadata, ExecutionObserver* observer)
{
    auto fail = [this](Status s) {
        m_failed = true;
        return unexpected(std::move(s));
    };
    SessionRunContext context(SessionRunArgs{fetches, targets, feeds, std::nullopt}, *m_session);
    tensorflow::RunOptions runOptions = options ? *options : tensorflow::RunOptions();
    std::vector<std::string> allFetches = fetches;
    std::vector<std::string> allTargets = targets;
    Feeds hookFeeds;
    std::set<std::string> hookFed;
    std::vector<std::pair<std::size_t, std::size_t>> slices; // each hook's [first, count) of allFetches
    for (const auto& hook : m_hooks) {
        auto args = hook->beforeRun(context);
        if (!args)
            return fail(args.error());
        slices.emplace_back(allFetches.size(), args->fetches.size());
        allFetches.insert(allFetches.end(), args->fetches.begin(), args->fetches.end());
        allTargets.insert(allTargets.end(), args->targets.begin(), args->targets.end());
        if (!args->feeds.empty()) {
            const std::set<std::string> fed = fedNames(args->feeds);
            if (auto both = intersection(hookFed, fed); !both.empty())
                return fail(invalidArgumentError("Same tensor is fed by two hooks. Conflict(s): " + nameList(both)));
            hookFed.insert(fed.begin(), fed.end());
            hookFeeds.insert(hookFeeds.end(), args->feeds.begin(), args->feeds.end());
        }
        if (args->options)
            mergeRunOptions(runOptions, *args->options);
    }
    if (auto both = intersection(fedNames(feeds), hookFed); !both.empty())
        return fail(
            invalidArgumentError("Same tensor is fed by a SessionRunHook and user. Conflict(s): " + nameList(both)));
    Feeds allFeeds = feeds;
    allFeeds.insert(allFeeds.end(), hookFeeds.begin(), hookFeeds.end());

    ArenaRunMetadata ownMetadata; // a traced step (ProfilerHook's) records onto its arena
    tensorflow::RunMetadata& runMetadata = metadata ? *metadata : *ownMetadata;
    std::vector<Tensor> outputs;
    if (Status s = m_session->run(runOptions, allFeeds, allFetches, allTargets, &outputs, &runMetadata, observer);
        !s.isOk()) {
        // A queue runner's error explains the failure better than what its closed queue caused.
        if (Status runner = m_coordinator ? m_coordinator->requestedException() : Status::ok(); !runner.isOk())
            return fail(runner);
        if (s.code() == StatusCode::kOutOfRange) { // the input is exhausted: a clean end
            m_shouldStop = true;
            return unexpected(s);
        }
        return fail(s);
    }
    for (std::size_t i = 0; i < m_hooks.size(); ++i) {
        const auto [first, count] = slices[i];
        SessionRunValues values{{outputs.begin() + static_cast<std::ptrdiff_t>(first),
                                 outputs.begin() + static_cast<std::ptrdiff_t>(first + count)},
                                runOptions,
                                runMetadata};
        if (Status s = m_hooks[i]->afterRun(context, values); !s.isOk())
            return fail(s);
    }
    m_shouldStop = m_shouldStop || context.stopRequested();
    outputs.resize(fetches.size());
    return outputs;
}

Status MonitoredTrainingSession::close()
{
    if (m_closed)
        return {};
    m_closed = true;
    Status first;
    if (!m_failed && m_session)
        for (const auto& hook : m_hooks)
            if (Status s = hook->end(*m_session); !s.isOk() && first.isOk())
                first = s;
    if (Status s = stopQueueRunners(); !s.isOk() && first.isOk())
        first = s;
    // The writers stay open in the cache (as TensorFlow's); what the hooks wrote reaches the disk now.
    SummaryWriterCache& writers = m_options.writers ? *m_options.writers : SummaryWriterCache::global();
    for (const std::string& dir : {m_options.checkpointDir, m_options.summaryDir})
        if (!dir.empty())
            if (Status s = writers.flush(dir); !s.isOk() && first.isOk())
                first = s;
    return first;
}

} // namespace tstudio::training
