// tstudio diff A B: what changed between two graphs (nodes added, removed, renamed, changed) or two
// checkpoints (tensors added, removed, changed with their largest and relative change).
#include "cli_command.h"

#include "diff/model_diff.h"
#include "project/format/json_text.h"
#include "project/format/setting_advice.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace tstudio::cli {
namespace {

struct DiffArgs {
    std::string first;
    std::string second;
    bool json = false;
    bool all = false;
};

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio diff: %s\n", project::withCliAdvice(s).toString().c_str());
    return kExitFailure;
}

/// A number for JSON: NaN and infinities as strings, as JSON has none.
nlohmann::ordered_json number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

std::string shortNumber(double v)
{
    std::ostringstream out;
    out.precision(4);
    out << v;
    return out.str();
}

int printGraphDiff(const DiffArgs& args, const diff::GraphDiff& d)
{
    if (args.json) {
        nlohmann::ordered_json out;
        out["kind"] = "graph";
        out["first"] = args.first;
        out["second"] = args.second;
        out["identical"] = d.identical();
        out["nodes"] = {{"first", d.firstNodes}, {"second", d.secondNodes}, {"unchanged", d.unchanged}};
        out["added"] = d.added;
        out["removed"] = d.removed;
        out["renamed"] = nlohmann::ordered_json::array();
        for (const auto& [from, to] : d.renamed)
            out["renamed"].push_back({{"from", from}, {"to", to}});
        out["changed"] = nlohmann::ordered_json::array();
        for (const auto& c : d.changed) {
            nlohmann::ordered_json node{{"name", c.name}, {"op", c.op}, {"changes", nlohmann::ordered_json::array()}};
            for (const auto& change : c.changes)
                node["changes"].push_back({{"what", change.what}, {"before", change.before}, {"after", change.after}});
            out["changed"].push_back(std::move(node));
        }
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::cout << "graphs: " << d.firstNodes << " and " << d.secondNodes << " nodes; " << d.unchanged << " unchanged, "
              << d.changed.size() << " changed, " << d.renamed.size() << " renamed, " << d.removed.size()
              << " removed, " << d.added.size() << " added\n";
    for (const std::string& n : d.removed)
        std::cout << "- " << n << "\n";
    for (const std::string& n : d.added)
        std::cout << "+ " << n << "\n";
    for (const auto& [from, to] : d.renamed)
        std::cout << "~ " << from << " -> " << to << "\n";
    for (const auto& c : d.changed) {
        std::cout << "* " << c.name << " (" << c.op << ")\n";
        for (const auto& change : c.changes)
            std::cout << "    " << change.what << ": " << (change.before.empty() ? "(none)" : change.before) << " -> "
                      << (change.after.empty() ? "(none)" : change.after) << "\n";
    }
    return kExitOk;
}

int printCheckpointDiff(const DiffArgs& args, const diff::CheckpointDiff& d)
{
    if (args.json) {
        nlohmann::ordered_json out;
        out["kind"] = "checkpoint";
        out["first"] = args.first;
        out["second"] = args.second;
        out["identical"] = d.identical();
        out["added"] = d.added;
        out["removed"] = d.removed;
        out["tensors"] = nlohmann::ordered_json::array();
        for (const auto& t : d.common) {
            if (!args.all && !t.changed())
                continue;
            nlohmann::ordered_json j{{"name", t.name}, {"changed", t.changed()}};
            if (t.dtypeBefore != t.dtypeAfter)
                j["dtype"] = {t.dtypeBefore, t.dtypeAfter};
            else
                j["dtype"] = t.dtypeBefore;
            if (t.shapeBefore != t.shapeAfter)
                j["shape"] = {t.shapeBefore, t.shapeAfter};
            else
                j["shape"] = t.shapeBefore;
            if (t.compared) {
                j["max_abs_delta"] = number(t.maxAbsDelta);
                j["relative_change"] = number(t.relativeChange);
                j["changed_elements"] = t.changedElements;
                j["elements"] = t.elements;
            }
            out["tensors"].push_back(std::move(j));
        }
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::size_t changed = 0;
    for (const auto& t : d.common)
        changed += t.changed() ? 1 : 0;
    std::cout << "checkpoints: " << d.common.size() << " tensors in both (" << changed << " changed), "
              << d.removed.size() << " removed, " << d.added.size() << " added\n";
    for (const std::string& n : d.removed)
        std::cout << "- " << n << "\n";
    for (const std::string& n : d.added)
        std::cout << "+ " << n << "\n";
    for (const auto& t : d.common) {
        if (!args.all && !t.changed())
            continue;
        std::cout << (t.changed() ? "* " : "  ") << t.name;
        if (t.dtypeBefore != t.dtypeAfter)
            std::cout << "  dtype " << t.dtypeBefore << " -> " << t.dtypeAfter;
        if (t.shapeBefore != t.shapeAfter)
            std::cout << "  shape " << t.shapeBefore << " -> " << t.shapeAfter;
        if (t.compared)
            std::cout << "  " << t.dtypeBefore << " " << t.shapeBefore << "  max |delta| " << shortNumber(t.maxAbsDelta)
                      << "  relative " << shortNumber(t.relativeChange) << "  (" << t.changedElements << " of "
                      << t.elements << " elements)";
        std::cout << "\n";
    }
    return kExitOk;
}

int diffFiles(const DiffArgs& args)
{
    auto d = diff::diffModels(args.first, args.second);
    if (!d)
        return fail(d.error());
    return d->isGraph() ? printGraphDiff(args, d->graph()) : printCheckpointDiff(args, d->checkpoint());
}

} // namespace

void addDiffCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "diff", "Compare two graphs (GraphDef, MetaGraph, SavedModel, event file: nodes added, removed, renamed and "
                "changed in op, attrs, inputs, device or shapes) or two checkpoints (tensors added, removed, and "
                "per tensor the largest absolute and the relative change)");
    auto args = std::make_shared<DiffArgs>();
    cmd->add_option("A", args->first, "the first graph or checkpoint")->required();
    cmd->add_option("B", args->second, "the second graph or checkpoint")->required();
    cmd->add_flag("--json", args->json, "print the differences as JSON");
    cmd->add_flag("--all", args->all, "checkpoints: list unchanged tensors too");
    cmd->callback([args, &exitCode] { exitCode = diffFiles(*args); });
}

} // namespace tstudio::cli
