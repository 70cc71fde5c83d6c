// RunEvaluations: the evaluations of a training run (a project's "eval" section): when they are
// due, and what follows each (the eval event file, the best checkpoint, early stopping).
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"
#include "project/run/best_checkpoint.h"
#include "project/run/early_stopping.h"
#include "project/run/evaluation.h"
#include "project/run/project_runner.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tstudio {
class GraphBuilder;
class Session;
} // namespace tstudio

namespace tstudio::project {

/// The run's evaluations (project.eval). Not synchronised (the training thread's).
class RunEvaluations {
public:
    /// Builds the evaluation into `b` (its loss `loss`) and opens the best-checkpoint keeper in
    /// <logdir>/best; errors name "eval.best".
    static Expected<std::unique_ptr<RunEvaluations>>
    prepare(GraphBuilder& b, const Project& project, const std::string& loss, const std::filesystem::path& logdir);

    /// The run starts at `step`, the checkpoint hook's latest save being at `savedStep`.
    void start(std::int64_t step, std::optional<std::int64_t> savedStep);

    /// Due after the step that brought the global step to `step`, the checkpoint hook's latest save
    /// being at `savedStep`.
    bool due(std::int64_t step, std::optional<std::int64_t> savedStep) const;

    bool doneAt(std::int64_t step) const { return step == m_lastStep; }

    /// Evaluates the variables of `session` at `step`, checkpointed as `prefix`; true when early
    /// stopping says the run should end.
    Expected<bool> evaluate(Session& session, std::int64_t step, const std::string& prefix, TrainRunResult& result,
                            const std::function<void(const EvalResult&)>& onEvaluation);

private:
    using Clock = std::chrono::steady_clock;
    RunEvaluations() = default;
    EvalSettings m_settings;
    std::filesystem::path m_logdir;
    std::unique_ptr<ProjectEvaluation> m_evaluation;
    std::optional<BestCheckpointKeeper> m_best;
    std::optional<EarlyStopping> m_stopping;
    std::int64_t m_lastStep = 0;
    Clock::time_point m_lastTime;
    std::optional<std::int64_t> m_lastSaved;
};

} // namespace tstudio::project
