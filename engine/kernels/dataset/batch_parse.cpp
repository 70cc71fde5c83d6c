// Batched parsing of map(parse_single_example) [-> shuffle] -> batch: recognising the map's function and
// the iterator that parses a batch of records at once.
#include "kernels/dataset/batch_parse.h"

#include "data/example_parser.h"
#include "framework/node_attrs.h"
#include "function/function_instantiation.h"
#include "graph/tensor_id.h"

#include <atomic>
#include <map>

namespace tstudio::tfdata {
namespace {

std::atomic<std::int64_t> g_iteratorsMade{0};

/// The dense ParseSingleExample a function body is, or nullptr.
std::shared_ptr<ParsingMap> denseParse(const FunctionBody& body)
{
    if (body.argTypes != std::vector<DataType>{tensorflow::DT_STRING} || body.retTypes.empty() ||
        !body.controlRetNodes.empty())
        return nullptr;
    const tensorflow::NodeDef* parse = nullptr;
    std::map<std::string, const tensorflow::NodeDef*> consts;
    for (const auto& node : body.graph.node()) {
        if (node.op() == "ParseSingleExample") {
            if (parse)
                return nullptr;
            parse = &node;
        } else if (node.op() == "Const") {
            consts[node.name()] = &node;
        } else if (node.op() != "_Arg" && node.op() != "_Retval") {
            return nullptr;
        }
    }
    if (!parse)
        return nullptr;
    auto numSparse = attrInt(*parse, "num_sparse");
    auto keys = attrStringList(*parse, "dense_keys");
    auto types = attrTypeList(*parse, "Tdense");
    auto shapes = attrShapeList(*parse, "dense_shapes");
    if (!numSparse || *numSparse != 0 || !keys || !types || !shapes || keys->size() != types->size() ||
        keys->size() != shapes->size() || keys->size() != body.retTypes.size())
        return nullptr;
    for (const TensorShape& shape : *shapes)
        if (!shape.isFullyDefined())
            return nullptr; // variable-length features: a batch pads them, single examples do not
    if (parse->input_size() != static_cast<int>(keys->size()) + 1)
        return nullptr;
    const auto record = parseTensorId(parse->input(0));
    if (!record || !(*record == TensorId{body.argNodes.at(0), 0}))
        return nullptr;
    auto map = std::make_shared<ParsingMap>();
    for (std::size_t i = 0; i < keys->size(); ++i) {
        const auto input = parseTensorId(parse->input(static_cast<int>(i) + 1));
        const auto c = input ? consts.find(input->node) : consts.end();
        if (!input || input->index != 0 || c == consts.end())
            return nullptr;
        const tensorflow::AttrValue* value = findAttr(*c->second, "value");
        if (!value || !value->has_tensor())
            return nullptr;
        map->defaults.push_back(value->tensor());
        // Result i is dense value i (with no sparse features, dense_values are outputs 0, 1, ...).
        if (body.retTensors.at(i) != parse->name() + ":" + std::to_string(i))
            return nullptr;
    }
    map->keys = std::move(*keys);
    map->types = std::move(*types);
    map->shapes = std::move(*shapes);
    return map;
}

/// Batches of records from `records` (one string per element), parsed at once.
class BatchParseIterator : public DatasetIterator {
public:
    BatchParseIterator(std::shared_ptr<const DatasetBase> batch, std::shared_ptr<const ParsingMap> map,
                       data::ExampleFeatures features, std::unique_ptr<DatasetIterator> records, std::int64_t batchSize,
                       bool dropRemainder, IteratorEnv env)
        : m_batch(std::move(batch)), m_map(std::move(map)), m_features(std::move(features)),
          m_records(std::move(records)), m_batchSize(batchSize), m_dropRemainder(dropRemainder), m_env(std::move(env))
    {
    }

