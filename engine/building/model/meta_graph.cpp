// MetaGraphDef export (the graph, its stripped op list, saver, collections, signatures) and import
// (checks, import scope, cleared devices, collections by TensorFlow's rules), and .meta files.
#include "model/meta_graph.h"

#include "builder/control_flow_contexts.h"
#include "builder/graph_builder.h"
#include "core/build_info.h"
#include "core/log.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"
#include "io/atomic_file.h"
#include "io/proto_parse.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tstudio {
namespace {

constexpr std::string_view kTrainableVariables = "trainable_variables";
constexpr std::string_view kUnboundInputs = "unbound_inputs";
constexpr std::string_view kSavers = "savers";

/// Ops TensorFlow's function bodies use without registering them; they never enter the op list.
constexpr std::array<std::string_view, 4> kUnregisteredFunctionOps = {"_Arg", "_Retval", "_ListToArray",
                                                                      "_ArrayToList"};
/// The ops that mark a saver's name scope (TensorFlow's SAVE_AND_RESTORE_OPS).
constexpr std::array<std::string_view, 10> kSaveAndRestoreOps = {
    "SaveV2",    "Save",    "SaveSlice",    "LegacySave",    "LegacySaveSlice",
    "RestoreV2", "Restore", "RestoreSlice", "LegacyRestore", "LegacyRestoreSlice"};

template <std::size_t N> bool contains(const std::array<std::string_view, N>& list, std::string_view item)
{
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string serializeDeterministic(const google::protobuf::MessageLite& message)
{
    std::string out;
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
    coded.Trim();
    return out;
}

// --- Export ----------------------------------------------------------------------------------------

/// The op names the graph's nodes and (recursively) its functions' bodies use, functions excluded.
std::set<std::string> opsUsedByGraph(const tensorflow::GraphDef& graph)
{
    std::unordered_map<std::string, const tensorflow::FunctionDef*> functions;
    for (const tensorflow::FunctionDef& f : graph.library().function())
        functions.emplace(f.signature().name(), &f);
    std::set<std::string> used;
    std::vector<const tensorflow::FunctionDef*> pending;
    auto mark = [&](const std::string& op) {
        if (used.insert(op).second) {
            if (auto it = functions.find(op); it != functions.end())
                pending.push_back(it->second);
        }
    };
    for (const tensorflow::NodeDef& node : graph.node())
        mark(node.op());
    while (!pending.empty()) {
        const tensorflow::FunctionDef* f = pending.back();
        pending.pop_back();
        for (const tensorflow::NodeDef& node : f->node_def())
            mark(node.op());
    }
    std::erase_if(used, [&](const std::string& op) { return functions.count(op) > 0; });
    return used;
}

/// An OpDef as TensorFlow's Python registry holds it: no summary or descriptions anywhere.
tensorflow::OpDef withoutDocs(tensorflow::OpDef op)
{
    op.clear_summary();
    op.clear_description();
    for (auto* arg : {op.mutable_input_arg(), op.mutable_output_arg()})
        for (tensorflow::OpDef::ArgDef& a : *arg)
            a.clear_description();
    for (tensorflow::OpDef::AttrDef& a : *op.mutable_attr())
        a.clear_description();
    return op;
}

Expected<tensorflow::OpList> strippedOpList(const tensorflow::GraphDef& graph, const OpRegistry& ops)
{
    tensorflow::OpList list;
    for (const std::string& name : opsUsedByGraph(graph)) { // std::set: sorted by bytes, as Python's sorted()
        const OpRegistration* reg = ops.find(name);
        if (!reg) {
            if (contains(kUnregisteredFunctionOps, name))
                continue;
            return unexpected(invalidArgumentError("Op " + name + " is used by the graph, but is not registered"));
        }
        *list.add_op() = withoutDocs(reg->opDef);
    }
    return list;
}

bool attrValuesEqual(const tensorflow::AttrValue& a, const tensorflow::AttrValue& b)
{
    return serializeDeterministic(a) == serializeDeterministic(b);
}

void stripDefaultAttrsOf(tensorflow::NodeDef* node, const OpRegistry& ops,
                         const std::unordered_set<std::string>& functionNames)
{
    if (functionNames.count(node->op()))
        return;
    const OpRegistration* reg = ops.find(node->op());
    if (!reg)
        return;
    for (const tensorflow::OpDef::AttrDef& attr : reg->opDef.attr()) {
        auto it = node->attr().find(attr.name());
        if (attr.has_default_value() && it != node->attr().end() && attrValuesEqual(it->second, attr.default_value()))
            node->mutable_attr()->erase(attr.name());
    }
}

void stripDefaultAttrs(tensorflow::GraphDef* graph, const OpRegistry& ops)
{
    std::unordered_set<std::string> functionNames;
    for (const tensorflow::FunctionDef& f : graph->library().function())
        functionNames.insert(f.signature().name());
    for (tensorflow::NodeDef& node : *graph->mutable_node())
        stripDefaultAttrsOf(&node, ops, functionNames);
    for (tensorflow::FunctionDef& f : *graph->mutable_library()->mutable_function())
        for (tensorflow::NodeDef& node : *f.mutable_node_def())
            stripDefaultAttrsOf(&node, ops, functionNames);
}

/// "a/b" of "^a/b/c:0"; "" for a name without a scope.
std::string scopeOf(std::string_view name)
{
    if (name.starts_with('^'))
        name.remove_prefix(1);
    const std::size_t slash = name.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(name.substr(0, slash));
}

std::string opNameOf(std::string_view tensorName)
{
    if (tensorName.starts_with('^'))
        tensorName.remove_prefix(1);
    return std::string(tensorName.substr(0, tensorName.find(':')));
}

/// The nodes of every saver scope other than `saver`'s (TensorFlow assumes each saver keeps to its
/// own name scope): the scopes holding save/restore ops, less the ones the SaverDef names.
std::unordered_set<std::string> extraneousSaverNodes(const tensorflow::GraphDef& graph,
                                                     const std::optional<tensorflow::SaverDef>& saver)
{
    std::set<std::string> saverNodes;
    for (const tensorflow::NodeDef& node : graph.node())
        if (contains(kSaveAndRestoreOps, node.op()))
            saverNodes.insert(node.name());
    std::set<std::string> scopes;
    for (const std::string& name : saverNodes) {
        std::string scope = scopeOf(name);
        if (!saverNodes.count(scope))
            scopes.insert(scope + "/");
    }
    if (saver) {
        scopes.erase(scopeOf(opNameOf(saver->save_tensor_name())) + "/");
        scopes.erase(scopeOf(opNameOf(saver->restore_op_name())) + "/");
    }
    std::unordered_set<std::string> out;
    for (const tensorflow::NodeDef& node : graph.node())
        for (const std::string& scope : scopes)
            if (node.name().starts_with(scope)) {
                out.insert(node.name());
                break;
            }
    return out;
}

Expected<tensorflow::MetaGraphDef> assembleMetaGraph(tensorflow::GraphDef graph,
                                                     std::map<std::string, tensorflow::CollectionDef> collections,
                                                     const OpRegistry& ops, const MetaGraphExportOptions& options)
{
    std::unordered_set<std::string> excluded;
    if (options.clearDevices || options.clearExtraneousSavers) {
        // TensorFlow copies the graph node by node here; its copy has `library` set, even empty.
        if (options.clearExtraneousSavers)
            excluded = extraneousSaverNodes(graph, options.saverDef);
        tensorflow::GraphDef copy;
        *copy.mutable_versions() = graph.versions();
        *copy.mutable_library() = graph.library();
        for (tensorflow::NodeDef& node : *graph.mutable_node()) {
            if (excluded.count(node.name()))
                continue;
            if (options.clearDevices)
                node.clear_device();
            *copy.add_node() = std::move(node);
        }
        graph = std::move(copy);
    }

    tensorflow::MetaGraphDef meta;
    auto* info = meta.mutable_meta_info_def();
    if (!options.metaGraphVersion.empty())
        info->set_meta_graph_version(options.metaGraphVersion);
    if (options.anyInfo)
        *info->mutable_any_info() = *options.anyInfo;
    for (const std::string& tag : options.tags)
        info->add_tags(tag);
    info->set_tensorflow_git_version(metaGraphWriterVersion());
    auto opList = strippedOpList(graph, ops);
    if (!opList)
        return unexpected(opList.error());
    *info->mutable_stripped_op_list() = std::move(*opList);
    if (options.stripDefaultAttrs) {
        stripDefaultAttrs(&graph, ops);
        info->set_stripped_default_attrs(true);
    }
    *meta.mutable_graph_def() = std::move(graph);
    if (options.saverDef)
        *meta.mutable_saver_def() = *options.saverDef;

    for (auto& [key, def] : options.extraCollections)
        collections[key] = def;
    std::vector<std::string> keys;
    if (options.collectionList) {
        keys = *options.collectionList;
    } else {
        for (const auto& entry : collections)
            keys.push_back(entry.first);
    }
    for (const std::string& key : keys) {
        auto it = collections.find(key);
        if (it == collections.end())
            continue;
        tensorflow::CollectionDef def = it->second;
        if (!excluded.empty() && def.has_node_list()) {
            // Only operations are matched against the dropped nodes ("x:0" never is), as TensorFlow.
            auto* values = def.mutable_node_list()->mutable_value();
            values->erase(std::remove_if(values->begin(), values->end(),
                                         [&](const std::string& v) { return excluded.count(v) > 0; }),
                          values->end());
            if (values->empty())
                continue;
        }
        if (options.clearExtraneousSavers && key == kSavers && options.saverDef) {
            def.Clear();
            def.mutable_bytes_list()->add_value(serializeDeterministic(*options.saverDef));
        }
        (*meta.mutable_collection_def())[key] = std::move(def);
    }
    for (const auto& [key, signature] : options.signatureDefs)
        (*meta.mutable_signature_def())[key] = signature;
    for (const tensorflow::AssetFileDef& asset : options.assetFileDefs)
        *meta.add_asset_file_def() = asset;
    return meta;
}

// --- Import ----------------------------------------------------------------------------------------

/// TensorFlow's prepend_name_scope: "x:0" -> "s/x:0", "^x" -> "^s/x", "loc:@x" -> "loc:@s/x".
std::string prependScope(std::string_view name, const std::string& scope)
{
    if (scope.empty())
        return std::string(name);
    if (name.starts_with('^'))
        return "^" + scope + "/" + std::string(name.substr(1));
    if (name.starts_with("loc:@"))
        return "loc:@" + scope + "/" + std::string(name.substr(5));
    return scope + "/" + std::string(name);
}

/// True when `version` (e.g. "1.3.0") is at least major.minor; names that are not numbers count as
/// recent (TensorFlow itself would fail to compare them).
bool versionAtLeast(const std::string& version, int major, int minor)
{
    int parts[2] = {0, 0};
    std::string_view rest = version;
    for (int i = 0; i < 2 && !rest.empty(); ++i) {
        const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), parts[i]);
        if (ec != std::errc())
            return true;
        rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
        if (!rest.empty() && rest.front() == '.')
            rest.remove_prefix(1);
    }
    return parts[0] != major ? parts[0] > major : parts[1] >= minor;
}

