// Test kernels for the runtime tests (Const, Identity, arithmetic, variables, and test-only ops).
#include "runtime_test_support.h"

#include "devices/gpu_devices.h"
#include "framework/node_attrs.h"
#include "framework/op_def_builder.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <google/protobuf/text_format.h>

#include <chrono>
#include <condition_variable>
#include <sstream>
#include <thread>

namespace tstudio::testing {

void ExecutionLog::record(const std::string& node)
{
    std::lock_guard lock(m_mutex);
    m_order.push_back(node);
    ++m_counts[node];
}

int ExecutionLog::count(const std::string& node) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_counts.find(node);
    return it == m_counts.end() ? 0 : it->second;
}

std::vector<std::string> ExecutionLog::order() const
{
    std::lock_guard lock(m_mutex);
    return m_order;
}

int ExecutionLog::constructions(const std::string& node) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_constructions.find(node);
    return it == m_constructions.end() ? 0 : it->second;
}

void ExecutionLog::recordConstruction(const std::string& node)
{
    std::lock_guard lock(m_mutex);
    ++m_constructions[node];
}

void ExecutionLog::clear()
{
    std::lock_guard lock(m_mutex);
    m_order.clear();
    m_counts.clear();
}

namespace {

using tensorflow::DT_BOOL;
using tensorflow::DT_FLOAT;
using tensorflow::DT_INT32;

/// Base of the test kernels: records every execution under the node's name.
class LoggedKernel : public OpKernel {
public:
    LoggedKernel(OpKernelConstruction& c, ExecutionLog* log) : OpKernel(c), m_log(log)
    {
        m_log->recordConstruction(c.node().name());
    }
    Status compute(OpKernelContext& ctx) final
    {
        m_log->record(name());
        return run(ctx);
    }

protected:
    virtual Status run(OpKernelContext& ctx) = 0;

private:
    ExecutionLog* m_log;
};

class TestConstKernel : public LoggedKernel {
public:
    TestConstKernel(OpKernelConstruction& c, ExecutionLog* log) : LoggedKernel(c, log)
    {
        const tensorflow::AttrValue* value = findAttr(c.node(), "value");
        auto tensor = value ? Tensor::fromProto(c.device().allocator(), value->tensor())
                            : Expected<Tensor>(unexpected(invalidArgumentError("Const has no value")));
        if (tensor)
            m_value = std::move(*tensor);
        else
            m_error = tensor.error();
    }
    Status run(OpKernelContext& ctx) override
    {
        if (!m_error.isOk())
            return m_error;
        return ctx.setOutput(0, m_value);
    }

private:
    Tensor m_value;
    Status m_error;
};

/// Identity and the pass-through test ops.
class TestIdentityKernel : public LoggedKernel {
public:
    using LoggedKernel::LoggedKernel;
    Status run(OpKernelContext& ctx) override { return ctx.setOutput(0, ctx.input(0)); }
};

class TestNoOpKernel : public LoggedKernel {
public:
    using LoggedKernel::LoggedKernel;
    Status run(OpKernelContext&) override { return Status::ok(); }
};

class TestFailKernel : public LoggedKernel {
public:
    using LoggedKernel::LoggedKernel;
    Status run(OpKernelContext&) override { return invalidArgumentError("TestFail always fails"); }
};

class TestBarrierKernel : public LoggedKernel {
public:
    TestBarrierKernel(OpKernelConstruction& c, ExecutionLog* log, Barrier* barrier)
        : LoggedKernel(c, log), m_barrier(barrier)
    {
    }
    Status run(OpKernelContext& ctx) override
    {
        std::unique_lock lock(m_barrier->mutex);
        ++m_barrier->count;
        m_barrier->arrived.notify_all();
        if (!m_barrier->arrived.wait_for(lock, m_barrier->timeout, [this] { return m_barrier->count >= 2; }))
            return internalError("TestBarrier: no other TestBarrier ran at the same time");
        return ctx.setOutput(0, ctx.input(0));
    }

private:
    Barrier* m_barrier;
};

class TestStatefulProbeKernel : public LoggedKernel {
public:
    TestStatefulProbeKernel(OpKernelConstruction& c, ExecutionLog* log, Barrier* barrier)
        : LoggedKernel(c, log), m_barrier(barrier)
    {
    }
    Status run(OpKernelContext& ctx) override
    {
        {
            std::lock_guard lock(m_barrier->mutex);
            ++m_barrier->inside;
            m_barrier->maxInside = std::max(m_barrier->maxInside, m_barrier->inside);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        {
            std::lock_guard lock(m_barrier->mutex);
            --m_barrier->inside;
        }
        return ctx.setOutput(0, ctx.input(0));
    }

private:
    Barrier* m_barrier;
};

enum class BinaryOp { kAdd, kSub, kMul, kDiv, kLess, kGreater };

/// Element-wise arithmetic on float or int32 with equal shapes or one scalar operand.
class TestBinaryKernel : public LoggedKernel {
public:
    TestBinaryKernel(OpKernelConstruction& c, ExecutionLog* log, BinaryOp op) : LoggedKernel(c, log), m_op(op) {}
    Status run(OpKernelContext& ctx) override
    {
        const Tensor& a = ctx.input(0);
        const Tensor& b = ctx.input(1);
        if (a.dtype() != b.dtype())
            return invalidArgumentError("operand dtypes differ");
        const bool aScalar = a.numElements() == 1 && a.rank() == 0;
        const bool bScalar = b.numElements() == 1 && b.rank() == 0;
        if (!(a.shape() == b.shape()) && !aScalar && !bScalar)
            return invalidArgumentError("Incompatible shapes: " + a.shape().toString() + " vs. " +
                                        b.shape().toString());
        const TensorShape& shape = aScalar ? b.shape() : a.shape();
        if (a.dtype() == DT_FLOAT)
            return apply<float>(ctx, a, b, shape, aScalar, bScalar);
        if (a.dtype() == DT_INT32)
            return apply<std::int32_t>(ctx, a, b, shape, aScalar, bScalar);
        return unimplementedError("test kernel supports float and int32");
    }

private:
    template <typename T>
    Status apply(OpKernelContext& ctx, const Tensor& a, const Tensor& b, const TensorShape& shape, bool aScalar,
                 bool bScalar)
    {
        auto out = ctx.allocateOutput(0, shape);
        if (!out)
            return out.error();
        auto x = a.values<T>();
        auto y = b.values<T>();
        const auto n = static_cast<std::size_t>((*out)->numElements());
        for (std::size_t i = 0; i < n; ++i) {
            const T u = x[aScalar ? 0 : i];
            const T v = y[bScalar ? 0 : i];
            switch (m_op) {
            case BinaryOp::kAdd: (*out)->values<T>()[i] = u + v; break;
            case BinaryOp::kSub: (*out)->values<T>()[i] = u - v; break;
            case BinaryOp::kMul: (*out)->values<T>()[i] = u * v; break;
            case BinaryOp::kDiv: (*out)->values<T>()[i] = v == T(0) && std::is_integral_v<T> ? T(0) : u / v; break;
            case BinaryOp::kLess: (*out)->values<bool>()[i] = u < v; break;
            case BinaryOp::kGreater: (*out)->values<bool>()[i] = u > v; break;
            }
        }
        return Status::ok();
    }
    BinaryOp m_op;
};

/// VariableV2: the variable's tensor lives in the kernel; its output is a ref to it.
class TestVariableKernel : public LoggedKernel {
public:
    TestVariableKernel(OpKernelConstruction& c, ExecutionLog* log)
        : LoggedKernel(c, log), m_value(Tensor::uninitialized(baseType(c.outputTypes().at(0))))
    {
    }
    Status run(OpKernelContext& ctx) override
    {
        ctx.setOutputRef(0, &m_value, &m_mutex);
        return Status::ok();
    }

private:
    Tensor m_value;
    std::mutex m_mutex;
};

class TestAssignKernel : public LoggedKernel {
public:
    using LoggedKernel::LoggedKernel;
    Status run(OpKernelContext& ctx) override
    {
        auto copy = ctx.input(1).deepCopy(ctx.allocator());
        if (!copy)
            return copy.error();
        {
            std::lock_guard lock(*ctx.refInputMutex(0));
            *ctx.mutableRefInput(0) = std::move(*copy);
        }
        ctx.forwardRefInput(0, 0);
        return Status::ok();
    }
};

template <typename K, typename... Extra> KernelFactory factory(ExecutionLog* log, Extra... extra)
{
    return [=](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<K>(c, log, extra...));
    };
}

} // namespace

