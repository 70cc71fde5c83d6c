// TensorFlow 2 SavedModels written from a forward graph: functions, object graph, checkpoint.
#include "model/tf2_saved_model_writer.h"

#include "builder/graph_builder.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"
#include "model/graph_function.h"
#include "model/meta_graph.h"
#include "model/restore_variables.h"
#include "model/saved_model.h"
#include "model/saved_object_graph.h"
#include "model/tf2_function_building.h"
#include "proto/saved_object_graph.pb.h"
#include "proto/trackable_object_graph.pb.h"
#include "runtime/session.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>

namespace tstudio {
namespace {

namespace tf = tensorflow;

tf::AttrValue typeAttr(DataType dtype)
{
    tf::AttrValue v;
    v.set_type(dtype);
    return v;
}

tf::AttrValue stringAttr(const std::string& s)
{
    tf::AttrValue v;
    v.set_s(s);
    return v;
}

tf::StructuredValue tensorSpecValue(const std::string& name, const tf::TensorShapeProto& shape, DataType dtype)
{
    tf::StructuredValue v;
    tf::TensorSpecProto* spec = v.mutable_tensor_spec_value();
    spec->set_name(name);
    *spec->mutable_shape() = shape;
    spec->set_dtype(dtype);
    return v;
}

std::string joined(const std::vector<std::string>& path)
{
    std::string out;
    for (const std::string& part : path)
        out += (out.empty() ? "" : "/") + part;
    return out;
}

/// A tensor's shape from its node's "_output_shapes" (unknown rank without one).
tf::TensorShapeProto shapeOf(const tf::NodeDef& node, int index)
{
    if (const tf::AttrValue* shapes = findAttr(node, "_output_shapes"); shapes && index < shapes->list().shape_size())
        return shapes->list().shape(index);
    if (node.op() == "Placeholder")
        if (const tf::AttrValue* shape = findAttr(node, "shape"))
            return shape->shape();
    tf::TensorShapeProto unknown;
    unknown.set_unknown_rank(true);
    return unknown;
}

struct Writer {
    const Tf2SavedModelSpec& spec;
    const OpRegistry& ops;
    std::unordered_map<std::string, const tf::NodeDef*> nodes;
    std::map<std::vector<std::string>, int> idOf; ///< object path -> node id (root: {})
    std::vector<int> variableIds;                 ///< per spec.variables entry
    tf::MetaGraphDef meta;
    tf::TrackableObjectGraph checkpointGraph;
    int nextUid = 100;

    std::string uid() { return std::to_string(nextUid++); }

    const tf::NodeDef* node(const std::string& name) const
    {
        const auto it = nodes.find(name);
        return it == nodes.end() ? nullptr : it->second;
    }

    Status addPath(const std::vector<std::string>& path, std::vector<std::pair<int, std::string>>& edges)
    {
        if (path.empty())
            return invalidArgumentError("an object or variable of the SavedModel has an empty path");
        const std::vector<std::string> parent(path.begin(), path.end() - 1);
        const auto p = idOf.find(parent);
        if (p == idOf.end())
            return invalidArgumentError("'" + joined(path) + "': its parent '" + joined(parent) +
                                        "' is not an object of the SavedModel");
        edges.emplace_back(p->second, path.back());
        return Status::ok();
    }

