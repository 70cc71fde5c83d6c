// Project files: JSON -> Project (validated, errors with the JSON path), Project -> JSON (fixed key
// order), and --set overrides.
#include "project/format/project_file.h"

#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "io/atomic_file.h"
#include "project/format/project_json.h"
#include "project/format/json_text.h"

#include <algorithm>
#include <regex>
#include <set>

namespace tstudio::project {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

constexpr std::uint64_t kMaxProjectBytes = 64u << 20;

const std::vector<std::string> kOptimizerTypes = {"GradientDescent", "Momentum", "Adam",    "LazyAdam",
                                                  "RMSProp",         "Adagrad",  "Adadelta"};
const std::vector<std::string> kSchedules = {"constant",         "exponential_decay", "piecewise_constant",
                                             "polynomial_decay", "cosine_decay",      "inverse_time_decay"};

/// Each optimizer's hyper-parameters besides the learning rate, with TensorFlow 1.15's defaults
/// (Momentum's momentum has none in TensorFlow; 0.9 is the usual choice).
struct OptimizerTable {
    double defaultLearningRate;
    std::vector<std::pair<std::string, double>> numbers;
    std::vector<std::pair<std::string, bool>> flags;
};

const OptimizerTable& optimizerTable(const std::string& type)
{
    static const std::map<std::string, OptimizerTable> tables = {
        {"GradientDescent", {0.01, {}, {}}},
        {"Momentum", {0.01, {{"momentum", 0.9}}, {{"use_nesterov", false}}}},
        {"Adam", {0.001, {{"beta1", 0.9}, {"beta2", 0.999}, {"epsilon", 1e-8}}, {}}},
        {"LazyAdam", {0.001, {{"beta1", 0.9}, {"beta2", 0.999}, {"epsilon", 1e-8}}, {}}},
        {"RMSProp", {0.001, {{"decay", 0.9}, {"momentum", 0.0}, {"epsilon", 1e-10}}, {{"centered", false}}}},
        {"Adagrad", {0.01, {{"initial_accumulator_value", 0.1}}, {}}},
        {"Adadelta", {0.001, {{"rho", 0.95}, {"epsilon", 1e-8}}, {}}},
    };
    return tables.at(type);
}

// --- JSON -> Project ---------------------------------------------------------------------------------

Expected<LearningRate> readLearningRate(const JsonReader& r, const json& value, const std::string& path,
                                        double defaultRate)
{
    LearningRate lr;
    lr.learningRate = defaultRate;
    if (value.is_null())
        return lr;
    if (value.is_number()) {
        TSTUDIO_TRY(rate, r.number(value, path));
        lr.learningRate = rate;
        return lr;
    }
    if (!value.is_object())
        return unexpected(r.error(path, "expected a number or a schedule object, got " + describeJson(value)));
    TSTUDIO_TRY(schedule, r.oneOf(value, path, "schedule", kSchedules, std::string("constant")));
    lr.schedule = schedule;
    std::vector<std::string> keys = {"schedule", "learning_rate"};
    TSTUDIO_TRY(rate, r.numberKey(value, path, "learning_rate", defaultRate));
    lr.learningRate = rate;
    if (schedule == "exponential_decay" || schedule == "inverse_time_decay") {
        keys.insert(keys.end(), {"decay_steps", "decay_rate", "staircase"});
        TSTUDIO_TRY(steps, r.positiveIntKey(value, path, "decay_steps", std::nullopt));
        TSTUDIO_TRY(rateDecay, r.numberKey(value, path, "decay_rate", std::nullopt));
        TSTUDIO_TRY(staircase, r.boolKey(value, path, "staircase", false));
        lr.decaySteps = steps;
        lr.decayRate = rateDecay;
        lr.staircase = staircase;
    } else if (schedule == "piecewise_constant") {
        keys = {"schedule", "boundaries", "values"};
        TSTUDIO_TRY(boundaries, r.intListKey(value, path, "boundaries"));
        TSTUDIO_TRY(values, r.numberListKey(value, path, "values"));
        if (values.size() != boundaries.size() + 1)
            return unexpected(r.error(path + ".values", "expected " + std::to_string(boundaries.size() + 1) +
                                                            " values (one more than the boundaries), got " +
                                                            std::to_string(values.size())));
        lr.boundaries = boundaries;
        lr.values = values;
        lr.learningRate = values.front();
    } else if (schedule == "polynomial_decay") {
        keys.insert(keys.end(), {"decay_steps", "end_learning_rate", "power", "cycle"});
        TSTUDIO_TRY(steps, r.positiveIntKey(value, path, "decay_steps", std::nullopt));
        TSTUDIO_TRY(end, r.numberKey(value, path, "end_learning_rate", 0.0001));
        TSTUDIO_TRY(power, r.numberKey(value, path, "power", 1.0));
        TSTUDIO_TRY(cycle, r.boolKey(value, path, "cycle", false));
        lr.decaySteps = steps;
        lr.endLearningRate = end;
        lr.power = power;
        lr.cycle = cycle;
    } else if (schedule == "cosine_decay") {
        keys.insert(keys.end(), {"decay_steps", "alpha"});
        TSTUDIO_TRY(steps, r.positiveIntKey(value, path, "decay_steps", std::nullopt));
        TSTUDIO_TRY(alpha, r.numberKey(value, path, "alpha", 0.0));
        lr.decaySteps = steps;
        lr.alpha = alpha;
    }
    if (Status s = r.checkKeys(value, path, keys); !s.isOk())
        return unexpected(s);
    return lr;
}

Expected<OptimizerSpec> readOptimizer(const JsonReader& r, const json& value, const std::string& path)
{
    if (!value.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(value)));
    OptimizerSpec spec;
    TSTUDIO_TRY(type, r.oneOf(value, path, "type", kOptimizerTypes, std::nullopt));
    spec.type = type;
    const OptimizerTable& table = optimizerTable(type);
    std::vector<std::string> keys = {"type", "learning_rate"};
    TSTUDIO_TRY(lr, readLearningRate(r, value.contains("learning_rate") ? value.at("learning_rate") : json(),
                                        path + ".learning_rate", table.defaultLearningRate));
    spec.learningRate = lr;
    for (const auto& [key, fallback] : table.numbers) {
        keys.push_back(key);
        TSTUDIO_TRY(number, r.numberKey(value, path, key, fallback));
        spec.numbers[key] = number;
    }
    for (const auto& [key, fallback] : table.flags) {
        keys.push_back(key);
        TSTUDIO_TRY(flag, r.boolKey(value, path, key, fallback));
        spec.flags[key] = flag;
    }
    if (Status s = r.checkKeys(value, path, keys); !s.isOk())
        return unexpected(s);
    return spec;
}

