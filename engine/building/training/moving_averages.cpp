// ExponentialMovingAverage as TensorFlow 1.15's moving_averages.py builds it (see the header for the differences).
#include "training/moving_averages.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/slot_creator.h"

#include <set>

namespace tstudio::training {

ExponentialMovingAverage::ExponentialMovingAverage(double decay, std::optional<Output> numUpdates, bool zeroDebias,
                                                   std::string name)
    : m_decay(decay), m_numUpdates(std::move(numUpdates)), m_zeroDebias(zeroDebias), m_name(std::move(name))
{
}

Expected<Operation> ExponentialMovingAverage::apply(GraphBuilder& b, std::optional<std::vector<Variable>> varList)
{
    if (m_zeroDebias)
        return unexpected(unimplementedError("ExponentialMovingAverage(zero_debias=True) is not supported; it only "
                                             "changes averages of plain tensors in TensorFlow"));
    const std::vector<Variable> vars = varList ? std::move(*varList) : trainableVariables(b);
    for (const Variable& v : vars) {
        const DataType t = v.dtype();
        if (t != tensorflow::DT_BFLOAT16 && t != tensorflow::DT_HALF && t != tensorflow::DT_FLOAT &&
            t != tensorflow::DT_DOUBLE)
            return unexpected(invalidArgumentError("The variables must be half, float, or double: " + v.ref().name()));
    }
    for (const Variable& v : vars) {
        if (m_averages.count(v.name()))
            continue;
        auto shadow = createSlot(b, v, v.initialValue(), m_name);
        if (!shadow)
            return unexpected(shadow.error());
        b.collections().add(kMovingAverageVariables, v);
        m_averages.emplace(v.name(), *shadow);
    }

    auto scope = b.nameScope(m_name);
    if (!scope)
        return unexpected(scope.error());
    TSTUDIO_AD_TRY(decay, ops::constant(b, m_decay, tensorflow::DT_FLOAT, "decay"));
    if (m_numUpdates) {
        // math_ops.cast(num_updates, float32, name="num_updates").
        Output n = *m_numUpdates;
        if (n.baseDtype() != tensorflow::DT_FLOAT) {
            TSTUDIO_AD_TRY(c, py::genOp(b, "Cast", {n},
                                        {{"DstT", attr::type(tensorflow::DT_FLOAT)}, {"Truncate", attr::b(false)}},
                                        "num_updates"));
            n = c;
        }
        TSTUDIO_AD_TRY(numerator, py::binary(b, py::Operator::kAdd, 1.0, n));
        TSTUDIO_AD_TRY(denominator, py::binary(b, py::Operator::kAdd, 10.0, n));
        TSTUDIO_AD_TRY(ratio, py::binary(b, py::Operator::kTrueDiv, numerator, denominator));
        TSTUDIO_AD_TRY(smaller, py::genOp(b, "Minimum", {decay, ratio}));
        decay = smaller;
    }
    std::vector<Operation> updates;
    for (const Variable& v : vars) {
        const Variable& shadow = m_averages.at(v.name());
        // assign_moving_average(shadow, var, decay, zero_debias=False) under "AssignMovingAvg".
        auto avgScope = b.nameScope("AssignMovingAvg");
        if (!avgScope)
            return unexpected(avgScope.error());
        TSTUDIO_AD_TRY(oneMinus, py::binary(b, py::Operator::kSub, 1.0, decay));
        Output rate = oneMinus;
        if (rate.baseDtype() != shadow.dtype()) {
            TSTUDIO_AD_TRY(c, py::cast(b, rate, shadow.dtype()));
            rate = c;
        }
        // TF 1.15 colocates only the update itself with the shadow (the distribution strategy's
        // update); TF 1.3 colocated "sub/x" and "sub" too.
        TSTUDIO_AD_TRY(shadowOp, b.operation(shadow.name()));
        auto colocated = b.colocateWith(shadowOp);
        TSTUDIO_AD_TRY(difference, py::binary(b, py::Operator::kSub, shadow.value(), v.value()));
        TSTUDIO_AD_TRY(delta, py::binary(b, py::Operator::kMul, difference, rate));
        TSTUDIO_AD_TRY(update, b.op("AssignSub", {shadow.ref(), delta}, {}, avgScope->name()));
        updates.push_back(update);
    }
    return ops::group(b, updates, scope->name());
}

std::optional<Variable> ExponentialMovingAverage::average(const Variable& var) const
{
    auto it = m_averages.find(var.name());
    return it == m_averages.end() ? std::nullopt : std::optional<Variable>(it->second);
}

std::string ExponentialMovingAverage::averageName(const Variable& var) const
{
    if (auto avg = average(var))
        return avg->name();
    return var.name() + "/" + m_name;
}

std::map<std::string, Variable>
ExponentialMovingAverage::variablesToRestore(const GraphBuilder& b,
                                             std::optional<std::vector<Variable>> movingAvgVariables) const
{
    std::vector<Variable> averaged;
    if (movingAvgVariables) {
        averaged = std::move(*movingAvgVariables);
    } else {
        averaged = trainableVariables(b);
        for (const Variable& v : b.collections().variables(kMovingAverageVariables))
            averaged.push_back(v);
    }
    std::map<std::string, Variable> out;
    std::set<std::string> averagedNames;
    for (const Variable& v : averaged) {
        out[averageName(v)] = v;
        averagedNames.insert(v.name());
    }
    for (const Variable& v : globalVariables(b))
        if (!averagedNames.count(v.name()) && !out.count(v.name()))
            out[v.name()] = v;
    return out;
}

} // namespace tstudio::training
