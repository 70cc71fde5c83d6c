// GraphBuilder::importGraphDef and the variables of an imported graph: building on top of a graph
// read from a file (tf.import_graph_def into an empty graph, then more ops).
#include "builder/graph_builder.h"

#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "function/function_library.h"
#include "graph/graph.h"
#include "graph/tensor_id.h"

#include <algorithm>

namespace tstudio {
namespace {

/// The most elements a Const may have for its value to be kept (as GraphBuilder::op keeps them).
constexpr std::int64_t kMaxImportedValueElements = 1 << 16;

bool isRefVariableOp(const std::string& op)
{
    return op == "VariableV2" || op == "Variable";
}

/// The node whose first data input is `input`, with op `type`; `preferred` wins when it qualifies.
const tensorflow::NodeDef* consumerOf(const tensorflow::GraphDef& graph, const std::string& input,
                                      std::string_view type, const std::string& preferred)
{
    const tensorflow::NodeDef* found = nullptr;
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (node.op() != type || node.input_size() == 0 || node.input(0) != input)
            continue;
        if (node.name() == preferred)
            return &node;
        if (!found)
            found = &node;
    }
    return found;
}

} // namespace

Status GraphBuilder::importGraphDef(const tensorflow::GraphDef& graph)
{
    if (m_def.node_size() > 0)
        return failedPreconditionError("importGraphDef needs an empty builder; this one has " +
                                       std::to_string(m_def.node_size()) + " nodes");
    tensorflow::GraphDef def = graph;
    // Calls by name are checked against their function's signature. A library that does not load
    // adds nothing (as for the shape refiner): its calls by name are then unregistered ops.
    FunctionLibrary functions(m_registry);
    (void)functions.add(def.library());
    for (tensorflow::NodeDef& node : *def.mutable_node()) {
        auto opDef = functions.lookUpOpDef(node.op());
        if (!opDef)
            return opDef.error().withContext("node '" + node.name() + "'");
        addDefaultAttrs(**opDef, &node);
        if (Status s = validateNodeDef(**opDef, node); !s.isOk())
            return s;
    }
    auto indexed = Graph::fromGraphDef(def);
    if (!indexed)
        return indexed.error();
    ShapeRefinerOptions options;
    options.maxConstantElements = kMaxImportedValueElements;
    auto shapes = inferGraphShapes(*indexed, m_registry, m_allocator, options);
    if (!shapes)
        return shapes.error();
    if (Status s = shapes->status(); !s.isOk())
        return s;

    std::deque<NodeInfo> nodes;
    for (int id = 0; id < def.node_size(); ++id)
        nodes.push_back(NodeInfo{shapes->outputs(id)});
    m_def = std::move(def);
    m_nodes = std::move(nodes);
    for (int id = 0; id < m_def.node_size(); ++id) {
        m_byName.emplace(m_def.node(id).name(), id);
        m_names.reserve(m_def.node(id).name());
    }
    return Status::ok();
}

Status GraphBuilder::addFunctions(const tensorflow::FunctionDefLibrary& library)
{
    FunctionLibrary functions(m_registry);
    if (Status s = functions.add(m_def.library()); !s.isOk())
        return s;
    if (Status s = functions.add(library); !s.isOk())
        return s;
    tensorflow::FunctionDefLibrary& own = *m_def.mutable_library();
    for (const tensorflow::FunctionDef& function : library.function()) {
        const bool known = std::any_of(own.function().begin(), own.function().end(), [&](const auto& f) {
            return f.signature().name() == function.signature().name();
        });
        if (!known)
            *own.add_function() = function;
    }
    for (const tensorflow::GradientDef& gradient : library.gradient())
        *own.add_gradient() = gradient;
    return Status::ok();
}

Expected<Variable> importedVariable(const GraphBuilder& b, const tensorflow::VariableDef& def)
{
    const std::string what = "variable '" + def.variable_name() + "'";
    auto ref = b.tensor(def.variable_name());
    if (!ref)
        return unexpected(ref.error().withContext(what));
    if (!isRefType(ref->dtype()))
        return unexpected(invalidArgumentError(what + ": '" + def.variable_name() + "' is " +
                                               dataTypeName(ref->dtype()) + ", not a ref variable"));
    Output value = *ref;
    if (!def.snapshot_name().empty()) {
        auto snapshot = b.tensor(def.snapshot_name());
        if (!snapshot)
            return unexpected(snapshot.error().withContext(what + " (snapshot_name)"));
        value = *snapshot;
    }
    auto initializer = b.operation(def.initializer_name());
    if (!initializer)
        return unexpected(initializer.error().withContext(what + " (initializer_name)"));
    Output initialValue;
    if (!def.initial_value_name().empty()) {
        auto initial = b.tensor(def.initial_value_name());
        if (!initial)
            return unexpected(initial.error().withContext(what + " (initial_value_name)"));
        initialValue = *initial;
    }
    return Variable(*ref, value, initialValue, *initializer, def.trainable());
}

std::vector<Variable> graphVariables(const GraphBuilder& b)
{
    std::vector<Variable> out;
    const tensorflow::GraphDef& graph = b.graphDef();
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (!isRefVariableOp(node.op()))
            continue;
        const tensorflow::NodeDef* assign = consumerOf(graph, node.name(), "Assign", node.name() + "/Assign");
        if (!assign)
            continue;
        tensorflow::VariableDef def;
        def.set_variable_name(node.name() + ":0");
        def.set_initializer_name(assign->name());
        if (assign->input_size() > 1) {
            auto id = parseTensorId(assign->input(1));
            if (id && !id->isControl())
                def.set_initial_value_name(id->node + ":" + std::to_string(id->index));
        }
        if (const tensorflow::NodeDef* read = consumerOf(graph, node.name(), "Identity", node.name() + "/read"))
            def.set_snapshot_name(read->name() + ":0");
        def.set_trainable(true);
        if (auto variable = importedVariable(b, def))
            out.push_back(std::move(*variable));
    }
    return out;
}

} // namespace tstudio
