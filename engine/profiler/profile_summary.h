// formatProfileSummary: the text `tstudio profile --summary` prints (tfprof-like op table and scope tree,
// total float operations and parameters), and tfprof's number formats (Qt-free).
#pragma once

#include "core/expected.h"
#include "profiler/profile_tables.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::profiler {

/// tfprof's time format on ns: "850ns", "12us", "1.23ms", "2.50sec" (tfprof starts at whole us).
std::string formatProfileTime(std::int64_t ns);
/// tfprof's memory format: "512B", "1.23KB", "4.56MB" (powers of 1000, MB above that as tfprof).
std::string formatProfileBytes(std::int64_t bytes);
/// tfprof's number format: "999", "1.23k", "4.56m", "7.89b".
std::string formatProfileNumber(std::int64_t n);
/// Digits grouped by thousands: "159,800,000".
std::string formatProfileGrouped(std::int64_t n);

struct ProfileSummaryOptions {
    /// As ProfileTableOptions::step: -1 averages over steps, else one step's index.
    int step = -1;
    const tensorflow::GraphDef* graph = nullptr;
    std::optional<std::vector<std::string>> trainableVariables;
    /// As ProfileTableOptions::opLog (its trainable variables count when trainableVariables is unset).
    const OpLog* opLog = nullptr;
    /// Op types listed (by total time); the rest are counted in one line.
    std::size_t maxOpTypes = 25;
    /// Scope levels shown below the top (0: top-level scopes only).
    int maxScopeDepth = 3;
    /// Scope rows shown in all.
    std::size_t maxScopeRows = 40;
};

/// The summary: a header (steps, devices, events), the op-type table (runs|nodes, time, accelerator and
/// CPU time, requested and peak bytes, float ops, parameters), the scope tree (indented by level, each
/// level sorted by total time; rows with no time, bytes, float ops or parameters left out), then total
/// float operations and total parameters with the rule used. Lines fit 100 columns. InvalidArgument for a
/// step the trace does not have.
Expected<std::string> formatProfileSummary(const ProfileTrace& trace, const ProfileSummaryOptions& options = {});

} // namespace tstudio::profiler
