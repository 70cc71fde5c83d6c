// The sparse ops of TensorFlow 1.15 (sparse_ops.cc) on SparseTensors given as (indices int64
// [N, rank], values [N], dense_shape int64 [rank]): SparseToDense, SparseReshape, SparseReorder,
// SparseConcat, SparseSlice(+Grad), SparseAdd(+Grad), SparseTensorDenseAdd,
// SparseTensorDenseMatMul and SparseFillEmptyRows(+Grad), with TensorFlow's shape functions. The
// sparse segment reductions are in sparse_segment_ops.cpp and registered from here.
#include "ops/op_families.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/sparse_segment_ops.h"

#include <string>
#include <vector>

namespace tstudio {

namespace {

using SIC = ShapeInferenceContext;

TensorShape matrix(std::int64_t rows, std::int64_t cols)
{
    return TensorShape(std::vector<std::int64_t>{rows, cols});
}

TensorShape vector(std::int64_t size)
{
    return TensorShape(std::vector<std::int64_t>{size});
}

Status addOp(OpRegistry& registry, const OpDefBuilder& op, const std::string& name, ShapeFunction shape)
{
    if (Status s = registry.registerOp(op); !s.isOk())
        return s;
    return registry.setShapeFunction(name, std::move(shape));
}

/// Every input rank-checked in turn (`ranks[i]` for input i; -1 skips it).
Status checkRanks(ShapeInferenceContext& c, const std::vector<int>& ranks)
{
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i] < 0)
            continue;
        if (auto r = c.withRank(static_cast<int>(i), ranks[i]); !r)
            return r.error();
    }
    return Status::ok();
}

Status sparseToDense(OpRegistry& registry)
{
    OpDefBuilder op("SparseToDense");
    op.summary("Builds a dense tensor of shape output_shape from sparse indices and values; every other "
               "element is default_value.")
        .category(op_category::kArray)
        .input("sparse_indices: Tindices")
        .input("output_shape: Tindices")
        .input("sparse_values: T")
        .input("default_value: T")
        .attr("validate_indices: bool = true")
        .attr("T: type")
        .output("dense: T")
        .attr("Tindices: {int32, int64}")
        .doc("sparse_indices", "0-D, 1-D or 2-D [N, rank]: the index of each sparse value.")
        .doc("output_shape", "1-D: the shape of the dense output.")
        .doc("sparse_values", "1-D [N] values, or a scalar used for every index.")
        .doc("default_value", "Scalar: the value of the elements no index names.")
        .doc("validate_indices", "If true, indices must be in range, sorted lexicographically and unique.");
    return addOp(registry, op, "SparseToDense", [](ShapeInferenceContext& c) -> Status {
        auto shape = c.shapeFromShapeTensor(1);
        if (!shape)
            return shape.error();
        c.setOutput(0, *shape);
        return Status::ok();
    });
}

Status sparseReshape(OpRegistry& registry)
{
    OpDefBuilder op("SparseReshape");
    op.summary("Reshapes a SparseTensor to new_shape (one entry may be -1): the indices are recomputed from each "
               "value's position in the dense tensor; values stay as they are.")
        .category(op_category::kArray)
        .input("input_indices: int64")
        .input("input_shape: int64")
        .input("new_shape: int64")
        .output("output_indices: int64")
        .output("output_shape: int64")
        .doc("input_indices", "2-D [N, R_in]: the indices of the input SparseTensor.")
        .doc("input_shape", "1-D [R_in]: its dense shape.")
        .doc("new_shape", "1-D [R_out]: the requested dense shape; at most one -1, inferred.")
        .doc("output_indices", "2-D [N, R_out]: the indices in the new shape, in the input's order.")
        .doc("output_shape", "1-D [R_out]: the new dense shape, -1 resolved.");
    return addOp(registry, op, "SparseReshape", [](ShapeInferenceContext& c) -> Status {
        auto indices = c.withRank(0, 2);
        if (!indices)
            return indices.error();
        if (auto shape = c.withRank(1, 1); !shape)
            return shape.error();
        auto newShape = c.withRank(2, 1);
        if (!newShape)
            return newShape.error();
        c.setOutput(0, matrix(SIC::dim(*indices, 0), SIC::dim(*newShape, 0)));
        c.setOutput(1, *newShape);
        return Status::ok();
    });
}

