// Evaluation of a document node through the engine's Session, and feeds typed as text.
#include "node_editor/node_evaluation.h"

#include "core/ascii_text.h"
#include "framework/allocator.h"
#include "graph/tensor_id.h"
#include "io/npy.h"
#include "node_editor/document_builder.h"
#include "node_editor/interactive_session.h"
#include "registries/default_registries.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace tstudio::node_editor {
namespace {

std::string nodeOf(const std::string& tensor)
{
    const auto id = parseTensorId(tensor);
    return id ? id->node : tensor;
}

/// The document built with node `id` in it, or why `id` cannot be evaluated.
struct BuiltNode {
    DocumentBuild build;
    DocNodeId id = kNoNode;
    /// The node's output tensors in the built graph.
    const std::vector<std::string>& tensors() const { return build.tensors.at(id); }
};

Expected<BuiltNode> buildForEvaluation(const GraphDocument& document, const Registries& registries, DocNodeId id)
{
    const DocNode* node = document.node(id);
    if (!node)
        return unexpected(notFoundError("no such node"));
    BuiltNode built{buildDocument(document, registries.ops, true), id};
    const auto problem = built.build.problems.find(id);
    if (problem != built.build.problems.end())
        return unexpected(invalidArgumentError("node '" + node->name + "' cannot be evaluated: " + problem->second));
    if (!built.build.builder || !built.build.tensors.count(id))
        return unexpected(invalidArgumentError("node '" + node->name + "' was not built"));
    return built;
}

template <typename T>
Expected<Tensor> fill(Allocator& allocator, const TensorShape& shape, const std::vector<double>& numbers, std::int64_t count)
{
    std::vector<T> values(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
        values[static_cast<std::size_t>(i)] = static_cast<T>(numbers.size() == 1 ? numbers[0] : numbers[static_cast<std::size_t>(i)]);
    return Tensor::fromVector<T>(allocator, shape, values);
}

} // namespace

Expected<std::vector<FeedSpec>> evaluationFeeds(const GraphDocument& document, const Registries& registries, DocNodeId id)
{
    auto built = buildForEvaluation(document, registries, id);
    if (!built)
        return unexpected(built.error());
    const tensorflow::GraphDef& graph = built->build.builder->graphDef();
    std::map<std::string, const tensorflow::NodeDef*> byName;
    for (const auto& n : graph.node())
        byName[n.name()] = &n;
    std::set<std::string> seen;
    std::vector<std::string> stack;
    for (const std::string& t : built->tensors())
        stack.push_back(nodeOf(t));
    std::vector<FeedSpec> feeds;
    while (!stack.empty()) {
        const std::string name = stack.back();
        stack.pop_back();
        const auto it = byName.find(name);
        if (it == byName.end() || !seen.insert(name).second)
            continue;
        if (it->second->op() == "Placeholder") {
            FeedSpec spec;
            spec.name = name;
            const auto& attrs = it->second->attr();
            if (attrs.count("dtype"))
                spec.dtype = attrs.at("dtype").type();
            if (attrs.count("shape")) {
                auto shape = TensorShape::fromProto(attrs.at("shape").shape());
                if (shape)
                    spec.shape = *shape;
            }
            feeds.push_back(std::move(spec));
            continue;
        }
        for (std::string input : it->second->input()) {
            if (!input.empty() && input[0] == '^')
                input.erase(0, 1);
            stack.push_back(nodeOf(input));
        }
    }
    std::sort(feeds.begin(), feeds.end(), [](const FeedSpec& a, const FeedSpec& b) { return a.name < b.name; });
    return feeds;
}

Expected<TensorShape> parseFeedShape(std::string_view text)
{
    std::string t(trimAsciiSpace(text));
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']')
        t = t.substr(1, t.size() - 2);
    std::vector<std::int64_t> dims;
    std::istringstream parts(t);
    for (std::string part; std::getline(parts, part, ',');) {
        const std::string trimmed(trimAsciiSpace(part));
        if (trimmed.empty())
            continue;
        char* end = nullptr;
        const long long d = std::strtoll(trimmed.c_str(), &end, 10);
        if (end == trimmed.c_str() || *end != '\0' || d < 0)
            return unexpected(
                invalidArgumentError("'" + trimmed + "' is not a dimension: give whole numbers like [2, 3]"));
        dims.push_back(d);
    }
    return TensorShape(dims);
}

