// The float GEMM tile on oneDNN's sgemm, when the engine is built with oneDNN (internal to linalg).
#pragma once

#include "kernels/linalg/gemm_tile.h"

namespace tstudio::linalg {

/// Whether this build has oneDNN's sgemm (Debian's libdnnl-dev was found).
bool dnnlGemmAvailable();

/// Computes rows [row0, row0 + rows) and columns [col0, col0 + cols) of C = op(A) * op(B) with
/// dnnl_sgemm on the calling thread alone (its OpenMP thread count set to 1: the tiles are the
/// parallelism). False, with C untouched, when oneDNN is not built in or refuses the call; the
/// caller then computes the tile itself. `args.k` must be positive.
bool dnnlGemmTile(const GemmArgs<float>& args, std::int64_t row0, std::int64_t rows, std::int64_t col0,
                  std::int64_t cols);

} // namespace tstudio::linalg
