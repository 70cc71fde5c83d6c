// TensorFlow 2's call nodes and traced save/restore functions, as tf.saved_model.save writes them.
#include "model/tf2_function_building.h"

#include "model/graph_function.h"
#include "model/object_graph_restore.h"

namespace tstudio {
namespace {

namespace tf = tensorflow;

tf::AttrValue typeAttr(DataType dtype)
{
    tf::AttrValue v;
    v.set_type(dtype);
    return v;
}

tf::AttrValue typeListAttr(const std::vector<DataType>& types)
{
    tf::AttrValue v;
    v.mutable_list();
    for (DataType t : types)
        v.mutable_list()->add_type(t);
    return v;
}

tf::AttrValue stringAttr(const std::string& s)
{
    tf::AttrValue v;
    v.set_s(s);
    return v;
}

tf::AttrValue stringTensorAttr(const std::vector<std::string>& values, bool scalar)
{
    tf::AttrValue v;
    tf::TensorProto* t = v.mutable_tensor();
    t->set_dtype(tf::DT_STRING);
    t->mutable_tensor_shape();
    if (!scalar)
        t->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    for (const std::string& s : values)
        t->add_string_val(s);
    return v;
}

/// A string Const: a vector of `values`, or with `scalar` the one value as a scalar.
tf::NodeDef* addConst(google::protobuf::RepeatedPtrField<tf::NodeDef>* nodes, const std::string& name,
                      const std::vector<std::string>& values, bool scalar = false)
{
    tf::NodeDef* node = nodes->Add();
    node->set_name(name);
    node->set_op("Const");
    (*node->mutable_attr())["dtype"] = typeAttr(tf::DT_STRING);
    (*node->mutable_attr())["value"] = stringTensorAttr(values, scalar);
    return node;
}

} // namespace

void setStatefulCallAttrs(tf::NodeDef& node, const std::string& function, const std::vector<DataType>& in,
                          const std::vector<DataType>& out)
{
    node.set_op("StatefulPartitionedCall");
    auto& attrs = *node.mutable_attr();
    attrs["f"].mutable_func()->set_name(function);
    attrs["Tin"] = typeListAttr(in);
    attrs["Tout"] = typeListAttr(out);
    attrs["config"] = stringAttr("");
    attrs["config_proto"] = stringAttr("");
    attrs["executor_type"] = stringAttr("");
    tf::AttrValue readOnly;
    readOnly.mutable_list();
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] == tf::DT_RESOURCE)
            readOnly.mutable_list()->add_i(static_cast<std::int64_t>(i));
    attrs["_read_only_resource_inputs"] = readOnly;
    attrs["_collective_manager_ids"].mutable_list();
}

std::string FunctionArgNames::take(const std::string& wanted)
{
    std::string name = functionArgName(wanted);
    for (int n = 1; !m_used.insert(name).second; ++n)
        name = functionArgName(wanted) + "_" + std::to_string(n);
    return name;
}