Status checkRegex(const JsonReader& r, const std::string& pattern, const std::string& path)
{
    try {
        std::regex compiled(pattern);
        (void)compiled;
    } catch (const std::regex_error& e) {
        return r.error(path, "'" + pattern + "' is not a regular expression: " + e.what());
    }
    return Status::ok();
}

Expected<WarmStart> readWarmStart(const JsonReader& r, const json& value, const std::string& path)
{
    if (!value.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(value)));
    if (Status s = r.checkKeys(value, path, {"ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_prev_var_name"});
        !s.isOk())
        return unexpected(s);
    WarmStart w;
    TSTUDIO_TRY(from, r.stringKey(value, path, "ckpt_to_initialize_from", std::nullopt));
    if (from.empty())
        return unexpected(r.error(path + ".ckpt_to_initialize_from", "expected a checkpoint prefix or directory, got \"\""));
    w.ckptToInitializeFrom = from;
    TSTUDIO_TRY(vars, r.stringKey(value, path, "vars_to_warm_start", w.varsToWarmStart));
    if (Status s = checkRegex(r, vars, path + ".vars_to_warm_start"); !s.isOk())
        return unexpected(s);
    w.varsToWarmStart = vars;
    if (const auto it = value.find("var_name_to_prev_var_name"); it != value.end() && !it->is_null()) {
        const std::string mpath = path + ".var_name_to_prev_var_name";
        if (!it->is_object())
            return unexpected(
                r.error(mpath, "expected an object {variable: name in the checkpoint}, got " + describeJson(*it)));
        for (const auto& [key, name] : it->items()) {
            if (!name.is_string() || name.get<std::string>().empty())
                return unexpected(r.error(mpath + "." + key,
                                          "expected the variable's name in the checkpoint, got " + describeJson(name)));
            w.varNameToPrevVarName[key] = name.get<std::string>();
        }
    }
    return w;
}

