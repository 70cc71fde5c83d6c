// Function instantiation: binding a FunctionDef's attrs, expanding its argument lists into `_Arg`
// nodes, rewriting body inputs to graph tensor names and adding `_Retval` nodes.
#include "function/function_instantiation.h"

#include "framework/node_attrs.h"
#include "framework/node_def_validation.h"
#include "framework/op_def_validation.h"
#include "function/function_library.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <set>

namespace tstudio {
namespace {

/// One tensor of the body graph: an output of a graph node, with its dtype.
struct BodyTensor {
    std::string node;
    int index = 0;
    DataType dtype = tensorflow::DT_INVALID;
    std::string graphName() const { return index == 0 ? node : node + ":" + std::to_string(index); }
};

/// The name index of InstantiateFunction: every name a body input may use, and the tensors it
/// stands for ("x" an argument or all of it, "x:1", "n:out", "n:out:0").
using NameIndex = std::map<std::string, std::vector<BodyTensor>, std::less<>>;

/// How many tensors argument `arg` stands for with `attrs`, and their dtype(s).
Expected<std::vector<DataType>> argTypes(const tensorflow::OpDef::ArgDef& arg, const FunctionAttrs& attrs)
{
    auto attrValue = [&](const std::string& name) -> const tensorflow::AttrValue* {
        const auto it = attrs.find(name);
        return it == attrs.end() ? nullptr : &it->second;
    };
    if (!arg.type_list_attr().empty()) {
        const tensorflow::AttrValue* v = attrValue(arg.type_list_attr());
        if (!v)
            return unexpected(invalidArgumentError("attr '" + arg.type_list_attr() + "' of argument '" + arg.name() +
                                                   "' is not bound"));
        std::vector<DataType> out;
        for (int t : v->list().type())
            out.push_back(static_cast<DataType>(t));
        return out;
    }
    std::int64_t count = 1;
    if (!arg.number_attr().empty()) {
        const tensorflow::AttrValue* v = attrValue(arg.number_attr());
        if (!v)
            return unexpected(invalidArgumentError("attr '" + arg.number_attr() + "' of argument '" + arg.name() +
                                                   "' is not bound"));
        count = v->i();
        if (count < 0)
            return unexpected(invalidArgumentError("attr '" + arg.number_attr() + "' of argument '" + arg.name() +
                                                   "' is " + std::to_string(count) + ", expected >= 0"));
    }
    DataType dtype = arg.type();
    if (dtype == tensorflow::DT_INVALID) {
        const tensorflow::AttrValue* v = attrValue(arg.type_attr());
        if (!v)
            return unexpected(invalidArgumentError("attr '" + arg.type_attr() + "' of argument '" + arg.name() +
                                                   "' is not bound"));
        dtype = v->type();
    }
    return std::vector<DataType>(static_cast<std::size_t>(count), dtype);
}

/// The node's attrs as a sorted map (what argTypes reads).
FunctionAttrs attrsOf(const tensorflow::NodeDef& node)
{
    FunctionAttrs attrs;
    for (const auto& [name, value] : node.attr())
        attrs.emplace(name, value);
    return attrs;
}

/// Replaces every placeholder in `value` (also inside func attrs) by the call's value. Returns the
/// name of a placeholder the call does not bind, or an empty string.
std::string bindPlaceholders(tensorflow::AttrValue& value, const FunctionAttrs& attrs)
{
    switch (value.value_case()) {
    case tensorflow::AttrValue::kPlaceholder: {
        const auto it = attrs.find(value.placeholder());
        if (it == attrs.end())
            return value.placeholder().empty() ? std::string("(empty)") : value.placeholder();
        value = it->second;
        return {};
    }
    case tensorflow::AttrValue::kFunc:
        for (auto& [name, inner] : *value.mutable_func()->mutable_attr())
            if (std::string missing = bindPlaceholders(inner, attrs); !missing.empty())
                return missing;
        return {};
    case tensorflow::AttrValue::kList:
        for (tensorflow::NameAttrList& func : *value.mutable_list()->mutable_func())
            for (auto& [name, inner] : *func.mutable_attr())
                if (std::string missing = bindPlaceholders(inner, attrs); !missing.empty())
                    return missing;
        return {};
    default:
        return {};
    }
}

/// Binds every attr of `signature` in `attrs` (the call's value, or the default) and checks each
/// against its AttrDef. Errors name the function.
Status bindCallAttrs(const tensorflow::OpDef& signature, FunctionAttrs& attrs)
{
    const auto error = [&](const std::string& message) {
        return invalidArgumentError("function '" + signature.name() + "': " + message);
    };
    for (const tensorflow::OpDef::AttrDef& attr : signature.attr()) {
        auto it = attrs.find(attr.name());
        if (it == attrs.end()) {
            if (!attr.has_default_value())
                return error("attr '" + attr.name() + "' (" + attr.type() + ") is not bound by the call");
            it = attrs.emplace(attr.name(), attr.default_value()).first;
        }
        if (Status s = validateAttrValue(it->second, attr); !s.isOk())
            return error("attr '" + attr.name() + "' of the call: " + s.message());
    }
    return Status::ok();
}

class Instantiation {
public:
    Instantiation(const FunctionLibrary& library, const tensorflow::FunctionDef& function, FunctionAttrs attrs)
        : m_library(library), m_function(function), m_attrs(std::move(attrs))
    {
        m_body.name = function.signature().name();
    }

