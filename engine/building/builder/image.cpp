// tf.image's building API with TensorFlow 1.15's ops and node names (see image.h).
// Repeats on purpose: the flip and transpose wrappers have one shape and differ in the op and axis, as in
// TensorFlow's image_ops_impl.py.
#include "builder/image.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"

#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <variant>

namespace tstudio::image {

namespace {

using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;

/// A dimension known while building (a Python int) or computed when the step runs (int32 scalar).
using Dim = std::variant<std::int64_t, Output>;

Status valueError(std::string message)
{
    return invalidArgumentError(std::move(message));
}

/// TensorShape's str() in TensorFlow 1.x: "(2, ?, 3)", "<unknown>".
std::string pythonShape(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "<unknown>";
    std::string out = "(";
    for (int i = 0; i < shape.rank(); ++i) {
        if (i > 0)
            out += ", ";
        out += shape.dim(i) < 0 ? "?" : std::to_string(shape.dim(i));
    }
    return out + (shape.rank() == 1 ? ",)" : ")");
}

/// The tensor `t` with the shape the builder knows now (after setShape).
Expected<Output> refreshed(GraphBuilder& b, const Output& t)
{
    return b.tensor(t.name());
}

/// A scalar constant of `dtype` (integers exactly).
Expected<Output> scalar(GraphBuilder& b, double value, DataType dtype, std::string_view name)
{
    if (isInteger(dtype))
        return ops::constantInts(b, {static_cast<std::int64_t>(value)}, TensorShape::scalar(), dtype, name);
    return ops::constant(b, value, dtype, name);
}

/// A generated op with a Python-number argument named `arg`, in the scope `opName` (a type or an
/// existing scope ending in '/'): the Const "<scope>/<arg>", then the op named after the scope.
Expected<Output> opWithNumber(GraphBuilder& b, std::string_view type, std::string_view opName, const Output& x,
                              double number, DataType numberType, std::string_view arg)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(opName));
    TSTUDIO_AD_TRY(y, scalar(b, number, numberType, arg));
    return py::genOp(b, type, {x, y}, {}, scope.name());
}

/// array_ops.rank: the Const "Rank" when the rank is known, else a Rank op.
Expected<Output> rankOf(GraphBuilder& b, const Output& x)
{
    if (!x.shape().isUnknownRank())
        return ops::constantInts(b, {x.shape().rank()}, TensorShape::scalar(), DT_INT32, "Rank");
    return py::genOp(b, "Rank", {x});
}

/// x[begin:end:1] of a 1-D tensor as Tensor.__getitem__ builds it: "strided_slice/stack",
/// "stack_1", "stack_2" and the StridedSlice; an index shrinks the axis, an open end sets end_mask.
Expected<Output> stridedSlice1D(GraphBuilder& b, const Output& x, std::int64_t begin, std::int64_t end, bool openEnd,
                                bool shrink)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(beginT, py::intVector(b, {begin}, "stack"));
    TSTUDIO_AD_TRY(endT, py::intVector(b, {end}, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
    return py::genOp(b, "StridedSlice", {x, beginT, endT, strides},
                     {{"begin_mask", attr::i(0)},
                      {"end_mask", attr::i(openEnd ? 1 : 0)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(shrink ? 1 : 0)}},
                     scope.name());
}

/// central_crop's _get_dim: the static size of dimension `index`, else shape(tensor)[index].
Expected<Dim> dimOf(GraphBuilder& b, const Output& t, int index)
{
    if (!t.shape().isUnknownRank() && t.shape().dim(index) >= 0)
        return Dim{t.shape().dim(index)};
    TSTUDIO_AD_TRY(shape, py::shape(b, t));
    TSTUDIO_AD_TRY(d, stridedSlice1D(b, shape, index, index + 1, false, true));
    return Dim{d};
}

/// array_ops.stack / the conversion of a Python list to a tensor: a Const `name` when every
/// element is a number, else a Pack `name` whose numbers are Consts "<name>/<position>".
Expected<Output> pack(GraphBuilder& b, const std::vector<Dim>& elements, std::string_view name)
{
    bool numbers = true;
    for (const Dim& e : elements)
        numbers = numbers && std::holds_alternative<std::int64_t>(e);
    if (numbers) {
        std::vector<std::int64_t> values;
        for (const Dim& e : elements)
            values.push_back(std::get<std::int64_t>(e));
        return py::intVector(b, values, name);
    }
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    std::vector<Output> tensors;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (const auto* n = std::get_if<std::int64_t>(&elements[i])) {
            TSTUDIO_AD_TRY(c, ops::constantInts(b, {*n}, TensorShape::scalar(), DT_INT32, std::to_string(i)));
            tensors.push_back(c);
        } else {
            tensors.push_back(std::get<Output>(elements[i]));
        }
    }
    return py::genOp(b, "Pack", {tensors}, {{"axis", attr::i(0)}}, scope.name());
}

/// reduce_all(x) over every axis: the axes "Const" (x's rank is known here), then "All".
Expected<Output> reduceAll(GraphBuilder& b, const Output& x)
{
    std::vector<std::int64_t> axes;
    for (int i = 0; i < x.shape().rank(); ++i)
        axes.push_back(i);
    TSTUDIO_AD_TRY(c,
                   ops::constantInts(b, axes, TensorShape{static_cast<std::int64_t>(axes.size())}, DT_INT32, "Const"));
    return py::genOp(b, "All", {x, c}, {{"keep_dims", attr::b(false)}});
}

/// check_ops.assert_positive(x, [message]): scope "assert_positive", zero "Const", then
/// assert_less(zero, x) ("Less", "Const", "All", "Assert").
Expected<Operation> assertPositive(GraphBuilder& b, const Output& x, const std::string& message)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_positive"));
    TSTUDIO_AD_TRY(zero, scalar(b, 0, x.baseDtype(), "Const"));
    TSTUDIO_AD_TRY(lessScope, b.nameScope("assert_less"));
    TSTUDIO_AD_TRY(less, py::genOp(b, "Less", {zero, x}));
    TSTUDIO_AD_TRY(all, reduceAll(b, less));
    return assertThat(b, all, {message});
}

