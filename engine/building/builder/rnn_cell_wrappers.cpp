// MultiRNNCell, DropoutWrapper and ResidualWrapper as TensorFlow 1.15's rnn_cell_impl builds them.
#include "builder/rnn_cell_wrappers.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/rnn_cell_ops.h"
#include "builder/variable_scope.h"
#include "core/try.h"
#include "framework/tensor.h"

#include <cmath>
#include <string>

namespace tstudio::nn {

using namespace rnn_detail;
using py::Operator;

// --- MultiRNNCell ----------------------------------------------------------------------------------------------

MultiRNNCell::MultiRNNCell(std::vector<std::shared_ptr<RnnCell>> cells)
    : LayerRnnCell("multi_rnn_cell", false), m_cells(std::move(cells))
{
}

Expected<std::shared_ptr<MultiRNNCell>> MultiRNNCell::create(std::vector<std::shared_ptr<RnnCell>> cells)
{
    if (cells.empty())
        return unexpected(invalidArgumentError("Must specify at least one cell for MultiRNNCell."));
    for (std::size_t i = 0; i < cells.size(); ++i)
        if (!cells[i])
            return unexpected(invalidArgumentError("MultiRNNCell: cell " + std::to_string(i) + " is null"));
    return std::shared_ptr<MultiRNNCell>(new MultiRNNCell(std::move(cells)));
}

RnnStateSize MultiRNNCell::stateSize() const
{
    std::vector<RnnStateSize> sizes;
    for (const auto& cell : m_cells)
        sizes.push_back(cell->stateSize());
    return RnnStateSize::tuple(std::move(sizes));
}

std::vector<Variable> MultiRNNCell::variables() const
{
    std::vector<Variable> out;
    for (const auto& cell : m_cells)
        for (const Variable& v : cell->variables())
            out.push_back(v);
    return out;
}

Expected<RnnStep> MultiRNNCell::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (state.isLeaf() || state.isLstmStateTuple() || state.items().size() != m_cells.size())
        return unexpected(invalidArgumentError("Expected state to be a tuple of length " +
                                               std::to_string(m_cells.size()) + " (MultiRNNCell " + scopeName() +
                                               ")"));
    Output current = inputs;
    std::vector<RnnState> newStates;
    for (std::size_t i = 0; i < m_cells.size(); ++i) {
        TSTUDIO_TRY(scope, variableScope(b, "cell_" + std::to_string(i)));
        TSTUDIO_TRY(out, m_cells[i]->call(b, current, state.items()[i]));
        current = out.output;
        newStates.push_back(out.state);
    }
    return RnnStep{current, RnnState::tuple(std::move(newStates))};
}

Expected<RnnState> MultiRNNCell::zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype)
{
    std::vector<RnnState> states;
    for (const auto& cell : m_cells) {
        TSTUDIO_TRY(s, cell->zeroState(b, batchSize, dtype));
        states.push_back(s);
    }
    return RnnState::tuple(std::move(states));
}

// --- RnnCellWrapper ---------------------------------------------------------------------------------------------

Expected<RnnState> RnnCellWrapper::zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype)
{
    return m_cell->zeroState(b, batchSize, dtype);
}

// --- DropoutWrapper ---------------------------------------------------------------------------------------------

