// Tests for BfcAllocator over HostSubAllocator: rounding, bins, best fit, split/coalesce, growth, backoff, OOM,
// threads.
#include "framework/bfc_allocator.h"
#include "framework/host_sub_allocator.h"
#include "framework/tensor.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

using namespace tstudio;

namespace {

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * 1024;

/// Hands the allocator a sub-allocator the test keeps, so that its counters outlive the allocator.
class Forwarding final : public SubAllocator {
public:
    explicit Forwarding(HostSubAllocator& host) : m_host(host) {}
    void* allocateRegion(std::size_t bytes) override { return m_host.allocateRegion(bytes); }
    void freeRegion(void* ptr, std::size_t bytes) override { m_host.freeRegion(ptr, bytes); }
    bool hostAccessible() const override { return m_host.hostAccessible(); }
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override
    {
        if (failFills)
            return Status(StatusCode::kInternal, "cudaMemsetAsync failed: an illegal memory access was encountered");
        return m_host.fillBytes(ptr, bytes, value);
    }
    bool failFills = false; ///< as a device whose memset cannot be queued

private:
    HostSubAllocator& m_host;
};

struct Bfc {
    std::unique_ptr<HostSubAllocator> sub; // declared first: destroyed after the allocator
    std::unique_ptr<BfcAllocator> allocator;
    Forwarding* forwarding = nullptr; // owned by the allocator
};

Bfc makeBfc(std::uint64_t limit, bool allowGrowth, HostSubAllocator::Limits limits = {})
{
    Bfc bfc;
    bfc.sub = std::make_unique<HostSubAllocator>(limits);
    auto forwarding = std::make_unique<Forwarding>(*bfc.sub);
    bfc.forwarding = forwarding.get();
    bfc.allocator = std::make_unique<BfcAllocator>(std::move(forwarding), "GPU_0_bfc", "GPU:0", limit, allowGrowth);
    return bfc;
}

void* take(BfcAllocator& allocator, std::size_t bytes)
{
    auto result = allocator.allocate(bytes);
    return result ? *result : nullptr;
}

std::uintptr_t addressOf(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p);
}

/// 256 rounded up from `bytes * 0.9`, computed independently in double precision.
std::size_t ninetyPercent(std::size_t bytes)
{
    const auto scaled = static_cast<std::size_t>(std::floor(static_cast<double>(bytes) * 0.9));
    return (scaled + 255) / 256 * 256;
}

/// Fills a block with a pattern derived from its tag; checkPattern finds any byte another block wrote.
void fillPattern(void* p, std::size_t bytes, std::uint32_t tag)
{
    auto* b = static_cast<unsigned char*>(p);
    for (std::size_t i = 0; i < bytes; ++i)
        b[i] = static_cast<unsigned char>((tag * 131u + i * 7u) & 0xff);
}

bool checkPattern(const void* p, std::size_t bytes, std::uint32_t tag)
{
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < bytes; ++i) {
        if (b[i] != static_cast<unsigned char>((tag * 131u + i * 7u) & 0xff))
            return false;
    }
    return true;
}

} // namespace

