// coresLeftByOtherPrograms: /proc/stat's busy ticks of our cores, less our own CPU time, over the
// interval between two readings.
#include "devices/cpu/other_programs_load.h"

#include "core/affinity_cores.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace tstudio {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kInterval = std::chrono::milliseconds(100);

/// The next whitespace-separated unsigned number of `text` from `pos`; false at the end of the line.
bool nextNumber(std::string_view text, std::size_t& pos, std::uint64_t& value)
{
    while (pos < text.size() && text[pos] == ' ')
        ++pos;
    if (pos >= text.size() || text[pos] == '\n')
        return false;
    const char* first = text.data() + pos;
    auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec != std::errc())
        return false;
    pos += static_cast<std::size_t>(end - first);
    return true;
}

#if defined(__linux__)

struct Sample {
    Clock::time_point when;
    std::uint64_t busyTicks = 0;
    double ownSeconds = 0; ///< this process's user + system time
};

class OtherLoad {
public:
    OtherLoad()
    {
        m_cpus = affinityCores();
        const long ticks = sysconf(_SC_CLK_TCK);
        m_ticksPerSecond = ticks > 0 ? static_cast<double>(ticks) : 100.0;
        m_left.store(static_cast<int>(std::max<std::size_t>(m_cpus.size(), 1)), std::memory_order_relaxed);
    }

    int left()
    {
        const Clock::time_point now = Clock::now();
        if (now.time_since_epoch().count() >= m_next.load(std::memory_order_relaxed) && !m_cpus.empty()) {
            std::unique_lock<std::mutex> lock(m_mutex, std::try_to_lock);
            if (lock.owns_lock() && now.time_since_epoch().count() >= m_next.load(std::memory_order_relaxed)) {
                m_next.store((now + kInterval).time_since_epoch().count(), std::memory_order_relaxed);
                measure(now);
            }
        }
        return m_left.load(std::memory_order_relaxed);
    }

private:
    /// Called under m_mutex.
    void measure(Clock::time_point now)
    {
        // Programs niced below us are only counted when we are niced ourselves (our own time is
        // then in the same column as theirs).
        errno = 0;
        const int ourNice = getpriority(PRIO_PROCESS, 0);
        const bool countNice = errno == 0 && ourNice > 0;
        std::FILE* file = std::fopen("/proc/stat", "re");
        if (!file)
            return;
        char buffer[16384];
        const std::size_t size = std::fread(buffer, 1, sizeof(buffer), file);
        std::fclose(file);
        const CoreTimes times = parseProcStat(std::string_view(buffer, size), m_cpus, countNice);
        rusage usage{};
        if (!times.ok || getrusage(RUSAGE_SELF, &usage) != 0)
            return;
        const Sample sample{now, times.busyTicks,
                            static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                                static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6};
        if (m_haveLast && sample.busyTicks >= m_last.busyTicks) {
            const double wall = std::chrono::duration<double>(sample.when - m_last.when).count();
            const double busy = static_cast<double>(sample.busyTicks - m_last.busyTicks) / m_ticksPerSecond;
            const double own = std::max(0.0, sample.ownSeconds - m_last.ownSeconds);
            if (wall > 0)
                m_left.store(coresLeft(static_cast<int>(m_cpus.size()), std::max(0.0, busy - own) / wall),
                             std::memory_order_relaxed);
        }
        m_last = sample;
        m_haveLast = true;
    }

    std::vector<int> m_cpus;
    double m_ticksPerSecond = 100.0;
    std::atomic<int> m_left{1};
    std::atomic<Clock::rep> m_next{0};
    std::mutex m_mutex;
    Sample m_last;         ///< guarded by m_mutex
    bool m_haveLast = false; ///< guarded by m_mutex
};

#endif

} // namespace

CoreTimes parseProcStat(std::string_view text, const std::vector<int>& cpus, bool countNice)
{
    CoreTimes out;
    std::size_t found = 0;
    for (std::size_t line = 0; line < text.size();) {
        std::size_t end = text.find('\n', line);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view row = text.substr(line, end - line);
        line = end + 1;
        if (row.size() < 4 || row.substr(0, 3) != "cpu" || row[3] < '0' || row[3] > '9')
            continue;
        int cpu = -1;
        const auto [after, ec] = std::from_chars(row.data() + 3, row.data() + row.size(), cpu);
        if (ec != std::errc() || std::find(cpus.begin(), cpus.end(), cpu) == cpus.end())
            continue;
        // user nice system idle iowait irq softirq steal [guest guest_nice]
        std::uint64_t field[7] = {};
        std::size_t pos = static_cast<std::size_t>(after - row.data());
        for (std::uint64_t& f : field)
            if (!nextNumber(row, pos, f))
                return out;
        out.busyTicks += field[0] + field[2] + field[5] + field[6] + (countNice ? field[1] : 0);
        ++found;
    }
    out.ok = found == cpus.size() && found > 0;
    return out;
}

int coresLeft(int cores, double otherBusyCores)
{
    const double left = std::floor(static_cast<double>(cores) - otherBusyCores + 0.5);
    return static_cast<int>(std::clamp(left, 1.0, static_cast<double>(std::max(cores, 1))));
}

int coresLeftByOtherPrograms()
{
#if defined(__linux__)
    static OtherLoad load;
    return load.left();
#else
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#endif
}

} // namespace tstudio
