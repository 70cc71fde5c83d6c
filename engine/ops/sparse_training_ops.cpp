// The sparse update ops: Scatter* on ref variables, ResourceScatter* on resource variables, and the
// SparseApply* / ResourceSparseApply* optimizer updates of the rows named by indices. Definitions
// follow TensorFlow 1.15's OpDefs (names, args, attrs, types, defaults).
#include "ops/sparse_training_ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

#include <string>
#include <vector>

namespace tstudio {
namespace {

using C = ShapeInferenceContext;

struct ScatterKind {
    const char* name; ///< Update, Add, ...
    const char* what; ///< the documentation's operator
    bool anyType;     ///< T: type (Update) rather than numbertype
};

const ScatterKind kScatters[] = {
    {"Update", "ref[indices, ...] = updates[...] (with repeated indices, the last update wins)", true},
    {"Add", "ref[indices, ...] += updates[...] (repeated indices add up)", false},
    {"Sub", "ref[indices, ...] -= updates[...] (repeated indices add up)", false},
    {"Mul", "ref[indices, ...] *= updates[...] (repeated indices multiply)", false},
    {"Div", "ref[indices, ...] /= updates[...] (repeated indices divide in turn)", false},
};

/// updates must be [] or indices.shape + var.shape[1:] (TensorFlow's ScatterUpdateShape).
Status checkScatterShapes(const TensorShape& var, const TensorShape& indices, const TensorShape& updates)
{
    if (updates.isUnknownRank() || indices.isUnknownRank() || var.isUnknownRank() || updates.rank() == 0)
        return Status::ok();
    auto tail = C::subshape(var, 1);
    if (!tail)
        return tail.error();
    const TensorShape expected = indices.concatenate(*tail);
    if (!updates.merge(expected))
        return invalidArgumentError("Shapes must be equal rank, or updates must be a scalar: updates " +
                                    updates.toString() + " does not fit indices " + indices.toString() +
                                    " and the variable's " + var.toString() +
                                    " (expected indices.shape + var.shape[1:] = " + expected.toString() + ")");
    return Status::ok();
}

OpDefBuilder scatterOp(const ScatterKind& kind, bool resource)
{
    OpDefBuilder op(std::string(resource ? "ResourceScatter" : "Scatter") + kind.name);
    op.summary(std::string(resource ? "On a resource variable: " : "") + kind.what + ".")
        .description("indices (any shape, int32 or int64) name rows of the variable's first dimension; updates "
                     "has shape indices.shape + var.shape[1:], or is a scalar applied to every named row. An index "
                     "outside [0, rows) is an error.")
        .category(op_category::kState);
    const char* type = kind.anyType ? ": type" : ": numbertype";
    if (resource) {
        op.input("resource: resource")
            .input("indices: Tindices")
            .input("updates: dtype")
            .attr(std::string("dtype") + type)
            .attr("Tindices: {int32, int64}")
            .setIsStateful();
    } else {
        op.input("ref: Ref(T)")
            .input("indices: Tindices")
            .input("updates: T")
            .output("output_ref: Ref(T)")
            .attr(std::string("T") + type)
            .attr("Tindices: {int32, int64}")
            .attr("use_locking: bool = true");
    }
    return op;
}

/// What an input of a sparse optimizer update is.
enum class Arg { kVariable, kScalar, kGradient, kIndices };

struct InputSpec {
    const char* name;
    Arg kind;
};

struct SparseOptimizer {
    const char* name; ///< without SparseApply / ResourceSparseApply
    const char* summary;
    std::vector<InputSpec> inputs;
    std::vector<const char*> extraAttrs;
};

const std::vector<SparseOptimizer>& sparseOptimizers()
{
    using enum Arg;
    static const std::vector<SparseOptimizer> list = {
        {"Momentum",
         "Momentum update of the rows named by indices: accum[i] = accum[i] * momentum + grad; var[i] -= lr * "
         "accum[i] (or the Nesterov form).",
         {{"var", kVariable},
          {"accum", kVariable},
          {"lr", kScalar},
          {"grad", kGradient},
          {"indices", kIndices},
          {"momentum", kScalar}},
         {"use_nesterov: bool = false"}},
        {"Adagrad",
         "Adagrad update of the rows named by indices: accum[i] += grad^2; var[i] -= lr * grad / sqrt(accum[i]).",
         {{"var", kVariable}, {"accum", kVariable}, {"lr", kScalar}, {"grad", kGradient}, {"indices", kIndices}},
         {"update_slots: bool = true"}},
        {"RMSProp",
         "RMSProp update of the rows named by indices: ms tracks the mean square of grad, mom the momentum of the "
         "scaled step.",
         {{"var", kVariable},
          {"ms", kVariable},
          {"mom", kVariable},
          {"lr", kScalar},
          {"rho", kScalar},
          {"momentum", kScalar},
          {"epsilon", kScalar},
          {"grad", kGradient},
          {"indices", kIndices}},
         {}},
        {"CenteredRMSProp",
         "Centered RMSProp update of the rows named by indices: mg and ms track the mean and mean square of grad.",
         {{"var", kVariable},
          {"mg", kVariable},
          {"ms", kVariable},
          {"mom", kVariable},
          {"lr", kScalar},
          {"rho", kScalar},
          {"momentum", kScalar},
          {"epsilon", kScalar},
          {"grad", kGradient},
          {"indices", kIndices}},
         {}},
    };
    return list;
}

OpDefBuilder sparseOptimizerOp(const SparseOptimizer& optimizer, bool resource)
{
    OpDefBuilder op(std::string(resource ? "ResourceSparseApply" : "SparseApply") + optimizer.name);
    op.summary(std::string(resource ? "On a resource variable: " : "") + optimizer.summary)
        .description("grad holds one row per entry of the vector indices; the rows are processed in the order of "
                     "indices, so a repeated index is updated once per occurrence. An index outside [0, rows) is "
                     "an error.")
        .category(op_category::kTraining);
    for (const InputSpec& input : optimizer.inputs) {
        const char* type = input.kind == Arg::kIndices ? "Tindices"
                           : input.kind != Arg::kVariable ? "T"
                           : resource                     ? "resource"
                                                          : "Ref(T)";
        op.input(std::string(input.name) + ": " + type);
    }
    if (resource)
        op.setIsStateful();
    else
        op.output("out: Ref(T)");
    op.attr("T: numbertype").attr("Tindices: {int32, int64}").attr("use_locking: bool = false");
    for (const char* attr : optimizer.extraAttrs)
        op.attr(attr);
    return op;
}

/// TensorFlow's SparseApply*ShapeFn: the variable and its slots merge, the scalars are scalars,
/// indices is a vector, grad is [size(indices)] + var.shape[1:].
ShapeFunction sparseOptimizerShape(const SparseOptimizer& optimizer, bool resource)
{
    std::vector<Arg> kinds;
    for (const InputSpec& input : optimizer.inputs)
        kinds.push_back(input.kind);
    return [kinds, resource](C& c) -> Status {
        TensorShape var = TensorShape::unknown();
        int gradInput = -1;
        int indicesInput = -1;
        for (int i = 0; i < static_cast<int>(kinds.size()); ++i) {
            switch (kinds[static_cast<std::size_t>(i)]) {
            case Arg::kScalar:
                if (auto s = c.withRank(i, 0); !s)
                    return s.error();
                break;
            case Arg::kVariable:
                if (!resource) {
                    auto merged = var.merge(c.input(i));
                    if (!merged)
                        return merged.error();
                    var = std::move(*merged);
                }
                break;
            case Arg::kGradient: gradInput = i; break;
            case Arg::kIndices: indicesInput = i; break;
            }
        }
        auto indices = c.withRank(indicesInput, 1);
        if (!indices)
            return indices.error();
        const TensorShape& grad = c.input(gradInput);
        if (!grad.isUnknownRank()) {
            if (grad.rank() < 1)
                return invalidArgumentError("grad must be at least 1-D, got " + grad.toString());
            if (!C::mergeDim(grad.dim(0), C::dim(*indices, 0)))
                return invalidArgumentError("grad must be the same size as indices in the first dimension: grad " +
                                            grad.toString() + ", indices " + indices->toString());
            if (!var.isUnknownRank()) {
                auto gradTail = C::subshape(grad, 1);
                auto varTail = C::subshape(var, 1);
                if (gradTail && varTail && !gradTail->merge(*varTail))
                    return invalidArgumentError("var and grad must match in every dimension after the first: var " +
                                                var.toString() + ", grad " + grad.toString());
            }
        }
        if (c.numOutputs() > 0)
            c.setOutput(0, std::move(var));
        return Status::ok();
    };
}

} // namespace

Status registerSparseTrainingOps(OpRegistry& registry)
{
    for (bool resource : {false, true}) {
        for (const ScatterKind& kind : kScatters) {
            if (Status s = registry.registerOp(scatterOp(kind, resource)); !s.isOk())
                return s;
            const std::string name = std::string(resource ? "ResourceScatter" : "Scatter") + kind.name;
            ShapeFunction shape = [resource](C& c) -> Status {
                if (resource)
                    return Status::ok(); // a handle carries no shape here
                if (Status s = checkScatterShapes(c.input(0), c.input(1), c.input(2)); !s.isOk())
                    return s;
                c.setOutput(0, c.input(0));
                return Status::ok();
            };
            if (Status s = registry.setShapeFunction(name, std::move(shape)); !s.isOk())
                return s;
        }
        for (const SparseOptimizer& optimizer : sparseOptimizers()) {
            if (Status s = registry.registerOp(sparseOptimizerOp(optimizer, resource)); !s.isOk())
                return s;
            const std::string name = std::string(resource ? "ResourceSparseApply" : "SparseApply") + optimizer.name;
            if (Status s = registry.setShapeFunction(name, sparseOptimizerShape(optimizer, resource)); !s.isOk())
                return s;
        }
    }
    return Status::ok();
}

} // namespace tstudio
