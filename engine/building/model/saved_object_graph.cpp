// Reading and checking a TensorFlow 2 SavedModel's object graph; StructuredValue as Python text.
#include "model/saved_object_graph.h"

#include "framework/node_attrs.h"
#include "graph/tensor_id.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <deque>
#include <set>
#include <unordered_map>

namespace tstudio {
namespace {

using tensorflow::StructuredValue;

std::string quoted(std::string_view text)
{
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

std::string shapeRepr(const tensorflow::TensorShapeProto& shape, bool asTensorShape)
{
    if (shape.unknown_rank())
        return asTensorShape ? "TensorShape(None)" : "<unknown>";
    std::string dims;
    for (int i = 0; i < shape.dim_size(); ++i)
        dims += (i ? ", " : "") + (shape.dim(i).size() < 0 ? std::string("None") : std::to_string(shape.dim(i).size()));
    if (asTensorShape)
        return "TensorShape([" + dims + "])";
    return "(" + dims + (shape.dim_size() == 1 ? ",)" : ")");
}

std::string tensorSpecRepr(const tensorflow::TensorShapeProto& shape, DataType dtype, const std::string& name,
                           const char* type = "TensorSpec")
{
    return std::string(type) + "(shape=" + shapeRepr(shape, false) + ", dtype=" + pythonDtypeName(dtype) +
           ", name=" + (name.empty() ? std::string("None") : quoted(name)) + ")";
}

/// Python's type name of the value (saved_model_cli's "DType:" line).
std::string pythonTypeName(const StructuredValue& value)
{
    switch (value.kind_case()) {
    case StructuredValue::kNoneValue: return "NoneType";
    case StructuredValue::kFloat64Value: return "float";
    case StructuredValue::kInt64Value: return "int";
    case StructuredValue::kStringValue: return "str";
    case StructuredValue::kBoolValue: return "bool";
    case StructuredValue::kListValue: return "list";
    case StructuredValue::kTupleValue: return "tuple";
    case StructuredValue::kDictValue: return "dict";
    case StructuredValue::kNamedTupleValue: return value.named_tuple_value().name();
    case StructuredValue::kTensorDtypeValue: return "DType";
    case StructuredValue::kTensorShapeValue: return "TensorShape";
    default: return "object";
    }
}

/// One argument under "Callable with:": a TensorSpec as "name: TensorSpec(...)", anything else as
/// its Python type and value.
std::vector<std::string> argumentLines(const StructuredValue& value, const std::string& keyword)
{
    if (value.kind_case() == StructuredValue::kTensorSpecValue) {
        const auto& spec = value.tensor_spec_value();
        const std::string label = keyword.empty() ? spec.name() : keyword;
        return {label + ": " + structuredValueRepr(value)};
    }
    std::vector<std::string> lines;
    if (!keyword.empty())
        lines.push_back(keyword + ": " + structuredValueRepr(value));
    else
        lines = {"DType: " + pythonTypeName(value), "Value: " + structuredValueRepr(value)};
    return lines;
}

/// saved_model_cli's arguments of a canonicalized input signature ((args...), {kwargs}).
std::vector<std::pair<std::string, std::vector<std::string>>> signatureArguments(const StructuredValue& signature)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    const google::protobuf::RepeatedPtrField<StructuredValue>* parts = nullptr;
    if (signature.has_tuple_value())
        parts = &signature.tuple_value().values();
    else if (signature.has_list_value())
        parts = &signature.list_value().values();
    if (!parts || parts->size() != 2) {
        if (signature.kind_case() != StructuredValue::KIND_NOT_SET)
            out.emplace_back("Argument #1", argumentLines(signature, ""));
        return out;
    }
    const StructuredValue& args = (*parts)[0];
    const StructuredValue& kwargs = (*parts)[1];
    const auto* positional = args.has_tuple_value()  ? &args.tuple_value().values()
                             : args.has_list_value() ? &args.list_value().values()
                                                     : nullptr;
    int n = 0;
    if (positional)
        for (const StructuredValue& arg : *positional)
            out.emplace_back("Argument #" + std::to_string(++n), argumentLines(arg, ""));
    if (kwargs.has_dict_value()) {
        std::map<std::string, const StructuredValue*> sorted;
        for (const auto& [key, value] : kwargs.dict_value().fields())
            sorted.emplace(key, &value);
        int k = 0;
        for (const auto& [key, value] : sorted)
            out.emplace_back("Named Argument #" + std::to_string(++k), argumentLines(*value, key));
    }
    return out;
}

struct Checker {
    const tensorflow::MetaGraphDef& meta;
    std::string file;
    const tensorflow::SavedObjectGraph& graph;
    std::set<std::string> library;

