// GraphFacts: what the graph viewer knows about each node of a GraphDef (output dtypes and shapes,
// problems, CPU kernel, placement), computed once when a graph is opened (Qt-free).
#pragma once

#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/graph.pb.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tstudio {
struct Registries;
}

namespace tstudio::graph_viewer {

/// One output tensor of a node.
struct OutputFact {
    DataType dtype = tensorflow::DT_INVALID; ///< from the op definition and the node's attrs; DT_INVALID when unknown
    TensorShape shape;          ///< `_output_shapes` when present, else shape inference; unknown rank when unknown
    bool shapeKnown = false;    ///< the rank is known (dimensions may still be -1)
    std::int64_t elements = -1; ///< element count when the shape is fully defined, else -1
};

struct NodeFacts {
    /// One per output of the op definition (or of `_output_shapes` when the op is unknown).
    std::vector<OutputFact> outputs;
    /// "" or readable messages joined by "; ", in the engine's words: "Op type not registered 'Foo'",
    /// "Unknown input node 'x'", "on a cycle that does not pass through a NextIteration node", a NodeDef
    /// validation error, a shape function's error, "not runnable here: no CPU kernel for op X with T=DT_INT8".
    std::string problem;
    /// A CPU kernel exists for this node (the engine's kernel registry) and the node is valid for its op.
    bool runnable = true;
    /// The engine's placement on this machine's devices (soft placement; CPU:0 and each GPU the CUDA
    /// runtime reports, as a default session) as a full TF device name, or "" when the graph cannot
    /// be placed (not a valid Graph, or the placer failed).
    std::string placedDevice;
};

struct GraphFacts {
    std::vector<NodeFacts> nodes; ///< per GraphDef node index
    /// Graph-level problems: each cycle found (naming the nodes of one cycle), placement errors, ...
    std::vector<std::string> problems;
    /// The computation stopped because `cancelled` became true; the facts are incomplete.
    bool cancelled = false;
};

/// Computes the facts of every node of `graph`. Tolerant to bad graphs: unknown ops, inputs naming missing
/// nodes, cycles, invalid attrs and shape-function errors become problems of the nodes concerned, and
/// every other node still gets its facts. When the GraphDef is a valid Graph, shapes come from the engine's
/// whole-graph inference (inferGraphShapes, with constant folding by CPU kernels) and nodes are placed;
/// otherwise shapes are inferred node by node in a topological order computed here (inputs on a cycle or
/// from a missing node count as unknown) and nothing is placed. A node's `_output_shapes` attr, when
/// present, replaces the inferred shapes of the outputs it lists.
/// Threads: pure function of its arguments (registries are read only); meant for a worker thread.
/// `cancelled`, when given, is polled between nodes; the result then has `cancelled` set.
GraphFacts computeGraphFacts(const tensorflow::GraphDef& graph, const Registries& registries,
                             const std::atomic<bool>* cancelled = nullptr);

} // namespace tstudio::graph_viewer
