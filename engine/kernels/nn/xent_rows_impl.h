// The body of the per-instruction-set softmax cross-entropy row units; included only by
// xent_rows_<isa>.cpp, each of which defines its TSTUDIO_ISA_UNIT_<ISA> and TSTUDIO_ISA_UNIT_EIGEN first.
#include "kernels/nn/xent_rows.h"

#include "kernels/isa/isa_unit_begin.h"

#ifdef TSTUDIO_ISA_UNIT_UNAVAILABLE
namespace tstudio::nn {
const XentRowKernels& TSTUDIO_ISA_UNIT_FUNCTION(xentRowKernels)()
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

const XentRowKernels& TSTUDIO_ISA_UNIT_FUNCTION(xentRowKernels)()
{
    static const XentRowKernels kernels{TSTUDIO_ISA_UNIT_NAME, &sparseRow};
    return kernels;
}

} // namespace tstudio::nn
#endif // TSTUDIO_ISA_UNIT_UNAVAILABLE
#include "kernels/isa/isa_unit_end.h"
