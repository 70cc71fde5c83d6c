// LogDirectory: directory walk for event files, one loader per file and one accumulator per run.
#include "io/events/log_directory.h"

#include "io/events/event_file_discovery.h"

#include <filesystem>

namespace tstudio::events {

namespace fs = std::filesystem;

LogDirectory::LogDirectory(std::string root) : m_root(std::move(root)) {}

Status LogDirectory::reload()
{
    std::lock_guard reloadLock(m_reloadMutex);
    std::error_code ec;
    if (!fs::is_directory(m_root, ec))
        return notFoundError("log directory '" + m_root + "' does not exist or is not a directory");

    // Runs and their event files, found without holding the lock.
    const fs::path root(m_root);
    auto listing = findEventFiles(root);
    if (!listing)
        return listing.error();
    std::map<std::string, std::vector<std::string>> found;
    for (const auto& [run, files] : listing->runs)
        for (const fs::path& file : files)
            found[run].push_back(file.filename().string());
    std::vector<LoadWarning> scanWarnings = std::move(listing->warnings);

    {
        std::lock_guard lock(m_mutex);
        for (LoadWarning& w : scanWarnings)
            m_warnings.push_back(std::move(w));
        // A run with no event file left on disk (its folder deleted, or its files) is gone, as
        // TensorBoard's multiplexer drops a run whose directory was deleted; a new run of that name
        // later starts afresh.
        std::erase_if(m_runs, [&](const auto& run) { return !found.count(run.first); });
        for (const auto& [runName, names] : found) {
            auto [runIt, inserted] = m_runs.try_emplace(runName);
            if (inserted)
                for (const auto& [kind, size] : m_sizeGuidance)
                    runIt->second.accumulator.setSizeGuidance(kind, size);
            const fs::path dir = runName == "." ? root : root / runName;
            for (const std::string& name : names) {
                auto& loader = runIt->second.files[name];
                if (!loader)
                    loader = std::make_unique<EventFileLoader>((dir / name).string());
            }
        }
    }

    // Read each file's new records; the lock is held per file so readers wait at most that long.
    std::vector<std::pair<std::string, std::string>> order;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [runName, run] : m_runs)
            for (const auto& [name, loader] : run.files)
                order.emplace_back(runName, name);
    }
    for (const auto& [runName, name] : order) {
        std::lock_guard lock(m_mutex);
        Run& run = m_runs.at(runName); // runs only go in the scan above, which this reload holds
        EventFileLoader& loader = *run.files.at(name);
        const Status status = loader.readNew(
            [&run](std::string_view payload, std::uint64_t) { run.accumulator.addRecord(payload); }, m_warnings);
        if (!status.isOk())
            m_warnings.push_back({loader.path(), loader.offset(), status.message()});
    }
    return Status::ok();
}

std::vector<std::string> LogDirectory::runs() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> out;
    for (const auto& [name, run] : m_runs)
        out.push_back(name);
    return out;
}

bool LogDirectory::withRun(const std::string& run, const std::function<void(const EventAccumulator&)>& read) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_runs.find(run);
    if (it == m_runs.end())
        return false;
    read(it->second.accumulator);
    return true;
}

std::vector<LoadWarning> LogDirectory::warnings() const
{
    std::lock_guard lock(m_mutex);
    return m_warnings;
}

void LogDirectory::setSizeGuidance(TagKind kind, std::size_t maxSamples)
{
    std::lock_guard lock(m_mutex);
    m_sizeGuidance.emplace_back(kind, maxSamples);
    for (auto& [name, run] : m_runs)
        run.accumulator.setSizeGuidance(kind, maxSamples);
}

std::uint64_t LogDirectory::bytesRead() const
{
    std::lock_guard lock(m_mutex);
    std::uint64_t total = 0;
    for (const auto& [name, run] : m_runs)
        for (const auto& [fileName, loader] : run.files)
            total += loader->offset();
    return total;
}

} // namespace tstudio::events
