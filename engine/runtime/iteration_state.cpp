// The executor's per-iteration state and its pool (see iteration_state.h).
#include "runtime/iteration_state.h"

#include <mutex>

namespace tstudio::executor_state {

IterationState::IterationState(std::int64_t number, const PlanFrame& frame)
    : iter(number), inputs(static_cast<std::size_t>(frame.totalInputs)), pending(frame.initialPending),
      dead(static_cast<std::size_t>(frame.numNodes), 0)
{
}

void IterationState::restart(std::int64_t number, const PlanFrame& frame)
{
    iter = number;
    pending = frame.initialPending;
    dead.assign(static_cast<std::size_t>(frame.numNodes), 0);
}

void IterationState::release()
{
    if (heldInputs != 0)
        for (Entry& entry : inputs)
            if (entry.has || entry.held) {
                entry.held.reset();
                entry.has = false;
            }
    heldInputs = 0;
    outstandingOps = 0;
    outstandingFrameCount = 0;
}

void IterationRecycler::operator()(IterationState* state) const
{
    if (!state)
        return;
    if (pool) {
        state->release();
        const std::lock_guard lock(pool->mutex);
        const auto f = static_cast<std::size_t>(frame);
        if (pool->byFrame.size() <= f)
            pool->byFrame.resize(f + 1);
        if (pool->byFrame[f].size() < kPooledPerFrame) {
            pool->byFrame[f].emplace_back(state, [](void* p) { delete static_cast<IterationState*>(p); });
            return;
        }
    }
    delete state;
}

IterationPtr newIteration(const ExecutorPlan& plan, int frame, std::int64_t number)
{
    const PlanFrame& info = plan.frames[static_cast<std::size_t>(frame)];
    IterationRecycler recycler{plan.statePool, frame};
    if (plan.statePool) {
        std::unique_ptr<void, void (*)(void*)> reused(nullptr, [](void*) {});
        {
            const std::lock_guard lock(plan.statePool->mutex);
            const auto f = static_cast<std::size_t>(frame);
            auto& byFrame = plan.statePool->byFrame;
            if (f < byFrame.size() && !byFrame[f].empty()) {
                reused = std::move(byFrame[f].back());
                byFrame[f].pop_back();
            }
        }
        // A state made for a frame of another shape (a copy of the plan changed since) is dropped.
        auto* state = static_cast<IterationState*>(reused.get());
        if (state && state->inputs.size() == static_cast<std::size_t>(info.totalInputs)) {
            reused.release();
            state->restart(number, info);
            return IterationPtr(state, std::move(recycler));
        }
    }
    return IterationPtr(new IterationState(number, info), std::move(recycler));
}

} // namespace tstudio::executor_state
