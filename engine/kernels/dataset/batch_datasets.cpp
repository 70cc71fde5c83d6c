// BatchDataset(V2) (batch_size consecutive elements stacked along a new dimension 0) and
// PaddedBatchDataset(V2) (the same, each component padded to padded_shapes, -1 meaning the largest
// size in the batch); drop_remainder drops a last, smaller batch.
#include "kernels/dataset/batch_parse.h"
#include "kernels/dataset/dataset.h"
#include "kernels/dataset/dataset_kernels.h"
#include "kernels/dataset/tensor_rows.h"

#include "framework/kernel_registry.h"

namespace tstudio::tfdata {
namespace {

struct BatchConfig {
    std::int64_t batchSize = 0;
    bool dropRemainder = false;
    bool padded = false;
    std::vector<TensorShape> paddedShapes; ///< -1 where the batch's largest size is used
    Element paddingValues;                 ///< scalars
};

class BatchDataset : public DatasetBase {
public:
    BatchDataset(std::string op, std::string node, std::vector<DataType> types, std::vector<TensorShape> shapes,
                 DatasetPtr input, BatchConfig config)
        : DatasetBase(std::move(op), std::move(node), std::move(types), std::move(shapes)), m_input(std::move(input)),
          m_config(std::move(config))
    {
    }

    Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const override
    {
        if (!m_config.padded) {
            // map(parse_single_example) [-> shuffle] -> batch: batched records, parsed a batch at a time.
            auto parsing = makeBatchParseIterator(*this, m_input, m_config.batchSize, m_config.dropRemainder, env);
            if (!parsing || *parsing)
                return parsing;
        }
        auto input = m_input->makeIterator(env);
        if (!input)
            return unexpected(input.error());
        return std::unique_ptr<DatasetIterator>(
            std::make_unique<Iterator>(self<BatchDataset>(), env, std::move(*input)));
    }

private:
    class Iterator : public DatasetIterator {
    public:
        Iterator(std::shared_ptr<const BatchDataset> dataset, IteratorEnv env, std::unique_ptr<DatasetIterator> input)
            : m_dataset(std::move(dataset)), m_env(std::move(env)), m_input(std::move(input))
        {
        }

        NextResult next() override
        {
            const BatchConfig& config = m_dataset->m_config;
            std::vector<Element> elements;
            while (!m_ended && static_cast<std::int64_t>(elements.size()) < config.batchSize) {
                auto element = m_input->next();
                if (!element)
                    return unexpected(element.error());
                if (!*element) {
                    m_ended = true;
                    break;
                }
                elements.push_back(std::move(**element));
            }
            if (elements.empty() ||
                (config.dropRemainder && static_cast<std::int64_t>(elements.size()) < config.batchSize))
                return std::nullopt;
            Element batch;
            for (std::size_t c = 0; c < elements.front().size(); ++c) {
                auto component = config.padded ? paddedComponent(elements, c) : stackedComponent(elements, c);
                if (!component)
                    return unexpected(component.error().withContext(m_dataset->describe()));
                batch.push_back(std::move(*component));
            }
            return batch;
        }

    private:
        Expected<Tensor> stackedComponent(const std::vector<Element>& elements, std::size_t c)
        {
            const Tensor& first = elements.front()[c];
            for (std::size_t i = 1; i < elements.size(); ++i)
                if (elements[i][c].shape() != first.shape())
                    return unexpected(invalidArgumentError(
                        "Cannot batch tensors with different shapes in component " + std::to_string(c) +
                        ". First element had shape " + first.shape().toString() + " and element " + std::to_string(i) +
                        " had shape " + elements[i][c].shape().toString() + "."));
            std::vector<std::int64_t> dims{static_cast<std::int64_t>(elements.size())};
            dims.insert(dims.end(), first.shape().dims().begin(), first.shape().dims().end());
            auto out = Tensor::allocateUninitialized(*m_env.allocator, first.dtype(), TensorShape(dims));
            if (!out)
                return out;
            for (std::size_t i = 0; i < elements.size(); ++i)
                setRow(*out, static_cast<std::int64_t>(i), elements[i][c]);
            return out;
        }

