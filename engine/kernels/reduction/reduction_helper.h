// ReductionHelper: validates reduction axes and collapses a reduction into runs (TF's ReductionHelper).
#pragma once

#include "core/status.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"

#include <cstdint>
#include <vector>

namespace tensorflow {
class NodeDef;
}

namespace tstudio::reduction {

/// Plans a reduction of a tensor of shape `data` over the axes in `axes` (an int32 or int64
/// tensor of any shape, read flat; negative values count from the end), as TensorFlow's
/// ReductionHelper::Simplify does:
/// - outShape(): the output shape (reduced dimensions dropped, or kept as 1 with keep_dims);
/// - dataReshape(): the input viewed with adjacent dimensions merged into alternating runs of
///   reduced and kept dimensions (size-1 dimensions join the run before them, leading size-1
///   dimensions are dropped), so that [2,1,3,1,5] over axes [1,4] becomes [6,5] over axis 1;
/// - reduceFirstAxis(): whether the first run is reduced (the runs then alternate);
/// - outReshape(): the kept runs, whose product is the number of output elements.
/// Errors, in TensorFlow's words: "Invalid reduction dimension (5 for input with 2 dimension(s)"
/// and "Invalid reduction arguments: Axes contains duplicate dimension: 1" (the duplicate check is
/// TensorFlow 2's; 1.15 accepted duplicates silently).
class ReductionHelper {
public:
    Status simplify(const TensorShape& data, const Tensor& axes, bool keepDims);

    int ndims() const { return static_cast<int>(m_dataReshape.size()); }
    bool reduceFirstAxis() const { return m_reduceFirstAxis; }
    const TensorShape& outShape() const { return m_outShape; }
    const std::vector<std::int64_t>& dataReshape() const { return m_dataReshape; }
    const std::vector<std::int64_t>& outReshape() const { return m_outReshape; }

    /// The merged dimensions reordered so that every kept run comes first and every reduced run
    /// last (the layout the general case transposes the input to), and that permutation of
    /// dataReshape()'s dimensions.
    std::vector<std::int64_t> shuffledShape() const;
    std::vector<int> permutation() const;

private:
    bool m_reduceFirstAxis = false;
    TensorShape m_outShape = TensorShape::scalar();
    std::vector<std::int64_t> m_dataReshape;
    std::vector<std::int64_t> m_outReshape;
};

/// The keep_dims attr of a reduction kernel, read when the kernel is built; a missing or mistyped
/// attr is kept in `status` and returned by plan(). Shared by the CPU and GPU reduction kernels.
struct ReductionAttrs {
    explicit ReductionAttrs(const tensorflow::NodeDef& node);

    /// The attr error, else helper.simplify(data, axes, keepDims).
    Status plan(const TensorShape& data, const Tensor& axes, ReductionHelper& helper) const;

    bool keepDims = false;
    Status status;
};

} // namespace tstudio::reduction
