// tfprof's scope view with its options (see tfprof_view.h).
#include "profiler/tfprof_view.h"

#include "profiler/profile_summary.h"

#include <algorithm>
#include <cstdio>
#include <regex>

namespace tstudio::profiler {

namespace {

constexpr const char* kRoot = "_TFProfRoot";
/// The op type tfprof gives a scope that is not a node.
constexpr const char* kScopeParent = "_TFScopeParent";

const std::vector<std::string> kSelectable{"bytes",      "peak_bytes", "residual_bytes", "output_bytes",
                                           "micros",     "accelerator_micros", "cpu_micros", "params",
                                           "float_ops",  "occurrence", "device", "op_types"};
const std::vector<std::string> kOrderBy{"name",       "bytes",      "peak_bytes", "residual_bytes",
                                        "output_bytes", "micros",   "accelerator_micros", "cpu_micros",
                                        "params",     "float_ops",  "occurrence"};

/// A node's numbers as tfprof keeps them (times in whole microseconds).
struct Numbers {
    std::int64_t bytes = 0, peak = 0, residual = 0, output = 0;
    std::int64_t micros = 0, accelerator = 0, cpu = 0;
    std::int64_t params = 0, floatOps = 0, runs = 0, definitions = 0;

    void add(const Numbers& o)
    {
        bytes += o.bytes;
        peak += o.peak;
        residual += o.residual;
        output += o.output;
        micros += o.micros;
        accelerator += o.accelerator;
        cpu += o.cpu;
        params += o.params;
        floatOps += o.floatOps;
        runs += o.runs;
        definitions += o.definitions;
    }
};

struct Node {
    std::string name;
    std::string opType;
    Numbers self;
    Numbers total;
    std::vector<std::string> devices;
    std::vector<Node*> children; ///< by name
    std::vector<Node*> shown;    ///< accounted (then shown) children
    bool account = true;
    std::string line;
    std::vector<std::string> extraTypes; ///< an op log's types besides opType
};

using Regexes = std::vector<std::regex>;

Expected<Regexes> compile(const std::vector<std::string>& patterns, const char* what)
{
    Regexes out;
    for (const std::string& p : patterns) {
        try {
            out.emplace_back(p, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return unexpected(invalidArgumentError(std::string(what) + ": bad regex '" + p + "': " + e.what()));
        }
    }
    return out;
}

bool anyMatch(const Regexes& regexes, const std::string& text)
{
    return std::any_of(regexes.begin(), regexes.end(), [&](const std::regex& r) { return std::regex_match(text, r); });
}

bool isEverything(const std::vector<std::string>& patterns)
{
    return patterns.size() == 1 && patterns[0] == ".*";
}

class ScopeView {
public:
    ScopeView(const TfprofOptions& o, Regexes account, Regexes start, Regexes trim, Regexes show, Regexes hide)
        : m_o(o), m_account(std::move(account)), m_start(std::move(start)), m_trim(std::move(trim)),
          m_show(std::move(show)), m_hide(std::move(hide))
    {
    }

    std::string render(const ProfileTable& table)
    {
        build(table);
        std::vector<Node*> roots = accountNodes(m_root->children);
        m_root->total = Numbers{};
        for (Node* n : roots)
            m_root->total.add(n->total);
        if (!isEverything(m_o.startNameRegexes))
            roots = searchRoots(roots);
        m_root->shown = roots;
        Node* root = print({m_root}, 1, 0).front();
        std::string text = legend();
        emit(root, text);
        return text;
    }

private:
    void build(const ProfileTable& table)
    {
        m_nodes.reserve(table.rows.size() + 1);
        m_nodes.push_back(Node{kRoot, kScopeParent, {}, {}, {}, {}, {}, true, {}});
        for (const ProfileRow& row : table.rows) {
            Node n;
            n.name = row.name;
            n.opType = row.opType.empty() ? kScopeParent : row.opType;
            n.extraTypes = row.extraTypes;
            const ProfileStats& s = row.self;
            n.self = Numbers{s.requestedBytes, s.peakBytes,       s.residualBytes, s.outputBytes, s.execNs / 1000,
                             s.acceleratorNs / 1000, s.cpuNs / 1000, s.parameters, s.floatOps,   s.runs, 1};
            for (std::uint32_t d : row.devices)
                if (d < table.devices.size())
                    n.devices.push_back(table.devices[d]);
            m_nodes.push_back(std::move(n));
        }
        m_root = &m_nodes.front();
        for (std::size_t i = 0; i < table.rows.size(); ++i) {
            const std::uint32_t parent = table.rows[i].parent;
            Node* p = parent == kNoIndex ? m_root : &m_nodes[parent + 1];
            p->children.push_back(&m_nodes[i + 1]);
        }
        for (Node& n : m_nodes)
            std::sort(n.children.begin(), n.children.end(),
                      [](const Node* a, const Node* b) { return a->name < b->name; });
    }

    /// tfprof's Account: the nodes whose type is accounted, or that have accounted descendants, with
    /// their totals.
    std::vector<Node*> accountNodes(const std::vector<Node*>& nodes)
    {
        std::vector<Node*> kept;
        for (Node* n : nodes) {
            std::vector<Node*> children = accountNodes(n->children);
            n->account = isEverything(m_o.accountTypeRegexes) || anyMatch(m_account, n->opType) ||
                         std::any_of(n->extraTypes.begin(), n->extraTypes.end(),
                                     [&](const std::string& type) { return anyMatch(m_account, type); });
            if (!n->account && children.empty())
                continue;
            n->total = n->self;
            n->shown = children;
            for (Node* c : children)
                n->total.add(c->total);
            kept.push_back(n);
        }
        return kept;
    }

    std::vector<Node*> searchRoots(const std::vector<Node*>& nodes)
    {
        std::vector<Node*> found;
        for (Node* n : nodes) {
            if (anyMatch(m_start, n->name)) {
                found.push_back(n);
                continue;
            }
            const std::vector<Node*> below = searchRoots(n->shown);
            found.insert(found.end(), below.begin(), below.end());
        }
        return found;
    }

    bool shouldShow(const Node* n, int depth) const
    {
        if (n == m_root)
            return true;
        const Numbers& t = n->total;
        if (t.bytes < m_o.minBytes || t.peak < m_o.minPeakBytes || t.residual < m_o.minResidualBytes ||
            t.output < m_o.minOutputBytes || t.micros < m_o.minMicros || t.accelerator < m_o.minAcceleratorMicros ||
            t.cpu < m_o.minCpuMicros || n->self.params < m_o.minParams || n->self.floatOps < m_o.minFloatOps ||
            n->self.runs < m_o.minOccurrence || depth > m_o.maxDepth)
            return false;
        if (!isEverything(m_o.showNameRegexes) && !anyMatch(m_show, n->name))
            return false;
        return !anyMatch(m_hide, n->name);
    }

    /// tfprof's PrintScope: the shown nodes among `nodes` (a hidden node's shown descendants in its
    /// place), their lines made and, with account_displayed_op_only, their totals recomputed.
    std::vector<Node*> print(const std::vector<Node*>& nodes, int depth, int indent)
    {
        std::vector<Node*> out;
        for (Node* n : nodes) {
            const bool show = shouldShow(n, depth);
            const int childIndent = show ? indent + 2 : indent;
            std::vector<Node*> shownChildren;
            if (!anyMatch(m_trim, n->name) && depth <= m_o.maxDepth)
                shownChildren = print(n->shown, depth + 1, childIndent);
            if (!show) {
                out.insert(out.end(), shownChildren.begin(), shownChildren.end());
                continue;
            }
            if (m_o.accountDisplayedOpOnly) {
                n->total = n->self;
                for (Node* c : shownChildren)
                    n->total.add(c->total);
            }
            sortNodes(shownChildren);
            n->shown = shownChildren;
            n->line = std::string(static_cast<std::size_t>(indent), ' ') + format(*n) + "\n";
            out.push_back(n);
        }
        return out;
    }

    void sortNodes(std::vector<Node*>& nodes) const
    {
        const std::string& by = m_o.orderBy;
        auto key = [&](const Node* n) -> std::int64_t {
            const Numbers& t = n->total;
            if (by == "bytes") return t.bytes;
            if (by == "peak_bytes") return t.peak;
            if (by == "residual_bytes") return t.residual;
            if (by == "output_bytes") return t.output;
            if (by == "micros") return t.micros;
            if (by == "accelerator_micros") return t.accelerator;
            if (by == "cpu_micros") return t.cpu;
            if (by == "params") return t.params;
            if (by == "float_ops") return t.floatOps;
            if (by == "occurrence") return t.runs;
            return 0;
        };
        std::stable_sort(nodes.begin(), nodes.end(), [&](const Node* a, const Node* b) {
            if (by == "name")
                return a->name < b->name;
            return key(a) > key(b);
        });
    }

    std::string cell(const Node& n, std::int64_t self, const std::string& total, std::string (*f)(std::int64_t)) const
    {
        return (n.account && &n != m_root ? f(self) : std::string("--")) + "/" + total;
    }

    /// tfprof's FormatTime on microseconds: "12us", "1.23ms", "2.50sec".
    static std::string micros(std::int64_t us)
    {
        if (us < 1000)
            return std::to_string(us) + "us";
        char text[32];
        if (us < 1'000'000)
            std::snprintf(text, sizeof text, "%.2fms", static_cast<double>(us) / 1e3);
        else
            std::snprintf(text, sizeof text, "%.2fsec", static_cast<double>(us) / 1e6);
        return text;
    }

    std::string format(const Node& n) const
    {
        const auto has = [&](const char* s) { return m_o.select.count(s) > 0; };
        std::vector<std::string> info;
        if (has("params"))
            info.push_back(
                cell(n, n.self.params, formatProfileNumber(n.total.params) + " params", formatProfileNumber));
        if (has("float_ops"))
            info.push_back(cell(n, n.self.floatOps, formatProfileNumber(n.total.floatOps) + " flops",
                                formatProfileNumber));
        const std::pair<const char*, std::pair<std::int64_t, std::int64_t>> memory[] = {
            {"bytes", {n.self.bytes, n.total.bytes}},
            {"peak_bytes", {n.self.peak, n.total.peak}},
            {"residual_bytes", {n.self.residual, n.total.residual}},
            {"output_bytes", {n.self.output, n.total.output}}};
        for (const auto& [name, values] : memory)
            if (has(name))
                info.push_back(cell(n, values.first, formatProfileBytes(values.second), formatProfileBytes));
        if (has("micros"))
            info.push_back(cell(n, n.self.micros, micros(n.total.micros), micros));
        if (has("micros") || has("accelerator_micros"))
            info.push_back(cell(n, n.self.accelerator, micros(n.total.accelerator), micros));
        if (has("micros") || has("cpu_micros"))
            info.push_back(cell(n, n.self.cpu, micros(n.total.cpu), micros));
        if (has("device") && !n.devices.empty())
            info.push_back(join(n.devices, "|"));
        if (has("op_types")) {
            std::vector<std::string> types{n.opType};
            types.insert(types.end(), n.extraTypes.begin(), n.extraTypes.end());
            info.push_back(join(types, "|"));
        }
        if (has("occurrence"))
            info.push_back(cell(n, n.self.runs, formatProfileNumber(n.total.runs), formatProfileNumber) + "|" +
                           (n.account && &n != m_root ? std::string("1") : std::string("--")) + "/" +
                           formatProfileNumber(n.total.definitions));
        return n.name + " (" + join(info, ", ") + ")";
    }

    std::string legend() const
    {
        const auto has = [&](const char* s) { return m_o.select.count(s) > 0; };
        std::vector<std::string> legends;
        const std::pair<const char*, const char*> names[] = {
            {"params", "# parameters"},        {"float_ops", "# float_ops"},     {"bytes", "requested bytes"},
            {"peak_bytes", "peak bytes"},      {"residual_bytes", "residual bytes"}, {"output_bytes", "output bytes"}};
        for (const auto& [key, text] : names)
            if (has(key))
                legends.push_back(text);
        if (has("micros")) {
            legends.push_back("total execution time");
            legends.push_back("accelerator execution time");
            legends.push_back("cpu execution time");
        } else {
            if (has("accelerator_micros"))
                legends.push_back("accelerator execution time");
            if (has("cpu_micros"))
                legends.push_back("cpu execution time");
        }
        if (has("device"))
            legends.push_back("assigned devices");
        if (has("op_types"))
            legends.push_back("op types");
        if (has("occurrence"))
            legends.push_back("op count (run|defined)");
        return "node name | " + join(legends, " | ") + "\n";
    }

    static void emit(const Node* n, std::string& text)
    {
        text += n->line;
        for (const Node* c : n->shown)
            emit(c, text);
    }

    static std::string join(const std::vector<std::string>& parts, const char* separator)
    {
        std::string out;
        for (const std::string& p : parts)
            out += (out.empty() ? "" : separator) + p;
        return out;
    }

    const TfprofOptions& m_o;
    Regexes m_account, m_start, m_trim, m_show, m_hide;
    std::vector<Node> m_nodes;
    Node* m_root = nullptr;
};

} // namespace

std::vector<std::string> splitTfprofList(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!part.empty())
            out.push_back(part);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

Status checkTfprofOptions(const TfprofOptions& options)
{
    for (const std::string& s : options.select) {
        if (s == "tensor_value" || s == "input_shapes")
            return invalidArgumentError("select '" + s + "' is not available in this scope view");
        if (std::find(kSelectable.begin(), kSelectable.end(), s) == kSelectable.end())
            return invalidArgumentError("unknown select '" + s +
                                        "' (bytes, peak_bytes, residual_bytes, output_bytes, micros, "
                                        "accelerator_micros, cpu_micros, params, float_ops, occurrence, device, "
                                        "op_types)");
    }
    if (std::find(kOrderBy.begin(), kOrderBy.end(), options.orderBy) == kOrderBy.end())
        return invalidArgumentError("unknown order_by '" + options.orderBy +
                                    "' (name, bytes, peak_bytes, residual_bytes, output_bytes, micros, "
                                    "accelerator_micros, cpu_micros, params, float_ops, occurrence)");
    const std::pair<const char*, const std::vector<std::string>*> lists[] = {
        {"account_type_regexes", &options.accountTypeRegexes}, {"start_name_regexes", &options.startNameRegexes},
        {"trim_name_regexes", &options.trimNameRegexes},       {"show_name_regexes", &options.showNameRegexes},
        {"hide_name_regexes", &options.hideNameRegexes}};
    for (const auto& [name, list] : lists)
        if (auto compiled = compile(*list, name); !compiled)
            return compiled.error();
    return Status::ok();
}

Expected<std::string> formatTfprofScopeView(const ProfileTable& scopes, const TfprofOptions& options)
{
    if (scopes.view != ProfileView::ByScope)
        return unexpected(invalidArgumentError("the tfprof scope view needs a table by name scope"));
    if (Status s = checkTfprofOptions(options); !s.isOk())
        return unexpected(s);
    auto account = compile(options.accountTypeRegexes, "account_type_regexes");
    auto start = compile(options.startNameRegexes, "start_name_regexes");
    auto trim = compile(options.trimNameRegexes, "trim_name_regexes");
    auto show = compile(options.showNameRegexes, "show_name_regexes");
    auto hide = compile(options.hideNameRegexes, "hide_name_regexes");
    ScopeView view(options, std::move(*account), std::move(*start), std::move(*trim), std::move(*show),
                   std::move(*hide));
    return view.render(scopes);
}

} // namespace tstudio::profiler
