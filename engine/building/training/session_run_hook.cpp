// The helpers the hooks share: the global step's tensor and integer scalars read from a session.
#include "training/session_run_hook.h"

#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "runtime/session.h"
#include "training/global_step.h"

namespace tstudio::training {

Expected<std::string> globalStepReadTensor(GraphBuilder& graph, std::string_view hookName)
{
    const std::vector<CollectionItem> cached = graph.collections().get(kGlobalStepReadKey);
    if (cached.size() > 1)
        return unexpected(failedPreconditionError("There are multiple items in collection " +
                                                  std::string(kGlobalStepReadKey) + ". There should be only one."));
    if (cached.size() == 1)
        return collectionItemName(cached.front());
    auto step = getGlobalStep(graph);
    if (!step)
        return unexpected(step.error());
    if (!*step)
        return unexpected(
            failedPreconditionError("Global step should be created to use " + std::string(hookName) + "."));
    auto root = graph.nameScope((*step)->name() + "/");
    if (!root)
        return unexpected(root.error());
    auto noControl = graph.clearControlDependencies();
    auto scope = graph.nameScope("add");
    if (!scope)
        return unexpected(scope.error());
    auto zero = ops::constantInts(graph, {0}, TensorShape({}), (*step)->dtype(), "y");
    if (!zero)
        return unexpected(zero.error());
    auto read = ops::firstOutput(graph.op("AddV2", {(*step)->value(), *zero}, {}, scope->name()));
    if (!read)
        return unexpected(read.error());
    graph.collections().add(kGlobalStepReadKey, *read);
    return read->name();
}

Status orderGlobalStepReadBeforeIncrements(GraphBuilder& graph)
{
    const std::vector<CollectionItem> cached = graph.collections().get(kGlobalStepReadKey);
    if (cached.size() != 1)
        return Status::ok();
    auto read = graph.tensor(collectionItemName(cached.front()));
    if (!read)
        return read.error();
    auto step = getGlobalStep(graph);
    if (!step)
        return step.error();
    if (!*step)
        return Status::ok();
    const std::string& variable = (*step)->name();
    std::vector<std::string> increments;
    for (const tensorflow::NodeDef& node : graph.graphDef().node()) {
        if (node.input_size() == 0 || node.name() == read->node())
            continue;
        // Increments only: Assign also initialises and restores the step, before any read is possible.
        const bool increment = node.op() == "AssignAdd" || node.op() == "AssignSub" ||
                               node.op() == "AssignAddVariableOp" || node.op() == "AssignSubVariableOp";
        if (increment && (node.input(0) == variable || node.input(0) == variable + ":0"))
            increments.push_back(node.name());
    }
    for (const std::string& name : increments)
        if (Status s = graph.addControlInput(name, read->node()); !s.isOk())
            return s;
    return Status::ok();
}

Expected<std::int64_t> int64Scalar(const Tensor& t, std::string_view what)
{
    if (t.numElements() != 1 || (t.dtype() != tensorflow::DT_INT64 && t.dtype() != tensorflow::DT_INT32))
        return unexpected(invalidArgumentError(std::string(what) + ": expected an int32 or int64 scalar, got " +
                                               dataTypeString(t.dtype()) + " " + t.shape().toString()));
    return t.dtype() == tensorflow::DT_INT64 ? t.scalar<std::int64_t>()
                                             : static_cast<std::int64_t>(t.scalar<std::int32_t>());
}

Expected<std::int64_t> fetchInt64(Session& session, const std::string& tensor)
{
    std::vector<Tensor> out;
    if (Status s = session.run({}, {tensor}, {}, &out); !s.isOk())
        return unexpected(s);
    return int64Scalar(out.front(), tensor);
}

} // namespace tstudio::training
