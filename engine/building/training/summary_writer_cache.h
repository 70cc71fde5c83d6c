// SummaryWriterCache: one event file writer per log directory, shared by the hooks that write to
// it (tf.summary.FileWriterCache / SummaryWriterCache of TF 1.x).
#pragma once

#include "core/expected.h"
#include "io/events/event_file_writer.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tensorflow {
class GraphDef;
}

namespace tstudio {
class GraphBuilder;
}

namespace tstudio::training {

/// Writers by log directory. The first get() for a directory opens a new event file there and, as
/// TensorFlow's cache does (it makes FileWriter(logdir, graph=default graph)), writes `graph` into
/// it when given; later calls return the same writer, so the hooks of one training write one file.
/// Thread-safe. Writers stay open until clear() (TensorFlow keeps them for the process's life).
class SummaryWriterCache {
public:
    /// The process's cache, used by hooks that are given no other.
    static SummaryWriterCache& global();

    Expected<std::shared_ptr<events::EventFileWriter>> get(const std::string& logdir,
                                                           const tensorflow::GraphDef* graph = nullptr);
    /// flush() on the writer of `logdir`, if there is one.
    Status flush(const std::string& logdir);
    /// flush() on every writer; the first error.
    Status flushAll();
    /// Closes every writer and forgets them (FileWriterCache.clear); the next get() opens a new file.
    void clear();

private:
    std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<events::EventFileWriter>> m_writers;
};

/// The writer a hook takes in begin(): that of `logdir` in `cache` (SummaryWriterCache::global()
/// when null), given `graph` (with shapes) to write should this open the directory's event file.
Expected<std::shared_ptr<events::EventFileWriter>> hookWriter(SummaryWriterCache* cache, const std::string& logdir,
                                                              const GraphBuilder& graph);
/// The same for hooks that may be given their writer: `given` when set, else hookWriter() when
/// `logdir` is not empty, else none (nullptr).
Expected<std::shared_ptr<events::EventFileWriter>> hookWriter(std::shared_ptr<events::EventFileWriter> given,
                                                              SummaryWriterCache* cache, const std::string& logdir,
                                                              const GraphBuilder& graph);

} // namespace tstudio::training