/// check_ops.assert_greater_equal(x, y, message=...) with its default data.
Expected<Operation> assertGreaterEqual(GraphBuilder& b, const Output& x, std::int64_t y, const std::string& message)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_greater_equal"));
    TSTUDIO_AD_TRY(yT, scalar(b, static_cast<double>(y), x.baseDtype(), "y"));
    TSTUDIO_AD_TRY(ge, py::genOp(b, "GreaterEqual", {x, yT}));
    TSTUDIO_AD_TRY(all, reduceAll(b, ge));
    return assertThat(b, all,
                      {message, "Condition x >= y did not hold element-wise:x (" + x.name() + ") = ", x,
                       "y (" + yT.name() + ") = ", yT});
}

/// _CheckAtLeast3DImage(image, require_static=False): errors for a rank below 3 or a zero
/// dimension; for a shape not fully known, the runtime checks.
Expected<std::vector<Operation>> checkAtLeast3DImage(GraphBuilder& b, const Output& image)
{
    const TensorShape& shape = image.shape();
    if (!shape.isUnknownRank() && shape.rank() < 3)
        return unexpected(valueError("'image' must be at least three-dimensional."));
    if (!shape.isUnknownRank()) {
        for (std::int64_t d : shape.dims())
            if (d == 0)
                return unexpected(valueError("all dims of 'image.shape' must be > 0: " + pythonShape(shape)));
    }
    if (shape.isFullyDefined())
        return std::vector<Operation>{};
    TSTUDIO_AD_TRY(dynamicShape, py::shape(b, image));
    TSTUDIO_AD_TRY(positive, assertPositive(b, dynamicShape, "all dims of 'image.shape' must be > 0."));
    TSTUDIO_AD_TRY(rank, rankOf(b, image));
    TSTUDIO_AD_TRY(atLeast3, assertGreaterEqual(b, rank, 3, "'image' must be at least three-dimensional."));
    return std::vector<Operation>{positive, atLeast3};
}

/// _AssertAtLeast3DImage: the image through an Identity "control_dependency" after the checks.
Expected<Output> assertAtLeast3DImage(GraphBuilder& b, const Output& image)
{
    TSTUDIO_AD_TRY(checks, checkAtLeast3DImage(b, image));
    return withDependencies(b, checks, image);
}

/// array_ops.reverse(x, axes): "ReverseV2/axis" and "ReverseV2".
Expected<Output> reverse(GraphBuilder& b, const Output& x, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("ReverseV2"));
    TSTUDIO_AD_TRY(axes, py::intVector(b, {axis}, "axis"));
    return py::genOp(b, "ReverseV2", {x, axes}, {}, scope.name());
}

/// fix_image_flip_shape: the result gets the image's shape, or [?, ?, ?] when that is unknown.
Expected<Output> fixFlipShape(GraphBuilder& b, const Output& image, const Output& result)
{
    const TensorShape shape = image.shape().isUnknownRank() ? TensorShape{-1, -1, -1} : image.shape();
    TSTUDIO_AD_CHECK(b.setShape(result, shape));
    return refreshed(b, result);
}

Status rank3Or4Error()
{
    return valueError("'image' must have either 3 or 4 dimensions.");
}

Expected<Output> flip(GraphBuilder& b, const Output& image, int flipIndex, std::string_view scopeName)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(checked, assertAtLeast3DImage(b, image));
    const int rank = checked.shape().rank();
    if (rank == 3 || rank < 0) {
        TSTUDIO_AD_TRY(reversed, reverse(b, checked, flipIndex));
        return fixFlipShape(b, checked, reversed);
    }
    if (rank == 4)
        return reverse(b, checked, flipIndex + 1);
    return unexpected(rank3Or4Error());
}

