#include "project/run/parameter_server.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/variable.h"
#include "distributed/mpi_context.h"
#include "framework/device_name.h"
#include "proto/parameter_server.pb.h"
#include "training/session_run_hook.h"

#include <algorithm>
#include <set>

namespace tstudio::project {

using distributed::MpiContext;
using Message = tstudio::ParameterServerMessage;

namespace {

/// Every message of the protocol travels with this tag.
constexpr int kTag = 7301;

Status sendMessage(int rank, const Message& m)
{
    std::string bytes;
    if (!m.SerializeToString(&bytes))
        return internalError("parameter server: a message could not be serialised");
    return MpiContext::instance().send(rank, kTag, bytes);
}

Expected<std::pair<int, Message>> receiveMessage(int source)
{
    auto received = MpiContext::instance().receive(source, kTag);
    if (!received)
        return unexpected(received.error());
    Message m;
    if (!m.ParseFromString(received->bytes))
        return unexpected(dataLossError("parameter server: a message from rank " + std::to_string(received->source) +
                                        " does not parse (" + std::to_string(received->bytes.size()) + " bytes)"));
    return std::pair<int, Message>(received->source, std::move(m));
}

/// The ps task `device` names, if it names the ps job.
std::optional<int> psTaskOf(const std::string& device)
{
    if (device.empty())
        return std::nullopt;
    auto name = parseDeviceName(device);
    if (!name || !name->job || *name->job != "ps")
        return std::nullopt;
    return name->task.value_or(0);
}

/// The variable a node is colocated with ("_class": ["loc:@w"]), if any.
std::optional<std::string> colocatedWith(const tensorflow::NodeDef& node)
{
    auto it = node.attr().find("_class");
    if (it == node.attr().end())
        return std::nullopt;
    for (const std::string& s : it->second.list().s())
        if (s.rfind("loc:@", 0) == 0)
            return s.substr(5);
    return std::nullopt;
}

/// The values fetched for `entries` of `placement`, as a message.
Status addValues(Session& session, const ParameterPlacement& placement, const std::vector<std::size_t>& entries,
                 Message& m)
{
    std::vector<std::string> fetches;
    for (std::size_t i : entries)
        fetches.push_back(placement.entries[i].value);
    std::vector<Tensor> values;
    if (Status s = session.run({}, fetches, {}, &values); !s.isOk())
        return s.withContext("reading the variables");
    for (std::size_t k = 0; k < entries.size(); ++k) {
        m.add_names(placement.entries[entries[k]].variable);
        values[k].toProto(m.add_tensors(), true);
    }
    return Status::ok();
}

/// Runs the assigns of the message's variables with their values fed (names must be entries).
Status assignValues(Session& session, const ParameterPlacement& placement, const Message& m, Allocator& allocator)
{
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < placement.entries.size(); ++i)
        index.emplace(placement.entries[i].variable, i);
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> targets;
    for (int k = 0; k < m.names_size(); ++k) {
        auto it = index.find(m.names(k));
        if (it == index.end() || k >= m.tensors_size())
            return invalidArgumentError("parameter server: the message names variable '" + m.names(k) +
                                        "', which this graph does not have (the ranks run different graphs?)");
        auto value = Tensor::fromProto(allocator, m.tensors(k));
        if (!value)
            return value.error().withContext("variable '" + m.names(k) + "'");
        feeds.emplace_back(placement.entries[it->second].placeholder, std::move(*value));
        targets.push_back(placement.entries[it->second].assign);
    }
    if (targets.empty())
        return Status::ok();
    return session.run(feeds, {}, targets, nullptr);
}

} // namespace

Status AsyncLayout::check() const
{
    if (psTasks < 1 || psTasks >= size)
        return invalidArgumentError(
            "distributed.ps_tasks: " + std::to_string(psTasks) + " parameter server" + (psTasks == 1 ? "" : "s") +
            " of " + std::to_string(size) + " rank" + (size == 1 ? "" : "s") + " leaves no worker; start at least " +
            std::to_string(psTasks + 1) + " ranks (mpirun -np " + std::to_string(psTasks + 1) + ")");
    return Status::ok();
}

