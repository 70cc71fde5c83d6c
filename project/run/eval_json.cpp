// The "eval" section of a project file, both directions.
#include "project/run/eval_metrics.h"
#include "project/format/project_json.h"

#include <algorithm>
#include <set>

namespace tstudio::project {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

bool has(const json& object, const std::string& key)
{
    auto it = object.find(key);
    return it != object.end() && !it->is_null();
}

Expected<EvalSource> readEvalSource(const JsonReader& r, const json& v, const std::string& path,
                                    const std::vector<DataSource>& sources)
{
    if (!v.is_object() || !has(v, "from")) {
        TSTUDIO_TRY(source, readDataSource(r, v, path));
        EvalSource out;
        out.source = std::move(source);
        return out;
    }
    // A split of a training source.
    if (Status s = r.checkKeys(v, path, {"from", "skip", "take"}); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(from, r.intKey(v, path, "from", std::nullopt));
    if (sources.empty())
        return unexpected(r.error(jsonChild(path, "from"),
                                  "the project has no data sources to split (a graph whose queue runners feed it "
                                  "trains without them); give the evaluation a source of its own"));
    if (from < 0 || static_cast<std::size_t>(from) >= sources.size())
        return unexpected(r.error(jsonChild(path, "from"), "expected the index of one of data.sources (0 to " +
                                                               std::to_string(static_cast<std::int64_t>(sources.size()) - 1) +
                                                               "), got " + std::to_string(from)));
    EvalSource out;
    out.from = from;
    TSTUDIO_TRY(skip, r.intKey(v, path, "skip", 0));
    TSTUDIO_TRY(take, r.intKey(v, path, "take", -1));
    if (skip < 0)
        return unexpected(r.error(jsonChild(path, "skip"), "expected 0 or more, got " + std::to_string(skip)));
    if (take == 0 || take < -1)
        return unexpected(
            r.error(jsonChild(path, "take"), "expected -1 (all) or 1 or more, got " + std::to_string(take)));
    out.skip = skip;
    out.take = take;
    const DataSource& training = sources[static_cast<std::size_t>(from)];
    auto split = splitOf(training, skip, take);
    if (!split)
        return unexpected(r.error(jsonChild(path, "from"), "data.sources[" + std::to_string(from) + "] is a " +
                                                               training.type() +
                                                               " source; only mnist, numpy and cifar10 sources split by "
                                                               "skip and take (give the eval source in full instead)"));
    out.source = std::move(*split);
    return out;
}

Expected<EvalMetricSpec> readMetric(const JsonReader& r, const json& v, const std::string& path)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object {\"kind\": ..., ...}, got " + describeJson(v)));
    TSTUDIO_TRY(kind, r.oneOf(v, path, "kind", evalMetricKinds(), std::nullopt));
    std::vector<std::string> keys = {"kind", "name"};
    for (const std::string& k : evalMetricKeys(kind))
        keys.push_back(k);
    if (Status s = r.checkKeys(v, path, keys); !s.isOk())
        return unexpected(s);
    EvalMetricSpec spec;
    spec.kind = kind;
    auto text = [&](const char* key, std::string& into) -> Status {
        auto value = r.stringKey(v, path, key, std::string());
        if (!value)
            return value.error();
        into = *value;
        return Status::ok();
    };
    for (auto [key, field] : {std::pair<const char*, std::string*>{"name", &spec.name},
                              {"tensor", &spec.tensor},
                              {"labels", &spec.labels},
                              {"predictions", &spec.predictions},
                              {"logits", &spec.logits},
                              {"weights", &spec.weights},
                              {"normalizer", &spec.normalizer}})
        if (Status s = text(key, *field); !s.isOk())
            return unexpected(s);
    if (!spec.predictions.empty() && !spec.logits.empty())
        return unexpected(r.error(jsonChild(path, "logits"), "give either predictions or logits, not both"));
    auto optionalInt = [&](const char* key, std::int64_t least, std::optional<std::int64_t>& into) -> Status {
        if (!has(v, key))
            return Status::ok();
        auto value = r.intKey(v, path, key, std::nullopt);
        if (!value)
            return value.error();
        if (*value < least)
            return r.error(jsonChild(path, key),
                           "expected " + std::to_string(least) + " or more, got " + std::to_string(*value));
        into = *value;
        return Status::ok();
    };
    for (auto [key, least, field] : {std::tuple<const char*, std::int64_t, std::optional<std::int64_t>*>{"k", 1, &spec.k},
                                     {"num_classes", 1, &spec.numClasses},
                                     {"num_thresholds", 2, &spec.numThresholds},
                                     {"dim", -1000, &spec.dim}})
        if (Status s = optionalInt(key, least, *field); !s.isOk())
            return unexpected(s);
    TSTUDIO_TRY(threshold, r.optionalNumberKey(v, path, "threshold"));
    spec.threshold = threshold;
    TSTUDIO_TRY(at, r.optionalNumberKey(v, path, "at"));
    if (at && (*at < 0 || *at > 1))
        return unexpected(r.error(jsonChild(path, "at"), "expected a number in [0, 1], got " + describeJson(v.at("at"))));
    spec.at = at;
    if (has(v, "curve")) {
        TSTUDIO_TRY(curve, r.oneOf(v, path, "curve", {"ROC", "PR"}, std::string("ROC")));
        spec.curve = curve;
    }
    // What the kind cannot do without.
    auto required = [&](bool present, const char* key) -> Status {
        return present ? Status::ok() : r.error(jsonChild(path, key), "required for " + kind);
    };
    const auto& k = keys;
    const bool takesLabels = std::find(k.begin(), k.end(), "labels") != k.end();
    if (takesLabels)
        if (Status s = required(!spec.labels.empty(), "labels"); !s.isOk())
            return unexpected(s);
    const bool takesLogits = std::find(k.begin(), k.end(), "logits") != k.end();
    const bool takesPredictions = std::find(k.begin(), k.end(), "predictions") != k.end();
    if (takesPredictions && !takesLogits)
        if (Status s = required(!spec.predictions.empty(), "predictions"); !s.isOk())
            return unexpected(s);
    if (takesPredictions && takesLogits && spec.predictions.empty() && spec.logits.empty())
        return unexpected(r.error(jsonChild(path, "predictions"), "required for " + kind + " (or logits)"));
    if (kind == "mean" || kind == "percentage_below")
        if (Status s = required(!spec.tensor.empty(), "tensor"); !s.isOk())
            return unexpected(s);
    if (kind == "mean_iou")
        if (Status s = required(spec.numClasses.has_value(), "num_classes"); !s.isOk())
            return unexpected(s);
    if (kind == "mean_relative_error")
        if (Status s = required(!spec.normalizer.empty(), "normalizer"); !s.isOk())
            return unexpected(s);
    if (kind == "mean_cosine_distance")
        if (Status s = required(spec.dim.has_value(), "dim"); !s.isOk())
            return unexpected(s);
    if (kind == "percentage_below")
        if (Status s = required(spec.threshold.has_value(), "threshold"); !s.isOk())
            return unexpected(s);
    if (kind == "sensitivity_at_specificity" || kind == "specificity_at_sensitivity")
        if (Status s = required(spec.at.has_value(), "at"); !s.isOk())
            return unexpected(s);
    return spec;
}

