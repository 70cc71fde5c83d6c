// buildDocument: a GraphDocument built node by node into one GraphBuilder (raw ops through op(), layer
// nodes through the layer catalogue), and the GraphDef / MetaGraphDef export on top of it.
#include "node_editor/document_builder.h"

#include "builder/variables.h"
#include "framework/op_registry.h"
#include "layers/data_source_nodes.h"
#include "layers/layer_catalog.h"
#include "model/meta_graph.h"
#include "model/saver_graph.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <set>

namespace tstudio {
namespace {

constexpr int kMaxVariadicPorts = 1024;

/// A data input whose source was not built yet when its consumer was (a back edge of a cycle).
struct PendingInput {
    DocNodeId node = kNoNode;
    int slot = 0;
    int flatIndex = 0;
    DocNodeId source = kNoNode;
    int output = 0;
};

/// A control input whose source was not built yet.
struct PendingControl {
    DocNodeId node = kNoNode;
    DocNodeId source = kNoNode;
};

/// The length of list argument `arg` as the node's attrs (then the OpDef's default, then its
/// minimum, then 1) give it; the same rule GraphDocument uses for its ports.
int listLength(const tensorflow::OpDef& def, const tensorflow::OpDef::ArgDef& arg,
               const std::map<std::string, tensorflow::AttrValue>& attrs)
{
    const bool isNumber = !arg.number_attr().empty();
    const std::string& name = isNumber ? arg.number_attr() : arg.type_list_attr();
    if (auto it = attrs.find(name); it != attrs.end()) {
        if (isNumber && it->second.value_case() == tensorflow::AttrValue::kI)
            return static_cast<int>(std::clamp<std::int64_t>(it->second.i(), 0, kMaxVariadicPorts));
        if (!isNumber && it->second.value_case() == tensorflow::AttrValue::kList)
            return it->second.list().type_size();
    }
    for (const auto& a : def.attr()) {
        if (a.name() != name)
            continue;
        if (a.has_default_value()) {
            if (isNumber && a.default_value().value_case() == tensorflow::AttrValue::kI)
                return static_cast<int>(std::clamp<std::int64_t>(a.default_value().i(), 0, kMaxVariadicPorts));
            if (!isNumber && a.default_value().value_case() == tensorflow::AttrValue::kList)
                return a.default_value().list().type_size();
        }
        if (a.has_minimum())
            return static_cast<int>(std::clamp<std::int64_t>(a.minimum(), 0, kMaxVariadicPorts));
    }
    return 1;
}

/// Builds one document; see buildDocument.
class DocumentBuilder {
public:
    DocumentBuilder(const GraphDocument& document, const OpRegistry& ops, bool allowIncomplete)
        : m_doc(document), m_ops(ops), m_allowIncomplete(allowIncomplete)
    {
        m_out.builder = std::make_unique<GraphBuilder>(ops);
    }

    DocumentBuild run()
    {
        const std::vector<DocNodeId> ids = m_doc.nodes();
        std::map<DocNodeId, int> waiting; // unbuilt sources per node (one per edge)
        for (DocNodeId id : ids) {
            const DocNode& n = *m_doc.node(id);
            int count = 0;
            for (const InputSlot& s : n.inputs) {
                if (s.isConnected() && m_doc.node(s.source)) {
                    m_consumers[s.source].push_back(id);
                    ++count;
                }
            }
            for (DocNodeId c : n.controlInputs) {
                if (m_doc.node(c)) {
                    m_consumers[c].push_back(id);
                    ++count;
                }
            }
            waiting[id] = count;
        }
        std::priority_queue<DocNodeId, std::vector<DocNodeId>, std::greater<>> ready;
        for (DocNodeId id : ids) {
            if (waiting[id] == 0)
                ready.push(id);
        }
        std::set<DocNodeId> remaining(ids.begin(), ids.end());
        std::optional<std::set<DocNodeId>> onCycle;
        while (!remaining.empty() && !stopped()) {
            DocNodeId next = kNoNode;
            if (!ready.empty()) {
                next = ready.top();
                ready.pop();
                if (!remaining.count(next))
                    continue;
            } else {
                // Only nodes on cycles or behind them are left: break a cycle at its lowest-id raw op
                // (a layer cannot take a stand-in input), else at its lowest-id node (which fails).
                if (!onCycle)
                    onCycle = cycleMembers();
                for (DocNodeId id : remaining) {
                    if (onCycle->count(id) && m_doc.node(id)->kind == NodeKind::kOp) {
                        next = id;
                        break;
                    }
                }
                for (auto it = remaining.begin(); it != remaining.end() && next == kNoNode; ++it) {
                    if (onCycle->count(*it))
                        next = *it;
                }
                if (next == kNoNode)
                    next = *remaining.begin(); // cannot happen for a finite graph; keeps the loop finite
            }
            remaining.erase(next);
            buildNode(next);
            for (DocNodeId consumer : m_consumers[next]) {
                if (remaining.count(consumer) && --waiting[consumer] == 0)
                    ready.push(consumer);
            }
        }
        if (!stopped())
            resolvePending();
        if (!stopped())
            checkBindings();
        return std::move(m_out);
    }

private:
    bool stopped() const { return !m_allowIncomplete && !m_out.problems.empty(); }
    bool isBuilt(DocNodeId id) const { return m_built.count(id) > 0; }
    bool hasProblem(DocNodeId id) const { return m_out.problems.count(id) > 0; }
    GraphBuilder& b() { return *m_out.builder; }

