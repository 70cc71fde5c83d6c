// KernelRegistry: constraint matching and kernel construction.
#include "framework/kernel_registry.h"

#include "framework/node_def_validation.h"
#include "framework/op_registry.h"

#include <algorithm>
#include <mutex>

namespace tstudio {
namespace {

/// One flag per flattened argument of `args` (list arguments expand to their length): true for
/// the arguments named in `hostArgs`.
Expected<std::vector<bool>> hostMemoryFlags(const google::protobuf::RepeatedPtrField<tensorflow::OpDef::ArgDef>& args,
                                            const tensorflow::NodeDef& node, const std::vector<std::string>& hostArgs)
{
    std::vector<bool> flags;
    for (const tensorflow::OpDef::ArgDef& arg : args) {
        std::int64_t count = 1;
        if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
            const std::string& attr = arg.number_attr().empty() ? arg.type_list_attr() : arg.number_attr();
            const auto found = node.attr().find(attr);
            if (found == node.attr().end())
                return unexpected(invalidArgumentError("NodeDef missing attr '" + attr + "' that sizes argument '" +
                                                       arg.name() + "'"));
            count = arg.number_attr().empty() ? found->second.list().type_size() : found->second.i();
            if (count < 0)
                return unexpected(invalidArgumentError("attr '" + attr + "' is negative"));
        }
        const bool host = std::find(hostArgs.begin(), hostArgs.end(), arg.name()) != hostArgs.end();
        flags.insert(flags.end(), static_cast<std::size_t>(count), host);
    }
    return flags;
}

/// True when the node's value(s) for `attr` are all among `allowed`.
bool attrSatisfies(const tensorflow::NodeDef& node, const std::string& attr, const std::vector<DataType>& allowed)
{
    const tensorflow::AttrValue* value = findAttr(node, attr);
    if (!value)
        return false;
    auto ok = [&](int t) { return std::find(allowed.begin(), allowed.end(), static_cast<DataType>(t)) != allowed.end(); };
    if (value->value_case() == tensorflow::AttrValue::kType)
        return ok(value->type());
    if (value->value_case() == tensorflow::AttrValue::kList)
        return std::all_of(value->list().type().begin(), value->list().type().end(), ok);
    return false;
}

bool matches(const KernelDef& def, const tensorflow::NodeDef& node)
{
    return std::all_of(def.typeConstraints.begin(), def.typeConstraints.end(),
                       [&](const auto& c) { return attrSatisfies(node, c.first, c.second); });
}

/// True when some attr values would satisfy both definitions.
bool overlaps(const KernelDef& a, const KernelDef& b)
{
    if (a.deviceType != b.deviceType)
        return false;
    for (const auto& [attr, types] : a.typeConstraints) {
        for (const auto& [otherAttr, otherTypes] : b.typeConstraints) {
            if (attr != otherAttr)
                continue;
            // Through a reference: clang before 16 (the fuzz build) cannot capture a structured binding.
            const auto& others = otherTypes;
            const bool shared = std::any_of(types.begin(), types.end(), [&](DataType t) {
                return std::find(others.begin(), others.end(), t) != others.end();
            });
            if (!shared)
                return false;
        }
    }
    return true;
}

std::string requestedAttributes(const tensorflow::NodeDef& node)
{
    std::string out;
    std::vector<std::string> keys;
    for (const auto& [key, value] : node.attr())
        if (!key.empty() && key[0] != '_' && (value.value_case() == tensorflow::AttrValue::kType))
            keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    for (const auto& key : keys)
        out += (out.empty() ? "" : ", ") + key + "=" + tensorflow::DataType_Name(node.attr().at(key).type());
    return out;
}

} // namespace

std::string KernelDef::toString() const
{
    std::string out = "device='" + deviceType + "'";
    for (const auto& [attr, types] : typeConstraints) {
        out += "; " + attr + " in [";
        for (std::size_t i = 0; i < types.size(); ++i)
            out += (i ? ", " : "") + tensorflow::DataType_Name(types[i]);
        out += "]";
    }
    return out;
}

