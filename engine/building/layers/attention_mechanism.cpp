// Attention mechanisms: masked memory, keys, Bahdanau and Luong scores, masked softmax.
#include "layers/attention_mechanism.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/rnn_cell_ops.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "layers/dense.h"

#include <cmath>
#include <limits>

namespace tstudio::seq2seq {
namespace {

using py::Operator;

/// shape(x)[1] as an int32 scalar ("Shape", "strided_slice").
Expected<Output> secondDim(GraphBuilder& b, const Output& x)
{
    TSTUDIO_TRY(shape, py::shape(b, x, false));
    TSTUDIO_TRY(begin, ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "strided_slice/stack"));
    TSTUDIO_TRY(end, ops::constantInts(b, {2}, TensorShape({1}), tensorflow::DT_INT32, "strided_slice/stack_1"));
    TSTUDIO_TRY(step, ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "strided_slice/stack_2"));
    return py::genOp(b, "StridedSlice", {shape, begin, end, step}, {{"shrink_axis_mask", attr::i(1)}}, "strided_slice");
}

/// tf.sequence_mask(lengths, maxlen): range(maxlen) < expand_dims(lengths, -1), bool [batch, maxlen]
/// ("SequenceMask/...").
Expected<Output> sequenceMask(GraphBuilder& b, const Output& lengths, const Output& maxlen)
{
    TSTUDIO_TRY(scope, b.nameScope("SequenceMask"));
    TSTUDIO_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));
    TSTUDIO_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "Const_1"));
    TSTUDIO_TRY(range, py::genOp(b, "Range", {start, maxlen, delta}));
    Output expanded = lengths;
    if (lengths.baseDtype() != tensorflow::DT_INT32) {
        TSTUDIO_TRY(cast, py::cast(b, lengths, tensorflow::DT_INT32));
        expanded = cast;
    }
    TSTUDIO_TRY(column, py::expandDims(b, expanded, -1));
    return py::genOp(b, "Less", {range, column});
}

} // namespace

Status AttentionMechanism::prepare(GraphBuilder& b, const AttentionMechanismOptions& options,
                                   const std::string& scopeName)
{
    const Output& memory = options.memory;
    if (memory.shape().rank() != 3 || memory.shape().dim(2) < 0)
        return invalidArgumentError(className() + ": memory " + memory.name() +
                                    " must be [batch, max_time, depth] with a known depth, got " +
                                    memory.shape().toString());
    if (options.numUnits <= 0)
        return invalidArgumentError(className() + ": num_units must be positive, got " +
                                    std::to_string(options.numUnits));
    if (options.memorySequenceLength && options.memorySequenceLength->shape().rank() != 1)
        return invalidArgumentError(className() + ": memory_sequence_length " + options.memorySequenceLength->name() +
                                    " must be a vector [batch], got " +
                                    options.memorySequenceLength->shape().toString());
    m_numUnits = options.numUnits;
    m_lengths = options.memorySequenceLength;
    auto scope = b.nameScope(scopeName);
    if (!scope)
        return scope.error();
    m_values = memory;
    if (m_lengths) {
        // _prepare_memory: memory * sequence_mask(lengths, max_time, dtype)[..., None].
        auto maxlen = secondDim(b, memory);
        if (!maxlen)
            return maxlen.error();
        auto mask = sequenceMask(b, *m_lengths, *maxlen);
        if (!mask)
            return mask.error();
        auto numeric = py::cast(b, *mask, memory.baseDtype());
        if (!numeric)
            return numeric.error();
        auto column = py::expandDims(b, *numeric, -1);
        if (!column)
            return column.error();
        auto masked = py::binary(b, Operator::kMul, memory, *column);
        if (!masked)
            return masked.error();
        auto shaped = nn::rnn_detail::withShape(b, *masked, memory.shape());
        if (!shaped)
            return shaped.error();
        m_values = *shaped;
    }
    layers::DenseOptions memoryLayer;
    memoryLayer.units = m_numUnits;
    memoryLayer.useBias = false;
    memoryLayer.name = "memory_layer";
    auto keys = layers::dense(b, m_values, memoryLayer);
    if (!keys)
        return keys.error();
    m_keys = *keys;
    return {};
}

Expected<Output> AttentionMechanism::call(GraphBuilder& b, const Output& query, const Output&)
{
    Output score;
    {
        std::optional<ScopeGuard> scope;
        if (m_scope) {
            VariableScopeState state = b.variableStore().current();
            state.name = *m_scope;
            TSTUDIO_TRY(entered, variableScope(b, state, Reuse::kTrue));
            scope.emplace(std::move(entered));
        } else {
            TSTUDIO_TRY(entered, variableScopeWithDefaultName(b, scopeName()));
            scope.emplace(std::move(entered));
            m_scope = b.variableStore().current().name;
        }
        TSTUDIO_TRY(s, this->score(b, query));
        score = s;
    }
    if (m_lengths) {
        // _maybe_mask_score: -inf where the memory has ended.
        TSTUDIO_TRY(maxlen, secondDim(b, score));
        TSTUDIO_TRY(mask, sequenceMask(b, *m_lengths, maxlen));
        TSTUDIO_TRY(ones, py::onesLike(b, score));
        TSTUDIO_TRY(minusInf, py::binary(b, Operator::kMul, ones, -std::numeric_limits<double>::infinity()));
        TSTUDIO_TRY(masked, py::where(b, mask, score, minusInf));
        TSTUDIO_TRY(shaped, nn::rnn_detail::withShape(b, masked, score.shape()));
        score = shaped;
    }
    return py::genOp(b, "Softmax", {score});
}

