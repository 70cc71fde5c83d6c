// Warm start: RestoreV2 + Assign per chosen variable, after the variables' own initializer.
#include "project/run/warm_start.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "core/try.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/checkpoint_reader.h"

#include <filesystem>
#include <map>
#include <regex>
#include <set>

namespace tstudio::project {
namespace {

Expected<Output> strings(GraphBuilder& b, const std::vector<std::string>& values, bool scalar, std::string_view name)
{
    const TensorShape shape = scalar ? TensorShape::scalar() : TensorShape{static_cast<std::int64_t>(values.size())};
    TSTUDIO_TRY(proto, makeStringTensorProto(shape, values));
    return ops::constant(b, proto, name);
}

std::string typed(DataType dtype, const TensorShape& shape)
{
    return dataTypeName(dtype) + " " + shape.toString();
}

} // namespace

bool matchesFromStart(const std::string& pattern, const std::string& text)
{
    return std::regex_search(text, std::regex(pattern), std::regex_constants::match_continuous);
}

Expected<WarmStartPlan> addWarmStart(GraphBuilder& b, const Project& project, const WarmStart& settings,
                                     const std::vector<Variable>& trainable, const std::string& initOp,
                                     const std::string& where)
{
    // The checkpoint: a prefix, or a directory's latest.
    const std::filesystem::path given = project.resolve(settings.ckptToInitializeFrom);
    std::string prefix = given.string();
    std::error_code ec;
    if (std::filesystem::is_directory(given, ec)) {
        auto latest = latestCheckpoint(given);
        if (!latest)
            return unexpected(invalidArgumentError(where + ".ckpt_to_initialize_from: no checkpoint in '" +
                                                   settings.ckptToInitializeFrom + "' (" + latest.error().message() + ")"));
        prefix = latest->string();
    }
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return unexpected(invalidArgumentError(where + ".ckpt_to_initialize_from: no checkpoint at '" +
                                               settings.ckptToInitializeFrom + "' (" + reader.error().message() + ")"));

    std::set<std::string> names;
    for (const Variable& v : trainable)
        names.insert(v.name());
    for (const auto& [var, prev] : settings.varNameToPrevVarName)
        if (!names.count(var))
            return unexpected(invalidArgumentError(where + ".var_name_to_prev_var_name: '" + var +
                                                   "' is not a trainable variable of the graph"));
    std::vector<Variable> chosen;
    for (const Variable& v : trainable)
        if (matchesFromStart(settings.varsToWarmStart, v.name()))
            chosen.push_back(v);
    if (chosen.empty()) {
        std::string list;
        for (const Variable& v : trainable)
            list += (list.empty() ? "" : ", ") + v.name();
        return unexpected(invalidArgumentError(where + ".vars_to_warm_start: '" + settings.varsToWarmStart +
                                               "' matches none of the trainable variables (" + list + ")"));
    }

    WarmStartPlan plan;
    plan.checkpoint = prefix;
    TSTUDIO_TRY(init, b.operation(initOp));
    TSTUDIO_TRY(scope, b.nameScope("warm_start"));
    TSTUDIO_TRY(prefixTensor, strings(b, {prefix}, true, "prefix"));
    std::vector<Operation> assigns;
    for (const Variable& v : chosen) {
        const auto renamed = settings.varNameToPrevVarName.find(v.name());
        const std::string stored = renamed == settings.varNameToPrevVarName.end() ? v.name() : renamed->second;
        auto info = reader->lookUp(stored);
        if (!info)
            return unexpected(invalidArgumentError(where + ": variable '" + v.name() + "' is not in checkpoint '" + prefix +
                                                   "' (as '" + stored + "')"));
        if (info->dtype != v.dtype() || !v.shape().isCompatibleWith(info->shape))
            return unexpected(invalidArgumentError(where + ": variable '" + v.name() + "' is " + typed(v.dtype(), v.shape()) +
                                                   " but the checkpoint's '" + stored + "' is " +
                                                   typed(info->dtype, info->shape)));
        // One restore per variable, each after every variable's own initializer, so that the
        // checkpoint's value is the one left.
        auto after = b.controlDependencies({init});
        TSTUDIO_TRY(tensorNames, strings(b, {stored}, false, "tensor_names"));
        TSTUDIO_TRY(slices, strings(b, {std::string()}, false, "shape_and_slices"));
        TSTUDIO_TRY(restore, b.op("RestoreV2", {prefixTensor, tensorNames, slices},
                                  {{"dtypes", attr::types({v.dtype()})}}, "RestoreV2"));
        TSTUDIO_TRY(assign, b.op("Assign", {v.ref(), restore.output(0)}, {}, "Assign"));
        assigns.push_back(assign);
        plan.variables.push_back(v.name());
    }
    TSTUDIO_TRY(grouped, ops::group(b, assigns, "init"));
    plan.initOp = grouped.name();
    return plan;
}

} // namespace tstudio::project
