// static_rnn, dynamic_rnn and bidirectional_dynamic_rnn as TensorFlow 1.15's rnn.py builds them.
#include "builder/rnn.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "builder/rnn_cell_ops.h"
#include "builder/tensor_array.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "builder/while_loop.h"
#include "core/try.h"

#include <functional>
#include <string>

namespace tstudio::nn {

using namespace rnn_detail;
using py::Operator;

namespace {

/// x[index] of a 1-D tensor: "strided_slice" (shrink_axis_mask 1).
Expected<Output> element(GraphBuilder& b, const Output& x, std::int64_t index)
{
    TSTUDIO_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_TRY(begin, py::intVector(b, {index}, "stack"));
    TSTUDIO_TRY(end, py::intVector(b, {index + 1}, "stack_1"));
    TSTUDIO_TRY(strides, py::intVector(b, {1}, "stack_2"));
    return py::genOp(b, "StridedSlice", {x, begin, end, strides},
                     {{"begin_mask", attr::i(0)},
                      {"end_mask", attr::i(0)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(1)}},
                     scope.name());
}

/// math_ops.reduce_min / reduce_max of a vector over axis 0.
Expected<Output> reduceVector(GraphBuilder& b, std::string_view type, const Output& x)
{
    TSTUDIO_TRY(axes, py::intVector(b, {0}, "Const"));
    return py::genOp(b, type, {x, axes}, {{"keep_dims", attr::b(false)}});
}

/// The pythonic "(2, 3)" of a shape for ValueError messages.
std::string pyShape(const TensorShape& shape)
{
    return pythonShapeString(shape);
}

/// math_ops.cast(sequence_length, int32), named as the caller says, checked to be a vector.
Expected<Output> sequenceLengthInt32(GraphBuilder& b, const Output& sequenceLength)
{
    const DataType dt = sequenceLength.baseDtype();
    if (dt != tensorflow::DT_INT32 && dt != tensorflow::DT_INT64)
        return unexpected(invalidArgumentError("sequence_length must be an int32 or int64 vector, got " +
                                               sequenceLength.name() + " of dtype " + dataTypeName(dt)));
    if (sequenceLength.shape().rank() >= 0 && sequenceLength.shape().rank() != 1)
        return unexpected(invalidArgumentError("sequence_length must be a vector of length batch_size, but saw "
                                               "shape: " +
                                               pyShape(sequenceLength.shape()) + " (" + sequenceLength.name() + ")"));
    return py::cast(b, sequenceLength, tensorflow::DT_INT32);
}

/// The state to start from: the given one (checked against the cell's structure) or zero_state.
Expected<RnnState> startState(GraphBuilder& b, RnnCell& cell, const RnnOptions& options, const RnnBatchSize& batch,
                              const char* noDtypeMessage)
{
    if (options.initialState) {
        if (!options.initialState->sameStructure(cell.stateSize()))
            return unexpected(invalidArgumentError(cell.className() +
                                                   ": initial_state does not have the structure of the cell's "
                                                   "state_size"));
        return *options.initialState;
    }
    if (options.dtype == tensorflow::DT_INVALID)
        return unexpected(invalidArgumentError(noDtypeMessage));
    return cell.zeroState(b, batch, options.dtype);
}

/// The dtype of the zero outputs (_infer_state_dtype).
DataType stateDtype(const RnnOptions& options, const RnnState& state)
{
    if (options.dtype != tensorflow::DT_INVALID)
        return options.dtype;
    std::vector<Output> flat = state.flatten();
    return flat.empty() ? tensorflow::DT_FLOAT : flat.front().baseDtype();
}

/// _copy_one_through: where(time >= sequence_length, old, new), colocated with new.
Expected<Output> copyOneThrough(GraphBuilder& b, const Output& copyCond, const Output& oldValue,
                                const Output& newValue)
{
    if (newValue.shape().rank() == 0)
        return newValue;
    TSTUDIO_TRY(producer, b.operation(newValue.node()));
    ScopeGuard colocate = b.colocateWith(producer);
    return py::where(b, copyCond, oldValue, newValue);
}

/// The Select part of _rnn_step: flat zero outputs / old states where time >= length, else new.
Expected<std::vector<Output>> copySomeThrough(GraphBuilder& b, const Output& time, const Output& sequenceLength,
                                              const std::vector<Output>& zeroOutputs,
                                              const std::vector<Output>& oldStates,
                                              const std::vector<Output>& newOutputs,
                                              const std::vector<Output>& newStates)
{
    std::vector<Output> result;
    for (std::size_t i = 0; i < newOutputs.size(); ++i) {
        TSTUDIO_TRY(copyCond, py::genOp(b, "GreaterEqual", {time, sequenceLength}));
        TSTUDIO_TRY(v, copyOneThrough(b, copyCond, zeroOutputs[i], newOutputs[i]));
        result.push_back(v);
    }
    for (std::size_t i = 0; i < newStates.size(); ++i) {
        TSTUDIO_TRY(copyCond, py::genOp(b, "GreaterEqual", {time, sequenceLength}));
        TSTUDIO_TRY(v, copyOneThrough(b, copyCond, oldStates[i], newStates[i]));
        result.push_back(v);
    }
    return result;
}

} // namespace

// --- static_rnn -------------------------------------------------------------------------------------------------

Expected<StaticRnnResult> staticRnn(GraphBuilder& b, RnnCell& cell, const std::vector<Output>& inputs,
                                    const RnnOptions& options)
{
    if (inputs.empty())
        return unexpected(invalidArgumentError("inputs must not be empty"));
    TSTUDIO_TRY(varScope, variableScope(b, options.scope.empty() ? std::string("rnn") : options.scope));

    std::int64_t fixedBatch = TensorShape::kUnknownDim;
    for (const Output& input : inputs) {
        const TensorShape& s = input.shape();
        if (s.rank() >= 0 && s.rank() != 2)
            return unexpected(invalidArgumentError("static_rnn: each input must be a matrix [batch, depth], but " +
                                                   input.name() + " has shape " + shapeList(s)));
        if (s.rank() == 2 && s.dim(1) < 0)
            return unexpected(invalidArgumentError("Input size (dimension 0 of inputs) must be accessible via shape "
                                                   "inference, but saw value None. (" +
                                                   input.name() + ")"));
        if (s.rank() == 2 && s.dim(0) >= 0) {
            if (fixedBatch >= 0 && fixedBatch != s.dim(0))
                return unexpected(invalidArgumentError("static_rnn: inputs have different batch sizes: " +
                                                       std::to_string(fixedBatch) + " and " +
                                                       std::to_string(s.dim(0)) + " (" + input.name() + ")"));
            fixedBatch = s.dim(0);
        }
    }
    RnnBatchSize batch(fixedBatch);
    if (fixedBatch < 0) {
        TSTUDIO_TRY(shape, py::shape(b, inputs.front()));
        TSTUDIO_TRY(n, element(b, shape, 0));
        batch = RnnBatchSize(n);
    }
    TSTUDIO_TRY(state0, startState(b, cell, options, batch, "If no initial_state is provided, dtype must be specified"));
    RnnState state = state0;

    Output seqLen;
    Output minLen;
    Output maxLen;
    std::vector<Output> zeroOutputs;
    if (options.sequenceLength.isValid()) {
        if (options.sequenceLength.shape().rank() >= 0 && options.sequenceLength.shape().rank() != 1)
            return unexpected(invalidArgumentError("sequence_length must be a vector of length batch_size (" +
                                                   options.sequenceLength.name() + " has shape " +
                                                   shapeList(options.sequenceLength.shape()) + ")"));
        TSTUDIO_TRY(named, py::genOp(b, "Identity", {options.sequenceLength}, {}, "sequence_length"));
        TSTUDIO_TRY(zero, rnnZeros(b, batch, cell.outputSize(), stateDtype(options, state)));
        zeroOutputs.push_back(zero);
        TSTUDIO_TRY(asInt, sequenceLengthInt32(b, named));
        seqLen = asInt;
        TSTUDIO_TRY(mn, reduceVector(b, "Min", seqLen));
        TSTUDIO_TRY(mx, reduceVector(b, "Max", seqLen));
        minLen = mn;
        maxLen = mx;
    }

    StaticRnnResult result;
    for (std::size_t t = 0; t < inputs.size(); ++t) {
        if (t > 0)
            reuseVariables(b);
        if (!seqLen.isValid()) {
            TSTUDIO_TRY(out, cell.call(b, inputs[t], state));
            result.outputs.push_back(out.output);
            state = out.state;
            continue;
        }
        // _rnn_step without skip_conditionals.
        const std::vector<Output> flatState = state.flatten();
        TSTUDIO_TRY(timeT, ops::constantInts(b, {static_cast<std::int64_t>(t)}, TensorShape::scalar(),
                                             tensorflow::DT_INT32, "GreaterEqual/x"));
        TSTUDIO_TRY(pastMax, py::genOp(b, "GreaterEqual", {timeT, maxLen}));
        const Output input = inputs[t];
        RnnState structure = state;
        TSTUDIO_TRY(flat,
                    cond(
                        b, pastMax,
                        [&](GraphBuilder&) -> Expected<std::vector<Output>> {
                            std::vector<Output> all = zeroOutputs;
                            all.insert(all.end(), flatState.begin(), flatState.end());
                            return all;
                        },
                        [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                            TSTUDIO_TRY(out, cell.call(g, input, state));
                            if (!out.state.sameStructure(state))
                                return unexpected(invalidArgumentError(cell.className() +
                                                                       ": the new state's structure differs from "
                                                                       "the old one's"));
                            structure = out.state;
                            const std::vector<Output> newOutputs{out.output};
                            const std::vector<Output> newStates = out.state.flatten();
                            TSTUDIO_TRY(timeIn, ops::constantInts(g, {static_cast<std::int64_t>(t)},
                                                                  TensorShape::scalar(), tensorflow::DT_INT32,
                                                                  "Less/x"));
                            TSTUDIO_TRY(belowMin, py::genOp(g, "Less", {timeIn, minLen}));
                            return cond(
                                g, belowMin,
                                [&](GraphBuilder&) -> Expected<std::vector<Output>> {
                                    std::vector<Output> all = newOutputs;
                                    all.insert(all.end(), newStates.begin(), newStates.end());
                                    return all;
                                },
                                [&](GraphBuilder& h) -> Expected<std::vector<Output>> {
                                    TSTUDIO_TRY(timeC, ops::constantInts(h, {static_cast<std::int64_t>(t)},
                                                                         TensorShape::scalar(), tensorflow::DT_INT32,
                                                                         "GreaterEqual/x"));
                                    return copySomeThrough(h, timeC, seqLen, zeroOutputs, flatState, newOutputs,
                                                           newStates);
                                });
                        }));
        TSTUDIO_TRY(output, withShape(b, flat.front(), zeroOutputs.front().shape()));
        std::vector<Output> newFlatState(flat.begin() + 1, flat.end());
        for (std::size_t i = 0; i < newFlatState.size(); ++i) {
            TSTUDIO_TRY(shaped, withShape(b, newFlatState[i], flatState[i].shape()));
            newFlatState[i] = shaped;
        }
        state = structure.packAs(newFlatState);
        result.outputs.push_back(output);
    }
    result.state = state;
    return result;
}

// --- dynamic_rnn -------------------------------------------------------------------------------------------------

namespace rnn_detail {

Expected<Output> transposeBatchTime(GraphBuilder& b, const Output& x)
{
    const int rank = x.shape().rank();
    std::vector<std::int64_t> perm{1, 0};
    for (int i = 2; i < rank; ++i)
        perm.push_back(i);
    TSTUDIO_TRY(scope, b.nameScope("transpose"));
    TSTUDIO_TRY(permT, py::intVector(b, perm, "perm"));
    TSTUDIO_TRY(t, py::genOp(b, "Transpose", {x, permT}, {}, scope.name()));
    std::vector<std::int64_t> dims(x.shape().dims().begin(), x.shape().dims().end());
    std::swap(dims[0], dims[1]);
    return withShape(b, t, TensorShape(dims));
}

} // namespace rnn_detail

namespace {

/// Enters the scope dynamic_rnn builds in: variable scope "rnn" (or options.scope) for dynamic_rnn,
/// the name scope of a re-entered variable scope for bidirectional_dynamic_rnn.
using RnnScopeEntry = std::function<Expected<ScopeGuard>(GraphBuilder&)>;

/// dynamic_rnn after the argument checks, entering its scope with `enterScope`.
Expected<DynamicRnnResult> dynamicRnnIn(GraphBuilder& b, RnnCell& cell, const Output& inputs,
                                        const DynamicRnnOptions& options, const RnnScopeEntry& enterScope);

} // namespace

Expected<DynamicRnnResult> dynamicRnn(GraphBuilder& b, RnnCell& cell, const Output& inputs,
                                      const DynamicRnnOptions& options)
{
    const std::string scope = options.scope.empty() ? std::string("rnn") : options.scope;
    return dynamicRnnIn(b, cell, inputs, options, [&scope](GraphBuilder& g) { return variableScope(g, scope); });
}

namespace {

Expected<DynamicRnnResult> dynamicRnnIn(GraphBuilder& b, RnnCell& cell, const Output& inputs,
                                        const DynamicRnnOptions& options, const RnnScopeEntry& enterScope)
{
    const TensorShape& inShape = inputs.shape();
    if (inShape.rank() >= 0 && inShape.rank() < 3)
        return unexpected(invalidArgumentError(
            "dynamic_rnn: inputs " + inputs.name() + " must have rank at least 3 (" +
            (options.timeMajor ? "[max_time, batch_size, depth]" : "[batch_size, max_time, depth]") +
            "), but its shape is " + shapeList(inShape)));
    if (inShape.rank() < 0)
        return unexpected(invalidArgumentError("dynamic_rnn: the rank of inputs " + inputs.name() +
                                               " must be known (at least 3)"));
    for (int i = 2; i < inShape.rank(); ++i)
        if (inShape.dim(i) < 0)
            return unexpected(invalidArgumentError("Input size (depth of inputs) must be accessible via shape "
                                                   "inference, but saw value None. (" +
                                                   inputs.name() + " has shape " + shapeList(inShape) + ")"));
    if (!isFloating(inputs.baseDtype()))
        return unexpected(invalidArgumentError("dynamic_rnn: inputs " + inputs.name() +
                                               " must be floating point, got " + dataTypeName(inputs.baseDtype())));
    if (options.parallelIterations < 1)
        return unexpected(invalidArgumentError("dynamic_rnn: parallel_iterations must be positive, got " +
                                               std::to_string(options.parallelIterations)));

    TSTUDIO_TRY(varScope, enterScope(b));
    Output input = inputs;
    if (!options.timeMajor) {
        TSTUDIO_TRY(t, transposeBatchTime(b, inputs));
        input = t;
    }

    Output seqLen;
    if (options.sequenceLength.isValid()) {
        TSTUDIO_TRY(asInt, sequenceLengthInt32(b, options.sequenceLength));
        TSTUDIO_TRY(named, py::genOp(b, "Identity", {asInt}, {}, "sequence_length"));
        seqLen = named;
    }

    // _best_effort_input_batch_size.
    const std::int64_t constTime = input.shape().dim(0);
    const std::int64_t constBatch = input.shape().dim(1);
    RnnBatchSize batch(constBatch);
    if (constBatch < 0) {
        TSTUDIO_TRY(shape, py::shape(b, input));
        TSTUDIO_TRY(n, element(b, shape, 1));
        batch = RnnBatchSize(n);
    }
    TSTUDIO_TRY(state0, startState(b, cell, options, batch, "If there is no initial_state, you must give a dtype."));

    if (seqLen.isValid()) {
        // _assert_has_shape(sequence_length, [batch_size]).
        TSTUDIO_TRY(xShape, py::genOp(b, "Shape", {seqLen}, {{"out_type", attr::type(tensorflow::DT_INT32)}}));
        Output batchT = batch.tensor;
        if (!batchT.isValid()) {
            TSTUDIO_TRY(c, ops::constantInts(b, {constBatch}, TensorShape::scalar(), tensorflow::DT_INT32, "stack/0"));
            batchT = c;
        }
        TSTUDIO_TRY(packed, ops::firstOutput(b.op("Pack", {std::vector<Output>{batchT}}, {{"axis", attr::i(0)}},
                                                  "stack")));
        TSTUDIO_TRY(equal, py::genOp(b, "Equal", {xShape, packed}));
        TSTUDIO_TRY(allAxes, py::intVector(b, {0}, "Const"));
        TSTUDIO_TRY(all, py::genOp(b, "All", {equal, allAxes}, {{"keep_dims", attr::b(false)}}));
        TSTUDIO_TRY(check, assertThat(b, all,
                                      {std::string("Expected shape for Tensor ") + seqLen.name() + " is ", packed,
                                       std::string(" but saw shape: "), xShape}));
        // Not in TensorFlow 1.15, which runs such an example for every step and ignores the rest of
        // its length: a length past the time axis is almost always a wrong feed, so it is an error
        // that prints the time axis and the lengths ("sequence_length_within_time/Assert").
        Operation within;
        {
            TSTUDIO_TRY(scope, b.nameScope("sequence_length_within_time"));
            TSTUDIO_TRY(timeShape, py::genOp(b, "Shape", {input}, {{"out_type", attr::type(tensorflow::DT_INT32)}}));
            TSTUDIO_TRY(steps, element(b, timeShape, 0));
            TSTUDIO_TRY(notLonger, py::genOp(b, "LessEqual", {seqLen, steps}));
            TSTUDIO_TRY(axes, py::intVector(b, {0}, "Const"));
            TSTUDIO_TRY(allNotLonger, py::genOp(b, "All", {notLonger, axes}, {{"keep_dims", attr::b(false)}}));
            TSTUDIO_TRY(assertion, assertThat(b, allNotLonger,
                                              {std::string("sequence_length must not exceed the time axis (steps: "),
                                               steps, std::string("); sequence_length: "), seqLen}));
            within = assertion;
        }
        ScopeGuard deps = b.controlDependencies({check, within});
        TSTUDIO_TRY(checked, py::genOp(b, "Identity", {seqLen}, {}, "CheckSeqLen"));
        seqLen = checked;
    }

    // _dynamic_rnn_loop.
    const RnnState& state = state0;
    const std::vector<Output> flatState = state.flatten();
    const DataType outDtype = stateDtype(options, state);
    TSTUDIO_TRY(inputShape, py::genOp(b, "Shape", {input}, {{"out_type", attr::type(tensorflow::DT_INT32)}}));
    TSTUDIO_TRY(timeSteps, element(b, inputShape, 0));
    TSTUDIO_TRY(zeroOutput, rnnZeros(b, batch, cell.outputSize(), outDtype));
    Output minLen;
    Output maxLen = timeSteps;
    if (seqLen.isValid()) {
        TSTUDIO_TRY(mn, reduceVector(b, "Min", seqLen));
        TSTUDIO_TRY(mx, reduceVector(b, "Max", seqLen));
        minLen = mn;
        maxLen = mx;
    }
    TSTUDIO_TRY(time0, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "time"));
    std::string baseName;
    {
        TSTUDIO_TRY(scope, b.nameScope("dynamic_rnn"));
        baseName = scope.name();
    }
    TensorArrayOptions outOptions;
    outOptions.tensorArrayName = baseName + "output_0";
    outOptions.elementShape = TensorShape{constBatch, cell.outputSize()};
    TSTUDIO_TRY(outputTa, TensorArray::create(b, outDtype, timeSteps, outOptions));
    TensorArrayOptions inOptions;
    inOptions.tensorArrayName = baseName + "input_0";
    {
        std::vector<std::int64_t> elementDims(input.shape().dims().begin() + 1, input.shape().dims().end());
        inOptions.elementShape = TensorShape(elementDims);
    }
    TSTUDIO_TRY(inputTaEmpty, TensorArray::create(b, input.baseDtype(), timeSteps, inOptions));
    TSTUDIO_TRY(inputTa, inputTaEmpty.unstack(b, input));

