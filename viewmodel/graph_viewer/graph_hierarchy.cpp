// Builds the graph viewer's hierarchy: name-scope groups, aggregated sibling edges, series and side areas.
#include "graph_viewer/graph_hierarchy.h"

#include "core/hash_combine.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_set>

namespace tstudio::graph_viewer {

namespace {

/// How many leading inputs of each op are reference inputs it writes (TF 1.x ref-typed ops).
const std::unordered_map<std::string, int>& refInputCounts()
{
    static const std::unordered_map<std::string, int> table = {
        {"Assign", 1},
        {"AssignAdd", 1},
        {"AssignSub", 1},
        {"CountUpTo", 1},
        {"ScatterUpdate", 1},
        {"ScatterAdd", 1},
        {"ScatterSub", 1},
        {"ScatterMul", 1},
        {"ScatterDiv", 1},
        {"ScatterMin", 1},
        {"ScatterMax", 1},
        {"ScatterNdUpdate", 1},
        {"ScatterNdAdd", 1},
        {"ScatterNdSub", 1},
        {"ApplyGradientDescent", 1},
        {"ApplyProximalGradientDescent", 1},
        {"ApplyMomentum", 2},
        {"ApplyAdagrad", 2},
        {"ApplyProximalAdagrad", 2},
        {"ApplyAdagradDA", 3},
        {"ApplyAdam", 3},
        {"ApplyAdaMax", 3},
        {"ApplyRMSProp", 3},
        {"ApplyCenteredRMSProp", 4},
        {"ApplyAdadelta", 3},
        {"ApplyFtrl", 3},
        {"ApplyFtrlV2", 3},
        {"ApplyAddSign", 2},
        {"ApplyPowerSign", 2},
        {"SparseApplyAdagrad", 2},
        {"SparseApplyMomentum", 2},
        {"SparseApplyAdam", 3},
        {"SparseApplyRMSProp", 3},
        {"SparseApplyFtrl", 3},
        {"SparseApplyAdadelta", 3},
    };
    return table;
}

std::uint64_t hashText(std::string_view text)
{
    return std::hash<std::string_view>{}(text);
}

/// Splits a numbered name: "conv_12" -> ("conv", "_", 12); false when the name does not end in digits after a
/// digit-free prefix.
bool splitNumbered(const std::string& leaf, bool allowNoUnderscore, std::string* prefix, bool* underscore, long* n)
{
    std::size_t end = leaf.size();
    std::size_t start = end;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(leaf[start - 1])))
        --start;
    if (start == end || end - start > 9)
        return false;
    std::size_t prefixEnd = start;
    *underscore = prefixEnd > 0 && leaf[prefixEnd - 1] == '_';
    if (*underscore)
        --prefixEnd;
    else if (!allowNoUnderscore)
        return false;
    for (std::size_t i = 0; i < prefixEnd; ++i)
        if (std::isdigit(static_cast<unsigned char>(leaf[i])))
            return false;
    if (prefixEnd == 0 && !*underscore)
        return false;
    *prefix = leaf.substr(0, prefixEnd);
    *n = std::stol(leaf.substr(start));
    return true;
}

std::string leafOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::int64_t tensorElements(const tensorflow::NodeDef& node, int output, bool* known)
{
    *known = false;
    const auto it = node.attr().find("_output_shapes");
    if (it == node.attr().end() || !it->second.has_list() || output < 0 || output >= it->second.list().shape_size())
        return 0;
    const auto& shape = it->second.list().shape(output);
    if (shape.unknown_rank())
        return 0;
    std::int64_t elements = 1;
    for (const auto& dim : shape.dim())
        elements *= dim.size() < 0 ? 1 : dim.size();
    *known = true;
    return elements;
}

} // namespace

bool isRefInput(const std::string& op, int index)
{
    const auto& table = refInputCounts();
    const auto it = table.find(op);
    return it != table.end() && index >= 0 && index < it->second;
}

namespace {

/// Every proper scope of the names ("a" and "a/b" for "a/b/c"), as views into them.
std::unordered_set<std::string_view> scopesOf(const std::vector<std::string>& names)
{
    std::unordered_set<std::string_view> scopes;
    scopes.reserve(names.size());
    // Names of one scope mostly come together: a name in the scope of the one before adds nothing new.
    std::string_view previous;
    for (const auto& name : names) {
        const std::size_t last = name.rfind('/');
        if (last == std::string::npos)
            continue;
        const std::string_view scope = std::string_view(name).substr(0, last);
        if (scope == previous)
            continue;
        previous = scope;
        for (std::size_t i = name.find('/'); i != std::string::npos; i = name.find('/', i + 1))
            scopes.insert(std::string_view(name).substr(0, i));
    }
    return scopes;
}

} // namespace