namespace {

/// The value of a scalar tensor known while building, if any.
std::optional<double> knownScalar(const GraphBuilder& b, const Output& t)
{
    const Tensor* value = b.constantValue(t);
    if (value == nullptr || value->numElements() != 1)
        return std::nullopt;
    switch (value->dtype()) {
    case tensorflow::DT_FLOAT:
        return value->values<float>()[0];
    case tensorflow::DT_DOUBLE:
        return value->values<double>()[0];
    default:
        return std::nullopt;
    }
}

/// Python's "%d" of a float (truncation toward zero).
std::string percentD(double v)
{
    return std::to_string(static_cast<long long>(std::trunc(v)));
}

/// random_ops.random_uniform(shape, dtype) in [0, 1) under "random_uniform".
Expected<Output> randomUniform(GraphBuilder& b, const Output& shape, DataType dtype)
{
    TSTUDIO_TRY(scope, b.nameScope("random_uniform"));
    TSTUDIO_TRY(minT, ops::constant(b, 0.0, dtype, "min"));
    TSTUDIO_TRY(maxT, ops::constant(b, 1.0, dtype, "max"));
    const RandomSeeds seeds = b.seedsFor(std::nullopt);
    AttrMap attrs = {{"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}, {"dtype", attr::type(dtype)}};
    TSTUDIO_TRY(rnd, ops::firstOutput(b.op("RandomUniform", {shape}, std::move(attrs))));
    TSTUDIO_TRY(width, ops::sub(b, maxT, minT, "sub"));
    TSTUDIO_TRY(scaled, ops::mul(b, rnd, width, "mul"));
    return ops::add(b, scaled, minT, scope.name());
}

/// nn_ops.dropout(x, keep_prob) of TensorFlow 1.15 (dropout_v2 with rate = 1 - keep_prob).
Expected<Output> dropout(GraphBuilder& b, const Output& x, const KeepProb& keep)
{
    Output rateTensor;
    double rate = 0.0;
    if (const Output* t = std::get_if<Output>(&keep)) {
        TSTUDIO_TRY(r, py::binary(b, Operator::kSub, 1.0, *t));
        rateTensor = r;
    } else {
        rate = 1.0 - std::get<double>(keep);
    }
    TSTUDIO_TRY(scope, b.nameScope("dropout"));
    const DataType dtype = x.baseDtype();
    if (!rateTensor.isValid()) {
        TSTUDIO_TRY(r, py::constant(b, rate, dtype, "rate"));
        rateTensor = r;
    } else if (rateTensor.baseDtype() != dtype) {
        return unexpected(invalidArgumentError("Tensor conversion requested dtype " + dataTypeName(dtype) +
                                               " for Tensor with dtype " + dataTypeName(rateTensor.baseDtype()) +
                                               ": " + rateTensor.name()));
    }
    TSTUDIO_TRY(noiseShape, py::shape(b, x));
    TSTUDIO_TRY(random, randomUniform(b, noiseShape, dtype));
    TSTUDIO_TRY(keepProb, py::binary(b, Operator::kSub, 1.0, rateTensor));
    TSTUDIO_TRY(scale, py::binary(b, Operator::kTrueDiv, 1.0, keepProb));
    TSTUDIO_TRY(mask, py::genOp(b, "GreaterEqual", {random, rateTensor}));
    TSTUDIO_TRY(scaled, py::binary(b, Operator::kMul, x, scale));
    TSTUDIO_TRY(maskF, py::cast(b, mask, dtype));
    return py::binary(b, Operator::kMul, scaled, maskF);
}

bool shouldDropout(const KeepProb& p)
{
    return std::holds_alternative<Output>(p) || std::get<double>(p) < 1.0;
}

} // namespace

Expected<std::shared_ptr<DropoutWrapper>> DropoutWrapper::create(GraphBuilder& b, std::shared_ptr<RnnCell> cell,
                                                                 Options options)
{
    if (!cell)
        return unexpected(invalidArgumentError("DropoutWrapper: the cell is null"));
    TSTUDIO_TRY(scope, b.nameScope("DropoutWrapperInit"));
    std::pair<KeepProb*, const char*> probs[] = {{&options.inputKeepProb, "input_keep_prob"},
                                                 {&options.stateKeepProb, "state_keep_prob"},
                                                 {&options.outputKeepProb, "output_keep_prob"}};
    for (auto& [prob, attrName] : probs) {
        std::optional<double> known;
        if (const double* v = std::get_if<double>(prob)) {
            TSTUDIO_TRY(c, ops::constant(b, *v, tensorflow::DT_FLOAT, "Const"));
            (void)c;
            known = *v;
        } else {
            const Output& t = std::get<Output>(*prob);
            if (!t.isValid() || !isFloating(t.baseDtype()) || t.shape().rank() > 0)
                return unexpected(invalidArgumentError(std::string("Parameter ") + attrName +
                                                       " must be a floating scalar tensor or a number, got " +
                                                       (t.isValid() ? t.name() + " of shape " + t.shape().toString()
                                                                    : std::string("an invalid tensor"))));
            known = knownScalar(b, t);
        }
        if (known) {
            if (*known < 0.0 || *known > 1.0)
                return unexpected(invalidArgumentError(std::string("Parameter ") + attrName +
                                                       " must be between 0 and 1: " + percentD(*known)));
            *prob = *known;
        }
    }
    return std::shared_ptr<DropoutWrapper>(new DropoutWrapper(std::move(cell), std::move(options)));
}

Expected<RnnStep> DropoutWrapper::call(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    Output in = inputs;
    if (shouldDropout(m_options.inputKeepProb)) {
        TSTUDIO_TRY(dropped, dropout(b, in, m_options.inputKeepProb));
        in = dropped;
    }
    TSTUDIO_TRY(out, m_cell->call(b, in, state));
    if (shouldDropout(m_options.stateKeepProb)) {
        // The default filter: every state tensor but an LSTMStateTuple's c.
        std::vector<Output> flat = out.state.flatten();
        std::vector<bool> drop(flat.size(), true);
        std::size_t index = 0;
        std::function<void(const RnnState&)> mark = [&](const RnnState& s) {
            if (s.isLeaf()) {
                ++index;
                return;
            }
            if (s.isLstmStateTuple()) {
                drop[index] = false; // c
                index += 2;
                return;
            }
            for (const RnnState& item : s.items())
                mark(item);
        };
        mark(out.state);
        for (std::size_t i = 0; i < flat.size(); ++i) {
            if (!drop[i])
                continue;
            TSTUDIO_TRY(dropped, dropout(b, flat[i], m_options.stateKeepProb));
            flat[i] = dropped;
        }
        out.state = out.state.packAs(flat);
    }
    if (shouldDropout(m_options.outputKeepProb)) {
        TSTUDIO_TRY(dropped, dropout(b, out.output, m_options.outputKeepProb));
        out.output = dropped;
    }
    return out;
}

// --- ResidualWrapper ------------------------------------------------------------------------------------------

Expected<RnnStep> ResidualWrapper::call(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (!m_cell)
        return unexpected(invalidArgumentError("ResidualWrapper: the cell is null"));
    TSTUDIO_TRY(out, m_cell->call(b, inputs, state));
    if (!inputs.shape().isCompatibleWith(out.output.shape()))
        return unexpected(invalidArgumentError("ResidualWrapper: Shapes " + shapeList(inputs.shape()) + " and " +
                                               shapeList(out.output.shape()) + " are incompatible (inputs " +
                                               inputs.name() + ", cell output " + out.output.name() + ")"));
    TSTUDIO_TRY(sum, py::binary(b, Operator::kAdd, inputs, out.output));
    return RnnStep{sum, out.state};
}

} // namespace tstudio::nn