    NextResult next() override
    {
        // The records stay in their elements; the parser reads them there.
        std::vector<Element> records;
        while (!m_ended && static_cast<std::int64_t>(records.size()) < m_batchSize) {
            auto element = m_records->next();
            if (!element)
                return unexpected(element.error());
            if (!*element) {
                m_ended = true;
                break;
            }
            const Element& record = **element;
            if (record.size() != 1 || record[0].dtype() != tensorflow::DT_STRING || record[0].numElements() != 1)
                return unexpected(internalError(m_batch->describe() + ": a record to parse is not one string"));
            records.push_back(std::move(**element));
        }
        if (records.empty() || (m_dropRemainder && static_cast<std::int64_t>(records.size()) < m_batchSize))
            return std::nullopt;
        std::vector<std::string_view> serialized;
        serialized.reserve(records.size());
        for (const Element& record : records)
            serialized.push_back(record[0].strings()[0]);
        auto parsed = data::parseExample(serialized, m_features, *m_env.allocator);
        if (!parsed)
            return unexpected(firstRecordError(serialized, parsed.error()));
        Element out;
        for (const std::string& key : m_map->keys)
            out.push_back(std::move(parsed->dense.at(key)));
        if (Status s = checkElement(out, m_batch->outputTypes(), m_batch->outputShapes(), m_batch->describe());
            !s.isOk())
            return unexpected(s);
        return out;
    }

private:
    /// The error the map's own function gives the first record it fails on: the same error, in the same
    /// words, as without the rewrite.
    Status firstRecordError(const std::vector<std::string_view>& serialized, const Status& batchError) const
    {
        for (const std::string_view record : serialized) {
            auto tensor = Tensor::allocate(*m_env.allocator, tensorflow::DT_STRING, TensorShape::scalar());
            if (!tensor)
                return tensor.error();
            tensor->strings()[0] = std::string(record);
            auto result = m_map->function->call(m_env, Element{std::move(*tensor)});
            if (!result)
                return result.error();
        }
        return batchError.withContext(m_map->function->where());
    }

    std::shared_ptr<const DatasetBase> m_batch;
    std::shared_ptr<const ParsingMap> m_map;
    data::ExampleFeatures m_features;
    std::unique_ptr<DatasetIterator> m_records;
    std::int64_t m_batchSize;
    bool m_dropRemainder;
    IteratorEnv m_env;
    bool m_ended = false;
};

} // namespace

std::shared_ptr<const ParsingMap> parsingMapOf(const DatasetPtr& input, const DatasetFunctionPtr& function,
                                               const std::vector<TensorShape>& shapes)
{
    if (!input || !function || function->capturesArguments() ||
        input->outputTypes() != std::vector<DataType>{tensorflow::DT_STRING})
        return nullptr;
    auto map = denseParse(function->body());
    if (!map || shapes.size() != map->shapes.size())
        return nullptr;
    for (std::size_t i = 0; i < shapes.size(); ++i)
        if (!shapes[i].isCompatibleWith(map->shapes[i]))
            return nullptr;
    map->input = input;
    map->function = function;
    return map;
}

Expected<std::unique_ptr<DatasetIterator>> makeBatchParseIterator(const DatasetBase& batch, const DatasetPtr& input,
                                                                  std::int64_t batchSize, bool dropRemainder,
                                                                  const IteratorEnv& env)
{
    // Down through the datasets that only reorder elements, to a parsing map.
    std::vector<const DatasetBase*> reorders;
    const DatasetBase* d = input.get();
    while (d && d->reorderedInput()) {
        reorders.push_back(d);
        d = d->reorderedInput().get();
    }
    const std::shared_ptr<const ParsingMap> map = d ? d->parsingMap() : nullptr;
    if (!map || batchSize <= 0)
        return std::unique_ptr<DatasetIterator>();
    data::ExampleFeatures features;
    for (std::size_t i = 0; i < map->keys.size(); ++i) {
        data::FixedLenFeature feature;
        feature.key = map->keys[i];
        feature.dtype = map->types[i];
        feature.shape = map->shapes[i];
        auto value = Tensor::fromProto(*env.allocator, map->defaults[i]);
        if (!value || value->dtype() != feature.dtype)
            return std::unique_ptr<DatasetIterator>(); // the function's own call reports it
        if (value->numElements() > 0)
            feature.defaultValue = std::move(*value);
        features.dense.push_back(std::move(feature));
    }
    // The same reordering over the records (a shuffle draws the same positions whatever its elements).
    DatasetPtr records = map->input;
    for (auto it = reorders.rbegin(); it != reorders.rend(); ++it) {
        records = (*it)->reorderingOver(records);
        if (!records)
            return std::unique_ptr<DatasetIterator>();
    }
    auto recordIterator = records->makeIterator(env);
    if (!recordIterator)
        return unexpected(recordIterator.error());
    g_iteratorsMade.fetch_add(1, std::memory_order_relaxed);
    return std::unique_ptr<DatasetIterator>(std::make_unique<BatchParseIterator>(
        batch.shared_from_this(), map, std::move(features), std::move(*recordIterator), batchSize, dropRemainder, env));
}

std::int64_t batchParseIteratorsMade()
{
    return g_iteratorsMade.load(std::memory_order_relaxed);
}

} // namespace tstudio::tfdata
