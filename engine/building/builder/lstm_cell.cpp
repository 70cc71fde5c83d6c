// BasicLSTMCell and LSTMCell as TensorFlow 1.15's rnn_cell_impl builds them.
#include "builder/lstm_cell.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/rnn_cell_ops.h"
#include "core/try.h"

namespace tstudio::nn {

using namespace rnn_detail;
using py::Operator;

namespace {

/// The (c, h) of an LSTM state: the tuple's items, or slices of a concatenated state.
struct LstmParts {
    Output c;
    Output h;
};

Expected<LstmParts> lstmParts(GraphBuilder& b, const std::string& layer, const RnnState& state, bool stateIsTuple,
                              std::int64_t cSize, std::int64_t hSize)
{
    if (stateIsTuple) {
        if (!state.isLstmStateTuple())
            return unexpected(invalidArgumentError("LSTM cell " + layer +
                                                   " expects its state to be an LSTMStateTuple(c, h)"));
        return LstmParts{state.c(), state.h()};
    }
    if (!state.isLeaf())
        return unexpected(invalidArgumentError("LSTM cell " + layer + " with state_is_tuple=False expects its state "
                                               "to be one tensor [batch, c + h]"));
    const Output& s = state.value();
    if (s.shape().rank() == 2 && s.shape().dim(1) >= 0 && s.shape().dim(1) != cSize + hSize)
        return unexpected(invalidArgumentError("LSTM cell " + layer + " expects a state of width " +
                                               std::to_string(cSize + hSize) + ", got " + s.name() + " of shape " +
                                               shapeList(s.shape())));
    TSTUDIO_TRY(c, slice(b, s, {0, 0}, {-1, cSize}));
    TSTUDIO_TRY(h, slice(b, s, {0, cSize}, {-1, hSize}));
    return LstmParts{c, h};
}

/// The step's result: output h, state LSTMStateTuple(c, h), or concat([c, h], 1) "concat_1" when the
/// state is not a tuple.
Expected<RnnStep> lstmStep(GraphBuilder& b, const Output& c, const Output& h, bool stateIsTuple)
{
    if (stateIsTuple)
        return RnnStep{h, RnnState::lstm(c, h)};
    TSTUDIO_TRY(joinedState, concat(b, {c, h}, 1, "concat_1"));
    return RnnStep{h, RnnState::leaf(joinedState)};
}

} // namespace

// --- BasicLSTMCell -----------------------------------------------------------------------------------------

BasicLSTMCell::BasicLSTMCell(std::int64_t numUnits, double forgetBias, bool stateIsTuple, RnnActivation activation,
                             std::string name)
    : LayerRnnCell(name.empty() ? "basic_lstm_cell" : std::move(name)), m_numUnits(numUnits),
      m_forgetBias(forgetBias), m_stateIsTuple(stateIsTuple),
      m_activation(activation ? std::move(activation) : RnnActivation(tanhActivation))
{
}

RnnStateSize BasicLSTMCell::stateSize() const
{
    return m_stateIsTuple ? RnnStateSize::lstm(m_numUnits, m_numUnits) : RnnStateSize::leaf(2 * m_numUnits);
}

Status BasicLSTMCell::build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype)
{
    return addKernelAndBias(b, inputDepth + m_numUnits, 4 * m_numUnits, dtype, std::nullopt, m_kernel, m_bias);
}

Expected<RnnStep> BasicLSTMCell::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    TSTUDIO_TRY(one, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));
    Output c;
    Output h;
    if (m_stateIsTuple) {
        TSTUDIO_TRY(parts, lstmParts(b, baseName(), state, true, m_numUnits, m_numUnits));
        c = parts.c;
        h = parts.h;
    } else {
        if (!state.isLeaf())
            return unexpected(invalidArgumentError("LSTM cell " + baseName() +
                                                   " with state_is_tuple=False expects one state tensor"));
        TSTUDIO_TRY(ch, split(b, state.value(), 2, one));
        c = ch[0];
        h = ch[1];
    }
    TSTUDIO_TRY(biased, linear(b, inputs, h, m_kernel, m_bias));
    TSTUDIO_TRY(ijfo, split(b, biased, 4, one));
    TSTUDIO_TRY(forgetBias, py::constant(b, m_forgetBias, ijfo[2].baseDtype(), "Const"));
    TSTUDIO_TRY(fPlus, binaryOp(b, "Add", ijfo[2], forgetBias));
    TSTUDIO_TRY(fGate, unary(b, "Sigmoid", fPlus));
    TSTUDIO_TRY(kept, binaryOp(b, "Mul", c, fGate));
    TSTUDIO_TRY(iGate, unary(b, "Sigmoid", ijfo[0]));
    TSTUDIO_TRY(candidate, m_activation(b, ijfo[1]));
    TSTUDIO_TRY(added, binaryOp(b, "Mul", iGate, candidate));
    TSTUDIO_TRY(newC, binaryOp(b, "Add", kept, added));
    TSTUDIO_TRY(actC, m_activation(b, newC));
    TSTUDIO_TRY(oGate, unary(b, "Sigmoid", ijfo[3]));
    TSTUDIO_TRY(newH, binaryOp(b, "Mul", actC, oGate));
    return lstmStep(b, newC, newH, m_stateIsTuple);
}