// --- BahdanauAttention -------------------------------------------------------------------------------------------

Expected<std::shared_ptr<BahdanauAttention>>
BahdanauAttention::create(GraphBuilder& b, const AttentionMechanismOptions& options, bool normalize)
{
    std::shared_ptr<BahdanauAttention> self(new BahdanauAttention);
    self->m_normalize = normalize;
    if (Status s = self->prepare(b, options, "BahdanauAttention"); !s.isOk())
        return unexpected(s);
    return self;
}

Expected<Output> BahdanauAttention::score(GraphBuilder& b, const Output& query)
{
    const DataType dtype = query.baseDtype();
    layers::DenseOptions queryLayer;
    queryLayer.units = m_numUnits;
    queryLayer.useBias = false;
    queryLayer.name = "query_layer";
    TSTUDIO_TRY(processed, layers::dense(b, query, queryLayer));
    TSTUDIO_TRY(expanded, py::expandDims(b, processed, 1));
    TSTUDIO_TRY(v, getVariable(b, "attention_v", TensorShape({m_numUnits}), dtype));
    TSTUDIO_TRY(axis, ops::constantInts(b, {2}, TensorShape({1}), tensorflow::DT_INT32, "Sum/reduction_indices"));
    TSTUDIO_TRY(sum, py::binary(b, Operator::kAdd, m_keys, expanded));
    Output weights = v.value();
    if (m_normalize) {
        TSTUDIO_TRY(g, getVariable(b, "attention_g", TensorShape::scalar(), dtype,
                                   Initializer::constant(std::sqrt(1.0 / double(m_numUnits)))));
        TSTUDIO_TRY(bias, getVariable(b, "attention_b", TensorShape({m_numUnits}), dtype, Initializer::zeros()));
        TSTUDIO_TRY(gv, py::binary(b, Operator::kMul, g.value(), v.value()));
        TSTUDIO_TRY(square, py::genOp(b, "Square", {v.value()}));
        TSTUDIO_TRY(all, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
        TSTUDIO_TRY(norm2, py::reduceSum(b, square, all));
        TSTUDIO_TRY(inverse, py::genOp(b, "Rsqrt", {norm2}));
        TSTUDIO_TRY(normed, py::binary(b, Operator::kMul, gv, inverse));
        weights = normed;
        TSTUDIO_TRY(shifted, py::binary(b, Operator::kAdd, sum, bias.value()));
        sum = shifted;
    }
    TSTUDIO_TRY(tanh, py::genOp(b, "Tanh", {sum}));
    TSTUDIO_TRY(product, py::binary(b, Operator::kMul, weights, tanh));
    TSTUDIO_TRY(score, py::reduceSum(b, product, axis));
    const std::int64_t batch = query.shape().rank() == 2 ? query.shape().dim(0) : -1;
    return nn::rnn_detail::withShape(b, score, TensorShape({batch, alignmentsSize()}));
}

// --- LuongAttention ----------------------------------------------------------------------------------------------

Expected<std::shared_ptr<LuongAttention>> LuongAttention::create(GraphBuilder& b,
                                                                 const AttentionMechanismOptions& options, bool scale)
{
    std::shared_ptr<LuongAttention> self(new LuongAttention);
    self->m_scale = scale;
    if (Status s = self->prepare(b, options, "LuongAttention"); !s.isOk())
        return unexpected(s);
    return self;
}

Expected<Output> LuongAttention::score(GraphBuilder& b, const Output& query)
{
    const std::int64_t depth = query.shape().rank() == 2 ? query.shape().dim(1) : -1;
    const std::int64_t keyUnits = m_keys.shape().dim(2);
    if (depth != keyUnits)
        return unexpected(invalidArgumentError(
            "Incompatible or unknown inner dimensions between query and keys.  Query (" + query.name() +
            ") has units: " + (depth < 0 ? std::string("None") : std::to_string(depth)) + ".  Keys (" + m_keys.name() +
            ") have units: " + std::to_string(keyUnits) +
            ".  Perhaps you need to set num_units to the keys' dimension (" + std::to_string(keyUnits) + ")?"));
    TSTUDIO_TRY(expanded, py::expandDims(b, query, 1));
    TSTUDIO_TRY(product, py::genOp(b, "BatchMatMulV2", {expanded, m_keys}, {{"adj_y", attr::b(true)}}, "MatMul"));
    TSTUDIO_TRY(score, py::genOp(b, "Squeeze", {product}, {{"squeeze_dims", attr::ints({1})}}));
    Output out = score;
    if (m_scale) {
        TSTUDIO_TRY(g, getVariable(b, "attention_g", TensorShape::scalar(), query.baseDtype(), Initializer::ones()));
        TSTUDIO_TRY(scaled, py::binary(b, Operator::kMul, g.value(), score));
        out = scaled;
    }
    const std::int64_t batch = query.shape().rank() == 2 ? query.shape().dim(0) : -1;
    return nn::rnn_detail::withShape(b, out, TensorShape({batch, alignmentsSize()}));
}

} // namespace tstudio::seq2seq
