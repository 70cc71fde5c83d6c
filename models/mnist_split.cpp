// loadMnistSplit and mnistTrainingBatches.
#include "mnist_split.h"

#include "data/mnist.h"
#include "image_shift.h"

#include <cstring>
#include <memory>
#include <random>

namespace tstudio::examples {
namespace {

std::filesystem::path existing(const std::filesystem::path& dir, const std::string& name)
{
    const std::filesystem::path gz = dir / (name + ".gz");
    return std::filesystem::exists(gz) ? gz : dir / name;
}

Expected<Tensor> rowRange(const Tensor& t, std::int64_t begin, std::int64_t end, Allocator& allocator)
{
    std::vector<std::int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    const std::size_t rowBytes = t.tensorData().size() / static_cast<std::size_t>(dims[0]);
    dims[0] = end - begin;
    auto out = Tensor::allocate(allocator, t.dtype(), TensorShape(dims));
    if (!out)
        return unexpected(out.error());
    std::memcpy(out->tensorData().data(), t.tensorData().data() + static_cast<std::size_t>(begin) * rowBytes,
                static_cast<std::size_t>(end - begin) * rowBytes);
    return std::move(*out);
}

} // namespace

Expected<MnistSplit> loadMnistSplit(const std::filesystem::path& dir, std::int64_t trainCount, Allocator& allocator,
                                    const std::string& set)
{
    const auto images = existing(dir, set + "-images-idx3-ubyte");
    auto data = data::loadMnist(images, existing(dir, set + "-labels-idx1-ubyte"), allocator);
    if (!data)
        return unexpected(data.error());
    const std::int64_t n = data->images.shape().dim(0);
    if (trainCount < 1 || trainCount >= n)
        return unexpected(invalidArgumentError(images.string() + ": " + std::to_string(n) +
                                               " images, too few to train on the first " + std::to_string(trainCount) +
                                               " and keep the rest for evaluation"));
    MnistSplit split;
    for (auto [target, source, begin, end] :
         {std::tuple{&split.trainImages, &data->images, std::int64_t{0}, trainCount},
          std::tuple{&split.trainLabels, &data->labels, std::int64_t{0}, trainCount},
          std::tuple{&split.evalImages, &data->images, trainCount, n},
          std::tuple{&split.evalLabels, &data->labels, trainCount, n}}) {
        auto part = rowRange(*source, begin, end, allocator);
        if (!part)
            return unexpected(part.error());
        *target = std::move(*part);
    }
    return split;
}

data::Dataset mnistTrainingBatches(const Tensor& images, const Tensor& labels, Allocator& allocator,
                                   const MnistBatchOptions& options)
{
    data::Dataset batches = data::Dataset::fromTensorSlices({images, labels}, allocator)
                                .shuffle(images.shape().dim(0), options.seed)
                                .repeat()
                                .batch(options.batchSize, /*dropRemainder=*/true);
    if (options.maxShift > 0) {
        // The map runs on the prefetch thread, one batch at a time: the generator needs no lock.
        auto engine = std::make_shared<std::mt19937_64>(options.seed);
        const int maxShift = options.maxShift;
        batches = batches.map([engine, maxShift, &allocator](data::Element element) -> Expected<data::Element> {
            auto shifted = randomShiftImages(element[0], 28, 28, maxShift, *engine, allocator);
            if (!shifted)
                return unexpected(shifted.error());
            element[0] = std::move(*shifted);
            return element;
        });
    }
    return options.prefetch > 0 ? batches.prefetch(options.prefetch) : batches;
}

} // namespace tstudio::examples
