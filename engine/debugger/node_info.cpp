// Node relations over a GraphDef (inputs and consumers as trees) and their tfdbg-style text.
#include "debugger/node_info.h"

#include "framework/data_type.h"
#include "graph/tensor_id.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <unordered_set>

namespace tstudio::debugger {
namespace {

/// Lists longer than this show their first elements and a count.
constexpr int kMaxListElements = 32;
/// Strings longer than this are cut.
constexpr std::size_t kMaxStringBytes = 80;

std::string plural(std::size_t count, std::string_view noun)
{
    std::string text = std::to_string(count) + " " + std::string(noun);
    if (count != 1)
        text += "s";
    return text;
}

std::string floatText(float value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string stringText(const std::string& bytes)
{
    std::string text = "\"";
    const std::size_t shown = std::min(bytes.size(), kMaxStringBytes);
    for (std::size_t i = 0; i < shown; ++i) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if (c == '"' || c == '\\') {
            text += '\\';
            text += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7f) {
            text += static_cast<char>(c);
        } else {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\x%02x", c);
            text += escape;
        }
    }
    text += '"';
    if (bytes.size() > shown)
        text += "... (" + std::to_string(bytes.size()) + " bytes)";
    return text;
}

std::string shapeText(const tensorflow::TensorShapeProto& shape)
{
    if (shape.unknown_rank())
        return "<unknown>";
    std::string text = "[";
    for (int i = 0; i < shape.dim_size(); ++i) {
        if (i > 0)
            text += ",";
        const std::int64_t size = shape.dim(i).size();
        text += size < 0 ? std::string("?") : std::to_string(size);
    }
    return text + "]";
}

std::string tensorText(const tensorflow::TensorProto& tensor)
{
    return dataTypeString(tensor.dtype()) + " tensor " + shapeText(tensor.tensor_shape());
}

std::string funcText(const tensorflow::NameAttrList& func)
{
    return func.name().empty() ? std::string("<unnamed function>") : func.name();
}

/// Appends "a, b, c" for one repeated field of a list, at most kMaxListElements in all.
template <typename Field, typename Format>
void appendElements(std::vector<std::string>& out, int& total, const Field& field, Format format)
{
    for (const auto& element : field) {
        if (static_cast<int>(out.size()) < kMaxListElements)
            out.push_back(format(element));
        ++total;
    }
}

std::string listText(const tensorflow::AttrValue::ListValue& list)
{
    std::vector<std::string> elements;
    int total = 0;
    appendElements(elements, total, list.s(), [](const std::string& s) { return stringText(s); });
    appendElements(elements, total, list.i(), [](std::int64_t i) { return std::to_string(i); });
    appendElements(elements, total, list.f(), [](float f) { return floatText(f); });
    appendElements(elements, total, list.b(), [](bool b) { return std::string(b ? "true" : "false"); });
    appendElements(elements, total, list.type(), [](int type) { return dataTypeString(static_cast<DataType>(type)); });
    appendElements(elements, total, list.shape(), [](const auto& shape) { return shapeText(shape); });
    appendElements(elements, total, list.tensor(), [](const auto& tensor) { return tensorText(tensor); });
    appendElements(elements, total, list.func(), [](const auto& func) { return funcText(func); });
    std::string text = "[";
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (i > 0)
            text += ", ";
        text += elements[i];
    }
    if (total > static_cast<int>(elements.size()))
        text += ", ... (" + std::to_string(total) + " in all)";
    return text + "]";
}

std::string attrText(const tensorflow::AttrValue& value)
{
    switch (value.value_case()) {
    case tensorflow::AttrValue::kList: return listText(value.list());
    case tensorflow::AttrValue::kS: return stringText(value.s());
    case tensorflow::AttrValue::kI: return std::to_string(value.i());
    case tensorflow::AttrValue::kF: return floatText(value.f());
    case tensorflow::AttrValue::kB: return value.b() ? "true" : "false";
    case tensorflow::AttrValue::kType: return dataTypeString(value.type());
    case tensorflow::AttrValue::kShape: return shapeText(value.shape());
    case tensorflow::AttrValue::kTensor: return tensorText(value.tensor());
    case tensorflow::AttrValue::kPlaceholder: return "$" + value.placeholder();
    case tensorflow::AttrValue::kFunc: return funcText(value.func());
    case tensorflow::AttrValue::VALUE_NOT_SET: break;
    }
    return "<not set>";
}

/// One link without children: the edge `text` as read in a NodeDef, at `depth`.
NodeLink linkFor(const NodeRelations& relations, const std::string& node, std::string tensor, bool control, int depth)
{
    NodeLink link;
    link.node = node;
    if (const tensorflow::NodeDef* def = relations.find(node))
        link.op = def->op();
    link.tensor = std::move(tensor);
    link.control = control;
    link.depth = depth;
    return link;
}

/// "[Op] name" for ni's lists, "[?]" for a node the graph lacks.
std::string opAndName(const std::string& op, const std::string& name)
{
    return "[" + (op.empty() ? std::string("?") : op) + "] " + name;
}

} // namespace

