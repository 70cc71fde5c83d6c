// The While / StatelessWhile kernel: runs body on the loop variables as long as cond says so.
#include "framework/node_def_validation.h"
#include "kernels/function/functional_kernel_support.h"
#include "kernels/function/functional_kernels.h"

#include <chrono>

namespace tstudio {
namespace {

class WhileKernel : public OpKernel {
public:
    explicit WhileKernel(OpKernelConstruction& construction) : OpKernel(construction) {}

    Status compute(OpKernelContext& context) override
    {
        auto runtime = stepRuntime(context);
        if (!runtime)
            return runtime.error();
        auto handles = m_handles.get(**runtime, [this](FunctionRuntime& r) { return resolve(r); });
        if (!handles)
            return handles.error();
        const FunctionRuntime::Handle cond = (*handles)[0];
        const FunctionRuntime::Handle body = (*handles)[1];
        const std::string& condName = (*runtime)->body(cond).name;
        const std::string& bodyName = (*runtime)->body(body).name;

        std::vector<Tensor> vars = kernelInputs(context);
        std::vector<Tensor> results;
        for (std::int64_t iteration = 0;; ++iteration) {
            if (context.sessionClosed())
                return cancelledError("the session was closed while the loop ran (iteration " +
                                      std::to_string(iteration) + ")");
            if (context.deadline() && std::chrono::steady_clock::now() > *context.deadline())
                return Status(StatusCode::kDeadlineExceeded, "the loop ran past RunOptions.timeout_in_ms (iteration " +
                                                                 std::to_string(iteration) + ")");
            if (Status s = callFunction(context, cond, vars, &results); !s.isOk())
                return s;
            if (results.size() != 1)
                return invalidArgumentError("cond function '" + condName + "' returned " +
                                            std::to_string(results.size()) +
                                            " tensors; expected a single scalar which can be converted to a boolean");
            auto more = tensorToBool(results[0]);
            if (!more)
                return more.error().withContext("cond function '" + condName + "' returned a " +
                                                results[0].shape().toString() + " tensor that is not a boolean");
            if (!*more)
                break;
            if (Status s = callFunction(context, body, vars, &results); !s.isOk())
                return s;
            if (results.size() != vars.size())
                return invalidArgumentError("body function '" + bodyName + "' returned " +
                                            std::to_string(results.size()) + " tensors for " +
                                            std::to_string(vars.size()) + " loop variables");
            vars = std::move(results);
            results.clear();
        }
        for (std::size_t i = 0; i < vars.size(); ++i)
            if (Status s = context.setOutput(static_cast<int>(i), std::move(vars[i])); !s.isOk())
                return s;
        return Status::ok();
    }

private:
    Expected<std::vector<FunctionRuntime::Handle>> resolve(FunctionRuntime& runtime) const
    {
        std::vector<FunctionRuntime::Handle> handles;
        for (const char* role : {"cond", "body"}) {
            auto f = instantiateAttrFunction(runtime, node(), role);
            if (!f)
                return unexpected(f.error());
            const FunctionBody& body = *f->body;
            if (Status s = checkFunctionTypes(role, f->name, "takes", body.argTypes, "T", inputTypes()); !s.isOk())
                return unexpected(s);
            if (std::string(role) == "cond") {
                if (body.retTypes.size() != 1)
                    return unexpected(invalidArgumentError(
                        "cond function '" + f->name + "' returns " + std::to_string(body.retTypes.size()) +
                        " tensors (" + dataTypeListString(body.retTypes) +
                        "); expected a single scalar which can be converted to a boolean"));
            } else if (Status s = checkFunctionTypes(role, f->name, "returns", body.retTypes, "T", outputTypes());
                       !s.isOk()) {
                return unexpected(s);
            }
            handles.push_back(f->handle);
        }
        return handles;
    }

    FunctionHandles m_handles;
};

} // namespace

std::unique_ptr<OpKernel> makeWhileKernel(OpKernelConstruction& construction)
{
    return std::make_unique<WhileKernel>(construction);
}

} // namespace tstudio
