// MapDataset (f applied to each element, on the caller's thread) and FilterDataset (the elements
// for which `predicate` returns true).
#include "kernels/dataset/batch_parse.h"
#include "kernels/dataset/dataset_function.h"
#include "kernels/dataset/dataset_kernels.h"

#include "framework/kernel_registry.h"
#include "framework/node_def_validation.h"

namespace tstudio::tfdata {

Status checkMapFunctionTypes(const DatasetFunction& fn, const std::vector<DataType>& types)
{
    if (fn.resultTypes() != types)
        return invalidArgumentError(fn.where() + " returns " + std::to_string(fn.resultTypes().size()) + " values (" +
                                    dataTypeListString(fn.resultTypes()) + "), but output_types lists " +
                                    std::to_string(types.size()) + " (" + dataTypeListString(types) + ")");
    return Status::ok();
}

Expected<Element> applyMapFunction(const DatasetFunction& fn, const IteratorEnv& env, const Element& element,
                                   const std::vector<DataType>& types, const std::vector<TensorShape>& shapes)
{
    auto result = fn.call(env, element);
    if (!result)
        return result;
    if (Status s = checkElement(*result, types, shapes, fn.where() + " (its result)"); !s.isOk())
        return unexpected(s);
    return result;
}

namespace {

class MapDataset : public DatasetBase {
public:
    MapDataset(std::string op, std::string node, std::vector<DataType> types, std::vector<TensorShape> shapes,
               DatasetPtr input, DatasetFunctionPtr fn, bool filter)
        : DatasetBase(std::move(op), std::move(node), std::move(types), std::move(shapes)), m_input(std::move(input)),
          m_fn(std::move(fn)), m_filter(filter), m_parsing(filter ? nullptr : parsingMapOf(m_input, m_fn, outputShapes()))
    {
    }

    std::shared_ptr<const ParsingMap> parsingMap() const override { return m_parsing; }

    Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const override
    {
        auto input = m_input->makeIterator(env);
        if (!input)
            return unexpected(input.error());
        return std::unique_ptr<DatasetIterator>(std::make_unique<Iterator>(self<MapDataset>(), env, std::move(*input)));
    }

private:
    class Iterator : public DatasetIterator {
    public:
        Iterator(std::shared_ptr<const MapDataset> dataset, IteratorEnv env, std::unique_ptr<DatasetIterator> input)
            : m_dataset(std::move(dataset)), m_env(std::move(env)), m_input(std::move(input))
        {
        }
        NextResult next() override
        {
            const MapDataset& d = *m_dataset;
            while (true) {
                auto element = m_input->next();
                if (!element || !*element)
                    return element;
                if (!d.m_filter) {
                    auto mapped = applyMapFunction(*d.m_fn, m_env, **element, d.outputTypes(), d.outputShapes());
                    if (!mapped)
                        return unexpected(mapped.error());
                    return std::optional<Element>(std::move(*mapped));
                }
                auto keep = d.m_fn->call(m_env, **element);
                if (!keep)
                    return unexpected(keep.error());
                if (keep->size() != 1 || (*keep)[0].dtype() != tensorflow::DT_BOOL || (*keep)[0].numElements() != 1 ||
                    (*keep)[0].rank() != 0)
                    return unexpected(
                        invalidArgumentError(d.m_fn->where() + ": Filter predicate `f` must return a scalar bool."));
                if ((*keep)[0].scalar<bool>())
                    return element;
            }
        }

    private:
        std::shared_ptr<const MapDataset> m_dataset;
        IteratorEnv m_env;
        std::unique_ptr<DatasetIterator> m_input;
    };

    DatasetPtr m_input;
    DatasetFunctionPtr m_fn;
    bool m_filter;
    std::shared_ptr<const ParsingMap> m_parsing; ///< when f is a dense parse_single_example (batch_parse.h)
};

template <bool kFilter> class MapDatasetOp : public DatasetOpKernel {
public:
    using DatasetOpKernel::DatasetOpKernel;

protected:
    Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) override
    {
        auto input = datasetInput(ctx, 0);
        if (!input)
            return unexpected(input.error());
        auto fn = DatasetFunction::create(ctx, kFilter ? "predicate" : "f", 1, (*input)->outputTypes());
        if (!fn)
            return unexpected(fn.error());
        if (kFilter) {
            if ((*input)->outputTypes() != types())
                return unexpected(invalidArgumentError(
                    "the input dataset's output_types (" + dataTypeListString((*input)->outputTypes()) +
                    ") differ from this node's (" + dataTypeListString(types()) + ")"));
            if ((*fn)->resultTypes() != std::vector<DataType>{tensorflow::DT_BOOL})
                return unexpected(invalidArgumentError((*fn)->where() + " returns (" +
                                                       dataTypeListString((*fn)->resultTypes()) +
                                                       "): Filter predicate `f` must return a scalar bool."));
        } else if (Status s = checkMapFunctionTypes(**fn, types()); !s.isOk()) {
            return unexpected(s);
        }
        return makeDatasetOf<MapDataset>(*this, types(), shapes(), std::move(*input), std::move(*fn), kFilter);
    }
};

} // namespace

Status registerMapDatasetKernels(KernelRegistry& registry)
{
    Status s = registry.add<MapDatasetOp<false>>(KernelDef{"MapDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<MapDatasetOp<true>>(KernelDef{"FilterDataset", "CPU", {}, {}});
    return s;
}

} // namespace tstudio::tfdata