    void fail(DocNodeId id, std::string problem)
    {
        m_out.problems.emplace(id, std::move(problem));
        m_out.tensors.erase(id);
    }

    std::string nameOf(DocNodeId id) const
    {
        const DocNode* n = m_doc.node(id);
        return n ? n->name : "#" + std::to_string(id);
    }

    /// The nodes that lie on a cycle of data or control edges (Tarjan's components of more than one
    /// node, or a node feeding itself), found iteratively so that long chains cannot overflow the stack.
    std::set<DocNodeId> cycleMembers() const
    {
        std::map<DocNodeId, int> index, low;
        std::set<DocNodeId> onStack, result;
        std::vector<DocNodeId> stack;
        int counter = 0;
        static const std::vector<DocNodeId> kNone;
        auto consumersOf = [&](DocNodeId id) -> const std::vector<DocNodeId>& {
            auto it = m_consumers.find(id);
            return it == m_consumers.end() ? kNone : it->second;
        };
        for (DocNodeId root : m_doc.nodes()) {
            if (index.count(root))
                continue;
            std::vector<std::pair<DocNodeId, std::size_t>> frames{{root, 0}};
            index[root] = low[root] = counter++;
            stack.push_back(root);
            onStack.insert(root);
            while (!frames.empty()) {
                auto& [v, next] = frames.back();
                const std::vector<DocNodeId>& out = consumersOf(v);
                if (next < out.size()) {
                    const DocNodeId w = out[next++];
                    if (w == v)
                        result.insert(v);
                    if (!index.count(w)) {
                        index[w] = low[w] = counter++;
                        stack.push_back(w);
                        onStack.insert(w);
                        frames.emplace_back(w, 0);
                    } else if (onStack.count(w)) {
                        low[v] = std::min(low[v], index[w]);
                    }
                    continue;
                }
                const DocNodeId done = v;
                frames.pop_back();
                if (!frames.empty())
                    low[frames.back().first] = std::min(low[frames.back().first], low[done]);
                if (low[done] == index[done]) {
                    std::vector<DocNodeId> component;
                    DocNodeId w = kNoNode;
                    do {
                        w = stack.back();
                        stack.pop_back();
                        onStack.erase(w);
                        component.push_back(w);
                    } while (w != done);
                    if (component.size() > 1)
                        result.insert(component.begin(), component.end());
                }
            }
        }
        return result;
    }

    /// "input 'b'": the OpDef argument of a raw op's slot, the catalogue's port name of a layer's
    /// ("values[1]" for a variadic one).
    std::string inputLabel(DocNodeId id, int slot) const
    {
        const DocNode& n = *m_doc.node(id);
        if (n.kind == NodeKind::kLayer) {
            const layers::LayerType* type = layers::findLayerType(n.type);
            if (type && type->inputs < 0 && !type->inputNames.empty())
                return "input '" + type->inputNames.front() + "[" + std::to_string(slot) + "]'";
            if (type && slot < static_cast<int>(type->inputNames.size()))
                return "input '" + type->inputNames[static_cast<std::size_t>(slot)] + "'";
        }
        return "input '" + m_doc.slotName(id, slot) + "'";
    }