/// "mode" of best or early_stopping: given, else the metric kind's direction.
Expected<std::string> readMode(const JsonReader& r, const json& v, const std::string& path, const std::string& metric,
                               const std::vector<EvalMetricSpec>& metrics)
{
    const auto it = std::find_if(metrics.begin(), metrics.end(),
                                 [&](const EvalMetricSpec& m) { return evalMetricName(m) == metric; });
    if (it == metrics.end()) {
        std::string names;
        for (const EvalMetricSpec& m : metrics)
            names += (names.empty() ? "" : ", ") + evalMetricName(m);
        return unexpected(r.error(jsonChild(path, "metric"), "'" + metric + "' is not one of eval.metrics (" +
                                                                 (names.empty() ? std::string("loss") : names) + ")"));
    }
    if (it->kind == "pr_curve")
        return unexpected(r.error(jsonChild(path, "metric"), "'" + metric +
                                                                 "' is a pr_curve, a curve per class, not one number"));
    std::string mode;
    if (has(v, "mode")) {
        TSTUDIO_TRY(given, r.oneOf(v, path, "mode", {"max", "min"}, std::nullopt));
        mode = given;
    }
    if (mode.empty() && evalMetricDefaultMode(it->kind).empty())
        return unexpected(r.error(jsonChild(path, "mode"), "required for a " + it->kind +
                                                               " metric (\"max\" or \"min\": which way is better)"));
    return mode;
}

} // namespace

