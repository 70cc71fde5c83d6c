// Tests for the GPU state and training kernels: ref variables (VariableV2, Assign, AssignAdd/Sub,
// IsVariableInitialized), resource variables (VarHandleOp, Read/Assign/AssignAdd/AssignSubVariableOp,
// VarIsInitializedOp, DestroyResourceOp, copy-on-write) and the dense optimizers (Apply* and
// ResourceApply*). Each against its CPU twin: single kernels on plain inputs through the GPU
// harness, and chains of kernels through refs and handles on one device, as a session step runs
// them (variables created, assigned, updated three times, read back). Skipped where there is no
// GPU; the registrations and the plain-input cases are checked everywhere.
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"
#include "gpu_registration_table.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

using tensorflow::DT_BOOL;
using tensorflow::DT_COMPLEX128;
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT64;
using tensorflow::DT_UINT32;

using Types = std::vector<DataType>;
const Types kVariableTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_INT64, DT_UINT32};
const Types kResourceTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
const Types kUpdateTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT64};
const Types kFloats = {DT_HALF, DT_FLOAT, DT_DOUBLE};

/// The optimizers TensorFlow 1.15 has on the GPU, with their variable inputs (Ftrl has none there).
const std::vector<std::pair<std::string, std::vector<std::string>>> kOptimizers = {
    {"GradientDescent", {"var"}},
    {"Momentum", {"var", "accum"}},
    {"Adam", {"var", "m", "v"}},
    {"RMSProp", {"var", "ms", "mom"}},
    {"CenteredRMSProp", {"var", "mg", "ms", "mom"}},
    {"Adagrad", {"var", "accum"}},
    {"Adadelta", {"var", "accum", "accum_update"}}};

Table expectedRegistrations()
{
    Table t;
    for (const char* op : {"VariableV2", "Variable", "TemporaryVariable"})
        t[op] = {{"dtype", kVariableTypes, {}}};
    t["DestroyTemporaryVariable"] = {{"T", kVariableTypes, {}}};
    t["IsVariableInitialized"] = {{"dtype", kVariableTypes, {"is_initialized"}}};
    t["Assign"] = {{"T", kVariableTypes, {}}};
    t["AssignAdd"] = {{"T", kUpdateTypes, {}}};
    t["AssignSub"] = {{"T", kUpdateTypes, {}}};
    for (const char* op : {"VarHandleOp", "ReadVariableOp", "AssignVariableOp"})
        t[op] = {{"dtype", kResourceTypes, {"resource"}}};
    t["AssignAddVariableOp"] = {{"dtype", kUpdateTypes, {"resource"}}};
    t["AssignSubVariableOp"] = {{"dtype", kUpdateTypes, {"resource"}}};
    t["VarIsInitializedOp"] = {{"", {}, {"resource", "is_initialized"}}};
    t["DestroyResourceOp"] = {{"", {}, {"resource"}}};
    for (const auto& [name, variables] : kOptimizers) {
        t["Apply" + name] = {{"T", kFloats, {}}};
        t["ResourceApply" + name] = {{"T", kFloats, variables}};
    }
    return t;
}

// --- Node texts and values -------------------------------------------------------------------------

std::string typeAttr(DataType dtype, const char* attr = "T")
{
    return std::string(" attr { key: '") + attr + "' value { type: " + tensorflow::DataType_Name(dtype) + " } }";
}
std::string boolAttr(const char* attr, bool value)
{
    return std::string(" attr { key: '") + attr + "' value { b: " + (value ? "true" : "false") + " } }";
}
std::string shapeAttr(std::int64_t n)
{
    return " attr { key: 'shape' value { shape { dim { size: " + std::to_string(n) + " } } } }";
}
std::string nameAttr(const std::string& name)
{
    return " attr { key: 'shared_name' value { s: '" + name + "' } }";
}

