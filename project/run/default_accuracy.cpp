// The default accuracy of a classifier's training: finding the cross-entropy behind the loss and
// building tf.metrics.accuracy's per-batch value and its summary.
#include "project/run/default_accuracy.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "core/try.h"
#include "graph/tensor_id.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace tstudio::project {
namespace {

bool isCrossEntropy(const std::string& op)
{
    return op == "SparseSoftmaxCrossEntropyWithLogits" || op == "SoftmaxCrossEntropyWithLogits" ||
           op == "SoftmaxCrossEntropyWithLogitsV2";
}

/// "node:0" for "node", "node:1" as is.
std::string fullName(const std::string& input)
{
    auto id = parseTensorId(input);
    return id ? id->node + ":" + std::to_string(id->index) : input;
}

/// The string of a scalar string Const, or "" for anything else.
std::string constantString(const GraphBuilder& b, const std::string& input)
{
    auto id = parseTensorId(input);
    if (!id || id->isControl())
        return {};
    const tensorflow::NodeDef* node = b.findNode(id->node);
    if (!node || node->op() != "Const")
        return {};
    const auto value = node->attr().find("value");
    if (value == node->attr().end() || value->second.tensor().string_val_size() != 1)
        return {};
    return value->second.tensor().string_val(0);
}

bool namesAccuracy(std::string tag)
{
    if (const auto slash = tag.rfind('/'); slash != std::string::npos)
        tag = tag.substr(slash + 1);
    std::transform(tag.begin(), tag.end(), tag.begin(), [](unsigned char c) { return std::tolower(c); });
    return tag == "acc" || tag.find("accuracy") != std::string::npos;
}

/// The tags of the scalar summaries `node` is or merges.
void scalarTags(const GraphBuilder& b, const std::string& node, std::set<std::string>& seen,
                std::vector<std::string>& tags)
{
    if (!seen.insert(node).second)
        return;
    const tensorflow::NodeDef* def = b.findNode(node);
    if (!def)
        return;
    if (def->op() == "ScalarSummary" && def->input_size() >= 1) {
        tags.push_back(constantString(b, def->input(0)));
    } else if (def->op() == "MergeSummary") {
        for (const std::string& input : def->input())
            if (auto id = parseTensorId(input); id && !id->isControl())
                scalarTags(b, id->node, seen, tags);
    }
}

/// An int64 class id per example: argmax over the last axis of `x`, as tf.argmax(x, -1).
Expected<Output> argmaxLast(GraphBuilder& b, const Output& x)
{
    if (x.shape().isUnknownRank() || x.shape().rank() == 0)
        return unexpected(invalidArgumentError("'" + x.name() + "' (" + x.shape().toString() +
                                               ") has no class axis to take the argmax over"));
    TSTUDIO_TRY(axis, ops::constantInts(b, {-1}, TensorShape::scalar(), tensorflow::DT_INT32, "ArgMax/dimension"));
    return py::genOp(b, "ArgMax", {x, axis}, {{"output_type", attr::type(tensorflow::DT_INT64)}});
}

} // namespace

std::optional<ClassifierLoss> classifierOfLoss(const GraphBuilder& b, const std::string& loss)
{
    auto root = parseTensorId(loss);
    if (!root || root->isControl() || !b.findNode(root->node))
        return std::nullopt;
    std::vector<std::string> stack = {root->node};
    std::set<std::string> seen = {root->node};
    std::vector<const tensorflow::NodeDef*> found;
    while (!stack.empty()) {
        const std::string name = std::move(stack.back());
        stack.pop_back();
        const tensorflow::NodeDef* node = b.findNode(name);
        if (!node)
            continue;
        if (isCrossEntropy(node->op())) {
            found.push_back(node); // what feeds it (the logits' network) is not looked through
            continue;
        }
        for (const std::string& input : node->input()) {
            auto id = parseTensorId(input);
            if (id && !id->isControl() && seen.insert(id->node).second)
                stack.push_back(id->node);
        }
    }
    if (found.size() != 1 || found.front()->input_size() < 2)
        return std::nullopt;
    const tensorflow::NodeDef& xent = *found.front();
    ClassifierLoss c;
    c.crossEntropy = xent.name();
    c.logits = fullName(xent.input(0));
    c.labels = fullName(xent.input(1));
    c.sparse = xent.op() == "SparseSoftmaxCrossEntropyWithLogits";
    return c;
}

bool logsAccuracy(const GraphBuilder& b)
{
    std::set<std::string> seen;
    std::vector<std::string> tags;
    for (const CollectionItem& item : b.collections().get(graph_keys::kSummaries))
        if (const Output* summary = std::get_if<Output>(&item))
            scalarTags(b, summary->node(), seen, tags);
    return std::any_of(tags.begin(), tags.end(), namesAccuracy);
}

Expected<std::optional<std::string>> addDefaultAccuracy(GraphBuilder& b, const std::string& loss)
{
    if (loss.empty())
        return std::optional<std::string>();
    const auto classifier = classifierOfLoss(b, loss);
    if (!classifier || logsAccuracy(b))
        return std::optional<std::string>();
    TSTUDIO_TRY(logits, b.tensor(classifier->logits));
    TSTUDIO_TRY(labelsIn, b.tensor(classifier->labels));
    // Built at the root, whatever scope the caller is in, like the loss summary.
    TSTUDIO_TRY(root, b.nameScope(""));
    TSTUDIO_TRY(scope, b.nameScope("accuracy"));
    TSTUDIO_TRY(predictions, argmaxLast(b, logits));
    Output labels = labelsIn;
    if (!classifier->sparse) {
        TSTUDIO_TRY(ids, argmaxLast(b, labelsIn));
        labels = ids;
    } else {
        TSTUDIO_TRY(ids, py::cast(b, labelsIn, tensorflow::DT_INT64));
        labels = ids;
    }
    TSTUDIO_TRY(equal, py::genOp(b, "Equal", {predictions, labels}));
    TSTUDIO_TRY(correct, py::cast(b, equal, tensorflow::DT_FLOAT));
    const TensorShape& shape = correct.shape();
    if (shape.isUnknownRank())
        return unexpected(invalidArgumentError("the accuracy of '" + classifier->logits + "': its rank is unknown"));
    std::vector<std::int64_t> axes;
    for (int i = 0; i < shape.rank(); ++i)
        axes.push_back(i);
    TSTUDIO_TRY(axesConst, ops::constantInts(b, axes, TensorShape({static_cast<std::int64_t>(axes.size())}),
                                            tensorflow::DT_INT32, "Const"));
    TSTUDIO_TRY(mean, py::genOp(b, "Mean", {correct, axesConst}, {{"keep_dims", attr::b(false)}}, "Mean"));
    // The tag is "accuracy" even where the scope had to be "accuracy_1".
    const std::string text[] = {"accuracy"};
    TSTUDIO_TRY(proto, makeStringTensorProto(TensorShape::scalar(), text));
    TSTUDIO_TRY(tag, ops::constant(b, proto, "tags"));
    TSTUDIO_TRY(summary, b.op("ScalarSummary", {tag, mean}, {}, "summary"));
    b.collections().add(graph_keys::kSummaries, summary.output(0));
    return std::optional<std::string>(mean.name());
}

} // namespace tstudio::project
