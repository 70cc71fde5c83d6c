// A data source's examples before shuffling and batching: what buildSourcePipeline batches and
// previewSource shows. Internal to the project library.
#pragma once

#include "core/expected.h"
#include "data/dataset.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

/// How one component of the examples becomes components of a batch.
enum class BatchForm {
    kStacked, ///< every example has the component's shape; the batch stacks them: "<name>"
    kSparse,  ///< a 1-D list of any length; the batch is a SparseTensor as tf.io.parse_example gives a
              ///< VarLenFeature: "<name>.indices", "<name>.values", "<name>.dense_shape"
    kPadded,  ///< a 1-D list of any length; the batch pads the lists to the longest: "<name>" and
              ///< "<name>.length"
};

/// One source's examples: whole tensors (in-memory sources) or a stream of elements (tfrecord).
/// names/dtypes/shapes/forms describe the components of one example (a variable-length one has
/// shape [?]); batchComponents (data_sources.h) lists what a batch of them gives, which is what
/// sourceComponents names.
struct SourceExamples {
    std::vector<std::string> names;
    std::vector<DataType> dtypes;
    std::vector<TensorShape> shapes; ///< per example
    std::vector<BatchForm> forms;    ///< per component; empty: every component kStacked
    std::vector<Tensor> padValues;   ///< per component when `forms` is set: the kPadded scalar, else empty
    std::optional<data::Dataset> stream;
    std::vector<Tensor> tensors; ///< [N, ...] each, when !stream

    BatchForm form(std::size_t component) const { return forms.empty() ? BatchForm::kStacked : forms[component]; }
};

/// The examples of project.sources[index], in the sources' own order (unshuffled). With
/// `maxExamples` >= 0 an in-memory source may stop reading after that many examples (the
/// image folder decodes only those; mnist reads skip + maxExamples) - for a preview.
/// Errors are buildSourcePipeline's (data_sources.h), prefixed with the source
/// ("<file>: data.sources[0] (numpy): ...") unless they already name its JSON path.
Expected<SourceExamples> loadSourceExamples(const Project& project, std::size_t index, Allocator& allocator,
                                            std::int64_t maxExamples = -1);
/// The same for a source that is not one of project.sources (an eval source), `path` naming it in
/// errors ("eval.sources[0]").
Expected<SourceExamples> loadSourceExamples(const Project& project, const DataSource& source, const std::string& path,
                                            Allocator& allocator, std::int64_t maxExamples = -1);

/// A word_text source's examples for batches of `batchSize` (loadSourceExamples takes the project's
/// batch size): components "x" and "y", int32 [num_steps], ptb_producer's rows step-major, so that
/// batches of `batchSize` taken in order are its steps (word_text_source.h). `where` prefixes errors.
Expected<SourceExamples> wordTextExamples(const Project& project, const WordTextParams& params,
                                          const std::string& where, std::int64_t batchSize, Allocator& allocator);

/// A skip_gram source's examples: "inputs" (int32 scalar) and "labels" (int64 [1]), the pairs of
/// skip_gram_source.h in text order. `where` prefixes errors.
Expected<SourceExamples> skipGramExamples(const Project& project, const SkipGramParams& params,
                                          const std::string& where, Allocator& allocator);

} // namespace tstudio::project
