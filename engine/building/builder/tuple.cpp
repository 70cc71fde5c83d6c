// tf.tuple: the gate and the gated elements, with TensorFlow 1.15's names.
#include "builder/tuple.h"

#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "core/try.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace tstudio {

Expected<std::vector<TupleElement>> tuple(GraphBuilder& b, const std::vector<TupleElement>& tensors,
                                          const std::vector<Operation>& controlInputs, std::string_view name)
{
    TSTUDIO_TRY(scope, b.nameScope(name.empty() ? "tuple" : name));
    std::vector<std::string> gating;
    for (const TupleElement& element : tensors)
        if (element)
            gating.push_back(std::holds_alternative<Output>(*element) ? std::get<Output>(*element).node()
                                                                      : std::get<Operation>(*element).name());
    for (const Operation& control : controlInputs)
        gating.push_back(control.name());
    if (gating.empty()) {
        std::string list;
        for (std::size_t i = 0; i < tensors.size(); ++i)
            list += i == 0 ? "None" : ", None";
        return unexpected(invalidArgumentError("Must have at least one Tensor: [" + list + "]"));
    }
    // Each op once, in the order the graph made them (TensorFlow sorts by the ops' ids).
    std::unordered_map<std::string, int> position;
    const tensorflow::GraphDef& graph = b.graphDef();
    for (int i = 0; i < graph.node_size(); ++i)
        position.emplace(graph.node(i).name(), i);
    for (const std::string& op : gating)
        if (!position.count(op))
            return unexpected(invalidArgumentError("tf.tuple: '" + op + "' is not an operation of this graph"));
    std::sort(gating.begin(), gating.end(),
              [&](const std::string& x, const std::string& y) { return position.at(x) < position.at(y); });
    gating.erase(std::unique(gating.begin(), gating.end()), gating.end());
    std::vector<Operation> gatingOps;
    for (const std::string& op : gating) {
        TSTUDIO_TRY(operation, b.operation(op));
        gatingOps.push_back(std::move(operation));
    }
    TSTUDIO_TRY(gate, ops::group(b, gatingOps));

    std::vector<TupleElement> out;
    for (const TupleElement& element : tensors) {
        if (!element) {
            out.emplace_back(std::nullopt);
        } else if (const Output* tensor = std::get_if<Output>(&*element)) {
            TSTUDIO_TRY(gated, withDependencies(b, {gate}, *tensor));
            out.emplace_back(std::move(gated));
        } else {
            ScopeGuard after = b.controlDependencies({gate});
            TSTUDIO_TRY(grouped, ops::group(b, {std::get<Operation>(*element)}));
            out.emplace_back(std::move(grouped));
        }
    }
    return out;
}

} // namespace tstudio
