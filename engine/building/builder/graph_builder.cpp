// GraphBuilder: node creation (names, attr inference, validation, shape inference) and the scope stacks.
#include "builder/graph_builder.h"

#include "builder/variable_scope.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"

#include <algorithm>
#include <map>
#include <set>

namespace tstudio {
namespace {

/// The most elements a Const may have for its value to be kept for shape inference.
constexpr std::int64_t kMaxKnownValueElements = 1 << 16;

bool isScopeChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-' || c == '/' || c == '>';
}

/// TensorFlow's scope name rule: nested scopes may start with any scope character, root scopes must
/// be valid op names.
bool isValidScopeName(std::string_view name, bool nested)
{
    if (!nested && !name.empty()) {
        const char c = name.front();
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.'))
            return false;
    }
    return std::all_of(name.begin(), name.end(), isScopeChar);
}

Status nodeError(std::string_view node, std::string_view type, std::string message)
{
    return invalidArgumentError("node '" + std::string(node) + "' (op '" + std::string(type) + "'): " + message);
}

/// Elements of a TensorProto's shape, or -1 when it is not a valid, small shape.
std::int64_t protoElements(const tensorflow::TensorProto& proto)
{
    std::int64_t n = 1;
    for (const auto& d : proto.tensor_shape().dim()) {
        if (d.size() < 0 || (d.size() > 0 && n > kMaxKnownValueElements / d.size()))
            return -1;
        n *= d.size();
    }
    return proto.tensor_shape().unknown_rank() ? -1 : n;
}

/// The attrs an input argument's tensors decide, as tf.Graph's op-def library infers them: the
/// number attr of a list (all of one type), the type list attr, or the type attr (the first argument
/// that sets it wins; a later one of another type is an error naming it). `argTypes` are the
/// argument's tensors' base types; `prefix` starts the errors ("Input 'x' of 'Add' Op").
Status inferArgumentAttrs(tensorflow::NodeDef& node, const tensorflow::OpDef::ArgDef& arg,
                          const std::vector<DataType>& argTypes, const std::string& nodeName,
                          const std::string& typeName, const std::string& prefix,
                          std::map<std::string, std::string>& inferredFrom)
{
    auto& nodeAttrs = *node.mutable_attr();
    if (!arg.number_attr().empty()) {
        const auto n = static_cast<std::int64_t>(argTypes.size());
        if (auto it = nodeAttrs.find(arg.number_attr()); it != nodeAttrs.end() && it->second.i() != n)
            return nodeError(nodeName, typeName,
                             prefix + " has " + std::to_string(n) + " tensors but attr '" + arg.number_attr() +
                                 "' is " + std::to_string(it->second.i()));
        nodeAttrs[arg.number_attr()] = attr::i(n);
        for (DataType t : argTypes) {
            if (t != argTypes.front())
                return nodeError(nodeName, typeName,
                                 "All tensors passed to '" + arg.name() + "' of '" + typeName +
                                     "' Op must have the same type.");
        }
    }
    if (!arg.type_list_attr().empty()) {
        if (auto it = nodeAttrs.find(arg.type_list_attr()); it == nodeAttrs.end())
            nodeAttrs[arg.type_list_attr()] = attr::types(argTypes);
    } else if (arg.type() != tensorflow::DT_INVALID) {
        for (DataType t : argTypes) {
            if (t != arg.type())
                return nodeError(nodeName, typeName,
                                 prefix + " has type " + dataTypeName(t) + " that does not match expected type of " +
                                     dataTypeName(arg.type()) + ".");
        }
    } else if (!arg.type_attr().empty() && !argTypes.empty()) {
        const DataType t = argTypes.front();
        auto it = nodeAttrs.find(arg.type_attr());
        if (it == nodeAttrs.end()) {
            nodeAttrs[arg.type_attr()] = attr::type(t);
            inferredFrom[arg.type_attr()] = arg.name();
        } else if (it->second.type() != t) {
            auto from = inferredFrom.find(arg.type_attr());
            return nodeError(
                nodeName, typeName,
                prefix + " has type " + dataTypeName(t) + " that does not match " +
                    (from != inferredFrom.end()
                         ? "type " + dataTypeName(it->second.type()) + " of argument '" + from->second + "'."
                         : "expected type of " + dataTypeName(it->second.type()) + "."));
        }
    }
    return Status::ok();
}

} // namespace

