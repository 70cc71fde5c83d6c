// dnnlGemmTile: one tile of a float product on oneDNN's sgemm (JIT-compiled for the CPU it runs on).
#include "kernels/linalg/gemm_tile_dnnl.h"

#include "kernels/isa/dnnl_isa_cap.h"

#ifdef TSTUDIO_HAVE_DNNL
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#endif

namespace tstudio::linalg {

bool dnnlGemmAvailable()
{
#ifdef TSTUDIO_HAVE_DNNL
    return true;
#else
    return false;
#endif
}

bool dnnlGemmTile(const GemmArgs<float>& g, std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols)
{
#ifdef TSTUDIO_HAVE_DNNL
    // Row-major storage, as dnnl_sgemm takes it: op(A)'s rows are stored rows, or stored columns
    // when A is transposed; likewise op(B)'s columns.
    const float* a = g.transposeA ? g.a + row0 : g.a + row0 * g.lda;
    const float* b = g.transposeB ? g.b + col0 * g.ldb : g.b + col0;
    float* c = g.c + row0 * g.ldc + col0;
    // oneDNN sizes its OpenMP team from the calling thread's setting (a per-thread value, which
    // the oneDNN convolutions change too): one thread per tile.
    omp_set_num_threads(1);
    capDnnlIsa();
    return dnnl_sgemm(g.transposeA ? 'T' : 'N', g.transposeB ? 'T' : 'N', rows, cols, g.k, 1.0f, a, g.lda, b, g.ldb,
                      0.0f, c, g.ldc) == dnnl_success;
#else
    (void)g;
    (void)row0;
    (void)rows;
    (void)col0;
    (void)cols;
    return false;
#endif
}

} // namespace tstudio::linalg
