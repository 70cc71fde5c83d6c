// kerasSequentialSpec: Dense layers on a Placeholder, named and tracked as Keras does.
#include "layers/keras_sequential.h"

#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "layers/dense.h"

namespace tstudio {

Expected<Tf2SavedModelSpec> kerasSequentialSpec(const OpRegistry& ops, const KerasSequentialOptions& options,
                                                const std::map<std::string, Tensor>& weights)
{
    if (options.layers.empty())
        return unexpected(invalidArgumentError("a Sequential model to save needs at least one layer"));
    GraphBuilder b(ops);
    auto x = ops::placeholder(b, options.dtype, options.inputShape, "dense_input");
    if (!x)
        return unexpected(x.error());
    Output h = *x;
    Tf2SavedModelSpec spec;
    spec.rootIdentifier = "_tf_keras_sequential";
    std::string last;
    for (std::size_t i = 0; i < options.layers.size(); ++i) {
        layers::DenseOptions dense;
        dense.units = options.layers[i].units;
        dense.activation = options.layers[i].activation;
        dense.name = i == 0 ? "dense" : "dense_" + std::to_string(i);
        auto y = layers::dense(b, h, dense);
        if (!y)
            return unexpected(y.error());
        h = *y;
        last = dense.name;
        const std::string layer = "layer_with_weights-" + std::to_string(i);
        spec.objects.push_back({{layer}, "_tf_keras_layer", {{"layer-" + std::to_string(i)}}});
        for (const char* part : {"kernel", "bias"}) {
            const std::string name = dense.name + "/" + part;
            const auto value = weights.find(name);
            if (value == weights.end())
                return unexpected(invalidArgumentError("no value was given for the weight '" + name + "'"));
            spec.variables.push_back({name, {layer, part}, value->second, true});
        }
    }
    spec.graph = b.toGraphDef(/*addShapes=*/true);
    spec.signatures.push_back(
        {"serving_default", {{"dense_input", x->node()}}, {{last, h.node() + ":" + std::to_string(h.index())}}});
    return spec;
}

} // namespace tstudio
