// tf.sparse_to_dense: one SparseToDense node, its default value made as the op wrapper makes it.
#include "builder/sparse_to_dense.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"

namespace tstudio::sparse {

Expected<Output> sparseToDense(GraphBuilder& b, const Output& sparseIndices, const Output& outputShape,
                               const Output& sparseValues, const std::optional<Output>& defaultValue,
                               bool validateIndices, std::string_view name)
{
    const AttrMap attrs = {{"validate_indices", attr::b(validateIndices)}};
    if (defaultValue)
        return py::genOp(b, "SparseToDense", {sparseIndices, outputShape, sparseValues, *defaultValue}, attrs, name);
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(zero, ops::constant(b, 0.0, sparseValues.baseDtype(), "default_value"));
    return py::genOp(b, "SparseToDense", {sparseIndices, outputShape, sparseValues, zero}, attrs, scope.name());
}

} // namespace tstudio::sparse
