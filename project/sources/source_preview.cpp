// previewSource: the source's examples (source_examples.h) cut to the first `count`, or that many
// elements drawn from a streaming source and batched as training batches them.
#include "project/sources/source_preview.h"

#include "project/sources/data_sources.h"
#include "project/sources/source_examples.h"

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

} // namespace

Expected<SourcePreview> previewSource(const Project& project, std::size_t index, int count, Allocator& allocator)
{
    if (count < 0)
        return unexpected(invalidArgumentError("preview count must be 0 or more, got " + std::to_string(count)));
    auto examples = loadSourceExamples(project, index, allocator, count);
    if (!examples)
        return unexpected(examples.error());
    SourcePreview preview;
    const std::vector<BatchComponent> components = batchComponents(*examples);
    for (const BatchComponent& c : components) {
        preview.components.push_back(c.name);
        preview.dtypes.push_back(c.dtype);
        const bool sparse =
            c.part == BatchPart::kIndices || c.part == BatchPart::kValues || c.part == BatchPart::kDenseShape;
        preview.exampleShapes.push_back(sparse ? c.batchShape() : c.exampleShape);
    }
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
    // The examples batched as training batches them (a variable-length feature's sparse or padded form).
    std::vector<Tensor> values(elements.size());
    for (const BatchComponent& c : components) {
        for (std::size_t e = 0; e < elements.size(); ++e)
            values[e] = elements[e][c.element];
        const Tensor none;
        auto part = batchPart(values, c, examples->padValues.empty() ? none : examples->padValues[c.element], allocator);
        if (!part)
            return unexpected(part.error().withContext(where));
        preview.examples.push_back(std::move(*part));
    }
    return preview;
}

} // namespace tstudio::project