Expected<TrainingSetup> readTraining(const JsonReader& r, const json& value, const std::string& path)
{
    if (!value.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(value)));
    if (Status s = r.checkKeys(value, path,
                               {"loss", "train_op", "global_step", "init_op", "optimizer", "clip_by_global_norm",
                                "var_list", "warm_start"});
        !s.isOk())
        return unexpected(s);
    TrainingSetup t;
    TSTUDIO_TRY(loss, r.optionalStringKey(value, path, "loss"));
    TSTUDIO_TRY(trainOp, r.optionalStringKey(value, path, "train_op"));
    TSTUDIO_TRY(globalStep, r.optionalStringKey(value, path, "global_step"));
    TSTUDIO_TRY(initOp, r.optionalStringKey(value, path, "init_op"));
    TSTUDIO_TRY(clip, r.optionalNumberKey(value, path, "clip_by_global_norm"));
    t.loss = loss.value_or("");
    t.trainOp = trainOp;
    t.globalStep = globalStep;
    t.initOp = initOp;
    const bool hasOptimizer = value.contains("optimizer") && !value.at("optimizer").is_null();
    if (hasOptimizer == trainOp.has_value())
        return unexpected(r.error(path, hasOptimizer
                                            ? "give either train_op or optimizer, not both"
                                            : "needs train_op (an op of the graph) or optimizer (to build one)"));
    if (hasOptimizer) {
        TSTUDIO_TRY(optimizer, readOptimizer(r, value.at("optimizer"), path + ".optimizer"));
        t.optimizer = optimizer;
        if (t.loss.empty())
            return unexpected(r.error(path + ".loss", "required with an optimizer (the tensor to minimize)"));
        if (clip && !(*clip > 0))
            return unexpected(r.error(path + ".clip_by_global_norm", "expected a positive number"));
        t.clipByGlobalNorm = clip;
    } else if (clip) {
        return unexpected(r.error(path + ".clip_by_global_norm", "only applies when an optimizer is built"));
    }
    TSTUDIO_TRY(varList, r.optionalStringKey(value, path, "var_list"));
    if (varList) {
        if (!hasOptimizer)
            return unexpected(r.error(path + ".var_list", "only applies when an optimizer is built"));
        if (Status s = checkRegex(r, *varList, path + ".var_list"); !s.isOk())
            return unexpected(s);
        t.varList = varList;
    }
    if (const auto it = value.find("warm_start"); it != value.end() && !it->is_null()) {
        TSTUDIO_TRY(warm, readWarmStart(r, *it, path + ".warm_start"));
        t.warmStart = warm;
    }
    return t;
}

Expected<Hooks> readHooks(const JsonReader& r, const json& value, const std::string& path)
{
    Hooks h;
    if (value.is_null())
        return h;
    if (!value.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(value)));
    if (Status s = r.checkKeys(value, path,
                               {"checkpoint_every_steps", "checkpoint_every_secs", "summary_every_steps",
                                "log_every_steps", "profile_every_steps", "stop_at_step"});
        !s.isOk())
        return unexpected(s);
    const std::pair<const char*, std::optional<std::int64_t>*> fields[] = {
        {"checkpoint_every_steps", &h.checkpointEverySteps}, {"checkpoint_every_secs", &h.checkpointEverySecs},
        {"summary_every_steps", &h.summaryEverySteps},       {"log_every_steps", &h.logEverySteps},
        {"profile_every_steps", &h.profileEverySteps},       {"stop_at_step", &h.stopAtStep}};
    for (const auto& [key, field] : fields) {
        if (!value.contains(key))
            continue;
        if (value.at(key).is_null()) {
            field->reset();
            continue;
        }
        TSTUDIO_TRY(n, r.positiveIntKey(value, path, key, std::nullopt));
        *field = n;
    }
    return h;
}