/// The checks TensorFlow's graph importer makes before it adds anything.
Status checkGraphForImport(const tensorflow::GraphDef& graph)
{
    std::unordered_set<std::string> names;
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (!names.insert(node.name()).second)
            return invalidArgumentError("Node '" + node.name() + "' is not unique");
        if (node.op().empty())
            return invalidArgumentError("Node '" + node.name() + "' does not specify an operation");
        bool inControl = false;
        for (const std::string& input : node.input()) {
            if (input.starts_with('^'))
                inControl = true;
            else if (inControl)
                return invalidArgumentError("Node '" + node.name() +
                                            "': Control dependencies must come after regular dependencies");
        }
    }
    for (const tensorflow::NodeDef& node : graph.node()) {
        for (const std::string& input : node.input()) {
            auto id = parseTensorId(input);
            if (!id)
                return id.error().withContext("Node '" + node.name() + "'");
            if (!names.count(id->node))
                return invalidArgumentError("Node '" + node.name() + "': Unknown input node '" + input + "'");
        }
        if (auto it = node.attr().find("_class"); it != node.attr().end()) {
            for (const std::string& group : it->second.list().s()) {
                if (group.starts_with("loc:@") && !names.count(group.substr(5)))
                    return invalidArgumentError("Node '" + node.name() +
                                                "' expects to be colocated with unknown node '" + group.substr(5) +
                                                "'");
            }
        }
    }
    return Status::ok();
}

