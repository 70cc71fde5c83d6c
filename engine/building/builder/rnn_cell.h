// RNN cells of tf.nn.rnn_cell (TensorFlow 1.15): the nested state type, the RnnCell interface with
// zero_state, and the simple cells BasicRNNCell and GRUCell (the LSTM cells are in lstm_cell.h, the
// wrappers in rnn_cell_wrappers.h, the drivers static_rnn / dynamic_rnn in rnn.h).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::nn {

/// A value with TensorFlow's nest structure as RNN states use it: a single value (a leaf), a tuple of
/// nested values (MultiRNNCell's state), or an LSTMStateTuple (c, h). RnnState holds tensors,
/// RnnStateSize the per-example sizes of cell.state_size.
template <typename T> class RnnNest {
public:
    RnnNest() = default;
    static RnnNest leaf(T value)
    {
        RnnNest n;
        n.m_value = std::move(value);
        n.m_isLeaf = true;
        return n;
    }
    static RnnNest tuple(std::vector<RnnNest> items)
    {
        RnnNest n;
        n.m_items = std::move(items);
        return n;
    }
    /// LSTMStateTuple(c, h).
    static RnnNest lstm(T c, T h)
    {
        RnnNest n = tuple({leaf(std::move(c)), leaf(std::move(h))});
        n.m_isLstm = true;
        return n;
    }

    bool isLeaf() const { return m_isLeaf; }
    bool isLstmStateTuple() const { return m_isLstm; }
    /// The leaf's value. Precondition: isLeaf().
    const T& value() const { return m_value; }
    /// The tuple's items (empty for a leaf).
    const std::vector<RnnNest>& items() const { return m_items; }
    /// LSTMStateTuple's c and h. Precondition: isLstmStateTuple().
    const T& c() const { return m_items.at(0).m_value; }
    const T& h() const { return m_items.at(1).m_value; }

    /// nest.flatten: the leaves, depth first.
    std::vector<T> flatten() const
    {
        std::vector<T> out;
        appendLeaves(out);
        return out;
    }
    /// nest.pack_sequence_as: this structure with the leaves `flat` (in flatten order). Precondition:
    /// flat has as many values as this has leaves.
    template <typename U> RnnNest<U> packAs(const std::vector<U>& flat) const
    {
        std::size_t next = 0;
        return packFrom(flat, next);
    }
    /// nest.assert_same_structure (leaf values ignored).
    template <typename U> bool sameStructure(const RnnNest<U>& other) const
    {
        if (m_isLeaf != other.isLeaf() || m_isLstm != other.isLstmStateTuple() ||
            m_items.size() != other.items().size())
            return false;
        for (std::size_t i = 0; i < m_items.size(); ++i)
            if (!m_items[i].sameStructure(other.items()[i]))
                return false;
        return true;
    }

private:
    template <typename U> friend class RnnNest;

    void appendLeaves(std::vector<T>& out) const
    {
        if (m_isLeaf) {
            out.push_back(m_value);
            return;
        }
        for (const RnnNest& item : m_items)
            item.appendLeaves(out);
    }
    template <typename U> RnnNest<U> packFrom(const std::vector<U>& flat, std::size_t& next) const
    {
        RnnNest<U> n;
        if (m_isLeaf) {
            n.m_isLeaf = true;
            n.m_value = flat.at(next++);
            return n;
        }
        n.m_isLstm = m_isLstm;
        for (const RnnNest& item : m_items)
            n.m_items.push_back(item.packFrom(flat, next));
        return n;
    }

    T m_value{};
    std::vector<RnnNest> m_items;
    bool m_isLeaf = false;
    bool m_isLstm = false;
};

using RnnState = RnnNest<Output>;
using RnnStateSize = RnnNest<std::int64_t>;

/// What one cell step gives: its output [batch, output_size] and its new state.
struct RnnStep {
    Output output;
    RnnState state;
};

