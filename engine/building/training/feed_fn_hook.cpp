// FeedFnHook (feed_fn_hook.h).
#include "training/feed_fn_hook.h"

namespace tstudio::training {

Expected<SessionRunArgs> FeedFnHook::beforeRun(SessionRunContext& context)
{
    (void)context;
    SessionRunArgs args;
    if (!m_feedFn)
        return args;
    auto feeds = m_feedFn();
    if (!feeds)
        return unexpected(feeds.error());
    args.feeds = std::move(*feeds);
    return args;
}

} // namespace tstudio::training
