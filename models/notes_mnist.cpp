// buildNotesMnist: the notes' MNIST network with batch normalisation, dropout and summaries.
#include "notes_mnist.h"

#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "layers/batch_normalization.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/summary_nodes.h"
#include "losses/losses.h"

#include <string>
#include <utility>

namespace tstudio::examples {
namespace {

/// variable_summaries(var) in var's own name scope ("hidden1/kernel/summaries/mean"), as the editor's
/// "Add summaries" writes them.
Status summarise(GraphBuilder& b, const std::string& scope, const Output& value)
{
    auto guard = b.nameScope(scope + "/");
    if (!guard)
        return guard.error();
    auto summaries = layers::variableSummaries(b, value);
    return summaries ? Status::ok() : summaries.error();
}

Expected<Output> variableValue(GraphBuilder& b, const std::string& name)
{
    return b.tensor(name + "/read:0");
}

} // namespace

Expected<tensorflow::GraphDef> buildNotesMnist(const OpRegistry& ops, std::optional<std::int64_t> seed)
{
    GraphBuilder b(ops);
    b.setRandomSeed(seed);
    TSTUDIO_TRY(images, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 784}), "images"));
    TSTUDIO_TRY(labels, ops::placeholder(b, tensorflow::DT_INT64, TensorShape({-1}), "labels"));
    TSTUDIO_TRY(training, learningPhase(b));

    Output h = images;
    for (const auto& [name, units] : {std::pair<std::string, std::int64_t>{"hidden1", 256}, {"hidden2", 128}}) {
        layers::DenseOptions dense;
        dense.units = units;
        dense.useBias = false; // batch normalisation's beta is the bias
        dense.name = name;
        TSTUDIO_TRY(linear, layers::dense(b, h, dense));
        layers::BatchNormalizationOptions bn;
        bn.name = name + "_bn";
        TSTUDIO_TRY(normalised, layers::batchNormalization(b, linear, bn, training));
        TSTUDIO_TRY(activated, ops::firstOutput(b.op("Relu", {normalised}, {}, name + "_relu")));
        layers::DropoutOptions drop;
        drop.rate = 0.3;
        drop.name = name + "_dropout";
        TSTUDIO_TRY(dropped, layers::dropout(b, activated, drop, training));
        for (const char* variable : {"/kernel"}) {
            TSTUDIO_TRY(value, variableValue(b, name + variable));
            if (Status s = summarise(b, name + variable, value); !s.isOk())
                return unexpected(s);
        }
        for (const char* variable : {"/gamma", "/beta"}) {
            TSTUDIO_TRY(value, variableValue(b, name + "_bn" + variable));
            if (Status s = summarise(b, name + "_bn" + variable, value); !s.isOk())
                return unexpected(s);
        }
        if (Status s = summarise(b, name + "/activations", activated); !s.isOk())
            return unexpected(s);
        h = dropped;
    }
    layers::DenseOptions head;
    head.units = 10;
    head.name = "logits";
    TSTUDIO_TRY(logits, layers::dense(b, h, head));
    for (const char* variable : {"logits/kernel", "logits/bias"}) {
        TSTUDIO_TRY(value, variableValue(b, variable));
        if (Status s = summarise(b, variable, value); !s.isOk())
            return unexpected(s);
    }
    losses::LossOptions loss;
    loss.scope = "loss";
    TSTUDIO_TRY(crossEntropy, losses::sparseSoftmaxCrossEntropy(b, labels, logits, loss));
    (void)crossEntropy;
    {
        TSTUDIO_TRY(scope, b.nameScope("accuracy"));
        TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "ArgMax/dimension"));
        TSTUDIO_TRY(predicted, ops::firstOutput(b.op("ArgMax", {logits, axis}, {}, "ArgMax")));
        TSTUDIO_TRY(equal, ops::firstOutput(b.op("Equal", {predicted, labels})));
        TSTUDIO_TRY(asFloat, ops::firstOutput(b.op("Cast", {equal}, {{"DstT", attr::type(tensorflow::DT_FLOAT)}})));
        TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
        TSTUDIO_TRY(mean, ops::firstOutput(b.op("Mean", {asFloat, axes}, {}, "Mean")));
        (void)mean;
    }
    return b.toGraphDef();
}

} // namespace tstudio::examples