/// Tolerances of the optimizer updates: the same expressions in the same order, but CUDA fuses
/// multiply-adds and its square roots differ from Eigen's vectorised ones in the last bits.
struct Tolerance {
    double rtol;
    double atol;
};
Tolerance tolerance(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_FLOAT: return {1e-5, 1e-6};
    case tensorflow::DT_DOUBLE: return {1e-12, 1e-14};
    case tensorflow::DT_HALF: return {2e-2, 5e-3};
    default: return {0, 0};
    }
}

class Values {
public:
    explicit Values(Allocator& allocator) : m_allocator(allocator) {}
    Tensor uniform(DataType dtype, const TensorShape& shape, double lo, double hi)
    {
        return randomTensor(m_allocator, dtype, shape, m_random, lo, hi);
    }
    Tensor scalar(DataType dtype, double value) { return uniform(dtype, TensorShape::scalar(), value, value); }

    /// The inputs of `<prefix><optimizer>` after its variables: hyper-parameters in ranges that keep
    /// every square root real (accumulators positive, ms above mg^2) and a gradient of `shape`.
    std::vector<Tensor> hyperParameters(const std::string& optimizer, DataType dtype, const TensorShape& shape)
    {
        const double eps = dtype == DT_HALF ? 1e-3 : 1e-7;
        auto s = [&](double v) { return scalar(dtype, v); };
        const Tensor grad = uniform(dtype, shape, -1, 1);
        if (optimizer == "GradientDescent")
            return {s(0.05), grad};
        if (optimizer == "Momentum")
            return {s(0.05), grad, s(0.9)};
        if (optimizer == "Adam")
            return {s(0.81), s(0.998), s(0.01), s(0.9), s(0.999), s(eps), grad};
        if (optimizer == "RMSProp")
            return {s(0.01), s(0.9), s(0.5), s(eps), grad};
        if (optimizer == "CenteredRMSProp")
            return {s(0.01), s(0.9), s(0.5), s(eps), grad};
        if (optimizer == "Adagrad")
            return {s(0.05), grad};
        return {s(0.5), s(0.95), s(eps), grad}; // Adadelta
    }
    /// Starting values of the k-th variable input of `optimizer` (k = 0 the variable).
    Tensor slot(const std::string& optimizer, std::size_t k, DataType dtype, const TensorShape& shape)
    {
        if (k == 0)
            return uniform(dtype, shape, -1, 1);
        if (optimizer == "CenteredRMSProp" && k == 1) // mg, below sqrt(ms)
            return uniform(dtype, shape, -0.5, 0.5);
        if ((optimizer == "CenteredRMSProp" && k == 2) || (optimizer == "RMSProp" && k == 1)) // ms
            return uniform(dtype, shape, 1, 2);
        if (optimizer == "Adam" && k == 1) // m
            return uniform(dtype, shape, -0.5, 0.5);
        return uniform(dtype, shape, 0.1, 1); // accumulators, v, mom
    }

private:
    Allocator& m_allocator;
    std::mt19937 m_random{424242};
};

struct Case {
    std::string node;
    std::vector<Tensor> inputs;
    Tolerance tol{0, 0};
    bool bad = false;
};

