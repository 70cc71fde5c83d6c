// Output and Operation: handles to a tensor and to a node of a graph under construction (tf.Tensor, tf.Operation).
#pragma once

#include "framework/data_type.h"
#include "framework/tensor_shape.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

/// One output of a node: the node's name, the output index, its dtype (a ref dtype for the outputs
/// of VariableV2 and Assign) and the shape inferred when the node was created. A value type, cheap
/// enough to copy; it does not keep the builder alive. A default-constructed Output is invalid.
class Output {
public:
    Output() = default;
    Output(std::string node, int index, DataType dtype, TensorShape shape)
        : m_node(std::move(node)), m_index(index), m_dtype(dtype), m_shape(std::move(shape))
    {
    }

    bool isValid() const { return !m_node.empty(); }
    /// The producing node's name, e.g. "layer1/weights".
    const std::string& node() const { return m_node; }
    int index() const { return m_index; }
    DataType dtype() const { return m_dtype; }
    /// The dtype without its ref: what a consumer of this output receives.
    DataType baseDtype() const { return baseType(m_dtype); }
    const TensorShape& shape() const { return m_shape; }
    /// TensorFlow's tensor name, "node:0" (as tf.Tensor.name).
    std::string name() const { return m_node + ":" + std::to_string(m_index); }
    /// How a NodeDef refers to it: "node" for output 0, "node:1" otherwise.
    std::string inputString() const { return m_index == 0 ? m_node : m_node + ":" + std::to_string(m_index); }

    bool operator==(const Output& other) const { return m_node == other.m_node && m_index == other.m_index; }

private:
    std::string m_node;
    int m_index = 0;
    DataType m_dtype = tensorflow::DT_INVALID;
    TensorShape m_shape;
};

/// A node of the graph: its name, op type, device and outputs (as tf.Operation).
class Operation {
public:
    Operation() = default;
    Operation(std::string name, std::string type, std::string device, std::vector<Output> outputs)
        : m_name(std::move(name)), m_type(std::move(type)), m_device(std::move(device)), m_outputs(std::move(outputs))
    {
    }

    bool isValid() const { return !m_name.empty(); }
    const std::string& name() const { return m_name; }
    const std::string& type() const { return m_type; }
    /// The NodeDef's device field as built ("" when none was requested).
    const std::string& device() const { return m_device; }
    int numOutputs() const { return static_cast<int>(m_outputs.size()); }
    /// Output `i`. Precondition: 0 <= i < numOutputs().
    const Output& output(int i) const { return m_outputs.at(static_cast<std::size_t>(i)); }
    const std::vector<Output>& outputs() const { return m_outputs; }
    /// The control-input form of this node, "^name".
    std::string controlInputString() const { return "^" + m_name; }

private:
    std::string m_name;
    std::string m_type;
    std::string m_device;
    std::vector<Output> m_outputs;
};

} // namespace tstudio
