// differentiateFunctionBody: a function's body differentiated with addSymbolicGradients, turned
// back into a function body with `_Arg` and `_Retval` nodes.
#include "autodiff/symbolic_gradient_body.h"

#include "autodiff/gradients.h"
#include "builder/graph_builder.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "function/function_library.h"

#include <map>
#include <set>

namespace tstudio {
namespace {

tensorflow::NodeDef argNode(const std::string& name, DataType dtype, int index)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op("_Arg");
    (*node.mutable_attr())["T"].set_type(dtype);
    (*node.mutable_attr())["index"].set_i(index);
    return node;
}

/// The dtype SymbolicGradient returns for an argument of dtype `arg` when Tout does not say.
DataType defaultGradType(DataType arg)
{
    return arg == tensorflow::DT_RESOURCE ? tensorflow::DT_FLOAT : arg;
}

class GradientBodyBuilder {
public:
    GradientBodyBuilder(const FunctionLibrary& library, const FunctionCallTarget& target,
                        const std::vector<DataType>& gradTypes)
        : m_library(library), m_target(target), m_gradTypes(gradTypes), m_b(library.ops())
    {
    }

    Expected<FunctionBody> run()
    {
        auto forward = instantiateFunction(m_library, m_target);
        if (!forward)
            return unexpected(forward.error());
        m_forward = std::move(*forward);
        const std::size_t n = m_forward.argTypes.size();
        if (m_gradTypes.empty())
            for (DataType t : m_forward.argTypes)
                m_gradTypes.push_back(defaultGradType(t));
        if (m_gradTypes.size() != n)
            return unexpected(error(invalidArgumentError("Tout lists " + std::to_string(m_gradTypes.size()) +
                                                         " gradients, but the function takes " + std::to_string(n) +
                                                         " argument tensors")));
        if (Status s = importForward(); !s.isOk())
            return unexpected(error(s));
        auto grads = gradients();
        if (!grads)
            return unexpected(error(grads.error()));
        return assemble(*grads);
    }

private:
    Status error(const Status& cause) const
    {
        return cause.withContext("gradient of function '" + m_target.name + "'");
    }

    /// The forward body with Placeholders for the `_Arg` nodes and without `_Retval` nodes.
    Status importForward()
    {
        tensorflow::GraphDef def;
        *def.mutable_library() = m_library.toProto();
        std::size_t arg = 0;
        for (const tensorflow::NodeDef& node : m_forward.graph.node()) {
            if (node.op() == "_Retval")
                continue;
            if (node.op() != "_Arg") {
                *def.add_node() = node;
                continue;
            }
            tensorflow::NodeDef placeholder;
            placeholder.set_name(node.name());
            placeholder.set_op("Placeholder");
            (*placeholder.mutable_attr())["dtype"].set_type(m_forward.argTypes[arg++]);
            *(*placeholder.mutable_attr())["shape"].mutable_shape() = TensorShape::unknown().toProto();
            *def.add_node() = std::move(placeholder);
        }
        return m_b.importGraphDef(def);
    }

    Expected<std::vector<Output>> gradients()
    {
        std::vector<Output> xs;
        for (const std::string& name : m_forward.argNodes) {
            auto x = m_b.tensor(name);
            if (!x)
                return unexpected(x.error());
            xs.push_back(*x);
        }
        std::vector<Output> ys;
        for (const std::string& name : m_forward.retTensors) {
            auto y = m_b.tensor(name);
            if (!y)
                return unexpected(y.error());
            ys.push_back(*y);
        }
        std::vector<std::optional<Output>> dys;
        for (DataType dtype : m_forward.retTypes) {
            auto dy = m_b.op("Placeholder", {},
                             {{"dtype", attr::type(dtype)}, {"shape", attr::shape(TensorShape::unknown())}}, "dy");
            if (!dy)
                return unexpected(dy.error());
            m_dyNodes.push_back(dy->name());
            dys.push_back(dy->output(0));
        }
        auto grads = addSymbolicGradients(m_b, ys, xs, dys);
        if (!grads)
            return unexpected(grads.error());
        std::vector<Output> out;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const DataType want = m_gradTypes[i];
            Output g;
            if ((*grads)[i]) {
                g = *(*grads)[i];
            } else {
                auto zeros = zerosFor(xs[i], want);
                if (!zeros)
                    return unexpected(zeros.error());
                g = *zeros;
            }
            if (g.baseDtype() != want)
                return unexpected(invalidArgumentError(
                    "the gradient of argument " + std::to_string(i) + " ('" + m_forward.argNodes[i] + "') is " +
                    dataTypeName(g.baseDtype()) + ", but Tout[" + std::to_string(i) + "] is " + dataTypeName(want)));
            out.push_back(g);
        }
        return out;
    }