GraphBuilder::GraphBuilder(const OpRegistry& registry)
    : m_registry(registry), m_variables(std::make_unique<VariableStore>())
{
    m_def.mutable_versions()->set_producer(kGraphDefProducer);
}

GraphBuilder::~GraphBuilder() = default;

// --- Lookups ------------------------------------------------------------------------------------------

const tensorflow::NodeDef* GraphBuilder::findNode(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? nullptr : &m_def.node(it->second);
}

Operation GraphBuilder::operationOf(int id) const
{
    const tensorflow::NodeDef& node = m_def.node(id);
    const NodeInfo& info = m_nodes[static_cast<std::size_t>(id)];
    std::vector<Output> outputs;
    for (std::size_t i = 0; i < info.outputs.size(); ++i)
        outputs.emplace_back(node.name(), static_cast<int>(i), info.outputs[i].dtype, info.outputs[i].shape);
    return Operation(node.name(), node.op(), node.device(), std::move(outputs));
}

Expected<Operation> GraphBuilder::operation(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    if (it == m_byName.end())
        return unexpected(notFoundError("The graph has no node named '" + std::string(name) + "'"));
    return operationOf(it->second);
}

Expected<Output> GraphBuilder::tensor(std::string_view name) const
{
    auto id = parseTensorId(name);
    if (!id)
        return unexpected(id.error());
    if (id->isControl())
        return unexpected(invalidArgumentError("'" + std::string(name) + "' names a control input, not a tensor"));
    auto op = operation(id->node);
    if (!op)
        return unexpected(op.error());
    if (id->index >= op->numOutputs())
        return unexpected(invalidArgumentError("Node '" + id->node + "' has " + std::to_string(op->numOutputs()) +
                                               " outputs; there is no output " + std::to_string(id->index)));
    return op->output(id->index);
}

Expected<int> GraphBuilder::nodeIdOf(const Output& output) const
{
    auto it = m_byName.find(output.node());
    if (it == m_byName.end() || output.index() < 0 ||
        output.index() >= static_cast<int>(m_nodes[static_cast<std::size_t>(it->second)].outputs.size()))
        return unexpected(invalidArgumentError("Tensor '" + output.name() + "' is not an element of this graph."));
    return it->second;
}

const Tensor* GraphBuilder::constantValue(const Output& output) const
{
    auto id = nodeIdOf(output);
    if (!id)
        return nullptr;
    const auto& value = m_nodes[static_cast<std::size_t>(*id)].outputs[static_cast<std::size_t>(output.index())].value;
    return value ? &*value : nullptr;
}

// --- Names -------------------------------------------------------------------------------------------

std::string GraphBuilder::uniqueName(std::string_view name)
{
    return m_names.make(m_nameScope.empty() ? std::string(name) : m_nameScope + "/" + std::string(name));
}

Expected<ScopeGuard> GraphBuilder::nameScope(std::string_view name)
{
    if (!isValidScopeName(name, !m_nameScope.empty()))
        return unexpected(invalidArgumentError("'" + std::string(name) + "' is not a valid scope name"));
    std::string scope;
    if (name.empty())
        scope.clear();
    else if (name.back() == '/')
        scope = std::string(name.substr(0, name.size() - 1));
    else
        scope = uniqueName(name);
    std::string previous = std::exchange(m_nameScope, scope);
    return ScopeGuard(scope.empty() ? std::string() : scope + "/",
                      [this, previous = std::move(previous)]() mutable { m_nameScope = std::move(previous); });
}

// --- Scopes ------------------------------------------------------------------------------------------

Expected<ScopeGuard> GraphBuilder::device(std::string_view deviceName)
{
    auto spec = parseDeviceName(deviceName);
    if (!spec)
        return unexpected(spec.error());
    const std::size_t size = m_deviceScopes.size();
    m_deviceScopes.push_back({false, *spec});
    return ScopeGuard({}, [this, size] { m_deviceScopes.resize(size); });
}

