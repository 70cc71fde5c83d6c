// The executor's per-iteration state (TensorFlow's IterationState in propagator_state.h): the values
// waiting in each node's input slots and the pending counts of one iteration of one frame, and the
// pool that keeps a dropped state for the plan's next step. Internal to runtime/executor.cpp.
#pragma once

#include "framework/op_kernel.h"
#include "runtime/executor_plan.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tstudio::executor_state {

/// A value waiting in an input slot, or travelling along an edge. `has` false means no value (dead).
/// The value is held only when there is one: a TensorValue is large, and a step has an Entry for
/// every input slot of its graph.
struct Entry {
    Entry() = default;
    Entry(bool has, TensorValue value) : has(has)
    {
        if (has)
            held.emplace(std::move(value));
    }
    const TensorValue& value() const { return *held; }

    bool has = false;
    std::optional<TensorValue> held;
};

/// One iteration of one frame instance: an Entry per input slot of the frame's nodes, their
/// pending counts and dead-input counts.
struct IterationState {
    IterationState(std::int64_t number, const PlanFrame& frame);
    /// As new for iteration `number` of `frame` (the frame it was made for), keeping the vectors.
    void restart(std::int64_t number, const PlanFrame& frame);
    /// Releases every value still held (a step that failed, or values no node took).
    void release();

    std::int64_t iter;
    std::vector<Entry> inputs;
    /// Entries of `inputs` that hold a value (the executor counts them as it stores and takes
    /// values), so that release() need not walk a graph's every input slot after each step.
    std::int64_t heldInputs = 0;
    std::vector<int> pending;
    std::vector<int> dead;
    int outstandingOps = 0;        ///< tagged nodes of this iteration queued or running
    int outstandingFrameCount = 0; ///< child frame instances started from this iteration and not done
};

/// Gives a dropped IterationState back to its plan's pool (released; at most kPooledPerFrame per
/// static frame are kept), or deletes it. Thread-safe (the pool's mutex).
struct IterationRecycler {
    static constexpr std::size_t kPooledPerFrame = 16;
    std::shared_ptr<PlanStatePool> pool;
    int frame = 0;

    void operator()(IterationState* state) const;
};
using IterationPtr = std::unique_ptr<IterationState, IterationRecycler>;

/// Iteration `number` of static frame `frame` of `plan`: a state of the plan's pool restarted, or a
/// new one. Thread-safe.
IterationPtr newIteration(const ExecutorPlan& plan, int frame, std::int64_t number);

} // namespace tstudio::executor_state
