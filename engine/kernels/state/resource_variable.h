// ResourceVariable: the state behind a VarHandleOp's handle (TensorFlow's Var), how kernels find it, and how they
// update it.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "framework/resource_handle.h"
#include "framework/resource_manager.h"
#include "framework/tensor.h"
#include "kernels/state/device_copy.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// A resource variable (TensorFlow's Var): a Tensor guarded by a mutex, kept in the session's
/// ResourceManager under its handle's (container, name). The first AssignVariableOp creates it
/// holding a value, so a variable that exists is initialized (VarIsInitializedOp is false only
/// while it does not exist).
///
/// Copy-on-write, as in TensorFlow: a reader takes a shallow copy of `value` under `mutex` (the
/// data is not copied); a writer holds `mutex` and calls prepareToUpdate() before writing in
/// place, which gives the variable a private buffer while a reader still holds the old one. So a
/// value once read never changes, and reads cost nothing.
class ResourceVariable : public Resource {
public:
    /// TensorFlow's mangled type name for Var, carried in the handles (maybe_type_name); the
    /// handles' hash_code is resourceTypeHashCode(kTypeName).
    static constexpr std::string_view kTypeName = "N10tensorflow3VarE";
    static std::uint64_t typeHashCode();

    ResourceVariable(std::string name, Tensor initial) : value(std::move(initial)), m_name(std::move(name)) {}

    /// "float32 [2,3]".
    std::string debugString() const override;
    /// The name in its container, for messages.
    const std::string& name() const { return m_name; }

    /// Requires `mutex` held. Replaces a buffer that another Tensor still views with a private
    /// copy made by `copier` in ctx's device memory (TensorFlow's PrepareToUpdateVariable);
    /// ResourceExhausted if that fails.
    Status prepareToUpdate(OpKernelContext& ctx, const DeviceCopy& copier);

    Tensor value; ///< guarded by `mutex`
    mutable std::mutex mutex;

private:
    const std::string m_name;
};

/// The handle that input `i` carries: its first element, as TensorFlow's HandleFromInput reads
/// it. InvalidArgument when the input is not a DT_RESOURCE tensor with at least one element.
Expected<const ResourceHandle*> handleFromInput(const OpKernelContext& ctx, int i);

/// TensorFlow's ValidateDevice: InvalidArgument "Trying to access resource v located in device
/// /job:...:CPU:1 from device /job:...:CPU:0" when the handle names another device than the kernel's.
Status validateHandleDevice(const OpKernelContext& ctx, const ResourceHandle& handle);

/// TensorFlow's ValidateDeviceAndType<Var>: InvalidArgument "Trying to access resource v located
/// in device /job:...:CPU:1 from device /job:...:CPU:0", or "Trying to access resource using the
/// wrong type. Expected <handle's type> got N10tensorflow3VarE".
Status validateVariableHandle(const OpKernelContext& ctx, const ResourceHandle& handle);

/// TensorFlow's LookupResource<Var>: the handle validated, then the variable. NotFound
/// "Resource localhost/v/N10tensorflow3VarE does not exist." when there is none.
Expected<std::shared_ptr<ResourceVariable>> lookupVariable(const OpKernelContext& ctx, const ResourceHandle& handle);

/// The handle a VarHandleOp on `device` outputs for (container, name) with its dtype and shape
/// attrs; an empty container is ResourceManager's default ("localhost").
ResourceHandle makeVariableHandle(const Device& device, const std::string& container, const std::string& name,
                                  DataType dtype, const TensorShape& shape);

/// TensorFlow's Status::ToString ("Not found: Resource ..."), which some of its messages embed.
std::string tensorflowStatusString(const Status& status);

/// The variables one in-place update writes (AssignAddVariableOp, the ResourceApply* ops), for one
/// compute(): their distinct mutexes locked in address order (no deadlock between kernels that
/// share variables) and held until this object goes away, each variable's buffer made private
/// (copy-on-write), and a Tensor per variable viewing that buffer, so writing it updates the
/// variable.
///
/// The locks are taken whatever the op's use_locking says: TensorFlow does the same for dense
/// updates of resource variables, because copy-on-write needs the exclusive lock.
class LockedVariables {
public:
    /// Locks `variables` (duplicates allowed) and checks that each holds `dtype`: InvalidArgument
    /// "Trying to update variable v with wrong dtype. Expected float got int32" otherwise. Shared
    /// buffers are copied by `copier` (the kernel's device's).
    static Expected<LockedVariables> lock(std::vector<std::shared_ptr<ResourceVariable>> variables, DataType dtype,
                                          OpKernelContext& ctx, const DeviceCopy& copier = hostCopy());

    LockedVariables(LockedVariables&&) = default;
    LockedVariables& operator=(LockedVariables&&) = default;

    /// The k-th variable's value (k indexes the vector given to lock()).
    Tensor& operator[](std::size_t k) { return m_values[k]; }

private:
    LockedVariables() = default;

    // Declared so that the locks are released before the variables may be destroyed.
    std::vector<std::shared_ptr<ResourceVariable>> m_variables;
    std::vector<std::unique_lock<std::mutex>> m_locks;
    std::vector<Tensor> m_values;
};

} // namespace tstudio