NodeRelations::NodeRelations(const tensorflow::GraphDef& graph) : m_graph(graph)
{
    m_index.reserve(static_cast<std::size_t>(graph.node_size()));
    for (int i = 0; i < graph.node_size(); ++i)
        m_index.emplace(graph.node(i).name(), i); // with duplicate names the first one wins
    for (int i = 0; i < graph.node_size(); ++i) {
        for (const std::string& input : graph.node(i).input()) {
            Expected<TensorId> id = parseTensorId(input);
            if (id)
                m_consumers[id->node].emplace_back(i, id->toString());
        }
    }
}

const tensorflow::NodeDef* NodeRelations::find(const std::string& name) const
{
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : &m_graph.node(it->second);
}

namespace {

/// The links of one node, one direction, one level: data edges then control edges.
using LinksOf = std::function<std::vector<NodeLink>(const tensorflow::NodeDef& node, int depth)>;

/// Expands `roots` depth-first in pre-order up to `maxDepth` without recursion (graphs can be deep
/// chains). A node is expanded once; later appearances are marked `repeated`.
void expandTree(std::vector<NodeLink>& roots, const std::string& rootName, int maxDepth, const NodeRelations& relations,
                const LinksOf& linksOf)
{
    std::unordered_set<std::string> expanded{rootName};
    std::vector<NodeLink*> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it)
        stack.push_back(&*it);
    while (!stack.empty()) {
        NodeLink* link = stack.back();
        stack.pop_back();
        const tensorflow::NodeDef* node = relations.find(link->node);
        if (!node)
            continue;
        std::vector<NodeLink> children = linksOf(*node, link->depth + 1);
        if (children.empty())
            continue;
        if (expanded.count(link->node)) {
            link->repeated = true;
            continue;
        }
        if (link->depth >= maxDepth) {
            link->truncated = true;
            continue;
        }
        expanded.insert(link->node);
        // Children are never resized after this, so pointers into them stay valid.
        link->children = std::move(children);
        for (auto it = link->children.rbegin(); it != link->children.rend(); ++it)
            stack.push_back(&*it);
    }
}

} // namespace

Expected<std::vector<NodeLink>> NodeRelations::inputs(const std::string& node, int depth, bool includeControl) const
{
    const tensorflow::NodeDef* root = find(node);
    if (!root)
        return unexpected(notFoundError("node '" + node + "' not found in the graph"));
    if (depth < 1)
        return unexpected(invalidArgumentError("depth must be at least 1, got " + std::to_string(depth)));
    const LinksOf linksOf = [&](const tensorflow::NodeDef& def, int level) {
        std::vector<NodeLink> data;
        std::vector<NodeLink> control;
        for (const std::string& input : def.input()) {
            Expected<TensorId> id = parseTensorId(input);
            if (!id) {
                // A malformed input string is shown as it is; it leads nowhere.
                data.push_back(linkFor(*this, input, input, false, level));
                continue;
            }
            if (id->isControl()) {
                if (includeControl)
                    control.push_back(linkFor(*this, id->node, id->toString(), true, level));
            } else {
                data.push_back(linkFor(*this, id->node, id->toString(), false, level));
            }
        }
        data.insert(data.end(), std::make_move_iterator(control.begin()), std::make_move_iterator(control.end()));
        return data;
    };
    std::vector<NodeLink> links = linksOf(*root, 1);
    expandTree(links, node, depth, *this, linksOf);
    return links;
}

Expected<std::vector<NodeLink>> NodeRelations::consumers(const std::string& node, int depth, bool includeControl) const
{
    if (!find(node))
        return unexpected(notFoundError("node '" + node + "' not found in the graph"));
    if (depth < 1)
        return unexpected(invalidArgumentError("depth must be at least 1, got " + std::to_string(depth)));
    const LinksOf linksOf = [&](const tensorflow::NodeDef& def, int level) {
        std::vector<NodeLink> data;
        std::vector<NodeLink> control;
        const auto it = m_consumers.find(def.name());
        if (it == m_consumers.end())
            return data;
        for (const auto& [index, tensor] : it->second) {
            const bool isControl = !tensor.empty() && tensor.front() == '^';
            if (isControl && !includeControl)
                continue;
            (isControl ? control : data)
                .push_back(linkFor(*this, m_graph.node(index).name(), tensor, isControl, level));
        }
        data.insert(data.end(), std::make_move_iterator(control.begin()), std::make_move_iterator(control.end()));
        return data;
    };
    std::vector<NodeLink> links = linksOf(*find(node), 1);
    expandTree(links, node, depth, *this, linksOf);
    return links;
}

