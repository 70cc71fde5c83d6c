// BroadcastPlan: NumPy/TensorFlow broadcasting of several input shapes, collapsed for fast element-wise loops.
#pragma once

#include "framework/tensor_shape.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace tstudio {

/// How the inputs of an element-wise op line up with its output under TensorFlow's broadcasting
/// rules (util/bcast.h): shapes are right-aligned, missing leading dimensions count as 1, and in
/// each dimension the sizes must be equal or 1 (a size of 1 is repeated; 1 against 0 gives 0).
///
/// The plan also describes a *collapsed* view used by the loops: dimensions of output size 1 are
/// dropped and adjacent dimensions in which every input is either broadcast in both or in neither
/// are merged, as TF's BCast does. Same-shape inputs therefore collapse to one dimension with
/// stride 1 everywhere, a scalar against a tensor to one dimension where the scalar's stride is 0,
/// and a bias [C] against [N,C] to [N,C] with strides {0,1} for the bias.
///
/// Shapes must be fully defined (kernel inputs always are). A value type; not synchronised.
class BroadcastPlan {
public:
    /// Plans for the given input shapes (at least one). Check valid() before anything else.
    explicit BroadcastPlan(std::span<const TensorShape> shapes);
    explicit BroadcastPlan(const std::vector<TensorShape>& shapes)
        : BroadcastPlan(std::span<const TensorShape>(shapes))
    {
    }
    BroadcastPlan(std::initializer_list<TensorShape> shapes)
        : BroadcastPlan(std::span<const TensorShape>(shapes.begin(), shapes.size()))
    {
    }

    /// False when some dimension is neither equal nor 1 across the inputs.
    bool valid() const { return m_valid; }

    /// The broadcast output shape ([] when every input is a scalar).
    TensorShape outputShape() const { return TensorShape(m_outputDims); }
    const std::vector<std::int64_t>& outputDims() const { return m_outputDims; }
    /// Elements of the output (0 when some output dimension is 0).
    std::int64_t numElements() const { return m_numElements; }

    /// The collapsed output dimensions, each > 1; empty when the output has 0 or 1 elements.
    const std::vector<std::int64_t>& dims() const { return m_dims; }
    /// Element strides of input `i` per collapsed dimension: 0 where it is broadcast, otherwise
    /// the row-major stride of its (collapsed) shape.
    const std::vector<std::int64_t>& strides(int i) const { return m_strides[static_cast<std::size_t>(i)]; }
    int numInputs() const { return static_cast<int>(m_strides.size()); }

    /// True when no input is broadcast: every input has the output's number of elements.
    bool noBroadcast() const;

private:
    bool m_valid = false;
    std::vector<std::int64_t> m_outputDims;
    std::int64_t m_numElements = 0;
    std::vector<std::int64_t> m_dims;
    std::vector<std::vector<std::int64_t>> m_strides;
};

/// Walks the rows of a valid plan's collapsed output (every collapsed dimension but the last),
/// keeping each input's element offset at the start of the current row, so that loops do index
/// arithmetic once per row rather than once per element.
class BroadcastRowCursor {
public:
    /// Positioned at row `row` (0 <= row < numElements / dims().back()). The plan must outlive it.
    BroadcastRowCursor(const BroadcastPlan& plan, std::int64_t row);

    /// Input `i`'s element offset at the start of the current row.
    std::int64_t offset(int i) const { return m_offsets[static_cast<std::size_t>(i)]; }
    /// Moves to the next row (after the last row: back to row 0).
    void next();

private:
    const BroadcastPlan& m_plan;
    std::vector<std::int64_t> m_index;   ///< position in each outer collapsed dimension
    std::vector<std::int64_t> m_offsets; ///< per input
};

} // namespace tstudio
