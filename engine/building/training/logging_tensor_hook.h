// LoggingTensorHook: logs tensor values every N runs or seconds, and/or at the end
// (tf.train.LoggingTensorHook), into a sink rather than stdout.
#pragma once

#include "framework/tensor.h"
#include "training/second_or_step_timer.h"
#include "training/session_run_hook.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::training {

/// A tensor as NumPy's str() prints it with suppress=True, as TensorFlow's hook logs it: a float
/// scalar in its shortest round-trip form ("0.5", "1.0", "1e-05" below 1e-4 or from 1e16 on);
/// integers in decimal; bools True/False; strings b'...'; arrays "[1.  2.5 3. ]": elements
/// positional with at most 8 fractional digits, integral floats ending in ".", fractional parts
/// padded on the right and the integer parts on the left to a common width, rows of matrices on
/// new lines (" [..]"). NumPy's wrapping of lines longer than 75 characters and its summarising of
/// arrays over 1000 elements are not reproduced.
std::string numpyString(const Tensor& t);

struct LoggingTensorHookOptions {
    /// (tag, tensor name) pairs logged in this order. TensorFlow logs a dict's tags sorted: callers
    /// that want that pass them sorted.
    std::vector<std::pair<std::string, std::string>> tensors;
    std::optional<std::int64_t> everyNIter;
    std::optional<double> everyNSecs;
    bool atEnd = false;
    /// Makes the line from the values by tag, instead of "tag = value, ...".
    std::function<std::string(const std::map<std::string, Tensor>&)> formatter;
    /// Receives each line; default: logInfo("training", line).
    std::function<void(const std::string&)> sink;
    std::function<double()> clock; ///< seconds; default the system clock
};

/// Counts its own runs (not the global step): the run with count 0 and then each run the timer
/// fires for fetches the tensors and logs "tag1 = v1, tag2 = v2" plus " (0.123 sec)" (seconds
/// since the previous line) from the second line on; with atEnd, end() runs them once more and
/// logs them.
class LoggingTensorHook : public SessionRunHook {
public:
    /// InvalidArgument "either at_end and/or exactly one of every_n_iter and every_n_secs must be
    /// provided." / "invalid every_n_iter=0."
    static Expected<std::shared_ptr<LoggingTensorHook>> create(LoggingTensorHookOptions options);

    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;
    Status end(Session& session) override;

private:
    LoggingTensorHook(LoggingTensorHookOptions options, SecondOrStepTimer timer)
        : m_options(std::move(options)), m_timer(std::move(timer))
    {
    }
    void log(const std::vector<Tensor>& values);

    LoggingTensorHookOptions m_options;
    SecondOrStepTimer m_timer;
    std::int64_t m_iterCount = 0;
    bool m_shouldTrigger = false;
};

} // namespace tstudio::training