Expected<EvalSettings> readEvalSettings(const JsonReader& r, const json& v, const std::string& path,
                                        const std::vector<DataSource>& sources)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(v)));
    if (Status s = r.checkKeys(v, path,
                               {"sources", "every_steps", "every_secs", "after_checkpoint", "steps", "batch_size",
                                "metrics", "best", "early_stopping"});
        !s.isOk())
        return unexpected(s);
    EvalSettings e;
    const std::string spath = jsonChild(path, "sources");
    if (!has(v, "sources") || !v.at("sources").is_array() || v.at("sources").empty())
        return unexpected(r.error(spath, "expected an array of data sources (or {\"from\": 0, \"skip\": N, "
                                         "\"take\": M}, a held-out split of a training source), got " +
                                             (has(v, "sources") ? describeJson(v.at("sources")) : std::string("nothing"))));
    for (std::size_t i = 0; i < v.at("sources").size(); ++i) {
        TSTUDIO_TRY(source, readEvalSource(r, v.at("sources")[i], spath + "[" + std::to_string(i) + "]", sources));
        e.sources.push_back(std::move(source));
    }
    auto positive = [&](const char* key, std::optional<std::int64_t>& into) -> Status {
        if (!has(v, key))
            return Status::ok();
        auto value = r.positiveIntKey(v, path, key, std::nullopt);
        if (!value)
            return value.error();
        into = *value;
        return Status::ok();
    };
    for (auto [key, field] : {std::pair<const char*, std::optional<std::int64_t>*>{"every_steps", &e.everySteps},
                              {"every_secs", &e.everySecs},
                              {"steps", &e.steps},
                              {"batch_size", &e.batchSize}})
        if (Status s = positive(key, *field); !s.isOk())
            return unexpected(s);
    TSTUDIO_TRY(afterCheckpoint, r.boolKey(v, path, "after_checkpoint", false));
    e.afterCheckpoint = afterCheckpoint;
    if (!e.everySteps && !e.everySecs && !e.afterCheckpoint)
        return unexpected(r.error(path, "say when to evaluate: every_steps, every_secs or after_checkpoint"));
    const std::string mpath = jsonChild(path, "metrics");
    if (has(v, "metrics")) {
        if (!v.at("metrics").is_array())
            return unexpected(r.error(mpath, "expected an array of {\"kind\": ..., ...}, got " +
                                                 describeJson(v.at("metrics"))));
        std::set<std::string> names;
        for (std::size_t i = 0; i < v.at("metrics").size(); ++i) {
            const std::string p = mpath + "[" + std::to_string(i) + "]";
            TSTUDIO_TRY(metric, readMetric(r, v.at("metrics")[i], p));
            if (!names.insert(evalMetricName(metric)).second)
                return unexpected(r.error(p, "another metric is named '" + evalMetricName(metric) +
                                                 "' (give each a different \"name\")"));
            e.metrics.push_back(std::move(metric));
        }
    }
    // Best and early stopping choose among the metrics (the loss alone when none are listed).
    std::vector<EvalMetricSpec> chosen = e.metrics;
    if (chosen.empty())
        chosen.push_back(EvalMetricSpec{"loss"});
    if (has(v, "best")) {
        const std::string p = jsonChild(path, "best");
        const json& b = v.at("best");
        if (!b.is_object())
            return unexpected(r.error(p, "expected {\"metric\": ..., \"mode\": \"max\" or \"min\"}, got " +
                                             describeJson(b)));
        if (Status s = r.checkKeys(b, p, {"metric", "mode"}); !s.isOk())
            return unexpected(s);
        BestCheckpointSpec best;
        TSTUDIO_TRY(metric, r.stringKey(b, p, "metric", std::nullopt));
        TSTUDIO_TRY(mode, readMode(r, b, p, metric, chosen));
        best.metric = metric;
        best.mode = mode;
        e.best = best;
    }
    if (has(v, "early_stopping")) {
        const std::string p = jsonChild(path, "early_stopping");
        const json& s = v.at("early_stopping");
        if (!s.is_object())
            return unexpected(r.error(p, "expected {\"metric\": ..., \"patience\": N, ...}, got " + describeJson(s)));
        if (Status st = r.checkKeys(s, p, {"metric", "mode", "patience", "min_delta"}); !st.isOk())
            return unexpected(st);
        EarlyStoppingSpec stopping;
        TSTUDIO_TRY(metric, r.stringKey(s, p, "metric", std::nullopt));
        TSTUDIO_TRY(mode, readMode(r, s, p, metric, chosen));
        TSTUDIO_TRY(patience, r.positiveIntKey(s, p, "patience", 5));
        TSTUDIO_TRY(minDelta, r.numberKey(s, p, "min_delta", 0.0));
        if (minDelta < 0)
            return unexpected(r.error(jsonChild(p, "min_delta"), "expected 0 or more, got " + describeJson(s.at("min_delta"))));
        stopping.metric = metric;
        stopping.mode = mode;
        stopping.patience = patience;
        stopping.minDelta = minDelta;
        e.earlyStopping = stopping;
    }
    return e;
}