    /// The built tensor feeding slot `slot` of `id`; nullopt with a problem set when there is none;
    /// an invalid Output (and no problem) when the source is not built yet (a back edge).
    std::optional<Output> resolveSlot(DocNodeId id, int slot)
    {
        const DocNode& n = *m_doc.node(id);
        const InputSlot& s = n.inputs[static_cast<std::size_t>(slot)];
        const std::string input = inputLabel(id, slot);
        if (!s.isConnected() || !m_doc.node(s.source)) {
            fail(id, input + " is not connected");
            return std::nullopt;
        }
        if (hasProblem(s.source)) {
            fail(id, input + " comes from '" + nameOf(s.source) + "', which has a problem");
            return std::nullopt;
        }
        if (!isBuilt(s.source))
            return Output();
        const std::vector<Output>& outputs = m_built.at(s.source).outputs;
        if (s.output < 0 || s.output >= static_cast<int>(outputs.size())) {
            fail(id, input + " reads output " + std::to_string(s.output) + " of '" + nameOf(s.source) +
                         "', which has " + std::to_string(outputs.size()) + " output(s)");
            return std::nullopt;
        }
        return outputs[static_cast<std::size_t>(s.output)];
    }

    /// The control-input node names of `id`'s built control sources; false with a problem set when
    /// one failed. Unbuilt sources (cycles) go to `pending`.
    bool resolveControls(DocNodeId id, std::vector<std::string>& names, std::vector<DocNodeId>& pending)
    {
        for (DocNodeId c : m_doc.node(id)->controlInputs) {
            if (!m_doc.node(c))
                continue;
            if (hasProblem(c)) {
                fail(id, "control input '" + nameOf(c) + "' has a problem");
                return false;
            }
            if (!isBuilt(c)) {
                pending.push_back(c);
                continue;
            }
            for (const std::string& name : m_built.at(c).controlNames) {
                if (std::find(names.begin(), names.end(), name) == names.end())
                    names.push_back(name);
            }
        }
        return true;
    }

    void buildNode(DocNodeId id)
    {
        const DocNode& n = *m_doc.node(id);
        if (n.kind == NodeKind::kLayer)
            buildLayer(n);
        else
            buildOp(n);
    }

