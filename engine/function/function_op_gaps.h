// functionsLackingOps: which functions of a graph's library use ops this build does not register.
#pragma once

#include "proto/function.pb.h"

#include <string>
#include <vector>

namespace tstudio {

class OpRegistry;

/// A library function whose body uses ops that are neither registered in this build nor functions
/// of the same library.
struct FunctionOpGap {
    std::string function;          ///< the function's name
    std::vector<std::string> ops;  ///< the missing ops, sorted, each once
};

/// Every function of `library` that names an op `ops` does not register and the library does not
/// define, in the library's order. Such a function loads: it is instantiated only when a run
/// reaches its call (a TF 2 SavedModel's saver functions, `__inference__traced_save_*`), and only
/// then does the missing op fail. What `tstudio inspect` lists as a warning.
std::vector<FunctionOpGap> functionsLackingOps(const tensorflow::FunctionDefLibrary& library, const OpRegistry& ops);

} // namespace tstudio
