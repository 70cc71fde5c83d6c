// Fuzz target: the tensor JSON of `tstudio run --feed NAME=JSON`: the first byte picks the input's
// dtype, the rest is the JSON text, parsed as parseFeed does and turned into a tensor; a tensor
// that comes out must print (tensorToJson) as JSON whose flat values read back the same, and a JSON
// integer fed to an integer tensor must arrive exactly (no trip through a double).
#include "fuzz_support.h"
#include "tensor_json.h"

#include <algorithm>
#include <array>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    if (size < 1)
        return 0;
    static constexpr std::array<DataType, 12> kTypes{
        tensorflow::DT_FLOAT,  tensorflow::DT_DOUBLE, tensorflow::DT_INT32,     tensorflow::DT_INT64,
        tensorflow::DT_UINT8,  tensorflow::DT_INT8,   tensorflow::DT_INT16,     tensorflow::DT_BOOL,
        tensorflow::DT_STRING, tensorflow::DT_HALF,   tensorflow::DT_COMPLEX64, tensorflow::DT_BFLOAT16};
    const DataType dtype = kTypes[data[0] % kTypes.size()];
    const nlohmann::json json = nlohmann::json::parse(fuzz::bytesOf(data + 1, size - 1), nullptr, false);
    if (json.is_discarded())
        return 0;
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    auto tensor = cli::tensorFromJson(json, dtype, allocator);
    if (!tensor)
        return 0;
    const nlohmann::json printed = cli::tensorToJson(*tensor);
    fuzz::require(printed.is_object() && printed.contains("values"), "tensorToJson without values");
    auto again = cli::tensorFromJson(printed["values"], dtype, allocator);
    fuzz::require(again.has_value(), "tensorToJson printed what tensorFromJson refuses");
    // "values" is printed flat beside "shape".
    fuzz::require(again->numElements() == tensor->numElements(),
                  "the printed tensor reads back with another number of values");
    if (dtype == tensorflow::DT_INT64 || dtype == tensorflow::DT_INT32 || dtype == tensorflow::DT_INT16 ||
        dtype == tensorflow::DT_INT8 || dtype == tensorflow::DT_UINT8 || dtype == tensorflow::DT_BOOL) {
        const auto first = tensor->tensorData();
        const auto second = again->tensorData();
        fuzz::require(std::equal(first.begin(), first.end(), second.begin(), second.end()),
                      "the printed tensor reads back with other values");
        if (dtype == tensorflow::DT_INT64 && json.is_number_integer())
            fuzz::require(tensor->values<std::int64_t>()[0] == (json.is_number_unsigned()
                                                                     ? static_cast<std::int64_t>(json.get<std::uint64_t>())
                                                                     : json.get<std::int64_t>()),
                          "a JSON integer fed to an int64 tensor arrives changed");
    }
    return 0;
}