std::string AsyncLayout::describe() const
{
    const std::string head = "rank " + std::to_string(rank) + " of " + std::to_string(size) + ": ";
    if (isPs())
        return head + "ps task " + std::to_string(rank - workers()) + " of " + std::to_string(psTasks) + " (" +
               std::to_string(workers()) + " worker" + (workers() == 1 ? "" : "s") + ")";
    return head + "worker " + std::to_string(rank) + " of " + std::to_string(workers()) +
           (rank == 0 ? " (the chief)" : "") + ", " + std::to_string(psTasks) + " ps task" + (psTasks == 1 ? "" : "s");
}

Expected<ParameterPlacement> ParameterPlacement::build(GraphBuilder& b, const PreparedTraining& prepared, int psTasks)
{
    ParameterPlacement out;
    const std::vector<Variable> variables = b.collections().variables(graph_keys::kGlobalVariables);
    std::map<std::string, int> taskOf;
    int next = 0;
    // Devices first (the graph's own placement), then colocation, then round-robin.
    std::vector<std::optional<int>> tasks(variables.size());
    for (std::size_t i = 0; i < variables.size(); ++i) {
        const tensorflow::NodeDef* node = b.findNode(variables[i].name());
        if (!node)
            return unexpected(invalidArgumentError("variable '" + variables[i].name() + "' has no node"));
        if (auto task = psTaskOf(node->device())) {
            if (*task >= psTasks)
                return unexpected(invalidArgumentError(
                    "distributed.ps_tasks: variable '" + variables[i].name() + "' is placed on " + node->device() +
                    ", but the project has " + std::to_string(psTasks) + " ps task" + (psTasks == 1 ? "" : "s")));
            tasks[i] = *task;
            taskOf[variables[i].name()] = *task;
        }
    }
    for (std::size_t i = 0; i < variables.size(); ++i) {
        if (tasks[i])
            continue;
        const tensorflow::NodeDef* node = b.findNode(variables[i].name());
        if (auto with = colocatedWith(*node); with && taskOf.count(*with)) {
            tasks[i] = taskOf[*with];
        } else {
            tasks[i] = next;
            next = (next + 1) % psTasks;
        }
        taskOf[variables[i].name()] = *tasks[i];
    }

    auto scope = b.nameScope("parameter_server");
    if (!scope)
        return unexpected(scope.error());
    for (std::size_t i = 0; i < variables.size(); ++i) {
        const Variable& v = variables[i];
        if (!v.value().isValid())
            return unexpected(invalidArgumentError("variable '" + v.name() + "' has no value to read"));
        Entry e;
        e.variable = v.name();
        e.value = v.value().name();
        e.task = *tasks[i];
        const bool resource = v.ref().dtype() == tensorflow::DT_RESOURCE;
        const DataType dtype = resource ? v.value().dtype() : v.dtype();
        auto inner = b.nameScope(v.name());
        if (!inner)
            return unexpected(inner.error());
        auto value = ops::placeholder(b, dtype, v.value().shape(), "value");
        if (!value)
            return unexpected(value.error());
        e.placeholder = value->name();
        auto assign = resource ? b.op("AssignVariableOp", {v.ref(), *value}, {{"dtype", attr::type(dtype)}}, "assign")
                               : b.op("Assign", {v.ref(), *value}, {{"validate_shape", attr::b(false)}}, "assign");
        if (!assign)
            return unexpected(assign.error());
        e.assign = assign->name();
        if (e.value == prepared.globalStep) {
            out.globalStep = v.name();
            out.globalStepEntry = out.entries.size();
        }
        out.entries.push_back(std::move(e));
    }
    if (out.globalStep.empty())
        return unexpected(invalidArgumentError("the global step '" + prepared.globalStep +
                                               "' is not the value of a global variable"));
    return out;
}

std::vector<std::string> ParameterPlacement::mappingLines(const AsyncLayout& layout) const
{
    std::vector<std::string> lines;
    for (int task = 0; task < layout.psTasks; ++task) {
        std::string names;
        for (const Entry& e : entries)
            if (e.task == task)
                names += (names.empty() ? "" : ", ") + e.variable;
        lines.push_back("job:ps/task:" + std::to_string(task) + " -> rank " + std::to_string(layout.psRank(task)) +
                        ": " + (names.empty() ? std::string("no variable") : names));
    }
    return lines;
}

ParameterServerClient::ParameterServerClient(AsyncLayout layout, ParameterPlacement placement,
                                             std::vector<std::string> gradients)
    : m_layout(layout), m_placement(std::move(placement)), m_gradients(std::move(gradients))
{
}