/// A batch size as TensorFlow's zero_state takes it: a Python int, or a scalar int32 tensor.
struct RnnBatchSize {
    RnnBatchSize(std::int64_t n) : value(n) {}
    RnnBatchSize(Output t) : tensor(std::move(t)) {}
    std::int64_t value = -1; ///< >= 0 when static
    Output tensor;           ///< valid when dynamic
};

/// An activation for the cells: builds f(x) under the current name scope (default: tanh, "Tanh").
using RnnActivation = std::function<Expected<Output>(GraphBuilder&, const Output&)>;
/// math_ops.tanh: "Tanh".
Expected<Output> tanhActivation(GraphBuilder& b, const Output& x);

/// tf.nn.rnn_cell.RNNCell: one step of a recurrent network, as an object that creates its variables
/// on its first call (a Keras Layer in TensorFlow 1.15) and reuses them on the following ones, so a
/// cell called once per time step (static_rnn, dynamic_rnn's loop body) has one set of weights.
/// Not synchronised; cells are shared through std::shared_ptr (MultiRNNCell and the wrappers hold
/// the cells they wrap).
class RnnCell {
public:
    virtual ~RnnCell() = default;

    /// TensorFlow's class name ("BasicLSTMCell"): zero_state's scope is "<class>ZeroState".
    virtual std::string className() const = 0;
    /// cell.state_size (LSTMStateTuple(units, units) for a tuple-state LSTM).
    virtual RnnStateSize stateSize() const = 0;
    /// cell.output_size.
    virtual std::int64_t outputSize() const = 0;

    /// cell(inputs, state): one step. `inputs` is [batch, depth] with a known depth, `state`
    /// structured as stateSize(). The first call creates the variables in the variable scope
    /// "<current scope>/<layer name>" (built outside any control-flow context, so a first call inside
    /// a while loop body makes ordinary variables, as TensorFlow's init_scope does).
    /// Errors (InvalidArgument): the cell's checks of rank, depth, dtype and state structure, named
    /// after the layer; getVariable's; the builder's.
    virtual Expected<RnnStep> call(GraphBuilder& b, const Output& inputs, const RnnState& state) = 0;

    /// cell.zero_state(batch_size, dtype): under name scope "<class>ZeroState", zeros of
    /// [batch_size, s] for each s of stateSize() (for each: "Const" (or "ExpandDims"/"Const"/"concat"
    /// for a batch-size tensor), "zeros/Const" and the Fill "zeros").
    Expected<RnnState> zeroState(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype);

    /// The variables the cell made (cell.weights), in creation order; empty before the first call.
    virtual std::vector<Variable> variables() const = 0;

protected:
    /// The zeros of zeroState, inside its name scope (wrappers and MultiRNNCell delegate).
    virtual Expected<RnnState> zeroStateInScope(GraphBuilder& b, const RnnBatchSize& batchSize, DataType dtype);
};

/// rnn_cell_impl._zero_state_tensors for one size: zeros [batch, size] of `dtype`.
Expected<Output> rnnZeros(GraphBuilder& b, const RnnBatchSize& batchSize, std::int64_t size, DataType dtype);