/// random_ops.random_uniform in scope "random_uniform" with the shape made by `shape` inside it:
/// RandomUniformInt named after the scope for integers, else RandomUniform * (max - min) + min.
Expected<Output> randomUniform(GraphBuilder& b, const std::function<Expected<Output>(GraphBuilder&)>& shape,
                               double minval, double maxval, DataType dtype, std::optional<std::int64_t> seed)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("random_uniform"));
    TSTUDIO_AD_TRY(shapeT, shape(b));
    TSTUDIO_AD_TRY(minT, scalar(b, minval, dtype, "min"));
    TSTUDIO_AD_TRY(maxT, scalar(b, maxval, dtype, "max"));
    const RandomSeeds seeds = b.seedsFor(seed);
    AttrMap attrs = {{"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}};
    if (isInteger(dtype))
        return ops::firstOutput(b.op("RandomUniformInt", {shapeT, minT, maxT}, std::move(attrs), scope.name()));
    attrs["dtype"] = attr::type(dtype);
    TSTUDIO_AD_TRY(rnd, ops::firstOutput(b.op("RandomUniform", {shapeT}, std::move(attrs))));
    TSTUDIO_AD_TRY(width, ops::sub(b, maxT, minT, "sub"));
    TSTUDIO_AD_TRY(scaled, ops::mul(b, rnd, width, "mul"));
    return ops::add(b, scaled, minT, scope.name());
}

/// A scalar float32 random_uniform([], minval, maxval, seed).
Expected<Output> randomScalar(GraphBuilder& b, double minval, double maxval, std::optional<std::int64_t> seed)
{
    return ops::randomUniform(b, TensorShape::scalar(), minval, maxval, DT_FLOAT, seed);
}

Expected<Output> randomFlip(GraphBuilder& b, const Output& image, int flipIndex, std::optional<std::int64_t> seed,
                            std::string_view scopeName)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(checked, assertAtLeast3DImage(b, image));
    const int rank = checked.shape().rank();
    if (rank == 3 || rank < 0) {
        TSTUDIO_AD_TRY(u, randomScalar(b, 0.0, 1.0, seed));
        TSTUDIO_AD_TRY(mirror, py::genOpScalarY(b, "Less", u, 0.5));
        TSTUDIO_AD_TRY(merged,
                       cond(
                           b, mirror,
                           [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                               TSTUDIO_AD_TRY(r, reverse(g, checked, flipIndex));
                               return std::vector<Output>{r};
                           },
                           [&](GraphBuilder&) -> Expected<std::vector<Output>> { return std::vector<Output>{checked}; },
                           scope.name()));
        return fixFlipShape(b, checked, merged.front());
    }
    if (rank != 4)
        return unexpected(rank3Or4Error());
    // array_ops.shape(image)[0] is a tensor even when the batch size is known.
    TSTUDIO_AD_TRY(imageShape, py::shape(b, checked));
    TSTUDIO_AD_TRY(batchSize, stridedSlice1D(b, imageShape, 0, 1, false, true));
    const Dim batch = batchSize;
    const auto batchTensor = [&](GraphBuilder& g) -> Expected<Output> {
        return py::genOp(g, "Pack", {std::vector<Output>{batchSize}}, {{"axis", attr::i(0)}}, "shape");
    };
    TSTUDIO_AD_TRY(u, randomUniform(b, batchTensor, 0.0, 1.0, DT_FLOAT, seed));
    Output reshaped;
    {
        TSTUDIO_AD_TRY(reshapeScope, b.nameScope("Reshape"));
        TSTUDIO_AD_TRY(shape, pack(b, {batch, std::int64_t{1}, std::int64_t{1}, std::int64_t{1}}, "shape"));
        TSTUDIO_AD_TRY(r, py::genOp(b, "Reshape", {u, shape}, {}, reshapeScope.name()));
        reshaped = r;
    }
    TSTUDIO_AD_TRY(rounded, py::genOp(b, "Round", {reshaped}));
    TSTUDIO_AD_TRY(flips, py::cast(b, rounded, checked.baseDtype()));
    TSTUDIO_AD_TRY(flipped, reverse(b, checked, flipIndex + 1));
    TSTUDIO_AD_TRY(kept, py::binary(b, py::Operator::kMul, flips, flipped));
    TSTUDIO_AD_TRY(notFlips, py::binary(b, py::Operator::kSub, 1.0, flips));
    TSTUDIO_AD_TRY(original, py::binary(b, py::Operator::kMul, notFlips, checked));
    return py::binary(b, py::Operator::kAdd, kept, original);
}

/// The range of a real dtype as Python's DType.min / DType.max give it.
std::pair<double, double> dtypeRange(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_HALF: return {-65504.0, 65504.0};
    case tensorflow::DT_BFLOAT16: return {-3.3895313892515355e38, 3.3895313892515355e38};
    case DT_FLOAT: return {-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    case tensorflow::DT_DOUBLE: return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
    case tensorflow::DT_INT8: return {-128.0, 127.0};
    case tensorflow::DT_UINT8: return {0.0, 255.0};
    case tensorflow::DT_INT16: return {-32768.0, 32767.0};
    case tensorflow::DT_UINT16: return {0.0, 65535.0};
    case DT_INT32: return {-2147483648.0, 2147483647.0};
    case tensorflow::DT_UINT32: return {0.0, 4294967295.0};
    case tensorflow::DT_INT64: return {-9223372036854775808.0, 9223372036854775807.0};
    case tensorflow::DT_UINT64: return {0.0, 18446744073709551615.0};
    default: return {0.0, 0.0};
    }
}

/// The largest value of an integer dtype, exactly.
std::uint64_t integerMax(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_INT8: return 127;
    case tensorflow::DT_UINT8: return 255;
    case tensorflow::DT_INT16: return 32767;
    case tensorflow::DT_UINT16: return 65535;
    case DT_INT32: return 2147483647;
    case tensorflow::DT_UINT32: return 4294967295u;
    case tensorflow::DT_INT64: return 9223372036854775807u;
    default: return 18446744073709551615u;
    }
}

/// math_ops.saturate_cast(value, dtype, name): in scope `name`, Maximum with "min" and Minimum with
/// "max" where the target's range is narrower, then the Cast named after the scope.
Expected<Output> saturateCast(GraphBuilder& b, const Output& value, DataType dtype, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    Output v = value;
    const auto [fromMin, fromMax] = dtypeRange(value.baseDtype());
    const auto [toMin, toMax] = dtypeRange(dtype);
    if (fromMin < toMin) {
        TSTUDIO_AD_TRY(lo, scalar(b, toMin, v.baseDtype(), "min"));
        TSTUDIO_AD_TRY(clipped, py::genOp(b, "Maximum", {v, lo}));
        v = clipped;
    }
    if (fromMax > toMax) {
        TSTUDIO_AD_TRY(hi, scalar(b, toMax, v.baseDtype(), "max"));
        TSTUDIO_AD_TRY(clipped, py::genOp(b, "Minimum", {v, hi}));
        v = clipped;
    }
    return py::genOp(b, "Cast", {v}, {{"DstT", attr::type(dtype)}}, scope.name());
}

/// The final cast of convert_image_dtype, named after its scope.
Expected<Output> castNamed(GraphBuilder& b, const Output& x, DataType dtype, bool saturate, const std::string& scope)
{
    if (saturate)
        return saturateCast(b, x, dtype, scope);
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(dtype)}}, scope);
}

/// adjust_*'s "convert to float32 unless half or float".
Expected<Output> toFloatImage(GraphBuilder& b, const Output& image)
{
    const DataType dtype = image.baseDtype();
    if (dtype == DT_HALF || dtype == DT_FLOAT)
        return image;
    return convertImageDtype(b, image, DT_FLOAT);
}

