// CarriedState: a project's "carry_state" and "perplexity" during a run - the recurrent state fed
// from one step to the next and reset to zeros at each epoch start, and the per-epoch perplexity,
// as TensorFlow's PTB tutorial's run_epoch does them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::project {

/// One run's carried state. Not synchronised (the training thread's).
class CarriedState {
public:
    /// Checks every carry_state entry and the perplexity tensor against the graph in `b`:
    /// each fetch a tensor, each feed a Placeholder or PlaceholderWithDefault of the fetch's dtype
    /// whose shape is known but for its first dimension (the zeros are that shape with `batchSize`
    /// first). `epochSteps` is the steps in one epoch (0: never reset after the first step).
    /// Errors (InvalidArgument, prefixed "<file>: "): "carry_state[0].fetch: 'x:0' is not in the
    /// graph", "carry_state[0].feed: 'y' is a MatMul, not a placeholder", "carry_state[0].feed:
    /// placeholder 'y' has shape [?,?]; a carried state needs a shape known but for the batch
    /// dimension", "carry_state[0]: 'x:0' is int32 but placeholder 'y' is float", "perplexity: 'p:0'
    /// is not in the graph" or "... is not a scalar".
    static Expected<std::unique_ptr<CarriedState>> prepare(const GraphBuilder& b, const Project& project,
                                                           std::int64_t batchSize, std::int64_t epochSteps);

    /// The tensors a step fetches besides its own: the carry fetches, then the perplexity tensor.
    const std::vector<std::string>& fetches() const { return m_fetches; }

    /// Adds this step's state feeds to `feeds`: zeros at an epoch's first step, else the fetched
    /// values of the step before.
    void addFeeds(std::vector<std::pair<std::string, Tensor>>& feeds) const;

    /// After a step: `values` are what fetches() gave (in order). Keeps the states for the next step
    /// and, when this step ended an epoch and the project names a perplexity tensor, returns
    /// exp(mean of that tensor over the epoch's steps). InvalidArgument when the perplexity tensor
    /// is not a number.
    Expected<std::optional<double>> afterStep(const std::vector<Tensor>& values);

    /// Forgets the carried values (and the step count): the next step feeds zeros (an evaluation's
    /// start). Called before the session that made them goes, as they may hold its buffers.
    void reset();

    std::int64_t epochSteps() const { return m_epochSteps; }
    /// The steps done (afterStep calls) since prepare.
    std::int64_t steps() const { return m_steps; }

private:
    CarriedState() = default;

    /// First, so that it outlives the zeros it holds.
    std::shared_ptr<CpuAllocator> m_allocator = std::make_shared<CpuAllocator>();
    std::vector<std::string> m_feeds;   ///< placeholder tensor names
    std::vector<Tensor> m_zeros;        ///< per feed
    std::vector<Tensor> m_carried;      ///< per feed; empty before the first step and after reset
    std::vector<std::string> m_fetches; ///< carry fetches, then perplexity (when set)
    bool m_perplexity = false;
    std::int64_t m_epochSteps = 0;
    std::int64_t m_steps = 0;
    double m_lossSum = 0;
    std::int64_t m_lossCount = 0;
    std::string m_label;
};

} // namespace tstudio::project