class TestBfcAllocator : public QObject {
    Q_OBJECT
private slots:
    void roundingAndBins()
    {
        QCOMPARE(BfcAllocator::roundedBytes(0), std::size_t(256));
        QCOMPARE(BfcAllocator::roundedBytes(1), std::size_t(256));
        QCOMPARE(BfcAllocator::roundedBytes(256), std::size_t(256));
        QCOMPARE(BfcAllocator::roundedBytes(257), std::size_t(512));
        QCOMPARE(BfcAllocator::roundedBytes(1000), std::size_t(1024));
        QCOMPARE(BfcAllocator::binForSize(256), 0);
        QCOMPARE(BfcAllocator::binForSize(511), 0);
        QCOMPARE(BfcAllocator::binForSize(512), 1);
        QCOMPARE(BfcAllocator::binForSize(1023), 1);
        QCOMPARE(BfcAllocator::binForSize(1024), 2);
        QCOMPARE(BfcAllocator::binForSize(std::size_t(256) << 19), 19);
        QCOMPARE(BfcAllocator::binForSize((std::size_t(256) << 20) - 1), 19);
        QCOMPARE(BfcAllocator::binForSize(std::size_t(256) << 20), 20);
        QCOMPARE(BfcAllocator::binForSize(std::size_t(1) << 40), 20); // the last bin is unbounded

        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        QCOMPARE(a.name(), std::string("GPU_0_bfc"));
        QCOMPARE(a.deviceName(), std::string("GPU:0"));
        QVERIFY(!a.byteLimit()); // the BFC enforces its own limit on regions
        void* p1 = take(a, 1);
        void* p300 = take(a, 300);
        void* p0 = take(a, 0);
        void* q0 = take(a, 0);
        QVERIFY(p1 && p300 && p0 && q0);
        QVERIFY(p0 != q0); // zero bytes still gives a unique pointer
        for (void* p : {p1, p300, p0, q0})
            QCOMPARE(addressOf(p) % 256, std::uintptr_t(0));
        QCOMPARE(a.chunkSize(p1), std::size_t(256));
        QCOMPARE(a.chunkSize(p300), std::size_t(512));
        QCOMPARE(a.chunkSize(p0), std::size_t(256));
        QCOMPARE(addressOf(p300) - addressOf(p1), std::uintptr_t(256)); // carved in order from one region
        QCOMPARE(a.bfcStats().chunkBytesInUse, std::int64_t(256 + 512 + 256 + 256));
        QCOMPARE(a.chunkSize(&bfc), std::size_t(0)); // not ours

        // Alignment: up to 256 by construction, more is refused.
        QVERIFY(take(a, 10 * kKiB) != nullptr);
        auto aligned256 = a.allocate(100, 256);
        QVERIFY(aligned256);
        auto aligned512 = a.allocate(100, 512);
        QVERIFY(!aligned512);
        QCOMPARE(aligned512.error().code(), StatusCode::kResourceExhausted);
    }

    void bestFitPicksSmallestChunk()
    {
        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        // Holes of 4096, 1024, 2048 and 2048 bytes, kept apart by small chunks in use.
        void* big = take(a, 4096);
        void* s1 = take(a, 256);
        void* small = take(a, 1024);
        void* s2 = take(a, 256);
        void* midLow = take(a, 2048);
        void* s3 = take(a, 256);
        void* midHigh = take(a, 2048);
        void* s4 = take(a, 256);
        QVERIFY(big && s1 && small && s2 && midLow && s3 && midHigh && s4);
        for (void* p : {midHigh, big, small, midLow})
            a.deallocate(p, 1);
        QCOMPARE(a.bfcStats().freeChunks, std::int64_t(5)); // four holes and the rest of the region

        // 1536 rounded: the 2048 holes are the smallest that fit; of the two, the lower address.
        void* p = take(a, 1500);
        QCOMPARE(p, midLow);
        QCOMPARE(a.chunkSize(p), std::size_t(2048)); // less than twice the request: not split
        void* q = take(a, 1536);
        QCOMPARE(q, midHigh);
        void* r = take(a, 700); // 768: the 1024 hole, whole
        QCOMPARE(r, small);
        QCOMPARE(a.chunkSize(r), std::size_t(1024));
        void* t = take(a, 2000); // 2048 from the 4096 hole: twice the request, so it is split
        QCOMPARE(t, big);
        QCOMPARE(a.chunkSize(t), std::size_t(2048));
        void* u = take(a, 2048); // the split-off rest
        QCOMPARE(addressOf(u), addressOf(big) + 2048);
    }

    void splitAndCoalesce()
    {
        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        void* x = take(a, 4096);
        void* y = take(a, 4096);
        void* z = take(a, 4096);
        QVERIFY(x && y && z);
        BfcStats s = a.bfcStats();
        QCOMPARE(s.chunksInUse, std::int64_t(3));
        QCOMPARE(s.freeChunks, std::int64_t(1));
        QCOMPARE(s.largestFreeChunk, std::int64_t(kMiB - 3 * 4096));

        a.deallocate(y, 4096); // the middle: no free neighbour
        s = a.bfcStats();
        QCOMPARE(s.freeChunks, std::int64_t(2));
        QCOMPARE(s.largestFreeChunk, std::int64_t(kMiB - 3 * 4096));
        a.deallocate(x, 4096); // merges with y
        s = a.bfcStats();
        QCOMPARE(s.freeChunks, std::int64_t(2));
        void* xy = take(a, 8192); // best fit: the merged x+y, not the large tail
        QCOMPARE(xy, x);
        QCOMPARE(a.chunkSize(xy), std::size_t(8192));
        a.deallocate(xy, 8192);
        a.deallocate(z, 4096); // merges with x+y before it and the tail after it: one chunk again
        s = a.bfcStats();
        QCOMPARE(s.freeChunks, std::int64_t(1));
        QCOMPARE(s.chunksInUse, std::int64_t(0));
        QCOMPARE(s.largestFreeChunk, std::int64_t(kMiB));
        QCOMPARE(s.regions, std::int64_t(1));
        QCOMPARE(s.chunkBytesInUse, std::int64_t(0));
        QCOMPARE(take(a, kMiB), x); // the whole region in one piece
    }