/// A scalar tensor for a Python number argument of an adjustment: math_ops.cast's "Cast/x" (and a
/// Cast when `dtype` is not float32).
Expected<Output> castNumber(GraphBuilder& b, double value, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(x, ops::constant(b, value, DT_FLOAT, "x"));
    if (dtype == DT_FLOAT)
        return x;
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(dtype)}}, scope.name());
}

using Scalar = std::variant<double, Output>;

Expected<Output> adjustBrightnessImpl(GraphBuilder& b, const Output& image, const Scalar& delta)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("adjust_brightness"));
    const DataType orig = image.baseDtype();
    TSTUDIO_AD_TRY(flt, toFloatImage(b, image));
    Output d;
    if (const double* number = std::get_if<double>(&delta)) {
        TSTUDIO_AD_TRY(c, castNumber(b, *number, flt.baseDtype()));
        d = c;
    } else {
        TSTUDIO_AD_TRY(c, py::cast(b, std::get<Output>(delta), flt.baseDtype()));
        d = c;
    }
    TSTUDIO_AD_TRY(adjusted, py::genOp(b, "Add", {flt, d}, {}, scope.name()));
    return convertImageDtype(b, adjusted, orig, true);
}

Expected<Output> adjustContrastImpl(GraphBuilder& b, const Output& images, const Scalar& factor)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("adjust_contrast"));
    const DataType orig = images.baseDtype();
    TSTUDIO_AD_TRY(flt, toFloatImage(b, images));
    Output adjusted;
    if (const double* number = std::get_if<double>(&factor)) {
        TSTUDIO_AD_TRY(a, opWithNumber(b, "AdjustContrastv2", scope.name(), flt, *number, DT_FLOAT, "contrast_factor"));
        adjusted = a;
    } else {
        TSTUDIO_AD_TRY(a, py::genOp(b, "AdjustContrastv2", {flt, std::get<Output>(factor)}, {}, scope.name()));
        adjusted = a;
    }
    return convertImageDtype(b, adjusted, orig, true);
}

/// adjust_hue / adjust_saturation: scope `name`, the op with its scalar (a Python number becomes
/// "<Op>/<arg>"), converted back without saturation.
Expected<Output> adjustHsv(GraphBuilder& b, const Output& image, const Scalar& value, std::string_view type,
                           std::string_view arg, std::string_view defaultScope, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? defaultScope : name));
    const DataType orig = image.baseDtype();
    TSTUDIO_AD_TRY(flt, toFloatImage(b, image));
    Output adjusted;
    if (const double* number = std::get_if<double>(&value)) {
        TSTUDIO_AD_TRY(a, opWithNumber(b, type, type, flt, *number, DT_FLOAT, arg));
        adjusted = a;
    } else {
        TSTUDIO_AD_TRY(a, py::genOp(b, type, {flt, std::get<Output>(value)}));
        adjusted = a;
    }
    return convertImageDtype(b, adjusted, orig);
}

/// tensor_util.constant_value_as_shape of a 1-D int32 size: its two values when known.
std::optional<std::array<std::int64_t, 2>> knownSize(const GraphBuilder& b, const Output& size)
{
    const Tensor* value = b.constantValue(size);
    if (value == nullptr || value->numElements() != 2 || value->dtype() != DT_INT32)
        return std::nullopt;
    const auto v = value->values<std::int32_t>();
    return std::array<std::int64_t, 2>{v[0], v[1]};
}

const char* resizeOpType(ResizeMethod method)
{
    switch (method) {
    case ResizeMethod::kBilinear: return "ResizeBilinear";
    case ResizeMethod::kNearestNeighbor: return "ResizeNearestNeighbor";
    case ResizeMethod::kBicubic: return "ResizeBicubic";
    case ResizeMethod::kArea: return "ResizeArea";
    }
    return "ResizeBilinear";
}

/// _resize_images_common inside the open scope, `size` built by `makeSize` after the batching.
Expected<Output> resizeIn(GraphBuilder& b, const Output& imagesIn, const std::function<Expected<Output>()>& makeSize,
                          const ResizeOptions& options)
{
    Output images = imagesIn;
    if (images.shape().isUnknownRank())
        return unexpected(valueError("'images' contains no shape."));
    const bool isBatch = images.shape().rank() != 3;
    if (!isBatch) {
        TSTUDIO_AD_TRY(expanded, py::expandDims(b, images, 0));
        images = expanded;
    } else if (images.shape().rank() != 4) {
        return unexpected(valueError("'images' must have either 3 or 4 dimensions."));
    }
    const std::int64_t height = images.shape().dim(1);
    const std::int64_t width = images.shape().dim(2);
    TSTUDIO_AD_TRY(size, makeSize());
    if (size.baseDtype() != DT_INT32)
        return unexpected(valueError("'size' must be a 1-D int32 Tensor"));
    const TensorShape& sizeShape = size.shape();
    if (!sizeShape.isUnknownRank() && (sizeShape.rank() != 1 || (sizeShape.dim(0) >= 0 && sizeShape.dim(0) != 2)))
        return unexpected(valueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width"));
    const auto newSize = knownSize(b, size);
    Output resized;
    if (newSize && height >= 0 && width >= 0 && (*newSize)[0] == height && (*newSize)[1] == width) {
        resized = images; // skip_resize_if_same
    } else {
        // The v1 function passes align_corners only; half_pixel_centers keeps its default.
        TSTUDIO_AD_TRY(r, py::genOp(b, resizeOpType(options.method), {images, size},
                                    {{"align_corners", attr::b(options.alignCorners)}}));
        TSTUDIO_AD_CHECK(
            b.setShape(r, TensorShape{-1, newSize ? (*newSize)[0] : -1, newSize ? (*newSize)[1] : -1, -1}));
        TSTUDIO_AD_TRY(r2, refreshed(b, r));
        resized = r2;
    }
    if (!isBatch)
        return py::genOp(b, "Squeeze", {resized}, {{"squeeze_dims", attr::ints({0})}});
    return resized;
}

/// random_ops.random_crop inside its open scope, `size` already a tensor.
Expected<Output> randomCropIn(GraphBuilder& b, const Output& value, const Output& size,
                              std::optional<std::int64_t> seed, const std::string& scopeName)
{
    TSTUDIO_AD_TRY(shape, py::shape(b, value));
    TSTUDIO_AD_TRY(fits, py::genOp(b, "GreaterEqual", {shape, size}));
    TSTUDIO_AD_TRY(all, reduceAll(b, fits));
    TSTUDIO_AD_TRY(check, assertThat(b, all, {std::string("Need value.shape >= size, got "), shape, size}, 1000));
    TSTUDIO_AD_TRY(checkedShape, withDependencies(b, {check}, shape));
    TSTUDIO_AD_TRY(room, py::binary(b, py::Operator::kSub, checkedShape, size));
    TSTUDIO_AD_TRY(limit, py::binary(b, py::Operator::kAdd, room, 1.0));
    TSTUDIO_AD_TRY(offsetShape, py::shape(b, checkedShape));
    TSTUDIO_AD_TRY(draws, randomUniform(
                              b, [&](GraphBuilder&) -> Expected<Output> { return offsetShape; }, 0.0,
                              static_cast<double>(std::numeric_limits<std::int32_t>::max()), DT_INT32, seed));
    TSTUDIO_AD_TRY(offset, py::binary(b, py::Operator::kMod, draws, limit));
    return py::genOp(b, "Slice", {value, offset, size}, {}, scopeName);
}

} // namespace