Status sparseReorder(OpRegistry& registry)
{
    OpDefBuilder op("SparseReorder");
    op.summary("Puts the entries of a SparseTensor in the canonical row-major (lexicographic) order of their "
               "indices.")
        .category(op_category::kArray)
        .input("input_indices: int64")
        .input("input_values: T")
        .input("input_shape: int64")
        .output("output_indices: int64")
        .output("output_values: T")
        .attr("T: type")
        .doc("input_indices", "2-D [N, R]: indices in any order.")
        .doc("input_values", "1-D [N]: the value of each index.")
        .doc("input_shape", "1-D [R]: the dense shape.")
        .doc("output_indices", "2-D [N, R]: the same indices, sorted.")
        .doc("output_values", "1-D [N]: the values, moved with their indices.");
    return addOp(registry, op, "SparseReorder", [](ShapeInferenceContext& c) -> Status {
        auto indices = c.withRank(0, 2);
        if (!indices)
            return indices.error();
        auto values = c.withRank(1, 1);
        if (!values)
            return values.error();
        if (auto shape = c.withRank(2, 1); !shape)
            return shape.error();
        c.setOutput(0, *indices);
        c.setOutput(1, *values);
        return Status::ok();
    });
}

Status sparseConcat(OpRegistry& registry)
{
    OpDefBuilder op("SparseConcat");
    op.summary("Concatenates N SparseTensors along concat_dim; their other dimensions must match. The output is in "
               "the standard order.")
        .category(op_category::kArray)
        .input("indices: N * int64")
        .input("values: N * T")
        .input("shapes: N * int64")
        .output("output_indices: int64")
        .output("output_values: T")
        .output("output_shape: int64")
        .attr("concat_dim: int")
        .attr("N: int >= 2")
        .attr("T: type")
        .doc("indices", "2-D: the indices of each input.")
        .doc("values", "1-D: the values of each input.")
        .doc("shapes", "1-D: the dense shape of each input.")
        .doc("concat_dim", "The dimension to join along, in [-rank, rank).");
    return addOp(registry, op, "SparseConcat", [](ShapeInferenceContext& c) -> Status {
        std::int64_t rows = 0;
        std::int64_t cols = -1;
        TensorShape shape = TensorShape::unknown();
        const int n = c.numInputs() / 3;
        for (int i = 0; i < n; ++i) {
            auto ind = c.withRank(i, 2);
            if (!ind)
                return ind.error();
            auto val = c.withRank(i + n, 1);
            if (!val)
                return val.error();
            auto shp = c.withRank(i + 2 * n, 1);
            if (!shp)
                return shp.error();
            auto num = SIC::mergeDim(SIC::dim(*ind, 0), SIC::dim(*val, 0));
            if (!num)
                return num.error();
            auto sum = SIC::addDim(rows, *num);
            if (!sum)
                return sum.error();
            rows = *sum;
            auto merged = SIC::mergeDim(cols, SIC::dim(*ind, 1));
            if (!merged)
                return merged.error();
            cols = *merged;
            auto mergedShape = shape.merge(*shp);
            if (!mergedShape)
                return mergedShape.error();
            shape = *mergedShape;
        }
        c.setOutput(0, matrix(rows, cols));
        c.setOutput(1, vector(rows));
        c.setOutput(2, shape);
        return Status::ok();
    });
}

Status sparseSlice(OpRegistry& registry)
{
    OpDefBuilder grad("SparseSliceGrad");
    grad.summary("The gradient of SparseSlice: backprop_val_grad copied to the input entries the slice kept, zeros "
                 "elsewhere.")
        .category(op_category::kArray)
        .input("backprop_val_grad: T")
        .input("input_indices: int64")
        .input("input_start: int64")
        .input("output_indices: int64")
        .output("val_grad: T")
        .attr("T: numbertype")
        .doc("backprop_val_grad", "1-D: the gradient of SparseSlice's output values.")
        .doc("input_indices", "2-D [N, R]: SparseSlice's input indices.")
        .doc("input_start", "1-D [R]: the slice's start.")
        .doc("output_indices", "2-D: SparseSlice's output indices.")
        .doc("val_grad", "1-D [N]: the gradient of the input values.");
    if (Status s = addOp(registry, grad, "SparseSliceGrad",
                         [](ShapeInferenceContext& c) -> Status {
                             auto indices = c.withRank(1, 2);
                             if (!indices)
                                 return indices.error();
                             c.setOutput(0, vector(SIC::dim(*indices, 0)));
                             return Status::ok();
                         });
        !s.isOk())
        return s;

    OpDefBuilder op("SparseSlice");
    op.summary("The entries of a SparseTensor inside [start, start + size), shifted by -start; the shape is the "
               "slice clipped to the input.")
        .category(op_category::kArray)
        .input("indices: int64")
        .input("values: T")
        .input("shape: int64")
        .input("start: int64")
        .input("size: int64")
        .output("output_indices: int64")
        .output("output_values: T")
        .output("output_shape: int64")
        .attr("T: type")
        .doc("start", "1-D [R]: the start of the slice in each dimension.")
        .doc("size", "1-D [R]: the size of the slice in each dimension.");
    return addOp(registry, op, "SparseSlice", [](ShapeInferenceContext& c) -> Status {
        const TensorShape& shape = c.input(2);
        c.setOutput(0, matrix(-1, SIC::numElementsDim(shape)));
        c.setOutput(1, vector(-1));
        c.setOutput(2, shape);
        return Status::ok();
    });
}

