// GraphBuilder::importGraphDef and the variables of an imported graph: building on top of a graph
// read from a file (tf.import_graph_def into an empty graph, then more ops), and
// tf.import_graph_def into a graph with nodes (a prefix, input_map, return_elements).
#include "builder/graph_builder.h"

#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "function/function_library.h"
#include "graph/graph.h"
#include "graph/tensor_id.h"

#include <algorithm>
#include <map>
#include <set>

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

/// Adds to `own` the functions of `added` it has no function of that name for (FunctionLibrary::add
/// has checked that same-named ones are identical).
void appendNewFunctions(tensorflow::FunctionDefLibrary& own, const tensorflow::FunctionDefLibrary& added)
{
    for (const tensorflow::FunctionDef& function : added.function()) {
        const bool known = std::any_of(own.function().begin(), own.function().end(), [&](const auto& f) {
            return f.signature().name() == function.signature().name();
        });
        if (!known)
            *own.add_function() = function;
    }
}

/// "x" -> "x:0"; "x:1" and "^x" as they are. Used to read input_map's keys.
std::string canonicalTensorName(const std::string& name)
{
    if (name.empty() || name.front() == '^' || name.find(':') != std::string::npos)
        return name;
    return name + ":0";
}

/// The imported node's data inputs' dtypes as its OpDef says, or an empty list when they cannot be
/// worked out (validateNodeDef reports why).
std::vector<DataType> expectedInputTypes(const tensorflow::OpDef& opDef, const tensorflow::NodeDef& node)
{
    auto types = inputTypesForNode(opDef, node);
    return types ? std::move(*types) : std::vector<DataType>{};
}

} // namespace

