// Horovod 0.1x's DistributedOptimizer and broadcast_global_variables for graphs built in code:
// gradients averaged over the ranks of an MPI job before they are applied, and every variable
// started from the root rank's value.
#pragma once

#include "core/expected.h"
#include "training/optimizer.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::distributed {

/// horovod.tensorflow.allreduce(tensor, average): HorovodAllreduce "HorovodAllreduce_<tensor name,
/// every character but letters, digits and '_' as '_'>", then, when `average`, RealDiv "div" by `size` (a Const of the tensor's dtype).
/// The size is the world size when the graph is built (MpiContext::size()), as Horovod reads size().
Expected<Output> allreduce(GraphBuilder& b, const Output& tensor, int size, bool average = true);

/// horovod.tensorflow.broadcast_global_variables(root_rank): for every global variable, Assign
/// "Assign" of HorovodBroadcast "HorovodBroadcast_<var>_0" (root_rank) to it, grouped by a NoOp
/// "group_deps" (Horovod's BroadcastGlobalVariablesHook runs it once after initialisation).
/// InvalidArgument when the graph has no global variables.
Expected<Operation> broadcastGlobalVariables(GraphBuilder& b, int rootRank);

/// horovod.tensorflow.DistributedOptimizer of Horovod 0.1x around a TensorStudio optimizer: its
/// gradients are averaged over the ranks (allreduce, then divided by size) under the name scope
/// "Distributed<inner name>_Allreduce" before the inner optimizer applies them. With size 1 the
/// gradients pass unchanged, as in Horovod. The inner optimizer is borrowed and must outlive this.
class DistributedOptimizer {
public:
    DistributedOptimizer(training::Optimizer& inner, int size);

    /// "Distributed" + the inner optimizer's name, e.g. "DistributedGradientDescent".
    const std::string& name() const { return m_name; }
    int size() const { return m_size; }

    /// The inner optimizer's computeGradients, then each gradient averaged over the ranks.
    Expected<std::vector<training::GradAndVar>> computeGradients(GraphBuilder& b, const Output& loss,
                                                                 std::optional<std::vector<Variable>> varList = {});
    /// The inner optimizer's applyGradients.
    Expected<Operation> applyGradients(GraphBuilder& b, const std::vector<training::GradAndVar>& gradsAndVars,
                                       const std::optional<Variable>& globalStep = {});
    /// computeGradients then applyGradients (dense gradients only).
    Expected<Operation> minimize(GraphBuilder& b, const Output& loss, const std::optional<Variable>& globalStep = {},
                                 std::optional<std::vector<Variable>> varList = {});

private:
    training::Optimizer& m_inner;
    int m_size;
    std::string m_name;
};

/// Horovod's advice for the learning rate: scaled by the number of ranks when `scale` (the global
/// batch grows with them), else unchanged.
inline double scaledLearningRate(double learningRate, int size, bool scale)
{
    return scale ? learningRate * size : learningRate;
}

} // namespace tstudio::distributed