const tensorflow::OpDef::AttrDef* findAttr(const tensorflow::OpDef& op, const std::string& name)
{
    for (const tensorflow::OpDef::AttrDef& attr : op.attr())
        if (attr.name() == name)
            return &attr;
    return nullptr;
}

/// TensorFlow's _RemoveDefaultAttrs, then AddDefaultsToNodeDef for every op we know.
void adaptAttrsToRegistry(tensorflow::GraphDef* graph, const tensorflow::OpList* producerOps, const OpRegistry& ops)
{
    std::unordered_map<std::string, const tensorflow::OpDef*> producer;
    if (producerOps)
        for (const tensorflow::OpDef& op : producerOps->op())
            producer.emplace(op.name(), &op);
    for (tensorflow::NodeDef& node : *graph->mutable_node()) {
        const OpRegistration* reg = ops.find(node.op());
        if (!reg)
            continue;
        if (auto p = producer.find(node.op()); p != producer.end()) {
            std::vector<std::string> drop;
            for (const auto& [name, value] : node.attr()) {
                if (findAttr(reg->opDef, name))
                    continue;
                const tensorflow::OpDef::AttrDef* theirs = findAttr(*p->second, name);
                if (theirs && theirs->has_default_value() && attrValuesEqual(value, theirs->default_value()))
                    drop.push_back(name);
            }
            for (const std::string& name : drop)
                node.mutable_attr()->erase(name);
        }
        addDefaultAttrs(reg->opDef, &node);
    }
}

