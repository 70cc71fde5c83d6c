// tstudio::summary: the graph-building side of tf.summary (TensorFlow 1.15's summary.py and
// text_summary.py): scalar, histogram, image, audio, text, tensor, merge and mergeAll.
#include "summary/summary.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"

#include <variant>

namespace tstudio::summary {

namespace {

bool isTagCharacter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '/' || c == '.' || c >= 0x80;
}

/// The name scope a summary opens and the tag it writes (summary_scope's (tag, scope) pair); the
/// guard keeps the scope open while the summary's nodes are created.
struct SummaryScope {
    ScopeGuard guard;
    std::string tag;
    std::string scope; ///< with its trailing slash: the op's name argument
};

Expected<SummaryScope> openSummaryScope(GraphBuilder& b, std::string_view rawName, const std::string& rawFamily,
                                        std::string_view defaultName = {})
{
    std::string name = cleanTag(rawName);
    const std::string family = cleanTag(rawFamily);
    if (name.empty())
        name = std::string(defaultName);
    if (name.empty())
        return unexpected(invalidArgumentError("A summary needs a non-empty name"));
    const std::string base = family.empty() ? name : family + "/" + name;
    auto guard = b.nameScope(base);
    if (!guard)
        return unexpected(guard.error());
    SummaryScope result;
    result.scope = guard->name();
    std::string tag = result.scope;
    while (!tag.empty() && tag.back() == '/')
        tag.pop_back();
    result.tag = family.empty() ? tag : family + "/" + tag;
    result.guard = std::move(*guard);
    return result;
}

Expected<Output> stringScalar(GraphBuilder& b, const std::string& value, std::string_view name)
{
    const std::string values[] = {value};
    auto proto = makeStringTensorProto(TensorShape::scalar(), values);
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, name);
}

void collect(GraphBuilder& b, const Output& summary, const std::optional<std::vector<std::string>>& collections,
             std::vector<std::string> defaults)
{
    for (const std::string& key : collections ? *collections : defaults)
        b.collections().add(key, summary);
}

/// The common shape of scalar, histogram and image: Const "tag(s)" in the scope, then the op.
Expected<Output> tagAndTensorSummary(GraphBuilder& b, std::string_view type, std::string_view tagInputName,
                                     std::string_view name, const Output& tensor, AttrMap attrs,
                                     const SummaryOptions& options, std::string_view defaultName = {})
{
    auto scope = openSummaryScope(b, name, options.family, defaultName);
    if (!scope)
        return unexpected(scope.error());
    auto tag = stringScalar(b, scope->tag, tagInputName);
    if (!tag)
        return unexpected(tag.error());
    auto op = b.op(type, {*tag, tensor}, std::move(attrs), scope->scope);
    if (!op)
        return unexpected(op.error());
    collect(b, op->output(0), options.collections, {std::string(graph_keys::kSummaries)});
    return op->output(0);
}

} // namespace

std::string cleanTag(std::string_view name)
{
    std::string cleaned(name);
    for (char& c : cleaned) {
        if (!isTagCharacter(static_cast<unsigned char>(c)))
            c = '_';
    }
    const std::size_t first = cleaned.find_first_not_of('/');
    return first == std::string::npos ? std::string() : cleaned.substr(first);
}

Expected<Output> scalar(GraphBuilder& b, std::string_view name, const Output& tensor, const SummaryOptions& options)
{
    return tagAndTensorSummary(b, "ScalarSummary", "tags", name, tensor, {}, options);
}

Expected<Output> histogram(GraphBuilder& b, std::string_view name, const Output& values, const SummaryOptions& options)
{
    return tagAndTensorSummary(b, "HistogramSummary", "tag", name, values, {}, options, "HistogramSummary");
}

Expected<Output> image(GraphBuilder& b, std::string_view name, const Output& tensor, int maxOutputs,
                       const SummaryOptions& options)
{
    AttrMap attrs;
    attrs["max_images"] = attr::i(maxOutputs);
    return tagAndTensorSummary(b, "ImageSummary", "tag", name, tensor, std::move(attrs), options);
}

