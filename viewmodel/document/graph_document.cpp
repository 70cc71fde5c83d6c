// GraphDocument: nodes by id, ports from OpDefs, connection checks, and GraphDef conversion.
#include "document/graph_document.h"

#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"

#include <QSignalBlocker>
#include <QUndoStack>

#include <algorithm>
#include <tuple>

namespace tstudio {

namespace {

constexpr int kMaxPorts = 100000; // an attr asking for more slots than this is clamped (bad data)
constexpr int kMaxInferenceDepth = 32;

const tensorflow::OpDef::AttrDef* findAttrDef(const tensorflow::OpDef& opDef, const std::string& name)
{
    for (const auto& attr : opDef.attr())
        if (attr.name() == name)
            return &attr;
    return nullptr;
}

const tensorflow::AttrValue* findIn(const std::map<std::string, tensorflow::AttrValue>& attrs, const std::string& name)
{
    const auto it = attrs.find(name);
    return it == attrs.end() ? nullptr : &it->second;
}

/// Tensors an argument stands for, given attrs (with defaults already merged in or not).
int argCount(const tensorflow::OpDef& opDef, const tensorflow::OpDef::ArgDef& arg,
             const std::map<std::string, tensorflow::AttrValue>& attrs)
{
    long long count = 1;
    if (!arg.number_attr().empty()) {
        const auto* def = findAttrDef(opDef, arg.number_attr());
        if (const auto* v = findIn(attrs, arg.number_attr()); v && v->value_case() == tensorflow::AttrValue::kI)
            count = v->i();
        else if (def && def->default_value().value_case() == tensorflow::AttrValue::kI)
            count = def->default_value().i();
        else if (def && def->has_minimum())
            count = def->minimum();
    } else if (!arg.type_list_attr().empty()) {
        const auto* def = findAttrDef(opDef, arg.type_list_attr());
        if (const auto* v = findIn(attrs, arg.type_list_attr()); v && v->has_list())
            count = v->list().type_size();
        else if (def && def->default_value().has_list())
            count = def->default_value().list().type_size();
        else
            count = def && def->has_minimum() ? def->minimum() : 0;
    }
    return static_cast<int>(std::clamp<long long>(count, 0, kMaxPorts));
}

int totalCount(const tensorflow::OpDef& opDef,
               const google::protobuf::RepeatedPtrField<tensorflow::OpDef::ArgDef>& args,
               const std::map<std::string, tensorflow::AttrValue>& attrs)
{
    long long total = 0;
    for (const auto& arg : args)
        total += argCount(opDef, arg, attrs);
    return static_cast<int>(std::min<long long>(total, kMaxPorts));
}

/// The argument holding input slot `slot` and the slot's index inside it.
std::pair<const tensorflow::OpDef::ArgDef*, int>
argOfSlot(const tensorflow::OpDef& opDef, const std::map<std::string, tensorflow::AttrValue>& attrs, int slot)
{
    int first = 0;
    for (const auto& arg : opDef.input_arg()) {
        const int n = argCount(opDef, arg, attrs);
        if (slot < first + n)
            return {&arg, slot - first};
        first += n;
    }
    return {nullptr, 0};
}

tensorflow::AttrValue typeValue(DataType t)
{
    tensorflow::AttrValue v;
    v.set_type(t);
    return v;
}

} // namespace

GraphDocument::GraphDocument(const OpRegistry* ops, QObject* parent)
    : QObject(parent), m_ops(ops), m_undoStack(new QUndoStack(this))
{
    qRegisterMetaType<tstudio::Connection>();
    qRegisterMetaType<tstudio::DocNodeId>("tstudio::DocNodeId");
}

GraphDocument::~GraphDocument()
{
    // Commands refer to the document; delete them while it is still whole.
    delete m_undoStack;
    m_undoStack = nullptr;
}

void GraphDocument::setLayerPorts(std::function<PortCounts(const DocNode&)> layerPorts)
{
    m_layerPorts = std::move(layerPorts);
}

void GraphDocument::setLayerSlotNames(std::function<std::string(const DocNode&, int)> slotNames)
{
    m_layerSlotNames = std::move(slotNames);
}

void GraphDocument::setLayerExpander(std::function<Status(const DocNode&, tensorflow::GraphDef&)> expander)
{
    m_layerExpander = std::move(expander);
}

void GraphDocument::setLayerOutputTensor(std::function<std::string(const DocNode&, int)> outputTensor)
{
    m_layerOutputTensor = std::move(outputTensor);
}

// ---- queries ----

std::vector<DocNodeId> GraphDocument::nodes() const
{
    std::vector<DocNodeId> ids;
    ids.reserve(m_nodes.size());
    for (const auto& [id, node] : m_nodes)
        ids.push_back(id);
    return ids;
}

const DocNode* GraphDocument::node(DocNodeId id) const
{
    const auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : &it->second;
}

DocNodeId GraphDocument::findByName(std::string_view name) const
{
    const auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? kNoNode : it->second;
}

std::vector<Connection> GraphDocument::inputsOf(DocNodeId id) const
{
    std::vector<Connection> result;
    const DocNode* n = node(id);
    if (!n)
        return result;
    for (int slot = 0; slot < static_cast<int>(n->inputs.size()); ++slot)
        if (n->inputs[slot].isConnected())
            result.push_back({n->inputs[slot].source, n->inputs[slot].output, id, slot});
    for (DocNodeId from : n->controlInputs)
        result.push_back(Connection::control(from, id));
    return result;
}

std::vector<Connection> GraphDocument::consumersOf(DocNodeId id) const
{
    std::vector<Connection> result;
    if (const auto it = m_consumers.find(id); it != m_consumers.end())
        result.assign(it->second.begin(), it->second.end());
    std::sort(result.begin(), result.end(), [](const Connection& a, const Connection& b) {
        return std::make_tuple(a.to, a.isControl(), a.slot, a.output) <
               std::make_tuple(b.to, b.isControl(), b.slot, b.output);
    });
    return result;
}

bool GraphDocument::hasConnection(const Connection& c) const
{
    const DocNode* to = node(c.to);
    if (!to)
        return false;
    if (c.isControl())
        return c.output == Connection::kControl && to->controlInputs.count(c.from) > 0;
    return c.slot >= 0 && c.slot < static_cast<int>(to->inputs.size()) && to->inputs[c.slot].source == c.from &&
           to->inputs[c.slot].output == c.output && c.from != kNoNode;
}

std::vector<Connection> GraphDocument::connections() const
{
    std::vector<Connection> result;
    for (const auto& [id, n] : m_nodes) {
        const auto in = inputsOf(id);
        result.insert(result.end(), in.begin(), in.end());
    }
    return result;
}

std::string GraphDocument::slotName(DocNodeId id, int slot) const
{
    const DocNode* n = node(id);
    if (!n || slot < 0 || slot >= static_cast<int>(n->inputs.size()))
        return {};
    if (n->kind == NodeKind::kOp)
        if (const OpRegistration* reg = m_ops ? m_ops->find(n->type) : nullptr) {
            const auto [arg, index] = argOfSlot(reg->opDef, n->attrs, slot);
            if (arg) {
                if (arg->number_attr().empty() && arg->type_list_attr().empty())
                    return arg->name();
                return arg->name() + "[" + std::to_string(index) + "]";
            }
        }
    if (n->kind == NodeKind::kLayer && m_layerSlotNames)
        if (std::string name = m_layerSlotNames(*n, slot); !name.empty())
            return name;
    return "input " + std::to_string(slot);
}

std::string GraphDocument::tensorName(DocNodeId id, int output) const
{
    const DocNode* n = node(id);
    return n ? n->name + ":" + std::to_string(output) : std::string();
}

std::string GraphDocument::inputString(DocNodeId id, int output) const
{
    const DocNode* n = node(id);
    if (!n)
        return {};
    if (n->kind == NodeKind::kLayer && m_layerOutputTensor)
        return m_layerOutputTensor(*n, output);
    return TensorId{n->name, output}.toString(true);
}

DataType GraphDocument::outputType(DocNodeId id, int output) const
{
    return outputTypeAt(id, output, 0);
}

std::map<std::string, tensorflow::AttrValue> GraphDocument::effectiveAttrs(const DocNode& n, int depth,
                                                                           int skipSlot) const
{
    std::map<std::string, tensorflow::AttrValue> attrs = n.attrs;
    const OpRegistration* reg = n.kind == NodeKind::kOp && m_ops ? m_ops->find(n.type) : nullptr;
    if (!reg)
        return attrs;
    const tensorflow::OpDef& opDef = reg->opDef;
    for (const auto& def : opDef.attr())
        if (!attrs.count(def.name()) && def.has_default_value())
            attrs[def.name()] = def.default_value();
    // Type attrs still unset come from the connected inputs, as tf.Operation's constructor infers them.
    int first = 0;
    for (const auto& arg : opDef.input_arg()) {
        const int count = argCount(opDef, arg, attrs);
        if (!arg.number_attr().empty() && !attrs.count(arg.number_attr()))
            attrs[arg.number_attr()].set_i(count);
        auto sourceType = [&](int slot) -> DataType {
            if (slot == skipSlot || slot >= static_cast<int>(n.inputs.size()) || !n.inputs[slot].isConnected())
                return tensorflow::DT_INVALID;
            return baseType(outputTypeAt(n.inputs[slot].source, n.inputs[slot].output, depth + 1));
        };
        if (!arg.type_attr().empty() && !attrs.count(arg.type_attr())) {
            for (int i = 0; i < count; ++i)
                if (const DataType t = sourceType(first + i); t != tensorflow::DT_INVALID) {
                    attrs[arg.type_attr()] = typeValue(t);
                    break;
                }
        } else if (!arg.type_list_attr().empty() && !attrs.count(arg.type_list_attr())) {
            tensorflow::AttrValue list;
            list.mutable_list();
            bool known = true;
            for (int i = 0; i < count && known; ++i) {
                const DataType t = sourceType(first + i);
                known = t != tensorflow::DT_INVALID;
                list.mutable_list()->add_type(t);
            }
            if (known)
                attrs[arg.type_list_attr()] = list;
        }
        first += count;
    }
    return attrs;
}

DataType GraphDocument::outputTypeAt(DocNodeId id, int output, int depth) const
{
    const DocNode* n = node(id);
    if (!n || depth > kMaxInferenceDepth || output < 0 || output >= n->outputs || n->kind != NodeKind::kOp || !m_ops)
        return tensorflow::DT_INVALID;
    const OpRegistration* reg = m_ops->find(n->type);
    if (!reg)
        return tensorflow::DT_INVALID;
    tensorflow::NodeDef def;
    def.set_name(n->name);
    def.set_op(n->type);
    for (auto& [name, value] : effectiveAttrs(*n, depth))
        (*def.mutable_attr())[name] = value;
    const auto types = outputTypesForNode(reg->opDef, def);
    if (!types || output >= static_cast<int>(types->size()))
        return tensorflow::DT_INVALID;
    return (*types)[output];
}

bool GraphDocument::reaches(DocNodeId from, DocNodeId target) const
{
    // Walks the inputs (data and control) of `from` backwards looking for `target`.
    std::vector<DocNodeId> stack{from};
    std::set<DocNodeId> seen{from};
    while (!stack.empty()) {
        const DocNodeId id = stack.back();
        stack.pop_back();
        if (id == target)
            return true;
        const DocNode* n = node(id);
        if (!n)
            continue;
        auto visit = [&](DocNodeId next) {
            if (next != kNoNode && seen.insert(next).second)
                stack.push_back(next);
        };
        for (const auto& slot : n->inputs)
            visit(slot.source);
        for (DocNodeId c : n->controlInputs)
            visit(c);
    }
    return false;
}

Status GraphDocument::canConnect(DocNodeId from, int output, DocNodeId to, int slot) const
{
    const DocNode* src = node(from);
    const DocNode* dst = node(to);
    if (!src || !dst)
        return notFoundError("Cannot connect: node " + std::to_string(src ? to : from) + " is not in the document");
    if (output < 0 || output >= src->outputs)
        return invalidArgumentError("Node '" + src->name + "' has no output " + std::to_string(output) + " (it has " +
                                    std::to_string(src->outputs) + ")");
    if (slot < 0 || slot >= static_cast<int>(dst->inputs.size()))
        return invalidArgumentError("Node '" + dst->name + "' has no input slot " + std::to_string(slot) + " (it has " +
                                    std::to_string(dst->inputs.size()) + ")");
    if (from == to || reaches(from, to))
        return invalidArgumentError("Connecting '" + tensorName(from, output) + "' to '" + dst->name +
                                    "' would create a cycle");
    const OpRegistration* reg = dst->kind == NodeKind::kOp && m_ops ? m_ops->find(dst->type) : nullptr;
    if (!reg)
        return Status::ok();
    const DataType srcType = outputTypeAt(from, output, 0);
    if (srcType == tensorflow::DT_INVALID)
        return Status::ok();
    const auto attrs = effectiveAttrs(*dst, 0, slot);
    const auto [arg, index] = argOfSlot(reg->opDef, attrs, slot);
    if (!arg)
        return Status::ok();
    auto mismatch = [&](const std::string& expected) {
        return invalidArgumentError("Cannot connect " + dataTypeName(srcType) + " output '" + tensorName(from, output) +
                                    "' to input '" + slotName(to, slot) + "' of '" + dst->name + "' which expects " +
                                    expected);
    };
    DataType expected = tensorflow::DT_INVALID;
    if (arg->type() != tensorflow::DT_INVALID) {
        expected = arg->type();
    } else if (!arg->type_attr().empty()) {
        if (const auto* v = findIn(attrs, arg->type_attr()); v && v->value_case() == tensorflow::AttrValue::kType)
            expected = v->type();
        else if (const auto* def = findAttrDef(reg->opDef, arg->type_attr());
                 def && def->allowed_values().has_list() && def->allowed_values().list().type_size() > 0) {
            const auto& allowed = def->allowed_values().list().type();
            if (std::find(allowed.begin(), allowed.end(), baseType(srcType)) == allowed.end()) {
                std::string names;
                for (int t : allowed)
                    names += (names.empty() ? "" : ", ") + dataTypeName(static_cast<DataType>(t));
                return mismatch("one of " + names);
            }
        }
    } else if (!arg->type_list_attr().empty()) {
        if (const auto* v = findIn(attrs, arg->type_list_attr()); v && v->has_list() && index < v->list().type_size())
            expected = static_cast<DataType>(v->list().type(index));
    }
    if (arg->is_ref() && !isRefType(srcType))
        return mismatch(expected == tensorflow::DT_INVALID ? std::string("a reference")
                                                           : dataTypeName(makeRefType(expected)));
    if (expected != tensorflow::DT_INVALID && baseType(srcType) != baseType(expected))
        return mismatch(dataTypeName(arg->is_ref() ? makeRefType(expected) : expected));
    return Status::ok();
}

Status GraphDocument::canConnectControl(DocNodeId from, DocNodeId to) const
{
    const DocNode* src = node(from);
    const DocNode* dst = node(to);
    if (!src || !dst)
        return notFoundError("Cannot connect: node " + std::to_string(src ? to : from) + " is not in the document");
    if (dst->controlInputs.count(from))
        return Status(StatusCode::kAlreadyExists,
                      "'" + src->name + "' is already a control input of '" + dst->name + "'");
    if (from == to || reaches(from, to))
        return invalidArgumentError("A control edge from '" + src->name + "' to '" + dst->name +
                                    "' would create a cycle");
    return Status::ok();
}

Status GraphDocument::checkName(std::string_view name, DocNodeId except) const
{
    if (!isValidNodeName(name))
        return invalidArgumentError("'" + std::string(name) +
                                    "' is not a valid node name (expected [A-Za-z0-9.][A-Za-z0-9_.\\-/]*)");
    const DocNodeId owner = findByName(name);
    if (owner != kNoNode && owner != except)
        return Status(StatusCode::kAlreadyExists, "A node named '" + std::string(name) + "' already exists");
    return Status::ok();
}

std::string GraphDocument::uniqueName(std::string_view base, const std::set<std::string>* reserved) const
{
    auto taken = [&](const std::string& name) {
        return m_byName.count(name) > 0 || (reserved && reserved->count(name) > 0);
    };
    std::string name(base);
    for (int i = 1; taken(name); ++i)
        name = std::string(base) + "_" + std::to_string(i);
    return name;
}

bool GraphDocument::scopeInUse(std::string_view scope) const
{
    const std::string prefix = std::string(scope) + "/";
    for (const auto& [name, id] : m_byName)
        if (name == scope || name.compare(0, prefix.size(), prefix) == 0)
            return true;
    return false;
}

// ---- mutators ----

PortCounts GraphDocument::portsFor(const DocNode& n) const
{
    if (n.kind == NodeKind::kLayer)
        return m_layerPorts ? m_layerPorts(n) : PortCounts{};
    const OpRegistration* reg = m_ops ? m_ops->find(n.type) : nullptr;
    if (!reg)
        return {static_cast<int>(n.inputs.size()), n.outputs};
    return {totalCount(reg->opDef, reg->opDef.input_arg(), n.attrs),
            totalCount(reg->opDef, reg->opDef.output_arg(), n.attrs)};
}

Expected<DocNodeId> GraphDocument::addNode(const NodeSpec& spec, DocNodeId id)
{
    if (spec.type.empty())
        return unexpected(invalidArgumentError("A node needs a type (op or layer)"));
    if (Status s = checkName(spec.name); !s.isOk())
        return unexpected(s);
    if (id != kNoNode && m_nodes.count(id))
        return unexpected(Status(StatusCode::kAlreadyExists, "Node id " + std::to_string(id) + " is in use"));
    DocNode n;
    n.name = spec.name;
    n.kind = spec.kind;
    n.type = spec.type;
    n.attrs = spec.attrs;
    n.device = spec.device;
    n.position = spec.position;
    const bool known = spec.kind == NodeKind::kLayer || (m_ops && m_ops->find(spec.type));
    if (!known && !spec.ports)
        return unexpected(notFoundError("Op type not registered '" + spec.type + "'"));
    PortCounts ports = known ? portsFor(n) : *spec.ports;
    ports.inputs = std::clamp(ports.inputs, 0, kMaxPorts);
    ports.outputs = std::clamp(ports.outputs, 0, kMaxPorts);
    n.inputs.resize(ports.inputs);
    n.outputs = ports.outputs;
    n.id = id == kNoNode ? m_nextId : id;
    m_nextId = std::max(m_nextId, n.id + 1);
    m_byName[n.name] = n.id;
    const DocNodeId newId = n.id;
    m_nodes.emplace(newId, std::move(n));
    emit nodeAdded(newId);
    return newId;
}

void GraphDocument::eraseConsumer(const Connection& c)
{
    if (auto it = m_consumers.find(c.from); it != m_consumers.end()) {
        it->second.erase(c);
        if (it->second.empty())
            m_consumers.erase(it);
    }
}

Status GraphDocument::removeNode(DocNodeId id)
{
    if (!node(id))
        return notFoundError("Node " + std::to_string(id) + " is not in the document");
    for (const Connection& c : consumersOf(id))
        (void)disconnect(c);
    for (const Connection& c : inputsOf(id))
        (void)disconnect(c);
    m_byName.erase(m_nodes.at(id).name);
    m_nodes.erase(id);
    emit nodeRemoved(id);
    return Status::ok();
}

Status GraphDocument::moveNode(DocNodeId id, QPointF position)
{
    const auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return notFoundError("Node " + std::to_string(id) + " is not in the document");
    if (it->second.position == position)
        return Status::ok();
    it->second.position = position;
    emit nodeMoved(id);
    return Status::ok();
}

Status GraphDocument::renameNodes(const std::vector<std::pair<DocNodeId, std::string>>& renames)
{
    std::set<DocNodeId> ids;
    std::set<std::string> newNames;
    for (const auto& [id, name] : renames) {
        if (!node(id))
            return notFoundError("Node " + std::to_string(id) + " is not in the document");
        if (!ids.insert(id).second)
            return invalidArgumentError("Node " + std::to_string(id) + " is renamed twice");
        if (!isValidNodeName(name))
            return checkName(name);
        if (!newNames.insert(name).second)
            return Status(StatusCode::kAlreadyExists, "Two nodes would be named '" + name + "'");
    }
    for (const auto& [id, name] : renames)
        if (const DocNodeId owner = findByName(name); owner != kNoNode && !ids.count(owner))
            return Status(StatusCode::kAlreadyExists, "A node named '" + name + "' already exists");
    std::vector<std::pair<DocNodeId, std::string>> changed;
    for (const auto& [id, name] : renames) {
        DocNode& n = m_nodes.at(id);
        if (n.name != name) {
            m_byName.erase(n.name);
            changed.emplace_back(id, n.name);
        }
    }
    for (const auto& [id, name] : renames) {
        DocNode& n = m_nodes.at(id);
        n.name = name;
        m_byName[name] = id;
    }
    for (const auto& [id, oldName] : changed)
        emit nodeRenamed(id, QString::fromStdString(oldName), QString::fromStdString(m_nodes.at(id).name));
    return Status::ok();
}

Status GraphDocument::setAttr(DocNodeId id, const std::string& name, const std::optional<tensorflow::AttrValue>& value)
{
    const auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return notFoundError("Node " + std::to_string(id) + " is not in the document");
    if (name.empty())
        return invalidArgumentError("An attr needs a name");
    DocNode& n = it->second;
    if (value)
        n.attrs[name] = *value;
    else
        n.attrs.erase(name);
    const PortCounts ports = portsFor(n);
    const int inputs = std::clamp(ports.inputs, 0, kMaxPorts);
    const int outputs = std::clamp(ports.outputs, 0, kMaxPorts);
    const bool portsChanged = inputs != static_cast<int>(n.inputs.size()) || outputs != n.outputs;
    for (const Connection& c : consumersOf(id))
        if (!c.isControl() && c.output >= outputs)
            (void)disconnect(c);
    for (int slot = inputs; slot < static_cast<int>(n.inputs.size()); ++slot)
        if (n.inputs[slot].isConnected())
            (void)disconnect({n.inputs[slot].source, n.inputs[slot].output, id, slot});
    n.inputs.resize(inputs);
    n.outputs = outputs;
    emit attrChanged(id, QString::fromStdString(name));
    if (portsChanged)
        emit nodePortsChanged(id);
    return Status::ok();
}

Status GraphDocument::setDevice(DocNodeId id, const std::string& device)
{
    const auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return notFoundError("Node " + std::to_string(id) + " is not in the document");
    it->second.device = device;
    emit deviceChanged(id);
    return Status::ok();
}

Status GraphDocument::connect(const Connection& c)
{
    const auto src = m_nodes.find(c.from);
    const auto dst = m_nodes.find(c.to);
    if (src == m_nodes.end() || dst == m_nodes.end())
        return notFoundError("Cannot connect: node " + std::to_string(src == m_nodes.end() ? c.from : c.to) +
                             " is not in the document");
    if (c.isControl()) {
        if (c.output != Connection::kControl || c.from == c.to)
            return invalidArgumentError("A control edge needs two different nodes");
        if (!dst->second.controlInputs.insert(c.from).second)
            return Status::ok();
        m_consumers[c.from].insert(c);
        emit controlConnected(c.from, c.to);
        return Status::ok();
    }
    if (c.output < 0 || c.output >= src->second.outputs)
        return invalidArgumentError("Node '" + src->second.name + "' has no output " + std::to_string(c.output));
    if (c.slot < 0 || c.slot >= static_cast<int>(dst->second.inputs.size()))
        return invalidArgumentError("Node '" + dst->second.name + "' has no input slot " + std::to_string(c.slot));
    InputSlot& slot = dst->second.inputs[c.slot];
    if (slot.source == c.from && slot.output == c.output)
        return Status::ok();
    if (slot.isConnected())
        (void)disconnect({slot.source, slot.output, c.to, c.slot});
    slot = {c.from, c.output};
    m_consumers[c.from].insert(c);
    emit connected(c);
    return Status::ok();
}

Status GraphDocument::disconnect(const Connection& c)
{
    if (!hasConnection(c))
        return notFoundError("No such connection into node " + std::to_string(c.to));
    DocNode& dst = m_nodes.at(c.to);
    eraseConsumer(c);
    if (c.isControl()) {
        dst.controlInputs.erase(c.from);
        emit controlDisconnected(c.from, c.to);
    } else {
        dst.inputs[c.slot] = {};
        emit disconnected(c);
    }
    return Status::ok();
}

void GraphDocument::setPositions(const std::map<std::string, QPointF>& positions)
{
    for (const auto& [name, pos] : positions)
        if (const DocNodeId id = findByName(name); id != kNoNode)
            (void)moveNode(id, pos);
}

void GraphDocument::clear()
{
    m_undoStack->clear();
    m_nodes.clear();
    m_byName.clear();
    m_consumers.clear();
    emit reset();
}

// ---- GraphDef ----

Expected<tensorflow::GraphDef> GraphDocument::toGraphDef(const ToGraphDefOptions& options) const
{
    tensorflow::GraphDef graph;
    for (const auto& [id, n] : m_nodes) {
        if (n.kind == NodeKind::kLayer) {
            if (!m_layerExpander)
                return unexpected(failedPreconditionError("Layer node '" + n.name + "' (" + n.type +
                                                          ") cannot be written: no layer expander is set"));
            if (Status s = m_layerExpander(n, graph); !s.isOk())
                return unexpected(s.withContext("Layer node '" + n.name + "' (" + n.type + ")"));
            continue;
        }
        tensorflow::NodeDef& def = *graph.add_node();
        def.set_name(n.name);
        def.set_op(n.type);
        def.set_device(n.device);
        for (int slot = 0; slot < static_cast<int>(n.inputs.size()); ++slot) {
            const InputSlot& in = n.inputs[slot];
            if (in.isConnected())
                def.add_input(inputString(in.source, in.output));
            else if (!options.allowUnconnected)
                return unexpected(failedPreconditionError("Node '" + n.name + "' (" + n.type + "): input '" +
                                                          slotName(id, slot) + "' is not connected"));
        }
        for (DocNodeId c : n.controlInputs)
            def.add_input("^" + m_nodes.at(c).name);
        auto& attrs = *def.mutable_attr();
        for (const auto& [name, value] : n.attrs)
            attrs[name] = value;
        // Attrs without a default that the user left unset but the connections determine (T of a
        // MatMul fed float32, N of an AddN with three slots), as tf.Operation infers them.
        if (const OpRegistration* reg = m_ops ? m_ops->find(n.type) : nullptr) {
            const auto effective = effectiveAttrs(n, 0);
            for (const auto& attrDef : reg->opDef.attr())
                if (!attrs.count(attrDef.name()) && !attrDef.has_default_value())
                    if (const auto it = effective.find(attrDef.name()); it != effective.end())
                        attrs[attrDef.name()] = it->second;
        }
    }
    return graph;
}

namespace {

/// A NodeDef's data inputs spread over its slots, skipping those listed in kEmptySlotsAttr.
std::vector<std::optional<TensorId>> slotsOfNodeDef(const tensorflow::NodeDef& def, std::vector<TensorId>& controls,
                                                    Status& status)
{
    std::set<long long> empty;
    if (const auto it = def.attr().find(std::string(kEmptySlotsAttr)); it != def.attr().end())
        empty.insert(it->second.list().i().begin(), it->second.list().i().end());
    std::vector<std::optional<TensorId>> slotTable;
    for (const std::string& text : def.input()) {
        auto id = parseTensorId(text);
        if (!id) {
            status =
                invalidArgumentError("Node '" + def.name() + "': bad input '" + text + "': " + id.error().message());
            return {};
        }
        if (id->isControl()) {
            controls.push_back(*id);
            continue;
        }
        while (empty.count(static_cast<long long>(slotTable.size())))
            slotTable.emplace_back();
        slotTable.emplace_back(*id);
    }
    while (empty.count(static_cast<long long>(slotTable.size())))
        slotTable.emplace_back();
    return slotTable;
}

} // namespace

Expected<std::vector<std::string>> GraphDocument::fromGraphDef(const tensorflow::GraphDef& graph,
                                                               const std::map<std::string, QPointF>& positions)
{
    // Check everything before touching the document.
    std::set<std::string> names;
    std::map<std::string, int> referencedOutputs; // node name -> highest output index used + 1
    std::vector<std::vector<std::optional<TensorId>>> slotTable(graph.node_size());
    std::vector<std::vector<TensorId>> controls(graph.node_size());
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& def = graph.node(i);
        if (!isValidNodeName(def.name()))
            return unexpected(
                invalidArgumentError("Node " + std::to_string(i) + ": '" + def.name() + "' is not a valid node name"));
        if (!names.insert(def.name()).second)
            return unexpected(invalidArgumentError("Duplicate node name '" + def.name() + "' in the GraphDef"));
        if (def.op().empty())
            return unexpected(invalidArgumentError("Node '" + def.name() + "' has no op"));
        Status status;
        slotTable[i] = slotsOfNodeDef(def, controls[i], status);
        if (!status.isOk())
            return unexpected(status);
        for (const auto& id : slotTable[i])
            if (id)
                referencedOutputs[id->node] = std::max(referencedOutputs[id->node], id->index + 1);
    }
    m_undoStack->clear();
    m_nodes.clear();
    m_byName.clear();
    m_consumers.clear();
    std::vector<std::string> warnings;
    QSignalBlocker blocker(this); // one reset() instead of a signal per node and edge
    std::vector<DocNodeId> ids(graph.node_size());
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& def = graph.node(i);
        NodeSpec spec;
        const auto marker = def.attr().find(std::string(kLayerMarkerAttr));
        spec.kind = marker != def.attr().end() && marker->second.b() ? NodeKind::kLayer : NodeKind::kOp;
        spec.type = def.op();
        spec.name = def.name();
        spec.device = def.device();
        for (const auto& [name, value] : def.attr())
            if (name != kLayerMarkerAttr && name != kEmptySlotsAttr)
                spec.attrs[name] = value;
        if (const auto it = positions.find(def.name()); it != positions.end())
            spec.position = it->second;
        spec.ports = PortCounts{static_cast<int>(slotTable[i].size()), std::max(1, referencedOutputs[def.name()])};
        if (spec.kind == NodeKind::kOp && m_ops && !m_ops->find(def.op()))
            warnings.push_back("Node '" + def.name() + "': op type not registered '" + def.op() + "'");
        ids[i] = *addNode(spec); // names were checked above
    }
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& def = graph.node(i);
        for (int slot = 0; slot < static_cast<int>(slotTable[i].size()); ++slot) {
            if (!slotTable[i][slot])
                continue;
            const TensorId& t = *slotTable[i][slot];
            const DocNodeId from = findByName(t.node);
            Status s = from == kNoNode ? notFoundError("input '" + t.toString() + "' names no node in the graph")
                                       : connect({from, t.index, ids[i], slot});
            if (!s.isOk())
                warnings.push_back("Node '" + def.name() + "', input " + std::to_string(slot) + ": " + s.message() +
                                   "; the slot is left empty");
        }
        for (const TensorId& t : controls[i]) {
            const DocNodeId from = findByName(t.node);
            if (from == kNoNode || !connect(Connection::control(from, ids[i])).isOk())
                warnings.push_back("Node '" + def.name() + "': control input '^" + t.node +
                                   "' names no node in the graph; dropped");
        }
    }
    blocker.unblock();
    emit reset();
    return warnings;
}

