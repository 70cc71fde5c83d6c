// importIntoDocument and its helpers (graph_import.h).
#include "node_editor/graph_import.h"

#include "builder/graph_builder.h"
#include "graph/tensor_id.h"
#include "node_editor/document_builder.h"
#include "registries/default_registries.h"

#include <set>

namespace tstudio::node_editor {

std::vector<ImportInput> importInputs(const tensorflow::GraphDef& graph)
{
    std::vector<ImportInput> inputs;
    for (const auto& node : graph.node()) {
        if (node.op() != "Placeholder" && node.op() != "PlaceholderWithDefault")
            continue;
        ImportInput input;
        input.name = node.name() + ":0";
        const auto& attrs = node.attr();
        if (const auto dtype = attrs.find("dtype"); dtype != attrs.end())
            input.dtype = dtype->second.type();
        if (const auto shape = attrs.find("shape"); shape != attrs.end())
            if (auto parsed = TensorShape::fromProto(shape->second.shape()))
                input.shape = *parsed;
        inputs.push_back(std::move(input));
    }
    return inputs;
}

std::vector<DocumentTensor> documentTensors(const GraphDocument& document, const Registries& registries)
{
    std::vector<DocumentTensor> tensors;
    DocumentBuild build = buildDocument(document, registries.ops, true);
    if (!build.builder)
        return tensors;
    for (DocNodeId id : document.nodes()) {
        const auto built = build.tensors.find(id);
        if (built == build.tensors.end())
            continue;
        for (std::size_t port = 0; port < built->second.size(); ++port) {
            auto tensor = build.builder->tensor(built->second[port]);
            if (!tensor)
                continue;
            DocumentTensor t;
            t.node = id;
            t.output = static_cast<int>(port);
            t.label = document.node(id)->name + ":" + std::to_string(port);
            t.dtype = tensor->dtype();
            t.shape = tensor->shape();
            tensors.push_back(std::move(t));
        }
    }
    return tensors;
}

Expected<ImportFragment> importIntoDocument(const GraphDocument& document, const Registries& registries,
                                            const tensorflow::GraphDef& graph, const GraphImport& request)
{
    DocumentBuild build = buildDocument(document, registries.ops, true);
    if (!build.builder)
        return unexpected(invalidArgumentError("the document does not build"));
    GraphBuilder& b = *build.builder;

    // Built tensor names -> the document's "node:port" (a layer node's outputs are tensors deep inside
    // its expansion; the document wires them by the layer's name and port).
    std::map<std::string, std::string> documentName;
    for (const auto& [id, names] : build.tensors)
        for (std::size_t port = 0; port < names.size(); ++port)
            documentName[names[port]] = document.node(id)->name + ":" + std::to_string(port);

    ImportGraphDefOptions options;
    options.name = request.prefix;
    for (const auto& [key, target] : request.inputMap) {
        const DocNode* node = document.node(target.first);
        const auto built = build.tensors.find(target.first);
        if (!node || built == build.tensors.end() || target.second < 0 ||
            target.second >= static_cast<int>(built->second.size()))
            return unexpected(invalidArgumentError("input_map['" + key + "']: " +
                                                   (node ? "node '" + node->name + "' does not build"
                                                         : std::string("no such document node"))));
        auto tensor = b.tensor(built->second[static_cast<std::size_t>(target.second)]);
        if (!tensor)
            return unexpected(tensor.error());
        options.inputMap.emplace_back(key, *tensor);
    }

    std::set<std::string> existing;
    for (const auto& node : b.graphDef().node())
        existing.insert(node.name());
    auto imported = b.importGraphDef(graph, options);
    if (!imported)
        return unexpected(imported.error());

    ImportFragment result;
    result.prefix = imported->prefix;
    for (const auto& node : b.graphDef().node()) {
        if (existing.count(node.name()))
            continue;
        tensorflow::NodeDef copy = node;
        for (int i = 0; i < copy.input_size(); ++i) {
            auto id = parseTensorId(copy.input(i));
            if (!id || existing.count(id->node) == 0)
                continue; // an imported node
            if (id->isControl()) {
                // A control input on a document node: by its name when it is a raw node of that name.
                if (document.findByName(id->node) == kNoNode)
                    return unexpected(invalidArgumentError("input_map: ^" + id->node + " is not a document node"));
                continue;
            }
            const auto name = documentName.find(TensorId{id->node, id->index}.toString(false));
            if (name == documentName.end())
                return unexpected(invalidArgumentError("input_map: " + copy.input(i) +
                                                       " is not an output of a document node"));
            copy.set_input(i, name->second);
        }
        copy.mutable_attr()->erase("_output_shapes");
        *result.fragment.add_node() = std::move(copy);
    }
    *result.fragment.mutable_versions() = graph.versions();
    return result;
}

} // namespace tstudio::node_editor
