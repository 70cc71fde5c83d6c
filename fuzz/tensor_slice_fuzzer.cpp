// Fuzz target: the debugger's NumPy slice text ("[::5, :2]") parsed, printed back, and applied to a
// small tensor of every rank up to 3, as the debugger's value view applies it.
#include "fuzz_support.h"
#include "debugger/tensor_slice.h"
#include "framework/tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    using namespace tstudio::debugger;
    fuzz::quietLogs();
    const std::string text = fuzz::bytesOf(data, size);
    auto slice = parseTensorSlice(text);
    if (!slice)
        return 0;
    const std::string canonical = formatTensorSlice(*slice);
    auto again = parseTensorSlice(canonical);
    fuzz::require(again.has_value() && *again == *slice, "parseTensorSlice(formatTensorSlice(s)) != s");

    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    for (const std::vector<std::int64_t>& dims :
         std::vector<std::vector<std::int64_t>>{{}, {7}, {3, 5}, {2, 0, 4}, {4, 3, 2}}) {
        auto tensor = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape(dims));
        fuzz::require(tensor.has_value(), "cannot allocate a small tensor");
        float* values = tensor->data<float>();
        for (std::int64_t i = 0; i < tensor->numElements(); ++i)
            values[i] = static_cast<float>(i);
        auto shape = slicedShape(tensor->shape(), *slice);
        auto sliced = applyTensorSlice(*tensor, *slice, allocator);
        fuzz::require(shape.has_value() == sliced.has_value(), "slicedShape and applyTensorSlice disagree");
        if (sliced)
            fuzz::require(sliced->shape() == *shape, "a slice's tensor has another shape than slicedShape");
    }
    return 0;
}