    Expected<FunctionBody> run()
    {
        const tensorflow::OpDef& signature = m_function.signature();
        if (Status s = bindSignatureAttrs(); !s.isOk())
            return unexpected(s);
        for (const tensorflow::OpDef::ArgDef& arg : signature.input_arg())
            if (Status s = addArgument(arg); !s.isOk())
                return unexpected(s);
        // Bind and index every body node before rewriting inputs: inputs may name later nodes.
        for (const tensorflow::NodeDef& node : m_function.node_def())
            if (Status s = indexNode(node); !s.isOk())
                return unexpected(s);
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            if (Status s = rewriteInputs(m_function.node_def(static_cast<int>(i)), m_nodes[i]); !s.isOk())
                return unexpected(s);
        for (tensorflow::NodeDef& node : m_nodes)
            *m_body.graph.add_node() = std::move(node);
        int retIndex = 0;
        for (const tensorflow::OpDef::ArgDef& output : signature.output_arg())
            if (Status s = addReturn(output, retIndex); !s.isOk())
                return unexpected(s);
        if (Status s = addControlReturns(); !s.isOk())
            return unexpected(s);
        std::set<std::string> names;
        for (const tensorflow::NodeDef& node : m_body.graph.node())
            if (!names.insert(node.name()).second)
                return unexpected(error("two nodes of the instantiated body are named '" + node.name() +
                                        "' (an argument, body node or result name is used twice)"));
        return std::move(m_body);
    }

private:
    Status error(const std::string& message) const
    {
        return invalidArgumentError("function '" + m_body.name + "': " + message);
    }
    Status nodeError(const tensorflow::NodeDef& node, const std::string& message) const
    {
        return error("node '" + node.name() + "': " + message);
    }

    Status bindSignatureAttrs() { return bindCallAttrs(m_function.signature(), m_attrs); }

    Status addItem(const std::string& name, std::vector<BodyTensor> tensors)
    {
        if (!m_index.emplace(name, std::move(tensors)).second)
            return error("the name '" + name + "' is defined twice (arguments and body node outputs must differ)");
        return Status::ok();
    }

