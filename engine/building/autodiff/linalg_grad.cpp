// The linear-algebra family's gradients: MatrixBandPart (array_grad.py), MatrixTriangularSolve and
// Qr (linalg_grad.py), emitting the ops and node names of TensorFlow 1.15's Python functions.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

#include <string>
#include <vector>

namespace tstudio {

namespace {

using py::Operator;

/// array_ops.matrix_band_part(x, num_lower, num_upper) with Python ints: the ints become int64
/// constants "MatrixBandPart/num_lower" and "MatrixBandPart/num_upper" (Tindex's default type).
Expected<Output> bandPart(GraphBuilder& b, const Output& x, std::int64_t numLower, std::int64_t numUpper)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("MatrixBandPart"));
    TSTUDIO_AD_TRY(lower, ops::constantInts(b, {numLower}, TensorShape::scalar(), tensorflow::DT_INT64, "num_lower"));
    TSTUDIO_AD_TRY(upper, ops::constantInts(b, {numUpper}, TensorShape::scalar(), tensorflow::DT_INT64, "num_upper"));
    return py::genOp(b, "MatrixBandPart", {x, lower, upper}, {}, scope.name());
}

/// linalg.adjoint(x) for a tensor of known rank: array_ops.matrix_transpose(x, conjugate=True)
/// under the "adjoint" scope, i.e. "adjoint/matrix_transpose/transpose/perm" and the Transpose
/// "adjoint/matrix_transpose/transpose" (ConjugateTranspose for complex types, not needed here:
/// the only caller, Qr's gradient, refuses complex types first).
Expected<Output> adjoint(GraphBuilder& b, const Output& x)
{
    const int rank = x.shape().rank();
    if (rank < 2) {
        return unexpected(invalidArgumentError("Argument 'a' should be a (batch) matrix, with rank >= 2.  Found: " +
                                               x.shape().toString()));
    }
    TSTUDIO_AD_TRY(adjointScope, b.nameScope("adjoint"));
    TSTUDIO_AD_TRY(transposeScope, b.nameScope("matrix_transpose"));
    TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
    std::vector<std::int64_t> perm;
    for (int i = 0; i < rank - 2; ++i)
        perm.push_back(i);
    perm.push_back(rank - 1);
    perm.push_back(rank - 2);
    TSTUDIO_AD_TRY(permT, py::intVector(b, perm, "perm"));
    return py::genOp(b, "Transpose", {x, permT}, {}, scope.name());
}

/// linalg_ops.matrix_triangular_solve(matrix, rhs, lower, adjoint): "MatrixTriangularSolve".
Expected<Output> triangularSolve(GraphBuilder& b, const Output& matrix, const Output& rhs, bool lower, bool adj)
{
    return py::genOp(b, "MatrixTriangularSolve", {matrix, rhs}, {{"lower", attr::b(lower)}, {"adjoint", attr::b(adj)}});
}

/// band_part(grad, num_lower, num_upper) with the forward op's bands; the bands get no gradient.
Status matrixBandPartGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "MatrixBandPart", {grad, ctx.input(1), ctx.input(2)}));
    return ctx.setInputGradient(0, g);
}

/// For C = A^-1 B (or A^-H B): grad_b solves the adjoint system with grad, grad_a = -grad_b C^H
/// (or -C grad_b^H), kept on A's triangle.
Status matrixTriangularSolveGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& a = ctx.input(0);
    const Output& c = ctx.output(0);
    TSTUDIO_AD_TRY(adj, attrBool(ctx.node(), "adjoint"));
    TSTUDIO_AD_TRY(lower, attrBool(ctx.node(), "lower"));
    TSTUDIO_AD_TRY(gradB, triangularSolve(b, a, grad, lower, !adj));
    TSTUDIO_AD_TRY(product, adj ? py::matmul(b, c, gradB, false, false, false, true)
                                : py::matmul(b, gradB, c, false, false, false, true));
    TSTUDIO_AD_TRY(negated, py::neg(b, product));
    TSTUDIO_AD_TRY(gradA, lower ? bandPart(b, negated, -1, 0) : bandPart(b, negated, 0, -1));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, gradA));
    return ctx.setInputGradient(1, gradB);
}

