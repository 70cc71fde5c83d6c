// tstudio events: lists the runs and tags of a TensorBoard log directory, or its scalars as CSV or JSON.
#include "cli_command.h"

#include "io/events/hparams.h"
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>

namespace tstudio::cli {
namespace {

struct EventsArgs {
    std::string logdir;
    bool csv = false;
    bool json = false;
    std::string tagPattern;
    bool hparams = false;
};

/// The shortest "%.{p}g" that reads back to the same value (float32 values compared as float32),
/// the format tools/events/decode_events.py prints too.
std::string shortestNumber(double value, bool float32)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char text[40];
    for (int p = 1; p <= (float32 ? 9 : 17); ++p) {
        std::snprintf(text, sizeof text, "%.*g", p, value);
        double back = std::strtod(text, nullptr);
        if (float32)
            back = static_cast<double>(static_cast<float>(back));
        if (back == value)
            return text;
    }
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

/// A CSV field quoted when it holds a comma, quote or line break (doubled quotes inside).
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

/// --hparams: the experiment's sessions, one row each: run, status, every hparam, every metric.
int printHParams(const EventsArgs& args)
{
    auto experiment = events::readHParams(args.logdir);
    if (!experiment) {
        std::fprintf(stderr, "tstudio events: %s\n", experiment.error().toString().c_str());
        return kExitFailure;
    }
    for (const std::string& w : experiment->warnings)
        std::fprintf(stderr, "tstudio events: warning: %s\n", w.c_str());
    auto metricName = [](const events::MetricDefinition& m) {
        return m.displayName.empty() ? (m.group.empty() ? m.tag : m.group + "/" + m.tag) : m.displayName;
    };
    if (args.json) {
        auto value = [](const events::HParamValue& v) -> nlohmann::ordered_json {
            if (const double* d = std::get_if<double>(&v))
                return *d;
            if (const std::string* s = std::get_if<std::string>(&v))
                return *s;
            if (const bool* b = std::get_if<bool>(&v))
                return *b;
            return nullptr;
        };
        nlohmann::ordered_json root;
        root["name"] = experiment->name;
        root["hparams"] = nlohmann::ordered_json::array();
        for (const auto& h : experiment->hparams) {
            nlohmann::ordered_json j{{"name", h.name}, {"display_name", h.displayName}, {"type", h.type}};
            if (!h.domain.empty()) {
                j["domain"] = nlohmann::ordered_json::array();
                for (const auto& v : h.domain)
                    j["domain"].push_back(value(v));
            }
            if (h.interval)
                j["interval"] = {h.interval->first, h.interval->second};
            root["hparams"].push_back(std::move(j));
        }
        root["metrics"] = nlohmann::ordered_json::array();
        for (const auto& m : experiment->metrics)
            root["metrics"].push_back({{"group", m.group}, {"tag", m.tag}, {"display_name", m.displayName}});
        root["sessions"] = nlohmann::ordered_json::array();
        for (const auto& s : experiment->sessions) {
            nlohmann::ordered_json j{{"run", s.run}, {"group", s.group}, {"status", s.status}};
            j["hparams"] = nlohmann::ordered_json::object();
            for (const auto& [name, v] : s.hparams)
                j["hparams"][name] = value(v);
            j["metrics"] = nlohmann::ordered_json::object();
            for (const auto& [index, reading] : s.metrics)
                j["metrics"][metricName(experiment->metrics[index])] = {
                    {"value", reading.value}, {"step", reading.step}, {"wall_time", reading.wallTime}};
            root["sessions"].push_back(std::move(j));
        }
        std::printf("%s\n", jsonText(root, 2).c_str());
        return kExitOk;
    }
    std::printf("%zu session(s), %zu hparam(s), %zu metric(s)\n", experiment->sessions.size(),
                experiment->hparams.size(), experiment->metrics.size());
    std::string header = "run\tstatus";
    for (const auto& h : experiment->hparams)
        header += "\t" + (h.displayName.empty() ? h.name : h.displayName);
    for (const auto& m : experiment->metrics)
        header += "\t" + metricName(m);
    std::printf("%s\n", header.c_str());
    for (const auto& s : experiment->sessions) {
        std::string line = s.run + "\t" + s.status;
        for (const auto& h : experiment->hparams) {
            auto it = s.hparams.find(h.name);
            line += "\t" + (it == s.hparams.end() ? std::string() : events::hparamText(it->second));
        }
        for (std::size_t m = 0; m < experiment->metrics.size(); ++m) {
            auto it = s.metrics.find(m);
            line += "\t" + (it == s.metrics.end() ? std::string() : events::hparamText(it->second.value));
        }
        std::printf("%s\n", line.c_str());
    }
    return kExitOk;
}

int runEvents(const EventsArgs& args)
{
    if (args.hparams)
        return printHParams(args);
    std::optional<std::regex> pattern;
    if (!args.tagPattern.empty()) {
        try {
            pattern.emplace(args.tagPattern, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            std::fprintf(stderr, "tstudio events: --tag '%s' is not a valid regular expression: %s\n",
                         args.tagPattern.c_str(), e.what());
            return kExitUsage;
        }
    }
    auto selected = [&](const std::string& tag) { return !pattern || std::regex_search(tag, *pattern); };

    events::LogDirectory logs(args.logdir);
    if (Status s = logs.reload(); !s.isOk()) {
        std::fprintf(stderr, "tstudio events: %s\n", s.toString().c_str());
        return kExitFailure;
    }
    for (const events::LoadWarning& w : logs.warnings())
        std::fprintf(stderr, "warning: %s: offset %llu: %s\n", w.file.c_str(),
                     static_cast<unsigned long long>(w.offset), w.message.c_str());
    const std::vector<std::string> runs = logs.runs();
    if (runs.empty())
        std::fprintf(stderr, "tstudio events: no event files (names containing 'tfevents') under '%s'\n",
                     args.logdir.c_str());

    if (args.csv) {
        std::printf("run,tag,step,wall_time,value\n");
        for (const std::string& run : runs) {
            logs.withRun(run, [&](const events::EventAccumulator& acc) {
                for (const auto& tag : acc.tags()) {
                    if (tag.kind != events::TagKind::kScalar || !selected(tag.tag))
                        continue;
                    const std::string prefix = csvField(run) + "," + csvField(tag.tag) + ",";
                    for (const auto& s : acc.scalars(tag.tag))
                        std::printf("%s%lld,%s,%s\n", prefix.c_str(), static_cast<long long>(s.step),
                                    shortestNumber(s.wallTime, false).c_str(),
                                    shortestNumber(s.value, s.float32).c_str());
                }
            });
        }
        return kExitOk;
    }

    if (args.json) {
        nlohmann::json root = {{"logdir", args.logdir}, {"runs", nlohmann::json::object()}};
        for (const std::string& run : runs) {
            logs.withRun(run, [&](const events::EventAccumulator& acc) {
                nlohmann::json tags = nlohmann::json::object();
                for (const auto& tag : acc.tags()) {
                    if (!selected(tag.tag))
                        continue;
                    nlohmann::json t = {{"plugin", tag.plugin},
                                        {"kind", std::string(events::tagKindName(tag.kind))},
                                        {"values_read", tag.valuesRead},
                                        {"samples_kept", tag.samplesKept}};
                    if (tag.kind == events::TagKind::kScalar) {
                        nlohmann::json samples = nlohmann::json::array();
                        for (const auto& s : acc.scalars(tag.tag)) {
                            const bool finite = std::isfinite(s.value);
                            samples.push_back({{"step", s.step},
                                               {"wall_time", s.wallTime},
                                               {"value", finite ? nlohmann::json(s.value)
                                                                : nlohmann::json(shortestNumber(s.value, false))}});
                        }
                        t["samples"] = std::move(samples);
                    } else if (tag.kind == events::TagKind::kText) {
                        // The strings of each kept text sample (bytes that are not UTF-8 as
                        // Python's bytes literal, by jsonText).
                        nlohmann::json samples = nlohmann::json::array();
                        for (const auto& s : acc.values(tag.tag)) {
                            auto text = events::decodeText(*s.value, tag.tag);
                            nlohmann::json sample = {{"step", s.step}, {"wall_time", s.wallTime}};
                            if (text)
                                sample["text"] = *text;
                            else
                                sample["error"] = text.error().message();
                            samples.push_back(std::move(sample));
                        }
                        t["samples"] = std::move(samples);
                    }
                    tags[tag.tag] = std::move(t);
                }
                root["runs"][run] = {{"tags", std::move(tags)},
                                     {"events", acc.eventsRead()},
                                     {"graph", !acc.graphDef().empty()},
                                     {"meta_graph", !acc.metaGraphDef().empty()},
                                     {"keras_model", acc.kerasModelConfig().has_value()},
                                     {"run_metadata", acc.runMetadataTags()}};
            });
        }
        std::printf("%s\n", jsonText(root, 2).c_str());
        return kExitOk;
    }

    for (const std::string& run : runs) {
        logs.withRun(run, [&](const events::EventAccumulator& acc) {
            std::printf("run %s: %llu events, file version %g\n", run.c_str(),
                        static_cast<unsigned long long>(acc.eventsRead()), acc.fileVersion());
            for (const auto& tag : acc.tags()) {
                if (!selected(tag.tag))
                    continue;
                std::printf("  %-44s %-18s %6llu values", tag.tag.c_str(),
                            tag.plugin.empty() ? "(no plugin)" : tag.plugin.c_str(),
                            static_cast<unsigned long long>(tag.valuesRead));
                if (tag.samplesKept > 0)
                    std::printf("  (%zu kept, steps %lld..%lld)", tag.samplesKept, static_cast<long long>(tag.firstStep),
                                static_cast<long long>(tag.lastStep));
                std::printf("\n");
            }
            if (!acc.graphDef().empty())
                std::printf("  graph: %zu bytes\n", acc.graphDef().size());
            if (!acc.metaGraphDef().empty())
                std::printf("  meta graph: %zu bytes\n", acc.metaGraphDef().size());
            if (const auto keras = acc.kerasModelConfig())
                std::printf("  Keras model config: %zu bytes of JSON\n", keras->size());
            for (const std::string& tag : acc.runMetadataTags())
                std::printf("  run metadata: %s\n", tag.c_str());
            if (acc.purgedSamples() > 0)
                std::printf("  %llu samples dropped after restarts (SessionLog START)\n",
                            static_cast<unsigned long long>(acc.purgedSamples()));
        });
    }
    return kExitOk;
}

} // namespace

void addEventsCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("events", "List the runs and tags of a TensorBoard log directory (event files), "
                                             "or print its scalars as CSV or JSON");
    auto args = std::make_shared<EventsArgs>();
    cmd->add_option("LOGDIR", args->logdir, "log directory (every directory under it with event files is a run)")
        ->required();
    auto* csv = cmd->add_flag("--csv", args->csv, "print scalars as CSV: run,tag,step,wall_time,value");
    auto* json = cmd->add_flag("--json", args->json, "print runs, tags (plugin, step count) and scalars as JSON");
    csv->excludes(json);
    auto* hparams =
        cmd->add_flag("--hparams", args->hparams,
                      "print the hparams plugin's sessions (each run's hyperparameters, status and metrics, as "
                      "TensorFlow's hparams API or PyTorch's add_hparams wrote them); with --json as JSON");
    hparams->excludes(csv);
    cmd->add_option("--tag", args->tagPattern, "only tags matching this regular expression (ECMAScript, searched)");
    cmd->callback([args, &exitCode] { exitCode = runEvents(*args); });
}

} // namespace tstudio::cli
