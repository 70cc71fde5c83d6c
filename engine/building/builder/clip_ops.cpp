// Clipping ops with TensorFlow 1.15's graph structure, node names and inf/NaN behaviour.
#include "builder/clip_ops.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"

#include <limits>

namespace tstudio::training {
namespace {

/// values.shape.merge_with(result.shape): the result must not have broadcast t to another shape.
Status checkSameShape(const Output& values, const Output& result)
{
    if (values.shape().merge(result.shape()))
        return Status::ok();
    return invalidArgumentError("Shapes " + pythonShapeString(values.shape()) + " and " +
                                pythonShapeString(result.shape()) + " are not compatible");
}

/// A generated binary op (gen_math_ops.minimum, ...) whose second argument may be a number ("<Op>/y").
Expected<Output> genBinary(GraphBuilder& b, std::string_view type, const Output& x, const ClipValue& y,
                           std::string_view name = {})
{
    if (const auto* t = std::get_if<Output>(&y))
        return py::genOp(b, type, {x, *t}, {}, name);
    if (name.empty())
        return py::genOpScalarY(b, type, x, std::get<double>(y));
    // A named op: its number input is "<name>/y" inside the scope the op's name opens.
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto yConst = py::constant(b, std::get<double>(y), x.baseDtype(), "y");
    if (!yConst)
        return unexpected(yConst.error());
    return py::genOp(b, type, {x, *yConst}, {}, scope->name());
}

Expected<Output> binaryWith(GraphBuilder& b, py::Operator op, const Output& x, const ClipValue& y)
{
    if (const auto* t = std::get_if<Output>(&y))
        return py::binary(b, op, x, *t);
    return py::binary(b, op, x, std::get<double>(y));
}

} // namespace

Expected<Output> clipByValue(GraphBuilder& b, const Output& t, const ClipValue& clipValueMin,
                             const ClipValue& clipValueMax, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    TSTUDIO_AD_TRY(tMin, genBinary(b, "Minimum", t, clipValueMax));
    TSTUDIO_AD_CHECK(checkSameShape(t, tMin));
    TSTUDIO_AD_TRY(tMax, genBinary(b, "Maximum", tMin, clipValueMin, scope->name()));
    TSTUDIO_AD_CHECK(checkSameShape(t, tMax));
    return tMax;
}

Expected<Output> clipByNorm(GraphBuilder& b, const Output& t, const ClipValue& clipNorm,
                            const std::vector<std::int64_t>& axes, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    TSTUDIO_AD_TRY(squares, py::binary(b, py::Operator::kMul, t, t));
    Output l2sum;
    if (axes.empty()) {
        // reduce_sum(axis=None): the axes are a Const "Const" of range(rank).
        if (t.shape().isUnknownRank())
            return unexpected(unimplementedError("clip_by_norm of a tensor of unknown rank without axes"));
        std::vector<std::int64_t> dims;
        for (int i = 0; i < t.shape().rank(); ++i)
            dims.push_back(i);
        TSTUDIO_AD_TRY(axesConst, py::intVector(b, dims, "Const"));
        TSTUDIO_AD_TRY(sum, py::reduceSum(b, squares, axesConst, true));
        l2sum = sum;
    } else {
        // Python ints go to the op wrapper, which names them "Sum/reduction_indices".
        auto sumScope = b.nameScope("Sum");
        if (!sumScope)
            return unexpected(sumScope.error());
        TSTUDIO_AD_TRY(axesConst, py::intVector(b, axes, "reduction_indices"));
        TSTUDIO_AD_TRY(sum,
                       py::genOp(b, "Sum", {squares, axesConst}, {{"keep_dims", attr::b(true)}}, sumScope->name()));
        l2sum = sum;
    }
    TSTUDIO_AD_TRY(pred, py::genOpScalarY(b, "Greater", l2sum, 0.0));
    TSTUDIO_AD_TRY(ones, py::onesLike(b, l2sum));
    TSTUDIO_AD_TRY(safe, py::where(b, pred, l2sum, ones));
    TSTUDIO_AD_TRY(root, py::genOp(b, "Sqrt", {safe}));
    TSTUDIO_AD_TRY(l2norm, py::where(b, pred, root, l2sum));
    TSTUDIO_AD_TRY(intermediate, binaryWith(b, py::Operator::kMul, t, clipNorm));
    TSTUDIO_AD_CHECK(checkSameShape(t, intermediate));
    TSTUDIO_AD_TRY(denominator, genBinary(b, "Maximum", l2norm, clipNorm));
    TSTUDIO_AD_TRY(ratio, py::binary(b, py::Operator::kTrueDiv, intermediate, denominator));
    return ops::identity(b, ratio, scope->name());
}

Expected<Output> globalNorm(GraphBuilder& b, const std::vector<std::optional<Output>>& tensors, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<Output> halves;
    for (const auto& t : tensors) {
        if (!t)
            continue;
        TSTUDIO_AD_TRY(op, py::producer(b, *t));
        auto colocated = b.colocateWith(op);
        TSTUDIO_AD_TRY(half, py::genOp(b, "L2Loss", {*t}));
        halves.push_back(half);
    }
    if (halves.empty())
        return unexpected(invalidArgumentError("global_norm needs at least one tensor"));
    TSTUDIO_AD_TRY(stacked, py::genOp(b, "Pack", {OpInput(halves)}, {{"axis", attr::i(0)}}, "stack"));
    TSTUDIO_AD_TRY(axis, py::intVector(b, {0}, "Const"));
    TSTUDIO_AD_TRY(total, py::reduceSum(b, stacked, axis));
    TSTUDIO_AD_TRY(two, py::constant(b, 2.0, total.baseDtype(), "Const"));
    TSTUDIO_AD_TRY(doubled, py::binary(b, py::Operator::kMul, total, two));
    return py::genOp(b, "Sqrt", {doubled}, {}, "global_norm");
}

Expected<std::pair<std::vector<std::optional<Output>>, Output>>
clipByGlobalNorm(GraphBuilder& b, const std::vector<std::optional<Output>>& tensors, const ClipValue& clipNorm,
                 std::optional<Output> useNorm, std::string_view name)
{
    if (!useNorm) {
        auto norm = globalNorm(b, tensors);
        if (!norm)
            return unexpected(norm.error());
        useNorm = *norm;
    }
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    const Output norm = *useNorm;
    const DataType dtype = norm.baseDtype();
    // clip_norm * minimum(1.0 / use_norm, constant(1.0) / clip_norm)
    TSTUDIO_AD_TRY(inverse, py::binary(b, py::Operator::kTrueDiv, 1.0, norm));
    TSTUDIO_AD_TRY(one, py::constant(b, 1.0, dtype, "Const"));
    TSTUDIO_AD_TRY(inverseClip, binaryWith(b, py::Operator::kTrueDiv, one, clipNorm));
    TSTUDIO_AD_TRY(smaller, py::genOp(b, "Minimum", {inverse, inverseClip}));
    Output scaleForFinite;
    if (const auto* t = std::get_if<Output>(&clipNorm)) {
        TSTUDIO_AD_TRY(s, py::binary(b, py::Operator::kMul, *t, smaller));
        scaleForFinite = s;
    } else {
        TSTUDIO_AD_TRY(s, py::binary(b, py::Operator::kMul, std::get<double>(clipNorm), smaller));
        scaleForFinite = s;
    }
    // A norm that is not finite (inf, NaN) makes the scale NaN: where(is_finite(norm), scale, nan).
    TSTUDIO_AD_TRY(finite, py::genOp(b, "IsFinite", {norm}));
    TSTUDIO_AD_TRY(nan, py::constant(b, std::numeric_limits<double>::quiet_NaN(), dtype, "Const"));
    TSTUDIO_AD_TRY(scale, py::where(b, finite, scaleForFinite, nan));
    const std::string scopeName = scope->name(); // "clip_by_global_norm/"
    std::vector<std::optional<Output>> clipped;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (!tensors[i]) {
            clipped.emplace_back();
            continue;
        }
        TSTUDIO_AD_TRY(op, py::producer(b, *tensors[i]));
        auto colocated = b.colocateWith(op);
        TSTUDIO_AD_TRY(scaled, py::binary(b, py::Operator::kMul, *tensors[i], scale));
        // identity(name="clip_by_global_norm/_0") inside the scope: TensorFlow doubles the prefix.
        TSTUDIO_AD_TRY(id, ops::identity(b, scaled, scopeName + "_" + std::to_string(i)));
        clipped.emplace_back(id);
    }
    return std::make_pair(std::move(clipped), norm);
}

Expected<std::pair<std::vector<std::optional<Gradient>>, Output>>
clipByGlobalNormWithSlices(GraphBuilder& b, const std::vector<std::optional<Gradient>>& tensors,
                           const ClipValue& clipNorm, std::optional<Output> useNorm, std::string_view name)
{
    std::vector<std::optional<Output>> values;
    for (const auto& t : tensors)
        values.push_back(!t ? std::nullopt : std::optional<Output>(t->isSparse() ? t->sparse().values : t->dense()));
    auto clipped = clipByGlobalNorm(b, values, clipNorm, std::move(useNorm), name);
    if (!clipped)
        return unexpected(clipped.error());
    std::vector<std::optional<Gradient>> out;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (!tensors[i] || !clipped->first[i]) {
            out.emplace_back();
        } else if (tensors[i]->isSparse()) {
            const IndexedSlices& s = tensors[i]->sparse();
            out.emplace_back(Gradient(IndexedSlices{*clipped->first[i], s.indices, s.denseShape}));
        } else {
            out.emplace_back(Gradient(*clipped->first[i]));
        }
    }
    return std::make_pair(std::move(out), clipped->second);
}

} // namespace tstudio::training
