// The RNN drivers of TensorFlow 1.15 (tf.compat.v1.nn): static_rnn (unrolled over a list of inputs),
// dynamic_rnn (a tf.while_loop over TensorArrays) and bidirectional_dynamic_rnn (two dynamic_rnns, the
// second on the time-reversed inputs), for the cells of rnn_cell.h, lstm_cell.h and rnn_cell_wrappers.h.
#pragma once

#include "builder/rnn_cell.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::nn {

/// The arguments static_rnn and dynamic_rnn share.
struct RnnOptions {
    /// An int32/int64 vector [batch] (optional): steps at and past an example's length output zeros
    /// and copy its state through, so the final state is the one of its last valid step.
    Output sequenceLength;
    /// The initial state (structured as cell.stateSize()); absent: cell.zero_state(batch, dtype).
    std::optional<RnnState> initialState;
    /// The state's dtype when there is no initial state (required then).
    DataType dtype = tensorflow::DT_INVALID;
    /// The variable scope (default "rnn").
    std::string scope;
};

/// What static_rnn returns: one output per input, and the final state.
struct StaticRnnResult {
    std::vector<Output> outputs;
    RnnState state;
};

/// tf.nn.static_rnn(cell, inputs, initial_state, dtype, sequence_length, scope): in variable scope
/// "rnn", the cell called once per input ([batch, depth] each, depth known), the variables made by
/// the first call ("rnn/basic_lstm_cell/kernel"). With a sequence length, each step is TensorFlow's
/// _rnn_step: "sequence_length" (the tensor), its min and max, zero outputs, and per step a cond:
/// past the max length zeros and the old state, below the min the cell's result, in between a
/// Select per tensor (time >= length ? old : new).
/// Errors (InvalidArgument): "inputs must not be empty"; "Input size (dimension 0 of inputs) must be
/// accessible via shape inference, but saw value None." (naming the input); inputs of another rank
/// than 2; "If no initial_state is provided, dtype must be specified"; "sequence_length must be a
/// vector of length batch_size"; the cell's errors.
Expected<StaticRnnResult> staticRnn(GraphBuilder& b, RnnCell& cell, const std::vector<Output>& inputs,
                                    const RnnOptions& options = {});

/// The arguments of dynamic_rnn beyond RnnOptions.
struct DynamicRnnOptions : RnnOptions {
    bool timeMajor = false;       ///< inputs [time, batch, depth] (true) or [batch, time, depth]
    int parallelIterations = 32;  ///< tf.while_loop's parallel_iterations
};

/// What dynamic_rnn returns: the outputs [batch, time, output_size] ([time, batch, ...] when
/// time_major) and the final state.
struct DynamicRnnResult {
    Output outputs;
    RnnState state;
};

/// tf.nn.dynamic_rnn(cell, inputs, sequence_length, initial_state, dtype, parallel_iterations,
/// time_major, scope) as TensorFlow 1.15 builds it: in variable scope "rnn", batch-major inputs
/// transposed to time-major ("transpose"), the sequence length cast to int32 ("sequence_length") and
/// checked at run time against [batch] (an Assert "Expected shape for Tensor rnn/sequence_length:0
/// is [3] but saw shape: [2]", then "CheckSeqLen"), the state from initial_state or zero_state,
/// then _dynamic_rnn_loop: TensorArrays "rnn/dynamic_rnn/input_0" (the inputs unstacked) and
/// "rnn/dynamic_rnn/output_0", and tf.while_loop "rnn/while" over (time, output flow, state...)
/// while time < min(time_steps, max(1, max(sequence_length))): read the input, call the cell (the
/// variables are made on that first call: "rnn/basic_lstm_cell/kernel"), past an example's length
/// output zeros and keep its state (Select), write the output. The outputs are stacked and
/// transposed back.
/// Differences from TensorFlow: a length beyond the time axis is a run-time error (the Assert
/// "rnn/sequence_length_within_time/Assert" prints the steps and the lengths; TensorFlow runs such
/// an example every step); no maximum_iterations counter in the loop (the bound already stops at
/// time_steps); inputs are one tensor (no nested inputs).
/// Errors (InvalidArgument, naming the tensor): inputs of rank below 3 ("dynamic_rnn: inputs x:0
/// must have rank at least 3 ..."), an unknown depth ("Input size (depth of inputs) must be
/// accessible via shape inference, but saw value None."), non-floating inputs, a sequence length
/// that is not a vector ("sequence_length must be a vector of length batch_size, but saw shape:
/// (2, 3)"), no dtype and no initial state ("If there is no initial_state, you must give a dtype."),
/// an initial state whose structure differs from the cell's; the cell's and TensorArray's errors.
/// Run-time errors: the Assert's, naming the Assert node.
Expected<DynamicRnnResult> dynamicRnn(GraphBuilder& b, RnnCell& cell, const Output& inputs,
                                      const DynamicRnnOptions& options = {});

/// The arguments of bidirectional_dynamic_rnn.
struct BidirectionalRnnOptions {
    /// An int32/int64 vector [batch] (optional): each direction stops at an example's length, and the
    /// backward direction reads each example's first `length` steps reversed (ReverseSequence).
    Output sequenceLength;
    /// Initial states of the two directions; absent: the cell's zero_state (then dtype is required).
    std::optional<RnnState> initialStateFw;
    std::optional<RnnState> initialStateBw;
    DataType dtype = tensorflow::DT_INVALID;
    bool timeMajor = false;      ///< inputs [time, batch, depth] (true) or [batch, time, depth]
    int parallelIterations = 32; ///< each direction's tf.while_loop
    /// The variable scope (default "bidirectional_rnn").
    std::string scope;
};

/// What bidirectional_dynamic_rnn returns: (output_fw, output_bw) in the inputs' layout, the backward
/// outputs already reversed back to input order, and (output_state_fw, output_state_bw).
struct BidirectionalRnnResult {
    Output outputsFw;
    Output outputsBw;
    RnnState stateFw;
    RnnState stateBw;
};

/// tf.nn.bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length, initial_state_fw,
/// initial_state_bw, dtype, parallel_iterations, time_major, scope) as TensorFlow 1.15 builds it: in
/// variable scope "bidirectional_rnn", the forward dynamic_rnn in the re-entered variable scope "fw"
/// (variables "bidirectional_rnn/fw/basic_lstm_cell/kernel", ops under "bidirectional_rnn/fw/fw/");
/// in "bw" the inputs reversed along time ("bidirectional_rnn/bw/ReverseSequence" with the given
/// sequence_length, seq_dim/batch_dim 0/1 time-major or 1/0 batch-major; "bidirectional_rnn/bw/ReverseV2"
/// of the whole time axis without lengths), the backward dynamic_rnn on them (ops under
/// "bidirectional_rnn/bw/bw/"), and its outputs reversed back the same way outside the scope
/// ("ReverseSequence"). Steps past an example's length output zeros in both directions.
/// Errors: dynamic_rnn's for either direction; InvalidArgument for a sequence_length that is not
/// int32/int64 and when cellFw and cellBw are the same object (TensorFlow would share the variables
/// of the first scope; here each direction owns its cell).
Expected<BidirectionalRnnResult> bidirectionalDynamicRnn(GraphBuilder& b, RnnCell& cellFw, RnnCell& cellBw,
                                                         const Output& inputs,
                                                         const BidirectionalRnnOptions& options = {});

} // namespace tstudio::nn
