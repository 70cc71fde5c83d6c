// registerFunctionCpuKernels: PartitionedCall and StatefulPartitionedCall (calls by name get the same
// kernel from createNodeKernel, as their op is not registered), If / StatelessIf, While /
// StatelessWhile and SymbolicGradient on the CPU.
#include "framework/kernel_registry.h"
#include "kernels/function/function_call_kernel.h"
#include "kernels/function/functional_kernels.h"
#include "kernels/kernels.h"

namespace tstudio {

Status registerFunctionCpuKernels(KernelRegistry& registry)
{
    using Maker = std::unique_ptr<OpKernel> (*)(OpKernelConstruction&);
    const std::pair<const char*, Maker> kernels[] = {
        {"PartitionedCall", makeFunctionCallKernel},
        {"StatefulPartitionedCall", makeFunctionCallKernel},
        {"If", makeIfKernel},
        {"StatelessIf", makeIfKernel},
        {"While", makeWhileKernel},
        {"StatelessWhile", makeWhileKernel},
        {"SymbolicGradient", makeSymbolicGradientKernel},
    };
    for (const auto& [op, make] : kernels) {
        Status s = registry.registerKernel(
            KernelDef{op, "CPU", {}, {}},
            // An init-capture: clang before 16 (the fuzz build) cannot capture a structured binding.
            [make = make](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> { return make(c); });
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
