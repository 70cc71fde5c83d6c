// The body of the per-instruction-set softmax cross-entropy row units; included only by
// xent_rows_<isa>.cpp, each of which defines TSTUDIO_XENT_ROWS_<ISA> first.
#include "kernels/nn/xent_rows.h"

#if defined(TSTUDIO_XENT_ROWS_AVX512)
#define TSTUDIO_ISA_UNIT_AVX512
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_avx512
#define TSTUDIO_XENT_ROWS_NAME xentRowKernelsAvx512
#elif defined(TSTUDIO_XENT_ROWS_AVX2)
#define TSTUDIO_ISA_UNIT_AVX2
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_avx2
#define TSTUDIO_XENT_ROWS_NAME xentRowKernelsAvx2
#elif defined(TSTUDIO_XENT_ROWS_BASELINE)
#define TSTUDIO_ISA_UNIT_BASELINE
#define TSTUDIO_ISA_UNIT_EIGEN tstudio_eigen_xent_baseline
#define TSTUDIO_XENT_ROWS_NAME xentRowKernelsBaseline
#else
#error "define one of TSTUDIO_XENT_ROWS_BASELINE, TSTUDIO_XENT_ROWS_AVX2, TSTUDIO_XENT_ROWS_AVX512"
#endif
#include "kernels/isa/isa_unit_begin.h"

#ifdef TSTUDIO_ISA_UNIT_UNAVAILABLE
namespace tstudio::nn {
const XentRowKernels& TSTUDIO_XENT_ROWS_NAME()
{
    return xentRowKernelsBaseline();
}
} // namespace tstudio::nn
#else
#include <Eigen/Core>

namespace tstudio::nn {

namespace {

using Row = Eigen::Array<float, Eigen::Dynamic, 1>;

float sparseRow(const float* logits, std::int64_t classes, std::int64_t label, float* backprop)
{
    const Eigen::Map<const Row> row(logits, classes);
    Eigen::Map<Row> out(backprop, classes);
    // The same expressions as TensorFlow's: exp of the shifted logits, their sum, each divided by
    // it; the shifted logit is recomputed for the label rather than stored for every class.
    const float max = row.maxCoeff<Eigen::PropagateNaN>();
    out = (row - max).exp();
    const float sum = out.sum();
    out /= sum;
    out[label] -= 1.0f;
    return std::log(sum) - (logits[label] - max);
}

} // namespace

const XentRowKernels& TSTUDIO_XENT_ROWS_NAME()
{
    static const XentRowKernels kernels{TSTUDIO_ISA_UNIT_NAME, &sparseRow};
    return kernels;
}

} // namespace tstudio::nn
#endif // TSTUDIO_ISA_UNIT_UNAVAILABLE
#include "kernels/isa/isa_unit_end.h"
