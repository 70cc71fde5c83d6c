// dynamic_decode: the while loop that steps a seq2seq decoder.
#include "builder/seq2seq_decoder.h"

#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/rnn_cell_ops.h"
#include "builder/tensor_array.h"
#include "builder/variable_scope.h"
#include "builder/while_loop.h"
#include "core/try.h"

namespace tstudio::seq2seq {
namespace {

using nn::rnn_detail::withShape;

/// [batch] + shape: the batch dimension when known as a constant, else -1.
TensorShape withBatch(std::int64_t batch, const TensorShape& shape)
{
    std::vector<std::int64_t> dims{batch};
    dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
    return TensorShape(dims);
}

/// _create_zero_outputs: zeros [batch] + shape of each component.
Expected<Output> zeroOutput(GraphBuilder& b, const Output& batch, const TensorShape& shape, DataType dtype,
                            std::int64_t constBatch)
{
    std::vector<Output> parts;
    TSTUDIO_TRY(batchVector, py::expandDims(b, batch, 0));
    parts.push_back(batchVector);
    if (shape.rank() > 0) {
        std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
        TSTUDIO_TRY(rest, ops::constantInts(b, dims, TensorShape({static_cast<std::int64_t>(dims.size())}),
                                            tensorflow::DT_INT32, "Const"));
        parts.push_back(rest);
    }
    TSTUDIO_TRY(fullShape, nn::rnn_detail::concat(b, parts, 0));
    TSTUDIO_TRY(zeros, py::zeros(b, fullShape, dtype));
    return withShape(b, zeros, withBatch(constBatch, shape));
}

} // namespace

Expected<DynamicDecodeResult> dynamicDecode(GraphBuilder& b, Decoder& decoder, const DynamicDecodeOptions& options)
{
    auto scope = options.scope.empty() ? variableScopeWithDefaultName(b, "decoder") : variableScope(b, options.scope);
    if (!scope)
        return unexpected(scope.error());

    std::optional<Output> maximum = options.maximumIterations;
    if (!maximum && options.maximumIterationsValue) {
        TSTUDIO_TRY(m, ops::constantInts(b, {*options.maximumIterationsValue}, TensorShape::scalar(),
                                         tensorflow::DT_INT32, "maximum_iterations"));
        maximum = m;
    }
    if (maximum && maximum->shape().rank() != 0)
        return unexpected(invalidArgumentError("maximum_iterations must be a scalar"));

    TSTUDIO_TRY(start, decoder.initialize(b));
    const std::vector<TensorShape> shapes = decoder.outputShapes();
    const std::vector<DataType> dtypes = decoder.outputDtypes();
    const std::int64_t constBatch = start.finished.shape().rank() == 1 ? start.finished.shape().dim(0) : -1;
    std::vector<Output> zeroOutputs;
    if (options.imputeFinished)
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            TSTUDIO_TRY(z, zeroOutput(b, decoder.batchSize(), shapes[i], dtypes[i], constBatch));
            zeroOutputs.push_back(z);
        }

