// The hooks of MonitoredTrainingSession: StopAtStepHook, NanTensorHook, LoggingTensorHook (and
// NumPy's printing), StepCounterHook, SummarySaverHook, ProfilerHook and its Chrome trace, the
// timer, and TensorFlow's argument errors.
#include "builder/tensor_proto_values.h"
#include "monitored_test_support.h"
#include "profiler/chrome_trace_json.h"
#include "profiler/trace_builder.h"
#include "profiler/trace_files.h"
#include "proto/summary.pb.h"
#include "training/checkpoint_saver_hook.h"
#include "training/logging_tensor_hook.h"
#include "training/nan_tensor_hook.h"
#include "training/profiler_hook.h"
#include "training/second_or_step_timer.h"
#include "training/step_counter_hook.h"
#include "training/stop_at_step_hook.h"
#include "training/summary_saver_hook.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;

namespace {

Tensor floats(const std::vector<float>& v, const TensorShape& shape)
{
    static CpuAllocator allocator;
    return *Tensor::fromVector<float>(allocator, shape, v);
}

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

class TestHooks : public QObject {
    Q_OBJECT

private slots:
    void timerFiresEveryNSteps()
    {
        auto t = SecondOrStepTimer::create(std::nullopt, 10);
        QVERIFY(t);
        QVERIFY(t->shouldTriggerForStep(3)); // never fired
        QVERIFY(!t->updateLastTriggeredStep(3));
        QVERIFY(!t->shouldTriggerForStep(3));
        QVERIFY(!t->shouldTriggerForStep(12));
        QVERIFY(t->shouldTriggerForStep(13));
        QCOMPARE(t->updateLastTriggeredStep(13)->second, std::int64_t(10));
        QCOMPARE(SecondOrStepTimer::create(1.0, 10).error().message(),
                 std::string("Can not provide both every_secs and every_steps."));
        QCOMPARE(SecondOrStepTimer::create(std::nullopt, std::nullopt).error().message(),
                 std::string("Either every_secs or every_steps should be provided."));
        QVERIFY(!SecondOrStepTimer::never().shouldTriggerForStep(0));
    }

    void argumentErrors()
    {
        QCOMPARE(StopAtStepHook::create(std::nullopt, std::nullopt).error().message(),
                 std::string("One of num_steps or last_step must be specified."));
        QCOMPARE(StopAtStepHook::create(1, 2).error().message(),
                 std::string("Only one of num_steps or last_step can be specified."));
        QCOMPARE(SummarySaverHook::create({.saveSteps = 1}).error().message(),
                 std::string("Exactly one of scaffold or summary_op must be provided."));
        StepCounterHookOptions sc;
        sc.everyNSecs = 1.0;
        QCOMPARE(StepCounterHook::create(sc).error().message(),
                 std::string("exactly one of every_n_steps and every_n_secs should be provided."));
        QCOMPARE(LoggingTensorHook::create({.tensors = {{"a", "a:0"}}}).error().message(),
                 std::string("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided."));
        QCOMPARE(LoggingTensorHook::create({.tensors = {{"a", "a:0"}}, .everyNIter = 0}).error().message(),
                 std::string("invalid every_n_iter=0."));
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto saver = Saver::create(*m->graph);
        QVERIFY2(saver, err(saver));
        CheckpointSaverHookOptions cs;
        cs.checkpointDir = "unused";
        cs.saveSteps = 1;
        cs.saver = *saver;
        cs.scaffold = std::make_shared<Scaffold>();
        QCOMPARE(CheckpointSaverHook::create(cs).error().message(),
                 std::string("You cannot provide both saver and scaffold."));
    }

    void hooksNeedAGlobalStep()
    {
        QTemporaryDir tmp;
        GraphBuilder g(TrainingRegistries::get().ops);
        QVERIFY(getVariable(g, "v", TensorShape({}), tensorflow::DT_FLOAT, Initializer::constant(1.0)));
        // Without a directory TensorFlow adds no hook of its own: the session is made.
        QVERIFY(MonitoredTrainingSession::create(g, sessionOptions("")));
        auto o = sessionOptions(tmp.path().toStdString());
        auto s = MonitoredTrainingSession::create(g, o); // the default StepCounterHook comes first
        QVERIFY(!s);
        QCOMPARE(s.error().message(), std::string("Global step should be created to use StepCounterHook."));
        auto stop = StopAtStepHook::create(1, std::nullopt);
        o = sessionOptions("");
        o.hooks = {*stop};
        s = MonitoredTrainingSession::create(g, o);
        QCOMPARE(s.error().message(), std::string("Global step should be created to use StopAtStepHook."));
    }