void prefixNode(tensorflow::NodeDef* node, const std::string& scope)
{
    node->set_name(prependScope(node->name(), scope));
    for (std::string& input : *node->mutable_input())
        input = prependScope(input, scope);
    if (auto it = node->mutable_attr()->find("_class"); it != node->mutable_attr()->end()) {
        for (std::string& group : *it->second.mutable_list()->mutable_s())
            if (group.starts_with("loc:@"))
                group = prependScope(group, scope);
    }
}

/// as_graph_element's check that `name` ("x" or "x:0") is in the graph.
Status checkGraphElement(const std::string& name, const std::unordered_set<std::string>& nodes)
{
    const std::string op = opNameOf(name);
    if (nodes.count(op))
        return Status::ok();
    if (name.find(':') != std::string::npos)
        return invalidArgumentError("The name '" + name +
                                    "' refers to a Tensor which does not exist. The operation, '" + op +
                                    "', does not exist in the graph.");
    return invalidArgumentError("The name '" + name + "' refers to an Operation not in the graph.");
}

/// The context_name of every loop in the "while_context" collection, nested ones included (items
/// that do not parse are left to importControlFlowContexts to report).
std::set<std::string> whileContextNames(const tensorflow::MetaGraphDef& meta)
{
    std::set<std::string> names;
    auto it = meta.collection_def().find("while_context");
    if (it == meta.collection_def().end())
        return names;
    std::function<void(const tensorflow::WhileContextDef&)> addLoop;
    std::function<void(const tensorflow::ControlFlowContextDef&)> addNested =
        [&](const tensorflow::ControlFlowContextDef& def) {
            if (def.has_while_ctxt())
                addLoop(def.while_ctxt());
            else if (def.has_cond_ctxt())
                for (const auto& inner : def.cond_ctxt().nested_contexts())
                    addNested(inner);
        };
    addLoop = [&](const tensorflow::WhileContextDef& def) {
        names.insert(def.context_name());
        for (const auto& inner : def.nested_contexts())
            addNested(inner);
    };
    for (const std::string& bytes : it->second.bytes_list().value()) {
        tensorflow::WhileContextDef def;
        if (def.ParseFromString(bytes))
            addLoop(def);
    }
    // Loops nested in top-level conds.
    if (auto conds = meta.collection_def().find("cond_context"); conds != meta.collection_def().end()) {
        for (const std::string& bytes : conds->second.bytes_list().value()) {
            tensorflow::CondContextDef def;
            if (def.ParseFromString(bytes))
                for (const auto& inner : def.nested_contexts())
                    addNested(inner);
        }
    }
    return names;
}

