// The graph's own summaries and the project's "summaries" entries, into SUMMARIES.
#include "project/run/project_summaries.h"

#include "builder/python_ops.h"
#include "builder/collections.h"
#include "core/log.h"
#include "core/try.h"
#include "graph/tensor_id.h"
#include "project/format/graph_dependencies.h"
#include "summary/summary_kinds.h"

#include <algorithm>
#include <set>

namespace tstudio::project {
namespace {

/// The ops a summary tensor comes from (TensorFlow 1.15's tf.summary and merge).
bool isSummaryOp(const std::string& op)
{
    return op == "ScalarSummary" || op == "HistogramSummary" || op == "ImageSummary" || op == "AudioSummary" ||
           op == "AudioSummaryV2" || op == "TensorSummary" || op == "TensorSummaryV2" || op == "MergeSummary";
}

/// "x" -> "x:0"; names that do not parse are left for the lookup to refuse.
std::string tensorName(const std::string& name)
{
    auto id = parseTensorId(name);
    if (!id || id->isControl())
        return name;
    return id->node + ":" + std::to_string(id->index);
}

/// The placeholders the project's data sources feed, by node name.
std::set<std::string> fedPlaceholders(const Project& project)
{
    std::set<std::string> fed;
    for (const DataSource& source : project.sources)
        for (const auto& [placeholder, components] : source.feeds) {
            auto id = parseTensorId(placeholder);
            fed.insert(id ? id->node : placeholder);
        }
    return fed;
}

/// The first Placeholder `node` depends on that no source feeds ("" when none): running it would
/// fail every summary step.
std::string unfedPlaceholder(const GraphBuilder& b, const std::string& node, const std::set<std::string>& fed)
{
    const auto byName = nodesByName(b.graphDef());
    std::set<std::string> deps;
    addWithInputs(byName, node, deps);
    for (const std::string& dep : deps) {
        const auto it = byName.find(dep);
        if (it != byName.end() && it->second->op() == "Placeholder" && !fed.count(dep))
            return dep;
    }
    return {};
}

/// Adds `tensor` to SUMMARIES unless it needs an unfed placeholder (then says so in the log).
void addGraphSummary(GraphBuilder& b, const Output& tensor, const std::set<std::string>& fed)
{
    if (const std::string missing = unfedPlaceholder(b, tensor.node(), fed); !missing.empty()) {
        logWarning("summaries", "Leaving out the graph's summary '" + tensor.name() + "': it needs placeholder '" +
                                    missing + "', which no data source feeds.");
        return;
    }
    b.collections().add(graph_keys::kSummaries, tensor);
}

Status addGraphSummaries(GraphBuilder& b, const std::map<std::string, tensorflow::CollectionDef>& collections,
                         const std::set<std::string>& fed, const std::string& label)
{
    if (const auto it = collections.find(std::string(graph_keys::kSummaries)); it != collections.end()) {
        for (const std::string& name : it->second.node_list().value()) {
            auto tensor = b.tensor(tensorName(name));
            if (!tensor)
                return invalidArgumentError(label + "graph: collection 'summaries' names '" + name +
                                            "', which is not a tensor of the graph");
            addGraphSummary(b, *tensor, fed);
        }
        return Status::ok();
    }
    // A graph without collections: its summary ops that no MergeSummary merges already.
    const tensorflow::GraphDef& graph = b.graphDef();
    std::set<std::string> merged;
    for (const tensorflow::NodeDef& node : graph.node())
        if (node.op() == "MergeSummary")
            for (const std::string& input : node.input())
                if (auto id = parseTensorId(input); id && !id->isControl())
                    merged.insert(id->node);
    std::vector<Output> found;
    for (const tensorflow::NodeDef& node : graph.node())
        if (isSummaryOp(node.op()) && !merged.count(node.name()))
            if (auto tensor = b.tensor(node.name() + ":0"))
                found.push_back(*tensor);
    for (const Output& tensor : found)
        addGraphSummary(b, tensor, fed);
    return Status::ok();
}

/// The tensor an entry summarises, before any reshape: its tensor, or the placeholder its source's
/// component is fed to alone (readSummarySpec made sure there is one).
Expected<Output> entryTensor(const GraphBuilder& b, const Project& project, const SummarySpec& spec,
                             const std::string& where)
{
    if (!spec.source) {
        const std::string name = tensorName(spec.tensor);
        auto tensor = b.tensor(name);
        if (!tensor)
            return unexpected(invalidArgumentError(where + ".tensor: '" + name + "' is not in the graph"));
        return tensor;
    }
    const DataSource& source = project.sources.at(static_cast<std::size_t>(*spec.source));
    for (const auto& [placeholder, components] : source.feeds) {
        if (components != std::vector<std::string>{spec.component})
            continue;
        const std::string name = tensorName(placeholder);
        auto tensor = b.tensor(name);
        if (!tensor)
            return unexpected(invalidArgumentError(where + ".component: data.sources[" + std::to_string(*spec.source) +
                                                   "] feeds '" + spec.component + "' to '" + name +
                                                   "', which is not in the graph"));
        return tensor;
    }
    return unexpected(invalidArgumentError(where + ".component: data.sources[" + std::to_string(*spec.source) +
                                           "] feeds '" + spec.component + "' to no placeholder on its own"));
}

std::string shapeList(const std::vector<std::int64_t>& dims)
{
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "]";
}

/// `tensor` reshaped so that each example has `shape` ([-1] + shape), checked against what is known
/// of an example's size.
Expected<Output> reshapeExamples(GraphBuilder& b, const Output& tensor, const std::vector<std::int64_t>& shape,
                                 const std::string& where)
{
    std::int64_t wanted = 1;
    for (std::int64_t d : shape)
        wanted *= d;
    const TensorShape& s = tensor.shape();
    if (s.rank() == 0)
        return unexpected(
            invalidArgumentError(where + ".shape: '" + tensor.name() + "' is a scalar, not a batch of examples"));
    if (s.rank() > 0) {
        std::int64_t have = 1;
        bool known = true;
        for (int i = 1; i < s.rank(); ++i) {
            known = known && s.dim(i) >= 0;
            have *= std::max<std::int64_t>(s.dim(i), 0);
        }
        if (known && have != wanted)
            return unexpected(invalidArgumentError(where + ".shape: " + shapeList(shape) + " holds " +
                                                   std::to_string(wanted) + " values but an example of '" +
                                                   tensor.name() + "' (" + dataTypeName(tensor.baseDtype()) + " " +
                                                   s.toString() + ") has " + std::to_string(have)));
    }
    TSTUDIO_TRY(scope, b.nameScope("project_summaries"));
    std::vector<std::int64_t> dims{-1};
    dims.insert(dims.end(), shape.begin(), shape.end());
    return py::reshape(b, tensor, dims);
}

Status addEntry(GraphBuilder& b, const Project& project, const SummarySpec& spec, const std::string& where,
                const std::set<std::string>& fed)
{
    const auto kind = summary::kindFromName(spec.kind);
    if (!kind)
        return invalidArgumentError(where + ".kind: unknown kind '" + spec.kind + "'");
    auto tensorOr = entryTensor(b, project, spec, where);
    if (!tensorOr)
        return tensorOr.error();
    const Output tensor = *tensorOr;
    const std::string key = spec.source ? ".component" : ".tensor";
    const std::string quoted = "'" + tensor.name() + "'";
    if (const std::string missing = unfedPlaceholder(b, tensor.node(), fed); !missing.empty())
        return invalidArgumentError(where + key + ": " + quoted + " needs placeholder '" + missing +
                                    "', which no data source feeds");
    std::vector<std::int64_t> shape = spec.shape;
    const bool media = *kind == summary::Kind::kImage || *kind == summary::Kind::kAudio;
    if (shape.empty() && *kind == summary::Kind::kImage && spec.source && spec.component == "images") {
        const SourceParams& params = project.sources.at(static_cast<std::size_t>(*spec.source)).params;
        if (std::holds_alternative<MnistParams>(params))
            shape = {28, 28, 1}; // MNIST's rows of 784 pixels
        else if (std::holds_alternative<Cifar10Params>(params))
            shape = {32, 32, 3}; // CIFAR-10's rows of 3072 values, height-width-channel
    }
    Output input = tensor;
    if (media && !shape.empty()) {
        auto reshaped = reshapeExamples(b, tensor, shape, where);
        if (!reshaped)
            return reshaped.error();
        input = *reshaped;
    }
    if (Status s = summary::checkInput(*kind, input.dtype(), input.shape()); !s.isOk()) {
        std::string message = where + key + ": " + quoted + ": " + s.message();
        if (media && spec.shape.empty())
            message += " (\"shape\" reshapes each example first, e.g. [28, 28, 1])";
        return invalidArgumentError(message);
    }
    summary::KindOptions options;
    options.maxOutputs = static_cast<int>(spec.maxOutputs);
    options.sampleRate = spec.sampleRate.value_or(0.0);
    options.family = spec.family;
    auto made = summary::addSummary(b, *kind, spec.tag.empty() ? tensor.name() : spec.tag, input, options);
    if (!made)
        return made.error().withContext(where);
    return Status::ok();
}

} // namespace

Status addProjectSummaries(GraphBuilder& b, const Project& project,
                           const std::map<std::string, tensorflow::CollectionDef>& collections)
{
    const std::string label = projectLabel(project);
    const std::set<std::string> fed = fedPlaceholders(project);
    if (Status s = addGraphSummaries(b, collections, fed, label); !s.isOk())
        return s;
    for (std::size_t i = 0; i < project.summaries.size(); ++i)
        if (Status s = addEntry(b, project, project.summaries[i], label + "summaries[" + std::to_string(i) + "]", fed);
            !s.isOk())
            return s;
    return Status::ok();
}

} // namespace tstudio::project