    void stopAtStepStopsExactlyAtLastStep()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto stop = StopAtStepHook::create(std::nullopt, 7);
        auto s = plainSession(*m, {*stop});
        QVERIFY2(s, err(s));
        int runs = 0;
        while (!(*s)->shouldStop() && runs < 100) {
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
            ++runs;
        }
        QCOMPARE(runs, 7);
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{7});
    }

    void nanLossFailsNamingTensorAndStep()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto s = plainSession(*m, {std::make_shared<NanTensorHook>("loss:0")});
        QVERIFY2(s, err(s));
        for (int i = 0; i < 4; ++i)
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        auto r = (*s)->run({}, regressionFeeds(true), {m->train});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(r.error().message(), std::string("NaN loss during training: Model diverged with loss = NaN (tensor "
                                                  "'loss:0' at global step 5)."));
    }

    void nanLossWithoutFailingRequestsStop()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto s = plainSession(*m, {std::make_shared<NanTensorHook>("loss:0", false)});
        QVERIFY2(s, err(s));
        QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        QVERIFY(!(*s)->shouldStop());
        QVERIFY((*s)->run({}, regressionFeeds(true), {m->train}));
        QVERIFY((*s)->shouldStop());
    }

    void numpyPrinting()
    {
        // Expected strings printed by NumPy (str() with suppress=True) for the same float32 values.
        QCOMPARE(numpyString(floats({0.5f}, TensorShape({}))), std::string("0.5"));
        QCOMPARE(numpyString(floats({1.0f}, TensorShape({}))), std::string("1.0"));
        QCOMPARE(numpyString(floats({0.1f}, TensorShape({}))), std::string("0.1"));
        QCOMPARE(numpyString(floats({1e-5f}, TensorShape({}))), std::string("1e-05"));
        QCOMPARE(numpyString(floats({-2.5e17f}, TensorShape({}))), std::string("-2.5e+17"));
        QCOMPARE(numpyString(floats({1.0f, 2.5f, 3.0f}, TensorShape({3}))), std::string("[1.  2.5 3. ]"));
        QCOMPARE(numpyString(floats({1, 2, 3, 4}, TensorShape({2, 2}))), std::string("[[1. 2.]\n [3. 4.]]"));
        QCOMPARE(numpyString(floats({10.25f, -1.0f}, TensorShape({2}))), std::string("[10.25 -1.  ]"));
        QCOMPARE(numpyString(floats({0.123456789f}, TensorShape({1, 1}))), std::string("[[0.12345679]]"));
        QCOMPARE(numpyString(floats({1e-5f, 1.0f}, TensorShape({2}))), std::string("[0.00001 1.     ]"));
        static CpuAllocator allocator;
        QCOMPARE(numpyString(*Tensor::fromVector<std::int64_t>(allocator, TensorShape({2}), {1, 10})),
                 std::string("[ 1 10]"));
        QCOMPARE(numpyString(*Tensor::fromVector<std::int64_t>(allocator, TensorShape({}), {42})), std::string("42"));
    }

    void loggingTensorHookLines()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        std::vector<std::string> lines;
        LoggingTensorHookOptions lo;
        lo.tensors = {{"step", m->globalStep}, {"loss", m->loss}};
        lo.everyNIter = 2;
        lo.sink = [&](const std::string& line) { lines.push_back(line); };
        auto hook = LoggingTensorHook::create(lo);
        QVERIFY2(hook, err(hook));
        // At the end only: end() runs the tensors without feeds, so no loss (it needs y fed).
        LoggingTensorHookOptions eo;
        eo.tensors = {{"step", m->globalStep}, {"w", m->w}};
        eo.atEnd = true;
        eo.sink = lo.sink;
        auto atEnd = LoggingTensorHook::create(eo);
        QVERIFY2(atEnd, err(atEnd));
        auto s = plainSession(*m, {*hook, *atEnd});
        QVERIFY2(s, err(s));
        for (int i = 0; i < 5; ++i)
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        // Runs 0, 2 and 4 of the hook's own count; the loss of the first run (w = b = 0) is
        // mean(y^2) = 41. The step is the variable's snapshot, which aliases the variable: it may
        // show the increment of the same run (TensorFlow's hooks read a copy for that reason).
        QCOMPARE(lines.size(), std::size_t(3));
        QVERIFY2(QRegularExpression("^step = [01], loss = 41\\.0$").match(QString::fromStdString(lines[0])).hasMatch(),
                 lines[0].c_str());
        const QRegularExpression later("^step = \\d, loss = \\d+\\.\\d+ \\(\\d+\\.\\d{3} sec\\)$");
        QVERIFY2(later.match(QString::fromStdString(lines[1])).hasMatch(), lines[1].c_str());
        QVERIFY2(later.match(QString::fromStdString(lines[2])).hasMatch(), lines[2].c_str());
        QVERIFY((*s)->close().isOk());
        QCOMPARE(lines.size(), std::size_t(4));
        QVERIFY2(QRegularExpression("^step = 5, w = \\[\\[\\d\\.\\d+\\]\\]$")
                     .match(QString::fromStdString(lines[3]))
                     .hasMatch(),
                 lines[3].c_str());

        // A formatter replaces the line.
        auto m2 = buildRegression();
        std::vector<std::string> formatted;
        LoggingTensorHookOptions fo;
        fo.tensors = {{"loss", m2->loss}};
        fo.everyNIter = 1;
        fo.formatter = [](const std::map<std::string, Tensor>& v) { return "loss is " + numpyString(v.at("loss")); };
        fo.sink = [&](const std::string& line) { formatted.push_back(line); };
        auto s2 = plainSession(*m2, {*LoggingTensorHook::create(fo)});
        QVERIFY2(s2, err(s2));
        QVERIFY((*s2)->run({}, regressionFeeds(), {m2->train}));
        QCOMPARE(formatted, std::vector<std::string>{"loss is 41.0"});
    }

    void stepCounterWritesGlobalStepPerSec()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        double fakeNow = 1000.0;
        StepCounterHookOptions so;
        so.everyNSteps = 10;
        so.outputDir = dir;
        so.clock = [&] { return fakeNow += 2.0; }; // two seconds between firings: 10 steps -> 5/sec
        auto hook = StepCounterHook::create(so);
        QVERIFY2(hook, err(hook));
        auto s = plainSession(*m, {*hook});
        QVERIFY2(s, err(s));
        for (int i = 0; i < 25; ++i)
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        QVERIFY((*s)->close().isOk());
        std::vector<std::pair<std::int64_t, float>> rates;
        for (const tensorflow::Event& e : readEvents(dir))
            for (const auto& v : e.summary().value())
                if (v.tag() == "global_step/sec")
                    rates.emplace_back(e.step(), v.simple_value());
        // Fires for step 1 (starts the clock), then 11 and 21.
        QCOMPARE(rates, (std::vector<std::pair<std::int64_t, float>>{{11, 5.0f}, {21, 5.0f}}));
    }

    void summarySaverWritesTheSummaryTensor()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        tensorflow::Summary summary;
        auto* value = summary.add_value();
        value->set_tag("fixed");
        value->set_simple_value(1.5f);
        const std::string bytes = summary.SerializeAsString();
        auto proto = makeStringTensorProto(TensorShape({}), std::vector<std::string>{bytes});
        QVERIFY(ops::constant(*m->graph, *proto, "fixed_summary"));
        SummarySaverHookOptions so;
        so.saveSteps = 5;
        so.outputDir = dir;
        so.summaryOp = {"fixed_summary:0"};
        auto hook = SummarySaverHook::create(so);
        QVERIFY2(hook, err(hook));
        auto s = plainSession(*m, {*hook});
        QVERIFY2(s, err(s));
        for (int i = 0; i < 12; ++i)
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        QVERIFY((*s)->close().isOk());
        std::vector<std::int64_t> steps;
        int starts = 0;
        for (const tensorflow::Event& e : readEvents(dir)) {
            for (const auto& v : e.summary().value()) {
                QCOMPARE(v.tag(), std::string("fixed"));
                QCOMPARE(v.simple_value(), 1.5f);
                steps.push_back(e.step());
            }
            if (e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::START) {
                QCOMPARE(e.step(), std::int64_t(1));
                ++starts;
            }
        }
        QCOMPARE(starts, 1);
        QCOMPARE(steps, (std::vector<std::int64_t>{1, 6, 11}));
    }

    void profilerWritesChromeTraces()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto hook = ProfilerHook::create({.saveSteps = 3, .outputDir = dir});
        QVERIFY2(hook, err(hook));
        auto s = plainSession(*m, {*hook});
        QVERIFY2(s, err(s));
        std::map<std::int64_t, tensorflow::RunMetadata> metadata;
        for (int i = 0; i < 7; ++i) {
            tensorflow::RunMetadata md;
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}, nullptr, &md));
            metadata[values((*s)->rawSession(), m->globalStep)[0]] = md;
        }
        QVERIFY((*s)->close().isOk());
        // The first run only starts the timer; steps 3 and 6 are traced.
        QVERIFY(!std::filesystem::exists(dir + "/timeline-1.json"));
        QVERIFY(!std::filesystem::exists(dir + "/timeline-4.json"));
        QCOMPARE(metadata[2].step_stats().dev_stats_size(), 0);
        for (std::int64_t step : {3, 6}) {
            const std::string path = dir + "/timeline-" + std::to_string(step) + ".json";
            QVERIFY2(std::filesystem::exists(path), path.c_str());
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readText(path)), &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            const tensorflow::StepStats& stats = metadata[step].step_stats();
            QVERIFY(stats.dev_stats_size() >= 1);
            std::multiset<std::string> expected;
            for (const auto& dev : stats.dev_stats())
                for (const auto& n : dev.node_stats())
                    expected.insert(n.node_name());
            QVERIFY(expected.count("GradientDescent/update_w/ApplyGradientDescent") == 1);
            std::multiset<std::string> traced;
            QStringList processes;
            for (const QJsonValue& v : doc.object()["traceEvents"].toArray()) {
                const QJsonObject e = v.toObject();
                if (e["ph"].toString() == "M")
                    processes << e["args"].toObject()["name"].toString();
                if (e["ph"].toString() != "X")
                    continue;
                QCOMPARE(e["cat"].toString(), QString("Op"));
                QCOMPARE(e["name"].toString(), e["args"].toObject()["op"].toString());
                QVERIFY(e["dur"].toDouble() >= 0);
                traced.insert(e["args"].toObject()["name"].toString().toStdString());
            }
            QCOMPARE(traced, expected);
            QCOMPARE(processes.first(), QString("Allocators"));
            QCOMPARE(processes.at(1), QString::fromStdString(stats.dev_stats(0).device() + " Compute"));
        }
        // The profiler reads both back: the timeline (with TensorStudio's args: steps and outputs) and the
        // run metadata of the event file, steps numbered by their "step_<N>" tags.
        auto timeline = profiler::readTraceFile(dir + "/timeline-6.json");
        QVERIFY2(timeline, timeline ? "" : timeline.error().toString().c_str());
        QCOMPARE(timeline->steps.size(), std::size_t(1));
        QCOMPARE(timeline->steps[0].number, std::int64_t(6));
        QCOMPARE(timeline->events.size(), std::size_t(std::accumulate(
                     metadata[6].step_stats().dev_stats().begin(), metadata[6].step_stats().dev_stats().end(), 0,
                     [](int n, const tensorflow::DeviceStepStats& d) { return n + d.node_stats_size(); })));
        QVERIFY(std::any_of(timeline->events.begin(), timeline->events.end(),
                            [](const profiler::TraceEvent& e) { return e.outputCount > 0; }));
        auto logged = profiler::readTraceFile(dir);
        QVERIFY2(logged, logged ? "" : logged.error().toString().c_str());
        QCOMPARE(logged->steps.size(), std::size_t(2));
        QCOMPARE(logged->steps[0].number, std::int64_t(3));
        QCOMPARE(logged->steps[1].number, std::int64_t(6));
        QVERIFY(logged->findNode("GradientDescent/update_w/ApplyGradientDescent") != profiler::kNoIndex);
        int tagged = 0;
        for (const tensorflow::Event& e : readEvents(dir))
            if (e.has_tagged_run_metadata()) {
                QCOMPARE(e.tagged_run_metadata().tag(), "step_" + std::to_string(e.step()));
                ++tagged;
            }
        QCOMPARE(tagged, 2);
    }

    void chromeTraceLayout()
    {
        // The hook's timeline as TensorFlow's Timeline(step_stats).generate_chrome_trace_format(
        // show_dataflow=True, show_memory=False) writes it, byte for byte (without TensorStudio's args):
        // indented JSON, metadata first, lanes by TensorFlow's rule, a flow where a tensor crosses lanes,
        // Python's ASCII escaping, no inputs on GPU stream devices.
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device("/job:localhost/replica:0/task:0/device:CPU:0");
        auto add = [&](tensorflow::DeviceStepStats* device, const char* name, const char* label, std::int64_t start,
                       std::int64_t dur) {
            auto* n = device->add_node_stats();
            n->set_node_name(name);
            n->set_timeline_label(label);
            n->set_all_start_micros(start);
            n->set_all_end_rel_micros(dur);
            return n;
        };
        auto* a = add(dev, "a", "a = Const()", 10, 5);
        auto* out = a->add_output()->mutable_tensor_description();
        out->set_dtype(tensorflow::DT_FLOAT);
        out->mutable_shape()->add_dim()->set_size(2);
        out->mutable_allocation_description()->set_requested_bytes(8);
        add(dev, "b", "b = Add(a, a:1)", 12, 4);  // overlaps a: second lane; a flows in, a:1 does not exist
        add(dev, "c\"\xc3\xa9", "garbage", 20, 1); // after both: first lane again; escaped as Python does
        add(dev, "d", "d = NoOp()", 21, 0);       // starts as c ends: not strictly after it, second lane
        auto* stream = stats.add_dev_stats();
        stream->set_device("/job:localhost/replica:0/task:0/device:GPU:0/stream:all");
        add(stream, "b:Add", "volta_sgemm @@b:Add#id=3#", 13, 2);
        const std::string expected =
            "{\n"
            "    \"traceEvents\": [\n"
            "        {\n"
            "            \"name\": \"process_name\",\n"
            "            \"ph\": \"M\",\n"
            "            \"pid\": 0,\n"
            "            \"args\": {\n"
            "                \"name\": \"Allocators\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"name\": \"process_name\",\n"
            "            \"ph\": \"M\",\n"
            "            \"pid\": 1,\n"
            "            \"args\": {\n"
            "                \"name\": \"/job:localhost/replica:0/task:0/device:CPU:0 Compute\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"name\": \"process_name\",\n"
            "            \"ph\": \"M\",\n"
            "            \"pid\": 2,\n"
            "            \"args\": {\n"
            "                \"name\": \"/job:localhost/replica:0/task:0/device:CPU:0 Tensors\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"name\": \"process_name\",\n"
            "            \"ph\": \"M\",\n"
            "            \"pid\": 3,\n"
            "            \"args\": {\n"
            "                \"name\": \"/job:localhost/replica:0/task:0/device:GPU:0/stream:all Compute\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"name\": \"process_name\",\n"
            "            \"ph\": \"M\",\n"
            "            \"pid\": 4,\n"
            "            \"args\": {\n"
            "                \"name\": \"/job:localhost/replica:0/task:0/device:GPU:0/stream:all Tensors\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"X\",\n"
            "            \"cat\": \"Op\",\n"
            "            \"name\": \"Const\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 0,\n"
            "            \"ts\": 10,\n"
            "            \"dur\": 5,\n"
            "            \"args\": {\n"
            "                \"name\": \"a\",\n"
            "                \"op\": \"Const\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"X\",\n"
            "            \"cat\": \"Op\",\n"
            "            \"name\": \"Add\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 1,\n"
            "            \"ts\": 12,\n"
            "            \"dur\": 4,\n"
            "            \"args\": {\n"
            "                \"name\": \"b\",\n"
            "                \"op\": \"Add\",\n"
            "                \"input0\": \"a\",\n"
            "                \"input1\": \"a:1\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"s\",\n"
            "            \"cat\": \"DataFlow\",\n"
            "            \"name\": \"a\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 0,\n"
            "            \"ts\": 15,\n"
            "            \"id\": 0\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"t\",\n"
            "            \"cat\": \"DataFlow\",\n"
            "            \"name\": \"a\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 1,\n"
            "            \"ts\": 12,\n"
            "            \"id\": 0\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"X\",\n"
            "            \"cat\": \"Op\",\n"
            "            \"name\": \"unknown\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 0,\n"
            "            \"ts\": 20,\n"
            "            \"dur\": 1,\n"
            "            \"args\": {\n"
            "                \"name\": \"c\\\"\\u00e9\",\n"
            "                \"op\": \"unknown\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"X\",\n"
            "            \"cat\": \"Op\",\n"
            "            \"name\": \"NoOp\",\n"
            "            \"pid\": 1,\n"
            "            \"tid\": 1,\n"
            "            \"ts\": 21,\n"
            "            \"dur\": 0,\n"
            "            \"args\": {\n"
            "                \"name\": \"d\",\n"
            "                \"op\": \"NoOp\"\n"
            "            }\n"
            "        },\n"
            "        {\n"
            "            \"ph\": \"X\",\n"
            "            \"cat\": \"Op\",\n"
            "            \"name\": \"Add\",\n"
            "            \"pid\": 3,\n"
            "            \"tid\": 0,\n"
            "            \"ts\": 13,\n"
            "            \"dur\": 2,\n"
            "            \"args\": {\n"
            "                \"name\": \"b\",\n"
            "                \"op\": \"Add\"\n"
            "            }\n"
            "        }\n"
            "    ]\n"
            "}";
        profiler::ChromeTraceOptions options;
        options.pretty = true;
        options.tensorStudioArgs = false;
        QCOMPARE(profiler::chromeTraceJson(profiler::traceFromStepStats(stats), options), expected);
    }
};

QTEST_GUILESS_MAIN(TestHooks)
#include "test_hooks.moc"
