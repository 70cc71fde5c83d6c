// The LSTM cells of tf.nn.rnn_cell (TensorFlow 1.15): BasicLSTMCell and LSTMCell (peepholes, cell
// clipping, projection), with TensorFlow's variable names, shapes, gate order and initializers.
#pragma once

#include "builder/rnn_cell.h"

#include <optional>
#include <string>

namespace tstudio::nn {

/// tf.nn.rnn_cell.BasicLSTMCell(num_units, forget_bias=1.0, state_is_tuple=True, activation=tanh):
/// gates = concat([x, h], 1) . kernel + bias, split in the order i, j, f, o;
/// c' = c * sigmoid(f + forget_bias) + sigmoid(i) * act(j); h' = act(c') * sigmoid(o).
/// Output h'; state LSTMStateTuple(c', h') (or concat([c', h'], 1) without state_is_tuple).
/// Variables "<scope>/basic_lstm_cell/kernel" [depth + units, 4 units] (the scope's initializer, else
/// glorot_uniform) and ".../bias" [4 units] (zeros).
class BasicLSTMCell : public LayerRnnCell {
public:
    explicit BasicLSTMCell(std::int64_t numUnits, double forgetBias = 1.0, bool stateIsTuple = true,
                           RnnActivation activation = {}, std::string name = {});
    std::string className() const override { return "BasicLSTMCell"; }
    RnnStateSize stateSize() const override;
    std::int64_t outputSize() const override { return m_numUnits; }

protected:
    Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) override;
    Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) override;

private:
    std::int64_t m_numUnits;
    double m_forgetBias;
    bool m_stateIsTuple;
    RnnActivation m_activation;
    Output m_kernel;
    Output m_bias;
};

/// The arguments of LSTMCell beyond num_units, with TensorFlow's defaults.
struct LSTMCellOptions {
    bool usePeepholes = false;
    std::optional<double> cellClip;
    std::optional<Initializer> initializer;
    std::optional<std::int64_t> numProj;
    std::optional<double> projClip;
    double forgetBias = 1.0;
    bool stateIsTuple = true;
    RnnActivation activation; ///< empty: tanh
    std::string name;         ///< empty: "lstm_cell"
};

/// tf.nn.rnn_cell.LSTMCell (Hochreiter & Schmidhuber 1997 with the peepholes and projection of Sak et
/// al. 2014). Gates as BasicLSTMCell (i, j, f, o) from concat([x, m], 1) . kernel + bias; with
/// peepholes c' = sigmoid(f + forget_bias + w_f_diag * c) * c + sigmoid(i + w_i_diag * c) * act(j) and
/// m = sigmoid(o + w_o_diag * c') * act(c'); c' clipped to [-cell_clip, cell_clip]; with num_proj
/// m = m . projection/kernel, clipped to [-proj_clip, proj_clip]. Output m; state LSTMStateTuple(c', m).
/// Variables "<scope>/lstm_cell/kernel" [depth + (num_proj or units), 4 units], "bias" [4 units]
/// (zeros), "w_f_diag", "w_i_diag", "w_o_diag" [units], "projection/kernel" [units, num_proj]; all
/// but the bias use `initializer`, else the scope's, else glorot_uniform.
class LSTMCell : public LayerRnnCell {
public:
    using Options = LSTMCellOptions;
    explicit LSTMCell(std::int64_t numUnits, Options options = {});
    std::string className() const override { return "LSTMCell"; }
    RnnStateSize stateSize() const override;
    std::int64_t outputSize() const override { return m_options.numProj ? *m_options.numProj : m_numUnits; }

protected:
    Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) override;
    Expected<RnnStep> step(GraphBuilder& b, const Output& inputs, const RnnState& state) override;

private:
    std::int64_t m_numUnits;
    Options m_options;
    Output m_kernel;
    Output m_bias;
    Output m_wfDiag;
    Output m_wiDiag;
    Output m_woDiag;
    Output m_projKernel;
};

} // namespace tstudio::nn
