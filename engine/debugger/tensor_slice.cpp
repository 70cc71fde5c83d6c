// TensorSlice: parsing, formatting and applying NumPy basic indices to tensors (see tensor_slice.h).
#include "debugger/tensor_slice.h"

#include "framework/resource_handle.h"

#include <cstring>
#include <limits>

namespace tstudio::debugger {

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

/// A recursive-descent reader of one slice text; columns in messages are 1-based.
class SliceParser {
public:
    explicit SliceParser(std::string_view text) : m_text(text) {}

    Expected<TensorSlice> parse()
    {
        TensorSlice slice;
        skipSpaces();
        if (atEnd())
            return slice; // "" selects everything
        if (!consume('['))
            return fail("expected '['");
        skipSpaces();
        if (consume(']')) // "[]": no items, as NumPy's empty index a[()]
            return finish(slice);
        bool seenEllipsis = false;
        while (true) {
            const std::size_t itemColumn = m_pos;
            auto item = parseItem();
            if (!item)
                return unexpected(item.error());
            if (item->kind == SliceItem::Kind::kEllipsis) {
                if (seenEllipsis)
                    return failAt(itemColumn, "an index can only have a single ellipsis ('...')");
                seenEllipsis = true;
            }
            slice.items.push_back(*item);
            skipSpaces();
            if (consume(']'))
                return finish(slice);
            if (!consume(','))
                return fail("expected ',' or ']'");
            skipSpaces();
            if (consume(']')) // a trailing comma, as Python allows: "[2,]" is "[2]"
                return finish(slice);
        }
    }

private:
    Expected<TensorSlice> finish(const TensorSlice& slice)
    {
        skipSpaces();
        if (!atEnd())
            return fail("expected nothing after ']'");
        return slice;
    }

    Expected<SliceItem> parseItem()
    {
        SliceItem item;
        if (consumeWord("...") || consumeWord("Ellipsis")) {
            item.kind = SliceItem::Kind::kEllipsis;
            return item;
        }
        if (consumeWord("None") || consumeWord("np.newaxis") || consumeWord("numpy.newaxis")) {
            item.kind = SliceItem::Kind::kNewAxis;
            return item;
        }
        // An integer, or start:stop[:step] with each part optional.
        std::optional<std::int64_t> parts[3];
        int colons = 0;
        bool sawInteger = false;
        bool integerOverflow = false;
        std::size_t firstColumn = m_pos;
        for (int part = 0; part < 3; ++part) {
            skipSpaces();
            if (part > 0 && !startsInteger() && !atEnd() &&
                std::string_view(":,]").find(m_text[m_pos]) == std::string_view::npos)
                return fail("expected an integer");
            if (startsInteger()) {
                const std::size_t column = m_pos;
                auto value = parseInteger();
                if (!value)
                    return unexpected(value.error());
                parts[part] = value->value;
                if (part == 0) {
                    firstColumn = column;
                    integerOverflow = value->saturated;
                }
                sawInteger = true;
                skipSpaces();
            }
            if (part == 2 || !consume(':'))
                break;
            ++colons;
        }
        if (colons == 0) {
            if (!sawInteger)
                return fail("expected an integer, a slice 'start:stop:step', '...' or None");
            if (integerOverflow) // NumPy: "cannot fit 'int' into an index-sized integer"
                return failAt(firstColumn, "the index does not fit in a 64-bit integer");
            item.kind = SliceItem::Kind::kIndex;
            item.index = *parts[0];
            return item;
        }
        if (parts[2] && *parts[2] == 0)
            return failAt(m_stepColumn, "slice step cannot be zero");
        item.kind = SliceItem::Kind::kRange;
        item.start = parts[0];
        item.stop = parts[1];
        item.step = parts[2];
        return item;
    }

    bool startsInteger() const
    {
        if (atEnd())
            return false;
        const char c = m_text[m_pos];
        return c == '+' || c == '-' || (c >= '0' && c <= '9');
    }

    struct Integer {
        std::int64_t value = 0;
        bool saturated = false; ///< beyond int64: clamped, which changes no range on a real tensor
    };

