// previewSource: the source's examples (source_examples.h) cut to the first `count`, or that many
// elements drawn from a streaming source and stacked.
#include "source_preview.h"

#include "data_sources.h"
#include "source_examples.h"

#include <algorithm>
#include <cstring>

namespace tstudio::project {
namespace {

/// Rows [0, n) of a tensor with a first dimension.
Expected<Tensor> firstRows(const Tensor& t, std::int64_t n, Allocator& allocator)
{
    if (t.shape().dim(0) == n)
        return t;
    std::vector<std::int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    const std::int64_t rows = dims.front();
    dims.front() = n;
    auto out = Tensor::allocate(allocator, t.dtype(), TensorShape(dims));
    if (!out)
        return unexpected(out.error());
    if (t.dtype() == tensorflow::DT_STRING) {
        const std::size_t perRow = rows == 0 ? 0 : t.strings().size() / static_cast<std::size_t>(rows);
        std::copy_n(t.strings().begin(), perRow * static_cast<std::size_t>(n), out->strings().begin());
        return out;
    }
    const std::size_t rowBytes = rows == 0 ? 0 : t.totalBytes() / static_cast<std::size_t>(rows);
    if (rowBytes > 0 && n > 0)
        std::memcpy(out->tensorData().data(), t.tensorData().data(), static_cast<std::size_t>(n) * rowBytes);
    return out;
}

/// An empty [0] + shape tensor per component (a stream that gave nothing).
Expected<std::vector<Tensor>> emptyComponents(const SourceExamples& e, Allocator& allocator)
{
    std::vector<Tensor> out;
    for (std::size_t i = 0; i < e.names.size(); ++i) {
        TensorShape shape = TensorShape({0}).concatenate(e.shapes[i]);
        auto t = Tensor::allocate(allocator, e.dtypes[i], shape);
        if (!t)
            return unexpected(t.error());
        out.push_back(std::move(*t));
    }
    return out;
}

} // namespace

Expected<SourcePreview> previewSource(const Project& project, std::size_t index, int count, Allocator& allocator)
{
    if (count < 0)
        return unexpected(invalidArgumentError("preview count must be 0 or more, got " + std::to_string(count)));
    auto examples = loadSourceExamples(project, index, allocator, count);
    if (!examples)
        return unexpected(examples.error());
    SourcePreview preview;
    preview.components = examples->names;
    preview.dtypes = examples->dtypes;
    preview.exampleShapes = examples->shapes;
    if (!examples->stream) {
        const std::int64_t n = std::min<std::int64_t>(count, examples->tensors.front().shape().dim(0));
        for (const Tensor& t : examples->tensors) {
            auto rows = firstRows(t, n, allocator);
            if (!rows)
                return unexpected(rows.error());
            preview.examples.push_back(std::move(*rows));
        }
        preview.count = n;
        return preview;
    }
    const std::string where =
        projectLabel(project) + "data.sources[" + std::to_string(index) + "] (" + project.sources[index].type() + ")";
    std::vector<data::Element> elements;
    auto iterator = examples->stream->makeIterator();
    while (static_cast<int>(elements.size()) < count) {
        auto next = iterator->getNext();
        if (!next)
            return unexpected(next.error().message().starts_with(where) ? next.error()
                                                                        : next.error().withContext(where));
        if (!*next)
            break;
        elements.push_back(std::move(**next));
    }
    preview.count = static_cast<std::int64_t>(elements.size());
    auto stacked = elements.empty() ? emptyComponents(*examples, allocator) : data::stackElements(elements, allocator);
    if (!stacked)
        return unexpected(stacked.error());
    preview.examples = std::move(*stacked);
    return preview;
}

} // namespace tstudio::project