/// The collections TensorFlow reads through a registered proto type other than VariableDef;
/// their contents are kept as stored.
bool isOtherProtoCollection(std::string_view key)
{
    return key == "cond_context" || key == "while_context" || key == "queue_runners" || key == kSavers;
}

Expected<std::map<std::string, ImportedCollection>> importCollections(const tensorflow::MetaGraphDef& meta,
                                                                      const std::string& scope,
                                                                      const std::unordered_set<std::string>& nodes)
{
    const bool haveTrainable = meta.meta_info_def().tensorflow_version().empty() ||
                               versionAtLeast(meta.meta_info_def().tensorflow_version(), 1, 9);
    // trainable_variables first: for files older than TensorFlow 1.9, a variable is trainable when
    // it is first met there (the decoded VariableDef is shared by every collection holding the bytes).
    std::vector<std::string> keys;
    if (meta.collection_def().count(std::string(kTrainableVariables)))
        keys.emplace_back(kTrainableVariables);
    std::vector<std::string> others;
    for (const auto& entry : meta.collection_def())
        if (entry.first != kTrainableVariables)
            others.push_back(entry.first);
    std::sort(others.begin(), others.end());
    keys.insert(keys.end(), others.begin(), others.end());

    std::map<std::string, ImportedCollection> out;
    std::unordered_map<std::string, tensorflow::VariableDef> decoded; // by the stored bytes
    for (const std::string& key : keys) {
        const tensorflow::CollectionDef& def = meta.collection_def().at(key);
        const std::string where = "collection '" + key + "'";
        if (key == kUnboundInputs) {
            const auto& values = def.node_list().value().empty() ? def.bytes_list().value() : def.node_list().value();
            if (!values.empty()) {
                std::string list;
                for (const std::string& v : values)
                    list += (list.empty() ? "" : ",") + v;
                return unexpected(invalidArgumentError("Graph contains unbound inputs: " + list +
                                                       ". Must provide these inputs through input_map."));
            }
            continue;
        }
        ImportedCollection imported;
        switch (def.kind_case()) {
        case tensorflow::CollectionDef::KIND_NOT_SET:
            logWarning("meta_graph", "Cannot identify data type for collection " + key + ". Skipping.");
            continue;
        case tensorflow::CollectionDef::kNodeList:
            for (const std::string& value : def.node_list().value()) {
                std::string name = prependScope(value, scope);
                if (Status s = checkGraphElement(name, nodes); !s.isOk())
                    return unexpected(s.withContext(where));
                imported.def.mutable_node_list()->add_value(std::move(name));
            }
            break;
        case tensorflow::CollectionDef::kBytesList:
            if (isVariableCollection(key)) {
                int index = 0;
                for (const std::string& value : def.bytes_list().value()) {
                    auto it = decoded.find(value);
                    if (it == decoded.end()) {
                        tensorflow::VariableDef var;
                        if (!var.ParseFromString(value))
                            return unexpected(dataLossError(where + ": item " + std::to_string(index) +
                                                            " is not a valid VariableDef"));
                        if (!haveTrainable)
                            var.set_trainable(key == kTrainableVariables);
                        for (std::string* name : {var.mutable_variable_name(), var.mutable_initializer_name(),
                                                  var.mutable_snapshot_name(), var.mutable_initial_value_name()}) {
                            if (name->empty())
                                continue;
                            *name = prependScope(*name, scope);
                            if (Status s = checkGraphElement(*name, nodes); !s.isOk())
                                return unexpected(s.withContext(where));
                        }
                        if (var.has_save_slice_info_def())
                            var.mutable_save_slice_info_def()->set_full_name(
                                prependScope(var.save_slice_info_def().full_name(), scope));
                        it = decoded.emplace(value, std::move(var)).first;
                    }
                    imported.variables.push_back(it->second);
                    imported.def.mutable_bytes_list()->add_value(serializeDeterministic(it->second));
                    ++index;
                }
            } else if (isOtherProtoCollection(key)) {
                imported.def = def;
            } else {
                // Plain strings: TensorFlow passes each through prepend_name_scope.
                for (const std::string& value : def.bytes_list().value())
                    imported.def.mutable_bytes_list()->add_value(prependScope(value, scope));
            }
            break;
        default: // int64_list, float_list, any_list
            imported.def = def;
            break;
        }
        out.emplace(key, std::move(imported));
    }
    return out;
}

} // namespace

