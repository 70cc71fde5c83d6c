// The example projects' graph files, regenerated from the example builders.
#include "project/format/example_projects.h"

#include "book_mnist.h"
#include "io/formats/graph_def_io.h"
#include "graph/tensor_id.h"
#include "project/format/graph_dependencies.h"
#include "layer_networks.h"
#include "notes_mnist.h"
#include "ptb_model.h"
#include "reversal_translator.h"
#include "word2vec_model.h"

#include <google/protobuf/text_format.h>

#include <map>
#include <set>

namespace tstudio::project {
namespace {

/// Appends the text form of `graph` to `files` as `name`; graph's error, or the serializer's.
Status addTextFile(std::vector<ExampleGraphFile>& files, const std::string& name,
                   const Expected<tensorflow::GraphDef>& graph)
{
    if (!graph)
        return graph.error();
    auto bytes = serializeGraphDef(*graph, GraphDefFormat::kText);
    if (!bytes)
        return bytes.error();
    files.push_back(ExampleGraphFile{name, std::move(*bytes)});
    return Status::ok();
}

/// The same for a MetaGraphDef, in its text form.
Status addTextFile(std::vector<ExampleGraphFile>& files, const std::string& name,
                   const Expected<tensorflow::MetaGraphDef>& metaGraph)
{
    if (!metaGraph)
        return metaGraph.error();
    std::string text;
    if (!google::protobuf::TextFormat::PrintToString(*metaGraph, &text))
        return internalError("cannot write the MetaGraphDef of " + name + " as text");
    files.push_back(ExampleGraphFile{name, std::move(text)});
    return Status::ok();
}

} // namespace

Expected<tensorflow::GraphDef> forwardGraph(const examples::ClassifierGraph& graph)
{
    const auto byName = nodesByName(graph.graph);
    std::set<std::string> keep;
    for (const std::string& tensor : {graph.loss, graph.accuracy, graph.inputs, graph.labels}) {
        auto id = parseTensorId(tensor);
        if (!id || byName.count(id->node) == 0)
            return unexpected(invalidArgumentError("forwardGraph: '" + tensor + "' is not in the graph"));
        addWithInputs(byName, id->node, keep);
    }
    // Batch normalisation's moving-average updates (UPDATE_OPS): nothing the loss needs, but the
    // train op waits for them (control inputs "^<layer>/AssignMovingAvg"). Kept unconsumed, a
    // project's optimizer finds them again by name (recoverUpdateOps) and runs them with each step.
    for (const auto& n : graph.graph.node())
        for (const std::string& input : n.input()) {
            if (input.empty() || input.front() != '^')
                continue;
            const auto it = byName.find(input.substr(1));
            if (it != byName.end() && (it->second->op() == "AssignSub" || it->second->op() == "AssignSubVariableOp"))
                addWithInputs(byName, it->first, keep);
        }
    // The initializers of the variables kept ("x/Assign", whose value input is "x/Initializer/...").
    std::vector<std::string> variables;
    for (const std::string& name : keep) {
        const auto* node = byName.at(name);
        if (node->op() == "VariableV2")
            variables.push_back(name);
    }
    for (const auto& n : graph.graph.node()) {
        if (n.op() != "Assign" || n.input_size() == 0)
            continue;
        if (std::find(variables.begin(), variables.end(), n.input(0)) != variables.end() &&
            n.name() == n.input(0) + "/Assign")
            addWithInputs(byName, n.name(), keep);
    }
    tensorflow::GraphDef out;
    *out.mutable_versions() = graph.graph.versions();
    for (const auto& n : graph.graph.node())
        if (keep.count(n.name()) > 0)
            *out.add_node() = n;
    return out;
}

Expected<std::vector<ExampleGraphFile>> exampleGraphFiles(const OpRegistry& ops)
{
    std::vector<ExampleGraphFile> files;
    examples::LayerNetworkOptions spiralsOptions;
    spiralsOptions.optimizer = examples::OptimizerKind::kAdam;
    spiralsOptions.learningRate = 0.01;
    spiralsOptions.seed = 1;
    auto spirals = examples::buildSpiralsNetwork(ops, 64, spiralsOptions);
    if (!spirals)
        return unexpected(spirals.error());
    if (Status s = addTextFile(files, "spirals_forward.pbtxt", forwardGraph(*spirals)); !s.isOk())
        return unexpected(s);

    examples::BookMnistOptions bookOptions;
    bookOptions.trainingExamples = 8000;
    bookOptions.seed = 1;
    auto book = examples::buildBookMnist(ops, bookOptions);
    if (!book)
        return unexpected(book.error());
    if (Status s = addTextFile(files, "book_mnist.pbtxt", book->graph); !s.isOk())
        return unexpected(s);

    examples::LayerNetworkOptions lenetOptions;
    lenetOptions.optimizer = examples::OptimizerKind::kAdam;
    lenetOptions.learningRate = 0.001;
    lenetOptions.seed = 1;
    auto lenet = examples::buildLeNet5(ops, lenetOptions);
    if (!lenet)
        return unexpected(lenet.error());
    if (Status s = addTextFile(files, "lenet.pbtxt", lenet->graph); !s.isOk())
        return unexpected(s);

    auto notes = examples::buildNotesMnist(ops, 1);
    if (!notes)
        return unexpected(notes.error());
    if (Status s = addTextFile(files, "mnist_notes.pbtxt", *notes); !s.isOk())
        return unexpected(s);

    // The PTB tutorial's SmallConfig (seed 1).
    if (Status s = addTextFile(files, "ptb_small.pbtxt", examples::buildPtbModel(ops)); !s.isOk())
        return unexpected(s);

    // The word2vec tutorial's skip-gram model (seed 1); the project adds SGD and its skip_gram data.
    if (Status s = addTextFile(files, "word2vec.pbtxt", examples::buildWord2Vec(ops)); !s.isOk())
        return unexpected(s);

    // An attention seq2seq model that learns to reverse sentences it draws itself (seed 1).
    if (Status s = addTextFile(files, "seq2seq_reverse.meta.pbtxt", examples::buildReversalTranslator(ops)); !s.isOk())
        return unexpected(s);

    // He et al.'s CIFAR-10 ResNet-20 (seed 1); the project builds its Momentum optimizer and schedule.
    examples::LayerNetworkOptions resnetOptions;
    resnetOptions.seed = 1;
    auto resnet = examples::buildResNet20(ops, resnetOptions);
    if (!resnet)
        return unexpected(resnet.error());
    if (Status s = addTextFile(files, "resnet20.pbtxt", forwardGraph(*resnet)); !s.isOk())
        return unexpected(s);
    return files;
}

} // namespace tstudio::project
