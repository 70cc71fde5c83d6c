// CarriedState: the carried recurrent state and the per-epoch perplexity of a run.
#include "project/run/carried_state.h"

#include "core/try.h"
#include "project/run/evaluation.h"
#include "framework/data_type.h"
#include "graph/tensor_id.h"

#include <cmath>

namespace tstudio::project {
namespace {

/// "x" -> "x:0".
std::string tensorNameOf(const std::string& name)
{
    auto id = parseTensorId(name);
    if (!id || id->isControl())
        return name;
    return id->node + ":" + std::to_string(id->index);
}

} // namespace

Expected<std::unique_ptr<CarriedState>> CarriedState::prepare(const GraphBuilder& b, const Project& project,
                                                              std::int64_t batchSize, std::int64_t epochSteps)
{
    const std::string label = projectLabel(project);
    auto out = std::unique_ptr<CarriedState>(new CarriedState);
    out->m_epochSteps = epochSteps;
    out->m_label = label;
    for (std::size_t i = 0; i < project.carryState.size(); ++i) {
        const CarryState& c = project.carryState[i];
        const std::string at = label + "carry_state[" + std::to_string(i) + "]";
        auto fetch = b.tensor(tensorNameOf(c.fetch));
        if (!fetch)
            return unexpected(invalidArgumentError(at + ".fetch: '" + tensorNameOf(c.fetch) + "' is not in the graph"));
        auto id = parseTensorId(c.feed);
        const std::string node = id ? id->node : c.feed;
        const tensorflow::NodeDef* def = b.findNode(node);
        if (!def)
            return unexpected(invalidArgumentError(at + ".feed: '" + node + "' is not in the graph"));
        if (def->op() != "Placeholder" && def->op() != "PlaceholderWithDefault")
            return unexpected(
                invalidArgumentError(at + ".feed: '" + node + "' is a " + def->op() + ", not a placeholder"));
        auto feed = b.tensor(tensorNameOf(c.feed));
        if (!feed)
            return unexpected(invalidArgumentError(at + ".feed: '" + tensorNameOf(c.feed) + "' is not in the graph"));
        const TensorShape& shape = feed->shape();
        bool known = shape.rank() >= 1;
        for (int d = 1; known && d < shape.rank(); ++d)
            known = shape.dim(d) >= 0;
        if (!known)
            return unexpected(invalidArgumentError(at + ".feed: placeholder '" + node + "' has shape " +
                                                   shape.toString() +
                                                   "; a carried state needs a shape known but for the batch "
                                                   "dimension"));
        if (fetch->baseDtype() != feed->baseDtype())
            return unexpected(invalidArgumentError(at + ": '" + fetch->name() + "' is " +
                                                   dataTypeString(fetch->baseDtype()) + " but placeholder '" + node +
                                                   "' is " + dataTypeString(feed->baseDtype())));
        std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
        dims.front() = batchSize;
        TSTUDIO_TRY(zeros, Tensor::allocate(*out->m_allocator, feed->baseDtype(), TensorShape(dims)));
        out->m_feeds.push_back(feed->name());
        out->m_zeros.push_back(std::move(zeros));
        out->m_fetches.push_back(fetch->name());
    }
    if (!project.perplexity.empty()) {
        auto loss = b.tensor(tensorNameOf(project.perplexity));
        if (!loss)
            return unexpected(invalidArgumentError(label + "perplexity: '" + tensorNameOf(project.perplexity) +
                                                   "' is not in the graph"));
        if (loss->shape().rank() > 0 || !isFloating(loss->baseDtype()))
            return unexpected(invalidArgumentError(label + "perplexity: '" + loss->name() + "' is " +
                                                   dataTypeString(loss->baseDtype()) + " " + loss->shape().toString() +
                                                   ", not a floating-point scalar (the per-word loss)"));
        out->m_fetches.push_back(loss->name());
        out->m_perplexity = true;
    }
    return out;
}

void CarriedState::addFeeds(std::vector<std::pair<std::string, Tensor>>& feeds) const
{
    const bool epochStart = m_carried.empty() || (m_epochSteps > 0 && m_steps % m_epochSteps == 0);
    for (std::size_t i = 0; i < m_feeds.size(); ++i)
        feeds.emplace_back(m_feeds[i], epochStart ? m_zeros[i] : m_carried[i]);
}

Expected<std::optional<double>> CarriedState::afterStep(const std::vector<Tensor>& values)
{
    m_carried.assign(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(m_feeds.size()));
    ++m_steps;
    if (!m_perplexity)
        return std::optional<double>();
    auto loss = scalarAsDouble(values.at(m_feeds.size()));
    if (!loss)
        return unexpected(invalidArgumentError(m_label + "perplexity: '" + m_fetches.back() + "' is not a number"));
    m_lossSum += *loss;
    ++m_lossCount;
    if (m_epochSteps <= 0 || m_steps % m_epochSteps != 0)
        return std::optional<double>();
    const double perplexity = std::exp(m_lossSum / static_cast<double>(m_lossCount));
    m_lossSum = 0;
    m_lossCount = 0;
    return std::optional<double>(perplexity);
}

void CarriedState::reset()
{
    m_carried.clear();
    m_steps = 0;
    m_lossSum = 0;
    m_lossCount = 0;
}

} // namespace tstudio::project
