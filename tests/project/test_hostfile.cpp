// Open MPI hostfiles (project/hostfile.h): the syntax mpirun takes, the errors naming file, line and
// host, and the check of hosts and slots before a distributed run.
#include "project/distributed/hostfile.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tstudio;
using namespace tstudio::project;

class TestHostfile : public QObject {
    Q_OBJECT

private slots:
    void parsesOpenMpiSyntax()
    {
        auto h = parseHostfile("# the cluster\n"
                               "node1 slots=4 max_slots=8\n"
                               "\n"
                               "node2\t slots = 2   # two GPUs\n"
                               "10.0.0.3 max-slots=3\n"
                               "node4 cpu=6\n",
                               "hosts");
        QVERIFY2(h, h ? "" : h.error().toString().c_str());
        QCOMPARE(h->entries.size(), std::size_t(4));
        QCOMPARE(h->entries[0].host, std::string("node1"));
        QCOMPARE(h->entries[0].slotCount, 4);
        QCOMPARE(h->entries[0].maxSlotCount, std::optional<int>(8));
        QCOMPARE(h->entries[0].line, 2);
        QCOMPARE(h->entries[1].host, std::string("node2"));
        QCOMPARE(h->entries[1].slotCount, 2);
        QVERIFY(h->entries[1].slotsGiven);
        QCOMPARE(h->entries[1].line, 4);
        QCOMPARE(h->entries[2].slotCount, 1); // Open MPI's default
        QVERIFY(!h->entries[2].slotsGiven);
        QCOMPARE(h->entries[2].maxSlotCount, std::optional<int>(3));
        QCOMPARE(h->entries[3].slotCount, 6);
        QCOMPARE(h->totalSlots(), 13);
    }

    void syntaxErrorsNameFileAndLine()
    {
        auto error = [](const char* text) {
            auto h = parseHostfile(text, "hosts");
            return h ? std::string("parsed") : h.error().message();
        };
        QCOMPARE(error("node1 slotz=2\n"),
                 std::string("hosts:1: unknown field 'slotz=2' after host 'node1'; expected slots=N or max_slots=N"));
        QCOMPARE(error("node1\nnode2 slots=x\n"), std::string("hosts:2: slots='x' is not a positive integer"));
        QCOMPARE(error("node1 slots=0\n"), std::string("hosts:1: slots='0' is not a positive integer"));
        QCOMPARE(error("node1 slots=4 max_slots=2\n"),
                 std::string("hosts:1: max_slots=2 is below slots=4 for host 'node1'"));
        QCOMPARE(error("node1 garbage\n"), std::string("hosts:1: unknown field 'garbage' after host 'node1'; expected "
                                                       "slots=N or max_slots=N"));
        QCOMPARE(error("# nothing\n\n"), std::string("hosts: no hosts (every line is blank or a comment)"));
        QCOMPARE(error("slots=2\n"), std::string("hosts:1: expected a host name first, got 'slots=2'"));
    }

    void readsFiles()
    {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.path().toStdString() + "/hosts";
        auto missing = readHostfile(path);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
        QCOMPARE(missing.error().message(), "hostfile '" + path.string() + "' does not exist");
        std::ofstream(path) << "localhost slots=2\n";
        auto h = readHostfile(path);
        QVERIFY2(h, h ? "" : h.error().toString().c_str());
        QCOMPARE(h->path, path);
        QCOMPARE(h->totalSlots(), 2);
    }

    void checksHostsAndSlots()
    {
        auto h = parseHostfile("localhost slots=2\nno-such-host.invalid slots=1\n", "hosts");
        QVERIFY(h);
        HostfileCheckOptions options;
        options.ranks = 3;
        QVERIFY(checkHostfile(*h, options)
                    .message()
                    .starts_with("hostfile 'hosts' line 2: host 'no-such-host.invalid' does not resolve: "));
        QCOMPARE(checkHostfile(*h, options).code(), StatusCode::kNotFound);
        options.resolve = false;
        QVERIFY(checkHostfile(*h, options).isOk());
        options.ranks = 4;
        const Status tooMany = checkHostfile(*h, options);
        QCOMPARE(tooMany.code(), StatusCode::kResourceExhausted);
        QCOMPARE(tooMany.message(), std::string("hostfile 'hosts': 4 ranks but only 3 slots (localhost 2, "
                                                "no-such-host.invalid 1); pass --oversubscribe or add slots"));
        options.oversubscribe = true;
        QVERIFY(checkHostfile(*h, options).isOk());
        // Both problems at once, joined.
        options.oversubscribe = false;
        options.resolve = true;
        const Status both = checkHostfile(*h, options);
        QVERIFY2(both.message().find("does not resolve") != std::string::npos &&
                     both.message().find("; hostfile 'hosts': 4 ranks but only 3 slots") != std::string::npos,
                 both.message().c_str());
        // max_slots caps even an oversubscribed run.
        auto capped = parseHostfile("localhost slots=1 max_slots=2\n", "hosts");
        QVERIFY(capped);
        HostfileCheckOptions three;
        three.ranks = 3;
        three.oversubscribe = true;
        QCOMPARE(checkHostfile(*capped, three).message(),
                 std::string("hostfile 'hosts': 3 ranks but max_slots allow only 2"));
        QVERIFY(resolveHost("localhost").isOk());
        QVERIFY(resolveHost("127.0.0.1").isOk());
    }
};

QTEST_GUILESS_MAIN(TestHostfile)
#include "test_hostfile.moc"