Status KernelRegistry::registerKernel(KernelDef def, KernelFactory factory)
{
    if (!factory)
        return invalidArgumentError("kernel for op '" + def.op + "' has no factory");
    std::unique_lock lock(m_mutex);
    const auto [first, last] = m_kernels.equal_range(def.op);
    for (auto it = first; it != last; ++it)
        if (overlaps(it->second.def, def))
            return Status(StatusCode::kAlreadyExists, "a kernel for op '" + def.op + "' with " + def.toString() +
                                                          " overlaps the registered " + it->second.def.toString());
    std::string op = def.op;
    m_kernels.emplace(std::move(op), KernelRegistration{std::move(def), std::move(factory)});
    return Status::ok();
}

Expected<const KernelRegistration*> KernelRegistry::find(const tensorflow::NodeDef& node,
                                                         std::string_view deviceType) const
{
    std::shared_lock lock(m_mutex);
    const auto [first, last] = m_kernels.equal_range(node.op());
    std::string registered;
    bool sameDevice = false;
    for (auto it = first; it != last; ++it) {
        registered += (registered.empty() ? "" : "; ") + std::string("{") + it->second.def.toString() + "}";
        if (it->second.def.deviceType != deviceType)
            continue;
        sameDevice = true;
        if (matches(it->second.def, node))
            return &it->second;
    }
    std::string message = "No registered '" + node.op() + "' OpKernel for '" + std::string(deviceType) +
                          "' devices compatible with node {{node " + node.name() + "}}";
    if (sameDevice)
        message += " (OpKernel was found, but attributes didn't match) Requested Attributes: " + requestedAttributes(node);
    message += registered.empty() ? ". No kernels are registered for this op." : ". Registered: " + registered;
    return unexpected(notFoundError(std::move(message)));
}

bool KernelRegistry::supports(const tensorflow::NodeDef& node, std::string_view deviceType) const
{
    return find(node, deviceType).has_value();
}

bool KernelRegistry::hasKernelFor(std::string_view op, std::string_view deviceType) const
{
    std::shared_lock lock(m_mutex);
    const auto [first, last] = m_kernels.equal_range(op);
    return std::any_of(first, last, [&](const auto& entry) { return entry.second.def.deviceType == deviceType; });
}

std::vector<KernelDef> KernelRegistry::kernelsFor(std::string_view op) const
{
    std::shared_lock lock(m_mutex);
    std::vector<KernelDef> out;
    const auto [first, last] = m_kernels.equal_range(op);
    for (auto it = first; it != last; ++it)
        out.push_back(it->second.def);
    return out;
}

Expected<std::unique_ptr<OpKernel>> KernelRegistry::createKernel(const tensorflow::NodeDef& node, const OpRegistry& ops,
                                                                 Device& device) const
{
    auto registration = ops.lookUp(node.op());
    if (!registration)
        return unexpected(registration.error());
    const tensorflow::OpDef& opDef = (*registration)->opDef;
    auto inputTypes = inputTypesForNode(opDef, node);
    if (!inputTypes)
        return unexpected(inputTypes.error());
    auto outputTypes = outputTypesForNode(opDef, node);
    if (!outputTypes)
        return unexpected(outputTypes.error());
    auto kernel = find(node, device.type());
    if (!kernel)
        return unexpected(kernel.error());
    OpKernelConstruction construction(node, opDef, device, std::move(*inputTypes), std::move(*outputTypes));
    if (!(*kernel)->def.hostMemoryArgs.empty()) {
        auto inputs = hostMemoryFlags(opDef.input_arg(), node, (*kernel)->def.hostMemoryArgs);
        auto outputs = hostMemoryFlags(opDef.output_arg(), node, (*kernel)->def.hostMemoryArgs);
        if (!inputs || !outputs)
            return unexpected((inputs ? outputs.error() : inputs.error())
                                  .withContext("Node '" + node.name() + "' (op '" + node.op() + "')"));
        construction.setHostMemory(std::move(*inputs), std::move(*outputs));
    }
    auto created = (*kernel)->factory(construction);
    if (!created)
        return unexpected(created.error().withContext("Node '" + node.name() + "' (op '" + node.op() + "')"));
    return created;
}

} // namespace tstudio
