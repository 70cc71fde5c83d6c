// Turns a GraphDef's FunctionDefLibrary into view-graph nodes under "__function_library__" and links call nodes.
#include "graph_viewer/function_library_view.h"

#include "framework/data_type.h"
#include "framework/op_registry.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace tstudio::graph_viewer {
namespace {

bool allDigits(std::string_view text)
{
    return !text.empty() && text.size() < 10 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "x: float", "xs: N * T", "ys: Tlist".
std::string argumentText(const tensorflow::OpDef::ArgDef& arg)
{
    std::string type;
    if (arg.type() != tensorflow::DT_INVALID)
        type = dataTypeName(static_cast<DataType>(arg.type()));
    else if (!arg.type_attr().empty())
        type = arg.type_attr();
    else
        type = arg.type_list_attr();
    if (!arg.number_attr().empty())
        type = arg.number_attr() + " * " + type;
    return type.empty() ? arg.name() : arg.name() + ": " + type;
}

/// How many tensors argument `arg` stands for in `node`, or -1 when the node's attrs do not say.
int argumentLength(const tensorflow::OpDef::ArgDef& arg, const tensorflow::NodeDef& node)
{
    const std::string& lengthAttr = !arg.number_attr().empty() ? arg.number_attr() : arg.type_list_attr();
    if (lengthAttr.empty())
        return 1;
    const auto it = node.attr().find(lengthAttr);
    if (it == node.attr().end())
        return -1;
    if (!arg.number_attr().empty())
        return it->second.value_case() == tensorflow::AttrValue::kI ? static_cast<int>(it->second.i()) : -1;
    return it->second.value_case() == tensorflow::AttrValue::kList ? it->second.list().type_size() : -1;
}

/// Sets attr `T` of an argument or result node: the type, or "$type_attr" while the signature leaves it open.
void setTypeAttrs(tensorflow::NodeDef& node, const tensorflow::OpDef::ArgDef& arg, int index)
{
    auto& attrs = *node.mutable_attr();
    if (arg.type() != tensorflow::DT_INVALID)
        attrs["T"].set_type(arg.type());
    else if (!arg.type_attr().empty())
        attrs["T"].set_placeholder(arg.type_attr());
    else if (!arg.type_list_attr().empty())
        attrs["T"].set_placeholder(arg.type_list_attr());
    if (!arg.number_attr().empty())
        attrs["N"].set_placeholder(arg.number_attr());
    attrs["index"].set_i(index);
}

} // namespace

std::vector<FunctionCall> functionCallsOf(const tensorflow::NodeDef& node,
                                          const std::function<int(const std::string&)>& indexOf)
{
    std::vector<FunctionCall> calls;
    if (const int index = indexOf(node.op()); index >= 0)
        calls.push_back({std::string(), node.op(), index});
    // The attr map's order is unspecified: name order keeps the list stable.
    std::vector<const std::string*> names;
    for (const auto& [name, value] : node.attr())
        if (value.value_case() == tensorflow::AttrValue::kFunc ||
            (value.value_case() == tensorflow::AttrValue::kList && value.list().func_size() > 0))
            names.push_back(&name);
    std::sort(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
    for (const std::string* name : names) {
        const tensorflow::AttrValue& value = node.attr().at(*name);
        if (value.value_case() == tensorflow::AttrValue::kFunc) {
            if (!value.func().name().empty())
                calls.push_back({*name, value.func().name(), indexOf(value.func().name())});
            continue;
        }
        for (int i = 0; i < value.list().func_size(); ++i) {
            const std::string& function = value.list().func(i).name();
            if (!function.empty())
                calls.push_back({*name + "[" + std::to_string(i) + "]", function, indexOf(function)});
        }
    }
    return calls;
}

bool isDatasetOp(std::string_view op)
{
    constexpr std::string_view kDataset = "Dataset";
    if (op.starts_with(kDataset) || op.ends_with(kDataset))
        return true;
    // "OptimizeDatasetV2", "ParallelInterleaveDatasetV4".
    const auto versioned = op.rfind("DatasetV");
    if (versioned != std::string_view::npos && allDigits(op.substr(versioned + 8)))
        return true;
    return op.find("Iterator") != std::string_view::npos;
}

class FunctionLibraryView::Builder {
public:
    Builder(FunctionLibraryView& v, std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops)
        : m_v(v), m_graph(std::move(graph)), m_ops(ops)
    {
    }

    void run()
    {
        const tensorflow::GraphDef& graph = *m_graph;
        m_v.m_mainNodeCount = graph.node_size();
        indexFunctions();
        for (int i = 0; i < graph.node_size(); ++i)
            recordCalls(i, graph.node(i), -1);
        if (m_v.m_functions.empty()) {
            m_v.m_viewGraph = m_graph;
            return;
        }
        auto view = std::make_shared<tensorflow::GraphDef>();
        *view->mutable_versions() = graph.versions();
        *view->mutable_node() = graph.node();
        for (std::size_t f = 0; f < m_v.m_functions.size(); ++f)
            appendFunction(static_cast<int>(f), *view);
        for (auto& function : m_v.m_functions) {
            std::sort(function.callees.begin(), function.callees.end());
            function.callees.erase(std::unique(function.callees.begin(), function.callees.end()), function.callees.end());
        }
        m_v.m_viewGraph = std::move(view);
    }

private:
    void problem(std::string text) { m_v.m_problems.push_back(std::move(text)); }

    int indexOf(const std::string& name) const
    {
        const auto it = m_v.m_byName.find(name);
        return it == m_v.m_byName.end() ? -1 : it->second;
    }

    void indexFunctions()
    {
        const auto& library = m_graph->library();
        for (int i = 0; i < library.function_size(); ++i) {
            const tensorflow::FunctionDef& def = library.function(i);
            const std::string& name = def.signature().name();
            if (name.empty()) {
                problem("function #" + std::to_string(i) + " of the library has no name; left out");
                continue;
            }
            if (m_v.m_byName.count(name)) {
                problem("the library defines function '" + name + "' more than once (function #" + std::to_string(i) +
                        "); the first one is shown");
                continue;
            }
            LibraryFunction f;
            f.name = name;
            f.scope = std::string(kFunctionLibraryScope) + "/" + name;
            f.libraryIndex = i;
            for (const auto& arg : def.signature().input_arg())
                f.inputs.push_back(argumentText(arg));
            for (const auto& arg : def.signature().output_arg())
                f.outputs.push_back(argumentText(arg));
            f.controlOutputs = controlOutputNames(def);
            f.bodyNodeCount = def.node_def_size();
            m_v.m_byName.emplace(name, static_cast<int>(m_v.m_functions.size()));
            m_v.m_functions.push_back(std::move(f));
        }
        for (const auto& gradient : library.gradient()) {
            const int f = indexOf(gradient.function_name());
            if (f < 0)
                problem("the library's gradient entry for '" + gradient.function_name() +
                        "' names a function the library does not define");
            else
                m_v.m_functions[static_cast<std::size_t>(f)].gradient = gradient.gradient_func();
        }
    }

    /// control_ret names: the signature's control_output order, then any others control_ret has, sorted.
    static std::vector<std::string> controlOutputNames(const tensorflow::FunctionDef& def)
    {
        std::vector<std::string> names(def.signature().control_output().begin(), def.signature().control_output().end());
        std::vector<std::string> others;
        for (const auto& [name, target] : def.control_ret())
            if (std::find(names.begin(), names.end(), name) == names.end())
                others.push_back(name);
        std::sort(others.begin(), others.end());
        names.insert(names.end(), others.begin(), others.end());
        return names;
    }

    /// Records the calls of view-graph node `viewIndex` (inside function `inFunction`, -1 for the main graph).
    void recordCalls(int viewIndex, const tensorflow::NodeDef& node, int inFunction)
    {
        auto calls = functionCallsOf(node, [this](const std::string& name) { return indexOf(name); });
        if (calls.empty())
            return;
        const std::string where = inFunction < 0 ? "node '" + node.name() + "'"
                                                 : "node '" + node.name() + "' of function '" +
                                                       m_v.m_functions[static_cast<std::size_t>(inFunction)].name + "'";
        for (const FunctionCall& call : calls) {
            if (call.index < 0) {
                problem(where + " calls function '" + call.function + "' (attr '" + call.attr +
                        "'), which is not in the graph's library");
                continue;
            }
            auto& callers = m_v.m_functions[static_cast<std::size_t>(call.index)].callers;
            if (callers.empty() || callers.back() != viewIndex)
                callers.push_back(viewIndex);
            if (inFunction >= 0)
                m_v.m_functions[static_cast<std::size_t>(inFunction)].callees.push_back(call.index);
        }
        m_v.m_calls.emplace(viewIndex, std::move(calls));
    }

    /// The OpDef nodes of type `op` follow: the registry's, else a library function's signature; null if neither.
    const tensorflow::OpDef* opDefOf(const std::string& op) const
    {
        if (m_ops)
            if (const OpRegistration* registration = m_ops->find(op))
                return &registration->opDef;
        const int f = indexOf(op);
        if (f < 0)
            return nullptr;
        return &m_graph->library().function(m_v.m_functions[static_cast<std::size_t>(f)].libraryIndex).signature();
    }

    /// What one function's body looks like while its inputs are rewritten.
    struct Body {
        const LibraryFunction* function = nullptr;
        const tensorflow::FunctionDef* def = nullptr;
        std::string prefix;
        std::unordered_set<std::string> args;
        std::unordered_map<std::string, int> nodes; ///< body node name -> node_def index
    };

    /// Flat output index of "node:outArg:index"; nullopt with a problem when the op has no such output.
    std::optional<int> flatOutput(const Body& body, const std::string& consumer, const std::string& input,
                                  const tensorflow::NodeDef& producer, const std::string& outArg, int index)
    {
        const tensorflow::OpDef* opDef = opDefOf(producer.op());
        if (!opDef)
            return index; // an op this engine does not know: the index within the argument is the best guess
        int offset = 0;
        for (const auto& arg : opDef->output_arg()) {
            if (arg.name() == outArg)
                return offset + index;
            const int length = argumentLength(arg, producer);
            if (length < 0)
                return index; // a list whose length the node leaves open (a placeholder attr)
            offset += length;
        }
        problem("function '" + body.function->name + "': node '" + consumer + "' has input '" + input + "', but op '" +
                producer.op() + "' has no output argument '" + outArg + "'");
        return std::nullopt;
    }

    /// A FunctionDef input ("x", "x:1", "node:out:0", "^node") as a view-graph input, or nullopt with a problem.
    std::optional<std::string> rewriteInput(const Body& body, const std::string& consumer, const std::string& input)
    {
        const bool control = !input.empty() && input[0] == '^';
        const std::string text = control ? input.substr(1) : input;
        std::vector<std::string> parts;
        for (std::size_t start = 0;;) {
            const auto colon = text.find(':', start);
            parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
        const std::string& name = parts[0];
        const bool isArg = body.args.count(name) > 0;
        const auto node = body.nodes.find(name);
        const bool isNode = node != body.nodes.end();
        auto fail = [&](const std::string& why) -> std::optional<std::string> {
            problem("function '" + body.function->name + "': node '" + consumer + "' has input '" + input + "', " + why);
            return std::nullopt;
        };
        if (name.empty() || (!isArg && !isNode))
            return fail("which names neither an argument nor a node of the function");
        if (control)
            return parts.size() == 1 ? std::optional(input.substr(0, 1) + body.prefix + name)
                                     : fail("a control input with an output index");
        if (parts.size() == 1)
            return body.prefix + name;
        if (parts.size() == 2 && allDigits(parts[1]))
            return body.prefix + name + ":" + parts[1]; // one tensor of a list argument, or a graph-style index
        if (!isNode || parts.size() > 3 || (parts.size() == 3 && !allDigits(parts[2])))
            return fail("expected \"argument\", \"argument:index\" or \"node:output_argument:index\"");
        const int index = parts.size() == 3 ? std::stoi(parts[2]) : 0;
        const auto flat = flatOutput(body, consumer, input, body.def->node_def(node->second), parts[1], index);
        if (!flat)
            return std::nullopt;
        return body.prefix + name + ":" + std::to_string(*flat);
    }

    void appendFunction(int f, tensorflow::GraphDef& view)
    {
        LibraryFunction& function = m_v.m_functions[static_cast<std::size_t>(f)];
        const tensorflow::FunctionDef& def = m_graph->library().function(function.libraryIndex);
        const tensorflow::OpDef& signature = def.signature();
        Body body;
        body.function = &function;
        body.def = &def;
        body.prefix = function.scope + "/";
        function.firstNode = view.node_size();
        std::unordered_set<std::string> taken; // leaf names used in this function's scope
        for (int i = 0; i < signature.input_arg_size(); ++i) {
            const auto& arg = signature.input_arg(i);
            if (!taken.insert(arg.name()).second) {
                problem("function '" + function.name + "' has two arguments named '" + arg.name() + "'");
                continue;
            }
            body.args.insert(arg.name());
            tensorflow::NodeDef* node = view.add_node();
            node->set_name(body.prefix + arg.name());
            node->set_op(std::string(kFunctionArgOp));
            setTypeAttrs(*node, arg, i);
        }
        std::vector<char> kept(static_cast<std::size_t>(def.node_def_size()), 0);
        for (int k = 0; k < def.node_def_size(); ++k) {
            const std::string& name = def.node_def(k).name();
            if (name.empty()) {
                problem("function '" + function.name + "': node #" + std::to_string(k) + " has no name; left out");
                continue;
            }
            if (!taken.insert(name).second) {
                problem("function '" + function.name + "': the name '" + name +
                        "' is used twice (arguments and nodes share names); the first is kept");
                continue;
            }
            body.nodes.emplace(name, k);
            kept[static_cast<std::size_t>(k)] = 1;
        }
        for (int k = 0; k < def.node_def_size(); ++k) {
            if (!kept[static_cast<std::size_t>(k)])
                continue;
            const tensorflow::NodeDef& source = def.node_def(k);
            tensorflow::NodeDef* node = view.add_node();
            *node = source;
            node->set_name(body.prefix + source.name());
            node->clear_input();
            for (const std::string& input : source.input())
                if (auto rewritten = rewriteInput(body, source.name(), input))
                    node->add_input(std::move(*rewritten));
            recordCalls(view.node_size() - 1, source, f);
        }
        auto unique = [&](std::string name) {
            while (!taken.insert(name).second)
                name += "_";
            return name;
        };
        std::unordered_set<std::string> outputs;
        for (int i = 0; i < signature.output_arg_size(); ++i) {
            const auto& arg = signature.output_arg(i);
            outputs.insert(arg.name());
            tensorflow::NodeDef* node = view.add_node();
            node->set_name(body.prefix + unique(arg.name() + "_RetVal"));
            node->set_op(std::string(kFunctionRetvalOp));
            setTypeAttrs(*node, arg, i);
            const auto ret = def.ret().find(arg.name());
            if (ret == def.ret().end()) {
                problem("function '" + function.name + "' returns nothing for its output '" + arg.name() +
                        "' (no 'ret' entry)");
                continue;
            }
            if (auto input = rewriteInput(body, arg.name() + " (ret)", ret->second))
                node->add_input(std::move(*input));
        }
        std::vector<std::string> strayRets;
        for (const auto& [name, target] : def.ret())
            if (!outputs.count(name))
                strayRets.push_back(name);
        std::sort(strayRets.begin(), strayRets.end());
        for (const auto& name : strayRets)
            problem("function '" + function.name + "': 'ret' maps '" + name + "', which is not an output argument");
        for (const std::string& name : function.controlOutputs) {
            tensorflow::NodeDef* node = view.add_node();
            node->set_name(body.prefix + unique(name + "_ControlRet"));
            node->set_op(std::string(kFunctionControlRetOp));
            const auto target = def.control_ret().find(name);
            if (target == def.control_ret().end()) {
                problem("function '" + function.name + "' lists control output '" + name +
                        "' but has no 'control_ret' entry for it");
                continue;
            }
            if (!body.nodes.count(target->second)) {
                problem("function '" + function.name + "': control output '" + name + "' names '" + target->second +
                        "', which is not a node of the function");
                continue;
            }
            node->add_input("^" + body.prefix + target->second);
        }
        function.nodeCount = view.node_size() - function.firstNode;
    }

    FunctionLibraryView& m_v;
    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    const OpRegistry* m_ops;
};

FunctionLibraryView FunctionLibraryView::build(std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops)
{
    FunctionLibraryView view;
    if (!graph)
        graph = std::make_shared<const tensorflow::GraphDef>();
    Builder(view, std::move(graph), ops).run();
    return view;
}

FunctionLibraryView FunctionLibraryView::build(const tensorflow::GraphDef& graph, const OpRegistry* ops)
{
    return build(std::make_shared<const tensorflow::GraphDef>(graph), ops);
}

int FunctionLibraryView::find(std::string_view name) const
{
    const auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? -1 : it->second;
}

int FunctionLibraryView::findScope(std::string_view scope) const
{
    const std::size_t prefix = kFunctionLibraryScope.size() + 1;
    if (scope.size() <= prefix || !scope.starts_with(kFunctionLibraryScope) || scope[prefix - 1] != '/')
        return -1;
    return find(scope.substr(prefix));
}

const std::vector<FunctionCall>& FunctionLibraryView::callsOf(int viewIndex) const
{
    static const std::vector<FunctionCall> kNone;
    const auto it = m_calls.find(viewIndex);
    return it == m_calls.end() ? kNone : it->second;
}

int FunctionLibraryView::functionOfNode(int viewIndex) const
{
    if (viewIndex < m_mainNodeCount || m_functions.empty())
        return -1;
    // Functions' node ranges are contiguous and ascending; an empty range shares its start with the next one.
    const auto after = std::upper_bound(m_functions.begin(), m_functions.end(), viewIndex,
                                        [](int index, const LibraryFunction& f) { return index < f.firstNode; });
    if (after == m_functions.begin())
        return -1;
    const auto& f = *(after - 1);
    return viewIndex < f.firstNode + f.nodeCount ? static_cast<int>(after - 1 - m_functions.begin()) : -1;
}

std::vector<int> FunctionLibraryView::callNodes() const
{
    std::vector<int> nodes;
    nodes.reserve(m_calls.size());
    for (const auto& [index, calls] : m_calls)
        nodes.push_back(index);
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

} // namespace tstudio::graph_viewer
