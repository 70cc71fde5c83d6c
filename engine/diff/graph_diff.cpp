// graphDiff: nodes added, removed, renamed and changed between two GraphDefs.
#include "diff/graph_diff.h"

#include "proto/graph.pb.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tstudio::diff {
namespace {

using Nodes = std::map<std::string, const tensorflow::NodeDef*>;

std::string attrText(const tensorflow::AttrValue& value)
{
    std::string text;
    google::protobuf::TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    printer.PrintToString(value, &text);
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    return text;
}

std::string join(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return "[" + out + "]";
}

/// "x:1" -> ("x", ":1"), "^c" -> ("c", "^"), "y" -> ("y", "").
std::pair<std::string, std::string> splitInput(const std::string& input)
{
    if (!input.empty() && input[0] == '^')
        return {input.substr(1), "^"};
    const auto colon = input.rfind(':');
    if (colon != std::string::npos)
        return {input.substr(0, colon), input.substr(colon)};
    return {input, ""};
}

/// The inputs of `node` with producers renamed through `rename` (first-graph names to second's).
std::vector<std::string> mappedInputs(const tensorflow::NodeDef& node,
                                      const std::unordered_map<std::string, std::string>& rename)
{
    std::vector<std::string> out;
    for (const std::string& input : node.input()) {
        auto [producer, suffix] = splitInput(input);
        if (auto it = rename.find(producer); it != rename.end())
            producer = it->second;
        out.push_back(suffix == "^" ? "^" + producer : producer + suffix);
    }
    return out;
}

/// op, device, attrs: what pairs by structure besides the inputs.
std::string signature(const tensorflow::NodeDef& node)
{
    std::string s = node.op() + "|" + node.device();
    std::map<std::string, std::string> attrs;
    for (const auto& [name, value] : node.attr())
        attrs[name] = attrText(value);
    for (const auto& [name, text] : attrs)
        s += "|" + name + "=" + text;
    return s;
}

std::vector<NodeChange> compare(const tensorflow::NodeDef& a, const tensorflow::NodeDef& b,
                                const std::unordered_map<std::string, std::string>& rename)
{
    std::vector<NodeChange> changes;
    if (a.op() != b.op())
        changes.push_back({"op", a.op(), b.op()});
    if (a.device() != b.device())
        changes.push_back({"device", a.device(), b.device()});
    const std::vector<std::string> inputsA = mappedInputs(a, rename);
    const std::vector<std::string> inputsB(b.input().begin(), b.input().end());
    if (inputsA != inputsB)
        changes.push_back({"inputs", join({a.input().begin(), a.input().end()}), join(inputsB)});
    std::set<std::string> names;
    for (const auto& [name, value] : a.attr())
        names.insert(name);
    for (const auto& [name, value] : b.attr())
        names.insert(name);
    for (const std::string& name : names) {
        const auto ia = a.attr().find(name);
        const auto ib = b.attr().find(name);
        const std::string ta = ia == a.attr().end() ? std::string() : attrText(ia->second);
        const std::string tb = ib == b.attr().end() ? std::string() : attrText(ib->second);
        if (ta != tb)
            changes.push_back({name == "_output_shapes" ? std::string("output shapes") : "attr " + name, ta, tb});
    }
    return changes;
}

} // namespace

GraphDiff graphDiff(const tensorflow::GraphDef& first, const tensorflow::GraphDef& second)
{
    GraphDiff diff;
    diff.firstNodes = static_cast<std::size_t>(first.node_size());
    diff.secondNodes = static_cast<std::size_t>(second.node_size());
    Nodes a, b;
    for (const auto& n : first.node())
        a.emplace(n.name(), &n);
    for (const auto& n : second.node())
        b.emplace(n.name(), &n);

    // First-graph names to second-graph names: same names, then structural pairs.
    std::unordered_map<std::string, std::string> rename;
    std::set<std::string> onlyA, onlyB;
    for (const auto& [name, node] : a)
        if (b.count(name))
            rename[name] = name;
        else
            onlyA.insert(name);
    for (const auto& [name, node] : b)
        if (!a.count(name))
            onlyB.insert(name);
    for (bool progress = true; progress && !onlyA.empty() && !onlyB.empty();) {
        progress = false;
        // Second-graph candidates by their full signature (inputs as written there).
        std::map<std::string, std::vector<std::string>> candidates;
        for (const std::string& name : onlyB)
            candidates[signature(*b.at(name)) + "|" + join({b.at(name)->input().begin(), b.at(name)->input().end()})]
                .push_back(name);
        std::map<std::string, std::vector<std::string>> wanted;
        for (const std::string& name : onlyA)
            wanted[signature(*a.at(name)) + "|" + join(mappedInputs(*a.at(name), rename))].push_back(name);
        for (const auto& [key, firstNames] : wanted) {
            auto it = candidates.find(key);
            if (it == candidates.end() || it->second.size() != 1 || firstNames.size() != 1)
                continue;
            const std::string& from = firstNames.front();
            const std::string& to = it->second.front();
            rename[from] = to;
            diff.renamed.emplace_back(from, to);
            onlyA.erase(from);
            onlyB.erase(to);
            progress = true;
        }
    }
    diff.removed.assign(onlyA.begin(), onlyA.end());
    diff.added.assign(onlyB.begin(), onlyB.end());
    std::sort(diff.renamed.begin(), diff.renamed.end());

    for (const auto& [name, node] : a) {
        const auto found = b.find(name);
        if (found == b.end())
            continue;
        std::vector<NodeChange> changes = compare(*node, *found->second, rename);
        if (changes.empty())
            ++diff.unchanged;
        else
            diff.changed.push_back({name, found->second->op(), std::move(changes)});
    }
    diff.unchanged += diff.renamed.size();
    return diff;
}

} // namespace tstudio::diff
