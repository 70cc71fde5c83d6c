// QueueRunner: the enqueue loops, the close when the input ends and the cancel when the
// coordinator stops (tf.train.QueueRunner._run and _close_on_stop).
#include "training/queue_runner.h"

#include "runtime/session.h"

#include <algorithm>
#include <atomic>

namespace tstudio::training {

Expected<QueueRunner> QueueRunner::fromDef(tensorflow::QueueRunnerDef def)
{
    if (def.queue_name().empty())
        return unexpected(invalidArgumentError("QueueRunnerDef has no queue_name"));
    if (def.enqueue_op_name_size() == 0)
        return unexpected(invalidArgumentError("QueueRunnerDef of queue '" + def.queue_name() +
                                               "' has no enqueue op"));
    return QueueRunner(std::move(def));
}

bool QueueRunner::isQueueClosed(const Status& status) const
{
    if (m_def.queue_closed_exception_types_size() == 0)
        return status.code() == StatusCode::kOutOfRange;
    const auto& codes = m_def.queue_closed_exception_types();
    return std::find(codes.begin(), codes.end(), static_cast<int>(status.code())) != codes.end();
}

void QueueRunner::createThreads(Session& session, Coordinator& coordinator) const
{
    // The enqueue threads still running; the last one to see the queue closed closes it.
    auto running = std::make_shared<std::atomic<int>>(m_def.enqueue_op_name_size());
    const QueueRunner self = *this;
    for (int i = 0; i < m_def.enqueue_op_name_size(); ++i) {
        const std::string op = m_def.enqueue_op_name(i);
        coordinator.startThread("QueueRunnerThread-" + m_def.queue_name() + "-" + op, [self, op, running, &session,
                                                                                       &coordinator] {
            while (!coordinator.shouldStop()) {
                Status status = session.run({}, {}, {op}, nullptr);
                if (status.isOk())
                    continue;
                if (self.isQueueClosed(status)) {
                    if (running->fetch_sub(1) == 1)
                        (void)session.run({}, {}, {self.m_def.close_op_name()}, nullptr);
                    return;
                }
                coordinator.requestStop(status);
                break;
            }
            running->fetch_sub(1);
        });
    }
    coordinator.startThread("QueueRunnerThread-" + m_def.queue_name() + "-close_on_stop", [self, &session,
                                                                                          &coordinator] {
        coordinator.waitForStop();
        if (!self.m_def.cancel_op_name().empty())
            (void)session.run({}, {}, {self.m_def.cancel_op_name()}, nullptr);
    });
}

Status startQueueRunners(Session& session, Coordinator& coordinator,
                         const std::vector<tensorflow::QueueRunnerDef>& runners)
{
    std::vector<QueueRunner> parsed;
    for (const tensorflow::QueueRunnerDef& def : runners) {
        auto runner = QueueRunner::fromDef(def);
        if (!runner)
            return runner.error();
        parsed.push_back(std::move(*runner));
    }
    for (const QueueRunner& runner : parsed)
        runner.createThreads(session, coordinator);
    return Status::ok();
}

} // namespace tstudio::training
