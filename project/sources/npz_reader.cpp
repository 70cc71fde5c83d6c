// readNpzArrays: libzip opens the archive and inflates each member; io/npy.h decodes it.
#include "project/sources/npz_reader.h"

#include "io/npy.h"

#include <zip.h>

#include <algorithm>
#include <memory>
#include <optional>

namespace tstudio::project {
namespace {

/// The most bytes one member may inflate to, and the most it may grow over its stored size
/// (deflate cannot exceed about 1032:1), so that a forged size is refused before allocating.
constexpr std::uint64_t kMaxMemberBytes = 1ull << 36;
constexpr std::uint64_t kMaxInflation = 1100;

struct ArchiveCloser {
    void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct MemberCloser {
    void operator()(zip_file_t* file) const { zip_fclose(file); }
};

std::string memberNames(zip_t* archive)
{
    std::string out;
    const zip_int64_t count = zip_get_num_entries(archive, 0);
    for (zip_int64_t i = 0; i < count; ++i) {
        const char* name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
        if (!name)
            continue;
        std::string n(name);
        if (n.size() > 4 && n.compare(n.size() - 4, 4, ".npy") == 0)
            out += (out.empty() ? "" : ", ") + n.substr(0, n.size() - 4);
    }
    return out.empty() ? std::string("no arrays") : out;
}

/// The member's bytes, or nullopt when the archive has no such member.
Expected<std::optional<std::string>> readMember(zip_t* archive, const std::string& archiveName,
                                                std::uint64_t archiveBytes, const std::string& member)
{
    const std::string what = archiveName + ": " + member;
    const zip_int64_t index = zip_name_locate(archive, member.c_str(), 0);
    if (index < 0)
        return std::optional<std::string>();
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(index), 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE) ||
        !(stat.valid & ZIP_STAT_COMP_SIZE))
        return unexpected(dataLossError(what + ": " + zip_strerror(archive)));
    // The compressed size is the header's word too: bounded by the archive's own size, it bounds
    // what the inflation check below lets the member claim (a 700-byte file once claimed 3.9 GB).
    if (stat.comp_size > archiveBytes)
        return unexpected(dataLossError(what + ": declares " + std::to_string(stat.comp_size) +
                                        " compressed bytes but the archive has " + std::to_string(archiveBytes) +
                                        "; the file is truncated or corrupt"));
    if (stat.size > kMaxMemberBytes || stat.size > std::max<std::uint64_t>(stat.comp_size, 1) * kMaxInflation)
        return unexpected(resourceExhaustedError(what + ": declares " + std::to_string(stat.size) +
                                                 " bytes inflated from " + std::to_string(stat.comp_size) +
                                                 "; refusing to read it"));
    std::unique_ptr<zip_file_t, MemberCloser> file(zip_fopen_index(archive, static_cast<zip_uint64_t>(index), 0));
    if (!file)
        return unexpected(dataLossError(what + ": " + zip_strerror(archive)));
    std::string bytes(static_cast<std::size_t>(stat.size), '\0');
    std::size_t done = 0;
    for (;;) {
        // One read past the end lets libzip check the member's CRC.
        char spare = 0;
        char* dst = done < bytes.size() ? bytes.data() + done : &spare;
        const std::size_t want = done < bytes.size() ? bytes.size() - done : 1;
        const zip_int64_t n = zip_fread(file.get(), dst, want);
        if (n < 0)
            return unexpected(dataLossError(what + ": " + zip_file_strerror(file.get())));
        if (n == 0)
            break;
        if (done >= bytes.size())
            return unexpected(dataLossError(what + ": holds more than the " + std::to_string(stat.size) +
                                            " bytes its header declares"));
        done += static_cast<std::size_t>(n);
    }
    if (done != bytes.size())
        return unexpected(dataLossError(what + ": holds " + std::to_string(done) + " bytes but its header declares " +
                                        std::to_string(stat.size)));
    return std::optional<std::string>(std::move(bytes));
}

} // namespace

Expected<std::vector<Tensor>> readNpzArrays(const std::filesystem::path& path, const std::vector<std::string>& keys,
                                            Allocator& allocator)
{
    const std::string name = path.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return unexpected(notFoundError("no file '" + name + "'"));
    const std::uintmax_t archiveBytes = std::filesystem::file_size(path, ec);
    if (ec)
        return unexpected(notFoundError("cannot read the size of '" + name + "': " + ec.message()));
    int code = 0;
    std::unique_ptr<zip_t, ArchiveCloser> archive(zip_open(name.c_str(), ZIP_RDONLY, &code));
    if (!archive) {
        zip_error_t error;
        zip_error_init_with_code(&error, code);
        const std::string text = zip_error_strerror(&error);
        zip_error_fini(&error);
        return unexpected(invalidArgumentError("'" + name + "' is not a readable zip archive: " + text));
    }
    std::vector<Tensor> out;
    for (const std::string& key : keys) {
        auto bytes = readMember(archive.get(), name, archiveBytes, key + ".npy");
        if (!bytes)
            return unexpected(bytes.error());
        if (!*bytes)
            return unexpected(
                notFoundError("'" + name + "' has no array '" + key + "' (it has " + memberNames(archive.get()) + ")"));
        auto array = parseNpy(**bytes, allocator, name + ": " + key + ".npy");
        if (!array)
            return unexpected(array.error());
        out.push_back(std::move(*array));
    }
    return out;
}

} // namespace tstudio::project
