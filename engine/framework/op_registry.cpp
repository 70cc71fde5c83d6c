// OpRegistry: op registrations by name, guarded by a reader-writer lock.
#include "framework/op_registry.h"

#include "framework/op_def_builder.h"
#include "framework/op_def_validation.h"

#include <mutex>

namespace tstudio {

OpRegistry::OpRegistry() = default;
OpRegistry::~OpRegistry() = default;

Status OpRegistry::registerOp(OpRegistration registration)
{
    if (Status status = validateOpDef(registration.opDef); !status.isOk())
        return status;
    const std::string name = registration.opDef.name();
    std::unique_lock lock(m_mutex);
    if (!m_ops.try_emplace(name, std::move(registration)).second)
        return {StatusCode::kAlreadyExists, "Op '" + name + "' is already registered"};
    return Status::ok();
}

Status OpRegistry::registerOp(const OpDefBuilder& builder)
{
    Expected<OpRegistration> registration = builder.finalize();
    if (!registration)
        return registration.error();
    return registerOp(std::move(*registration));
}

OpRegistration* OpRegistry::findMutable(std::string_view opName)
{
    const auto it = m_ops.find(opName);
    return it == m_ops.end() ? nullptr : &it->second;
}

Status OpRegistry::setShapeFunction(std::string_view opName, ShapeFunction function)
{
    if (!function)
        return invalidArgumentError("empty shape function for op '" + std::string(opName) + "'");
    std::unique_lock lock(m_mutex);
    OpRegistration* registration = findMutable(opName);
    if (registration == nullptr) {
        return notFoundError("cannot set the shape function of op '" + std::string(opName) +
                             "': Op type not registered '" + std::string(opName) + "'");
    }
    if (registration->shapeFunction)
        return {StatusCode::kAlreadyExists, "Op '" + std::string(opName) + "' already has a shape function"};
    registration->shapeFunction = std::move(function);
    return Status::ok();
}

Status OpRegistry::setGradient(std::string_view opName, GradientFunction function)
{
    if (!function)
        return invalidArgumentError("empty gradient function for op '" + std::string(opName) + "'");
    std::unique_lock lock(m_mutex);
    OpRegistration* registration = findMutable(opName);
    if (registration == nullptr) {
        return notFoundError("cannot set the gradient of op '" + std::string(opName) + "': Op type not registered '" +
                             std::string(opName) + "'");
    }
    if (registration->gradient)
        return {StatusCode::kAlreadyExists, "Op '" + std::string(opName) + "' already has a gradient"};
    if (registration->notDifferentiable)
        return {StatusCode::kAlreadyExists, "Op '" + std::string(opName) + "' is registered as not differentiable"};
    registration->gradient = std::move(function);
    return Status::ok();
}

Status OpRegistry::setNotDifferentiable(std::string_view opName)
{
    std::unique_lock lock(m_mutex);
    OpRegistration* registration = findMutable(opName);
    if (registration == nullptr) {
        return notFoundError("cannot mark op '" + std::string(opName) +
                             "' as not differentiable: Op type not registered '" + std::string(opName) + "'");
    }
    if (registration->gradient)
        return {StatusCode::kAlreadyExists, "Op '" + std::string(opName) + "' already has a gradient"};
    if (registration->notDifferentiable)
        return {StatusCode::kAlreadyExists, "Op '" + std::string(opName) + "' is registered as not differentiable"};
    registration->notDifferentiable = true;
    return Status::ok();
}

void OpRegistry::setSymbolicGradientBody(SymbolicGradientBodyFunction function)
{
    std::unique_lock lock(m_mutex);
    m_symbolicGradientBody = std::move(function);
}

SymbolicGradientBodyFunction OpRegistry::symbolicGradientBody() const
{
    std::shared_lock lock(m_mutex);
    return m_symbolicGradientBody;
}

const OpRegistration* OpRegistry::find(std::string_view opName) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_ops.find(opName);
    return it == m_ops.end() ? nullptr : &it->second;
}

Expected<const OpRegistration*> OpRegistry::lookUp(std::string_view opName) const
{
    if (const OpRegistration* registration = find(opName))
        return registration;
    return unexpected(notFoundError("Op type not registered '" + std::string(opName) + "'"));
}

std::vector<std::string> OpRegistry::opNames() const
{
    std::shared_lock lock(m_mutex);
    std::vector<std::string> names;
    names.reserve(m_ops.size());
    for (const auto& entry : m_ops)
        names.push_back(entry.first);
    return names;
}

std::size_t OpRegistry::size() const
{
    std::shared_lock lock(m_mutex);
    return m_ops.size();
}

} // namespace tstudio
