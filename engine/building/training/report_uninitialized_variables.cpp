// reportUninitializedVariables: the names of the variables not yet initialized, as a string tensor.
#include "training/report_uninitialized_variables.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"

#include <string>

namespace tstudio::training {
namespace {

Expected<Output> stringVector(GraphBuilder& b, const std::vector<std::string>& values)
{
    auto proto = makeStringTensorProto(TensorShape({static_cast<std::int64_t>(values.size())}), values);
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, "Const");
}

/// boolean_mask(tensor, mask) of two 1-D tensors of the same length.
Expected<Output> booleanMask1d(GraphBuilder& b, const Output& tensor, const Output& mask)
{
    auto scope = b.nameScope("boolean_mask");
    if (!scope)
        return unexpected(scope.error());
    auto where = ops::firstOutput(b.op("Where", {mask}, {}, "Where"));
    if (!where)
        return unexpected(where.error());
    auto indices = ops::firstOutput(b.op("Squeeze", {*where}, {{"squeeze_dims", attr::ints({1})}}, "Squeeze"));
    if (!indices)
        return unexpected(indices.error());
    auto gather = b.nameScope("GatherV2");
    if (!gather)
        return unexpected(gather.error());
    auto axis = ops::constantInts(b, {0}, TensorShape({}), tensorflow::DT_INT32, "axis");
    if (!axis)
        return unexpected(axis.error());
    return ops::firstOutput(b.op("GatherV2", {tensor, *indices, *axis}, {}, gather->name()));
}

} // namespace

Expected<Output> reportUninitializedVariables(GraphBuilder& b, std::optional<std::vector<Variable>> variables,
                                              std::string_view name)
{
    if (!variables) {
        variables = globalVariables(b);
        for (const Variable& v : localVariables(b))
            variables->push_back(v);
    }
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<Output> initialized;
    std::vector<std::string> names;
    for (const Variable& v : *variables) {
        auto op = ops::firstOutput(b.op("IsVariableInitialized", {v.ref()}, {}, "IsVariableInitialized"));
        if (!op)
            return unexpected(op.error());
        initialized.push_back(*op);
        names.push_back(v.name());
    }
    auto cpu = b.device("/cpu:0");
    if (!cpu)
        return unexpected(cpu.error());
    if (variables->empty())
        return stringVector(b, {});
    auto stacked = ops::firstOutput(b.op("Pack", {OpInput(initialized)}, {{"axis", attr::i(0)}}, "stack"));
    if (!stacked)
        return unexpected(stacked.error());
    auto mask = ops::firstOutput(b.op("LogicalNot", {*stacked}, {}, "LogicalNot"));
    if (!mask)
        return unexpected(mask.error());
    auto namesTensor = stringVector(b, names);
    if (!namesTensor)
        return unexpected(namesTensor.error());
    return booleanMask1d(b, *namesTensor, *mask);
}

Expected<Output> reportUninitializedResources(GraphBuilder& b, std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    auto cpu = b.device("/cpu:0");
    if (!cpu)
        return unexpected(cpu.error());
    return stringVector(b, {});
}

} // namespace tstudio::training