    void buildOp(const DocNode& n)
    {
        auto registration = m_ops.lookUp(n.type);
        if (!registration) {
            fail(n.id, registration.error().message());
            return;
        }
        const tensorflow::OpDef& def = (*registration)->opDef;

        // The document's slots, grouped into the OpDef's input arguments.
        std::vector<int> lengths;
        std::vector<int> listArgs;
        int total = 0;
        for (int a = 0; a < def.input_arg_size(); ++a) {
            const auto& arg = def.input_arg(a);
            const bool isList = !arg.number_attr().empty() || !arg.type_list_attr().empty();
            lengths.push_back(isList ? listLength(def, arg, n.attrs) : 1);
            if (isList)
                listArgs.push_back(a);
            total += lengths.back();
        }
        const int slotCount = static_cast<int>(n.inputs.size());
        if (total != slotCount && listArgs.size() == 1 && slotCount - (total - lengths[listArgs[0]]) >= 0) {
            lengths[listArgs[0]] = slotCount - (total - lengths[listArgs[0]]);
            total = slotCount;
        }
        if (total != slotCount) {
            fail(n.id, "has " + std::to_string(slotCount) + " input slot(s) but op " + n.type +
                           " with these attrs takes " + std::to_string(total));
            return;
        }

        std::vector<std::optional<Output>> flat;
        std::vector<int> argOf;
        for (int a = 0, slot = 0; a < def.input_arg_size(); ++a) {
            for (int k = 0; k < lengths[static_cast<std::size_t>(a)]; ++k, ++slot) {
                flat.push_back(resolveSlot(n.id, slot));
                if (!flat.back())
                    return;
                argOf.push_back(a);
            }
        }
        // Back edges: stand in another built input of the same argument (or of the same dtype) until
        // the source exists, as tf.while_loop builds Merge(enter, enter) before its NextIteration.
        std::vector<PendingInput> pending;
        for (std::size_t i = 0; i < flat.size(); ++i) {
            if (flat[i]->isValid())
                continue;
            const InputSlot& s = n.inputs[i];
            const DataType want = m_doc.outputType(s.source, s.output);
            std::optional<Output> standIn;
            for (std::size_t j = 0; j < flat.size() && !standIn; ++j)
                if (flat[j]->isValid() && argOf[j] == argOf[i])
                    standIn = *flat[j];
            for (std::size_t j = 0; j < flat.size() && !standIn; ++j)
                if (flat[j]->isValid() && want != tensorflow::DT_INVALID && flat[j]->baseDtype() == baseType(want))
                    standIn = *flat[j];
            if (!standIn) {
                fail(n.id, inputLabel(n.id, static_cast<int>(i)) + " comes from '" + nameOf(s.source) +
                               "' on a cycle, and no other input can stand in for it until '" + nameOf(s.source) +
                               "' is built");
                return;
            }
            pending.push_back({n.id, static_cast<int>(i), static_cast<int>(i), s.source, s.output});
            flat[i] = standIn;
        }
        std::vector<std::string> controls;
        std::vector<DocNodeId> pendingControls;
        if (!resolveControls(n.id, controls, pendingControls))
            return;

        std::vector<OpInput> inputs;
        for (int a = 0, i = 0; a < def.input_arg_size(); ++a) {
            const auto& arg = def.input_arg(a);
            if (arg.number_attr().empty() && arg.type_list_attr().empty()) {
                inputs.emplace_back(*flat[static_cast<std::size_t>(i++)]);
                continue;
            }
            std::vector<Output> list;
            for (int k = 0; k < lengths[static_cast<std::size_t>(a)]; ++k)
                list.push_back(*flat[static_cast<std::size_t>(i++)]);
            inputs.emplace_back(std::move(list));
        }
        AttrMap attrs;
        for (const auto& [key, value] : n.attrs) {
            if (key != "_output_shapes")
                attrs.emplace(key, value);
        }

        std::optional<ScopeGuard> device;
        if (!n.device.empty()) {
            auto guard = b().device(n.device);
            if (!guard) {
                fail(n.id, guard.error().message());
                return;
            }
            device = std::move(*guard);
        }
        // The document's name as it is ("x/" bypasses uniquifying) unless a layer made a node of it.
        const std::string name = b().findNode(n.name) ? n.name : n.name + "/";
        auto op = b().op(n.type, std::move(inputs), std::move(attrs), name);
        device.reset();
        if (!op) {
            fail(n.id, op.error().message());
            return;
        }
        for (const std::string& c : controls) {
            if (Status s = b().addControlInput(op->name(), c); !s.isOk()) {
                fail(n.id, s.message());
                return;
            }
        }
        m_built[n.id] = {op->outputs(), {op->name()}};
        m_out.opNames[n.id] = op->name();
        recordTensors(n.id);
        m_pendingInputs.insert(m_pendingInputs.end(), pending.begin(), pending.end());
        for (DocNodeId c : pendingControls)
            m_pendingControls.push_back({n.id, c});
    }

    /// The number of a layer node's slots that are binding ports (its last ones).
    static int bindingSlots(const DocNode& n, const layers::LayerType* type)
    {
        if (!type || type->inputs < 0)
            return 0;
        return std::min(static_cast<int>(type->bindingNames.size()), static_cast<int>(n.inputs.size()));
    }

