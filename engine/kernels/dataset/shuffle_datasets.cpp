// ShuffleDataset(V2/V3): a buffer of buffer_size elements from which a random one is handed out and
// replaced by the next input element; and the seed generator resources (AnonymousSeedGenerator,
// AnonymousRandomSeedGenerator, DummySeedGenerator, Delete*SeedGenerator) the V2/V3 forms take.
//
// Seeds follow TensorFlow's documented rules: seed == seed2 == 0 draws fresh random seeds (a
// nondeterministic order); otherwise the order is reproducible from (seed, seed2). With
// reshuffle_each_iteration every new iterator (every epoch under repeat) gets the next seeds of a
// generator started from (seed, seed2), so epochs differ but the sequence of epochs is reproducible;
// without it every iterator repeats the same order. The order itself is this engine's (a Mersenne
// Twister over the buffer), not TensorFlow's.
#include "kernels/dataset/dataset.h"
#include "kernels/dataset/dataset_kernels.h"
#include "kernels/dataset/dataset_resources.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"

#include <mutex>
#include <random>

namespace tstudio::tfdata {
namespace {

constexpr std::string_view kSeedGeneratorType = "N10tensorflow4data13SeedGeneratorE";

/// (seed, seed2) pairs for successive iterators.
class SeedGenerator : public Resource {
public:
    SeedGenerator(std::int64_t seed, std::int64_t seed2, bool reshuffle, bool dummy = false)
        : m_reshuffle(reshuffle), m_dummy(dummy)
    {
        if (seed == 0 && seed2 == 0) {
            std::random_device device;
            seed = static_cast<std::int64_t>((std::uint64_t{device()} << 32) | device());
            seed2 = static_cast<std::int64_t>((std::uint64_t{device()} << 32) | device());
        }
        m_seed = seed;
        m_seed2 = seed2;
        std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                               static_cast<std::uint32_t>(seed2), static_cast<std::uint32_t>(seed2 >> 32)};
        m_rng.seed(sequence);
    }

    /// The seeds of the next iterator.
    std::pair<std::uint64_t, std::uint64_t> next()
    {
        std::lock_guard lock(m_mutex);
        if (!m_reshuffle)
            return {static_cast<std::uint64_t>(m_seed), static_cast<std::uint64_t>(m_seed2)};
        const std::uint64_t a = m_rng();
        return {a, m_rng()};
    }
    bool isDummy() const { return m_dummy; }
    std::string debugString() const override { return "SeedGenerator"; }

private:
    std::int64_t m_seed = 0, m_seed2 = 0;
    bool m_reshuffle;
    bool m_dummy;
    std::mutex m_mutex;
    std::mt19937_64 m_rng;
};

class ShuffleDataset : public DatasetBase {
public:
    ShuffleDataset(std::string op, std::string node, std::vector<DataType> types, std::vector<TensorShape> shapes,
                   DatasetPtr input, std::int64_t bufferSize, std::shared_ptr<SeedGenerator> seeds)
        : DatasetBase(std::move(op), std::move(node), std::move(types), std::move(shapes)), m_input(std::move(input)),
          m_bufferSize(bufferSize), m_seeds(std::move(seeds))
    {
    }

    Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const override
    {
        auto input = m_input->makeIterator(env);
        if (!input)
            return unexpected(input.error());
        return std::unique_ptr<DatasetIterator>(
            std::make_unique<Iterator>(self<ShuffleDataset>(), std::move(*input), m_seeds->next()));
    }

    // The order depends only on the seeds and the buffer, not on the elements: the copy over another
    // input shares the seed generator, so its iterators draw the seeds this dataset's would have.
    DatasetPtr reorderedInput() const override { return m_input; }
    DatasetPtr reorderingOver(DatasetPtr input) const override
    {
        std::vector<DataType> types = input->outputTypes();
        std::vector<TensorShape> shapes = input->outputShapes();
        return std::make_shared<const ShuffleDataset>(op(), nodeName(), std::move(types), std::move(shapes),
                                                      std::move(input), m_bufferSize, m_seeds);
    }

private:
    class Iterator : public DatasetIterator {
    public:
        Iterator(std::shared_ptr<const ShuffleDataset> dataset, std::unique_ptr<DatasetIterator> input,
                 std::pair<std::uint64_t, std::uint64_t> seeds)
            : m_dataset(std::move(dataset)), m_input(std::move(input))
        {
            std::seed_seq sequence{
                static_cast<std::uint32_t>(seeds.first), static_cast<std::uint32_t>(seeds.first >> 32),
                static_cast<std::uint32_t>(seeds.second), static_cast<std::uint32_t>(seeds.second >> 32)};
            m_rng.seed(sequence);
        }

        NextResult next() override
        {
            while (!m_inputEnded && static_cast<std::int64_t>(m_buffer.size()) < m_dataset->m_bufferSize) {
                auto element = m_input->next();
                if (!element)
                    return element;
                if (!*element)
                    m_inputEnded = true;
                else
                    m_buffer.push_back(std::move(**element));
            }
            if (m_buffer.empty())
                return std::nullopt;
            const std::size_t index = static_cast<std::size_t>(m_rng() % m_buffer.size());
            Element out = std::move(m_buffer[index]);
            m_buffer[index] = std::move(m_buffer.back());
            m_buffer.pop_back();
            return out;
        }

