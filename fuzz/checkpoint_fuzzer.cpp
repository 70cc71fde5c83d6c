// Fuzz target: a V2 checkpoint (tensor bundle) opened and every tensor read, as `tstudio inspect
// --values` does. Input layout: 4 bytes little-endian N, then N bytes of "<prefix>.index", then the
// rest as the one data shard "<prefix>.data-00000-of-00001" (scripts/make_fuzz_corpus.sh writes seeds so).
#include "fuzz_support.h"
#include "io/checkpoint/checkpoint_reader.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    if (size < 4)
        return 0;
    std::size_t indexSize = std::size_t(data[0]) | std::size_t(data[1]) << 8 | std::size_t(data[2]) << 16 |
                            std::size_t(data[3]) << 24;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
    indexSize = std::min(indexSize, rest.size());
    fuzz::scratchFile("ckpt.index", rest.substr(0, indexSize));
    fuzz::scratchFile("ckpt.data-00000-of-00001", rest.substr(indexSize));
    auto reader = CheckpointReader::open((fuzz::scratchDirectory() / "ckpt").string());
    if (!reader)
        return 0;
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    for (const BundleTensorInfo& info : reader->tensors()) {
        fuzz::require(reader->contains(info.name), "a listed tensor is not contained");
        auto tensor = reader->read(info.name, allocator);
        if (tensor)
            fuzz::require(tensor->dtype() == info.dtype && tensor->shape() == info.shape,
                          "a tensor read differs from its index entry");
    }
    return 0;
}
