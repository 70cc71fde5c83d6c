// RnnCell's zero_state, the layer scoping of LayerRnnCell, BasicRNNCell and GRUCell as TensorFlow 1.15
// builds them, and the shared op helpers of rnn_cell_ops.h.
#include "builder/rnn_cell.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/rnn_cell_ops.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"

#include <string>

namespace tstudio::nn {

namespace rnn_detail {

Expected<Output> concat(GraphBuilder& b, const std::vector<Output>& values, std::int64_t axis, std::string_view name)
{
    TSTUDIO_TRY(scope, b.nameScope(name));
    if (values.size() == 1) {
        TSTUDIO_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "concat_dim"));
        (void)axisT;
        return py::genOp(b, "Identity", {values[0]}, {}, scope.name());
    }
    TSTUDIO_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "ConcatV2", {values, axisT}, {}, scope.name());
}

Expected<std::vector<Output>> split(GraphBuilder& b, const Output& x, std::int64_t num, std::int64_t axis)
{
    TSTUDIO_TRY(scope, b.nameScope("split"));
    TSTUDIO_TRY(dim, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "split_dim"));
    TSTUDIO_TRY(op, b.op("Split", {dim, x}, {{"num_split", attr::i(num)}}, scope.name()));
    return op.outputs();
}

Expected<std::vector<Output>> split(GraphBuilder& b, const Output& x, std::int64_t num, const Output& axis)
{
    TSTUDIO_TRY(op, b.op("Split", {axis, x}, {{"num_split", attr::i(num)}}, "split"));
    return op.outputs();
}

Expected<Output> slice(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& begin,
                       const std::vector<std::int64_t>& size)
{
    TSTUDIO_TRY(scope, b.nameScope("Slice"));
    TSTUDIO_TRY(beginT, py::intVector(b, begin, "begin"));
    TSTUDIO_TRY(sizeT, py::intVector(b, size, "size"));
    return py::genOp(b, "Slice", {x, beginT, sizeT}, {}, scope.name());
}

Expected<Output> biasAdd(GraphBuilder& b, const Output& x, const Output& bias)
{
    return py::genOp(b, "BiasAdd", {x, bias});
}

Expected<Output> matmul(GraphBuilder& b, const Output& a, const Output& x)
{
    return py::genOp(b, "MatMul", {a, x});
}

Expected<Output> linear(GraphBuilder& b, const Output& x, const Output& h, const Output& kernel, const Output& bias)
{
    TSTUDIO_TRY(joined, concat(b, {x, h}, 1));
    TSTUDIO_TRY(product, matmul(b, joined, kernel));
    return biasAdd(b, product, bias);
}

Expected<Output> unary(GraphBuilder& b, std::string_view type, const Output& x)
{
    return py::genOp(b, type, {x});
}

Expected<Output> binaryOp(GraphBuilder& b, std::string_view type, const Output& x, const Output& y)
{
    return py::genOp(b, type, {x, y});
}

Expected<Output> clipByValue(GraphBuilder& b, const Output& x, double limit)
{
    TSTUDIO_TRY(scope, b.nameScope("clip_by_value"));
    TSTUDIO_TRY(low, py::genOpScalarY(b, "Minimum", x, limit));
    TSTUDIO_TRY(y, py::constant(b, -limit, x.baseDtype(), "y"));
    return py::genOp(b, "Maximum", {low, y}, {}, scope.name());
}

Expected<Output> withShape(GraphBuilder& b, const Output& t, const TensorShape& shape)
{
    if (Status st = b.setShape(t, shape); !st.isOk())
        return unexpected(st);
    return b.tensor(t.name());
}

std::string shapeList(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "<unknown>";
    std::string out = "[";
    for (int i = 0; i < shape.rank(); ++i) {
        if (i > 0)
            out += ", ";
        out += shape.dim(i) < 0 ? std::string("?") : std::to_string(shape.dim(i));
    }
    return out + "]";
}

Status checkCellInputs(const std::string& layer, const Output& inputs)
{
    const TensorShape& shape = inputs.shape();
    if (shape.rank() >= 0 && shape.rank() != 2)
        return invalidArgumentError("Input 0 of layer " + layer +
                                    " is incompatible with the layer: expected ndim=2, found ndim=" +
                                    std::to_string(shape.rank()) + ". Full shape received: " + shapeList(shape) +
                                    " (input " + inputs.name() + ")");
    if (shape.rank() != 2 || shape.dim(1) < 0)
        return invalidArgumentError("Expected inputs.shape[-1] to be known, saw shape: " + shapeList(shape) +
                                    " (layer " + layer + ", input " + inputs.name() + ")");
    if (!isFloating(inputs.baseDtype()))
        return invalidArgumentError("RNN cell only supports floating point inputs, but saw dtype: " +
                                    dataTypeName(inputs.baseDtype()) + " (layer " + layer + ")");
    return Status();
}

} // namespace rnn_detail

