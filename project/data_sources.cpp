// The data sources' pipelines: each source's examples (source_examples.h) shuffled, repeated and
// batched, their components picked (or stacked) per fed placeholder.
#include "data_sources.h"

#include "source_examples.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace tstudio::project {
namespace {

/// The shuffle buffer of a tfrecord source without one.
constexpr std::int64_t kDefaultFileShuffleBuffer = 10000;

/// Stacks scalar components of one dtype into a vector [k].
Expected<Tensor> stackScalars(const data::Element& element, const std::vector<std::size_t>& indices, DataType dtype,
                              Allocator& allocator)
{
    auto out = Tensor::allocate(allocator, dtype, TensorShape({static_cast<std::int64_t>(indices.size())}));
    if (!out)
        return unexpected(out.error());
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const Tensor& t = element[indices[i]];
        if (dtype == tensorflow::DT_STRING) {
            out->strings()[i] = t.strings()[0];
        } else {
            const std::size_t size = dataTypeSize(dtype);
            std::memcpy(out->tensorData().data() + i * size, t.tensorData().data(), size);
        }
    }
    return out;
}

} // namespace

std::string projectLabel(const Project& project)
{
    return project.location.empty() ? std::string() : project.location.filename().string() + ": ";
}

Expected<SourcePipeline> buildSourcePipeline(const Project& project, std::size_t index, Allocator& allocator)
{
    if (index >= project.sources.size())
        return unexpected(invalidArgumentError("the project has no data source " + std::to_string(index)));
    return buildSourcePipeline(project, project.sources[index], "data.sources[" + std::to_string(index) + "]",
                               project.batchSize, PipelineMode::kTraining, allocator);
}

Expected<SourcePipeline> buildSourcePipeline(const Project& project, const DataSource& source, const std::string& path,
                                             std::int64_t batchSize, PipelineMode mode, Allocator& allocator)
{
    auto examples = loadSourceExamples(project, source, path, allocator);
    if (!examples)
        return unexpected(examples.error());
    const std::string where = projectLabel(project) + path + " (" + source.type() + ")";

    // Which components each feed takes, and what it gives per example.
    std::vector<FeedSpec> feedSpecs;
    std::vector<std::vector<std::size_t>> picks;
    for (const auto& [placeholder, names] : source.feeds) {
        std::vector<std::size_t> indices;
        for (const std::string& n : names) {
            const auto it = std::find(examples->names.begin(), examples->names.end(), n);
            indices.push_back(static_cast<std::size_t>(it - examples->names.begin()));
        }
        FeedSpec spec{placeholder, examples->dtypes[indices.front()], examples->shapes[indices.front()]};
        if (indices.size() > 1) {
            const std::string feedPath = projectLabel(project) + path + ".feeds." + placeholder;
            for (std::size_t i : indices) {
                if (examples->shapes[i].rank() != 0)
                    return unexpected(invalidArgumentError(
                        feedPath + ": only scalar components can be stacked; '" + examples->names[i] + "' is " +
                        dataTypeString(examples->dtypes[i]) + " " + examples->shapes[i].toString()));
                if (examples->dtypes[i] != spec.dtype)
                    return unexpected(invalidArgumentError(
                        feedPath + ": stacked components must share a dtype; '" + examples->names[i] + "' is " +
                        dataTypeString(examples->dtypes[i]) + " but '" + examples->names[indices.front()] + "' is " +
                        dataTypeString(spec.dtype)));
            }
            spec.exampleShape = TensorShape({static_cast<std::int64_t>(indices.size())});
        }
        feedSpecs.push_back(spec);
        picks.push_back(std::move(indices));
    }

    data::Dataset dataset =
        examples->stream ? *examples->stream : data::Dataset::fromTensorSlices(examples->tensors, allocator);
    std::int64_t buffer = source.shuffleBuffer.value_or(examples->stream ? kDefaultFileShuffleBuffer
                                                                         : examples->tensors.front().shape().dim(0));
    Allocator* alloc = &allocator;
    std::vector<DataType> dtypes;
    for (const FeedSpec& f : feedSpecs)
        dtypes.push_back(f.dtype);
    const bool training = mode == PipelineMode::kTraining;
    if (training)
        dataset = dataset.shuffle(buffer, static_cast<std::uint64_t>(source.shuffleSeed)).repeat();
    SourcePipeline out{std::move(feedSpecs),
                       dataset.map([picks, dtypes, alloc](data::Element element) -> Expected<data::Element> {
                               data::Element feeds;
                               for (std::size_t f = 0; f < picks.size(); ++f) {
                                   if (picks[f].size() == 1) {
                                       feeds.push_back(element[picks[f].front()]);
                                       continue;
                                   }
                                   auto stacked = stackScalars(element, picks[f], dtypes[f], *alloc);
                                   if (!stacked)
                                       return unexpected(stacked.error());
                                   feeds.push_back(std::move(*stacked));
                               }
                               return feeds;
                           })
                           .batch(batchSize, training)};
    if (Status s = out.batches.status(); !s.isOk())
        return unexpected(s.withContext(where));
    return out;
}

} // namespace tstudio::project
