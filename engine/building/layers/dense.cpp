// tf.layers.dense: MatMul + BiasAdd (or tensordot for rank > 2) and the activation, TF 1.15's node names.
#include "layers/dense.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "layers/layer_scope.h"

#include <numeric>

namespace tstudio::layers {

namespace {

/// The Python repr of a dtype in TensorFlow's messages: <dtype: 'int32'>.
std::string dtypeRepr(DataType dtype)
{
    return "<dtype: '" + dataTypeName(baseType(dtype)) + "'>";
}

/// array_ops.transpose(x, perm list): "transpose/perm" and "transpose".
Expected<Output> transposeList(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& perm)
{
    auto scope = b.nameScope("transpose");
    if (!scope)
        return unexpected(scope.error());
    auto permT =
        ops::constantInts(b, perm, TensorShape{static_cast<std::int64_t>(perm.size())}, tensorflow::DT_INT32, "perm");
    if (!permT)
        return permT;
    return ops::firstOutput(b.op("Transpose", {x, *permT}, {}, scope->name()));
}

/// math_ops.tensordot(a, kernel, [[rank - 1], [0]]) under the scope "Tensordot", as TF 1.15 builds
/// it; `kernel` is [k, units] and fully defined.
Expected<Output> tensordotLastAxis(GraphBuilder& b, const Output& a, const Output& kernel)
{
    auto scope = b.nameScope("Tensordot");
    if (!scope)
        return unexpected(scope.error());
    const int rank = a.shape().rank();
    const std::int64_t k = kernel.shape().dim(0);
    const std::int64_t units = kernel.shape().dim(1);
    std::vector<std::int64_t> freeAxes(static_cast<std::size_t>(rank - 1));
    std::iota(freeAxes.begin(), freeAxes.end(), 0);
    std::vector<std::int64_t> perm = freeAxes;
    perm.push_back(rank - 1);

    if (a.shape().isFullyDefined()) {
        std::int64_t prodFree = 1;
        std::vector<std::int64_t> outShape;
        for (int i = 0; i < rank - 1; ++i) {
            prodFree *= a.shape().dim(i);
            outShape.push_back(a.shape().dim(i));
        }
        outShape.push_back(units);
        TSTUDIO_AD_TRY(at, transposeList(b, a, perm));
        TSTUDIO_AD_TRY(ar, py::reshape(b, at, std::vector<std::int64_t>{prodFree, k}));
        TSTUDIO_AD_TRY(bt, transposeList(b, kernel, {0, 1}));
        TSTUDIO_AD_TRY(br, py::reshape(b, bt, std::vector<std::int64_t>{k, units}));
        TSTUDIO_AD_TRY(mm, ops::matMul(b, ar, br));
        // array_ops.reshape(ab_matmul, list, name=scope): "Tensordot/shape" and "Tensordot".
        TSTUDIO_AD_TRY(shape, ops::constantInts(b, outShape, TensorShape{static_cast<std::int64_t>(outShape.size())},
                                                tensorflow::DT_INT32, "shape"));
        return ops::firstOutput(b.op("Reshape", {mm, shape}, {}, scope->name()));
    }

    // Known rank, unknown dimensions: the shape is computed at run time.
    TSTUDIO_AD_TRY(axesT, ops::constantInts(b, {rank - 1}, TensorShape{1}, tensorflow::DT_INT32, "axes"));
    TSTUDIO_AD_TRY(freeT, ops::constantInts(b, freeAxes, TensorShape{rank - 1}, tensorflow::DT_INT32, "free"));
    TSTUDIO_AD_TRY(shapeA, py::shape(b, a));
    auto gather = [&](const Output& indices) -> Expected<Output> {
        auto gscope = b.nameScope("GatherV2");
        if (!gscope)
            return unexpected(gscope.error());
        auto axis = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis");
        if (!axis)
            return axis;
        return ops::firstOutput(b.op("GatherV2", {shapeA, indices, *axis}, {}, gscope->name()));
    };
    auto prod = [&](const Output& x) -> Expected<Output> {
        auto axes = ops::constantInts(b, {0}, TensorShape{1}, tensorflow::DT_INT32, "Const");
        if (!axes)
            return axes;
        return ops::firstOutput(b.op("Prod", {x, *axes}, {}, "Prod"));
    };
    auto concat = [&](const std::vector<Output>& values) -> Expected<Output> {
        auto cscope = b.nameScope("concat");
        if (!cscope)
            return unexpected(cscope.error());
        auto axis = ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis");
        if (!axis)
            return axis;
        return ops::firstOutput(b.op("ConcatV2", {OpInput(values), *axis}, {}, cscope->name()));
    };
    TSTUDIO_AD_TRY(freeDims, gather(freeT));
    TSTUDIO_AD_TRY(axesDims, gather(axesT));
    TSTUDIO_AD_TRY(prodFree, prod(freeDims));
    TSTUDIO_AD_TRY(prodAxes, prod(axesDims));
    TSTUDIO_AD_TRY(permT, concat({freeT, axesT}));
    TSTUDIO_AD_TRY(newShape, ops::firstOutput(b.op("Pack", {OpInput(std::vector<Output>{prodFree, prodAxes})},
                                                   {{"axis", attr::i(0)}}, "stack")));
    TSTUDIO_AD_TRY(at, ops::transpose(b, a, permT, "transpose"));
    TSTUDIO_AD_TRY(ar, py::reshape(b, at, newShape));
    TSTUDIO_AD_TRY(bt, transposeList(b, kernel, {0, 1}));
    TSTUDIO_AD_TRY(br, py::reshape(b, bt, std::vector<std::int64_t>{k, units}));
    TSTUDIO_AD_TRY(mm, ops::matMul(b, ar, br));
    TSTUDIO_AD_TRY(bFree, ops::constantInts(b, {units}, TensorShape{1}, tensorflow::DT_INT32, "Const"));
    TSTUDIO_AD_TRY(outShape, concat({freeDims, bFree}));
    TSTUDIO_AD_TRY(product, ops::firstOutput(b.op("Reshape", {mm, outShape}, {}, scope->name())));
    // tensordot's product.set_shape(a_free_dims_static + b_free_dims_static): the free dimensions
    // known statically (the batch may not be) and the kernel's units.
    std::vector<std::int64_t> known;
    for (int i = 0; i < rank - 1; ++i)
        known.push_back(a.shape().dim(i));
    known.push_back(units);
    if (Status s = b.setShape(product, TensorShape(known)); !s.isOk())
        return unexpected(s);
    return b.tensor(product.name()); // with the shape just set
}

} // namespace

Expected<Output> dense(GraphBuilder& b, const Output& inputs, const DenseOptions& options)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "dense", options.name, options.reuse));
    if (options.units <= 0) {
        return unexpected(
            invalidArgumentError("Received an invalid value for `units`, expected a positive integer, got " +
                                 std::to_string(options.units) + "."));
    }
    TSTUDIO_AD_CHECK(checkInputMinNdim(layer.layerName(), inputs, 2));
    const DataType dtype = inputs.baseDtype();
    if (!isFloating(dtype) && !isComplex(dtype))
        return unexpected(
            invalidArgumentError("Unable to build `Dense` layer with non-floating point dtype " + dtypeRepr(dtype)));
    const int rank = inputs.shape().rank();
    const std::int64_t lastDim = inputs.shape().dim(rank - 1);
    if (lastDim < 0)
        return unexpected(
            invalidArgumentError("The last dimension of the inputs to `Dense` should be defined. Found `None`."));

    TSTUDIO_AD_TRY(kernel, addWeight(b, "kernel", TensorShape{lastDim, options.units}, dtype, options.kernelInitializer,
                                     options.kernelRegularizer, options.trainable));
    Variable bias;
    if (options.useBias) {
        TSTUDIO_AD_TRY(created, addWeight(b, "bias", TensorShape{options.units}, dtype, options.biasInitializer,
                                          options.biasRegularizer, options.trainable));
        bias = created;
    }

    Output outputs;
    if (rank > 2) {
        TSTUDIO_AD_TRY(product, tensordotLastAxis(b, inputs, kernel.value()));
        outputs = product;
    } else {
        TSTUDIO_AD_TRY(product, ops::matMul(b, inputs, kernel.value()));
        outputs = product;
    }
    if (options.useBias) {
        TSTUDIO_AD_TRY(biased, ops::firstOutput(b.op("BiasAdd", {outputs, bias.value()}, {}, "BiasAdd")));
        outputs = biased;
    }
    return applyActivation(b, outputs, options.activation);
}

} // namespace tstudio::layers
