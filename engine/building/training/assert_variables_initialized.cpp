// tf.assert_variables_initialized with TensorFlow 1.15's nodes.
#include "training/assert_variables_initialized.h"

#include "builder/python_ops.h"
#include "builder/variables.h"
#include "core/try.h"

namespace tstudio::training {

Expected<std::optional<Output>> assertVariablesInitialized(GraphBuilder& b,
                                                           std::optional<std::vector<Variable>> variables)
{
    std::vector<Output> values;
    if (!variables) {
        variables = globalVariables(b);
        for (Variable& v : localVariables(b))
            variables->push_back(std::move(v));
    }
    for (const Variable& v : *variables)
        values.push_back(v.value());
    if (values.empty()) // old-style variables, made without the collections
        for (const tensorflow::NodeDef& node : b.graphDef().node())
            if (node.op() == "VariableV2" || node.op() == "Variable") {
                TSTUDIO_TRY(ref, b.tensor(node.name() + ":0"));
                values.push_back(std::move(ref));
            }
    if (values.empty())
        return std::optional<Output>();
    std::vector<Output> ranks;
    for (const Output& value : values) {
        TSTUDIO_TRY(owner, b.operation(value.node()));
        // Colocated with the variable itself, as colocate_with(var.op) does.
        std::string variableNode = owner.name();
        const tensorflow::NodeDef* def = b.findNode(owner.name());
        if (def && def->op() == "Identity" && def->input_size() > 0)
            variableNode = def->input(0);
        TSTUDIO_TRY(variableOp, b.operation(variableNode));
        ScopeGuard colocation = b.colocateWith(variableOp);
        TSTUDIO_TRY(rank, py::genOp(b, "Rank", {value}));
        ranks.push_back(std::move(rank));
    }
    if (ranks.size() == 1)
        return std::optional<Output>(ranks.front());
    TSTUDIO_TRY(stacked, py::genOp(b, "Pack", {ranks}, {{"axis", attr::i(0)}}, "stack"));
    return std::optional<Output>(stacked);
}

} // namespace tstudio::training