ScopeGuard GraphBuilder::clearDevice()
{
    const std::size_t size = m_deviceScopes.size();
    m_deviceScopes.push_back({true, {}});
    return ScopeGuard({}, [this, size] { m_deviceScopes.resize(size); });
}

ScopeGuard GraphBuilder::device(DeviceFunction function)
{
    const std::size_t size = m_deviceScopes.size();
    m_deviceScopes.push_back({false, {}, std::move(function)});
    return ScopeGuard({}, [this, size] { m_deviceScopes.resize(size); });
}

Expected<std::string> GraphBuilder::deviceFor(const tensorflow::NodeDef& node) const
{
    DeviceName merged;
    for (auto it = m_deviceScopes.rbegin(); it != m_deviceScopes.rend() && !it->clears; ++it) {
        if (it->function) {
            // The function sees the op with the device the inner scopes gave it; its answer replaces it.
            tensorflow::NodeDef seen = node;
            seen.set_device(merged.toString());
            auto chosen = it->function(seen);
            if (!chosen)
                return unexpected(chosen.error().withContext("device function for node '" + node.name() + "'"));
            auto parsed = parseDeviceName(*chosen);
            if (!parsed)
                return unexpected(invalidArgumentError("Node '" + node.name() + "': the device function returned '" +
                                                       *chosen + "': " + parsed.error().message()));
            merged = *parsed;
            continue;
        }
        const DeviceName& s = it->spec;
        if (!merged.job)
            merged.job = s.job;
        if (!merged.replica)
            merged.replica = s.replica;
        if (!merged.task)
            merged.task = s.task;
        if (!merged.type)
            merged.type = s.type;
        if (!merged.id)
            merged.id = s.id;
    }
    return merged.toString();
}

ScopeGuard GraphBuilder::gradientOverrideMap(std::map<std::string, std::string> opTypeToGradient)
{
    std::map<std::string, std::string> saved = m_gradientOverrides;
    for (auto& [op, gradient] : opTypeToGradient)
        m_gradientOverrides[op] = std::move(gradient);
    return ScopeGuard({}, [this, saved = std::move(saved)]() mutable { m_gradientOverrides = std::move(saved); });
}

Status GraphBuilder::registerGradient(std::string name, GradientFunction function)
{
    if (!function)
        return invalidArgumentError("registerGradient('" + name + "'): an empty gradient function");
    if (m_registeredGradients.count(name))
        return {StatusCode::kAlreadyExists, "Registering two gradient with name '" + name + "'!"};
    m_registeredGradients.emplace(std::move(name), std::move(function));
    return Status::ok();
}

const GradientFunction* GraphBuilder::registeredGradient(std::string_view name) const
{
    const auto it = m_registeredGradients.find(name);
    return it == m_registeredGradients.end() ? nullptr : &it->second;
}

Status GraphBuilder::checkNotFinalized() const
{
    if (m_finalized)
        return failedPreconditionError("Graph is finalized and cannot be modified.");
    return Status::ok();
}

ScopeGuard GraphBuilder::controlDependencies(const std::vector<Operation>& ops)
{
    const std::size_t size = m_controlScopes.size();
    ControlScope scope;
    for (const Operation& op : ops)
        scope.controls.push_back(op.name());
    m_controlScopes.push_back(std::move(scope));
    return ScopeGuard({}, [this, size] { m_controlScopes.resize(size); });
}

ScopeGuard GraphBuilder::clearControlDependencies()
{
    const std::size_t size = m_controlScopes.size();
    m_controlScopes.push_back({true, {}, {}});
    return ScopeGuard({}, [this, size] { m_controlScopes.resize(size); });
}

ScopeGuard GraphBuilder::colocateWith(const Operation& op, bool ignoreExisting)
{
    const std::size_t colocations = m_colocationScopes.size();
    const std::size_t devices = m_deviceScopes.size();
    m_colocationScopes.push_back({ignoreExisting, op.name()});
    m_deviceScopes.push_back({true, {}}); // colocate_with resets the device stack
    return ScopeGuard({}, [this, colocations, devices] {
        m_colocationScopes.resize(colocations);
        m_deviceScopes.resize(devices);
    });
}