    /// Ids: 0 root, then objects, then variables; the checkpoint's graph and the SavedModel's share them.
    Status buildObjects()
    {
        idOf[{}] = 0;
        const int objectCount = static_cast<int>(spec.objects.size());
        for (int i = 0; i < objectCount; ++i)
            if (!idOf.emplace(spec.objects[static_cast<std::size_t>(i)].path, i + 1).second)
                return invalidArgumentError("two objects of the SavedModel have the path '" +
                                            joined(spec.objects[static_cast<std::size_t>(i)].path) + "'");
        const int total = 1 + objectCount + static_cast<int>(spec.variables.size());
        std::vector<std::vector<std::pair<int, std::string>>> childrenOf(static_cast<std::size_t>(total));
        std::vector<std::pair<int, std::string>> edges; // (parent, local name) per path, in order
        std::vector<int> targets;
        for (int i = 0; i < objectCount; ++i) {
            if (Status s = addPath(spec.objects[static_cast<std::size_t>(i)].path, edges); !s.isOk())
                return s;
            targets.push_back(i + 1);
        }
        for (std::size_t v = 0; v < spec.variables.size(); ++v) {
            const int id = 1 + objectCount + static_cast<int>(v);
            if (idOf.contains(spec.variables[v].path))
                return invalidArgumentError("variable '" + spec.variables[v].node + "' has the path '" +
                                            joined(spec.variables[v].path) + "' of another object");
            if (Status s = addPath(spec.variables[v].path, edges); !s.isOk())
                return s.withContext("variable '" + spec.variables[v].node + "'");
            idOf.emplace(spec.variables[v].path, id);
            variableIds.push_back(id);
            targets.push_back(id);
        }
        // Aliases after every first path, so the first paths are the ones checkpoint keys use.
        for (int i = 0; i < objectCount; ++i)
            for (const auto& alias : spec.objects[static_cast<std::size_t>(i)].aliases) {
                if (idOf.contains(alias))
                    return invalidArgumentError("alias '" + joined(alias) + "' is the path of another object");
                if (Status s = addPath(alias, edges); !s.isOk())
                    return s;
                targets.push_back(i + 1);
            }
        for (std::size_t e = 0; e < edges.size(); ++e)
            childrenOf[static_cast<std::size_t>(edges[e].first)].emplace_back(targets[e], edges[e].second);

        tf::SavedObjectGraph* objects = meta.mutable_object_graph_def();
        for (int id = 0; id < total; ++id) {
            tf::TrackableObjectGraph::TrackableObject* tracked = checkpointGraph.add_nodes();
            tf::SavedObject* saved = objects->add_nodes();
            for (const auto& [child, local] : childrenOf[static_cast<std::size_t>(id)]) {
                auto* ref = tracked->add_children();
                ref->set_node_id(child);
                ref->set_local_name(local);
                *saved->add_children() = *ref;
            }
            if (id <= objectCount) {
                tf::SavedUserObject* user = saved->mutable_user_object();
                user->set_identifier(id == 0 ? spec.rootIdentifier
                                             : spec.objects[static_cast<std::size_t>(id - 1)].identifier);
                user->mutable_version()->set_producer(1);
                user->mutable_version()->set_min_consumer(1);
                continue;
            }
            const Tf2SavedVariable& v = spec.variables[static_cast<std::size_t>(id - 1 - objectCount)];
            auto* attribute = tracked->add_attributes();
            attribute->set_name("VARIABLE_VALUE");
            attribute->set_full_name(v.node);
            attribute->set_checkpoint_key(variableValueKey(v.path));
            tf::SavedVariable* variable = saved->mutable_variable();
            variable->set_dtype(v.value.dtype());
            *variable->mutable_shape() = v.value.shape().toProto();
            variable->set_trainable(v.trainable);
            variable->set_name(v.node);
        }
        return Status::ok();
    }

    Status checkVariables()
    {
        for (const Tf2SavedVariable& v : spec.variables) {
            const tf::NodeDef* n = node(v.node);
            if (!n || !isVariableOp(n->op()))
                return invalidArgumentError("variable '" + v.node + "' is not a variable node of the graph");
            auto dtype = attrType(*n, "dtype");
            if (!dtype)
                return dtype.error().withContext("variable '" + v.node + "'");
            if (!v.value.isInitialized() || baseType(*dtype) != v.value.dtype())
                return invalidArgumentError("variable '" + v.node + "' is " + dataTypeString(baseType(*dtype)) +
                                            " but its value is " +
                                            (v.value.isInitialized() ? dataTypeString(v.value.dtype()) : "missing"));
            if (findAttr(*n, "shape")) {
                auto shape = attrShape(*n, "shape");
                if (shape && !shape->isCompatibleWith(v.value.shape()))
                    return invalidArgumentError("variable '" + v.node + "' has shape " + shape->toString() +
                                                " but its value has shape " + v.value.shape().toString());
            }
        }
        return Status::ok();
    }

