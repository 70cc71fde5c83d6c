// runInBackground: QtConcurrent::run on Qt's global thread pool, with the hand-off from the calling
// thread to the pooled thread made visible to ThreadSanitizer.
#pragma once

#include <QFuture>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <type_traits>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define TSTUDIO_TSAN_HANDOFF 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSTUDIO_TSAN_HANDOFF 1
#endif
#endif
#ifdef TSTUDIO_TSAN_HANDOFF
#include <sanitizer/tsan_interface.h>
#endif

namespace tstudio {

namespace detail {

/// What the calling thread wrote before starting a task happens before the task runs: QThreadPool
/// gives the task to a pooled thread under its QMutex, inside libQt6Core, where ThreadSanitizer (our
/// code is compiled with it, Qt is not) does not see the synchronisation. Without this, every value
/// the caller prepared for the task (a cancel flag, a progress counter) is reported as a race. In
/// other builds the hand-off is an empty object and the calls do nothing.
class BackgroundHandOff {
public:
    BackgroundHandOff()
    {
#ifdef TSTUDIO_TSAN_HANDOFF
        __tsan_release(this);
#endif
    }
    void received() const
    {
#ifdef TSTUDIO_TSAN_HANDOFF
        __tsan_acquire(const_cast<BackgroundHandOff*>(this));
#endif
    }

private:
    char m_token = 0; // a distinct address per task
};

} // namespace detail

/// QtConcurrent::run(function) on the global pool: `function` takes no argument (capture what it
/// needs) and its result is the future's.
template <typename Function> auto runInBackground(Function function)
{
    auto handOff = std::make_shared<const detail::BackgroundHandOff>();
    return QtConcurrent::run([handOff = std::move(handOff), function = std::move(function)]() mutable {
        handOff->received();
        return function();
    });
}

/// QtConcurrent::run for a function that reports through a QPromise<T> (progress, several results,
/// cancellation): `function(promise)`.
template <typename T, typename Function> QFuture<T> runInBackgroundWithPromise(Function function)
{
    auto handOff = std::make_shared<const detail::BackgroundHandOff>();
    return QtConcurrent::run(
        [handOff = std::move(handOff), function = std::move(function)](QPromise<T>& promise) mutable {
            handOff->received();
            function(promise);
        });
}

} // namespace tstudio
