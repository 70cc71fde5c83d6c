// seq2seq helpers (tf.contrib.seq2seq of TF 1.15): what a decoder feeds its cell at each step and
// when a sequence is finished. TrainingHelper reads the target inputs (teacher forcing);
// GreedyEmbeddingHelper feeds back the embedding of the argmax of the previous step's logits.
#pragma once

#include "builder/graph_builder.h"
#include "builder/tensor_array.h"
#include "core/expected.h"

#include <memory>
#include <string>

namespace tstudio::seq2seq {

/// What initialize() gives: which batch entries are finished already and the first inputs.
struct HelperStart {
    Output finished; ///< bool [batch]
    Output inputs;   ///< [batch, depth]
};

/// What nextInputs() gives (the state passes through unchanged for these helpers).
struct HelperNext {
    Output finished;
    Output inputs;
};

/// tf.contrib.seq2seq.Helper: the sampling interface BasicDecoder calls inside dynamic_decode's loop.
/// Every method builds in the current name and control-flow context.
class Helper {
public:
    virtual ~Helper() = default;
    /// The batch size as a scalar int32 tensor.
    virtual const Output& batchSize() const = 0;
    /// The static shape of each step's inputs ([batch, depth], batch -1 when unknown).
    virtual TensorShape inputShape() const = 0;
    virtual Expected<HelperStart> initialize(GraphBuilder& b) = 0;
    /// The sample ids (int32 [batch]) from the step's outputs (logits).
    virtual Expected<Output> sample(GraphBuilder& b, const Output& time, const Output& outputs) = 0;
    virtual Expected<HelperNext> nextInputs(GraphBuilder& b, const Output& time, const Output& outputs,
                                            const Output& sampleIds) = 0;
};

/// tf.contrib.seq2seq.TrainingHelper(inputs, sequence_length, time_major): under name scope
/// "TrainingHelper", the inputs ([batch, time, depth], or [time, batch, depth] when time major)
/// unstacked into a TensorArray over time, zeros like one step ("zeros_like") and the batch size
/// ("Size" of sequence_length). initialize ("TrainingHelperInitialize"): finished = 0 ==
/// sequence_length, the inputs of time 0 (zeros when all are finished, a cond); sample
/// ("TrainingHelperSample"): argmax of the logits cast to int32; nextInputs
/// ("TrainingHelperNextInputs"): finished = time + 1 >= sequence_length, the inputs of time + 1
/// (zeros when all are finished). InvalidArgument "Expected sequence_length to be a vector, but
/// received shape: [2,3]" and, for inputs below rank 3, "TrainingHelper: inputs x:0 must be
/// [batch, time, depth], got [2]".
class TrainingHelper : public Helper {
public:
    static Expected<std::unique_ptr<TrainingHelper>> create(GraphBuilder& b, const Output& inputs,
                                                            const Output& sequenceLength, bool timeMajor = false);
    const Output& batchSize() const override { return m_batchSize; }
    TensorShape inputShape() const override { return m_elementShape; }
    Expected<HelperStart> initialize(GraphBuilder& b) override;
    Expected<Output> sample(GraphBuilder& b, const Output& time, const Output& outputs) override;
    Expected<HelperNext> nextInputs(GraphBuilder& b, const Output& time, const Output& outputs,
                                    const Output& sampleIds) override;

private:
    TrainingHelper(TensorArray inputs, Output sequenceLength, Output zeroInputs, Output batchSize,
                   TensorShape elementShape);
    /// The inputs of `time`, or zeros when every sequence is finished.
    Expected<Output> inputsAt(GraphBuilder& b, const Output& time, const Output& finished);

    TensorArray m_inputs;
    Output m_sequenceLength;
    Output m_zeroInputs;
    Output m_batchSize;
    TensorShape m_elementShape;
};

/// tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, start_tokens, end_token): the first inputs
/// are embedding_lookup(embedding, start_tokens) (built at creation); sample is the argmax of the
/// logits (int32); a sequence finishes when its sample is end_token, and the next inputs are the
/// embeddings of the samples (the start inputs once all are finished, a cond). InvalidArgument
/// "start_tokens must be a vector" and "end_token must be a scalar" (TensorFlow's ValueErrors),
/// and for a non-integer token tensor.
class GreedyEmbeddingHelper : public Helper {
public:
    static Expected<std::unique_ptr<GreedyEmbeddingHelper>> create(GraphBuilder& b, const Output& embedding,
                                                                   const Output& startTokens, const Output& endToken);
    const Output& batchSize() const override { return m_batchSize; }
    TensorShape inputShape() const override { return m_startInputs.shape(); }
    Expected<HelperStart> initialize(GraphBuilder& b) override;
    Expected<Output> sample(GraphBuilder& b, const Output& time, const Output& outputs) override;
    Expected<HelperNext> nextInputs(GraphBuilder& b, const Output& time, const Output& outputs,
                                    const Output& sampleIds) override;

private:
    GreedyEmbeddingHelper(Output embedding, Output endToken, Output batchSize, Output startInputs);

    Output m_embedding;
    Output m_endToken;
    Output m_batchSize;
    Output m_startInputs;
};

} // namespace tstudio::seq2seq
