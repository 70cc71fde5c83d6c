// ReducePlan: the passes of a GPU reduction, planned on the host.
#include "kernels/reduction/reduce_plan.h"

#include <algorithm>
#include <cstddef>

namespace tstudio::reduction {

std::int64_t reduceChunks(std::int64_t outer, std::int64_t R, std::int64_t inner)
{
    auto ceilDiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    std::int64_t chunks = 1;
    if (inner == 1) {
        constexpr std::int64_t kTargetWarps = 8192, kMinPerWarp = 2048;
        chunks = std::min(ceilDiv(R, kMinPerWarp), ceilDiv(kTargetWarps, outer));
    } else {
        constexpr std::int64_t kTargetThreads = 1 << 18, kMinPerThread = 64;
        chunks = std::min(ceilDiv(R, kMinPerThread), ceilDiv(kTargetThreads, outer * inner));
    }
    return std::max<std::int64_t>(chunks, 1);
}

ReducePlan planReduction(std::vector<std::int64_t> runs, bool reduceFirst)
{
    ReducePlan plan;
    std::vector<bool> reduced(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        reduced[i] = (i % 2 == 0) == reduceFirst;
        if (reduced[i])
            plan.reducedElements *= runs[i];
    }
    int source = ReducePass::kInput;
    while (std::find(reduced.begin(), reduced.end(), true) != reduced.end()) {
        const auto j =
            static_cast<std::size_t>(std::find(reduced.rbegin(), reduced.rend(), true).base() - reduced.begin() - 1);
        const bool finalRun = std::count(reduced.begin(), reduced.end(), true) == 1;
        std::int64_t outer = 1, inner = 1;
        for (std::size_t i = 0; i < j; ++i)
            outer *= runs[i];
        for (std::size_t i = j + 1; i < runs.size(); ++i)
            inner *= runs[i];
        // The run's line of length R shrinks by chunked passes until one pass finishes it.
        std::int64_t R = runs[j];
        while (true) {
            ReducePass pass;
            pass.source = source;
            pass.outer = outer;
            pass.R = R;
            pass.inner = inner;
            pass.chunks = reduceChunks(outer, R, inner);
            const bool runDone = pass.chunks == 1;
            pass.last = runDone && finalRun;
            if (pass.last) {
                pass.target = ReducePass::kOutput;
            } else {
                pass.target = static_cast<int>(plan.temporaries.size());
                plan.temporaries.push_back(outer * pass.chunks * inner);
            }
            plan.passes.push_back(pass);
            source = pass.target;
            R = pass.chunks;
            if (runDone)
                break;
        }
        // Drop run j; its kept neighbours (when both exist) become one run.
        runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(j));
        reduced.erase(reduced.begin() + static_cast<std::ptrdiff_t>(j));
        if (j > 0 && j < runs.size()) {
            runs[j - 1] *= runs[j];
            runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(j));
            reduced.erase(reduced.begin() + static_cast<std::ptrdiff_t>(j));
        }
    }
    return plan;
}

} // namespace tstudio::reduction
