// Whole-graph shape inference: shape functions in topological order with constant propagation.
#include "function/shape_refiner.h"

#include "framework/node_attrs.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "function/function_instantiation.h"
#include "function/function_library.h"
#include "function/function_shapes.h"
#include "function/functional_control_flow_shapes.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace tstudio {
namespace {

using tensorflow::DataType;

/// Ops whose output is never a constant, whatever their inputs: the value is fed, or depends on
/// which branch or iteration runs.
bool neverConstant(std::string_view op)
{
    static const std::set<std::string_view> ops = {
        "Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "Switch",     "RefSwitch",
        "Merge",       "RefMerge",      "Enter",                  "RefEnter",   "Exit",
        "RefExit",     "NextIteration", "RefNextIteration",       "LoopCond",   "ControlTrigger",
    };
    return ops.count(op) > 0;
}

/// "[3], [3,4]" as TensorFlow lists input shapes in its errors ("?" for an unknown rank).
std::string inputShapesText(const std::vector<TensorShape>& shapes)
{
    std::string text;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        if (i > 0)
            text += ", ";
        text += shapes[i].isUnknownRank() ? "?" : shapes[i].toString();
    }
    return text;
}

Status nodeError(const tensorflow::NodeDef& node, const Status& cause, const std::vector<TensorShape>& inputs)
{
    return Status(cause.code(), cause.message() + " for '" + node.name() + "' (op: '" + node.op() +
                                    "') with input shapes: " + inputShapesText(inputs) + ".");
}

/// An int32 or int64 vector tensor holding `values`, or nullopt when int32 cannot hold them.
std::optional<Tensor> intTensor(Allocator& allocator, DataType dtype, const TensorShape& shape,
                                const std::vector<std::int64_t>& values)
{
    if (dtype == tensorflow::DT_INT64) {
        auto t = Tensor::fromVector<std::int64_t>(allocator, shape, values);
        return t ? std::optional<Tensor>(std::move(*t)) : std::nullopt;
    }
    if (dtype != tensorflow::DT_INT32)
        return std::nullopt;
    std::vector<std::int32_t> narrow;
    narrow.reserve(values.size());
    for (std::int64_t v : values) {
        if (v > std::numeric_limits<std::int32_t>::max())
            return std::nullopt;
        narrow.push_back(static_cast<std::int32_t>(v));
    }
    auto t = Tensor::fromVector<std::int32_t>(allocator, shape, narrow);
    return t ? std::optional<Tensor>(std::move(*t)) : std::nullopt;
}

/// Values TensorFlow's refiner knows without running a kernel: the shape facts of fully known
/// input shapes (Shape, ShapeN, Size, Rank).
void foldShapeFacts(const tensorflow::NodeDef& node, const std::vector<TensorShape>& inputShapes,
                    std::vector<InferredOutput>& outputs, Allocator& allocator)
{
    const std::string& op = node.op();
    if (op == "Shape" || op == "ShapeN") {
        for (std::size_t i = 0; i < outputs.size() && i < inputShapes.size(); ++i) {
            const TensorShape& s = inputShapes[i];
            if (!s.isFullyDefined())
                continue;
            std::vector<std::int64_t> dims(s.dims().begin(), s.dims().end());
            outputs[i].value = intTensor(allocator, outputs[i].dtype,
                                         TensorShape{static_cast<std::int64_t>(dims.size())}, dims);
        }
    } else if (op == "Size" && !outputs.empty() && !inputShapes.empty() && inputShapes[0].isFullyDefined()) {
        if (auto n = inputShapes[0].numElements())
            outputs[0].value = intTensor(allocator, outputs[0].dtype, TensorShape::scalar(), {*n});
    } else if (op == "Rank" && !outputs.empty() && !inputShapes.empty() && !inputShapes[0].isUnknownRank()) {
        outputs[0].value = intTensor(allocator, tensorflow::DT_INT32, TensorShape::scalar(), {inputShapes[0].rank()});
    }
}

