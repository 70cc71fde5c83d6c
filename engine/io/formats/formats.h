// The front door's single list of format modules, and what the modules share among themselves.
// A new format is one module file and one line in formats.cpp.
#pragma once

#include "io/formats/format_module.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace tstudio::formats {

/// Every format, in the order the detector asks them: record-framed files (event files before
/// other TFRecords), tables (V1 checkpoints before V2 indexes), text with a recognisable head, then
/// the protobuf messages (SavedModel, MetaGraphDef, GraphDef: a wrong guess leaves unknown fields,
/// so the richest message goes first).
std::span<const FormatModule* const> allFormats();

/// The module that reports `kind`; null for kUnknown.
const FormatModule* formatOf(FileKind kind);
/// The facts of `kind`; null for kUnknown.
const KindFacts* factsOf(FileKind kind);

/// Where the IDE shows what `report` describes: its kind's viewer, except that a file whose
/// module reads no graph for it (a checkpoint without its .meta) goes to the summary page.
Viewer viewerFor(const FileKindReport& report);

// The modules, one per file.
const FormatModule& eventFileFormat();
const FormatModule& tfRecordFormat();
const FormatModule& checkpointV1Format();
const FormatModule& checkpointFormat();
const FormatModule& chromeTraceFormat();
const FormatModule& tfprofProfileFormat();
const FormatModule& checkpointStateFormat();
const FormatModule& projectFormat();
const FormatModule& savedModelFormat();
const FormatModule& metaGraphFormat();
const FormatModule& graphDefFormat();

// Shared between modules.

/// The first record of a record-framed file, as far as the probes need it.
struct FirstRecord {
    enum State { kNotFramed, kTruncated, kCorrupt, kNotInspected, kRead };
    State state = kNotFramed;
    std::uint64_t length = 0;  ///< the length its header declares
    std::string data;          ///< its bytes, when kRead
};
/// Reads the first record when the head has TFRecord framing (at most options.maxFirstRecordBytes).
FirstRecord readFirstRecord(ProbeFile& file, const FileKindDetectorOptions& options);

/// The newest V2 checkpoint prefix in `dir`: the state file's, else the newest `.index`.
std::optional<std::string> newestCheckpointPrefix(const std::filesystem::path& dir);

} // namespace tstudio::formats