    // loop_bound = minimum(time_steps, maximum(1, max_sequence_length)).
    TSTUDIO_TRY(one, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "Maximum/x"));
    TSTUDIO_TRY(atLeastOne, py::genOp(b, "Maximum", {one, maxLen}));
    TSTUDIO_TRY(loopBound, py::genOp(b, "Minimum", {timeSteps, atLeastOne}));

    std::vector<Output> loopVars{time0, outputTa.flow()};
    loopVars.insert(loopVars.end(), flatState.begin(), flatState.end());
    const TensorShape inputElementShape = inOptions.elementShape;
    RnnState finalStructure = state;
    WhileLoopOptions loopOptions;
    loopOptions.parallelIterations = options.parallelIterations;
    TSTUDIO_TRY(
        exits,
        whileLoop(
            b,
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                return py::genOp(g, "Less", {v[0], loopBound});
            },
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                const Output& time = v[0];
                const TensorArray outTa = outputTa.withFlow(v[1]);
                const std::vector<Output> oldState(v.begin() + 2, v.end());
                TSTUDIO_TRY(inputT, inputTa.read(g, time));
                TSTUDIO_TRY(inputShaped, withShape(g, inputT, inputElementShape));
                const RnnState cellState = state.packAs(oldState);
                TSTUDIO_TRY(out, cell.call(g, inputShaped, cellState));
                if (!out.state.sameStructure(state))
                    return unexpected(invalidArgumentError(cell.className() +
                                                           ": the new state's structure differs from the old one's"));
                finalStructure = out.state;
                Output output = out.output;
                std::vector<Output> newState = out.state.flatten();
                if (seqLen.isValid()) {
                    TSTUDIO_TRY(copied, copySomeThrough(g, time, seqLen, {zeroOutput}, oldState, {output}, newState));
                    output = copied.front();
                    newState.assign(copied.begin() + 1, copied.end());
                }
                TSTUDIO_TRY(written, outTa.write(g, time, output));
                TSTUDIO_TRY(next, py::binary(g, Operator::kAdd, time, 1.0));
                std::vector<Output> result{next, written.flow()};
                result.insert(result.end(), newState.begin(), newState.end());
                return result;
            },
            loopVars, loopOptions));

    const TensorArray finalTa = outputTa.withFlow(exits[1]);
    TSTUDIO_TRY(stackedRaw, finalTa.stack(b));
    TSTUDIO_TRY(stacked, withShape(b, stackedRaw, TensorShape{constTime, constBatch, cell.outputSize()}));
    std::vector<Output> finalFlat(exits.begin() + 2, exits.end());
    for (std::size_t i = 0; i < finalFlat.size(); ++i) {
        TSTUDIO_TRY(shaped, withShape(b, finalFlat[i], flatState[i].shape()));
        finalFlat[i] = shaped;
    }

    DynamicRnnResult result;
    result.state = finalStructure.packAs(finalFlat);
    result.outputs = stacked;
    if (!options.timeMajor) {
        TSTUDIO_TRY(t, transposeBatchTime(b, stacked));
        result.outputs = t;
    }
    return result;
}

