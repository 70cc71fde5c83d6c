// BlockCache: exact-size reuse of large host blocks, most recently cached served first, least
// recently cached freed first.
#include "framework/block_cache.h"

#include <cstdlib>
#include <iterator>

namespace tstudio {

BlockCache::~BlockCache()
{
    clear();
}

void* BlockCache::take(std::size_t bytes, std::size_t alignment)
{
    if (bytes < kMinBlockBytes)
        return nullptr;
    std::lock_guard<std::mutex> lock(m_mutex);
    // The most recently cached block of the size (the last of its equal keys: multimap inserts
    // after them): the one most likely still in the processor's caches, as a step's next tensor of
    // the size was often freed moments ago (a batch's decoded images one after another).
    const Key key{bytes, alignment};
    auto it = m_bySize.upper_bound(key);
    if (it == m_bySize.begin() || std::prev(it)->first != key)
        return nullptr;
    --it;
    void* ptr = it->second->ptr;
    m_age.erase(it->second);
    m_bySize.erase(it);
    m_cached -= bytes;
    return ptr;
}

void BlockCache::give(void* block, std::size_t bytes, std::size_t alignment)
{
    if (!block)
        return;
    if (bytes < kMinBlockBytes || bytes > m_capacity) {
        std::free(block);
        return;
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    evictLocked(m_capacity - bytes);
    m_age.push_back(Block{block, bytes, alignment});
    m_bySize.emplace(Key{bytes, alignment}, std::prev(m_age.end()));
    m_cached += bytes;
}

void BlockCache::clear()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    evictLocked(0);
}

std::size_t BlockCache::cachedBytes() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_cached;
}

void BlockCache::evictLocked(std::size_t target)
{
    while (m_cached > target && !m_age.empty()) {
        const Block oldest = m_age.front();
        auto range = m_bySize.equal_range({oldest.bytes, oldest.alignment});
        for (auto it = range.first; it != range.second; ++it) {
            if (it->second == m_age.begin()) {
                m_bySize.erase(it);
                break;
            }
        }
        m_age.pop_front();
        m_cached -= oldest.bytes;
        std::free(oldest.ptr);
    }
}

} // namespace tstudio
