// GraphFacts: per-node checks against the op registry, a topological order and cycle search of our own
// (so that broken graphs still get facts), shape inference, kernel lookup and placement.
#include "graph_viewer/graph_facts.h"

#include "runtime/local_devices.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "graph/graph.h"
#include "function/shape_refiner.h"
#include "graph/tensor_id.h"
#include "registries/default_registries.h"
#include "runtime/kernel_constant_evaluator.h"
#include "runtime/placer.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

namespace tstudio::graph_viewer {
namespace {

constexpr int kCancelCheckInterval = 256;
/// Cycles named one by one in GraphFacts::problems; the rest are counted.
constexpr std::size_t kMaxCyclesNamed = 10;
constexpr const char* kOnCycle = "on a cycle that does not pass through a NextIteration node";

/// One data or control input of a node, resolved to a node index.
struct InputEdge {
    int src = -1; ///< -1 when the input names no node (or does not parse)
    int srcOutput = 0;
    bool control = false;
};

bool isCancelled(const std::atomic<bool>* cancelled)
{
    return cancelled != nullptr && cancelled->load(std::memory_order_relaxed);
}

void addProblem(NodeFacts& facts, const std::string& problem)
{
    if (!facts.problem.empty())
        facts.problem += "; ";
    facts.problem += problem;
}

/// The node's type attrs as the kernel registry prints requested attributes: "T=DT_INT8, Tidx=DT_INT32".
std::string typeAttrs(const tensorflow::NodeDef& node)
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : node.attr())
        if (!key.empty() && key[0] != '_' && value.value_case() == tensorflow::AttrValue::kType)
            keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::string out;
    for (const std::string& key : keys)
        out += (out.empty() ? "" : ", ") + key + "=" + tensorflow::DataType_Name(node.attr().at(key).type());
    return out;
}

/// Works on the facts of one graph; the steps run in the order computeGraphFacts calls them.
class FactsBuilder {
public:
    FactsBuilder(const tensorflow::GraphDef& graph, const Registries& registries, const std::atomic<bool>* cancelled)
        : m_source(graph), m_registries(registries), m_cancelled(cancelled), m_n(graph.node_size())
    {
        m_facts.nodes.resize(static_cast<std::size_t>(m_n));
        m_registration.assign(static_cast<std::size_t>(m_n), nullptr);
        m_valid.assign(static_cast<std::size_t>(m_n), false);
        m_inputs.resize(static_cast<std::size_t>(m_n));
    }

    GraphFacts run()
    {
        if (!checkNodes() || !resolveInputs() || !orderNodes())
            return cancelledFacts();
        if (!inferShapes())
            return cancelledFacts();
        applyOutputShapesAttr();
        checkKernels();
        return std::move(m_facts);
    }

private:
    GraphFacts cancelledFacts()
    {
        m_facts.cancelled = true;
        return std::move(m_facts);
    }

    bool pollCancelled(int i) const { return i % kCancelCheckInterval == 0 && isCancelled(m_cancelled); }

    NodeFacts& facts(int i) { return m_facts.nodes[static_cast<std::size_t>(i)]; }
    const tensorflow::NodeDef& node(int i) const { return m_graph ? m_graph->node(i) : m_completed.node(i); }

    /// Op lookup, default attrs, NodeDef validation and output dtypes.
    bool checkNodes()
    {
        m_completed = m_source;
        for (int i = 0; i < m_n; ++i) {
            if (pollCancelled(i))
                return false;
            tensorflow::NodeDef* def = m_completed.mutable_node(i);
            NodeFacts& f = facts(i);
            auto registration = m_registries.ops.lookUp(def->op());
            if (!registration) {
                addProblem(f, registration.error().message());
                continue;
            }
            m_registration[static_cast<std::size_t>(i)] = *registration;
            addDefaultAttrs((*registration)->opDef, def);
            if (Status s = validateNodeDef((*registration)->opDef, *def); !s.isOk()) {
                addProblem(f, s.message());
                continue;
            }
            auto types = outputTypesForNode((*registration)->opDef, *def);
            if (!types) {
                addProblem(f, types.error().message());
                continue;
            }
            m_valid[static_cast<std::size_t>(i)] = true;
            f.outputs.resize(types->size());
            for (std::size_t k = 0; k < types->size(); ++k)
                f.outputs[k].dtype = (*types)[k];
        }
        return true;
    }

