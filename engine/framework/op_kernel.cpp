// OpKernel and its contexts: output allocation and dtype checks.
#include "framework/op_kernel.h"

namespace tstudio {

OpKernelConstruction::OpKernelConstruction(const tensorflow::NodeDef& node, const tensorflow::OpDef& opDef,
                                           Device& device, std::vector<DataType> inputTypes,
                                           std::vector<DataType> outputTypes)
    : m_node(node), m_opDef(opDef), m_device(device), m_inputTypes(std::move(inputTypes)),
      m_outputTypes(std::move(outputTypes))
{
}

OpKernel::OpKernel(OpKernelConstruction& construction)
    : m_node(construction.node()), m_inputTypes(construction.inputTypes()), m_outputTypes(construction.outputTypes()),
      m_hostInputs(construction.hostMemoryInputs()), m_hostOutputs(construction.hostMemoryOutputs())
{
}

OpKernel::~OpKernel() = default;

OpKernelContext::OpKernelContext(Params params)
    : m_params(params), m_outputs(params.outputStorage ? *params.outputStorage : m_ownOutputs),
      m_set(params.setStorage ? *params.setStorage : m_ownSet)
{
    const auto count = static_cast<std::size_t>(params.kernel->numOutputs());
    m_outputs.clear();
    m_outputs.resize(count);
    m_set.assign(count, false);
}

Expected<Tensor*> OpKernelContext::allocateOutput(int i, const TensorShape& shape)
{
    return allocateOutput(i, shape, /*zeroFill=*/false);
}

Expected<Tensor*> OpKernelContext::allocateZeroedOutput(int i, const TensorShape& shape)
{
    return allocateOutput(i, shape, /*zeroFill=*/true);
}

Expected<Tensor*> OpKernelContext::allocateOutput(int i, const TensorShape& shape, bool zeroFill)
{
    if (i < 0 || i >= numOutputs())
        return unexpected(internalError("output index " + std::to_string(i) + " out of range for op '" +
                                        kernel().op() + "' with " + std::to_string(numOutputs()) + " outputs"));
    const DataType dtype = baseType(kernel().outputTypes()[static_cast<std::size_t>(i)]);
    Allocator& memory = kernel().outputInHostMemory(i) ? device().hostAllocator() : allocator();
    auto tensor =
        zeroFill ? Tensor::allocate(memory, dtype, shape) : Tensor::allocateUninitialized(memory, dtype, shape);
    if (!tensor)
        return unexpected(tensor.error());
    auto& slot = m_outputs[static_cast<std::size_t>(i)];
    slot = TensorValue{std::move(*tensor)};
    m_set[static_cast<std::size_t>(i)] = true;
    return &slot.tensor;
}

Expected<Tensor*> OpKernelContext::forwardInputOrAllocateOutput(std::initializer_list<int> candidates, int out,
                                                                const TensorShape& shape)
{
    if (!m_params.inputForwarding || out < 0 || out >= numOutputs())
        return allocateOutput(out, shape);
    const auto u = static_cast<std::size_t>(out);
    const DataType dtype = kernel().outputTypes()[u];
    // Strings, resource handles and variants are objects a kernel replaces, not numbers it overwrites.
    if (isRefType(dtype) || dtype == tensorflow::DT_STRING || dtype == tensorflow::DT_RESOURCE ||
        dtype == tensorflow::DT_VARIANT)
        return allocateOutput(out, shape);
    const Allocator* memory = kernel().outputInHostMemory(out) ? &device().hostAllocator() : &allocator();
    for (int in : candidates) {
        if (in < 0 || in >= numInputs())
            continue;
        const TensorValue& value = (*m_params.inputs)[static_cast<std::size_t>(in)];
        const Tensor& tensor = value.tensor;
        if (value.isRef() || tensor.dtype() != dtype || tensor.shape() != shape || tensor.numElements() == 0 ||
            tensor.bufferAllocator() != memory || tensor.bufferIsShared())
            continue;
        m_outputs[u] = TensorValue{tensor};
        m_set[u] = true;
        return &m_outputs[u].tensor;
    }
    return allocateOutput(out, shape);
}

Status OpKernelContext::setOutput(int i, Tensor value)
{
    if (i < 0 || i >= numOutputs())
        return internalError("output index " + std::to_string(i) + " out of range for op '" + kernel().op() + "'");
    const DataType expected = baseType(kernel().outputTypes()[static_cast<std::size_t>(i)]);
    if (value.dtype() != expected)
        return invalidArgumentError("output " + std::to_string(i) + " must be " + std::string(dataTypeName(expected)) +
                                    " but the kernel produced " + std::string(dataTypeName(value.dtype())));
    m_outputs[static_cast<std::size_t>(i)] = TensorValue{std::move(value)};
    m_set[static_cast<std::size_t>(i)] = true;
    return Status::ok();
}

void OpKernelContext::setOutputRef(int i, Tensor* ref, std::mutex* mutex, const TensorShape* declaredShape)
{
    auto& slot = m_outputs.at(static_cast<std::size_t>(i));
    slot = TensorValue{};
    slot.ref = ref;
    slot.refMutex = mutex;
    slot.refDeclaredShape = declaredShape;
    m_set[static_cast<std::size_t>(i)] = true;
}

void OpKernelContext::forwardRefInput(int in, int out)
{
    const TensorValue& input = m_params.inputs->at(static_cast<std::size_t>(in));
    setOutputRef(out, input.ref, input.refMutex, input.refDeclaredShape);
}

} // namespace tstudio
