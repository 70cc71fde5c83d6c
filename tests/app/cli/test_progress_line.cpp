// Tests the progress line of `tstudio train`: bar fill, resumed runs, ETA and missing figures.
#include "../../../app/cli/progress_line.h"

#include <QTest>
#include <cmath>
#include <limits>

using namespace tstudio::cli;

class TestProgressLine : public QObject {
    Q_OBJECT
private slots:
    void halfway()
    {
        ProgressSample s;
        s.step = 1500;
        s.lastStep = 3000;
        s.loss = 0.23456;
        s.stepsPerSecond = 50.0;
        QCOMPARE(QString::fromStdString(formatProgress(s, 10)),
                 QStringLiteral("[#####-----]  1500/3000  loss 0.2346  50.0 steps/s  ETA 0:30"));
    }
    void classifierLineHasItsAccuracy()
    {
        ProgressSample s;
        s.step = 20;
        s.lastStep = 100;
        s.loss = 0.33569;
        s.accuracy = 0.92;
        s.stepsPerSecond = 10.0;
        QCOMPARE(QString::fromStdString(formatProgress(s, 0)),
                 QStringLiteral("20/100  loss 0.3357  accuracy 0.92  10.0 steps/s  ETA 0:08"));
    }
    void resumedRunCountsFromItsFirstStep()
    {
        // Resumed at 1000 of 2000: 1500 is half of this run's work, and 500 steps remain.
        ProgressSample s;
        s.step = 1500;
        s.firstStep = 1000;
        s.lastStep = 2000;
        s.stepsPerSecond = 100.0;
        QCOMPARE(QString::fromStdString(formatProgress(s, 4)), QStringLiteral("[##--]  1500/2000  100.0 steps/s  ETA 0:05"));
    }
    void unknownSpeedHasNoEta()
    {
        ProgressSample s;
        s.lastStep = 10;
        s.loss = std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(QString::fromStdString(formatProgress(s, 0)), QStringLiteral("0/10  loss nan  0.0 steps/s  ETA --:--"));
    }
    void finishedRunHasAFullBar()
    {
        ProgressSample s;
        s.step = 7;
        s.firstStep = 7;
        s.lastStep = 7;
        s.stepsPerSecond = 3.0;
        QCOMPARE(QString::fromStdString(formatProgress(s, 3)), QStringLiteral("[###]  7/7  3.0 steps/s  ETA 0:00"));
    }
    void durations()
    {
        QCOMPARE(QString::fromStdString(formatDuration(59.6)), QStringLiteral("1:00"));
        QCOMPARE(QString::fromStdString(formatDuration(3725)), QStringLiteral("1:02:05"));
        QCOMPARE(QString::fromStdString(formatDuration(std::numeric_limits<double>::infinity())), QStringLiteral("--:--"));
    }
};

QTEST_GUILESS_MAIN(TestProgressLine)
#include "test_progress_line.moc"