    /// Node names, then every input resolved to a node index; names and inputs the Graph would reject
    /// become problems here.
    bool resolveInputs()
    {
        std::unordered_map<std::string_view, int> byName;
        byName.reserve(static_cast<std::size_t>(m_n));
        for (int i = 0; i < m_n; ++i) {
            const std::string& name = m_source.node(i).name();
            if (!isValidNodeName(name)) {
                addProblem(facts(i), "invalid name, expected [A-Za-z0-9.][A-Za-z0-9_.\\-/>]*");
                m_structural = true;
            }
            if (!byName.emplace(name, i).second) {
                addProblem(facts(i), "Node '" + name + "' is not unique: the graph has two nodes with this name");
                m_structural = true;
            }
        }
        for (int i = 0; i < m_n; ++i) {
            if (pollCancelled(i))
                return false;
            const tensorflow::NodeDef& def = m_source.node(i);
            auto& inputs = m_inputs[static_cast<std::size_t>(i)];
            inputs.reserve(static_cast<std::size_t>(def.input_size()));
            for (const std::string& text : def.input()) {
                InputEdge edge;
                auto parsed = parseTensorId(text);
                if (!parsed) {
                    addProblem(facts(i), parsed.error().message());
                    m_structural = true;
                } else {
                    edge.control = parsed->isControl();
                    edge.srcOutput = parsed->index;
                    const auto it = byName.find(parsed->node);
                    if (it == byName.end()) {
                        addProblem(facts(i), "Unknown input node '" + text + "'");
                        m_structural = true;
                    } else {
                        edge.src = it->second;
                    }
                }
                inputs.push_back(edge);
            }
        }
        return true;
    }

    bool isBackEdge(int src) const { return isNextIterationOp(m_source.node(src).op()); }

    /// A topological order over the edges that resolve (NextIteration back edges left out, ties by
    /// GraphDef position, as Graph sorts); nodes on cycles, and those after them, are ordered by the
    /// strongly connected components of what remains, and each cycle is reported.
    bool orderNodes()
    {
        std::vector<std::vector<int>> consumers(static_cast<std::size_t>(m_n));
        std::vector<int> pending(static_cast<std::size_t>(m_n), 0);
        for (int i = 0; i < m_n; ++i) {
            for (const InputEdge& e : m_inputs[static_cast<std::size_t>(i)]) {
                if (e.src < 0 || isBackEdge(e.src))
                    continue;
                consumers[static_cast<std::size_t>(e.src)].push_back(i);
                ++pending[static_cast<std::size_t>(i)];
            }
        }
        std::priority_queue<int, std::vector<int>, std::greater<>> ready;
        for (int i = 0; i < m_n; ++i)
            if (pending[static_cast<std::size_t>(i)] == 0)
                ready.push(i);
        m_order.reserve(static_cast<std::size_t>(m_n));
        while (!ready.empty()) {
            const int id = ready.top();
            ready.pop();
            m_order.push_back(id);
            if (pollCancelled(static_cast<int>(m_order.size())))
                return false;
            for (int c : consumers[static_cast<std::size_t>(id)])
                if (--pending[static_cast<std::size_t>(c)] == 0)
                    ready.push(c);
        }
        if (static_cast<int>(m_order.size()) == m_n)
            return true;
        m_structural = true;
        orderRemainder(consumers, pending);
        return !isCancelled(m_cancelled);
    }