Status sparseAdd(OpRegistry& registry)
{
    OpDefBuilder grad("SparseAddGrad");
    grad.summary("The gradient of SparseAdd: the sum's value gradient given to each operand's entries at the same "
                 "index.")
        .category(op_category::kMath)
        .input("backprop_val_grad: T")
        .input("a_indices: int64")
        .input("b_indices: int64")
        .input("sum_indices: int64")
        .output("a_val_grad: T")
        .output("b_val_grad: T")
        .attr("T: numbertype");
    if (Status s = addOp(registry, grad, "SparseAddGrad",
                         [](ShapeInferenceContext& c) -> Status {
                             auto a = c.withRank(1, 2);
                             if (!a)
                                 return a.error();
                             auto b = c.withRank(2, 2);
                             if (!b)
                                 return b.error();
                             c.setOutput(0, vector(SIC::dim(*a, 0)));
                             c.setOutput(1, vector(SIC::dim(*b, 0)));
                             return Status::ok();
                         });
        !s.isOk())
        return s;

    OpDefBuilder op("SparseAdd");
    op.summary("Adds two SparseTensors of the same shape (indices in the standard order); a summed entry whose "
               "magnitude is below thresh is dropped.")
        .category(op_category::kMath)
        .input("a_indices: int64")
        .input("a_values: T")
        .input("a_shape: int64")
        .input("b_indices: int64")
        .input("b_values: T")
        .input("b_shape: int64")
        .input("thresh: Treal")
        .output("sum_indices: int64")
        .output("sum_values: T")
        .output("sum_shape: int64")
        .attr("T: numbertype")
        .attr("Treal: realnumbertype")
        .doc("thresh", "0-D: sums with |sum| < thresh are not kept.");
    return addOp(registry, op, "SparseAdd", [](ShapeInferenceContext& c) -> Status {
        auto shape = c.withRank(2, 1);
        if (!shape)
            return shape.error();
        c.setOutput(0, matrix(-1, SIC::dim(*shape, 0)));
        c.setOutput(1, vector(-1));
        c.setOutput(2, *shape);
        return Status::ok();
    });
}

Status sparseTensorDenseAdd(OpRegistry& registry)
{
    OpDefBuilder op("SparseTensorDenseAdd");
    op.summary("Adds a SparseTensor to a dense tensor of the same shape; the result is dense.")
        .category(op_category::kMath)
        .input("a_indices: Tindices")
        .input("a_values: T")
        .input("a_shape: Tindices")
        .input("b: T")
        .output("output: T")
        .attr("T: numbertype")
        .attr("Tindices: {int32, int64}");
    return addOp(registry, op, "SparseTensorDenseAdd", [](ShapeInferenceContext& c) -> Status {
        c.setOutput(0, c.input(3));
        return Status::ok();
    });
}

