// MatrixTriangularSolve's CPU kernel: per batch matrix, Eigen's triangular substitution (the
// solver TensorFlow 1.15's CPU kernel uses) on the lower or upper triangle, or on its adjoint.
// Checks and error texts are those of TensorFlow's LinearAlgebraOp base and of the op itself:
// the batch dimensions of matrix and rhs must be equal (no broadcasting in 1.15).
#define EIGEN_USE_THREADS
#include "framework/kernel_registry.h"
#include "devices/cpu/cpu_parallel.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"

#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

#include <complex>
#include <string>
#include <vector>

namespace tstudio::linalg {

namespace {

template <typename T> class MatrixTriangularSolveOp : public OpKernel {
public:
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using ConstMap = Eigen::Map<const Matrix>;
    using Map = Eigen::Map<Matrix>;

    explicit MatrixTriangularSolveOp(OpKernelConstruction& construction) : OpKernel(construction)
    {
        auto lower = attrBool(node(), "lower");
        auto adjoint = attrBool(node(), "adjoint");
        if (!lower)
            m_attrStatus = lower.error();
        else if (!adjoint)
            m_attrStatus = adjoint.error();
        else {
            m_lower = *lower;
            m_adjoint = *adjoint;
        }
    }

    Status compute(OpKernelContext& context) override
    {
        if (!m_attrStatus.isOk())
            return m_attrStatus;
        const Tensor& matrix = context.input(0);
        const Tensor& rhs = context.input(1);
        const int rank = matrix.rank();
        if (rank < 2)
            return invalidArgumentError("Input tensor 0 must have rank >= 2, got " + std::to_string(rank));
        if (rhs.rank() != rank)
            return invalidArgumentError("All input tensors must have the same rank.");
        for (int d = 0; d < rank - 2; ++d) {
            if (matrix.shape().dim(d) != rhs.shape().dim(d))
                return invalidArgumentError("All input tensors must have the same outer dimensions.");
        }
        const std::int64_t n = matrix.shape().dim(rank - 2);
        if (matrix.shape().dim(rank - 1) != n)
            return invalidArgumentError("First input (lhs) must be a square matrix.");
        if (rhs.shape().dim(rank - 2) != n)
            return invalidArgumentError("Input matrix and right-hand side must have the same number of rows.");
        const std::int64_t k = rhs.shape().dim(rank - 1);
        auto out = context.allocateOutput(0, rhs.shape());
        if (!out)
            return out.error();
        // An empty system has the empty solution (TensorFlow's convention, as for MatrixInverse).
        if ((*out)->numElements() == 0 || n == 0)
            return Status::ok();
        const std::int64_t batch = (*out)->numElements() / (n * k);

        const T* a = matrix.data<T>();
        const T* b = rhs.data<T>();
        T* x = (*out)->template data<T>();
        std::vector<char> singular(static_cast<std::size_t>(batch), 0);
        auto one = [&](std::int64_t i) {
            const ConstMap m(a + i * n * n, n, n);
            if (!(m.diagonal().cwiseAbs().minCoeff() > 0)) {
                singular[static_cast<std::size_t>(i)] = 1;
                return;
            }
            const ConstMap r(b + i * n * k, n, k);
            Map o(x + i * n * k, n, k);
            if (m_lower) {
                if (m_adjoint)
                    o.noalias() = m.template triangularView<Eigen::Lower>().adjoint().solve(r);
                else
                    o.noalias() = m.template triangularView<Eigen::Lower>().solve(r);
            } else {
                if (m_adjoint)
                    o.noalias() = m.template triangularView<Eigen::Upper>().adjoint().solve(r);
                else
                    o.noalias() = m.template triangularView<Eigen::Upper>().solve(r);
            }
        };
        const Eigen::ThreadPoolDevice* device = context.device().eigenCpuDevice();
        if (batch == 1 || device == nullptr) {
            for (std::int64_t i = 0; i < batch; ++i)
                one(i);
        } else {
            // One substitution: about n^2 k multiply-adds.
            const Eigen::TensorOpCost cost(static_cast<double>(n * n + n * k) * sizeof(T),
                                           static_cast<double>(n * k) * sizeof(T), static_cast<double>(n * n * k));
            cpuParallelFor(*device, batch, cost, [&](Eigen::Index first, Eigen::Index last) {
                for (Eigen::Index i = first; i < last; ++i)
                    one(i);
            });
        }
        for (char s : singular) {
            if (s)
                return invalidArgumentError("Input matrix is not invertible.");
        }
        return Status::ok();
    }

private:
    Status m_attrStatus;
    bool m_lower = true;
    bool m_adjoint = false;
};

template <typename T> Status addSolve(KernelRegistry& registry)
{
    return registry.add<MatrixTriangularSolveOp<T>>(
        KernelDef{"MatrixTriangularSolve", "CPU", {{"T", {kDataTypeOf<T>}}}, {}});
}

} // namespace

Status registerMatrixTriangularSolveCpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers the CPU kernel for these four types; half is in the OpDef only.
    for (Status s : {addSolve<float>(registry), addSolve<double>(registry), addSolve<std::complex<float>>(registry),
                     addSolve<std::complex<double>>(registry)}) {
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio::linalg