std::vector<std::string> GraphHierarchy::strictPaths(const std::vector<std::string>& names)
{
    const std::unordered_set<std::string_view> scopes = scopesOf(names);
    std::vector<std::string> paths;
    paths.reserve(names.size());
    for (const auto& name : names) {
        if (scopes.count(name))
            paths.push_back(name + "/(" + leafOf(name) + ")");
        else
            paths.push_back(name);
    }
    return paths;
}

class GraphHierarchy::Builder {
public:
    Builder(GraphHierarchy& h, const tensorflow::GraphDef& graph, const HierarchyOptions& options)
        : m_h(h), m_graph(graph), m_options(options)
    {
    }

    void run()
    {
        auto& nodes = m_h.m_nodes;
        nodes.push_back(HierarchyNode{});
        nodes[0].id = 0;
        makeGroupsAndOps();
        aggregateCounts();
        buildEdges();
        computeSignatures();
        if (m_options.seriesMinSize > 1)
            foldSeries();
        if (m_options.extractAuxiliary)
            for (std::size_t g = 0; g < m_h.m_nodes.size(); ++g)
                if (m_h.m_nodes[g].kind == HierarchyNodeKind::kGroup)
                    extractAuxiliary(static_cast<int>(g));
    }

private:
    int addNode(HierarchyNodeKind kind, std::string name, int parent)
    {
        auto& nodes = m_h.m_nodes;
        HierarchyNode node;
        node.id = static_cast<int>(nodes.size());
        node.kind = kind;
        node.name = std::move(name);
        node.parent = parent;
        nodes.push_back(std::move(node));
        nodes[static_cast<std::size_t>(parent)].children.push_back(nodes.back().id);
        m_h.m_byName.emplace(nodes.back().name, nodes.back().id);
        return nodes.back().id;
    }

    void makeGroupsAndOps()
    {
        const int count = m_graph.node_size();
        std::vector<std::string> names;
        names.reserve(static_cast<std::size_t>(count));
        // Views into the GraphDef's own strings, which outlive the builder: no copies, no allocations.
        m_graphIndexByName.reserve(static_cast<std::size_t>(count));
        m_opOfGraphIndex.assign(static_cast<std::size_t>(count), -1);
        std::vector<int> kept;
        kept.reserve(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i) {
            const auto& name = m_graph.node(i).name();
            if (name.empty()) {
                m_h.m_problems.push_back("node #" + std::to_string(i) + " has no name; left out");
                continue;
            }
            if (!m_graphIndexByName.emplace(std::string_view(name), i).second) {
                m_h.m_problems.push_back("duplicate node name '" + name + "' (node #" + std::to_string(i) +
                                         "); the first one is kept");
                continue;
            }
            names.push_back(name);
            kept.push_back(i);
        }
        resolveInputs();
        const std::unordered_set<std::string_view> scopes = scopesOf(names);
        classifyEmbeddings(names, kept, scopes);
        // Every node, group and series the hierarchy gets, so that the nodes never move: groups are scopes of
        // the drawn names (a subset of `scopes`), a series has at least seriesMinSize members.
        m_h.m_nodes.reserve(1 + scopes.size() + kept.size() + kept.size() / static_cast<std::size_t>(std::max(2, m_options.seriesMinSize)));
        {
            std::vector<std::string> coreNames;
            std::vector<int> coreKept;
            for (std::size_t k = 0; k < kept.size(); ++k) {
                if (m_embedKind[static_cast<std::size_t>(kept[k])] == kNotEmbedded) {
                    coreNames.push_back(std::move(names[k]));
                    coreKept.push_back(kept[k]);
                } else {
                    ++m_h.m_embeddedCount;
                }
            }
            names = std::move(coreNames);
            kept = std::move(coreKept);
        }
        const auto paths = strictPaths(names);
        std::unordered_map<std::string_view, int> groups; // scope path (a view into `paths`) -> group id
        groups.reserve(scopes.size());
        m_h.m_byName.reserve(scopes.size() + 2 * kept.size());
        m_h.m_opByNodeName.reserve(kept.size());
        // Ops of one scope mostly come together: an op in the scope of the one before has its parent.
        std::string_view previousScope;
        int previousParent = 0;
        for (std::size_t k = 0; k < kept.size(); ++k) {
            const std::string& path = paths[k];
            int parent = 0;
            const std::size_t last = path.rfind('/');
            if (last != std::string::npos && std::string_view(path).substr(0, last) == previousScope) {
                parent = previousParent;
            } else if (last != std::string::npos) {
                for (std::size_t i = path.find('/'); i != std::string::npos; i = path.find('/', i + 1)) {
                    const std::string_view scope = std::string_view(path).substr(0, i);
                    const auto [it, added] = groups.try_emplace(scope, -1);
                    if (added)
                        it->second = addNode(HierarchyNodeKind::kGroup, std::string(scope), parent);
                    parent = it->second;
                }
                previousScope = std::string_view(path).substr(0, last);
                previousParent = parent;
            }
            const auto& def = m_graph.node(kept[k]);
            const int id = addNode(HierarchyNodeKind::kOp, path, parent);
            auto& op = m_h.m_nodes[static_cast<std::size_t>(id)];
            op.nodeName = def.name();
            op.op = def.op();
            op.device = def.device();
            op.graphIndex = kept[k];
            op.opCount = 1;
            op.opHistogram[def.op()] = 1;
            if (!def.device().empty())
                op.deviceHistogram[def.device()] = 1;
            if (path != def.name())
                m_h.m_byName.emplace(def.name(), id);
            m_h.m_opByNodeName.emplace(def.name(), id);
            m_opOfGraphIndex[static_cast<std::size_t>(kept[k])] = id;
        }
    }

