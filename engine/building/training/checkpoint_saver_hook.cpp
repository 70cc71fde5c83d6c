// CheckpointSaverHook: saves a checkpoint every N steps or seconds and at the end.
#include "training/checkpoint_saver_hook.h"

#include "core/log.h"
#include "io/atomic_file.h"
#include "model/meta_graph.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <filesystem>

namespace tstudio::training {

Expected<std::shared_ptr<CheckpointSaverHook>> CheckpointSaverHook::create(CheckpointSaverHookOptions options)
{
    if (options.saver && options.scaffold)
        return unexpected(invalidArgumentError("You cannot provide both saver and scaffold."));
    auto timer = SecondOrStepTimer::create(options.saveSecs, options.saveSteps);
    if (!timer)
        return unexpected(timer.error());
    logInfo("training", "Create CheckpointSaverHook.");
    return std::shared_ptr<CheckpointSaverHook>(new CheckpointSaverHook(std::move(options), std::move(*timer)));
}

CheckpointSaverHook::CheckpointSaverHook(CheckpointSaverHookOptions options, SecondOrStepTimer timer)
    : m_options(std::move(options)), m_timer(std::move(timer))
{
    m_savePath = (std::filesystem::path(m_options.checkpointDir) / m_options.checkpointBasename).string();
}

Saver& CheckpointSaverHook::saver()
{
    return m_options.saver ? *m_options.saver : m_options.scaffold->saver();
}

Status CheckpointSaverHook::begin(GraphBuilder& graph)
{
    if (!m_options.saver && !m_options.scaffold)
        return failedPreconditionError("No items in collection savers. Please add a saver to the collection or "
                                       "provide a saver or scaffold.");
    m_graph = &graph;
    auto writer = hookWriter(m_options.writers, m_options.checkpointDir, graph);
    if (!writer)
        return writer.error();
    m_writer = *writer;
    auto step = globalStepReadTensor(graph, "CheckpointSaverHook");
    if (!step)
        return step.error();
    m_globalStep = *step;
    return {};
}

Status CheckpointSaverHook::afterCreateSession(Session& session)
{
    auto step = fetchInt64(session, m_globalStep);
    if (!step)
        return step.error();
    // The graph is final now (every hook's begin and the scaffold have added their nodes).
    const tensorflow::GraphDef graphDef = m_graph->toGraphDef(true);
    std::string text;
    if (!google::protobuf::TextFormat::PrintToString(graphDef, &text))
        return internalError("could not print the graph as text for graph.pbtxt");
    std::error_code ec;
    std::filesystem::create_directories(m_options.checkpointDir, ec);
    if (Status s = writeFileAtomically(std::filesystem::path(m_options.checkpointDir) / "graph.pbtxt", text); !s.isOk())
        return s;
    MetaGraphExportOptions exportOptions;
    exportOptions.extraCollections = m_options.extraCollections;
    if (!saver().isEmpty())
        exportOptions.saverDef = saver().saverDef();
    auto meta = exportMetaGraph(*m_graph, exportOptions);
    if (!meta)
        return meta.error();
    m_metaGraph = std::move(*meta);
    if (Status s = m_writer->addGraph(graphDef); !s.isOk())
        return s;
    if (Status s = m_writer->addMetaGraph(*m_metaGraph); !s.isOk())
        return s;
    if (Status s = save(session, *step); !s.isOk())
        return s;
    m_timer.updateLastTriggeredStep(*step);
    return {};
}

Expected<SessionRunArgs> CheckpointSaverHook::beforeRun(SessionRunContext&)
{
    SessionRunArgs args;
    args.fetches = {m_globalStep};
    return args;
}

Status CheckpointSaverHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    auto stale = int64Scalar(values.results.at(0), m_globalStep);
    if (!stale)
        return stale.error();
    if (!m_timer.shouldTriggerForStep(*stale + 1))
        return {};
    // The value fetched may predate the train op's increment: read it again.
    auto step = fetchInt64(context.session(), m_globalStep);
    if (!step)
        return step.error();
    if (m_timer.shouldTriggerForStep(*step)) {
        m_timer.updateLastTriggeredStep(*step);
        return save(context.session(), *step);
    }
    return {};
}

Status CheckpointSaverHook::end(Session& session)
{
    auto step = fetchInt64(session, m_globalStep);
    if (!step)
        return step.error();
    if (m_timer.lastTriggeredStep() != *step)
        return save(session, *step);
    return {};
}

Expected<std::string> CheckpointSaverHook::saveNow(Session& session)
{
    if (!m_writer)
        return unexpected(failedPreconditionError("the checkpoint hook has not begun; create the session first"));
    auto step = fetchInt64(session, m_globalStep);
    if (!step)
        return unexpected(step.error());
    if (Status s = save(session, *step); !s.isOk())
        return unexpected(s);
    m_timer.updateLastTriggeredStep(*step);
    return m_savePath + "-" + std::to_string(*step);
}

Status CheckpointSaverHook::save(Session& session, std::int64_t step)
{
    logInfo("training", "Saving checkpoints for " + std::to_string(step) + " into " + m_savePath + ".");
    // Beyond TensorFlow (which leaves this to flush_secs): the events written so far reach the disk
    // before the checkpoint becomes the latest, so a run killed at any moment and resumed from it
    // has every summary up to it (those after it are dropped by the resumed run's SessionLog START).
    if (Status s = m_writer->flush(); !s.isOk())
        return s;
    auto prefix = saver().save(session, m_savePath, step, true, m_metaGraph ? &*m_metaGraph : nullptr);
    if (!prefix)
        return prefix.error();
    return m_writer->addSessionLog(events::EventFileWriter::SessionStatus::Checkpoint, "", m_savePath, step);
}

} // namespace tstudio::training
