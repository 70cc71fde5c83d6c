// Fuzz target: a NumPy .npy file parsed as `--feed NAME=@FILE.npy` and numpy data sources read one;
// an array that parses must encode to bytes that parse to the same array.
#include "fuzz_support.h"
#include "io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    auto tensor = parseNpy(fuzz::bytesOf(data, size), allocator, "fuzz.npy");
    if (!tensor)
        return 0;
    auto encoded = encodeNpy(*tensor);
    if (!encoded)
        return 0; // a dtype .npy can carry but encodeNpy does not write is a clear error, not a finding
    auto again = parseNpy(*encoded, allocator, "fuzz.npy (encoded)");
    fuzz::require(again.has_value(), "an encoded array does not parse again");
    fuzz::require(again->dtype() == tensor->dtype() && again->shape() == tensor->shape(),
                  "an encoded array comes back with another dtype or shape");
    auto twice = encodeNpy(*again);
    fuzz::require(twice.has_value() && *twice == *encoded, "encoding is not stable");
    return 0;
}
