// SummarySaverHook: writes the summary op's value to the event file every N steps or seconds.
#include "training/summary_saver_hook.h"

#include "runtime/session.h"

namespace tstudio::training {

Expected<std::shared_ptr<SummarySaverHook>> SummarySaverHook::create(SummarySaverHookOptions options)
{
    if (options.summaryOp.empty() == !options.scaffold)
        return unexpected(invalidArgumentError("Exactly one of scaffold or summary_op must be provided."));
    auto timer = SecondOrStepTimer::create(options.saveSecs, options.saveSteps);
    if (!timer)
        return unexpected(timer.error());
    return std::shared_ptr<SummarySaverHook>(new SummarySaverHook(std::move(options), std::move(*timer)));
}

std::vector<std::string> SummarySaverHook::summaryTensors() const
{
    if (!m_options.summaryOp.empty())
        return m_options.summaryOp;
    if (m_options.scaffold && m_options.scaffold->summaryOp())
        return {*m_options.scaffold->summaryOp()};
    return {};
}

Status SummarySaverHook::begin(GraphBuilder& graph)
{
    auto writer = hookWriter(m_options.writer, m_options.writers, m_options.outputDir, graph);
    if (!writer)
        return writer.error();
    m_writer = *writer;
    m_nextStep.reset();
    auto step = globalStepReadTensor(graph, "SummarySaverHook");
    if (!step)
        return step.error();
    m_globalStep = *step;
    return {};
}

Expected<SessionRunArgs> SummarySaverHook::beforeRun(SessionRunContext&)
{
    m_requestSummary = !m_nextStep || m_timer.shouldTriggerForStep(*m_nextStep);
    SessionRunArgs args;
    args.fetches = {m_globalStep};
    if (m_requestSummary)
        for (const std::string& t : summaryTensors())
            args.fetches.push_back(t);
    return args;
}

Status SummarySaverHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    if (!m_writer)
        return {};
    auto stale = int64Scalar(values.results.at(0), m_globalStep);
    if (!stale)
        return stale.error();
    std::int64_t step = *stale + 1;
    if (!m_nextStep || m_requestSummary) {
        auto now = fetchInt64(context.session(), m_globalStep);
        if (!now)
            return now.error();
        step = *now;
    }
    if (!m_nextStep)
        if (Status s = m_writer->addSessionLog(events::EventFileWriter::SessionStatus::Start, "", "", step); !s.isOk())
            return s;
    if (m_requestSummary) {
        m_timer.updateLastTriggeredStep(step);
        for (std::size_t i = 1; i < values.results.size(); ++i) {
            const Tensor& t = values.results[i];
            if (t.dtype() != tensorflow::DT_STRING || t.numElements() != 1)
                return invalidArgumentError("SummarySaverHook: the summary tensor must be a scalar string, got " +
                                            dataTypeString(t.dtype()) + " " + t.shape().toString());
            if (Status s = m_writer->addSerializedSummary(t.strings()[0], step); !s.isOk())
                return s;
        }
    }
    m_nextStep = step + 1;
    return {};
}

Status SummarySaverHook::end(Session&)
{
    return m_writer ? m_writer->flush() : Status{};
}

} // namespace tstudio::training
