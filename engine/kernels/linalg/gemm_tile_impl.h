// The body of the per-instruction-set GEMM tile units; included only by gemm_tile_<isa>.cpp, each
// of which defines its TSTUDIO_ISA_UNIT_<ISA> and TSTUDIO_ISA_UNIT_EIGEN first. kernels/isa/isa_unit_begin.h explains how one source gives the
// three builds of Eigen's GEMM.
// The callers (gemm_cpu.cpp) pick the unit at run time from the CPU's features, split the product
// into tiles and run them on the device's thread pool; each tile is one single-threaded Eigen GEMM.

#include "kernels/linalg/gemm_tile.h"

#include "kernels/isa/isa_unit_begin.h"

#ifdef TSTUDIO_ISA_UNIT_UNAVAILABLE
// Not x86-64, or not GCC (the pragma is GCC's): this unit answers with the baseline build.
namespace tstudio::linalg {
const GemmTileKernels& TSTUDIO_ISA_UNIT_FUNCTION(gemmTileKernels)()
{
    return gemmTileKernelsBaseline();
}
} // namespace tstudio::linalg
#else
// Products below this size (rows + cols + depth) would otherwise use Eigen's coefficient-based
// path, whose summation order differs from the blocked kernel; always using the blocked kernel
// keeps an element's value independent of how the product was split into tiles.
#define EIGEN_GEMM_TO_COEFFBASED_THRESHOLD 0
#include <Eigen/Core>

namespace tstudio::linalg {

namespace {

template <typename T> using RowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using ConstMap = Eigen::Map<const RowMajorMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T> using MutableMap = Eigen::Map<RowMajorMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

/// op(A) rows [row0, row0 + rows) as an Eigen expression source: the stored block and flags.
template <typename T> ConstMap<T> storedRowsOfA(const GemmArgs<T>& g, std::int64_t row0, std::int64_t rows)
{
    // Stored m x k: rows are rows. Stored k x m (transposed): op(A)'s rows are stored columns.
    if (!g.transposeA)
        return ConstMap<T>(g.a + row0 * g.lda, rows, g.k, Eigen::OuterStride<>(g.lda));
    return ConstMap<T>(g.a + row0, g.k, rows, Eigen::OuterStride<>(g.lda));
}

template <typename T> ConstMap<T> storedColsOfB(const GemmArgs<T>& g, std::int64_t col0, std::int64_t cols)
{
    if (!g.transposeB)
        return ConstMap<T>(g.b + col0, g.k, cols, Eigen::OuterStride<>(g.ldb));
    return ConstMap<T>(g.b + col0 * g.ldb, cols, g.k, Eigen::OuterStride<>(g.ldb));
}

/// Applies op() to a stored block and calls f with the resulting expression.
template <typename T, typename F> void withOp(const ConstMap<T>& stored, bool transpose, bool conjugate, F&& f)
{
    if constexpr (Eigen::NumTraits<T>::IsComplex) {
        if (conjugate) {
            if (transpose)
                f(stored.adjoint());
            else
                f(stored.conjugate());
            return;
        }
    }
    if (transpose)
        f(stored.transpose());
    else
        f(stored);
}

template <typename T>
void gemmTile(const GemmArgs<T>& g, std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols)
{
    if (rows <= 0 || cols <= 0)
        return;
    MutableMap<T> c(g.c + row0 * g.ldc + col0, rows, cols, Eigen::OuterStride<>(g.ldc));
    if (g.k == 0) {
        c.setZero();
        return;
    }
    const ConstMap<T> a = storedRowsOfA(g, row0, rows);
    const ConstMap<T> b = storedColsOfB(g, col0, cols);
    withOp(a, g.transposeA, g.conjugateA, [&](const auto& opA) {
        withOp(b, g.transposeB, g.conjugateB, [&](const auto& opB) { c.noalias() = opA * opB; });
    });
}

} // namespace

const GemmTileKernels& TSTUDIO_ISA_UNIT_FUNCTION(gemmTileKernels)()
{
    static const GemmTileKernels kernels{TSTUDIO_ISA_UNIT_NAME, &gemmTile<float>, &gemmTile<double>,
                                         &gemmTile<std::complex<float>>, &gemmTile<std::complex<double>>};
    return kernels;
}

} // namespace tstudio::linalg

#endif // TSTUDIO_ISA_UNIT_UNAVAILABLE
#include "kernels/isa/isa_unit_end.h"
