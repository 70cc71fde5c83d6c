// runChild: fork, exec with stdout and stderr on one pipe, read it to the end, reap.
#include "child_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tstudio::cli {
namespace {

/// The environment for the child: ours with `extra` set (each "NAME=value" replaces NAME).
std::vector<std::string> childEnvironment(const std::vector<std::string>& extra)
{
    std::vector<std::string> env;
    auto nameOf = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        bool replaced = false;
        for (const std::string& x : extra)
            replaced = replaced || nameOf(x) == nameOf(entry);
        if (!replaced)
            env.push_back(entry);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

} // namespace

Expected<ChildResult> runChild(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                               double timeoutSeconds)
{
    if (argv.empty())
        return unexpected(invalidArgumentError("runChild: no program"));
    // Everything the child needs is made before fork (after it only async-signal-safe calls).
    std::vector<std::string> env = childEnvironment(environment);
    std::vector<char*> args, envp;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const std::string& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    // A pipe that reports exec's failure: closed by a successful exec (O_CLOEXEC), else it carries errno.
    int output[2], status[2];
    if (::pipe2(output, O_CLOEXEC) != 0)
        return unexpected(internalError(std::string("runChild: pipe: ") + std::strerror(errno)));
    if (::pipe2(status, O_CLOEXEC) != 0) {
        ::close(output[0]);
        ::close(output[1]);
        return unexpected(internalError(std::string("runChild: pipe: ") + std::strerror(errno)));
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {output[0], output[1], status[0], status[1]})
            ::close(fd);
        return unexpected(internalError(std::string("runChild: fork: ") + std::strerror(errno)));
    }
    if (pid == 0) {
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull >= 0)
            ::dup2(devNull, STDIN_FILENO);
        ::dup2(output[1], STDOUT_FILENO);
        ::dup2(output[1], STDERR_FILENO);
        ::execvpe(args[0], args.data(), envp.data());
        const int error = errno;
        [[maybe_unused]] const ssize_t n = ::write(status[1], &error, sizeof error);
        ::_exit(127);
    }
    ::close(output[1]);
    ::close(status[1]);
    int execError = 0;
    const bool execFailed = ::read(status[0], &execError, sizeof execError) == static_cast<ssize_t>(sizeof execError);
    ::close(status[0]);

    ChildResult result;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    char buffer[4096];
    for (;;) {
        int waitMs = -1;
        if (timeoutSeconds > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                                    std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                ::kill(pid, SIGKILL);
                result.timedOut = true;
                break;
            }
            waitMs = static_cast<int>(left.count());
        }
        pollfd p{output[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, waitMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            continue; // the deadline is checked above
        const ssize_t n = ::read(output[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        result.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(output[0]);
    int wstatus = 0;
    while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (execFailed)
        return unexpected(notFoundError("cannot run '" + argv[0] + "': " + std::strerror(execError)));
    result.exitCode = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    return result;
}

} // namespace tstudio::cli
