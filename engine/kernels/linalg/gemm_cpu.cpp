// cpuGemm: picks the GEMM build for this CPU, splits the product into tiles and runs them on the thread pool.
#define EIGEN_USE_THREADS
#include "kernels/linalg/gemm_cpu.h"

#include "devices/cpu/cpu_parallel.h"
#include "kernels/isa/cpu_isa.h"
#include "kernels/linalg/gemm_tile_dnnl.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace tstudio::linalg {

namespace {

/// Products smaller than this many multiply-adds run on the calling thread: handing work to the
/// pool costs a few microseconds, about what such a product takes.
constexpr double kMinParallelMacs = 1 << 18;
/// Row tiles (tall products): kRowTilesPerBand for every kRowBand rows, so about 128 rows each,
/// and a count that 1, 2 and 4 threads share out evenly.
constexpr std::int64_t kRowBand = 512;
constexpr std::int64_t kRowTilesPerBand = 4;
/// Column tiles (wide products): at least kGemmColTile wide, and at most kMaxColTiles of them, so
/// that a very wide product (a 10,000-word softmax) does not pack its left-hand side once per
/// 128 columns; the columns are split evenly at multiples of kGemmRowTile.
constexpr std::int64_t kGemmColTile = 128;
constexpr std::int64_t kMaxColTiles = 16;

struct Tile {
    std::int64_t row0, rows, col0, cols;
};

const GemmTileKernels& eigenKernels()
{
    static const GemmTileKernels& kernels =
        kernelsForCpu(&gemmTileKernelsAvx512, &gemmTileKernelsAvx2, &gemmTileKernelsBaseline);
    return kernels;
}

/// Products with a transposed right-hand side and fewer rows than this stay on Eigen's GEMM:
/// oneDNN's sgemm took 1.6-1.8x Eigen's time on them here (an LSTM step's input gradient, 20 x 800
/// by (400 x 800)^T, in 100-column tiles). A choice by the product's shape alone, never by a
/// tile's rows, so that the result still does not depend on the number of threads.
constexpr std::int64_t kDnnlMinRowsTransposedB = 64;

/// A float tile on oneDNN's sgemm, or on Eigen's GEMM where that is faster or oneDNN refuses it.
void floatTileOnDnnl(const GemmArgs<float>& args, std::int64_t row0, std::int64_t rows, std::int64_t col0,
                     std::int64_t cols)
{
    const bool eigen = args.k <= 0 || (args.transposeB && args.m < kDnnlMinRowsTransposedB);
    if (eigen || !dnnlGemmTile(args, row0, rows, col0, cols))
        eigenKernels().f32(args, row0, rows, col0, cols);
}

/// Float products on oneDNN's sgemm where the build has it (on one thread of this machine's
/// AMD EPYC it was 5-50% faster than Eigen's GEMM on the products of an LSTM language model and
/// its 10,000-word softmax), everything else on Eigen's GEMM for the CPU's instruction set.
GemmTileKernels selectKernels()
{
    GemmTileKernels kernels = eigenKernels();
    if (dnnlGemmAvailable())
        kernels.f32 = &floatTileOnDnnl;
    return kernels;
}

/// Boundaries of `size` split into about `wanted` parts at multiples of kGemmRowTile (the even
/// split rounded), a short last part (under kGemmRowTile) joined to the one before it: a part of
/// one row or column would take Eigen's matrix-vector path, which sums in another order.
std::vector<std::pair<std::int64_t, std::int64_t>> splitAt(std::int64_t size, std::int64_t wanted)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> parts; // (start, length)
    std::int64_t start = 0;
    for (std::int64_t i = 1; i <= wanted; ++i) {
        const std::int64_t end =
            i == wanted ? size
                        : std::clamp<std::int64_t>(std::llround(static_cast<double>(size) * static_cast<double>(i) /
                                                                static_cast<double>(wanted) /
                                                                static_cast<double>(kGemmRowTile)) *
                                                       kGemmRowTile,
                                                   start, size);
        if (end > start)
            parts.emplace_back(start, end - start);
        start = end;
    }
    if (parts.size() > 1 && parts.back().second < kGemmRowTile) {
        parts[parts.size() - 2].second += parts.back().second;
        parts.pop_back();
    }
    return parts;
}