tensorflow::GraphDef GraphDocument::fragment(const std::set<DocNodeId>& ids) const
{
    tensorflow::GraphDef graph;
    for (DocNodeId id : ids) {
        const DocNode* n = node(id);
        if (!n)
            continue;
        tensorflow::NodeDef& def = *graph.add_node();
        def.set_name(n->name);
        def.set_op(n->type);
        def.set_device(n->device);
        auto& attrs = *def.mutable_attr();
        for (const auto& [name, value] : n->attrs)
            attrs[name] = value;
        if (n->kind == NodeKind::kLayer)
            attrs[std::string(kLayerMarkerAttr)].set_b(true);
        for (int slot = 0; slot < static_cast<int>(n->inputs.size()); ++slot) {
            if (n->inputs[slot].isConnected())
                def.add_input(TensorId{m_nodes.at(n->inputs[slot].source).name, n->inputs[slot].output}.toString());
            else
                attrs[std::string(kEmptySlotsAttr)].mutable_list()->add_i(slot);
        }
        for (DocNodeId c : n->controlInputs)
            def.add_input("^" + m_nodes.at(c).name);
    }
    return graph;
}

std::map<std::string, QPointF> GraphDocument::positions() const
{
    std::map<std::string, QPointF> result;
    for (const auto& [id, n] : m_nodes)
        result[n.name] = n.position;
    return result;
}

} // namespace tstudio