// --- Resizing ---------------------------------------------------------------------------------------------

Expected<Output> resizeImages(GraphBuilder& b, const Output& images, const Output& size, const ResizeOptions& options,
                              std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("resize") : name));
    return resizeIn(
        b, images, [&]() -> Expected<Output> { return size; }, options);
}

Expected<Output> resizeImages(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                              const ResizeOptions& options, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("resize") : name));
    return resizeIn(
        b, images,
        [&]() {
            return py::intVector(b, {size[0], size[1]}, "size");
        },
        options);
}

// --- Crops ---------------------------------------------------------------------------------------------------

Expected<Output> centralCrop(GraphBuilder& b, const Output& image, double centralFraction)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("central_crop"));
    if (centralFraction <= 0.0 || centralFraction > 1.0)
        return unexpected(valueError("central_fraction must be within (0, 1]"));
    if (centralFraction == 1.0)
        return image;
    TSTUDIO_AD_TRY(unused, assertAtLeast3DImage(b, image)); // built and left unused, as TensorFlow does
    (void)unused;
    const int rank = image.shape().rank();
    if (rank != 3 && rank != 4)
        return unexpected(valueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = " +
                                     (rank < 0 ? std::string("None") : std::to_string(rank)) + "."));
    const int first = rank == 3 ? 0 : 1;
    TSTUDIO_AD_TRY(imgH, dimOf(b, image, first));
    TSTUDIO_AD_TRY(imgW, dimOf(b, image, first + 1));
    const auto start = [&](const Dim& d) -> Expected<Dim> {
        if (const auto* n = std::get_if<std::int64_t>(&d)) {
            const double v = static_cast<double>(*n);
            return Dim{static_cast<std::int64_t>((v - v * centralFraction) / 2)};
        }
        TSTUDIO_AD_TRY(dd, py::cast(b, std::get<Output>(d), tensorflow::DT_DOUBLE));
        TSTUDIO_AD_TRY(scaled, py::binary(b, py::Operator::kMul, dd, centralFraction));
        TSTUDIO_AD_TRY(rest, py::binary(b, py::Operator::kSub, dd, scaled));
        TSTUDIO_AD_TRY(half, py::binary(b, py::Operator::kTrueDiv, rest, 2.0));
        TSTUDIO_AD_TRY(s, py::cast(b, half, DT_INT32));
        return Dim{s};
    };
    TSTUDIO_AD_TRY(startH, start(imgH));
    TSTUDIO_AD_TRY(startW, start(imgW));
    const auto size = [&](const Dim& d, const Dim& s) -> Expected<Dim> {
        if (std::holds_alternative<std::int64_t>(d) && std::holds_alternative<std::int64_t>(s))
            return Dim{std::get<std::int64_t>(d) - std::get<std::int64_t>(s) * 2};
        // A dynamic dimension has a dynamic start: img - start * 2 as Tensor operators.
        TSTUDIO_AD_TRY(twice, py::binary(b, py::Operator::kMul, std::get<Output>(s), 2.0));
        TSTUDIO_AD_TRY(left, py::binary(b, py::Operator::kSub, std::get<Output>(d), twice));
        return Dim{left};
    };
    TSTUDIO_AD_TRY(sizeH, size(imgH, startH));
    TSTUDIO_AD_TRY(sizeW, size(imgW, startW));
    std::vector<Dim> begin = {startH, startW, std::int64_t{0}};
    std::vector<Dim> extent = {sizeH, sizeW, std::int64_t{-1}};
    if (rank == 4) {
        begin.insert(begin.begin(), std::int64_t{0});
        extent.insert(extent.begin(), std::int64_t{-1});
    }
    TSTUDIO_AD_TRY(beginT, pack(b, begin, "stack"));
    TSTUDIO_AD_TRY(sizeT, pack(b, extent, "stack_1"));
    TSTUDIO_AD_TRY(cropped, py::genOp(b, "Slice", {image, beginT, sizeT}));
    const auto known = [](const Dim& d) {
        return std::holds_alternative<std::int64_t>(d) ? std::get<std::int64_t>(d) : std::int64_t{-1};
    };
    std::vector<std::int64_t> dims = {known(sizeH), known(sizeW), image.shape().dim(rank - 1)};
    if (rank == 4)
        dims.insert(dims.begin(), image.shape().dim(0));
    TSTUDIO_AD_CHECK(b.setShape(cropped, TensorShape(dims)));
    return refreshed(b, cropped);
}