    /// The variables (indices into spec.variables) the tensors depend on, in spec order.
    Expected<std::vector<std::size_t>> capturedBy(const std::vector<std::string>& tensors, const std::string& key)
    {
        std::set<std::string> seen;
        std::deque<std::string> pending;
        for (const std::string& t : tensors)
            if (auto id = parseTensorId(t))
                pending.push_back(id->node);
        std::set<std::string> variables;
        while (!pending.empty()) {
            const std::string name = pending.front();
            pending.pop_front();
            const tf::NodeDef* n = node(name);
            if (!n || !seen.insert(name).second)
                continue;
            if (isVariableOp(n->op())) {
                variables.insert(name);
                continue;
            }
            for (const std::string& input : n->input())
                if (auto id = parseTensorId(input))
                    pending.push_back(id->node);
        }
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < spec.variables.size(); ++i)
            if (variables.erase(spec.variables[i].node))
                out.push_back(i);
        if (!variables.empty())
            return unexpected(invalidArgumentError("signature '" + key + "' uses variable node '" + *variables.begin() +
                                                   "', which is not among the SavedModel's variables"));
        return out;
    }

    Status addSignature(const Tf2SavedSignature& given, int index, tf::GraphDef& graph, int signatureMapId,
                        std::vector<std::string>& callFunctions)
    {
        Tf2SavedSignature sig = given;
        std::sort(sig.inputs.begin(), sig.inputs.end());
        std::sort(sig.outputs.begin(), sig.outputs.end());
        const std::string where = "signature '" + sig.key + "'";
        if (sig.outputs.empty())
            return invalidArgumentError(where + " has no outputs");
        for (const auto& [key, placeholder] : sig.inputs) {
            const tf::NodeDef* n = node(placeholder);
            if (!n || n->op() != "Placeholder")
                return invalidArgumentError(where + ": input '" + key + "' is '" + placeholder +
                                            "', which is not a Placeholder of the graph");
        }
        std::vector<std::string> outputTensors;
        for (const auto& [key, tensor] : sig.outputs)
            outputTensors.push_back(tensor);
        auto captured = capturedBy(outputTensors, sig.key);
        if (!captured)
            return captured.error();

        // The body: the forward graph between the inputs and the outputs.
        GraphFunctionSpec body;
        body.name = "__inference_" + spec.callName + "_" + uid();
        FunctionArgNames bodyNames;
        for (const auto& [key, placeholder] : sig.inputs)
            body.args.push_back({bodyNames.take(placeholder), placeholder});
        for (std::size_t v : *captured)
            body.args.push_back(
                {bodyNames.take(spec.variables[v].node + "_readvariableop_resource"), spec.variables[v].node});
        for (std::size_t i = 0; i < sig.outputs.size(); ++i)
            body.results.emplace_back(i == 0 ? "identity" : "identity_" + std::to_string(i), sig.outputs[i].second);
        auto bodyFunction = functionFromGraph(spec.graph, ops, body);
        if (!bodyFunction)
            return bodyFunction.error().withContext(where);

        // The signature wrapper: keyword inputs, captured handles, one call of the body.
        tf::FunctionDef wrapper;
        wrapper.mutable_signature()->set_name("__inference_signature_wrapper_" + uid());
        wrapper.mutable_signature()->set_is_stateful(true);
        std::vector<DataType> in;
        std::vector<std::string> wrapperArgs;
        FunctionArgNames wrapperNames;
        for (std::size_t i = 0; i < sig.inputs.size(); ++i) {
            auto* arg = wrapper.mutable_signature()->add_input_arg();
            arg->set_name(wrapperNames.take(sig.inputs[i].first));
            arg->set_type(bodyFunction->signature().input_arg(static_cast<int>(i)).type());
            (*(*wrapper.mutable_arg_attr())[static_cast<std::uint32_t>(i)].mutable_attr())["_user_specified_name"] =
                stringAttr(sig.inputs[i].first);
            in.push_back(arg->type());
            wrapperArgs.push_back(arg->name());
        }
        for (std::size_t v = 0; v < captured->size(); ++v) {
            auto* arg = wrapper.mutable_signature()->add_input_arg();
            arg->set_name(wrapperNames.take(v == 0 ? "unknown" : "unknown_" + std::to_string(v - 1)));
            arg->set_type(tf::DT_RESOURCE);
            in.push_back(tf::DT_RESOURCE);
            wrapperArgs.push_back(arg->name());
        }
        std::vector<DataType> out;
        for (const auto& result : bodyFunction->signature().output_arg())
            out.push_back(result.type());
        tf::NodeDef* call = wrapper.add_node_def();
        call->set_name("StatefulPartitionedCall");
        for (const std::string& a : wrapperArgs)
            call->add_input(a);
        setStatefulCallAttrs(*call, body.name, in, out);
        FunctionArgNames outputNames;
        for (std::size_t i = 0; i < sig.outputs.size(); ++i) {
            auto* result = wrapper.mutable_signature()->add_output_arg();
            result->set_name(outputNames.take(sig.outputs[i].first));
            result->set_type(out[i]);
            (*wrapper.mutable_ret())[result->name()] = "StatefulPartitionedCall:output:" + std::to_string(i);
        }

        // The outer graph: input placeholders and the call of the wrapper with the variable handles.
        tf::SignatureDef& def = (*meta.mutable_signature_def())[sig.key];
        def.set_method_name(std::string(saved_model::kPredictMethod));
        const std::string callNode =
            index == 0 ? "StatefulPartitionedCall" : "StatefulPartitionedCall_" + std::to_string(index);
        tf::NodeDef outerCall;
        outerCall.set_name(callNode);
        for (const auto& [key, placeholder] : sig.inputs) {
            std::string name;
            for (char c : sig.key + "_" + key)
                name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ? c : '_';
            tf::NodeDef* input = graph.add_node();
            input->set_name(name);
            input->set_op("Placeholder");
            const tf::NodeDef* source = node(placeholder);
            (*input->mutable_attr())["dtype"] = source->attr().at("dtype");
            *(*input->mutable_attr())["shape"].mutable_shape() = shapeOf(*source, 0);
            outerCall.add_input(name);
            tf::TensorInfo& info = (*def.mutable_inputs())[key];
            info.set_name(name + ":0");
            info.set_dtype(source->attr().at("dtype").type());
            *info.mutable_tensor_shape() = shapeOf(*source, 0);
        }
        std::vector<int> bound;
        for (std::size_t v : *captured) {
            outerCall.add_input(spec.variables[v].node);
            bound.push_back(variableIds[v]);
        }
        setStatefulCallAttrs(outerCall, wrapper.signature().name(), in, out);
        *graph.add_node() = std::move(outerCall);
        tf::StructuredValue inputSpecs;   // the body's positional TensorSpecs
        tf::StructuredValue keywordSpecs; // the wrapper's keyword TensorSpecs
        tf::StructuredValue outputSpecs;  // the wrapper's {key: TensorSpec}
        tf::StructuredValue bodyOutputs;  // the body's results
        inputSpecs.mutable_tuple_value();
        keywordSpecs.mutable_dict_value();
        outputSpecs.mutable_dict_value();
        for (const auto& [key, placeholder] : sig.inputs) {
            const tf::NodeDef* source = node(placeholder);
            const DataType dtype = source->attr().at("dtype").type();
            *inputSpecs.mutable_tuple_value()->add_values() = tensorSpecValue(placeholder, shapeOf(*source, 0), dtype);
            (*keywordSpecs.mutable_dict_value()->mutable_fields())[key] =
                tensorSpecValue(key, shapeOf(*source, 0), dtype);
        }
        for (std::size_t i = 0; i < sig.outputs.size(); ++i) {
            const TensorId id = *parseTensorId(sig.outputs[i].second);
            const tf::TensorShapeProto shape = shapeOf(*node(id.node), id.index);
            tf::TensorInfo& info = (*def.mutable_outputs())[sig.outputs[i].first];
            info.set_name(callNode + ":" + std::to_string(i));
            info.set_dtype(out[i]);
            *info.mutable_tensor_shape() = shape;
            (*outputSpecs.mutable_dict_value()->mutable_fields())[sig.outputs[i].first] =
                tensorSpecValue(sig.outputs[i].first, shape, out[i]);
            if (sig.outputs.size() == 1)
                bodyOutputs = tensorSpecValue("", shape, out[i]);
            else
                *bodyOutputs.mutable_tuple_value()->add_values() = tensorSpecValue("", shape, out[i]);
        }

        // The object graph: the signature's bare concrete function, the body in the root's tf.function.
        auto concrete = [&](const std::string& name, const tf::StructuredValue& args, const tf::StructuredValue& kwargs,
                            const tf::StructuredValue& outputs) {
            tf::SavedConcreteFunction& f = (*meta.mutable_object_graph_def()->mutable_concrete_functions())[name];
            for (int id : bound)
                f.add_bound_inputs(id);
            tf::TupleValue* signature = f.mutable_canonicalized_input_signature()->mutable_tuple_value();
            *signature->add_values() = args;
            *signature->add_values() = kwargs;
            *f.mutable_output_signature() = outputs;
        };
        tf::StructuredValue noArgs, noKwargs;
        noArgs.mutable_tuple_value();
        noKwargs.mutable_dict_value();
        concrete(wrapper.signature().name(), noArgs, keywordSpecs, outputSpecs);
        concrete(body.name, inputSpecs, noKwargs, bodyOutputs);
        tf::SavedObjectGraph* objects = meta.mutable_object_graph_def();
        const int signatureId = objects->nodes_size();
        tf::SavedBareConcreteFunction* bare = objects->add_nodes()->mutable_bare_concrete_function();
        bare->set_concrete_function_name(wrapper.signature().name());
        for (const auto& [key, placeholder] : sig.inputs)
            bare->add_argument_keywords(key);
        auto* ref = objects->mutable_nodes(signatureMapId)->add_children();
        ref->set_node_id(signatureId);
        ref->set_local_name(sig.key);
        callFunctions.push_back(body.name);

        *graph.mutable_library()->add_function() = std::move(*bodyFunction);
        *graph.mutable_library()->add_function() = std::move(wrapper);
        return Status::ok();
    }