Expected<GraphSource> readGraph(const JsonReader& r, const json& value, const std::string& path)
{
    if (!value.is_object())
        return unexpected(r.error(path, "expected an object with \"file\" or \"pbtxt\", got " + describeJson(value)));
    if (Status s = r.checkKeys(value, path, {"file", "pbtxt"}); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(file, r.optionalStringKey(value, path, "file"));
    TSTUDIO_TRY(pbtxt, r.optionalStringKey(value, path, "pbtxt"));
    if (file.has_value() == pbtxt.has_value())
        return unexpected(
            r.error(path, "give exactly one of \"file\" (a graph file) and \"pbtxt\" (an inline GraphDef)"));
    if (file && file->empty())
        return unexpected(r.error(path + ".file", "must not be empty"));
    return GraphSource{file.value_or(""), pbtxt.value_or("")};
}

Expected<DebuggerSettings> readDebugger(const JsonReader& r, const json& doc, const std::string& path)
{
    if (!doc.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(doc)));
    if (Status s = r.checkKeys(doc, path, {"breakpoints", "watch"}); !s.isOk())
        return unexpected(s);
    DebuggerSettings settings;
    if (doc.contains("breakpoints") && !doc.at("breakpoints").is_null()) {
        const json& list = doc.at("breakpoints");
        if (!list.is_array())
            return unexpected(r.error(path + ".breakpoints", "expected an array, got " + describeJson(list)));
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = path + ".breakpoints[" + std::to_string(i) + "]";
            if (!list[i].is_object())
                return unexpected(r.error(at, "expected an object, got " + describeJson(list[i])));
            if (Status s = r.checkKeys(list[i], at, {"at", "enabled"}); !s.isOk())
                return unexpected(s);
            TSTUDIO_TRY(text, r.stringKey(list[i], at, "at", std::nullopt));
            TSTUDIO_TRY(enabled, r.boolKey(list[i], at, "enabled", true));
            auto breakpoint = debugger::parseBreakpoint(text);
            if (!breakpoint)
                return unexpected(r.error(at + ".at", breakpoint.error().message()));
            breakpoint->enabled = enabled;
            settings.breakpoints.push_back(std::move(*breakpoint));
        }
    }
    // An empty list means none: the writer leaves empty lists out, but earlier versions wrote
    // "watch": [] with every breakpoint, and those projects must still open.
    if (doc.contains("watch") && !doc.at("watch").is_null()) {
        const json& list = doc.at("watch");
        if (!list.is_array())
            return unexpected(r.error(path + ".watch", "expected an array of tensor names, got " + describeJson(list)));
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string() || list[i].get<std::string>().empty())
                return unexpected(r.error(path + ".watch[" + std::to_string(i) + "]",
                                          "expected a tensor name such as \"layer1/MatMul:0\", got " +
                                              describeJson(list[i])));
            settings.watch.push_back(list[i].get<std::string>());
        }
    }
    return settings;
}

/// "carry_state": [{"fetch": "final_state_c0", "feed": "initial_state_c0"}, ...]; a state is carried
/// within the epochs of a word_text source, so the project needs exactly one.
Expected<std::vector<CarryState>> readCarryState(const JsonReader& r, const json& list, const std::string& path,
                                                 const std::vector<DataSource>& sources)
{
    if (!list.is_array())
        return unexpected(r.error(path, "expected an array of {\"fetch\": tensor, \"feed\": placeholder}, got " +
                                            describeJson(list)));
    std::vector<CarryState> out;
    std::set<std::string> feeds;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = path + "[" + std::to_string(i) + "]";
        if (!list[i].is_object())
            return unexpected(r.error(at, "expected an object {\"fetch\", \"feed\"}, got " + describeJson(list[i])));
        if (Status s = r.checkKeys(list[i], at, {"fetch", "feed"}); !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(fetch, r.stringKey(list[i], at, "fetch", std::nullopt));
        TSTUDIO_TRY(feed, r.stringKey(list[i], at, "feed", std::nullopt));
        if (fetch.empty() || feed.empty())
            return unexpected(r.error(at + (fetch.empty() ? ".fetch" : ".feed"), "expected a tensor name, got ''"));
        if (!feeds.insert(feed).second)
            return unexpected(r.error(at + ".feed", "'" + feed + "' is fed by another carry_state entry too"));
        out.push_back(CarryState{fetch, feed});
    }
    const auto texts = std::count_if(sources.begin(), sources.end(), [](const DataSource& s) {
        return std::holds_alternative<WordTextParams>(s.params);
    });
    if (!out.empty() && texts != 1)
        return unexpected(r.error(path, "a state is carried through the epochs of a word_text source; the project "
                                        "has " + std::to_string(texts) + " word_text sources, 1 expected"));
    return out;
}

