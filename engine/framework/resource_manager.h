// ResourceManager: state keyed by container and name as in TensorFlow's ResourceMgr: variables that
// outlive one Session::run, and per-step resources (stacks) in a ScopedStepContainer.
#pragma once

#include "core/expected.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>

namespace tstudio {

/// Base of everything a ResourceManager holds. Resources are shared (std::shared_ptr), so a
/// kernel can keep using one after it has been removed from the manager.
class Resource {
public:
    virtual ~Resource() = default;
    /// Shown by the debugger and in error messages, e.g. "float32 [784,500]".
    virtual std::string debugString() const = 0;
};

/// Thread-safe map (container, name) -> resource. The default container is "localhost", as in TF.
class ResourceManager {
public:
    static constexpr const char* kDefaultContainer = "localhost";

    /// The resource of type T under (container, name), creating it with `create` if absent.
    /// InvalidArgument if a resource of another type is there already.
    template <typename T>
    Expected<std::shared_ptr<T>> lookupOrCreate(const std::string& container, const std::string& name,
                                                const std::function<Expected<std::shared_ptr<T>>()>& create)
    {
        std::lock_guard lock(m_mutex);
        const Key key{containerOrDefault(container), name};
        auto it = m_resources.find(key);
        if (it != m_resources.end()) {
            if (it->second.type != std::type_index(typeid(T)))
                return unexpected(invalidArgumentError("resource '" + key.second + "' in container '" + key.first +
                                                       "' has another type"));
            return std::static_pointer_cast<T>(it->second.resource);
        }
        auto created = create();
        if (!created)
            return unexpected(created.error());
        m_resources.emplace(key, Entry{std::type_index(typeid(T)), *created});
        return *created;
    }

    /// The resource of type T, or NotFound "Resource localhost/x/N...::Var does not exist".
    template <typename T>
    Expected<std::shared_ptr<T>> lookup(const std::string& container, const std::string& name) const
    {
        std::lock_guard lock(m_mutex);
        const Key key{containerOrDefault(container), name};
        auto it = m_resources.find(key);
        if (it == m_resources.end() || it->second.type != std::type_index(typeid(T)))
            return unexpected(notFoundError("Resource " + key.first + "/" + name + " does not exist"));
        return std::static_pointer_cast<T>(it->second.resource);
    }

    /// Removes one resource; NotFound if absent.
    Status remove(const std::string& container, const std::string& name);
    /// Removes every resource of a container (tf.Session.reset semantics).
    void clearContainer(const std::string& container);
    /// Number of resources held.
    std::size_t size() const;
    /// Number of resources held in `container`.
    std::size_t containerSize(const std::string& container) const;

    static std::string containerOrDefault(const std::string& container)
    {
        return container.empty() ? kDefaultContainer : container;
    }

    /// The variable storage generation of this manager's session. It changes whenever one of its
    /// variables moves to a new buffer (an Assign of a new size, an uninitialised variable's first
    /// value, a resource variable's copy-on-write, AssignVariableOp with a new buffer) or a resource
    /// is removed. Captured device work (a CUDA graph of a step) refers to variables by their
    /// buffers' addresses: it may be replayed only while the generation it was captured at is
    /// current. Per session, so that another session's variables (the IDE evaluating a graph
    /// while a training runs) never invalidate this one's captures. Thread-safe.
    std::uint64_t variableStorageGeneration() const { return m_variableGeneration.load(std::memory_order_acquire); }
    /// Called by every kernel that gives one of this manager's variables a new buffer.
    void noteVariableStorageReplaced() { m_variableGeneration.fetch_add(1, std::memory_order_acq_rel); }

private:
    using Key = std::pair<std::string, std::string>;
    struct Entry {
        std::type_index type;
        std::shared_ptr<Resource> resource;
    };
    mutable std::mutex m_mutex;
    std::map<Key, Entry> m_resources;
    std::atomic<std::uint64_t> m_variableGeneration{0};
};

/// The container of one step's resources, TensorFlow's ScopedStepContainer: named
/// "__per_step_<stepId>" in `manager`, and emptied (every resource in it removed) when this object
/// is destroyed, so a step cleans up after itself whether it succeeded or failed. Kernels reach it
/// through OpKernelContext::stepContainer(). `manager` must outlive this object; a kernel that keeps
/// a shared_ptr to a resource may still use it after the cleanup.
class ScopedStepContainer {
public:
    ScopedStepContainer(std::int64_t stepId, ResourceManager& manager);
    ~ScopedStepContainer();
    ScopedStepContainer(const ScopedStepContainer&) = delete;
    ScopedStepContainer& operator=(const ScopedStepContainer&) = delete;

    /// "__per_step_<stepId>", the container name to create per-step resources under.
    const std::string& name() const { return m_name; }
    std::int64_t stepId() const { return m_stepId; }
    ResourceManager& manager() const { return m_manager; }

    /// The per-step container name of step `stepId`.
    static std::string containerName(std::int64_t stepId) { return "__per_step_" + std::to_string(stepId); }

private:
    const std::int64_t m_stepId;
    const std::string m_name;
    ResourceManager& m_manager;
};

} // namespace tstudio
