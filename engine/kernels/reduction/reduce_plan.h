// ReducePlan: how the GPU reduction kernels reduce a collapsed tensor, as a list of passes over
// [outer, R, inner] views (plain C++, so that the plan is tested on machines without a GPU).
#pragma once

#include <cstdint>
#include <vector>

namespace tstudio::reduction {

/// One pass: for o < outer, p < chunks, i < inner,
///   target[(o * chunks + p) * inner + i] = op over r in chunk p of source[(o * R + r) * inner + i],
/// where chunk p covers r in [p * c, min(R, (p + 1) * c)) with c = ceil(R / chunks).
/// Sources and targets are buffers: kInput, kOutput or a temporary (index into temporaries).
struct ReducePass {
    static constexpr int kInput = -1;
    static constexpr int kOutput = -2;
    int source = kInput;
    int target = kOutput;
    std::int64_t outer = 1;
    std::int64_t R = 1;
    std::int64_t inner = 1;
    std::int64_t chunks = 1;
    bool last = false; ///< the pass that writes the output (where Mean divides)
};

struct ReducePlan {
    std::vector<std::int64_t> temporaries; ///< element counts of the temporary buffers
    std::vector<ReducePass> passes;
    std::int64_t reducedElements = 1; ///< how many input elements each output element combines
};

/// The passes for a tensor collapsed into alternating runs of reduced and kept dimensions
/// (`runs[0]` reduced when `reduceFirst`; ReductionHelper::dataReshape): the reduced runs are
/// removed one at a time from the innermost out, long ones in several chunked passes (see
/// reduceChunks). Requires at least one reduced run and no empty run. The order of operations
/// depends only on the shape.
ReducePlan planReduction(std::vector<std::int64_t> runs, bool reduceFirst);

/// How many chunks a pass splits each reduced line into: enough parallel work for a large GPU
/// (8192 warps for contiguous lines, 2^18 threads for strided ones), with chunks of at least 2048
/// (contiguous) or 64 (strided) elements, so that every level shrinks the line at least 64-fold.
std::int64_t reduceChunks(std::int64_t outer, std::int64_t R, std::int64_t inner);

} // namespace tstudio::reduction