Expected<Output> randomCrop(GraphBuilder& b, const Output& value, const std::vector<std::int64_t>& size,
                            std::optional<std::int64_t> seed, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("random_crop") : name));
    TSTUDIO_AD_TRY(sizeT,
                   ops::constantInts(b, size, TensorShape{static_cast<std::int64_t>(size.size())}, DT_INT32, "size"));
    return randomCropIn(b, value, sizeT, seed, scope.name());
}

Expected<Output> randomCrop(GraphBuilder& b, const Output& value, const Output& size, std::optional<std::int64_t> seed,
                            std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("random_crop") : name));
    if (size.baseDtype() != DT_INT32) // ops.convert_to_tensor(size, dtype=int32) does not cast
        return unexpected(valueError("Tensor conversion requested dtype int32 for Tensor with dtype " +
                                     dataTypeName(size.baseDtype()) + ": " + size.name()));
    return randomCropIn(b, value, size, seed, scope.name());
}

Expected<Output> cropToBoundingBox(GraphBuilder& b, const Output& imageIn, std::int64_t offsetHeight,
                                   std::int64_t offsetWidth, std::int64_t targetHeight, std::int64_t targetWidth)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("crop_to_bounding_box"));
    Output image = imageIn;
    const int rank = image.shape().rank();
    const bool isBatch = rank == 4;
    if (rank == 3 || rank < 0) {
        TSTUDIO_AD_TRY(expanded, py::expandDims(b, image, 0));
        if (rank < 0)
            TSTUDIO_AD_CHECK(b.setShape(expanded, TensorShape{-1, -1, -1, -1}));
        TSTUDIO_AD_TRY(e, refreshed(b, expanded));
        image = e;
    } else if (rank != 4) {
        return unexpected(rank3Or4Error());
    }
    TSTUDIO_AD_TRY(checks, checkAtLeast3DImage(b, image));
    // _ImageDimensions(image, rank=4): static dims, or unstack(shape(image)) for unknown ones.
    std::vector<Dim> dims;
    if (image.shape().isFullyDefined()) {
        for (std::int64_t d : image.shape().dims())
            dims.emplace_back(d);
    } else {
        TSTUDIO_AD_TRY(shape, py::shape(b, image));
        TSTUDIO_AD_TRY(unstack, b.op("Unpack", {shape}, {{"num", attr::i(4)}, {"axis", attr::i(0)}}, "unstack"));
        for (int i = 0; i < 4; ++i) {
            const std::int64_t d = image.shape().dim(i);
            dims.push_back(d >= 0 ? Dim{d} : Dim{unstack.output(i)});
        }
    }
    if (offsetWidth < 0)
        return unexpected(valueError("offset_width must be >= 0."));
    if (offsetHeight < 0)
        return unexpected(valueError("offset_height must be >= 0."));
    if (targetWidth <= 0)
        return unexpected(valueError("target_width must be > 0."));
    if (targetHeight <= 0)
        return unexpected(valueError("target_height must be > 0."));
    // width >= target + offset, then height: checked now when known, by an Assert otherwise.
    const std::pair<const Dim*, std::pair<std::int64_t, const char*>> fits[] = {
        {&dims[2], {targetWidth + offsetWidth, "width must be >= target + offset."}},
        {&dims[1], {targetHeight + offsetHeight, "height must be >= target + offset."}}};
    for (const auto& [dim, check] : fits) {
        if (const auto* n = std::get_if<std::int64_t>(dim)) {
            if (*n < check.first)
                return unexpected(valueError(check.second));
            continue;
        }
        TSTUDIO_AD_TRY(ok, opWithNumber(b, "GreaterEqual", "GreaterEqual", std::get<Output>(*dim),
                                        static_cast<double>(check.first), DT_INT32, "y"));
        TSTUDIO_AD_TRY(assertion, assertThat(b, ok, {std::string(check.second)}));
        checks.push_back(assertion);
    }
    TSTUDIO_AD_TRY(checked, withDependencies(b, checks, image));
    TSTUDIO_AD_TRY(begin, py::intVector(b, {0, offsetHeight, offsetWidth, 0}, "stack"));
    TSTUDIO_AD_TRY(extent, py::intVector(b, {-1, targetHeight, targetWidth, -1}, "stack_1"));
    TSTUDIO_AD_TRY(cropped, py::genOp(b, "Slice", {checked, begin, extent}));
    const auto known = [](const Dim& d) {
        return std::holds_alternative<std::int64_t>(d) ? std::get<std::int64_t>(d) : std::int64_t{-1};
    };
    TSTUDIO_AD_CHECK(b.setShape(cropped, TensorShape{known(dims[0]), targetHeight, targetWidth, known(dims[3])}));
    TSTUDIO_AD_TRY(shaped, refreshed(b, cropped));
    if (!isBatch)
        return py::genOp(b, "Squeeze", {shaped}, {{"squeeze_dims", attr::ints({0})}});
    return shaped;
}

// --- Flips and transposition ---------------------------------------------------------------------------------

Expected<Output> flipLeftRight(GraphBuilder& b, const Output& image)
{
    return flip(b, image, 1, "flip_left_right");
}

Expected<Output> flipUpDown(GraphBuilder& b, const Output& image)
{
    return flip(b, image, 0, "flip_up_down");
}

Expected<Output> randomFlipLeftRight(GraphBuilder& b, const Output& image, std::optional<std::int64_t> seed)
{
    return randomFlip(b, image, 1, seed, "random_flip_left_right");
}

Expected<Output> randomFlipUpDown(GraphBuilder& b, const Output& image, std::optional<std::int64_t> seed)
{
    return randomFlip(b, image, 0, seed, "random_flip_up_down");
}