/// bidirectional_dynamic_rnn's _reverse: ReverseSequence(x, sequence_length) along the time axis, or
/// ReverseV2 of the whole time axis ("ReverseV2/axis", "ReverseV2") without lengths.
Expected<Output> reverseTime(GraphBuilder& b, const Output& x, const Output& sequenceLength, bool timeMajor)
{
    const std::int64_t timeAxis = timeMajor ? 0 : 1;
    const std::int64_t batchAxis = timeMajor ? 1 : 0;
    if (sequenceLength.isValid())
        return py::genOp(b, "ReverseSequence", {x, sequenceLength},
                         {{"seq_dim", attr::i(timeAxis)}, {"batch_dim", attr::i(batchAxis)}});
    TSTUDIO_TRY(scope, b.nameScope("ReverseV2"));
    TSTUDIO_TRY(axis, py::intVector(b, {timeAxis}, "axis"));
    return py::genOp(b, "ReverseV2", {x, axis}, {}, scope.name());
}

} // namespace

// --- bidirectional_dynamic_rnn -----------------------------------------------------------------------------------

Expected<BidirectionalRnnResult> bidirectionalDynamicRnn(GraphBuilder& b, RnnCell& cellFw, RnnCell& cellBw,
                                                         const Output& inputs, const BidirectionalRnnOptions& options)
{
    if (&cellFw == &cellBw)
        return unexpected(invalidArgumentError("bidirectional_dynamic_rnn: cell_fw and cell_bw must be different cell "
                                               "objects (each direction owns its variables)"));
    if (options.sequenceLength.isValid()) {
        const DataType dt = options.sequenceLength.baseDtype();
        if (dt != tensorflow::DT_INT32 && dt != tensorflow::DT_INT64)
            return unexpected(invalidArgumentError("sequence_length must be an int32 or int64 vector, got " +
                                                   options.sequenceLength.name() + " of dtype " + dataTypeName(dt)));
    }
    DynamicRnnOptions common;
    common.sequenceLength = options.sequenceLength;
    common.dtype = options.dtype;
    common.timeMajor = options.timeMajor;
    common.parallelIterations = options.parallelIterations;

    BidirectionalRnnResult result;
    Output reversedBw;
    {
        TSTUDIO_TRY(outer, variableScope(b, options.scope.empty() ? std::string("bidirectional_rnn") : options.scope));
        {
            // dynamic_rnn(scope=fw_scope) re-enters the variable scope "fw": the variables stay in
            // ".../fw", its ops go to the name scope ".../fw/fw/".
            TSTUDIO_TRY(fwScope, variableScope(b, "fw"));
            DynamicRnnOptions fw = common;
            fw.initialState = options.initialStateFw;
            TSTUDIO_TRY(out, dynamicRnnIn(b, cellFw, inputs, fw, [](GraphBuilder& g) { return g.nameScope("fw"); }));
            result.outputsFw = out.outputs;
            result.stateFw = out.state;
        }
        {
            TSTUDIO_TRY(bwScope, variableScope(b, "bw"));
            TSTUDIO_TRY(reversedInputs, reverseTime(b, inputs, options.sequenceLength, options.timeMajor));
            DynamicRnnOptions bw = common;
            bw.initialState = options.initialStateBw;
            TSTUDIO_TRY(out,
                        dynamicRnnIn(b, cellBw, reversedInputs, bw, [](GraphBuilder& g) { return g.nameScope("bw"); }));
            reversedBw = out.outputs;
            result.stateBw = out.state;
        }
    }
    // The backward outputs are reversed back outside the "bidirectional_rnn" scope, as in TensorFlow.
    TSTUDIO_TRY(outputsBw, reverseTime(b, reversedBw, options.sequenceLength, options.timeMajor));
    result.outputsBw = outputsBw;
    return result;
}

} // namespace tstudio::nn
