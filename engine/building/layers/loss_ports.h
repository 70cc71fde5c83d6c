// Checks of what a loss layer node is fed: the kind of its labels and logits / predictions, and whether
// the two look swapped (labels computed by the network, predictions straight from the data).
#pragma once

#include "builder/graph_builder.h"
#include "builder/output.h"
#include "core/status.h"

#include <string>
#include <string_view>

namespace tstudio::layers {

/// The losses the catalogue builds, by what their labels are.
enum class LossPorts {
    kOneHot,    ///< softmax_cross_entropy: float one-hot rows shaped as the logits (labels, logits)
    kClassIds,  ///< sparse_softmax_cross_entropy: int32 / int64 class ids, rank of logits - 1 (labels, logits)
    kRegression ///< mean_squared_error: targets shaped as the predictions (labels, predictions)
};

/// Where a tensor's values come from, found by walking its data inputs back to their ancestors in `b`
/// (breadth first, so the nearest ones are named).
struct TensorOrigin {
    std::string trainableVariable; ///< the nearest trainable variable it depends on, "" when none
    std::string placeholder;       ///< the nearest Placeholder it depends on, "" when none
};
TensorOrigin tensorOrigin(const GraphBuilder& b, const Output& tensor);

/// Checks the inputs of a loss of kind `kind` before it is built. `otherPort` is "logits" or
/// "predictions"; `oneHotLoss` names what takes one-hot labels instead of a class-id loss
/// ("SoftmaxCrossEntropy", or "SoftmaxCrossEntropy with sparse off"). Ok, or InvalidArgument naming the port, what it takes and what it got
/// (the caller prefixes the layer):
///   "port 'labels' takes float one-hot rows [batch, classes]; got int64 [?]: class ids go to
///    SparseSoftmaxCrossEntropy"
///   "port 'labels' takes int32 or int64 class ids [batch]; got float32 [?,10]: one-hot rows go to
///    SoftmaxCrossEntropy"
///   "port 'labels' takes int32 or int64 class ids of rank 1, one less than logits [?,10]; got int64 [?,?,?]"
///   "port 'logits' takes float scores [batch, classes]; got int32 [?,10]"
///   "port 'labels' is computed by the network (from trainable variable 'dense/kernel') while port
///    'logits' is data (from placeholder 'y'): labels and logits look swapped"
/// Only what is known is checked: an unknown rank passes the rank checks. Integer one-hot rows shaped
/// as the logits pass (tf.losses casts them to the logits' dtype); mean_squared_error casts both sides
/// to float32, so only its swap is checked.
Status checkLossPorts(const GraphBuilder& b, LossPorts kind, const Output& labels, const Output& logits,
                      std::string_view otherPort, std::string_view oneHotLoss);

} // namespace tstudio::layers
