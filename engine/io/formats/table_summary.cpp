// TableSummary: the footer, the index block and every data block of a table, read once.
#include "io/formats/table_summary.h"

#include "io/formats/probe_file.h"
#include "io/table_format.h"

namespace tstudio::formats {

bool hasTableMagic(ProbeFile& file)
{
    return file.size() >= table::kFooterSize && table::hasMagic(file.read(file.size() - 8, 8));
}

Expected<TableSummary> summarizeTable(ProbeFile& file,
                                     const std::function<void(std::string_view key, std::string_view value)>& onEntry)
{
    if (file.size() < table::kFooterSize)
        return unexpected(dataLossError("file is shorter than a table footer"));
    auto footer = table::decodeFooter(file.read(file.size() - table::kFooterSize, table::kFooterSize));
    if (!footer)
        return unexpected(footer.error());
    auto indexBlock = table::readBlock(file.stream(), file.size(), footer->index);
    if (!indexBlock)
        return unexpected(indexBlock.error().withContext("index block"));
    TableSummary summary;
    Status inner;
    Status outer = table::forEachEntry(*indexBlock, [&](std::string_view, std::string_view handleBytes) {
        auto handle = table::decodeBlockHandle(handleBytes);
        if (!handle) {
            inner = handle.error();
            return false;
        }
        auto block = table::readBlock(file.stream(), file.size(), *handle);
        if (!block) {
            inner = block.error();
            return false;
        }
        inner = table::forEachEntry(*block, [&](std::string_view key, std::string_view value) {
            if (key.empty()) {
                summary.hasHeader = true;
                summary.headerValue = std::string(value);
            } else {
                ++summary.entries;
                if (onEntry)
                    onEntry(key, value);
            }
            return true;
        });
        return inner.isOk();
    });
    if (!outer.isOk())
        return unexpected(outer);
    if (!inner.isOk())
        return unexpected(inner);
    return summary;
}

} // namespace tstudio::formats
