// The If / StatelessIf kernel: runs then_branch or else_branch, chosen by the truthiness of cond.
#include "kernels/function/functional_kernel_support.h"
#include "kernels/function/functional_kernels.h"

namespace tstudio {
namespace {

class IfKernel : public OpKernel {
public:
    explicit IfKernel(OpKernelConstruction& construction) : OpKernel(construction) {}

    Status compute(OpKernelContext& context) override
    {
        auto runtime = stepRuntime(context);
        if (!runtime)
            return runtime.error();
        auto handles = m_handles.get(**runtime, [this](FunctionRuntime& r) { return resolve(r); });
        if (!handles)
            return handles.error();
        auto taken = tensorToBool(context.input(0));
        if (!taken)
            return taken.error().withContext("cond");
        const FunctionRuntime::Handle branch = (*handles)[*taken ? 0 : 1];
        std::vector<Tensor> results;
        if (Status s = callFunction(context, branch, kernelInputs(context, 1), &results); !s.isOk())
            return s;
        for (std::size_t i = 0; i < results.size(); ++i)
            if (Status s = context.setOutput(static_cast<int>(i), std::move(results[i])); !s.isOk())
                return s;
        return Status::ok();
    }

private:
    Expected<std::vector<FunctionRuntime::Handle>> resolve(FunctionRuntime& runtime) const
    {
        const std::vector<DataType> tin(inputTypes().begin() + 1, inputTypes().end());
        std::vector<FunctionRuntime::Handle> handles;
        for (const char* role : {"then_branch", "else_branch"}) {
            auto f = instantiateAttrFunction(runtime, node(), role);
            if (!f)
                return unexpected(f.error());
            if (Status s = checkFunctionTypes(role, f->name, "takes", f->body->argTypes, "Tin", tin); !s.isOk())
                return unexpected(s);
            if (Status s = checkFunctionTypes(role, f->name, "returns", f->body->retTypes, "Tout", outputTypes());
                !s.isOk())
                return unexpected(s);
            handles.push_back(f->handle);
        }
        return handles;
    }

    FunctionHandles m_handles;
};

} // namespace

std::unique_ptr<OpKernel> makeIfKernel(OpKernelConstruction& construction)
{
    return std::make_unique<IfKernel>(construction);
}

} // namespace tstudio
