// ProjectEvaluation: the eval section's metrics and pipelines, and one evaluation run.
#include "project/run/evaluation.h"

#include "builder/learning_phase.h"
#include "project/run/carried_state.h"
#include "core/try.h"
#include "project/sources/data_sources.h"
#include "framework/allocator.h"
#include "graph/tensor_id.h"
#include "proto/plugin_data.pb.h"
#include "proto/summary.pb.h"
#include "runtime/session.h"
#include "training/summary_writer_cache.h"
#include "project/run/training_setup.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace tstudio::project {
namespace {

/// The node name of a feed's placeholder ("x:0" -> "x").
std::string nodeOf(const std::string& name)
{
    auto id = parseTensorId(name);
    return id ? id->node : name;
}

} // namespace

struct ProjectEvaluation::State {
    std::shared_ptr<CpuAllocator> allocator = std::make_shared<CpuAllocator>();
    EvalGraph graph;
    std::vector<data::Dataset> batches;                  ///< one per eval source
    std::vector<std::vector<std::string>> feedNames;     ///< per source, the placeholders' tensor names
    std::vector<std::pair<std::string, Tensor>> phase;   ///< the learning phase fed false (or nothing)
    std::optional<std::int64_t> steps;
    std::string label;
    /// "carry_state": the state carried from batch to batch, zeros at each evaluation's start.
    std::unique_ptr<CarriedState> carried;
};

ProjectEvaluation::ProjectEvaluation(std::unique_ptr<State> state) : m_state(std::move(state)) {}
ProjectEvaluation::~ProjectEvaluation() = default;

const EvalGraph& ProjectEvaluation::graph() const
{
    return m_state->graph;
}

std::optional<double> EvalResult::metric(const std::string& name) const
{
    for (const auto& [key, value] : metrics)
        if (key == name)
            return value;
    return std::nullopt;
}

Expected<std::unique_ptr<ProjectEvaluation>> ProjectEvaluation::prepare(GraphBuilder& b, const Project& project,
                                                                        const std::string& loss)
{
    const std::string label = projectLabel(project);
    if (!project.eval)
        return unexpected(failedPreconditionError(label + "the project has no eval section"));
    const EvalSettings& eval = *project.eval;
    auto state = std::make_unique<State>();
    state->label = label;
    state->steps = eval.steps;
    const std::int64_t batchSize = eval.batchSize.value_or(project.batchSize);

    // The sources first: their feeds are checked against the graph as the project's author wrote it.
    std::set<std::string> fed;
    std::string fedList;
    for (std::size_t i = 0; i < eval.sources.size(); ++i) {
        const std::string path = "eval.sources[" + std::to_string(i) + "]";
        TSTUDIO_TRY(pipeline, buildSourcePipeline(project, eval.sources[i].source, path, batchSize,
                                                  PipelineMode::kEvaluation, *state->allocator));
        std::vector<std::string> names;
        for (const FeedSpec& feed : pipeline.feeds) {
            const std::string where = label + path + ".feeds." + feed.placeholder;
            if (Status s = checkFeed(b, feed, batchSize, where); !s.isOk())
                return unexpected(s);
            const std::string node = nodeOf(feed.placeholder);
            if (!fed.insert(node).second)
                return unexpected(invalidArgumentError(where + ": '" + node + "' is fed by another eval source too"));
            fedList += (fedList.empty() ? "" : ", ") + node;
            const auto id = parseTensorId(feed.placeholder);
            names.push_back(node + ":" + std::to_string(id ? id->index : 0));
        }
        // An eval source that yields nothing would make every evaluation empty: refused up front.
        auto first = pipeline.batches.makeIterator()->getNext();
        if (!first)
            return unexpected(first.error().withContext(label + path + " (" + eval.sources[i].source.type() + ")"));
        if (!*first)
            return unexpected(invalidArgumentError(label + path + " (" + eval.sources[i].source.type() +
                                                   "): yields no batch: the source holds no example"));
        state->batches.push_back(pipeline.batches);
        state->feedNames.push_back(std::move(names));
    }

    TSTUDIO_TRY(graph, addEvalMetrics(b, project, loss));
    for (std::size_t m = 0; m < graph.placeholders.size(); ++m)
        for (const std::string& placeholder : graph.placeholders[m])
            if (!fed.count(placeholder))
                return unexpected(invalidArgumentError(label + "eval.metrics[" + std::to_string(m) + "] (" +
                                                       graph.names[m] + "): needs placeholder '" + placeholder +
                                                       "', which no eval source feeds (they feed " + fedList + ")"));
    state->graph = std::move(graph);
    TSTUDIO_TRY(phase, learningPhaseFeeds(b.toGraphDef(), false, *state->allocator));
    state->phase = std::move(phase);
    if (!project.carryState.empty()) {
        TSTUDIO_TRY(carried, CarriedState::prepare(b, project, batchSize, 0));
        state->carried = std::move(carried);
    }
    return std::unique_ptr<ProjectEvaluation>(new ProjectEvaluation(std::move(state)));
}

