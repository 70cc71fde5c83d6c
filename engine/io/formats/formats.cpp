// The list of format modules and the lookups by kind.
#include "io/formats/formats.h"

#include <array>

namespace tstudio::formats {

std::span<const FormatModule* const> allFormats()
{
    static const std::array<const FormatModule*, 11> modules = {
        &eventFileFormat(),   &tfRecordFormat(),        &checkpointV1Format(), &checkpointFormat(),
        &chromeTraceFormat(), &checkpointStateFormat(), &projectFormat(),      &savedModelFormat(),
        &metaGraphFormat(),   &graphDefFormat(),        &tfprofProfileFormat(),
    };
    return modules;
}

const FormatModule* formatOf(FileKind kind)
{
    for (const FormatModule* module : allFormats())
        for (const KindFacts& facts : module->kinds)
            if (facts.kind == kind)
                return module;
    return nullptr;
}

const KindFacts* factsOf(FileKind kind)
{
    for (const FormatModule* module : allFormats())
        for (const KindFacts& facts : module->kinds)
            if (facts.kind == kind)
                return &facts;
    return nullptr;
}

Viewer viewerFor(const FileKindReport& report)
{
    const FormatModule* module = formatOf(report.kind);
    const KindFacts* facts = factsOf(report.kind);
    if (module == nullptr || facts == nullptr)
        return Viewer::kSummary;
    if (facts->viewer == Viewer::kGraph && module->holdsGraph != nullptr && !module->holdsGraph(report))
        return Viewer::kSummary;
    return facts->viewer;
}

} // namespace tstudio::formats
