#include "projector/tsne.h"

#include "projector/embedding_projection.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <tuple>

namespace tstudio::projector {
namespace {

/// A 2^D-tree of the D-dimensional positions (a quadtree in 2-D, an octree in 3-D) for the
/// Barnes-Hut sums: each node keeps its points' count and centre of mass; a leaf keeps its point
/// (or, past 48 levels, the points at one place).
template <int D>
class SpaceTree {
public:
    using Vec = std::array<double, D>;
    static constexpr int kChildren = 1 << D;

    explicit SpaceTree(const std::vector<double>& y) : m_y(y)
    {
        const std::size_t n = y.size() / D;
        Vec lo, hi;
        lo.fill(INFINITY);
        hi.fill(-INFINITY);
        for (std::size_t i = 0; i < n; ++i)
            for (int d = 0; d < D; ++d) {
                lo[d] = std::min(lo[d], y[D * i + d]);
                hi[d] = std::max(hi[d], y[D * i + d]);
            }
        double span = 1e-9;
        Vec centre;
        for (int d = 0; d < D; ++d) {
            span = std::max(span, hi[d] - lo[d]);
            centre[d] = (lo[d] + hi[d]) / 2;
        }
        m_nodes.reserve(kChildren * n + 1);
        m_nodes.push_back(Node{centre, span / 2 * 1.0001});
        for (std::size_t i = 0; i < n; ++i)
            insert(i);
    }

    /// Adds the repulsion of every other point on point `i`: the unnormalised force into `force`
    /// (D values) and the point's share of Z, the sum of q over all pairs.
    void repulse(std::size_t i, double theta, double* force, double& z) const
    {
        repulse(0, i, at(i), theta * theta, force, z);
    }

private:
    struct Node {
        Vec centre{};     ///< the cell's centre
        double half = 0;  ///< and half width
        Vec mass{};       ///< centre of mass
        std::size_t count = 0;
        std::size_t point = SIZE_MAX; ///< a leaf's (first) point
        std::int64_t children = -1;   ///< the first of 2^D, or -1 for a leaf
    };

    Vec at(std::size_t i) const
    {
        Vec v;
        for (int d = 0; d < D; ++d)
            v[d] = m_y[D * i + d];
        return v;
    }

    std::size_t childFor(std::size_t node, const Vec& p) const
    {
        const Node& nd = m_nodes[node];
        std::size_t k = 0;
        for (int d = 0; d < D; ++d)
            k |= p[d] >= nd.centre[d] ? std::size_t(1) << d : 0;
        return static_cast<std::size_t>(nd.children) + k;
    }

    void add(std::size_t node, const Vec& p)
    {
        Node& nd = m_nodes[node];
        for (int d = 0; d < D; ++d)
            nd.mass[d] = (nd.mass[d] * double(nd.count) + p[d]) / double(nd.count + 1);
        ++nd.count;
    }

    void insert(std::size_t i)
    {
        const Vec p = at(i);
        std::size_t node = 0;
        for (int depth = 0;; ++depth) {
            add(node, p);
            if (m_nodes[node].children >= 0) {
                node = childFor(node, p);
                continue;
            }
            if (m_nodes[node].count == 1) {
                m_nodes[node].point = i;
                return;
            }
            if (depth > 48) // points at one place stay together in this leaf
                return;
            // Split the leaf: 2^D children, the point it held moved into one of them.
            const std::size_t old = m_nodes[node].point;
            const double h = m_nodes[node].half / 2;
            const Vec centre = m_nodes[node].centre;
            m_nodes[node].children = static_cast<std::int64_t>(m_nodes.size());
            m_nodes[node].point = SIZE_MAX;
            for (int k = 0; k < kChildren; ++k) {
                Vec c;
                for (int d = 0; d < D; ++d)
                    c[d] = centre[d] + (k & (1 << d) ? h : -h);
                m_nodes.push_back(Node{c, h});
            }
            const Vec held = at(old);
            const std::size_t child = childFor(node, held);
            add(child, held);
            m_nodes[child].point = old;
            node = childFor(node, p);
        }
    }

