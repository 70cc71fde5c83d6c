// pprof output (profiler/pprof_profile.h) of a scope table the test makes: the Profile's string
// table, sample types and comment as tfprof writes them, one sample per accounted graph node with
// its scopes as the stack (leaf first), its values and its "graph node:" label; each select's unit;
// account_type_regexes; refused selects; the gzip file; and, where Go's pprof is installed, the
// file read by `go tool pprof`.
#include "profiler/pprof_profile.h"
#include "proto/pprof_profile.pb.h"

#include "profile_scope_table.h"
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <QtTest>

#include <zlib.h>

#include <fstream>
#include <sstream>

using namespace tstudio;
using namespace tstudio::profiler;

namespace {

profiler::ProfileTable table()
{
    return testing::scopeTable();
}

perftools::profiles::Profile parse(const std::string& bytes)
{
    perftools::profiles::Profile p;
    if (!p.ParseFromString(bytes))
        qWarning("the profile does not parse");
    return p;
}

const std::string& str(const perftools::profiles::Profile& p, std::int64_t index)
{
    return p.string_table(static_cast<int>(index));
}

/// The function names of a sample's stack, leaf first.
QStringList stack(const perftools::profiles::Profile& p, const perftools::profiles::Sample& s)
{
    QStringList names;
    for (std::uint64_t id : s.location_id())
        for (const auto& location : p.location())
            if (location.id() == id)
                for (const auto& function : p.function())
                    if (function.id() == location.line(0).function_id())
                        names << QString::fromStdString(str(p, function.name()));
    return names;
}

const perftools::profiles::Sample* sampleOf(const perftools::profiles::Profile& p, const std::string& node)
{
    for (const auto& s : p.sample())
        for (const auto& label : s.label())
            if (str(p, label.key()) == "graph node:" && str(p, label.str()) == node)
                return &s;
    return nullptr;
}

std::string gunzip(const std::string& bytes)
{
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return {};
    std::string out;
    char buffer[4096];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END ? out : std::string();
}

} // namespace

class TestPprofProfile : public QObject {
    Q_OBJECT
private slots:
    void samplesCarryTheScopeStack()
    {
        PprofOptions options;
        options.timeNanos = 1700000000000000000;
        options.durationNanos = 2000000;
        auto bytes = pprofProfile(table(), options);
        QVERIFY2(bytes, bytes ? "" : bytes.error().toString().c_str());
        const auto p = parse(*bytes);
        QCOMPARE(p.string_table(0), std::string());
        QCOMPARE(p.sample_type_size(), 2);
        QCOMPARE(str(p, p.sample_type(0).type()), std::string("count"));
        QCOMPARE(str(p, p.sample_type(0).unit()), std::string("count"));
        QCOMPARE(str(p, p.sample_type(1).type()), std::string("micros"));
        QCOMPARE(str(p, p.sample_type(1).unit()), std::string("microseconds"));
        QCOMPARE(p.comment_size(), 1);
        QCOMPARE(str(p, p.comment(0)), std::string("Sum of accelerator execution time and cpu execution time."));
        QCOMPARE(p.time_nanos(), options.timeNanos);
        QCOMPARE(p.duration_nanos(), options.durationNanos);
        // One sample per graph node; the pure scope "layer" is only a frame.
        QCOMPARE(p.sample_size(), 5);
        QVERIFY(!sampleOf(p, "layer"));
        const auto* matmul = sampleOf(p, "layer/MatMul");
        QVERIFY(matmul);
        QCOMPARE(stack(p, *matmul), QStringList({"layer/MatMul", "layer"}));
        QCOMPARE(matmul->value_size(), 2);
        QCOMPARE(matmul->value(0), std::int64_t(1));
        QCOMPARE(matmul->value(1), std::int64_t(1500));
        const auto* read = sampleOf(p, "layer/w/read");
        QVERIFY(read);
        QCOMPARE(stack(p, *read), QStringList({"layer/w/read", "layer/w", "layer"}));
        QCOMPARE(read->value(1), std::int64_t(1));
        const auto* loss = sampleOf(p, "loss");
        QVERIFY(loss);
        QCOMPARE(stack(p, *loss), QStringList({"loss"}));
        // Each frame once: locations and functions are shared by the samples through them.
        QCOMPARE(p.location_size(), 6);
        QCOMPARE(p.function_size(), 6);
        for (const auto& f : p.function())
            if (str(p, f.name()) == "layer/MatMul")
                QCOMPARE(str(p, f.system_name()), std::string("MatMul"));
        for (int i = 0; i < p.location_size(); ++i)
            QCOMPARE(p.location(i).id(), std::uint64_t(i + 1)); // nonzero ids
    }