    void buildLayer(const DocNode& n)
    {
        const layers::LayerType* type = layers::findLayerType(n.type);
        std::vector<Output> inputs;
        const int tensorSlots = static_cast<int>(n.inputs.size()) - bindingSlots(n, type); // bindings: checkBindings
        for (int slot = 0; slot < tensorSlots; ++slot) {
            auto input = resolveSlot(n.id, slot);
            if (!input)
                return;
            if (!input->isValid()) {
                fail(n.id, "layer nodes cannot be on a cycle: " + inputLabel(n.id, slot) + " comes from '" +
                               nameOf(n.inputs[static_cast<std::size_t>(slot)].source) +
                               "', which depends on this node");
                return;
            }
            inputs.push_back(*input);
        }
        std::vector<std::string> controls;
        std::vector<DocNodeId> pendingControls;
        if (!resolveControls(n.id, controls, pendingControls))
            return;
        if (!pendingControls.empty()) {
            fail(n.id, "layer nodes cannot be on a cycle: control input '" + nameOf(pendingControls.front()) +
                           "' depends on this node");
            return;
        }
        std::map<std::string, tensorflow::AttrValue> params = n.attrs;
        if (type && type->inputs < 0) {
            for (const char* portCount : {"N", "inputs"}) {
                const bool declared = std::any_of(type->params.begin(), type->params.end(),
                                                  [&](const layers::LayerParam& p) { return p.name == portCount; });
                if (!declared)
                    params.erase(portCount);
            }
        }
        std::vector<Operation> controlOps;
        for (const std::string& c : controls) {
            auto op = b().operation(c);
            if (!op) {
                fail(n.id, op.error().message());
                return;
            }
            controlOps.push_back(*op);
        }

        std::optional<ScopeGuard> device;
        std::optional<ScopeGuard> dependencies;
        if (!n.device.empty()) {
            auto guard = b().device(n.device);
            if (!guard) {
                fail(n.id, guard.error().message());
                return;
            }
            device = std::move(*guard);
        }
        if (!controlOps.empty())
            dependencies = b().controlDependencies(controlOps);
        auto expansion = layers::expandLayerNode(b(), n.type, n.name, params, inputs);
        dependencies.reset();
        device.reset();
        if (!expansion) {
            fail(n.id, expansion.error().message());
            return;
        }
        Built built;
        built.outputs = expansion->outputs;
        for (const Output& o : expansion->outputs) {
            if (std::find(built.controlNames.begin(), built.controlNames.end(), o.node()) == built.controlNames.end())
                built.controlNames.push_back(o.node());
        }
        for (const Operation& t : expansion->targets) {
            built.controlNames.push_back(t.name());
            m_out.targets.push_back(t.name());
        }
        m_built[n.id] = std::move(built);
        recordTensors(n.id);
    }

    void recordTensors(DocNodeId id)
    {
        std::vector<std::string>& names = m_out.tensors[id];
        for (const Output& o : m_built.at(id).outputs)
            names.push_back(o.name());
    }

    /// Checks the connected binding ports of the built layer nodes (see buildDocument) and lists
    /// those that fit in m_out.bindings. A binding that does not fit is the node's problem without
    /// unbuilding it: its placeholder is what it is whatever feeds it.
    void checkBindings()
    {
        for (DocNodeId id : m_doc.nodes()) {
            const DocNode& n = *m_doc.node(id);
            if (n.kind != NodeKind::kLayer || !isBuilt(id) || hasProblem(id))
                continue;
            const layers::LayerType* type = layers::findLayerType(n.type);
            const int count = bindingSlots(n, type);
            for (int k = 0; k < count && !hasProblem(id) && !stopped(); ++k) {
                const int slot = static_cast<int>(n.inputs.size()) - count + k;
                const InputSlot& s = n.inputs[static_cast<std::size_t>(slot)];
                const DocNode* source = s.isConnected() ? m_doc.node(s.source) : nullptr;
                if (!source)
                    continue;
                if (Status st = checkBinding(n, type->bindingNames[static_cast<std::size_t>(k)], *source, s.output);
                    !st.isOk())
                    m_out.problems.emplace(id, st.message());
            }
        }
    }

    /// One connected binding port `port` of `n`, fed by output `output` of `source`.
    Status checkBinding(const DocNode& n, const std::string& port, const DocNode& source, int output)
    {
        if (source.kind != NodeKind::kLayer || !layers::isDataSourceType(source.type)) {
            std::string kinds;
            for (const layers::LayerType& t : layers::dataSourceLayerTypes())
                kinds += (kinds.empty() ? "" : ", ") + t.type;
            return invalidArgumentError("port '" + port + "' takes a component of a data-source node (" + kinds +
                                        "); '" + source.name + "' (" + source.type + ") is not one");
        }
        if (!isBuilt(source.id) || hasProblem(source.id))
            return invalidArgumentError("port '" + port + "' comes from '" + source.name + "', which has a problem");
        auto components = layers::dataSourceComponents(source.type, source.name, source.attrs);
        const std::vector<Output>& placeholders = m_built.at(n.id).outputs;
        if (!components || output < 0 || output >= static_cast<int>(components->size()) || placeholders.empty())
            return internalError("port '" + port + "' reads output " + std::to_string(output) + " of '" + source.name +
                                 "', which has no such component");
        const layers::SourceComponent& component = (*components)[static_cast<std::size_t>(output)];
        const Output& placeholder = placeholders.front();
        if (Status s = layers::checkSourceBinding(n.name, placeholder.baseDtype(), placeholder.shape(), source.name,
                                                  component);
            !s.isOk())
            return s;
        m_out.bindings.push_back({n.id, placeholder.name(), source.id, output, component.name});
        return Status::ok();
    }

