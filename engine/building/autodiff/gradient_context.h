// GradientContext: what a gradient function sees of the op it differentiates, and where it puts the
// gradients of the op's inputs.
#pragma once

#include "builder/indexed_slices.h"
#include "builder/output.h"
#include "core/expected.h"
#include "proto/node_def.pb.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

class GraphBuilder;

/// State shared by the gradient functions of one addSymbolicGradients call (TensorFlow keeps the
/// same caches on the Graph object).
struct GradientCallState {
    /// _SumGrad's cache of statically known reductions: (input shape, axes) -> (output shape with
    /// kept dims, tile multiples). Only the first Sum gradient of a kind builds the (unused)
    /// constant-folded reduced_shape nodes, as in TensorFlow.
    std::map<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>,
             std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>
        reducedShapes;
};

/// The context of one gradient function call (TensorFlow's `grad_fn(op, *out_grads)`):
///  - the forward op: its NodeDef (attrs with defaults), its data inputs and its outputs as Outputs
///    (dtype, and the shape inferred when they were built);
///  - the incoming gradient of each output, already summed; absent (nullopt) for outputs that
///    receive none and are not trainable (an unused float output gets zeros, as in TensorFlow);
///  - the GraphBuilder, positioned in the op's "gradients/<op name>_grad" name scope.
/// The function emits ordinary ops with the builder and calls setInputGradient for every input
/// that has a gradient; inputs left alone (or setNoGradient) get none (TensorFlow's None).
///
/// Not synchronised; lives for one call.
class GradientContext {
public:
    GradientContext(GraphBuilder& builder, GradientCallState& state, Operation op, const tensorflow::NodeDef& node,
                    std::vector<Output> inputs, std::vector<std::optional<Output>> outputGradients);

    GraphBuilder& builder() { return m_builder; }
    GradientCallState& callState() { return m_state; }

    /// The forward op (name, type, device, outputs) and its NodeDef.
    const Operation& op() const { return m_op; }
    const tensorflow::NodeDef& node() const { return m_node; }

    int numInputs() const { return static_cast<int>(m_inputs.size()); }
    /// Data input `i` of the forward op (a ref dtype for ref inputs). Precondition: 0 <= i < numInputs().
    const Output& input(int i) const { return m_inputs.at(static_cast<std::size_t>(i)); }
    int numOutputs() const { return m_op.numOutputs(); }
    /// Output `i` of the forward op. Precondition: 0 <= i < numOutputs().
    const Output& output(int i) const { return m_op.output(i); }

    /// The gradient arriving at output `i` (nullopt: none).
    const std::optional<Output>& outputGradient(int i) const
    {
        return m_outputGradients.at(static_cast<std::size_t>(i));
    }
    /// The gradient of output `i`, or Internal naming the op when there is none (for the ops whose
    /// gradient functions need it; the driver gives every trainable output one).
    Expected<Output> grad(int i = 0) const;

    /// Sets the gradient of input `i` (replacing an earlier one). InvalidArgument for a bad index
    /// or an invalid Output.
    Status setInputGradient(int i, Output gradient);
    /// Input `i` gets no gradient (the default).
    Status setNoGradient(int i);
    /// One entry per input, in input order.
    const std::vector<std::optional<Output>>& inputGradients() const { return m_inputGradients; }

    /// The IndexedSlices arriving at output `i`, given only to the gradient functions that take them
    /// (Identity's, Snapshot's and ReadVariableOp's: gradients.cpp); their outputGradient(i) is then
    /// nullopt. Others see the dense form.
    const std::optional<IndexedSlices>& outputIndexedSlices(int i) const
    {
        return m_outputSlices.at(static_cast<std::size_t>(i));
    }
    /// Sets the sparse incoming gradient of output `i` (the driver's call). Precondition: valid `i`.
    void setOutputIndexedSlices(int i, IndexedSlices slices);
    /// Sets the gradient of input `i` to IndexedSlices (Gather's and ResourceGather's gradients).
    /// InvalidArgument for a bad index or invalid values / indices.
    Status setInputGradient(int i, IndexedSlices gradient);
    /// One entry per input: the dense gradient, the IndexedSlices, or nullopt.
    std::vector<std::optional<Gradient>> inputGradientsWithSlices() const;

private:
    GraphBuilder& m_builder;
    GradientCallState& m_state;
    Operation m_op;
    const tensorflow::NodeDef& m_node;
    std::vector<Output> m_inputs;
    std::vector<std::optional<Output>> m_outputGradients;
    std::vector<std::optional<Output>> m_inputGradients;
    std::vector<std::optional<IndexedSlices>> m_outputSlices;
    std::vector<std::optional<IndexedSlices>> m_inputSlices;
};

} // namespace tstudio