Expected<ImportedGraphDef> GraphBuilder::importGraphDef(const tensorflow::GraphDef& graph,
                                                        const ImportGraphDefOptions& options)
{
    if (Status s = checkNotFinalized(); !s.isOk())
        return unexpected(s);
    // The library of both graphs: imported nodes may call the imported graph's functions by name.
    FunctionLibrary functions(m_registry);
    if (Status s = functions.add(m_def.library()); !s.isOk())
        return unexpected(s);
    if (Status s = functions.add(graph.library()); !s.isOk())
        return unexpected(s);

    // The input map, by canonical name; what is left unused at the end is an error.
    std::map<std::string, Output> inputMap;
    for (const auto& [name, tensor] : options.inputMap) {
        if (!tensor.isValid() || !findNode(tensor.node()))
            return unexpected(invalidArgumentError("input_map['" + name + "'] is not a tensor of this graph"));
        inputMap[canonicalTensorName(name)] = tensor;
    }
    std::set<std::string> unusedKeys;
    for (const auto& [key, tensor] : inputMap)
        unusedKeys.insert(key);

    // The prefix, entered as tf.name_scope(name, "import") enters it (its name stays taken, as
    // TensorFlow's does, when the import fails); the nodes' names are taken only on success.
    std::string prefix;
    std::optional<ScopeGuard> scope;
    if (const std::string requested = options.name.value_or("import"); !requested.empty()) {
        auto entered = nameScope(requested);
        if (!entered)
            return unexpected(entered.error());
        prefix = entered->name().substr(0, entered->name().size() - 1);
        scope.emplace(std::move(*entered));
    }
    UniqueNames names = m_names;
    // TensorFlow's importer also uniquifies the prefix against the graph's nodes (uniquify_prefix):
    // "import" is taken when a node is named so or sits under it, as in a graph rebuilt from a
    // GraphDef that an earlier import filled.
    if (!prefix.empty()) {
        const auto taken = [this](const std::string& p) {
            if (m_byName.count(p))
                return true;
            const std::string under = p + "/";
            return std::any_of(m_byName.begin(), m_byName.end(),
                               [&under](const auto& entry) { return entry.first.starts_with(under); });
        };
        const std::string base = prefix;
        for (int i = 1; taken(prefix); ++i)
            prefix = base + "_" + std::to_string(i);
        names.reserve(prefix);
    }

    // New names: under the prefix, made unique against this graph (uniquify_names).
    std::unordered_map<std::string, std::string> renamed;
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (renamed.count(node.name()))
            return unexpected(invalidArgumentError("Node '" + node.name() + "' is not unique"));
        const std::string wanted = prefix.empty() ? node.name() : prefix + "/" + node.name();
        renamed.emplace(node.name(), names.isUsed(wanted) || m_byName.count(wanted) ? names.make(wanted) : wanted);
        names.reserve(renamed.at(node.name()));
    }

    tensorflow::GraphDef imported;
    for (const tensorflow::NodeDef& original : graph.node()) {
        tensorflow::NodeDef node = original;
        node.set_name(renamed.at(original.name()));
        auto opDef = functions.lookUpOpDef(node.op());
        if (!opDef)
            return unexpected(opDef.error().withContext("node '" + original.name() + "'"));
        addDefaultAttrs(**opDef, &node);
        const std::vector<DataType> expected = expectedInputTypes(**opDef, node);
        int dataIndex = 0;
        for (int i = 0; i < node.input_size(); ++i) {
            auto id = parseTensorId(original.input(i));
            if (!id)
                return unexpected(id.error().withContext("node '" + original.name() + "'"));
            const bool control = id->isControl();
            const std::string key = control ? "^" + id->node : id->node + ":" + std::to_string(id->index);
            if (auto mapped = inputMap.find(key); mapped != inputMap.end()) {
                unusedKeys.erase(key);
                if (control) {
                    node.set_input(i, "^" + mapped->second.node());
                    continue;
                }
                const Output& tensor = mapped->second;
                if (dataIndex < static_cast<int>(expected.size())) {
                    const DataType want = expected[static_cast<std::size_t>(dataIndex)];
                    const bool fits = isRefType(want) ? tensor.dtype() == want : tensor.baseDtype() == want;
                    if (!fits)
                        return unexpected(invalidArgumentError(
                            "Input " + std::to_string(dataIndex) + " of node " + node.name() + " was passed " +
                            dataTypeString(tensor.dtype()) + " from " + tensor.name() + " incompatible with expected " +
                            dataTypeString(want) + "."));
                }
                node.set_input(i, tensor.inputString());
                ++dataIndex;
                continue;
            }
            auto target = renamed.find(id->node);
            if (target == renamed.end())
                return unexpected(invalidArgumentError("Node '" + original.name() + "': Unknown input node '" +
                                                       original.input(i) + "'"));
            node.set_input(i, TensorId{target->second, id->index}.toString());
            if (!control)
                ++dataIndex;
        }
        // Colocation groups on imported nodes move with them.
        if (auto classes = node.mutable_attr()->find("_class"); classes != node.mutable_attr()->end()) {
            for (std::string& entry : *classes->second.mutable_list()->mutable_s()) {
                if (!entry.starts_with("loc:@"))
                    continue;
                if (auto target = renamed.find(entry.substr(5)); target != renamed.end())
                    entry = "loc:@" + target->second;
            }
        }
        if (Status s = validateNodeDef(**opDef, node); !s.isOk())
            return unexpected(s);
        *imported.add_node() = std::move(node);
    }
    if (!unusedKeys.empty()) {
        std::string list;
        for (const std::string& key : unusedKeys)
            list += (list.empty() ? "" : ", ") + key;
        return unexpected(
            invalidArgumentError("Attempted to map inputs that were not found in graph_def: [" + list + "]"));
    }

    // The return elements, checked before anything changes.
    std::vector<TensorId> returns;
    for (const std::string& element : options.returnElements) {
        auto id = parseTensorId(element);
        const bool tensor = element.find(':') != std::string::npos;
        const tensorflow::NodeDef* node = nullptr;
        if (id && !id->isControl())
            for (const tensorflow::NodeDef& n : graph.node())
                if (n.name() == id->node)
                    node = &n;
        bool found = node != nullptr;
        if (found && tensor) {
            auto opDef = functions.lookUpOpDef(node->op());
            tensorflow::NodeDef filled = *node;
            if (opDef)
                addDefaultAttrs(**opDef, &filled);
            auto outputs = opDef ? outputTypesForNode(**opDef, filled) : Expected<std::vector<DataType>>{};
            found = outputs && id->index < static_cast<int>(outputs->size());
        }
        if (!found)
            return unexpected(invalidArgumentError(std::string("Requested return ") + (tensor ? "tensor" : "node") +
                                                   " '" + element + "' not found in graph def"));
        returns.push_back(TensorId{renamed.at(id->node), tensor ? id->index : TensorId::kControlSlot});
    }

    // Shapes over both graphs; only an imported node's failure stops the import.
    tensorflow::GraphDef merged = m_def;
    merged.mutable_node()->MergeFrom(imported.node());
    appendNewFunctions(*merged.mutable_library(), graph.library());
    auto indexed = Graph::fromGraphDef(merged);
    if (!indexed)
        return unexpected(indexed.error());
    ShapeRefinerOptions refinerOptions;
    refinerOptions.maxConstantElements = kMaxImportedValueElements;
    auto shapes = inferGraphShapes(*indexed, m_registry, m_allocator, refinerOptions);
    if (!shapes)
        return unexpected(shapes.error());
    const int first = m_def.node_size();
    for (const NodeShapeError& error : shapes->errors())
        if (error.node >= first)
            return unexpected(error.status);
    if (Status s = addFunctions(graph.library()); !s.isOk())
        return unexpected(s);

    for (int i = 0; i < imported.node_size(); ++i) {
        const int id = first + i;
        *m_def.add_node() = imported.node(i);
        m_nodes.push_back(NodeInfo{shapes->outputs(id)});
        m_byName.emplace(m_def.node(id).name(), id);
    }
    m_names = std::move(names);

    ImportedGraphDef result;
    result.prefix = prefix;
    for (const TensorId& id : returns) {
        if (id.isControl()) {
            auto op = operation(id.node);
            if (!op)
                return unexpected(op.error());
            result.returned.emplace_back(std::move(*op));
        } else {
            auto t = tensor(id.node + ":" + std::to_string(id.index));
            if (!t)
                return unexpected(t.error());
            result.returned.emplace_back(std::move(*t));
        }
    }
    return result;
}

Status GraphBuilder::importGraphDef(const tensorflow::GraphDef& graph)
{
    if (Status s = checkNotFinalized(); !s.isOk())
        return s;
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
    if (Status s = checkNotFinalized(); !s.isOk())
        return s;
    FunctionLibrary functions(m_registry);
    if (Status s = functions.add(m_def.library()); !s.isOk())
        return s;
    if (Status s = functions.add(library); !s.isOk())
        return s;
    tensorflow::FunctionDefLibrary& own = *m_def.mutable_library();
    appendNewFunctions(own, library);
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