    /// Connects the back edges and late control inputs once every node that can be built is.
    void resolvePending()
    {
        for (const PendingInput& p : m_pendingInputs) {
            if (hasProblem(p.node))
                continue;
            const std::string input = inputLabel(p.node, p.slot);
            if (!isBuilt(p.source)) {
                fail(p.node, input + " comes from '" + nameOf(p.source) + "', which has a problem");
                continue;
            }
            const std::vector<Output>& outputs = m_built.at(p.source).outputs;
            if (p.output < 0 || p.output >= static_cast<int>(outputs.size())) {
                fail(p.node, input + " reads output " + std::to_string(p.output) + " of '" + nameOf(p.source) +
                                 "', which has " + std::to_string(outputs.size()) + " output(s)");
                continue;
            }
            const Status s =
                b().updateInput(m_out.opNames.at(p.node), p.flatIndex, outputs[static_cast<std::size_t>(p.output)]);
            if (!s.isOk())
                fail(p.node, s.message());
        }
        for (const PendingControl& p : m_pendingControls) {
            if (hasProblem(p.node))
                continue;
            if (!isBuilt(p.source)) {
                fail(p.node, "control input '" + nameOf(p.source) + "' has a problem");
                continue;
            }
            for (const std::string& c : m_built.at(p.source).controlNames) {
                if (Status s = b().addControlInput(m_out.opNames.at(p.node), c); !s.isOk()) {
                    fail(p.node, s.message());
                    break;
                }
            }
        }
    }

    struct Built {
        std::vector<Output> outputs;
        std::vector<std::string> controlNames; ///< what a control edge from the node waits for
    };

