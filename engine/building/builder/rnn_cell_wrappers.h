// The cells of tf.nn.rnn_cell that combine other cells (TensorFlow 1.15): MultiRNNCell (stacked
// layers), DropoutWrapper (dropout on inputs, outputs and state) and ResidualWrapper (inputs added to
// outputs).
#pragma once

#include "builder/rnn_cell.h"

#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace tstudio::nn {

/// tf.nn.rnn_cell.MultiRNNCell(cells) with state_is_tuple=True: the cells run in sequence, cell k in
/// variable scope "cell_<k>" of the layer "multi_rnn_cell" (so "rnn/multi_rnn_cell/cell_0/
/// basic_lstm_cell/kernel"), each taking the previous one's output; the state is the tuple of the
/// cells' states. Output: the last cell's. Its variables are the cells'.
class MultiRNNCell : public LayerRnnCell {
public:
    /// InvalidArgument "Must specify at least one cell for MultiRNNCell." for no cells, or a null cell.
    static Expected<std::shared_ptr<MultiRNNCell>> create(std::vector<std::shared_ptr<RnnCell>> cells);
    std::string className() const override { return "MultiRNNCell"; }
    RnnStateSize stateSize() const override;
    std::int64_t outputSize() const override { return m_cells.back()->outputSize(); }
    std::vector<Variable> variables() const override;
    const std::vector<std::shared_ptr<RnnCell>>& cells() const { return m_cells; }

protected:
    Status build(GraphBuilder&, std::int64_t, DataType) override { return Status(); }
    Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) override;
    Expected<RnnState> zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype) override;

private:
    explicit MultiRNNCell(std::vector<std::shared_ptr<RnnCell>> cells);
    std::vector<std::shared_ptr<RnnCell>> m_cells;
};

/// A keep probability as DropoutWrapper takes it: a Python number, or a scalar float tensor (fed
/// at run time, e.g. 1.0 for evaluation).
using KeepProb = std::variant<double, Output>;

/// The arguments of DropoutWrapper beyond num_units, with TensorFlow's defaults.
struct DropoutWrapperOptions {
    KeepProb inputKeepProb = 1.0;
    KeepProb outputKeepProb = 1.0;
    KeepProb stateKeepProb = 1.0;
};

/// The base of the wrappers around one cell (DropoutWrapper, ResidualWrapper): state size, output
/// size, variables and zero state are the wrapped cell's.
class RnnCellWrapper : public RnnCell {
public:
    RnnStateSize stateSize() const override { return m_cell->stateSize(); }
    std::int64_t outputSize() const override { return m_cell->outputSize(); }
    std::vector<Variable> variables() const override { return m_cell->variables(); }

protected:
    explicit RnnCellWrapper(std::shared_ptr<RnnCell> cell) : m_cell(std::move(cell)) {}
    Expected<RnnState> zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype) override;

    std::shared_ptr<RnnCell> m_cell;
};

/// tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob, output_keep_prob, state_keep_prob) without
/// variational_recurrent: dropout (tf.nn.dropout, a fresh mask each step) on the inputs before the
/// cell, on the new state after it (every state tensor except the c of an LSTMStateTuple, as
/// TensorFlow's default dropout_state_filter_visitor) and on the output. A probability that is a
/// number (or a tensor whose value is known) of 1 adds no ops. Variables: the wrapped cell's, named
/// as without the wrapper. Differences from TensorFlow: no `seed` (TensorFlow derives per-tensor
/// seeds by MD5 hashing), no variational_recurrent.
class DropoutWrapper : public RnnCellWrapper {
public:
    using Options = DropoutWrapperOptions;
    /// Builds the wrapper's constants under "DropoutWrapperInit" ("Const", "Const_1", "Const_2" for
    /// the numbers, as TensorFlow's convert_to_tensor does). InvalidArgument "Parameter
    /// input_keep_prob must be between 0 and 1: 2" for a known value outside [0, 1], for a null cell,
    /// and for a tensor that is not a floating scalar.
    static Expected<std::shared_ptr<DropoutWrapper>> create(GraphBuilder& b, std::shared_ptr<RnnCell> cell,
                                                            Options options = {});
    std::string className() const override { return "DropoutWrapper"; }
    Expected<RnnStep> call(GraphBuilder& b, const Output& inputs, const RnnState& state) override;

private:
    DropoutWrapper(std::shared_ptr<RnnCell> cell, Options options)
        : RnnCellWrapper(std::move(cell)), m_options(std::move(options))
    {
    }
    Options m_options;
};

/// tf.nn.rnn_cell.ResidualWrapper(cell): output = inputs + cell's output ("add"); the state is the
/// cell's. InvalidArgument (naming both tensors) when the shapes are incompatible, as TensorFlow's
/// assert_is_compatible_with ("Shapes (2, 3) and (2, 4) are incompatible").
class ResidualWrapper : public RnnCellWrapper {
public:
    explicit ResidualWrapper(std::shared_ptr<RnnCell> cell) : RnnCellWrapper(std::move(cell)) {}
    std::string className() const override { return "ResidualWrapper"; }
    Expected<RnnStep> call(GraphBuilder& b, const Output& inputs, const RnnState& state) override;
};

} // namespace tstudio::nn
