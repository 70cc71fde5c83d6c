// QueueRunner: tf.train.QueueRunner, threads that run a queue's enqueue op in a loop on a Session
// until the input ends (then they close the queue) or their Coordinator stops them.
#pragma once

#include "core/expected.h"
#include "proto/queue_runner.pb.h"
#include "training/coordinator.h"

#include <memory>
#include <mutex>
#include <vector>

namespace tstudio {
class Session;
}

namespace tstudio::training {

/// One QueueRunnerDef's threads, as tf.train.QueueRunner.create_threads starts them:
///  - one thread per enqueue_op_name, running that op until it fails. An error whose code is in
///    queue_closed_exception_types (default OutOfRange: the input is exhausted) ends the thread;
///    the last such thread runs the close op (later dequeues drain the queue, then OutOfRange).
///    Any other error is reported to the coordinator (requestStop(error)), which stops the others;
///  - one thread that waits for the coordinator's stop and then runs the cancel op, which closes
///    the queue and cancels blocked enqueues, so no thread stays blocked.
/// Errors of the close and cancel ops are ignored, as TensorFlow's are.
class QueueRunner {
public:
    /// InvalidArgument when the def has no queue_name or no enqueue op.
    static Expected<QueueRunner> fromDef(tensorflow::QueueRunnerDef def);

    /// Starts the threads on `coordinator`; `session` must outlive them (join them first).
    void createThreads(Session& session, Coordinator& coordinator) const;

    const tensorflow::QueueRunnerDef& def() const { return m_def; }

private:
    explicit QueueRunner(tensorflow::QueueRunnerDef def) : m_def(std::move(def)) {}
    bool isQueueClosed(const Status& status) const;

    tensorflow::QueueRunnerDef m_def;
};

/// tf.train.start_queue_runners: createThreads of every runner on `coordinator`. The first error
/// of fromDef (nothing is started then).
Status startQueueRunners(Session& session, Coordinator& coordinator,
                         const std::vector<tensorflow::QueueRunnerDef>& runners);

} // namespace tstudio::training