/// The tiles of an m x n product, laid out by the shape alone, never by the number of threads:
/// the threads only share the same tiles out, so the result is the same bits on any number of
/// threads. (A split that followed the thread count relied on the GEMM library summing a row the
/// same way whatever the height of the tile holding it; oneDNN's AVX-512 sgemm does not, e.g. for
/// 1000 x 200 x 300 with a transposed right-hand side.)
///  - Rows: at multiples of kGemmRowTile, about 128 rows a tile (kRowTilesPerBand per kRowBand).
///  - Columns change the blocking of the right-hand side: at least kGemmColTile wide, at most
///    kMaxColTiles of them.
/// A product wider than it is tall with at least two column tiles is split by columns, so that each
/// thread packs the short left-hand side and its share of the wide right-hand one (a 100 x 784 by
/// 784 x 500 product: four 125-column tiles, rather than row tiles that would each pack the whole
/// 784 x 500); others by rows. Products under kMinParallelMacs stay whole.
std::vector<Tile> planTiles(std::int64_t m, std::int64_t n, std::int64_t k)
{
    const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    if (macs >= kMinParallelMacs && m < n && n >= 2 * kGemmColTile) {
        const std::int64_t count = std::min((n + kGemmColTile - 1) / kGemmColTile, kMaxColTiles);
        std::vector<Tile> tiles;
        for (const auto& [start, length] : splitAt(n, count))
            tiles.push_back({0, m, start, length});
        return tiles;
    }
    if (macs < kMinParallelMacs || m < 2 * kGemmRowTile)
        return {{0, m, 0, n}};
    const std::int64_t panels = (m + kGemmRowTile - 1) / kGemmRowTile;
    const std::int64_t wanted = std::min(panels, kRowTilesPerBand * ((m + kRowBand - 1) / kRowBand));
    std::vector<Tile> tiles;
    for (const auto& [start, length] : splitAt(m, wanted))
        tiles.push_back({start, length, 0, n});
    return tiles;
}

template <typename T> GemmTileFunction<T> tileFunction(const GemmTileKernels& kernels)
{
    if constexpr (std::is_same_v<T, float>)
        return kernels.f32;
    else if constexpr (std::is_same_v<T, double>)
        return kernels.f64;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return kernels.c64;
    else
        return kernels.c128;
}

} // namespace

const GemmTileKernels& cpuGemmTileKernels()
{
    static const GemmTileKernels kernels = selectKernels();
    return kernels;
}

const char* cpuGemmIsa()
{
    return cpuGemmTileKernels().isa;
}


template <typename T> void cpuGemm(const Eigen::ThreadPoolDevice* device, const GemmArgs<T>& args)
{
    if (args.m <= 0 || args.n <= 0)
        return;
    const GemmTileFunction<T> tile = tileFunction<T>(cpuGemmTileKernels());
    const int threads = device ? device->numThreads() : 1;
    const std::vector<Tile> tiles = planTiles(args.m, args.n, args.k);
    // Tiles are taken in order by whoever is free; the calling thread works too.
    cpuRunInParallel(device, tiles.size(), threads,
                     [&](std::size_t i) { tile(args, tiles[i].row0, tiles[i].rows, tiles[i].col0, tiles[i].cols); });
}

template void cpuGemm<float>(const Eigen::ThreadPoolDevice*, const GemmArgs<float>&);
template void cpuGemm<double>(const Eigen::ThreadPoolDevice*, const GemmArgs<double>&);
template void cpuGemm<std::complex<float>>(const Eigen::ThreadPoolDevice*, const GemmArgs<std::complex<float>>&);
template void cpuGemm<std::complex<double>>(const Eigen::ThreadPoolDevice*, const GemmArgs<std::complex<double>>&);

} // namespace tstudio::linalg
