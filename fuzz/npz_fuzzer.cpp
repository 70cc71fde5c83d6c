// Fuzz target: a NumPy .npz archive (zip of .npy members, stored or deflated) read as a project's
// numpy data source reads one, asking for the keys np.savez and the corpus use.
#include "fuzz_support.h"
#include "project/sources/npz_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    const auto path = fuzz::scratchFile("fuzz.npz", fuzz::bytesOf(data, size));
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    for (const char* key : {"arr_0", "x", "y", "images", "labels"}) {
        auto arrays = project::readNpzArrays(path, {key}, allocator);
        if (arrays)
            fuzz::require(arrays->size() == 1, "one key gave another number of arrays");
    }
    return 0;
}
