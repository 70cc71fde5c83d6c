// The programs' allocator: tensorstudio and tstudio run on jemalloc with their heap on transparent huge
// pages (app/heap_config.cpp), unless the build left jemalloc out (sanitizers, fuzzing, -DTSTUDIO_JEMALLOC=OFF).
#include "process_run.h"

#include <QTest>

class TestHeapConfig : public QObject {
    Q_OBJECT

private slots:
    void heapIsOnHugePages_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("tensorstudio") << QStringLiteral(TSTUDIO_GUI_EXE);
        QTest::newRow("tstudio") << QStringLiteral(TSTUDIO_TSTUDIO_EXE);
    }

    void heapIsOnHugePages()
    {
#if !TSTUDIO_PROGRAMS_JEMALLOC
        QSKIP("this build's programs do not link jemalloc (TSTUDIO_JEMALLOC off, or a sanitizer or fuzz build)");
#else
        QFETCH(QString, program);
        // jemalloc prints its options at exit when asked; the program's own settings come first and the
        // environment's "stats_print" adds to them without replacing them.
        qputenv("MALLOC_CONF", "stats_print:true");
        qputenv("QT_QPA_PLATFORM", "offscreen");
        const auto run = tstudio::testing::runProcess(program, {QStringLiteral("--help")}, 60000);
        qunsetenv("MALLOC_CONF");
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains(QStringLiteral("jemalloc statistics")), qPrintable(run.err.left(2000)));
        QVERIFY2(run.err.contains(QStringLiteral("opt.thp: \"always\"")), qPrintable(run.err.left(4000)));
        QVERIFY2(run.err.contains(QStringLiteral("opt.metadata_thp: \"always\"")), qPrintable(run.err.left(4000)));
#endif
    }
};

QTEST_GUILESS_MAIN(TestHeapConfig)
#include "test_heap_config.moc"