std::string metaGraphWriterVersion()
{
    return "TensorStudio " + std::string(engineVersion());
}

bool isVariableCollection(std::string_view key)
{
    return key == "variables" || key == kTrainableVariables || key == "moving_average_variables" ||
           key == "local_variables" || key == "model_variables" || key == "global_step" || key == "metric_variables";
}

Expected<tensorflow::MetaGraphDef> exportMetaGraph(const GraphBuilder& builder, const MetaGraphExportOptions& options)
{
    std::map<std::string, tensorflow::CollectionDef> collections;
    for (const std::string& key : builder.collections().keys()) {
        auto def = builder.collections().toCollectionDef(key);
        if (!def) {
            logWarning("meta_graph", "Error encountered when serializing " + key + ": " + def.error().message() +
                                         "; the collection is left out");
            continue;
        }
        collections.emplace(key, std::move(*def));
    }
    // The loops' and conds' contexts, as TensorFlow keeps them (WHILE_CONTEXT, COND_CONTEXT), unless
    // the builder's collections hold those keys themselves.
    for (auto& [key, def] : controlFlowContextCollections(builder))
        collections.emplace(key, std::move(def));
    return assembleMetaGraph(builder.toGraphDef(/*addShapes=*/true), std::move(collections), builder.registry(),
                             options);
}

Expected<tensorflow::MetaGraphDef> exportMetaGraph(const ImportedMetaGraph& imported, const OpRegistry& ops,
                                                   const MetaGraphExportOptions& options)
{
    std::map<std::string, tensorflow::CollectionDef> collections;
    for (const auto& [key, collection] : imported.collections) {
        tensorflow::CollectionDef def = collection.def;
        if (isVariableCollection(key) && def.has_bytes_list()) {
            def.mutable_bytes_list()->clear_value();
            for (const tensorflow::VariableDef& var : collection.variables)
                def.mutable_bytes_list()->add_value(serializeDeterministic(var));
        }
        collections.emplace(key, std::move(def));
    }
    MetaGraphExportOptions effective = options;
    if (!effective.saverDef)
        effective.saverDef = imported.saverDef;
    return assembleMetaGraph(imported.graph, std::move(collections), ops, effective);
}

std::string ImportedMetaGraph::scoped(std::string_view name) const
{
    return prependScope(name, scope);
}

const std::vector<tensorflow::VariableDef>& ImportedMetaGraph::variables(std::string_view key) const
{
    static const std::vector<tensorflow::VariableDef> kNone;
    auto it = collections.find(std::string(key));
    return it == collections.end() ? kNone : it->second.variables;
}

