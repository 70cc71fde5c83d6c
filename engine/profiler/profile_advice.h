// profileAdvice: a tfprof-advisor-like list for a trace: the most expensive ops, NHWC convolutions on a GPU,
// device utilisation and the largest idle gaps between ops (Qt-free).
#pragma once

#include "core/expected.h"
#include "profiler/profile_trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::profiler {

enum class AdviceSeverity { Info, Warning };

struct AdviceItem {
    AdviceSeverity severity = AdviceSeverity::Info;
    /// Which check: "expensive_operations", "data_format", "device_utilization", "idle_gaps".
    std::string checker;
    /// One English sentence (engine style, like TensorFlow's own advice).
    std::string text;
    /// The nodes the item is about, most relevant first (for jumping to the graph).
    std::vector<std::string> nodes;
};

struct ProfileAdviceOptions {
    /// -1: all steps (times per step averaged); else one step's index.
    int step = -1;
    /// For data_format attrs; without it a convolution's format is its default, NHWC.
    const tensorflow::GraphDef* graph = nullptr;
    /// Nodes listed by time, each with its share of all op time.
    int topOperations = 5;
    /// Busy share of the step below which a device is reported as under-used (tfprof's 0.5).
    double lowUtilization = 0.5;
    /// Gaps listed, largest first, and the smallest worth listing.
    int maxGaps = 5;
    std::int64_t minGapNs = 10'000;
    /// A gap at least this share of its step is a warning, a smaller one information.
    double gapWarningShare = 0.1;
};

/// The advice, in this order: expensive operations (information; a warning for one op above half the
/// time), data_format (one warning listing the NHWC Conv2D, DepthwiseConv2dNative and their backprops that
/// ran on a GPU: TensorFlow advises NCHW there), one utilisation item per device that ran ops (busy time =
/// the union of its lanes' events, over the steps' spans; a warning below lowUtilization), then the
/// largest gaps between consecutive ops of a device within a step. InvalidArgument for a step the trace
/// does not have.
Expected<std::vector<AdviceItem>> profileAdvice(const ProfileTrace& trace, const ProfileAdviceOptions& options = {});

} // namespace tstudio::profiler