Expected<Project> readProject(const JsonReader& r, const json& doc)
{
    if (!doc.is_object())
        return unexpected(r.error("", "expected a JSON object, got " + describeJson(doc)));
    if (Status s = r.checkKeys(doc, "",
                               {"format", "version", "name", "graph", "data", "training", "batch_size", "steps", "export",
                                "hooks", "device", "replicas", "cuda_graphs", "logdir", "debugger", "summaries", "eval",
                                "carry_state", "perplexity", "distributed", "settings"});
        !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(format, r.stringKey(doc, "", "format", std::nullopt));
    if (format != kProjectFormat)
        return unexpected(r.error("format", "expected '" + std::string(kProjectFormat) + "', got '" + format + "'"));
    TSTUDIO_TRY(version, r.intKey(doc, "", "version", std::nullopt));
    if (version < 1 || version > kProjectVersion)
        return unexpected(r.error("version", "this TensorStudio reads versions 1 to " +
                                                 std::to_string(kProjectVersion) + ", got " + std::to_string(version)));
    Project p;
    p.version = static_cast<int>(version);
    TSTUDIO_TRY(name, r.stringKey(doc, "", "name", std::string()));
    p.name = name;
    if (!doc.contains("graph"))
        return unexpected(r.error("graph", "required"));
    TSTUDIO_TRY(graph, readGraph(r, doc.at("graph"), "graph"));
    p.graph = graph;
    if (doc.contains("data")) {
        const json& data = doc.at("data");
        if (!data.is_object())
            return unexpected(r.error("data", "expected an object, got " + describeJson(data)));
        if (Status s = r.checkKeys(data, "data", {"dir", "sources"}); !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(dir, r.optionalStringKey(data, "data", "dir"));
        p.dataDir = dir;
        if (data.contains("sources")) {
            const json& sources = data.at("sources");
            if (!sources.is_array())
                return unexpected(r.error("data.sources", "expected an array, got " + describeJson(sources)));
            for (std::size_t i = 0; i < sources.size(); ++i) {
                TSTUDIO_TRY(source, readDataSource(r, sources[i], "data.sources[" + std::to_string(i) + "]"));
                p.sources.push_back(std::move(source));
            }
        }
    }
    if (!doc.contains("training"))
        return unexpected(r.error("training", "required"));
    TSTUDIO_TRY(training, readTraining(r, doc.at("training"), "training"));
    p.training = training;
    TSTUDIO_TRY(batch, r.positiveIntKey(doc, "", "batch_size", 100));
    TSTUDIO_TRY(steps, r.positiveIntKey(doc, "", "steps", 1000));
    p.batchSize = batch;
    p.steps = steps;
    TSTUDIO_TRY(hooks, readHooks(r, doc.contains("hooks") ? doc.at("hooks") : json(), "hooks"));
    p.hooks = hooks;
    TSTUDIO_TRY(device, r.oneOf(doc, "", "device", {"cpu", "gpu"}, std::string("cpu")));
    p.device = device;
    TSTUDIO_TRY(replicas, r.intKey(doc, "", "replicas", 1));
    if (replicas < 1)
        return unexpected(r.error("replicas", "must be at least 1 (one tower per device), got " +
                                                  std::to_string(replicas)));
    if (p.batchSize % replicas != 0)
        return unexpected(r.error("replicas", "batch_size " + std::to_string(p.batchSize) +
                                                  " does not split evenly into " + std::to_string(replicas) +
                                                  " towers; choose a batch_size divisible by replicas"));
    p.replicas = replicas;
    TSTUDIO_TRY(cudaGraphs, r.boolKey(doc, "", "cuda_graphs", true));
    p.cudaGraphs = cudaGraphs;
    TSTUDIO_TRY(logdir, r.stringKey(doc, "", "logdir", std::string("logs")));
    if (logdir.empty())
        return unexpected(r.error("logdir", "must not be empty"));
    p.logdir = logdir;
    if (doc.contains("debugger")) {
        TSTUDIO_TRY(debugger, readDebugger(r, doc.at("debugger"), "debugger"));
        p.debugger = std::move(debugger);
    }
    if (doc.contains("export") && !doc.at("export").is_null()) {
        TSTUDIO_TRY(exporting, readExportSettings(r, doc.at("export"), "export"));
        p.exportSettings = std::move(exporting);
    }
    if (doc.contains("summaries") && !doc.at("summaries").is_null()) {
        const json& list = doc.at("summaries");
        if (!list.is_array())
            return unexpected(
                r.error("summaries",
                        "expected an array of {\"kind\", \"tensor\" or \"source\", ...}, got " + describeJson(list)));
        for (std::size_t i = 0; i < list.size(); ++i) {
            TSTUDIO_TRY(spec, readSummarySpec(r, list[i], "summaries[" + std::to_string(i) + "]", p.sources));
            p.summaries.push_back(std::move(spec));
        }
    }
    if (doc.contains("eval") && !doc.at("eval").is_null()) {
        TSTUDIO_TRY(eval, readEvalSettings(r, doc.at("eval"), "eval", p.sources));
        p.eval = std::move(eval);
    }
    if (doc.contains("carry_state") && !doc.at("carry_state").is_null()) {
        TSTUDIO_TRY(carry, readCarryState(r, doc.at("carry_state"), "carry_state", p.sources));
        p.carryState = std::move(carry);
    }
    if (doc.contains("distributed") && !doc.at("distributed").is_null()) {
        const json& section = doc.at("distributed");
        if (!section.is_object())
            return unexpected(r.error("distributed", "expected an object, got " + describeJson(section)));
        if (Status s = r.checkKeys(section, "distributed", {"scale_learning_rate", "replication", "ps_tasks"});
            !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(scale, r.boolKey(section, "distributed", "scale_learning_rate", false));
        p.distributed.scaleLearningRate = scale;
        TSTUDIO_TRY(replication, r.stringKey(section, "distributed", "replication", std::string("sync")));
        if (replication != "sync" && replication != "async")
            return unexpected(r.error("distributed.replication", "expected \"sync\" or \"async\", got '" +
                                                                     replication + "'"));
        p.distributed.asynchronous = replication == "async";
        TSTUDIO_TRY(psTasks, r.positiveIntKey(section, "distributed", "ps_tasks", 1));
        if (psTasks != 1 && !p.distributed.asynchronous)
            return unexpected(r.error("distributed.ps_tasks", "parameter servers need \"replication\": \"async\""));
        p.distributed.psTasks = psTasks;
    }
    if (doc.contains("perplexity") && !doc.at("perplexity").is_null()) {
        TSTUDIO_TRY(perplexity, r.stringKey(doc, "", "perplexity", std::nullopt));
        if (perplexity.empty())
            return unexpected(r.error("perplexity", "expected the per-word loss tensor, got ''"));
        p.perplexity = perplexity;
    }
    if (doc.contains("settings") && !doc.at("settings").is_null()) {
        if (!doc.at("settings").is_object())
            return unexpected(r.error("settings", "expected an object, got " + describeJson(doc.at("settings"))));
        p.settings = doc.at("settings");
    }
    return p;
}

// --- Project -> JSON ---------------------------------------------------------------------------------

ordered optionalInt(const std::optional<std::int64_t>& v)
{
    return v ? ordered(*v) : ordered(nullptr);
}

ordered optionalString(const std::optional<std::string>& v)
{
    return v ? ordered(*v) : ordered(nullptr);
}

ordered learningRateJson(const LearningRate& lr)
{
    if (lr.schedule == "constant")
        return lr.learningRate;
    ordered o;
    o["schedule"] = lr.schedule;
    if (lr.schedule == "piecewise_constant") {
        o["boundaries"] = lr.boundaries;
        o["values"] = lr.values;
        return o;
    }
    o["learning_rate"] = lr.learningRate;
    o["decay_steps"] = lr.decaySteps;
    if (lr.schedule == "exponential_decay" || lr.schedule == "inverse_time_decay") {
        o["decay_rate"] = lr.decayRate;
        o["staircase"] = lr.staircase;
    } else if (lr.schedule == "polynomial_decay") {
        o["end_learning_rate"] = lr.endLearningRate;
        o["power"] = lr.power;
        o["cycle"] = lr.cycle;
    } else if (lr.schedule == "cosine_decay") {
        o["alpha"] = lr.alpha;
    }
    return o;
}

ordered trainingJson(const TrainingSetup& t)
{
    ordered o;
    o["loss"] = t.loss.empty() ? ordered(nullptr) : ordered(t.loss);
    o["train_op"] = optionalString(t.trainOp);
    o["global_step"] = optionalString(t.globalStep);
    o["init_op"] = optionalString(t.initOp);
    if (t.optimizer) {
        ordered opt;
        opt["type"] = t.optimizer->type;
        opt["learning_rate"] = learningRateJson(t.optimizer->learningRate);
        const OptimizerTable& table = optimizerTable(t.optimizer->type);
        for (const auto& [key, fallback] : table.numbers) {
            auto it = t.optimizer->numbers.find(key);
            opt[key] = it == t.optimizer->numbers.end() ? fallback : it->second;
        }
        for (const auto& [key, fallback] : table.flags) {
            auto it = t.optimizer->flags.find(key);
            opt[key] = it == t.optimizer->flags.end() ? fallback : it->second;
        }
        o["optimizer"] = std::move(opt);
    } else {
        o["optimizer"] = nullptr;
    }
    o["clip_by_global_norm"] = t.clipByGlobalNorm ? ordered(*t.clipByGlobalNorm) : ordered(nullptr);
    if (t.varList)
        o["var_list"] = *t.varList;
    if (t.warmStart) {
        ordered w;
        w["ckpt_to_initialize_from"] = t.warmStart->ckptToInitializeFrom;
        w["vars_to_warm_start"] = t.warmStart->varsToWarmStart;
        ordered names = ordered::object();
        for (const auto& [var, prev] : t.warmStart->varNameToPrevVarName)
            names[var] = prev;
        w["var_name_to_prev_var_name"] = std::move(names);
        o["warm_start"] = std::move(w);
    }
    return o;
}

/// Walks one --set path to the object or array that holds its last part.
Status applyOne(json& doc, const Override& o)
{
    const std::string where = "--set " + o.path;
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = o.path.find('.', start);
        parts.push_back(o.path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); }))
        return invalidArgumentError(where + ": empty key in the path");
    json value = json::parse(o.value, nullptr, false);
    if (value.is_discarded())
        value = o.value;
    json* node = &doc;
    std::string walked;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        const bool last = i + 1 == parts.size();
        if (node->is_array()) {
            const bool numeric = std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
            const std::size_t index = numeric && part.size() < 9 ? std::stoul(part) : std::size_t(-1);
            if (index >= node->size())
                return invalidArgumentError(where + ": '" + walked + "' has " + std::to_string(node->size()) +
                                            " entries; there is no entry '" + part + "'");
            node = &(*node)[index];
        } else if (node->is_object()) {
            if (!node->contains(part)) {
                if (!last)
                    return invalidArgumentError(where + ": '" + (walked.empty() ? part : walked + "." + part) +
                                                "' is not in the project");
                (*node)[part] = value;
                return Status::ok();
            }
            node = &(*node)[part];
        } else {
            return invalidArgumentError(where + ": '" + walked + "' is " + describeJson(*node) +
                                        ", which has no key '" + part + "'");
        }
        walked += (walked.empty() ? "" : ".") + part;
    }
    *node = value;
    return Status::ok();
}

} // namespace

