// symbolicGradientBody: SymbolicGradient's body through the op registry's autodiff, and the
// library's own GradientDefs.
#include "function/symbolic_gradient_body.h"

#include "framework/op_registry.h"
#include "function/function_library.h"

namespace tstudio {

std::string libraryGradientOf(const FunctionLibrary& library, std::string_view function)
{
    // The library keeps its GradientDefs only in proto form; this runs once per instantiation.
    const tensorflow::FunctionDefLibrary proto = library.toProto();
    for (const tensorflow::GradientDef& gradient : proto.gradient())
        if (gradient.function_name() == function)
            return gradient.gradient_func();
    return {};
}

Expected<FunctionBody> symbolicGradientBody(const FunctionLibrary& library, const FunctionCallTarget& target,
                                            const std::vector<DataType>& gradTypes)
{
    const SymbolicGradientBodyFunction differentiate = library.ops().symbolicGradientBody();
    if (!differentiate)
        return unexpected(unimplementedError("gradient of function '" + target.name +
                                             "': no autodiff is registered with the op registry "
                                             "(registerAllGradients)"));
    return differentiate(library, target, gradTypes);
}

} // namespace tstudio
