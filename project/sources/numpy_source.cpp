// loadNumpyArrays: .npy files through io/npy.h, .npz archives through npz_reader.h, then the check
// that every component has one example per row of the same first dimension.
#include "project/sources/numpy_source.h"

#include "io/npy.h"
#include "project/sources/npz_reader.h"

namespace tstudio::project {

Expected<std::vector<Tensor>> loadNumpyArrays(const std::vector<std::filesystem::path>& files,
                                              const std::vector<std::string>& keys, Allocator& allocator)
{
    std::vector<Tensor> arrays;
    std::vector<std::string> names; // how errors name each array
    if (keys.empty()) {
        for (const std::filesystem::path& file : files) {
            std::error_code ec;
            if (!std::filesystem::is_regular_file(file, ec))
                return unexpected(notFoundError("no file '" + file.string() + "'"));
            auto array = readNpy(file, allocator);
            if (!array)
                return unexpected(array.error());
            arrays.push_back(std::move(*array));
            names.push_back("'" + file.string() + "'");
        }
    } else {
        if (files.size() != 1)
            return unexpected(invalidArgumentError("an .npz source reads one archive, got " +
                                                   std::to_string(files.size()) + " files"));
        auto read = readNpzArrays(files.front(), keys, allocator);
        if (!read)
            return unexpected(read.error());
        arrays = std::move(*read);
        for (std::size_t i = 0; i < keys.size(); ++i)
            names.push_back(i == 0 ? "array '" + keys[i] + "' of '" + files.front().string() + "'"
                                   : "array '" + keys[i] + "'");
    }
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        if (arrays[i].shape().rank() < 1)
            return unexpected(invalidArgumentError(
                (keys.empty() ? names[i] : "array '" + keys[i] + "' of '" + files.front().string() + "'") +
                " is a scalar; a numpy source needs arrays whose first dimension indexes the examples"));
    }
    for (std::size_t i = 1; i < arrays.size(); ++i) {
        const std::int64_t first = arrays.front().shape().dim(0);
        const std::int64_t here = arrays[i].shape().dim(0);
        if (here != first)
            return unexpected(invalidArgumentError(names.front() + " holds " + std::to_string(first) +
                                                   " examples (its first dimension) but " + names[i] + " holds " +
                                                   std::to_string(here)));
    }
    return arrays;
}

} // namespace tstudio::project
