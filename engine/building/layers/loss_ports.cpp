// What a loss layer node is fed, checked before the loss is built: label and logit kinds, and swapped ports.
#include "layers/loss_ports.h"

#include "builder/collections.h"
#include "framework/data_type.h"

#include <deque>
#include <set>

namespace tstudio::layers {
namespace {

/// "int64 [?]": what a message says a port got.
std::string describe(const Output& t)
{
    return dataTypeName(t.baseDtype()) + " " + t.shape().toString();
}

Status portError(std::string_view port, const std::string& what)
{
    return invalidArgumentError("port '" + std::string(port) + "' " + what);
}

bool isPlaceholderOp(const std::string& op)
{
    return op == "Placeholder" || op == "PlaceholderV2" || op == "PlaceholderWithDefault";
}

/// Labels the loss accepts next to these logits: sparse_softmax_cross_entropy wants rank(logits) - 1,
/// and squeezes a trailing dimension of 1 first (remove_squeezable_dimensions).
bool classIdRankFits(const TensorShape& labels, const TensorShape& logits)
{
    if (labels.rank() < 0 || logits.rank() < 1)
        return true;
    if (labels.rank() == logits.rank() - 1)
        return true;
    return labels.rank() == logits.rank() && labels.dim(labels.rank() - 1) == 1;
}

} // namespace

TensorOrigin tensorOrigin(const GraphBuilder& b, const Output& tensor)
{
    std::set<std::string, std::less<>> trainable;
    for (const Variable& v : b.collections().variables(graph_keys::kTrainableVariables))
        trainable.insert(v.name());
    TensorOrigin origin;
    std::deque<std::string> queue{tensor.node()};
    std::set<std::string, std::less<>> seen{tensor.node()};
    while (!queue.empty() && (origin.trainableVariable.empty() || origin.placeholder.empty())) {
        const std::string name = std::move(queue.front());
        queue.pop_front();
        if (origin.trainableVariable.empty() && trainable.count(name))
            origin.trainableVariable = name;
        const tensorflow::NodeDef* node = b.findNode(name);
        if (!node)
            continue;
        if (origin.placeholder.empty() && isPlaceholderOp(node->op()))
            origin.placeholder = name;
        for (const std::string& input : node->input()) {
            if (input.empty() || input.front() == '^')
                continue; // control inputs order execution; they do not feed values
            std::string source = input.substr(0, input.find(':'));
            if (seen.insert(source).second)
                queue.push_back(std::move(source));
        }
    }
    return origin;
}

Status checkLossPorts(const GraphBuilder& b, LossPorts kind, const Output& labels, const Output& logits,
                      std::string_view otherPort, std::string_view oneHotLoss)
{
    const std::string other(otherPort);
    // Swapped ports are named first: when the labels are what the network computes, every other
    // complaint about them would only be a symptom.
    const TensorOrigin labelOrigin = tensorOrigin(b, labels);
    if (!labelOrigin.trainableVariable.empty()) {
        const TensorOrigin otherOrigin = tensorOrigin(b, logits);
        if (otherOrigin.trainableVariable.empty())
            return portError("labels", "is computed by the network (from trainable variable '" +
                                           labelOrigin.trainableVariable + "') while port '" + other +
                                           "' is data (" +
                                           (otherOrigin.placeholder.empty()
                                                ? std::string("it depends on no trainable variable")
                                                : "from placeholder '" + otherOrigin.placeholder + "'") +
                                           "): labels and " + other + " look swapped");
    }
    if (kind == LossPorts::kRegression)
        return Status::ok(); // tf.losses.mean_squared_error casts both sides to float32

    const DataType labelType = labels.baseDtype();
    const TensorShape& labelShape = labels.shape();
    const TensorShape& logitShape = logits.shape();
    const bool ranksKnown = labelShape.rank() >= 0 && logitShape.rank() >= 0;
    if (kind == LossPorts::kOneHot) {
        // tf.losses casts the labels to the logits' dtype: integer or bool one-hot rows are fine when
        // they are shaped as the logits; class ids (one rank less) belong to the sparse loss.
        const std::string takes = "takes float one-hot rows [batch, classes]; got " + describe(labels);
        if (!isFloating(labelType) && !isInteger(labelType) && labelType != tensorflow::DT_BOOL)
            return portError("labels", takes);
        if (ranksKnown && labelShape.rank() != logitShape.rank()) {
            const bool classIds = isInteger(labelType) && labelShape.rank() == logitShape.rank() - 1;
            return portError("labels", takes + (classIds ? ": class ids go to SparseSoftmaxCrossEntropy" : ""));
        }
    } else {
        const bool ids = labelType == tensorflow::DT_INT32 || labelType == tensorflow::DT_INT64;
        const bool sameRank = !ranksKnown || labelShape.rank() == logitShape.rank();
        const std::string oneHotHint = ": one-hot rows go to " + std::string(oneHotLoss);
        if (!ids)
            return portError("labels", "takes int32 or int64 class ids [batch]; got " + describe(labels) +
                                           (isFloating(labelType) && sameRank ? oneHotHint : ""));
        if (!classIdRankFits(labelShape, logitShape))
            return portError("labels", "takes int32 or int64 class ids of rank " +
                                           std::to_string(logitShape.rank() - 1) + ", one less than " + other + " " +
                                           logitShape.toString() + "; got " + describe(labels) +
                                           (sameRank ? oneHotHint : ""));
    }
    if (!isFloating(logits.baseDtype()))
        return portError(other, "takes float scores [batch, classes]; got " + describe(logits));
    return Status::ok();
}

} // namespace tstudio::layers