std::string DataSource::type() const
{
    static const char* const names[] = {"two_spirals", "mnist", "tfrecord", "csv", "numpy", "image_folder",
                                        "word_text", "cifar10", "skip_gram"};
    return names[params.index()];
}

std::filesystem::path Project::resolve(const std::string& relative) const
{
    const std::filesystem::path p(relative);
    if (p.is_absolute() || location.empty())
        return p;
    return location.parent_path() / p;
}

std::string projectLabel(const Project& project)
{
    return project.location.empty() ? std::string() : project.location.filename().string() + ": ";
}

Expected<Override> parseOverride(std::string_view text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return unexpected(invalidArgumentError("--set '" + std::string(text) + "': expected KEY=VALUE"));
    return Override{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

Status applyOverrides(nlohmann::json& document, const std::vector<Override>& overrides)
{
    for (const Override& o : overrides) {
        if (Status s = applyOne(document, o); !s.isOk())
            return s;
    }
    return Status::ok();
}

Expected<Project> parseProject(const std::string& text, const std::string& label,
                               const std::vector<Override>& overrides)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        // Not only parse_error: a number beyond double's range ("1e400") is an out_of_range (406).
        return unexpected(invalidArgumentError(label + ": not valid JSON: " + e.what()));
    }
    if (Status s = applyOverrides(doc, overrides); !s.isOk())
        return unexpected(s.withContext(label));
    return readProject(JsonReader(label), doc);
}

