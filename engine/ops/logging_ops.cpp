// The logging op family: Assert (TensorFlow 1.15's logging_ops OpDef), with its shape function.
// Print, PrintV2 and the summary ops are not defined yet.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

namespace tstudio {

Status registerLoggingOps(OpRegistry& registry)
{
    OpDefBuilder assertOp("Assert");
    assertOp.summary("Fails the step with the summarized data when the scalar condition is false.")
        .category(op_category::kControlFlow)
        .input("condition: bool")
        .input("data: T")
        .setIsStateful()
        .attr("T: list(type)")
        .attr("summarize: int = 3");
    if (Status s = registry.registerOp(assertOp); !s.isOk())
        return s;
    return registry.setShapeFunction("Assert", noOutputs);
}

} // namespace tstudio