using namespace rnn_detail;

Expected<Output> tanhActivation(GraphBuilder& b, const Output& x)
{
    return unary(b, "Tanh", x);
}

// --- zero_state -----------------------------------------------------------------------------------------

Expected<Output> rnnZeros(GraphBuilder& b, const RnnBatchSize& batchSize, std::int64_t size, DataType dtype)
{
    Output shape;
    if (!batchSize.tensor.isValid()) {
        TSTUDIO_TRY(c, ops::constantInts(b, {batchSize.value, size}, TensorShape{2}, tensorflow::DT_INT32, "Const"));
        shape = c;
    } else {
        // _concat(tensor prefix, int suffix): expand_dims(prefix, 0), constant([suffix]), concat.
        TSTUDIO_TRY(p, py::expandDims(b, batchSize.tensor, 0));
        TSTUDIO_TRY(s, py::intVector(b, {size}, "Const"));
        TSTUDIO_TRY(c, concat(b, {p, s}, 0));
        shape = c;
    }
    TSTUDIO_TRY(zeros, py::zeros(b, shape, dtype));
    const std::int64_t batch = batchSize.tensor.isValid() ? TensorShape::kUnknownDim : batchSize.value;
    return withShape(b, zeros, TensorShape{batch, size});
}

Expected<RnnState> RnnCell::zeroState(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype)
{
    if (batchSize.tensor.isValid() && batchSize.tensor.shape().rank() > 0)
        return unexpected(invalidArgumentError("zero_state of " + className() +
                                               ": batch_size must be a scalar, got " + batchSize.tensor.name() +
                                               " of shape " + batchSize.tensor.shape().toString()));
    if (!batchSize.tensor.isValid() && batchSize.value < 0)
        return unexpected(invalidArgumentError("zero_state of " + className() + ": batch_size must be >= 0, got " +
                                               std::to_string(batchSize.value)));
    TSTUDIO_TRY(scope, b.nameScope(className() + "ZeroState"));
    return zeroStateInScope(b, batchSize, dtype);
}

Expected<RnnState> RnnCell::zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype)
{
    const RnnStateSize sizes = stateSize();
    std::vector<Output> flat;
    for (std::int64_t size : sizes.flatten()) {
        TSTUDIO_TRY(z, rnnZeros(b, batchSize, size, dtype));
        flat.push_back(z);
    }
    return sizes.packAs(flat);
}

// --- LayerRnnCell -----------------------------------------------------------------------------------------

namespace {

/// True when getVariable made a variable under "<prefix>/".
bool scopeHasVariables(const GraphBuilder& b, const std::string& prefix)
{
    const auto& vars = b.variableStore().variables();
    auto it = vars.lower_bound(prefix + "/");
    return it != vars.end() && it->first.starts_with(prefix + "/");
}

} // namespace

Expected<Variable> LayerRnnCell::addVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape,
                                             DataType dtype, std::optional<Initializer> initializer)
{
    TSTUDIO_TRY(v, getVariable(b, name, shape, dtype, std::move(initializer)));
    m_variables.push_back(v);
    return v;
}

Status LayerRnnCell::addKernelAndBias(GraphBuilder& b, std::int64_t rows, std::int64_t columns, DataType dtype,
                                      const std::optional<Initializer>& kernelInitializer, Output& kernel, Output& bias)
{
    auto k = addVariable(b, "kernel", TensorShape{rows, columns}, dtype, kernelInitializer);
    if (!k)
        return k.error();
    auto bi = addVariable(b, "bias", TensorShape{columns}, dtype, Initializer::zeros());
    if (!bi)
        return bi.error();
    kernel = k->value();
    bias = bi->value();
    return Status();
}

Expected<RnnStep> LayerRnnCell::call(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (m_checksInputRank) {
        if (Status st = checkCellInputs(m_built ? m_scopeName : m_baseName, inputs); !st.isOk())
            return unexpected(st);
    }
    if (m_built) {
        TSTUDIO_TRY(scope, b.nameScope(m_baseName));
        return step(b, inputs, state);
    }
    // Layer._set_scope: variable_scope(None, default_name=base_name), unique among the scopes that
    // already hold variables, unless the scope reuses (then the variables must be the existing ones).
    const VariableScopeState& parent = b.variableStore().current();
    std::string name = m_baseName;
    if (parent.reuse == Reuse::kFalse) {
        const std::string prefix = parent.name.empty() ? std::string() : parent.name + "/";
        for (int i = 1; scopeHasVariables(b, prefix + name); ++i)
            name = m_baseName + "_" + std::to_string(i);
    }
    TSTUDIO_TRY(scope, variableScope(b, name));
    const DataType dtype = inputs.baseDtype();
    const std::int64_t depth = inputs.shape().rank() == 2 ? inputs.shape().dim(1) : TensorShape::kUnknownDim;
    {
        // TensorFlow creates variables in init_scope: outside any while loop or cond.
        ScopeGuard noContext = b.controlFlowContextScope(nullptr);
        m_variables.clear();
        if (Status st = build(b, depth, dtype); !st.isOk())
            return unexpected(st);
    }
    m_built = true;
    m_scopeName = scope.name();
    return step(b, inputs, state);
}

