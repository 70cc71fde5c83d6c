// Device: naming, and the host copies of devices whose memory the host can read.
#include "framework/device.h"

#include "framework/device_name.h"
#include "framework/tensor.h"

namespace tstudio {

Device::Device(std::string type, int id) : m_type(std::move(type)), m_id(id), m_name(localDeviceName(m_type, id)) {}

Expected<Tensor> Device::copyFromHost(const Tensor& host)
{
    return host.deepCopy(allocator());
}

Expected<Tensor> Device::copyToHost(const Tensor& tensor, Allocator& hostAllocator)
{
    return tensor.deepCopy(hostAllocator);
}

} // namespace tstudio
