// tf.get_local_variable over getVariable.
#include "builder/local_variable.h"

#include "builder/collections.h"

namespace tstudio {

Expected<Variable> getLocalVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                                    std::optional<Initializer> initializer, std::vector<std::string> collections)
{
    collections.emplace_back(graph_keys::kLocalVariables);
    return getVariable(b, name, shape, dtype, std::move(initializer), /*trainable=*/false, std::move(collections));
}

} // namespace tstudio
