// SummaryWriterCache: one event file writer per log directory.
#include "training/summary_writer_cache.h"

#include "builder/graph_builder.h"
#include "proto/graph.pb.h"

#include <filesystem>

namespace tstudio::training {

SummaryWriterCache& SummaryWriterCache::global()
{
    static SummaryWriterCache* cache = new SummaryWriterCache;
    return *cache;
}

Expected<std::shared_ptr<events::EventFileWriter>> SummaryWriterCache::get(const std::string& logdir,
                                                                           const tensorflow::GraphDef* graph)
{
    const std::string key = std::filesystem::path(logdir).lexically_normal().string();
    std::lock_guard lock(m_mutex);
    if (auto it = m_writers.find(key); it != m_writers.end())
        return it->second;
    auto writer = events::EventFileWriter::open(logdir);
    if (!writer)
        return unexpected(writer.error());
    std::shared_ptr<events::EventFileWriter> shared = std::move(*writer);
    if (graph)
        if (Status s = shared->addGraph(*graph); !s.isOk())
            return unexpected(s);
    m_writers.emplace(key, shared);
    return shared;
}

Status SummaryWriterCache::flush(const std::string& logdir)
{
    std::lock_guard lock(m_mutex);
    auto it = m_writers.find(std::filesystem::path(logdir).lexically_normal().string());
    return it == m_writers.end() ? Status{} : it->second->flush();
}

Status SummaryWriterCache::flushAll()
{
    std::lock_guard lock(m_mutex);
    Status first;
    for (auto& [dir, writer] : m_writers)
        if (Status s = writer->flush(); !s.isOk() && first.isOk())
            first = s;
    return first;
}

void SummaryWriterCache::clear()
{
    std::lock_guard lock(m_mutex);
    for (auto& [dir, writer] : m_writers)
        (void)writer->close();
    m_writers.clear();
}

Expected<std::shared_ptr<events::EventFileWriter>> hookWriter(SummaryWriterCache* cache, const std::string& logdir,
                                                              const GraphBuilder& graph)
{
    SummaryWriterCache& writers = cache ? *cache : SummaryWriterCache::global();
    const tensorflow::GraphDef graphDef = graph.toGraphDef(true);
    return writers.get(logdir, &graphDef);
}

Expected<std::shared_ptr<events::EventFileWriter>> hookWriter(std::shared_ptr<events::EventFileWriter> given,
                                                              SummaryWriterCache* cache, const std::string& logdir,
                                                              const GraphBuilder& graph)
{
    if (given || logdir.empty())
        return given;
    return hookWriter(cache, logdir, graph);
}

} // namespace tstudio::training
