// readHParams (io/events/hparams.h): a log directory the test writes from the hparams plugin's
// protos in TensorFlow's layout (the experiment in the root run, each session's start and end
// infos in its run, its metrics in "<run><group>"), and PyTorch's add_hparams layout in the
// fixtures (events-pytorch-hparams-prcurve, values from the fixtures README).
#include "io/events/event_file_writer.h"
#include "io/events/hparams.h"
#include "proto/hparams_plugin.pb.h"
#include "proto/summary.pb.h"

#include "fixture_paths.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tstudio;
using namespace tstudio::events;
namespace hp = tensorboard::hparams;
using tstudio::testing::fixturePath;
using tstudio::testing::missingFixture;

namespace {

/// A summary holding only the hparams plugin's metadata (TensorBoard's layout: no value).
tensorflow::Summary pluginSummary(const std::string& tag, const hp::HParamsPluginData& data)
{
    tensorflow::Summary s;
    auto* v = s.add_value();
    v->set_tag(tag);
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("hparams");
    v->mutable_metadata()->mutable_plugin_data()->set_content(data.SerializeAsString());
    return s;
}

tensorflow::Summary scalar(const std::string& tag, float value)
{
    tensorflow::Summary s;
    auto* v = s.add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return s;
}

bool writeEvents(const std::string& dir, const std::vector<std::pair<tensorflow::Summary, std::int64_t>>& summaries)
{
    auto writer = EventFileWriter::open(dir);
    if (!writer)
        return false;
    for (const auto& [summary, step] : summaries)
        if (!(*writer)->addSummary(summary, step).isOk())
            return false;
    return (*writer)->close().isOk();
}

google::protobuf::Value number(double v)
{
    google::protobuf::Value value;
    value.set_number_value(v);
    return value;
}

} // namespace

class TestHParams : public QObject {
    Q_OBJECT
private slots:
    void tensorFlowLayout()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        hp::HParamsPluginData experiment;
        auto* e = experiment.mutable_experiment();
        e->set_name("search");
        auto* lr = e->add_hparam_infos();
        lr->set_name("lr");
        lr->set_type(hp::DATA_TYPE_FLOAT64);
        lr->mutable_domain_interval()->set_min_value(0.001);
        lr->mutable_domain_interval()->set_max_value(0.1);
        auto* optimizer = e->add_hparam_infos();
        optimizer->set_name("optimizer");
        optimizer->set_display_name("Optimizer");
        optimizer->set_type(hp::DATA_TYPE_STRING);
        optimizer->mutable_domain_discrete()->add_values()->set_string_value("adam");
        optimizer->mutable_domain_discrete()->add_values()->set_string_value("sgd");
        auto* accuracy = e->add_metric_infos();
        accuracy->mutable_name()->set_group("validation");
        accuracy->mutable_name()->set_tag("accuracy");
        QVERIFY(writeEvents(root, {{pluginSummary("_hparams_/experiment", experiment), 0}}));

        for (int i = 1; i <= 2; ++i) {
            const std::string run = root + "/session_" + std::to_string(i);
            hp::HParamsPluginData start;
            (*start.mutable_session_start_info()->mutable_hparams())["lr"] = number(i == 1 ? 0.1 : 0.01);
            google::protobuf::Value name;
            name.set_string_value(i == 1 ? "adam" : "sgd");
            (*start.mutable_session_start_info()->mutable_hparams())["optimizer"] = name;
            google::protobuf::Value dropout;
            dropout.set_bool_value(i == 1);
            (*start.mutable_session_start_info()->mutable_hparams())["dropout"] = dropout;
            std::vector<std::pair<tensorflow::Summary, std::int64_t>> summaries{
                {pluginSummary("_hparams_/session_start_info", start), 0}};
            if (i == 1) {
                hp::HParamsPluginData end;
                end.mutable_session_end_info()->set_status(hp::STATUS_FAILURE);
                summaries.emplace_back(pluginSummary("_hparams_/session_end_info", end), 0);
            }
            QVERIFY(writeEvents(run, summaries));
            // Metrics in "<run>/validation": the latest step counts, whatever the order written.
            QVERIFY(writeEvents(
                run + "/validation",
                {{scalar("accuracy", 0.5f * i), 2}, {scalar("accuracy", 0.25f), 1}, {scalar("loss", 9.0f), 2}}));
        }

