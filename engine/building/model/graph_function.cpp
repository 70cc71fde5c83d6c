// functionFromGraph: a GraphDef's nodes between arguments and results as a FunctionDef.
#include "model/graph_function.h"

#include "framework/node_attrs.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"
#include "model/restore_variables.h"

#include <deque>
#include <map>
#include <set>
#include <unordered_map>

namespace tstudio {
namespace {

/// One output of a body node in function form: its output arg and the index within it.
struct OutputName {
    std::string arg;
    int index = 0;
};

tensorflow::AttrValue typeAttr(DataType dtype)
{
    tensorflow::AttrValue v;
    v.set_type(dtype);
    return v;
}

/// Ref dtypes in type and list(type) attrs made plain: a function body holds no ref edges.
void plainTypes(tensorflow::NodeDef& node)
{
    for (auto& [name, value] : *node.mutable_attr()) {
        if (value.value_case() == tensorflow::AttrValue::kType)
            value.set_type(baseType(value.type()));
        else if (value.value_case() == tensorflow::AttrValue::kList)
            for (int i = 0; i < value.list().type_size(); ++i)
                value.mutable_list()->set_type(i, baseType(value.list().type(i)));
    }
}

} // namespace

std::string functionArgName(std::string_view text)
{
    std::string out;
    for (char c : text) {
        if (c >= 'A' && c <= 'Z')
            out += static_cast<char>(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
            out += c;
        else
            out += '_';
    }
    if (out.empty() || !(out[0] >= 'a' && out[0] <= 'z'))
        out = "a" + out;
    return out;
}

Expected<std::vector<DataType>> nodeOutputTypes(const tensorflow::NodeDef& node, const tensorflow::OpDef& opDef)
{
    std::vector<DataType> out;
    for (const tensorflow::OpDef::ArgDef& arg : opDef.output_arg()) {
        std::vector<DataType> types;
        if (!arg.type_list_attr().empty()) {
            auto list = attrTypeList(node, arg.type_list_attr());
            if (!list)
                return unexpected(list.error().withContext("node '" + node.name() + "'"));
            types = *list;
        } else {
            DataType type = arg.type();
            if (!arg.type_attr().empty()) {
                auto t = attrType(node, arg.type_attr());
                if (!t)
                    return unexpected(t.error().withContext("node '" + node.name() + "'"));
                type = *t;
            }
            std::int64_t count = 1;
            if (!arg.number_attr().empty()) {
                auto n = attrInt(node, arg.number_attr());
                if (!n)
                    return unexpected(n.error().withContext("node '" + node.name() + "'"));
                count = *n;
            }
            types.assign(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)), type);
        }
        for (DataType t : types)
            out.push_back(arg.is_ref() ? makeRefType(t) : t);
    }
    return out;
}

