// Scaffold: the init, ready, local-init and summary ops and the Saver a MonitoredTrainingSession
// needs, taken from the caller, from the graph's collections, or built (tf.train.Scaffold of TF 1.x).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "model/saver.h"
#include "training/session_run_hook.h"

#include <functional>
#include <optional>
#include <string>

namespace tstudio {
class Session;
}

namespace tstudio::training {

/// The collections Scaffold reads and fills (tf.GraphKeys).
namespace scaffold_keys {
inline constexpr std::string_view kInitOp = "init_op";
inline constexpr std::string_view kReadyOp = "ready_op";
inline constexpr std::string_view kReadyForLocalInitOp = "ready_for_local_init_op";
inline constexpr std::string_view kLocalInitOp = "local_init_op";
inline constexpr std::string_view kSummaryOp = "summary_op";
} // namespace scaffold_keys

/// The pieces a caller may give; each one left out is taken from its collection or built by
/// finalize(). Ops are node names ("init"), tensors "node:0".
struct ScaffoldOptions {
    std::optional<std::string> initOp;
    Feeds initFeeds;
    /// Called after the init op when the variables were not restored (Scaffold's init_fn).
    std::function<Status(Session&)> initFn;
    /// A string vector listing what is not initialized; empty means ready.
    std::optional<std::string> readyOp;
    std::optional<std::string> readyForLocalInitOp;
    std::optional<std::string> localInitOp;
    /// A scalar string tensor holding a serialized Summary (e.g. "Merge/MergeSummary:0").
    std::optional<std::string> summaryOp;
    std::optional<Saver> saver;
};

/// tf.train.Scaffold. finalize() settles every piece in TensorFlow's order: init op, ready op,
/// ready-for-local-init op, local init op, summary op, saver. A piece not given is taken from its
/// collection when that holds exactly one item, otherwise built and added to the collection:
///  - init op "group_deps": group(global_variables_initializer "init", the no-op "init_1" that
///    initialize_resources of no resources is);
///  - ready op "concat:0": concat(reportUninitializedVariables(), reportUninitializedResources());
///  - ready-for-local-init op "concat_1:0": the same for the global variables only;
///  - local init op "group_deps_1": group(local_variables_initializer "init_2", "init_all_tables",
///    "init_3") (no tables or local resources exist in our graphs, so the last two are no-ops);
///  - summary op: summary::mergeAll of the "summaries" collection (none when it is empty);
///  - saver: Saver::create with allowEmpty and a sharded graph, as Scaffold's default
///    Saver(sharded=True, allow_empty=True). The SAVERS collection is not used: our collections
///    hold graph elements only.
/// Errors: FailedPrecondition 'More than one item in the collection "init_op". Please indicate
/// which one to use by passing it to the tf.Scaffold constructor.'; building errors.
/// Not synchronised; shared by the session and the hooks that read its saver and summary op.
class Scaffold {
public:
    explicit Scaffold(ScaffoldOptions options = {}) : m_options(std::move(options)) {}

    /// Settles every piece (once; later calls do nothing).
    Status finalize(GraphBuilder& b);
    bool finalized() const { return m_finalized; }

    // Valid after finalize().
    const std::string& initOp() const { return *m_options.initOp; }
    const Feeds& initFeeds() const { return m_options.initFeeds; }
    const std::function<Status(Session&)>& initFn() const { return m_options.initFn; }
    const std::string& readyOp() const { return *m_options.readyOp; }
    const std::string& readyForLocalInitOp() const { return *m_options.readyForLocalInitOp; }
    const std::string& localInitOp() const { return *m_options.localInitOp; }
    const std::optional<std::string>& summaryOp() const { return m_options.summaryOp; }
    Saver& saver() { return *m_options.saver; }

private:
    ScaffoldOptions m_options;
    bool m_finalized = false;
};

} // namespace tstudio::training
