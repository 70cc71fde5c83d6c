// previewSource: the first examples of a project's data source, unshuffled, for showing what a
// source gives before training (Qt-free; the GUI runs it on a worker thread).
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"
#include "project/format/project_file.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tstudio::project {

/// What previewSource read: per component (in sourceComponents order) its dtype, its shape per
/// example, and the previewed examples stacked as [n] + exampleShape, n = min(count, examples).
/// A tfrecord source's variable-length feature shows the n examples as one batch of them: a
/// padded one as "<name>" [n, longest] ([?] per example) and "<name>.length" [n]; a sparse one as
/// "<name>.indices" [nnz, 2], "<name>.values" [nnz] and "<name>.dense_shape" [2], whose
/// exampleShapes are those batch shapes ([?,2], [?], [2]).
struct SourcePreview {
    std::vector<std::string> components;
    std::vector<DataType> dtypes;
    std::vector<TensorShape> exampleShapes;
    std::vector<Tensor> examples;
    std::int64_t count = 0; ///< n
};

/// The first `count` (>= 0) examples of project.sources[index] in the source's own order (no
/// shuffle, no repeat, no batching; skip/take applied). Reads no more than it needs where the
/// source allows (an image folder decodes `count` images, a tfrecord source parses `count`
/// records, mnist without a take reads skip + count). Errors are buildSourcePipeline's (naming
/// the project file, the source and the data file), plus InvalidArgument "the project has no data
/// source 3" and "preview count must be 0 or more, got -1".
/// Threads: any; `allocator` must outlive the returned tensors.
Expected<SourcePreview> previewSource(const Project& project, std::size_t index, int count, Allocator& allocator);

} // namespace tstudio::project