// --- BasicRNNCell ---------------------------------------------------------------------------------------------

BasicRNNCell::BasicRNNCell(std::int64_t numUnits, RnnActivation activation, std::string name)
    : LayerRnnCell(name.empty() ? "basic_rnn_cell" : std::move(name)), m_numUnits(numUnits),
      m_activation(activation ? std::move(activation) : RnnActivation(tanhActivation))
{
}

Status BasicRNNCell::build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype)
{
    return addKernelAndBias(b, inputDepth + m_numUnits, m_numUnits, dtype, std::nullopt, m_kernel, m_bias);
}

Expected<RnnStep> BasicRNNCell::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (!state.isLeaf())
        return unexpected(invalidArgumentError("BasicRNNCell " + baseName() +
                                               " expects its state to be a single tensor, got a tuple"));
    TSTUDIO_TRY(biased, linear(b, inputs, state.value(), m_kernel, m_bias));
    TSTUDIO_TRY(output, m_activation(b, biased));
    return RnnStep{output, RnnState::leaf(output)};
}

// --- GRUCell ------------------------------------------------------------------------------------------------------

GRUCell::GRUCell(std::int64_t numUnits, Options options)
    : LayerRnnCell(options.name.empty() ? "gru_cell" : options.name), m_numUnits(numUnits),
      m_options(std::move(options))
{
    if (!m_options.activation)
        m_options.activation = tanhActivation;
}

Status GRUCell::build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype)
{
    const std::int64_t rows = inputDepth + m_numUnits;
    auto gateKernel = addVariable(b, "gates/kernel", TensorShape{rows, 2 * m_numUnits}, dtype,
                                  m_options.kernelInitializer);
    if (!gateKernel)
        return gateKernel.error();
    auto gateBias = addVariable(b, "gates/bias", TensorShape{2 * m_numUnits}, dtype,
                                m_options.biasInitializer ? *m_options.biasInitializer : Initializer::constant(1.0));
    if (!gateBias)
        return gateBias.error();
    auto candidateKernel =
        addVariable(b, "candidate/kernel", TensorShape{rows, m_numUnits}, dtype, m_options.kernelInitializer);
    if (!candidateKernel)
        return candidateKernel.error();
    auto candidateBias = addVariable(b, "candidate/bias", TensorShape{m_numUnits}, dtype,
                                     m_options.biasInitializer ? *m_options.biasInitializer : Initializer::zeros());
    if (!candidateBias)
        return candidateBias.error();
    m_gateKernel = gateKernel->value();
    m_gateBias = gateBias->value();
    m_candidateKernel = candidateKernel->value();
    m_candidateBias = candidateBias->value();
    return Status();
}

Expected<RnnStep> GRUCell::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (!state.isLeaf())
        return unexpected(
            invalidArgumentError("GRUCell " + baseName() + " expects its state to be a single tensor, got a tuple"));
    const Output& h = state.value();
    TSTUDIO_TRY(gateBiased, linear(b, inputs, h, m_gateKernel, m_gateBias));
    TSTUDIO_TRY(value, unary(b, "Sigmoid", gateBiased));
    TSTUDIO_TRY(ru, split(b, value, 2, 1));
    TSTUDIO_TRY(rState, py::binary(b, py::Operator::kMul, ru[0], h));
    TSTUDIO_TRY(candidateBiased, linear(b, inputs, rState, m_candidateKernel, m_candidateBias));
    TSTUDIO_TRY(c, m_options.activation(b, candidateBiased));
    TSTUDIO_TRY(uh, py::binary(b, py::Operator::kMul, ru[1], h));
    TSTUDIO_TRY(oneMinusU, py::binary(b, py::Operator::kSub, 1.0, ru[1]));
    TSTUDIO_TRY(uc, py::binary(b, py::Operator::kMul, oneMinusU, c));
    TSTUDIO_TRY(newH, py::binary(b, py::Operator::kAdd, uh, uc));
    return RnnStep{newH, RnnState::leaf(newH)};
}

} // namespace tstudio::nn
