// tfprof's scope view with its options (tf.profiler.ProfileOptionBuilder / the tfprof command line):
// max_depth, the min_* thresholds, order_by, account_type_regexes, start/trim/show/hide_name_regexes,
// account_displayed_op_only and select, printed in tfprof's text layout ("node name | ..." then
// "_TFProfRoot (--/1.23ms, ...)" and the scopes indented two spaces a level). Qt-free.
#pragma once

#include "core/expected.h"
#include "profiler/profile_tables.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace tstudio::profiler {

/// The options, with ProfileOptionBuilder's defaults.
struct TfprofOptions {
    int maxDepth = 100;
    std::int64_t minBytes = 0;
    std::int64_t minPeakBytes = 0;
    std::int64_t minResidualBytes = 0;
    std::int64_t minOutputBytes = 0;
    std::int64_t minMicros = 0;
    std::int64_t minAcceleratorMicros = 0;
    std::int64_t minCpuMicros = 0;
    std::int64_t minParams = 0;
    std::int64_t minFloatOps = 0;
    std::int64_t minOccurrence = 0;
    /// name, bytes, peak_bytes, residual_bytes, output_bytes, micros, accelerator_micros,
    /// cpu_micros, params, float_ops or occurrence (all but name: largest first).
    std::string orderBy = "name";
    /// Regexes are matched against the whole name (or op type), as RE2::FullMatch.
    std::vector<std::string> accountTypeRegexes{".*"};
    std::vector<std::string> startNameRegexes{".*"};
    std::vector<std::string> trimNameRegexes;
    std::vector<std::string> showNameRegexes{".*"};
    std::vector<std::string> hideNameRegexes;
    /// Totals count only what is shown (else every accounted node below, shown or not).
    bool accountDisplayedOpOnly = false;
    /// bytes, peak_bytes, residual_bytes, output_bytes, micros, accelerator_micros, cpu_micros,
    /// params, float_ops, occurrence, device, op_types.
    std::set<std::string> select{"micros"};
};

/// Reads a comma-separated list as tfprof's command line does ("a.*,b" -> {"a.*", "b"}).
std::vector<std::string> splitTfprofList(const std::string& text);

/// Checks `options`: InvalidArgument naming an unknown select or order_by value, a bad regex, or a
/// select tfprof has that this view cannot show (tensor_value, input_shapes).
Status checkTfprofOptions(const TfprofOptions& options);

/// The scope view of `scopes` (a ProfileView::ByScope table) under `options`, as tfprof prints it:
/// the legend line, then one line per shown node. A node's cells are "self/total" ("--/total" for
/// one not accounted); times in tfprof's format on whole microseconds (each node's time rounded
/// down, as tfprof's micros), bytes and counts as tfprof formats them.
/// Rules, as tfprof's: only nodes whose op type matches account_type_regexes (and the scopes above
/// them) are accounted; start_name_regexes pick the first matching nodes down each branch as the
/// roots; a node is shown when its totals reach every min_*, it is at most max_depth below the root,
/// its name matches show_name_regexes and none of hide_name_regexes; the children of a node that
/// matches trim_name_regexes are neither shown nor expanded; a hidden node's shown descendants take
/// its place; siblings are ordered by order_by.
Expected<std::string> formatTfprofScopeView(const ProfileTable& scopes, const TfprofOptions& options);

} // namespace tstudio::profiler