    static bool isSummaryOp(const std::string& op)
    {
        constexpr std::string_view suffix = "Summary";
        if (op.size() <= suffix.size() || op.compare(op.size() - suffix.size(), suffix.size(), suffix) != 0)
            return false;
        return std::all_of(op.begin(), op.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                           [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
    }

    /// The node an input names: "^a" and "a:1" name "a" (a view into `input`).
    static std::string_view sourceName(std::string_view input)
    {
        std::string_view source = !input.empty() && input[0] == '^' ? input.substr(1) : input;
        const auto colon = source.rfind(':');
        if (colon != std::string_view::npos && colon + 1 < source.size() &&
            std::all_of(source.begin() + static_cast<std::ptrdiff_t>(colon) + 1, source.end(),
                        [](char c) { return c >= '0' && c <= '9'; }))
            source = source.substr(0, colon);
        return source;
    }

    // In-embeddings need a consumer, summaries an input, so that no node silently disappears.
    void classifyEmbeddings(const std::vector<std::string>& names, const std::vector<int>& kept,
                            const std::unordered_set<std::string_view>& scopes)
    {
        m_embedKind.assign(static_cast<std::size_t>(m_graph.node_size()), kNotEmbedded);
        if (!m_options.enableEmbedding)
            return;
        std::vector<char> consumed(static_cast<std::size_t>(m_graph.node_size()), 0);
        for (int i : kept)
            for (int j = 0; j < m_graph.node(i).input_size(); ++j)
                if (const int source = sourceOf(i, j); source >= 0)
                    consumed[static_cast<std::size_t>(source)] = 1;
        // A node named like a scope ("dense/kernel" beside "dense/kernel/read", as a frozen graph's weights are)
        // stays a node: embedded, it would be drawn nowhere and its name would select the scope instead.
        const auto& inTypes = m_options.inEmbeddingTypes;
        for (std::size_t k = 0; k < kept.size(); ++k) {
            const auto& def = m_graph.node(kept[k]);
            if (scopes.count(names[k]))
                continue;
            if (std::find(inTypes.begin(), inTypes.end(), def.op()) != inTypes.end() &&
                consumed[static_cast<std::size_t>(kept[k])])
                m_embedKind[static_cast<std::size_t>(kept[k])] = kInEmbedding;
            else if (m_options.embedSummaries && isSummaryOp(def.op()) && def.input_size() > 0)
                m_embedKind[static_cast<std::size_t>(kept[k])] = kOutEmbedding;
        }
        // A summary attaches only to a real node: one reading only summaries (MergeSummary) stays a node.
        for (int i : kept) {
            if (m_embedKind[static_cast<std::size_t>(i)] != kOutEmbedding)
                continue;
            bool anchored = false;
            for (int j = 0; j < m_graph.node(i).input_size(); ++j) {
                const int source = sourceOf(i, j);
                if (source >= 0 && m_embedKind[static_cast<std::size_t>(source)] != kOutEmbedding)
                    anchored = true;
            }
            if (!anchored)
                m_embedKind[static_cast<std::size_t>(i)] = kNotEmbedded;
        }
    }

    // Children always have larger ids than their parents, so one backward pass sums bottom-up.
    void aggregateCounts()
    {
        auto& nodes = m_h.m_nodes;
        for (std::size_t i = nodes.size(); i-- > 1;) {
            auto& parent = nodes[static_cast<std::size_t>(nodes[i].parent)];
            parent.opCount += nodes[i].opCount;
            for (const auto& [k, v] : nodes[i].opHistogram)
                parent.opHistogram[k] += v;
            for (const auto& [k, v] : nodes[i].deviceHistogram)
                parent.deviceHistogram[k] += v;
        }
        m_depth.assign(nodes.size(), 0);
        for (std::size_t i = 1; i < nodes.size(); ++i)
            m_depth[i] = m_depth[static_cast<std::size_t>(nodes[i].parent)] + 1;
    }

    void addEdge(int group, int from, int to, bool control, bool ref, bool sized, std::int64_t size)
    {
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
        auto& edges = m_h.m_nodes[static_cast<std::size_t>(group)].edges;
        auto [it, inserted] = m_edgeIndex.emplace(key, static_cast<int>(edges.size()));
        if (inserted) {
            HierarchyEdge e;
            e.from = from;
            e.to = to;
            edges.push_back(e);
        }
        auto& e = edges[static_cast<std::size_t>(it->second)];
        if (control)
            ++e.controlCount;
        else if (ref)
            ++e.refCount;
        else
            ++e.dataCount;
        if (sized) {
            e.totalSize += size;
            ++e.sizedCount;
        }
    }

    struct ParsedInput {
        std::string_view source; ///< a view into the input string
        int output = 0;
        bool control = false;
        int graphIndex = -1; ///< the GraphDef node `source` names, -1 when none
    };

    /// Input j of GraphDef node gi, parsed, with the node it names.
    ParsedInput inputOf(int gi, int j) const
    {
        ParsedInput in = parseInput(m_graph.node(gi).input(j));
        in.graphIndex = sourceOf(gi, j);
        return in;
    }

    /// Every GraphDef node's inputs resolved to the nodes they name, once (m_graphIndexByName holds
    /// every kept node): each later use is an index, not another lookup by name.
    void resolveInputs()
    {
        const int count = m_graph.node_size();
        m_inputStart.assign(static_cast<std::size_t>(count) + 1, 0);
        for (int i = 0; i < count; ++i)
            m_inputStart[static_cast<std::size_t>(i) + 1] =
                m_inputStart[static_cast<std::size_t>(i)] + static_cast<std::size_t>(m_graph.node(i).input_size());
        m_inputSource.assign(m_inputStart.back(), -1);
        std::size_t at = 0;
        for (int i = 0; i < count; ++i)
            for (const auto& input : m_graph.node(i).input()) {
                const auto it = m_graphIndexByName.find(sourceName(input));
                m_inputSource[at++] = it == m_graphIndexByName.end() ? -1 : it->second;
            }
    }

    /// The GraphDef node input j of node gi names, -1 when none (resolveInputs).
    int sourceOf(int gi, int j) const
    {
        return m_inputSource[m_inputStart[static_cast<std::size_t>(gi)] + static_cast<std::size_t>(j)];
    }

    static ParsedInput parseInput(const std::string& input)
    {
        ParsedInput parsed;
        parsed.control = !input.empty() && input[0] == '^';
        parsed.source = sourceName(input);
        if (!parsed.control && parsed.source.size() < input.size()) {
            // sourceName stripped ":" and at least one digit.
            const std::string_view digits = std::string_view(input).substr(parsed.source.size() + 1);
            if (digits.size() >= 10 || std::from_chars(digits.data(), digits.data() + digits.size(), parsed.output).ec != std::errc())
                parsed.output = -1;
        }
        return parsed;
    }

    /// Adds one graph edge from the op named `source` to hierarchy op `dst` at the level where they are siblings.
    void connect(const ParsedInput& in, bool ref, int dst, const std::string& consumer, const std::string& input)
    {
        auto& nodes = m_h.m_nodes;
        if (in.source.empty()) {
            m_h.m_problems.push_back("node '" + consumer + "' has an empty input");
            return;
        }
        const int source = in.graphIndex >= 0 ? m_opOfGraphIndex[static_cast<std::size_t>(in.graphIndex)] : -1;
        if (source < 0) {
            if (in.graphIndex < 0)
                m_h.m_problems.push_back("node '" + consumer + "' has input '" + input +
                                         "' naming a node that is not in the graph");
            return; // an embedding's embedding: no node to connect
        }
        int a = source;
        int b = dst;
        if (a == b)
            return; // a self-loop has no sibling edge at any level
        bool sized = false;
        const std::int64_t size =
            in.control ? 0
                       : tensorElements(m_graph.node(nodes[static_cast<std::size_t>(a)].graphIndex), in.output, &sized);
        // Climb to the children of the lowest common ancestor. Every node climbed from has the edge crossing
        // its parent's border: an external output on the producer's side, an external input on the consumer's.
        const bool counted = !in.control;
        auto climbA = [&] {
            if (counted)
                ++nodes[static_cast<std::size_t>(a)].externalOutputs;
            a = nodes[static_cast<std::size_t>(a)].parent;
        };
        auto climbB = [&] {
            if (counted)
                ++nodes[static_cast<std::size_t>(b)].externalInputs;
            b = nodes[static_cast<std::size_t>(b)].parent;
        };
        while (m_depth[static_cast<std::size_t>(a)] > m_depth[static_cast<std::size_t>(b)])
            climbA();
        while (m_depth[static_cast<std::size_t>(b)] > m_depth[static_cast<std::size_t>(a)])
            climbB();
        while (nodes[static_cast<std::size_t>(a)].parent != nodes[static_cast<std::size_t>(b)].parent) {
            climbA();
            climbB();
        }
        if (a != b)
            addEdge(nodes[static_cast<std::size_t>(a)].parent, a, b, in.control, ref, sized && !in.control, size);
    }

    void buildEdges()
    {
        auto& nodes = m_h.m_nodes;
        // Summaries attach to the ops they read.
        for (int gi = 0; gi < m_graph.node_size(); ++gi) {
            if (m_embedKind[static_cast<std::size_t>(gi)] != kOutEmbedding)
                continue;
            for (int j = 0; j < m_graph.node(gi).input_size(); ++j) {
                const int source = sourceOf(gi, j);
                const int op = source >= 0 ? m_opOfGraphIndex[static_cast<std::size_t>(source)] : -1;
                if (op >= 0) {
                    nodes[static_cast<std::size_t>(op)].outEmbeddings.push_back(gi);
                    m_h.m_embeddedIn.emplace(m_graph.node(gi).name(), op);
                } else if (source < 0) {
                    m_h.m_problems.push_back("node '" + m_graph.node(gi).name() + "' has input '" +
                                             m_graph.node(gi).input(j) + "' naming a node that is not in the graph");
                }
            }
        }
        for (std::size_t gi = 0; gi < m_opOfGraphIndex.size(); ++gi) {
            const int dst = m_opOfGraphIndex[gi];
            if (dst < 0)
                continue;
            const auto& def = m_graph.node(static_cast<int>(gi));
            int dataIndex = 0;
            for (int j = 0; j < def.input_size(); ++j) {
                const std::string& input = def.input(j);
                const ParsedInput in = inputOf(static_cast<int>(gi), j);
                const int thisIndex = in.control ? -1 : dataIndex++;
                const bool ref = !in.control && isRefInput(def.op(), thisIndex);
                if (in.control)
                    nodes[static_cast<std::size_t>(dst)].hasControlInput = true;
                if (ref)
                    nodes[static_cast<std::size_t>(dst)].hasRefInput = true;
                const int embedded = in.graphIndex;
                const int kind =
                    embedded < 0 ? static_cast<int>(kNotEmbedded) : m_embedKind[static_cast<std::size_t>(embedded)];
                if (kind == kNotEmbedded) {
                    connect(in, ref, dst, def.name(), input);
                    continue;
                }
                const auto& embedDef = m_graph.node(embedded);
                if (kind == kInEmbedding) {
                    nodes[static_cast<std::size_t>(dst)].inEmbeddings.push_back(embedded);
                    m_h.m_embeddedIn.emplace(embedDef.name(), dst); // the first consumer hosts it
                    // The constant's own inputs (control dependencies) arrive at the consumer.
                    for (int e = 0; e < embedDef.input_size(); ++e)
                        connect(inputOf(embedded, e), false, dst, embedDef.name(), embedDef.input(e));
                } else {
                    // A consumer of a summary reads, through it, what the summary reads.
                    for (int e = 0; e < embedDef.input_size(); ++e) {
                        ParsedInput through = inputOf(embedded, e);
                        through.control = in.control;
                        connect(through, ref, dst, embedDef.name(), embedDef.input(e));
                    }
                }
            }
        }
        m_edgeIndex.clear();
    }

    // Ops: their type. Groups: the multiset of children's signatures and the shape of their internal edges.
    void computeSignatures()
    {
        auto& nodes = m_h.m_nodes;
        for (std::size_t i = nodes.size(); i-- > 0;) {
            auto& n = nodes[i];
            if (n.kind == HierarchyNodeKind::kOp) {
                n.signature = hashCombine(hashText("op"), hashText(n.op));
                continue;
            }
            std::vector<std::uint64_t> parts;
            parts.reserve(n.children.size());
            for (int c : n.children)
                parts.push_back(nodes[static_cast<std::size_t>(c)].signature);
            std::vector<std::uint64_t> edgeParts;
            edgeParts.reserve(n.edges.size());
            for (const auto& e : n.edges)
                edgeParts.push_back(
                    hashCombine(hashCombine(nodes[static_cast<std::size_t>(e.from)].signature,
                            nodes[static_cast<std::size_t>(e.to)].signature),
                        static_cast<std::uint64_t>(e.dataCount) * 31 + e.controlCount * 7 + e.refCount));
            std::sort(parts.begin(), parts.end());
            std::sort(edgeParts.begin(), edgeParts.end());
            std::uint64_t h = hashText("group");
            for (auto p : parts)
                h = hashCombine(h, p);
            h = hashCombine(h, 0x5eedULL);
            for (auto p : edgeParts)
                h = hashCombine(h, p);
            n.signature = h;
        }
    }

    struct Candidate {
        long number;
        int child;
    };

    /// The function library's group: each function stays its own group in the main area.
    bool isUnfolded(int g) const
    {
        return !m_options.unfoldedScope.empty() && m_h.m_nodes[static_cast<std::size_t>(g)].name == m_options.unfoldedScope;
    }

    void foldSeries()
    {
        const std::size_t groupCount = m_h.m_nodes.size();
        for (std::size_t g = 0; g < groupCount; ++g) {
            if (m_h.m_nodes[g].kind != HierarchyNodeKind::kGroup || isUnfolded(static_cast<int>(g)))
                continue;
            // Candidates keyed by prefix, underscore and structure; unnumbered "conv" counts as number 0.
            std::map<std::tuple<std::string, bool, std::uint64_t>, std::vector<Candidate>> candidates;
            for (int c : m_h.m_nodes[g].children) {
                const auto& child = m_h.m_nodes[static_cast<std::size_t>(c)];
                const std::string leaf = leafOf(child.name);
                std::string prefix;
                bool underscore = false;
                long number = 0;
                if (!splitNumbered(leaf, m_options.seriesWithoutUnderscore, &prefix, &underscore, &number)) {
                    prefix = leaf;
                    underscore = true;
                    number = 0;
                }
                candidates[{prefix, underscore, child.signature}].push_back({number, c});
            }
            std::unordered_map<int, int> seriesOf; // member -> series id
            for (auto& [key, list] : candidates) {
                if (static_cast<int>(list.size()) < m_options.seriesMinSize)
                    continue;
                std::sort(list.begin(), list.end(),
                          [](const Candidate& x, const Candidate& y) { return x.number < y.number; });
                std::size_t runStart = 0;
                for (std::size_t i = 1; i <= list.size(); ++i) {
                    if (i < list.size() && list[i].number == list[i - 1].number + 1)
                        continue;
                    if (static_cast<int>(i - runStart) >= m_options.seriesMinSize)
                        makeSeries(static_cast<int>(g), std::get<0>(key), std::get<1>(key), list, runStart, i,
                                   seriesOf);
                    runStart = i;
                }
            }
            if (seriesOf.empty())
                continue;
            // Members leave the group's children; their edges move to the series.
            auto& group = m_h.m_nodes[g];
            std::vector<int> kept;
            for (int c : group.children)
                if (!seriesOf.count(c))
                    kept.push_back(c);
            std::vector<int> seriesIds;
            for (int c : group.children)
                if (seriesOf.count(c)) {
                    const int s = seriesOf[c];
                    if (std::find(seriesIds.begin(), seriesIds.end(), s) == seriesIds.end())
                        seriesIds.push_back(s);
                }
            kept.insert(kept.end(), seriesIds.begin(), seriesIds.end());
            m_h.m_nodes[g].children = std::move(kept);
            std::vector<HierarchyEdge> old = std::move(m_h.m_nodes[g].edges);
            m_h.m_nodes[g].edges.clear();
            auto remap = [&](int id) {
                const auto it = seriesOf.find(id);
                return it == seriesOf.end() ? id : it->second;
            };
            std::map<std::pair<int, int>, std::size_t> index;
            for (const auto& e : old) {
                const int from = remap(e.from);
                const int to = remap(e.to);
                // Edges between two members of one series stay inside the series.
                const int owner = from == to ? from : static_cast<int>(g);
                const int a = from == to ? e.from : from;
                const int b = from == to ? e.to : to;
                auto& list = m_h.m_nodes[static_cast<std::size_t>(owner)].edges;
                const auto key = std::make_pair(a, b);
                auto it = index.find(key);
                if (it == index.end() || owner != static_cast<int>(g)) {
                    HierarchyEdge n = e;
                    n.from = a;
                    n.to = b;
                    list.push_back(n);
                    if (owner == static_cast<int>(g))
                        index.emplace(key, list.size() - 1);
                    continue;
                }
                auto& agg = list[it->second];
                agg.dataCount += e.dataCount;
                agg.controlCount += e.controlCount;
                agg.refCount += e.refCount;
                agg.totalSize += e.totalSize;
                agg.sizedCount += e.sizedCount;
            }
        }
    }

    void makeSeries(int group, const std::string& prefix, bool underscore, const std::vector<Candidate>& list,
                    std::size_t begin, std::size_t end, std::unordered_map<int, int>& seriesOf)
    {
        const std::string& groupName = m_h.m_nodes[static_cast<std::size_t>(group)].name;
        const std::string leaf = prefix + (underscore ? "_" : "") + "[" + std::to_string(list[begin].number) + "-" +
                                 std::to_string(list[end - 1].number) + "]";
        HierarchyNode series;
        series.id = static_cast<int>(m_h.m_nodes.size());
        series.kind = HierarchyNodeKind::kSeries;
        series.name = groupName.empty() ? leaf : groupName + "/" + leaf;
        series.parent = group;
        series.seriesFirst = static_cast<int>(list[begin].number);
        series.seriesLast = static_cast<int>(list[end - 1].number);
        series.signature = m_h.m_nodes[static_cast<std::size_t>(list[begin].child)].signature;
        for (std::size_t i = begin; i < end; ++i) {
            const auto& member = m_h.m_nodes[static_cast<std::size_t>(list[i].child)];
            series.children.push_back(member.id);
            series.opCount += member.opCount;
            series.externalInputs += member.externalInputs;
            series.externalOutputs += member.externalOutputs;
            for (const auto& [k, v] : member.opHistogram)
                series.opHistogram[k] += v;
            for (const auto& [k, v] : member.deviceHistogram)
                series.deviceHistogram[k] += v;
        }
        m_h.m_byName.emplace(series.name, series.id);
        for (int member : series.children) {
            m_h.m_nodes[static_cast<std::size_t>(member)].parent = series.id;
            seriesOf[member] = series.id;
        }
        m_h.m_nodes.push_back(std::move(series));
    }

    // TensorBoard's side-area rules over one group's children: predefined sinks (NoOp) and sources, then
    // children whose in-degree exceeds Q3 + (Q3 - Q1) or out-degree exceeds Q3 + 4 (Q3 - Q1), in groups with
    // at least minNodeCountForExtraction children. Degrees count neighbours over data edges, or over control
    // edges when a child has only control neighbours.
    void extractAuxiliary(int g)
    {
        auto& group = m_h.m_nodes[static_cast<std::size_t>(g)];
        const std::size_t n = group.children.size();
        if (n == 0 || isUnfolded(g))
            return;
        std::unordered_map<int, std::size_t> pos;
        for (std::size_t i = 0; i < n; ++i)
            pos.emplace(group.children[i], i);
        std::vector<char> removed(n, 0);
        auto typeOf = [&](std::size_t i) -> const std::string& {
            return m_h.m_nodes[static_cast<std::size_t>(group.children[i])].op;
        };
        auto matches = [](const std::string& op, const std::vector<std::string>& types) {
            return !op.empty() && std::find(types.begin(), types.end(), op) != types.end();
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (matches(typeOf(i), m_options.outExtractTypes)) {
                removed[i] = 1;
                group.outExtract.push_back(group.children[i]);
            } else if (matches(typeOf(i), m_options.inExtractTypes)) {
                removed[i] = 1;
                group.inExtract.push_back(group.children[i]);
            }
        }
        std::vector<int> inData(n, 0), inAll(n, 0), outData(n, 0), outAll(n, 0);
        for (const auto& e : group.edges) {
            const std::size_t a = pos.at(e.from);
            const std::size_t b = pos.at(e.to);
            if (removed[a] || removed[b])
                continue;
            const bool regular = e.dataCount + e.refCount > 0;
            ++outAll[a];
            ++inAll[b];
            if (regular) {
                ++outData[a];
                ++inData[b];
            }
        }
        std::vector<std::size_t> valid;
        for (std::size_t i = 0; i < n; ++i)
            if (!removed[i])
                valid.push_back(i);
        if (static_cast<int>(valid.size()) < m_options.minNodeCountForExtraction)
            return;
        std::vector<int> inDeg(n), outDeg(n);
        for (std::size_t i : valid) {
            inDeg[i] = inData[i] == 0 ? inAll[i] : inData[i];
            outDeg[i] = outData[i] == 0 ? outAll[i] : outData[i];
        }
        const std::size_t count = valid.size();
        const std::size_t q3 = std::min(count - 1, static_cast<std::size_t>(count * 0.75 + 0.5));
        const std::size_t q1 = std::min(count - 1, static_cast<std::size_t>(count * 0.25 + 0.5));
        const int minBound = m_options.minDegreeForExtraction - 1;
        // Unlike TensorBoard, the interior of the longest data path through the group (the model's main flow,
        // such as layer1 -> layer2 -> loss, whose variables give them high degrees) is never extracted.
        const std::vector<char> mainPath = longestDataPath(group, pos, removed);
        auto extract = [&](const std::vector<int>& deg, int factor, std::vector<int>& into, bool skipTaken) {
            std::vector<std::size_t> sorted = valid;
            std::stable_sort(sorted.begin(), sorted.end(),
                             [&](std::size_t x, std::size_t y) { return deg[x] < deg[y]; });
            const int upper = std::max(deg[sorted[q3]] + (deg[sorted[q3]] - deg[sorted[q1]]) * factor, minBound);
            for (std::size_t k = count; k-- > 0 && deg[sorted[k]] > upper;) {
                if ((skipTaken && removed[sorted[k]]) || mainPath[sorted[k]])
                    continue;
                removed[sorted[k]] = 1;
                into.push_back(group.children[sorted[k]]);
            }
        };
        extract(inDeg, 1, group.inExtract, false);
        extract(outDeg, 4, group.outExtract, true);
    }

    /// Marks the interior children (not the two ends) of one longest path over data edges between children not
    /// yet removed (Kahn's order, entering cycles greedily; an edge into a node already processed is ignored).
    std::vector<char> longestDataPath(const HierarchyNode& group, const std::unordered_map<int, std::size_t>& pos,
                                      const std::vector<char>& removed) const
    {
        const std::size_t n = group.children.size();
        std::vector<std::vector<std::size_t>> out(n);
        std::vector<int> indegree(n, 0);
        for (const auto& e : group.edges) {
            if (e.dataCount + e.refCount == 0)
                continue;
            const std::size_t a = pos.at(e.from), b = pos.at(e.to);
            if (removed[a] || removed[b] || a == b)
                continue;
            out[a].push_back(b);
            ++indegree[b];
        }
        std::vector<int> length(n, 1);
        std::vector<std::size_t> previous(n, n), queue;
        for (std::size_t i = 0; i < n; ++i)
            if (!removed[i] && indegree[i] == 0)
                queue.push_back(i);
        std::size_t best = n;
        std::vector<char> queued(n, 0), done(n, 0);
        for (std::size_t i : queue)
            queued[i] = 1;
        std::size_t active = 0;
        for (std::size_t i = 0; i < n; ++i)
            active += removed[i] ? 0 : 1;
        for (std::size_t head = 0; head < queue.size() || queue.size() < active; ++head) {
            if (head == queue.size()) {
                // Only cycles are left (a variable and the cond that reads its initial value): enter at the node
                // with the fewest unprocessed inputs, ignoring them, as greedy cycle breaking does.
                std::size_t pick = n;
                for (std::size_t i = 0; i < n; ++i)
                    if (!removed[i] && !queued[i] && (pick == n || indegree[i] < indegree[pick]))
                        pick = i;
                queued[pick] = 1;
                queue.push_back(pick);
            }
            const std::size_t u = queue[head];
            done[u] = 1;
            if (best == n || length[u] > length[best])
                best = u;
            for (std::size_t v : out[u]) {
                if (done[v])
                    continue; // a back edge of a cycle
                if (length[u] + 1 > length[v]) {
                    length[v] = length[u] + 1;
                    previous[v] = u;
                }
                if (--indegree[v] == 0 && !queued[v]) {
                    queued[v] = 1;
                    queue.push_back(v);
                }
            }
        }
        // Interior nodes only: a sink or source at either end (a "save" reading everything) may still go.
        std::vector<char> marked(n, 0);
        if (best != n && length[best] >= 3)
            for (std::size_t u = previous[best]; u != n && previous[u] != n; u = previous[u])
                marked[u] = 1;
        return marked;
    }

    GraphHierarchy& m_h;
    const tensorflow::GraphDef& m_graph;
    const HierarchyOptions& m_options;
    std::vector<int> m_opOfGraphIndex;
    std::vector<int> m_depth;
    std::unordered_map<std::uint64_t, int> m_edgeIndex;
    // Keyed by views into the GraphDef's node names.
    std::unordered_map<std::string_view, int> m_graphIndexByName; // every kept GraphDef node
    std::vector<std::size_t> m_inputStart; ///< per GraphDef node, where its inputs start in m_inputSource
    std::vector<int> m_inputSource;        ///< per input, the GraphDef node it names (-1: none)
    enum : char { kNotEmbedded, kInEmbedding, kOutEmbedding };
    std::vector<char> m_embedKind;
};

GraphHierarchy GraphHierarchy::build(const tensorflow::GraphDef& graph, const HierarchyOptions& options)
{
    GraphHierarchy h;
    Builder(h, graph, options).run();
    return h;
}

int GraphHierarchy::find(const std::string& name) const
{
    const auto it = m_byName.find(name);
    return it == m_byName.end() ? -1 : it->second;
}

int GraphHierarchy::findOp(const std::string& nodeName) const
{
    const auto it = m_opByNodeName.find(nodeName);
    return it == m_opByNodeName.end() ? -1 : it->second;
}

int GraphHierarchy::embeddingHost(const std::string& nodeName) const
{
    const auto it = m_embeddedIn.find(nodeName);
    return it == m_embeddedIn.end() ? -1 : it->second;
}

const HierarchyEdge* GraphHierarchy::edge(int from, int to) const
{
    if (from < 0 || to < 0 || from >= static_cast<int>(m_nodes.size()) || to >= static_cast<int>(m_nodes.size()))
        return nullptr;
    const int parent = m_nodes[static_cast<std::size_t>(from)].parent;
    if (parent < 0)
        return nullptr;
    for (const auto& e : m_nodes[static_cast<std::size_t>(parent)].edges)
        if (e.from == from && e.to == to)
            return &e;
    return nullptr;
}

} // namespace tstudio::graph_viewer