    /// OpDefs of every op of the graph and its functions, without documentation, sorted by name.
    Status strippedOpList(const tf::GraphDef& graph)
    {
        std::set<std::string> names;
        for (const tf::NodeDef& n : graph.node())
            names.insert(n.op());
        for (const tf::FunctionDef& f : graph.library().function())
            for (const tf::NodeDef& n : f.node_def())
                names.insert(n.op());
        for (const std::string& name : names) {
            auto registration = ops.lookUp(name);
            if (!registration)
                return registration.error();
            tf::OpDef* op = meta.mutable_meta_info_def()->mutable_stripped_op_list()->add_op();
            *op = (*registration)->opDef;
            op->clear_summary();
            op->clear_description();
            for (auto& arg : *op->mutable_input_arg())
                arg.clear_description();
            for (auto& arg : *op->mutable_output_arg())
                arg.clear_description();
            for (auto& attr : *op->mutable_attr())
                attr.clear_description();
        }
        return Status::ok();
    }

    Expected<Tf2MetaGraph> run()
    {
        for (const tf::NodeDef& n : spec.graph.node())
            nodes.emplace(n.name(), &n);
        if (spec.signatures.empty())
            return unexpected(invalidArgumentError("a TensorFlow 2 SavedModel needs at least one signature"));
        if (Status s = checkVariables(); !s.isOk())
            return unexpected(s);
        if (Status s = buildObjects(); !s.isOk())
            return unexpected(s);

        tf::GraphDef graph;
        graph.mutable_versions()->set_producer(kGraphDefProducer);
        graph.mutable_versions()->set_min_consumer(12);
        for (const Tf2SavedVariable& v : spec.variables) {
            tf::NodeDef* handle = graph.add_node();
            handle->set_name(v.node);
            handle->set_op("VarHandleOp");
            (*handle->mutable_attr())["dtype"] = typeAttr(v.value.dtype());
            *(*handle->mutable_attr())["shape"].mutable_shape() = v.value.shape().toProto();
            (*handle->mutable_attr())["shared_name"] = stringAttr(v.node);
            (*handle->mutable_attr())["container"] = stringAttr("");
        }

        tf::SavedObjectGraph* objects = meta.mutable_object_graph_def();
        const int signatureMapId = objects->nodes_size();
        tf::SavedUserObject* map = objects->add_nodes()->mutable_user_object();
        map->set_identifier("signature_map");
        map->mutable_version()->set_producer(1);
        map->mutable_version()->set_min_consumer(1);
        auto* signaturesRef = objects->mutable_nodes(0)->add_children();
        signaturesRef->set_node_id(signatureMapId);
        signaturesRef->set_local_name("signatures");
        std::set<std::string> keys;
        std::vector<std::string> callFunctions;
        for (std::size_t i = 0; i < spec.signatures.size(); ++i) {
            if (!keys.insert(spec.signatures[i].key).second)
                return unexpected(invalidArgumentError("two signatures have the key '" + spec.signatures[i].key + "'"));
            if (Status s = addSignature(spec.signatures[i], static_cast<int>(i), graph, signatureMapId, callFunctions);
                !s.isOk())
                return unexpected(s);
        }
        const int callId = objects->nodes_size();
        tf::SavedFunction* call = objects->add_nodes()->mutable_function();
        for (const std::string& f : callFunctions)
            call->add_concrete_functions(f);
        call->mutable_function_spec()->set_is_method(true);
        auto* callRef = objects->mutable_nodes(0)->add_children();
        callRef->set_node_id(callId);
        callRef->set_local_name(spec.callName);

        std::vector<Tf2SaverVariable> saved;
        for (const Tf2SavedVariable& v : spec.variables)
            saved.push_back({v.node, variableValueKey(v.path), v.value.dtype()});
        const std::string saveFunction = "__inference__traced_save_" + uid();
        const std::string restoreFunction = "__inference__traced_restore_" + uid();
        *meta.mutable_saver_def() =
            addTf2SaverFunctions(graph, saved, checkpointGraph.SerializeAsString(), saveFunction, restoreFunction,
                                 static_cast<int>(spec.signatures.size()));
        tf::NodeDef* init = graph.add_node();
        init->set_name("NoOp");
        init->set_op("NoOp");
        tf::TensorInfo& initInfo = (*(*meta.mutable_signature_def())[std::string(saved_model::kInitOpSignatureKey)]
                                         .mutable_outputs())[std::string(saved_model::kInitOpSignatureKey)];
        initInfo.set_name("NoOp");
        initInfo.mutable_tensor_shape()->set_unknown_rank(true);

        if (Status s = strippedOpList(graph); !s.isOk())
            return unexpected(s);
        tf::MetaGraphDef::MetaInfoDef* info = meta.mutable_meta_info_def();
        info->set_tensorflow_git_version(metaGraphWriterVersion());
        for (const std::string& tag : spec.tags)
            info->add_tags(tag);
        *meta.mutable_graph_def() = std::move(graph);
        return Tf2MetaGraph{std::move(meta), checkpointGraph.SerializeAsString()};
    }
};

} // namespace