ScopeGuard GraphBuilder::attrScope(AttrMap attrs)
{
    const std::size_t size = m_attrScopes.size();
    m_attrScopes.push_back(std::move(attrs));
    return ScopeGuard({}, [this, size] { m_attrScopes.resize(size); });
}

std::vector<std::string> GraphBuilder::colocationGroups(const std::string& node) const
{
    std::vector<std::string> groups;
    if (const tensorflow::NodeDef* def = findNode(node)) {
        if (auto it = def->attr().find("_class"); it != def->attr().end()) {
            for (const std::string& s : it->second.list().s()) {
                if (s.starts_with("loc:@"))
                    groups.push_back(s);
            }
        }
    }
    if (groups.empty())
        groups.push_back("loc:@" + node);
    return groups;
}

// --- Node creation -----------------------------------------------------------------------------------

Expected<Operation> GraphBuilder::op(std::string_view type, std::vector<OpInput> inputs, AttrMap attrs,
                                     std::string_view name)
{
    ControlFlowContext* context = m_controlFlowContext;
    if (context == nullptr)
        return addNode(type, std::move(inputs), std::move(attrs), name);
    // In a control-flow context the node's name is fixed first, so that the helper ops its context
    // adds for its inputs (loop Enters, history stacks) are named under it, as in TensorFlow.
    if (name.empty())
        name = type;
    std::string nodeName;
    if (name.back() == '/') {
        nodeName = std::string(name.substr(0, name.size() - 1));
    } else {
        nodeName = uniqueName(name);
        m_names.reserve(nodeName);
    }
    std::vector<std::vector<Output>> tensors;
    std::vector<bool> lists;
    for (const OpInput& in : inputs) {
        tensors.push_back(in.tensors());
        lists.push_back(in.isList());
    }
    ControlFlowContext* owner = context;
    {
        auto scope = nameScope(nodeName + "/");
        if (!scope)
            return unexpected(scope.error());
        auto prepared = context->prepareOp(*this, std::string(type), tensors);
        if (!prepared)
            return unexpected(prepared.error().withContext("node '" + nodeName + "'"));
        owner = *prepared;
    }
    std::vector<OpInput> rewritten;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (lists[i])
            rewritten.emplace_back(std::move(tensors[i]));
        else
            rewritten.emplace_back(std::move(tensors[i].front()));
    }
    auto created = addNode(type, std::move(rewritten), std::move(attrs), nodeName + "/");
    if (!created)
        return created;
    m_nodes[static_cast<std::size_t>(m_byName.at(nodeName))].context = owner;
    if (owner != nullptr) {
        if (Status s = owner->opAdded(*this, *created); !s.isOk())
            return unexpected(s.withContext("node '" + nodeName + "'"));
    }
    return operationOf(m_byName.at(nodeName));
}

// --- Control-flow contexts ------------------------------------------------------------------------------

ControlFlowContext* GraphBuilder::addControlFlowContext(std::unique_ptr<ControlFlowContext> context)
{
    m_contexts.push_back(std::move(context));
    return m_contexts.back().get();
}

ScopeGuard GraphBuilder::controlFlowContextScope(ControlFlowContext* context)
{
    ControlFlowContext* previous = std::exchange(m_controlFlowContext, context);
    return ScopeGuard({}, [this, previous] { m_controlFlowContext = previous; });
}

ControlFlowContext* GraphBuilder::contextOf(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? nullptr : m_nodes[static_cast<std::size_t>(it->second)].context;
}

Status GraphBuilder::setContextOf(std::string_view name, ControlFlowContext* context)
{
    auto it = m_byName.find(std::string(name));
    if (it == m_byName.end())
        return notFoundError("The graph has no node named '" + std::string(name) + "'");
    m_nodes[static_cast<std::size_t>(it->second)].context = context;
    return Status::ok();
}

