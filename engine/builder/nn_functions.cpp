// tf.nn.crelu, relu_layer, xw_plus_b and embedding_lookup with TensorFlow 1.15's nodes.
#include "builder/nn_functions.h"

#include "autodiff/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "training/clip_ops.h"

#include <string>

namespace tstudio::nn {

namespace {

std::string_view orDefault(std::string_view name, std::string_view fallback)
{
    return name.empty() ? fallback : name;
}

} // namespace

Expected<Output> crelu(GraphBuilder& b, const Output& features, std::string_view name, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "CRelu")));
    TSTUDIO_AD_TRY(negated, py::neg(b, features));
    Output concat;
    {
        TSTUDIO_AD_TRY(concatScope, b.nameScope("concat"));
        TSTUDIO_AD_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(
            c, py::genOp(b, "ConcatV2", {std::vector<Output>{features, negated}, axisT}, {}, concatScope.name()));
        concat = c;
    }
    return py::genOp(b, "Relu", {concat});
}

Expected<Output> xwPlusB(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                         std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "xw_plus_b")));
    TSTUDIO_AD_TRY(product, ops::matMul(b, x, weights));
    return py::genOp(b, "BiasAdd", {product, biases}, {}, scope.name());
}

Expected<Output> reluLayer(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                           std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "relu_layer")));
    TSTUDIO_AD_TRY(product, ops::matMul(b, x, weights));
    TSTUDIO_AD_TRY(biased, py::genOp(b, "BiasAdd", {product, biases}));
    return py::genOp(b, "Relu", {biased}, {}, scope.name());
}

Expected<Output> embeddingLookup(GraphBuilder& b, const Output& params, const Output& ids, std::string_view name,
                                 std::optional<double> maxNorm)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "embedding_lookup")));
    TSTUDIO_AD_TRY(paramsOp, py::producer(b, params));
    Output result;
    {
        ScopeGuard colocated = b.colocateWith(paramsOp);
        // array_ops.gather(params, ids, name=<scope>): the GatherV2 named after the scope, its axis
        // converted inside that scope.
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(gathered, py::genOp(b, "GatherV2", {params, ids, axis}, {}, scope.name()));
        result = gathered;
        if (maxNorm) {
            const TensorShape& idsShape = ids.shape();
            const TensorShape& resultShape = gathered.shape();
            if (idsShape.isUnknownRank() || resultShape.isUnknownRank() || idsShape.rank() == 0 ||
                resultShape.rank() <= idsShape.rank())
                return unexpected(unimplementedError(
                    "embedding_lookup: max_norm needs ids of known rank >= 1 and params of rank >= 2 (TensorFlow "
                    "otherwise computes the clipping axes at run time)"));
            std::vector<std::int64_t> axes;
            for (int d = idsShape.rank(); d < resultShape.rank(); ++d)
                axes.push_back(d);
            TSTUDIO_AD_TRY(clipped, training::clipByNorm(b, gathered, *maxNorm, axes));
            result = clipped;
        }
    }
    return py::genOp(b, "Identity", {result});
}

} // namespace tstudio::nn
