// LooperThread: runs a function on a timer on a Coordinator's thread.
#include "training/looper_thread.h"

#include <chrono>

namespace tstudio::training {

void startLooperThread(Coordinator& coordinator, std::string name, std::optional<double> intervalSecs, LooperBody body)
{
    coordinator.startThread(std::move(name), [&coordinator, intervalSecs, body = std::move(body)] {
        auto fail = [&](const Status& s) {
            if (s.isOk())
                return false;
            coordinator.requestStop(s);
            return true;
        };
        if (body.startLoop && fail(body.startLoop()))
            return;
        if (!intervalSecs) {
            while (!coordinator.shouldStop())
                if (fail(body.runLoop()))
                    return;
        } else {
            using Clock = std::chrono::steady_clock;
            auto next = Clock::now();
            for (;;) {
                const double wait = std::chrono::duration<double>(next - Clock::now()).count();
                if (coordinator.waitForStop(wait > 0 ? wait : 0.0))
                    break;
                next += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*intervalSecs));
                if (fail(body.runLoop()))
                    return;
            }
        }
        if (body.stopLoop)
            body.stopLoop();
    });
}

} // namespace tstudio::training