Expected<ImportedMetaGraph> importMetaGraph(tensorflow::MetaGraphDef meta, const MetaGraphImportOptions& options)
{
    ImportedMetaGraph out;
    out.scope = options.importScope;
    while (!out.scope.empty() && out.scope.back() == '/')
        out.scope.pop_back();
    if (!out.scope.empty() && !isValidNodeName(out.scope))
        return unexpected(invalidArgumentError("'" + out.scope + "' is not a valid scope name"));

    tensorflow::GraphDef& graph = *meta.mutable_graph_def();
    if (Status s = checkGraphForImport(graph); !s.isOk())
        return unexpected(s);
    if (options.clearDevices)
        for (tensorflow::NodeDef& node : *graph.mutable_node())
            node.clear_device();
    if (options.ops)
        adaptAttrsToRegistry(
            &graph, meta.meta_info_def().has_stripped_op_list() ? &meta.meta_info_def().stripped_op_list() : nullptr,
            *options.ops);
    // WhileContext.from_proto with an import scope renames the loops, and their Enters' frame_name
    // with them (so that frames made later for the loop, such as gradient counters, match).
    const std::set<std::string> loopFrames = out.scope.empty() ? std::set<std::string>() : whileContextNames(meta);
    std::unordered_set<std::string> nodes;
    for (tensorflow::NodeDef& node : *graph.mutable_node()) {
        prefixNode(&node, out.scope);
        nodes.insert(node.name());
        if ((node.op() == "Enter" || node.op() == "RefEnter") && node.attr().count("frame_name") &&
            loopFrames.count(node.attr().at("frame_name").s()))
            (*node.mutable_attr())["frame_name"].set_s(prependScope(node.attr().at("frame_name").s(), out.scope));
    }

    if (meta.has_saver_def()) {
        tensorflow::SaverDef saver = meta.saver_def();
        saver.set_filename_tensor_name(prependScope(saver.filename_tensor_name(), out.scope));
        saver.set_save_tensor_name(prependScope(saver.save_tensor_name(), out.scope));
        saver.set_restore_op_name(prependScope(saver.restore_op_name(), out.scope));
        out.saverDef = std::move(saver);
    }
    auto collections = importCollections(meta, out.scope, nodes);
    if (!collections)
        return unexpected(collections.error());
    out.collections = std::move(*collections);
    for (const auto& [key, signature] : meta.signature_def())
        out.signatureDefs.emplace(key, signature);
    out.assetFileDefs.assign(meta.asset_file_def().begin(), meta.asset_file_def().end());
    out.metaInfo = std::move(*meta.mutable_meta_info_def());
    out.graph = std::move(graph);
    return out;
}

Expected<tensorflow::MetaGraphDef> parseMetaGraph(const std::string& bytes, const std::string& what,
                                                  MetaGraphFormat* formatOut)
{
    tensorflow::MetaGraphDef meta;
    bool text = false;
    if (Status status = parseTextOrBinaryProto(bytes, what, "MetaGraphDef", meta, &text); !status.isOk())
        return unexpected(std::move(status));
    if (formatOut)
        *formatOut = text ? MetaGraphFormat::kText : MetaGraphFormat::kBinary;
    return meta;
}

Expected<tensorflow::MetaGraphDef> readMetaGraphFile(const std::filesystem::path& path, MetaGraphFormat* formatOut)
{
    auto bytes = readWholeFile(path, kMaxProtoMessageBytes);
    if (!bytes)
        return unexpected(bytes.error());
    return parseMetaGraph(*bytes, "file '" + path.string() + "'", formatOut);
}

Status writeMetaGraphFile(const std::filesystem::path& path, const tensorflow::MetaGraphDef& meta,
                          MetaGraphFormat format)
{
    std::string bytes;
    if (format == MetaGraphFormat::kText) {
        google::protobuf::TextFormat::Printer printer;
        if (!printer.PrintToString(meta, &bytes))
            return internalError("cannot print the MetaGraphDef for '" + path.string() + "' as text");
    } else {
        if (meta.ByteSizeLong() > kMaxProtoMessageBytes)
            return resourceExhaustedError("MetaGraphDef of " + std::to_string(meta.ByteSizeLong()) +
                                          " bytes exceeds protobuf's 2 GiB limit; not written to '" + path.string() +
                                          "'");
        bytes = serializeDeterministic(meta);
    }
    return writeFileAtomically(path, bytes);
}

} // namespace tstudio
