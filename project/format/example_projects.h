// The graph files of the example projects (examples/projects/), made by the example builders, so
// that a test can regenerate them and notice when a committed file no longer matches.
#pragma once

#include "classifier_graph.h"
#include "core/expected.h"
#include "proto/graph.pb.h"

#include <string>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::project {

/// The forward part of a built classifier: the nodes its loss and accuracy depend on, plus each
/// of their variables' initializers and the update ops its train op waits for (batch norm's
/// AssignMovingAvg, left unconsumed so that a project's optimizer runs them: recoverUpdateOps), in
/// the original order (no optimizer, no global step, no init op: a project builds those).
Expected<tensorflow::GraphDef> forwardGraph(const examples::ClassifierGraph& graph);

struct ExampleGraphFile {
    std::string fileName; ///< relative to examples/projects/
    std::string bytes;    ///< the file's content
};

/// Every graph file the example projects use, as the builders make them now:
///  - spirals_forward.pbtxt: buildSpiralsNetwork (2-64-64-2 ReLU, seed 1) without its optimizer;
///  - book_mnist.pbtxt: buildBookMnist (seed 1, 8000 training examples), train op included;
///  - lenet.pbtxt: buildLeNet5 (Adam 0.001, seed 1), train op included;
///  - mnist_notes.pbtxt: buildNotesMnist (seed 1), the forward graph with its summaries;
///  - ptb_small.pbtxt: buildPtbModel (the PTB tutorial's SmallConfig, seed 1), the forward graph;
///  - resnet20.pbtxt: buildResNet20 (seed 1), the forward graph with its batch-norm updates.
Expected<std::vector<ExampleGraphFile>> exampleGraphFiles(const OpRegistry& ops);

} // namespace tstudio::project
