// cpuGemm: picks the GEMM build for this CPU, splits the product into tiles and runs them on the thread pool.
#define EIGEN_USE_THREADS
#include "kernels/linalg/gemm_cpu.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <vector>

namespace tstudio::linalg {

namespace {

/// Products smaller than this many multiply-adds run on the calling thread: handing work to the
/// pool costs a few microseconds, about what such a product takes.
constexpr double kMinParallelMacs = 1 << 18;
/// Tiles per thread for row splits: two lets a thread that was slowed down be caught up.
constexpr std::int64_t kTilesPerThread = 2;
/// Column tile width for products too short to split by rows.
constexpr std::int64_t kGemmColTile = 256;

struct Tile {
    std::int64_t row0, rows, col0, cols;
};

const GemmTileKernels& selectKernels()
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    // AVX-512 F/VL/DQ/BW is what gemm_tile_avx512.cpp is compiled for; libgcc's checks also
    // require the OS to save the wide registers.
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("fma"))
        return gemmTileKernelsAvx512();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return gemmTileKernelsAvx2();
#endif
    return gemmTileKernelsBaseline();
}

std::vector<Tile> planTiles(std::int64_t m, std::int64_t n, std::int64_t k, int threads)
{
    const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    if (m >= 2 * kGemmRowTile) {
        // Row tiles at multiples of kGemmRowTile give the same values as one tile, so their
        // number may follow the thread count.
        if (threads <= 1 || macs < kMinParallelMacs)
            return {{0, m, 0, n}};
        // Few panels: one tile per thread, so that two threads split a 100-row product 48 + 52
        // rather than 64 + 36; many: kTilesPerThread each. Boundaries are the even split rounded
        // to a multiple of kGemmRowTile.
        const std::int64_t panels = (m + kGemmRowTile - 1) / kGemmRowTile;
        const std::int64_t wanted =
            std::min<std::int64_t>(panels, panels >= 8 * threads ? threads * kTilesPerThread : threads);
        std::vector<Tile> tiles;
        std::int64_t start = 0;
        for (std::int64_t i = 1; i <= wanted; ++i) {
            const std::int64_t end =
                i == wanted ? m
                            : std::clamp<std::int64_t>(
                                  std::llround(static_cast<double>(m) * static_cast<double>(i) /
                                               static_cast<double>(wanted) / static_cast<double>(kGemmRowTile)) *
                                      kGemmRowTile,
                                  start, m);
            if (end > start)
                tiles.push_back({start, end - start, 0, n});
            start = end;
        }
        // A short last tile joins the one before it: a tile of one row would take Eigen's
        // matrix-vector path, which sums in another order than the blocked kernel.
        if (tiles.size() > 1 && tiles.back().rows < kGemmRowTile) {
            tiles[tiles.size() - 2].rows += tiles.back().rows;
            tiles.pop_back();
        }
        return tiles;
    }
    // Column tiles change the blocking and so the rounding: their layout depends on the shape
    // only, so that one thread and many give the same values.
    if (macs < kMinParallelMacs || n < 2 * kGemmColTile)
        return {{0, m, 0, n}};
    std::vector<Tile> tiles;
    for (std::int64_t c = 0; c < n; c += kGemmColTile)
        tiles.push_back({0, m, c, std::min(kGemmColTile, n - c)});
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
    static const GemmTileKernels& kernels = selectKernels();
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
    const std::vector<Tile> tiles = planTiles(args.m, args.n, args.k, threads);
    const int helpers = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), tiles.size())) - 1;
    if (helpers <= 0) {
        for (const Tile& t : tiles)
            tile(args, t.row0, t.rows, t.col0, t.cols);
        return;
    }
    // Tiles are taken in order by whoever is free; the calling thread works too.
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < tiles.size();)
            tile(args, tiles[i].row0, tiles[i].rows, tiles[i].col0, tiles[i].cols);
    };
    Eigen::Barrier barrier(static_cast<unsigned>(helpers));
    for (int h = 0; h < helpers; ++h) {
        device->enqueueNoNotification([&] {
            work();
            barrier.Notify();
        });
    }
    work();
    barrier.Wait();
}

template void cpuGemm<float>(const Eigen::ThreadPoolDevice*, const GemmArgs<float>&);
template void cpuGemm<double>(const Eigen::ThreadPoolDevice*, const GemmArgs<double>&);
template void cpuGemm<std::complex<float>>(const Eigen::ThreadPoolDevice*, const GemmArgs<std::complex<float>>&);
template void cpuGemm<std::complex<double>>(const Eigen::ThreadPoolDevice*, const GemmArgs<std::complex<double>>&);

} // namespace tstudio::linalg