Status sparseTensorDenseMatMul(OpRegistry& registry)
{
    OpDefBuilder op("SparseTensorDenseMatMul");
    op.summary("Multiplies a rank-2 SparseTensor A by a dense matrix B (either one optionally adjointed).")
        .category(op_category::kMath)
        .input("a_indices: Tindices")
        .input("a_values: T")
        .input("a_shape: int64")
        .input("b: T")
        .output("product: T")
        .attr("T: type")
        .attr("Tindices: {int32,int64} = DT_INT64")
        .attr("adjoint_a: bool = false")
        .attr("adjoint_b: bool = false")
        .doc("a_indices", "2-D [N, 2]: the indices of A.")
        .doc("a_values", "1-D [N]: the values of A.")
        .doc("a_shape", "1-D [2]: the dense shape of A.")
        .doc("b", "2-D: the dense matrix.")
        .doc("adjoint_a", "Use adjoint(A) (transpose, conjugated when complex).")
        .doc("adjoint_b", "Use adjoint(B).");
    return addOp(registry, op, "SparseTensorDenseMatMul", [](ShapeInferenceContext& c) -> Status {
        if (Status s = checkRanks(c, {2, 1}); !s.isOk())
            return s;
        auto aShape = c.shapeFromShapeTensor(2);
        if (!aShape)
            return aShape.error();
        auto a = SIC::withRank(*aShape, 2);
        if (!a)
            return a.error();
        auto b = c.withRank(3, 2);
        if (!b)
            return b.error();
        auto adjointA = c.attrBool("adjoint_a");
        if (!adjointA)
            return adjointA.error();
        auto adjointB = c.attrBool("adjoint_b");
        if (!adjointB)
            return adjointB.error();
        const std::int64_t right = SIC::dim(*b, *adjointB ? 0 : 1);
        const std::int64_t left = SIC::dim(*a, *adjointA ? 1 : 0);
        if (auto inner = SIC::mergeDim(SIC::dim(*a, *adjointA ? 0 : 1), SIC::dim(*b, *adjointB ? 1 : 0)); !inner)
            return inner.error();
        c.setOutput(0, matrix(left, right));
        return Status::ok();
    });
}

Status sparseFillEmptyRows(OpRegistry& registry)
{
    OpDefBuilder op("SparseFillEmptyRows");
    op.summary("Adds default_value at [row, 0, ...] for every row of a SparseTensor that has no entry; reports the "
               "empty rows and where each input entry went.")
        .category(op_category::kArray)
        .input("indices: int64")
        .input("values: T")
        .input("dense_shape: int64")
        .input("default_value: T")
        .output("output_indices: int64")
        .output("output_values: T")
        .output("empty_row_indicator: bool")
        .output("reverse_index_map: int64")
        .attr("T: type")
        .doc("empty_row_indicator", "1-D [dense_shape[0]]: whether each row was empty.")
        .doc("reverse_index_map", "1-D [N]: the output position of each input entry.");
    if (Status s = addOp(registry, op, "SparseFillEmptyRows",
                         [](ShapeInferenceContext& c) -> Status {
                             auto indices = c.withRank(0, 2);
                             if (!indices)
                                 return indices.error();
                             auto values = c.withRank(1, 1);
                             if (!values)
                                 return values.error();
                             auto shape = c.withRank(2, 1);
                             if (!shape)
                                 return shape.error();
                             if (auto scalar = c.withRank(3, 0); !scalar)
                                 return scalar.error();
                             auto n = SIC::mergeDim(SIC::dim(*indices, 0), SIC::dim(*values, 0));
                             if (!n)
                                 return n.error();
                             if (auto rank = SIC::mergeDim(SIC::dim(*indices, 1), SIC::dim(*shape, 0)); !rank)
                                 return rank.error();
                             if (SIC::numElementsDim(*shape) == 0)
                                 return invalidArgumentError("dense_shape must not be empty");
                             auto dense = c.shapeFromShapeTensor(2);
                             if (!dense)
                                 return dense.error();
                             c.setOutput(0, matrix(-1, SIC::numElementsDim(*shape)));
                             c.setOutput(1, vector(-1));
                             c.setOutput(2, vector(SIC::dim(*dense, 0)));
                             c.setOutput(3, vector(*n));
                             return Status::ok();
                         });
        !s.isOk())
        return s;

    OpDefBuilder grad("SparseFillEmptyRowsGrad");
    grad.summary("The gradient of SparseFillEmptyRows: d_values through reverse_index_map, the rest summed into "
                 "d_default_value.")
        .category(op_category::kArray)
        .input("reverse_index_map: int64")
        .input("grad_values: T")
        .output("d_values: T")
        .output("d_default_value: T")
        .attr("T: type");
    return addOp(registry, grad, "SparseFillEmptyRowsGrad", [](ShapeInferenceContext& c) -> Status {
        auto map = c.withRank(0, 1);
        if (!map)
            return map.error();
        if (auto values = c.withRank(1, 1); !values)
            return values.error();
        c.setOutput(0, *map);
        c.setOutput(1, TensorShape::scalar());
        return Status::ok();
    });
}

} // namespace

Status registerSparseOps(OpRegistry& registry)
{
    for (auto family : {sparseToDense, sparseReshape, sparseReorder, sparseConcat, sparseSlice, sparseAdd,
                        sparseTensorDenseAdd, sparseTensorDenseMatMul, sparseFillEmptyRows, registerSparseSegmentOps}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