    const GraphDocument& m_doc;
    const OpRegistry& m_ops;
    const bool m_allowIncomplete;
    DocumentBuild m_out;
    std::map<DocNodeId, std::vector<DocNodeId>> m_consumers;
    std::map<DocNodeId, Built> m_built;
    std::vector<PendingInput> m_pendingInputs;
    std::vector<PendingControl> m_pendingControls;
};

/// The document built completely, or the first problem naming its node.
Expected<DocumentBuild> completeBuild(const GraphDocument& document, const OpRegistry& ops)
{
    DocumentBuild build = buildDocument(document, ops, false);
    if (!build.problems.empty()) {
        const auto& [id, problem] = *build.problems.begin();
        const DocNode* n = document.node(id);
        return unexpected(
            invalidArgumentError("node '" + (n ? n->name : std::string("?")) + "' cannot be built: " + problem));
    }
    return build;
}

/// tf.global_variables_initializer() when the layers made variables.
Status addInitializer(GraphBuilder& b)
{
    if (globalVariables(b).empty())
        return Status::ok();
    auto init = globalVariablesInitializer(b);
    return init ? Status::ok() : init.error();
}

/// The SaverDef of a saver the graph already holds ("<scope>/SaveV2" or "<scope>/Save" with its
/// filename Const, control_dependency and restore_all), or nullopt; `found` tells whether any save op
/// was seen (then no second saver is added).
std::optional<tensorflow::SaverDef> existingSaver(const GraphBuilder& b, bool* found)
{
    *found = false;
    for (const tensorflow::NodeDef& node : b.graphDef().node()) {
        const bool v2 = node.op() == "SaveV2";
        if (!v2 && node.op() != "Save")
            continue;
        *found = true;
        const std::string suffix = v2 ? "/SaveV2" : "/Save";
        if (node.name().size() <= suffix.size() || !node.name().ends_with(suffix))
            continue;
        const std::string scope = node.name().substr(0, node.name().size() - suffix.size());
        if (!b.findNode(scope + "/Const") || !b.findNode(scope + "/control_dependency") ||
            !b.findNode(scope + "/restore_all"))
            continue;
        tensorflow::SaverDef def;
        def.set_filename_tensor_name(scope + "/Const:0");
        def.set_save_tensor_name(scope + "/control_dependency:0");
        def.set_restore_op_name(scope + "/restore_all");
        def.set_max_to_keep(5);
        def.set_keep_checkpoint_every_n_hours(10000.0f);
        def.set_version(v2 ? tensorflow::SaverDef::V2 : tensorflow::SaverDef::V1);
        return def;
    }
    return std::nullopt;
}

} // namespace

DocumentBuild buildDocument(const GraphDocument& document, const OpRegistry& ops, bool allowIncomplete)
{
    return DocumentBuilder(document, ops, allowIncomplete).run();
}

Expected<BuiltDocumentGraph> buildDocumentGraph(const GraphDocument& document, const OpRegistry& ops)
{
    auto build = completeBuild(document, ops);
    if (!build)
        return unexpected(build.error());
    if (Status s = addInitializer(*build->builder); !s.isOk())
        return unexpected(s);
    tensorflow::GraphDef graph = build->builder->toGraphDef();
    return BuiltDocumentGraph{std::move(*build), std::move(graph)};
}

Expected<tensorflow::GraphDef> documentGraphDef(const GraphDocument& document, const OpRegistry& ops)
{
    auto built = buildDocumentGraph(document, ops);
    if (!built)
        return unexpected(built.error());
    return std::move(built->graph);
}

Expected<tensorflow::MetaGraphDef> documentMetaGraph(const GraphDocument& document, const OpRegistry& ops)
{
    auto build = completeBuild(document, ops);
    if (!build)
        return unexpected(build.error());
    GraphBuilder& b = *build->builder;
    MetaGraphExportOptions options;
    bool hasSaver = false;
    options.saverDef = existingSaver(b, &hasSaver);
    if (!hasSaver) {
        std::vector<Variable> variables = globalVariables(b);
        if (variables.empty())
            variables = graphVariables(b);
        if (!variables.empty()) {
            auto byName = saveablesByName(variables);
            if (!byName)
                return unexpected(byName.error());
            auto saver = buildSaverGraph(b, *byName);
            if (!saver)
                return unexpected(saver.error());
            options.saverDef = *saver;
        }
    }
    if (Status s = addInitializer(b); !s.isOk())
        return unexpected(s);
    return exportMetaGraph(b, options);
}

void installLayerPorts(GraphDocument& document)
{
    document.setLayerPorts([](const DocNode& node) {
        const layers::LayerType* type = layers::findLayerType(node.type);
        if (!type)
            return PortCounts{};
        PortCounts ports{type->inputs + static_cast<int>(type->bindingNames.size()), type->outputs};
        if (layers::isDataSourceType(type->type)) // one output per component of the node's params
            ports.outputs = static_cast<int>(layers::layerOutputNames(*type, node.attrs).size());
        if (type->inputs < 0) {
            ports.inputs = 2;
            for (const char* key : {"N", "inputs"}) {
                auto it = node.attrs.find(key);
                if (it != node.attrs.end() && it->second.value_case() == tensorflow::AttrValue::kI &&
                    it->second.i() >= 1 && it->second.i() <= kMaxVariadicPorts) {
                    ports.inputs = static_cast<int>(it->second.i());
                    break;
                }
            }
        }
        return ports;
    });
    document.setLayerSlotNames([](const DocNode& node, int slot) -> std::string {
        const layers::LayerType* type = layers::findLayerType(node.type);
        if (!type)
            return {};
        if (type->inputs < 0)
            return type->inputNames.empty() ? std::string()
                                            : type->inputNames.front() + "[" + std::to_string(slot) + "]";
        if (slot < static_cast<int>(type->inputNames.size()))
            return type->inputNames[static_cast<std::size_t>(slot)];
        const int binding = slot - type->inputs;
        return binding >= 0 && binding < static_cast<int>(type->bindingNames.size())
                   ? type->bindingNames[static_cast<std::size_t>(binding)]
                   : std::string();
    });
}

} // namespace tstudio