    Status addArgument(const tensorflow::OpDef::ArgDef& arg)
    {
        auto types = argTypes(arg, m_attrs);
        if (!types)
            return error("argument '" + arg.name() + "': " + types.error().message());
        std::vector<BodyTensor> all;
        for (std::size_t i = 0; i < types->size(); ++i) {
            const DataType dtype = (*types)[i];
            const std::string name = types->size() > 1 ? arg.name() + "_" + std::to_string(i) : arg.name();
            tensorflow::NodeDef node;
            node.set_name(name);
            node.set_op("_Arg");
            (*node.mutable_attr())["T"].set_type(dtype);
            (*node.mutable_attr())["index"].set_i(static_cast<std::int64_t>(m_body.argTypes.size()));
            *m_body.graph.add_node() = std::move(node);
            m_body.argNodes.push_back(name);
            m_body.argTypes.push_back(dtype);
            BodyTensor tensor{name, 0, dtype};
            all.push_back(tensor);
            if (Status s = addItem(arg.name() + ":" + std::to_string(i), {tensor}); !s.isOk())
                return s;
        }
        m_argNames.insert(arg.name());
        return addItem(arg.name(), std::move(all));
    }

    Status indexNode(const tensorflow::NodeDef& source)
    {
        tensorflow::NodeDef node;
        node.set_name(source.name());
        node.set_op(source.op());
        node.set_device(source.device());
        if (source.name().empty())
            return error("a body node has no name");
        for (const auto& [name, value] : source.attr()) {
            tensorflow::AttrValue bound = value;
            if (std::string missing = bindPlaceholders(bound, m_attrs); !missing.empty())
                return nodeError(source, "attr '" + name + "' is the placeholder '" + missing +
                                             "', which the function's attrs do not bind");
            (*node.mutable_attr())[name] = std::move(bound);
        }
        auto opDef = m_library.lookUpOpDef(source.op());
        if (!opDef)
            return Status(opDef.error().code(), "function '" + m_body.name + "': node '" + source.name() +
                                                    "': " + opDef.error().message());
        addDefaultAttrs(**opDef, &node);
        if (isPartitionedCallOp(source.op())) {
            const tensorflow::AttrValue* f = findAttr(node, "f");
            if (f && f->value_case() == tensorflow::AttrValue::kFunc && !m_library.contains(f->func().name()))
                return missingFunctionError(f->func().name())
                    .withContext("function '" + m_body.name + "': node '" + source.name() + "'");
        }
        // Output names: "node:out_arg" for each output arg, "node:out_arg:i" for each of its tensors.
        const FunctionAttrs attrs = attrsOf(node);
        int start = 0;
        for (const tensorflow::OpDef::ArgDef& output : (*opDef)->output_arg()) {
            auto types = argTypes(output, attrs);
            if (!types)
                return nodeError(source, "output '" + output.name() + "': " + types.error().message());
            std::vector<BodyTensor> all;
            for (std::size_t j = 0; j < types->size(); ++j) {
                BodyTensor tensor{source.name(), start + static_cast<int>(j), baseType((*types)[j])};
                all.push_back(tensor);
                if (Status s = addItem(source.name() + ":" + output.name() + ":" + std::to_string(j), {tensor});
                    !s.isOk())
                    return s;
            }
            start += static_cast<int>(types->size());
            if (Status s = addItem(source.name() + ":" + output.name(), std::move(all)); !s.isOk())
                return s;
        }
        m_bodyNodes.insert(source.name());
        m_opDefs.push_back(*opDef);
        m_nodes.push_back(std::move(node));
        return Status::ok();
    }

