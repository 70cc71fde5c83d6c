// The control-flow contexts of a GraphBuilder (tf.while_loop's WhileContext, tf.cond's CondContext)
// as a MetaGraphDef's "while_context" and "cond_context" collections keep them, both ways: written
// when a graph is exported, rebuilt when one is imported, so that gradients can be added to an
// imported loop or cond as to one built in-process.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "proto/control_flow.pb.h"
#include "proto/meta_graph.pb.h"

#include <map>
#include <string>
#include <string_view>

namespace tstudio {

class CondContext;
class WhileContext;

/// TensorFlow's GraphKeys.WHILE_CONTEXT and COND_CONTEXT.
inline constexpr std::string_view kWhileContextCollection = "while_context";
inline constexpr std::string_view kCondContextCollection = "cond_context";

/// WhileContext.to_proto: name, parallel_iterations, back_prop, swap_memory, the pivots, loop exits
/// and enters, the values (sorted) and external values, maximum_iterations_name, and the contexts
/// nested in it (in the order they were made).
tensorflow::WhileContextDef whileContextDef(const GraphBuilder& b, const WhileContext& context);
/// CondContext.to_proto: name, pred, pivot, branch, values, nested contexts.
tensorflow::CondContextDef condContextDef(const GraphBuilder& b, const CondContext& context);

/// The collections TensorFlow's export_meta_graph writes for the builder's contexts: "while_context"
/// with every loop made at the top level (not nested in another context, not a gradient loop) and
/// "cond_context" with both branches of every top-level cond, each a bytes_list of serialized
/// WhileContextDef / CondContextDef in the order they were made. A key is absent when it has none.
std::map<std::string, tensorflow::CollectionDef> controlFlowContextCollections(const GraphBuilder& b);

/// WhileContext.from_proto / CondContext.from_proto for the contexts of `whileContexts` and
/// `condContexts` (either may be null): every context and the contexts nested in it are made in
/// `b` (whose graph holds the imported nodes), with names prefixed by `importScope` ("" for none),
/// and every node named by a context's values (not its external values) is recorded as part of it
/// (the innermost context wins), so that gradients() can differentiate the loops and conds.
/// Errors, InvalidArgument: "while_context 'while/while_context': pivot_name 'while/LoopCond:0'
/// refers to node 'while/LoopCond', which is not in the graph" (any field, any name); "... item 2 is
/// not a valid WhileContextDef" (DataLoss); a branch other than 0 or 1; a collection that is not a
/// bytes_list.
Status importControlFlowContexts(GraphBuilder& b, const tensorflow::CollectionDef* whileContexts,
                                 const tensorflow::CollectionDef* condContexts, std::string_view importScope = {});
/// The same for the collections of `meta` (as stored, before tf.train.import_meta_graph prefixed
/// anything).
Status importControlFlowContexts(GraphBuilder& b, const tensorflow::MetaGraphDef& meta,
                                 std::string_view importScope = {});

} // namespace tstudio