    /// Python's integer literal with any number of unary signs ("-3", "- 3", "--3", "+3").
    Expected<Integer> parseInteger()
    {
        m_stepColumn = m_pos;
        bool negative = false;
        while (!atEnd() && (m_text[m_pos] == '+' || m_text[m_pos] == '-')) {
            negative ^= m_text[m_pos] == '-';
            ++m_pos;
            skipSpaces();
        }
        const std::size_t digitsColumn = m_pos;
        // Magnitude as an unsigned 64-bit number, saturating.
        std::uint64_t magnitude = 0;
        bool saturated = false;
        std::size_t digits = 0;
        bool nonZeroSeen = false;
        while (!atEnd() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
            const auto digit = static_cast<std::uint64_t>(m_text[m_pos] - '0');
            if (digits > 0 && !nonZeroSeen && digit != 0)
                return failAt(digitsColumn, "leading zeros are not allowed in an integer");
            nonZeroSeen = nonZeroSeen || digit != 0;
            if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                saturated = true;
            else
                magnitude = magnitude * 10 + digit;
            ++digits;
            ++m_pos;
        }
        if (digits == 0)
            return fail("expected an integer");
        if (!atEnd() && (isWordChar(m_text[m_pos]) || m_text[m_pos] == '.')) // "1a", "1.5", "1e3"
            return failAt(digitsColumn, "expected an integer");
        Integer result;
        const std::uint64_t limit = negative ? static_cast<std::uint64_t>(kInt64Max) + 1 : kInt64Max;
        if (saturated || magnitude > limit) {
            result.saturated = true;
            result.value = negative ? kInt64Min : kInt64Max;
        } else if (negative) {
            result.value = magnitude == limit ? kInt64Min : -static_cast<std::int64_t>(magnitude);
        } else {
            result.value = static_cast<std::int64_t>(magnitude);
        }
        return result;
    }

    static bool isWordChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /// Consumes `word` when it is next and not followed by more of a name ("Nonex" is no None).
    bool consumeWord(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        const std::size_t end = m_pos + word.size();
        if (word != "..." && end < m_text.size() && (isWordChar(m_text[end]) || m_text[end] == '.'))
            return false;
        m_pos = end;
        return true;
    }

    bool consume(char c)
    {
        if (atEnd() || m_text[m_pos] != c)
            return false;
        ++m_pos;
        return true;
    }

