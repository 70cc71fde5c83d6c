// DatasetFunction: a dataset's user function (map's `f`, filter's `predicate`, ...) with its captured
// arguments, instantiated once and called through the session's FunctionRuntime from any thread.
#pragma once

#include "function/function_runtime.h"
#include "kernels/dataset/dataset.h"

#include <memory>
#include <string>

namespace tstudio::tfdata {

/// A function attr of a dataset node (a NameAttrList: name and attrs) bound to the node's
/// `other_arguments` (the captured tensors, TensorFlow's Targuments). call(element) runs the function
/// with the element's components followed by the captured tensors, as TensorFlow's
/// CapturedFunction does. Immutable; call() may run on several threads at once.
class DatasetFunction {
public:
    /// Reads attr `attr` and `Targuments` of ctx's node, takes the captured tensors from inputs
    /// [firstCaptured, firstCaptured + |Targuments|), instantiates the function in the step's
    /// runtime and checks that it takes |argTypes| + |Targuments| arguments of those dtypes.
    /// Errors name the dataset node and the function: NotFound for a function the graph's library
    /// lacks, InvalidArgument for a signature that does not fit, FailedPrecondition outside a session.
    static Expected<std::shared_ptr<const DatasetFunction>>
    create(OpKernelContext& ctx, const std::string& attr, int firstCaptured, const std::vector<DataType>& argTypes);

    /// Runs the function on `args` (the element) plus the captured tensors. Errors carry
    /// "<Op> '<node>': function '<f>': ".
    Expected<Element> call(const IteratorEnv& env, const Element& args) const;

    const std::string& name() const { return m_name; }
    /// The instantiated body (what rewrites recognise) and whether the function captures tensors.
    const FunctionBody& body() const;
    bool capturesArguments() const { return !m_captured.empty(); }
    /// The dtypes the function returns.
    const std::vector<DataType>& resultTypes() const;
    /// "MapDataset 'map': function 'f'", the prefix of this function's errors.
    const std::string& where() const { return m_where; }

private:
    std::string m_name;
    std::string m_where;
    FunctionRuntime* m_runtime = nullptr;
    FunctionRuntime::Handle m_handle = nullptr;
    Element m_captured;
};

using DatasetFunctionPtr = std::shared_ptr<const DatasetFunction>;

/// InvalidArgument naming the node and function when `fn` does not return `types` (a map's check
/// when its dataset is made).
Status checkMapFunctionTypes(const DatasetFunction& fn, const std::vector<DataType>& types);
/// fn(element), checked against the dataset's structure (`types`, `shapes`) with an error naming
/// the node and the function (map_datasets.cpp).
Expected<Element> applyMapFunction(const DatasetFunction& fn, const IteratorEnv& env, const Element& element,
                                   const std::vector<DataType>& types, const std::vector<TensorShape>& shapes);

} // namespace tstudio::tfdata
