// Coordinator: tf.train.Coordinator, which lets a set of threads (queue runners) stop together and
// reports the first error any of them hit.
#pragma once

#include "core/status.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tstudio::training {

/// tf.train.Coordinator for threads it starts itself (startThread): requestStop() asks them to
/// stop, shouldStop() is what they poll, join() waits for them with a grace period and returns the
/// first error reported through requestStop(error).
///
/// Errors whose code is in `cleanStopCodes` (default OutOfRange, as TensorFlow's
/// clean_stop_exception_types) stop the coordinator without being reported; an error reported
/// after the stop was requested is ignored, as in TensorFlow. Thread-safe. The destructor requests
/// a stop and joins every thread, however long that takes: an owner whose threads may wait on a
/// Session closes it first (Session::close wakes every waiting kernel).
class Coordinator {
public:
    explicit Coordinator(std::vector<StatusCode> cleanStopCodes = {StatusCode::kOutOfRange});
    ~Coordinator();
    Coordinator(const Coordinator&) = delete;
    Coordinator& operator=(const Coordinator&) = delete;

    /// Asks every thread to stop; with an error (not a clean-stop one), records it unless the stop
    /// was already requested or an error is recorded.
    void requestStop(const Status& error = Status::ok());
    bool shouldStop() const;
    /// Waits until a stop is requested (true) or `timeoutSecs` pass (false; nullopt: no limit).
    bool waitForStop(std::optional<double> timeoutSecs = std::nullopt) const;
    /// Forgets the stop request and the recorded error (tf.train.Coordinator.clear_stop).
    void clearStop();
    /// The recorded error (OK when none).
    Status requestedException() const;

    /// Runs `body` on a new thread named `name` that join() waits for.
    void startThread(std::string name, std::function<void()> body);
    /// tf.train.Coordinator.join: waits until every thread has ended or a stop is requested, then
    /// up to `stopGracePeriodSecs` for the rest to end. Returns the recorded error; else, when
    /// threads are still running, Internal "Coordinator stopped with threads still running: a b"
    /// (TensorFlow's RuntimeError) unless `ignoreLiveThreads`. Ended threads are joined and
    /// forgotten; those still running stay for joinAll().
    Status join(double stopGracePeriodSecs = 120, bool ignoreLiveThreads = false);
    /// Joins every thread, without a time limit.
    void joinAll();
    /// The threads started and not yet joined.
    std::size_t liveThreads() const;

private:
    struct Worker {
        std::string name;
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    bool isClean(const Status& status) const;
    bool anyRunning() const; ///< m_mutex held

    const std::vector<StatusCode> m_cleanStopCodes;
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed; ///< a stop request or a thread's end
    bool m_stop = false;
    Status m_exception;
    std::vector<Worker> m_workers;
};

} // namespace tstudio::training
