// Embedding projections without Qt: TensorBoard projector's PCA (optionally sphereized) and the
// nearest neighbours of a point by cosine or Euclidean distance.
#pragma once

#include "core/expected.h"
#include "io/events/projector_config.h"

#include <cstddef>
#include <vector>

namespace tstudio::projector {

/// Points projected on their first principal components.
struct Projection {
    std::size_t rows = 0;
    int components = 0;
    std::vector<float> coordinates;        ///< rows x components, row-major
    std::vector<double> varianceExplained; ///< per component, a fraction of the total variance
};

/// The first `components` (at most min(points, dims)) principal components: each dimension
/// centred on its mean (and, with `sphereize`, each centred point scaled to unit length, as the
/// projector's "Sphereize data"), the eigenvectors of the covariance with the largest eigenvalues
/// (of the Gram matrix where there are fewer points than dimensions: the same projections), each
/// signed so that the first point with a coordinate clearly off zero has it positive.
/// InvalidArgument for fewer than two points or non-finite values (naming the point and dimension).
Expected<Projection> principalComponents(const events::EmbeddingValues& values, int components, bool sphereize);

enum class DistanceMetric { Cosine, Euclidean };

struct Neighbour {
    std::size_t index = 0;
    double distance = 0; ///< 1 - cosine similarity, or the Euclidean distance
};

/// The `k` points nearest to `point` (itself left out), nearest first, ties by index.
std::vector<Neighbour> nearestNeighbours(const events::EmbeddingValues& values, std::size_t point, std::size_t k,
                                         DistanceMetric metric);

} // namespace tstudio::projector