    Status rewriteInputs(const tensorflow::NodeDef& source, tensorflow::NodeDef& node)
    {
        const tensorflow::OpDef& opDef = *m_opDefs[static_cast<std::size_t>(&node - m_nodes.data())];
        const FunctionAttrs attrs = attrsOf(node);
        int next = 0; // the next of source's inputs
        for (const tensorflow::OpDef::ArgDef& input : opDef.input_arg()) {
            auto types = argTypes(input, attrs);
            if (!types)
                return nodeError(source, "input '" + input.name() + "': " + types.error().message());
            std::size_t matched = 0;
            while (matched < types->size()) {
                if (next >= source.input_size() || source.input(next).starts_with("^"))
                    return nodeError(source, "input '" + input.name() + "' takes " + std::to_string(types->size()) +
                                                 " tensors, but the node lists " + std::to_string(matched) +
                                                 " for it");
                const std::string& name = source.input(next++);
                const auto item = m_index.find(name);
                if (item == m_index.end())
                    return nodeError(source, "input '" + name +
                                                 "' is not found (no argument or body node output of that name; "
                                                 "outputs are named 'node:output_arg:index')");
                if (item->second.size() > types->size() - matched)
                    return nodeError(source, "input '" + name + "' holds " + std::to_string(item->second.size()) +
                                                 " tensors, too many for input '" + input.name() + "'");
                for (const BodyTensor& tensor : item->second) {
                    const DataType expected = baseType((*types)[matched]);
                    if (tensor.dtype != expected)
                        return nodeError(source, "input '" + input.name() + "'[" + std::to_string(matched) +
                                                     "] expects dtype " + dataTypeString(expected) + ", but '" +
                                                     name + "' is " + dataTypeString(tensor.dtype));
                    node.add_input(tensor.graphName());
                    ++matched;
                }
            }
        }
        for (; next < source.input_size(); ++next) {
            const std::string& name = source.input(next);
            if (!name.starts_with("^"))
                return nodeError(source, "input '" + name + "' is one more data input than the op '" + source.op() +
                                             "' takes (control inputs are written '^node')");
            const std::string target = name.substr(1);
            if (m_bodyNodes.count(target))
                node.add_input("^" + target);
            else if (!m_argNames.count(target)) // an argument is there from the start: nothing to wait for
                return nodeError(source, "control input '" + name + "' names no body node");
        }
        if (Status s = validateNodeDef(opDef, node); !s.isOk())
            return Status(s.code(), "function '" + m_body.name + "': " + s.message());
        return Status::ok();
    }

    Status addReturn(const tensorflow::OpDef::ArgDef& output, int& retIndex)
    {
        const auto ret = m_function.ret().find(output.name());
        if (ret == m_function.ret().end())
            return error("output '" + output.name() + "' has no entry in the function's ret map");
        auto types = argTypes(output, m_attrs);
        if (!types)
            return error("output '" + output.name() + "': " + types.error().message());
        const auto item = m_index.find(ret->second);
        if (item == m_index.end())
            return error("output '" + output.name() + "' is '" + ret->second +
                         "', which is not found (no argument or body node output of that name)");
        if (item->second.size() != types->size())
            return error("output '" + output.name() + "' is '" + ret->second + "', " +
                         std::to_string(item->second.size()) + " tensors, but the signature calls for " +
                         std::to_string(types->size()));
        for (std::size_t i = 0; i < types->size(); ++i) {
            const BodyTensor& tensor = item->second[i];
            const DataType expected = (*types)[i];
            if (tensor.dtype != expected)
                return error("output '" + output.name() + "' is '" + ret->second + "' of dtype " +
                             dataTypeString(tensor.dtype) + ", but the signature calls for " +
                             dataTypeString(expected));
            std::string name = output.name() + "_RetVal";
            if (types->size() > 1)
                name += "_" + std::to_string(i);
            tensorflow::NodeDef node;
            node.set_name(name);
            node.set_op("_Retval");
            node.add_input(tensor.graphName());
            (*node.mutable_attr())["T"].set_type(expected);
            (*node.mutable_attr())["index"].set_i(retIndex++);
            *m_body.graph.add_node() = std::move(node);
            m_body.retTypes.push_back(expected);
            m_body.retTensors.push_back(tensor.node + ":" + std::to_string(tensor.index));
            m_body.retNodes.push_back(name);
        }
        return Status::ok();
    }

    Status addControlReturns()
    {
        std::map<std::string, std::string> controlRet; // sorted: a stable order of targets
        for (const auto& [name, node] : m_function.control_ret())
            controlRet.emplace(name, node);
        for (const std::string& name : m_function.signature().control_output())
            if (!controlRet.count(name))
                return error("control output '" + name + "' has no entry in the function's control_ret map");
        for (const auto& [name, node] : controlRet) {
            if (!m_bodyNodes.count(node))
                return error("control output '" + name + "' is '" + node + "', which is not a body node");
            m_body.controlRetNodes.push_back(node);
        }
        return Status::ok();
    }

