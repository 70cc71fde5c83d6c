// FeedFnHook: feeds each run what a function returns (tf.train.FeedFnHook).
#pragma once

#include "training/session_run_hook.h"

#include <functional>

namespace tstudio::training {

/// Calls `feedFn` before every run and adds its feeds to the run (SessionRunArgs(fetches=None,
/// feed_dict=feed_fn())). An error from the function aborts the run, as an exception from
/// TensorFlow's feed_fn does.
class FeedFnHook : public SessionRunHook {
public:
    using FeedFunction = std::function<Expected<Feeds>()>;
    explicit FeedFnHook(FeedFunction feedFn) : m_feedFn(std::move(feedFn)) {}

    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;

private:
    FeedFunction m_feedFn;
};

} // namespace tstudio::training