/// Single kernels on plain inputs (the kernels then update private copies and output them).
std::vector<Case> plainCases(Allocator& allocator)
{
    Values v(allocator);
    std::vector<Case> cases;
    const std::vector<TensorShape> shapes = {TensorShape::scalar(), TensorShape{7}, TensorShape{3, 5}, TensorShape{0},
                                             TensorShape{1000003}};
    // Assign: every variable dtype the test can make values of (uint32 and complex only differ in width).
    for (DataType dtype : {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_INT64}) {
        for (const TensorShape& shape : shapes)
            cases.push_back(
                {"op: 'Assign'" + typeAttr(dtype), {v.uniform(dtype, shape, 0, 100), v.uniform(dtype, shape, 0, 100)}});
        cases.push_back({"op: 'Assign'" + typeAttr(dtype),
                         {v.uniform(dtype, TensorShape{2}, 0, 9), v.uniform(dtype, TensorShape{3}, 0, 9)},
                         {},
                         true});
    }
    for (DataType dtype : kUpdateTypes) {
        for (const TensorShape& shape : shapes) {
            for (const char* op : {"AssignAdd", "AssignSub"})
                cases.push_back({std::string("op: '") + op + "'" + typeAttr(dtype),
                                 {v.uniform(dtype, shape, -50, 50), v.uniform(dtype, shape, -50, 50)},
                                 tolerance(dtype)});
        }
        cases.push_back({"op: 'AssignAdd'" + typeAttr(dtype),
                         {v.uniform(dtype, TensorShape{2}, 0, 9), v.uniform(dtype, TensorShape{3}, 0, 9)},
                         {},
                         true});
    }
    for (DataType dtype : kFloats) {
        for (const auto& [optimizer, variables] : kOptimizers) {
            for (const std::string& extra :
                 {std::string(), boolAttr("use_nesterov", true) + boolAttr("use_locking", true),
                  boolAttr("update_slots", false)}) {
                if (extra.find("use_nesterov") != std::string::npos && optimizer != "Momentum" && optimizer != "Adam")
                    continue;
                if (extra.find("update_slots") != std::string::npos && optimizer != "Adagrad")
                    continue;
                for (const TensorShape& shape : shapes) {
                    Case c{"op: 'Apply" + optimizer + "'" + typeAttr(dtype) + extra, {}, tolerance(dtype)};
                    for (std::size_t k = 0; k < variables.size(); ++k)
                        c.inputs.push_back(v.slot(optimizer, k, dtype, shape));
                    for (Tensor& t : v.hyperParameters(optimizer, dtype, shape))
                        c.inputs.push_back(t);
                    cases.push_back(c);
                }
            }
            // A gradient of another shape, then a learning rate that is not a scalar.
            Case wrongGrad{"op: 'Apply" + optimizer + "'" + typeAttr(dtype), {}, {}, true};
            Case wrongRate = wrongGrad;
            for (std::size_t k = 0; k < variables.size(); ++k) {
                wrongGrad.inputs.push_back(v.slot(optimizer, k, dtype, TensorShape{4}));
                wrongRate.inputs.push_back(v.slot(optimizer, k, dtype, TensorShape{4}));
            }
            for (Tensor& t : v.hyperParameters(optimizer, dtype, TensorShape{5}))
                wrongGrad.inputs.push_back(t);
            std::vector<Tensor> hyper = v.hyperParameters(optimizer, dtype, TensorShape{4});
            hyper[optimizer == "Adam" ? 2 : 0] = v.uniform(dtype, TensorShape{2}, 0, 1);
            wrongRate.inputs.insert(wrongRate.inputs.end(), hyper.begin(), hyper.end());
            cases.push_back(wrongGrad);
            cases.push_back(wrongRate);
        }
    }
    return cases;
}

/// Runs kernels on one device as the executor does: ref inputs passed as refs, plain host tensors
/// copied to the device unless the kernel keeps that input in host memory, one ResourceManager.
class DeviceRunner {
public:
    DeviceRunner(KernelHarness& harness, Device& device) : m_h(harness), m_device(device) {}

