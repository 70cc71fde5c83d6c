// TableSummary: one pass over a LevelDB-format table (a checkpoint index or a V1 checkpoint),
// counting its entries and keeping the value of the empty key (the header).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tstudio::formats {

class ProbeFile;

struct TableSummary {
    bool hasHeader = false;
    std::string headerValue;   ///< the value stored under the key ""
    std::int64_t entries = 0;  ///< entries other than the header
};

/// True when the file ends with the table magic number.
bool hasTableMagic(ProbeFile& file);

/// Reads every block of the table. DataLoss naming the block when it is damaged. `onEntry`, when
/// given, sees each entry other than the header (key, value), in table order.
Expected<TableSummary> summarizeTable(
    ProbeFile& file, const std::function<void(std::string_view key, std::string_view value)>& onEntry = {});

} // namespace tstudio::formats
