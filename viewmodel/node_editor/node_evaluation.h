// Evaluating one node of the editor's document: which placeholders it needs, feeds from text, and the run.
#pragma once

#include "core/expected.h"
#include "document/graph_document.h"
#include "framework/data_type.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio {
class Allocator;
struct Registries;
}

namespace tstudio::node_editor {

/// A placeholder the evaluated node depends on.
struct FeedSpec {
    std::string name; ///< the placeholder's node name in the built graph
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape shape; ///< as declared; may be partly unknown
};

/// The placeholders the outputs of `id` depend on, sorted by name. Errors: the node (or something it needs)
/// does not build — the problem, naming the node.
Expected<std::vector<FeedSpec>> evaluationFeeds(const GraphDocument& document, const Registries& registries, DocNodeId id);

/// A feed's shape typed as "[2, 3]" or "2,3" (whole numbers; "?" is not allowed in a feed); "" or "[]"
/// is a scalar. InvalidArgument "'q' is not a dimension: give whole numbers like [2, 3]".
Expected<TensorShape> parseFeedShape(std::string_view text);

/// A feed tensor of `dtype` and the fully defined `shape` from text: "zeros", "ones", "random" (uniform in
/// [0, 1), seeded, so repeatable), the path of a .npy file (its own dtype and shape must match), or numbers
/// separated by commas or spaces (one number fills the tensor; otherwise exactly as many as elements).
/// float32, float64, int32, int64 and bool; errors say what was expected.
Expected<Tensor> parseFeedText(const std::string& text, DataType dtype, const TensorShape& shape, Allocator& allocator);

/// Runs the document's graph and fetches every output of `id`, feeding `feeds`, in a new
/// InteractiveSession (interactive_session.h) of its own: the variables initialised (the graph's "init",
/// else each variable's initializer) before the run. The graph's learning phase is fed
/// false (inference: batch norm on its moving statistics, no dropout) unless `feeds` sets it. Errors: build problems, missing feeds,
/// the session's errors (naming the node).
Expected<std::vector<Tensor>> evaluateNode(const GraphDocument& document, const Registries& registries, DocNodeId id,
                                           const std::vector<std::pair<std::string, Tensor>>& feeds);

/// Element `index` (row-major) of a numeric or bool tensor as a double (NaN for other dtypes).
double tensorValueAt(const Tensor& tensor, std::int64_t index);

} // namespace tstudio::node_editor