        Expected<Tensor> paddedComponent(const std::vector<Element>& elements, std::size_t c)
        {
            const BatchConfig& config = m_dataset->m_config;
            const TensorShape& padded = config.paddedShapes[c];
            std::vector<std::int64_t> dims(padded.dims().begin(), padded.dims().end());
            for (std::size_t i = 0; i < elements.size(); ++i) {
                const Tensor& t = elements[i][c];
                if (t.rank() != padded.rank())
                    return unexpected(invalidArgumentError("The padded shape " + padded.toString() + " of component " +
                                                           std::to_string(c) + " has rank " +
                                                           std::to_string(padded.rank()) + " but element " +
                                                           std::to_string(i) + " has shape " + t.shape().toString()));
                for (int d = 0; d < t.rank(); ++d) {
                    if (padded.dim(d) >= 0 && t.shape().dim(d) > padded.dim(d))
                        return unexpected(invalidArgumentError(
                            "Attempted to pad to a smaller size than the input element: component " +
                            std::to_string(c) + " of element " + std::to_string(i) + " has shape " +
                            t.shape().toString() + ", padded shape is " + padded.toString()));
                    if (padded.dim(d) < 0)
                        dims[static_cast<std::size_t>(d)] =
                            std::max(d < static_cast<int>(dims.size()) && dims[static_cast<std::size_t>(d)] >= 0
                                         ? dims[static_cast<std::size_t>(d)]
                                         : 0,
                                     t.shape().dim(d));
                }
            }
            for (std::int64_t& d : dims)
                d = std::max<std::int64_t>(d, 0);
            dims.insert(dims.begin(), static_cast<std::int64_t>(elements.size()));
            const Tensor& padding = config.paddingValues[c];
            auto out = Tensor::allocate(*m_env.allocator, padding.dtype(), TensorShape(dims));
            if (!out)
                return out;
            fillWith(*out, padding);
            for (std::size_t i = 0; i < elements.size(); ++i)
                setPaddedRow(*out, static_cast<std::int64_t>(i), elements[i][c]);
            return out;
        }

        std::shared_ptr<const BatchDataset> m_dataset;
        IteratorEnv m_env;
        std::unique_ptr<DatasetIterator> m_input;
        bool m_ended = false;
    };

    DatasetPtr m_input;
    BatchConfig m_config;
};

/// BatchDataset (no drop_remainder input), BatchDatasetV2, PaddedBatchDataset, PaddedBatchDatasetV2.
template <bool kPadded, bool kV2> class BatchDatasetOp : public DatasetOpKernel {
public:
    explicit BatchDatasetOp(OpKernelConstruction& c) : DatasetOpKernel(c, kPadded ? "Toutput_types" : "output_types") {}

protected:
    Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) override
    {
        auto input = datasetInput(ctx, 0);
        if (!input)
            return unexpected(input.error());
        BatchConfig config;
        config.padded = kPadded;
        auto size = int64Input(ctx, 1, "batch_size");
        if (!size)
            return unexpected(size.error());
        if (*size <= 0)
            return unexpected(invalidArgumentError("Batch size must be greater than zero."));
        config.batchSize = *size;
        if (kV2) {
            auto drop = boolInput(ctx, ctx.numInputs() - 1, "drop_remainder");
            if (!drop)
                return unexpected(drop.error());
            config.dropRemainder = *drop;
        }
        const std::size_t n = (*input)->outputTypes().size();
        if ((*input)->outputTypes() != types())
            return unexpected(invalidArgumentError("the input dataset produces " + std::to_string(n) +
                                                   " components whose dtypes differ from this node's output types"));
        if (kPadded) {
            const int expected = 2 + 2 * static_cast<int>(n) + (kV2 ? 1 : 0);
            if (ctx.numInputs() != expected)
                return unexpected(invalidArgumentError("PaddedBatchDataset needs one padded shape and one padding "
                                                       "value per component (" +
                                                       std::to_string(n) + ")"));
            for (std::size_t c = 0; c < n; ++c) {
                const Tensor& shape = ctx.input(2 + static_cast<int>(c));
                if (shape.dtype() != tensorflow::DT_INT64 || shape.rank() != 1)
                    return unexpected(invalidArgumentError("padded_shapes[" + std::to_string(c) +
                                                           "] must be a vector of int64, got shape " +
                                                           shape.shape().toString()));
                auto values = shape.values<std::int64_t>();
                config.paddedShapes.emplace_back(std::vector<std::int64_t>(values.begin(), values.end()));
                const Tensor& value = ctx.input(2 + static_cast<int>(n + c));
                if (value.numElements() != 1 || value.rank() != 0)
                    return unexpected(invalidArgumentError("padding_values[" + std::to_string(c) +
                                                           "] must be a scalar, got shape " +
                                                           value.shape().toString()));
                config.paddingValues.push_back(value);
            }
        }
        return makeDatasetOf<BatchDataset>(*this, types(), shapes(), std::move(*input), std::move(config));
    }
};

} // namespace

Status registerBatchDatasetKernels(KernelRegistry& registry)
{
    Status s = registry.add<BatchDatasetOp<false, false>>(KernelDef{"BatchDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<BatchDatasetOp<false, true>>(KernelDef{"BatchDatasetV2", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<BatchDatasetOp<true, false>>(KernelDef{"PaddedBatchDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<BatchDatasetOp<true, true>>(KernelDef{"PaddedBatchDatasetV2", "CPU", {}, {}});
    return s;
}

} // namespace tstudio::tfdata
