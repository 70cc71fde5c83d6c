// runProfilerBench: open time and frame rate of the profiler on a trace file.
#include "profiler_bench.h"

#include "event_wait.h"

#include "profiler/profile_tables_view.h"
#include "profiler/profiler_view.h"
#include "profiler/timeline_view.h"
#include "registries/default_registries.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <limits>

namespace tstudio {

int runProfilerBench(const QString& trace)
{
    auto registries = makeDefaultRegistries();
    if (!registries) {
        std::fprintf(stderr, "tensorstudio: %s\n", registries.error().toString().c_str());
        return 1;
    }
    profiler::ProfilerView view(&(*registries)->ops);
    view.resize(1600, 900);
    view.show();
    QElapsedTimer clock;
    clock.start();
    bool done = false;
    QObject::connect(&view, &profiler::ProfilerView::loaded, &view, [&done] { done = true; });
    view.openFile(trace);
    processEventsUntil([&done] { return done; }, 600000);
    if (!done || !view.trace()) {
        std::fprintf(stderr, "tensorstudio: %s\n", done ? qPrintable(view.errorText()) : "the trace did not load in 10 minutes");
        return 1;
    }
    const double loaded = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    view.repaint(); // the timeline's first frame, whole trace in view
    const double painted = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    processEventsUntil([&view] { return !view.tables()->isBusy(); }, std::numeric_limits<int>::max());
    const double tables = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::printf("trace: %zu events, %zu steps, %zu lanes\n", view.trace()->events.size(), view.trace()->steps.size(),
                view.trace()->lanes.size());
    std::printf("opened (read, indexed, first timeline frame painted): %.0f ms (loaded %.0f ms)\n", painted, loaded);
    std::printf("tables built: %.0f ms after opening started\n", tables);
    const auto frames = view.timeline()->benchFrames(240);
    std::printf("pan/zoom frames at 1600x900: median %.2f ms, p95 %.2f ms, max %.2f ms (%.0f fps at the median, "
                "%.0f fps at p95)\n",
                frames.medianMs, frames.p95Ms, frames.maxMs, 1000.0 / frames.medianMs, 1000.0 / frames.p95Ms);
    return 0;
}

} // namespace tstudio