/// The base of the cells that are layers (everything except the wrappers): the layer name
/// ("basic_lstm_cell", made unique in its variable scope on the first call as tf.layers does:
/// "basic_lstm_cell_1" when variables of "basic_lstm_cell" already exist there, unless the scope
/// reuses), the variables, and the scopes: the first call enters variable scope "<layer name>" and
/// builds the variables (build()), later calls only a name scope "<layer name>" (made unique).
class LayerRnnCell : public RnnCell {
public:
    Expected<RnnStep> call(GraphBuilder& b, const Output& inputs, const RnnState& state) final;
    std::vector<Variable> variables() const override { return m_variables; }
    /// The layer's variable scope once built ("rnn/basic_lstm_cell"), else "".
    const std::string& scopeName() const { return m_scopeName; }

protected:
    explicit LayerRnnCell(std::string baseName, bool checksInputRank = true)
        : m_baseName(std::move(baseName)), m_checksInputRank(checksInputRank)
    {
    }
    /// Creates the variables with getVariable in the layer's variable scope (`inputDepth` is the
    /// inputs' last dimension). Called once, outside any control-flow context.
    virtual Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) = 0;
    /// The step's ops, in the layer's name scope.
    virtual Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) = 0;
    /// getVariable in the current variable scope, remembered in variables().
    Expected<Variable> addVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                                   std::optional<Initializer> initializer);
    /// addVariable "kernel" [rows, columns] (`kernelInitializer`, else the scope's, else
    /// glorot_uniform), then "bias" [columns] (zeros); their values go to `kernel` and `bias`.
    Status addKernelAndBias(GraphBuilder& b, std::int64_t rows, std::int64_t columns, DataType dtype,
                            const std::optional<Initializer>& kernelInitializer, Output& kernel, Output& bias);
    const std::string& baseName() const { return m_baseName; }

private:
    std::string m_baseName;
    bool m_checksInputRank;
    bool m_built = false;
    std::string m_scopeName;
    std::vector<Variable> m_variables;
};

/// tf.nn.rnn_cell.BasicRNNCell(num_units, activation): output = new_state =
/// activation(concat([inputs, state], 1) . kernel + bias). Variables "<scope>/basic_rnn_cell/kernel"
/// [depth + units, units] (the scope's initializer, else glorot_uniform) and ".../bias" [units]
/// (zeros). Ops: "concat", "MatMul", "BiasAdd", "Tanh".
class BasicRNNCell : public LayerRnnCell {
public:
    explicit BasicRNNCell(std::int64_t numUnits, RnnActivation activation = {}, std::string name = {});
    std::string className() const override { return "BasicRNNCell"; }
    RnnStateSize stateSize() const override { return RnnStateSize::leaf(m_numUnits); }
    std::int64_t outputSize() const override { return m_numUnits; }

protected:
    Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) override;
    Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) override;

private:
    std::int64_t m_numUnits;
    RnnActivation m_activation;
    Output m_kernel;
    Output m_bias;
};

/// The arguments of GRUCell beyond num_units, with TensorFlow's defaults.
struct GRUCellOptions {
    RnnActivation activation; ///< empty: tanh
    std::optional<Initializer> kernelInitializer;
    std::optional<Initializer> biasInitializer;
    std::string name; ///< empty: "gru_cell"
};

/// tf.nn.rnn_cell.GRUCell(num_units, activation, kernel_initializer, bias_initializer) (Cho et al.
/// 2014): r, u = split(sigmoid(concat([x, h]) . gates/kernel + gates/bias), 2);
/// c = activation(concat([x, r * h]) . candidate/kernel + candidate/bias); h' = u * h + (1 - u) * c.
/// Variables "<scope>/gru_cell/gates/kernel" [depth + units, 2 units], "gates/bias" [2 units]
/// (bias_initializer, default constant 1.0), "candidate/kernel" [depth + units, units],
/// "candidate/bias" [units] (bias_initializer, default zeros); kernels: kernel_initializer, else the
/// scope's, else glorot_uniform.
class GRUCell : public LayerRnnCell {
public:
    using Options = GRUCellOptions;
    explicit GRUCell(std::int64_t numUnits, Options options = {});
    std::string className() const override { return "GRUCell"; }
    RnnStateSize stateSize() const override { return RnnStateSize::leaf(m_numUnits); }
    std::int64_t outputSize() const override { return m_numUnits; }

protected:
    Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) override;
    Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) override;

private:
    std::int64_t m_numUnits;
    Options m_options;
    Output m_gateKernel;
    Output m_gateBias;
    Output m_candidateKernel;
    Output m_candidateBias;
};

} // namespace tstudio::nn
