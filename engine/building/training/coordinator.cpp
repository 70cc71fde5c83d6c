// Coordinator: stop requests, the first reported error, and joining threads with a grace period.
#include "training/coordinator.h"

#include <algorithm>
#include <chrono>

namespace tstudio::training {

Coordinator::Coordinator(std::vector<StatusCode> cleanStopCodes) : m_cleanStopCodes(std::move(cleanStopCodes)) {}

Coordinator::~Coordinator()
{
    requestStop();
    joinAll();
}

bool Coordinator::isClean(const Status& status) const
{
    return std::find(m_cleanStopCodes.begin(), m_cleanStopCodes.end(), status.code()) != m_cleanStopCodes.end();
}

void Coordinator::requestStop(const Status& error)
{
    std::lock_guard lock(m_mutex);
    if (m_stop)
        return;
    if (!error.isOk() && !isClean(error) && m_exception.isOk())
        m_exception = error;
    m_stop = true;
    m_changed.notify_all();
}

bool Coordinator::shouldStop() const
{
    std::lock_guard lock(m_mutex);
    return m_stop;
}

bool Coordinator::waitForStop(std::optional<double> timeoutSecs) const
{
    std::unique_lock lock(m_mutex);
    if (!timeoutSecs) {
        m_changed.wait(lock, [this] { return m_stop; });
        return true;
    }
    return m_changed.wait_for(lock, std::chrono::duration<double>(*timeoutSecs), [this] { return m_stop; });
}

void Coordinator::clearStop()
{
    std::lock_guard lock(m_mutex);
    m_stop = false;
    m_exception = Status::ok();
}

Status Coordinator::requestedException() const
{
    std::lock_guard lock(m_mutex);
    return m_exception;
}

void Coordinator::startThread(std::string name, std::function<void()> body)
{
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([this, done, body = std::move(body)] {
        body();
        std::lock_guard lock(m_mutex);
        done->store(true);
        m_changed.notify_all();
    });
    std::lock_guard lock(m_mutex);
    m_workers.push_back(Worker{std::move(name), std::move(thread), std::move(done)});
}

bool Coordinator::anyRunning() const
{
    return std::any_of(m_workers.begin(), m_workers.end(), [](const Worker& w) { return !w.done->load(); });
}

Status Coordinator::join(double stopGracePeriodSecs, bool ignoreLiveThreads)
{
    std::vector<Worker> finished;
    std::string stragglers;
    Status exception;
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_stop || !anyRunning(); });
        const auto grace = std::chrono::duration<double>(std::max(0.0, stopGracePeriodSecs));
        m_changed.wait_for(lock, grace, [this] { return !anyRunning(); });
        std::vector<Worker> running;
        for (Worker& worker : m_workers) {
            if (worker.done->load()) {
                finished.push_back(std::move(worker));
            } else {
                stragglers += (stragglers.empty() ? "" : " ") + worker.name;
                running.push_back(std::move(worker));
            }
        }
        m_workers = std::move(running);
        exception = m_exception;
    }
    for (Worker& worker : finished)
        worker.thread.join();
    if (!exception.isOk())
        return exception;
    if (!stragglers.empty() && !ignoreLiveThreads)
        return internalError("Coordinator stopped with threads still running: " + stragglers);
    return Status::ok();
}

void Coordinator::joinAll()
{
    std::vector<Worker> workers;
    {
        std::lock_guard lock(m_mutex);
        workers = std::move(m_workers);
        m_workers.clear();
    }
    for (Worker& worker : workers)
        worker.thread.join();
}

std::size_t Coordinator::liveThreads() const
{
    std::lock_guard lock(m_mutex);
    return m_workers.size();
}

} // namespace tstudio::training
