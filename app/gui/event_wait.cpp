// processEventsUntil: QEventLoop's blocking wait, woken by a timer.
#include "event_wait.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

namespace tstudio {

bool processEventsUntil(const std::function<bool()>& done, int milliseconds)
{
    QElapsedTimer clock;
    clock.start();
    QTimer wake;
    wake.start(20);
    while (!done() && !clock.hasExpired(milliseconds))
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    return done();
}

} // namespace tstudio
