// buildWord2Vec: word2vec_basic.py's skip-gram graph with nce_loss.
#include "word2vec_model.h"

#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "core/try.h"
#include "losses/sampled_losses.h"

#include <cmath>

namespace tstudio::examples {

Expected<tensorflow::GraphDef> buildWord2Vec(const OpRegistry& ops, const Word2VecOptions& options)
{
    if (options.vocabSize < 2 || options.embeddingSize < 1 || options.numSampled < 1 ||
        options.numSampled >= options.vocabSize)
        return unexpected(invalidArgumentError("buildWord2Vec: vocab_size >= 2, embedding_size >= 1 and "
                                               "1 <= num_sampled < vocab_size expected"));
    GraphBuilder b(ops);
    b.setRandomSeed(options.seed);
    const std::int64_t vocab = options.vocabSize, dim = options.embeddingSize;
    TSTUDIO_TRY(inputs, ops::placeholder(b, tensorflow::DT_INT32, TensorShape({-1}), "train_inputs"));
    TSTUDIO_TRY(labels, ops::placeholder(b, tensorflow::DT_INT64, TensorShape({-1, 1}), "train_labels"));
    TSTUDIO_TRY(embeddings, getVariable(b, "embeddings", TensorShape({vocab, dim}), tensorflow::DT_FLOAT,
                                        Initializer::randomUniform(-1.0, 1.0)));
    TSTUDIO_TRY(embed, nn::embeddingLookup(b, embeddings.value(), inputs));
    TSTUDIO_TRY(weights, getVariable(b, "nce_weights", TensorShape({vocab, dim}), tensorflow::DT_FLOAT,
                                     Initializer::truncatedNormal(0.0, 1.0 / std::sqrt(static_cast<double>(dim)))));
    TSTUDIO_TRY(biases, getVariable(b, "nce_biases", TensorShape({vocab}), tensorflow::DT_FLOAT, Initializer::zeros()));
    TSTUDIO_TRY(perExample,
                nn::nceLoss(b, {weights.value()}, biases.value(), labels, embed, options.numSampled, vocab));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "loss/axes"));
    TSTUDIO_TRY(loss, ops::firstOutput(b.op("Mean", {perExample, axes}, {}, "loss")));
    (void)loss;

    // The tutorial's norm = sqrt(reduce_sum(square(embeddings), 1, keepdims=True)).
    Output norm;
    {
        TSTUDIO_TRY(scope, b.nameScope("norm"));
        TSTUDIO_TRY(square, ops::firstOutput(b.op("Square", {embeddings.value()}, {}, "Square")));
        TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "Sum/reduction_indices"));
        TSTUDIO_TRY(sum, ops::firstOutput(b.op("Sum", {square, axis}, {{"keep_dims", attr::b(true)}}, "Sum")));
        TSTUDIO_TRY(root, ops::firstOutput(b.op("Sqrt", {sum}, {}, "Sqrt")));
        norm = root;
    }
    TSTUDIO_TRY(normalized, ops::firstOutput(b.op("RealDiv", {embeddings.value(), norm}, {}, "normalized_embeddings")));
    (void)normalized;
    return b.toGraphDef();
}

} // namespace tstudio::examples