tf::SaverDef addTf2SaverFunctions(tf::GraphDef& graph, const std::vector<Tf2SaverVariable>& variables,
                                  const std::string& checkpointObjectGraph, const std::string& saveFunction,
                                  const std::string& restoreFunction, int firstCall)
{
    std::vector<std::string> keys;
    std::vector<DataType> dtypes;
    for (const Tf2SaverVariable& v : variables) {
        keys.push_back(v.key);
        dtypes.push_back(v.dtype);
    }
    tf::NodeDef* filename = graph.add_node();
    filename->set_name("saver_filename");
    filename->set_op("Placeholder");
    (*filename->mutable_attr())["dtype"] = typeAttr(tf::DT_STRING);
    (*filename->mutable_attr())["shape"].mutable_shape();
    addConst(graph.mutable_node(), "Const", {checkpointObjectGraph}, /*scalar=*/true);

    // Save: SaveV2 of every value and the object graph, then the prefix.
    tf::FunctionDef save;
    save.mutable_signature()->set_name(saveFunction);
    save.mutable_signature()->set_is_stateful(true);
    auto addArg = [](tf::FunctionDef& f, const std::string& name, DataType type) {
        auto* arg = f.mutable_signature()->add_input_arg();
        arg->set_name(name);
        arg->set_type(type);
    };
    addArg(save, "file_prefix", tf::DT_STRING);
    FunctionArgNames saveNames;
    saveNames.take("file_prefix");
    std::vector<std::string> saveValues;
    for (const Tf2SaverVariable& v : variables) {
        saveValues.push_back(saveNames.take("savev2_" + v.handle + "_read_readvariableop"));
        addArg(save, saveValues.back(), v.dtype);
    }
    saveValues.push_back(saveNames.take("savev2_const"));
    addArg(save, saveValues.back(), tf::DT_STRING);
    std::vector<std::string> savedKeys = keys;
    savedKeys.push_back(std::string(kObjectGraphKey));
    addConst(save.mutable_node_def(), "SaveV2/tensor_names", savedKeys);
    addConst(save.mutable_node_def(), "SaveV2/shape_and_slices", std::vector<std::string>(savedKeys.size()));
    tf::NodeDef* saveV2 = save.add_node_def();
    saveV2->set_name("SaveV2");
    saveV2->set_op("SaveV2");
    saveV2->add_input("file_prefix");
    saveV2->add_input("SaveV2/tensor_names:output:0");
    saveV2->add_input("SaveV2/shape_and_slices:output:0");
    for (const std::string& value : saveValues)
        saveV2->add_input(value);
    std::vector<DataType> savedTypes = dtypes;
    savedTypes.push_back(tf::DT_STRING);
    (*saveV2->mutable_attr())["dtypes"] = typeListAttr(savedTypes);
    tf::NodeDef* identity = save.add_node_def();
    identity->set_name("Identity");
    identity->set_op("Identity");
    identity->add_input("file_prefix");
    identity->add_input("^SaveV2");
    (*identity->mutable_attr())["T"] = typeAttr(tf::DT_STRING);
    auto* saveOut = save.mutable_signature()->add_output_arg();
    saveOut->set_name("identity");
    saveOut->set_type(tf::DT_STRING);
    (*save.mutable_ret())["identity"] = "Identity:output:0";
    auto* saveControl = save.mutable_signature()->add_control_output();
    *saveControl = "SaveV2";
    (*save.mutable_control_ret())["SaveV2"] = "SaveV2";

    // Restore: RestoreV2, then AssignVariableOp into each handle.
    tf::FunctionDef restore;
    restore.mutable_signature()->set_name(restoreFunction);
    restore.mutable_signature()->set_is_stateful(true);
    addArg(restore, "file_prefix", tf::DT_STRING);
    FunctionArgNames restoreNames;
    restoreNames.take("file_prefix");
    std::vector<std::string> handles;
    for (std::size_t i = 0; i < variables.size(); ++i) {
        handles.push_back(restoreNames.take(i == 0 ? "assignvariableop_resource"
                                                   : "assignvariableop_" + std::to_string(i) + "_resource"));
        addArg(restore, handles.back(), tf::DT_RESOURCE);
    }
    addConst(restore.mutable_node_def(), "RestoreV2/tensor_names", keys);
    addConst(restore.mutable_node_def(), "RestoreV2/shape_and_slices", std::vector<std::string>(keys.size()));
    tf::NodeDef* restoreV2 = restore.add_node_def();
    restoreV2->set_name("RestoreV2");
    restoreV2->set_op("RestoreV2");
    restoreV2->add_input("file_prefix");
    restoreV2->add_input("RestoreV2/tensor_names:output:0");
    restoreV2->add_input("RestoreV2/shape_and_slices:output:0");
    (*restoreV2->mutable_attr())["dtypes"] = typeListAttr(dtypes);
    std::vector<std::string> assigns;
    for (std::size_t i = 0; i < variables.size(); ++i) {
        const std::string suffix = i == 0 ? "" : "_" + std::to_string(i);
        tf::NodeDef* value = restore.add_node_def();
        value->set_name("Identity" + suffix);
        value->set_op("Identity");
        value->add_input("RestoreV2:tensors:" + std::to_string(i));
        (*value->mutable_attr())["T"] = typeAttr(dtypes[i]);
        tf::NodeDef* assign = restore.add_node_def();
        assign->set_name("AssignVariableOp" + suffix);
        assign->set_op("AssignVariableOp");
        assign->add_input(handles[i]);
        assign->add_input(value->name() + ":output:0");
        (*assign->mutable_attr())["dtype"] = typeAttr(dtypes[i]);
        assigns.push_back(assign->name());
    }
    tf::NodeDef* noOp = restore.add_node_def();
    noOp->set_name("NoOp");
    noOp->set_op("NoOp");
    for (const std::string& a : assigns)
        noOp->add_input("^" + a);
    tf::NodeDef* done = restore.add_node_def();
    done->set_name("Identity_" + std::to_string(variables.size()));
    done->set_op("Identity");
    done->add_input("file_prefix");
    done->add_input("^NoOp");
    (*done->mutable_attr())["T"] = typeAttr(tf::DT_STRING);
    auto* restoreOut = restore.mutable_signature()->add_output_arg();
    restoreOut->set_name("identity");
    restoreOut->set_type(tf::DT_STRING);
    (*restore.mutable_ret())["identity"] = done->name() + ":output:0";
    for (const std::string& a : assigns) {
        restore.mutable_signature()->add_control_output(a);
        (*restore.mutable_control_ret())[a] = a;
    }

    // The calls in the outer graph.
    const std::string saveCall = "StatefulPartitionedCall_" + std::to_string(firstCall);
    const std::string restoreCall = "StatefulPartitionedCall_" + std::to_string(firstCall + 1);
    std::vector<DataType> saveIn{tf::DT_STRING};
    tf::NodeDef saveNode;
    saveNode.set_name(saveCall);
    saveNode.add_input("saver_filename");
    for (const Tf2SaverVariable& v : variables) {
        tf::NodeDef* read = graph.add_node();
        read->set_name(v.handle + "/Read/ReadVariableOp");
        read->set_op("ReadVariableOp");
        read->add_input(v.handle);
        (*read->mutable_attr())["dtype"] = typeAttr(v.dtype);
        saveNode.add_input(read->name());
        saveIn.push_back(v.dtype);
    }
    saveNode.add_input("Const");
    saveIn.push_back(tf::DT_STRING);
    setStatefulCallAttrs(saveNode, save.signature().name(), saveIn, {tf::DT_STRING});
    *graph.add_node() = std::move(saveNode);
    tf::NodeDef restoreNode;
    restoreNode.set_name(restoreCall);
    restoreNode.add_input("saver_filename");
    std::vector<DataType> restoreIn{tf::DT_STRING};
    for (const Tf2SaverVariable& v : variables) {
        restoreNode.add_input(v.handle);
        restoreIn.push_back(tf::DT_RESOURCE);
    }
    setStatefulCallAttrs(restoreNode, restore.signature().name(), restoreIn, {tf::DT_STRING});
    *graph.add_node() = std::move(restoreNode);
    *graph.mutable_library()->add_function() = std::move(save);
    *graph.mutable_library()->add_function() = std::move(restore);

    tf::SaverDef saver;
    saver.set_filename_tensor_name("saver_filename:0");
    saver.set_save_tensor_name(saveCall + ":0");
    saver.set_restore_op_name(restoreCall);
    saver.set_version(tf::SaverDef::V2);
    return saver;
}

} // namespace tstudio