    private:
        std::shared_ptr<const ShuffleDataset> m_dataset;
        std::unique_ptr<DatasetIterator> m_input;
        std::vector<Element> m_buffer;
        bool m_inputEnded = false;
        std::mt19937_64 m_rng;
    };

    DatasetPtr m_input;
    std::int64_t m_bufferSize;
    std::shared_ptr<SeedGenerator> m_seeds;
};

enum class ShuffleForm { kV1, kV2, kV3 };

template <ShuffleForm kForm> class ShuffleDatasetOp : public DatasetOpKernel {
public:
    explicit ShuffleDatasetOp(OpKernelConstruction& c) : DatasetOpKernel(c)
    {
        if (kForm != ShuffleForm::kV2) {
            auto reshuffle = attrBool(c.node(), "reshuffle_each_iteration");
            m_reshuffle = reshuffle.value_or(true);
        }
    }

protected:
    Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) override
    {
        auto input = datasetInput(ctx, 0);
        if (!input)
            return unexpected(input.error());
        if ((*input)->outputTypes() != types())
            return unexpected(invalidArgumentError("the input dataset's dtypes differ from output_types"));
        auto buffer = int64Input(ctx, 1, "buffer_size");
        if (!buffer)
            return unexpected(buffer.error());
        if (*buffer <= 0)
            return unexpected(invalidArgumentError("buffer_size must be greater than zero."));
        std::shared_ptr<SeedGenerator> seeds;
        if (kForm != ShuffleForm::kV1) {
            auto generator = resourceInput<SeedGenerator>(ctx, kForm == ShuffleForm::kV2 ? 2 : 4, kSeedGeneratorType);
            if (!generator)
                return unexpected(generator.error());
            // V3 with a dummy generator takes its seeds from its inputs (V2 has no others).
            if (!(*generator)->isDummy() || kForm == ShuffleForm::kV2)
                seeds = *generator;
        }
        if (!seeds) {
            auto seed = int64Input(ctx, 2, "seed");
            auto seed2 = int64Input(ctx, 3, "seed2");
            if (!seed || !seed2)
                return unexpected(!seed ? seed.error() : seed2.error());
            seeds = std::make_shared<SeedGenerator>(*seed, *seed2, m_reshuffle);
        }
        return makeDatasetOf<ShuffleDataset>(*this, types(), shapes(), std::move(*input), *buffer, std::move(seeds));
    }

private:
    bool m_reshuffle = true;
};

/// AnonymousSeedGenerator(seed, seed2, reshuffle), AnonymousRandomSeedGenerator(seed, seed2) and
/// DummySeedGenerator: a new generator per run, its handle (and a deleter).
template <int kInputs, bool kDeleter> class SeedGeneratorOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        std::shared_ptr<SeedGenerator> generator;
        if (kInputs == 0) {
            generator = std::make_shared<SeedGenerator>(1, 1, false, /*dummy=*/true);
        } else {
            auto seed = int64Input(ctx, 0, "seed");
            auto seed2 = int64Input(ctx, 1, "seed2");
            if (!seed || !seed2)
                return !seed ? seed.error() : seed2.error();
            bool reshuffle = true;
            if (kInputs == 3) {
                auto value = boolInput(ctx, 2, "reshuffle");
                if (!value)
                    return value.error();
                reshuffle = *value;
            }
            generator = std::make_shared<SeedGenerator>(*seed, *seed2, reshuffle);
        }
        const std::string name = anonymousName("SeedGenerator");
        auto stored = ctx.resources().lookupOrCreate<SeedGenerator>(
            ResourceManager::kDefaultContainer, name,
            [&]() -> Expected<std::shared_ptr<SeedGenerator>> { return generator; });
        if (!stored)
            return stored.error();
        if (Status s = setHandleOutput(
                ctx, 0, makeResourceHandle(ctx, ResourceManager::kDefaultContainer, name, kSeedGeneratorType));
            !s.isOk())
            return s;
        return kDeleter ? setDeleterOutput(ctx, 1) : Status::ok();
    }
};

/// DeleteSeedGenerator / DeleteRandomSeedGenerator: removes the generator its handle names.
class DeleteSeedGeneratorOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto handle = handleInput(ctx, 0, kSeedGeneratorType);
        if (!handle)
            return handle.error();
        return ctx.resources().remove(handle->container, handle->name);
    }
};

} // namespace

Status registerShuffleDatasetKernels(KernelRegistry& registry)
{
    Status s = registry.add<ShuffleDatasetOp<ShuffleForm::kV1>>(KernelDef{"ShuffleDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ShuffleDatasetOp<ShuffleForm::kV2>>(KernelDef{"ShuffleDatasetV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ShuffleDatasetOp<ShuffleForm::kV3>>(KernelDef{"ShuffleDatasetV3", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<SeedGeneratorOp<3, true>>(KernelDef{"AnonymousSeedGenerator", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<SeedGeneratorOp<2, true>>(KernelDef{"AnonymousRandomSeedGenerator", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<SeedGeneratorOp<0, false>>(KernelDef{"DummySeedGenerator", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<DeleteSeedGeneratorOp>(KernelDef{"DeleteSeedGenerator", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<DeleteSeedGeneratorOp>(KernelDef{"DeleteRandomSeedGenerator", "CPU", {}, {}});
    return s;
}

} // namespace tstudio::tfdata