    Expected<std::vector<TensorValue>> run(const std::string& nodeText, std::vector<TensorValue> inputs)
    {
        tensorflow::NodeDef def;
        if (!google::protobuf::TextFormat::ParseFromString(nodeText, &def))
            return unexpected(invalidArgumentError("node does not parse: " + nodeText));
        def.set_name("step_node_" + std::to_string(++m_nodes));
        for (std::size_t i = 0; i < inputs.size(); ++i)
            def.add_input("input_" + std::to_string(i));
        auto op = m_h.ops().lookUp(def.op());
        if (!op)
            return unexpected(op.error());
        addDefaultAttrs((*op)->opDef, &def);
        if (Status s = validateNodeDef((*op)->opDef, def); !s.isOk())
            return unexpected(s);
        auto kernel = m_h.kernels().createKernel(def, m_h.ops(), m_device);
        if (!kernel)
            return unexpected(kernel.error());
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            TensorValue& in = inputs[i];
            if (!in.isRef() && !m_device.hostMemory() && !(*kernel)->inputInHostMemory(static_cast<int>(i)) &&
                in.tensor.inHostMemory()) {
                auto copy = m_device.copyFromHost(in.tensor);
                if (!copy)
                    return unexpected(copy.error());
                in.tensor = std::move(*copy);
            }
        }
        OpKernelContext ctx({kernel->get(), &m_device, &inputs, &m_h.resources(), ++m_step});
        if (Status s = (*kernel)->compute(ctx); !s.isOk())
            return unexpected(s.withContext(def.op()));
        return ctx.outputs();
    }
    /// A plain input from a host tensor.
    static TensorValue plain(const Tensor& t) { return TensorValue{t}; }
    /// `t` (in the device's memory or the host's) in host memory, the device's work finished.
    Expected<Tensor> toHost(const Tensor& t)
    {
        if (Status s = m_device.synchronize(); !s.isOk())
            return unexpected(s);
        return m_device.copyToHost(t, m_h.allocator());
    }
    /// The scalar bool that `nodeText` outputs for `input` (IsVariableInitialized,
    /// VarIsInitializedOp), read back to the host.
    Expected<bool> runToBool(const std::string& nodeText, const TensorValue& input)
    {
        auto out = run(nodeText, {input});
        if (!out)
            return unexpected(out.error());
        auto host = toHost((*out)[0].get());
        if (!host)
            return unexpected(host.error());
        return host->scalar<bool>();
    }

private:
    KernelHarness& m_h;
    Device& m_device;
    std::int64_t m_step = 1000000;
    int m_nodes = 0;
};

/// What a ref-variable step leaves behind, in host memory.
struct RefStepResult {
    bool initializedBefore = true;
    bool initializedAfter = false;
    std::vector<Tensor> variables;
};

/// VariableV2 for the Adam variable and its slots, IsVariableInitialized, Assign of the starting
/// values, three ApplyAdam steps (use_locking), AssignAdd, ApplyGradientDescent; the variables read back.
Expected<RefStepResult> refStep(DeviceRunner& runner, DataType dtype, std::int64_t n, const std::string& tag,
                                const std::vector<Tensor>& starts, const std::vector<std::vector<Tensor>>& adamInputs,
                                const Tensor& delta, const std::vector<Tensor>& descentInputs)
{
    RefStepResult result;
    std::vector<TensorValue> refs;
    for (std::size_t k = 0; k < 3; ++k) {
        auto out = runner.run(
            "op: 'VariableV2'" + typeAttr(dtype, "dtype") + shapeAttr(n) + nameAttr(tag + "_" + std::to_string(k)), {});
        if (!out)
            return unexpected(out.error());
        refs.push_back((*out)[0]);
    }
    auto initialized = [&] {
        return runner.runToBool("op: 'IsVariableInitialized'" + typeAttr(dtype, "dtype"), refs[0]);
    };
    auto before = initialized();
    if (!before)
        return unexpected(before.error());
    result.initializedBefore = *before;
    for (std::size_t k = 0; k < 3; ++k) {
        if (auto out = runner.run("op: 'Assign'" + typeAttr(dtype), {refs[k], DeviceRunner::plain(starts[k])}); !out)
            return unexpected(out.error());
    }
    auto after = initialized();
    if (!after)
        return unexpected(after.error());
    result.initializedAfter = *after;
    for (const std::vector<Tensor>& step : adamInputs) {
        std::vector<TensorValue> inputs = {refs[0], refs[1], refs[2]};
        for (const Tensor& t : step)
            inputs.push_back(DeviceRunner::plain(t));
        if (auto out = runner.run("op: 'ApplyAdam'" + typeAttr(dtype) + boolAttr("use_locking", true), inputs); !out)
            return unexpected(out.error());
    }
    if (auto out = runner.run("op: 'AssignAdd'" + typeAttr(dtype), {refs[0], DeviceRunner::plain(delta)}); !out)
        return unexpected(out.error());
    std::vector<TensorValue> descent = {refs[0]};
    for (const Tensor& t : descentInputs)
        descent.push_back(DeviceRunner::plain(t));
    if (auto out = runner.run("op: 'ApplyGradientDescent'" + typeAttr(dtype), descent); !out)
        return unexpected(out.error());
    for (const TensorValue& ref : refs) {
        auto host = runner.toHost(ref.get());
        if (!host)
            return unexpected(host.error());
        result.variables.push_back(*host);
    }
    return result;
}