Status registerRuntimeTestOps(OpRegistry& ops)
{
    for (const OpDefBuilder& builder :
         {OpDefBuilder("TestFail").input("x: T").output("y: T").attr("T: type"),
          OpDefBuilder("TestGpuOnly").input("x: float").output("y: float"),
          // Stateful: a rendezvous is a side effect, so two barriers on one input are not one node.
          OpDefBuilder("TestBarrier").input("x: T").output("y: T").attr("T: type").setIsStateful(),
          OpDefBuilder("TestStatefulProbe").input("x: T").output("y: T").attr("T: type").setIsStateful()}) {
        if (Status s = ops.registerOp(builder); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status registerRuntimeTestKernels(KernelRegistry& kernels, ExecutionLog* log, Barrier* barrier)
{
    const std::vector<DataType> numbers{DT_FLOAT, DT_INT32};
    std::vector<std::pair<KernelDef, KernelFactory>> registrations = {
        {{"Const", "CPU", {}, {}}, factory<TestConstKernel>(log)},
        {{"Identity", "CPU", {}, {}}, factory<TestIdentityKernel>(log)},
        {{"NoOp", "CPU", {}, {}}, factory<TestNoOpKernel>(log)},
        {{"Add", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kAdd)},
        {{"AddV2", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kAdd)},
        {{"Sub", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kSub)},
        {{"Mul", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kMul)},
        {{"RealDiv", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kDiv)},
        {{"Less", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kLess)},
        {{"Greater", "CPU", {{"T", numbers}}, {}}, factory<TestBinaryKernel>(log, BinaryOp::kGreater)},
        {{"VariableV2", "CPU", {}, {}}, factory<TestVariableKernel>(log)},
        {{"Assign", "CPU", {}, {}}, factory<TestAssignKernel>(log)},
        {{"TestFail", "CPU", {}, {}}, factory<TestFailKernel>(log)},
        {{"TestGpuOnly", "GPU", {}, {}}, factory<TestIdentityKernel>(log)},
        {{"TestBarrier", "CPU", {}, {}}, factory<TestBarrierKernel>(log, barrier)},
        {{"TestStatefulProbe", "CPU", {}, {}}, factory<TestStatefulProbeKernel>(log, barrier)},
    };
    for (auto& [def, make] : registrations)
        if (Status s = kernels.registerKernel(std::move(def), std::move(make)); !s.isOk())
            return s;
    return Status::ok();
}

RuntimeFixture::RuntimeFixture()
{
    setUp = registerAllOps(ops);
    if (setUp.isOk())
        setUp = registerRuntimeTestOps(ops);
    if (setUp.isOk())
        setUp = registerRuntimeTestKernels(kernels, &log, &barrier);
}

CpuKernelFixture::CpuKernelFixture(std::initializer_list<Status (*)(KernelRegistry&)> families)
{
    setUp = registerAllOps(ops);
    for (auto family : families)
        if (setUp.isOk())
            setUp = family(kernels);
}

AllKernelsFixture::AllKernelsFixture()
{
    setUp = registerAllOps(ops);
    if (setUp.isOk())
        setUp = registerCpuKernels(kernels);
    if (setUp.isOk())
        setUp = registerGpuKernels(kernels);
}

std::unique_ptr<Session> SessionFixture::session(const std::string& graphText, const tensorflow::ConfigProto& config,
                                                 std::string* error, bool captureGraphs)
{
    if (!setUp.isOk()) {
        *error = "fixture: " + setUp.toString();
        return nullptr;
    }
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(graphText, &graph)) {
        *error = "test graph does not parse:\n" + graphText;
        return nullptr;
    }
    // The fixtures' kernels are CPU kernels and their placement tests expect CPU devices only:
    // no GPU device unless the test asks for one (test_gpu_session does).
    tensorflow::ConfigProto cpuOnly = config;
    if (!cpuOnly.device_count().contains("GPU"))
        (*cpuOnly.mutable_device_count())["GPU"] = 0;
    auto session = std::make_unique<Session>(SessionOptions{cpuOnly, &ops, &kernels, captureGraphs});
    if (Status s = session->create(std::move(graph)); !s.isOk()) {
        *error = s.toString();
        return nullptr;
    }
    return session;
}

Allocator& testAllocator()
{
    static Allocator* allocator = new CpuAllocator();
    return *allocator;
}

Tensor floatTensor(const TensorShape& shape, const std::vector<float>& values)
{
    return *Tensor::fromVector(testAllocator(), shape, values);
}

Tensor floatScalar(float value)
{
    return floatTensor(TensorShape::scalar(), {value});
}

Tensor intScalar(std::int32_t value)
{
    return *Tensor::fromVector(testAllocator(), TensorShape::scalar(), std::vector<std::int32_t>{value});
}

Tensor boolScalar(bool value)
{
    auto t = *Tensor::allocate(testAllocator(), DT_BOOL, TensorShape::scalar());
    t.scalar<bool>() = value;
    return t;
}

std::string constNode(const std::string& name, float value, const std::string& extra)
{
    std::ostringstream out;
    out << "node { name: '" << name << "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
        << " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: " << value << " } } } "
        << extra << " }\n";
    return out.str();
}

std::string floatConstNode(const std::string& name, const std::vector<std::int64_t>& dims, const std::string& values,
                           const std::string& device)
{
    std::ostringstream out;
    out << "node { name: '" << name << "' op: 'Const'" << (device.empty() ? "" : " device: '" + device + "'")
        << " attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value { tensor { dtype: DT_FLOAT"
        << " tensor_shape {";
    for (std::int64_t dim : dims)
        out << " dim { size: " << dim << " }";
    out << " } float_val: [" << values << "] } } } }\n";
    return out.str();
}

std::string intConstNode(const std::string& name, std::int32_t value, const std::string& extra)
{
    std::ostringstream out;
    out << "node { name: '" << name << "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
        << " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { } int_val: " << value << " } } } "
        << extra << " }\n";
    return out.str();
}

std::string binaryNode(const std::string& name, const std::string& op, const std::string& a, const std::string& b,
                       const std::string& type, const std::string& extra)
{
    return "node { name: '" + name + "' op: '" + op + "' input: '" + a + "' input: '" + b +
           "' attr { key: 'T' value { type: " + type + " } } " + extra + " }\n";
}

std::string unaryNode(const std::string& name, const std::string& op, const std::string& input, const std::string& type,
                      const std::string& extra)
{
    return "node { name: '" + name + "' op: '" + op + "' input: '" + input + "' attr { key: 'T' value { type: " + type +
           " } } " + extra + " }\n";
}

std::string typeAttr(const std::string& type)
{
    return "attr { key: 'T' value { type: " + type + " } }";
}

std::string enterNode(const std::string& name, const std::string& input, const std::string& frame,
                      const std::string& type, bool constant, int parallel)
{
    return "node { name: '" + name + "' op: 'Enter' input: '" + input + "' " + typeAttr(type) +
           " attr { key: 'frame_name' value { s: '" + frame +
           "' } } attr { key: 'is_constant' value { b: " + (constant ? "true" : "false") +
           " } } attr { key: 'parallel_iterations' value { i: " + std::to_string(parallel) + " } } }\n";
}

std::string mergeNode(const std::string& name, const std::string& a, const std::string& b, const std::string& type)
{
    return "node { name: '" + name + "' op: 'Merge' input: '" + a + "' input: '" + b + "' " + typeAttr(type) +
           " attr { key: 'N' value { i: 2 } } }\n";
}

std::string opNode(const std::string& name, const std::string& op, const std::vector<std::string>& inputs,
                   const std::string& type)
{
    std::string text = "node { name: '" + name + "' op: '" + op + "'";
    for (const std::string& input : inputs)
        text += " input: '" + input + "'";
    if (!type.empty())
        text += " " + typeAttr(type);
    return text + " }\n";
}

std::string boolPlaceholder(const std::string& name)
{
    return "node { name: '" + name +
           "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } }"
           " attr { key: 'shape' value { shape { } } } }\n";
}

std::string whileGraph(int limit, int parallelIterations)
{
    const std::string frame = "while/while_context";
    return intConstNode("i0", 0) + constNode("acc0", 0) + intConstNode("limit", limit) + constNode("step", 2.5) +
           enterNode("while/Enter", "i0", frame, "DT_INT32", false, parallelIterations) +
           enterNode("while/Enter_1", "acc0", frame, "DT_FLOAT", false, parallelIterations) +
           enterNode("while/Enter_2", "limit", frame, "DT_INT32", true, parallelIterations) +
           enterNode("while/Enter_3", "step", frame, "DT_FLOAT", true, parallelIterations) +
           mergeNode("while/Merge", "while/Enter", "while/NextIteration", "DT_INT32") +
           mergeNode("while/Merge_1", "while/Enter_1", "while/NextIteration_1", "DT_FLOAT") +
           binaryNode("while/Less", "Less", "while/Merge", "while/Enter_2", "DT_INT32") +
           opNode("while/LoopCond", "LoopCond", {"while/Less"}) +
           opNode("while/Switch", "Switch", {"while/Merge", "while/LoopCond"}, "DT_INT32") +
           opNode("while/Switch_1", "Switch", {"while/Merge_1", "while/LoopCond"}, "DT_FLOAT") +
           opNode("while/Identity", "Identity", {"while/Switch:1"}, "DT_INT32") +
           opNode("while/Identity_1", "Identity", {"while/Switch_1:1"}, "DT_FLOAT") +
           intConstNode("while/add/y", 1, "input: '^while/Identity'") +
           binaryNode("while/add", "Add", "while/Identity", "while/add/y", "DT_INT32") +
           binaryNode("while/add_1", "Add", "while/Identity_1", "while/Enter_3") +
           opNode("while/NextIteration", "NextIteration", {"while/add"}, "DT_INT32") +
           opNode("while/NextIteration_1", "NextIteration", {"while/add_1"}, "DT_FLOAT") +
           opNode("while/Exit", "Exit", {"while/Switch"}, "DT_INT32") +
           opNode("while/Exit_1", "Exit", {"while/Switch_1"}, "DT_FLOAT") +
           opNode("result", "Identity", {"while/Exit_1"}, "DT_FLOAT");
}

} // namespace tstudio::testing
