// `tstudio bench all`: children run interleaved, their figures read from their output.
#include "bench_all.h"

#include "bench_support.h"
#include "child_process.h"
#include "core/program_path.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <unistd.h>

namespace tstudio::cli {
namespace {

namespace fs = std::filesystem;

/// One program run per round, and the figures its output holds: key -> a pattern whose first group is
/// the number.
struct Job {
    std::string label; ///< for progress and errors: "tstudio bench mlp"
    std::vector<std::string> argv;
    std::vector<std::string> environment;
    std::vector<std::pair<std::string, std::string>> figures;
    std::string unavailable; ///< why the job cannot run (then argv is unused)
};

/// A table row: our figure and the peer's, each "<job label>#<figure key>".
struct Row {
    std::string name;
    std::string unit;
    std::string ours;
    std::string peerName;
    std::string peer;
};

struct Collected {
    std::map<std::string, std::vector<double>> values; ///< "<job label>#<figure key>" -> one per round
    std::map<std::string, std::string> errors;         ///< "job" -> what went wrong
};

/// The folder with pytorch_bench.py: `given`, else tools/bench in a folder above this program or
/// above the working directory (a build tree inside the source tree, or running from the source).
std::optional<fs::path> findTools(const std::string& given)
{
    if (!given.empty())
        return fs::exists(fs::path(given) / "pytorch_bench.py") ? std::optional<fs::path>(given) : std::nullopt;
    std::error_code ec;
    const Expected<fs::path> self = programPath();
    for (fs::path start : {self ? self->parent_path() : fs::path(), fs::current_path(ec)}) {
        for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
            if (fs::exists(dir / "tools" / "bench" / "pytorch_bench.py", ec))
                return dir / "tools" / "bench";
            if (dir == dir.root_path())
                break;
        }
    }
    return std::nullopt;
}

/// The last non-empty line of a program's output ("" when there is none).
std::string lastLine(std::string text)
{
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    const std::size_t newline = text.rfind('\n');
    return newline == std::string::npos ? text : text.substr(newline + 1);
}

/// Empty when `python` can import `modules`, else why not.
std::string pythonMissing(const std::string& python, const std::string& modules)
{
    auto r = runChild({python, "-c", "import " + modules}, {}, 120);
    if (!r)
        return r.error().message();
    if (r->exitCode != 0) {
        const std::string last = lastLine(r->output);
        return python + " cannot import " + modules + (last.empty() ? "" : " (" + last + ")");
    }
    return {};
}

std::string threadsText(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string triple(const std::vector<double>& v)
{
    if (v.empty())
        return "-";
    char text[96];
    std::snprintf(text, sizeof text, "%.1f / %.1f / %.1f", *std::min_element(v.begin(), v.end()), median(v),
                  *std::max_element(v.begin(), v.end()));
    return text;
}

void runJob(const Job& job, double timeoutSeconds, Collected& collected)
{
    if (!job.unavailable.empty() || collected.errors.count(job.label))
        return;
    auto r = runChild(job.argv, job.environment, timeoutSeconds);
    std::string error;
    if (!r) {
        error = r.error().message();
    } else if (r->timedOut) {
        error = "did not finish within " + std::to_string(static_cast<int>(timeoutSeconds)) + " s";
    } else {
        for (const auto& [key, pattern] : job.figures) {
            std::smatch m;
            if (std::regex_search(r->output, m, std::regex(pattern, std::regex::multiline))) {
                collected.values[job.label + "#" + key].push_back(std::stod(m[1].str()));
            } else {
                const std::string last = lastLine(r->output);
                error = "exit code " + std::to_string(r->exitCode) + ", no '" + key + "' figure" +
                        (last.empty() ? std::string() : ": " + last);
                break;
            }
        }
    }
    if (!error.empty())
        collected.errors[job.label] = error;
}

} // namespace

const std::vector<std::string>& benchAllRows()
{
    static const std::vector<std::string> rows = {"mlp", "lenet", "resnet", "ptb", "images", "pipelines"};
    return rows;
}

int benchAll(const BenchAllArgs& args)
{
    const Expected<fs::path> found = programPath();
    if (!found)
        return fail(found.error().withContext("bench all"));
    const fs::path self = *found;
    std::error_code ec;
    const std::vector<std::string> selected = args.only.empty() ? benchAllRows() : args.only;
    auto wanted = [&](const std::string& row) { return std::find(selected.begin(), selected.end(), row) != selected.end(); };

    const std::optional<fs::path> tools = findTools(args.tools);
    std::string noTorch, noPillow;
    if (!tools) {
        noTorch = noPillow = args.tools.empty() ? "tools/bench not found above this program or the working directory "
                                                  "(give --tools DIR)"
                                                : "no pytorch_bench.py in --tools " + args.tools;
    } else {
        if (wanted("mlp") || wanted("lenet") || wanted("resnet") || wanted("ptb"))
            noTorch = pythonMissing(args.python, "torch");
        if (wanted("images"))
            noPillow = pythonMissing(args.python, "PIL, numpy");
    }

    const std::string threads = std::to_string(args.threads);
    const std::vector<std::string> torchEnv = {"OMP_NUM_THREADS=" + threads, "OPENBLAS_NUM_THREADS=" + threads,
                                               "MKL_NUM_THREADS=" + threads};
    std::vector<std::string> stepArgs;
    if (args.steps > 0)
        stepArgs.insert(stepArgs.end(), {"--steps", std::to_string(args.steps)});
    if (args.warmup > 0)
        stepArgs.insert(stepArgs.end(), {"--warmup", std::to_string(args.warmup)});
    auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };

    // Jobs in the order each round runs them: a row's own run, then its peer's.
    std::vector<Job> jobs;
    std::vector<Row> rows;
    std::optional<fs::path> imageDir;
    for (const std::string model : {"mlp", "lenet", "resnet"}) {
        if (!wanted(model))
            continue;
        const std::string figure = "^" + model + ": ([0-9.]+) steps/s";
        jobs.push_back({"tstudio bench " + model,
                        with({self.string(), "bench", model, "--threads", threads}, stepArgs), {},
                        {{"steps/s", figure}}, {}});
        jobs.push_back({"pytorch_bench.py " + model,
                        tools ? with({args.python, (*tools / "pytorch_bench.py").string(), model, "--threads", threads},
                                     stepArgs)
                              : std::vector<std::string>{},
                        torchEnv, {{"steps/s", figure}}, noTorch});
        rows.push_back({model == "resnet" ? "resnet-20" : model, "steps/s",
                        jobs[jobs.size() - 2].label + "#steps/s", "PyTorch", jobs.back().label + "#steps/s"});
    }
    if (wanted("ptb")) {
        const std::string figure = "^ptb-small: ([0-9.]+) steps/s";
        jobs.push_back({"tstudio bench ptb", with({self.string(), "bench", "ptb", "--threads", threads}, stepArgs), {},
                        {{"steps/s", figure}}, {}});
        jobs.push_back({"pytorch_ptb.py",
                        tools ? with({args.python, (*tools / "pytorch_ptb.py").string(), "--threads", threads}, stepArgs)
                              : std::vector<std::string>{},
                        torchEnv, {{"steps/s", figure}}, noTorch});
        rows.push_back({"ptb-small", "steps/s", "tstudio bench ptb#steps/s", "PyTorch", "pytorch_ptb.py#steps/s"});
    }
    if (wanted("images")) {
        std::string pattern = (fs::temp_directory_path(ec) / "tstudio-bench-all-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            return fail(internalError("bench all: cannot make a temporary folder for the JPEGs"));
        imageDir = fs::path(pattern);
        // Both read the same JPEG files: tstudio writes them (--keep), Pillow decodes them.
        jobs.push_back({"tstudio bench images", {self.string(), "bench", "images", "--keep", imageDir->string()}, {},
                        {{"gray28", "^gray28: ([0-9.]+) images/s"}, {"rgb224", "^rgb224: ([0-9.]+) images/s"}}, {}});
        jobs.push_back({"pillow_decode.py",
                        tools ? std::vector<std::string>{args.python, (*tools / "pillow_decode.py").string(),
                                                         imageDir->string(), "--processes", "2"}
                              : std::vector<std::string>{},
                        {},
                        {{"gray28", "^gray28: ([0-9.]+) images/s"}, {"rgb224", "^rgb224: ([0-9.]+) images/s"}},
                        noPillow});
        for (const char* set : {"gray28", "rgb224"})
            rows.push_back({std::string("JPEG ") + set + " (2 threads)", "images/s",
                            "tstudio bench images#" + std::string(set), "Pillow (2 processes)",
                            "pillow_decode.py#" + std::string(set)});
    }
    if (wanted("pipelines")) {
        jobs.push_back({"tstudio bench queues", {self.string(), "bench", "queues", "--repeat", "1", "--threads", threads}, {},
                        {{"memory", "^memory [^:]*: ([0-9.]+) steps/s"},
                         {"queues", "^queues [^\\n]*\\): ([0-9.]+) steps/s"},
                         {"dataset", "^dataset [^\\n]*\\): ([0-9.]+) steps/s"}},
                        {}});
        rows.push_back({"MLP through graph queues", "steps/s", "tstudio bench queues#queues", "fed from memory",
                        "tstudio bench queues#memory"});
        rows.push_back({"MLP through tf.data", "steps/s", "tstudio bench queues#dataset", "fed from memory",
                        "tstudio bench queues#memory"});
    }

    Collected collected;
    for (int round = 0; round < args.rounds; ++round) {
        for (const Job& job : jobs) {
            if (!job.unavailable.empty())
                continue;
            std::fprintf(stderr, "round %d/%d: %s\n", round + 1, args.rounds, job.label.c_str());
            std::fflush(stderr);
            runJob(job, args.timeoutSeconds, collected);
        }
    }

    // Each row's state, then the table or the JSON document.
    bool ourFailure = false;
    auto jobOf = [](const std::string& figure) { return figure.substr(0, figure.rfind('#')); };
    auto peerState = [&](const Row& row) -> std::string {
        for (const Job& job : jobs)
            if (job.label == jobOf(row.peer) && !job.unavailable.empty())
                return "not run";
        return collected.errors.count(jobOf(row.peer)) ? "failed" : "ok";
    };
    std::vector<std::pair<std::string, std::string>> notes; // program, why: what did not run or failed
    for (const Job& job : jobs) {
        std::string why = !job.unavailable.empty() ? "not run: " + job.unavailable
                          : collected.errors.count(job.label) ? "failed: " + collected.errors[job.label]
                                                              : std::string();
        if (why.empty() || std::any_of(notes.begin(), notes.end(), [&](const auto& n) { return n.second == why; }))
            continue;
        notes.emplace_back(job.label, why);
    }
    for (const Row& row : rows)
        ourFailure = ourFailure || collected.errors.count(jobOf(row.ours)) > 0;

    if (args.json) {
        auto figures = [](const std::vector<double>& v) {
            nlohmann::ordered_json f;
            f["rounds"] = v;
            f["min"] = v.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(*std::min_element(v.begin(), v.end()));
            f["median"] = v.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(median(v));
            f["max"] = v.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(*std::max_element(v.begin(), v.end()));
            return f;
        };
        nlohmann::ordered_json out;
        out["rounds"] = args.rounds;
        out["threads"] = args.threads;
        nlohmann::ordered_json table = nlohmann::ordered_json::array();
        for (const Row& row : rows) {
            const auto& ours = collected.values[row.ours];
            const auto& peer = collected.values[row.peer];
            nlohmann::ordered_json r;
            r["benchmark"] = row.name;
            r["unit"] = row.unit;
            r["tensorstudio"] = figures(ours);
            r["tensorstudio_state"] = collected.errors.count(jobOf(row.ours)) ? "failed" : "ok";
            r["peer"] = row.peerName;
            r["peer_figures"] = figures(peer);
            r["peer_state"] = peerState(row);
            r["ratio"] = !ours.empty() && !peer.empty() && median(peer) > 0
                             ? nlohmann::ordered_json(median(ours) / median(peer))
                             : nlohmann::ordered_json(nullptr);
            table.push_back(std::move(r));
        }
        out["rows"] = std::move(table);
        nlohmann::ordered_json notesJson = nlohmann::ordered_json::array();
        for (const auto& [program, why] : notes)
            notesJson.push_back({{"program", program}, {"why", why}});
        out["notes"] = std::move(notesJson);
        std::printf("%s\n", jsonText(out, 2).c_str());
    } else {
        std::printf("tstudio bench all: %d interleaved round%s, %s on each side (mlp, lenet, resnet-20, ptb); "
                    "figures min / median / max\n",
                    args.rounds, args.rounds == 1 ? "" : "s", threadsText(args.threads).c_str());
        std::printf("%-28s %-9s %-26s %-22s %-26s %s\n", "benchmark", "unit", "tensorstudio", "peer", "peer's figures",
                    "ratio");
        for (const Row& row : rows) {
            const auto& ours = collected.values[row.ours];
            const auto& peer = collected.values[row.peer];
            std::string oursText = collected.errors.count(jobOf(row.ours)) ? "failed" : triple(ours);
            const std::string state = peerState(row);
            std::string peerText = state == "ok" ? triple(peer) : state;
            std::string ratio = "-";
            if (!ours.empty() && !peer.empty() && median(peer) > 0) {
                char text[32];
                std::snprintf(text, sizeof text, "%.2fx", median(ours) / median(peer));
                ratio = text;
            }
            std::printf("%-28s %-9s %-26s %-22s %-26s %s\n", row.name.c_str(), row.unit.c_str(), oursText.c_str(),
                        row.peerName.c_str(), peerText.c_str(), ratio.c_str());
        }
        for (const auto& [program, why] : notes)
            std::printf("%s: %s\n", program.c_str(), why.c_str());
    }
    if (imageDir)
        fs::remove_all(*imageDir, ec);
    return ourFailure ? kExitFailure : kExitOk;
}

} // namespace tstudio::cli