// --- LSTMCell ----------------------------------------------------------------------------------------------

LSTMCell::LSTMCell(std::int64_t numUnits, Options options)
    : LayerRnnCell(options.name.empty() ? "lstm_cell" : options.name), m_numUnits(numUnits),
      m_options(std::move(options))
{
    if (!m_options.activation)
        m_options.activation = tanhActivation;
}

RnnStateSize LSTMCell::stateSize() const
{
    const std::int64_t h = outputSize();
    return m_options.stateIsTuple ? RnnStateSize::lstm(m_numUnits, h) : RnnStateSize::leaf(m_numUnits + h);
}

Status LSTMCell::build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype)
{
    const std::int64_t hDepth = outputSize();
    const std::optional<Initializer>& init = m_options.initializer;
    if (Status s = addKernelAndBias(b, inputDepth + hDepth, 4 * m_numUnits, dtype, init, m_kernel, m_bias); !s.isOk())
        return s;
    if (m_options.usePeepholes) {
        Output* targets[] = {&m_wfDiag, &m_wiDiag, &m_woDiag};
        const char* names[] = {"w_f_diag", "w_i_diag", "w_o_diag"};
        for (int k = 0; k < 3; ++k) {
            auto v = addVariable(b, names[k], TensorShape{m_numUnits}, dtype, init);
            if (!v)
                return v.error();
            *targets[k] = v->value();
        }
    }
    if (m_options.numProj) {
        auto proj = addVariable(b, "projection/kernel", TensorShape{m_numUnits, *m_options.numProj}, dtype, init);
        if (!proj)
            return proj.error();
        m_projKernel = proj->value();
    }
    return Status();
}

Expected<RnnStep> LSTMCell::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    const std::int64_t numProj = outputSize();
    TSTUDIO_TRY(parts, lstmParts(b, baseName(), state, m_options.stateIsTuple, m_numUnits, numProj));
    const Output& cPrev = parts.c;
    const Output& mPrev = parts.h;
    TSTUDIO_TRY(biased, linear(b, inputs, mPrev, m_kernel, m_bias));
    TSTUDIO_TRY(ijfo, split(b, biased, 4, 1));
    const Output& i = ijfo[0];
    const Output& j = ijfo[1];
    const Output& f = ijfo[2];
    const Output& o = ijfo[3];

    // gate + w_diag * c with peepholes, else the gate itself.
    auto peephole = [&](const Output& gate, const Output& diag, const Output& cell) -> Expected<Output> {
        if (!m_options.usePeepholes)
            return gate;
        TSTUDIO_TRY(peep, py::binary(b, Operator::kMul, diag, cell));
        return py::binary(b, Operator::kAdd, gate, peep);
    };
    TSTUDIO_TRY(fb, py::binary(b, Operator::kAdd, f, m_options.forgetBias));
    TSTUDIO_TRY(fIn, peephole(fb, m_wfDiag, cPrev));
    TSTUDIO_TRY(fGate, unary(b, "Sigmoid", fIn));
    TSTUDIO_TRY(kept, py::binary(b, Operator::kMul, fGate, cPrev));
    TSTUDIO_TRY(iIn, peephole(i, m_wiDiag, cPrev));
    TSTUDIO_TRY(iGate, unary(b, "Sigmoid", iIn));
    TSTUDIO_TRY(actJ, m_options.activation(b, j));
    TSTUDIO_TRY(added, py::binary(b, Operator::kMul, iGate, actJ));
    TSTUDIO_TRY(c, py::binary(b, Operator::kAdd, kept, added));
    if (m_options.cellClip) {
        TSTUDIO_TRY(clipped, clipByValue(b, c, *m_options.cellClip));
        c = clipped;
    }
    TSTUDIO_TRY(oIn, peephole(o, m_woDiag, c));
    TSTUDIO_TRY(oGate, unary(b, "Sigmoid", oIn));
    TSTUDIO_TRY(actC, m_options.activation(b, c));
    TSTUDIO_TRY(m, py::binary(b, Operator::kMul, oGate, actC));
    if (m_options.numProj) {
        TSTUDIO_TRY(projected, matmul(b, m, m_projKernel));
        m = projected;
        if (m_options.projClip) {
            TSTUDIO_TRY(clipped, clipByValue(b, m, *m_options.projClip));
            m = clipped;
        }
    }
    return lstmStep(b, c, m, m_options.stateIsTuple);
}

} // namespace tstudio::nn
