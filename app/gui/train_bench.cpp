// `tensorstudio --bench-train`: tstudio train as a child process, the panel's runs in this one.
#include "train_bench.h"

#include "dashboard_bench.h"
#include "core/affinity_cores.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace tstudio {
namespace {

/// `tstudio train PROJECT --steps N --threads T` into a fresh log directory: its steps per second,
/// or a negative number after printing why not.
double trainWithTstudio(const QString& tstudio, const QString& project, int steps, const QString& dataDir, int threads)
{
    QTemporaryDir logdir;
    QStringList args{QStringLiteral("train"), project, QStringLiteral("--steps"), QString::number(steps),
                     QStringLiteral("--logdir"), logdir.filePath(QStringLiteral("run")), QStringLiteral("--threads"),
                     QString::number(threads)};
    if (!dataDir.isEmpty())
        args << QStringLiteral("--set") << QStringLiteral("data.dir=") + dataDir;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(tstudio, args);
    if (!process.waitForStarted(60000) || !process.waitForFinished(3600000)) {
        std::fprintf(stderr, "tensorstudio: %s did not run: %s\n", qPrintable(tstudio), qPrintable(process.errorString()));
        return -1;
    }
    const QString output = QString::fromUtf8(process.readAll());
    static const QRegularExpression rate(QStringLiteral(R"(\(([0-9.]+) steps/s\))"));
    const QRegularExpressionMatch m = rate.match(output);
    if (process.exitCode() != 0 || !m.hasMatch()) {
        std::fprintf(stderr, "tensorstudio: tstudio train failed (exit code %d):\n%s", process.exitCode(),
                     qPrintable(output));
        return -1;
    }
    return m.captured(1).toDouble();
}

double mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

} // namespace

int runTrainBench(const QString& projectArgument, int steps, const QString& dataDir)
{
    // Both ways train the same file (an example's name is resolved here, as the panel needs a path).
    const QString project = benchProjectPath(projectArgument);
    const QString tstudio = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("tstudio"));
    if (!QFileInfo(tstudio).isExecutable()) {
        std::fprintf(stderr, "tensorstudio: --bench-train needs tstudio beside this program (%s)\n", qPrintable(tstudio));
        return 1;
    }
    const int hardware = schedulableCores();
    // 0: the panel's default, every core or one fewer as the run measures (TrainRunOptions::adaptThreads).
    std::vector<int> panelThreads{0, hardware};
    if (hardware > 1)
        panelThreads.push_back(hardware - 1);
    const auto label = [](int threads) {
        return threads == 0 ? std::string("automatic threads (the default)")
                            : std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    };
    std::printf("bench-train: %s, %d steps per run, 2 rounds; tstudio train with %d intra-op thread%s, the Training panel "
                "(dashboard following) with automatic threads, %d%s\n",
                qPrintable(projectArgument), steps, hardware, hardware == 1 ? "" : "s", hardware,
                hardware > 1 ? (" and " + std::to_string(hardware - 1)).c_str() : "");
    std::vector<double> cli;
    std::map<int, std::vector<double>> panel;
    std::map<int, std::vector<double>> stalls;
    for (int round = 1; round <= 2; ++round) {
        const double rate = trainWithTstudio(tstudio, project, steps, dataDir, hardware);
        if (rate < 0)
            return 1;
        cli.push_back(rate);
        std::printf("  round %d  tstudio train, %d thread%s: %.1f steps/s\n", round, hardware, hardware == 1 ? "" : "s",
                    rate);
        std::fflush(stdout);
        for (int threads : panelThreads) {
            auto run = trainInPanel(project, steps, dataDir, threads);
            if (!run) {
                std::fprintf(stderr, "tensorstudio: %s\n", run.error().message().c_str());
                return 1;
            }
            panel[threads].push_back(run->stepsPerSecond);
            stalls[threads].insert(stalls[threads].end(), run->stalls.begin(), run->stalls.end());
            std::printf("  round %d  Training panel, %s: %.1f steps/s (%d dashboard updates in %.1f s)\n", round,
                        label(threads).c_str(), run->stepsPerSecond, run->dashboardUpdates, run->seconds);
            std::fflush(stdout);
        }
    }
    std::printf("tstudio train: %.1f steps/s (mean of 2)\n", mean(cli));
    for (int threads : panelThreads) {
        const double rate = mean(panel[threads]);
        std::printf("Training panel, %s: %.1f steps/s, %.0f%% of tstudio train; GUI stalls p99 %.1f ms, max %.1f "
                    "ms\n",
                    label(threads).c_str(), rate, mean(cli) > 0 ? 100.0 * rate / mean(cli) : 0.0,
                    stallPercentile(stalls[threads], 0.99),
                    stalls[threads].empty() ? 0.0 : *std::max_element(stalls[threads].begin(), stalls[threads].end()));
    }
    return 0;
}

} // namespace tstudio