    /// Zeros for an argument no result depends on: like x, or like the value of a resource x.
    Expected<Output> zerosFor(const Output& x, DataType dtype)
    {
        Output like = x;
        if (x.baseDtype() == tensorflow::DT_RESOURCE) {
            auto read = m_b.op("ReadVariableOp", {x}, {{"dtype", attr::type(dtype)}}, "zeros_like_variable/read");
            if (!read)
                return unexpected(read.error());
            like = read->output(0);
        }
        auto zeros = m_b.op("ZerosLike", {like}, {}, "zeros_like");
        if (!zeros)
            return unexpected(zeros.error());
        return zeros->output(0);
    }

    Expected<FunctionBody> assemble(const std::vector<Output>& grads)
    {
        FunctionBody body;
        body.name = m_target.name + " (gradient)";
        std::map<std::string, int> argIndex;
        for (std::size_t i = 0; i < m_forward.argNodes.size(); ++i)
            argIndex.emplace(m_forward.argNodes[i], static_cast<int>(i));
        for (std::size_t j = 0; j < m_dyNodes.size(); ++j)
            argIndex.emplace(m_dyNodes[j], static_cast<int>(m_forward.argNodes.size() + j));
        body.argNodes.resize(argIndex.size());
        std::set<std::string> names;
        for (const tensorflow::NodeDef& node : m_b.graphDef().node()) {
            names.insert(node.name());
            const auto arg = argIndex.find(node.name());
            if (arg == argIndex.end()) {
                *body.graph.add_node() = node;
                continue;
            }
            const DataType dtype = static_cast<DataType>(node.attr().at("dtype").type());
            *body.graph.add_node() = argNode(node.name(), dtype, arg->second);
            body.argNodes[static_cast<std::size_t>(arg->second)] = node.name();
        }
        body.argTypes = m_forward.argTypes;
        body.argTypes.insert(body.argTypes.end(), m_forward.retTypes.begin(), m_forward.retTypes.end());
        for (std::size_t i = 0; i < grads.size(); ++i) {
            std::string name = "dx_RetVal" + (i == 0 ? std::string() : "_" + std::to_string(i));
            while (names.count(name))
                name += "_";
            names.insert(name);
            tensorflow::NodeDef ret;
            ret.set_name(name);
            ret.set_op("_Retval");
            ret.add_input(grads[i].inputString());
            (*ret.mutable_attr())["T"].set_type(grads[i].baseDtype());
            (*ret.mutable_attr())["index"].set_i(static_cast<std::int64_t>(i));
            *body.graph.add_node() = std::move(ret);
            body.retTypes.push_back(grads[i].baseDtype());
            body.retTensors.push_back(grads[i].node() + ":" + std::to_string(grads[i].index()));
            body.retNodes.push_back(name);
        }
        return body;
    }

    const FunctionLibrary& m_library;
    const FunctionCallTarget& m_target;
    std::vector<DataType> m_gradTypes;
    GraphBuilder m_b;
    FunctionBody m_forward;
    std::vector<std::string> m_dyNodes;
};

} // namespace

Expected<FunctionBody> differentiateFunctionBody(const FunctionLibrary& library, const FunctionCallTarget& target,
                                                 const std::vector<DataType>& gradTypes)
{
    return GradientBodyBuilder(library, target, gradTypes).run();
}

} // namespace tstudio
