// Movement: the data-movement steps of the array kernels (gathers and scatters through an
// IndexMap, row concatenation and splitting, fills, copies) behind one interface per device, and
// the CPU entry points of the loops (IndexMapCopy, RowCopy) for whole tensors of any dtype.
#pragma once

#include "core/status.h"
#include "kernels/array/index_map.h"

#include <cstdint>
#include <vector>

namespace Eigen {
struct ThreadPoolDevice;
}

namespace tstudio {
class OpKernelContext;
class Tensor;
} // namespace tstudio

namespace tstudio::array {

/// What an array kernel asks its device to do with element data. The kernels' checks and shapes
/// are the same on every device; only these steps differ, so one kernel class serves the CPU and
/// the GPU registrations, built on the device's Movement (hostMovement() or the CUDA backend's).
/// Tensors are in the memory the kernel's arguments live in (device memory on a GPU, except the
/// kernel's host-memory arguments). Work may be queued asynchronously (a GPU's compute stream);
/// the implementations are stateless and thread-safe. Errors are launch failures (Internal) or,
/// for a map the device cannot walk, Unimplemented.
class Movement {
public:
    virtual ~Movement() = default;
    /// out (row-major over the map's axes)[i] = in[map(i)]; out has the map's element count.
    virtual Status gather(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const = 0;
    /// out[map(i)] = in[i] for every element of `in`; the map is one-to-one.
    virtual Status scatter(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const = 0;
    /// The inputs viewed as [rows, *] side by side in `out` viewed as [rows, *] (Concat, Pack).
    virtual Status concatRows(OpKernelContext& context, std::int64_t rows, const std::vector<const Tensor*>& inputs,
                              Tensor& out) const = 0;
    /// `in` viewed as [rows, *] cut into `outs` viewed as [rows, *], side by side in order (Split, Unpack).
    virtual Status splitRows(OpKernelContext& context, std::int64_t rows, const Tensor& in,
                             const std::vector<Tensor*>& outs) const = 0;
    /// Every element of `out` set to the single element of `value` (same dtype, same memory as `out`).
    virtual Status fill(OpKernelContext& context, const Tensor& value, Tensor& out) const = 0;
    /// dst = src element by element (same dtype and element count).
    virtual Status copy(OpKernelContext& context, const Tensor& src, Tensor& dst) const = 0;
};

/// Host memory: on the CPU device's thread pool, or on the calling thread on a device without one
/// (a GPU's kernels whose arguments all stay in host memory, as TensorFlow's int32 kernels).
const Movement& hostMovement();

/// Simplifies `map` and gathers `in`'s elements through it into `out` (whose element count is the
/// map's): out[i] = in[map(i)].
void gatherElements(const Eigen::ThreadPoolDevice& device, IndexMap map, const Tensor& in, Tensor& out);
/// Simplifies `map` and scatters all of `in`'s elements into `out` through it: out[map(i)] = in[i].
void scatterElements(const Eigen::ThreadPoolDevice& device, IndexMap map, const Tensor& in, Tensor& out);
/// Concatenates `inputs` (same dtype, each numElements divisible by rows) viewed as [rows, *]
/// into `out` viewed as [rows, *].
void concatRows(const Eigen::ThreadPoolDevice& device, std::int64_t rows, const std::vector<const Tensor*>& inputs,
                Tensor& out);
/// Cuts `in` viewed as [rows, *] into `outs` viewed as [rows, *], side by side in order.
void splitRows(const Eigen::ThreadPoolDevice& device, std::int64_t rows, const Tensor& in,
               const std::vector<Tensor*>& outs);

/// Sets every element of `out` to the single element of `value` (same dtype).
void fillElements(const Eigen::ThreadPoolDevice& device, const Tensor& value, Tensor& out);

} // namespace tstudio::array
