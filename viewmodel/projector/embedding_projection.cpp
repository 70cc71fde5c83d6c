#include "projector/embedding_projection.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tstudio::projector {

Expected<Projection> principalComponents(const events::EmbeddingValues& values, int components, bool sphereize)
{
    const auto n = static_cast<Eigen::Index>(values.rows), d = static_cast<Eigen::Index>(values.dims);
    if (n < 2 || d < 1)
        return unexpected(invalidArgumentError("PCA needs at least two points of at least one dimension, got " +
                                               std::to_string(n) + " x " + std::to_string(d)));
    for (std::size_t i = 0; i < values.values.size(); ++i)
        if (!std::isfinite(values.values[i]))
            return unexpected(invalidArgumentError("embedding point " + std::to_string(i / values.dims) +
                                                   ", dimension " + std::to_string(i % values.dims) +
                                                   " is not finite: PCA needs finite values"));
    Eigen::MatrixXd x = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                            values.values.data(), n, d)
                            .cast<double>();
    x.rowwise() -= x.colwise().mean();
    if (sphereize)
        for (Eigen::Index r = 0; r < n; ++r)
            if (const double norm = x.row(r).norm(); norm > 0)
                x.row(r) /= norm;
    const int k = std::clamp(components, 1, static_cast<int>(std::min(n, d)));
    Projection out;
    out.rows = values.rows;
    out.components = k;
    out.coordinates.assign(values.rows * static_cast<std::size_t>(k), 0.0f);
    Eigen::MatrixXd coords(n, k);
    Eigen::VectorXd eigenvalues;
    if (n >= d) {
        // Covariance (d x d): the projections are the centred points times the eigenvectors.
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(x.transpose() * x);
        eigenvalues = solver.eigenvalues().reverse();
        const Eigen::MatrixXd vectors = solver.eigenvectors().rowwise().reverse();
        coords = x * vectors.leftCols(k);
    } else {
        // Gram (n x n): x x^T = U L U^T, and the projections are U sqrt(L).
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(x * x.transpose());
        eigenvalues = solver.eigenvalues().reverse();
        const Eigen::MatrixXd vectors = solver.eigenvectors().rowwise().reverse();
        for (int c = 0; c < k; ++c)
            coords.col(c) = vectors.col(c) * std::sqrt(std::max(0.0, eigenvalues(c)));
    }
    const double total = eigenvalues.cwiseMax(0.0).sum();
    for (int c = 0; c < k; ++c) {
        out.varianceExplained.push_back(total > 0 ? std::max(0.0, eigenvalues(c)) / total : 0.0);
        // A deterministic sign: the first point with a coordinate clearly off zero has it positive.
        const double scale = coords.col(c).cwiseAbs().maxCoeff();
        for (Eigen::Index r = 0; r < n; ++r)
            if (std::abs(coords(r, c)) > 1e-9 * scale) {
                if (coords(r, c) < 0)
                    coords.col(c) = -coords.col(c);
                break;
            }
        for (Eigen::Index r = 0; r < n; ++r)
            out.coordinates[static_cast<std::size_t>(r) * static_cast<std::size_t>(k) + static_cast<std::size_t>(c)] =
                static_cast<float>(coords(r, c));
    }
    return out;
}

std::vector<Neighbour> nearestNeighbours(const events::EmbeddingValues& values, std::size_t point, std::size_t k,
                                         DistanceMetric metric)
{
    std::vector<Neighbour> all;
    if (point >= values.rows)
        return all;
    const std::size_t d = values.dims;
    const float* p = values.values.data() + point * d;
    double pNorm = 0;
    for (std::size_t j = 0; j < d; ++j)
        pNorm += double(p[j]) * p[j];
    pNorm = std::sqrt(pNorm);
    all.reserve(values.rows);
    for (std::size_t i = 0; i < values.rows; ++i) {
        if (i == point)
            continue;
        const float* q = values.values.data() + i * d;
        double dot = 0, qNorm = 0, squared = 0;
        for (std::size_t j = 0; j < d; ++j) {
            dot += double(p[j]) * q[j];
            qNorm += double(q[j]) * q[j];
            const double diff = double(p[j]) - q[j];
            squared += diff * diff;
        }
        double distance = std::sqrt(squared);
        if (metric == DistanceMetric::Cosine) {
            const double norms = pNorm * std::sqrt(qNorm);
            distance = norms > 0 ? 1.0 - dot / norms : 1.0;
        }
        all.push_back({i, distance});
    }
    const std::size_t keep = std::min(k, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      [](const Neighbour& a, const Neighbour& b) {
                          return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
                      });
    all.resize(keep);
    return all;
}

} // namespace tstudio::projector
