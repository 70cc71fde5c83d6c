// DatasetFunction: instantiating a dataset node's function attr and calling it without a kernel context.
#include "kernels/dataset/dataset_function.h"

#include "framework/node_attrs.h"
#include "framework/node_def_validation.h"

namespace tstudio::tfdata {

Expected<std::shared_ptr<const DatasetFunction>> DatasetFunction::create(OpKernelContext& ctx, const std::string& attr,
                                                                         int firstCaptured,
                                                                         const std::vector<DataType>& argTypes)
{
    const OpKernel& kernel = ctx.kernel();
    const std::string node = kernel.op() + " '" + kernel.name() + "'";
    const tensorflow::AttrValue* value = findAttr(kernel.node(), attr);
    if (!value || !value->has_func())
        return unexpected(invalidArgumentError(node + ": attr '" + attr + "' must name a function"));
    auto fn = std::make_shared<DatasetFunction>();
    fn->m_name = value->func().name();
    fn->m_where = node + ": function '" + fn->m_name + "'";
    const FunctionCallScope* scope = ctx.functions();
    if (!scope || !scope->runtime)
        return unexpected(failedPreconditionError(fn->m_where + " can only run inside a session step"));
    fn->m_runtime = scope->runtime;

    auto captureTypes = attrTypeList(kernel.node(), "Targuments");
    if (!captureTypes)
        return unexpected(captureTypes.error().withContext(node));
    const int numCaptured = static_cast<int>(captureTypes->size());
    if (firstCaptured + numCaptured > ctx.numInputs())
        return unexpected(invalidArgumentError(node + ": Targuments lists " + std::to_string(numCaptured) +
                                               " captured arguments but the node has too few inputs"));
    for (int i = 0; i < numCaptured; ++i)
        fn->m_captured.push_back(ctx.input(firstCaptured + i));

    FunctionCallTarget target;
    target.name = fn->m_name;
    for (const auto& [key, v] : value->func().attr())
        target.attrs[key] = v;
    auto handle = fn->m_runtime->instantiate(target);
    if (!handle) {
        const Status& error = handle.error();
        return unexpected(Status(error.code(), node + ": function '" + fn->m_name + "' (attr '" + attr +
                                                   "') cannot be instantiated: " + error.message()));
    }
    fn->m_handle = *handle;

    std::vector<DataType> expected = argTypes;
    expected.insert(expected.end(), captureTypes->begin(), captureTypes->end());
    const std::vector<DataType>& actual = fn->m_runtime->body(fn->m_handle).argTypes;
    if (actual != expected)
        return unexpected(invalidArgumentError(fn->m_where + " takes " + std::to_string(actual.size()) +
                                               " arguments (" + dataTypeListString(actual) +
                                               "), but the dataset "
                                               "passes " +
                                               std::to_string(expected.size()) + " (" + dataTypeListString(expected) +
                                               ": the element's components, then "
                                               "the captured Targuments)"));
    return std::shared_ptr<const DatasetFunction>(std::move(fn));
}

const FunctionBody& DatasetFunction::body() const
{
    return m_runtime->body(m_handle);
}

const std::vector<DataType>& DatasetFunction::resultTypes() const
{
    return m_runtime->body(m_handle).retTypes;
}

Expected<Element> DatasetFunction::call(const IteratorEnv& env, const Element& args) const
{
    Element all = args;
    all.insert(all.end(), m_captured.begin(), m_captured.end());
    FunctionCallScope scope;
    scope.runtime = m_runtime;
    scope.sessionClosed = env.sessionClosed;
    Element results;
    if (Status s = m_runtime->runDetached(m_handle, scope, *env.resources, m_where, all, &results); !s.isOk())
        return unexpected(Status(s.code(), m_where + ": " + s.message()));
    // Iterators work on host memory (TensorFlow runs dataset functions on the CPU).
    for (std::size_t i = 0; i < results.size(); ++i)
        if (!results[i].inHostMemory())
            return unexpected(unimplementedError(m_where + ": result " + std::to_string(i) +
                                                 " is in device memory; dataset functions must run on the CPU "
                                                 "(place the function's nodes on /device:CPU:0)"));
    return results;
}

} // namespace tstudio::tfdata
