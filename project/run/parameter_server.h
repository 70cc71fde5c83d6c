// Asynchronous parameter servers: TensorFlow 1.x's between-graph asynchronous replication (what
// tf.train.replica_device_setter and a ClusterSpec of "ps" and "worker" jobs give) on the ranks of an
// MPI job. The last ps_tasks ranks are parameter servers that hold the variables; the others are
// workers (worker 0, rank 0, the chief). Each worker, step after step and without waiting for the
// others: pulls the variables, computes the gradients of its own batch, and pushes them to the
// parameter servers, which apply them with the project's optimizer at once. A push applied after
// other workers' pushes is stale: its staleness is how many updates came between the pull and the
// apply. No Qt.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "project/run/training_setup.h"
#include "runtime/session.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tstudio {
class ParameterServerMessage;
struct Registries;
}

namespace tstudio::project {

/// Where a rank stands in an asynchronous run of `size` ranks with `psTasks` parameter servers.
struct AsyncLayout {
    int rank = 0;
    int size = 1;
    int psTasks = 1;
    int workers() const { return size - psTasks; }
    bool isPs() const { return rank >= workers(); }
    /// The rank of ps task `task`.
    int psRank(int task) const { return workers() + task; }
    /// InvalidArgument unless 1 <= psTasks < size: "distributed.ps_tasks: 1 parameter server of 1
    /// rank leaves no worker; start at least 2 ranks (mpirun -np 2)".
    Status check() const;
    /// "rank 2 of 3: ps task 0 of 1 (2 workers)" / "rank 0 of 3: worker 0 of 2 (the chief), 1 ps task".
    std::string describe() const;
};

/// The parameter-server nodes a run adds to its graph (the workers' and the servers' alike): for
/// every global variable a placeholder "parameter_server/<variable>/value" and an Assign (or
/// AssignVariableOp) writing it, and which ps task holds the variable: the task of its device
/// ("/job:ps/task:1"), else the task of the variable it is colocated with (an optimizer's slot, by
/// its "_class" attribute "loc:@w"), else round-robin in the order of the collection, as
/// replica_device_setter's default strategy places them.
struct ParameterPlacement {
    struct Entry {
        std::string variable;    ///< "dense/kernel"
        std::string value;       ///< the tensor read for its value ("dense/kernel/read:0")
        std::string placeholder; ///< "parameter_server/dense/kernel/value:0"
        std::string assign;      ///< the op writing the placeholder into the variable
        int task = 0;
    };
    std::vector<Entry> entries;
    std::string globalStep; ///< the entry index's variable holding the global step
    std::size_t globalStepEntry = 0;

    /// Builds the nodes in `b`. InvalidArgument for a device naming a ps task >= psTasks ("variable
    /// 'w' is placed on /job:ps/task:3, but the project has 2 ps_tasks") or a variable without a value.
    static Expected<ParameterPlacement> build(GraphBuilder& b, const PreparedTraining& prepared, int psTasks);
    /// One line per ps task: "job:ps/task:0 -> rank 2: global_step, w1, w1/Adam, ...".
    std::vector<std::string> mappingLines(const AsyncLayout& layout) const;
};

/// A worker's side: pulls and pushes over MPI. One thread at a time.
class ParameterServerClient {
public:
    ParameterServerClient(AsyncLayout layout, ParameterPlacement placement, std::vector<std::string> gradients);

    /// The chief, once its session is restored or initialised: sends every variable to every ps task
    /// (the servers answer no pull before it: a worker waits as SessionManager.wait_for_session).
    Status initialize(Session& session);
    /// Writes every ps task's variables into `session`'s; returns the global step they are at.
    /// `final`: the chief's last pull, answered once every other worker has stopped, so that the
    /// last checkpoint holds the servers' last values.
    Expected<std::int64_t> pull(Session& session, bool final = false);
    /// Sends `gradients` (values of the gradient tensors, in order) computed from the variables of
    /// global step `pulledAt` to every ps task and waits until they are applied; writes the global
    /// step after the update into `session`'s global step. Returns the staleness (updates applied
    /// between the pull and this one).
    Expected<std::int64_t> push(Session& session, const std::vector<Tensor>& gradients, std::int64_t pulledAt);
    /// Tells every ps task that this worker has stopped (`failed`: after an error).
    Status done(bool failed);

    const std::vector<std::string>& gradientTensors() const { return m_gradients; }
    std::int64_t globalStepAfterPush() const { return m_stepAfterPush; }

private:
    /// Sends `request` to every ps task, then takes their replies in task order: an ERROR reply or one
    /// not of `replyKind` fails ("ps task 1 <what>: ..."), else `onReply` sees it.
    Status exchange(const ParameterServerMessage& request, int replyKind, const std::string& what,
                    const std::function<Status(int task, const ParameterServerMessage&)>& onReply);

    AsyncLayout m_layout;
    ParameterPlacement m_placement;
    std::vector<std::string> m_gradients;
    CpuAllocator m_allocator; ///< holds the pulled values until they are assigned
    std::int64_t m_stepAfterPush = 0;
};

/// What a parameter server did.
struct ParameterServerReport {
    std::int64_t updates = 0;      ///< pushes applied
    std::int64_t lastStep = 0;     ///< the global step at the end
    std::int64_t maxStaleness = 0; ///< the largest staleness of an applied push
    double meanStaleness = 0;
};

/// A parameter server's loop on its own session of the prepared graph (its variables initialised,
/// then replaced by the chief's INIT): answers pulls with its variables, applies pushes by running the
/// train op with the pushed gradients fed, until every worker has sent DONE. Errors from a request are
/// sent back to its worker (who fails with them) and the loop goes on; MPI errors end it.
Expected<ParameterServerReport> serveParameters(GraphBuilder& b, const PreparedTraining& prepared,
                                                const ParameterPlacement& placement, const AsyncLayout& layout,
                                                const SessionOptions& options);

} // namespace tstudio::project