Expected<Tf2MetaGraph> tf2MetaGraph(const Tf2SavedModelSpec& spec, const OpRegistry& ops)
{
    Writer writer{spec, ops, {}, {}, {}, {}, {}, 100};
    return writer.run();
}

Status writeTf2SavedModel(const std::filesystem::path& dir, const Tf2SavedModelSpec& spec,
                          const SessionOptions& sessionOptions)
{
    if (!sessionOptions.ops)
        return invalidArgumentError("writeTf2SavedModel needs SessionOptions with an op registry");
    auto built = tf2MetaGraph(spec, *sessionOptions.ops);
    if (!built)
        return built.error();
    Session session(sessionOptions);
    if (Status s = session.create(built->metaGraph.graph_def()); !s.isOk())
        return s.withContext("the TensorFlow 2 graph written for '" + dir.string() + "'");
    // Each handle gets its value, then the graph's own save function writes the checkpoint.
    tf::GraphDef assigns;
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> targets;
    for (const Tf2SavedVariable& v : spec.variables) {
        tf::NodeDef* value = assigns.add_node();
        value->set_name("write_values/" + v.node + "/value");
        value->set_op("Placeholder");
        (*value->mutable_attr())["dtype"] = typeAttr(v.value.dtype());
        *(*value->mutable_attr())["shape"].mutable_shape() = v.value.shape().toProto();
        tf::NodeDef* assign = assigns.add_node();
        assign->set_name("write_values/" + v.node + "/assign");
        assign->set_op("AssignVariableOp");
        assign->add_input(v.node);
        assign->add_input(value->name());
        (*assign->mutable_attr())["dtype"] = typeAttr(v.value.dtype());
        feeds.emplace_back(value->name(), v.value);
        targets.push_back(assign->name());
    }
    if (!targets.empty()) {
        if (Status s = session.extend(std::move(assigns)); !s.isOk())
            return s;
        std::vector<Tensor> none;
        if (Status s = session.run(feeds, {}, targets, &none); !s.isOk())
            return s.withContext("assigning the variables of '" + dir.string() + "'");
    }
    return saveSavedModel(dir, session, {{built->metaGraph, spec.tags}});
}

} // namespace tstudio