    void largeChunksSplitPastTheFragmentationBound()
    {
        // Virtual memory only: the pages are never touched.
        Bfc bfc = makeBfc(512 * kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        void* p = take(a, 300 * kMiB); // 512 MiB chunk: less than twice, but 212 MiB over the request
        QVERIFY(p);
        QCOMPARE(a.chunkSize(p), std::size_t(300 * kMiB));
        a.deallocate(p, 300 * kMiB);
        void* q = take(a, 400 * kMiB); // 112 MiB over: handed out whole
        QCOMPARE(q, p);
        QCOMPARE(a.chunkSize(q), std::size_t(512 * kMiB));
        QCOMPARE(a.bfcStats().chunkBytesInUse, std::int64_t(512 * kMiB));
        QCOMPARE(a.stats().bytesInUse, std::int64_t(400 * kMiB)); // the base class counts requests
    }

    void growthSeriesWithAllowGrowth()
    {
        Bfc bfc = makeBfc(64 * kMiB, true);
        BfcAllocator& a = *bfc.allocator;
        QVERIFY(take(a, 256));        // region 1 MiB; the next will be 2 MiB
        QVERIFY(take(a, kMiB));       // does not fit the rest: region 2 MiB, next 4 MiB
        QVERIFY(take(a, 512 * kKiB)); // takes the first region's rest whole (less than twice the request)
        QVERIFY(take(a, 5 * kMiB));   // 4 MiB doubled to 8 MiB for it (taken whole); it stays 8 MiB
        QVERIFY(take(a, 4 * kMiB));   // the 1 MiB free does not fit: 8 MiB (split), next 16 MiB
        QCOMPARE(bfc.sub->allocatedRegionSizes(), (std::vector<std::size_t>{kMiB, 2 * kMiB, 8 * kMiB, 8 * kMiB}));
        void* large = take(a, 40 * kMiB); // 16 doubled to 64 MiB, capped by the 45 MiB left of the limit
        QVERIFY(large);
        QCOMPARE(bfc.sub->allocatedRegionSizes().back(), std::size_t(45 * kMiB));
        QCOMPARE(a.chunkSize(large), std::size_t(45 * kMiB)); // less than twice the request: not split
        BfcStats s = a.bfcStats();
        QCOMPARE(s.bytesReserved, std::int64_t(64 * kMiB));
        QCOMPARE(s.peakBytesReserved, std::int64_t(64 * kMiB));
        QCOMPARE(s.regions, std::int64_t(5));
        QCOMPARE(s.largestFreeChunk, std::int64_t(4 * kMiB)); // the rest of the fourth region
        QVERIFY(take(a, 4 * kMiB));
        QCOMPARE(a.bfcStats().regions, s.regions); // no new region
        QVERIFY(!take(a, 2 * kMiB));               // larger than any free chunk, and the limit is reached
        QCOMPARE(bfc.sub->regionsAllocated(), std::int64_t(5));
        QCOMPARE(bfc.sub->refusals(), std::int64_t(0));
    }

    void oneRegionOfTheWholeLimitWithoutGrowth()
    {
        Bfc bfc = makeBfc(64 * kMiB + 100, false);
        BfcAllocator& a = *bfc.allocator;
        QCOMPARE(bfc.sub->regionsAllocated(), std::int64_t(0)); // nothing before the first request
        QVERIFY(take(a, 256));
        QVERIFY(take(a, 30 * kMiB));
        QVERIFY(take(a, 30 * kMiB));
        QCOMPARE(bfc.sub->allocatedRegionSizes(), std::vector<std::size_t>{64 * kMiB}); // rounded down to 256
        QCOMPARE(a.bfcStats().bytesReserved, std::int64_t(64 * kMiB));
        QCOMPARE(a.memoryLimit(), std::uint64_t(64 * kMiB + 100));
        QVERIFY(!a.allowGrowth());
    }

    void regionsAreReturnedOnlyByTheDestructor()
    {
        Bfc bfc = makeBfc(16 * kMiB, true);
        void* p = take(*bfc.allocator, 3 * kMiB); // 1 MiB doubled twice: a 4 MiB region, handed out whole
        QVERIFY(p);
        QCOMPARE(bfc.allocator->chunkSize(p), std::size_t(4 * kMiB));
        bfc.allocator->deallocate(p, 3 * kMiB);
        QCOMPARE(bfc.sub->regionsFreed(), std::int64_t(0)); // kept while the allocator lives
        QCOMPARE(bfc.sub->liveBytes(), std::size_t(4 * kMiB));
        bfc.allocator.reset();
        QCOMPARE(bfc.sub->regionsFreed(), std::int64_t(1));
        QCOMPARE(bfc.sub->liveBytes(), std::size_t(0));
    }

    void outOfMemoryNamesDeviceAndBytes()
    {
        Bfc bfc = makeBfc(4 * kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        QVERIFY(take(a, 2 * kMiB)); // 4 MiB region split in two
        QVERIFY(take(a, kMiB));     // the free 2 MiB split again
        const AllocatorStats before = a.stats();
        auto failed = a.allocate(2 * kMiB);
        QVERIFY(!failed);
        QCOMPARE(failed.error().code(), StatusCode::kResourceExhausted);
        const std::string& message = failed.error().message();
        QVERIFY2(message.starts_with("OOM when allocating tensor of 2097152 bytes on GPU:0 ("), message.c_str());
        QVERIFY2(message.find("Allocator GPU_0_bfc: limit 4194304 bytes, in use 3145728 bytes in 2 chunks "
                              "(3145728 bytes requested), reserved 4194304 bytes in 1 region, largest free chunk "
                              "1048576 bytes; chunks in use/total per bin: bin 12 (1048576 B) 1/2, "
                              "bin 13 (2097152 B) 1/1") != std::string::npos,
                 message.c_str());
        const AllocatorStats after = a.stats();
        QCOMPARE(after.bytesInUse, before.bytesInUse); // a failed request changes no statistic
        QCOMPARE(after.totalAllocations, before.totalAllocations);

        auto absurd = a.allocate(5 * kMiB); // more than the limit: refused up front
        QVERIFY(!absurd);
        QVERIFY2(absurd.error().message().find("more than the 4194304 bytes") != std::string::npos,
                 absurd.error().message().c_str());
        QVERIFY2(absurd.error().message().find("Allocator GPU_0_bfc: limit 4194304 bytes") != std::string::npos,
                 absurd.error().message().c_str());
    }

    void backoffWhenTheSubAllocatorRefuses()
    {
        Bfc bfc = makeBfc(64 * kMiB, false, {std::nullopt, 40 * kMiB});
        BfcAllocator& a = *bfc.allocator;
        QVERIFY(take(a, kMiB));
        const std::vector<std::size_t> tried = bfc.sub->attemptedRegionSizes();
        QVERIFY(tried.size() >= 3);
        QCOMPARE(tried.front(), 64 * kMiB);
        QCOMPARE(tried[1], std::size_t(60398080)); // 64 MiB * 0.9 rounded up to 256
        for (std::size_t i = 1; i < tried.size(); ++i) {
            const std::size_t expected = ninetyPercent(tried[i - 1]);
            QVERIFY2(tried[i] + 256 >= expected && tried[i] <= expected + 256, qPrintable(QString::number(i)));
            QVERIFY(tried[i] < tried[i - 1]);
        }
        QVERIFY(tried.back() <= 40 * kMiB);
        QVERIFY(tried[tried.size() - 2] > 40 * kMiB);
        QCOMPARE(bfc.sub->allocatedRegionSizes(), std::vector<std::size_t>{tried.back()});
        QCOMPARE(a.bfcStats().bytesReserved, std::int64_t(tried.back()));
    }

    void backoffStopsAtTheRequestAndHappensOnce()
    {
        {
            Bfc bfc = makeBfc(64 * kMiB, false, {std::nullopt, kMiB});
            BfcAllocator& a = *bfc.allocator;
            auto failed = a.allocate(2 * kMiB);
            QVERIFY(!failed);
            QCOMPARE(failed.error().code(), StatusCode::kResourceExhausted);
            const std::vector<std::size_t> tried = bfc.sub->attemptedRegionSizes();
            QVERIFY(tried.size() > 1);
            for (std::size_t size : tried)
                QVERIFY(size >= 2 * kMiB); // never below the request
            QVERIFY(ninetyPercent(tried.back()) < 2 * kMiB);
            // TF backs off only once in an allocator's life: the next refusal fails at once.
            const std::size_t attempts = tried.size();
            QVERIFY(!take(a, 3 * kMiB));
            QCOMPARE(bfc.sub->attemptedRegionSizes().size(), attempts + 1);
        }
        {
            // Growth: the first refusal backs off, the one after it does not.
            Bfc bfc = makeBfc(64 * kMiB, true);
            BfcAllocator& a = *bfc.allocator;
            QVERIFY(take(a, kMiB)); // region 1 MiB
            bfc.sub->setLimits({std::nullopt, 1536 * kKiB});
            QVERIFY(take(a, kMiB)); // 2 MiB refused, 90% steps down to 1529088 bytes
            QCOMPARE(bfc.sub->allocatedRegionSizes(), (std::vector<std::size_t>{kMiB, 1529088}));
            QCOMPARE(bfc.sub->attemptedRegionSizes(),
                     (std::vector<std::size_t>{kMiB, 2 * kMiB, 1887488, 1698816, 1529088}));
            const std::size_t attempts = bfc.sub->attemptedRegionSizes().size();
            QVERIFY(!take(a, kMiB)); // next region 4 MiB refused: no second backoff
            QCOMPARE(bfc.sub->attemptedRegionSizes().size(), attempts + 1);
            QCOMPARE(bfc.sub->attemptedRegionSizes().back(), 4 * kMiB);
        }
    }

    void refusalOfTheSmallestRegionTerminates()
    {
        // 0.9 * 256 rounds back up to 256: the backoff must stop rather than retry forever.
        Bfc bfc = makeBfc(256, false, {std::size_t(0), std::nullopt});
        BfcAllocator& a = *bfc.allocator;
        QVERIFY(!take(a, 1));
        QCOMPARE(bfc.sub->attemptedRegionSizes(), std::vector<std::size_t>{256});
        Bfc tiny = makeBfc(100, false); // less than one chunk: nothing can be allocated
        QVERIFY(!take(*tiny.allocator, 1));
        QCOMPARE(tiny.sub->attemptedRegionSizes().size(), std::size_t(0));
    }

    void statisticsThroughTheBaseClass()
    {
        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        void* p = take(a, 1000);
        void* q = take(a, 300);
        QVERIFY(p && q);
        AllocatorStats s = a.stats();
        QCOMPARE(s.bytesInUse, std::int64_t(1300));
        QCOMPARE(s.peakBytesInUse, std::int64_t(1300));
        QCOMPARE(s.totalAllocations, std::int64_t(2));
        QCOMPARE(s.largestAllocation, std::int64_t(1000));
        QCOMPARE(a.bfcStats().chunkBytesInUse, std::int64_t(1024 + 512));
        a.deallocate(p, 1000);
        s = a.stats();
        QCOMPARE(s.bytesInUse, std::int64_t(300));
        QCOMPARE(s.peakBytesInUse, std::int64_t(1300));
        a.resetPeak();
        QCOMPARE(a.stats().peakBytesInUse, std::int64_t(300));
        QCOMPARE(a.bfcStats().peakChunkBytesInUse, std::int64_t(1024 + 512));
        a.deallocate(q, 300);
        QCOMPARE(a.stats().bytesInUse, std::int64_t(0));
        QCOMPARE(a.bfcStats().chunkBytesInUse, std::int64_t(0));
    }

    void doubleAndForeignFreesAreIgnored()
    {
        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        void* p = take(a, 4096);
        void* q = take(a, 4096);
        QVERIFY(p && q);
        a.deallocate(p, 4096);
        a.deallocate(p, 4096); // double free
        int onTheStack = 0;
        a.deallocate(&onTheStack, sizeof onTheStack);   // foreign
        a.deallocate(static_cast<char*>(q) + 256, 256); // inside a chunk in use
        BfcStats s = a.bfcStats();
        QCOMPARE(s.ignoredDeallocations, std::int64_t(3));
        QCOMPARE(s.chunksInUse, std::int64_t(1));
        QCOMPARE(s.freeChunks, std::int64_t(2));
        QCOMPARE(a.chunkSize(q), std::size_t(4096));
        QCOMPARE(take(a, 4096), p); // the state is intact: p's chunk is served again
        a.deallocate(p, 4096);
        a.deallocate(q, 4096);
        s = a.bfcStats();
        QCOMPARE(s.freeChunks, std::int64_t(1));
        QCOMPARE(s.largestFreeChunk, std::int64_t(kMiB));
    }

    void forwardsHostAccessAndZeroFill()
    {
        Bfc bfc = makeBfc(kMiB, false);
        BfcAllocator& a = *bfc.allocator;
        QVERIFY(a.hostAccessible());
        auto* p = static_cast<unsigned char*>(take(a, 1000));
        QVERIFY(p);
        std::memset(p, 0xcd, 1000);
        QVERIFY(a.fillZero(p, 600).isOk());
        QCOMPARE(int(p[0]), 0);
        QCOMPARE(int(p[599]), 0);
        QCOMPARE(int(p[600]), 0xcd);
    }

    /// A fill the device could not queue (the memset of a zeroed or poisoned tensor, or setZero) is
    /// an error of that tensor, not left for the next kernel's launch check to report under its name.
    void aFailedFillIsReportedWhereItHappens()
    {
        Bfc bfc = makeBfc(1 << 20, true);
        bfc.forwarding->failFills = true;
        auto zeroed = Tensor::allocate(*bfc.allocator, tensorflow::DT_FLOAT, TensorShape{4, 8});
        QVERIFY(!zeroed);
        QVERIFY2(zeroed.error().message().find("cudaMemsetAsync failed") != std::string::npos,
                 zeroed.error().toString().c_str());
        QVERIFY2(zeroed.error().toString().find("float") != std::string::npos, zeroed.error().toString().c_str());
        QCOMPARE(bfc.allocator->stats().bytesInUse, std::int64_t(0)); // the buffer went back

        bfc.forwarding->failFills = false;
        auto later = Tensor::allocateUninitialized(*bfc.allocator, tensorflow::DT_FLOAT, TensorShape{4});
        QVERIFY(later);
        bfc.forwarding->failFills = true;
        const Status cleared = later->setZero();
        QVERIFY(!cleared.isOk());
        QVERIFY2(cleared.message().find("cudaMemsetAsync failed") != std::string::npos, cleared.toString().c_str());
    }

    void randomizedStressAgainstAModel_data()
    {
        QTest::addColumn<bool>("allowGrowth");
        QTest::newRow("one region") << false;
        QTest::newRow("growth") << true;
    }

    void randomizedStressAgainstAModel()
    {
        QFETCH(bool, allowGrowth);
        Bfc bfc = makeBfc(8 * kMiB, allowGrowth);
        BfcAllocator& a = *bfc.allocator;
        std::mt19937 rng(allowGrowth ? 7 : 11);
        std::uniform_real_distribution<double> logSize(0.0, std::log(256.0 * kKiB));
        struct Block {
            std::size_t bytes;
            std::uint32_t tag;
        };
        std::map<std::uintptr_t, Block> live; // by address, to check for overlaps with neighbours
        std::uint32_t nextTag = 1;
        int failures = 0;
        std::int64_t requested = 0;
        for (int step = 0; step < 6000; ++step) {
            const bool doFree = !live.empty() && (rng() % 100 < 45);
            if (doFree) {
                auto it = live.begin();
                std::advance(it, static_cast<long>(rng() % live.size()));
                QVERIFY2(checkPattern(reinterpret_cast<void*>(it->first), it->second.bytes, it->second.tag),
                         "a live block was overwritten");
                a.deallocate(reinterpret_cast<void*>(it->first), it->second.bytes);
                requested -= static_cast<std::int64_t>(it->second.bytes);
                live.erase(it);
                continue;
            }
            const auto bytes = static_cast<std::size_t>(std::exp(logSize(rng)));
            void* p = take(a, bytes);
            if (!p) {
                ++failures;
                continue;
            }
            const std::uintptr_t start = addressOf(p);
            const std::size_t extent = std::max<std::size_t>(bytes, 1);
            auto after = live.lower_bound(start);
            QVERIFY(after == live.end() || after->first >= start + extent);
            if (after != live.begin()) {
                auto before = std::prev(after);
                QVERIFY(before->first + std::max<std::size_t>(before->second.bytes, 1) <= start);
            }
            QVERIFY(a.chunkSize(p) >= BfcAllocator::roundedBytes(bytes));
            fillPattern(p, bytes, nextTag);
            live.emplace(start, Block{bytes, nextTag++});
            requested += static_cast<std::int64_t>(bytes);
            if (step % 500 == 0) {
                const BfcStats s = a.bfcStats();
                QCOMPARE(s.chunksInUse, std::int64_t(live.size()));
                QCOMPARE(a.stats().bytesInUse, requested);
                QVERIFY(s.bytesReserved <= std::int64_t(8 * kMiB));
                std::int64_t chunkBytes = 0;
                for (const auto& [address, block] : live)
                    chunkBytes += static_cast<std::int64_t>(a.chunkSize(reinterpret_cast<void*>(address)));
                QCOMPARE(s.chunkBytesInUse, chunkBytes);
            }
        }
        QVERIFY(failures > 0); // the workload does reach the limit
        for (const auto& [address, block] : live) {
            QVERIFY(checkPattern(reinterpret_cast<void*>(address), block.bytes, block.tag));
            a.deallocate(reinterpret_cast<void*>(address), block.bytes);
        }
        const BfcStats s = a.bfcStats();
        const std::vector<std::size_t> regions = bfc.sub->allocatedRegionSizes();
        QCOMPARE(s.chunksInUse, std::int64_t(0));
        QCOMPARE(s.freeChunks, s.regions); // everything coalesced back into whole regions
        QCOMPARE(s.regions, std::int64_t(regions.size()));
        QCOMPARE(s.largestFreeChunk, std::int64_t(*std::max_element(regions.begin(), regions.end())));
        std::size_t reserved = 0;
        for (std::size_t r : regions)
            reserved += r;
        QCOMPARE(s.bytesReserved, std::int64_t(reserved));
        QCOMPARE(a.stats().bytesInUse, std::int64_t(0));
        QCOMPARE(s.ignoredDeallocations, std::int64_t(0));
    }

    void fourThreads()
    {
        Bfc bfc = makeBfc(256 * kMiB, true);
        BfcAllocator& a = *bfc.allocator;
        std::atomic<int> corrupted{0};
        std::atomic<int> failed{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&a, &corrupted, &failed, t] {
                std::mt19937 rng(static_cast<unsigned>(100 + t));
                std::vector<std::pair<void*, std::pair<std::size_t, std::uint32_t>>> mine;
                for (int i = 0; i < 3000; ++i) {
                    if (!mine.empty() && rng() % 2 == 0) {
                        const std::size_t k = rng() % mine.size();
                        auto [p, info] = mine[k];
                        if (!checkPattern(p, info.first, info.second))
                            ++corrupted;
                        a.deallocate(p, info.first);
                        mine[k] = mine.back();
                        mine.pop_back();
                    } else {
                        const std::size_t bytes = 1 + rng() % (64 * kKiB);
                        auto r = a.allocate(bytes);
                        if (!r) {
                            ++failed;
                            continue;
                        }
                        const auto tag = static_cast<std::uint32_t>(t * 100000 + i);
                        fillPattern(*r, bytes, tag);
                        mine.push_back({*r, {bytes, tag}});
                    }
                }
                for (auto& [p, info] : mine) {
                    if (!checkPattern(p, info.first, info.second))
                        ++corrupted;
                    a.deallocate(p, info.first);
                }
            });
        }
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(corrupted.load(), 0);
        QCOMPARE(failed.load(), 0);
        const BfcStats s = a.bfcStats();
        QCOMPARE(s.chunksInUse, std::int64_t(0));
        QCOMPARE(s.freeChunks, s.regions);
        QCOMPARE(a.stats().bytesInUse, std::int64_t(0));
        QVERIFY(a.stats().totalAllocations > 4000);
    }
};

QTEST_GUILESS_MAIN(TestBfcAllocator)
#include "test_bfc_allocator.moc"