    /// Tarjan's strongly connected components over the nodes left unordered (iteratively: graphs can be
    /// deep). Components come out consumers first, so they are appended in reverse.
    void orderRemainder(const std::vector<std::vector<int>>& consumers, const std::vector<int>& pending)
    {
        const auto n = static_cast<std::size_t>(m_n);
        auto left = [&pending](int v) { return pending[static_cast<std::size_t>(v)] > 0; };
        std::vector<int> index(n, -1), low(n, 0);
        std::vector<char> onStack(n, 0);
        std::vector<int> stack;
        std::vector<std::vector<int>> components;
        int counter = 0;
        struct Frame {
            int v;
            std::size_t next;
        };
        std::vector<Frame> frames;
        for (int root = 0; root < m_n; ++root) {
            if (!left(root) || index[static_cast<std::size_t>(root)] >= 0)
                continue;
            frames.push_back({root, 0});
            index[static_cast<std::size_t>(root)] = low[static_cast<std::size_t>(root)] = counter++;
            stack.push_back(root);
            onStack[static_cast<std::size_t>(root)] = 1;
            while (!frames.empty()) {
                Frame& frame = frames.back();
                const auto v = static_cast<std::size_t>(frame.v);
                const auto& out = consumers[v];
                if (frame.next < out.size()) {
                    const int w = out[frame.next++];
                    const auto wi = static_cast<std::size_t>(w);
                    if (!left(w))
                        continue;
                    if (index[wi] < 0) {
                        index[wi] = low[wi] = counter++;
                        stack.push_back(w);
                        onStack[wi] = 1;
                        frames.push_back({w, 0});
                    } else if (onStack[wi]) {
                        low[v] = std::min(low[v], index[wi]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    std::vector<int> component;
                    int w;
                    do {
                        w = stack.back();
                        stack.pop_back();
                        onStack[static_cast<std::size_t>(w)] = 0;
                        component.push_back(w);
                    } while (w != frame.v);
                    std::sort(component.begin(), component.end());
                    components.push_back(std::move(component));
                }
                const int done = frame.v;
                frames.pop_back();
                if (!frames.empty()) {
                    const auto parent = static_cast<std::size_t>(frames.back().v);
                    low[parent] = std::min(low[parent], low[static_cast<std::size_t>(done)]);
                }
            }
        }
        std::size_t cycles = 0;
        for (auto it = components.rbegin(); it != components.rend(); ++it) {
            const std::vector<int>& component = *it;
            const bool selfLoop = component.size() == 1 &&
                                  std::find(consumers[static_cast<std::size_t>(component[0])].begin(),
                                            consumers[static_cast<std::size_t>(component[0])].end(),
                                            component[0]) != consumers[static_cast<std::size_t>(component[0])].end();
            if (component.size() > 1 || selfLoop) {
                for (int v : component)
                    addProblem(facts(v), kOnCycle);
                if (cycles++ < kMaxCyclesNamed)
                    m_facts.problems.push_back(describeCycle(component, consumers));
            }
            m_order.insert(m_order.end(), component.begin(), component.end());
        }
        if (cycles > kMaxCyclesNamed)
            m_facts.problems.push_back(std::to_string(cycles - kMaxCyclesNamed) + " more cycles not listed");
    }

    /// "Graph has a cycle that does not pass through a NextIteration node: 'a' -> 'b' -> 'a'": the
    /// shortest cycle through the component's first node (breadth-first within the component).
    std::string describeCycle(const std::vector<int>& component, const std::vector<std::vector<int>>& consumers) const
    {
        const int start = component.front();
        std::unordered_map<int, int> parent; // visited node -> the node it was reached from
        std::queue<int> queue;
        queue.push(start);
        parent[start] = -1;
        int last = -1;
        while (!queue.empty() && last < 0) {
            const int v = queue.front();
            queue.pop();
            for (int w : consumers[static_cast<std::size_t>(v)]) {
                if (w == start) {
                    last = v;
                    break;
                }
                if (!std::binary_search(component.begin(), component.end(), w) || parent.count(w))
                    continue;
                parent[w] = v;
                queue.push(w);
            }
        }
        std::vector<int> path;
        for (int v = last; v >= 0; v = parent.at(v))
            path.push_back(v);
        std::reverse(path.begin(), path.end());
        std::string text = "Graph has a cycle that does not pass through a NextIteration node: ";
        for (int v : path)
            text += "'" + m_source.node(v).name() + "' -> ";
        return text + "'" + m_source.node(start).name() + "'";
    }

    bool allValid() const
    {
        return std::all_of(m_valid.begin(), m_valid.end(), [](bool v) { return v; });
    }

    /// The engine's whole-graph inference (and placement) when the GraphDef makes a valid Graph; node by
    /// node in our own order otherwise.
    bool inferShapes()
    {
        KernelConstantEvaluator evaluator(m_registries.ops, m_registries.kernels);
        ShapeRefinerOptions options;
        options.evaluator = evaluator.function();
        if (!m_structural) {
            auto graph = Graph::fromGraphDef(std::move(m_completed));
            if (graph) {
                m_graph.emplace(std::move(*graph));
            } else {
                // Something our own checks let through; the node-by-node path copes with it.
                m_facts.problems.push_back(graph.error().message());
                m_completed = completedAgain();
            }
        }
        if (isCancelled(m_cancelled))
            return false;
        if (m_graph) {
            auto shapes = inferGraphShapes(*m_graph, m_registries.ops, evaluator.allocator(), options);
            if (shapes) {
                for (const NodeShapeError& error : shapes->errors())
                    if (m_valid[static_cast<std::size_t>(error.node)] && !isMissingShapeFunction(error.status))
                        addProblem(facts(error.node), error.status.message());
                for (int i = 0; i < m_n; ++i)
                    copyShapes(i, shapes->outputs(i));
            }
            if (isCancelled(m_cancelled))
                return false;
            place();
            return true;
        }
        std::vector<std::vector<InferredOutput>> inferred(static_cast<std::size_t>(m_n));
        std::vector<char> done(static_cast<std::size_t>(m_n), 0);
        int count = 0;
        for (int i : m_order) {
            if (pollCancelled(++count))
                return false;
            const auto ui = static_cast<std::size_t>(i);
            if (!m_valid[ui])
                continue;
            std::vector<const InferredOutput*> inputs;
            for (const InputEdge& e : m_inputs[ui]) {
                if (e.control)
                    continue;
                const InferredOutput* known = nullptr;
                if (e.src >= 0 && done[static_cast<std::size_t>(e.src)]) {
                    const auto& outs = inferred[static_cast<std::size_t>(e.src)];
                    if (e.srcOutput >= 0 && static_cast<std::size_t>(e.srcOutput) < outs.size())
                        known = &outs[static_cast<std::size_t>(e.srcOutput)];
                }
                inputs.push_back(known);
            }
            auto outputs =
                inferNodeOutputs(m_completed.node(i), *m_registration[ui], inputs, evaluator.allocator(), options);
            if (!outputs) {
                if (!isMissingShapeFunction(outputs.error()))
                    addProblem(facts(i), outputs.error().message());
                continue;
            }
            copyShapes(i, *outputs);
            inferred[ui] = std::move(*outputs);
            done[ui] = 1;
        }
        return true;
    }

    /// The GraphDef with defaults filled again, after a failed Graph construction consumed it.
    tensorflow::GraphDef completedAgain() const
    {
        tensorflow::GraphDef copy = m_source;
        for (int i = 0; i < m_n; ++i)
            if (const OpRegistration* registration = m_registration[static_cast<std::size_t>(i)])
                addDefaultAttrs(registration->opDef, copy.mutable_node(i));
        return copy;
    }

    /// An op without a shape function is a gap of this engine, not of the graph: its outputs stay unknown.
    static bool isMissingShapeFunction(const Status& status)
    {
        return status.code() == StatusCode::kUnimplemented &&
               status.message().find("has no shape function") != std::string::npos;
    }

    void copyShapes(int i, const std::vector<InferredOutput>& outputs)
    {
        auto& facts = m_facts.nodes[static_cast<std::size_t>(i)].outputs;
        for (std::size_t k = 0; k < outputs.size() && k < facts.size(); ++k)
            facts[k].shape = outputs[k].shape;
    }

    /// Where a session on this machine would put each node: its CPU and GPUs (GPU:0 first for the
    /// ops with GPU kernels, as TensorFlow), with soft placement as tstudio's sessions use.
    void place()
    {
        const std::vector<PlacementDevice> devices = localPlacementDevices();
        PlacementOptions options;
        options.allowSoftPlacement = true;
        auto placement = placeGraph(*m_graph, m_registries.ops, m_registries.kernels, devices, options);
        if (!placement) {
            // With an unknown op or an invalid node the placer's complaint repeats a node's problem.
            if (allValid())
                m_facts.problems.push_back("the graph cannot be placed: " + placement.error().message());
            return;
        }
        // A node that is not valid for its op (or has none) could not run: it has no placement to show.
        for (int i = 0; i < m_n; ++i)
            if (const int d = (*placement)[static_cast<std::size_t>(i)]; m_valid[static_cast<std::size_t>(i)] && d >= 0)
                facts(i).placedDevice = devices[static_cast<std::size_t>(d)].name;
    }

    /// `_output_shapes` (written by TensorFlow with the graph) replaces what inference found.
    void applyOutputShapesAttr()
    {
        for (int i = 0; i < m_n; ++i) {
            NodeFacts& f = facts(i);
            const auto& attrs = m_source.node(i).attr();
            const auto it = attrs.find("_output_shapes");
            if (it != attrs.end() && it->second.has_list()) {
                const auto& shapes = it->second.list().shape();
                // An unknown op has no OpDef to count its outputs: the attr does.
                if (!m_valid[static_cast<std::size_t>(i)] && f.outputs.size() < static_cast<std::size_t>(shapes.size()))
                    f.outputs.resize(static_cast<std::size_t>(shapes.size()));
                for (int k = 0; k < shapes.size() && static_cast<std::size_t>(k) < f.outputs.size(); ++k)
                    if (auto shape = TensorShape::fromProto(shapes.Get(k)))
                        f.outputs[static_cast<std::size_t>(k)].shape = std::move(*shape);
            }
            for (OutputFact& out : f.outputs) {
                out.shapeKnown = !out.shape.isUnknownRank();
                out.elements = -1;
                if (out.shape.isFullyDefined())
                    if (auto elements = out.shape.numElements())
                        out.elements = *elements;
            }
        }
    }

    void checkKernels()
    {
        for (int i = 0; i < m_n; ++i) {
            NodeFacts& f = facts(i);
            if (!m_valid[static_cast<std::size_t>(i)]) {
                f.runnable = false;
                continue;
            }
            const tensorflow::NodeDef& def = node(i);
            f.runnable = m_registries.kernels.supports(def, "CPU");
            if (!f.runnable) {
                const std::string attrs = typeAttrs(def);
                addProblem(f, "not runnable here: no CPU kernel for op " + def.op() +
                                  (attrs.empty() ? "" : " with " + attrs));
            }
        }
    }

    const tensorflow::GraphDef& m_source;
    const Registries& m_registries;
    const std::atomic<bool>* m_cancelled;
    const int m_n;
    GraphFacts m_facts;
    tensorflow::GraphDef m_completed; ///< m_source with default attrs filled in (moved into m_graph when valid)
    std::optional<Graph> m_graph;
    std::vector<const OpRegistration*> m_registration;
    std::vector<bool> m_valid; ///< the op is known, the NodeDef valid and its output dtypes known
    std::vector<std::vector<InputEdge>> m_inputs;
    std::vector<int> m_order;
    bool m_structural = false; ///< a problem that stops Graph construction (names, inputs, cycles)
};

} // namespace

GraphFacts computeGraphFacts(const tensorflow::GraphDef& graph, const Registries& registries,
                             const std::atomic<bool>* cancelled)
{
    return FactsBuilder(graph, registries, cancelled).run();
}

} // namespace tstudio::graph_viewer