ordered evalSettingsJson(const EvalSettings& e)
{
    ordered o;
    o["sources"] = ordered::array();
    for (const EvalSource& s : e.sources) {
        if (s.from) {
            ordered split;
            split["from"] = *s.from;
            split["skip"] = s.skip;
            split["take"] = s.take;
            o["sources"].push_back(std::move(split));
        } else {
            o["sources"].push_back(dataSourceJson(s.source));
        }
    }
    auto optional = [](const std::optional<std::int64_t>& x) { return x ? ordered(*x) : ordered(nullptr); };
    o["every_steps"] = optional(e.everySteps);
    o["every_secs"] = optional(e.everySecs);
    o["after_checkpoint"] = e.afterCheckpoint;
    o["steps"] = optional(e.steps);
    o["batch_size"] = optional(e.batchSize);
    o["metrics"] = ordered::array();
    for (const EvalMetricSpec& m : e.metrics) {
        ordered j;
        j["kind"] = m.kind;
        for (auto [key, value] : {std::pair<const char*, const std::string*>{"name", &m.name},
                                  {"tensor", &m.tensor},
                                  {"labels", &m.labels},
                                  {"predictions", &m.predictions},
                                  {"logits", &m.logits},
                                  {"weights", &m.weights},
                                  {"normalizer", &m.normalizer}})
            if (!value->empty())
                j[key] = *value;
        for (auto [key, value] : {std::pair<const char*, const std::optional<std::int64_t>*>{"k", &m.k},
                                  {"num_classes", &m.numClasses},
                                  {"num_thresholds", &m.numThresholds},
                                  {"dim", &m.dim}})
            if (*value)
                j[key] = **value;
        if (m.threshold)
            j["threshold"] = *m.threshold;
        if (m.at)
            j["at"] = *m.at;
        if (m.kind == "auc" && m.curve != "ROC")
            j["curve"] = m.curve;
        o["metrics"].push_back(std::move(j));
    }
    if (e.best) {
        ordered b;
        b["metric"] = e.best->metric;
        if (!e.best->mode.empty())
            b["mode"] = e.best->mode;
        o["best"] = std::move(b);
    } else {
        o["best"] = nullptr;
    }
    if (e.earlyStopping) {
        ordered s;
        s["metric"] = e.earlyStopping->metric;
        if (!e.earlyStopping->mode.empty())
            s["mode"] = e.earlyStopping->mode;
        s["patience"] = e.earlyStopping->patience;
        s["min_delta"] = e.earlyStopping->minDelta;
        o["early_stopping"] = std::move(s);
    } else {
        o["early_stopping"] = nullptr;
    }
    return o;
}

} // namespace tstudio::project
