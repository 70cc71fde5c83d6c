// readHParams: the hparams plugin's experiment and sessions of a log directory.
#include "io/events/hparams.h"

#include "io/events/event_file_discovery.h"
#include "io/events/event_file_loader.h"
#include "proto/event.pb.h"
#include "proto/hparams_plugin.pb.h"
#include "proto/summary.pb.h"

#include <cstring>
#include <sstream>

namespace tstudio::events {
namespace {

namespace hp = tensorboard::hparams;

HParamValue valueOf(const google::protobuf::Value& v)
{
    switch (v.kind_case()) {
    case google::protobuf::Value::kNumberValue: return v.number_value();
    case google::protobuf::Value::kStringValue: return v.string_value();
    case google::protobuf::Value::kBoolValue: return v.bool_value();
    default: return std::monostate{};
    }
}

std::string typeName(hp::DataType type)
{
    switch (type) {
    case hp::DATA_TYPE_STRING: return "string";
    case hp::DATA_TYPE_BOOL: return "bool";
    case hp::DATA_TYPE_FLOAT64: return "float64";
    default: return "";
    }
}

std::string statusName(hp::Status status)
{
    switch (status) {
    case hp::STATUS_SUCCESS: return "success";
    case hp::STATUS_FAILURE: return "failure";
    case hp::STATUS_RUNNING: return "running";
    default: return "unknown";
    }
}

/// A scalar summary's value: simple_value, or a one-element float or double tensor.
std::optional<double> scalarOf(const tensorflow::Summary::Value& v)
{
    if (v.value_case() == tensorflow::Summary::Value::kSimpleValue)
        return v.simple_value();
    if (!v.has_tensor())
        return std::nullopt;
    const auto& t = v.tensor();
    if (t.dtype() == tensorflow::DT_FLOAT) {
        if (t.float_val_size() > 0)
            return t.float_val(0);
        if (t.tensor_content().size() == sizeof(float)) {
            float f;
            std::memcpy(&f, t.tensor_content().data(), sizeof f);
            return f;
        }
    }
    if (t.dtype() == tensorflow::DT_DOUBLE) {
        if (t.double_val_size() > 0)
            return t.double_val(0);
        if (t.tensor_content().size() == sizeof(double)) {
            double d;
            std::memcpy(&d, t.tensor_content().data(), sizeof d);
            return d;
        }
    }
    return std::nullopt;
}

/// "run" + group as a run name: "a" + "/validation" -> "a/validation"; the root run is ".".
std::string joinRun(const std::string& run, const std::string& group)
{
    std::string suffix = group;
    while (!suffix.empty() && suffix.front() == '/')
        suffix.erase(0, 1);
    if (suffix.empty())
        return run;
    return run == "." ? suffix : run + "/" + suffix;
}

} // namespace

std::string hparamText(const HParamValue& value)
{
    if (const double* d = std::get_if<double>(&value)) {
        std::ostringstream out;
        out.precision(10);
        out << *d;
        return out.str();
    }
    if (const std::string* s = std::get_if<std::string>(&value))
        return *s;
    if (const bool* b = std::get_if<bool>(&value))
        return *b ? "true" : "false";
    return "";
}

Expected<HParamsExperiment> readHParams(const std::filesystem::path& logdir)
{
    auto listing = findEventFiles(logdir);
    if (!listing)
        return unexpected(listing.error());
    HParamsExperiment experiment;
    for (const LoadWarning& w : listing->warnings)
        experiment.warnings.push_back(w.message);
    // Scalars by (run, tag): the latest by step, then file order.
    std::map<std::pair<std::string, std::string>, MetricReading> scalars;
    std::map<std::string, HParamsSession> sessions;
    std::map<std::string, std::size_t> hparamIndex;
    std::map<std::pair<std::string, std::string>, std::size_t> metricIndex;

    auto addExperiment = [&](const hp::Experiment& e) {
        if (experiment.name.empty())
            experiment.name = e.name();
        if (experiment.description.empty())
            experiment.description = e.description();
        for (const hp::HParamInfo& info : e.hparam_infos()) {
            if (hparamIndex.count(info.name()))
                continue;
            HParamDefinition d;
            d.name = info.name();
            d.displayName = info.display_name();
            d.type = typeName(info.type());
            if (info.has_domain_discrete())
                for (const auto& v : info.domain_discrete().values())
                    d.domain.push_back(valueOf(v));
            if (info.has_domain_interval())
                d.interval = std::make_pair(info.domain_interval().min_value(), info.domain_interval().max_value());
            hparamIndex[d.name] = experiment.hparams.size();
            experiment.hparams.push_back(std::move(d));
        }
        for (const hp::MetricInfo& info : e.metric_infos()) {
            const auto key = std::make_pair(info.name().group(), info.name().tag());
            if (metricIndex.count(key))
                continue;
            metricIndex[key] = experiment.metrics.size();
            experiment.metrics.push_back({info.name().group(), info.name().tag(), info.display_name()});
        }
    };

    for (const auto& [run, files] : listing->runs)
        for (const std::filesystem::path& file : files) {
            EventFileLoader loader(file.string());
            std::vector<LoadWarning> warnings;
            Status s = loader.readNew(
                [&](std::string_view payload, std::uint64_t) {
                    tensorflow::Event event;
                    if (!event.ParseFromArray(payload.data(), static_cast<int>(payload.size())) || !event.has_summary())
                        return;
                    for (const auto& v : event.summary().value()) {
                        if (v.has_metadata() && v.metadata().plugin_data().plugin_name() == "hparams") {
                            hp::HParamsPluginData data;
                            if (!data.ParseFromString(v.metadata().plugin_data().content())) {
                                experiment.warnings.push_back(file.string() + ": the hparams summary '" + v.tag() +
                                                              "' does not parse as HParamsPluginData");
                                continue;
                            }
                            if (data.has_experiment()) {
                                addExperiment(data.experiment());
                            } else if (data.has_session_start_info()) {
                                HParamsSession& session = sessions[run];
                                session.run = run;
                                const auto& start = data.session_start_info();
                                session.group = start.group_name().empty() ? run : start.group_name();
                                session.startTime = start.start_time_secs();
                                session.modelUri = start.model_uri();
                                for (const auto& [name, value] : start.hparams())
                                    session.hparams[name] = valueOf(value);
                                if (session.status == "unknown")
                                    session.status = "running";
                            } else if (data.has_session_end_info()) {
                                HParamsSession& session = sessions[run];
                                session.run = run;
                                session.status = statusName(data.session_end_info().status());
                                session.endTime = data.session_end_info().end_time_secs();
                            }
                            continue;
                        }
                        if (auto value = scalarOf(v)) {
                            MetricReading& reading = scalars[{run, v.tag()}];
                            if (event.step() >= reading.step)
                                reading = {*value, event.step(), event.wall_time()};
                        }
                    }
                },
                warnings);
            if (!s.isOk())
                experiment.warnings.push_back(s.message());
            for (const LoadWarning& w : warnings)
                experiment.warnings.push_back(w.message);
        }

    for (auto& [run, session] : sessions) {
        if (session.group.empty())
            session.group = run;
        for (const auto& [name, value] : session.hparams)
            if (!hparamIndex.count(name)) {
                hparamIndex[name] = experiment.hparams.size();
                experiment.hparams.push_back({name, "", "", {}, std::nullopt});
            }
        for (std::size_t m = 0; m < experiment.metrics.size(); ++m) {
            const MetricDefinition& metric = experiment.metrics[m];
            if (auto it = scalars.find({joinRun(run, metric.group), metric.tag}); it != scalars.end())
                session.metrics[m] = it->second;
        }
        experiment.sessions.push_back(std::move(session));
    }
    return experiment;
}

} // namespace tstudio::events
