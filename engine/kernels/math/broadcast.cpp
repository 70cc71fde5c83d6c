// BroadcastPlan: TensorFlow's broadcasting rules and the collapsed view of BCast.
#include "kernels/math/broadcast.h"

#include <algorithm>

namespace tstudio {

BroadcastPlan::BroadcastPlan(std::span<const TensorShape> shapes)
{
    const std::size_t n = shapes.size();
    int rank = 0;
    for (const TensorShape& s : shapes)
        rank = std::max(rank, s.rank());
    // Each input's dimensions right-aligned to `rank`, missing leading ones as 1.
    auto inputDim = [&](std::size_t i, int d) -> std::int64_t {
        const int offset = rank - shapes[i].rank();
        return d < offset ? 1 : shapes[i].dim(d - offset);
    };

    m_outputDims.assign(static_cast<std::size_t>(rank), 1);
    m_numElements = 1;
    for (int d = 0; d < rank; ++d) {
        std::int64_t out = 1;
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t size = inputDim(i, d);
            if (size == 1)
                continue;
            if (out == 1)
                out = size;
            else if (out != size)
                return; // invalid
        }
        m_outputDims[static_cast<std::size_t>(d)] = out;
        m_numElements *= out;
    }
    m_valid = true;
    m_strides.assign(n, {});
    if (m_numElements <= 1)
        return;

    // Collapse: drop output dims of size 1, merge neighbours with the same broadcast pattern.
    std::vector<std::vector<std::int64_t>> collapsedInput(n);
    std::vector<bool> previous(n), current(n);
    for (int d = 0; d < rank; ++d) {
        const std::int64_t out = m_outputDims[static_cast<std::size_t>(d)];
        if (out == 1)
            continue;
        for (std::size_t i = 0; i < n; ++i)
            current[i] = inputDim(i, d) == 1;
        if (!m_dims.empty() && current == previous) {
            m_dims.back() *= out;
            for (std::size_t i = 0; i < n; ++i)
                collapsedInput[i].back() *= current[i] ? 1 : out;
        } else {
            m_dims.push_back(out);
            for (std::size_t i = 0; i < n; ++i)
                collapsedInput[i].push_back(current[i] ? 1 : out);
        }
        previous = current;
    }
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::int64_t>& strides = m_strides[i];
        strides.assign(m_dims.size(), 0);
        std::int64_t stride = 1;
        for (std::size_t k = m_dims.size(); k-- > 0;) {
            const bool broadcast = collapsedInput[i][k] == 1;
            strides[k] = broadcast ? 0 : stride;
            stride *= collapsedInput[i][k];
        }
    }
}

bool BroadcastPlan::noBroadcast() const
{
    return std::all_of(m_strides.begin(), m_strides.end(), [](const std::vector<std::int64_t>& strides) {
        return std::none_of(strides.begin(), strides.end(), [](std::int64_t s) { return s == 0; });
    });
}

BroadcastRowCursor::BroadcastRowCursor(const BroadcastPlan& plan, std::int64_t row)
    : m_plan(plan), m_offsets(static_cast<std::size_t>(plan.numInputs()), 0)
{
    const std::vector<std::int64_t>& dims = plan.dims();
    const std::size_t outer = dims.empty() ? 0 : dims.size() - 1;
    m_index.assign(outer, 0);
    for (std::size_t j = outer; j-- > 0;) {
        m_index[j] = row % dims[j];
        row /= dims[j];
        for (int i = 0; i < plan.numInputs(); ++i)
            m_offsets[static_cast<std::size_t>(i)] += m_index[j] * plan.strides(i)[j];
    }
}

void BroadcastRowCursor::next()
{
    const std::vector<std::int64_t>& dims = m_plan.dims();
    for (std::size_t j = m_index.size(); j-- > 0;) {
        ++m_index[j];
        for (int i = 0; i < m_plan.numInputs(); ++i)
            m_offsets[static_cast<std::size_t>(i)] += m_plan.strides(i)[j];
        if (m_index[j] < dims[j])
            return;
        m_index[j] = 0;
        for (int i = 0; i < m_plan.numInputs(); ++i)
            m_offsets[static_cast<std::size_t>(i)] -= m_plan.strides(i)[j] * dims[j];
    }
}

} // namespace tstudio
