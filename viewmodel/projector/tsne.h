// Barnes-Hut t-SNE without Qt (van der Maaten 2014), as the projector's t-SNE: input similarities
// over each point's 3 x perplexity nearest neighbours, calibrated to the perplexity, then gradient
// descent in 2-D or 3-D with early exaggeration, momentum and gains, the repulsion summed over a
// quadtree or an octree.
#pragma once

#include "core/expected.h"
#include "io/events/projector_config.h"

#include <cstdint>
#include <vector>

namespace tstudio::projector {

struct TsneOptions {
    double perplexity = 30;
    /// 0: max(points / 12, 50), as openTSNE and scikit-learn's "auto" choose.
    double learningRate = 0;
    double theta = 0.5;              ///< Barnes-Hut accuracy: a cell counts as one point when size/distance < theta
    int exaggerationIterations = 250; ///< the first iterations pull the neighbours 12 times harder
    double exaggeration = 12;
    std::uint32_t seed = 1;
    /// The points are first projected on this many principal components when they have more
    /// dimensions (the neighbour search's cost); 0 keeps every dimension.
    int pcaDimensions = 50;
    /// The embedding's dimensions: 2 (a quadtree for the repulsion) or 3 (an octree).
    int dimensions = 2;
};

/// The conditional probabilities p(j|i) of one point over its neighbours: a Gaussian on the squared
/// distances whose width is found by bisection so that the distribution's perplexity (2^entropy)
/// is `perplexity` (within 1e-5 in entropy, at most 200 steps). They sum to 1.
std::vector<double> conditionalProbabilities(const std::vector<double>& squaredDistances, double perplexity);

class Tsne {
public:
    /// Computes the input similarities. InvalidArgument for fewer than 4 points, a perplexity not
    /// below the number of points, non-finite values, or dimensions other than 2 and 3.
    static Expected<Tsne> create(const events::EmbeddingValues& values, const TsneOptions& options = {});

    /// One iteration of gradient descent.
    void step();
    int iteration() const { return m_iteration; }
    std::size_t points() const { return m_n; }
    /// The positions, dimensions() values per point (x, y, and z in 3-D), centred on 0.
    const std::vector<double>& positions() const { return m_y; }
    int dimensions() const { return m_dims; }

private:
    Tsne() = default;
    template <int D>
    void stepIn();

    std::size_t m_n = 0;
    int m_dims = 2;
    TsneOptions m_options;
    double m_learningRate = 200;
    /// P, symmetric, in compressed rows: the neighbours of point i are m_columns[m_rowStart[i] ..
    /// m_rowStart[i + 1]) with probabilities m_p.
    std::vector<std::size_t> m_rowStart, m_columns;
    std::vector<double> m_p;
    std::vector<double> m_y, m_velocity, m_gains;
    int m_iteration = 0;
};

} // namespace tstudio::projector