    void repulse(std::size_t node, std::size_t i, const Vec& p, double theta2, double* force, double& z) const
    {
        const Node& nd = m_nodes[node];
        if (nd.count == 0)
            return;
        Vec delta;
        double d2 = 0;
        for (int d = 0; d < D; ++d) {
            delta[d] = p[d] - nd.mass[d];
            d2 += delta[d] * delta[d];
        }
        const double width = 2 * nd.half;
        const bool leaf = nd.children < 0;
        if (!leaf && width * width >= theta2 * d2) {
            for (int k = 0; k < kChildren; ++k)
                repulse(static_cast<std::size_t>(nd.children + k), i, p, theta2, force, z);
            return;
        }
        double count = double(nd.count);
        if (leaf && (nd.point == i || d2 == 0))
            count -= 1; // the point itself is in this leaf
        if (count <= 0)
            return;
        const double q = 1 / (1 + d2), mult = count * q;
        z += mult;
        for (int d = 0; d < D; ++d)
            force[d] += mult * q * delta[d];
    }

    const std::vector<double>& m_y;
    std::vector<Node> m_nodes;
};

} // namespace

std::vector<double> conditionalProbabilities(const std::vector<double>& squaredDistances, double perplexity)
{
    const std::size_t k = squaredDistances.size();
    std::vector<double> p(k, 0.0);
    if (k == 0)
        return p;
    const double target = std::log(perplexity); // entropy in nats
    double beta = 1, lo = 0, hi = INFINITY;
    const double dMin = *std::min_element(squaredDistances.begin(), squaredDistances.end());
    for (int step = 0; step < 200; ++step) {
        double sum = 0, weighted = 0;
        for (std::size_t j = 0; j < k; ++j) {
            // Shifted by the nearest distance: the same distribution, no underflow for far points.
            p[j] = std::exp(-beta * (squaredDistances[j] - dMin));
            sum += p[j];
            weighted += p[j] * (squaredDistances[j] - dMin);
        }
        const double entropy = std::log(sum) + beta * weighted / sum;
        for (double& v : p)
            v /= sum;
        const double difference = entropy - target;
        if (std::abs(difference) < 1e-5)
            break;
        if (difference > 0) { // too flat: a narrower Gaussian
            lo = beta;
            beta = std::isinf(hi) ? beta * 2 : (beta + hi) / 2;
        } else {
            hi = beta;
            beta = (beta + lo) / 2;
        }
    }
    return p;
}

Expected<Tsne> Tsne::create(const events::EmbeddingValues& values, const TsneOptions& options)
{
    const std::size_t n = values.rows;
    if (options.dimensions != 2 && options.dimensions != 3)
        return unexpected(invalidArgumentError("t-SNE embeds in 2 or 3 dimensions, not " +
                                               std::to_string(options.dimensions)));
    if (n < 4)
        return unexpected(invalidArgumentError("t-SNE needs at least 4 points, got " + std::to_string(n)));
    if (!(options.perplexity > 0) || options.perplexity * 3 >= double(n)) {
        char text[160];
        std::snprintf(text, sizeof text, "t-SNE perplexity %g needs more than %g points (there are %zu)",
                      options.perplexity, std::floor(options.perplexity * 3), n);
        return unexpected(invalidArgumentError(text));
    }
    // The points it measures distances in: their first principal components when they have many
    // dimensions (principalComponents also refuses non-finite values).
    std::vector<float> data;
    std::size_t dims = values.dims;
    if (options.pcaDimensions > 0 && values.dims > static_cast<std::size_t>(options.pcaDimensions)) {
        auto pca = principalComponents(values, options.pcaDimensions, false);
        if (!pca)
            return unexpected(pca.error());
        data = std::move(pca->coordinates);
        dims = static_cast<std::size_t>(pca->components);
    } else {
        for (float v : values.values)
            if (!std::isfinite(v))
                return unexpected(invalidArgumentError("t-SNE needs finite values"));
        data = values.values;
    }
    // Each point's 3 x perplexity nearest neighbours (exact) and their conditional probabilities.
    // Squared distances |a|^2 + |b|^2 - 2 a.b, the products a block of rows at a time (one GEMM).
    const std::size_t k = std::min(n - 1, static_cast<std::size_t>(3 * options.perplexity));
    std::vector<std::tuple<std::size_t, std::size_t, double>> entries;
    entries.reserve(2 * n * k);
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Matrix x = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                         data.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(dims))
                         .cast<double>();
    const Eigen::VectorXd norms = x.rowwise().squaredNorm();
    constexpr Eigen::Index kBlock = 256;
    std::vector<std::pair<double, std::size_t>> distances(n);
    for (Eigen::Index first = 0; first < static_cast<Eigen::Index>(n); first += kBlock) {
        const Eigen::Index rows = std::min<Eigen::Index>(kBlock, static_cast<Eigen::Index>(n) - first);
        const Matrix products = x.middleRows(first, rows) * x.transpose();
        for (Eigen::Index r = 0; r < rows; ++r) {
            const auto i = static_cast<std::size_t>(first + r);
            for (std::size_t j = 0; j < n; ++j) {
                const double d2 = norms(static_cast<Eigen::Index>(i)) + norms(static_cast<Eigen::Index>(j)) -
                                  2 * products(r, static_cast<Eigen::Index>(j));
                distances[j] = {j == i ? INFINITY : std::max(d2, 0.0), j};
            }
            std::partial_sort(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(k),
                              distances.end());
            std::vector<double> d2(k);
            for (std::size_t m = 0; m < k; ++m)
                d2[m] = distances[m].first;
            const std::vector<double> p = conditionalProbabilities(d2, options.perplexity);
            for (std::size_t m = 0; m < k; ++m) {
                entries.emplace_back(i, distances[m].second, p[m]);
                entries.emplace_back(distances[m].second, i, p[m]);
            }
        }
    }
    // P = (P(j|i) + P(i|j)) / 2n, symmetric, in compressed rows.
    std::sort(entries.begin(), entries.end());
    Tsne t;
    t.m_n = n;
    t.m_options = options;
    t.m_learningRate = options.learningRate > 0 ? options.learningRate : std::max(double(n) / 12, 50.0);
    t.m_rowStart.assign(n + 1, 0);
    for (std::size_t e = 0; e < entries.size();) {
        const auto [i, j, v] = entries[e];
        double sum = 0;
        while (e < entries.size() && std::get<0>(entries[e]) == i && std::get<1>(entries[e]) == j)
            sum += std::get<2>(entries[e++]);
        t.m_columns.push_back(j);
        t.m_p.push_back(sum / (2.0 * double(n)));
        ++t.m_rowStart[i + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        t.m_rowStart[i + 1] += t.m_rowStart[i];
    t.m_dims = options.dimensions;
    std::mt19937 rng(options.seed);
    std::normal_distribution<double> start(0.0, 1e-4);
    const std::size_t coordinates = static_cast<std::size_t>(t.m_dims) * n;
    t.m_y.resize(coordinates);
    for (double& v : t.m_y)
        v = start(rng);
    t.m_velocity.assign(coordinates, 0.0);
    t.m_gains.assign(coordinates, 1.0);
    return t;
}

void Tsne::step()
{
    if (m_dims == 3)
        stepIn<3>();
    else
        stepIn<2>();
}

template <int D>
void Tsne::stepIn()
{
    const bool early = m_iteration < m_options.exaggerationIterations;
    const double exaggeration = early ? m_options.exaggeration : 1.0;
    const double momentum = early ? 0.5 : 0.8;
    std::vector<double> attractive(D * m_n, 0.0), repulsive(D * m_n, 0.0);
    for (std::size_t i = 0; i < m_n; ++i)
        for (std::size_t e = m_rowStart[i]; e < m_rowStart[i + 1]; ++e) {
            const std::size_t j = m_columns[e];
            double delta[D], d2 = 0;
            for (int d = 0; d < D; ++d) {
                delta[d] = m_y[D * i + d] - m_y[D * j + d];
                d2 += delta[d] * delta[d];
            }
            const double f = exaggeration * m_p[e] / (1 + d2);
            for (int d = 0; d < D; ++d)
                attractive[D * i + d] += f * delta[d];
        }
    const SpaceTree<D> tree(m_y);
    double z = 0;
    for (std::size_t i = 0; i < m_n; ++i)
        tree.repulse(i, m_options.theta, &repulsive[D * i], z);
    z = std::max(z, 1e-12);
    for (std::size_t c = 0; c < D * m_n; ++c) {
        const double gradient = 4 * (attractive[c] - repulsive[c] / z);
        // Gains (delta-bar-delta): grow where the gradient keeps its direction against the motion.
        m_gains[c] = (gradient > 0) != (m_velocity[c] > 0) ? m_gains[c] + 0.2 : std::max(m_gains[c] * 0.8, 0.01);
        m_velocity[c] = momentum * m_velocity[c] - m_learningRate * m_gains[c] * gradient;
        m_y[c] += m_velocity[c];
    }
    for (int d = 0; d < D; ++d) {
        double mean = 0;
        for (std::size_t i = 0; i < m_n; ++i)
            mean += m_y[D * i + d];
        mean /= double(m_n);
        for (std::size_t i = 0; i < m_n; ++i)
            m_y[D * i + d] -= mean;
    }
    ++m_iteration;
}

} // namespace tstudio::projector