    void skipSpaces()
    {
        while (!atEnd() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool atEnd() const { return m_pos >= m_text.size(); }

    tl::unexpected<Status> fail(std::string_view expected) const { return failAt(m_pos, expected); }

    tl::unexpected<Status> failAt(std::size_t pos, std::string_view what) const
    {
        return unexpected(invalidArgumentError("slice '" + std::string(m_text) + "': " + std::string(what) +
                                               " at column " + std::to_string(pos + 1)));
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_stepColumn = 0; ///< where the last integer began (the step, when a step is zero)
};

/// One axis of the result: how many elements and how the source offset moves along it.
struct OutputAxis {
    std::int64_t size = 1;
    std::int64_t sourceStride = 0; ///< elements; 0 for an inserted axis
    SliceOrigin::Axis origin;      ///< the same walk in the source axis's positions
};

/// Where the selection starts in the source buffer and the axes that walk it.
struct SlicePlan {
    std::int64_t baseOffset = 0;
    std::vector<OutputAxis> axes;
    std::vector<std::int64_t> picked; ///< per source axis: the position an integer index picks, else -1
};

/// Python's slice.indices(): the first position and the element count of start:stop:step on `size`.
void resolveRange(const SliceItem& item, std::int64_t size, std::int64_t& first, std::int64_t& step,
                  std::int64_t& count)
{
    step = item.step.value_or(1);
    if (step == kInt64Min) // as Python: keeps -step representable
        step = -kInt64Max;
    const std::int64_t lower = step < 0 ? -1 : 0;
    const std::int64_t upper = step < 0 ? size - 1 : size;
    auto clamp = [&](std::optional<std::int64_t> value, std::int64_t fallback) {
        if (!value)
            return fallback;
        std::int64_t v = *value;
        if (v < 0) {
            v += size; // no overflow: size >= 0
            return v < lower ? lower : v;
        }
        return v > upper ? upper : v;
    };
    const std::int64_t start = clamp(item.start, step < 0 ? upper : lower);
    const std::int64_t stop = clamp(item.stop, step < 0 ? lower : upper);
    first = start;
    if (step < 0)
        count = stop < start ? (start - stop - 1) / -step + 1 : 0;
    else
        count = start < stop ? (stop - start - 1) / step + 1 : 0;
}

Expected<SlicePlan> planSlice(const TensorShape& shape, const TensorSlice& slice)
{
    if (shape.isUnknownRank() || !shape.isFullyDefined())
        return unexpected(invalidArgumentError("cannot slice a tensor of shape " + shape.toString() +
                                               ": the shape must be fully defined"));
    const int rank = shape.rank();
    int consumed = 0;
    int ellipses = 0;
    for (const SliceItem& item : slice.items) {
        if (item.kind == SliceItem::Kind::kIndex || item.kind == SliceItem::Kind::kRange)
            ++consumed;
        else if (item.kind == SliceItem::Kind::kEllipsis)
            ++ellipses;
        if (item.kind == SliceItem::Kind::kRange && item.step && *item.step == 0)
            return unexpected(invalidArgumentError("slice step cannot be zero"));
    }
    if (ellipses > 1)
        return unexpected(invalidArgumentError("an index can only have a single ellipsis ('...')"));
    if (consumed > rank) {
        return unexpected(invalidArgumentError("too many indices for tensor: tensor is " + std::to_string(rank) +
                                               "-dimensional, but " + std::to_string(consumed) + " were indexed"));
    }

    std::vector<std::int64_t> strides(static_cast<std::size_t>(rank), 1);
    for (int axis = rank - 2; axis >= 0; --axis)
        strides[static_cast<std::size_t>(axis)] = strides[static_cast<std::size_t>(axis) + 1] * shape.dim(axis + 1);

    SlicePlan plan;
    plan.picked.assign(static_cast<std::size_t>(rank), -1);
    int axis = 0;
    auto fullAxis = [&](int a) {
        plan.axes.push_back({shape.dim(a), strides[static_cast<std::size_t>(a)], {a, 0, 1}});
    };
    for (const SliceItem& item : slice.items) {
        switch (item.kind) {
        case SliceItem::Kind::kIndex: {
            const std::int64_t size = shape.dim(axis);
            if (item.index < -size || item.index >= size) {
                return unexpected(invalidArgumentError("index " + std::to_string(item.index) +
                                                       " is out of bounds for axis " + std::to_string(axis) +
                                                       " with size " + std::to_string(size)));
            }
            const std::int64_t position = item.index < 0 ? item.index + size : item.index;
            plan.baseOffset += position * strides[static_cast<std::size_t>(axis)];
            plan.picked[static_cast<std::size_t>(axis)] = position;
            ++axis;
            break;
        }
        case SliceItem::Kind::kRange: {
            std::int64_t first = 0, step = 1, count = 0;
            resolveRange(item, shape.dim(axis), first, step, count);
            if (count > 0) // an empty axis reads nothing, and `first` may be -1 or past the end
                plan.baseOffset += first * strides[static_cast<std::size_t>(axis)];
            plan.axes.push_back({count, count > 1 ? step * strides[static_cast<std::size_t>(axis)] : 0,
                                 {axis, count > 0 ? first : 0, step}});
            ++axis;
            break;
        }
        case SliceItem::Kind::kEllipsis:
            for (int n = rank - consumed; n > 0; --n)
                fullAxis(axis++);
            break;
        case SliceItem::Kind::kNewAxis: plan.axes.push_back({1, 0, {-1, 0, 0}}); break;
        }
    }
    while (axis < rank)
        fullAxis(axis++);
    return plan;
}

TensorShape shapeOf(const SlicePlan& plan)
{
    std::vector<std::int64_t> dims;
    dims.reserve(plan.axes.size());
    for (const OutputAxis& a : plan.axes)
        dims.push_back(a.size);
    return TensorShape(std::move(dims));
}

/// Visits the selected source offsets in C order: `copy(sourceOffset, count, sourceStride)` copies
/// one run along the last axis into the next `count` result elements.
template <typename CopyRun> void walkSelection(const SlicePlan& plan, CopyRun&& copy)
{
    if (plan.axes.empty()) {
        copy(plan.baseOffset, 1, 0);
        return;
    }
    const std::size_t last = plan.axes.size() - 1;
    for (const OutputAxis& a : plan.axes) {
        if (a.size == 0)
            return;
    }
    std::vector<std::int64_t> counter(last, 0);
    std::int64_t offset = plan.baseOffset;
    while (true) {
        copy(offset, plan.axes[last].size, plan.axes[last].sourceStride);
        // Odometer over the outer axes.
        std::size_t axis = last;
        while (axis > 0) {
            --axis;
            offset += plan.axes[axis].sourceStride;
            if (++counter[axis] < plan.axes[axis].size)
                break;
            offset -= plan.axes[axis].sourceStride * plan.axes[axis].size;
            counter[axis] = 0;
            if (axis == 0)
                return;
        }
        if (last == 0)
            return;
    }
}

template <std::size_t N> void copyBytes(const SlicePlan& plan, const std::byte* source, std::byte* target)
{
    walkSelection(plan, [&](std::int64_t offset, std::int64_t count, std::int64_t stride) {
        const std::byte* from = source + offset * static_cast<std::int64_t>(N);
        if (stride == 1) {
            std::memcpy(target, from, static_cast<std::size_t>(count) * N);
            target += count * static_cast<std::int64_t>(N);
            return;
        }
        for (std::int64_t i = 0; i < count; ++i, target += N, from += stride * static_cast<std::int64_t>(N))
            std::memcpy(target, from, N);
    });
}

template <typename T> void copyObjects(const SlicePlan& plan, std::span<const T> source, std::span<T> target)
{
    std::size_t next = 0;
    walkSelection(plan, [&](std::int64_t offset, std::int64_t count, std::int64_t stride) {
        for (std::int64_t i = 0; i < count; ++i, offset += stride)
            target[next++] = source[static_cast<std::size_t>(offset)];
    });
}

} // namespace

Expected<TensorSlice> parseTensorSlice(std::string_view text)
{
    return SliceParser(text).parse();
}

std::string formatTensorSlice(const TensorSlice& slice)
{
    if (slice.items.empty())
        return {};
    std::string text = "[";
    for (std::size_t i = 0; i < slice.items.size(); ++i) {
        const SliceItem& item = slice.items[i];
        if (i > 0)
            text += ", ";
        switch (item.kind) {
        case SliceItem::Kind::kIndex: text += std::to_string(item.index); break;
        case SliceItem::Kind::kRange:
            if (item.start)
                text += std::to_string(*item.start);
            text += ':';
            if (item.stop)
                text += std::to_string(*item.stop);
            if (item.step)
                text += ':' + std::to_string(*item.step);
            break;
        case SliceItem::Kind::kEllipsis: text += "..."; break;
        case SliceItem::Kind::kNewAxis: text += "None"; break;
        }
    }
    return text + "]";
}

Expected<TensorShape> slicedShape(const TensorShape& shape, const TensorSlice& slice)
{
    auto plan = planSlice(shape, slice);
    if (!plan)
        return unexpected(plan.error());
    return shapeOf(*plan);
}

Expected<SliceOrigin> sliceOrigin(const TensorShape& shape, const TensorSlice& slice)
{
    auto plan = planSlice(shape, slice);
    if (!plan)
        return unexpected(plan.error());
    SliceOrigin origin;
    origin.picked = std::move(plan->picked);
    for (const OutputAxis& axis : plan->axes)
        origin.axes.push_back(axis.origin);
    return origin;
}

std::int64_t SliceOrigin::sourcePosition(std::size_t axis, std::int64_t position) const
{
    if (axis >= axes.size())
        return position;
    return axes[axis].first + position * axes[axis].step;
}

std::vector<std::int64_t> SliceOrigin::sourceIndex(const std::vector<std::int64_t>& index) const
{
    std::vector<std::int64_t> source = picked;
    for (std::size_t a = 0; a < axes.size() && a < index.size(); ++a)
        if (axes[a].sourceAxis >= 0 && static_cast<std::size_t>(axes[a].sourceAxis) < source.size())
            source[static_cast<std::size_t>(axes[a].sourceAxis)] = sourcePosition(a, index[a]);
    return source;
}

Expected<Tensor> applyTensorSlice(const Tensor& tensor, const TensorSlice& slice, Allocator& allocator)
{
    if (!tensor.isInitialized())
        return unexpected(failedPreconditionError("cannot slice an uninitialized " + dataTypeName(tensor.dtype()) +
                                                  " tensor: it holds no value yet"));
    auto plan = planSlice(tensor.shape(), slice);
    if (!plan)
        return unexpected(plan.error());
    auto result = Tensor::allocate(allocator, tensor.dtype(), shapeOf(*plan));
    if (!result || result->numElements() == 0)
        return result;

    if (tensor.dtype() == tensorflow::DT_STRING) {
        copyObjects<std::string>(*plan, tensor.strings(), result->strings());
        return result;
    }
    if (tensor.dtype() == tensorflow::DT_RESOURCE) {
        copyObjects<ResourceHandle>(*plan, tensor.values<ResourceHandle>(), result->values<ResourceHandle>());
        return result;
    }
    const std::byte* source = tensor.tensorData().data();
    std::byte* target = result->tensorData().data();
    switch (dataTypeSize(tensor.dtype())) {
    case 1: copyBytes<1>(*plan, source, target); break;
    case 2: copyBytes<2>(*plan, source, target); break;
    case 4: copyBytes<4>(*plan, source, target); break;
    case 8: copyBytes<8>(*plan, source, target); break;
    case 16: copyBytes<16>(*plan, source, target); break;
    default: return unexpected(unimplementedError("cannot slice a tensor of dtype " + dataTypeName(tensor.dtype())));
    }
    return result;
}

std::pair<std::string, std::string> splitTensorExpression(std::string_view expression)
{
    const std::size_t bracket = expression.find('[');
    if (bracket == std::string_view::npos)
        return {std::string(expression), std::string()};
    return {std::string(expression.substr(0, bracket)), std::string(expression.substr(bracket))};
}

} // namespace tstudio::debugger
