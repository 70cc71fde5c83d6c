// The hook of SyncReplicasOptimizer (_SyncReplicasOptimizerHook of TensorFlow 1.15): init tokens,
// the local or chief init op, and the chief's queue runner on the session's coordinator.
#include "runtime/session.h"
#include "training/coordinated_session_run_hook.h"
#include "training/queue_runner.h"
#include "training/sync_replicas_optimizer.h"

namespace tstudio::training {
namespace {

class SyncReplicasHook : public CoordinatedSessionRunHook {
public:
    SyncReplicasHook(SyncReplicasGraph graph, bool isChief, int numTokens)
        : m_graph(std::move(graph)), m_isChief(isChief), m_numTokens(numTokens)
    {
    }

    Status begin(GraphBuilder& b) override
    {
        m_localInitOp = m_isChief ? m_graph.chiefInitOp : m_graph.localStepInitOp;
        if (!m_isChief)
            return Status::ok();
        auto tokens = initTokensOp(b, m_graph, m_numTokens);
        if (!tokens)
            return tokens.error();
        m_initTokensOp = tokens->name();
        return Status::ok();
    }

    Status afterCreateSession(Session&) override
    {
        return failedPreconditionError("the SyncReplicasOptimizer hook needs the MonitoredTrainingSession's "
                                       "coordinator (afterCreateSession(session, coordinator))");
    }

    Status afterCreateSession(Session& session, Coordinator& coordinator) override
    {
        if (!m_graph.readyForLocalInitOp.empty()) {
            std::vector<Tensor> outputs;
            if (Status s = session.run({}, {m_graph.readyForLocalInitOp}, {}, &outputs); !s.isOk())
                return s;
            if (outputs.at(0).numElements() > 0) {
                std::string names;
                for (const std::string& name : outputs[0].strings())
                    names += (names.empty() ? "" : ", ") + name;
                return failedPreconditionError("Init operations did not make model ready for SyncReplicasOptimizer "
                                               "local_init. Init op: " +
                                               m_localInitOp + ", error: Variables not initialized: " + names);
            }
        }
        if (Status s = session.run({}, {}, {m_localInitOp}, nullptr); !s.isOk())
            return s;
        if (!m_isChief)
            return Status::ok();
        if (Status s = session.run({}, {}, {m_initTokensOp}, nullptr); !s.isOk())
            return s;
        auto runner = QueueRunner::fromDef(m_graph.chiefQueueRunner);
        if (!runner)
            return runner.error();
        runner->createThreads(session, coordinator);
        return Status::ok();
    }

private:
    SyncReplicasGraph m_graph;
    bool m_isChief;
    int m_numTokens;
    std::string m_localInitOp;
    std::string m_initTokensOp;
};

} // namespace

std::shared_ptr<SessionRunHook> makeSyncReplicasHook(SyncReplicasGraph graph, bool isChief, int numTokens)
{
    return std::make_shared<SyncReplicasHook>(std::move(graph), isChief, numTokens);
}

} // namespace tstudio::training
