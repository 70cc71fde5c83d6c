// StepCounterHook: measures global steps per second and writes them as a scalar summary.
#include "training/step_counter_hook.h"

#include "core/log.h"
#include "proto/summary.pb.h"
#include "runtime/session.h"
#include "training/global_step.h"

#include <cstdio>

namespace tstudio::training {

Expected<std::shared_ptr<StepCounterHook>> StepCounterHook::create(StepCounterHookOptions options)
{
    if (options.everyNSteps.has_value() == options.everyNSecs.has_value())
        return unexpected(invalidArgumentError("exactly one of every_n_steps and every_n_secs should be provided."));
    auto timer = SecondOrStepTimer::create(options.everyNSecs, options.everyNSteps, options.clock);
    if (!timer)
        return unexpected(timer.error());
    return std::shared_ptr<StepCounterHook>(new StepCounterHook(std::move(options), std::move(*timer)));
}

Status StepCounterHook::begin(GraphBuilder& graph)
{
    auto writer = hookWriter(m_options.writer, m_options.writers, m_options.outputDir, graph);
    if (!writer)
        return writer.error();
    m_writer = *writer;
    auto step = globalStepReadTensor(graph, "StepCounterHook");
    if (!step)
        return step.error();
    m_globalStep = *step;
    auto variable = getGlobalStep(graph);
    m_tag = (*variable)->name() + "/sec";
    return {};
}

Expected<SessionRunArgs> StepCounterHook::beforeRun(SessionRunContext&)
{
    SessionRunArgs args;
    args.fetches = {m_globalStep};
    return args;
}

Status StepCounterHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    auto stale = int64Scalar(values.results.at(0), m_globalStep);
    if (!stale)
        return stale.error();
    if (m_timer.shouldTriggerForStep(*stale + 1)) {
        auto step = fetchInt64(context.session(), m_globalStep);
        if (!step)
            return step.error();
        if (m_timer.shouldTriggerForStep(*step)) {
            const auto elapsed = m_timer.updateLastTriggeredStep(*step);
            if (elapsed && elapsed->first > 0) {
                const double stepsPerSec = static_cast<double>(elapsed->second) / elapsed->first;
                if (m_writer) {
                    tensorflow::Summary summary;
                    auto* value = summary.add_value();
                    value->set_tag(m_tag);
                    value->set_simple_value(static_cast<float>(stepsPerSec));
                    if (Status s = m_writer->addSummary(summary, *step); !s.isOk())
                        return s;
                }
                char text[64];
                std::snprintf(text, sizeof text, "%g", stepsPerSec);
                logInfo("training", m_tag + ": " + text);
            }
        }
    }
    if (m_lastGlobalStep == *stale && m_warnings < 5) {
        ++m_warnings;
        logWarning("training", "It seems that global step (tf.train.get_global_step) has not been increased. "
                               "Current value (could be stable): " +
                                   std::to_string(*stale) + " vs previous value: " + std::to_string(*stale) +
                                   ". You could increase the global step by passing tf.train.get_global_step() to "
                                   "Optimizer.apply_gradients or Optimizer.minimize.");
    }
    m_lastGlobalStep = *stale;
    return {};
}

Status StepCounterHook::end(Session&)
{
    return m_writer ? m_writer->flush() : Status{};
}

} // namespace tstudio::training
