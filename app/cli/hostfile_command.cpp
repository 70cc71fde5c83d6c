// tstudio hostfile: checks an Open MPI hostfile before `mpirun --hostfile F -np N tstudio train
// PROJECT --distributed`, so that a bad host is named before any rank starts.
#include "cli_command.h"

#include "project/distributed/hostfile.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace tstudio::cli {
namespace {

struct HostfileArgs {
    std::string file;
    int ranks = 0;
    bool oversubscribe = false;
    bool noResolve = false;
    bool json = false;
};

int check(const HostfileArgs& args)
{
    auto hostfile = project::readHostfile(args.file);
    if (!hostfile) {
        std::fprintf(stderr, "tstudio hostfile: %s\n", hostfile.error().toString().c_str());
        return kExitFailure;
    }
    project::HostfileCheckOptions options;
    options.ranks = args.ranks;
    options.oversubscribe = args.oversubscribe;
    options.resolve = !args.noResolve;
    if (Status s = project::checkHostfile(*hostfile, options); !s.isOk()) {
        std::fprintf(stderr, "tstudio hostfile: %s\n", s.toString().c_str());
        return kExitFailure;
    }
    if (args.json) {
        // Schema (docs/cli-json.md): file, hosts [{host, slots}], slots, resolved, ranks.
        nlohmann::json hosts = nlohmann::json::array();
        for (const project::HostfileEntry& e : hostfile->entries)
            hosts.push_back({{"host", e.host}, {"slots", e.slotCount}});
        const nlohmann::json out = {{"file", args.file},
                                    {"hosts", hosts},
                                    {"slots", hostfile->totalSlots()},
                                    {"resolved", options.resolve},
                                    {"ranks", args.ranks}};
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::string hosts;
    for (const project::HostfileEntry& e : hostfile->entries)
        hosts += (hosts.empty() ? "" : ", ") + e.host + " (" + std::to_string(e.slotCount) +
                 (e.slotCount == 1 ? " slot)" : " slots)");
    std::printf("hostfile '%s': %zu hosts, %d slots: %s%s%s\n", args.file.c_str(), hostfile->entries.size(),
                hostfile->totalSlots(), hosts.c_str(), options.resolve ? "; every host resolves" : "",
                args.ranks > 0 ? ("; room for " + std::to_string(args.ranks) + " ranks").c_str() : "");
    return kExitOk;
}

} // namespace

void addHostfileCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("hostfile", "Check an Open MPI hostfile (\"host [slots=N] [max_slots=N]\" per "
                                               "line) before mpirun --hostfile FILE -np N tstudio train PROJECT "
                                               "--distributed: every host must resolve and the slots must hold N "
                                               "ranks. Errors name the file, line and host");
    auto args = std::make_shared<HostfileArgs>();
    cmd->add_option("FILE", args->file, "the hostfile")->required();
    cmd->add_option("-n,--np", args->ranks, "the ranks the run will ask for (mpirun -np N; 0: do not compare)")
        ->check(CLI::Range(0, 1 << 20));
    cmd->add_flag("--oversubscribe", args->oversubscribe, "more ranks than slots is fine (mpirun --oversubscribe)");
    cmd->add_flag("--no-resolve", args->noResolve, "do not look the hosts up (check the syntax and slots only)");
    cmd->add_flag("--json", args->json, "print the hosts and slots as JSON (docs/cli-json.md)");
    cmd->callback([args, &exitCode] { exitCode = check(*args); });
}

} // namespace tstudio::cli