std::optional<DataSource> splitOf(const DataSource& source, std::int64_t skip, std::int64_t take)
{
    DataSource out = source;
    if (auto* m = std::get_if<MnistParams>(&out.params)) {
        m->skip = skip;
        m->take = take;
    } else if (auto* n = std::get_if<NumpyParams>(&out.params)) {
        n->skip = skip;
        n->take = take;
    } else if (auto* c = std::get_if<Cifar10Params>(&out.params)) {
        c->skip = skip;
        c->take = take;
    } else {
        return std::nullopt;
    }
    return out;
}

Expected<Project> loadProject(const std::filesystem::path& path, const std::vector<Override>& overrides)
{
    auto text = readWholeFile(path, kMaxProjectBytes);
    if (!text)
        return unexpected(text.error());
    auto project = parseProject(*text, path.filename().string(), overrides);
    if (!project)
        return unexpected(project.error());
    project->location = path;
    return project;
}

Expected<tensorflow::GraphDef> readProjectGraph(const Project& p)
{
    const std::string label = p.location.empty() ? std::string("project") : p.location.filename().string();
    if (!p.graph.pbtxt.empty())
        return parseGraphDef(p.graph.pbtxt, label + ": graph.pbtxt");
    auto file = readGraphFromFile(p.resolve(p.graph.file));
    if (!file)
        return unexpected(file.error().withContext(label + ": graph.file"));
    return std::move(file->graph);
}

