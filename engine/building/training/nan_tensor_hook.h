// NanTensorHook: stops training when the loss becomes NaN (tf.train.NanTensorHook).
#pragma once

#include "training/session_run_hook.h"

#include <memory>
#include <string>

namespace tstudio::training {

/// Fetches `lossTensor` (a float or double scalar) with every run. When it is NaN: with
/// failOnNanLoss, afterRun fails with InvalidArgument "NaN loss during training: Model diverged
/// with loss = NaN (tensor 'loss:0' at global step 12)." (TensorFlow raises
/// NanLossDuringTrainingError, whose text is only "NaN loss during training."; we name the tensor
/// and the step, the step left out when the graph has no global step); otherwise it logs the
/// warning "Model diverged with loss = NaN." and requests a stop.
class NanTensorHook : public SessionRunHook {
public:
    explicit NanTensorHook(std::string lossTensor, bool failOnNanLoss = true)
        : m_loss(std::move(lossTensor)), m_failOnNanLoss(failOnNanLoss)
    {
    }

    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;

private:
    std::string m_loss;
    bool m_failOnNanLoss;
    std::string m_globalStep; ///< empty when the graph has none
};

} // namespace tstudio::training
