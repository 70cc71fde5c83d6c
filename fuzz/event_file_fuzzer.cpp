// Fuzz target: an event file read as the dashboard reads one: TFRecord framing and CRCs
// (EventFileLoader), Event and Summary decoding (EventAccumulator), then every kept value decoded as
// its tag's kind (summary_values.h) and the run's graph imported, shape-inferred and placed.
#include "fuzz_support.h"
#include "io/formats/graph_def_io.h"
#include "io/events/event_accumulator.h"
#include "io/events/event_file_loader.h"
#include "io/events/summary_values.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    using namespace tstudio::events;
    fuzz::quietLogs();
    const auto path = fuzz::scratchFile("events.out.tfevents.1.fuzz", fuzz::bytesOf(data, size));
    EventFileLoader loader(path.string());
    EventAccumulator accumulator;
    std::vector<LoadWarning> warnings;
    std::uint64_t payloads = 0;
    const Status status = loader.readNew(
        [&](std::string_view payload, std::uint64_t offset) {
            fuzz::require(offset < size, "a record offset beyond the file");
            ++payloads;
            accumulator.addRecord(payload);
        },
        warnings);
    (void)status;
    fuzz::require(loader.offset() <= size, "the loader's offset is beyond the file");
    fuzz::require(accumulator.eventsRead() + accumulator.malformedRecords() <= payloads,
                  "more events than records");

    for (const TagInfo& tag : accumulator.tags()) {
        if (tag.kind == TagKind::kScalar) {
            fuzz::require(accumulator.values(tag.tag).empty(), "a scalar tag with non-scalar samples");
            (void)accumulator.scalars(tag.tag);
            continue;
        }
        for (const ValueSample& sample : accumulator.values(tag.tag)) {
            fuzz::require(sample.value != nullptr, "a sample without its value");
            switch (tag.kind) {
            case TagKind::kHistogram: (void)decodeHistogram(*sample.value, tag.tag); break;
            case TagKind::kImage: (void)decodeImages(*sample.value, tag.tag); break;
            case TagKind::kAudio: (void)decodeAudio(*sample.value, tag.tag); break;
            case TagKind::kText: (void)decodeText(*sample.value, tag.tag); break;
            default: break;
            }
        }
    }
    if (!accumulator.graphDef().empty()) {
        if (auto graphDef = parseGraphDef(accumulator.graphDef(), "fuzz event graph"))
            fuzz::checkGraph(*graphDef);
    }
    return 0;
}