    Output finished = start.finished;
    if (maximum) {
        TSTUDIO_TRY(zero, ops::constantInts(b, {0}, TensorShape::scalar(), maximum->baseDtype(), "GreaterEqual/x"));
        TSTUDIO_TRY(none, py::genOp(b, "GreaterEqual", {zero, *maximum}));
        TSTUDIO_TRY(either, py::genOp(b, "LogicalOr", {finished, none}));
        finished = either;
    }
    TSTUDIO_TRY(lengths, py::zerosLike(b, finished));
    TSTUDIO_TRY(lengths32, py::cast(b, lengths, tensorflow::DT_INT32));
    TSTUDIO_TRY(time0, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));

    std::vector<TensorArray> arrays;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        TensorArrayOptions ta;
        ta.dynamicSize = true;
        ta.elementShape = withBatch(constBatch, shapes[i]);
        TSTUDIO_TRY(array, TensorArray::create(b, dtypes[i], 0, ta));
        arrays.push_back(array);
    }

    // Loop vars: time, the arrays' flows, the state, the inputs, finished, sequence lengths.
    const std::vector<Output> flatState = start.state.flatten();
    const std::size_t stateAt = 1 + arrays.size();
    const std::size_t inputsAt = stateAt + flatState.size();
    std::vector<Output> loopVars{time0};
    for (const TensorArray& a : arrays)
        loopVars.push_back(a.flow());
    loopVars.insert(loopVars.end(), flatState.begin(), flatState.end());
    loopVars.push_back(start.inputs);
    loopVars.push_back(finished);
    loopVars.push_back(lengths32);
    const nn::RnnState structure = start.state;
    nn::RnnState finalStructure = structure;

    WhileLoopOptions loop;
    loop.parallelIterations = options.parallelIterations;
    loop.swapMemory = options.swapMemory;
    loop.maximumIterations = maximum;
    TSTUDIO_TRY(exits,
                whileLoop(
                    b,
                    [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                        TSTUDIO_TRY(axes, ops::constantInts(g, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
                        TSTUDIO_TRY(all, py::genOp(g, "All", {v[inputsAt + 1], axes}));
                        return py::genOp(g, "LogicalNot", {all});
                    },
                    [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                        const Output& time = v[0];
                        const std::vector<Output> oldState(v.begin() + static_cast<std::ptrdiff_t>(stateAt),
                                                           v.begin() + static_cast<std::ptrdiff_t>(inputsAt));
                        const Output& wasFinished = v[inputsAt + 1];
                        const Output& oldLengths = v[inputsAt + 2];
                        TSTUDIO_TRY(step, decoder.step(g, time, v[inputsAt], structure.packAs(oldState)));
                        if (!step.state.sameStructure(structure) || step.outputs.size() != arrays.size())
                            return unexpected(invalidArgumentError(
                                "dynamic_decode: the decoder's step changed the structure of its state or outputs"));
                        finalStructure = step.state;
                        Output nowFinished = step.finished;
                        if (!decoder.tracksOwnFinished()) {
                            TSTUDIO_TRY(either, py::genOp(g, "LogicalOr", {step.finished, wasFinished}));
                            nowFinished = either;
                        }
                        // Sequence lengths: time + 1 where not finished before.
                        TSTUDIO_TRY(notFinished, py::genOp(g, "LogicalNot", {wasFinished}));
                        TSTUDIO_TRY(lengthShape, py::shape(g, oldLengths));
                        TSTUDIO_TRY(next, py::binary(g, py::Operator::kAdd, time, 1.0));
                        TSTUDIO_TRY(filled, py::genOp(g, "Fill", {lengthShape, next}));
                        TSTUDIO_TRY(newLengths, py::where(g, notFinished, filled, oldLengths));

                        std::vector<Output> emit = step.outputs;
                        std::vector<Output> newState = step.state.flatten();
                        if (options.imputeFinished) {
                            for (std::size_t i = 0; i < emit.size(); ++i) {
                                TSTUDIO_TRY(zeroed, py::where(g, wasFinished, zeroOutputs[i], emit[i]));
                                emit[i] = zeroed;
                            }
                            for (std::size_t i = 0; i < newState.size(); ++i) {
                                TSTUDIO_TRY(shaped, withShape(g, newState[i], oldState[i].shape()));
                                if (shaped.shape().rank() == 0) // scalar states pass through
                                    continue;
                                TSTUDIO_TRY(kept, py::where(g, wasFinished, oldState[i], shaped));
                                newState[i] = kept;
                            }
                        }
                        std::vector<Output> result{next};
                        for (std::size_t i = 0; i < arrays.size(); ++i) {
                            TSTUDIO_TRY(written, arrays[i].withFlow(v[1 + i]).write(g, time, emit[i]));
                            result.push_back(written.flow());
                        }
                        result.insert(result.end(), newState.begin(), newState.end());
                        TSTUDIO_TRY(nextInputs, withShape(g, step.nextInputs, v[inputsAt].shape()));
                        result.push_back(nextInputs);
                        result.push_back(nowFinished);
                        result.push_back(newLengths);
                        return result;
                    },
                    loopVars, loop));

    DynamicDecodeResult result;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        TSTUDIO_TRY(stacked, arrays[i].withFlow(exits[1 + i]).stack(b));
        Output out = stacked;
        if (!options.outputTimeMajor) {
            TSTUDIO_TRY(t, nn::rnn_detail::transposeBatchTime(b, stacked));
            out = t;
        }
        result.outputs.push_back(out);
    }
    std::vector<Output> finalFlat(exits.begin() + static_cast<std::ptrdiff_t>(stateAt),
                                  exits.begin() + static_cast<std::ptrdiff_t>(inputsAt));
    for (std::size_t i = 0; i < finalFlat.size(); ++i) {
        TSTUDIO_TRY(shaped, withShape(b, finalFlat[i], flatState[i].shape()));
        finalFlat[i] = shaped;
    }
    result.finalState = finalStructure.packAs(finalFlat);
    result.finalSequenceLengths = exits[inputsAt + 2];
    return result;
}

} // namespace tstudio::seq2seq