    void eachSelectHasItsUnit()
    {
        const std::map<std::string, std::pair<std::string, std::int64_t>> expected = {
            {"bytes", {"bytes", 4000}},
            {"peak_bytes", {"bytes", 2000}},
            {"float_ops", {"count", 2000}},
            {"cpu_micros", {"microseconds", 1500}},
            {"accelerator_micros", {"microseconds", 0}},
            {"params", {"count", 0}},
        };
        for (const auto& [select, want] : expected) {
            PprofOptions options;
            options.select = select;
            auto bytes = pprofProfile(table(), options);
            QVERIFY2(bytes, select.c_str());
            const auto p = parse(*bytes);
            QCOMPARE(str(p, p.sample_type(1).type()), select);
            QCOMPARE(str(p, p.sample_type(1).unit()), want.first);
            QCOMPARE(sampleOf(p, "layer/MatMul")->value(1), want.second);
        }
        PprofOptions params;
        params.select = "params";
        const auto p = parse(*pprofProfile(table(), params));
        QCOMPARE(sampleOf(p, "layer/w")->value(1), std::int64_t(600));
        QCOMPARE(str(p, p.comment(0)), std::string("Model parameters."));
    }

    void accountTypesAndRefusals()
    {
        PprofOptions options;
        options.accountTypeRegexes = {"MatMul", "Ident.*"};
        const auto p = parse(*pprofProfile(table(), options));
        QCOMPARE(p.sample_size(), 2);
        QVERIFY(sampleOf(p, "layer/MatMul"));
        QVERIFY(sampleOf(p, "layer/w/read"));
        QVERIFY(!sampleOf(p, "layer/Relu"));

        options = {};
        options.select = "device";
        auto refused = pprofProfile(table(), options);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code(), StatusCode::kInvalidArgument);
        QVERIFY(refused.error().message().rfind("pprof doesn't support -select=device", 0) == 0);
        options = {};
        options.accountTypeRegexes = {"(unclosed"};
        QVERIFY(!pprofProfile(table(), options));
    }

    void theFileIsGzipAndGoPprofReadsIt()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/profile.pb.gz";
        QVERIFY(writePprofProfile(table(), {}, path).isOk());
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string file = ss.str();
        QVERIFY(file.size() > 2);
        QCOMPARE(static_cast<unsigned char>(file[0]), 0x1f);
        QCOMPARE(static_cast<unsigned char>(file[1]), 0x8b);
        const auto p = parse(gunzip(file));
        QCOMPARE(p.sample_size(), 5);

        const QString go = QStandardPaths::findExecutable("go");
        if (go.isEmpty())
            QSKIP("Go is not installed (Debian: golang-go): the file was not read by go tool pprof");
        QProcess pprof;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("HOME", tmp.path());
        env.insert("GOCACHE", tmp.path() + "/gocache");
        env.insert("GOFLAGS", "-mod=mod");
        pprof.setProcessEnvironment(env);
        pprof.start(go, {"tool", "pprof", "-traces", "-sample_index=1", QString::fromStdString(path)});
        QVERIFY(pprof.waitForFinished(120000));
        const QString out = QString::fromUtf8(pprof.readAllStandardOutput());
        QVERIFY2(pprof.exitCode() == 0, qPrintable(QString::fromUtf8(pprof.readAllStandardError())));
        // -traces prints each sample's value and its stack, leaf first.
        // (pprof picks the unit: 1500 microseconds print as 1.50ms.)
        QVERIFY2(out.contains(QRegularExpression("1\\.50ms\\s+layer/MatMul\\n\\s+layer\\n")), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression("1us\\s+layer/w/read\\n\\s+layer/w\\n\\s+layer\\n")), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression("7us\\s+loss\\n")), qPrintable(out));
        QVERIFY2(out.contains("graph node:"), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestPprofProfile)
#include "test_pprof_profile.moc"
