// InlineDims: a shape's dimension list, kept inside the shape for the ranks tensors almost always have.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace tstudio {

/// The dimensions of a TensorShape: up to kInline of them stored inline (no allocation, so copying,
/// moving and destroying a shape of rank <= 6 never touches the heap), more on the heap. A value type
/// with a vector's meaning (size, elements, equality); a moved-from list keeps its elements.
class InlineDims {
public:
    static constexpr std::size_t kInline = 6;

    InlineDims() = default;
    explicit InlineDims(std::span<const std::int64_t> dims) { assign(dims); }
    /// `count` copies of `value`.
    InlineDims(std::size_t count, std::int64_t value)
    {
        reserveExactly(count);
        std::fill(data(), data() + count, value);
    }
    InlineDims(const InlineDims& other) { assign(other.span()); }
    InlineDims(InlineDims&& other) noexcept
        : m_size(other.m_size), m_heap(std::move(other.m_heap))
    {
        std::copy(other.m_inline, other.m_inline + std::min(m_size, kInline), m_inline);
        if (m_heap)
            other.m_size = 0;
    }
    InlineDims& operator=(const InlineDims& other)
    {
        if (this != &other)
            assign(other.span());
        return *this;
    }
    InlineDims& operator=(InlineDims&& other) noexcept
    {
        if (this == &other)
            return *this;
        m_size = other.m_size;
        m_heap = std::move(other.m_heap);
        std::copy(other.m_inline, other.m_inline + std::min(m_size, kInline), m_inline);
        if (m_heap)
            other.m_size = 0;
        return *this;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::int64_t* data() { return m_heap ? m_heap.get() : m_inline; }
    const std::int64_t* data() const { return m_heap ? m_heap.get() : m_inline; }
    std::int64_t& operator[](std::size_t i) { return data()[i]; }
    std::int64_t operator[](std::size_t i) const { return data()[i]; }
    std::int64_t* begin() { return data(); }
    std::int64_t* end() { return data() + m_size; }
    const std::int64_t* begin() const { return data(); }
    const std::int64_t* end() const { return data() + m_size; }
    std::span<const std::int64_t> span() const { return {data(), m_size}; }
    operator std::span<const std::int64_t>() const { return span(); }

    bool operator==(const InlineDims& other) const
    {
        return m_size == other.m_size && std::equal(begin(), end(), other.begin());
    }

private:
    std::size_t m_size = 0;
    std::int64_t m_inline[kInline] = {};
    std::unique_ptr<std::int64_t[]> m_heap; ///< only when m_size > kInline

    void reserveExactly(std::size_t count)
    {
        m_heap.reset();
        if (count > kInline)
            m_heap = std::make_unique_for_overwrite<std::int64_t[]>(count);
        m_size = count;
    }
    void assign(std::span<const std::int64_t> dims)
    {
        if (dims.size() > kInline || m_heap) {
            // Keep a heap block that already fits; otherwise a fresh one (or the inline array).
            if (!(m_heap && dims.size() > kInline && dims.size() <= m_size))
                reserveExactly(dims.size());
            m_size = dims.size();
        } else {
            m_size = dims.size();
        }
        std::copy(dims.begin(), dims.end(), data());
    }
};

} // namespace tstudio