/// _TriangularSolve(x, r) of _QrGrad: adjoint(matrix_triangular_solve(r, adjoint(x), lower=False)),
/// i.e. x r^-H for an upper-triangular r.
Expected<Output> solveOnTheRight(GraphBuilder& b, const Output& x, const Output& r)
{
    TSTUDIO_AD_TRY(xh, adjoint(b, x));
    TSTUDIO_AD_TRY(solved, triangularSolve(b, r, xh, false, false));
    return adjoint(b, solved);
}

/// _QrGrad: real types, static inner dimensions and a square r (full_matrices=False with M >= N,
/// or a square input); TensorFlow's NotImplementedError texts as Unimplemented otherwise.
Status qrGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& q = ctx.output(0);
    const Output& r = ctx.output(1);
    if (isComplex(q.baseDtype()))
        return unimplementedError("QrGrad not implemented for dtype: <dtype: '" + dataTypeName(q.baseDtype()) + "'>");
    const TensorShape& rShape = r.shape();
    if (rShape.isUnknownRank() || rShape.rank() < 2 || rShape.dim(rShape.rank() - 2) < 0 ||
        rShape.dim(rShape.rank() - 1) < 0)
        return unimplementedError("QrGrad not implemented with dynamic shapes.");
    if (rShape.dim(rShape.rank() - 2) != rShape.dim(rShape.rank() - 1))
        return unimplementedError("QrGrad not implemented when ncols > nrows or full_matrices is true and ncols != "
                                  "nrows.");
    TSTUDIO_AD_TRY(dq, ctx.grad(0));
    TSTUDIO_AD_TRY(dr, ctx.grad(1));

    TSTUDIO_AD_TRY(qdq, py::matmul(b, q, dq, false, false, true, false));
    TSTUDIO_AD_TRY(qdqH, adjoint(b, qdq));
    TSTUDIO_AD_TRY(qdqSkew, py::binary(b, Operator::kSub, qdq, qdqH));
    TSTUDIO_AD_TRY(rdr, py::matmul(b, r, dr, false, false, false, true));
    TSTUDIO_AD_TRY(rdrH, adjoint(b, rdr));
    TSTUDIO_AD_TRY(rdrSkew, py::binary(b, Operator::kSub, rdr, rdrH));
    TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, qdqSkew, rdrSkew));
    TSTUDIO_AD_TRY(tril, bandPart(b, sum, -1, 0));

    TSTUDIO_AD_TRY(trilSolved, solveOnTheRight(b, tril, r));
    TSTUDIO_AD_TRY(drPlus, py::binary(b, Operator::kAdd, dr, trilSolved));
    TSTUDIO_AD_TRY(gradA, py::matmul(b, q, drPlus, false, false));
    TSTUDIO_AD_TRY(qqdq, py::matmul(b, q, qdq, false, false));
    TSTUDIO_AD_TRY(residual, py::binary(b, Operator::kSub, dq, qqdq));
    TSTUDIO_AD_TRY(gradB, solveOnTheRight(b, residual, r));
    TSTUDIO_AD_TRY(total, py::binary(b, Operator::kAdd, gradA, gradB));
    return ctx.setInputGradient(0, total);
}

} // namespace

Status registerLinalgGradients(OpRegistry& registry)
{
    const std::vector<std::pair<std::string_view, GradientFunction>> table = {
        {"MatrixBandPart", matrixBandPartGrad},
        {"MatrixTriangularSolve", matrixTriangularSolveGrad},
        {"Qr", qrGrad},
    };
    for (const auto& [name, function] : table) {
        if (Status s = registry.setGradient(name, function); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
