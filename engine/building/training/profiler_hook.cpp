// ProfilerHook: traces a run every N steps or seconds and writes it as a Chrome trace.
#include "training/profiler_hook.h"

#include "io/atomic_file.h"
#include "profiler/chrome_trace_json.h"
#include "profiler/trace_builder.h"
#include "runtime/session.h"

#include <filesystem>

namespace tstudio::training {

Expected<std::shared_ptr<ProfilerHook>> ProfilerHook::create(ProfilerHookOptions options)
{
    auto timer = SecondOrStepTimer::create(options.saveSecs, options.saveSteps);
    if (!timer)
        return unexpected(timer.error());
    return std::shared_ptr<ProfilerHook>(new ProfilerHook(std::move(options), std::move(*timer)));
}

Status ProfilerHook::begin(GraphBuilder& graph)
{
    auto writer = hookWriter(m_options.writers, m_options.outputDir.empty() ? "." : m_options.outputDir, graph);
    if (!writer)
        return writer.error();
    m_writer = *writer;
    m_nextStep.reset();
    auto step = globalStepReadTensor(graph, "ProfilerHook");
    if (!step)
        return step.error();
    m_globalStep = *step;
    return {};
}

Expected<SessionRunArgs> ProfilerHook::beforeRun(SessionRunContext&)
{
    m_requestTrace = m_nextStep && m_timer.shouldTriggerForStep(*m_nextStep);
    SessionRunArgs args;
    args.fetches = {m_globalStep};
    if (m_requestTrace) {
        tensorflow::RunOptions options;
        options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        args.options = options;
    }
    return args;
}

Status ProfilerHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    auto stale = int64Scalar(values.results.at(0), m_globalStep);
    if (!stale)
        return stale.error();
    if (!m_nextStep)
        m_timer.updateLastTriggeredStep(*stale);
    std::int64_t step = *stale + 1;
    if (m_requestTrace) {
        auto now = fetchInt64(context.session(), m_globalStep);
        if (!now)
            return now.error();
        step = *now;
        m_timer.updateLastTriggeredStep(step);
        const std::filesystem::path file =
            std::filesystem::path(m_options.outputDir) / ("timeline-" + std::to_string(step) + ".json");
        // As tf.train.ProfilerHook: show_dataflow=True, show_memory=False, written by
        // generate_chrome_trace_format (indented JSON); our args let the profiler read the file back whole.
        profiler::ChromeTraceOptions trace;
        trace.showDataflow = true;
        trace.showMemory = false;
        trace.pretty = true;
        const std::string json =
            profiler::chromeTraceJson(profiler::traceFromStepStats(values.runMetadata.step_stats(), step), trace);
        if (Status s = writeFileAtomically(file, json); !s.isOk())
            return s;
        if (Status s = m_writer->addRunMetadata(values.runMetadata, "step_" + std::to_string(step), step); !s.isOk())
            return s;
    }
    m_nextStep = step + 1;
    return {};
}

Status ProfilerHook::end(Session&)
{
    return m_writer ? m_writer->flush() : Status{};
}

} // namespace tstudio::training
