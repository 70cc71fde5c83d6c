// Contraction fusion: finding Conv2D -> BiasAdd [-> activation] in a plan (see contraction_fusion.h).
#include "runtime/contraction_fusion.h"

#include "framework/node_attrs.h"
#include "kernels/nn/fused_conv2d.h"

#include <string>

namespace tstudio {

namespace {

/// Whether `node`'s data_format is NHWC (the default when it is not set).
bool channelsLast(const tensorflow::NodeDef& node)
{
    if (!node.attr().count("data_format"))
        return true;
    auto format = attrString(node, "data_format");
    return format && *format == "NHWC";
}

bool isFloat(const tensorflow::NodeDef& node)
{
    auto type = attrType(node, "T");
    return type && *type == tensorflow::DT_FLOAT;
}

/// A FusedBatchNorm(V2, V3) in inference (is_training false) on float NHWC values.
bool isInferenceBatchNorm(const tensorflow::NodeDef& node)
{
    if (node.op() != "FusedBatchNorm" && node.op() != "FusedBatchNormV2" && node.op() != "FusedBatchNormV3")
        return false;
    auto training = attrBool(node, "is_training");
    if (node.attr().count("U")) {
        auto u = attrType(node, "U");
        if (!u || *u != tensorflow::DT_FLOAT)
            return false;
    }
    return training && !*training && isFloat(node) && channelsLast(node);
}

/// Whether no needed node reads an output of `id` other than output 0.
bool onlyFirstOutputRead(const Graph& graph, const FusionScope& scope, NodeId id)
{
    for (const GraphEdge& e : graph.outEdges(id))
        if (!e.isControl() && e.srcOutput != 0 && scope.needed(e.dst))
            return false;
    return true;
}

} // namespace

void findContractionFusions(const FusionScope& scope, PlanFusions& into)
{
    const Graph& graph = scope.graph();
    const PatternReader reader(graph, scope.neededNodes());
    for (NodeId conv = 0; conv < graph.nodeCount(); ++conv) {
        const tensorflow::NodeDef& convDef = graph.node(conv);
        if (!scope.needed(conv) || convDef.op() != "Conv2D" || into.of(conv) || !isFloat(convDef) ||
            !channelsLast(convDef) || !reader.input(conv, 0) || !reader.input(conv, 1))
            continue;
        const NodeId bias = reader.soleConsumer(conv);
        if (bias < 0)
            continue;
        // Conv2D -> FusedBatchNorm in inference: the shift of TensorFlow's remapper (its four
        // arguments scale, offset, mean and variance; epsilon from the batch norm).
        const bool batchNorm = isInferenceBatchNorm(graph.node(bias));
        if (batchNorm) {
            bool connected = onlyFirstOutputRead(graph, scope, bias);
            for (int slot = 1; slot <= 4; ++slot)
                connected = connected && reader.input(bias, slot).has_value();
            if (!connected)
                continue;
        } else if (reader.op(bias) != "BiasAdd" || !isFloat(graph.node(bias)) ||
                   !channelsLast(graph.node(bias)) || !reader.input(bias, 1)) {
            continue;
        }
        NodeId activation = reader.soleConsumer(bias);
        if (activation >= 0) {
            const std::string& op = reader.op(activation);
            if ((op != "Relu" && op != "Relu6" && op != "Elu") || !isFloat(graph.node(activation)))
                activation = -1;
        }
        PlanFusion f;
        f.anchor = activation >= 0 ? activation : bias;
        f.members = activation >= 0 ? std::vector<NodeId>{activation, bias, conv} : std::vector<NodeId>{bias, conv};
        f.inputs = {{conv, 0}, {conv, 1}, {bias, 1}};
        if (batchNorm)
            f.inputs.insert(f.inputs.end(), {{bias, 2}, {bias, 3}, {bias, 4}});
        f.outputs = {f.anchor};
        const tensorflow::NodeDef& anchor = graph.node(f.anchor);
        f.def.set_name(anchor.name());
        f.def.set_op(nn::kFusedConv2DOp);
        f.def.set_device(anchor.device());
        f.def.add_input(convDef.input(0));
        f.def.add_input(convDef.input(1));
        for (std::size_t i = 2; i < f.inputs.size(); ++i)
            f.def.add_input(graph.node(bias).input(f.inputs[i].second));
        auto& attrs = *f.def.mutable_attr();
        for (const char* name : {"T", "strides", "padding", "explicit_paddings", "data_format", "dilations",
                                 "use_cudnn_on_gpu"})
            if (auto it = convDef.attr().find(name); it != convDef.attr().end())
                attrs[name] = it->second;
        attrs["num_args"].set_i(batchNorm ? 4 : 1);
        auto* fusedOps = attrs["fused_ops"].mutable_list();
        fusedOps->add_s(batchNorm ? "FusedBatchNorm" : "BiasAdd");
        if (activation >= 0)
            fusedOps->add_s(reader.op(activation));
        auto epsilon = batchNorm ? attrFloat(graph.node(bias), "epsilon") : Expected<float>(0.0001f);
        attrs["epsilon"].set_f(epsilon ? *epsilon : 0.0001f);
        f.makeKernel = nn::makeFusedConv2DKernel;
        scope.admit(std::move(f), into, true);
    }
}

} // namespace tstudio