Expected<Output> audio(GraphBuilder& b, std::string_view name, const Output& tensor, double sampleRate, int maxOutputs,
                       const SummaryOptions& options)
{
    auto scope = openSummaryScope(b, name, options.family);
    if (!scope)
        return unexpected(scope.error());
    // TensorFlow converts the rate inside the scope before the op helper makes the tag constant.
    auto rate = ops::constant(b, sampleRate, tensorflow::DT_FLOAT, "sample_rate");
    if (!rate)
        return unexpected(rate.error());
    auto tag = stringScalar(b, scope->tag, "tag");
    if (!tag)
        return unexpected(tag.error());
    AttrMap attrs;
    attrs["max_outputs"] = attr::i(maxOutputs);
    auto op = b.op("AudioSummaryV2", {*tag, tensor, *rate}, std::move(attrs), scope->scope);
    if (!op)
        return unexpected(op.error());
    collect(b, op->output(0), options.collections, {std::string(graph_keys::kSummaries)});
    return op->output(0);
}

Expected<Output> tensorSummary(GraphBuilder& b, std::string_view name, const Output& tensor,
                               const tensorflow::SummaryMetadata& metadata, const SummaryOptions& options)
{
    std::string serialized;
    if (!metadata.SerializeToString(&serialized))
        return unexpected(
            internalError("could not serialize the SummaryMetadata of summary '" + std::string(name) + "'"));
    auto scope = openSummaryScope(b, name, options.family);
    if (!scope)
        return unexpected(scope.error());
    auto tag = stringScalar(b, scope->tag, "tag");
    if (!tag)
        return unexpected(tag.error());
    auto meta = stringScalar(b, serialized, "serialized_summary_metadata");
    if (!meta)
        return unexpected(meta.error());
    auto op = b.op("TensorSummaryV2", {*tag, tensor, *meta}, {}, scope->scope);
    if (!op)
        return unexpected(op.error());
    collect(b, op->output(0), options.collections, {std::string(graph_keys::kSummaries)});
    return op->output(0);
}

Expected<Output> text(GraphBuilder& b, std::string_view name, const Output& tensor,
                      std::optional<std::vector<std::string>> collections)
{
    if (tensor.baseDtype() != tensorflow::DT_STRING)
        return unexpected(invalidArgumentError("Expected tensor " + tensor.name() + " to have dtype string, got " +
                                               dataTypeName(tensor.baseDtype())));
    tensorflow::SummaryMetadata metadata;
    metadata.mutable_plugin_data()->set_plugin_name("text");
    metadata.mutable_plugin_data()->set_content("{}");
    SummaryOptions options;
    options.collections = std::move(collections);
    return tensorSummary(b, name, tensor, metadata, options);
}

Expected<Output> merge(GraphBuilder& b, const std::vector<Output>& inputs, const std::vector<std::string>& collections,
                       std::string_view name)
{
    const std::string cleaned = cleanTag(name);
    auto guard = b.nameScope(cleaned.empty() ? "Merge" : cleaned);
    if (!guard)
        return unexpected(guard.error());
    auto op = b.op("MergeSummary", {OpInput(inputs)}, {}, cleaned.empty() ? std::string_view("MergeSummary") : cleaned);
    if (!op)
        return unexpected(op.error());
    collect(b, op->output(0), collections, {});
    return op->output(0);
}

Expected<std::optional<Output>> mergeAll(GraphBuilder& b, std::string_view key, std::string_view scope)
{
    std::vector<Output> inputs;
    for (const CollectionItem& item : b.collections().get(key, scope)) {
        const Output* tensor = std::get_if<Output>(&item);
        if (tensor == nullptr)
            return unexpected(invalidArgumentError("merge_all: collection '" + std::string(key) + "' holds '" +
                                                   collectionItemName(item) + "', which is not a tensor"));
        inputs.push_back(*tensor);
    }
    if (inputs.empty())
        return std::optional<Output>();
    auto merged = merge(b, inputs);
    if (!merged)
        return unexpected(merged.error());
    return std::optional<Output>(*merged);
}

} // namespace tstudio::summary
