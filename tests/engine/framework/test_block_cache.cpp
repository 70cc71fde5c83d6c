// BlockCache: exact-size reuse of large blocks, small blocks never kept, capacity honoured by
// freeing the least recently cached first; and CpuAllocator reusing a freed tensor buffer.
#include "framework/allocator.h"
#include "framework/block_cache.h"

#include <QTest>

#include <cstdlib>

using namespace tstudio;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

void* block(std::size_t bytes)
{
    return std::aligned_alloc(64, bytes);
}

} // namespace

class TestBlockCache : public QObject {
    Q_OBJECT

private slots:
    void reusesExactSizes()
    {
        BlockCache cache(16 * kMiB);
        void* a = block(kMiB);
        cache.give(a, kMiB, 64);
        QCOMPARE(cache.cachedBytes(), kMiB);
        QCOMPARE(cache.take(2 * kMiB, 64), nullptr); // another size is not served
        QCOMPARE(cache.take(kMiB, 128), nullptr);    // nor another alignment
        QCOMPARE(cache.take(kMiB, 64), a);
        QCOMPARE(cache.cachedBytes(), std::size_t(0));
        QCOMPARE(cache.take(kMiB, 64), nullptr);
        std::free(a);
    }

    void theMostRecentlyCachedBlockIsTakenFirst()
    {
        // Of equal blocks, the last one given back is the likeliest to be in the processor's caches.
        BlockCache cache(16 * kMiB);
        void* first = block(kMiB);
        void* second = block(kMiB);
        void* other = block(2 * kMiB);
        cache.give(first, kMiB, 64);
        cache.give(other, 2 * kMiB, 64);
        cache.give(second, kMiB, 64);
        QCOMPARE(cache.take(kMiB, 64), second);
        cache.give(second, kMiB, 64);
        QCOMPARE(cache.take(kMiB, 64), second);
        QCOMPARE(cache.take(kMiB, 64), first);
        QCOMPARE(cache.take(kMiB, 64), nullptr);
        QCOMPARE(cache.take(2 * kMiB, 64), other);
        std::free(first);
        std::free(second);
        std::free(other);
    }

    void smallBlocksAreFreedAtOnce()
    {
        BlockCache cache(16 * kMiB);
        const std::size_t small = BlockCache::kMinBlockBytes - 64;
        cache.give(block(small), small, 64);
        QCOMPARE(cache.cachedBytes(), std::size_t(0));
        QCOMPARE(cache.take(small, 64), nullptr);
    }

    void capacityEvictsTheOldest()
    {
        BlockCache cache(3 * kMiB);
        void* first = block(kMiB);
        void* second = block(kMiB);
        void* third = block(kMiB);
        cache.give(first, kMiB, 64);
        cache.give(second, kMiB, 64);
        cache.give(third, kMiB, 64);
        QCOMPARE(cache.cachedBytes(), 3 * kMiB);
        // Two more MiB push out the two oldest (first, then second); third stays.
        void* fourth = block(2 * kMiB);
        cache.give(fourth, 2 * kMiB, 64);
        QCOMPARE(cache.cachedBytes(), 3 * kMiB);
        QCOMPARE(cache.take(kMiB, 64), third);
        QCOMPARE(cache.take(kMiB, 64), nullptr);
        QCOMPARE(cache.take(2 * kMiB, 64), fourth);
        std::free(third);
        std::free(fourth);
        // A block larger than the whole capacity is never kept.
        BlockCache tiny(kMiB);
        tiny.give(block(2 * kMiB), 2 * kMiB, 64);
        QCOMPARE(tiny.cachedBytes(), std::size_t(0));
    }

    void clearFreesEverything()
    {
        BlockCache cache(8 * kMiB);
        cache.give(block(kMiB), kMiB, 64);
        cache.give(block(kMiB), kMiB, 64);
        cache.clear();
        QCOMPARE(cache.cachedBytes(), std::size_t(0));
        QCOMPARE(cache.take(kMiB, 64), nullptr);
    }

    void cpuAllocatorReusesAFreedBuffer()
    {
        CpuAllocator allocator;
        auto a = allocator.allocate(4 * kMiB);
        QVERIFY(a);
        allocator.deallocate(*a, 4 * kMiB);
        auto b = allocator.allocate(4 * kMiB);
        QVERIFY(b);
        QCOMPARE(*b, *a); // the same block, not a fresh mapping
        // Statistics count what is in use, not what is cached.
        QCOMPARE(allocator.stats().bytesInUse, std::int64_t(4 * kMiB));
        allocator.deallocate(*b, 4 * kMiB);
        QCOMPARE(allocator.stats().bytesInUse, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestBlockCache)
#include "test_block_cache.moc"
