// gpuMovement(): the array kernels' element movement on a CudaDevice, turning IndexMaps and row
// blocks into the launches of movement_cuda.cu on the device's compute stream.
#include "kernels/array/movement_cuda.h"

#include "devices/cuda/cuda_kernel.h"
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/array/movement.h"

#include <algorithm>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::array {

namespace {

/// Bytes per element of a tensor the GPU may hold; InvalidArgument for strings and handles, which
/// never live in GPU memory.
Expected<int> elementBytes(const Tensor& t)
{
    const DataType dtype = t.dtype();
    if (dtype == tensorflow::DT_STRING || dtype == tensorflow::DT_RESOURCE || dtype == tensorflow::DT_VARIANT)
        return unexpected(invalidArgumentError(dataTypeString(dtype) + " tensors cannot be moved on a GPU"));
    const int bytes = static_cast<int>(dataTypeSize(dtype));
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
        return unexpected(unimplementedError("no GPU copy loop for " + dataTypeString(dtype)));
    return bytes;
}

bool narrowCounts(std::initializer_list<std::int64_t> counts)
{
    for (std::int64_t n : counts) {
        if (n >= gpu::kNarrowLimit)
            return false;
    }
    return true;
}

class GpuMovement final : public Movement {
public:
    Status gather(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const override
    {
        return walk(context, std::move(map), in, out, /*scatter=*/false);
    }
    Status scatter(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out) const override
    {
        return walk(context, std::move(map), in, out, /*scatter=*/true);
    }

    Status concatRows(OpKernelContext& context, std::int64_t rows, const std::vector<const Tensor*>& inputs,
                      Tensor& out) const override
    {
        std::vector<Tensor*> parts;
        for (const Tensor* t : inputs)
            parts.push_back(const_cast<Tensor*>(t)); // only read: the launch copies parts -> whole
        return rowCopy(context, rows, parts, out, /*concat=*/true);
    }
    Status splitRows(OpKernelContext& context, std::int64_t rows, const Tensor& in,
                     const std::vector<Tensor*>& outs) const override
    {
        return rowCopy(context, rows, outs, const_cast<Tensor&>(in), /*concat=*/false); // `in` is only read
    }

    Status fill(OpKernelContext& context, const Tensor& value, Tensor& out) const override
    {
        if (out.numElements() == 0)
            return Status::ok();
        auto gpu = tstudio::cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        auto bytes = elementBytes(out);
        if (!bytes)
            return bytes.error();
        if (value.numElements() != 1)
            return internalError("fill needs a single value, got " + std::to_string(value.numElements()));
        if (value.inHostMemory())
            cuda::launchFillWithValue((*gpu)->computeStream(), *bytes, value.tensorData().data(),
                                      out.tensorData().data(), out.numElements());
        else
            cuda::launchFillFromDevice((*gpu)->computeStream(), *bytes, value.tensorData().data(),
                                       out.tensorData().data(), out.numElements());
        return tstudio::cuda::lastLaunchStatus("Fill");
    }

    Status copy(OpKernelContext& context, const Tensor& src, Tensor& dst) const override
    {
        if (src.numElements() == 0)
            return Status::ok();
        auto gpu = tstudio::cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        if (auto bytes = elementBytes(src); !bytes)
            return bytes.error();
        const std::span<const std::byte> from = src.tensorData();
        if (dst.tensorData().size() != from.size())
            return internalError("GPU copy between tensors of " + std::to_string(from.size()) + " and " +
                                 std::to_string(dst.tensorData().size()) + " bytes");
        // cudaMemcpyDefault: either side may be host memory (a host-memory argument).
        return tstudio::cuda::cudaStatus(cudaMemcpyAsync(dst.tensorData().data(), from.data(), from.size(),
                                                         cudaMemcpyDefault, (*gpu)->computeStream()),
                                         "cudaMemcpyAsync (copy on GPU)");
    }

private:
    static Status walk(OpKernelContext& context, IndexMap map, const Tensor& in, Tensor& out, bool scatter)
    {
        map.simplify();
        const std::int64_t total = map.numElements();
        if (total == 0)
            return Status::ok();
        auto gpu = tstudio::cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        auto bytes = elementBytes(in);
        if (!bytes)
            return bytes.error();
        if (map.axes.size() > static_cast<std::size_t>(cuda::DeviceIndexMap::kMaxAxes))
            return unimplementedError("the GPU copy loop walks at most " +
                                      std::to_string(cuda::DeviceIndexMap::kMaxAxes) + " dimensions that cannot be " +
                                      "merged, got " + std::to_string(map.axes.size()));
        cuda::DeviceIndexMap device;
        device.base = map.base;
        device.rank = static_cast<int>(map.axes.size());
        // The tables of non-linear axes (Tile, MirrorPad) go to the GPU together; the tensor holding
        // them stays alive until the launch is queued (stream order makes its reuse safe after).
        std::vector<std::int64_t> tables;
        std::vector<std::int64_t> tableAt(map.axes.size(), -1);
        for (std::size_t d = 0; d < map.axes.size(); ++d) {
            const IndexAxis& axis = map.axes[d];
            device.size[d] = axis.size;
            device.start[d] = axis.start;
            device.step[d] = axis.step;
            if (!axis.isLinear()) {
                tableAt[d] = static_cast<std::int64_t>(tables.size());
                tables.insert(tables.end(), axis.table.begin(), axis.table.end());
            }
        }
        Tensor deviceTables;
        if (!tables.empty()) {
            auto host = Tensor::allocateUninitialized((*gpu)->hostAllocator(), tensorflow::DT_INT64,
                                                      TensorShape{static_cast<std::int64_t>(tables.size())});
            if (!host)
                return host.error();
            std::copy(tables.begin(), tables.end(), host->data<std::int64_t>());
            auto copied = (*gpu)->copyFromHost(*host);
            if (!copied)
                return copied.error();
            deviceTables = std::move(*copied);
            // A device pointer: only handed to the kernel, never read here.
            const auto* first = reinterpret_cast<const std::int64_t*>(deviceTables.tensorData().data());
            for (std::size_t d = 0; d < map.axes.size(); ++d) {
                if (tableAt[d] >= 0)
                    device.table[d] = first + tableAt[d];
            }
        }
        const bool narrow = narrowCounts({total, in.numElements(), out.numElements()});
        cuda::launchIndexMapCopy((*gpu)->computeStream(), *bytes, device, total, narrow, scatter,
                                 in.tensorData().data(), out.tensorData().data());
        return tstudio::cuda::lastLaunchStatus(scatter ? "IndexMapScatter" : "IndexMapGather");
    }

    /// Parts side by side in `whole`, in batches of at most kMaxParts non-empty parts (each launch
    /// covers its batch's columns).
    static Status rowCopy(OpKernelContext& context, std::int64_t rows, const std::vector<Tensor*>& parts, Tensor& whole,
                          bool concat)
    {
        if (rows == 0 || whole.numElements() == 0)
            return Status::ok();
        auto gpu = tstudio::cuda::gpuOf(context);
        if (!gpu)
            return gpu.error();
        auto bytes = elementBytes(whole);
        if (!bytes)
            return bytes.error();
        const std::int64_t totalWidth = whole.numElements() / rows;
        const bool narrow = narrowCounts({whole.numElements()});
        cuda::DeviceRowParts batch;
        batch.totalWidth = totalWidth;
        std::int64_t column = 0;
        auto flush = [&]() -> Status {
            if (batch.count == 0)
                return Status::ok();
            cuda::launchRowCopy((*gpu)->computeStream(), *bytes, rows, batch, narrow, concat,
                                whole.tensorData().data());
            if (Status s = tstudio::cuda::lastLaunchStatus(concat ? "ConcatRows" : "SplitRows"); !s.isOk())
                return s;
            batch.firstColumn = column;
            batch.count = 0;
            return Status::ok();
        };
        batch.firstColumn = 0;
        for (Tensor* part : parts) {
            const std::int64_t width = part->numElements() / rows;
            if (width == 0)
                continue;
            if (batch.count == cuda::DeviceRowParts::kMaxParts) {
                if (Status s = flush(); !s.isOk())
                    return s;
            }
            batch.data[batch.count] = part->tensorData().data();
            batch.edge[batch.count + 1] = batch.edge[batch.count] + width;
            ++batch.count;
            column += width;
        }
        return flush();
    }
};

} // namespace

const Movement& gpuMovement()
{
    static const GpuMovement movement;
    return movement;
}

} // namespace tstudio::array