/// A known 1-D int32/int64 value read as a shape (-1 entries unknown), or unknown rank.
TensorShape shapeFromValue(const Tensor& value)
{
    if (value.shape().rank() != 1)
        return TensorShape::unknown();
    std::vector<std::int64_t> dims;
    if (value.dtype() == tensorflow::DT_INT32) {
        for (std::int32_t v : value.values<std::int32_t>())
            dims.push_back(v);
    } else if (value.dtype() == tensorflow::DT_INT64) {
        for (std::int64_t v : value.values<std::int64_t>())
            dims.push_back(v);
    } else {
        return TensorShape::unknown();
    }
    for (std::int64_t& d : dims) {
        if (d < -1)
            return TensorShape::unknown();
    }
    auto shape = TensorShape::fromDims(dims);
    return shape ? *shape : TensorShape::unknown();
}

std::optional<std::int64_t> scalarValue(const Tensor* value)
{
    if (value == nullptr || value->numElements() != 1)
        return std::nullopt;
    if (value->dtype() == tensorflow::DT_INT32)
        return value->values<std::int32_t>()[0];
    if (value->dtype() == tensorflow::DT_INT64)
        return value->values<std::int64_t>()[0];
    return std::nullopt;
}

/// StridedSlice of a partially known shape vector with 1-element begin/end/strides and no
/// ellipsis, new-axis or shrink masks (the form `tf.shape(x)[1:]` takes); unknown otherwise.
TensorShape slicePartialShape(const tensorflow::NodeDef& node, const TensorShape& input,
                              const std::vector<const Tensor*>& values)
{
    if (input.isUnknownRank() || values.size() != 4)
        return TensorShape::unknown();
    for (const char* mask : {"ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
        if (auto v = attrInt(node, mask); !v || *v != 0)
            return TensorShape::unknown();
    auto begin = scalarValue(values[1]);
    auto end = scalarValue(values[2]);
    auto stride = scalarValue(values[3]);
    auto beginMask = attrInt(node, "begin_mask");
    auto endMask = attrInt(node, "end_mask");
    if (!begin || !end || !stride || *stride <= 0 || !beginMask || !endMask)
        return TensorShape::unknown();
    const std::int64_t rank = input.rank();
    auto clamp = [rank](std::int64_t i) { return std::clamp(i < 0 ? i + rank : i, std::int64_t{0}, rank); };
    const std::int64_t from = (*beginMask & 1) ? 0 : clamp(*begin);
    const std::int64_t to = (*endMask & 1) ? rank : clamp(*end);
    std::vector<std::int64_t> dims;
    for (std::int64_t i = from; i < to; i += *stride)
        dims.push_back(input.dim(static_cast<int>(i)));
    return TensorShape(std::move(dims));
}

/// TensorFlow's ConstantPartialShape: what a 1-D int output says about a shape when its value is
/// not (entirely) known.
TensorShape partialShapeOf(const tensorflow::NodeDef& node, const std::vector<TensorShape>& inputShapes,
                           const std::vector<const Tensor*>& inputValues,
                           const std::vector<TensorShape>& inputsAsShapes)
{
    const std::string& op = node.op();
    if (op == "Shape" && !inputShapes.empty())
        return inputShapes[0];
    if ((op == "Cast" || op == "Identity") && !inputsAsShapes.empty())
        return inputsAsShapes[0];
    if (op == "Pack") {
        auto axis = attrInt(node, "axis");
        if (!axis || *axis != 0)
            return TensorShape::unknown();
        std::vector<std::int64_t> dims;
        for (std::size_t i = 0; i < inputShapes.size(); ++i) {
            if (inputShapes[i].rank() > 0)
                return TensorShape::unknown();
            const auto v = scalarValue(inputValues[i]);
            if (v && *v < -1)
                return TensorShape::unknown();
            dims.push_back(v ? *v : TensorShape::kUnknownDim);
        }
        return TensorShape(std::move(dims));
    }
    if (op == "ConcatV2" || op == "Concat") {
        // ConcatV2's axis is its last input, Concat's its first; the pieces are the others.
        const std::size_t first = op == "Concat" ? 1 : 0;
        const std::size_t last = op == "Concat" ? inputsAsShapes.size() : inputsAsShapes.size() - 1;
        std::vector<std::int64_t> dims;
        for (std::size_t i = first; i < last && i < inputsAsShapes.size(); ++i) {
            if (inputsAsShapes[i].isUnknownRank())
                return TensorShape::unknown();
            dims.insert(dims.end(), inputsAsShapes[i].dims().begin(), inputsAsShapes[i].dims().end());
        }
        return TensorShape(std::move(dims));
    }
    if (op == "StridedSlice" && !inputsAsShapes.empty())
        return slicePartialShape(node, inputsAsShapes[0], inputValues);
    return TensorShape::unknown();
}

bool hasRefType(const std::vector<DataType>& types)
{
    for (DataType t : types)
        if (isRefType(t))
            return true;
    return false;
}

/// A Const's value when its declared shape has at most `maxElements` elements (checked before
/// anything is allocated) and the proto reads; nullopt otherwise.
std::optional<Tensor> constValue(const tensorflow::NodeDef& node, Allocator& allocator, std::int64_t maxElements)
{
    auto it = node.attr().find("value");
    if (it == node.attr().end() || !it->second.has_tensor())
        return std::nullopt;
    const tensorflow::TensorProto& proto = it->second.tensor();
    if (proto.tensor_shape().unknown_rank())
        return std::nullopt;
    std::int64_t elements = 1;
    for (const auto& d : proto.tensor_shape().dim()) {
        if (d.size() < 0 || (d.size() > 0 && elements > maxElements / d.size()))
            return std::nullopt;
        elements *= d.size();
    }
    if (elements > maxElements)
        return std::nullopt;
    auto value = Tensor::fromProto(allocator, proto);
    return value ? std::optional<Tensor>(std::move(*value)) : std::nullopt;
}

} // namespace

const InferredOutput* GraphShapes::find(const Graph& graph, std::string_view tensorName) const
{
    auto id = parseTensorId(tensorName);
    if (!id || id->isControl())
        return nullptr;
    auto node = graph.findNode(id->node);
    if (!node)
        return nullptr;
    const auto& list = outputs(*node);
    if (id->index < 0 || static_cast<std::size_t>(id->index) >= list.size())
        return nullptr;
    return &list[static_cast<std::size_t>(id->index)];
}

Expected<std::vector<InferredOutput>> inferNodeOutputs(const tensorflow::NodeDef& node,
                                                       const OpRegistration& registration,
                                                       const std::vector<const InferredOutput*>& inputs,
                                                       Allocator& allocator, const ShapeRefinerOptions& options)
{
    auto inputTypes = inputTypesForNode(registration.opDef, node);
    if (!inputTypes)
        return unexpected(inputTypes.error());
    auto outputTypes = outputTypesForNode(registration.opDef, node);
    if (!outputTypes)
        return unexpected(outputTypes.error());
    if (inputs.size() != inputTypes->size())
        return unexpected(invalidArgumentError("node '" + node.name() + "' has " +
                                               std::to_string(inputTypes->size()) + " data inputs, but " +
                                               std::to_string(inputs.size()) + " were given for shape inference"));
    std::vector<InferredOutput> outputs;
    for (DataType dtype : *outputTypes)
        outputs.push_back(InferredOutput{dtype, TensorShape::unknown(), std::nullopt});

    // Data inputs: shapes, known values and partial shape tensors; missing ones are unknown.
    std::vector<TensorShape> inputShapes;
    std::vector<const Tensor*> inputValues;
    std::vector<TensorShape> inputsAsShapes;
    bool allValuesKnown = true;
    for (const InferredOutput* input : inputs) {
        inputShapes.push_back(input ? input->shape : TensorShape::unknown());
        inputValues.push_back(input && input->value ? &*input->value : nullptr);
        inputsAsShapes.push_back(input ? input->valueAsShape : TensorShape::unknown());
        allValuesKnown = allValuesKnown && inputValues.back() != nullptr;
    }

    if (!registration.shapeFunction)
        return unexpected(
            unimplementedError("node '" + node.name() + "': op '" + node.op() + "' has no shape function"));
    ShapeInferenceContext context(node, registration.opDef, inputShapes, *inputTypes, inputValues,
                                  static_cast<int>(outputs.size()));
    context.setInputTensorsAsShapes(inputsAsShapes);
    if (Status s = registration.shapeFunction(context); !s.isOk())
        return unexpected(nodeError(node, s, inputShapes));
    for (std::size_t i = 0; i < outputs.size(); ++i)
        outputs[i].shape = context.output(static_cast<int>(i));

    // Known values.
    if (node.op() == "Const") {
        if (!outputs.empty())
            outputs[0].value = constValue(node, allocator, options.maxConstantElements);
    } else {
        foldShapeFacts(node, inputShapes, outputs, allocator);
    }
    const bool evaluable = options.evaluator && allValuesKnown && !inputValues.empty() &&
                           !neverConstant(node.op()) && !registration.opDef.is_stateful() &&
                           !hasRefType(*inputTypes) && node.op() != "Const";
    bool anyMissing = false;
    for (const auto& o : outputs)
        anyMissing = anyMissing || !o.value || isRefType(o.dtype);
    if (evaluable && anyMissing) {
        std::int64_t inputElements = 0;
        std::vector<Tensor> values;
        for (const Tensor* t : inputValues) {
            inputElements += t->numElements();
            values.push_back(*t);
        }
        if (inputElements <= options.maxConstantElements) {
            auto results = options.evaluator(node, values);
            if (results && results->size() == outputs.size()) {
                for (std::size_t i = 0; i < outputs.size(); ++i) {
                    Tensor& v = (*results)[i];
                    if (v.dtype() != baseType(outputs[i].dtype) || v.numElements() > options.maxConstantElements ||
                        !v.shape().isCompatibleWith(outputs[i].shape))
                        continue;
                    outputs[i].shape = v.shape();
                    outputs[i].value = std::move(v);
                }
            }
        }
    }

    for (auto& output : outputs) {
        if (output.value)
            output.valueAsShape = shapeFromValue(*output.value);
    }
    if (outputs.size() == 1 && !outputs[0].value &&
        (baseType(outputs[0].dtype) == tensorflow::DT_INT32 || baseType(outputs[0].dtype) == tensorflow::DT_INT64))
        outputs[0].valueAsShape = partialShapeOf(node, inputShapes, inputValues, inputsAsShapes);
    return outputs;
}

Expected<GraphShapes> inferGraphShapes(const Graph& graph, const OpRegistry& ops, Allocator& allocator,
                                       const ShapeRefinerOptions& options)
{
    GraphShapes result;
    const auto n = static_cast<std::size_t>(graph.nodeCount());
    result.m_outputs.resize(n);

    // Every node with its defaults, and its dtypes: known before any shape, so that back edges
    // have a dtype when their Merge is reached.
    std::vector<tensorflow::NodeDef> nodes(n);
    std::vector<const OpRegistration*> registrations(n, nullptr);
    std::vector<Status> nodeStatus(n);
    // The graph's functions: calls are refined through their bodies. A library that does not load
    // leaves the calls by name unregistered ops and the partitioned calls of unknown shape.
    FunctionLibrary library(ops); // add() adds nothing when it fails
    const bool hasFunctions = library.add(graph.graphDef().library()).isOk() && !library.empty();
    std::vector<bool> isCall(n, false);
    for (std::size_t id = 0; id < n; ++id) {
        nodes[id] = graph.node(static_cast<NodeId>(id));
        auto registration = ops.lookUp(nodes[id].op());
        if (!registration && hasFunctions && library.contains(nodes[id].op())) {
            // A call by name: checked against the function's signature, no registration.
            const tensorflow::OpDef& signature = library.find(nodes[id].op())->signature();
            addDefaultAttrs(signature, &nodes[id]);
            nodeStatus[id] = validateNodeDef(signature, nodes[id]);
            auto out = outputTypesForNode(signature, nodes[id]);
            if (nodeStatus[id].isOk() && !out)
                nodeStatus[id] = out.error();
            if (nodeStatus[id].isOk())
                for (DataType dtype : *out)
                    result.m_outputs[id].push_back(InferredOutput{dtype, TensorShape::unknown(), std::nullopt});
            isCall[id] = true;
            continue;
        }
        if (!registration) {
            nodeStatus[id] = registration.error();
            continue;
        }
        isCall[id] = hasFunctions && (isFunctionCall(nodes[id], library) || isFunctionalControlFlowOp(nodes[id].op()));
        registrations[id] = *registration;
        addDefaultAttrs((*registration)->opDef, &nodes[id]);
        if (Status s = validateNodeDef((*registration)->opDef, nodes[id]); !s.isOk()) {
            nodeStatus[id] = s;
            continue;
        }
        auto in = inputTypesForNode((*registration)->opDef, nodes[id]);
        auto out = outputTypesForNode((*registration)->opDef, nodes[id]);
        if (!in || !out) {
            nodeStatus[id] = !in ? in.error() : out.error();
            continue;
        }
        for (DataType dtype : *out)
            result.m_outputs[id].push_back(InferredOutput{dtype, TensorShape::unknown(), std::nullopt});
    }

    for (const auto& [name, shape] : options.assumedShapes)
        if (!result.find(graph, name))
            return unexpected(invalidArgumentError("cannot assume a shape for '" + name +
                                                   "': the graph has no such output"));

    std::vector<bool> done(n, false);
    for (NodeId nodeId : graph.topologicalOrder()) {
        const auto id = static_cast<std::size_t>(nodeId);
        done[id] = true;
        const tensorflow::NodeDef& node = nodes[id];
        if (!nodeStatus[id].isOk()) {
            const Status& cause = nodeStatus[id];
            result.m_errors.push_back({nodeId, Status(cause.code(), "node '" + node.name() + "': " + cause.message())});
            continue;
        }

        // Data inputs; back edges (sources not done yet) are unknown.
        std::vector<const InferredOutput*> inputs;
        for (const TensorId& input : graph.inputs(nodeId)) {
            if (input.isControl())
                break;
            const auto src = static_cast<std::size_t>(*graph.findNode(input.node));
            const auto& srcOutputs = result.m_outputs[src];
            const auto slot = static_cast<std::size_t>(input.index);
            inputs.push_back(done[src] && slot < srcOutputs.size() ? &srcOutputs[slot] : nullptr);
        }

        auto inferred = !isCall[id] ? inferNodeOutputs(node, *registrations[id], inputs, allocator, options)
                        : isFunctionalControlFlowOp(node.op())
                            ? inferFunctionalControlFlowOutputs(node, library, inputs, allocator, options)
                            : inferFunctionCallOutputs(node, library, inputs, allocator, options);
        if (!inferred && isCall[id])
            inferred = unexpected(inferred.error().withContext("node '" + node.name() + "'"));
        if (!inferred) {
            result.m_errors.push_back({nodeId, inferred.error()});
            continue;
        }
        std::vector<InferredOutput>& outputs = result.m_outputs[id];
        outputs = std::move(*inferred);

        for (std::size_t i = 0; i < outputs.size(); ++i) {
            auto assumed = options.assumedShapes.find(node.name() + ":" + std::to_string(i));
            if (assumed == options.assumedShapes.end() && i == 0)
                assumed = options.assumedShapes.find(node.name());
            if (assumed == options.assumedShapes.end())
                continue;
            auto merged = outputs[i].shape.merge(assumed->second);
            if (!merged)
                return unexpected(invalidArgumentError("cannot assume shape " + assumed->second.toString() + " for '" +
                                                       assumed->first + "': the graph gives it shape " +
                                                       outputs[i].shape.toString()));
            outputs[i].shape = std::move(*merged);
        }
    }
    return result;
}

} // namespace tstudio