Status ParameterServerClient::initialize(Session& session)
{
    std::vector<std::size_t> all(m_placement.entries.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    Message m;
    m.set_kind(Message::INIT);
    if (Status s = addValues(session, m_placement, all, m); !s.isOk())
        return s;
    for (int task = 0; task < m_layout.psTasks; ++task)
        if (Status s = sendMessage(m_layout.psRank(task), m); !s.isOk())
            return s;
    return Status::ok();
}

Status ParameterServerClient::exchange(const ParameterServerMessage& request, int replyKind, const std::string& what,
                                       const std::function<Status(int task, const ParameterServerMessage&)>& onReply)
{
    for (int task = 0; task < m_layout.psTasks; ++task)
        if (Status s = sendMessage(m_layout.psRank(task), request); !s.isOk())
            return s;
    for (int task = 0; task < m_layout.psTasks; ++task) {
        auto reply = receiveMessage(m_layout.psRank(task));
        if (!reply)
            return reply.error();
        const Message& m = reply->second;
        if (m.kind() == Message::ERROR)
            return internalError("ps task " + std::to_string(task) + " " + what + ": " + m.error());
        if (m.kind() != replyKind)
            return internalError("ps task " + std::to_string(task) + " " + what + ": a reply of kind " +
                                 std::to_string(m.kind()));
        if (Status s = onReply(task, m); !s.isOk())
            return s;
    }
    return Status::ok();
}

Expected<std::int64_t> ParameterServerClient::pull(Session& session, bool final)
{
    Message request;
    request.set_kind(Message::PULL);
    request.set_global_step(final ? -1 : 0);
    std::int64_t step = 0;
    const int stepTask = m_placement.entries[m_placement.globalStepEntry].task;
    Status pulled = exchange(request, Message::VALUES, "sending the variables", [&](int task, const Message& m) {
        if (task == stepTask)
            step = m.global_step();
        Status s = assignValues(session, m_placement, m, m_allocator);
        return s.isOk() ? s : s.withContext("the variables of ps task " + std::to_string(task));
    });
    if (!pulled.isOk())
        return unexpected(pulled);
    return step;
}

Expected<std::int64_t> ParameterServerClient::push(Session& session, const std::vector<Tensor>& gradients,
                                                   std::int64_t pulledAt)
{
    if (gradients.size() != m_gradients.size())
        return unexpected(internalError("parameter server: " + std::to_string(gradients.size()) + " gradients for " +
                                        std::to_string(m_gradients.size()) + " tensors"));
    Message request;
    request.set_kind(Message::PUSH);
    request.set_global_step(pulledAt);
    for (std::size_t i = 0; i < gradients.size(); ++i) {
        request.add_names(m_gradients[i]);
        gradients[i].toProto(request.add_tensors(), true);
    }
    std::int64_t staleness = 0;
    const int stepTask = m_placement.entries[m_placement.globalStepEntry].task;
    Status pushed = exchange(request, Message::APPLIED, "applying the gradients", [&](int task, const Message& m) {
        if (task == stepTask) {
            staleness = m.staleness();
            m_stepAfterPush = m.global_step();
        }
        return Status::ok();
    });
    if (!pushed.isOk())
        return unexpected(pushed);
    // The local global step follows the servers' (StopAtStepHook and the checkpoints read it).
    Message step;
    step.add_names(m_placement.globalStep);
    Tensor value = Tensor::uninitialized(tensorflow::DT_INT64);
    {
        auto made = Tensor::allocate(m_allocator, tensorflow::DT_INT64, TensorShape::scalar());
        if (!made)
            return unexpected(made.error());
        value = std::move(*made);
    }
    value.values<std::int64_t>()[0] = m_stepAfterPush;
    value.toProto(step.add_tensors(), true);
    if (Status s = assignValues(session, m_placement, step, m_allocator); !s.isOk())
        return unexpected(s);
    return staleness;
}

Status ParameterServerClient::done(bool failed)
{
    Message m;
    m.set_kind(Message::DONE);
    m.set_error(failed ? "failed" : "");
    Status first = Status::ok();
    for (int task = 0; task < m_layout.psTasks; ++task)
        if (Status s = sendMessage(m_layout.psRank(task), m); !s.isOk() && first.isOk())
            first = s;
    return first;
}

Expected<ParameterServerReport> serveParameters(GraphBuilder& b, const PreparedTraining& prepared,
                                                const ParameterPlacement& placement, const AsyncLayout& layout,
                                                const SessionOptions& options)
{
    const int task = layout.rank - layout.workers();
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);
    if (Status s = session.run({}, {}, {prepared.initOp}, nullptr); !s.isOk())
        return unexpected(s.withContext("initialising ps task " + std::to_string(task)));
    std::vector<std::size_t> mine;
    for (std::size_t i = 0; i < placement.entries.size(); ++i)
        if (placement.entries[i].task == task)
            mine.push_back(i);
    CpuAllocator allocator;
    ParameterServerReport report;
    double stalenessSum = 0;
    bool ready = false;
    std::vector<int> waiting;     // workers that pulled before the chief's INIT
    std::optional<int> finalPull; // the chief's last pull, answered once the others are done
    std::set<int> done;
    auto stepNow = [&]() -> Expected<std::int64_t> { return training::fetchInt64(session, prepared.globalStep); };
    auto answerPull = [&](int worker) -> Status {
        Message reply;
        reply.set_kind(Message::VALUES);
        auto step = stepNow();
        if (!step)
            return step.error();
        reply.set_global_step(*step);
        if (Status s = addValues(session, placement, mine, reply); !s.isOk()) {
            reply.Clear();
            reply.set_kind(Message::ERROR);
            reply.set_error(s.toString());
        }
        return sendMessage(worker, reply);
    };
    while (static_cast<int>(done.size()) < layout.workers()) {
        auto received = receiveMessage(MpiContext::kAnySource);
        if (!received)
            return unexpected(received.error());
        const auto& [worker, m] = *received;
        Status sent = Status::ok();
        switch (m.kind()) {
        case Message::INIT: {
            if (Status s = assignValues(session, placement, m, allocator); !s.isOk())
                return unexpected(s.withContext("ps task " + std::to_string(task) + " taking the chief's variables"));
            ready = true;
            for (int w : waiting)
                if (sent = answerPull(w); !sent.isOk())
                    break;
            waiting.clear();
            break;
        }
        case Message::PULL:
            if (m.global_step() < 0)
                finalPull = worker;
            else if (!ready)
                waiting.push_back(worker);
            else
                sent = answerPull(worker);
            break;
        case Message::PUSH: {
            Message reply;
            std::vector<std::pair<std::string, Tensor>> feeds;
            Status applied = Status::ok();
            for (int k = 0; k < m.names_size() && applied.isOk(); ++k) {
                auto value = Tensor::fromProto(allocator, m.tensors(k));
                if (!value)
                    applied = value.error().withContext("gradient '" + m.names(k) + "'");
                else
                    feeds.emplace_back(m.names(k), std::move(*value));
            }
            if (applied.isOk())
                applied = session.run(feeds, {}, {prepared.trainOp}, nullptr);
            auto after = applied.isOk() ? stepNow() : Expected<std::int64_t>(unexpected(applied));
            if (!after) {
                reply.set_kind(Message::ERROR);
                reply.set_error(after.error().toString());
            } else {
                reply.set_kind(Message::APPLIED);
                reply.set_global_step(*after);
                // The update is one step (apply_gradients increments the global step by 1): the
                // updates applied since the pull are those before it.
                const std::int64_t staleness = std::max<std::int64_t>(*after - 1 - m.global_step(), 0);
                reply.set_staleness(staleness);
                ++report.updates;
                stalenessSum += static_cast<double>(staleness);
                report.maxStaleness = std::max(report.maxStaleness, staleness);
            }
            sent = sendMessage(worker, reply);
            break;
        }
        case Message::DONE: done.insert(worker); break;
        default:
            return unexpected(internalError("ps task " + std::to_string(task) + ": rank " + std::to_string(worker) +
                                            " sent message kind " + std::to_string(m.kind())));
        }
        if (!sent.isOk())
            return unexpected(sent);
        // The chief's last pull waits for the other workers.
        if (finalPull && static_cast<int>(done.size()) >= layout.workers() - 1) {
            if (Status s = answerPull(*finalPull); !s.isOk())
                return unexpected(s);
            finalPull.reset();
        }
    }
    auto last = stepNow();
    if (!last)
        return unexpected(last.error());
    report.lastStep = *last;
    report.meanStaleness = report.updates > 0 ? stalenessSum / static_cast<double>(report.updates) : 0.0;
    return report;
}

} // namespace tstudio::project
