// Test kernels and helpers for the runtime tests: small CPU kernels registered in the tests' own
// KernelRegistry (named Test*Kernel) that record every execution, so the executor's behaviour can
// be checked before, and independently of, the real kernel families.
#pragma once

#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "framework/tensor.h"
#include "runtime/session.h"

#include <chrono>
#include <condition_variable>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tstudio::testing {

/// Which test kernels ran, in order. Thread-safe.
class ExecutionLog {
public:
    void record(const std::string& node);
    int count(const std::string& node) const;
    std::vector<std::string> order() const;
    /// How many kernels were constructed for `node` (kernels are created once per session).
    int constructions(const std::string& node) const;
    void recordConstruction(const std::string& node);
    void clear();

private:
    mutable std::mutex m_mutex;
    std::vector<std::string> m_order;
    std::map<std::string, int> m_counts;
    std::map<std::string, int> m_constructions;
};

/// Two-party rendezvous for TestBarrier kernels: each arrival waits (up to `timeout`) for the other.
/// Both succeed only when two kernels run at the same time.
struct Barrier {
    std::chrono::milliseconds timeout{10000};
    std::mutex mutex;
    std::condition_variable arrived;
    int count = 0;
    int inside = 0;    ///< TestStatefulProbe kernels computing right now
    int maxInside = 0; ///< the most seen at once
};

/// Test-only ops, next to the real op definitions:
///   TestFail(x: T) -> y: T                    always fails with InvalidArgument "TestFail always fails"
///   TestGpuOnly(x: float) -> y: float         has a GPU kernel only
///   TestBarrier(x: T) -> y: T (stateful)      waits for a second TestBarrier to run concurrently
///   TestStatefulProbe(x: T) -> y: T (stateful) records how many of it compute at once
Status registerRuntimeTestOps(OpRegistry& ops);

/// CPU kernels for Const, Identity, NoOp, Add/AddV2/Sub/Mul/RealDiv (float, int32; equal shapes or a
/// scalar operand), Less/Greater (float, int32), VariableV2, Assign, and the test ops above.
/// Every execution is recorded in `log` under the node name.
Status registerRuntimeTestKernels(KernelRegistry& kernels, ExecutionLog* log, Barrier* barrier);

/// Op definitions and kernels for sessions over text-format graphs; the fixtures below fill them.
struct SessionFixture {
    /// A session over `graphText` (a text-format GraphDef) or nullptr with `*error` set. Without a
    /// GPU count in `config`, the session has no GPU device (device_count["GPU"] = 0).
    /// `captureGraphs`: SessionOptions::captureGraphs.
    std::unique_ptr<Session> session(const std::string& graphText, const tensorflow::ConfigProto& config,
                                     std::string* error, bool captureGraphs = true);
    std::unique_ptr<Session> session(const std::string& graphText, std::string* error)
    {
        return session(graphText, tensorflow::ConfigProto(), error);
    }

    OpRegistry ops;
    KernelRegistry kernels;
    Status setUp; ///< the first failure while filling ops and kernels
};

/// Every real op definition and the real CPU kernels of `families` (registerArrayCpuKernels, ...).
struct CpuKernelFixture : SessionFixture {
    explicit CpuKernelFixture(std::initializer_list<Status (*)(KernelRegistry&)> families);
};

/// Every real op definition, every CPU kernel and (in CUDA builds) every GPU kernel.
struct AllKernelsFixture : SessionFixture {
    AllKernelsFixture();
};

/// Every real op definition plus the test ops, and the test kernels.
struct RuntimeFixture : SessionFixture {
    RuntimeFixture();

    ExecutionLog log;
    Barrier barrier;
};

/// Memory for the tensors tests make (lives for the process).
Allocator& testAllocator();
Tensor floatTensor(const TensorShape& shape, const std::vector<float>& values);
Tensor floatScalar(float value);
Tensor intScalar(std::int32_t value);
Tensor boolScalar(bool value);

/// Text-format NodeDef snippets for building graphs in tests.
std::string constNode(const std::string& name, float value, const std::string& extra = "");
std::string intConstNode(const std::string& name, std::int32_t value, const std::string& extra = "");
/// A float Const of shape `dims` holding `values` ("0.5, -1, 2"); `device` when not empty.
std::string floatConstNode(const std::string& name, const std::vector<std::int64_t>& dims, const std::string& values,
                           const std::string& device = "");
std::string binaryNode(const std::string& name, const std::string& op, const std::string& a, const std::string& b,
                       const std::string& type = "DT_FLOAT", const std::string& extra = "");
std::string unaryNode(const std::string& name, const std::string& op, const std::string& input,
                      const std::string& type = "DT_FLOAT", const std::string& extra = "");

std::string typeAttr(const std::string& type);
std::string enterNode(const std::string& name, const std::string& input, const std::string& frame,
                      const std::string& type, bool constant = false, int parallel = 10);
std::string mergeNode(const std::string& name, const std::string& a, const std::string& b, const std::string& type);
std::string opNode(const std::string& name, const std::string& op, const std::vector<std::string>& inputs,
                   const std::string& type = "");
std::string boolPlaceholder(const std::string& name);
/// tf.while_loop as TensorFlow 1.x builds it, frame "while/while_context": i, acc = 0, 0.0;
/// while i < limit: i, acc = i + 1, acc + 2.5 (limit and 2.5 are loop invariants; the 1 is a
/// constant inside the body). Fetch "while/Exit" (i), "while/Exit_1" (acc) or "result" (acc).
std::string whileGraph(int limit, int parallelIterations = 10);

} // namespace tstudio::testing