        auto read = readHParams(root);
        QVERIFY2(read, read ? "" : read.error().toString().c_str());
        QVERIFY(read->warnings.empty());
        QCOMPARE(read->name, std::string("search"));
        QCOMPARE(read->hparams.size(), std::size_t(3)); // lr, optimizer, then dropout (no definition)
        QCOMPARE(read->hparams[0].name, std::string("lr"));
        QCOMPARE(read->hparams[0].type, std::string("float64"));
        QVERIFY(read->hparams[0].interval.has_value());
        QCOMPARE(read->hparams[0].interval->second, 0.1);
        QCOMPARE(read->hparams[1].displayName, std::string("Optimizer"));
        QCOMPARE(read->hparams[1].domain.size(), std::size_t(2));
        QCOMPARE(read->hparams[2].name, std::string("dropout"));
        QCOMPARE(read->metrics.size(), std::size_t(1));
        QCOMPARE(read->sessions.size(), std::size_t(2));
        const HParamsSession& first = read->sessions[0];
        QCOMPARE(first.run, std::string("session_1"));
        QCOMPARE(first.status, std::string("failure"));
        QCOMPARE(std::get<double>(first.hparams.at("lr")), 0.1);
        QCOMPARE(std::get<std::string>(first.hparams.at("optimizer")), std::string("adam"));
        QCOMPARE(std::get<bool>(first.hparams.at("dropout")), true);
        QCOMPARE(first.metrics.at(0).value, 0.5);
        QCOMPARE(first.metrics.at(0).step, std::int64_t(2));
        const HParamsSession& second = read->sessions[1];
        QCOMPARE(second.status, std::string("running")); // started, no end info
        QCOMPARE(second.metrics.at(0).value, 1.0);
        QCOMPARE(hparamText(second.hparams.at("lr")), std::string("0.01"));

        auto none = readHParams(tmp.path().toStdString() + "/session_2/validation");
        QVERIFY(none && none->empty());
        auto missing = readHParams(tmp.path().toStdString() + "/nowhere");
        QVERIFY(!missing);
    }

    void pytorchAddHParams()
    {
        const std::string dir = fixturePath("events-pytorch-hparams-prcurve/runs");
        if (dir.empty())
            QSKIP(missingFixture("events-pytorch-hparams-prcurve/runs"));
        auto read = readHParams(dir);
        QVERIFY2(read, read ? "" : read.error().toString().c_str());
        QCOMPARE(read->sessions.size(), std::size_t(3));
        QCOMPARE(read->hparams.size(), std::size_t(3));
        QCOMPARE(read->hparams[0].name, std::string("lr"));
        QCOMPARE(read->hparams[2].type, std::string("string"));
        QCOMPARE(read->metrics.size(), std::size_t(2));
        QCOMPARE(read->metrics[0].tag, std::string("hparam/Final_Val_Accuracy"));
        const double lr[] = {0.1, 0.01, 0.001}, batch[] = {32, 64, 128};
        const char* optimizer[] = {"SGD", "Adam", "Adam"};
        const double accuracy[] = {84.0356, 95.5, 78.535027}, loss[] = {1.1832732, 0.12, 1.2194173};
        for (std::size_t i = 0; i < 3; ++i) {
            const HParamsSession& s = read->sessions[i];
            QVERIFY(s.run.rfind("hparams_search_exp_" + std::to_string(i + 1) + "/", 0) == 0);
            QCOMPARE(s.status, std::string("success"));
            QCOMPARE(std::get<double>(s.hparams.at("lr")), lr[i]);
            QCOMPARE(std::get<double>(s.hparams.at("batch_size")), batch[i]);
            QCOMPARE(std::get<std::string>(s.hparams.at("optimizer")), std::string(optimizer[i]));
            QVERIFY(std::abs(s.metrics.at(0).value - accuracy[i]) < 1e-4);
            QVERIFY(std::abs(s.metrics.at(1).value - loss[i]) < 1e-6);
        }
    }
};

QTEST_GUILESS_MAIN(TestHParams)
#include "test_hparams.moc"