Expected<EvalResult> ProjectEvaluation::run(Session& session, std::int64_t step, const std::string& checkpoint)
{
    const auto start = std::chrono::steady_clock::now();
    State& s = *m_state;
    EvalResult result;
    result.step = step;
    result.checkpoint = checkpoint;
    std::vector<Tensor> ignored;
    if (Status st = session.run({}, {}, {s.graph.resetOp}, &ignored); !st.isOk())
        return unexpected(st.withContext("resetting the eval metrics"));
    // The carried values hold the session's buffers, which may go first: dropped however this ends.
    struct ReleaseCarried {
        CarriedState* carried;
        ~ReleaseCarried()
        {
            if (carried)
                carried->reset();
        }
    } release{s.carried.get()};
    if (s.carried)
        s.carried->reset();
    std::vector<std::unique_ptr<data::DatasetIterator>> iterators;
    for (const data::Dataset& d : s.batches)
        iterators.push_back(d.makeIterator());
    while (!s.steps || result.batches < *s.steps) {
        std::vector<std::pair<std::string, Tensor>> feeds = s.phase;
        bool ended = false;
        for (std::size_t i = 0; i < iterators.size() && !ended; ++i) {
            auto element = iterators[i]->getNext();
            if (!element)
                return unexpected(element.error().withContext(s.label + "eval.sources[" + std::to_string(i) + "]"));
            if (!*element) {
                ended = true;
                break;
            }
            for (std::size_t k = 0; k < s.feedNames[i].size(); ++k)
                feeds.emplace_back(s.feedNames[i][k], (**element)[k]);
            if (i == 0 && !(**element).empty() && (**element)[0].shape().rank() > 0)
                result.examples += (**element)[0].shape().dim(0);
        }
        if (ended) {
            if (result.batches == 0)
                return unexpected(invalidArgumentError(s.label + "eval.sources: yielded no batch"));
            break;
        }
        if (s.carried)
            s.carried->addFeeds(feeds);
        const std::vector<std::string> carriedFetches = s.carried ? s.carried->fetches() : std::vector<std::string>();
        std::vector<Tensor> fetched;
        if (Status st = session.run(feeds, carriedFetches, s.graph.updateOps, &fetched); !st.isOk())
            return unexpected(st.withContext("evaluating batch " + std::to_string(result.batches + 1)));
        if (s.carried) {
            auto kept = s.carried->afterStep(fetched);
            if (!kept)
                return unexpected(kept.error());
        }
        ++result.batches;
    }
    std::vector<Tensor> values;
    if (Status st = session.run({}, s.graph.values, {}, &values); !st.isOk())
        return unexpected(st.withContext("reading the eval metrics"));
    for (std::size_t m = 0; m < values.size(); ++m) {
        if (m < s.graph.kinds.size() && s.graph.kinds[m] == "pr_curve") {
            const Tensor& t = values[m];
            if (t.dtype() != tensorflow::DT_FLOAT || t.shape().rank() != 3 || t.shape().dim(1) != 6)
                return unexpected(internalError(s.label + "eval.metrics[" + std::to_string(m) + "] '" +
                                                s.graph.names[m] + "' gave " + t.shape().toString() +
                                                ", not [classes, 6, thresholds] float"));
            EvalCurves curves{s.graph.names[m], t.shape().dim(0), t.shape().dim(2), {}};
            const auto data = t.values<float>();
            curves.values.assign(data.begin(), data.end());
            result.curves.push_back(std::move(curves));
            continue;
        }
        auto value = scalarAsDouble(values[m]);
        if (!value)
            return unexpected(invalidArgumentError(s.label + "eval.metrics[" + std::to_string(m) + "] '" +
                                                   s.graph.names[m] + "' is not a number"));
        if (!std::isfinite(*value))
            return unexpected(invalidArgumentError(s.label + "eval.metrics[" + std::to_string(m) + "] '" +
                                                   s.graph.names[m] + "' is " + (std::isnan(*value) ? "nan" : "inf") +
                                                   " after " + std::to_string(result.batches) + " batches"));
        result.metrics.emplace_back(s.graph.names[m], *value);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

Status writeEvalSummary(const std::filesystem::path& evalDir, const EvalResult& result)
{
    auto writer = training::SummaryWriterCache::global().get(evalDir.string());
    if (!writer)
        return writer.error();
    tensorflow::Summary summary;
    for (const auto& [name, value] : result.metrics) {
        tensorflow::Summary::Value* v = summary.add_value();
        v->set_tag(name);
        v->set_simple_value(static_cast<float>(value));
    }
    for (const EvalCurves& curves : result.curves)
        for (std::int64_t c = 0; c < curves.classes; ++c) {
            tensorboard::PrCurvePluginData plugin;
            plugin.set_num_thresholds(static_cast<std::uint32_t>(curves.thresholds));
            tensorflow::Summary::Value* v = summary.add_value();
            v->set_tag(curves.classes == 1 ? curves.name : curves.name + "/class_" + std::to_string(c));
            v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("pr_curves");
            v->mutable_metadata()->mutable_plugin_data()->set_content(plugin.SerializeAsString());
            tensorflow::TensorProto* t = v->mutable_tensor();
            t->set_dtype(tensorflow::DT_FLOAT);
            t->mutable_tensor_shape()->add_dim()->set_size(6);
            t->mutable_tensor_shape()->add_dim()->set_size(curves.thresholds);
            const float* table = curves.values.data() + c * 6 * curves.thresholds;
            std::string bytes(reinterpret_cast<const char*>(table), sizeof(float) * 6 * curves.thresholds);
            t->set_tensor_content(std::move(bytes)); // little-endian, as TensorFlow writes it on x86 and ARM
        }
    if (Status s = (*writer)->addSummary(summary, result.step); !s.isOk())
        return s;
    if (!result.checkpoint.empty()) {
        tensorflow::Summary path;
        tensorflow::Summary::Value* v = path.add_value();
        v->set_tag("checkpoint_path");
        tensorflow::TensorProto* t = v->mutable_tensor();
        t->set_dtype(tensorflow::DT_STRING);
        t->mutable_tensor_shape();
        t->add_string_val(result.checkpoint);
        if (Status s = (*writer)->addSummary(path, result.step); !s.isOk())
            return s;
    }
    return (*writer)->flush();
}

std::optional<double> scalarAsDouble(const Tensor& t)
{
    if (t.numElements() != 1)
        return std::nullopt;
    switch (t.dtype()) {
    case tensorflow::DT_FLOAT:
        return static_cast<double>(t.values<float>()[0]);
    case tensorflow::DT_DOUBLE:
        return t.values<double>()[0];
    case tensorflow::DT_INT32:
        return static_cast<double>(t.values<std::int32_t>()[0]);
    case tensorflow::DT_INT64:
        return static_cast<double>(t.values<std::int64_t>()[0]);
    default:
        return std::nullopt;
    }
}

std::string formatEvalMetrics(const EvalResult& result)
{
    std::string out;
    for (const auto& [name, value] : result.metrics) {
        char text[64];
        std::snprintf(text, sizeof text, "%.4g", value);
        out += (out.empty() ? "" : ", ") + name + " = " + text;
    }
    for (const EvalCurves& c : result.curves)
        out += (out.empty() ? "" : ", ") + c.name + ": " + std::to_string(c.classes) +
               (c.classes == 1 ? " curve" : " curves") + " of " + std::to_string(c.thresholds) + " thresholds";
    return out;
}

} // namespace tstudio::project
