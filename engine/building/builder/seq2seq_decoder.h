// seq2seq decoding (tf.contrib.seq2seq of TF 1.15): the Decoder interface and dynamic_decode, the
// while loop that steps a decoder until every sequence is finished or maximum_iterations pass.
#pragma once

#include "builder/graph_builder.h"
#include "builder/rnn_cell.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::seq2seq {

/// What Decoder::initialize gives.
struct DecoderStart {
    Output finished; ///< bool [batch]
    Output inputs;   ///< the first step's inputs [batch, depth]
    nn::RnnState state;
};

/// What Decoder::step gives.
struct DecoderStep {
    std::vector<Output> outputs; ///< one tensor per output component, [batch, ...]
    nn::RnnState state;
    Output nextInputs;
    Output finished;
};

/// tf.contrib.seq2seq.Decoder. Components of the output are tensors [batch] + outputShapes()[i].
class Decoder {
public:
    virtual ~Decoder() = default;
    /// The batch size, a scalar int32 tensor.
    virtual const Output& batchSize() const = 0;
    /// Per output component: its shape without the batch dimension, its dtype and its name.
    virtual std::vector<TensorShape> outputShapes() const = 0;
    virtual std::vector<DataType> outputDtypes() const = 0;
    virtual Expected<DecoderStart> initialize(GraphBuilder& b) = 0;
    virtual Expected<DecoderStep> step(GraphBuilder& b, const Output& time, const Output& inputs,
                                       const nn::RnnState& state) = 0;
    /// A decoder that reorders batch entries keeps its own finished flags (dynamic_decode then does
    /// not or them with the previous ones).
    virtual bool tracksOwnFinished() const { return false; }
};

/// dynamic_decode's keyword arguments.
struct DynamicDecodeOptions {
    bool outputTimeMajor = false;
    /// Finished entries emit zeros and keep their state (backprop ignores steps past the end).
    bool imputeFinished = false;
    /// A scalar int32 tensor, or a number made the Const "decoder/maximum_iterations".
    std::optional<Output> maximumIterations;
    std::optional<std::int64_t> maximumIterationsValue;
    int parallelIterations = 32;
    bool swapMemory = false;
    /// The variable scope (default "decoder").
    std::string scope;
};

/// What dynamic_decode returns.
struct DynamicDecodeResult {
    /// Per output component: [batch, time, ...] ([time, batch, ...] when outputTimeMajor).
    std::vector<Output> outputs;
    nn::RnnState finalState;
    /// int32 [batch]: the step at which each entry finished (plus one), or the steps decoded.
    Output finalSequenceLengths;
};

/// tf.contrib.seq2seq.dynamic_decode as TensorFlow 1.15 builds it: in variable scope "decoder"
/// (made unique; options.scope instead when given), decoder.initialize(), zero outputs when
/// imputing, initial finished or-ed with 0 >= maximum_iterations, sequence lengths zeros, one
/// dynamic-size TensorArray per output component, then tf.while_loop "while" over (time, the
/// arrays' flows, the state, the inputs, finished, sequence lengths) while not all are finished
/// (and below maximum_iterations): step, finished = step's or previous (unless the decoder tracks
/// its own), lengths = time + 1 where not finished before, with imputeFinished outputs zeroed and
/// non-scalar states copied through where finished before, each output written at time. The
/// arrays are stacked and transposed to batch major unless outputTimeMajor.
/// Errors: InvalidArgument "maximum_iterations must be a scalar" (TensorFlow's ValueError), the
/// decoder's, the loop's and the builder's.
Expected<DynamicDecodeResult> dynamicDecode(GraphBuilder& b, Decoder& decoder,
                                            const DynamicDecodeOptions& options = {});

} // namespace tstudio::seq2seq
