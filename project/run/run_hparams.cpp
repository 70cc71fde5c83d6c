// A training run's hparams plugin records: experiment, session start and end.
#include "project/run/run_hparams.h"

#include "proto/graph.pb.h"
#include "proto/hparams_plugin.pb.h"
#include "proto/summary.pb.h"

#include <chrono>
#include <set>
#include <unordered_map>

namespace tstudio::project {
namespace {

namespace hp = tensorboard::hparams;

double nowSeconds()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void addLeaves(const nlohmann::json& value, const std::string& path, std::map<std::string, nlohmann::json>& out,
               const std::set<std::string>& skip = {})
{
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            if (!skip.count(it.key()))
                addLeaves(it.value(), path + "." + it.key(), out, skip);
        return;
    }
    if (value.is_number() || value.is_string() || value.is_boolean())
        out[path] = value;
}

Status writePluginData(events::EventFileWriter& writer, const std::string& tag, const hp::HParamsPluginData& data,
                       std::int64_t step)
{
    tensorflow::Summary summary;
    auto* v = summary.add_value();
    v->set_tag(tag);
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("hparams");
    v->mutable_metadata()->mutable_plugin_data()->set_content(data.SerializeAsString());
    return writer.addSummary(summary, step);
}

} // namespace

std::map<std::string, nlohmann::json> runHParams(const Project& project)
{
    const nlohmann::json document = nlohmann::json::parse(projectToJson(project));
    std::map<std::string, nlohmann::json> out;
    if (document.contains("training"))
        addLeaves(document["training"], "training", out);
    for (const char* key : {"batch_size", "steps", "device"})
        if (document.contains(key))
            addLeaves(document[key], key, out);
    if (document.contains("data") && document["data"].contains("sources")) {
        const auto& sources = document["data"]["sources"];
        for (std::size_t i = 0; i < sources.size(); ++i)
            addLeaves(sources[i], "data.sources." + std::to_string(i), out,
                      {"file", "dir", "files", "vocab_from", "feeds", "path"});
    }
    return out;
}

std::vector<std::string> scalarSummaryTags(const tensorflow::GraphDef& graph)
{
    std::unordered_map<std::string, const tensorflow::NodeDef*> byName;
    for (const auto& node : graph.node())
        byName[node.name()] = &node;
    std::vector<std::string> tags;
    for (const auto& node : graph.node()) {
        if (node.op() != "ScalarSummary" || node.input_size() < 1)
            continue;
        auto producer = byName.find(node.input(0));
        if (producer == byName.end() || producer->second->op() != "Const")
            continue;
        auto value = producer->second->attr().find("value");
        if (value != producer->second->attr().end() && value->second.tensor().string_val_size() == 1)
            tags.push_back(value->second.tensor().string_val(0));
    }
    return tags;
}

Status writeRunSessionStart(events::EventFileWriter& writer, const Project& project,
                            const std::vector<std::string>& metricTags, const std::string& logdir, std::int64_t step)
{
    const auto values = runHParams(project);
    hp::HParamsPluginData experiment;
    auto* e = experiment.mutable_experiment();
    e->set_name(project.name);
    e->set_time_created_secs(nowSeconds());
    hp::HParamsPluginData start;
    auto* info = start.mutable_session_start_info();
    info->set_start_time_secs(nowSeconds());
    info->set_model_uri(logdir);
    for (const auto& [name, value] : values) {
        auto* h = e->add_hparam_infos();
        h->set_name(name);
        google::protobuf::Value v;
        if (value.is_boolean()) {
            h->set_type(hp::DATA_TYPE_BOOL);
            v.set_bool_value(value.get<bool>());
        } else if (value.is_number()) {
            h->set_type(hp::DATA_TYPE_FLOAT64);
            v.set_number_value(value.get<double>());
        } else {
            h->set_type(hp::DATA_TYPE_STRING);
            v.set_string_value(value.get<std::string>());
        }
        (*info->mutable_hparams())[name] = v;
    }
    for (const std::string& tag : metricTags)
        e->add_metric_infos()->mutable_name()->set_tag(tag);
    if (Status s = writePluginData(writer, "_hparams_/experiment", experiment, step); !s.isOk())
        return s;
    return writePluginData(writer, "_hparams_/session_start_info", start, step);
}

Status writeRunSessionEnd(events::EventFileWriter& writer, bool failed, std::int64_t step)
{
    hp::HParamsPluginData end;
    end.mutable_session_end_info()->set_status(failed ? hp::STATUS_FAILURE : hp::STATUS_SUCCESS);
    end.mutable_session_end_info()->set_end_time_secs(nowSeconds());
    return writePluginData(writer, "_hparams_/session_end_info", end, step);
}

} // namespace tstudio::project
