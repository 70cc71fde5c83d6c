// Fuzz target: a V1 checkpoint (TensorFlow's legacy tensor-slice table, written by the Save and
// SaveSlices ops) opened as `tstudio inspect --values` and the viewer's checkpoint tab open one
// (CheckpointReader, which hands a path without .index to V1CheckpointReader), every tensor read
// whole, and a partitioned tensor's first half along dimension 0 read as a slice, as a Restore op of
// a partitioned variable asks for it. Input: the bytes of the one table file.
#include "fuzz_support.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/tensor_slice.h"

#include <utility>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    const auto path = fuzz::scratchFile("model.ckpt-v1", fuzz::bytesOf(data, size));
    auto reader = CheckpointReader::open(path.string());
    if (!reader)
        return 0;
    fuzz::require(reader->bundle() == nullptr, "a lone table file opened as a V2 bundle");
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    for (const BundleTensorInfo& info : reader->tensors()) {
        fuzz::require(reader->contains(info.name), "a listed tensor is not contained");
        fuzz::require(info.shape.isFullyDefined(), "a listed tensor without a full shape");
        auto tensor = reader->read(info.name, allocator);
        if (tensor)
            fuzz::require(tensor->dtype() == info.dtype && tensor->shape() == info.shape,
                          "a tensor read differs from its metadata");
        if (info.shape.rank() == 0 || info.shape.dim(0) < 2)
            continue;
        std::vector<std::pair<std::int64_t, std::int64_t>> extents(static_cast<std::size_t>(info.shape.rank()),
                                                                   {0, checkpoint::TensorSlice::kFullExtent});
        extents[0] = {0, info.shape.dim(0) / 2};
        auto half = checkpoint::TensorSlice::fromExtents(extents);
        fuzz::require(half.has_value(), "the first half of a listed tensor is not a valid slice");
        auto part = reader->readSlice(info.name, *half, allocator);
        if (part)
            fuzz::require(part->dtype() == info.dtype && part->shape().rank() == info.shape.rank() &&
                              part->shape().dim(0) == info.shape.dim(0) / 2,
                          "a slice read has another dtype or shape than asked for");
    }
    return 0;
}