Expected<Output> transposeImage(GraphBuilder& b, const Output& image, std::string_view name)
{
    const std::string_view scopeName = name.empty() ? std::string_view("transpose") : name;
    TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(checked, assertAtLeast3DImage(b, image));
    const int rank = checked.shape().rank();
    std::vector<std::int64_t> perm;
    if (rank == 3 || rank < 0)
        perm = {1, 0, 2};
    else if (rank == 4)
        perm = {0, 2, 1, 3};
    else
        return unexpected(rank3Or4Error());
    // array_ops.transpose(image, perm, name=name) opens its own scope of the same name.
    TSTUDIO_AD_TRY(inner, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(permT, py::intVector(b, perm, "perm"));
    return py::genOp(b, "Transpose", {checked, permT}, {}, inner.name());
}

// --- Dtype conversion -------------------------------------------------------------------------------------

Expected<Output> convertImageDtype(GraphBuilder& b, const Output& image, DataType dtype, bool saturate,
                                   std::string_view name)
{
    dtype = baseType(dtype);
    const DataType from = image.baseDtype();
    if (!isFloating(dtype) && !isInteger(dtype))
        return unexpected(valueError("dtype must be either floating point or integer"));
    if (dtype == from)
        return py::genOp(b, "Identity", {image}, {}, name.empty() ? std::string_view("Identity") : name);
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("convert_image") : name));
    if (isInteger(from) && isInteger(dtype)) {
        const std::uint64_t scaleIn = integerMax(from);
        const std::uint64_t scaleOut = integerMax(dtype);
        if (scaleIn > scaleOut) {
            // Scaling down: divide first (in.max lands just below out.max + 1), then cast.
            const double scale = static_cast<double>((scaleIn + 1) / (scaleOut + 1));
            TSTUDIO_AD_TRY(scaled, opWithNumber(b, "FloorDiv", "div", image, scale, from, "y"));
            return castNamed(b, scaled, dtype, saturate, scope.name());
        }
        // Scaling up: cast first, then multiply (round trips are exact).
        Output cast;
        if (saturate) {
            TSTUDIO_AD_TRY(c, saturateCast(b, image, dtype, "saturate_cast"));
            cast = c;
        } else {
            TSTUDIO_AD_TRY(c, py::cast(b, image, dtype));
            cast = c;
        }
        const double scale = static_cast<double>((scaleOut + 1) / (scaleIn + 1));
        return opWithNumber(b, "Mul", scope.name(), cast, scale, dtype, "y");
    }
    if (isFloating(from) && isFloating(dtype))
        return py::genOp(b, "Cast", {image}, {{"DstT", attr::type(dtype)}}, scope.name());
    if (isInteger(from)) {
        // To float: cast, then scale by 1 / in.max.
        TSTUDIO_AD_TRY(cast, py::cast(b, image, dtype));
        return opWithNumber(b, "Mul", scope.name(), cast, 1.0 / static_cast<double>(integerMax(from)), dtype, "y");
    }
    // From float: scale by out.max + 0.5 (avoiding rounding problems in the cast), then cast.
    TSTUDIO_AD_TRY(scaled,
                   opWithNumber(b, "Mul", "Mul", image, static_cast<double>(integerMax(dtype)) + 0.5, from, "y"));
    return castNamed(b, scaled, dtype, saturate, scope.name());
}

// --- Colour adjustments --------------------------------------------------------------------------------------

Expected<Output> adjustBrightness(GraphBuilder& b, const Output& image, double delta)
{
    return adjustBrightnessImpl(b, image, delta);
}

Expected<Output> adjustBrightness(GraphBuilder& b, const Output& image, const Output& delta)
{
    return adjustBrightnessImpl(b, image, delta);
}

Expected<Output> adjustContrast(GraphBuilder& b, const Output& images, double contrastFactor)
{
    return adjustContrastImpl(b, images, contrastFactor);
}

Expected<Output> adjustContrast(GraphBuilder& b, const Output& images, const Output& contrastFactor)
{
    return adjustContrastImpl(b, images, contrastFactor);
}

Expected<Output> adjustHue(GraphBuilder& b, const Output& image, double delta, std::string_view name)
{
    return adjustHsv(b, image, delta, "AdjustHue", "delta", "adjust_hue", name);
}

Expected<Output> adjustHue(GraphBuilder& b, const Output& image, const Output& delta, std::string_view name)
{
    return adjustHsv(b, image, delta, "AdjustHue", "delta", "adjust_hue", name);
}

Expected<Output> adjustSaturation(GraphBuilder& b, const Output& image, double saturationFactor, std::string_view name)
{
    return adjustHsv(b, image, saturationFactor, "AdjustSaturation", "scale", "adjust_saturation", name);
}

Expected<Output> adjustSaturation(GraphBuilder& b, const Output& image, const Output& saturationFactor,
                                  std::string_view name)
{
    return adjustHsv(b, image, saturationFactor, "AdjustSaturation", "scale", "adjust_saturation", name);
}

Expected<Output> randomBrightness(GraphBuilder& b, const Output& image, double maxDelta,
                                  std::optional<std::int64_t> seed)
{
    if (maxDelta < 0)
        return unexpected(valueError("max_delta must be non-negative."));
    TSTUDIO_AD_TRY(delta, randomScalar(b, -maxDelta, maxDelta, seed));
    return adjustBrightness(b, image, delta);
}

Expected<Output> randomContrast(GraphBuilder& b, const Output& image, double lower, double upper,
                                std::optional<std::int64_t> seed)
{
    if (upper <= lower)
        return unexpected(valueError("upper must be > lower."));
    if (lower < 0)
        return unexpected(valueError("lower must be non-negative."));
    TSTUDIO_AD_TRY(factor, randomScalar(b, lower, upper, seed));
    return adjustContrast(b, image, factor);
}

