// Shared by the MonitoredTrainingSession and hook tests: a small linear regression trained with
// GradientDescent and a global step, feeding its targets, and reading event files back.
#pragma once

#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "io/events/event_file_loader.h"
#include "model_test_support.h"
#include "proto/event.pb.h"
#include "regression_loss.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/monitored_session.h"
#include "training_test_support.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace tstudio::testing {

/// y = x @ w + b on four examples, loss = mean((pred - y)^2); y is fed ("y:0", float [4,1]); the
/// train op has a control input on the hooks' global step copy "global_step/add".
struct Regression {
    std::unique_ptr<GraphBuilder> graph;
    std::string train; ///< the train op (minimize with the global step)
    std::string loss = "loss:0";
    std::string y = "y:0";
    std::string w = "w/read:0";
    std::string globalStep = "global_step/read:0";
};

/// `callerOrdersStepRead`: build the train op under a control dependency on the hooks' global-step
/// read, as tf.estimator does (false: the hooks make the read after the model, and the ordering is
/// left to MonitoredTrainingSession).
inline Expected<Regression> buildRegression(bool callerOrdersStepRead = true)
{
    TrainingRegistries& r = TrainingRegistries::get();
    Regression m;
    m.graph = std::make_unique<GraphBuilder>(r.ops);
    GraphBuilder& g = *m.graph;
    auto x = ops::constant(g, std::vector<double>{1, 2, 3, 4}, TensorShape({4, 1}), tensorflow::DT_FLOAT, "x");
    auto y = ops::placeholder(g, tensorflow::DT_FLOAT, TensorShape({4, 1}), "y");
    auto w = getVariable(g, "w", TensorShape({1, 1}), tensorflow::DT_FLOAT, Initializer::constant(0.0));
    auto b = getVariable(g, "b", TensorShape({1}), tensorflow::DT_FLOAT, Initializer::constant(0.0));
    if (!x || !y || !w || !b)
        return unexpected(internalError("regression inputs"));
    auto loss = regressionLoss(g, *x, w->value(), b->value(), *y);
    if (!loss)
        return unexpected(loss.error());
    auto step = training::getOrCreateGlobalStep(g);
    if (!step)
        return unexpected(step.error());
    // As tf.estimator does: the train op runs after the hooks' copy of the global step is taken,
    // so the value they fetch with it is the one before the step.
    std::optional<ScopeGuard> after;
    if (callerOrdersStepRead) {
        auto read = training::globalStepReadTensor(g, "the regression");
        if (!read)
            return unexpected(read.error());
        after.emplace(g.controlDependencies({*g.operation(read->substr(0, read->find(':')))}));
    }
    training::GradientDescentOptimizer opt(0.01);
    auto train = opt.minimize(g, *loss, *step);
    if (!train)
        return unexpected(train.error());
    m.train = train->name();
    return m;
}

/// The targets fed as "y:0": y = 2x + 1 (or NaN everywhere).
inline training::Feeds regressionFeeds(bool nan = false)
{
    static CpuAllocator allocator; // outlives every tensor it makes
    const float v = nan ? std::numeric_limits<float>::quiet_NaN() : 0.0f;
    auto y = Tensor::fromVector<float>(allocator, TensorShape({4, 1}),
                                       nan ? std::vector<float>{v, v, v, v} : std::vector<float>{3, 5, 7, 9});
    return {{"y:0", std::move(*y)}};
}

inline training::MonitoredTrainingSessionOptions sessionOptions(const std::string& checkpointDir)
{
    TrainingRegistries& r = TrainingRegistries::get();
    training::MonitoredTrainingSessionOptions o;
    o.session.ops = &r.ops;
    o.session.kernels = &r.kernels;
    o.checkpointDir = checkpointDir;
    return o;
}

/// A session with no checkpoints, summaries or step counter: only `hooks`.
inline Expected<std::unique_ptr<training::MonitoredTrainingSession>>
plainSession(Regression& m, std::vector<std::shared_ptr<training::SessionRunHook>> hooks)
{
    auto o = sessionOptions("");
    o.logStepCountSteps = 0;
    o.saveSummariesSteps = 0;
    o.hooks = std::move(hooks);
    return training::MonitoredTrainingSession::create(*m.graph, o);
}

/// The event files of `dir`, sorted by name.
inline std::vector<std::string> eventFiles(const std::string& dir)
{
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().rfind("events.out.tfevents.", 0) == 0)
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

/// Every event of every event file of `dir`, in file order; an empty list (with a warning) on errors.
inline std::vector<tensorflow::Event> readEvents(const std::string& dir)
{
    std::vector<tensorflow::Event> events;
    for (const std::string& file : eventFiles(dir)) {
        events::EventFileLoader loader(file);
        std::vector<events::LoadWarning> warnings;
        bool parsed = true;
        Status s = loader.readNew(
            [&](std::string_view payload, std::uint64_t) {
                tensorflow::Event e;
                parsed = parsed && e.ParseFromArray(payload.data(), static_cast<int>(payload.size()));
                events.push_back(std::move(e));
            },
            warnings);
        if (!s.isOk() || !parsed || !warnings.empty()) {
            qWarning("reading %s failed: %s", file.c_str(), s.toString().c_str());
            return {};
        }
    }
    return events;
}

/// The values of `fetch` (float) from a session.
inline std::vector<double> values(Session& session, const std::string& fetch)
{
    return fetchValues(session, fetch);
}

} // namespace tstudio::testing