/// What a resource-variable step leaves behind, in host memory.
struct ResourceStepResult {
    Tensor firstRead; ///< read before the updates: copy-on-write keeps it at the starting value
    Tensor lastRead;
    Tensor accum;
    bool initialized = false;
    bool initializedAfterDestroy = true;
};

/// VarHandleOp for a variable and its accumulator, AssignVariableOp, ReadVariableOp (kept),
/// AssignAddVariableOp, AssignSubVariableOp, two ResourceApplyMomentum steps (Nesterov),
/// ReadVariableOp, VarIsInitializedOp, DestroyResourceOp, VarIsInitializedOp.
Expected<ResourceStepResult> resourceStep(DeviceRunner& runner, DataType dtype, std::int64_t n, const std::string& tag,
                                          const Tensor& start, const Tensor& accumStart, const Tensor& delta,
                                          const std::vector<std::vector<Tensor>>& momentumInputs)
{
    ResourceStepResult result;
    std::vector<TensorValue> handles;
    for (const char* name : {"var", "accum"}) {
        auto out = runner.run("op: 'VarHandleOp'" + typeAttr(dtype, "dtype") + shapeAttr(n) + nameAttr(tag + name), {});
        if (!out)
            return unexpected(out.error());
        handles.push_back((*out)[0]);
    }
    const std::string dtypeText = typeAttr(dtype, "dtype");
    for (const auto& [handle, value] : {std::pair{handles[0], start}, std::pair{handles[1], accumStart}}) {
        if (auto out = runner.run("op: 'AssignVariableOp'" + dtypeText, {handle, DeviceRunner::plain(value)}); !out)
            return unexpected(out.error());
    }
    auto firstRead = runner.run("op: 'ReadVariableOp'" + dtypeText, {handles[0]});
    if (!firstRead)
        return unexpected(firstRead.error());
    for (const char* op : {"AssignAddVariableOp", "AssignSubVariableOp", "AssignAddVariableOp"}) {
        if (auto out =
                runner.run(std::string("op: '") + op + "'" + dtypeText, {handles[0], DeviceRunner::plain(delta)});
            !out)
            return unexpected(out.error());
    }
    for (const std::vector<Tensor>& step : momentumInputs) {
        std::vector<TensorValue> inputs = {handles[0], handles[1]};
        for (const Tensor& t : step)
            inputs.push_back(DeviceRunner::plain(t));
        if (auto out =
                runner.run("op: 'ResourceApplyMomentum'" + typeAttr(dtype) + boolAttr("use_nesterov", true), inputs);
            !out)
            return unexpected(out.error());
    }
    auto lastRead = runner.run("op: 'ReadVariableOp'" + dtypeText, {handles[0]});
    auto accum = runner.run("op: 'ReadVariableOp'" + dtypeText, {handles[1]});
    if (!lastRead || !accum)
        return unexpected(!lastRead ? lastRead.error() : accum.error());
    auto isInitialized = [&] { return runner.runToBool("op: 'VarIsInitializedOp'", handles[0]); };
    auto initialized = isInitialized();
    if (!initialized)
        return unexpected(initialized.error());
    result.initialized = *initialized;
    if (auto out = runner.run("op: 'DestroyResourceOp'" + boolAttr("ignore_lookup_error", false), {handles[0]}); !out)
        return unexpected(out.error());
    auto destroyed = isInitialized();
    if (!destroyed)
        return unexpected(destroyed.error());
    result.initializedAfterDestroy = *destroyed;
    for (auto [from, to] : {std::pair{&(*firstRead)[0], &result.firstRead},
                            std::pair{&(*lastRead)[0], &result.lastRead}, std::pair{&(*accum)[0], &result.accum}}) {
        auto host = runner.toHost(from->get());
        if (!host)
            return unexpected(host.error());
        *to = *host;
    }
    return result;
}

} // namespace