    const FunctionLibrary& m_library;
    const tensorflow::FunctionDef& m_function;
    FunctionAttrs m_attrs;
    FunctionBody m_body;
    NameIndex m_index;
    std::set<std::string> m_argNames;
    std::set<std::string> m_bodyNodes;
    std::vector<tensorflow::NodeDef> m_nodes;          ///< bound body nodes, inputs not yet rewritten
    std::vector<const tensorflow::OpDef*> m_opDefs;    ///< by body node
};

} // namespace

bool isPartitionedCallOp(std::string_view op)
{
    return op == "PartitionedCall" || op == "StatefulPartitionedCall";
}

bool isFunctionCall(const tensorflow::NodeDef& node, const FunctionLibrary& library)
{
    return isPartitionedCallOp(node.op()) || library.contains(node.op());
}

Expected<FunctionCallTarget> functionCallTarget(const tensorflow::NodeDef& node)
{
    FunctionCallTarget target;
    if (isPartitionedCallOp(node.op())) {
        const tensorflow::AttrValue* f = findAttr(node, "f");
        if (!f || f->value_case() != tensorflow::AttrValue::kFunc || f->func().name().empty())
            return unexpected(invalidArgumentError("node '" + node.name() + "' (op '" + node.op() +
                                                   "'): attr 'f' must name a function (a func value)"));
        target.name = f->func().name();
        for (const auto& [name, value] : f->func().attr())
            target.attrs.emplace(name, value);
        return target;
    }
    target.name = node.op();
    for (const auto& [name, value] : node.attr())
        if (!name.starts_with("_"))
            target.attrs.emplace(name, value);
    return target;
}

std::string instantiationKey(const FunctionCallTarget& target)
{
    std::string key = target.name + "[";
    bool first = true;
    google::protobuf::TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    for (const auto& [name, value] : target.attrs) {
        std::string text;
        printer.PrintToString(value, &text);
        key += (first ? "" : ",") + name + "=" + text;
        first = false;
    }
    return key + "]";
}

Expected<FunctionBody> instantiateFunction(const FunctionLibrary& library, const FunctionCallTarget& target)
{
    const tensorflow::FunctionDef* function = library.find(target.name);
    if (!function)
        return unexpected(missingFunctionError(target.name));
    return Instantiation(library, *function, target.attrs).run();
}

Expected<FunctionSignatureTypes> functionSignatureTypes(const FunctionLibrary& library,
                                                        const FunctionCallTarget& target)
{
    const tensorflow::FunctionDef* function = library.find(target.name);
    if (!function)
        return unexpected(missingFunctionError(target.name));
    const tensorflow::OpDef& signature = function->signature();
    FunctionAttrs attrs = target.attrs;
    if (Status s = bindCallAttrs(signature, attrs); !s.isOk())
        return unexpected(s);
    FunctionSignatureTypes out;
    const auto collect = [&](const tensorflow::OpDef::ArgDef& arg, const char* what,
                             std::vector<DataType>& into) -> Status {
        auto types = argTypes(arg, attrs);
        if (!types)
            return invalidArgumentError("function '" + signature.name() + "': " + what + " '" + arg.name() +
                                        "': " + types.error().message());
        into.insert(into.end(), types->begin(), types->end());
        return Status::ok();
    };
    for (const tensorflow::OpDef::ArgDef& arg : signature.input_arg())
        if (Status s = collect(arg, "argument", out.argTypes); !s.isOk())
            return unexpected(s);
    for (const tensorflow::OpDef::ArgDef& arg : signature.output_arg())
        if (Status s = collect(arg, "output", out.retTypes); !s.isOk())
            return unexpected(s);
    return out;
}

} // namespace tstudio