Expected<tensorflow::FunctionDef> functionFromGraph(const tensorflow::GraphDef& graph, const OpRegistry& ops,
                                                    const GraphFunctionSpec& spec)
{
    const std::string where = "function '" + spec.name + "'";
    std::unordered_map<std::string, const tensorflow::NodeDef*> byName;
    for (const tensorflow::NodeDef& node : graph.node())
        byName.emplace(node.name(), &node);
    auto nodeNamed = [&](const std::string& name) -> const tensorflow::NodeDef* {
        const auto it = byName.find(name);
        return it == byName.end() ? nullptr : it->second;
    };

    tensorflow::FunctionDef function;
    tensorflow::OpDef* signature = function.mutable_signature();
    signature->set_name(spec.name);
    std::map<std::string, const GraphFunctionArgument*> argOf; // graph node -> argument
    for (std::size_t i = 0; i < spec.args.size(); ++i) {
        const GraphFunctionArgument& arg = spec.args[i];
        const tensorflow::NodeDef* node = nodeNamed(arg.node);
        if (!node)
            return unexpected(invalidArgumentError(where + ": argument '" + arg.name + "' stands for node '" +
                                                   arg.node + "', which is not in the graph"));
        tensorflow::OpDef::ArgDef* input = signature->add_input_arg();
        input->set_name(arg.name);
        if (node->op() == "Placeholder") {
            auto dtype = attrType(*node, "dtype");
            if (!dtype)
                return unexpected(dtype.error().withContext(where + ": argument '" + arg.name + "'"));
            input->set_type(*dtype);
            tensorflow::AttrValue userName;
            userName.set_s(node->name());
            (*(*function.mutable_arg_attr())[static_cast<std::uint32_t>(i)].mutable_attr())["_user_specified_name"] =
                userName;
        } else if (isVariableOp(node->op())) {
            input->set_type(tensorflow::DT_RESOURCE);
            signature->set_is_stateful(true);
        } else {
            return unexpected(invalidArgumentError(where + ": argument '" + arg.name + "' stands for node '" +
                                                   arg.node + "', a " + node->op() +
                                                   "; arguments are Placeholders or variables"));
        }
        argOf.emplace(arg.node, &arg);
    }

    // The body: every node the results reach through data and control inputs, up to the arguments.
    std::set<std::string> inBody;
    std::deque<std::string> pending;
    for (const auto& [name, tensor] : spec.results) {
        auto id = parseTensorId(tensor);
        if (!id || id->isControl() || !nodeNamed(id->node))
            return unexpected(invalidArgumentError(where + ": result '" + name + "' is '" + tensor +
                                                   "', which is not a tensor of the graph"));
        pending.push_back(id->node);
    }
    while (!pending.empty()) {
        const std::string name = std::move(pending.front());
        pending.pop_front();
        if (argOf.contains(name) || !inBody.insert(name).second)
            continue;
        const tensorflow::NodeDef* node = nodeNamed(name);
        if (node->op() == "Placeholder" || isVariableOp(node->op()))
            return unexpected(invalidArgumentError(where + ": its body depends on '" + name + "' (" + node->op() +
                                                   "), which is not one of its arguments"));
        for (const std::string& input : node->input()) {
            auto id = parseTensorId(input);
            if (!id || !nodeNamed(id->node))
                return unexpected(invalidArgumentError(where + ": node '" + name + "' has input '" + input +
                                                       "', which is not in the graph"));
            pending.push_back(id->node);
        }
    }

    // Function-form names of every output of every body node.
    std::map<std::string, std::vector<OutputName>> outputsOf;
    std::map<std::string, std::vector<DataType>> typesOf;
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (!inBody.contains(node.name()))
            continue;
        auto registration = ops.lookUp(node.op());
        if (!registration)
            return unexpected(registration.error().withContext(where + ": node '" + node.name() + "'"));
        const tensorflow::OpDef& opDef = (*registration)->opDef;
        if (opDef.is_stateful())
            signature->set_is_stateful(true);
        auto types = nodeOutputTypes(node, opDef);
        if (!types)
            return unexpected(types.error().withContext(where));
        std::vector<OutputName> names;
        std::size_t next = 0;
        for (const tensorflow::OpDef::ArgDef& arg : opDef.output_arg()) {
            std::int64_t count = 1;
            if (!arg.type_list_attr().empty())
                count = attrTypeList(node, arg.type_list_attr()).value_or(std::vector<DataType>{}).size();
            else if (!arg.number_attr().empty())
                count = attrInt(node, arg.number_attr()).value_or(0);
            for (std::int64_t j = 0; j < count && next < types->size(); ++j, ++next)
                names.push_back({arg.name(), static_cast<int>(j)});
        }
        outputsOf.emplace(node.name(), std::move(names));
        typesOf.emplace(node.name(), std::move(*types));
    }

    // The reads of variable arguments, then the body nodes in graph order.
    for (const GraphFunctionArgument& arg : spec.args) {
        const tensorflow::NodeDef* node = nodeNamed(arg.node);
        if (!isVariableOp(node->op()))
            continue;
        auto dtype = attrType(*node, "dtype");
        if (!dtype)
            return unexpected(dtype.error().withContext(where + ": variable '" + arg.node + "'"));
        tensorflow::NodeDef* read = function.add_node_def();
        read->set_name(arg.node + "/ReadVariableOp");
        read->set_op("ReadVariableOp");
        read->add_input(arg.name);
        (*read->mutable_attr())["dtype"] = typeAttr(baseType(*dtype));
    }
    auto rewrite = [&](const std::string& input) -> Expected<std::string> {
        auto id = parseTensorId(input);
        if (!id)
            return unexpected(id.error());
        if (const auto arg = argOf.find(id->node); arg != argOf.end()) {
            if (id->isControl())
                return std::string(); // an argument is there from the start
            if (isVariableOp(nodeNamed(id->node)->op()))
                return id->node + "/ReadVariableOp:value:0";
            return arg->second->name;
        }
        if (id->isControl())
            return "^" + id->node;
        const std::vector<OutputName>& names = outputsOf.at(id->node);
        if (id->index < 0 || static_cast<std::size_t>(id->index) >= names.size())
            return unexpected(invalidArgumentError(where + ": '" + input + "' names an output that node '" + id->node +
                                                   "' does not have"));
        const OutputName& out = names[static_cast<std::size_t>(id->index)];
        return id->node + ":" + out.arg + ":" + std::to_string(out.index);
    };
    for (const tensorflow::NodeDef& source : graph.node()) {
        if (!inBody.contains(source.name()))
            continue;
        tensorflow::NodeDef* node = function.add_node_def();
        *node = source;
        node->clear_input();
        node->clear_device();
        node->mutable_attr()->erase("_class");
        node->mutable_attr()->erase("_output_shapes");
        plainTypes(*node);
        for (const std::string& input : source.input()) {
            auto rewritten = rewrite(input);
            if (!rewritten)
                return unexpected(rewritten.error());
            if (!rewritten->empty())
                node->add_input(*rewritten);
        }
    }

    for (const auto& [name, tensor] : spec.results) {
        const TensorId id = *parseTensorId(tensor);
        auto value = rewrite(tensor);
        if (!value)
            return unexpected(value.error());
        DataType dtype = tensorflow::DT_INVALID;
        if (const auto arg = argOf.find(id.node); arg != argOf.end()) {
            dtype = *attrType(*nodeNamed(id.node), "dtype");
        } else {
            dtype = typesOf.at(id.node)[static_cast<std::size_t>(id.index)];
        }
        tensorflow::OpDef::ArgDef* output = signature->add_output_arg();
        output->set_name(name);
        output->set_type(baseType(dtype));
        (*function.mutable_ret())[name] = *value;
    }
    return function;
}

} // namespace tstudio
