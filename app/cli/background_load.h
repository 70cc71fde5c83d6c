// BackgroundLoad: busy processes pinned to cores, the "another program keeps a core busy" condition
// that `tstudio bench --background-load N` measures under.
#pragma once

#include "core/expected.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace tstudio::cli {

/// N child processes, each spinning on one core (the machine's last N cores, one each), from
/// start() until destruction, when they are killed and reaped. A child also dies with its parent
/// (PR_SET_PDEATHSIG), so a benchmark that is killed leaves no spinner behind. The children are
/// separate programs, as a compiler or a browser beside the IDE would be: they compete for the cores
/// with the scheduler's usual fairness, not with the benchmark's own threads' priorities.
class BackgroundLoad {
public:
    BackgroundLoad() = default;
    ~BackgroundLoad();
    BackgroundLoad(BackgroundLoad&& other) noexcept;
    BackgroundLoad& operator=(BackgroundLoad&& other) noexcept;
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;

    /// Starts `processes` spinners (0: none). InvalidArgument when it is negative or more than
    /// the cores this process may run on; Internal when a process cannot be started or pinned.
    static Expected<BackgroundLoad> start(int processes);

    /// "2 busy processes on cores 2, 3" (or "none").
    std::string describe() const;

private:
    void stop();

    std::vector<pid_t> m_children;
    std::vector<int> m_cores;
};

} // namespace tstudio::cli
