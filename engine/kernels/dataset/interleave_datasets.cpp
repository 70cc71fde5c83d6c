// FlatMapDataset, InterleaveDataset and ParallelInterleaveDatasetV2/V3/V4: `f` maps each input
// element to a dataset whose elements are interleaved: block_length at a time from each of
// cycle_length open datasets in turn (flat_map: one at a time, to its end). The parallel forms give
// the same order (their deterministic mode) with each open dataset produced ahead on a thread of its
// own; `sloppy` / deterministic=false would allow another order and are served in this one.
#include "kernels/dataset/dataset_function.h"
#include "kernels/dataset/dataset_kernels.h"
#include "kernels/dataset/prefetcher.h"

#include "core/affinity_cores.h"
#include "framework/kernel_registry.h"
#include "framework/node_def_validation.h"

#include <thread>

namespace tstudio::tfdata {
namespace {

struct InterleaveConfig {
    std::int64_t cycleLength = 1;
    std::int64_t blockLength = 1;
    std::size_t prefetch = 0; ///< > 0: each open dataset runs on a Prefetcher with this capacity
};

class InterleaveDataset : public DatasetBase {
public:
    InterleaveDataset(std::string op, std::string node, std::vector<DataType> types, std::vector<TensorShape> shapes,
                      DatasetPtr input, DatasetFunctionPtr fn, InterleaveConfig config)
        : DatasetBase(std::move(op), std::move(node), std::move(types), std::move(shapes)), m_input(std::move(input)),
          m_fn(std::move(fn)), m_config(config)
    {
    }

    Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const override
    {
        auto input = m_input->makeIterator(env);
        if (!input)
            return unexpected(input.error());
        return std::unique_ptr<DatasetIterator>(
            std::make_unique<Iterator>(self<InterleaveDataset>(), env, std::move(*input)));
    }

private:
    class Iterator : public DatasetIterator {
    public:
        Iterator(std::shared_ptr<const InterleaveDataset> dataset, IteratorEnv env,
                 std::unique_ptr<DatasetIterator> input)
            : m_dataset(std::move(dataset)), m_env(std::move(env)), m_input(std::move(input)),
              m_cycle(static_cast<std::size_t>(m_dataset->m_config.cycleLength))
        {
        }

        NextResult next() override
        {
            const InterleaveConfig& config = m_dataset->m_config;
            while (!m_inputEnded || m_open > 0) {
                std::unique_ptr<DatasetIterator>& current = m_cycle[m_index];
                if (current) {
                    auto element = current->next();
                    if (!element)
                        return element;
                    if (*element) {
                        if (++m_block == config.blockLength)
                            advance();
                        return element;
                    }
                    current.reset();
                    --m_open;
                    advance();
                } else if (!m_inputEnded) {
                    auto element = m_input->next();
                    if (!element)
                        return element;
                    if (!*element) {
                        m_inputEnded = true;
                        continue;
                    }
                    auto opened = open(**element);
                    if (!opened)
                        return unexpected(opened.error());
                    current = std::move(*opened);
                    ++m_open;
                } else {
                    advance();
                }
            }
            return std::nullopt;
        }

    private:
        void advance()
        {
            m_block = 0;
            m_index = (m_index + 1) % m_cycle.size();
        }

        /// The iterator of the dataset f(element).
        Expected<std::unique_ptr<DatasetIterator>> open(const Element& element)
        {
            const InterleaveDataset& d = *m_dataset;
            auto result = d.m_fn->call(m_env, element);
            if (!result)
                return unexpected(result.error());
            if (result->size() != 1)
                return unexpected(invalidArgumentError(d.m_fn->where() +
                                                       ": Function `f` must return a single "
                                                       "scalar of dtype DT_VARIANT, it returned " +
                                                       std::to_string(result->size()) + " values"));
            auto inner = datasetFromTensor((*result)[0], d.m_fn->where() + ": its result");
            if (!inner)
                return unexpected(inner.error());
            if ((*inner)->outputTypes() != d.outputTypes())
                return unexpected(invalidArgumentError(
                    d.m_fn->where() + " returns a dataset of (" + dataTypeListString((*inner)->outputTypes()) +
                    ") but output_types is (" + dataTypeListString(d.outputTypes()) + ")"));
            auto it = (*inner)->makeIterator(m_env);
            if (!it || d.m_config.prefetch == 0)
                return it;
            return std::unique_ptr<DatasetIterator>(
                std::make_unique<Prefetcher>(std::move(*it), m_env, d.m_config.prefetch));
        }

