// Layer recognition over a GraphDef's name scopes: weights inside the scope, ops right under it.
#include "graph/layer_recognition.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace tstudio {
namespace {

using tensorflow::AttrValue;
using tensorflow::NodeDef;

bool isVariableOp(const std::string& op)
{
    return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

bool isWeightOp(const std::string& op)
{
    return isVariableOp(op) || op == "Const";
}

const char* activationName(const std::string& op)
{
    static const std::map<std::string, const char*> names = {
        {"Relu", "relu"},         {"Relu6", "relu6"},       {"Elu", "elu"},           {"Selu", "selu"},
        {"Sigmoid", "sigmoid"},   {"Tanh", "tanh"},         {"Softplus", "softplus"}, {"Softsign", "softsign"},
        {"LeakyRelu", "leaky_relu"}, {"Softmax", "softmax"}};
    const auto it = names.find(op);
    return it == names.end() ? nullptr : it->second;
}

const char* optimizerName(const std::string& op)
{
    static const std::map<std::string, const char*> names = {
        {"ApplyAdam", "Adam"},         {"ApplyGradientDescent", "GradientDescent"},
        {"ApplyMomentum", "Momentum"}, {"ApplyRMSProp", "RMSProp"},
        {"ApplyCenteredRMSProp", "RMSProp"}, {"ApplyAdagrad", "Adagrad"},
        {"ApplyAdadelta", "Adadelta"}, {"ApplyFtrl", "Ftrl"},
        {"ApplyFtrlV2", "Ftrl"}};
    std::string_view name = op;
    if (name.starts_with("Resource"))
        name.remove_prefix(8);
    const auto it = names.find(std::string(name));
    return it == names.end() ? nullptr : it->second;
}

std::string dimsText(const std::vector<std::int64_t>& dims)
{
    std::string text;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            text += 'x';
        text += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
    }
    return text;
}

/// The (h, w) pair of an NHWC or NCHW 4-element list attr ("ksize", "strides") as "2x2"; "" when absent.
std::string spatialPair(const NodeDef& node, const std::string& attr)
{
    const auto it = node.attr().find(attr);
    if (it == node.attr().end() || it->second.list().i_size() != 4)
        return {};
    const auto& v = it->second.list().i();
    const auto format = node.attr().find("data_format");
    const bool nchw = format != node.attr().end() && format->second.s() == "NCHW";
    return nchw ? std::to_string(v[2]) + "x" + std::to_string(v[3]) : std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

class Recogniser {
public:
    explicit Recogniser(const tensorflow::GraphDef& graph) : m_graph(graph)
    {
        for (int i = 0; i < graph.node_size(); ++i)
            m_byName.emplace(graph.node(i).name(), i);
        for (int i = 0; i < graph.node_size(); ++i) {
            const std::string& name = graph.node(i).name();
            for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
                m_members[name.substr(0, slash)].push_back(i);
            for (const std::string& input : graph.node(i).input()) {
                const std::string source = inputNode(input);
                if (!source.empty() && input.front() != '^')
                    m_consumers[source].push_back(i);
            }
        }
    }

    std::map<std::string, RecognisedLayer> run()
    {
        std::map<std::string, RecognisedLayer> found;
        for (const auto& [scope, members] : m_members)
            if (auto layer = recognise(scope, members))
                found.emplace(scope, std::move(*layer));
        // A scope inside a recognised scope of the same type repeats it (Adam/update_w, loss/xentropy).
        std::map<std::string, RecognisedLayer> kept;
        for (const auto& [scope, layer] : found) {
            bool repeated = false;
            for (std::size_t slash = scope.rfind('/'); slash != std::string::npos && !repeated;
                 slash = slash == 0 ? std::string::npos : scope.rfind('/', slash - 1)) {
                const auto parent = found.find(scope.substr(0, slash));
                if (parent != found.end() && parent->second.type == layer.type && layer.type != "Variable")
                    repeated = true;
            }
            if (!repeated)
                kept.emplace(scope, layer);
        }
        return kept;
    }

private:
    static std::string inputNode(const std::string& input)
    {
        std::string_view s = input;
        if (!s.empty() && s.front() == '^')
            s.remove_prefix(1);
        const std::size_t colon = s.find(':');
        return std::string(colon == std::string_view::npos ? s : s.substr(0, colon));
    }

    const NodeDef* find(const std::string& name) const
    {
        const auto it = m_byName.find(name);
        return it == m_byName.end() ? nullptr : &m_graph.node(it->second);
    }

    /// The node feeding data input `index` of `node`, looked through Identity, ReadVariableOp,
    /// Snapshot, Enter and Cast.
    const NodeDef* source(const NodeDef& node, int index) const
    {
        if (index >= node.input_size() || node.input(index).starts_with('^'))
            return nullptr;
        const NodeDef* at = find(inputNode(node.input(index)));
        for (int hops = 0; at != nullptr && hops < 8; ++hops) {
            const std::string& op = at->op();
            // A cond branch's Switch passes its input on too.
            const bool passes = op == "Identity" || op == "ReadVariableOp" || op == "Snapshot" || op == "Enter" ||
                                op == "Cast" || op == "Switch" || op == "RefSwitch";
            if (!passes || at->input_size() == 0 || at->input(0).starts_with('^'))
                break;
            at = find(inputNode(at->input(0)));
        }
        return at;
    }

    static bool inside(const std::string& name, const std::string& scope)
    {
        return name.size() > scope.size() + 1 && name.starts_with(scope) && name[scope.size()] == '/';
    }

    /// Slashes in `name` below `scope`: 0 for an op right under it.
    static std::size_t depthBelow(const std::string& name, const std::string& scope)
    {
        return static_cast<std::size_t>(std::count(name.begin() + static_cast<std::ptrdiff_t>(scope.size()) + 1, name.end(), '/'));
    }

    /// depthBelow, not counting a tf.cond scope right under `scope` ("cond/", "cond_1/"): a layer
    /// built on a training tensor (smart_cond) holds its ops there.
    static std::size_t depthInLayer(const std::string& name, const std::string& scope)
    {
        const std::size_t depth = depthBelow(name, scope);
        const std::string_view below = std::string_view(name).substr(scope.size() + 1);
        const std::string_view first = below.substr(0, below.find('/'));
        const bool isCond = first == "cond" || (first.size() > 5 && first.starts_with("cond_") &&
                                                first.find_first_not_of("0123456789", 5) == std::string_view::npos);
        return isCond && depth > 0 ? depth - 1 : depth;
    }

    static std::vector<std::int64_t> weightDims(const NodeDef& weight, bool* known)
    {
        std::vector<std::int64_t> dims;
        const tensorflow::TensorShapeProto* shape = nullptr;
        if (weight.op() == "Const") {
            const auto it = weight.attr().find("value");
            if (it != weight.attr().end())
                shape = &it->second.tensor().tensor_shape();
        } else {
            const auto it = weight.attr().find("shape");
            if (it != weight.attr().end())
                shape = &it->second.shape();
        }
        *known = shape != nullptr && !shape->unknown_rank();
        if (*known)
            for (const auto& dim : shape->dim())
                dims.push_back(dim.size());
        return dims;
    }

    /// The weight behind data input `index` of `node` when it lies inside `scope`.
    const NodeDef* weightInScope(const NodeDef& node, int index, const std::string& scope) const
    {
        const NodeDef* w = source(node, index);
        return w != nullptr && isWeightOp(w->op()) && inside(w->name(), scope) ? w : nullptr;
    }

    /// The consumer of `node` inside `scope` whose op satisfies `accept`, or nullptr.
    template <typename Accept>
    const NodeDef* consumerInScope(const NodeDef& node, const std::string& scope, Accept accept) const
    {
        const auto it = m_consumers.find(node.name());
        if (it == m_consumers.end())
            return nullptr;
        for (int index : it->second) {
            const NodeDef& consumer = m_graph.node(index);
            if (inside(consumer.name(), scope) && accept(consumer))
                return &consumer;
        }
        return nullptr;
    }

    /// Bias (BiasAdd, or Add of a weight of the scope) and activation after a MatMul / Conv2D.
    void biasAndActivation(const NodeDef& product, const std::string& scope, RecognisedLayer& layer) const
    {
        const NodeDef* bias = consumerInScope(product, scope, [&](const NodeDef& c) {
            if (c.op() == "BiasAdd")
                return true;
            return (c.op() == "Add" || c.op() == "AddV2") &&
                   (weightInScope(c, 0, scope) != nullptr || weightInScope(c, 1, scope) != nullptr);
        });
        const NodeDef* last = bias != nullptr ? bias : &product;
        const NodeDef* act = consumerInScope(*last, scope, [](const NodeDef& c) { return activationName(c.op()) != nullptr; });
        if (act != nullptr)
            layer.params.emplace_back("activation", activationName(act->op()));
        if (bias == nullptr)
            layer.params.emplace_back("use_bias", "false");
    }

    std::optional<RecognisedLayer> recognise(const std::string& scope, const std::vector<int>& members) const
    {
        const std::string leaf = scope.substr(scope.rfind('/') == std::string::npos ? 0 : scope.rfind('/') + 1);
        // A variable with its Assign, read and Initializer ops.
        if (const NodeDef* own = find(scope); own != nullptr && isVariableOp(own->op())) {
            bool known = false;
            const auto dims = weightDims(*own, &known);
            RecognisedLayer layer{"Variable", {}};
            if (known)
                layer.params.emplace_back("shape", dimsText(dims));
            return layer;
        }
        bool gradientOps = false;
        for (int index : members)
            gradientOps = gradientOps || m_graph.node(index).name().find("_grad/") != std::string::npos;
        if ((leaf == "gradients" || (leaf.starts_with("gradients_") && leaf.find_first_not_of("0123456789", 10) == std::string::npos)) &&
            gradientOps)
            return RecognisedLayer{"Gradients", {}};
        for (int index : members) {
            const NodeDef& node = m_graph.node(index);
            if (depthBelow(node.name(), scope) == 0 &&
                (node.op() == "SaveV2" || node.op() == "RestoreV2" || node.op() == "Save" || node.op() == "SaveSlices"))
                return RecognisedLayer{"Saver", {}};
        }
        for (int index : members) {
            const NodeDef& node = m_graph.node(index);
            const char* optimizer = optimizerName(node.op());
            if (optimizer == nullptr)
                continue;
            const std::string below = node.name().substr(scope.size() + 1);
            if (depthBelow(node.name(), scope) == 0 || below.starts_with("update_"))
                return RecognisedLayer{optimizer, {}};
        }
        for (int index : members) {
            const NodeDef& node = m_graph.node(index);
            const std::size_t depth = depthBelow(node.name(), scope);
            // Dense: x @ kernel (+ bias) (activation); Keras puts the MatMul under "Tensordot" for rank > 2.
            const bool tensordot = depth == 1 && node.name().substr(scope.size() + 1).starts_with("Tensordot/");
            if (node.op() == "MatMul" && (depth == 0 || tensordot)) {
                const NodeDef* kernel = weightInScope(node, 1, scope);
                bool known = false;
                const auto dims = kernel != nullptr ? weightDims(*kernel, &known) : std::vector<std::int64_t>{};
                if (kernel == nullptr || (known && dims.size() != 2))
                    continue;
                const auto transpose = node.attr().find("transpose_b");
                const bool transposed = transpose != node.attr().end() && transpose->second.b();
                RecognisedLayer layer{"Dense", {}};
                layer.params.emplace_back("units", known ? dimsText({dims[transposed ? 0 : 1]}) : std::string("?"));
                biasAndActivation(node, scope, layer);
                return layer;
            }
            if (node.op() == "Conv2D" && depth == 0) {
                const NodeDef* filter = weightInScope(node, 1, scope);
                bool known = false;
                const auto dims = filter != nullptr ? weightDims(*filter, &known) : std::vector<std::int64_t>{};
                if (filter == nullptr || (known && dims.size() != 4))
                    continue;
                RecognisedLayer layer{"Conv2D", {}};
                layer.params.emplace_back("filters", known ? dimsText({dims[3]}) : std::string("?"));
                layer.params.emplace_back("kernel_size", known ? dimsText({dims[0], dims[1]}) : std::string("?"));
                const std::string strides = spatialPair(node, "strides");
                if (!strides.empty() && strides != "1x1")
                    layer.params.emplace_back("strides", strides);
                const auto padding = node.attr().find("padding");
                if (padding != node.attr().end())
                    layer.params.emplace_back("padding", padding->second.s());
                biasAndActivation(node, scope, layer);
                return layer;
            }
        }
        for (int index : members) {
            const NodeDef& node = m_graph.node(index);
            if (depthInLayer(node.name(), scope) == 0 && node.op().starts_with("FusedBatchNorm") &&
                !node.op().ends_with("Grad") && weightInScope(node, 1, scope) != nullptr) {
                RecognisedLayer layer{"BatchNorm", {}};
                const auto epsilon = node.attr().find("epsilon");
                if (epsilon != node.attr().end()) {
                    std::string text = std::to_string(epsilon->second.f());
                    text.erase(text.find_last_not_of('0') + 1);
                    if (text.ends_with('.'))
                        text.pop_back();
                    layer.params.emplace_back("epsilon", text);
                }
                return layer;
            }
        }
        // Unfused: the moving statistics right under the scope ("batchnorm/..." does the maths).
        if (const NodeDef* mean = find(scope + "/moving_mean"); mean != nullptr && isVariableOp(mean->op()))
            return RecognisedLayer{"BatchNorm", {}};
        if (members.size() <= 4) {
            for (int index : members) {
                const NodeDef& node = m_graph.node(index);
                if ((node.op() == "MaxPool" || node.op() == "AvgPool") && depthBelow(node.name(), scope) == 0) {
                    RecognisedLayer layer{node.op(), {}};
                    layer.params.emplace_back("pool_size", spatialPair(node, "ksize"));
                    const std::string strides = spatialPair(node, "strides");
                    if (strides != layer.params.back().second)
                        layer.params.emplace_back("strides", strides);
                    const auto padding = node.attr().find("padding");
                    if (padding != node.attr().end() && padding->second.s() != "VALID")
                        layer.params.emplace_back("padding", padding->second.s());
                    return layer;
                }
            }
        }
        for (int index : members) {
            const NodeDef& node = m_graph.node(index);
            const std::size_t depth = depthBelow(node.name(), scope);
            if (leaf.starts_with("dropout") && node.op() == "RandomUniform" && depthInLayer(node.name(), scope) <= 2)
                return RecognisedLayer{"Dropout", {}};
            if (leaf.starts_with("flatten") && node.op() == "Reshape" && depth == 0)
                return RecognisedLayer{"Flatten", {}};
            if (depth <= 1 && node.op() == "SparseSoftmaxCrossEntropyWithLogits")
                return RecognisedLayer{"SparseSoftmaxCrossEntropy", {}};
            if (depth <= 1 && (node.op() == "SoftmaxCrossEntropyWithLogits" || node.op() == "SoftmaxCrossEntropyWithLogitsV2"))
                return RecognisedLayer{"SoftmaxCrossEntropy", {}};
            if (depth == 0 && leaf.starts_with("mean_squared_error") && node.op() == "SquaredDifference")
                return RecognisedLayer{"MeanSquaredError", {}};
        }
        return std::nullopt;
    }

    const tensorflow::GraphDef& m_graph;
    std::unordered_map<std::string, int> m_byName;
    std::map<std::string, std::vector<int>> m_members;
    std::unordered_map<std::string, std::vector<int>> m_consumers;
};

} // namespace

std::string RecognisedLayer::describe() const
{
    if (type == "Variable") {
        for (const auto& [key, value] : params)
            if (key == "shape")
                return value.empty() ? std::string("Variable (scalar)") : "Variable " + value;
        return type;
    }
    // The leading, self-explaining values in brackets: "Dense(64, relu)", "Conv2D(32, 5x5, relu)".
    std::vector<std::string> shown;
    for (const auto& [key, value] : params) {
        if (key == "units" || key == "filters" || key == "kernel_size" || key == "activation" || key == "pool_size")
            shown.push_back(value);
        else if (key == "use_bias")
            shown.push_back("no bias");
        else if (key == "strides")
            shown.push_back("stride " + value);
        else if (key == "padding" && value == "SAME")
            shown.push_back("same");
        else if (key == "epsilon")
            shown.push_back("epsilon " + value);
    }
    std::string text = type;
    if (!shown.empty()) {
        text += '(';
        for (std::size_t i = 0; i < shown.size(); ++i)
            text += (i > 0 ? ", " : "") + shown[i];
        text += ')';
    }
    return text;
}

std::map<std::string, RecognisedLayer> recogniseLayers(const tensorflow::GraphDef& graph)
{
    return Recogniser(graph).run();
}

} // namespace tstudio
