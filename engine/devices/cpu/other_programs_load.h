// coresLeftByOtherPrograms: how many of this process's cores other programs leave it, measured from
// the kernel's per-core busy time, so that intra-op loops use no more threads than there are cores
// to run them on.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tstudio {

/// The cores this process may run on (its affinity) that other programs left idle over the last
/// tenth of a second or so, rounded to the nearest whole core; at least 1, at most the affinity's
/// count. "Other programs" is every core's busy time (/proc/stat) less this process's own CPU time
/// (getrusage): a compiler, a browser or another training process counts, this process's GUI,
/// input pipeline and intra-op threads do not. Programs running at a lower priority (a positive
/// nice value) than this process are not counted: the scheduler gives them little of a core we
/// want. Measured at most every 100 ms by whichever caller comes first (reading /proc/stat takes
/// tens of microseconds); between measurements the last answer is returned at the cost of a clock
/// read. Where the system cannot say (no /proc/stat), every core of the affinity.
int coresLeftByOtherPrograms();

/// One reading of /proc/stat for the cores in `cpus`: their busy time (user, system, irq, softirq,
/// plus nice when `countNice`) in clock ticks (USER_HZ), and false when a core's line is missing
/// or malformed. Guest time is already inside user; idle, iowait and steal are not busy.
struct CoreTimes {
    std::uint64_t busyTicks = 0;
    bool ok = false;
};
CoreTimes parseProcStat(std::string_view text, const std::vector<int>& cpus, bool countNice);

/// The whole cores left of `cores` when other programs keep `otherBusyCores` busy (a core's worth
/// = 1.0): cores - otherBusyCores rounded to nearest, clamped to [1, cores].
int coresLeft(int cores, double otherBusyCores);

} // namespace tstudio
