// InteractiveSession (interactive_session.h): the document built, diffed against what the Session
// holds, extended, and run.
#include "node_editor/interactive_session.h"

#include "builder/learning_phase.h"
#include "core/ascii_text.h"
#include "framework/allocator.h"
#include "graph/tensor_id.h"
#include "node_editor/document_builder.h"
#include "node_editor/node_evaluation.h"
#include "registries/default_registries.h"
#include "runtime/execution_observer.h"
#include "runtime/session.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace tstudio::node_editor {

namespace {

bool isVariableOp(const std::string& op)
{
    return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

/// The node that assigns a new variable its initial value: "<var>/Assign" as tf.Variable names it,
/// else any Assign / AssignVariableOp writing it.
std::optional<std::string> initializerOf(const tensorflow::GraphDef& graph, const std::string& variable)
{
    const std::string conventional = variable + "/Assign";
    for (const auto& n : graph.node())
        if (n.name() == conventional)
            return n.name();
    for (const auto& n : graph.node())
        if ((n.op() == "Assign" || n.op() == "AssignVariableOp") && n.input_size() > 0 && n.input(0) == variable)
            return n.name();
    return std::nullopt;
}

/// The numbers of a feed's text, counted as parseFeedText reads them (commas and brackets separate).
std::int64_t countNumbers(const std::string& text)
{
    std::string cleaned = text;
    for (char& c : cleaned)
        if (c == ',' || c == '[' || c == ']')
            c = ' ';
    std::istringstream in(cleaned);
    std::int64_t n = 0;
    for (std::string word; in >> word;)
        ++n;
    return n;
}

} // namespace

Expected<ConsoleRequest> parseConsoleLine(std::string_view line)
{
    ConsoleRequest request;
    std::string text(trimAsciiSpace(line));
    std::string feedsText;
    // " with " splits the fetches from the feeds.
    if (const auto at = text.find(" with "); at != std::string::npos) {
        feedsText = text.substr(at + 6);
        text.erase(at);
    }
    std::istringstream fetches(text);
    for (std::string item; std::getline(fetches, item, ',');) {
        const std::string name(trimAsciiSpace(item));
        if (name.empty())
            return unexpected(invalidArgumentError("an empty name among the fetches: write 'x, y'"));
        request.fetches.push_back(name);
    }
    if (request.fetches.empty())
        return unexpected(invalidArgumentError("nothing to evaluate: type a tensor or an operation, e.g. 'loss' or "
                                               "'logits with x=random'"));
    std::istringstream feeds(feedsText);
    for (std::string item; std::getline(feeds, item, ';');) {
        const std::string feed(trimAsciiSpace(item));
        if (feed.empty())
            continue;
        const auto eq = feed.find('=');
        if (eq == std::string::npos)
            return unexpected(invalidArgumentError("feed '" + feed + "' has no '=': write NAME=VALUE"));
        ConsoleFeed parsed;
        std::string name(trimAsciiSpace(std::string_view(feed).substr(0, eq)));
        parsed.text = std::string(trimAsciiSpace(std::string_view(feed).substr(eq + 1)));
        if (const auto open = name.find('['); open != std::string::npos) {
            if (name.back() != ']')
                return unexpected(invalidArgumentError("feed '" + name + "': a shape is written [2,3] after the name"));
            auto shape = parseFeedShape(std::string_view(name).substr(open + 1, name.size() - open - 2));
            if (!shape)
                return unexpected(invalidArgumentError("feed '" + name + "': " + shape.error().message()));
            parsed.shape = *shape;
            name = std::string(trimAsciiSpace(std::string_view(name).substr(0, open)));
        }
        if (name.empty())
            return unexpected(invalidArgumentError("feed '" + feed + "' has no name"));
        parsed.name = name;
        request.feeds.push_back(std::move(parsed));
    }
    return request;
}

struct InteractiveSession::Synced {
    DocumentBuild build;
    SyncReport report;
};

InteractiveSession::InteractiveSession(const Registries& registries) : m_registries(registries) {}

InteractiveSession::~InteractiveSession()
{
    stopDebugged();
}

Status InteractiveSession::refuseWhileDebugging() const
{
    if (m_debugging.load())
        return failedPreconditionError(
            "A run under the debugger is in progress: continue or stop it in the Debugger tab");
    return Status::ok();
}

void InteractiveSession::stopDebugged()
{
    if (m_debugging.load() && m_cancelDebugged)
        m_cancelDebugged();
    if (m_debugThread.joinable())
        m_debugThread.join();
    // What the debuggers kept of the session's buffers and of the feeds goes before them.
    for (const std::weak_ptr<ExecutionObserver>& weak : m_observers)
        if (auto observer = weak.lock())
            observer->sessionClosing();
    m_observers.clear();
}

bool InteractiveSession::isOpen() const
{
    return m_session != nullptr;
}

void InteractiveSession::reset()
{
    stopDebugged();
    if (m_session)
        m_session->close();
    m_session.reset();
    m_sent.clear();
    m_outOfDate.clear();
    m_runs = 0;
}

Expected<InteractiveSession::Synced> InteractiveSession::bringUpToDate(const GraphDocument& document)
{
    if (Status s = refuseWhileDebugging(); !s.isOk())
        return unexpected(s);
    if (!m_outOfDate.empty())
        return unexpected(failedPreconditionError(m_outOfDate));
    Synced synced{buildDocument(document, m_registries.ops, true), {}};
    if (!synced.build.builder)
        return unexpected(invalidArgumentError("the graph does not build"));
    const tensorflow::GraphDef& graph = synced.build.builder->graphDef();

    if (!m_session) {
        SessionOptions options;
        options.ops = &m_registries.ops;
        options.kernels = &m_registries.kernels;
        auto session = std::make_unique<Session>(options);
        if (Status s = session->create(graph); !s.isOk())
            return unexpected(s);
        m_session = std::move(session);
        for (const auto& n : graph.node())
            m_sent.emplace(n.name(), n);
        synced.report.created = true;
        synced.report.added = graph.node_size();
        // The graph's "init" when it has one (tf.global_variables_initializer's name), else each
        // variable's own initializer: a document of layers has variables but no "init".
        std::vector<std::string> initializers;
        if (m_sent.count("init")) {
            initializers.push_back("init");
        } else {
            for (const auto& n : graph.node()) {
                if (!isVariableOp(n.op()))
                    continue;
                if (auto init = initializerOf(graph, n.name())) {
                    initializers.push_back(*init);
                    synced.report.initialized.push_back(n.name());
                }
            }
        }
        if (!initializers.empty()) {
            std::vector<Tensor> none;
            if (Status s = m_session->run({}, {}, initializers, &none); !s.isOk()) {
                reset();
                return unexpected(s);
            }
        }
        return synced;
    }

    tensorflow::GraphDef extension;
    *extension.mutable_versions() = graph.versions();
    *extension.mutable_library() = graph.library();
    std::vector<std::string> newVariables;
    for (const auto& n : graph.node()) {
        const auto sent = m_sent.find(n.name());
        if (sent == m_sent.end()) {
            *extension.add_node() = n;
            if (isVariableOp(n.op()))
                newVariables.push_back(n.name());
            continue;
        }
        if (n.op() == "NoOp" && sent->second.op() == "NoOp")
            continue;
        if (!google::protobuf::util::MessageDifferencer::Equals(sent->second, n)) {
            m_outOfDate = "The graph changed where the session cannot follow it: node '" + n.name() +
                          "' is not the node the session holds. Re-initialise the session to start again from "
                          "the variables' initial values.";
            return unexpected(failedPreconditionError(m_outOfDate));
        }
    }
    if (extension.node_size() > 0) {
        if (Status s = m_session->extend(extension); !s.isOk())
            return unexpected(s);
        for (const auto& n : extension.node())
            m_sent.emplace(n.name(), n);
        synced.report.added = extension.node_size();
        std::vector<std::string> initializers;
        for (const std::string& variable : newVariables) {
            if (auto init = initializerOf(graph, variable)) {
                initializers.push_back(*init);
                synced.report.initialized.push_back(variable);
            }
        }
        if (!initializers.empty()) {
            std::vector<Tensor> none;
            if (Status s = m_session->run({}, {}, initializers, &none); !s.isOk())
                return unexpected(s);
        }
    }
    return synced;
}

Expected<InteractiveSession::SyncReport> InteractiveSession::sync(const GraphDocument& document)
{
    auto synced = bringUpToDate(document);
    if (!synced)
        return unexpected(synced.error());
    return synced->report;
}

Expected<std::vector<Tensor>> InteractiveSession::runSession(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                                             const std::vector<std::string>& fetches,
                                                             const std::vector<std::string>& targets,
                                                             ExecutionObserver* observer)
{
    // The learning phase is fed false (inference), as the editor's evaluations always did, unless fed.
    std::vector<std::pair<std::string, Tensor>> all = feeds;
    tensorflow::GraphDef held;
    if (m_sent.count("learning_phase"))
        *held.add_node() = m_sent.at("learning_phase");
    auto phase = learningPhaseFeeds(held, false, m_allocator);
    if (!phase)
        return unexpected(phase.error());
    for (const auto& [name, value] : *phase) {
        const bool fed = std::any_of(feeds.begin(), feeds.end(),
                                     [&, &n = name](const auto& f) { return f.first == n || f.first + ":0" == n; });
        if (!fed)
            all.emplace_back(name, value);
    }
    std::vector<Tensor> out;
    if (Status s = m_session->run(all, fetches, targets, &out, observer); !s.isOk())
        return unexpected(s);
    ++m_runs;
    return out;
}

Expected<InteractiveSession::RunReport> InteractiveSession::run(const GraphDocument& document,
                                                                const ConsoleRequest& request)
{
    auto prepared = prepare(document, request);
    if (!prepared)
        return unexpected(prepared.error());
    return finish(std::move(*prepared), nullptr);
}

Expected<std::shared_ptr<const tensorflow::GraphDef>>
InteractiveSession::startDebugged(const GraphDocument& document, const ConsoleRequest& request,
                                  std::shared_ptr<ExecutionObserver> observer, std::function<void()> cancel,
                                  std::function<void(Expected<RunReport>)> done)
{
    if (!observer)
        return unexpected(invalidArgumentError("a run under the debugger needs its observer"));
    auto prepared = prepare(document, request);
    if (!prepared)
        return unexpected(prepared.error());
    if (m_debugThread.joinable()) // the last one has ended (prepare refuses otherwise)
        m_debugThread.join();
    auto graph = prepared->graph;
    m_cancelDebugged = std::move(cancel);
    m_debugging.store(true);
    m_observers.push_back(observer);
    m_debugThread = std::thread([this, run = std::move(*prepared), observer, done = std::move(done)]() mutable {
        auto report = finish(std::move(run), observer.get());
        m_debugging.store(false); // before `done`, which may hand the session its next request
        done(std::move(report));
    });
    return graph;
}

Expected<InteractiveSession::Prepared> InteractiveSession::prepare(const GraphDocument& document,
                                                                   const ConsoleRequest& request)
{
    auto synced = bringUpToDate(document);
    if (!synced)
        return unexpected(synced.error());
    GraphBuilder& b = *synced->build.builder;
    Prepared prepared;
    prepared.graph = std::make_shared<const tensorflow::GraphDef>(b.graphDef());
    RunReport& report = prepared.report;
    report.sync = synced->report;
    std::vector<std::string>& fetches = prepared.fetches;
    for (const std::string& fetch : request.fetches) {
        auto id = parseTensorId(fetch);
        if (!id)
            return unexpected(invalidArgumentError("'" + fetch + "' is not a tensor or operation name"));
        auto op = b.operation(id->node);
        if (!op)
            return unexpected(notFoundError("The name '" + fetch + "' refers to an operation or tensor which does not "
                                            "exist. The operation, '" + id->node + "', does not exist in the graph."));
        const bool indexed = fetch.find(':') != std::string::npos;
        if (!indexed && op->outputs().empty()) {
            report.targets.push_back(id->node);
            continue;
        }
        if (id->index < 0 || id->index >= static_cast<int>(op->outputs().size()))
            return unexpected(invalidArgumentError("The name '" + fetch + "' refers to a tensor which does not " +
                                                   "exist: '" + id->node + "' has " +
                                                   std::to_string(op->outputs().size()) + " outputs."));
        fetches.push_back(id->node + ":" + std::to_string(id->index));
    }

    std::vector<std::pair<std::string, Tensor>>& feeds = prepared.feeds;
    for (const ConsoleFeed& feed : request.feeds) {
        auto tensor = b.tensor(feed.name);
        if (!tensor)
            return unexpected(notFoundError("feed '" + feed.name + "': no such tensor in the graph"));
        TensorShape shape = feed.shape ? *feed.shape : tensor->shape();
        if (!shape.isFullyDefined() && !shape.isUnknownRank()) {
            // One unknown dimension is taken from the count of numbers given.
            std::int64_t known = 1;
            int unknown = 0;
            for (int d = 0; d < shape.rank(); ++d) {
                if (shape.dim(d) < 0)
                    ++unknown;
                else
                    known *= shape.dim(d);
            }
            const std::int64_t count = countNumbers(feed.text);
            const bool numeric = feed.text.find_first_of("0123456789") != std::string::npos &&
                                 feed.text.find(".npy") == std::string::npos;
            if (unknown == 1 && numeric && known > 0 && count % known == 0) {
                std::vector<std::int64_t> dims;
                for (int d = 0; d < shape.rank(); ++d)
                    dims.push_back(shape.dim(d) < 0 ? count / known : shape.dim(d));
                shape = TensorShape(dims);
            }
        }
        if (!shape.isFullyDefined())
            return unexpected(invalidArgumentError("feed '" + feed.name + "' has shape " + shape.toString() +
                                                   ": give its shape, e.g. " + feed.name + "[2,784]=random"));
        auto value = parseFeedText(feed.text, tensor->baseDtype(), shape, m_allocator);
        if (!value)
            return unexpected(invalidArgumentError("feed '" + feed.name + "': " + value.error().message()));
        feeds.emplace_back(feed.name, std::move(*value));
    }
    return prepared;
}

Expected<InteractiveSession::RunReport> InteractiveSession::finish(Prepared prepared, ExecutionObserver* observer)
{
    auto out = runSession(prepared.feeds, prepared.fetches, prepared.report.targets, observer);
    if (!out)
        return unexpected(out.error());
    RunReport report = std::move(prepared.report);
    for (std::size_t i = 0; i < prepared.fetches.size(); ++i)
        report.values.push_back({prepared.fetches[i], (*out)[i]});
    return report;
}

Expected<std::vector<Tensor>> InteractiveSession::evaluate(const GraphDocument& document, DocNodeId id,
                                                           const std::vector<std::pair<std::string, Tensor>>& feeds)
{
    const DocNode* node = document.node(id);
    if (!node)
        return unexpected(notFoundError("no such node"));
    auto synced = bringUpToDate(document);
    if (!synced)
        return unexpected(synced.error());
    const auto problem = synced->build.problems.find(id);
    if (problem != synced->build.problems.end())
        return unexpected(invalidArgumentError("node '" + node->name + "' cannot be evaluated: " + problem->second));
    const auto tensors = synced->build.tensors.find(id);
    if (tensors == synced->build.tensors.end())
        return unexpected(invalidArgumentError("node '" + node->name + "' was not built"));
    // The caller's feeds may come from an allocator that dies before this session (a dialog's):
    // the session runs on copies in its own.
    std::vector<std::pair<std::string, Tensor>> owned;
    for (const auto& [name, value] : feeds) {
        auto copy = value.deepCopy(m_allocator);
        if (!copy)
            return unexpected(copy.error());
        owned.emplace_back(name, std::move(*copy));
    }
    return runSession(owned, tensors->second, {});
}

} // namespace tstudio::node_editor