std::string formatNodeInfo(const NodeRelations& relations, const tensorflow::NodeDef& node)
{
    std::string text = "Node name: " + node.name() + "\n";
    text += "  Op: " + node.op() + "\n";
    text += "  Device: " + (node.device().empty() ? std::string("(not set)") : node.device()) + "\n";

    text += "\n";
    if (node.attr().empty()) {
        text += "  Attributes: (none)\n";
    } else {
        text += "  Attributes:\n";
        std::vector<std::string> names;
        for (const auto& [name, value] : node.attr())
            names.push_back(name);
        std::sort(names.begin(), names.end()); // the map's own order is unspecified
        for (const std::string& name : names)
            text += "    " + name + ": " + attrText(node.attr().at(name)) + "\n";
    }

    // Inputs straight from the NodeDef, so a node that is not in `relations` is still described.
    std::vector<std::string> dataInputs;
    std::vector<std::string> controlInputs;
    for (const std::string& input : node.input()) {
        Expected<TensorId> id = parseTensorId(input);
        const tensorflow::NodeDef* source = id ? relations.find(id->node) : nullptr;
        const std::string op = source ? source->op() : std::string();
        if (id && id->isControl())
            controlInputs.push_back(opAndName(op, id->node));
        else
            dataInputs.push_back(opAndName(op, id ? id->toString() : input));
    }
    std::vector<std::string> dataConsumers;
    std::vector<std::string> controlConsumers;
    if (relations.find(node.name())) {
        Expected<std::vector<NodeLink>> consumers = relations.consumers(node.name(), 1);
        if (consumers) {
            for (const NodeLink& link : *consumers) {
                std::string line = opAndName(link.op, link.node);
                if (!link.control && link.tensor != node.name())
                    line += " (reads " + link.tensor + ")";
                (link.control ? controlConsumers : dataConsumers).push_back(std::move(line));
            }
        }
    }

    const auto section = [&text](const std::vector<std::string>& data, const std::vector<std::string>& control,
                                 std::string_view noun) {
        text += "\n  " + plural(data.size(), noun) + " + " + plural(control.size(), "control " + std::string(noun)) +
                (data.empty() && control.empty() ? "\n" : ":\n");
        for (const std::string& line : data)
            text += "    " + line + "\n";
        for (const std::string& line : control)
            text += "    (Ctrl) " + line + "\n";
    };
    section(dataInputs, controlInputs, "input");
    section(dataConsumers, controlConsumers, "consumer");
    return text;
}

std::string formatNodeTree(const std::string& root, const std::vector<NodeLink>& links, bool inputs)
{
    std::string text = std::string(inputs ? "Inputs of" : "Consumers of") + " node \"" + root + "\":\n";
    if (links.empty())
        return text + "  (none)\n";

    struct Pending {
        const NodeLink* link;
        std::string indent; ///< what goes before "|- " on this link's line
        bool last;          ///< the last of its siblings: no "|" continues below it
    };
    std::vector<Pending> stack;
    const auto pushChildren = [&stack](const std::vector<NodeLink>& children, const std::string& indent) {
        for (std::size_t i = children.size(); i-- > 0;)
            stack.push_back({&children[i], indent, i + 1 == children.size()});
    };
    pushChildren(links, "  ");
    bool anyControl = false;
    bool anyCut = false;
    while (!stack.empty()) {
        const Pending pending = std::move(stack.back());
        stack.pop_back();
        const NodeLink& link = *pending.link;
        anyControl = anyControl || link.control;
        anyCut = anyCut || link.truncated;
        // Inputs show the edge ("split:1"), consumers the consuming node.
        std::string name = inputs ? link.tensor : link.node;
        if (inputs && link.control && !name.empty() && name.front() == '^')
            name.erase(0, 1);
        text += pending.indent + "|- (" + std::to_string(link.depth) + ") " + (link.control ? "(Ctrl) " : "") + "[" +
                (link.op.empty() ? std::string("?") : link.op) + "] " + name;
        if (link.repeated)
            text += " (expanded above)";
        text += "\n";
        const std::string childIndent = pending.indent + (pending.last ? "   " : "|  ");
        if (link.truncated)
            text += childIndent + "|- ...\n";
        pushChildren(link.children, childIndent);
    }
    text += "\nLegend:\n  (d): depth; [Op]: the node's op type";
    if (anyControl)
        text += std::string("; (Ctrl): control ") + (inputs ? "input" : "consumer");
    if (anyCut)
        text += "; ...: more beyond the depth limit";
    text += "\n";
    return text;
}

} // namespace tstudio::debugger
