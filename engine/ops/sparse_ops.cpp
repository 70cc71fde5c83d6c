// The sparse op SparseToDense of TensorFlow 1.15 (sparse_ops.cc) and its shape function.
#include "ops/register_all_ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

namespace tstudio {

Status registerSparseOps(OpRegistry& registry)
{
    OpDefBuilder op("SparseToDense");
    op.summary("Builds a dense tensor of shape output_shape from sparse indices and values; every other "
               "element is default_value.")
        .category(op_category::kArray)
        .input("sparse_indices: Tindices")
        .input("output_shape: Tindices")
        .input("sparse_values: T")
        .input("default_value: T")
        .attr("validate_indices: bool = true")
        .attr("T: type")
        .output("dense: T")
        .attr("Tindices: {int32, int64}")
        .doc("sparse_indices", "0-D, 1-D or 2-D [N, rank]: the index of each sparse value.")
        .doc("output_shape", "1-D: the shape of the dense output.")
        .doc("sparse_values", "1-D [N] values, or a scalar used for every index.")
        .doc("default_value", "Scalar: the value of the elements no index names.")
        .doc("validate_indices", "If true, indices must be in range, sorted lexicographically and unique.");
    if (Status s = registry.registerOp(op); !s.isOk())
        return s;
    return registry.setShapeFunction("SparseToDense", [](ShapeInferenceContext& c) -> Status {
        auto shape = c.shapeFromShapeTensor(1);
        if (!shape)
            return shape.error();
        c.setOutput(0, *shape);
        return Status::ok();
    });
}

} // namespace tstudio