    std::string prefix() const { return "SavedModel '" + file + "': "; }

    Status checkNodeId(int id, int owner, const std::string& what) const
    {
        if (id >= 0 && id < graph.nodes_size())
            return Status::ok();
        return invalidArgumentError(prefix() + "object graph node " + std::to_string(owner) + " has " + what +
                                    " with node id " + std::to_string(id) + ", but the object graph has " +
                                    std::to_string(graph.nodes_size()) + " nodes");
    }

    Status checkFunction(const std::string& name, int owner) const
    {
        if (library.contains(name))
            return Status::ok();
        return notFoundError(prefix() + "object graph node " + std::to_string(owner) + " names concrete function '" +
                             name + "', but the graph's function library has no function of that name");
    }
};

} // namespace

bool hasObjectGraph(const tensorflow::MetaGraphDef& meta)
{
    return meta.has_object_graph_def() && meta.object_graph_def().nodes_size() > 0;
}

std::string pythonDtypeName(DataType dtype)
{
    switch (baseType(dtype)) {
    case tensorflow::DT_FLOAT: return "tf.float32";
    case tensorflow::DT_DOUBLE: return "tf.float64";
    case tensorflow::DT_HALF: return "tf.float16";
    default: break;
    }
    std::string name = tensorflow::DataType_Name(baseType(dtype));
    if (name.starts_with("DT_"))
        name = name.substr(3);
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "tf." + name;
}

std::string objectAttributeKey(const std::vector<std::string>& path, std::string_view name)
{
    std::string key;
    for (const std::string& local : path) {
        if (!key.empty())
            key += '/';
        for (char c : local) {
            if (c == '.')
                key += "..";
            else if (c == '/')
                key += ".S";
            else
                key += c;
        }
    }
    return key + (key.empty() ? "" : "/") + ".ATTRIBUTES/" + std::string(name);
}

std::string structuredValueRepr(const StructuredValue& value)
{
    auto join = [](const google::protobuf::RepeatedPtrField<StructuredValue>& values) {
        std::string out;
        for (int i = 0; i < values.size(); ++i)
            out += (i ? ", " : "") + structuredValueRepr(values[i]);
        return out;
    };
    switch (value.kind_case()) {
    case StructuredValue::kNoneValue:
    case StructuredValue::KIND_NOT_SET: return "None";
    case StructuredValue::kFloat64Value: {
        const double v = value.float64_value();
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v > 0 ? "inf" : "-inf";
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        std::string text = buffer;
        if (text.find_first_of(".e") == std::string::npos)
            text += ".0";
        return text;
    }
    case StructuredValue::kInt64Value: return std::to_string(value.int64_value());
    case StructuredValue::kStringValue: return quoted(value.string_value());
    case StructuredValue::kBoolValue: return value.bool_value() ? "True" : "False";
    case StructuredValue::kTensorShapeValue: return shapeRepr(value.tensor_shape_value(), true);
    case StructuredValue::kTensorDtypeValue: return pythonDtypeName(value.tensor_dtype_value());
    case StructuredValue::kTensorSpecValue: {
        const auto& spec = value.tensor_spec_value();
        return tensorSpecRepr(spec.shape(), spec.dtype(), spec.name());
    }
    case StructuredValue::kBoundedTensorSpecValue: {
        const auto& spec = value.bounded_tensor_spec_value();
        return tensorSpecRepr(spec.shape(), spec.dtype(), spec.name(), "BoundedTensorSpec");
    }
    case StructuredValue::kTypeSpecValue: {
        const auto& spec = value.type_spec_value();
        std::string name = spec.type_spec_class_name();
        if (name.empty())
            name = tensorflow::TypeSpecProto::TypeSpecClass_Name(spec.type_spec_class());
        return name + structuredValueRepr(spec.type_state());
    }
    case StructuredValue::kListValue: return "[" + join(value.list_value().values()) + "]";
    case StructuredValue::kTupleValue: {
        const auto& values = value.tuple_value().values();
        return "(" + join(values) + (values.size() == 1 ? ",)" : ")");
    }
    case StructuredValue::kDictValue: {
        std::map<std::string, const StructuredValue*> sorted;
        for (const auto& [key, v] : value.dict_value().fields())
            sorted.emplace(key, &v);
        std::string out;
        for (const auto& [key, v] : sorted)
            out += (out.empty() ? "" : ", ") + quoted(key) + ": " + structuredValueRepr(*v);
        return "{" + out + "}";
    }
    case StructuredValue::kNamedTupleValue: {
        std::string out;
        for (const auto& pair : value.named_tuple_value().values())
            out += (out.empty() ? "" : ", ") + pair.key() + "=" + structuredValueRepr(pair.value());
        return value.named_tuple_value().name() + "(" + out + ")";
    }
    case StructuredValue::kTensorValue:
    case StructuredValue::kNumpyValue: return "<tensor>";
    }
    return "None";
}

Expected<SavedObjectGraphInfo> readSavedObjectGraph(const tensorflow::MetaGraphDef& meta, std::string_view file)
{
    SavedObjectGraphInfo info;
    if (!hasObjectGraph(meta))
        return info;
    const tensorflow::SavedObjectGraph& graph = meta.object_graph_def();
    Checker check{meta, std::string(file), graph, {}};
    for (const tensorflow::FunctionDef& f : meta.graph_def().library().function())
        check.library.insert(f.signature().name());
    const int n = graph.nodes_size();
    info.nodeCount = n;

    // Each signature output computed by a function call must find its function (checked first: it is
    // what running the signature would meet).
    std::unordered_map<std::string, const tensorflow::NodeDef*> nodes;
    for (const tensorflow::NodeDef& node : meta.graph_def().node())
        nodes.emplace(node.name(), &node);
    for (const auto& [key, signature] : meta.signature_def()) {
        for (const auto& [outputKey, tensor] : signature.outputs()) {
            if (tensor.encoding_case() != tensorflow::TensorInfo::kName)
                continue;
            auto id = parseTensorId(tensor.name());
            const auto it = id ? nodes.find(id->node) : nodes.end();
            if (it == nodes.end())
                return unexpected(notFoundError(check.prefix() + "signature '" + key + "' (output '" + outputKey +
                                                "') names tensor '" + tensor.name() +
                                                "', but the graph has no such node"));
            const tensorflow::NodeDef& node = *it->second;
            if (node.op() != "StatefulPartitionedCall" && node.op() != "PartitionedCall")
                continue;
            const tensorflow::AttrValue* f = findAttr(node, "f");
            const std::string called = f && f->value_case() == tensorflow::AttrValue::kFunc ? f->func().name() : "";
            if (!check.library.contains(called))
                return unexpected(notFoundError(check.prefix() + "signature '" + key + "' (output '" + outputKey +
                                                "') is computed by node '" + node.name() + "', which calls function '" +
                                                called +
                                                "', but the graph's function library has no function of that name"));
        }
    }

    // Every reference in range first, so the walk below may follow them.
    for (int id = 0; id < n; ++id) {
        const tensorflow::SavedObject& object = graph.nodes(id);
        for (const auto& child : object.children())
            if (Status s = check.checkNodeId(child.node_id(), id, "child '" + child.local_name() + "'"); !s.isOk())
                return unexpected(s);
        for (const auto& dependency : object.dependencies())
            if (Status s = check.checkNodeId(dependency.node_id(), id, "dependency '" + dependency.local_name() + "'");
                !s.isOk())
                return unexpected(s);
        for (const auto& slot : object.slot_variables()) {
            if (Status s = check.checkNodeId(slot.original_variable_node_id(), id, "a slot variable's original");
                !s.isOk())
                return unexpected(s);
            if (Status s =
                    check.checkNodeId(slot.slot_variable_node_id(), id, "slot variable '" + slot.slot_name() + "'");
                !s.isOk())
                return unexpected(s);
        }
        if (object.has_function())
            for (const std::string& name : object.function().concrete_functions())
                if (Status s = check.checkFunction(name, id); !s.isOk())
                    return unexpected(s);
        if (object.has_bare_concrete_function())
            if (Status s = check.checkFunction(object.bare_concrete_function().concrete_function_name(), id); !s.isOk())
                return unexpected(s);
    }
    for (const auto& [name, function] : graph.concrete_functions()) {
        for (int bound : function.bound_inputs())
            if (bound < 0 || bound >= n)
                return unexpected(invalidArgumentError(check.prefix() + "concrete function '" + name +
                                                       "' captures object graph node " + std::to_string(bound) +
                                                       ", but the object graph has " + std::to_string(n) + " nodes"));
    }

    // Paths: breadth-first from the root over the children, first path wins (as checkpoint keys).
    std::vector<std::vector<std::string>> paths(static_cast<std::size_t>(n));
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    std::deque<int> queue{0};
    seen[0] = true;
    std::vector<int> order;
    while (!queue.empty()) {
        const int id = queue.front();
        queue.pop_front();
        order.push_back(id);
        for (const auto& child : graph.nodes(id).children()) {
            const auto c = static_cast<std::size_t>(child.node_id());
            if (seen[c])
                continue;
            seen[c] = true;
            paths[c] = paths[static_cast<std::size_t>(id)];
            paths[c].push_back(child.local_name());
            queue.push_back(child.node_id());
        }
    }
    info.paths.resize(static_cast<std::size_t>(n), "<unreachable>");
    for (int id : order) {
        std::string joined;
        for (const std::string& part : paths[static_cast<std::size_t>(id)])
            joined += (joined.empty() ? "" : "/") + part;
        info.paths[static_cast<std::size_t>(id)] = joined;
    }

    auto concrete = [&](const std::string& name) {
        SavedConcreteFunctionInfo out;
        out.function = name;
        if (const auto it = graph.concrete_functions().find(name); it != graph.concrete_functions().end()) {
            out.boundInputs.assign(it->second.bound_inputs().begin(), it->second.bound_inputs().end());
            if (it->second.has_canonicalized_input_signature())
                out.arguments = signatureArguments(it->second.canonicalized_input_signature());
            if (it->second.has_output_signature())
                out.outputSignature = structuredValueRepr(it->second.output_signature());
        }
        return out;
    };
    for (int id = 0; id < n; ++id) {
        const tensorflow::SavedObject& object = graph.nodes(id);
        if (object.has_variable()) {
            SavedObjectVariable v;
            v.nodeId = id;
            v.path = paths[static_cast<std::size_t>(id)];
            v.name = object.variable().name();
            v.dtype = object.variable().dtype();
            if (auto shape = TensorShape::fromProto(object.variable().shape()))
                v.shape = std::move(*shape);
            v.trainable = object.variable().trainable();
            info.variables.push_back(std::move(v));
        }
    }
    for (int id : order) {
        const tensorflow::SavedObject& object = graph.nodes(id);
        SavedObjectFunction f;
        f.nodeId = id;
        f.path = info.paths[static_cast<std::size_t>(id)];
        if (object.has_function()) {
            for (const std::string& name : object.function().concrete_functions())
                f.concreteFunctions.push_back(concrete(name));
        } else if (object.has_bare_concrete_function()) {
            f.concreteFunctions.push_back(concrete(object.bare_concrete_function().concrete_function_name()));
        } else {
            continue;
        }
        info.functions.push_back(std::move(f));
    }
    for (const auto& child : graph.nodes(0).children()) {
        if (child.local_name() != "signatures")
            continue;
        for (const auto& signature : graph.nodes(child.node_id()).children()) {
            const tensorflow::SavedObject& object = graph.nodes(signature.node_id());
            if (object.has_bare_concrete_function())
                info.signatureFunctions[signature.local_name()] =
                    object.bare_concrete_function().concrete_function_name();
            else if (object.has_function() && object.function().concrete_functions_size() == 1)
                info.signatureFunctions[signature.local_name()] = object.function().concrete_functions(0);
        }
    }

    return info;
}

} // namespace tstudio