Status GraphBuilder::updateInput(std::string_view name, int index, const Output& input)
{
    auto it = m_byName.find(std::string(name));
    if (it == m_byName.end())
        return notFoundError("The graph has no node named '" + std::string(name) + "'");
    auto id = nodeIdOf(input);
    if (!id)
        return id.error();
    tensorflow::NodeDef& node = *m_def.mutable_node(it->second);
    int dataInputs = 0;
    while (dataInputs < node.input_size() && !node.input(dataInputs).starts_with('^'))
        ++dataInputs;
    if (index < 0 || index >= dataInputs)
        return invalidArgumentError("node '" + node.name() + "' has no data input " + std::to_string(index));
    auto current = tensor(node.input(index));
    if (!current)
        return current.error();
    if (current->baseDtype() != input.baseDtype())
        return invalidArgumentError("input " + std::to_string(index) + " of '" + node.name() + "' is " +
                                    dataTypeName(current->baseDtype()) + "; cannot replace it by " + input.name() +
                                    " of type " + dataTypeName(input.baseDtype()));
    node.set_input(index, input.inputString());
    return Status::ok();
}

Status GraphBuilder::setShape(const Output& t, const TensorShape& shape)
{
    auto id = nodeIdOf(t);
    if (!id)
        return id.error();
    TensorShape& current = m_nodes[static_cast<std::size_t>(*id)].outputs[static_cast<std::size_t>(t.index())].shape;
    auto merged = current.merge(shape);
    if (!merged)
        return invalidArgumentError("Shapes " + current.toString() + " and " + shape.toString() +
                                    " are incompatible (tensor '" + t.name() + "')");
    current = *merged;
    return Status::ok();
}

Status GraphBuilder::addControlInput(std::string_view name, std::string_view control)
{
    auto it = m_byName.find(std::string(name));
    if (it == m_byName.end())
        return notFoundError("The graph has no node named '" + std::string(name) + "'");
    if (m_byName.count(std::string(control)) == 0)
        return notFoundError("The graph has no node named '" + std::string(control) + "'");
    tensorflow::NodeDef& node = *m_def.mutable_node(it->second);
    const std::string wanted = "^" + std::string(control);
    for (const std::string& in : node.input()) {
        if (in == wanted)
            return Status::ok();
    }
    node.add_input(wanted);
    return Status::ok();
}

