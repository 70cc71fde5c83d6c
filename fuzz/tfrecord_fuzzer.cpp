// Fuzz target: a TFRecord file read record by record (data/tfrecord_reader.h), uncompressed, ZLIB or
// GZIP as the first input byte says (0, 1, 2 modulo 3); the rest is the file.
#include "fuzz_support.h"
#include "data/tfrecord_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    using namespace tstudio::data;
    fuzz::quietLogs();
    if (size < 1)
        return 0;
    const Compression compression = data[0] % 3 == 0 ? Compression::kNone
                                    : data[0] % 3 == 1 ? Compression::kZlib
                                                       : Compression::kGzip;
    const auto path = fuzz::scratchFile("fuzz.tfrecord", fuzz::bytesOf(data + 1, size - 1));
    auto reader = TFRecordReader::open(path, compression);
    if (!reader)
        return 0;
    std::uint64_t bytes = 0;
    for (;;) {
        auto record = (*reader)->readRecord();
        if (!record) {
            // The reader promises to keep returning its error.
            fuzz::require(!(*reader)->readRecord().has_value(), "a reader recovered after an error");
            break;
        }
        if (!record->has_value())
            break;
        bytes += (*record)->size();
        // Uncompressed, every record's data is in the file with its 16 bytes of framing.
        if (compression == Compression::kNone)
            fuzz::require(bytes <= size, "records hold more bytes than the file");
    }
    return 0;
}