std::string projectToJson(const Project& p)
{
    ordered o;
    o["format"] = std::string(kProjectFormat);
    o["version"] = p.version;
    o["name"] = p.name;
    ordered graph;
    if (!p.graph.pbtxt.empty())
        graph["pbtxt"] = p.graph.pbtxt;
    else
        graph["file"] = p.graph.file;
    o["graph"] = std::move(graph);
    ordered data;
    data["dir"] = optionalString(p.dataDir);
    data["sources"] = ordered::array();
    for (const DataSource& s : p.sources)
        data["sources"].push_back(dataSourceJson(s));
    o["data"] = std::move(data);
    o["training"] = trainingJson(p.training);
    o["batch_size"] = p.batchSize;
    o["steps"] = p.steps;
    ordered hooks;
    hooks["checkpoint_every_steps"] = optionalInt(p.hooks.checkpointEverySteps);
    hooks["checkpoint_every_secs"] = optionalInt(p.hooks.checkpointEverySecs);
    hooks["summary_every_steps"] = optionalInt(p.hooks.summaryEverySteps);
    hooks["log_every_steps"] = optionalInt(p.hooks.logEverySteps);
    hooks["profile_every_steps"] = optionalInt(p.hooks.profileEverySteps);
    hooks["stop_at_step"] = optionalInt(p.hooks.stopAtStep);
    o["hooks"] = std::move(hooks);
    o["device"] = p.device;
    if (p.replicas != 1)
        o["replicas"] = p.replicas;
    o["cuda_graphs"] = p.cudaGraphs;
    o["logdir"] = p.logdir;
    if (!p.debugger.empty()) {
        // Each list only when it has entries (the reader takes an empty or absent one as none).
        ordered section = ordered::object();
        for (const debugger::Breakpoint& b : p.debugger.breakpoints) {
            ordered entry;
            entry["at"] = debugger::formatBreakpoint(b);
            entry["enabled"] = b.enabled;
            section["breakpoints"].push_back(std::move(entry));
        }
        for (const std::string& tensor : p.debugger.watch)
            if (!tensor.empty()) // names nothing, and the reader refuses it
                section["watch"].push_back(tensor);
        if (!section.empty())
            o["debugger"] = std::move(section);
    }
    if (p.exportSettings)
        o["export"] = exportSettingsJson(*p.exportSettings);
    if (!p.summaries.empty()) {
        o["summaries"] = ordered::array();
        for (const SummarySpec& spec : p.summaries)
            o["summaries"].push_back(summarySpecJson(spec));
    }
    if (p.eval)
        o["eval"] = evalSettingsJson(*p.eval);
    if (!p.carryState.empty()) {
        o["carry_state"] = ordered::array();
        for (const CarryState& c : p.carryState)
            o["carry_state"].push_back(ordered{{"fetch", c.fetch}, {"feed", c.feed}});
    }
    if (!p.perplexity.empty())
        o["perplexity"] = p.perplexity;
    if (p.distributed != DistributedSettings{})
    {
        o["distributed"] = ordered{{"scale_learning_rate", p.distributed.scaleLearningRate}};
        if (p.distributed.asynchronous) {
            o["distributed"]["replication"] = "async";
            o["distributed"]["ps_tasks"] = p.distributed.psTasks;
        }
    }
    o["settings"] = ordered::parse(p.settings.dump()); // std::map order: sorted keys
    return jsonText(o, 2) + "\n";
}

Status saveProject(const Project& project, const std::filesystem::path& path)
{
    const std::string text = projectToJson(project);
    // A file that would not open again is not written (the old one stays): a project the writer
    // can express but the reader refuses is a bug, better reported here than found at reopening.
    if (auto reread = parseProject(text, path.filename().string()); !reread)
        return reread.error().withContext("not saved, as it would not open again");
    return writeFileAtomically(path, text);
}

} // namespace tstudio::project