Expected<Tensor> parseFeedText(const std::string& text, DataType dtype, const TensorShape& shape, Allocator& allocator)
{
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("the feed's shape must be fully defined, not " + shape.toString()));
    const auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    std::string trimmed = text;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back())))
        trimmed.pop_back();
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front())))
        trimmed.erase(0, 1);
    std::vector<double> numbers;
    if (trimmed.empty() || trimmed == "zeros") {
        numbers = {0.0};
    } else if (trimmed == "ones") {
        numbers = {1.0};
    } else if (trimmed == "random") {
        std::mt19937 rng(1234);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        numbers.resize(static_cast<std::size_t>(*count));
        for (double& v : numbers)
            v = uniform(rng);
    } else if (trimmed.size() > 4 && trimmed.substr(trimmed.size() - 4) == ".npy") {
        auto tensor = readNpy(trimmed, allocator);
        if (!tensor)
            return unexpected(tensor.error());
        if (tensor->dtype() != dtype || !(tensor->shape() == shape))
            return unexpected(invalidArgumentError("'" + trimmed + "' holds " + tensor->shape().toString() + " " +
                                                   std::string(dataTypeName(tensor->dtype())) + ", expected " +
                                                   shape.toString() + " " + std::string(dataTypeName(dtype))));
        return tensor;
    } else {
        std::string cleaned = trimmed;
        for (char& c : cleaned)
            if (c == ',' || c == '[' || c == ']')
                c = ' ';
        std::istringstream in(cleaned);
        std::string word;
        while (in >> word) {
            char* end = nullptr;
            const double v = std::strtod(word.c_str(), &end);
            if (end == word.c_str() || *end != '\0')
                return unexpected(invalidArgumentError("'" + word + "' is not a number (expected zeros, ones, random, a .npy file or numbers)"));
            numbers.push_back(v);
        }
        if (numbers.size() != 1 && static_cast<std::int64_t>(numbers.size()) != *count)
            return unexpected(invalidArgumentError(std::to_string(numbers.size()) + " numbers for " + std::to_string(*count) +
                                                   " elements of shape " + shape.toString() + ": give one to fill, or all"));
    }
    switch (dtype) {
    case tensorflow::DT_FLOAT:
        return fill<float>(allocator, shape, numbers, *count);
    case tensorflow::DT_DOUBLE:
        return fill<double>(allocator, shape, numbers, *count);
    case tensorflow::DT_INT32:
        return fill<std::int32_t>(allocator, shape, numbers, *count);
    case tensorflow::DT_INT64:
        return fill<std::int64_t>(allocator, shape, numbers, *count);
    case tensorflow::DT_BOOL:
        return fill<bool>(allocator, shape, numbers, *count);
    default:
        return unexpected(unimplementedError("feeds of dtype " + std::string(dataTypeName(dtype)) + " cannot be typed here; use a .npy file"));
    }
}

Expected<std::vector<Tensor>> evaluateNode(const GraphDocument& document, const Registries& registries, DocNodeId id,
                                           const std::vector<std::pair<std::string, Tensor>>& feeds)
{
    InteractiveSession session(registries);
    return session.evaluate(document, id, feeds);
}

double tensorValueAt(const Tensor& t, std::int64_t i)
{
    const auto k = static_cast<std::size_t>(i);
    switch (t.dtype()) {
    case tensorflow::DT_FLOAT:
        return t.values<float>()[k];
    case tensorflow::DT_DOUBLE:
        return t.values<double>()[k];
    case tensorflow::DT_INT32:
        return t.values<std::int32_t>()[k];
    case tensorflow::DT_INT64:
        return static_cast<double>(t.values<std::int64_t>()[k]);
    case tensorflow::DT_UINT8:
        return t.values<std::uint8_t>()[k];
    case tensorflow::DT_BOOL:
        return t.values<bool>()[k] ? 1.0 : 0.0;
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace tstudio::node_editor
