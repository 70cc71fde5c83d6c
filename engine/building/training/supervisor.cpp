// Supervisor: prepares a session and runs the summary, step-counter and checkpoint services.
#include "training/supervisor.h"

#include "builder/collections.h"
#include "builder/lookup_ops.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "core/log.h"
#include "io/atomic_file.h"
#include "model/meta_graph.h"
#include "proto/summary.pb.h"
#include "summary/summary.h"
#include "training/input_pipeline.h"
#include "training/looper_thread.h"
#include "training/queue_runner.h"
#include "training/report_uninitialized_variables.h"
#include "training/scaffold.h"
#include "training/session_run_hook.h"

#include <google/protobuf/text_format.h>

#include <chrono>
#include <filesystem>
#include <limits>

namespace tstudio::training {
namespace {

/// Supervisor._get_first_op_from_collection: the name of the first item of `key`, if any.
std::optional<std::string> firstOfCollection(const GraphBuilder& b, std::string_view key)
{
    const std::vector<CollectionItem> items = b.collections().get(key);
    if (items.empty())
        return std::nullopt;
    if (items.size() > 1)
        logInfo("supervisor", "Found " + std::to_string(items.size()) + " " + std::string(key) +
                                  " operations. Returning the first one.");
    if (const Variable* v = std::get_if<Variable>(&items.front()))
        return v->value().name();
    return collectionItemName(items.front());
}

/// USE_DEFAULT for one piece: the collection's first item, else `make()` added to the collection.
template <typename Make>
Status settleOp(GraphBuilder& b, std::optional<std::string>& piece, std::string_view key, Make make)
{
    if (piece)
        return {};
    if (auto first = firstOfCollection(b, key)) {
        piece = std::move(*first);
        return {};
    }
    Expected<std::optional<CollectionItem>> made = make();
    if (!made)
        return made.error();
    piece = *made ? collectionItemName(**made) : std::string();
    if (*made)
        b.collections().add(key, **made);
    return {};
}

/// A made piece as settleOp takes it.
template <typename T> Expected<std::optional<CollectionItem>> asItem(Expected<T> made)
{
    if (!made)
        return unexpected(made.error());
    return std::optional<CollectionItem>(std::move(*made));
}

double secondsSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

Supervisor::Supervisor(GraphBuilder& graph, SupervisorOptions options)
    : m_graph(&graph), m_options(std::move(options)), m_manager(SessionManagerOptions{})
{
}

Supervisor::~Supervisor()
{
    (void)stop(true, true);
    if (m_session)
        m_session->close();
    m_coordinator.joinAll();
}

Status Supervisor::settle(GraphBuilder& b)
{
    SupervisorOptions& o = m_options;
    if (Status s =
            settleOp(b, o.readyOp, scaffold_keys::kReadyOp, [&] { return asItem(reportUninitializedVariables(b)); });
        !s.isOk())
        return s;
    if (!o.readyForLocalInitOp)
        o.readyForLocalInitOp = firstOfCollection(b, scaffold_keys::kReadyForLocalInitOp).value_or("");
    if (Status s = settleOp(b, o.initOp, scaffold_keys::kInitOp, [&] { return asItem(globalVariablesInitializer(b)); });
        !s.isOk())
        return s;
    if (Status s = settleOp(b, o.localInitOp, scaffold_keys::kLocalInitOp,
                            [&]() -> Expected<std::optional<CollectionItem>> {
                                auto locals = localVariablesInitializer(b);
                                if (!locals)
                                    return unexpected(locals.error());
                                auto tables = lookup::tablesInitializer(b);
                                if (!tables)
                                    return unexpected(tables.error());
                                return asItem(ops::group(b, {*locals, *tables}, "group_deps"));
                            });
        !s.isOk())
        return s;
    if (!o.saver) {
        o.saver = std::shared_ptr<Saver>();
        if (!b.collections().variables(graph_keys::kGlobalVariables).empty()) {
            auto saver = Saver::create(b);
            if (!saver)
                return saver.error();
            o.saver = std::make_shared<Saver>(std::move(*saver));
        }
    }
    if (Status s = settleOp(b, o.summaryOp, scaffold_keys::kSummaryOp,
                            [&]() -> Expected<std::optional<CollectionItem>> {
                                auto merged = summary::mergeAll(b);
                                if (!merged)
                                    return unexpected(merged.error());
                                if (!*merged)
                                    return std::optional<CollectionItem>();
                                return std::optional<CollectionItem>(**merged);
                            });
        !s.isOk())
        return s;
    if (!o.globalStep) {
        o.globalStep = firstOfCollection(b, graph_keys::kGlobalStep);
        // The step counter's tag names the global step's op: the variable's, not its read's.
        if (const auto items = b.collections().get(graph_keys::kGlobalStep); !items.empty())
            if (const Variable* v = std::get_if<Variable>(&items.front()))
                m_globalStepOp = v->name();
        if (!o.globalStep) {
            // _default_global_step_tensor: "global_step:0" when it is an integer tensor.
            o.globalStep = std::string();
            if (auto t = b.tensor("global_step:0")) {
                if (t->dtype() == tensorflow::DT_INT32 || t->dtype() == tensorflow::DT_INT64 ||
                    t->dtype() == tensorflow::DT_INT32_REF || t->dtype() == tensorflow::DT_INT64_REF) {
                    o.globalStep = t->name();
                    b.collections().add(graph_keys::kGlobalStep, *t);
                } else {
                    logWarning("supervisor", "Found 'global_step' is not an int type: " + dataTypeString(t->dtype()));
                }
            }
        }
    }
    return {};
}

Expected<std::unique_ptr<Supervisor>> Supervisor::create(GraphBuilder& graph, SupervisorOptions options)
{
    std::unique_ptr<Supervisor> self(new Supervisor(graph, std::move(options)));
    if (Status s = self->settle(graph); !s.isOk())
        return unexpected(s);
    SupervisorOptions& o = self->m_options;
    MetaGraphExportOptions exportOptions;
    if (o.saver->get())
        exportOptions.saverDef = (*o.saver)->saverDef();
    if (!o.queueRunners.empty())
        exportOptions.extraCollections[std::string(input::kQueueRunnersKey)] =
            input::queueRunnersCollection(o.queueRunners);
    auto meta = exportMetaGraph(graph, exportOptions);
    if (!meta)
        return unexpected(meta.error());
    self->m_metaGraph = std::move(*meta);
    if (o.isChief) {
        if (!o.logdir.empty())
            self->m_savePath = (std::filesystem::path(o.logdir) / o.checkpointBasename).string();
        if (!o.summaryWriter) {
            if (!o.logdir.empty()) {
                auto writer = events::EventFileWriter::open(o.logdir);
                if (!writer)
                    return unexpected(writer.error());
                self->m_writer = std::move(*writer);
                self->m_ownsWriter = true;
            }
        } else {
            self->m_writer = *o.summaryWriter;
        }
    } else {
        // _verify_setup: replicas need every variable placed.
        for (const tensorflow::NodeDef& node : graph.graphDef().node())
            if ((node.op() == "Variable" || node.op() == "VariableV2") && node.device().empty())
                return unexpected(invalidArgumentError(
                    "When using replicas, all Variables must have their device set: " + node.name()));
        o.logdir.clear();
        o.saveSummariesSecs = 0;
        o.saveModelSecs = 0;
    }
    SessionManagerOptions managerOptions;
    managerOptions.localInitOp = *o.localInitOp;
    managerOptions.readyOp = *o.readyOp;
    managerOptions.readyForLocalInitOp = *o.readyForLocalInitOp;
    managerOptions.recoveryWaitSecs = o.recoveryWaitSecs;
    self->m_manager = SessionManager(std::move(managerOptions));
    graph.finalize();
    return self;
}

Expected<std::int64_t> Supervisor::readGlobalStep(Session& session) const
{
    if (globalStep().empty())
        return 0;
    return fetchInt64(session, globalStep());
}

Status Supervisor::writeGraph()
{
    if (!m_options.logdir.empty()) {
        const tensorflow::GraphDef graphDef = m_graph->toGraphDef(true);
        std::string text;
        if (!google::protobuf::TextFormat::PrintToString(graphDef, &text))
            return internalError("could not print the graph as text for graph.pbtxt");
        std::error_code ec;
        std::filesystem::create_directories(m_options.logdir, ec);
        if (Status s = writeFileAtomically(std::filesystem::path(m_options.logdir) / "graph.pbtxt", text); !s.isOk())
            return s;
    }
    if (m_writer && !m_graphAdded) {
        if (Status s = m_writer->addGraph(m_graph->toGraphDef(true)); !s.isOk())
            return s;
        if (Status s = m_writer->addMetaGraph(m_metaGraph); !s.isOk())
            return s;
        m_graphAdded = true;
    }
    return {};
}

Expected<std::shared_ptr<Session>> Supervisor::prepareOrWaitForSession(bool startStandardServices,
                                                                       std::optional<double> maxWaitSecs)
{
    m_coordinator.clearStop();
    if (m_ownsWriter && !m_writer) {
        auto writer = events::EventFileWriter::open(m_options.logdir);
        if (!writer)
            return unexpected(writer.error());
        m_writer = std::move(*writer);
    }
    std::shared_ptr<Session> session;
    if (m_options.isChief) {
        session = std::make_shared<Session>(m_options.session);
        if (Status s = session->create(m_graph->graphDef()); !s.isOk())
            return unexpected(s);
        PrepareSessionArgs args;
        args.initOp = initOp();
        args.initFeeds = m_options.initFeeds;
        args.initFn = m_options.initFn;
        args.saver = saver();
        args.checkpointDir = m_options.logdir;
        if (auto restored = m_manager.prepareSession(*session, args); !restored)
            return unexpected(restored.error());
        if (Status s = writeGraph(); !s.isOk())
            return unexpected(s);
        m_session = session;
        if (startStandardServices) {
            logInfo("supervisor", "Starting standard services.");
            if (Status s = this->startStandardServices(session); !s.isOk())
                return unexpected(s);
        }
    } else {
        auto waited = m_manager.waitForSession(m_options.session, m_graph->graphDef(), maxWaitSecs);
        if (!waited)
            return unexpected(waited.error());
        session = std::shared_ptr<Session>(std::move(*waited));
        m_session = session;
    }
    if (startStandardServices) {
        logInfo("supervisor", "Starting queue runners.");
        if (Status s = startQueueRunners(session); !s.isOk())
            return unexpected(s);
    }
    return session;
}

Status Supervisor::startStandardServices(const std::shared_ptr<Session>& session)
{
    if (!m_options.isChief)
        return failedPreconditionError("Only chief supervisor can start standard services. Because only chief "
                                       "supervisors can write events.");
    if (m_options.logdir.empty()) {
        logWarning("supervisor", "Standard services need a 'logdir' passed to the SessionManager");
        return {};
    }
    if (!globalStep().empty() && m_writer) {
        auto step = readGlobalStep(*session);
        if (!step)
            return step.error();
        if (Status s = m_writer->addSessionLog(events::EventFileWriter::SessionStatus::Start, "", "", *step); !s.isOk())
            return s;
    }
    const std::shared_ptr<events::EventFileWriter> writer = m_writer;
    if (m_options.saveSummariesSecs > 0 && writer) {
        if (!summaryOp().empty()) {
            LooperBody body;
            body.runLoop = [this, session, writer]() -> Status {
                std::vector<std::string> fetches{summaryOp()};
                if (!globalStep().empty())
                    fetches.push_back(globalStep());
                std::vector<Tensor> out;
                if (Status s = session->run({}, fetches, {}, &out); !s.isOk())
                    return s;
                std::int64_t step = 0;
                if (out.size() > 1) {
                    auto value = int64Scalar(out[1], globalStep());
                    if (!value)
                        return value.error();
                    step = *value;
                }
                if (out[0].dtype() != tensorflow::DT_STRING || out[0].numElements() != 1)
                    return invalidArgumentError("Supervisor: the summary op '" + summaryOp() +
                                                "' must give a scalar string (a serialized Summary), got " +
                                                dataTypeString(out[0].dtype()) + " " + out[0].shape().toString());
                logInfo("supervisor", "Recording summary at step " + std::to_string(step) + ".");
                return writer->addSerializedSummary(out[0].strings().front(), step);
            };
            startLooperThread(m_coordinator, "SVSummaryThread", m_options.saveSummariesSecs, std::move(body));
        }
        if (!globalStep().empty()) {
            struct Counter {
                std::chrono::steady_clock::time_point lastTime;
                std::int64_t lastStep = 0;
                int logged = 0;
            };
            auto counter = std::make_shared<Counter>();
            const std::string tag =
                (m_globalStepOp.empty() ? globalStep().substr(0, globalStep().find(':')) : m_globalStepOp) + "/sec";
            LooperBody body;
            body.startLoop = [this, session, counter]() -> Status {
                counter->lastTime = std::chrono::steady_clock::now();
                auto step = readGlobalStep(*session);
                if (!step)
                    return step.error();
                counter->lastStep = *step;
                return {};
            };
            body.runLoop = [this, session, counter, writer, tag]() -> Status {
                auto step = readGlobalStep(*session);
                if (!step)
                    return step.error();
                const std::int64_t added = *step - counter->lastStep;
                counter->lastStep = *step;
                const double elapsed = secondsSince(counter->lastTime);
                counter->lastTime = std::chrono::steady_clock::now();
                const double perSec = elapsed > 0 ? double(added) / elapsed : std::numeric_limits<double>::infinity();
                tensorflow::Summary summary;
                auto* value = summary.add_value();
                value->set_tag(tag);
                value->set_simple_value(static_cast<float>(perSec));
                if (counter->logged < 10) {
                    ++counter->logged;
                    logInfo("supervisor", tag + ": " + std::to_string(perSec));
                }
                return writer->addSummary(summary, *step);
            };
            startLooperThread(m_coordinator, "SVStepCounterThread", m_options.saveSummariesSecs, std::move(body));
        }
    }
    if (saver() && m_options.saveModelSecs > 0) {
        const std::shared_ptr<Saver> saverRef = *m_options.saver;
        LooperBody body;
        body.runLoop = [this, session, writer, saverRef]() -> Status {
            logInfo("supervisor", "Saving checkpoint to path " + m_savePath);
            std::optional<std::int64_t> step;
            if (!globalStep().empty()) {
                auto value = readGlobalStep(*session);
                if (!value)
                    return value.error();
                step = *value;
            }
            {
                std::lock_guard lock(m_saveMutex);
                SaveArguments args;
                args.globalStep = step;
                args.metaGraph = &m_metaGraph;
                if (auto saved = saverRef->save(*session, m_savePath, args); !saved)
                    return saved.error();
            }
            if (writer && step)
                return writer->addSessionLog(events::EventFileWriter::SessionStatus::Checkpoint, "", m_savePath, *step);
            return {};
        };
        startLooperThread(m_coordinator, "SVTimerCheckpointThread", m_options.saveModelSecs, std::move(body));
    }
    return {};
}

Status Supervisor::startQueueRunners(const std::shared_ptr<Session>& session,
                                     const std::optional<std::vector<tensorflow::QueueRunnerDef>>& runners)
{
    return training::startQueueRunners(*session, m_coordinator, runners ? *runners : m_options.queueRunners);
}

void Supervisor::loop(std::optional<double> intervalSecs, std::function<Status()> target)
{
    LooperBody body;
    body.runLoop = std::move(target);
    startLooperThread(m_coordinator, "LooperThread", intervalSecs, std::move(body));
}

Status Supervisor::stop(bool closeSummaryWriter, bool ignoreLiveThreads)
{
    m_coordinator.requestStop();
    Status status = m_coordinator.join(m_options.stopGraceSecs, ignoreLiveThreads);
    if (closeSummaryWriter && m_writer) {
        // The stop is written without a step: the session may be gone.
        Status logged = m_writer->addSessionLog(events::EventFileWriter::SessionStatus::Stop, "", "", 0);
        Status closed = m_writer->close();
        if (status.isOk())
            status = !logged.isOk() ? logged : closed;
        m_writer.reset(); // a writer the supervisor made is reopened by the next prepareOrWaitForSession
        m_graphAdded = false;
    }
    return status;
}

Status Supervisor::managedSession(const std::function<Status(Session&)>& body, bool startStandardServices,
                                  bool closeSummaryWriter)
{
    auto session = prepareOrWaitForSession(startStandardServices);
    if (!session) {
        (void)stop(closeSummaryWriter, true);
        return session.error();
    }
    if (Status s = body(**session); !s.isOk())
        requestStop(s);
    Status stopped = stop(closeSummaryWriter);
    (*session)->close(); // wakes what still waits on a queue
    m_coordinator.joinAll();
    if (m_session == *session)
        m_session.reset();
    return stopped;
}

Status Supervisor::summaryComputed(Session& session, const std::string& serializedSummary,
                                   std::optional<std::int64_t> step)
{
    if (!m_writer)
        return failedPreconditionError("Writing a summary requires a summary writer.");
    if (!step) {
        auto value = readGlobalStep(session);
        if (!value)
            return value.error();
        step = *value;
    }
    return m_writer->addSerializedSummary(serializedSummary, *step);
}

} // namespace tstudio::training
