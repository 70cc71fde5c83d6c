// Attention mechanisms of tf.contrib.seq2seq (TF 1.15): BahdanauAttention (additive, optionally
// weight-normalized) and LuongAttention (multiplicative, optionally scaled) over a memory masked
// beyond its lengths; AttentionWrapper (attention_wrapper.h) queries them at every decoder step.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <memory>
#include <optional>
#include <string>

namespace tstudio::seq2seq {

/// The arguments the mechanisms share.
struct AttentionMechanismOptions {
    std::int64_t numUnits = 0;
    /// [batch, max_time, depth].
    Output memory;
    /// int32 [batch]: memory entries at or past an entry's length are zeroed (values, keys) and
    /// get probability 0.
    std::optional<Output> memorySequenceLength;
};

/// _BaseAttentionMechanism: at creation, under name scope "<name>" (made unique), the memory masked
/// by its lengths (the values) and the keys = memory_layer(values) (tf.layers.dense "memory_layer",
/// no bias: variable "<variable scope>/memory_layer/kernel" [depth, numUnits]). call(query,
/// state) gives the alignments [batch, max_time]: softmax of the score with -inf past the lengths.
class AttentionMechanism {
public:
    virtual ~AttentionMechanism() = default;
    /// "BahdanauAttention", "LuongAttention".
    virtual std::string className() const = 0;
    const Output& values() const { return m_values; }
    const Output& keys() const { return m_keys; }
    /// max_time when known statically, else -1.
    std::int64_t alignmentsSize() const { return m_keys.shape().rank() == 3 ? m_keys.shape().dim(1) : -1; }
    /// The values' depth (the context's size).
    std::int64_t valuesDepth() const { return m_values.shape().rank() == 3 ? m_values.shape().dim(2) : -1; }
    /// The alignments for `query` [batch, depth] (the previous alignments, `state`, are not used by
    /// these two mechanisms). Variables are made on the first call in variable scope
    /// "<scopeName()>" (made unique then, re-entered afterwards).
    Expected<Output> call(GraphBuilder& b, const Output& query, const Output& state);

protected:
    AttentionMechanism() = default;
    /// Masks the memory and makes the keys; `scopeName` is the name scope's default name.
    Status prepare(GraphBuilder& b, const AttentionMechanismOptions& options, const std::string& scopeName);
    /// The score [batch, max_time] in the mechanism's variable scope.
    virtual Expected<Output> score(GraphBuilder& b, const Output& query) = 0;
    /// The variable scope's default name ("bahdanau_attention").
    virtual std::string scopeName() const = 0;

    std::int64_t m_numUnits = 0;
    Output m_values;
    Output m_keys;
    std::optional<Output> m_lengths;

private:
    std::optional<std::string> m_scope; ///< the variable scope of the first call
};

/// tf.contrib.seq2seq.BahdanauAttention(num_units, memory, memory_sequence_length, normalize):
/// score = reduce_sum(v * tanh(keys + query_layer(query)), 2) with the variables
/// ".../bahdanau_attention/query_layer/kernel" [query depth, numUnits] and "attention_v" [numUnits];
/// normalized: v replaced by g * v / ||v|| and a bias b added inside the tanh ("attention_g" =
/// sqrt(1 / numUnits), "attention_b" = zeros).
class BahdanauAttention : public AttentionMechanism {
public:
    static Expected<std::shared_ptr<BahdanauAttention>>
    create(GraphBuilder& b, const AttentionMechanismOptions& options, bool normalize = false);
    std::string className() const override { return "BahdanauAttention"; }

protected:
    Expected<Output> score(GraphBuilder& b, const Output& query) override;
    std::string scopeName() const override { return "bahdanau_attention"; }

private:
    bool m_normalize = false;
};

/// tf.contrib.seq2seq.LuongAttention(num_units, memory, memory_sequence_length, scale): score =
/// query . keys (a BatchMatMulV2 of [batch, 1, units] and the keys transposed), scaled by
/// ".../luong_attention/attention_g" (ones) when `scale`. InvalidArgument, TensorFlow's text,
/// "Incompatible or unknown inner dimensions between query and keys.  Query (q:0) has units: 5.
/// Keys (...) have units: 4.  Perhaps you need to set num_units to the keys' dimension (4)?".
class LuongAttention : public AttentionMechanism {
public:
    static Expected<std::shared_ptr<LuongAttention>> create(GraphBuilder& b, const AttentionMechanismOptions& options,
                                                            bool scale = false);
    std::string className() const override { return "LuongAttention"; }

protected:
    Expected<Output> score(GraphBuilder& b, const Output& query) override;
    std::string scopeName() const override { return "luong_attention"; }

private:
    bool m_scale = false;
};

} // namespace tstudio::seq2seq
