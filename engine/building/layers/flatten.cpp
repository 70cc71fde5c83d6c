// tf.layers.flatten: a Reshape to [-1, prod] (static) or [batch, -1] (run-time batch), TF 1.15's names.
#include "layers/flatten.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "layers/conv_utils.h"
#include "layers/layer_scope.h"

namespace tstudio::layers {

Expected<Output> flatten(GraphBuilder& b, const Output& inputs, const FlattenOptions& options)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "flatten", options.name, Reuse::kFalse));
    TSTUDIO_AD_TRY(format, normalizeDataFormat(options.dataFormat));
    TSTUDIO_AD_CHECK(checkInputMinNdim(layer.layerName(), inputs, 1));
    Output x = inputs;
    const int rank = x.shape().rank();
    if (format == "NCHW" && rank > 1) {
        std::vector<std::int64_t> perm{0};
        for (int i = 2; i < rank; ++i)
            perm.push_back(i);
        perm.push_back(1);
        TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
        TSTUDIO_AD_TRY(permT, ops::constantInts(b, perm, TensorShape{rank}, tensorflow::DT_INT32, "perm"));
        TSTUDIO_AD_TRY(transposed, ops::firstOutput(b.op("Transpose", {x, permT}, {}, scope.name())));
        x = transposed;
    }

    bool restKnown = true;
    std::int64_t prod = 1;
    for (int i = 1; i < rank; ++i) {
        if (x.shape().dim(i) < 0)
            restKnown = false;
        else
            prod *= x.shape().dim(i);
    }
    if (restKnown)
        return py::reshape(b, x, std::vector<std::int64_t>{-1, prod});

    // (dimension_value(shape[0]) or shape(inputs)[0], -1): the Python tuple is converted inside the
    // Reshape's scope, packed when it holds a tensor.
    Output batch;
    const std::int64_t staticBatch = x.shape().dim(0);
    if (staticBatch <= 0) {
        TSTUDIO_AD_TRY(shape, py::shape(b, x));
        TSTUDIO_AD_TRY(first, elementAt(b, shape, 0));
        batch = first;
    }
    TSTUDIO_AD_TRY(scope, b.nameScope("Reshape"));
    Output shape;
    if (batch.isValid()) {
        TSTUDIO_AD_TRY(packed, autopack(b, {{batch, 0}, {Output(), -1}}, "shape"));
        shape = packed;
    } else {
        TSTUDIO_AD_TRY(fixed, ops::constantInts(b, {staticBatch, -1}, TensorShape{2}, tensorflow::DT_INT32, "shape"));
        shape = fixed;
    }
    return ops::firstOutput(b.op("Reshape", {x, shape}, {}, scope.name()));
}

} // namespace tstudio::layers