        std::shared_ptr<const InterleaveDataset> m_dataset;
        IteratorEnv m_env;
        std::unique_ptr<DatasetIterator> m_input;
        std::vector<std::unique_ptr<DatasetIterator>> m_cycle;
        std::size_t m_index = 0;
        std::int64_t m_block = 0;
        std::int64_t m_open = 0;
        bool m_inputEnded = false;
    };

    DatasetPtr m_input;
    DatasetFunctionPtr m_fn;
    InterleaveConfig m_config;
};

enum class Form { kFlatMap, kInterleave, kParallelV2, kParallelV4 };

template <Form kForm> class InterleaveDatasetOp : public DatasetOpKernel {
public:
    using DatasetOpKernel::DatasetOpKernel;

protected:
    Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) override
    {
        auto input = datasetInput(ctx, 0);
        if (!input)
            return unexpected(input.error());
        auto fn = DatasetFunction::create(ctx, "f", 1, (*input)->outputTypes());
        if (!fn)
            return unexpected(fn.error());
        if ((*fn)->resultTypes() != std::vector<DataType>{tensorflow::DT_VARIANT})
            return unexpected(invalidArgumentError((*fn)->where() + " returns (" +
                                                   dataTypeListString((*fn)->resultTypes()) +
                                                   "): Function `f` must return a single scalar of dtype "
                                                   "DT_VARIANT (a dataset)."));
        InterleaveConfig config;
        // The scalar inputs after other_arguments.
        const int trailing = kForm == Form::kFlatMap      ? 0
                             : kForm == Form::kInterleave ? 2
                             : kForm == Form::kParallelV2 ? 3
                                                          : 5;
        const int first = ctx.numInputs() - trailing;
        if (kForm != Form::kFlatMap) {
            auto cycle = int64Input(ctx, first, "cycle_length");
            auto block = int64Input(ctx, first + 1, "block_length");
            if (!cycle || !block)
                return unexpected(!cycle ? cycle.error() : block.error());
            if (*cycle == -1)
                *cycle = schedulableCores();
            if (*cycle <= 0)
                return unexpected(invalidArgumentError("cycle_length must be greater than zero."));
            if (*block <= 0)
                return unexpected(invalidArgumentError("block_length must be greater than zero."));
            config.cycleLength = *cycle;
            config.blockLength = *block;
        }
        if (kForm == Form::kParallelV2 || kForm == Form::kParallelV4) {
            auto calls = int64Input(ctx, ctx.numInputs() - 1, "num_parallel_calls");
            if (!calls)
                return unexpected(calls.error());
            if (*calls <= 0 && *calls != -1)
                return unexpected(invalidArgumentError("num_parallel_calls must be greater than zero."));
            std::int64_t buffer = config.blockLength;
            if (kForm == Form::kParallelV4) {
                auto output = int64Input(ctx, first + 2, "buffer_output_elements");
                if (!output)
                    return unexpected(output.error());
                if (*output > 0)
                    buffer = *output;
            }
            config.prefetch = static_cast<std::size_t>(std::max<std::int64_t>(1, buffer));
        }
        return makeDatasetOf<InterleaveDataset>(*this, types(), shapes(), std::move(*input), std::move(*fn), config);
    }
};

} // namespace

Status registerInterleaveDatasetKernels(KernelRegistry& registry)
{
    Status s = registry.add<InterleaveDatasetOp<Form::kFlatMap>>(KernelDef{"FlatMapDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<InterleaveDatasetOp<Form::kInterleave>>(KernelDef{"InterleaveDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<InterleaveDatasetOp<Form::kParallelV2>>(
            KernelDef{"ParallelInterleaveDatasetV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<InterleaveDatasetOp<Form::kParallelV2>>(
            KernelDef{"ParallelInterleaveDatasetV3", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<InterleaveDatasetOp<Form::kParallelV4>>(
            KernelDef{"ParallelInterleaveDatasetV4", "CPU", {}, {}});
    return s;
}

} // namespace tstudio::tfdata
