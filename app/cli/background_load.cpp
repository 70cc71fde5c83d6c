// BackgroundLoad: fork, pin the child to a core from the parent, let it spin until killed.
#include "background_load.h"

#include "core/affinity_cores.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tstudio::cli {

BackgroundLoad::~BackgroundLoad()
{
    stop();
}

BackgroundLoad::BackgroundLoad(BackgroundLoad&& other) noexcept
    : m_children(std::exchange(other.m_children, {})), m_cores(std::exchange(other.m_cores, {}))
{
}

BackgroundLoad& BackgroundLoad::operator=(BackgroundLoad&& other) noexcept
{
    if (this != &other) {
        stop();
        m_children = std::exchange(other.m_children, {});
        m_cores = std::exchange(other.m_cores, {});
    }
    return *this;
}

void BackgroundLoad::stop()
{
    for (pid_t child : m_children)
        kill(child, SIGKILL);
    for (pid_t child : m_children) {
        while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    m_children.clear();
    m_cores.clear();
}

Expected<BackgroundLoad> BackgroundLoad::start(int processes)
{
    BackgroundLoad load;
    if (processes == 0)
        return load;
    const std::vector<int> cores = affinityCores();
    if (cores.empty())
        return unexpected(
            internalError(std::string("--background-load: cannot read this process's cores: ") + std::strerror(errno)));
    if (processes < 0 || processes > static_cast<int>(cores.size()))
        return unexpected(invalidArgumentError("--background-load " + std::to_string(processes) + ": expected 0 to " +
                                    std::to_string(cores.size()) + " (the cores this process may run on)"));
    const pid_t parent = getpid();
    for (int i = 0; i < processes; ++i) {
        const int core = cores[cores.size() - 1 - static_cast<std::size_t>(i)];
        const pid_t child = fork();
        if (child < 0)
            return unexpected(
                internalError(std::string("--background-load: cannot start a process: ") + std::strerror(errno)));
        if (child == 0) {
            // The child: die with the parent (also if it died before this line), then spin.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            for (;;)
                asm volatile("" ::: "memory");
        }
        load.m_children.push_back(child);
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(core, &one);
        if (sched_setaffinity(child, sizeof(one), &one) != 0)
            return unexpected(internalError("--background-load: cannot keep a busy process on core " +
                                            std::to_string(core) + ": " + std::strerror(errno)));
        load.m_cores.push_back(core);
    }
    return load;
}

std::string BackgroundLoad::describe() const
{
    if (m_children.empty())
        return "none";
    std::string text = std::to_string(m_children.size()) +
                       (m_children.size() == 1 ? " busy process on core " : " busy processes on cores ");
    for (std::size_t i = 0; i < m_cores.size(); ++i)
        text += (i > 0 ? ", " : "") + std::to_string(m_cores[i]);
    return text;
}

} // namespace tstudio::cli