Expected<Output> randomHue(GraphBuilder& b, const Output& image, double maxDelta, std::optional<std::int64_t> seed)
{
    if (maxDelta > 0.5)
        return unexpected(valueError("max_delta must be <= 0.5."));
    if (maxDelta < 0)
        return unexpected(valueError("max_delta must be non-negative."));
    TSTUDIO_AD_TRY(delta, randomScalar(b, -maxDelta, maxDelta, seed));
    return adjustHue(b, image, delta);
}

Expected<Output> randomSaturation(GraphBuilder& b, const Output& image, double lower, double upper,
                                  std::optional<std::int64_t> seed)
{
    if (upper <= lower)
        return unexpected(valueError("upper must be > lower."));
    if (lower < 0)
        return unexpected(valueError("lower must be non-negative."));
    TSTUDIO_AD_TRY(factor, randomScalar(b, lower, upper, seed));
    return adjustSaturation(b, image, factor);
}

Expected<Output> perImageStandardization(GraphBuilder& b, const Output& image)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("per_image_standardization"));
    TSTUDIO_AD_TRY(checked, assertAtLeast3DImage(b, image));
    const DataType orig = checked.baseDtype();
    TSTUDIO_AD_TRY(x, toFloatImage(b, checked));
    TSTUDIO_AD_TRY(shape, py::shape(b, x));
    TSTUDIO_AD_TRY(last3, stridedSlice1D(b, shape, -3, 0, true, false));
    TSTUDIO_AD_TRY(prodAxes, ops::constantInts(b, {0}, TensorShape{1}, DT_INT32, "Const"));
    TSTUDIO_AD_TRY(numPixels, py::genOp(b, "Prod", {last3, prodAxes}, {{"keep_dims", attr::b(false)}}));
    const auto meanOver3 = [&](const Output& t) -> Expected<Output> {
        TSTUDIO_AD_TRY(meanScope, b.nameScope("Mean"));
        TSTUDIO_AD_TRY(axes, py::intVector(b, {-1, -2, -3}, "reduction_indices"));
        return py::genOp(b, "Mean", {t, axes}, {{"keep_dims", attr::b(true)}}, meanScope.name());
    };
    TSTUDIO_AD_TRY(mean, meanOver3(x));
    Output stddev;
    {
        TSTUDIO_AD_TRY(stdScope, b.nameScope("reduce_std"));
        Output variance;
        {
            TSTUDIO_AD_TRY(varianceScope, b.nameScope("reduce_variance"));
            TSTUDIO_AD_TRY(means, meanOver3(x));
            TSTUDIO_AD_TRY(deviations, py::binary(b, py::Operator::kSub, x, means));
            TSTUDIO_AD_TRY(squared, py::genOp(b, "Square", {deviations}));
            TSTUDIO_AD_TRY(v, meanOver3(squared));
            variance = v;
        }
        TSTUDIO_AD_TRY(s, py::genOp(b, "Sqrt", {variance}));
        stddev = s;
    }
    TSTUDIO_AD_TRY(count, py::cast(b, numPixels, x.baseDtype()));
    TSTUDIO_AD_TRY(minStddev, py::genOp(b, "Rsqrt", {count}));
    TSTUDIO_AD_TRY(adjusted, py::genOp(b, "Maximum", {stddev, minStddev}));
    TSTUDIO_AD_TRY(centered, py::binary(b, py::Operator::kSub, x, mean));
    TSTUDIO_AD_TRY(standardized, py::genOp(b, "RealDiv", {centered, adjusted}, {}, scope.name()));
    return convertImageDtype(b, standardized, orig, true);
}

// --- Codec op wrappers ----------------------------------------------------------------------------------------

Expected<Output> decodeJpeg(GraphBuilder& b, const Output& contents, const DecodeJpegAttrs& a, std::string_view name)
{
    return py::genOp(b, "DecodeJpeg", {contents},
                     {{"channels", attr::i(a.channels)},
                      {"ratio", attr::i(a.ratio)},
                      {"fancy_upscaling", attr::b(a.fancyUpscaling)},
                      {"try_recover_truncated", attr::b(a.tryRecoverTruncated)},
                      {"acceptable_fraction", attr::f(a.acceptableFraction)},
                      {"dct_method", attr::s(a.dctMethod)}},
                     name);
}

Expected<Output> decodePng(GraphBuilder& b, const Output& contents, std::int64_t channels, DataType dtype,
                           std::string_view name)
{
    return py::genOp(b, "DecodePng", {contents}, {{"channels", attr::i(channels)}, {"dtype", attr::type(dtype)}}, name);
}

Expected<Output> decodeImage(GraphBuilder& b, const Output& contents, std::int64_t channels, DataType dtype,
                             bool expandAnimations, std::string_view name)
{
    return py::genOp(b, "DecodeImage", {contents},
                     {{"channels", attr::i(channels)},
                      {"dtype", attr::type(dtype)},
                      {"expand_animations", attr::b(expandAnimations)}},
                     name);
}

Expected<Output> encodeJpeg(GraphBuilder& b, const Output& image, const EncodeJpegAttrs& a, std::string_view name)
{
    return py::genOp(b, "EncodeJpeg", {image},
                     {{"format", attr::s(a.format)},
                      {"quality", attr::i(a.quality)},
                      {"progressive", attr::b(a.progressive)},
                      {"optimize_size", attr::b(a.optimizeSize)},
                      {"chroma_downsampling", attr::b(a.chromaDownsampling)},
                      {"density_unit", attr::s(a.densityUnit)},
                      {"x_density", attr::i(a.xDensity)},
                      {"y_density", attr::i(a.yDensity)},
                      {"xmp_metadata", attr::s(a.xmpMetadata)}},
                     name);
}

Expected<Output> encodePng(GraphBuilder& b, const Output& image, std::int64_t compression, std::string_view name)
{
    return py::genOp(b, "EncodePng", {image}, {{"compression", attr::i(compression)}}, name);
}

Expected<Output> resampler(GraphBuilder& b, const Output& data, const Output& warp, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    return py::genOp(b, "Resampler", {data, warp});
}

} // namespace tstudio::image
