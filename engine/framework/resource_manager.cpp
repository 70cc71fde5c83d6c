// ResourceManager: removal and counting; ScopedStepContainer's cleanup.
#include "framework/resource_manager.h"

namespace tstudio {

Status ResourceManager::remove(const std::string& container, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    if (m_resources.erase({containerOrDefault(container), name}) == 0)
        return notFoundError("Resource " + containerOrDefault(container) + "/" + name + " does not exist");
    noteVariableStorageReplaced(); // it may have been a variable that captured work refers to
    return Status::ok();
}

void ResourceManager::clearContainer(const std::string& container)
{
    std::lock_guard lock(m_mutex);
    const std::string c = containerOrDefault(container);
    bool erased = false;
    for (auto it = m_resources.begin(); it != m_resources.end();) {
        erased = erased || it->first.first == c;
        it = it->first.first == c ? m_resources.erase(it) : std::next(it);
    }
    if (erased)
        noteVariableStorageReplaced(); // they may have been variables that captured work refers to
}

std::size_t ResourceManager::size() const
{
    std::lock_guard lock(m_mutex);
    return m_resources.size();
}

std::size_t ResourceManager::containerSize(const std::string& container) const
{
    std::lock_guard lock(m_mutex);
    const std::string c = containerOrDefault(container);
    std::size_t n = 0;
    for (const auto& [key, entry] : m_resources)
        n += key.first == c ? 1 : 0;
    return n;
}

ScopedStepContainer::ScopedStepContainer(std::int64_t stepId, ResourceManager& manager)
    : m_stepId(stepId), m_name(containerName(stepId)), m_manager(manager)
{
}

ScopedStepContainer::~ScopedStepContainer()
{
    m_manager.clearContainer(m_name);
}

} // namespace tstudio
