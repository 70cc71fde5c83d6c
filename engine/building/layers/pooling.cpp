// The 2-D pooling layers of tf.layers: one MaxPool / AvgPool node in the layer's scope.
#include "layers/pooling.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "layers/conv_utils.h"
#include "layers/layer_scope.h"

namespace tstudio::layers {

namespace {

Expected<Output> pooling2d(GraphBuilder& b, const Output& inputs, const Pooling2DOptions& options,
                           std::string_view baseName, std::string_view opType)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, baseName, options.name, Reuse::kFalse));
    TSTUDIO_AD_TRY(padding, normalizePadding(options.padding));
    TSTUDIO_AD_TRY(format, normalizeDataFormat(options.dataFormat));
    TSTUDIO_AD_CHECK(checkPositivePair(options.poolSize, "pool_size"));
    TSTUDIO_AD_CHECK(checkPositivePair(options.strides, "strides"));
    TSTUDIO_AD_CHECK(checkInputNdim(layer.layerName(), inputs, 4));
    const auto ksize = windowAttr(options.poolSize, format);
    const auto strides = windowAttr(options.strides, format);
    // nn.max_pool / nn.avg_pool open a name scope "MaxPool" / "AvgPool" and name the op after it.
    AttrMap attrs = {{"ksize", attr::ints({ksize.begin(), ksize.end()})},
                     {"strides", attr::ints({strides.begin(), strides.end()})},
                     {"padding", attr::s(padding)},
                     {"data_format", attr::s(format)}};
    TSTUDIO_AD_TRY(scope, b.nameScope(opType));
    return ops::firstOutput(b.op(opType, {inputs}, std::move(attrs), scope.name()));
}

} // namespace

Expected<Output> maxPooling2d(GraphBuilder& b, const Output& inputs, const Pooling2DOptions& options)
{
    return pooling2d(b, inputs, options, "max_pooling2d", "MaxPool");
}

Expected<Output> averagePooling2d(GraphBuilder& b, const Output& inputs, const Pooling2DOptions& options)
{
    return pooling2d(b, inputs, options, "average_pooling2d", "AvgPool");
}

} // namespace tstudio::layers