class TestGpuStateTrainingKernels : public QObject {
    Q_OBJECT

private slots:
    void registrationsMatchTensorFlow()
    {
        if (!probeGpus().compiledIn)
            QSKIP("no GPU support compiled in: no GPU kernels are registered");
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        const std::string problem = checkRegistrations(*h, expectedRegistrations());
        QVERIFY2(problem.empty(), problem.c_str());
        QVERIFY(!h->kernels().hasKernelFor("ApplyFtrl", "GPU"));
        QVERIFY(!h->kernels().hasKernelFor("ResourceApplyFtrl", "GPU"));
    }

    void casesBehaveOnTheCpu()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        const QStringList failures = cpuCaseFailures(*h, plainCases(h->allocator()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    /// Runs without a GPU: the step chains do on the CPU what the GPU tests compare (variables start
    /// uninitialized, copy-on-write keeps an earlier read, the updates change the values, and two
    /// runs of a chain agree).
    void stepsBehaveOnTheCpu()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        Values v(h->allocator());
        DeviceRunner cpu(*h, h->device());
        const TensorShape shape{5};
        const std::vector<Tensor> starts = {v.slot("Adam", 0, DT_FLOAT, shape), v.slot("Adam", 1, DT_FLOAT, shape),
                                            v.slot("Adam", 2, DT_FLOAT, shape)};
        const std::vector<std::vector<Tensor>> adam = {v.hyperParameters("Adam", DT_FLOAT, shape)};
        const Tensor delta = v.uniform(DT_FLOAT, shape, -0.1, 0.1);
        const std::vector<Tensor> descent = v.hyperParameters("GradientDescent", DT_FLOAT, shape);
        auto first = refStep(cpu, DT_FLOAT, 5, "check_ref_a", starts, adam, delta, descent);
        auto second = refStep(cpu, DT_FLOAT, 5, "check_ref_b", starts, adam, delta, descent);
        QVERIFY2(first && second,
                 first ? (second ? "" : second.error().toString().c_str()) : first.error().toString().c_str());
        QVERIFY(!first->initializedBefore && first->initializedAfter);
        QVERIFY(!compareTensors(first->variables[0], starts[0], 0, 0).empty());
        for (std::size_t k = 0; k < 3; ++k)
            QCOMPARE(compareTensors(second->variables[k], first->variables[k], 0, 0), std::string());

        const std::vector<std::vector<Tensor>> momentum = {v.hyperParameters("Momentum", DT_FLOAT, shape)};
        auto resource = resourceStep(cpu, DT_FLOAT, 5, "check_res_", starts[0], starts[2], delta, momentum);
        QVERIFY2(resource, resource ? "" : resource.error().toString().c_str());
        QVERIFY(resource->initialized && !resource->initializedAfterDestroy);
        QCOMPARE(compareTensors(resource->firstRead, starts[0], 0, 0), std::string());
        QVERIFY(!compareTensors(resource->lastRead, starts[0], 0, 0).empty());
    }

    void singleKernelsMatchTheCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = gpuCaseFailures(h, plainCases(h.allocator()), [](const Case& c) {
            return std::pair{c.tol.rtol, c.tol.atol};
        });
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void refVariablesStepOnTheGpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        Values v(h.allocator());
        QStringList failures;
        for (DataType dtype : kFloats) {
            for (std::int64_t n : {1, 4099}) {
                const TensorShape shape{n};
                const std::vector<Tensor> starts = {v.slot("Adam", 0, dtype, shape), v.slot("Adam", 1, dtype, shape),
                                                    v.slot("Adam", 2, dtype, shape)};
                std::vector<std::vector<Tensor>> adam;
                for (int step = 0; step < 3; ++step)
                    adam.push_back(v.hyperParameters("Adam", dtype, shape));
                const Tensor delta = v.uniform(dtype, shape, -0.1, 0.1);
                const std::vector<Tensor> descent = v.hyperParameters("GradientDescent", dtype, shape);
                const std::string tag = "ref_" + dataTypeName(dtype) + "_" + std::to_string(n);
                DeviceRunner cpu(h.cpu(), h.cpu().device());
                DeviceRunner gpu(h.cpu(), h.gpu());
                auto expected = refStep(cpu, dtype, n, tag + "_cpu", starts, adam, delta, descent);
                auto actual = refStep(gpu, dtype, n, tag + "_gpu", starts, adam, delta, descent);
                if (!expected || !actual) {
                    failures << QString::fromStdString(tag + ": CPU " +
                                                       (expected ? "ok" : expected.error().toString()) + "; GPU " +
                                                       (actual ? "ok" : actual.error().toString()));
                    continue;
                }
                if (actual->initializedBefore || !actual->initializedAfter)
                    failures << QString::fromStdString(tag + ": IsVariableInitialized before/after Assign");
                for (std::size_t k = 0; k < 3; ++k) {
                    const std::string d = compareTensors(actual->variables[k], expected->variables[k],
                                                         tolerance(dtype).rtol, tolerance(dtype).atol);
                    if (!d.empty())
                        failures << QString::fromStdString(tag + " variable " + std::to_string(k) + ": " + d);
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void resourceVariablesStepOnTheGpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        Values v(h.allocator());
        QStringList failures;
        for (DataType dtype : kFloats) {
            for (std::int64_t n : {1, 4099}) {
                const TensorShape shape{n};
                const Tensor start = v.uniform(dtype, shape, -1, 1);
                const Tensor accum = v.uniform(dtype, shape, 0, 1);
                const Tensor delta = v.uniform(dtype, shape, -0.1, 0.1);
                std::vector<std::vector<Tensor>> momentum;
                for (int step = 0; step < 2; ++step)
                    momentum.push_back(v.hyperParameters("Momentum", dtype, shape));
                const std::string tag = "res_" + dataTypeName(dtype) + "_" + std::to_string(n);
                DeviceRunner cpu(h.cpu(), h.cpu().device());
                DeviceRunner gpu(h.cpu(), h.gpu());
                auto expected = resourceStep(cpu, dtype, n, tag + "_cpu_", start, accum, delta, momentum);
                auto actual = resourceStep(gpu, dtype, n, tag + "_gpu_", start, accum, delta, momentum);
                if (!expected || !actual) {
                    failures << QString::fromStdString(tag + ": CPU " +
                                                       (expected ? "ok" : expected.error().toString()) + "; GPU " +
                                                       (actual ? "ok" : actual.error().toString()));
                    continue;
                }
                if (!actual->initialized || actual->initializedAfterDestroy)
                    failures << QString::fromStdString(tag + ": VarIsInitializedOp before/after DestroyResourceOp");
                const auto [rtol, atol] = tolerance(dtype);
                for (const auto& [what, d] :
                     {std::pair{"first read (copy-on-write)", compareTensors(actual->firstRead, start, 0, 0)},
                      std::pair{"last read", compareTensors(actual->lastRead, expected->lastRead, rtol, atol)},
                      std::pair{"accumulator", compareTensors(actual->accum, expected->accum, rtol, atol)}}) {
                    if (!d.empty())
                        failures << QString::fromStdString(tag + " " + what + ": " + d);
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestGpuStateTrainingKernels)
#include "test_gpu_state_training_kernels.moc"
