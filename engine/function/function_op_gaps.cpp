// functionsLackingOps: each function's body ops looked up in the registry and the library.
#include "function/function_op_gaps.h"

#include "framework/op_registry.h"

#include <set>

namespace tstudio {

std::vector<FunctionOpGap> functionsLackingOps(const tensorflow::FunctionDefLibrary& library, const OpRegistry& ops)
{
    std::set<std::string> functions;
    for (const tensorflow::FunctionDef& f : library.function())
        functions.insert(f.signature().name());
    std::vector<FunctionOpGap> gaps;
    for (const tensorflow::FunctionDef& f : library.function()) {
        std::set<std::string> missing;
        for (const tensorflow::NodeDef& node : f.node_def())
            if (!ops.find(node.op()) && !functions.count(node.op()))
                missing.insert(node.op());
        if (!missing.empty())
            gaps.push_back({f.signature().name(), {missing.begin(), missing.end()}});
    }
    return gaps;
}

} // namespace tstudio