Expected<Operation> GraphBuilder::addNode(std::string_view type, std::vector<OpInput> inputs, AttrMap attrs,
                                          std::string_view name)
{
    if (Status s = checkNotFinalized(); !s.isOk())
        return unexpected(std::move(s));
    // The name: a scope name ("a/b/") as is, anything else made unique in the current scope.
    if (name.empty())
        name = type;
    std::string nodeName;
    if (name.back() == '/') {
        nodeName = std::string(name.substr(0, name.size() - 1));
        if (m_byName.count(nodeName) > 0)
            return unexpected(invalidArgumentError("Duplicate node name in graph: '" + nodeName + "'"));
    } else {
        nodeName = uniqueName(name);
    }
    if (!isValidNodeName(nodeName))
        return unexpected(invalidArgumentError("'" + nodeName + "' is not a valid node name"));
    m_names.reserve(nodeName);

    auto registration = m_registry.lookUp(type);
    if (!registration)
        return unexpected(registration.error().withContext("node '" + nodeName + "'"));
    const tensorflow::OpDef& opDef = (*registration)->opDef;
    const std::string typeName(type);

    tensorflow::NodeDef node;
    node.set_name(nodeName);
    node.set_op(typeName);
    for (auto& [key, value] : attrs)
        (*node.mutable_attr())[key] = std::move(value);

    // Inputs: one OpInput per input argument; type and length attrs inferred from them.
    if (static_cast<int>(inputs.size()) != opDef.input_arg_size()) {
        std::string argNames;
        for (const auto& arg : opDef.input_arg())
            argNames += (argNames.empty() ? "" : ", ") + arg.name();
        return unexpected(nodeError(nodeName, typeName,
                                    "expected " + std::to_string(opDef.input_arg_size()) + " inputs (" + argNames +
                                        ") but got " + std::to_string(inputs.size())));
    }
    std::vector<int> inputIds;
    std::vector<DataType> actualTypes;
    std::vector<std::string> refColocations;
    std::map<std::string, std::string> inferredFrom; // type attr -> argument that set it
    for (int a = 0; a < opDef.input_arg_size(); ++a) {
        const auto& arg = opDef.input_arg(a);
        const OpInput& in = inputs[static_cast<std::size_t>(a)];
        const bool listArg = !arg.number_attr().empty() || !arg.type_list_attr().empty();
        const std::string prefix = "Input '" + arg.name() + "' of '" + typeName + "' Op";
        if (listArg != in.isList())
            return unexpected(nodeError(nodeName, typeName,
                                        prefix + (listArg ? " expects a list of tensors" : " expects one tensor") +
                                            ", got " + (in.isList() ? "a list" : "one tensor")));
        std::vector<DataType> argTypes;
        for (const Output& t : in.tensors()) {
            auto id = nodeIdOf(t);
            if (!id)
                return unexpected(id.error().withContext("node '" + nodeName + "'"));
            const DataType dtype =
                m_nodes[static_cast<std::size_t>(*id)].outputs[static_cast<std::size_t>(t.index())].dtype;
            if (arg.is_ref() && !isRefType(dtype))
                return unexpected(nodeError(nodeName, typeName, prefix + " requires l-value input"));
            if (arg.is_ref())
                refColocations.push_back(t.node());
            inputIds.push_back(*id);
            actualTypes.push_back(dtype);
            argTypes.push_back(baseType(dtype));
            node.add_input(t.inputString());
        }
        if (Status st = inferArgumentAttrs(node, arg, argTypes, nodeName, typeName, prefix, inferredFrom); !st.isOk())
            return unexpected(std::move(st));
    }

    // Attr scopes (inner first), the gradient override, then colocation, then the device.
    for (auto it = m_attrScopes.rbegin(); it != m_attrScopes.rend(); ++it) {
        for (const auto& [key, value] : *it) {
            if (node.attr().find(key) == node.attr().end())
                (*node.mutable_attr())[key] = value;
        }
    }
    if (const auto mapped = m_gradientOverrides.find(node.op()); mapped != m_gradientOverrides.end())
        (*node.mutable_attr())["_gradient_op_type"] = attr::s(mapped->second);
    std::vector<std::string> colocations; // innermost first
    for (auto it = refColocations.rbegin(); it != refColocations.rend(); ++it)
        colocations.push_back(*it);
    const bool refColocated = !refColocations.empty();
    for (auto it = m_colocationScopes.rbegin(); it != m_colocationScopes.rend(); ++it) {
        colocations.push_back(it->node);
        if (it->clears)
            break;
    }
    std::string device;
    if (!refColocated) {
        auto chosen = deviceFor(node);
        if (!chosen)
            return unexpected(chosen.error());
        device = std::move(*chosen);
    }
    if (!colocations.empty()) {
        std::set<std::string> groups;
        for (const std::string& c : colocations) {
            for (std::string& g : colocationGroups(c))
                groups.insert(std::move(g));
            if (const tensorflow::NodeDef* def = findNode(c); def && !def->device().empty())
                device = def->device();
        }
        (*node.mutable_attr())["_class"] = attr::strings(std::vector<std::string>(groups.begin(), groups.end()));
    }
    node.set_device(device);

    // Control inputs from the active control-dependency scopes (outermost first).
    std::size_t firstActive = 0;
    for (std::size_t i = m_controlScopes.size(); i > 0; --i) {
        if (m_controlScopes[i - 1].clears) {
            firstActive = i;
            break;
        }
    }
    std::vector<std::string> controls;
    for (std::size_t i = firstActive; i < m_controlScopes.size(); ++i) {
        const ControlScope& scope = m_controlScopes[i];
        const bool dominated = std::any_of(inputIds.begin(), inputIds.end(), [&](int id) {
            return std::find(scope.created.begin(), scope.created.end(), id) != scope.created.end();
        });
        if (dominated)
            continue;
        for (const std::string& c : scope.controls) {
            const bool isDataInput =
                std::any_of(inputIds.begin(), inputIds.end(), [&](int id) { return m_def.node(id).name() == c; });
            if (!isDataInput && std::find(controls.begin(), controls.end(), c) == controls.end())
                controls.push_back(c);
        }
    }
    for (const std::string& c : controls)
        node.add_input("^" + c);

    // Defaults, validation and dtypes.
    addDefaultAttrs(opDef, &node);
    if (Status s = validateNodeDef(opDef, node); !s.isOk())
        return unexpected(std::move(s));
    auto expectedTypes = inputTypesForNode(opDef, node);
    if (!expectedTypes)
        return unexpected(expectedTypes.error().withContext("node '" + nodeName + "'"));
    for (std::size_t i = 0; i < expectedTypes->size() && i < actualTypes.size(); ++i) {
        const DataType want = (*expectedTypes)[i];
        const DataType got = actualTypes[i];
        if (baseType(want) != baseType(got) || (isRefType(want) && !isRefType(got)))
            return unexpected(nodeError(nodeName, typeName,
                                        "input " + std::to_string(i) + " is " + dataTypeName(got) +
                                            " but the op expects " + dataTypeName(want)));
    }
    auto outputTypes = outputTypesForNode(opDef, node);
    if (!outputTypes)
        return unexpected(outputTypes.error().withContext("node '" + nodeName + "'"));

    // Shapes and known values: the shape refiner's step for one node, as for a whole graph.
    NodeInfo info;
    if ((*registration)->shapeFunction) {
        std::vector<const InferredOutput*> inputOutputs;
        std::size_t k = 0;
        for (const OpInput& in : inputs) {
            for (const Output& t : in.tensors()) {
                const NodeInfo& src = m_nodes[static_cast<std::size_t>(inputIds[k++])];
                inputOutputs.push_back(&src.outputs[static_cast<std::size_t>(t.index())]);
            }
        }
        ShapeRefinerOptions options;
        options.maxConstantElements = kMaxKnownValueElements;
        auto inferred = inferNodeOutputs(node, **registration, inputOutputs, m_allocator, options);
        if (!inferred)
            return unexpected(inferred.error());
        info.outputs = std::move(*inferred);
    } else {
        // No shape function: the outputs' shapes stay unknown.
        for (DataType dtype : *outputTypes)
            info.outputs.push_back(InferredOutput{dtype, TensorShape::unknown(), std::nullopt});
    }
    if (typeName == "Const" && !info.outputs.front().value) {
        // A small value that does not read is an error here (tf.constant never writes one);
        // the refiner merely leaves such a value unknown.
        const tensorflow::TensorProto& proto = node.attr().at("value").tensor();
        const std::int64_t elements = protoElements(proto);
        if (elements >= 0 && elements <= kMaxKnownValueElements) {
            if (auto value = Tensor::fromProto(m_allocator, proto); !value)
                return unexpected(nodeError(nodeName, typeName, value.error().message()));
        }
    }

    // Commit.
    const int id = m_def.node_size();
    *m_def.add_node() = std::move(node);
    m_nodes.push_back(std::move(info));
    m_byName.emplace(nodeName, id);
    for (std::size_t i = firstActive; i < m_controlScopes.size(); ++i)
        m_controlScopes[i].created.push_back(id);
    return operationOf(id);
}

// --- Export ------------------------------------------------------------------------------------------

tensorflow::GraphDef GraphBuilder::toGraphDef(bool addShapes) const
{
    tensorflow::GraphDef out = m_def;
    if (!addShapes)
        return out;
    for (int i = 0; i < out.node_size(); ++i) {
        const NodeInfo& info = m_nodes[static_cast<std::size_t>(i)];
        if (info.outputs.empty())
            continue;
        tensorflow::AttrValue shapes;
        auto* list = shapes.mutable_list();
        for (const InferredOutput& o : info.outputs)
            *list->add_shape() = o.shape.toProto();
        (*out.mutable_node(i)->mutable_attr())["_output_shapes"] = std::move(shapes);
    }
    return out;
}

} // namespace tstudio
