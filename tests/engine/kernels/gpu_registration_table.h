// GPU registration tables for the GPU kernel tests: what a family's GPU kernels must accept (dtypes
// per type attr, arguments kept in host memory), checked against a KernelRegistry without a GPU.
#pragma once

#include "framework/kernel_registry.h"
#include "framework/op_registry.h"

#include "kernel_harness.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tstudio::testing {

/// One expected GPU registration: `types` of attr `attr` with `hostArgs` in host memory.
struct ExpectedKernel {
    std::string attr;
    std::vector<DataType> types;
    std::vector<std::string> hostArgs;
};
/// By op name; all entries of an op name the same attr.
using Table = std::map<std::string, std::vector<ExpectedKernel>>;

namespace detail {
inline std::vector<DataType> constraintOf(const KernelDef& def, const std::string& attr)
{
    for (const auto& [name, types] : def.typeConstraints) {
        if (name == attr)
            return types;
    }
    return {};
}
} // namespace detail

/// "" when every expected (op, dtype) has exactly one GPU kernel with the expected host arguments,
/// and the GPU kernels accept no other dtype; else the first problem. An op whose kernels take no
/// type constraint is listed with an empty attr and one entry whose types are empty.
inline std::string checkTable(const KernelRegistry& registry, const Table& table)
{
    for (const auto& [op, expects] : table) {
        const std::string attr = expects.front().attr;
        if (attr.empty()) {
            int count = 0;
            for (const KernelDef& def : registry.kernelsFor(op)) {
                if (def.deviceType != "GPU")
                    continue;
                ++count;
                if (std::set<std::string>(def.hostMemoryArgs.begin(), def.hostMemoryArgs.end()) !=
                    std::set<std::string>(expects.front().hostArgs.begin(), expects.front().hostArgs.end()))
                    return op + ": host-memory arguments differ";
            }
            if (count != 1)
                return op + ": " + std::to_string(count) + " GPU kernels";
            continue;
        }
        std::map<DataType, std::set<std::string>> expected;
        for (const ExpectedKernel& e : expects) {
            for (DataType dtype : e.types)
                expected[dtype] = std::set<std::string>(e.hostArgs.begin(), e.hostArgs.end());
        }
        std::map<DataType, int> seen;
        for (const KernelDef& def : registry.kernelsFor(op)) {
            if (def.deviceType != "GPU")
                continue;
            const std::vector<DataType> types = detail::constraintOf(def, attr);
            if (types.empty())
                return op + ": a GPU kernel without a constraint on " + attr;
            for (DataType dtype : types) {
                ++seen[dtype];
                auto found = expected.find(dtype);
                if (found == expected.end())
                    return op + ": unexpected GPU kernel for " + dataTypeString(dtype);
                if (std::set<std::string>(def.hostMemoryArgs.begin(), def.hostMemoryArgs.end()) != found->second)
                    return op + " " + dataTypeString(dtype) + ": host-memory arguments differ";
            }
        }
        for (const auto& [dtype, args] : expected) {
            if (seen[dtype] != 1)
                return op + " " + dataTypeString(dtype) + ": " + std::to_string(seen[dtype]) + " GPU kernels";
        }
    }
    return {};
}

/// "" when every host-memory argument of the ops' GPU kernels names an input or output of the op
/// (a misspelt name would silently leave the argument in device memory).
inline std::string checkHostArgNames(const KernelRegistry& kernels, const OpRegistry& ops, const Table& table)
{
    for (const auto& entry : table) {
        const std::string& op = entry.first;
        auto registration = ops.lookUp(op);
        if (!registration)
            return op + ": " + registration.error().toString();
        std::set<std::string> names;
        for (const auto& arg : (*registration)->opDef.input_arg())
            names.insert(arg.name());
        for (const auto& arg : (*registration)->opDef.output_arg())
            names.insert(arg.name());
        for (const KernelDef& def : kernels.kernelsFor(op)) {
            for (const std::string& arg : def.hostMemoryArgs) {
                if (def.deviceType == "GPU" && names.count(arg) == 0)
                    return op + ": host-memory argument '" + arg + "' is not an argument of the op";
            }
        }
    }
    return {};
}

/// "" when the GPU kernels of `harness` (a registrationHarness, gpu_kernel_harness.h) match `table` (checkTable) and
/// their host-memory arguments name arguments of the ops (checkHostArgNames); else the first problem.
inline std::string checkRegistrations(KernelHarness& harness, const Table& table)
{
    const std::string problem = checkTable(harness.kernels(), table);
    if (!problem.empty())
        return problem;
    return checkHostArgNames(harness.kernels(), harness.ops(), table);
}

} // namespace tstudio::testing
